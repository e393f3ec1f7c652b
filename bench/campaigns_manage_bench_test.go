package bench

import (
	"marquee/platform/server"
	"testing"
	"time"

	"marquee/modules/billing"
	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/dates"
	"marquee/platform/testkit"
)

// BenchmarkCampaignsManage: the management reads (docs/performance.md "Campaign management") over
// HTTP with 10,000 campaigns and 500,000 weeks in the database (all of them the advertiser's, the
// worst case for its list): the campaign list (page of 50 with the totals of all matched; also with
// a search and a status filter), the admin grid (page of 50, start date newest first), the
// dashboard count and a campaign's detail (chart, locations, proofs). Targets: list < 30 ms, admin
// grid < 50 ms, count < 10 ms at p95. Then the weekly job on the 10,000 active campaigns (target <
// 60 s): its first run charges each campaign's next week; a second run finds nothing to do.
func BenchmarkCampaignsManage(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			s := testkit.Start(b, dialect, server.Compose(campaigns.Component))
			m := testkit.ModuleOf[*campaigns.Module](b, s)
			loc := testkit.ModuleOf[*locations.Module](b, s)
			ids := testkit.ModuleOf[*identity.Module](b, s).Service()
			ctx := b.Context()
			today := dates.Today(s.Clock)
			if _, err := loc.GenerateInventory(ctx, locations.GenerateOptions{Markets: []string{"Chicago"}, FacesPerMarket: 2000, Seed: 42}); err != nil {
				b.Fatal(err)
			}
			faces, err := loc.Service().Locations(ctx, locations.LocationQuery{Markets: []string{"Chicago"}})
			if err != nil {
				b.Fatal(err)
			}
			u, _, err := ids.CreateUser(ctx, identity.CreateUserRequest{Email: "adv@bench.test", Password: "benchmark password", Role: identity.RoleUser, CompanyName: "Bench Co"})
			if err != nil {
				b.Fatal(err)
			}
			adm, _, err := ids.CreateUser(ctx, identity.CreateUserRequest{Email: "admin@bench.test", Password: "benchmark password", Role: identity.RoleAdmin})
			if err != nil {
				b.Fatal(err)
			}
			adv, admin := s.Client(b), s.Client(b)
			adv.SessionAs(s, u.ID)
			admin.SessionAs(s, adm.ID)
			var tok billing.CardToken
			adv.Post("/api/sandbox/tokens", billing.SandboxTokenRequest{Number: "4242424242424242", ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2, CVC: "123"}).Expect(b, 200).JSON(b, &tok)
			adv.Post("/api/cards", billing.AddCardRequest{Token: tok.ID, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}).Expect(b, 201)

			start := time.Now()
			// 10,000 active weekly campaigns of 50 weeks on one face each, started 10 weeks ago,
			// charged up to the week the job is due to charge.
			locked := campaigns.EarliestStart(today).AddWeeks(-1)
			gen, err := m.GenerateCampaigns(ctx, campaigns.GenerateOptions{CompanyID: u.Company.ID, UserID: u.ID, Campaigns: 10000, Weeks: 50, FacesPer: 1,
				Faces: faces, Start: today.WeekStart().AddWeeks(-10), ChargedBefore: locked, NamePrefix: "Bench campaign"})
			if err != nil || len(gen) != 10000 {
				b.Fatalf("generate: %d %v", len(gen), err)
			}
			b.Logf("%s: 10,000 campaigns and 500,000 weeks generated in %s", dialect, time.Since(start).Round(time.Millisecond))

			get := timedGets
			b.Run("list", get(adv, "/api/campaigns?page_size=50"))
			b.Run("list-page-100", get(adv, "/api/campaigns?page_size=50&page=100"))
			b.Run("list-search", get(adv, "/api/campaigns?page_size=50&q=campaign%2099"))
			b.Run("list-status", get(adv, "/api/campaigns?page_size=50&status=active"))
			b.Run("list-sort-name", get(adv, "/api/campaigns?page_size=50&sort=name"))
			b.Run("admin-grid", get(admin, "/api/admin/campaigns/"))
			b.Run("count", get(adv, "/api/campaigns/count"))
			b.Run("detail", get(adv, "/api/campaigns/"+gen[4321]))
			b.Run("weeks", get(adv, "/api/campaigns/"+gen[4321]+"/weeks"))

			// The job's first run charges 10,000 weeks: it is timed once, here; the sub-benchmark
			// then times the runs that find nothing left to do.
			t0 := time.Now()
			first, err := m.RunLifecycle(ctx)
			firstTook := time.Since(t0)
			if err != nil || first.Charged != 10000 || first.Failed != 0 {
				b.Fatalf("first run: %+v %v", first, err)
			}
			b.Logf("%s: weekly job on 10,000 active campaigns: %s (%+v)", dialect, firstTook.Round(time.Millisecond), first)
			b.Run("weekly-job", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					again, err := m.RunLifecycle(ctx)
					if err != nil || again.Charged != 0 {
						b.Fatalf("second run: %+v %v", again, err)
					}
				}
				b.ReportMetric(firstTook.Seconds(), "first-run-s")
			})
		})
	}
}
