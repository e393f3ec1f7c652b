package db

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

// A Watch tells an in-process cache of answers read from some tables when those answers may be
// stale (docs/performance.md). It is the mechanism of platform/auth's session cache, for
// any module:
//
//   - every write on a watched table (a gorm create, update, delete or raw statement naming it),
//     from any code path of this process, moves the generation on at once; a write inside
//     Transact moves it on again when the transaction commits;
//   - on PostgreSQL the write also sends NOTIFY in the writer's transaction and every replica
//     LISTENs: the notice arrives when the write commits and moves the generation on there too.
//     While the listening connection is down (or not yet up) the Watch is not live and nothing
//     may be cached, so a missed notice cannot keep a stale answer;
//   - after a change nothing is cached for WatchSettle, so a read that raced a still-uncommitted
//     write (outside Transact, or on another replica) cannot put the old answer back;
//   - a failing query anywhere (a database outage) and Close move it on, so an outage answers as
//     it did without a cache.
//
// A cache reads under Begin's generation, keeps the answer only when Begin said so and Fresh
// still holds, and answers from memory only while Fresh holds.
type Watch struct {
	name    string
	channel string
	tables  []string
	gen     atomic.Uint64
	settle  atomic.Int64 // UnixNano before which nothing may be cached
	live    atomic.Bool
}

// WatchSettle is how long after a change nothing is cached: longer than a transaction that writes
// a watched table takes to commit.
const WatchSettle = 2 * time.Second

type watchTouchedKey struct{}

// watchQuiet marks a statement that changes no cached answer (see Quiet).
const watchQuiet = "db:watch_quiet"

// Quiet marks a write that changes no answer any Watch guards (a session's last-seen time, an API
// key's last use), so it moves no generation on and sends no notice.
func Quiet(tx *gorm.DB) *gorm.DB { return tx.Set(watchQuiet, true) }

// watchers are the Watches of each open pool, stopped by Close.
var watchers = struct {
	sync.Mutex
	m map[*sql.DB][]*watchEntry
}{m: map[*sql.DB][]*watchEntry{}}

type watchEntry struct {
	w    *Watch
	stop context.CancelFunc
}

// NewWatch watches tables on gdb under name (letters, digits and '_': it names the PostgreSQL
// channel marquee_<name>). On PostgreSQL it listens until Close(gdb).
func NewWatch(gdb *gorm.DB, name string, tables ...string) *Watch {
	w := &Watch{name: name, channel: "marquee_" + name}
	for _, t := range tables {
		w.tables = append(w.tables, strings.ToLower(t))
	}
	dsn := ""
	if d, ok := gdb.Dialector.(*postgres.Dialector); ok && d.Config != nil {
		dsn = d.Config.DSN
	}
	w.register(gdb, dsn != "")
	sqlDB, err := gdb.DB()
	if err != nil {
		return w // never live: nothing is cached
	}
	ctx, cancel := context.WithCancel(context.Background())
	watchers.Lock()
	watchers.m[sqlDB] = append(watchers.m[sqlDB], &watchEntry{w: w, stop: cancel})
	watchers.Unlock()
	if dsn == "" {
		w.live.Store(true) // SQLite: one process, the callbacks see every write
	} else {
		go w.listen(ctx, dsn)
	}
	return w
}

// Begin returns the generation to read under, and whether an answer read now may be kept.
func (w *Watch) Begin() (gen uint64, cacheable bool) {
	gen = w.gen.Load()
	return gen, w.live.Load() && time.Now().UnixNano() >= w.settle.Load()
}

// Fresh reports whether an answer read under gen is still current.
func (w *Watch) Fresh(gen uint64) bool { return w.live.Load() && w.gen.Load() == gen }

// Changed moves the generation on: every answer read before is stale.
func (w *Watch) Changed() {
	w.settle.Store(time.Now().Add(WatchSettle).UnixNano())
	w.gen.Add(1)
}

var watchSeq atomic.Uint64

