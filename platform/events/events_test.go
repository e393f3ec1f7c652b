package events_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gorm.io/gorm"

	"marquee/platform/apperr"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/events"
	"marquee/platform/testkit"
)

var t0 = time.Date(2025, 3, 5, 9, 0, 0, 0, time.UTC)

type row struct {
	ID          string
	Name        string
	Payload     string
	Status      string
	Attempts    int
	LastError   string
	ProcessedAt *time.Time
}

func openBus(t *testing.T, dialect string) (*gorm.DB, *events.Bus, *clock.Manual) {
	t.Helper()
	gdb := testkit.OpenDB(t, dialect)
	if err := db.Migrate(gdb, map[string][]*db.Migration{"events": events.Migrations()}, []string{"events"}); err != nil {
		t.Fatal(err)
	}
	// A table of a subscriber, to see that handler writes commit with the event.
	if err := gdb.Exec("CREATE TABLE reactions (event_id VARCHAR(36) PRIMARY KEY)").Error; err != nil {
		t.Fatal(err)
	}
	clk := clock.NewManual(t0)
	return gdb, events.NewBus(gdb, clk), clk
}

func rows(t *testing.T, gdb *gorm.DB) []row {
	t.Helper()
	var rs []row
	if err := gdb.Table("events_outbox").Order("created_at, id").Find(&rs).Error; err != nil {
		t.Fatal(err)
	}
	return rs
}

func dispatch(t *testing.T, b *events.Bus, want int) {
	t.Helper()
	n, err := b.Dispatch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Fatalf("Dispatch = %d, want %d", n, want)
	}
}

type userCreated struct {
	UserID string `json:"user_id"`
}

