package reports

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"

	"marquee/modules/campaigns"
	"marquee/platform/dates"
	"marquee/platform/money"
)

// The generated PDF is a media owner's proof of performance (the DPAA and OAAA
// proof-of-performance reports are the model): a cover with the campaign, the client, the dates,
// the markets and the spend, the delivery totals and an impressions chart; planned against
// delivered impressions per week, per face and (when it fits) per week and face; the proof photos
// of each week; the creative that ran; page numbers and a generated-on line on every page. It is
// drawn with go-pdf/fpdf, the chart with its vector primitives: no browser, no image library.

// proofShot is a proof photo of a face in a week, as JPEG or PNG bytes.
type proofShot struct {
	data      []byte
	imageType string // "JPG" or "PNG"
	location  string
	face      string
	weekStart dates.Date
	weekEnd   dates.Date
	takenAt   time.Time
}

// creativeShot is a creative that ran, with the face-weeks it ran on.
type creativeShot struct {
	data      []byte
	imageType string
	faceWeeks int
}

// document is everything the PDF shows.
type document struct {
	name        string
	campaign    *campaigns.Campaign
	companyName string
	start, end  dates.Date
	figures     figureSet
	weeks       []campaigns.Week // sorted by week, then face
	proofs      []proofShot
	creatives   []creativeShot
	generatedAt time.Time
	// proofCodes are the weeks' signed proof-of-play codes, checked at verifyURL+code.
	proofCodes []campaigns.WeekProofCode
	verifyURL  string
	// previews are the campaign's creative drawn on its faces (preview.go); nil draws no page.
	previews *previewSet
}

// maxDetailRows is the largest week-by-face table the PDF holds; a larger one is in the CSV only.
const maxDetailRows = 400

// Colours: the brand's indigo and amber (webapp/src/index.css), slate greys.
type rgb struct{ r, g, b int }

var (
	colBrand     = rgb{67, 56, 202}   // brand-700
	colBrandDark = rgb{49, 46, 129}   // brand-900
	colBrandSoft = rgb{199, 210, 254} // brand-200
	colBrandTint = rgb{238, 242, 255} // brand-50
	colAmber     = rgb{251, 191, 36}  // marquee-400
	colInk       = rgb{15, 23, 42}    // slate-900
	colText      = rgb{51, 65, 85}    // slate-700
	colMuted     = rgb{100, 116, 139} // slate-500
	colRule      = rgb{226, 232, 240} // slate-200
	colZebra     = rgb{248, 250, 252} // slate-50
	colGood      = rgb{21, 128, 61}   // green-700
	colWarn      = rgb{180, 83, 9}    // amber-700
	colBad       = rgb{185, 28, 28}   // red-700
	colWhite     = rgb{255, 255, 255}
)

// Page geometry, in millimetres (US Letter, portrait).
const (
	pageW    = 215.9
	pageH    = 279.4
	margin   = 15.0
	contentW = pageW - 2*margin
	bottom   = 18.0
)

type pdfWriter struct {
	*fpdf.Fpdf
	tr  func(string) string
	doc *document
}

func (p *pdfWriter) fill(c rgb)  { p.SetFillColor(c.r, c.g, c.b) }
func (p *pdfWriter) draw(c rgb)  { p.SetDrawColor(c.r, c.g, c.b) }
func (p *pdfWriter) color(c rgb) { p.SetTextColor(c.r, c.g, c.b) }

// text writes a cell in the core font's encoding (cp1252: names with accents print right).
func (p *pdfWriter) text(w, h float64, s, border string, ln int, align string, fill bool) {
	p.CellFormat(w, h, p.tr(s), border, ln, align, fill, 0, "")
}

// fit shortens s with an ellipsis until it fits w at the current font.
func (p *pdfWriter) fit(s string, w float64) string {
	if p.GetStringWidth(p.tr(s)) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && p.GetStringWidth(p.tr(string(r)+"...")) > w {
		r = r[:len(r)-1]
	}
	return strings.TrimSpace(string(r)) + "..."
}

// wrap splits s into the lines that fit w at the current font, in the font's encoding (for
// CellFormat as is); at least one line.
func (p *pdfWriter) wrap(s string, w float64) []string {
	lines := p.SplitText(p.tr(s), w)
	if len(lines) == 0 {
		return []string{""}
	}
	return lines
}

