package reports

import (
	"encoding/json"
	"strings"
	"testing"

	"marquee/modules/campaigns"
	"marquee/modules/reports/internal/store"
	"marquee/platform/dates"
	"marquee/platform/money"
	"marquee/platform/testkit"
)

// TestMailsAreMultipart: the weekly report, the new-report and the digest emails are
// multipart/alternative, parsed strictly, with the same links in both parts and their key figures
// in small tables.
func TestMailsAreMultipart(t *testing.T) {
	const base = "https://ads.example.com"
	figs, _ := json.Marshal(figureSet{Totals: Figures{Planned: 240000, Delivered: 216000, DeliveryPct: 90, Spend: money.Cents(123456)}})
	r := &store.Report{ID: "r1", CampaignName: "Summer Sale", PeriodStart: dates.MustParse("2026-11-16"), PeriodEnd: dates.MustParse("2026-11-22"), Figures: string(figs)}
	weekly := testkit.ParseMail(t, testkit.RenderMail(t, weeklyMail("ana@example.com", "Ana", r, base+"/reports/r1", nil)), base)
	for _, cell := range []string{">240,000</td>", ">216,000</td>", ">90.0%</td>", ">$1,234</td>", ">Nov 16 to Nov 22, 2026</td>"} {
		if !strings.Contains(weekly.HTML, cell) {
			t.Errorf("weekly: no %q in the figures table", cell)
		}
	}
	dto := &Report{ID: "r1", Name: "Week 3", CampaignName: "Summer Sale"}
	added := testkit.ParseMail(t, testkit.RenderMail(t, newReportMail("ana@example.com", "Ana", dto, reportFacts(r.PeriodStart, r.PeriodEnd, r.Figures),
		base+"/reports/r1", "The storm week is explained on page 2.")), base)
	if !strings.Contains(added.HTML, ">216,000</td>") || !strings.Contains(added.HTML, "The storm week is explained on page 2.") {
		t.Errorf("new report: %s", added.HTML)
	}
	pct := 92
	ps := []campaigns.Pacing{{CampaignID: "c1", Name: "Summer Sale", PacePercent: &pct, PlannedToDate: 100000, DeliveredToDate: 92000,
		Spent: money.Cents(50000), Committed: money.Cents(200000), FinishBasis: campaigns.FinishOpen},
		{CampaignID: "c2", Name: "Winter", FinishBasis: campaigns.FinishOpen}}
	digest := testkit.ParseMail(t, testkit.RenderMail(t, digestMail("ana@example.com", "Ana", dates.MustParse("2026-11-23"), ps, base)), base)
	if len(digest.Hrefs) != 3 || !strings.Contains(digest.HTML, ">92,000 of 100,000 (92%)</td>") {
		t.Errorf("digest: links %v\n%s", digest.Hrefs, digest.HTML)
	}
}
