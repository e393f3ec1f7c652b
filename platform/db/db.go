// Package db opens the database (PostgreSQL, or pure-Go SQLite as the embedded default), runs the
// per-module migrations and carries transactions through a context so that writes made by several
// modules can share one transaction (DESIGN.md §4).
package db

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/glebarez/sqlite"
	"github.com/go-gormigrate/gormigrate/v2"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"marquee/platform/apperr"
)

// Dialects.
const (
	Postgres = "postgres"
	SQLite   = "sqlite"
)

// Options say which database to open.
type Options struct {
	// URL is a postgres:// URL; empty means SQLite in DataDir.
	URL string
	// DataDir holds the SQLite file (marquee.db).
	DataDir string
	// SQLitePath overrides the SQLite file path (tests use a temporary file).
	SQLitePath string
	// MaxOpenConns caps the pool; 0 keeps the default of 20.
	MaxOpenConns int
	// SlowQuery is the threshold for logging a slow query; 0 disables logging.
	SlowQuery time.Duration
	// Log receives slow-query warnings; slog.Default when nil.
	Log *slog.Logger
}

// Open opens the database described by opts.
func Open(opts Options) (*gorm.DB, error) {
	cfg := &gorm.Config{
		SkipDefaultTransaction: true, // our writes choose their transactions (gorm.io/docs/performance)
		TranslateError:         true, // unique violations become gorm.ErrDuplicatedKey on both dialects
		PrepareStmt:            true,
		NowFunc:                func() time.Time { return time.Now().UTC() },
		Logger:                 logger.Discard,
	}
	if opts.SlowQuery > 0 {
		cfg.Logger = slowQueryLogger{threshold: opts.SlowQuery, log: opts.Log}
	}
	if opts.URL != "" {
		if !strings.HasPrefix(opts.URL, "postgres://") && !strings.HasPrefix(opts.URL, "postgresql://") {
			return nil, fmt.Errorf("DATABASE_URL must be a postgres:// URL")
		}
		gdb, err := gorm.Open(postgres.Open(opts.URL), cfg)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		return pooled(gdb, opts.MaxOpenConns, 5*time.Minute)
	}
	path := opts.SQLitePath
	if path == "" {
		if opts.DataDir == "" {
			return nil, errors.New("DATA_DIR is required for SQLite")
		}
		if err := os.MkdirAll(opts.DataDir, 0o750); err != nil {
			return nil, fmt.Errorf("create data dir: %w", err)
		}
		path = filepath.Join(opts.DataDir, "marquee.db")
	}
	// WAL and a busy timeout, or concurrent writes fail with 'database is locked' (STACK.md).
	// _txlock=immediate takes the write lock at BEGIN, so two transactions never deadlock upgrading
	// a read lock; they queue on the busy timeout instead.
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_pragma=temp_store(memory)&_txlock=immediate"
	gdb, err := gorm.Open(sqlite.Open(dsn), cfg)
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	return pooled(gdb, opts.MaxOpenConns, 0)
}

// pooled sizes gdb's pool: max connections (20 when 0), all of them kept idle, and closed after
// idleTime unused (never when 0). database/sql keeps only 2 idle connections by default: under
// concurrent requests every other query then opened a connection (for SQLite: the file, the
// pragmas, statements prepared again), which cost more than the query (docs/performance.md).
func pooled(gdb *gorm.DB, maxConns int, idleTime time.Duration) (*gorm.DB, error) {
	sqlDB, err := gdb.DB()
	if err != nil {
		return nil, err
	}
	if maxConns == 0 {
		maxConns = 20
	}
	sqlDB.SetMaxOpenConns(maxConns)
	sqlDB.SetMaxIdleConns(maxConns)
	if idleTime > 0 {
		sqlDB.SetConnMaxIdleTime(idleTime)
	}
	return gdb, nil
}

// Dialect returns Postgres or SQLite.
func Dialect(gdb *gorm.DB) string {
	if gdb.Dialector.Name() == "postgres" {
		return Postgres
	}
	return SQLite
}

