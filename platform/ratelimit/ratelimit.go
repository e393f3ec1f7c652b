// Package ratelimit counts attempts per key in fixed windows (DESIGN.md §3). Limiter counts in
// this process; Shared counts in the database, so that a limit holds in total across replicas
// (docs/operations.md "Scaling out"). The sign-in, password-reset and sign-up limits are always
// Shared (they also outlive a restart); every other limit is a Counter from ForDatabase: Shared on
// PostgreSQL, where there may be replicas, and a Limiter on SQLite, where there is one process.
package ratelimit

import (
	"sync"
	"time"

	"marquee/platform/clock"
)

// Limiter allows at most Limit attempts per key per Window.
type Limiter struct {
	limit  int
	window time.Duration
	clock  clock.Clock

	mu     sync.Mutex
	counts map[string]*bucket
	lastGC time.Time
}

type bucket struct {
	start time.Time
	n     int
}

// New returns a limiter of limit attempts per window.
func New(limit int, window time.Duration, clk clock.Clock) *Limiter {
	return &Limiter{limit: limit, window: window, clock: clk, counts: map[string]*bucket{}}
}

// Allow counts one attempt for every key and reports whether all of them are within the limit.
// Each key is counted even when another is over, so a burst cannot dodge one key through another.
func (l *Limiter) Allow(keys ...string) bool {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastGC) > l.window {
		for k, b := range l.counts {
			if now.Sub(b.start) >= l.window {
				delete(l.counts, k)
			}
		}
		l.lastGC = now
	}
	ok := true
	for _, k := range keys {
		b := l.counts[k]
		if b == nil || now.Sub(b.start) >= l.window {
			b = &bucket{start: now}
			l.counts[k] = b
		}
		b.n++
		if b.n > l.limit {
			ok = false
		}
	}
	return ok
}

// Take counts one attempt for key and reports whether it is within the limit, how many attempts
// remain in the window, and when the window ends (the RateLimit headers of an API call).
func (l *Limiter) Take(key string) (ok bool, remaining int, reset time.Duration) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.counts[key]
	if b == nil || now.Sub(b.start) >= l.window {
		b = &bucket{start: now}
		l.counts[key] = b
	}
	b.n++
	return b.n <= l.limit, max(l.limit-b.n, 0), b.start.Add(l.window).Sub(now)
}

// Limit is the number of attempts allowed per window.
func (l *Limiter) Limit() int { return l.limit }

// Window is the limiter's window.
func (l *Limiter) Window() time.Duration { return l.window }