// renderPDF draws the report.
func renderPDF(doc *document) ([]byte, error) {
	f := fpdf.New("P", "mm", "Letter", "")
	p := &pdfWriter{Fpdf: f, tr: f.UnicodeTranslatorFromDescriptor(""), doc: doc}
	p.SetCompression(true)
	p.SetCreationDate(doc.generatedAt)
	p.SetModificationDate(doc.generatedAt)
	p.SetTitle(p.tr(doc.name), false)
	p.SetSubject(p.tr("Proof of performance: "+doc.campaign.Name), false)
	p.SetAuthor("Marquee", false)
	p.SetCreator("Marquee", false)
	p.SetMargins(margin, 24, margin)
	p.SetAutoPageBreak(false, bottom)
	p.AliasNbPages("{nb}")
	p.SetHeaderFunc(p.header)
	p.SetFooterFunc(p.footer)

	p.cover()
	p.weekTable()
	p.faceTable()
	p.detailTable()
	p.codesTable()
	p.proofPages()
	p.creativePage()
	p.previewPages()

	var buf bytes.Buffer
	if err := p.Output(&buf); err != nil {
		return nil, fmt.Errorf("reports: render pdf: %w", err)
	}
	return buf.Bytes(), nil
}

// logo draws the Marquee mark (webapp/src/platform/Logo.tsx) at x, y with side s.
func (p *pdfWriter) logo(x, y, s float64) {
	u := s / 64
	p.fill(colBrand)
	p.RoundedRect(x, y, s, s, 14*u, "1234", "F")
	p.fill(colAmber)
	p.RoundedRect(x+10*u, y+16*u, 44*u, 26*u, 4*u, "1234", "F")
	p.Rect(x+29*u, y+42*u, 6*u, 12*u, "F")
	p.draw(colBrand)
	p.SetLineWidth(4 * u)
	p.SetLineCapStyle("round")
	p.SetLineJoinStyle("round")
	p.Polygon([]fpdf.PointType{{X: x + 18*u, Y: y + 36*u}, {X: x + 18*u, Y: y + 22*u}, {X: x + 25*u, Y: y + 30*u}, {X: x + 32*u, Y: y + 22*u}, {X: x + 32*u, Y: y + 36*u}}, "D")
	// Polygon closes the path; paint the closing stroke over with the board's colour.
	p.draw(colAmber)
	p.SetLineWidth(4.2 * u)
	p.Line(x+18*u+2.2*u, y+36*u, x+32*u-2.2*u, y+36*u)
	p.SetLineWidth(0.2)
	p.SetLineCapStyle("butt")
	p.SetLineJoinStyle("miter")
}

// header runs on every page but the cover: the mark, the report's kind and the campaign.
func (p *pdfWriter) header() {
	if p.PageNo() == 1 {
		return
	}
	p.logo(margin, 9, 7)
	p.SetXY(margin+9, 9)
	p.SetFont("Helvetica", "B", 10)
	p.color(colInk)
	p.text(40, 7, "Marquee", "", 0, "L", false)
	p.SetFont("Helvetica", "", 8.5)
	p.color(colMuted)
	p.SetXY(margin+60, 9)
	right := p.fit(p.doc.campaign.Name+"  |  "+p.doc.companyName, contentW-60)
	p.text(contentW-60, 7, right, "", 0, "R", false)
	p.draw(colRule)
	p.SetLineWidth(0.3)
	p.Line(margin, 18.5, pageW-margin, 18.5)
	p.SetXY(margin, 24)
}

// footer: the generated-on line and the page number.
func (p *pdfWriter) footer() {
	p.draw(colRule)
	p.SetLineWidth(0.3)
	p.Line(margin, pageH-13, pageW-margin, pageH-13)
	p.SetXY(margin, pageH-12)
	p.SetFont("Helvetica", "", 7.5)
	p.color(colMuted)
	p.text(contentW*0.75, 5, "Generated on "+p.doc.generatedAt.UTC().Format("Jan 02, 2006 at 15:04 UTC")+
		" by Marquee  |  Proof of performance for "+p.doc.companyName, "", 0, "L", false)
	p.text(contentW*0.25, 5, fmt.Sprintf("Page %d of {nb}", p.PageNo()), "", 0, "R", false)
}

