package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"marquee/platform/config"
	"marquee/platform/db"
)

// backup is `marquee backup --out FILE`: a consistent copy of the SQLite database taken while the
// server runs (VACUUM INTO, db.Backup). On PostgreSQL it fails and names pg_dump, the tool for that
// (docs/operations.md). It opens only the database: no migrations, no modules, no new files.
func backup(ctx context.Context, args []string, getenv func(string) string, out io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(out)
	dest := fs.String("out", "", "the file to write; it must not exist")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dest == "" {
		return errors.New("usage: marquee backup --out FILE")
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	if cfg.DatabaseURL != "" {
		return db.ErrBackupPostgres
	}
	src := filepath.Join(cfg.DataDir, "marquee.db")
	if _, err := os.Stat(src); err != nil {
		// db.Open would create an empty database; a backup of nothing is a mistake to report.
		return fmt.Errorf("no database to back up at %s (check DATA_DIR): %w", src, err)
	}
	gdb, err := db.Open(db.Options{DataDir: cfg.DataDir, MaxOpenConns: 2})
	if err != nil {
		return err
	}
	defer db.Close(gdb)
	if err := db.Backup(ctx, gdb, *dest); err != nil {
		return err
	}
	fmt.Fprintf(out, "backed up %s to %s\n", src, *dest)
	return nil
}
