package campaigns

import (
	"strings"
	"testing"

	"marquee/modules/campaigns/internal/store"
	"marquee/platform/dates"
	"marquee/platform/testkit"
)

// TestMailsAreMultipart: every email of the module is multipart/alternative, parsed strictly, with
// the same links in both parts; the make-good emails carry their key figures in a table (issue
// 25 §5).
func TestMailsAreMultipart(t *testing.T) {
	const base = "https://ads.example.com"
	c := &store.Campaign{ID: "c1", Name: "Summer <Sale>", StartDate: dates.MustParse("2026-12-07"), EndDate: dates.MustParse("2027-01-03")}
	mg := &store.MakeGood{WeekStart: dates.MustParse("2026-11-02"), LocationName: "Main St", Face: "North", Planned: 120000,
		Delivered: 60000, ThresholdPercent: 90, CreditCents: 5700}

	for _, raw := range []string{
		testkit.RenderMail(t, campaignUpdatedMail("ana@example.com", "Ana", c, "New dates agreed on the phone.")),
		testkit.RenderMail(t, paymentFailedMail("ana@example.com", "Ana", c, dates.MustParse("2026-12-07"), "Your card was declined.")),
	} {
		if m := testkit.ParseMail(t, raw, base); !strings.Contains(m.HTML, "Summer &lt;Sale&gt;") {
			t.Errorf("%s: the campaign name is not in the HTML part, escaped", m.Subject)
		}
	}
	renew := testkit.ParseMail(t, testkit.RenderMail(t, renewalMail("ana@example.com", "Ana", c, base+"/campaigns/new?renew=c1")), base)
	if len(renew.Hrefs) == 0 || renew.Hrefs[0] != base+"/campaigns/new?renew=c1" {
		t.Errorf("renewal links %v", renew.Hrefs)
	}

	granted := testkit.ParseMail(t, testkit.RenderMail(t, makeGoodMail("ana@example.com", "Ana", c, mg, base+"/campaigns/c1")), base)
	if len(granted.Hrefs) == 0 || granted.Hrefs[0] != base+"/campaigns/c1" {
		t.Errorf("make-good links %v", granted.Hrefs)
	}
	for _, cell := range []string{">Contracted impressions</td>", ">120,000</td>", ">60,000 (50.0%)</td>", ">$57.00</td>", ">90%</td>"} {
		if !strings.Contains(granted.HTML, cell) {
			t.Errorf("make-good: no %q in the figures table", cell)
		}
	}
	mg.Delivered, mg.CreditCents = 80000, 3800
	corr := testkit.ParseMail(t, testkit.RenderMail(t, makeGoodCorrectionMail("ana@example.com", "Ana", c, mg, 5700, base+"/campaigns/c1")), base)
	if !strings.HasPrefix(corr.Subject, "Correction:") || !strings.Contains(corr.Text, "changed from $57.00 to $38.00") ||
		!strings.Contains(corr.HTML, ">Credit before</td>") || !strings.Contains(corr.HTML, ">$38.00</td>") {
		t.Errorf("correction: %s\n%s", corr.Subject, corr.Text)
	}
}
