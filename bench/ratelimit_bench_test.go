package bench

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"marquee/modules/identity"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// BenchmarkRateLimitCount: what counting one attempt costs, with the counter the server uses on
// each database (ratelimit.ForDatabase: in the process on SQLite, one upsert in rate_limits on
// PostgreSQL). It is what every /api/v1 call, upload file, page view, geocoding call, report and
// creative request pays to be counted across replicas. "one key" is one API key's calls racing on
// one row; "many keys" are distinct keys, as distinct users and addresses are.
func BenchmarkRateLimitCount(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			s := testkit.Start(b, dialect, server.Compose(identity.Component))
			limit := s.Kernel.Limits("bench", 1<<30, time.Minute)
			var next atomic.Int64
			for _, keys := range []int{1, 1 << 20} {
				name := map[int]string{1: "one key", 1 << 20: "many keys"}[keys]
				b.Run(name, func(b *testing.B) {
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							key := fmt.Sprint(next.Add(1) % int64(keys))
							if _, _, _, err := limit.Take(b.Context(), key); err != nil {
								b.Error(err)
								return
							}
						}
					})
				})
			}
		})
	}
}
