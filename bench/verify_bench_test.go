package bench

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/dates"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// BenchmarkVerifyCode: GET /api/verify/{code}, signed out, over HTTP, on a campaign of 52 weeks ×
// 10 faces whose every face-week was recorded three times (a delivery and two corrections): a
// chain of 1,560 records. Every code asked is one of the last round's, so each call recomputes
// the chain from the first record (hashes and links of ~1,000 to 1,560 records, one signature).
// Two clients at a time (the machine has 2 cores). Target: p95 under 20 ms.
func BenchmarkVerifyCode(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			s := testkit.Start(b, dialect, server.Compose(campaigns.Component))
			ctx := b.Context()
			loc := testkit.ModuleOf[*locations.Module](b, s)
			camp := testkit.ModuleOf[*campaigns.Module](b, s)
			ids := testkit.ModuleOf[*identity.Module](b, s).Service()
			if _, err := loc.GenerateInventory(ctx, locations.GenerateOptions{Markets: []string{"Chicago"}, FacesPerMarket: 10, Seed: 42}); err != nil {
				b.Fatal(err)
			}
			faces, err := loc.Service().Locations(ctx, locations.LocationQuery{Markets: []string{"Chicago"}})
			if err != nil || len(faces) < 10 {
				b.Fatalf("faces: %d %v", len(faces), err)
			}
			u, _, err := ids.CreateUser(ctx, identity.CreateUserRequest{Email: "adv@bench.test", Password: "benchmark password", CompanyName: "Bench Co"})
			if err != nil {
				b.Fatal(err)
			}
			gen, err := camp.GenerateCampaigns(ctx, campaigns.GenerateOptions{CompanyID: u.Company.ID, UserID: u.ID, Campaigns: 1, Weeks: 52, FacesPer: 10,
				Faces: faces[:10], Start: dates.Today(s.Clock).WeekStart().AddWeeks(-53), NamePrefix: "Bench year", Statuses: []string{campaigns.StatusCompleted}})
			if err != nil {
				b.Fatal(err)
			}
			codes, err := camp.GenerateProofChain(ctx, gen[0], 3)
			if err != nil || len(codes) != 520 {
				b.Fatalf("chain: %d codes, %v", len(codes), err)
			}
			const workers = 2
			clients := make([]*testkit.Client, workers)
			for i := range clients {
				clients[i] = s.Client(b)
			}
			var v campaigns.VerifyResult
			clients[0].Get("/api/verify/"+codes[len(codes)-1]).Expect(b, 200).JSON(b, &v)
			if !v.Valid || v.ChainLength != 1560 {
				b.Fatalf("the last record: valid %v, chain %d, %+v", v.Valid, v.ChainLength, v.Problems)
			}
			var lat latencies
			cpu0 := processCPU()
			b.ResetTimer()
			var wg sync.WaitGroup
			next := make(chan int)
			for w := 0; w < workers; w++ {
				wg.Add(1)
				go func(c *testkit.Client) {
					defer wg.Done()
					for i := range next {
						start := time.Now()
						r := c.Get("/api/verify/" + codes[(i*37)%len(codes)])
						lat.add(time.Since(start))
						if r.Status != 200 {
							panic(fmt.Sprintf("verify answered %d", r.Status))
						}
					}
				}(clients[w])
			}
			for i := 0; i < b.N; i++ {
				next <- i
			}
			close(next)
			wg.Wait()
			b.StopTimer()
			// CPU time of the whole process (server and clients) per call: what one call costs,
			// whatever else the shared machine runs.
			b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			lat.report(b)
		})
	}
}
