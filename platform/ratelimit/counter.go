package ratelimit

import (
	"context"
	"time"

	"gorm.io/gorm"

	"marquee/platform/apperr"
	"marquee/platform/clock"
	"marquee/platform/db"
)

// Counter counts attempts per key in fixed windows: a Limiter in this process, or Shared in the
// database. A module takes its counters from a Factory and does not choose.
type Counter interface {
	// Allow counts one attempt for every key and reports whether all of them are within the limit.
	Allow(ctx context.Context, keys ...string) (bool, error)
	// Take counts one attempt for key and reports whether it is within the limit, how many
	// attempts remain in the window, and when the window ends (the RateLimit headers).
	Take(ctx context.Context, key string) (ok bool, remaining int, reset time.Duration, err error)
	Limit() int
	Window() time.Duration
}

// Factory makes the counter of one named limit: limit attempts per window. The name keeps the
// keys of different limits apart.
type Factory func(name string, limit int, window time.Duration) Counter

// ForDatabase is the factory a server uses on gdb: on PostgreSQL, where several
// replicas share the database, every limit counts in the database (Shared), so that it holds in
// total and not once per replica; on SQLite, which one process opens, a count in the process is as
// exact and takes no write lock.
func ForDatabase(gdb *gorm.DB, clk clock.Clock) Factory {
	if gdb.Name() == db.Postgres {
		return inDatabase(gdb, clk)
	}
	return InProcess(clk)
}

// inDatabase is the factory of Shared counters in gdb's rate_limits table.
func inDatabase(gdb *gorm.DB, clk clock.Clock) Factory {
	return func(name string, limit int, window time.Duration) Counter {
		return named{name: name, c: NewShared(gdb, limit, window, clk)}
	}
}

// InProcess is the factory of Limiters.
func InProcess(clk clock.Clock) Factory {
	return func(_ string, limit int, window time.Duration) Counter {
		return inProcess{l: New(limit, window, clk)}
	}
}

// named prefixes the keys of a Shared counter with its limit's name: every Shared counter of a
// database counts in one table.
type named struct {
	name string
	c    *Shared
}

func (n named) Allow(ctx context.Context, keys ...string) (bool, error) {
	prefixed := make([]string, len(keys))
	for i, k := range keys {
		prefixed[i] = n.name + ":" + k
	}
	return n.c.Allow(ctx, prefixed...)
}

func (n named) Take(ctx context.Context, key string) (bool, int, time.Duration, error) {
	return n.c.Take(ctx, n.name+":"+key)
}

func (n named) Limit() int            { return n.c.Limit() }
func (n named) Window() time.Duration { return n.c.Window() }

// inProcess is a Limiter as a Counter; it never fails.
type inProcess struct{ l *Limiter }

func (p inProcess) Allow(_ context.Context, keys ...string) (bool, error) {
	return p.l.Allow(keys...), nil
}

func (p inProcess) Take(_ context.Context, key string) (bool, int, time.Duration, error) {
	ok, remaining, reset := p.l.Take(key)
	return ok, remaining, reset, nil
}

func (p inProcess) Limit() int            { return p.l.Limit() }
func (p inProcess) Window() time.Duration { return p.l.Window() }

// Check counts one attempt for keys on c and answers ERATELIMIT with msg when any of them is over
// the limit, or an internal error (503 when the database is down) when c cannot count.
func Check(ctx context.Context, c Counter, msg string, keys ...string) error {
	ok, err := c.Allow(ctx, keys...)
	if err != nil {
		return apperr.Internal(err)
	}
	if !ok {
		return apperr.New(apperr.ERATELIMIT, msg)
	}
	return nil
}