// cover is page 1: the band with the campaign, the facts, the totals and the chart.
func (p *pdfWriter) cover() {
	d := p.doc
	p.AddPage()
	p.fill(colBrandDark)
	p.Rect(0, 0, pageW, 64, "F")
	p.fill(colBrand)
	p.Rect(0, 64, pageW, 2.2, "F")
	p.logo(margin, 13, 11)
	p.SetXY(margin+14, 14.5)
	p.SetFont("Helvetica", "B", 16)
	p.color(colWhite)
	p.text(60, 8, "Marquee", "", 0, "L", false)
	p.SetXY(margin, 13)
	p.SetFont("Helvetica", "", 9)
	p.color(colBrandSoft)
	p.text(contentW, 5, "Digital billboard advertising", "", 2, "R", false)
	p.text(contentW, 5, "Report date "+d.generatedAt.UTC().Format("Jan 02, 2006"), "", 0, "R", false)

	p.SetXY(margin, 31)
	p.SetFont("Helvetica", "B", 9)
	p.color(colAmber)
	p.SetCellMargin(0)
	p.text(contentW, 5, "PROOF OF PERFORMANCE", "", 2, "L", false)
	p.SetFont("Helvetica", "B", 22)
	p.color(colWhite)
	lines := p.SplitText(p.tr(d.campaign.Name), contentW)
	if len(lines) > 2 {
		lines = lines[:2]
	}
	for _, l := range lines {
		p.CellFormat(contentW, 10, l, "", 2, "L", false, 0, "")
	}
	p.SetFont("Helvetica", "", 10.5)
	p.color(colBrandSoft)
	p.text(contentW, 6, p.fit(d.name, contentW), "", 2, "L", false)
	p.SetCellMargin(1)

	// The facts: two columns of label and value.
	flight := d.campaign.StartDate.Format("Jan 02, 2006") + " - " + d.campaign.EndDate.Format("Jan 02, 2006")
	period := fmt.Sprintf("%s - %s (%s)", d.start.Format("Jan 02, 2006"), d.end.Format("Jan 02, 2006"), plural(len(d.figures.Weeks), "week"))
	markets := strings.Join(d.figures.Markets, ", ")
	if markets == "" {
		markets = strings.Join(d.campaign.Markets, ", ")
	}
	facts := [][2]string{
		{"Client", d.companyName},
		{"Campaign", d.campaign.Name},
		{"Flight dates", flight},
		{"Reported period", period},
		{"Markets", markets},
		{"Faces", plural(len(d.figures.Faces), "face")},
		{"Spend in the reported period", d.figures.Totals.Spend.String()},
		{"Campaign spend to date", d.campaign.TotalCost.String()},
	}
	y := 76.0
	colW := contentW / 2
	for i, fct := range facts {
		x := margin + float64(i%2)*colW
		row := y + float64(i/2)*14
		p.SetXY(x, row)
		p.SetFont("Helvetica", "", 7.5)
		p.color(colMuted)
		p.text(colW-4, 4, strings.ToUpper(fct[0]), "", 2, "L", false)
		p.SetX(x)
		p.SetFont("Helvetica", "B", 10.5)
		p.color(colInk)
		p.text(colW-4, 6, p.fit(fct[1], colW-6), "", 0, "L", false)
	}
	p.draw(colRule)
	p.SetLineWidth(0.3)
	p.Line(margin, 133, pageW-margin, 133)

	// The totals as four cards.
	t := d.figures.Totals
	cards := []struct {
		label, value string
		c            rgb
	}{
		{"Planned impressions", formatInt(t.Planned), colInk},
		{"Delivered impressions", formatInt(t.Delivered), colBrand},
		{"Difference", signed(t.Difference), deliveryColour(t.DeliveryPct, t.Planned)},
		{"Delivery", formatPct(t.DeliveryPct, t.Planned), deliveryColour(t.DeliveryPct, t.Planned)},
	}
	cw := (contentW - 3*4) / 4
	for i, c := range cards {
		x := margin + float64(i)*(cw+4)
		p.fill(colBrandTint)
		p.RoundedRect(x, 139, cw, 22, 2.5, "1234", "F")
		p.SetXY(x+3, 142)
		p.SetFont("Helvetica", "", 7.5)
		p.color(colMuted)
		p.text(cw-6, 4, strings.ToUpper(c.label), "", 2, "L", false)
		p.SetX(x + 3)
		p.SetFont("Helvetica", "B", 15)
		p.color(c.c)
		p.text(cw-6, 10, c.value, "", 0, "L", false)
	}

	p.SetXY(margin, 168)
	p.sectionTitle("Impressions by week")
	p.chart(margin, 178, contentW, 70)

	p.SetXY(margin, 252)
	p.SetFont("Helvetica", "", 7.5)
	p.color(colMuted)
	note := "Planned impressions are each face's estimated weekly impressions when the campaign was booked; delivered impressions are those recorded for each face and week."
	if t.Unrecorded > 0 {
		verb := "count"
		if t.Unrecorded == 1 {
			verb = "counts"
		}
		note += fmt.Sprintf(" %s without recorded impressions %s as 0.", plural(t.Unrecorded, "face-week"), verb)
	}
	// Face-weeks delivered under the make-good threshold and the credit they earned.
	var makeGoods int
	var credit money.Cents
	for _, w := range p.doc.weeks {
		if w.MakeGood != nil && w.MakeGood.Status == campaigns.MakeGoodGranted {
			makeGoods, credit = makeGoods+1, credit+w.MakeGood.Credit
		}
	}
	if makeGoods > 0 {
		note += fmt.Sprintf(" %s delivered under the make-good threshold: $%s of account credit granted.", plural(makeGoods, "face-week"), credit.DollarString())
	}
	p.MultiCell(contentW, 3.6, p.tr(note), "", "L", false)
}