// Ping checks that the database answers.
func Ping(ctx context.Context, gdb *gorm.DB) error {
	sqlDB, err := gdb.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}

// Close closes the pool and stops its Watches.
func Close(gdb *gorm.DB) error {
	sqlDB, err := gdb.DB()
	if err != nil {
		return err
	}
	stopWatches(sqlDB)
	return sqlDB.Close()
}

// Migration is one named, ordered schema change of a module. IDs are prefixed with the module name
// ("identity-0001-users") and never edited once landed (STYLE.md).
type Migration = gormigrate.Migration

// MigrationsTable records which migrations ran.
const MigrationsTable = "schema_migrations"

// migrateLockKey is the PostgreSQL advisory lock that serialises migration runs ("migr"); the jobs
// leader uses another key.
const migrateLockKey = 0x6d696772

// Migrate runs the pending migrations of each module, in the order given. On PostgreSQL it holds
// an advisory lock for the whole run, so two replicas (or a Job and a replica) that start at once
// apply each migration once: the second waits, then finds nothing pending. gormigrate alone would
// let both read "not applied" and run the same CREATE TABLE. SQLite needs no lock: one writing
// transaction at a time (_txlock=immediate), and each module's run is one transaction.
func Migrate(gdb *gorm.DB, modules map[string][]*Migration, order []string) error {
	if Dialect(gdb) == Postgres {
		unlock, err := lockMigrations(gdb)
		if err != nil {
			return err
		}
		defer unlock()
	}
	for _, name := range order {
		ms := modules[name]
		if len(ms) == 0 {
			continue
		}
		for _, m := range ms {
			if !strings.HasPrefix(m.ID, name+"-") {
				return fmt.Errorf("migration %q of module %s must start with %q", m.ID, name, name+"-")
			}
		}
		opts := *gormigrate.DefaultOptions
		opts.TableName = MigrationsTable
		opts.UseTransaction = true
		if err := gormigrate.New(gdb, &opts, ms).Migrate(); err != nil {
			return fmt.Errorf("migrate %s: %w", name, err)
		}
	}
	return nil
}

// Pending returns how many of ids (migration IDs) the database has not applied: all of them when
// it has never been migrated. /readyz answers 503 while any is pending: a server on
// an older schema would answer 500s.
func Pending(ctx context.Context, gdb *gorm.DB, ids []string) (int, error) {
	conn := gdb.WithContext(ctx)
	var applied []string
	if err := conn.Table(MigrationsTable).Pluck("id", &applied).Error; err != nil {
		// No table yet is a database never migrated; anything else (HasTable cannot tell an
		// unreachable database from a missing table, hence the ping) is the error.
		if Ping(ctx, gdb) == nil && !conn.Migrator().HasTable(MigrationsTable) {
			return len(ids), nil
		}
		return 0, err
	}
	done := make(map[string]bool, len(applied))
	for _, id := range applied {
		done[id] = true
	}
	n := 0
	for _, id := range ids {
		if !done[id] {
			n++
		}
	}
	return n, nil
}

// lockMigrations takes the migration advisory lock on a connection of its own (a session lock is
// held by one connection; the migrations run on others) and returns its release.
func lockMigrations(gdb *gorm.DB) (func(), error) {
	sqlDB, err := gdb.DB()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrateLockKey); err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("migrate: take the migration lock: %w", err)
	}
	return func() {
		// Closing the connection would also release it; unlock first so the pooled connection
		// goes back clean.
		_, _ = conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", migrateLockKey)
		_ = conn.Close()
	}, nil
}

// ErrBackupPostgres is Backup's answer on PostgreSQL, whose own tools make consistent copies.
var ErrBackupPostgres = errors.New("marquee backup copies the SQLite database; on PostgreSQL use pg_dump (or pg_basebackup with WAL archiving for point-in-time recovery), see docs/operations.md")

