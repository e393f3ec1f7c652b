package reports

import (
	"strings"
	"testing"
	"time"

	"marquee/modules/campaigns"
	"marquee/platform/dates"
)

// The PDF lists each recorded week's verification code and where to check it; a week
// without a record has no line.
func TestPDFCarriesVerificationCodes(t *testing.T) {
	t.Parallel()
	start := dates.MustParse("2026-10-05")
	v := int64(42000)
	weeks := []campaigns.Week{
		{ID: "w1", ProductID: "f1", StartAt: start, EndAt: start.AddDays(6), ProductOoh: 50000, ActImp: &v,
			Product: campaigns.WeekProduct{LocationName: "Main St & 1st Ave", Market: "Chicago", Face: "North Face"}},
		{ID: "w2", ProductID: "f1", StartAt: start.AddWeeks(1), EndAt: start.AddWeeks(1).AddDays(6), ProductOoh: 50000,
			Product: campaigns.WeekProduct{LocationName: "Main St & 1st Ave", Market: "Chicago", Face: "North Face"}},
	}
	doc := &document{name: "Codes", campaign: &campaigns.Campaign{Name: "Codes", StartDate: start, EndDate: start.AddWeeks(2).AddDays(-1)},
		companyName: "Co", start: start, end: start.AddWeeks(2).AddDays(-1), figures: computeFigures(weeks), weeks: weeks,
		generatedAt: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC),
		proofCodes:  []campaigns.WeekProofCode{{WeekID: "w1", Code: "DEMO-PLAY-CODE"}}, verifyURL: "https://marquee.example/verify/"}
	pdf, err := renderPDF(doc)
	if err != nil {
		t.Fatal(err)
	}
	_, text := pdfText(t, pdf)
	for _, want := range []string{"Verification codes", "DEMO-PLAY-CODE", "https://marquee.example/verify/CODE"} {
		if !strings.Contains(text, want) {
			t.Fatalf("the PDF lacks %q", want)
		}
	}
	if strings.Count(text, "DEMO-PLAY-CODE") != 1 {
		t.Fatal("a week without a record has a code line")
	}
}