// sectionTitle writes a heading with a short amber rule under it.
func (p *pdfWriter) sectionTitle(s string) {
	p.SetFont("Helvetica", "B", 13)
	p.color(colInk)
	x, y := p.GetXY()
	p.SetCellMargin(0)
	p.text(contentW, 7, s, "", 2, "L", false)
	p.SetCellMargin(1)
	p.fill(colAmber)
	p.Rect(x, y+7.5, 14, 1, "F")
	p.SetXY(x, y+11)
}

// chart draws planned and delivered impressions per week as grouped bars with a value axis.
func (p *pdfWriter) chart(x, y, w, h float64) {
	weeks := p.doc.figures.Weeks
	var top int64
	for _, wf := range weeks {
		top = max(top, wf.Planned, wf.Delivered)
	}
	step := niceStep(top, 4)
	axisMax := step * 4
	if axisMax == 0 {
		axisMax, step = 4, 1
	}
	const labelW, labelH, legendH = 14.0, 7.0, 6.0
	px, py, pw, ph := x+labelW, y+legendH, w-labelW, h-legendH-labelH

	// Legend.
	p.SetFont("Helvetica", "", 7.5)
	p.color(colText)
	lx := x + w - 70
	for _, l := range []struct {
		c rgb
		s string
	}{{colBrandSoft, "Planned"}, {colBrand, "Delivered"}} {
		p.fill(l.c)
		p.Rect(lx, y+0.8, 3, 3, "F")
		p.SetXY(lx+4, y)
		p.text(28, 4.6, l.s+" impressions", "", 0, "L", false)
		lx += 35
	}

	// Grid and value labels.
	p.SetLineWidth(0.2)
	p.SetFont("Helvetica", "", 7)
	for i := int64(0); i <= 4; i++ {
		gy := py + ph - float64(i)/4*ph
		p.draw(colRule)
		p.Line(px, gy, px+pw, gy)
		p.SetXY(x, gy-2)
		p.color(colMuted)
		p.text(labelW-2, 4, compact(i*step), "", 0, "R", false)
	}
	if len(weeks) == 0 {
		return
	}
	slot := pw / float64(len(weeks))
	bar := math.Min(slot*0.36, 9)
	every := int(math.Ceil(float64(len(weeks)) / 13))
	for i, wf := range weeks {
		cx := px + slot*float64(i) + slot/2
		for j, v := range []int64{wf.Planned, wf.Delivered} {
			bh := float64(v) / float64(axisMax) * ph
			if bh <= 0 {
				continue
			}
			c := colBrandSoft
			if j == 1 {
				c = colBrand
			}
			p.fill(c)
			bx := cx - bar + float64(j)*bar
			p.Rect(bx, py+ph-bh, bar*0.92, bh, "F")
		}
		if i%every == 0 {
			p.SetXY(cx-10, py+ph+1.2)
			p.color(colMuted)
			p.text(20, 4, wf.StartAt.Format("Jan 2"), "", 0, "C", false)
		}
	}
	p.draw(colMuted)
	p.SetLineWidth(0.3)
	p.Line(px, py+ph, px+pw, py+ph)
}

