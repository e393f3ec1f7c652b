package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"marquee/platform/apperr"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/ratelimit"
	"marquee/platform/testkit"
)

// Take answers what the RateLimit headers say, the same for both counters: allowed or not, the
// attempts left, and the time to the window's end.
func TestTakeCountsDownToTheWindowEnd(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		gdb, _ := twoReplicas(t, dialect)
		clk := clock.NewManual(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
		for name, c := range map[string]ratelimit.Counter{
			"shared":     ratelimit.NewShared(gdb, 3, time.Minute, clk),
			"in process": ratelimit.InProcess(clk)("calls", 3, time.Minute),
		} {
			take := func() (bool, int, time.Duration) {
				t.Helper()
				ok, remaining, reset, err := c.Take(context.Background(), "key:"+name)
				if err != nil {
					t.Fatal(err)
				}
				return ok, remaining, reset
			}
			start := clk.Now()
			for i, want := range []struct {
				ok        bool
				remaining int
			}{{true, 2}, {true, 1}, {true, 0}, {false, 0}} {
				clk.Advance(10 * time.Second)
				ok, remaining, reset := take()
				if wantReset := start.Add(10 * time.Second).Add(time.Minute).Sub(clk.Now()); ok != want.ok || remaining != want.remaining || reset != wantReset {
					t.Fatalf("%s: take %d = %v, %d left, resets in %v; want %v, %d, %v", name, i+1, ok, remaining, reset, want.ok, want.remaining, wantReset)
				}
			}
			clk.Advance(30 * time.Second) // the window began at the first take, 60 s ago
			if ok, remaining, reset := take(); !ok || remaining != 2 || reset != time.Minute {
				t.Fatalf("%s: first take of a new window = %v, %d, %v", name, ok, remaining, reset)
			}
		}
	})
}

// ForDatabase counts in the database on PostgreSQL, where replicas share it: two replicas' counters
// of one limit add up. On SQLite, which one process opens, it counts in the process. Either way,
// two limits of one factory count apart, even for the same key.
func TestForDatabaseCountsAcrossReplicasOnPostgres(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		gdbA, gdbB := twoReplicas(t, dialect)
		clk := clock.NewManual(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
		ctx := context.Background()
		a := ratelimit.ForDatabase(gdbA, clk)("uploads", 2, time.Minute)
		b := ratelimit.ForDatabase(gdbB, clk)("uploads", 2, time.Minute)
		other := ratelimit.ForDatabase(gdbA, clk)("reports", 2, time.Minute)
		check := func(c ratelimit.Counter) error { return ratelimit.Check(ctx, c, "Slow down.", "user:1") }
		for _, c := range []ratelimit.Counter{a, b, other, other} {
			if err := check(c); err != nil {
				t.Fatalf("an attempt within the limit: %v", err)
			}
		}
		err := check(b)
		if dialect == db.Postgres {
			if e := apperr.As(err); e.Code != apperr.ERATELIMIT || e.Message != "Slow down." {
				t.Fatalf("third attempt over two replicas = %v, want ERATELIMIT with the message", err)
			}
		} else if err != nil {
			t.Fatalf("on SQLite each process counts its own: %v", err)
		}
		if dialect == db.SQLite {
			if err := check(a); err != nil {
				t.Fatalf("second attempt on one counter: %v", err)
			}
		}
		if e := apperr.As(check(a)); e.Code != apperr.ERATELIMIT {
			t.Fatalf("an attempt over the limit on one counter = %v", e)
		}
		if e := apperr.As(check(other)); e.Code != apperr.ERATELIMIT {
			t.Fatalf("the other limit's third attempt = %v", e)
		}
		wantRows := map[string]int64{db.Postgres: 2, db.SQLite: 0}[dialect] // uploads:user:1, reports:user:1
		if n := rows(t, gdbA); n != wantRows {
			t.Fatalf("rate_limits rows = %d, want %d", n, wantRows)
		}
	})
}
