package reports

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"marquee/modules/creatives"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// The advertiser's calls: the picker, generation with its bad inputs, the list, the report, its
// figures, its files (the PDF parsed and checked against the recorded impressions), rename and
// removal; another company gets 404 for each.
func TestGeneratedReports(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		adv, other, admin := f.adv, f.other, f.admin
		summer := f.camps["Summer Sale"]

		// The picker: the company's campaigns; the finished weeks only (B §4).
		var cs []ReportCampaign
		adv.Get("/api/reports/campaigns").Expect(t, 200).JSON(t, &cs)
		if len(cs) != 8 {
			t.Fatalf("campaigns = %d", len(cs))
		}
		var otherCs []ReportCampaign
		admin.Get("/api/reports/campaigns?company="+f.otherAcc.CompanyID).Expect(t, 200).JSON(t, &otherCs)
		if len(otherCs) != 1 || otherCs[0].ID != f.otherCampaign {
			t.Fatalf("admin picker = %+v", otherCs)
		}
		adv.Get("/api/reports/campaigns?company="+f.otherAcc.CompanyID).Expect(t, 200).JSON(t, &otherCs)
		if len(otherCs) != 8 {
			t.Fatalf("a user's company filter is ignored: %d", len(otherCs))
		}
		var weeks []ReportWeek
		adv.Get("/api/reports/campaigns/"+summer.ID+"/weeks").Expect(t, 200).JSON(t, &weeks)
		if len(weeks) != 4 || weeks[0].Faces != 3 || len(weeks[0].WeekIDs) != 3 || weeks[0].Delivered == 0 {
			t.Fatalf("weeks = %+v", weeks)
		}
		holiday := f.camps["Holiday Coffee Push"]
		adv.Get("/api/reports/campaigns/"+holiday.ID+"/weeks").Expect(t, 200).JSON(t, &weeks)
		if len(weeks) != 3 { // 6 weeks from 3 weeks ago: the current week has not ended
			t.Fatalf("holiday weeks = %d", len(weeks))
		}
		other.Get("/api/reports/campaigns/"+summer.ID+"/weeks").Expect(t, 404)

		// Bad input: 400 with a clear message, and no file left behind.
		summerWeeks := f.weekIDs(t, adv, summer.ID)
		expectMessage(t, adv.Post("/api/campaigns/reports", ReportRequest{CampaignID: summer.ID}), 400, MsgWeeksRequired)
		expectMessage(t, adv.Post("/api/reports", ReportRequest{CampaignID: summer.ID, WeekIDs: []string{}}), 400, MsgWeeksRequired)
		expectMessage(t, adv.Post("/api/campaigns/reports", ReportRequest{WeekIDs: summerWeeks}), 400, MsgCampaignRequired)
		school := f.weekIDs(t, adv, f.camps["Back to School"].ID)
		expectMessage(t, adv.Post("/api/campaigns/reports", ReportRequest{CampaignID: summer.ID, WeekIDs: append(summerWeeks[:1:1], school[0])}), 400, MsgWeekNotInCampaign)
		all, err := f.m.svc.deps.Campaigns.FindWeeks(t.Context(), holiday.ID)
		if err != nil {
			t.Fatal(err)
		}
		var current string
		for _, w := range all {
			if !w.EndAt.Before(f.m.svc.today()) {
				current = w.ID
			}
		}
		expectMessage(t, adv.Post("/api/campaigns/reports", ReportRequest{CampaignID: holiday.ID, WeekIDs: []string{current}}), 400, MsgWeekNotFinished)
		expectMessage(t, adv.Post("/api/campaigns/reports", ReportRequest{CampaignID: summer.ID, WeekIDs: summerWeeks, Name: strings.Repeat("n", 101)}), 400, MsgNameTooLong)
		expectMessage(t, other.Post("/api/campaigns/reports", ReportRequest{CampaignID: summer.ID, WeekIDs: summerWeeks}), 404, MsgCampaignNotFound)
		// An advertiser cannot pass an upload off as a report: without weeks it is a generation.
		expectMessage(t, adv.Post("/api/reports", ReportRequest{CampaignID: summer.ID, Company: f.advAcc.CompanyID, Path: "reports/x.pdf"}), 400, MsgWeeksRequired)
		if n := len(f.objects(t)); n != 0 {
			t.Fatalf("objects after refused requests = %d", n)
		}

		// The campaign's creative, which the PDF shows as the creative that ran.
		var up creatives.UploadedFile
		upload(t, f.s, adv, "/upload_creative", namedFile{"board.jpg", jpegOf(t, 700, 200)}).Expect(t, 200).JSON(t, &up)
		var cr creatives.Creative
		adv.Post("/api/creatives/", creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{URL: up.Path, Name: "Board"}}).Expect(t, 201).JSON(t, &cr)
		adv.Put("/api/campaigns/"+summer.ID+"/creative", map[string]any{"creative_id": cr.ID}).Expect(t, 200)

		// A week delivered at half its plan earns a make-good, which the cover names.
		sw, err := f.m.svc.deps.Campaigns.FindWeeks(t.Context(), summer.ID)
		if err != nil {
			t.Fatal(err)
		}
		admin.Put("/api/admin/campaigns/week/"+sw[0].ID+"/delivery", map[string]any{"act_imp": sw[0].ProductOoh / 2}).Expect(t, 200)

		// Generation.
		r := f.generate(t, adv, ReportRequest{CampaignID: summer.ID, WeekIDs: summerWeeks})
		if r.CompanyName != "Sunrise Coffee" || r.CampaignName != "Summer Sale" || r.CampaignWeeksCount != 4 || len(r.WeekIDs) != 12 ||
			r.Campaign != summer.ID || r.CampaignID != summer.ID || r.AccountID != f.advAcc.CompanyID || r.Company != f.advAcc.CompanyID ||
			r.UserID != f.advAcc.UserID || r.VendorID != "" || r.URL != "/api/reports/"+r.ID+"/file" || r.CSVURL == "" ||
			!strings.HasSuffix(r.Filename, ".pdf") || r.Source != SourceGenerated || !strings.HasPrefix(r.Name, "Summer Sale - ") {
			t.Fatalf("report = %+v", r)
		}
		if n := len(f.objects(t)); n != 2 {
			t.Fatalf("objects = %d, want the PDF and the CSV", n)
		}

		// The list (B §9: 10, 20, 50, All; default 10).
		var list ReportList
		adv.Get("/api/reports").Expect(t, 200).JSON(t, &list)
		if list.Total != 1 || list.PageSize != 10 || list.Items[0].ID != r.ID || len(list.Items[0].WeekIDs) != 0 {
			t.Fatalf("list = %+v", list)
		}
		adv.Get("/api/reports?page_size=75").Expect(t, 400)
		adv.Get("/api/reports?page_size=0").Expect(t, 200)
		other.Get("/api/reports").Expect(t, 200).JSON(t, &list)
		if list.Total != 0 {
			t.Fatalf("other's list = %+v", list)
		}

		// The report and its figures; another company gets 404, an admin sees it.
		adv.Get("/api/reports/"+r.ID).Expect(t, 200)
		admin.Get("/api/reports/"+r.ID).Expect(t, 200)
		other.Get("/api/reports/"+r.ID).Expect(t, 404)
		other.Get("/api/reports/data/"+r.ID).Expect(t, 404)
		other.Get("/api/reports/"+r.ID+"/file").Expect(t, 404)
		other.Get("/api/reports/"+r.ID+"/csv").Expect(t, 404)
		f.s.Client(t).Get("/api/reports/"+r.ID+"/file").Expect(t, 401)
		var data ReportData
		adv.Get("/api/reports/data/"+r.ID).Expect(t, 200).JSON(t, &data)
		var planned, delivered int64
		perWeek := map[string]int64{}
		all, err = f.m.svc.deps.Campaigns.FindWeeks(t.Context(), summer.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range all {
			planned += w.ProductOoh
			delivered += *w.ActImp
			perWeek[w.StartAt.String()] += *w.ActImp
		}
		if !data.HasFigures || data.Totals.Planned != planned || data.Totals.Delivered != delivered || len(data.Weeks) != 4 ||
			len(data.Faces) != 3 || data.Totals.Difference != delivered-planned || data.Markets[0] != "Los Angeles" {
			t.Fatalf("data = %+v (planned %d, delivered %d)", data, planned, delivered)
		}
		for _, w := range data.Weeks {
			if w.Delivered != perWeek[w.StartAt.String()] || w.Proofs != 1 {
				t.Fatalf("week %s = %+v, want %d", w.StartAt, w, perWeek[w.StartAt.String()])
			}
		}

		// The PDF: a real PDF whose text carries the campaign and the recorded figures.
		res := adv.Get("/api/reports/"+r.ID+"/file").Expect(t, 200)
		if res.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(res.Body, []byte("%PDF-")) ||
			!strings.HasPrefix(res.Header.Get("Content-Disposition"), "inline") {
			t.Fatalf("file: %s %q", res.Header.Get("Content-Type"), res.Header.Get("Content-Disposition"))
		}
		if out := os.Getenv("REPORTS_SAMPLE_PDF"); out != "" && dialect == testkit.Dialects()[0] {
			_ = os.WriteFile(out, res.Body, 0o644) // a sample to look at (docs/reports.md)
		}
		pages, text := pdfText(t, res.Body)
		if pages < 3 {
			t.Fatalf("pages = %d", pages)
		}
		for _, want := range []string{"PROOF OF PERFORMANCE", "Summer Sale", "Sunrise Coffee", "Los Angeles", formatInt(planned), formatInt(delivered),
			formatPct(data.Totals.DeliveryPct, planned), "Delivery by week", "Delivery by face", "Proof of posting", "4 photos taken", "Shown on 12 face-weeks of this report.", fmt.Sprintf("Page %d of %d", pages, pages), "Generated on",
			"1 face-week delivered under the make-good threshold"} {
			if !strings.Contains(text, want) {
				t.Fatalf("the PDF lacks %q:\n%s", want, text)
			}
		}
		for _, d := range perWeek {
			if !strings.Contains(text, formatInt(d)) {
				t.Fatalf("the PDF lacks the week's delivered %s", formatInt(d))
			}
		}
		res = adv.Get("/api/reports/"+r.ID+"/file?download=1").Expect(t, 200)
		if !strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("download: %q", res.Header.Get("Content-Disposition"))
		}
		admin.Get("/api/reports/"+r.ID+"/file").Expect(t, 200)

		// The CSV: the same figures, one row per face and week, and the total.
		res = adv.Get("/api/reports/"+r.ID+"/csv").Expect(t, 200)
		rows, err := csv.NewReader(bytes.NewReader(res.Body)).ReadAll()
		if err != nil || len(rows) != 1+12+1 || rows[13][0] != "total" {
			t.Fatalf("csv: %d rows %v", len(rows), err)
		}
		var csvDelivered int64
		for _, row := range rows[1:13] {
			n, _ := strconv.ParseInt(row[8], 10, 64)
			csvDelivered += n
		}
		if csvDelivered != delivered || rows[13][8] != strconv.FormatInt(delivered, 10) {
			t.Fatalf("csv delivered = %d (%s), want %d", csvDelivered, rows[13][8], delivered)
		}

		// Rename.
		expectMessage(t, adv.Put("/api/reports/"+r.ID, RenameRequest{Name: "  "}), 400, MsgNameRequired)
		expectMessage(t, adv.Put("/api/reports/"+r.ID, RenameRequest{Name: strings.Repeat("x", 101)}), 400, MsgNameTooLong)
		other.Put("/api/reports/"+r.ID, RenameRequest{Name: "Mine"}).Expect(t, 404)
		var renamed ReportResponse
		adv.Put("/api/reports/"+r.ID, RenameRequest{Name: "Q3  recap"}).Expect(t, 200).JSON(t, &renamed)
		if renamed.Report.Name != "Q3 recap" || renamed.Message != MsgRenamed {
			t.Fatalf("renamed = %+v", renamed)
		}

		// Generation failing halfway (the CSV's store fails): no row, no file.
		fs := &failingStorage{Storage: f.m.svc.deps.Storage}
		fs.failAt.Store(2)
		f.m.svc.deps.Storage = fs
		adv.Post("/api/campaigns/reports", ReportRequest{CampaignID: summer.ID, WeekIDs: summerWeeks}).Expect(t, 500)
		f.m.svc.deps.Storage = fs.Storage
		adv.Get("/api/reports").Expect(t, 200).JSON(t, &list)
		if list.Total != 1 || len(f.objects(t)) != 2 {
			t.Fatalf("after a failed generation: %d reports, %d objects", list.Total, len(f.objects(t)))
		}

		// Removal: another company's is 404; the files go with the report.
		other.Delete("/api/reports/"+r.ID).Expect(t, 404)
		expectMessage(t, adv.Delete("/api/reports/"+r.ID), 200, MsgRemoved)
		adv.Get("/api/reports/"+r.ID).Expect(t, 404)
		adv.Delete("/api/reports/"+r.ID).Expect(t, 404)
		if n := len(f.objects(t)); n != 0 {
			t.Fatalf("objects after removal = %d", n)
		}
	})
}