// column is one column of a table: its title, width share, alignment.
type column struct {
	title string
	w     float64
	align string
}

// table draws rows under a repeated header, breaking pages as needed. style(i) tells a row's
// delivery colour (the last column) and whether it is the totals row.
type tableRow struct {
	cells []string
	pct   *rgb
	total bool
}

func (p *pdfWriter) table(cols []column, rows []tableRow) {
	const rowH, headH, lineH = 6.2, 7.5, 3.6
	var sum float64
	for _, c := range cols {
		sum += c.w
	}
	widths := make([]float64, len(cols))
	for i, c := range cols {
		widths[i] = c.w / sum * contentW
	}
	head := func() {
		p.SetFont("Helvetica", "B", 7.5)
		p.fill(colBrandTint)
		p.color(colBrandDark)
		for i, c := range cols {
			p.text(widths[i], headH, strings.ToUpper(c.title), "", 0, c.align, true)
		}
		p.Ln(headH)
	}
	head()
	for n, r := range rows {
		// A cell wraps instead of being cut (a cut "Pasadena #..." lost the face number): the
		// row grows by a line for each extra line of its tallest cell.
		if r.total {
			p.SetFont("Helvetica", "B", 8)
		} else {
			p.SetFont("Helvetica", "", 8)
		}
		lines := make([][]string, len(cols))
		extra := 0
		for i := range cols {
			lines[i] = p.wrap(r.cells[i], widths[i]-2)
			extra = max(extra, len(lines[i])-1)
		}
		h := rowH + float64(extra)*lineH
		if p.GetY()+h > pageH-bottom-2 {
			p.AddPage()
			head()
			if r.total {
				p.SetFont("Helvetica", "B", 8)
			} else {
				p.SetFont("Helvetica", "", 8)
			}
		}
		y := p.GetY()
		if r.total {
			p.draw(colBrand)
			p.SetLineWidth(0.4)
			p.Line(margin, y, pageW-margin, y)
		}
		zebra := !r.total && n%2 == 1
		if zebra {
			p.fill(colZebra)
			p.Rect(margin, y, contentW, h, "F")
		}
		x := margin
		for i, c := range cols {
			col := colText
			if r.total {
				col = colInk
			}
			if i == len(cols)-1 && r.pct != nil {
				col = *r.pct
			}
			p.color(col)
			for j, l := range lines[i] {
				p.SetXY(x, y+float64(j)*lineH)
				p.CellFormat(widths[i], rowH, l, "", 0, c.align, false, 0, "")
			}
			x += widths[i]
		}
		p.SetXY(margin, y+h)
	}
	p.Ln(4)
}

// ensure starts a new page unless h millimetres fit on this one.
func (p *pdfWriter) ensure(h float64) {
	if p.GetY()+h > pageH-bottom-2 {
		p.AddPage()
	}
}

func figureCells(f Figures) []string {
	return []string{formatInt(f.Planned), formatInt(f.Delivered), signed(f.Difference), formatPct(f.DeliveryPct, f.Planned)}
}

func pctColour(f Figures) *rgb {
	c := deliveryColour(f.DeliveryPct, f.Planned)
	return &c
}

// weekTable: planned against delivered per week.
func (p *pdfWriter) weekTable() {
	p.AddPage()
	p.sectionTitle("Delivery by week")
	p.intro(fmt.Sprintf("Every week of the report over its %s. Difference is delivered minus planned; delivery is delivered as a share of planned.", plural(len(p.doc.figures.Faces), "face")))
	cols := []column{{"Week", 8, "L"}, {"Dates", 30, "L"}, {"Faces", 9, "R"}, {"Planned", 17, "R"}, {"Delivered", 17, "R"}, {"Difference", 17, "R"}, {"Delivery", 13, "R"}}
	var rows []tableRow
	for i, wf := range p.doc.figures.Weeks {
		cells := append([]string{strconv.Itoa(i + 1), wf.StartAt.Format("Jan 02") + " - " + wf.EndAt.Format("Jan 02, 2006"), strconv.Itoa(wf.Faces)}, figureCells(wf.Figures)...)
		rows = append(rows, tableRow{cells: cells, pct: pctColour(wf.Figures)})
	}
	t := p.doc.figures.Totals
	rows = append(rows, tableRow{cells: append([]string{"", "Total", strconv.Itoa(len(p.doc.figures.Faces))}, figureCells(t)...), pct: pctColour(t), total: true})
	p.table(cols, rows)
}

