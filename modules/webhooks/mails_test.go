package webhooks

import (
	"testing"

	"marquee/platform/testkit"
)

// TestMailsAreMultipart: the endpoint-disabled email is multipart/alternative, parsed strictly,
// with the settings link in both parts.
func TestMailsAreMultipart(t *testing.T) {
	const base = "https://ads.example.com"
	m := testkit.ParseMail(t, testkit.RenderMail(t, disabledMail("ana@example.com", "Ana", "https://hooks.example.net/in", base)), base)
	if len(m.Hrefs) == 0 || m.Hrefs[0] != base+"/settings" {
		t.Errorf("links %v", m.Hrefs)
	}
}