// The admin's calls: upload a PDF for a company's campaign (B §5 upload rules, 'PDF report is
// required.'), the admin list and its filters, the mailer whose email links to the report, the
// company picker and the calendar's copy.
func TestAdminReports(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		adv, other, admin := f.adv, f.other, f.admin
		summer := f.camps["Summer Sale"]
		pdfBytes, err := auditPDF(summer, f.s.Clock.Now())
		if err != nil {
			t.Fatal(err)
		}

		// The upload (B §5): one real PDF of at most 10,000 KB.
		exe := append([]byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff"), make([]byte, 512)...)
		expectMessage(t, upload(t, f.s, admin, "/upload_report", namedFile{"report.pdf", exe}), 422, creatives.MsgReportType)
		big := append(append([]byte{}, pdfBytes...), make([]byte, 20<<20)...)
		expectMessage(t, upload(t, f.s, admin, "/upload_report", namedFile{"big.pdf", big}), 413, creatives.MsgReportTooLarge)
		expectMessage(t, upload(t, f.s, admin, "/upload_report", namedFile{"a.pdf", pdfBytes}, namedFile{"b.pdf", pdfBytes}), 400, creatives.MsgOneFile)
		upload(t, f.s, adv, "/upload_report", namedFile{"a.pdf", pdfBytes}).Expect(t, 403)
		var up creatives.UploadedFile
		upload(t, f.s, admin, "/upload_report", namedFile{"Audit October.pdf", pdfBytes}).Expect(t, 200).JSON(t, &up)
		if up.Path == "" || up.Filename == "" {
			t.Fatalf("upload = %+v", up)
		}

		// Saving it for the company's campaign.
		expectMessage(t, admin.Post("/api/reports", ReportRequest{Company: f.advAcc.CompanyID, CampaignID: summer.ID}), 400, MsgPDFRequired)
		expectMessage(t, admin.Post("/api/reports", ReportRequest{CampaignID: summer.ID, Path: up.Path}), 400, MsgCompanyRequired)
		expectMessage(t, admin.Post("/api/reports", ReportRequest{Company: f.otherAcc.CompanyID, CampaignID: summer.ID, Path: up.Path}), 400, MsgCampaignNotFound)
		expectMessage(t, admin.Post("/api/reports", ReportRequest{Company: f.advAcc.CompanyID, CampaignID: summer.ID, Path: "creatives/nope.pdf"}), 400, MsgNotAReportFile)
		var created ReportResponse
		admin.Post("/api/reports", ReportRequest{Company: f.advAcc.CompanyID, CampaignID: summer.ID, Path: up.Path, Filename: up.Originalname}).Expect(t, 201).JSON(t, &created)
		r := created.Report
		if r.Source != SourceUploaded || r.Name != "Audit October" || r.Filename != "Audit October.pdf" || r.VendorID != f.adminAcc.UserID ||
			r.Company != f.advAcc.CompanyID || r.CampaignName != "Summer Sale" || r.CSVURL != "" || r.UserID != f.advAcc.UserID {
			t.Fatalf("uploaded = %+v", r)
		}
		// The advertiser sees it and its PDF; another company does not.
		res := adv.Get("/api/reports/"+r.ID+"/file").Expect(t, 200)
		if !bytes.Equal(res.Body, pdfBytes) {
			t.Fatal("the uploaded PDF is not served as uploaded")
		}
		other.Get("/api/reports/"+r.ID+"/file").Expect(t, 404)
		adv.Get("/api/reports/"+r.ID+"/csv").Expect(t, 404)
		var data ReportData
		adv.Get("/api/reports/data/"+r.ID).Expect(t, 200).JSON(t, &data)
		if data.HasFigures || data.Report.ID != r.ID {
			t.Fatalf("uploaded data = %+v", data)
		}

		// A generated report of the other company, for the filters.
		f.generate(t, other, ReportRequest{CampaignID: f.otherCampaign, WeekIDs: f.weekIDs(t, other, f.otherCampaign)})
		var list ReportList
		admin.Get("/api/admin/reports/").Expect(t, 200).JSON(t, &list)
		if list.Total != 2 || list.PageSize != 50 {
			t.Fatalf("admin list = %+v", list)
		}
		admin.Get("/api/admin/reports/?company="+f.advAcc.CompanyID).Expect(t, 200).JSON(t, &list)
		if list.Total != 1 || list.Items[0].ID != r.ID {
			t.Fatalf("company filter = %+v", list)
		}
		admin.Get("/api/admin/reports/?campaign="+f.otherCampaign).Expect(t, 200).JSON(t, &list)
		if list.Total != 1 || list.Items[0].CampaignID != f.otherCampaign {
			t.Fatalf("campaign filter = %+v", list)
		}
		admin.Get("/api/admin/reports/?q=other").Expect(t, 200).JSON(t, &list)
		if list.Total != 1 {
			t.Fatalf("search = %+v", list)
		}
		admin.Get("/api/admin/reports/?page_size=10").Expect(t, 400)
		admin.Get("/api/ac/reports/").Expect(t, 200).JSON(t, &list)
		if list.Total != 2 {
			t.Fatalf("ac list = %+v", list)
		}
		adv.Get("/api/admin/reports/").Expect(t, 403)

		// The company picker.
		var cos []CompanyOption
		admin.Get("/api/admin/reports/companies?q=SUNRISE").Expect(t, 200).JSON(t, &cos)
		if len(cos) != 1 || cos[0].ID != f.advAcc.CompanyID || cos[0].Name != "Sunrise Coffee" {
			t.Fatalf("companies = %+v", cos)
		}
		admin.Get("/api/admin/reports/companies?q=50%25").Expect(t, 200).JSON(t, &cos)
		if len(cos) != 0 {
			t.Fatalf("a literal %% matched %+v", cos)
		}

		// The 'new report mailer': the advertiser's email links to the report.
		adv.Post("/api/reports/performance-report/mailer/", MailerRequest{ReportID: r.ID}).Expect(t, 403)
		admin.Post("/api/reports/performance-report/mailer/", MailerRequest{ReportID: "0190a000-0000-7000-8000-000000000000"}).Expect(t, 404)
		expectMessage(t, admin.Post("/api/reports/performance-report/mailer/", MailerRequest{ReportID: r.ID, Message: strings.Repeat("m", 2001)}), 400, MsgMessageTooLong)
		expectMessage(t, admin.Post("/api/reports/performance-report/mailer/", MailerRequest{ReportID: r.ID, Message: "Your October audit."}), 200, MsgMailerSent)
		mails := f.s.DeliverMail(t)
		last := mails[len(mails)-1]
		if !strings.Contains(last, "ada@reports.test") || !strings.Contains(last, "http://marquee.test/reports/"+r.ID) || !strings.Contains(last, "Your October audit.") {
			t.Fatalf("mail:\n%s", last)
		}

		// The calendar's copy: removing there removes the report; the uploaded file stays the
		// creatives module's.
		adv.Delete("/api/ac/reports/"+r.ID).Expect(t, 403)
		admin.Delete("/api/ac/reports/"+r.ID).Expect(t, 200)
		adv.Get("/api/reports/"+r.ID).Expect(t, 404)
		if _, err := f.m.svc.deps.Creatives.FindFile(t.Context(), up.Path); err != nil {
			t.Fatalf("the uploaded file: %v", err)
		}
	})
}