// intro writes a short explanation under a section title.
func (p *pdfWriter) intro(s string) {
	p.SetFont("Helvetica", "", 8.5)
	p.color(colMuted)
	p.MultiCell(contentW, 4.2, p.tr(s), "", "L", false)
	p.Ln(2)
}

// faceTable: planned against delivered per face.
func (p *pdfWriter) faceTable() {
	p.ensure(40)
	p.sectionTitle("Delivery by face")
	cols := []column{{"Location", 38, "L"}, {"Market", 18, "L"}, {"Face", 12, "L"}, {"Weeks", 8, "R"}, {"Planned", 15, "R"}, {"Delivered", 15, "R"}, {"Difference", 15, "R"}, {"Delivery", 11, "R"}}
	var rows []tableRow
	for _, ff := range p.doc.figures.Faces {
		cells := append([]string{ff.LocationName, ff.Market, ff.Face, strconv.Itoa(ff.Weeks)}, figureCells(ff.Figures)...)
		rows = append(rows, tableRow{cells: cells, pct: pctColour(ff.Figures)})
	}
	t := p.doc.figures.Totals
	rows = append(rows, tableRow{cells: append([]string{"Total", "", "", strconv.Itoa(len(p.doc.figures.Weeks))}, figureCells(t)...), pct: pctColour(t), total: true})
	p.table(cols, rows)
}

// detailTable: every face in every week, when the report is small enough; the CSV always has it.
func (p *pdfWriter) detailTable() {
	p.ensure(40)
	p.sectionTitle("Delivery by week and face")
	if len(p.doc.weeks) > maxDetailRows {
		p.intro(fmt.Sprintf("This report covers %s. Their week-by-face figures are in the CSV file offered beside this report.", plural(len(p.doc.weeks), "face-week")))
		return
	}
	cols := []column{{"Week of", 16, "L"}, {"Location", 38, "L"}, {"Face", 12, "L"}, {"Planned", 15, "R"}, {"Delivered", 15, "R"}, {"Difference", 15, "R"}, {"Delivery", 11, "R"}}
	var rows []tableRow
	for i := range p.doc.weeks {
		w := &p.doc.weeks[i]
		var f Figures
		f.add(w)
		f.finish()
		delivered := formatInt(f.Delivered)
		if w.ActImp == nil {
			delivered = "not recorded"
		}
		cells := []string{w.StartAt.Format("Jan 02, 2006"), w.Product.LocationName, w.Product.Face, formatInt(f.Planned), delivered, signed(f.Difference), formatPct(f.DeliveryPct, f.Planned)}
		rows = append(rows, tableRow{cells: cells, pct: pctColour(f)})
	}
	p.table(cols, rows)
}

// codesTable: the verification code of each week and face whose delivery or proofs were recorded
// (signed proof of play): anyone can check one at verifyURL+code without signing in.
func (p *pdfWriter) codesTable() {
	codes := make(map[string]string, len(p.doc.proofCodes))
	for _, c := range p.doc.proofCodes {
		codes[c.WeekID] = c.Code
	}
	var rows []tableRow
	for i := range p.doc.weeks {
		w := &p.doc.weeks[i]
		if code, ok := codes[w.ID]; ok {
			rows = append(rows, tableRow{cells: []string{w.StartAt.Format("Jan 02, 2006"), w.Product.LocationName, w.Product.Face, code}})
		}
	}
	if len(rows) == 0 || len(rows) > maxDetailRows {
		return
	}
	p.ensure(40)
	p.sectionTitle("Verification codes")
	p.intro("Each recorded week is signed by Marquee. Anyone can check a week's figures and photos, without an account, at " + p.doc.verifyURL + "CODE.")
	p.table([]column{{"Week of", 16, "L"}, {"Location", 38, "L"}, {"Face", 12, "L"}, {"Code", 22, "L"}}, rows)
}

