// Package events is an outbox event bus for reactions that point up the module graph (DESIGN.md
// §2): a module publishes an event in its own transaction, and the modules above it subscribe.
// Dispatch, run by a job, hands each event to its subscribers after the publisher committed, at
// least once, retrying a failure with backoff. An event whose handlers fail MaxAttempts times is
// given up: kept with the status failed and its last error, for the operator, since an event
// whose handler can never succeed would otherwise be retried for ever.
package events

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"

	"marquee/platform/apperr"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/retry"
)

// Event is a published fact, e.g. "identity.user_created" with its payload.
type Event struct {
	ID        string
	Name      string
	Payload   json.RawMessage
	CreatedAt time.Time
}

// Handler reacts to an event. It must be idempotent: an event can be delivered again (see
// Dispatch).
type Handler func(ctx context.Context, e Event) error

// Statuses of an event row.
const (
	StatusPending   = "pending"
	StatusProcessed = "processed"
	StatusFailed    = "failed" // given up after MaxAttempts; kept for the operator
)

// MaxNameLen bounds an event name.
const MaxNameLen = 100

// Delivery tuning. A failing event is retried after retryBase, doubling up to retryMax, up to
// MaxAttempts attempts (about two days), and its last error is kept for the operator.
// A claimed event is left to its dispatcher for claimLease; if that dispatcher dies, the event is
// due again after it.
const (
	retryBase   = 10 * time.Second
	retryMax    = time.Hour
	claimLease  = 5 * time.Minute
	batchSize   = 100
	maxRounds   = 10
	maxErrorLen = 1000
	MaxAttempts = 50
)

type eventRow struct {
	ID            string `gorm:"primaryKey;size:36"`
	Name          string `gorm:"size:100;not null"`
	Payload       string `gorm:"not null"`
	Status        string `gorm:"size:16;not null"`
	Attempts      int    `gorm:"not null"`
	NextAttemptAt time.Time
	LastError     string `gorm:"not null"`
	CreatedAt     time.Time
	ProcessedAt   *time.Time
}

func (eventRow) TableName() string { return "events_outbox" }

// eventsOutbox0001 is the table as migration events-0001 created it; a snapshot, so that later
// changes to eventRow never change what this migration does.
type eventsOutbox0001 struct {
	ID            string    `gorm:"primaryKey;size:36"`
	Name          string    `gorm:"size:100;not null"`
	Payload       string    `gorm:"type:text;not null"`
	Status        string    `gorm:"size:16;not null;index:events_outbox_due,priority:1"`
	Attempts      int       `gorm:"not null;default:0"`
	NextAttemptAt time.Time `gorm:"not null;index:events_outbox_due,priority:2"`
	LastError     string    `gorm:"type:text;not null"`
	CreatedAt     time.Time `gorm:"not null"`
	ProcessedAt   *time.Time
}

func (eventsOutbox0001) TableName() string { return "events_outbox" }

// Migrations create events_outbox.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID:       "events-0001-outbox",
		Migrate:  func(tx *gorm.DB) error { return tx.Migrator().CreateTable(&eventsOutbox0001{}) },
		Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("events_outbox") },
	}}
}

// Bus publishes events to the outbox and dispatches them to subscribers.
type Bus struct {
	gdb *gorm.DB
	clk clock.Clock
	log *slog.Logger

	mu       sync.RWMutex
	handlers map[string][]Handler
}

// NewBus returns the bus on gdb.
func NewBus(gdb *gorm.DB, clk clock.Clock) *Bus {
	if gdb == nil || clk == nil {
		panic("events: NewBus needs a database and a clock")
	}
	return &Bus{gdb: gdb, clk: clk, log: slog.Default(), handlers: map[string][]Handler{}}
}

// Waiting counts the events not yet handled (the outbox's depth, for /metrics).
func (b *Bus) Waiting(ctx context.Context) (n int64, err error) {
	err = b.gdb.WithContext(ctx).Model(&eventRow{}).Where("status = ?", StatusPending).Count(&n).Error
	return n, err
}

// Publish stores an event with payload as JSON. It writes through the transaction carried by ctx,
// if any, so the event exists only if the publisher's change commits. Returns EINVALID for an
// empty or overlong name or a payload that does not marshal.
func (b *Bus) Publish(ctx context.Context, name string, payload any) error {
	if name == "" || len(name) > MaxNameLen || !utf8.ValidString(name) {
		return apperr.Errorf(apperr.EINVALID, "Invalid event name %q.", name)
	}
	data, err := json.Marshal(payload)
	if err != nil {
		return apperr.Errorf(apperr.EINVALID, "Event %s: the payload does not marshal to JSON: %v.", name, err)
	}
	now := b.clk.Now().UTC()
	row := eventRow{ID: ids.New(), Name: name, Payload: string(data), Status: StatusPending, NextAttemptAt: now, CreatedAt: now}
	if err := db.Conn(ctx, b.gdb).Create(&row).Error; err != nil {
		return apperr.Internal(fmt.Errorf("events: publish %s: %w", name, err))
	}
	return nil
}