// The weekly report: on from a Monday, made once for the week that ended, emailed, and not again
// however many runs (two at once, as two replicas would) there are.
func TestWeeklyReports(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		holiday := f.camps["Holiday Coffee Push"]
		f.other.Put("/api/reports/schedules/"+holiday.ID, ScheduleRequest{Enabled: true}).Expect(t, 404)
		expectMessage(t, f.adv.Put("/api/reports/schedules/"+holiday.ID, ScheduleRequest{Enabled: true}), 200, MsgScheduleOn)
		f.adv.Put("/api/reports/schedules/"+holiday.ID, ScheduleRequest{Enabled: true}).Expect(t, 200)
		var cs []ReportCampaign
		f.adv.Get("/api/reports/campaigns").Expect(t, 200).JSON(t, &cs)
		on := 0
		for _, c := range cs {
			if c.Scheduled {
				on++
				if c.ID != holiday.ID {
					t.Fatalf("scheduled %s", c.Name)
				}
			}
		}
		if on != 1 {
			t.Fatalf("scheduled = %d", on)
		}

		// Turned on this week: nothing until next Monday.
		res, err := f.m.svc.RunWeekly(t.Context())
		if err != nil || res.Made != 0 {
			t.Fatalf("same week: %+v %v", res, err)
		}
		// Monday: the week that just ended (the campaign's fourth) is reported.
		f.s.Clock.Advance(24 * time.Hour)
		done := make(chan WeeklyResult, 2)
		for range 2 {
			go func() {
				r, err := f.m.svc.RunWeekly(t.Context())
				if err != nil {
					t.Error(err)
				}
				done <- r
			}()
		}
		a, b := <-done, <-done
		if a.Made+b.Made != 1 {
			t.Fatalf("two runs made %d and %d", a.Made, b.Made)
		}
		f.adv.SessionAs(f.s, f.advAcc.UserID) // the day went by: a fresh session
		again, err := f.m.svc.RunWeekly(t.Context())
		if err != nil || again.Made != 0 {
			t.Fatalf("third run: %+v %v", again, err)
		}
		var list ReportList
		f.adv.Get("/api/reports").Expect(t, 200).JSON(t, &list)
		if list.Total != 1 || list.Items[0].Source != SourceScheduled || list.Items[0].CampaignWeeksCount != 1 ||
			list.Items[0].PeriodStart.String() != "2026-11-16" {
			t.Fatalf("list = %+v", list)
		}
		if n := len(f.objects(t)); n != 2 {
			t.Fatalf("objects = %d", n)
		}
		mails := f.s.DeliverMail(t)
		found := 0
		for _, m := range mails {
			if strings.Contains(m, "weekly report for Holiday Coffee Push") && strings.Contains(m, "/reports/"+list.Items[0].ID) {
				found++
			}
		}
		if found != 1 {
			t.Fatalf("weekly mails = %d", found)
		}

		// Off: the next Monday makes nothing.
		expectMessage(t, f.adv.Put("/api/reports/schedules/"+holiday.ID, ScheduleRequest{Enabled: false}), 200, MsgScheduleOff)
		f.s.Clock.Advance(7 * 24 * time.Hour)
		if res, err := f.m.svc.RunWeekly(t.Context()); err != nil || res.Made != 0 {
			t.Fatalf("off: %+v %v", res, err)
		}
	})
}

