package partners

import (
	"testing"

	"marquee/platform/testkit"
)

// TestMailsAreMultipart: the client invitation is multipart/alternative, parsed strictly, its
// link the HTML part's button.
func TestMailsAreMultipart(t *testing.T) {
	link := "https://ads.example.com/access?token=abc"
	m := testkit.ParseMail(t, testkit.RenderMail(t, clientInviteMail("ana@example.com", "Bo Lee", "Partner Co", link)), "https://ads.example.com")
	if len(m.Hrefs) == 0 || m.Hrefs[0] != link {
		t.Errorf("links %v", m.Hrefs)
	}
}
