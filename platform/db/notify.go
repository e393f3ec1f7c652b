package db

import (
	"context"
	"log/slog"

	"gorm.io/gorm"
)

// Savepoint runs fn inside a savepoint of the transaction carried by ctx: when fn fails, its
// writes alone are rolled back and the transaction goes on (PostgreSQL would otherwise refuse
// every later statement of an aborted transaction). Outside a transaction it is Transact.
func Savepoint(ctx context.Context, gdb *gorm.DB, fn func(ctx context.Context) error) error {
	tx, ok := ctx.Value(txKey{}).(*gorm.DB)
	if !ok {
		return Transact(ctx, gdb, fn)
	}
	return tx.Transaction(func(sp *gorm.DB) error {
		return fn(context.WithValue(ctx, txKey{}, sp))
	})
}

// Notify queues a notification (an email, an event or a webhook that reports a change) inside
// the caller's transaction, without letting it veto the change (DESIGN §1.14): fn runs in a
// savepoint, and its failure is logged and undone, never returned. what names the notification
// in the log.
func Notify(ctx context.Context, gdb *gorm.DB, what string, fn func(ctx context.Context) error) {
	if err := Savepoint(ctx, gdb, fn); err != nil {
		slog.ErrorContext(ctx, "notification not queued; the change it reports stands", "notification", what, "err", err)
	}
}
