package screens

import (
	"testing"
	"time"

	"marquee/platform/testkit"
)

// The health emails are multipart/alternative, parsed strictly, with the Screens link.
func TestMailsAreMultipart(t *testing.T) {
	const base = "https://ads.example.com"
	at := time.Date(2026, 11, 26, 14, 0, 0, 0, time.UTC)
	for _, m := range []string{
		testkit.RenderMail(t, silentMail("ops@example.com", "screen-1", "face-1", at, time.Hour, base)),
		testkit.RenderMail(t, backMail("ops@example.com", "screen-1", "face-1", at.Add(2*time.Hour), at, base)),
	} {
		parsed := testkit.ParseMail(t, m, base)
		if len(parsed.Hrefs) == 0 || parsed.Hrefs[0] != base+"/admin/screens" {
			t.Errorf("links %v", parsed.Hrefs)
		}
	}
}
