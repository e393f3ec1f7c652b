package ratelimit_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gorm.io/gorm"

	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/ratelimit"
	"marquee/platform/testkit"
)

// twoReplicas opens the same fresh database twice, as two replicas would (two pools), and
// migrates rate_limits.
func twoReplicas(t *testing.T, dialect string) (a, b *gorm.DB) {
	t.Helper()
	var opts db.Options
	if dialect == db.Postgres {
		opts.URL = testkit.PostgresURL(t)
	} else {
		opts.SQLitePath = filepath.Join(t.TempDir(), "limits.db")
	}
	for _, p := range []**gorm.DB{&a, &b} {
		gdb, err := db.Open(opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close(gdb) })
		*p = gdb
	}
	if err := db.Migrate(a, map[string][]*db.Migration{"ratelimit": ratelimit.Migrations()}, []string{"ratelimit"}); err != nil {
		t.Fatal(err)
	}
	return a, b
}

func rows(t *testing.T, gdb *gorm.DB) int64 {
	t.Helper()
	var n int64
	if err := gdb.Table("rate_limits").Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// The shared limiter keeps Limiter's rules (TestLimitPerKeyAndWindow), counted in the database:
// two replicas' limiters add up.
func TestSharedLimitPerKeyAndWindow(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		gdbA, gdbB := twoReplicas(t, dialect)
		ctx := context.Background()
		clk := clock.NewManual(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
		a := ratelimit.NewShared(gdbA, 3, time.Minute, clk)
		b := ratelimit.NewShared(gdbB, 3, time.Minute, clk)
		allow := func(l *ratelimit.Shared, keys ...string) bool {
			t.Helper()
			ok, err := l.Allow(ctx, keys...)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		for i, l := range []*ratelimit.Shared{a, b, a} {
			if !allow(l, "ip:1", "email:a") {
				t.Fatalf("attempt %d refused", i+1)
			}
		}
		if allow(b, "ip:1", "email:a") {
			t.Fatal("fourth attempt allowed: the replicas do not add up")
		}
		if allow(a, "ip:2", "email:a") {
			t.Fatal("the email's limit must hold from another address")
		}
		if !allow(b, "ip:3", "email:b") {
			t.Fatal("other keys must be independent")
		}
		clk.Advance(59 * time.Second)
		if allow(a, "email:a") {
			t.Fatal("the window ends a minute after its first attempt, not before")
		}
		clk.Advance(time.Second)
		if !allow(a, "ip:1", "email:a") {
			t.Fatal("a new window must allow again")
		}
		if err := b.Reset(ctx, "email:a"); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if !allow(a, "ip:9", "email:a") {
				t.Fatal("reset did not clear the count")
			}
		}

		// A sign-in form sends emails of any length: the key is stored shortened, still counted.
		long := "email:" + strings.Repeat("x", 5000)
		for range 3 {
			if !allow(a, long) {
				t.Fatal("long key refused early")
			}
		}
		if allow(b, long) || !allow(b, long+"y") {
			t.Fatal("long keys must count apart and to the limit")
		}
		// Nor can PostgreSQL hold every string as text: a NUL or bytes that are not UTF-8.
		for _, odd := range []string{"email:a\x00b", "email:\xff\xfe"} {
			for range 3 {
				if !allow(a, odd) {
					t.Fatalf("%q refused early", odd)
				}
			}
			if allow(b, odd) {
				t.Fatalf("%q not counted", odd)
			}
		}

		// Ended windows are swept on a later write: only the keys of the new window remain.
		clk.Advance(2 * time.Minute)
		if !allow(a, "ip:fresh") {
			t.Fatal("fresh key refused")
		}
		if n := rows(t, gdbA); n != 1 {
			t.Fatalf("%d rows after the sweep, want 1 (the fresh key)", n)
		}
	})
}

// Check and increment are one statement: attempts raced from two replicas at once are allowed
// exactly up to the limit, never more.
func TestSharedLimitHoldsUnderRace(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		gdbA, gdbB := twoReplicas(t, dialect)
		clk := clock.NewManual(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
		const limit, attempts = 7, 40
		limiters := []*ratelimit.Shared{ratelimit.NewShared(gdbA, limit, time.Minute, clk), ratelimit.NewShared(gdbB, limit, time.Minute, clk)}
		var allowed atomic.Int32
		var wg sync.WaitGroup
		errs := make(chan error, attempts)
		for i := range attempts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Keys in both orders: the statements must not deadlock on each other's rows.
				keys := []string{"ip:race", "email:race"}
				if i%2 == 1 {
					keys = []string{"email:race", "ip:race"}
				}
				ok, err := limiters[i%2].Allow(context.Background(), keys...)
				if err != nil {
					errs <- err
					return
				}
				if ok {
					allowed.Add(1)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if got := allowed.Load(); got != limit {
			t.Fatalf("%d of %d raced attempts allowed, want exactly %d", got, attempts, limit)
		}
	})
}
