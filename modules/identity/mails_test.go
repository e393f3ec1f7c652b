package identity

import (
	"strings"
	"testing"
	"time"

	"marquee/platform/testkit"
)

// TestMailsAreMultipart: every email of the module is multipart/alternative, parsed strictly, with
// the same links in its text and HTML parts, and its link as the HTML part's button.
func TestMailsAreMultipart(t *testing.T) {
	const base = "https://ads.example.com"
	for _, tc := range []struct {
		name  string
		raw   string
		links int
	}{
		{"welcome", testkit.RenderMail(t, welcomeMail("ana@example.com", "Sunrise <Coffee>", base)), 2},
		{"reset", testkit.RenderMail(t, resetMail("ana@example.com", base+"/reset-password?token=abc&x=1", time.Hour)), 2},
		{"password changed", testkit.RenderMail(t, passwordChangedMail("ana@example.com")), 0},
		{"invite", testkit.RenderMail(t, inviteMail("ana@example.com", "Bo", "Sunrise Coffee", base+"/access?token=xyz", 7*24*time.Hour)), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testkit.ParseMail(t, tc.raw, base)
			if len(m.Hrefs) != tc.links {
				t.Errorf("links %v, want %d (the button and its fallback)", m.Hrefs, tc.links)
			}
			if !strings.Contains(m.HTML, "The Marquee team") || !strings.Contains(m.HTML, ">Marquee</td>") {
				t.Errorf("no mark or signature in the HTML part")
			}
		})
	}
	// A company name is text in the HTML part, never markup.
	m := testkit.ParseMail(t, testkit.RenderMail(t, welcomeMail("ana@example.com", "Sunrise <Coffee>", base)), base)
	if strings.Contains(m.HTML, "<Coffee>") || !strings.Contains(m.HTML, "Sunrise &lt;Coffee&gt;") {
		t.Errorf("the company name is not escaped in the HTML part")
	}
}