func TestBus(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()

		t.Run("publish joins the caller's transaction", func(t *testing.T) {
			t.Parallel()
			gdb, b, _ := openBus(t, dialect)
			fail := errors.New("the publisher's change failed")
			err := db.Transact(ctx, gdb, func(ctx context.Context) error {
				if err := b.Publish(ctx, "identity.user_created", userCreated{"u1"}); err != nil {
					return err
				}
				return fail
			})
			if !errors.Is(err, fail) {
				t.Fatal(err)
			}
			if rs := rows(t, gdb); len(rs) != 0 {
				t.Fatalf("a rolled-back publish left %v", rs)
			}
			if err := db.Transact(ctx, gdb, func(ctx context.Context) error {
				return b.Publish(ctx, "identity.user_created", userCreated{"u2"})
			}); err != nil {
				t.Fatal(err)
			}
			rs := rows(t, gdb)
			if len(rs) != 1 || rs[0].Status != events.StatusPending || rs[0].Payload != `{"user_id":"u2"}` {
				t.Fatalf("rows = %+v", rs)
			}
		})

		t.Run("publish refuses a bad name or payload", func(t *testing.T) {
			t.Parallel()
			_, b, _ := openBus(t, dialect)
			for _, name := range []string{"", string(make([]byte, events.MaxNameLen+1))} {
				if err := b.Publish(ctx, name, nil); apperr.CodeOf(err) != apperr.EINVALID {
					t.Errorf("Publish(%q) = %v, want EINVALID", name, err)
				}
			}
			if err := b.Publish(ctx, "x", func() {}); apperr.CodeOf(err) != apperr.EINVALID {
				t.Errorf("Publish of a func = %v, want EINVALID", err)
			}
		})

		t.Run("delivers in created order to every subscriber", func(t *testing.T) {
			t.Parallel()
			gdb, b, clk := openBus(t, dialect)
			var got []string
			var mu sync.Mutex
			record := func(who string) events.Handler {
				return func(ctx context.Context, e events.Event) error {
					var p userCreated
					if err := json.Unmarshal(e.Payload, &p); err != nil {
						return err
					}
					mu.Lock()
					got = append(got, fmt.Sprintf("%s:%s:%s", who, e.Name, p.UserID))
					mu.Unlock()
					if !e.CreatedAt.Equal(t0) && !e.CreatedAt.After(t0) {
						t.Errorf("CreatedAt = %v", e.CreatedAt)
					}
					return nil
				}
			}
			b.Subscribe("identity.user_created", record("partners"))
			b.Subscribe("identity.user_created", record("reports"))
			b.Subscribe("billing.charged", record("campaigns"))
			for i := range 3 {
				if err := b.Publish(ctx, "identity.user_created", userCreated{fmt.Sprint("u", i)}); err != nil {
					t.Fatal(err)
				}
				clk.Advance(time.Millisecond)
			}
			if err := b.Publish(ctx, "billing.charged", userCreated{"u9"}); err != nil {
				t.Fatal(err)
			}
			if err := b.Publish(ctx, "nobody.listens", map[string]int{"n": 1}); err != nil {
				t.Fatal(err)
			}
			dispatch(t, b, 5)
			want := []string{
				"partners:identity.user_created:u0", "reports:identity.user_created:u0",
				"partners:identity.user_created:u1", "reports:identity.user_created:u1",
				"partners:identity.user_created:u2", "reports:identity.user_created:u2",
				"campaigns:billing.charged:u9",
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("deliveries\n%v\nwant\n%v", got, want)
			}
			for _, r := range rows(t, gdb) {
				if r.Status != events.StatusProcessed || r.ProcessedAt == nil || r.Attempts != 1 {
					t.Errorf("row %+v, want processed", r)
				}
			}
			dispatch(t, b, 0) // nothing twice
		})

		t.Run("a failing handler: rolled back, retried with backoff, others go on", func(t *testing.T) {
			t.Parallel()
			gdb, b, clk := openBus(t, dialect)
			var failing atomic.Bool
			failing.Store(true)
			var calls atomic.Int32
			b.Subscribe("campaigns.completed", func(ctx context.Context, e events.Event) error {
				calls.Add(1)
				// This write must vanish when the handler fails, and commit when it succeeds.
				if err := db.Conn(ctx, gdb).Exec("INSERT INTO reactions (event_id) VALUES (?)", e.ID).Error; err != nil {
					return err
				}
				if failing.Load() {
					return errors.New("partner service down")
				}
				return nil
			})
			b.Subscribe("campaigns.completed", func(ctx context.Context, e events.Event) error {
				if e.Payload == nil {
					panic("no payload")
				}
				return nil
			})
			var other atomic.Int32
			b.Subscribe("other", func(ctx context.Context, e events.Event) error { other.Add(1); return nil })

			if err := b.Publish(ctx, "campaigns.completed", map[string]string{"campaign_id": "c1"}); err != nil {
				t.Fatal(err)
			}
			clk.Advance(time.Millisecond)
			if err := b.Publish(ctx, "other", nil); err != nil {
				t.Fatal(err)
			}
			dispatch(t, b, 1) // only "other"
			if other.Load() != 1 {
				t.Fatal("a failing event held up the next one")
			}
			r := rows(t, gdb)[0]
			if r.Status != events.StatusPending || r.Attempts != 1 || r.LastError != "partner service down" {
				t.Fatalf("row %+v", r)
			}
			var n int64
			gdb.Table("reactions").Count(&n)
			if n != 0 {
				t.Fatal("a failed handler's write was committed")
			}

			clk.Advance(events.Backoff(1) - time.Millisecond)
			dispatch(t, b, 0)
			if calls.Load() != 1 {
				t.Fatal("retried before the backoff")
			}
			clk.Advance(time.Millisecond)
			dispatch(t, b, 0) // second failure
			if r := rows(t, gdb)[0]; r.Attempts != 2 {
				t.Fatalf("row %+v", r)
			}
			failing.Store(false)
			clk.Advance(events.Backoff(2))
			dispatch(t, b, 1)
			r = rows(t, gdb)[0]
			if r.Status != events.StatusProcessed || r.Attempts != 3 || r.LastError != "" {
				t.Fatalf("row %+v", r)
			}
			gdb.Table("reactions").Count(&n)
			if n != 1 {
				t.Fatalf("%d reactions committed, want exactly 1", n)
			}
		})

		// An event whose handler can never succeed must not be retried for ever.
		t.Run("an event that always fails is given up after MaxAttempts", func(t *testing.T) {
			t.Parallel()
			gdb, b, clk := openBus(t, dialect)
			var calls atomic.Int32
			b.Subscribe("doomed", func(ctx context.Context, e events.Event) error { calls.Add(1); return errors.New("never") })
			if err := b.Publish(ctx, "doomed", 1); err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= events.MaxAttempts; i++ {
				dispatch(t, b, 0)
				clk.Advance(events.Backoff(i))
			}
			r := rows(t, gdb)[0]
			if r.Status != events.StatusFailed || r.Attempts != events.MaxAttempts || r.LastError != "never" {
				t.Fatalf("row %+v", r)
			}
			clk.Advance(24 * time.Hour)
			dispatch(t, b, 0)
			if n := calls.Load(); n != events.MaxAttempts {
				t.Fatalf("handler called %d times, want %d", n, events.MaxAttempts)
			}
			if n, err := b.Waiting(ctx); err != nil || n != 0 {
				t.Fatalf("Waiting = %d, %v", n, err)
			}
		})

		t.Run("a panicking handler is retried, not fatal", func(t *testing.T) {
			t.Parallel()
			gdb, b, _ := openBus(t, dialect)
			b.Subscribe("x", func(ctx context.Context, e events.Event) error { panic("bug") })
			if err := b.Publish(ctx, "x", 1); err != nil {
				t.Fatal(err)
			}
			dispatch(t, b, 0)
			if r := rows(t, gdb)[0]; r.Status != events.StatusPending || r.LastError != "handler panicked: bug" {
				t.Fatalf("row %+v", r)
			}
		})

		t.Run("an event claimed by a dispatcher that died is delivered after the lease", func(t *testing.T) {
			t.Parallel()
			gdb, b, clk := openBus(t, dialect)
			var calls atomic.Int32
			b.Subscribe("x", func(ctx context.Context, e events.Event) error { calls.Add(1); return nil })
			if err := b.Publish(ctx, "x", 1); err != nil {
				t.Fatal(err)
			}
			if ok, err := events.ClaimEvent(b, ctx, rows(t, gdb)[0].ID); err != nil || !ok {
				t.Fatalf("claim = %v, %v", ok, err)
			}
			dispatch(t, b, 0)
			clk.Advance(events.ClaimLease)
			dispatch(t, b, 1)
			if calls.Load() != 1 {
				t.Fatalf("%d deliveries", calls.Load())
			}
		})

		t.Run("events published by a handler are delivered in the same dispatch", func(t *testing.T) {
			t.Parallel()
			_, b, _ := openBus(t, dialect)
			var second atomic.Int32
			b.Subscribe("first", func(ctx context.Context, e events.Event) error { return b.Publish(ctx, "second", nil) })
			b.Subscribe("second", func(ctx context.Context, e events.Event) error { second.Add(1); return nil })
			if err := b.Publish(ctx, "first", nil); err != nil {
				t.Fatal(err)
			}
			dispatch(t, b, 2)
			if second.Load() != 1 {
				t.Fatal("the chained event was not delivered")
			}
		})

		t.Run("two dispatchers at once deliver each event once", func(t *testing.T) {
			t.Parallel()
			gdb, b, clk := openBus(t, dialect)
			other := events.NewBus(gdb, clk) // a second replica
			var calls atomic.Int32
			h := func(ctx context.Context, e events.Event) error { calls.Add(1); return nil }
			b.Subscribe("x", h)
			other.Subscribe("x", h)
			const n = 30
			for i := range n {
				if err := b.Publish(ctx, "x", i); err != nil {
					t.Fatal(err)
				}
			}
			var wg sync.WaitGroup
			var total atomic.Int32
			for _, bus := range []*events.Bus{b, other} {
				wg.Go(func() {
					c, err := bus.Dispatch(ctx)
					if err != nil {
						t.Error(err)
					}
					total.Add(int32(c))
				})
			}
			wg.Wait()
			if total.Load() != n || calls.Load() != n {
				t.Fatalf("processed %d, handled %d, want %d each", total.Load(), calls.Load(), n)
			}
		})
	})
}