// proofPages: the proof photos as captioned thumbnails, three a row.
func (p *pdfWriter) proofPages() {
	p.AddPage()
	p.sectionTitle("Proof of posting")
	if len(p.doc.proofs) == 0 {
		p.intro("No proof photos were recorded for the weeks of this report.")
		return
	}
	p.intro(fmt.Sprintf("%s taken of the faces while the campaign ran, by week.", plural(len(p.doc.proofs), "photo")))
	const cols, gap, boxH, capH = 3, 5.0, 40.0, 18.0
	boxW := (contentW - gap*(cols-1)) / cols
	for i, s := range p.doc.proofs {
		if i%cols == 0 {
			p.ensure(boxH + capH + 2)
		}
		x := margin + float64(i%cols)*(boxW+gap)
		y := p.GetY()
		p.fill(colZebra)
		p.Rect(x, y, boxW, boxH, "F")
		p.image(fmt.Sprintf("proof-%d", i), s.data, s.imageType, x, y, boxW, boxH)
		p.SetXY(x, y+boxH+1)
		p.SetFont("Helvetica", "B", 7.5)
		p.color(colInk)
		// The location and its face wrap on two lines rather than lose the face; only a
		// name longer than two lines is shortened, and never the face.
		caption := p.wrap(s.location+"  |  "+s.face, boxW-2)
		if len(caption) > 2 {
			caption = []string{p.tr(p.fit(s.location, boxW-2)), p.tr(s.face)}
		}
		for _, l := range caption {
			p.SetX(x)
			p.CellFormat(boxW, 4, l, "", 2, "L", false, 0, "")
		}
		if len(caption) == 1 {
			p.Ln(4)
		}
		p.SetX(x)
		p.SetFont("Helvetica", "", 7)
		p.color(colMuted)
		p.text(boxW, 3.6, "Week of "+s.weekStart.Format("Jan 02")+" - "+s.weekEnd.Format("Jan 02, 2006"), "", 2, "L", false)
		p.SetX(x)
		p.text(boxW, 3.6, "Photo added "+s.takenAt.UTC().Format("Jan 02, 2006"), "", 0, "L", false)
		if i%cols == cols-1 || i == len(p.doc.proofs)-1 {
			p.SetXY(margin, y+boxH+capH+2)
		} else {
			p.SetXY(x+boxW+gap, y)
		}
	}
}

// creativePage: the creatives that ran.
func (p *pdfWriter) creativePage() {
	p.ensure(90)
	p.Ln(4)
	p.sectionTitle("The creative that ran")
	if len(p.doc.creatives) == 0 {
		p.intro("No creative is on record for the weeks of this report.")
		return
	}
	for i, c := range p.doc.creatives {
		p.ensure(78)
		y := p.GetY()
		p.fill(colZebra)
		p.Rect(margin, y, contentW, 64, "F")
		p.image(fmt.Sprintf("creative-%d", i), c.data, c.imageType, margin+2, y+2, contentW-4, 60)
		p.SetXY(margin, y+65)
		p.SetFont("Helvetica", "", 8)
		p.color(colMuted)
		p.text(contentW, 5, fmt.Sprintf("Shown on %s of this report.", plural(c.faceWeeks, "face-week")), "", 2, "L", false)
		p.Ln(3)
	}
}

