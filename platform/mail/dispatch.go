package mail

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"gorm.io/gorm"

	"marquee/platform/apperr"
	"marquee/platform/clock"
	"marquee/platform/retry"
)

// DispatchOptions tune delivery. Zero values take the defaults below.
type DispatchOptions struct {
	From        string        // MAIL_FROM, e.g. "Marquee <no-reply@example.com>"; required
	BatchSize   int           // messages per DeliverPending; default 50
	MaxAttempts int           // MAIL_MAX_ATTEMPTS: attempts before a message is marked failed; default 10
	Lease       time.Duration // how long a claimed message is left to one dispatcher; default 5 minutes
	Log         *slog.Logger  // default slog.Default()
}

// Defaults of DispatchOptions.
const (
	DefaultBatchSize   = 50
	DefaultMaxAttempts = 10
	DefaultLease       = 5 * time.Minute
)

// Retry delays double from retryBase up to retryMax: with the default 10 attempts a message is
// tried over about four hours, long enough to ride out an SMTP outage.
const (
	retryBase = 30 * time.Second
	retryMax  = time.Hour
)

// maxErrorLen bounds the last_error kept per message.
const maxErrorLen = 1000

// Dispatcher delivers the outbox through a Sender. Run DeliverPending from a job.
type Dispatcher struct {
	outbox *Outbox
	sender Sender
	clk    clock.Clock
	opts   DispatchOptions
}

// NewDispatcher returns a dispatcher of o's messages through s.
func NewDispatcher(o *Outbox, s Sender, clk clock.Clock, opts DispatchOptions) *Dispatcher {
	if o == nil || s == nil || clk == nil {
		panic("mail: NewDispatcher needs an outbox, a sender and a clock")
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = DefaultMaxAttempts
	}
	if opts.Lease <= 0 {
		opts.Lease = DefaultLease
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return &Dispatcher{outbox: o, sender: s, clk: clk, opts: opts}
}

// DeliverPending sends up to BatchSize due messages, oldest first, and returns how many were sent.
// A message is due when it is pending and its next attempt time has come, or when a dispatcher
// claimed it and its lease ran out (that dispatcher died while sending: the message may go out
// twice, never zero times). Each message is claimed on its own, with a lease, just before it is
// sent; then it is marked sent, or scheduled for a retry with exponential backoff, or marked
// failed after MaxAttempts attempts. Nothing is deleted. Returns EINVALID when From is not an
// address, before touching any message.
func (d *Dispatcher) DeliverPending(ctx context.Context) (int, error) {
	if _, err := parseAddress(d.opts.From); err != nil {
		return 0, apperr.Field("from", fmt.Sprintf("Invalid sender address %q (MAIL_FROM).", d.opts.From))
	}
	// Not db.Conn: delivery is never part of a caller's transaction; each step commits alone.
	conn := d.outbox.gdb.WithContext(ctx)
	now := d.clk.Now().UTC()

	// A message whose last attempt was claimed by a dispatcher that never came back is failed,
	// not retried past MaxAttempts.
	if err := conn.Model(&outboxRow{}).
		Where("status = ? AND lease_until <= ? AND attempts >= ?", StatusSending, now, d.opts.MaxAttempts).
		Updates(map[string]any{"status": StatusFailed, "lease_until": nil, "last_error": "the dispatcher stopped during the last attempt"}).Error; err != nil {
		return 0, apperr.Internal(fmt.Errorf("mail: fail abandoned messages: %w", err))
	}

	var due []outboxRow
	if err := d.whereDue(conn.Model(&outboxRow{}), now).Order("created_at, id").Limit(d.opts.BatchSize).Find(&due).Error; err != nil {
		return 0, apperr.Internal(fmt.Errorf("mail: find due messages: %w", err))
	}
	sent := 0
	for _, candidate := range due {
		if ctx.Err() != nil {
			return sent, ctx.Err()
		}
		row, claimed, err := d.claim(ctx, candidate.ID)
		if err != nil {
			return sent, err
		}
		if !claimed {
			continue // another dispatcher took it
		}
		ok, err := d.deliver(ctx, row)
		if err != nil {
			return sent, err
		}
		if ok {
			sent++
		}
	}
	return sent, nil
}

func (d *Dispatcher) whereDue(q *gorm.DB, now time.Time) *gorm.DB {
	return q.Where("(status = ? AND next_attempt_at <= ?) OR (status = ? AND lease_until <= ?)",
		StatusPending, now, StatusSending, now)
}

// claim takes one due message for this dispatcher by a conditional update, so that two
// dispatchers never both claim it, and counts the attempt.
func (d *Dispatcher) claim(ctx context.Context, id string) (outboxRow, bool, error) {
	conn := d.outbox.gdb.WithContext(ctx)
	now := d.clk.Now().UTC()
	res := d.whereDue(conn.Model(&outboxRow{}).Where("id = ?", id), now).
		Updates(map[string]any{"status": StatusSending, "lease_until": now.Add(d.opts.Lease), "attempts": gorm.Expr("attempts + 1")})
	if res.Error != nil {
		return outboxRow{}, false, apperr.Internal(fmt.Errorf("mail: claim %s: %w", id, res.Error))
	}
	if res.RowsAffected == 0 {
		return outboxRow{}, false, nil
	}
	var row outboxRow
	if err := conn.Where("id = ?", id).Take(&row).Error; err != nil {
		return outboxRow{}, false, apperr.Internal(fmt.Errorf("mail: read %s: %w", id, err))
	}
	return row, true, nil
}

// deliver sends a claimed message and records the outcome. It reports whether the message went
// out; the error is only for failing to record an outcome.
func (d *Dispatcher) deliver(ctx context.Context, row outboxRow) (bool, error) {
	m, err := row.message()
	if err == nil {
		err = d.sender.Send(ctx, d.opts.From, m)
	}
	// The outcome is recorded even when ctx ends now: a sent message left "sending" would be sent
	// again when its lease runs out.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	conn := d.outbox.gdb.WithContext(rctx).Model(&outboxRow{}).Where("id = ? AND status = ?", row.ID, StatusSending)
	now := d.clk.Now().UTC()
	log := d.opts.Log.With("message_id", row.ID, "attempt", row.Attempts)

	if err == nil {
		if err := conn.Updates(map[string]any{"status": StatusSent, "sent_at": now, "lease_until": nil}).Error; err != nil {
			return true, apperr.Internal(fmt.Errorf("mail: mark %s sent: %w", row.ID, err))
		}
		log.Info("mail sent")
		return true, nil
	}

	update := map[string]any{"lease_until": nil, "last_error": retry.Truncate(err.Error(), maxErrorLen)}
	if row.Attempts >= d.opts.MaxAttempts {
		update["status"] = StatusFailed
		log.Error("mail failed for good", "err", err)
	} else {
		next := now.Add(retry.Backoff(row.Attempts, retryBase, retryMax))
		update["status"] = StatusPending
		update["next_attempt_at"] = next
		log.Warn("mail not sent; will retry", "err", err, "next_attempt_at", next)
	}
	if err := conn.Updates(update).Error; err != nil {
		return false, apperr.Internal(fmt.Errorf("mail: record failure of %s: %w", row.ID, err))
	}
	return false, nil
}