// register adds the gorm callbacks that move the generation on.
func (w *Watch) register(gdb *gorm.DB, notify bool) {
	after := func(tx *gorm.DB) {
		if tx.Error != nil {
			if !errors.Is(tx.Error, gorm.ErrRecordNotFound) && !errors.Is(tx.Error, context.Canceled) {
				w.Changed() // the database may be failing: stop answering from memory
			}
			return
		}
		if quiet, _ := tx.Get(watchQuiet); quiet == true {
			return
		}
		if !w.touches(tx) {
			return
		}
		w.Changed()
		if ctx := tx.Statement.Context; ctx != nil {
			if touched, ok := ctx.Value(watchTouchedKey{}).(*sync.Map); ok {
				touched.Store(w, true) // Transact moves it on again after the commit
			}
		}
		if notify {
			// In the writer's transaction when there is one: PostgreSQL delivers it on commit.
			_, _ = tx.Statement.ConnPool.ExecContext(tx.Statement.Context, "SELECT pg_notify('"+w.channel+"', '')")
		}
	}
	name := "db:watch:" + w.name + ":" + strconv.FormatUint(watchSeq.Add(1), 10)
	cb := gdb.Callback()
	_ = cb.Create().After("gorm:create").Register(name, after) // an upsert can change a row
	_ = cb.Update().After("gorm:update").Register(name, after)
	_ = cb.Delete().After("gorm:delete").Register(name, after)
	_ = cb.Raw().After("gorm:raw").Register(name, after)
	// Raw(...).Scan/Row runs the row chain: an UPDATE ... RETURNING writes through it.
	_ = cb.Row().After("gorm:row").Register(name, func(tx *gorm.DB) {
		sql := strings.TrimSpace(tx.Statement.SQL.String())
		if tx.Error != nil || len(sql) < 6 || !strings.EqualFold(sql[:6], "select") {
			after(tx)
		}
	})
	_ = cb.Query().After("gorm:query").Register(name, func(tx *gorm.DB) {
		if tx.Error != nil && !errors.Is(tx.Error, gorm.ErrRecordNotFound) && !errors.Is(tx.Error, context.Canceled) {
			w.Changed()
		}
	})
}

// touches reports whether the statement writes a watched table: by its model's table, or by the
// table names in its SQL. A false positive only costs a few reads; a false negative would keep a
// stale answer, so the SQL check is broad.
func (w *Watch) touches(tx *gorm.DB) bool {
	table := strings.ToLower(tx.Statement.Table)
	sql := strings.ToLower(tx.Statement.SQL.String())
	for _, t := range w.tables {
		if table == t || strings.Contains(sql, t) {
			return true
		}
	}
	return false
}

// listen keeps a connection LISTENing on the channel and moves the generation on at each notice.
// The Watch is live only while it listens; after a reconnect every older answer is stale (a
// notice may have been missed).
func (w *Watch) listen(ctx context.Context, dsn string) {
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		conn, err := pgx.Connect(ctx, dsn)
		if err == nil {
			_, err = conn.Exec(ctx, "LISTEN "+w.channel)
		}
		if err == nil {
			w.Changed()
			w.live.Store(true)
			backoff = 100 * time.Millisecond
			for err == nil {
				if _, err = conn.WaitForNotification(ctx); err == nil {
					w.Changed()
				}
			}
		}
		w.live.Store(false)
		w.Changed()
		if conn != nil {
			_ = conn.Close(context.WithoutCancel(ctx))
		}
		if ctx.Err() != nil {
			return
		}
		slog.Warn("db watch: not listening for other replicas' writes; answers are read from the database", "watch", w.name, "err", err.Error())
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 5*time.Second)
	}
}

// transactWatched runs a transaction; the Watches it wrote move on again once it has committed
// (or rolled back), when every reader sees the new rows.
func transactWatched(ctx context.Context, run func(ctx context.Context) error) error {
	touched := &sync.Map{}
	err := run(context.WithValue(ctx, watchTouchedKey{}, touched))
	touched.Range(func(k, _ any) bool {
		k.(*Watch).Changed()
		return true
	})
	return err
}

// stopWatches ends the Watches of a pool being closed: nothing is answered from memory after.
func stopWatches(sqlDB *sql.DB) {
	watchers.Lock()
	entries := watchers.m[sqlDB]
	delete(watchers.m, sqlDB)
	watchers.Unlock()
	for _, e := range entries {
		e.stop()
		e.w.live.Store(false)
		e.w.Changed()
	}
}
