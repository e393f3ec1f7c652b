package main

import (
	"bytes"
	"context"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"marquee/platform/db"
	"marquee/platform/testkit"
)

// marquee healthcheck exits 0 while the server is ready, and non-zero when /readyz answers 503 (the
// database is gone) or nothing listens; without --url it asks 127.0.0.1:$PORT.
func TestHealthcheckCommand(t *testing.T) {
	t.Parallel()
	s := testkit.Start(t, db.SQLite, buildModules)
	u, _ := url.Parse(s.URL)
	check := func(env map[string]string, args ...string) (string, error) {
		var out bytes.Buffer
		err := run(t.Context(), append([]string{"healthcheck"}, args...), func(k string) string { return env[k] }, &out)
		return out.String(), err
	}
	if out, err := check(nil, "--url", s.URL+"/readyz"); err != nil || !strings.Contains(out, "ready") {
		t.Fatalf("ready server: %v %q", err, out)
	}
	if _, err := check(map[string]string{"PORT": u.Port()}); err != nil {
		t.Fatalf("the default URL on $PORT: %v", err)
	}

	// Nothing listening: a port just released.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	free := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	_ = l.Close()
	if _, err := check(map[string]string{"PORT": free}, "--timeout", "1s"); err == nil {
		t.Fatal("healthcheck passed with nothing listening")
	}

	// The database gone: /readyz answers 503 and the check fails, naming the status.
	if err := db.Close(s.Kernel.DB); err != nil {
		t.Fatal(err)
	}
	if _, err := check(nil, "--url", s.URL+"/readyz"); err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("healthcheck on a 503: %v", err)
	}
}

// marquee serve migrates before it listens unless MIGRATE_ON_START=false (the Kubernetes Job
// migrates then); marquee healthcheck is what tells the test it listens.
func TestServeMigratesOnlyWhenTold(t *testing.T) {
	t.Parallel()
	for _, migrate := range []string{"false", "true"} {
		dir := t.TempDir()
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
		_ = l.Close()
		env := map[string]string{"DATA_DIR": dir, "PORT": port, "LOG_LEVEL": "error", "JOBS_ENABLED": "false", "MIGRATE_ON_START": migrate}
		getenv := func(k string) string { return env[k] }
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- run(ctx, []string{"serve"}, getenv, &bytes.Buffer{}) }()
		deadline := time.Now().Add(30 * time.Second)
		// It listens once /healthz answers; /readyz answers 200 only when the migrations are
		// applied (an unmigrated serve is alive but not ready).
		live := "http://127.0.0.1:" + port + "/healthz"
		for run(t.Context(), []string{"healthcheck", "--timeout", "1s", "--url", live}, getenv, &bytes.Buffer{}) != nil {
			select {
			case err := <-done:
				t.Fatalf("MIGRATE_ON_START=%s: serve ended: %v", migrate, err)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("MIGRATE_ON_START=%s: serve not ready after 30s", migrate)
			}
			time.Sleep(50 * time.Millisecond)
		}
		ready := run(t.Context(), []string{"healthcheck", "--timeout", "2s"}, getenv, &bytes.Buffer{}) == nil
		if want := migrate == "true"; ready != want {
			t.Errorf("MIGRATE_ON_START=%s: ready = %v, want %v", migrate, ready, want)
		}
		gdb, err := db.Open(db.Options{SQLitePath: filepath.Join(dir, "marquee.db"), MaxOpenConns: 1})
		if err != nil {
			t.Fatal(err)
		}
		migrated := gdb.Migrator().HasTable(db.MigrationsTable)
		_ = db.Close(gdb)
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("serve: %v", err)
		}
		if want := migrate == "true"; migrated != want {
			t.Errorf("MIGRATE_ON_START=%s: migrations ran = %v", migrate, migrated)
		}
	}
}
