package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"

	"marquee/platform/clock"
	"marquee/platform/db"
)

// Shared is a limiter whose counts live in the database, so that every replica counts against the
// same limit: the sign-in, password-reset and sign-up limits hold in total behind several replicas.
// It has Limiter's rules: at most limit attempts per key per window, the window starting at the
// key's first attempt, each key counted even when another is over.
//
// Each key is one row of rate_limits, found by its primary key. An attempt is one statement, an
// upsert that adds the hit and returns the new count, so the check and the increment are atomic:
// two replicas that count the same key at once queue on its row (PostgreSQL) or on the write lock
// (SQLite), and neither reads a count the other has already passed. Rows of ended windows are
// deleted on the way, at most once a window per process, through the index on resets_at.
type Shared struct {
	gdb    *gorm.DB
	limit  int
	window time.Duration
	clock  clock.Clock

	lastSweep atomic.Int64 // Unix milliseconds of this process's last sweep
}

// NewShared returns a limiter of limit attempts per window that counts in gdb's rate_limits table
// (Migrations). Keys are shared by every Shared limiter of the database, so callers prefix them
// ("signin:ip:...").
func NewShared(gdb *gorm.DB, limit int, window time.Duration, clk clock.Clock) *Shared {
	if gdb == nil || clk == nil || limit < 1 || window <= 0 {
		panic("ratelimit: NewShared needs a database, a clock, a limit and a window")
	}
	return &Shared{gdb: gdb, limit: limit, window: window, clock: clk}
}

// Limit is the number of attempts allowed per window.
func (s *Shared) Limit() int { return s.limit }

// Window is the limiter's window.
func (s *Shared) Window() time.Duration { return s.window }

// counterRow is a rate_limits row: hits of a key in the window that ends at resets_at.
type counterRow struct {
	LimitKey string `gorm:"column:limit_key;primaryKey;size:200"`
	Hits     int    `gorm:"not null"`
	// ResetsAt is Unix milliseconds: an integer compares the same on both dialects (SQLite keeps
	// times as text).
	ResetsAt int64 `gorm:"not null;index:rate_limits_resets_at"`
}

func (counterRow) TableName() string { return "rate_limits" }

// Migrations create rate_limits (a platform table; the kernel runs them).
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID: "ratelimit-0001-counters",
		Migrate: func(tx *gorm.DB) error {
			// A snapshot of the table as this migration made it: later changes to counterRow must
			// not change what it does.
			type rateLimits0001 struct {
				LimitKey string `gorm:"column:limit_key;primaryKey;size:200"`
				Hits     int    `gorm:"not null"`
				ResetsAt int64  `gorm:"not null;index:rate_limits_resets_at"`
			}
			return tx.Table("rate_limits").Migrator().CreateTable(&rateLimits0001{})
		},
		Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("rate_limits") },
	}}
}

// maxKey is the longest key stored as it is. A longer one (a sign-in form sends an email of any
// length), or one PostgreSQL cannot hold as text (a NUL, bytes that are not UTF-8), is stored as its
// SHA-256, so the primary key stays small and every key is counted.
const maxKey = 200

func storedKey(k string) string {
	if len(k) <= maxKey && utf8.ValidString(k) && !strings.ContainsRune(k, 0) {
		return k
	}
	sum := sha256.Sum256([]byte(k))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// upsert counts a hit on each key: a new row, or the next hit of the window, or the first hit of a
// new window when the row's has ended. The SET expressions read the row as it was. Keys go in
// sorted order, so two statements that share keys lock their rows in the same order and cannot
// deadlock.
const upsert = `INSERT INTO rate_limits (limit_key, hits, resets_at) VALUES %s
ON CONFLICT (limit_key) DO UPDATE SET
	hits = CASE WHEN rate_limits.resets_at <= ? THEN 1 ELSE rate_limits.hits + 1 END,
	resets_at = CASE WHEN rate_limits.resets_at <= ? THEN excluded.resets_at ELSE rate_limits.resets_at END
RETURNING limit_key, hits, resets_at`

// Allow counts one attempt for every key and reports whether all of them are within the limit.
// It writes outside any transaction in ctx: an attempt counts even if the caller's work rolls back.
func (s *Shared) Allow(ctx context.Context, keys ...string) (bool, error) {
	if len(keys) == 0 {
		return true, nil
	}
	rows, _, err := s.count(ctx, keys)
	if err != nil {
		return false, err
	}
	ok := true
	for _, r := range rows {
		if r.Hits > s.limit {
			ok = false
		}
	}
	return ok, nil
}

// Take counts one attempt for key and reports whether it is within the limit, how many attempts
// remain in the window, and when the window ends (the RateLimit headers of an API call), as
// Limiter.Take does.
func (s *Shared) Take(ctx context.Context, key string) (ok bool, remaining int, reset time.Duration, err error) {
	rows, now, err := s.count(ctx, []string{key})
	if err != nil {
		return false, 0, 0, err
	}
	r := rows[0]
	return r.Hits <= s.limit, max(s.limit-r.Hits, 0), time.UnixMilli(r.ResetsAt).Sub(now), nil
}

// count adds one hit to each key in one statement and returns the keys' rows after it, and the
// time it counted at.
func (s *Shared) count(ctx context.Context, keys []string) ([]counterRow, time.Time, error) {
	stored := make([]string, len(keys))
	for i, k := range keys {
		stored[i] = storedKey(k)
	}
	slices.Sort(stored)
	stored = slices.Compact(stored) // PostgreSQL refuses to update one row twice in a statement
	now := s.clock.Now()
	nowMS, endMS := now.UnixMilli(), now.Add(s.window).UnixMilli()
	values := make([]string, len(stored))
	args := make([]any, 0, 2*len(stored)+2)
	for i, k := range stored {
		values[i] = "(?, 1, ?)"
		args = append(args, k, endMS)
	}
	args = append(args, nowMS, nowMS)
	var rows []counterRow
	if err := s.gdb.WithContext(ctx).Raw(fmt.Sprintf(upsert, strings.Join(values, ", ")), args...).Scan(&rows).Error; err != nil {
		return nil, now, fmt.Errorf("ratelimit: count: %w", err)
	}
	if len(rows) != len(stored) {
		return nil, now, fmt.Errorf("ratelimit: counted %d of %d keys", len(rows), len(stored))
	}
	s.sweep(ctx, now)
	return rows, now, nil
}

// Reset forgets key (a successful sign-in clears its email's count) on every replica.
func (s *Shared) Reset(ctx context.Context, key string) error {
	if err := s.gdb.WithContext(ctx).Exec("DELETE FROM rate_limits WHERE limit_key = ?", storedKey(key)).Error; err != nil {
		return fmt.Errorf("ratelimit: reset: %w", err)
	}
	return nil
}

// sweep deletes the rows whose window has ended, once a window per process: the table holds only
// the keys seen in the last window or so, whatever the traffic. A failed sweep does not fail the
// attempt, which was counted; the next attempt sweeps again.
func (s *Shared) sweep(ctx context.Context, now time.Time) {
	last := s.lastSweep.Load()
	if now.UnixMilli()-last < s.window.Milliseconds() || !s.lastSweep.CompareAndSwap(last, now.UnixMilli()) {
		return
	}
	if err := s.gdb.WithContext(ctx).Exec("DELETE FROM rate_limits WHERE resets_at <= ?", now.UnixMilli()).Error; err != nil {
		s.lastSweep.Store(last)
	}
}
