package creatives

import (
	"strings"
	"testing"

	"marquee/platform/testkit"
)

// TestMailsAreMultipart: the creative request and its copy are multipart/alternative, parsed
// strictly; the request's figures are a table, so a mail client shows them aligned.
func TestMailsAreMultipart(t *testing.T) {
	req := CreativeRequest{Email: "ana@example.com", FullName: "Ana Diaz", Message: "A <b>bold</b> ad, please."}
	m := testkit.ParseMail(t, testkit.RenderMail(t, creativeRequestMail("ops@example.com", "Sunrise Coffee", "standard", req, "ana@sunrise.test")), "https://ads.example.com")
	if !strings.Contains(m.HTML, "Ana Diaz") || !strings.Contains(m.HTML, "A &lt;b&gt;bold&lt;/b&gt; ad, please.") || !strings.Contains(m.Text, "A <b>bold</b> ad, please.") {
		t.Errorf("request: %s", m.HTML)
	}
	c := testkit.ParseMail(t, testkit.RenderMail(t, creativeRequestCopy("ana@sunrise.test", req)), "https://ads.example.com")
	if !strings.Contains(c.HTML, "Hello Ana Diaz,") {
		t.Errorf("copy: %s", c.HTML)
	}
}
