// Package testkit gives tests real things: a fresh database (SQLite, or PostgreSQL when
// TEST_DATABASE_URL is set), a running server on it, and clients signed in per role (STYLE.md
// "Tests talk to real things").
package testkit

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gorm.io/gorm"

	"marquee/platform/db"
	"marquee/platform/ids"
)

// Dialects returns the databases a suite should run on: SQLite always, PostgreSQL too when
// TEST_DATABASE_URL is set (CI sets it).
func Dialects() []string {
	if os.Getenv("TEST_DATABASE_URL") != "" {
		return []string{db.SQLite, db.Postgres}
	}
	return []string{db.SQLite}
}

// ForEachDialect runs fn as a subtest on each database of Dialects.
func ForEachDialect(t *testing.T, fn func(t *testing.T, dialect string)) {
	t.Helper()
	for _, d := range Dialects() {
		t.Run(d, func(t *testing.T) { fn(t, d) })
	}
}

// OpenDB opens a fresh, empty database of the dialect, dropped when the test ends.
func OpenDB(tb testing.TB, dialect string) *gorm.DB {
	tb.Helper()
	switch dialect {
	case db.SQLite:
		gdb, err := db.Open(db.Options{SQLitePath: filepath.Join(tb.TempDir(), "test.db")})
		if err != nil {
			tb.Fatalf("open sqlite: %v", err)
		}
		tb.Cleanup(func() { _ = db.Close(gdb) })
		return gdb
	case db.Postgres:
		return openPostgres(tb)
	default:
		tb.Fatalf("unknown dialect %q", dialect)
		return nil
	}
}

// PostgresURL returns a URL for a fresh PostgreSQL database that is dropped when the test ends, or
// skips the test when TEST_DATABASE_URL is not set. Race tests that need PostgreSQL use it.
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	admin := os.Getenv("TEST_DATABASE_URL")
	if admin == "" {
		tb.Skip("TEST_DATABASE_URL is not set; this test needs PostgreSQL (CI sets it)")
	}
	name := "marquee_test_" + strings.ReplaceAll(ids.New(), "-", "")[:24]
	adminDB, err := db.Open(db.Options{URL: admin, MaxOpenConns: 2})
	if err != nil {
		tb.Fatalf("open admin postgres: %v", err)
	}
	if err := adminDB.Exec("CREATE DATABASE " + name).Error; err != nil {
		tb.Fatalf("create database: %v", err)
	}
	u, err := url.Parse(admin)
	if err != nil {
		tb.Fatalf("parse TEST_DATABASE_URL: %v", err)
	}
	u.Path = "/" + name
	tb.Cleanup(func() {
		adminDB.Exec(fmt.Sprintf("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '%s' AND pid <> pg_backend_pid()", name))
		if err := adminDB.Exec("DROP DATABASE IF EXISTS " + name).Error; err != nil {
			tb.Logf("drop database %s: %v", name, err)
		}
		_ = db.Close(adminDB)
	})
	return u.String()
}

func openPostgres(tb testing.TB) *gorm.DB {
	tb.Helper()
	gdb, err := db.Open(db.Options{URL: PostgresURL(tb)})
	if err != nil {
		tb.Fatalf("open postgres: %v", err)
	}
	// Registered after PostgresURL's cleanup, so it runs first: close the pool, then drop.
	tb.Cleanup(func() { _ = db.Close(gdb) })
	return gdb
}
