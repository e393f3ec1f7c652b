package jobs

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"sync"

	"gorm.io/gorm"

	"marquee/platform/db"
)

// Leader decides which process runs the jobs (DESIGN.md §5, §8: one leader across replicas).
type Leader interface {
	// TryLead reports whether this process leads now, taking the lead when it is free. Called on
	// every tick, so a process that lost the lead (its database session died) finds out.
	TryLead(ctx context.Context) (bool, error)
	// Release gives the lead up, so another process can take it at once.
	Release(ctx context.Context) error
}

// LeaderFor returns a PostgreSQL advisory-lock leader on PostgreSQL, and a local leader on SQLite,
// which only one process can use anyway.
func LeaderFor(gdb *gorm.DB, key int64) Leader {
	if db.Dialect(gdb) == db.Postgres {
		return NewPostgresLeader(gdb, key)
	}
	return NewLocalLeader()
}

type localLeader struct{}

// NewLocalLeader returns a leader that always leads.
func NewLocalLeader() Leader { return localLeader{} }

func (localLeader) TryLead(context.Context) (bool, error) { return true, nil }
func (localLeader) Release(context.Context) error         { return nil }

// postgresLeader holds a session-level advisory lock (pg_try_advisory_lock) on one connection
// taken out of the pool for as long as it leads. The lock lives as long as that session: if the
// connection dies, PostgreSQL releases the lock and another replica takes it, and this process
// notices on its next TryLead, when the ping fails.
type postgresLeader struct {
	gdb *gorm.DB
	key int64

	mu   sync.Mutex
	conn *sql.Conn // non-nil while leading
}

// NewPostgresLeader returns a leader that leads while it holds the advisory lock key.
func NewPostgresLeader(gdb *gorm.DB, key int64) Leader {
	return &postgresLeader{gdb: gdb, key: key}
}

func (l *postgresLeader) TryLead(ctx context.Context) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn != nil {
		if err := l.conn.PingContext(ctx); err == nil {
			return true, nil
		}
		// The session is gone, and its lock with it; maybe another process leads now.
		l.discard()
	}
	sqlDB, err := l.gdb.DB()
	if err != nil {
		return false, err
	}
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("jobs: leader connection: %w", err)
	}
	var locked bool
	if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1)", l.key).Scan(&locked); err != nil {
		discardConn(conn)
		return false, fmt.Errorf("jobs: try advisory lock: %w", err)
	}
	if !locked {
		_ = conn.Close() // back to the pool: it holds nothing
		return false, nil
	}
	l.conn = conn
	return true, nil
}

func (l *postgresLeader) Release(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn == nil {
		return nil
	}
	var unlocked bool
	err := l.conn.QueryRowContext(ctx, "SELECT pg_advisory_unlock($1)", l.key).Scan(&unlocked)
	l.discard()
	if err != nil {
		return fmt.Errorf("jobs: advisory unlock: %w", err)
	}
	return nil
}

// discard closes the leader's connection for good rather than returning it to the pool: should
// the unlock have failed, a pooled connection would keep the lock, and no process would lead.
// Closing the session releases every lock it holds.
func (l *postgresLeader) discard() {
	discardConn(l.conn)
	l.conn = nil
}

func discardConn(conn *sql.Conn) {
	// A driver.ErrBadConn from Raw makes database/sql close the connection instead of pooling it.
	_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	_ = conn.Close()
}