// Subscribe adds h to the handlers of events named name. Subscribe while wiring, before the
// scheduler starts dispatching.
func (b *Bus) Subscribe(name string, h Handler) {
	if h == nil {
		panic("events: Subscribe with a nil handler")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.handlers[name] = append(b.handlers[name], h)
}

// Dispatch delivers the due events, oldest first, and returns how many it processed. An event is
// due when it is pending and its next attempt time has come; an event that a handler publishes
// is delivered in the same call.
//
// The handlers of one event run in one transaction, carried by their ctx, together with marking
// the event processed: a handler that writes through db.Conn(ctx, ...) commits exactly when the
// event is marked, so its database effects happen once. If any handler fails, all of them roll
// back and the event is retried later, with backoff, to every handler: effects outside the
// database can repeat, so handlers must be idempotent. Other events go on meanwhile. An event
// with no subscriber is marked processed. Call Dispatch outside any transaction (from a job).
//
// On SQLite the handlers' transaction holds the database's write lock: a handler must write only
// through db.Conn(ctx, ...), as every store does, or it waits on itself.
func (b *Bus) Dispatch(ctx context.Context) (int, error) {
	processed := 0
	// A handler may publish events that are due at once; further rounds deliver them, up to a
	// bound, so that handlers that publish to each other cannot hold a dispatch forever.
	for range maxRounds {
		now := b.clk.Now().UTC()
		var due []eventRow
		err := b.gdb.WithContext(ctx).Where("status = ? AND next_attempt_at <= ?", StatusPending, now).
			Order("created_at, id").Limit(batchSize).Find(&due).Error
		if err != nil {
			return processed, apperr.Internal(fmt.Errorf("events: find due events: %w", err))
		}
		for _, row := range due {
			if err := ctx.Err(); err != nil {
				return processed, err
			}
			claimed, err := b.claim(ctx, row.ID)
			if err != nil {
				return processed, err
			}
			if !claimed {
				continue // another dispatcher has it
			}
			ok, err := b.deliver(ctx, row)
			if err != nil {
				return processed, err
			}
			if ok {
				processed++
			}
		}
		if len(due) == 0 {
			break
		}
	}
	return processed, nil
}

// claim takes an event for this dispatcher by moving its next attempt past a lease, with a
// conditional update so that two dispatchers never both take it, and counts the attempt.
func (b *Bus) claim(ctx context.Context, id string) (bool, error) {
	now := b.clk.Now().UTC()
	res := b.gdb.WithContext(ctx).Model(&eventRow{}).
		Where("id = ? AND status = ? AND next_attempt_at <= ?", id, StatusPending, now).
		Updates(map[string]any{"next_attempt_at": now.Add(claimLease), "attempts": gorm.Expr("attempts + 1")})
	if res.Error != nil {
		return false, apperr.Internal(fmt.Errorf("events: claim %s: %w", id, res.Error))
	}
	return res.RowsAffected == 1, nil
}

// deliver runs the handlers of a claimed event and records the outcome. It reports whether the
// event was processed; the error is only for failing to record an outcome.
func (b *Bus) deliver(ctx context.Context, row eventRow) (bool, error) {
	b.mu.RLock()
	handlers := b.handlers[row.Name]
	b.mu.RUnlock()
	e := Event{ID: row.ID, Name: row.Name, Payload: json.RawMessage(row.Payload), CreatedAt: row.CreatedAt.UTC()}

	err := db.Transact(ctx, b.gdb, func(ctx context.Context) error {
		for _, h := range handlers {
			if err := runHandler(ctx, h, e); err != nil {
				return err
			}
		}
		res := db.Conn(ctx, b.gdb).Model(&eventRow{}).Where("id = ? AND status = ?", row.ID, StatusPending).
			Updates(map[string]any{"status": StatusProcessed, "processed_at": b.clk.Now().UTC(), "last_error": ""})
		if res.Error != nil {
			return apperr.Internal(fmt.Errorf("events: mark %s processed: %w", row.ID, res.Error))
		}
		return nil
	})
	if err == nil {
		return true, nil
	}

	// The failure is recorded even when ctx ends now, or the event would wait out its lease.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var attempts []int
	if err := b.gdb.WithContext(rctx).Model(&eventRow{}).Where("id = ?", row.ID).Pluck("attempts", &attempts).Error; err != nil || len(attempts) != 1 {
		return false, apperr.Internal(fmt.Errorf("events: read attempts of %s: %v", row.ID, err))
	}
	next := b.clk.Now().UTC().Add(retry.Backoff(attempts[0], retryBase, retryMax))
	fields := map[string]any{"next_attempt_at": next, "last_error": retry.Truncate(err.Error(), maxErrorLen)}
	if attempts[0] >= MaxAttempts {
		fields["status"] = StatusFailed
		b.log.Error("events: handler failed; given up", "event", row.Name, "event_id", row.ID, "attempt", attempts[0], "err", err)
	} else {
		b.log.Warn("events: handler failed; will retry", "event", row.Name, "event_id", row.ID, "attempt", attempts[0], "err", err, "next_attempt_at", next)
	}
	res := b.gdb.WithContext(rctx).Model(&eventRow{}).Where("id = ? AND status = ?", row.ID, StatusPending).Updates(fields)
	if res.Error != nil {
		return false, apperr.Internal(fmt.Errorf("events: record failure of %s: %w", row.ID, res.Error))
	}
	return false, nil
}

// runHandler turns a handler's panic into an error, so one bad handler does not stop the others'
// events.
func runHandler(ctx context.Context, h Handler, e Event) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("handler panicked: %v", p)
		}
	}()
	return h(ctx, e)
}
