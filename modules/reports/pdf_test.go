package reports

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"marquee/modules/campaigns"
	"marquee/platform/dates"
	"marquee/platform/money"
)

// A year of 100 faces renders without a browser: the cover, the week and face tables over their
// pages (headers repeated), the detail pointed to the CSV, page numbers on every page; a week
// without recorded impressions counts 0 and is said so.
func TestRenderLargeReport(t *testing.T) {
	start := dates.MustParse("2025-11-17")
	var weeks []campaigns.Week
	for w := 0; w < 52; w++ {
		for f := 0; f < 100; f++ {
			wk := campaigns.Week{ID: fmt.Sprintf("w%d-%d", w, f), ProductID: fmt.Sprintf("face-%03d", f), StartAt: start.AddWeeks(w),
				EndAt: start.AddWeeks(w).AddDays(6), ProductOoh: 10000 + int64(f*37), OfferPrice: money.Cents(25000),
				Product: campaigns.WeekProduct{LocationName: fmt.Sprintf("Main St & %d Ave, Chicago #%d", f, f), Market: "Chicago", Face: "North Face"}}
			if f%10 == 7 { // a name longer than its column
				wk.Product.LocationName = fmt.Sprintf("Colorado Blvd & Lake Avenue, Pasadena Playhouse District #%d", f)
			}
			if !(w == 51 && f == 0) {
				v := wk.ProductOoh * int64(90+(w+f)%25) / 100
				wk.ActImp = &v
			}
			weeks = append(weeks, wk)
		}
	}
	sortWeeks(weeks)
	doc := &document{name: "Year in review", campaign: &campaigns.Campaign{Name: "Year-round brand", CompanyID: "co", StartDate: start, EndDate: start.AddWeeks(52).AddDays(-1),
		TotalCost: money.Cents(52 * 100 * 25000)}, companyName: "Café Lumière", start: start, end: start.AddWeeks(52).AddDays(-1),
		figures: computeFigures(weeks), weeks: weeks, generatedAt: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	pdf, err := renderPDF(doc)
	if err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("REPORTS_LARGE_PDF"); out != "" {
		_ = os.WriteFile(out, pdf, 0o644)
	}
	pages, text := pdfText(t, pdf)
	if pages < 6 {
		t.Fatalf("pages = %d", pages)
	}
	for _, want := range []string{"Café Lumière", "52 weeks", "100 faces", "5,200 face-weeks", "in the CSV file", "1 face-week without recorded impressions counts as 0",
		formatInt(doc.figures.Totals.Delivered), fmt.Sprintf("Page %d of %d", pages, pages), "Delivery by face"} {
		if !strings.Contains(text, want) {
			t.Fatalf("the PDF lacks %q", want)
		}
	}
	// A location name too long for its column wraps; it is never cut with "...", which
	// dropped the face number ("Chicago #...").
	if strings.Contains(text, "...") {
		t.Fatal("a cell was cut with an ellipsis")
	}
	for _, want := range []string{"Chicago #0", "Pasadena", "#57", "#97", "Chicago #99"} {
		if !strings.Contains(text, want) {
			t.Fatalf("the PDF lacks %q", want)
		}
	}
	if got := strings.Count(text, "PLANNED"); got < 4 {
		t.Fatalf("table headers repeated %d times", got)
	}
}