// previewPages: "Your ad on the faces", the creative drawn on each face's photo by day and by
// night (issue 29), the faces that delivered the most first; the faces without a photo are named.
func (p *pdfWriter) previewPages() {
	set := p.doc.previews
	if set == nil {
		return
	}
	p.AddPage()
	p.sectionTitle("Your ad on the faces")
	switch {
	case set.noCreative:
		p.intro("No creative is on record for the weeks of this report, so there is nothing to show on the faces.")
		return
	case set.unavailable:
		p.intro("The faces' photos could not be read when this report was made, so the previews are missing.")
		return
	}
	intro := "Your creative drawn on each face's photo, with the screen's perspective, by day and at night."
	if len(set.shown) > 0 {
		intro += fmt.Sprintf(" Shown: %s of this report's %s, those that delivered the most impressions.", plural(len(set.shown), "face"), plural(set.total, "face"))
	}
	if set.others > 0 {
		intro += fmt.Sprintf(" %s with a photo not shown here.", plural(set.others, "other face"))
	}
	p.intro(intro)
	const gap, labelH = 5.0, 5.0
	boxW := (contentW - gap) / 2
	boxH := boxW * 0.625 // the demo photos' 960 x 600; other shapes are centred in the box
	for i, f := range set.shown {
		p.ensure(6 + boxH + labelH + 6)
		p.SetFont("Helvetica", "B", 9)
		p.color(colInk)
		p.text(contentW, 5, p.fit(f.location+"  |  "+f.face+"  |  "+f.market, contentW), "", 2, "L", false)
		y := p.GetY() + 1
		if f.note != "" {
			p.SetFont("Helvetica", "", 8.5)
			p.color(colMuted)
			p.text(contentW, 5, f.note, "", 2, "L", false)
			p.Ln(4)
			continue
		}
		for j, pic := range []struct {
			data  []byte
			label string
		}{{f.day, "Day"}, {f.night, "Night"}} {
			x := margin + float64(j)*(boxW+gap)
			p.fill(colZebra)
			p.Rect(x, y, boxW, boxH, "F")
			p.image(fmt.Sprintf("preview-%d-%d", i, j), pic.data, "JPG", x, y, boxW, boxH)
			p.SetXY(x, y+boxH+0.5)
			p.SetFont("Helvetica", "", 7.5)
			p.color(colMuted)
			p.text(boxW, labelH, pic.label, "", 0, "L", false)
		}
		p.SetXY(margin, y+boxH+labelH+5)
	}
	if len(set.missing) > 0 {
		p.ensure(20)
		p.SetFont("Helvetica", "B", 9)
		p.color(colInk)
		p.text(contentW, 6, "Faces without a preview", "", 2, "L", false)
		rows := make([]tableRow, 0, len(set.missing))
		for _, f := range set.missing {
			rows = append(rows, tableRow{cells: []string{f.location, f.face, f.note}})
		}
		p.table([]column{{"Location", 38, "L"}, {"Face", 12, "L"}, {"Why", 50, "L"}}, rows)
	}
}

// image places the picture centred in the box, keeping its proportions. An image fpdf cannot read
// leaves the box empty rather than failing the report.
func (p *pdfWriter) image(name string, data []byte, imageType string, x, y, w, h float64) {
	if len(data) == 0 {
		return
	}
	opts := fpdf.ImageOptions{ImageType: imageType}
	info := p.RegisterImageOptionsReader(name, opts, bytes.NewReader(data))
	if p.Err() {
		p.ClearError()
		return
	}
	iw, ih := info.Width(), info.Height()
	if iw <= 0 || ih <= 0 {
		return
	}
	scale := math.Min(w/iw, h/ih)
	dw, dh := iw*scale, ih*scale
	p.ImageOptions(name, x+(w-dw)/2, y+(h-dh)/2, dw, dh, false, opts, 0, "")
}

// niceStep is a round axis step so that n steps reach at least top.
func niceStep(top int64, n int64) int64 {
	if top <= 0 {
		return 0
	}
	raw := float64(top) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			return int64(math.Ceil(m * mag))
		}
	}
	return int64(math.Ceil(10 * mag))
}

// formatInt writes n with thousands separators.
func formatInt(n int64) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return sign + b.String()
}

// signed writes a difference with its sign.
func signed(n int64) string {
	if n > 0 {
		return "+" + formatInt(n)
	}
	return formatInt(n)
}

// formatPct writes a delivery percentage; "-" when nothing was planned.
func formatPct(pct float64, planned int64) string {
	if planned <= 0 {
		return "-"
	}
	return strconv.FormatFloat(pct, 'f', 1, 64) + "%"
}

// compact writes an axis value: 950, 12K, 1.5M.
func compact(n int64) string {
	switch {
	case n >= 1_000_000:
		return strings.TrimSuffix(strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64), ".0") + "M"
	case n >= 1_000:
		return strings.TrimSuffix(strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64), ".0") + "K"
	}
	return strconv.FormatInt(n, 10)
}

// deliveryColour: green at or above plan, amber from 90%, red below.
func deliveryColour(pct float64, planned int64) rgb {
	switch {
	case planned <= 0:
		return colMuted
	case pct >= 100:
		return colGood
	case pct >= 90:
		return colWarn
	}
	return colBad
}

// plural writes "1 week", "3 weeks".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return formatInt(int64(n)) + " " + word + "s"
}