// Backup writes a consistent copy of the SQLite database to path with VACUUM INTO: one read
// transaction, so writes that go on meanwhile are either wholly in the copy or not at all, and the
// copy is compacted. It refuses to replace an existing file.
func Backup(ctx context.Context, gdb *gorm.DB, path string) error {
	if Dialect(gdb) != SQLite {
		return ErrBackupPostgres
	}
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%s already exists; choose a new file name (a backup never replaces a file)", path)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := gdb.WithContext(ctx).Exec("VACUUM INTO ?", path).Error; err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return nil
}

type txKey struct{}

// Transact runs fn in a transaction carried by ctx. A call inside a transaction joins it, so a
// service can call another module's service and both writes commit or roll back together.
func Transact(ctx context.Context, gdb *gorm.DB, fn func(ctx context.Context) error) error {
	if _, ok := ctx.Value(txKey{}).(*gorm.DB); ok {
		return fn(ctx)
	}
	return transactWatched(ctx, func(ctx context.Context) error {
		return gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			return fn(context.WithValue(ctx, txKey{}, tx))
		})
	})
}

// Conn returns the transaction carried by ctx, or gdb, bound to ctx. Stores use it for every query.
func Conn(ctx context.Context, gdb *gorm.DB) *gorm.DB {
	if tx, ok := ctx.Value(txKey{}).(*gorm.DB); ok {
		return tx
	}
	return gdb.WithContext(ctx)
}

// LockForTx serialises the transactions carried by ctx that name the same key, until they end. It
// is for rules that span rows, like "only one item is relevant", which a unique index can only
// refuse, not order: on PostgreSQL it takes a transaction-scoped advisory lock on the key's hash;
// SQLite already runs one writing transaction at a time (_txlock=immediate). It must be called
// inside Transact.
func LockForTx(ctx context.Context, gdb *gorm.DB, key string) error {
	tx, ok := ctx.Value(txKey{}).(*gorm.DB)
	if !ok {
		return errors.New("db: LockForTx outside a transaction")
	}
	if Dialect(gdb) != Postgres {
		return nil
	}
	return tx.Exec("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", key).Error
}

// InTx reports whether ctx carries a transaction.
func InTx(ctx context.Context) bool {
	_, ok := ctx.Value(txKey{}).(*gorm.DB)
	return ok
}

// IsDuplicate reports whether err is a unique-constraint violation.
func IsDuplicate(err error) bool { return errors.Is(err, gorm.ErrDuplicatedKey) }

// IsNotFound reports whether err is gorm's "record not found".
func IsNotFound(err error) bool { return errors.Is(err, gorm.ErrRecordNotFound) }

// Translate turns gorm's not-found and duplicate errors into application errors with the given
// messages, and anything else into an internal error. nil stays nil.
func Translate(err error, notFound, duplicate string) error {
	switch {
	case err == nil:
		return nil
	case IsNotFound(err):
		return apperr.NotFound(notFound)
	case IsDuplicate(err):
		return apperr.New(apperr.ECONFLICT, duplicate)
	default:
		var ae *apperr.Error
		if errors.As(err, &ae) {
			return err
		}
		return apperr.Internal(err)
	}
}

// slowQueryLogger logs only slow statements, and never their parameters: a statement's values
// can be password hashes or tokens. Errors are not logged here; the code that gets them decides.
type slowQueryLogger struct {
	threshold time.Duration
	log       *slog.Logger
}

func (l slowQueryLogger) LogMode(logger.LogLevel) logger.Interface { return l }
func (slowQueryLogger) Info(context.Context, string, ...any)       {}
func (slowQueryLogger) Warn(context.Context, string, ...any)       {}
func (slowQueryLogger) Error(context.Context, string, ...any)      {}

// ParamsFilter drops the values from the SQL that Trace receives.
func (slowQueryLogger) ParamsFilter(_ context.Context, sql string, _ ...any) (string, []any) {
	return sql, nil
}

func (l slowQueryLogger) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), _ error) {
	elapsed := time.Since(begin)
	if elapsed < l.threshold {
		return
	}
	sql, rows := fc()
	log := l.log
	if log == nil {
		log = slog.Default()
	}
	log.WarnContext(ctx, "slow query", "duration_ms", elapsed.Milliseconds(), "rows", rows, "sql", sql)
}
