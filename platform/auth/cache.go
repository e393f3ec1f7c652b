package auth

import (
	"sync"
	"time"

	"gorm.io/gorm"

	"marquee/platform/db"
)

// The session cache (docs/performance.md). Every signed-in request used to read the
// session, the user and the company: three queries that cost more than the rest of the request.
// Now a resolved session (or API key) and its principal stay in process memory for a few seconds,
// and are trusted only while nothing that could end them has happened. What "nothing has
// happened" means is a db.Watch on the session table and the principal's tables
// (PrincipalTables), the mechanism every in-process cache of Marquee uses (platform/db/watch.go):
//
//   - any write on those tables, from any code path on this process, ends every cached entry at
//     once; on PostgreSQL it also sends NOTIFY in the writer's transaction, and every replica
//     LISTENs, so a logout, a disabled user or a revoked key ends the entries there on commit.
//     While the listening connection is down nothing is cached;
//   - after a change nothing is cached for db.WatchSettle, so a read that raced a still-uncommitted
//     write cannot put the old state back;
//   - a failing query anywhere (a database outage) ends every entry, so an outage answers 503 as
//     before instead of serving from memory.
//
// Writes that cannot end a session (creating one, its last-seen time, a key's last use) are
// db.Quiet. Only positive answers are cached, and expiry is checked on each hit against the cached
// last-seen time, which is never later than the stored one: the cache can make a session end
// early (then it is read again) but never late.

// cacheTTL bounds how long an entry lives even when no change arrives.
const cacheTTL = 10 * time.Second

// maxCached bounds the memory: past it the cache starts over.
const maxCached = 50000

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

// sessionCache holds the entries; watch says whether they are still current. A nil watch (the
// cache was never turned on) caches nothing.
type sessionCache struct {
	watch   *db.Watch
	mu      sync.RWMutex
	entries map[string]*cached // by token hash ("key:"+hash for API keys)
	gen     uint64             // the generation the entries were read under
}

func newSessionCache() *sessionCache { return &sessionCache{entries: map[string]*cached{}} }

// start watches the session table and tables on gdb.
func (c *sessionCache) start(gdb *gorm.DB, tables []string) {
	c.watch = db.NewWatch(gdb, "auth", append([]string{"auth_sessions"}, tables...)...)
}

// begin is called before reading an answer: the generation to put it under, and whether it may
// be kept at all.
func (c *sessionCache) begin() (uint64, bool) {
	if c.watch == nil {
		return 0, false
	}
	return c.watch.Begin()
}

func (c *sessionCache) get(hash string) *cached {
	if c.watch == nil {
		return nil
	}
	c.mu.RLock()
	e := c.entries[hash]
	c.mu.RUnlock()
	if e == nil || !c.watch.Fresh(e.gen) || time.Since(e.cachedAt) > cacheTTL {
		return nil
	}
	return e
}

// put caches an answer read under gen (from begin, when it said the answer may be kept).
func (c *sessionCache) put(hash string, gen uint64, cacheable bool, sess *Session, p *Principal) {
	if !cacheable || !c.watch.Fresh(gen) {
		return
	}
	e := &cached{sess: *sess, p: *p, gen: gen, cachedAt: time.Now()}
	c.mu.Lock()
	if gen != c.gen || len(c.entries) >= maxCached {
		clear(c.entries) // older generations can never be answered again: free them
		c.gen = gen
	}
	c.entries[hash] = e
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
