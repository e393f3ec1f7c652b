package bench

import (
	"fmt"
	"os"
	"strconv"
	"strings"
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

// BenchmarkVerifyLongChain: GET /api/verify/{code}, signed out, over HTTP, on one campaign's chain
// of screen batch records (device_batch, ~1.2 kB each with the screen's signature, written by
// bulk inserts with real signatures) of each length of BENCH_VERIFY_LENGTHS (default 2,047,
// 20,479 and 204,799 records; one campaign each). At each length it times three calls before the checkpoint job runs
// (the walk from the first record, as /verify did before the checkpoints), then the job (every
// hash, link and signature since its last checkpoint), then the calls: the codes of the chain's
// last 64 records (with the default lengths, 960 to 1,023 records past the newest checkpoint: the
// longest walk a call makes
// while the job keeps up). Flat against the length is the goal (docs/delivery-assurance.md
// "Checkpoints").
func BenchmarkVerifyLongChain(b *testing.B) {
	lengths := []int{2047, 20479, 204799}
	if v := os.Getenv("BENCH_VERIFY_LENGTHS"); v != "" {
		lengths = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				b.Fatalf("BENCH_VERIFY_LENGTHS: %q", v)
			}
			lengths = append(lengths, n)
		}
	}
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			s := testkit.Start(b, dialect, server.Compose(campaigns.Component))
			ctx := b.Context()
			loc := testkit.ModuleOf[*locations.Module](b, s)
			camp := testkit.ModuleOf[*campaigns.Module](b, s)
			ids := testkit.ModuleOf[*identity.Module](b, s).Service()
			if _, err := loc.GenerateInventory(ctx, locations.GenerateOptions{Markets: []string{"Chicago"}, FacesPerMarket: 5 * len(lengths), Seed: 42}); err != nil {
				b.Fatal(err)
			}
			faces, err := loc.Service().Locations(ctx, locations.LocationQuery{Markets: []string{"Chicago"}})
			if err != nil || len(faces) < 5*len(lengths) {
				b.Fatalf("faces: %d %v", len(faces), err)
			}
			u, _, err := ids.CreateUser(ctx, identity.CreateUserRequest{Email: "adv@bench.test", Password: "benchmark password", CompanyName: "Bench Co"})
			if err != nil {
				b.Fatal(err)
			}
			// A campaign of 52 weeks × 5 faces for each length, so that each chain is checked
			// from its first record before the job runs on it.
			var gen []string
			for i := range lengths {
				g, err := camp.GenerateCampaigns(ctx, campaigns.GenerateOptions{CompanyID: u.Company.ID, UserID: u.ID, Campaigns: 1, Weeks: 52, FacesPer: 5,
					Faces: faces[5*i : 5*i+5], Start: dates.Today(s.Clock).WeekStart().AddWeeks(-53), NamePrefix: fmt.Sprintf("Bench year %d", i), Statuses: []string{campaigns.StatusCompleted}})
				if err != nil {
					b.Fatal(err)
				}
				gen = append(gen, g...)
			}
			c := s.Client(b)
			call := func(code string, from int64) time.Duration {
				start := time.Now()
				var v campaigns.VerifyResult
				c.Get("/api/verify/"+code).Expect(b, 200).JSON(b, &v)
				d := time.Since(start)
				if !v.Valid || v.CheckedFrom != from {
					b.Fatalf("verify: valid %v from %d (want %d) %+v", v.Valid, v.CheckedFrom, from, v.Problems)
				}
				return d
			}
			for li, n := range lengths {
				t0 := time.Now()
				codes, err := camp.GenerateDeviceChain(ctx, gen[li], n)
				if err != nil {
					b.Fatal(err)
				}
				b.Logf("%s: chain of %d records written in %s", dialect, len(codes), time.Since(t0).Round(time.Millisecond))
				last := codes[len(codes)-1]
				before, _ := verifyFrom(call, last)
				t0, cpu0 := time.Now(), processCPU()
				res, err := camp.RunProofCheckpoints(ctx)
				if err != nil || res.Broken != 0 {
					b.Fatalf("the checkpoint job: %+v %v", res, err)
				}
				took, cpu := time.Since(t0), processCPU()-cpu0
				b.Logf("%s/%d records: before the job, 3 calls of the last record: %s; the job verified %d checkpoints (%d records) in %s, %s CPU (%.1f µs a record)",
					dialect, n, before, res.Verified, res.Records, took.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(cpu.Microseconds())/float64(max(res.Records, 1)))
				b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
					first := len(codes) - 64 // the tail's first record is seq first+1
					var lat latencies
					cpu0 := processCPU()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						j := first + i%64
						lat.add(call(codes[j], int64(j+1)/1024*1024))
					}
					b.StopTimer()
					b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
					lat.report(b)
				})
			}
		})
	}
}

// verifyFrom times three calls of a code walked from the first record (no checkpoint verified
// yet): what every call cost before the checkpoints.
func verifyFrom(call func(string, int64) time.Duration, code string) (string, time.Duration) {
	var ds []string
	var total time.Duration
	for range 3 {
		d := call(code, 0)
		total += d
		ds = append(ds, d.Round(100*time.Microsecond).String())
	}
	return strings.Join(ds, ", "), total
}
