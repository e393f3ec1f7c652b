package bench

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/modules/reports"
	"marquee/platform/dates"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// BenchmarkReportGenerate: one report of a campaign of 100 faces × 52 finished weeks (5,200
// face-weeks with recorded impressions) and 52 proof photos, over HTTP (POST
// /api/campaigns/reports): figures, PDF, CSV, both stored, the row inserted. Targets: under 3 s,
// under 64 MB of extra memory (peak-heap-MB: the heap in use above its level before the call, the
// peak sampled every 2 ms).
//
// The "previews" runs give the campaign a creative, so the report's last page draws it on the
// faces by day and night (issue 29: 6 faces, 12 renders), with the preview cache emptied before
// each report: the worst case, a campaign's first report. The other runs have no creative, as
// before issue 29.
func BenchmarkReportGenerate(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		for _, previews := range []bool{false, true} {
			name := dialect
			if previews {
				name += "-previews"
			}
			b.Run(name, func(b *testing.B) { benchReportGenerate(b, dialect, previews) })
		}
	}
}

func benchReportGenerate(b *testing.B, dialect string, previews bool) {
	s := testkit.Start(b, dialect, server.Compose(reports.Component))
	ctx := b.Context()
	loc := testkit.ModuleOf[*locations.Module](b, s)
	camp := testkit.ModuleOf[*campaigns.Module](b, s)
	ids := testkit.ModuleOf[*identity.Module](b, s).Service()
	if _, err := loc.GenerateInventory(ctx, locations.GenerateOptions{Markets: []string{"Chicago"}, FacesPerMarket: 100, Seed: 42}); err != nil {
		b.Fatal(err)
	}
	faces, err := loc.Service().Locations(ctx, locations.LocationQuery{Markets: []string{"Chicago"}})
	if err != nil || len(faces) < 100 {
		b.Fatalf("faces: %d %v", len(faces), err)
	}
	u, _, err := ids.CreateUser(ctx, identity.CreateUserRequest{Email: "adv@bench.test", Password: "benchmark password", CompanyName: "Bench Co"})
	if err != nil {
		b.Fatal(err)
	}
	adv := s.Client(b)
	adv.SessionAs(s, u.ID)
	creativeID := ""
	if previews {
		creativeID = uploadedCreative(b, s, adv).ID
	}
	today := dates.Today(s.Clock)
	gen, err := camp.GenerateCampaigns(ctx, campaigns.GenerateOptions{CompanyID: u.Company.ID, UserID: u.ID, Campaigns: 1, Weeks: 52, FacesPer: 100,
		Faces: faces[:100], Start: today.WeekStart().AddWeeks(-53), NamePrefix: "Bench year", ProofsPerCampaign: 52, Statuses: []string{campaigns.StatusCompleted},
		CreativeID: creativeID})
	if err != nil {
		b.Fatal(err)
	}
	var weeks []reports.ReportWeek
	adv.Get("/api/reports/campaigns/"+gen[0]+"/weeks").Expect(b, 200).JSON(b, &weeks)
	var weekIDs []string
	for _, w := range weeks {
		weekIDs = append(weekIDs, w.WeekIDs...)
	}
	if len(weeks) != 52 || len(weekIDs) != 5200 {
		b.Fatalf("weeks = %d, face-weeks = %d", len(weeks), len(weekIDs))
	}
	req := reports.ReportRequest{CampaignID: gen[0], WeekIDs: weekIDs}
	var lat latencies
	var peak float64
	var size int64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		// A fresh hour and session: the per-user generation limit is not what is measured.
		s.Clock.Advance(time.Hour)
		adv.SessionAs(s, u.ID)
		if previews {
			emptyPreviewCache(b, s)
		}
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		var top atomic.Uint64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ms runtime.MemStats
			for {
				select {
				case <-stop:
					return
				case <-time.After(2 * time.Millisecond):
					runtime.ReadMemStats(&ms)
					if ms.HeapInuse > top.Load() {
						top.Store(ms.HeapInuse)
					}
				}
			}
		}()
		b.StartTimer()
		t0 := time.Now()
		var out reports.ReportResponse
		adv.Post("/api/campaigns/reports", req).Expect(b, 201).JSON(b, &out)
		lat.add(time.Since(t0))
		b.StopTimer()
		close(stop)
		wg.Wait()
		if extra := float64(int64(top.Load())-int64(before.HeapInuse)) / (1 << 20); extra > peak {
			peak = extra
		}
		size = out.Report.Size
		adv.Delete("/api/reports/"+out.Report.ID).Expect(b, 200)
		b.StartTimer()
	}
	lat.report(b)
	b.ReportMetric(peak, "peak-heap-MB")
	b.ReportMetric(float64(size)/1024, "pdf-KB")
}

// BenchmarkReportList: the report lists over HTTP with 50,000 reports in the database, all of one
// company (the worst case for its list): the advertiser's first page (10, newest first), a deep
// page, a search, and the admin list filtered by campaign. Target: p95 under 30 ms.
func BenchmarkReportList(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			s := testkit.Start(b, dialect, server.Compose(reports.Component))
			ctx := b.Context()
			ids := testkit.ModuleOf[*identity.Module](b, s).Service()
			rep := testkit.ModuleOf[*reports.Module](b, s)
			u, _, err := ids.CreateUser(ctx, identity.CreateUserRequest{Email: "adv@bench.test", Password: "benchmark password", CompanyName: "Bench Co"})
			if err != nil {
				b.Fatal(err)
			}
			adm, _, err := ids.CreateUser(ctx, identity.CreateUserRequest{Email: "admin@bench.test", Password: "benchmark password", Role: identity.RoleAdmin})
			if err != nil {
				b.Fatal(err)
			}
			campaignIDs := make([]string, 100)
			for i := range campaignIDs {
				campaignIDs[i] = fmt.Sprintf("0190a000-0000-7000-8000-%012d", i)
			}
			t0 := time.Now()
			if err := rep.GenerateReports(ctx, reports.GenerateOptions{CompanyID: u.Company.ID, CompanyName: "Bench Co", UserID: u.ID,
				CampaignIDs: campaignIDs, Reports: 50000}); err != nil {
				b.Fatal(err)
			}
			b.Logf("%s: 50,000 reports inserted in %s", dialect, time.Since(t0).Round(time.Millisecond))
			adv, admin := s.Client(b), s.Client(b)
			adv.SessionAs(s, u.ID)
			admin.SessionAs(s, adm.ID)
			get := timedGets
			b.Run("list", get(adv, "/api/reports"))
			b.Run("list-page-1000", get(adv, "/api/reports?page=1000"))
			b.Run("list-50", get(adv, "/api/reports?page_size=50"))
			b.Run("list-search", get(adv, "/api/reports?q=report%204999"))
			b.Run("admin-campaign", get(admin, "/api/admin/reports/?campaign="+campaignIDs[7]))
			b.Run("admin-all", get(admin, "/api/admin/reports/"))
		})
	}
}
