package auth

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

// The session cache (issue 16, docs/performance.md). Every signed-in request used to read the
// session, the user and the company: three queries that cost more than the rest of the request.
// Now a resolved session and its principal stay in process memory for a few seconds, and are
// trusted only while nothing that could end them has happened:
//
//   - any write (UPDATE, DELETE, an upsert) on the session table or on the principal's tables (PrincipalTables),
//     from any code path on this process, ends every cached entry at once (a gorm callback);
//   - on PostgreSQL the same callback sends NOTIFY in the writer's transaction, and every replica
//     LISTENs: the notice arrives when the write commits and ends the entries there too. While the
//     listening connection is down (or not yet up) nothing is cached, so a missed notice cannot
//     keep a revoked session alive;
//   - after an invalidation nothing is cached for SettleAfterInvalidate, so a read that raced a
//     still-uncommitted write cannot put the old state back;
//   - a failing query anywhere (a database outage) ends every entry, so an outage answers 503 as
//     before instead of serving from memory.
//
// Only positive answers are cached, and expiry is checked on each hit against the cached
// last-seen time, which is never later than the stored one: the cache can make a session end
// early (then it is read again) but never late.

// cacheTTL bounds how long an entry lives even when no invalidation arrives.
const cacheTTL = 10 * time.Second

// SettleAfterInvalidate is how long after an invalidation nothing is cached: longer than the
// transactions that change a user or a session take to commit.
const SettleAfterInvalidate = 2 * time.Second

// maxCached bounds the memory: past it the cache starts over.
const maxCached = 50000

// notifyChannel is the PostgreSQL channel of session and principal changes.
const notifyChannel = "marquee_auth"

// skipInvalidate marks a statement that cannot end a session (Create starts one, Touch extends one).
const skipInvalidate = "auth:skip_invalidate"

// PrincipalTables is implemented by a PrincipalLoader that reads its answer from tables: an update
// or delete on any of them ends every cached principal. A loader without it is never cached.
type PrincipalTables interface {
	PrincipalTables() []string
}

type cached struct {
	sess     Session
	p        Principal
	gen      uint64
	cachedAt time.Time // wall clock, for cacheTTL
}

type sessionCache struct {
	mu      sync.RWMutex
	entries map[string]*cached // by token hash
	gen     atomic.Uint64
	// settle is the wall-clock UnixNano before which nothing is cached.
	settle atomic.Int64
	// live is false while a PostgreSQL replica is not listening for invalidations.
	live    atomic.Bool
	tables  map[string]bool
	enabled bool
}

func newSessionCache() *sessionCache {
	return &sessionCache{entries: map[string]*cached{}, tables: map[string]bool{"auth_sessions": true}}
}

// invalidate ends every entry.
func (c *sessionCache) invalidate() {
	c.gen.Add(1)
	c.settle.Store(time.Now().Add(SettleAfterInvalidate).UnixNano())
	c.mu.Lock()
	clear(c.entries)
	c.mu.Unlock()
}

func (c *sessionCache) get(hash string) *cached {
	if !c.enabled || !c.live.Load() {
		return nil
	}
	c.mu.RLock()
	e := c.entries[hash]
	c.mu.RUnlock()
	if e == nil || e.gen != c.gen.Load() || time.Since(e.cachedAt) > cacheTTL {
		return nil
	}
	return e
}

// put caches an answer read while the generation was gen.
func (c *sessionCache) put(hash string, gen uint64, sess *Session, p *Principal) {
	if !c.enabled || !c.live.Load() || time.Now().UnixNano() < c.settle.Load() {
		return
	}
	e := &cached{sess: *sess, p: *p, gen: gen, cachedAt: time.Now()}
	c.mu.Lock()
	if c.gen.Load() == gen {
		if len(c.entries) >= maxCached {
			clear(c.entries)
		}
		c.entries[hash] = e
	}
	c.mu.Unlock()
}

// touched records a new last-seen time of a cached session.
func (c *sessionCache) touched(hash string, at time.Time) {
	c.mu.Lock()
	if e := c.entries[hash]; e != nil {
		copied := *e
		copied.sess.LastSeenAt = at
		c.entries[hash] = &copied
	}
	c.mu.Unlock()
}

// watch registers the gorm callbacks that invalidate the cache on gdb.
func (c *sessionCache) watch(gdb *gorm.DB, notify bool) {
	after := func(db *gorm.DB) {
		if db.Error != nil {
			if !errors.Is(db.Error, gorm.ErrRecordNotFound) && !errors.Is(db.Error, context.Canceled) {
				c.invalidate() // the database may be failing: stop answering from memory
			}
			return
		}
		if skip, _ := db.Get(skipInvalidate); skip == true {
			return
		}
		if !c.touches(db) {
			return
		}
		c.invalidate()
		if notify {
			// In the writer's transaction when there is one: PostgreSQL delivers it on commit.
			_, _ = db.Statement.ConnPool.ExecContext(db.Statement.Context, "SELECT pg_notify('"+notifyChannel+"', '')")
		}
	}
	cb := gdb.Callback()
	// Creates too: an upsert (INSERT ... ON CONFLICT DO UPDATE) can change a user.
	_ = cb.Create().After("gorm:create").Register("auth:session-cache", after)
	_ = cb.Update().After("gorm:update").Register("auth:session-cache", after)
	_ = cb.Delete().After("gorm:delete").Register("auth:session-cache", after)
	_ = cb.Raw().After("gorm:raw").Register("auth:session-cache", after)
	_ = cb.Query().After("gorm:query").Register("auth:session-cache", func(db *gorm.DB) {
		if db.Error != nil && !errors.Is(db.Error, gorm.ErrRecordNotFound) && !errors.Is(db.Error, context.Canceled) {
			c.invalidate()
		}
	})
}

// touches reports whether the statement writes a watched table: by its model's table, or by the
// table names in the SQL of an UPDATE, DELETE or raw statement. A false positive only costs a few
// reads; a false negative would keep a revoked session, so the SQL check is broad.
func (c *sessionCache) touches(db *gorm.DB) bool {
	if c.tables[db.Statement.Table] {
		return true
	}
	sql := strings.ToLower(db.Statement.SQL.String())
	for t := range c.tables {
		if strings.Contains(sql, t) {
			return true
		}
	}
	return false
}

// listen keeps a connection LISTENing on notifyChannel and ends every entry on each notice. The
// cache is live only while it listens; after a reconnect it starts empty (a notice may have been
// missed).
func (c *sessionCache) listen(ctx context.Context, dsn string, log *slog.Logger) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		conn, err := pgx.Connect(ctx, dsn)
		if err == nil {
			_, err = conn.Exec(ctx, "LISTEN "+notifyChannel)
		}
		if err == nil {
			c.invalidate()
			c.live.Store(true)
			backoff = 100 * time.Millisecond
			for err == nil {
				_, err = conn.WaitForNotification(ctx)
				if err == nil {
					c.invalidate()
				}
			}
		}
		c.live.Store(false)
		c.invalidate()
		if conn != nil {
			_ = conn.Close(context.WithoutCancel(ctx))
		}
		if ctx.Err() != nil {
			return
		}
		log.Warn("session cache: not listening for revocations; sessions are read from the database", "err", err.Error())
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// postgresDSN returns the connection string of a PostgreSQL gorm database, or "".
func postgresDSN(gdb *gorm.DB) string {
	if d, ok := gdb.Dialector.(*postgres.Dialector); ok && d.Config != nil {
		return d.Config.DSN
	}
	return ""
}
