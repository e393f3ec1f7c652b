package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gorm.io/gorm"

	"marquee/platform/db"
)

// marquee backup copies the SQLite database while writes go on: the copy passes SQLite's
// integrity check, has every migration, and holds whole transactions only (each writes 10 rows).
// It never replaces a file, and on PostgreSQL it points to pg_dump.
func TestBackupCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{"DATA_DIR": dir, "LOG_LEVEL": "error"}
	getenv := func(k string) string { return env[k] }
	var out bytes.Buffer
	dest := filepath.Join(t.TempDir(), "copy.db")
	if err := run(t.Context(), []string{"backup", "--out", dest}, getenv, &out); err == nil || !strings.Contains(err.Error(), "no database to back up") {
		t.Fatalf("backup of a missing database: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "marquee.db")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("backup created a database: %v", err)
	}
	if err := run(t.Context(), []string{"migrate"}, getenv, &out); err != nil {
		t.Fatal(err)
	}

	type probe struct {
		ID    int64 `gorm:"primaryKey"`
		Batch int64
	}
	src, err := db.Open(db.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(src)
	if err := src.Table("backup_probe").AutoMigrate(&probe{}); err != nil {
		t.Fatal(err)
	}
	var batches atomic.Int64
	stop := make(chan struct{})
	writerDone := make(chan error, 1)
	go func() {
		for {
			select {
			case <-stop:
				writerDone <- nil
				return
			default:
			}
			b := batches.Load() + 1
			err := src.Transaction(func(tx *gorm.DB) error {
				for range 10 {
					if err := tx.Table("backup_probe").Create(&probe{Batch: b}).Error; err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				writerDone <- err
				return
			}
			batches.Store(b)
		}
	}()
	waitFor := func(n int64) {
		for deadline := time.Now().Add(10 * time.Second); batches.Load() < n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the writer is stuck before batch %d", n)
			}
		}
	}
	waitFor(5)
	out.Reset()
	if err := run(t.Context(), []string{"backup", "--out", dest}, getenv, &out); err != nil {
		t.Fatalf("backup: %v\n%s", err, out.String())
	}
	during := batches.Load()
	waitFor(during + 2) // the writes go on after the copy
	close(stop)
	if err := <-writerDone; err != nil {
		t.Fatalf("the writes during the backup failed: %v", err)
	}
	if !strings.Contains(out.String(), "backed up") {
		t.Fatalf("backup said %q", out.String())
	}

	cp, err := db.Open(db.Options{SQLitePath: dest, MaxOpenConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(cp)
	var integrity string
	if err := cp.Raw("PRAGMA integrity_check").Scan(&integrity).Error; err != nil || integrity != "ok" {
		t.Fatalf("integrity_check of the copy: %q %v", integrity, err)
	}
	var rows, srcRows, migs, srcMigs int64
	cp.Table("backup_probe").Count(&rows)
	src.Table("backup_probe").Count(&srcRows)
	cp.Table(db.MigrationsTable).Count(&migs)
	src.Table(db.MigrationsTable).Count(&srcMigs)
	t.Logf("copy: %d probe rows (source %d at the end, %d batches when the backup returned), %d migrations", rows, srcRows, during, migs)
	if rows < 50 || rows%10 != 0 || rows > (during+1)*10 || srcRows <= rows {
		t.Errorf("the copy has %d probe rows: want whole batches of 10, at least the 50 written before it, at most the %d done when it returned, fewer than the source's %d", rows, (during+1)*10, srcRows)
	}
	if migs == 0 || migs != srcMigs {
		t.Errorf("the copy has %d migrations, the source %d", migs, srcMigs)
	}

	// Never over an existing file.
	before, _ := os.Stat(dest)
	if err := run(t.Context(), []string{"backup", "--out", dest}, getenv, &out); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("backup over an existing file: %v", err)
	}
	if after, _ := os.Stat(dest); !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		t.Error("the existing file was changed")
	}

	// PostgreSQL has its own tools.
	env["DATABASE_URL"] = "postgres://u@127.0.0.1:1/db"
	if err := run(t.Context(), []string{"backup", "--out", filepath.Join(t.TempDir(), "pg.db")}, getenv, &out); !errors.Is(err, db.ErrBackupPostgres) || !strings.Contains(err.Error(), "pg_dump") {
		t.Fatalf("backup on PostgreSQL: %v", err)
	}
}
