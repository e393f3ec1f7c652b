package bench

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"marquee/platform/db"
)

// BenchmarkPlaysSoak: the ingest at the steady rate for SOAK_DURATION (make soak: 10
// minutes) on PostgreSQL: 10,000 screens posting every 5 minutes is about 1,250 plays a second, so
// a batch of 1,000 plays every 800 ms. Every 30 s it prints the process's resident memory (VmRSS)
// and the batch latencies of the last 30 s. Target (issue 28): RSS flat over the 10 minutes: the
// last minute's RSS within 10% of the second minute's (the first minute warms the pools and the
// caches). The server runs in this process (testkit), so its RSS is the server's plus the
// client's, which holds nothing between batches.
func BenchmarkPlaysSoak(b *testing.B) {
	raw := os.Getenv("SOAK_DURATION")
	if raw == "" {
		b.Skip("SOAK_DURATION is not set (make soak)")
	}
	duration, err := time.ParseDuration(raw)
	if err != nil || duration < 3*time.Minute {
		b.Fatalf("SOAK_DURATION=%q: a duration of at least 3m", raw)
	}
	if os.Getenv("TEST_DATABASE_URL") == "" {
		b.Fatal("the soak runs on PostgreSQL: set TEST_DATABASE_URL")
	}
	rig := newIngestRig(b, db.Postgres)
	const every = 800 * time.Millisecond
	tick := time.NewTicker(every)
	defer tick.Stop()
	t0 := time.Now()
	var window latencies
	var rss []float64 // MiB, one per 30 s
	next := t0.Add(30 * time.Second)
	batches := 0
	b.ResetTimer()
	for now := range tick.C {
		window.add(rig.post(batches))
		batches++
		if now.After(next) {
			m := residentMiB(b)
			rss = append(rss, m)
			p50, p99 := window.quantile(0.50), window.quantile(0.99)
			// Printed, not logged: a benchmark's log keeps only its first lines.
			fmt.Printf("soak %4.1f min: RSS %.1f MiB, %d batches, last 30 s p50 %.1f ms p99 %.1f ms\n", time.Since(t0).Minutes(), m, batches, p50, p99)
			window = latencies{}
			next = next.Add(30 * time.Second)
		}
		if time.Since(t0) >= duration {
			break
		}
	}
	b.StopTimer()
	if len(rss) < 6 {
		b.Fatalf("only %d samples", len(rss))
	}
	second, last := (rss[2]+rss[3])/2, (rss[len(rss)-2]+rss[len(rss)-1])/2
	growth := (last - second) / second * 100
	b.ReportMetric(second, "rss-minute2-MiB")
	b.ReportMetric(last, "rss-last-minute-MiB")
	b.ReportMetric(growth, "rss-growth-%")
	b.ReportMetric(float64(batches)*1000/time.Since(t0).Seconds(), "plays/s")
	verdict := "met"
	if growth > 10 {
		verdict = "NOT met"
	}
	fmt.Printf("soak: RSS %.1f MiB in the second minute, %.1f MiB in the last: %+.1f%% (goal: flat, within 10%%: %s)\n", second, last, growth, verdict)
}

// residentMiB reads this process's VmRSS from /proc/self/status.
func residentMiB(b *testing.B) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	b.Fatal("no VmRSS in /proc/self/status")
	return 0
}
