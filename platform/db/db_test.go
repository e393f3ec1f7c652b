package db_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gorm.io/gorm"

	"marquee/platform/apperr"
	"marquee/platform/db"
	"marquee/platform/testkit"
)

type thing struct {
	ID   string `gorm:"primaryKey;size:36"`
	Name string `gorm:"size:50;uniqueIndex"`
}

func (thing) TableName() string { return "test_things" }

func migrate(t *testing.T, gdb *gorm.DB) {
	t.Helper()
	ms := map[string][]*db.Migration{"test": {{ID: "test-0001-things", Migrate: func(tx *gorm.DB) error { return tx.Migrator().CreateTable(&thing{}) }}}}
	if err := db.Migrate(gdb, ms, []string{"test"}); err != nil {
		t.Fatal(err)
	}
	// Running again is a no-op.
	if err := db.Migrate(gdb, ms, []string{"test"}); err != nil {
		t.Fatal(err)
	}
}

func count(t *testing.T, gdb *gorm.DB) int64 {
	var n int64
	if err := gdb.Model(&thing{}).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

func TestTransactionsJoinAndRollBack(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		gdb := testkit.OpenDB(t, dialect)
		migrate(t, gdb)
		ctx := context.Background()
		boom := errors.New("boom")

		// A nested Transact joins the outer one: the outer failure undoes both writes.
		err := db.Transact(ctx, gdb, func(ctx context.Context) error {
			if !db.InTx(ctx) {
				t.Fatal("no transaction in ctx")
			}
			if err := db.Conn(ctx, gdb).Create(&thing{ID: "1", Name: "a"}).Error; err != nil {
				return err
			}
			if err := db.Transact(ctx, gdb, func(ctx context.Context) error {
				return db.Conn(ctx, gdb).Create(&thing{ID: "2", Name: "b"}).Error
			}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) || count(t, gdb) != 0 {
			t.Fatalf("err %v, %d rows left after rollback", err, count(t, gdb))
		}

		if err := db.Transact(ctx, gdb, func(ctx context.Context) error {
			return db.Conn(ctx, gdb).Create(&thing{ID: "1", Name: "a"}).Error
		}); err != nil || count(t, gdb) != 1 {
			t.Fatalf("commit: %v", err)
		}

		dup := gdb.Create(&thing{ID: "3", Name: "a"}).Error
		if !db.IsDuplicate(dup) {
			t.Fatalf("unique violation not recognised: %v", dup)
		}
		if e := apperr.As(db.Translate(dup, "nf", "That name is taken.")); e.Code != apperr.ECONFLICT || e.Message != "That name is taken." {
			t.Fatalf("translate duplicate = %+v", e)
		}
		var x thing
		nf := gdb.Where("id = ?", "nope").Take(&x).Error
		if e := apperr.As(db.Translate(nf, "Thing not found.", "")); e.Code != apperr.ENOTFOUND || e.Message != "Thing not found." {
			t.Fatalf("translate not found = %+v", e)
		}
		if e := apperr.As(db.Translate(errors.New("connection reset"), "", "")); e.Code != apperr.EINTERNAL {
			t.Fatalf("translate other = %+v", e)
		}
		if db.Translate(nil, "", "") != nil {
			t.Fatal("nil must stay nil")
		}
		if err := db.Ping(ctx, gdb); err != nil {
			t.Fatal(err)
		}
		if got := db.Dialect(gdb); got != dialect {
			t.Fatalf("dialect = %s", got)
		}
	})
}

func TestMigrationIDsMustCarryTheOwner(t *testing.T) {
	gdb := testkit.OpenDB(t, db.SQLite)
	err := db.Migrate(gdb, map[string][]*db.Migration{"identity": {{ID: "0001-users", Migrate: func(*gorm.DB) error { return nil }}}}, []string{"identity"})
	if err == nil {
		t.Fatal("a migration without its owner's prefix was accepted")
	}
}

func TestOpenRefusesOtherURLs(t *testing.T) {
	if _, err := db.Open(db.Options{URL: "mysql://root@localhost/x"}); err == nil {
		t.Fatal("a non-postgres URL was accepted")
	}
}

func TestSlowQueryLogNeverShowsValues(t *testing.T) {
	var buf strings.Builder
	gdb, err := db.Open(db.Options{SQLitePath: t.TempDir() + "/x.db", SlowQuery: time.Nanosecond, Log: slog.New(slog.NewTextHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(gdb)
	migrate(t, gdb)
	gdb.Create(&thing{ID: "1", Name: "secret-hash-value"})
	gdb.Create(&thing{ID: "2", Name: "secret-hash-value"}) // a duplicate: its error is not logged either
	if !strings.Contains(buf.String(), "slow query") {
		t.Fatal("nothing logged at a 1ns threshold")
	}
	if strings.Contains(buf.String(), "secret-hash-value") {
		t.Fatalf("a value reached the log: %s", buf.String())
	}
}

// LockForTx orders transactions that read then write: 20 concurrent "take the next number"
// transactions all succeed, where without the lock two would read the same count and the
// unique name would refuse one of them.
func TestLockForTxSerialisesReadThenWrite(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		gdb := testkit.OpenDB(t, dialect)
		migrate(t, gdb)
		ctx := context.Background()
		if err := db.LockForTx(ctx, gdb, "numbers"); err == nil {
			t.Fatal("LockForTx outside a transaction was accepted")
		}
		errs := make(chan error, 20)
		for i := range 20 {
			go func() {
				errs <- db.Transact(ctx, gdb, func(ctx context.Context) error {
					if err := db.LockForTx(ctx, gdb, "numbers"); err != nil {
						return err
					}
					var n int64
					if err := db.Conn(ctx, gdb).Model(&thing{}).Count(&n).Error; err != nil {
						return err
					}
					return db.Conn(ctx, gdb).Create(&thing{ID: strconv.Itoa(i), Name: strconv.FormatInt(n, 10)}).Error
				})
			}()
		}
		for range 20 {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
		if n := count(t, gdb); n != 20 {
			t.Fatalf("things = %d, want 20", n)
		}
	})
}

// Two replicas that start at once (two pools on one database) both run Migrate: each migration
// is applied once and neither fails (the PostgreSQL advisory lock; SQLite's write lock).
func TestConcurrentMigrateAppliesOnce(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		opts := db.Options{SQLitePath: filepath.Join(t.TempDir(), "shared.db")}
		if dialect == db.Postgres {
			opts = db.Options{URL: testkit.PostgresURL(t)}
		}
		var applied atomic.Int32
		ms := map[string][]*db.Migration{"test": {{ID: "test-0001-things", Migrate: func(tx *gorm.DB) error {
			applied.Add(1)
			time.Sleep(100 * time.Millisecond) // the other replica arrives meanwhile
			return tx.Migrator().CreateTable(&thing{})
		}}}}
		errs := make(chan error, 2)
		for range 2 {
			gdb, err := db.Open(opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = db.Close(gdb) })
			go func() { errs <- db.Migrate(gdb, ms, []string{"test"}) }()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Errorf("a replica's migration failed: %v", err)
			}
		}
		if n := applied.Load(); n != 1 {
			t.Errorf("the migration ran %d times, want once", n)
		}
	})
}