// The demo seed: reports for the demo advertiser and one uploaded by the admin, once.
func TestSeedDemo(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		for range 2 {
			if _, err := f.m.SeedDemo(t.Context(), server.DemoAccounts{"advertiser": f.advAcc, "admin": f.adminAcc}); err != nil {
				t.Fatal(err)
			}
		}
		var list ReportList
		f.adv.Get("/api/reports").Expect(t, 200).JSON(t, &list)
		uploaded := 0
		for _, r := range list.Items {
			if r.Source == SourceUploaded {
				uploaded++
			}
		}
		if list.Total != 4 || uploaded != 1 {
			t.Fatalf("demo reports = %d, uploaded %d", list.Total, uploaded)
		}
	})
}

// A user may generate GenerationsPerHour reports an hour (each one renders a PDF): the next answers
// 429 with its message, another user is not held back, and the hour's end lets the user again.
func TestReportGenerationsPerHour(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		summer := f.camps["Summer Sale"]
		oneWeek := ReportRequest{CampaignID: summer.ID, WeekIDs: f.weekIDs(t, f.adv, summer.ID)[:1]}
		for range GenerationsPerHour {
			f.generate(t, f.adv, oneWeek)
		}
		expectMessage(t, f.adv.Post("/api/campaigns/reports", oneWeek), 429, MsgTooManyReports)
		f.generate(t, f.other, ReportRequest{CampaignID: f.otherCampaign, WeekIDs: f.weekIDs(t, f.other, f.otherCampaign)[:1]})
		f.s.Clock.Advance(time.Hour)
		f.adv.SessionAs(f.s, f.advAcc.UserID) // the session idled out over the hour
		f.generate(t, f.adv, oneWeek)
	})
}
