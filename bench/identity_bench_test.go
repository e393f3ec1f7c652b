// Package bench measures the speed targets of the issues against a real server on a real database
// (make bench). Figures, with the machine they came from, go to docs/performance.md.
package bench

import (
	"fmt"
	"marquee/platform/server"
	"sort"
	"sync"
	"testing"
	"time"

	"marquee/modules/identity"
	"marquee/platform/testkit"
)

// latencies collects request durations from parallel goroutines and reports percentiles.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// quantile is the q-th latency in milliseconds (0 with none); it sorts the latencies.
func (l *latencies) quantile(q float64) float64 {
	sort.Slice(l.d, func(i, j int) bool { return l.d[i] < l.d[j] })
	if len(l.d) == 0 {
		return 0
	}
	return float64(l.d[int(q*float64(len(l.d)-1))].Microseconds()) / 1000
}

func (l *latencies) report(b *testing.B) {
	if len(l.d) == 0 {
		return
	}
	b.ReportMetric(l.quantile(0.50), "p50-ms")
	b.ReportMetric(l.quantile(0.95), "p95-ms")
	b.ReportMetric(l.quantile(0.99), "p99-ms")
}

// timedGets benchmarks GET path as c, one request at a time, reporting the latency percentiles;
// any answer but 200 fails it.
func timedGets(c *testkit.Client, path string) func(b *testing.B) {
	return func(b *testing.B) {
		var lat latencies
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			res := c.Get(path)
			lat.add(time.Since(t0))
			if res.Status != 200 {
				b.Fatalf("%s: %d %s", path, res.Status, res.Body)
			}
		}
		lat.report(b)
	}
}

// BenchmarkSignIn: concurrent sign-ins with production argon2id parameters, over HTTP.
func BenchmarkSignIn(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			s := testkit.Start(b, dialect, server.Compose(identity.Component), testkit.WithProductionHashing())
			const users = 32
			for i := 0; i < users; i++ {
				c := s.Client(b)
				c.Post("/signup", identity.SignUpRequest{Company: fmt.Sprintf("Bench Co %d", i), Email: fmt.Sprintf("u%d@bench.test", i), Password: "benchmark password"}).Expect(b, 201)
			}
			var lat latencies
			var n sync.Mutex
			next := 0
			b.SetParallelism(4)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				c := s.Client(b)
				for pb.Next() {
					n.Lock()
					i := next % users
					next++
					n.Unlock()
					start := time.Now()
					res := c.Post("/signin", identity.SignInRequest{Email: fmt.Sprintf("u%d@bench.test", i), Password: "benchmark password"})
					lat.add(time.Since(start))
					if res.Status != 200 {
						b.Fatalf("sign-in: %d %s", res.Status, res.Body)
					}
				}
			})
			lat.report(b)
		})
	}
}

// BenchmarkLoggedInCheck: the client's periodic GET /users/loggedin with a live session, under
// concurrent load (each call resolves the session and the principal from the database).
func BenchmarkLoggedInCheck(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			s := testkit.Start(b, dialect, server.Compose(identity.Component))
			const users = 64
			clients := make([]*testkit.Client, users)
			for i := range clients {
				clients[i] = s.Client(b)
				clients[i].Post("/signup", identity.SignUpRequest{Company: fmt.Sprintf("Bench Co %d", i), Email: fmt.Sprintf("u%d@bench.test", i), Password: "benchmark password"}).Expect(b, 201)
			}
			var lat latencies
			var mu sync.Mutex
			next := 0
			b.SetParallelism(8)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				mu.Lock()
				c := clients[next%users]
				next++
				mu.Unlock()
				for pb.Next() {
					start := time.Now()
					res := c.Get("/users/loggedin")
					lat.add(time.Since(start))
					if res.Status != 200 || string(res.Body) != `{"loggedin":true}` {
						b.Fatalf("loggedin: %d %s", res.Status, res.Body)
					}
				}
			})
			lat.report(b)
		})
	}
}
