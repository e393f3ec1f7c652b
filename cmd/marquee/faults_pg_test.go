package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"marquee/platform/testkit"
)

// privatePG is a PostgreSQL cluster of the test's own, which it may stop and start: the shared
// server at 127.0.0.1:5432 serves every other test and is never restarted.
type privatePG struct {
	t       *testing.T
	bin     string // the server's bin directory (initdb, pg_ctl)
	dir     string // the temporary folder: data/, the socket, the log
	port    int
	options string
}

// startPrivatePG makes a cluster in a temporary folder owned by the postgres user (PostgreSQL
// refuses to run as root), on a free port, and starts it; the test's cleanup stops it and removes
// the folder. It needs TEST_DATABASE_URL like every PostgreSQL test (CI has the server installed).
func startPrivatePG(t *testing.T) *privatePG {
	t.Helper()
	if os.Getenv("TEST_DATABASE_URL") == "" {
		t.Skip("TEST_DATABASE_URL is not set; this test needs PostgreSQL (CI sets it)")
	}
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(bins) == 0 {
		t.Fatal("no /usr/lib/postgresql/*/bin/pg_ctl: install the PostgreSQL server")
	}
	dir, err := os.MkdirTemp("", "marquee-pg-")
	if err != nil {
		t.Fatal(err)
	}
	pg := &privatePG{t: t, bin: filepath.Dir(bins[len(bins)-1]), dir: dir, port: testkit.FreePort(t)}
	// fsync off: the restart of the test is a clean (fast) shutdown that writes everything out;
	// fsync matters only to a power cut, and off it makes the seed quicker.
	pg.options = fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100", pg.port, dir)
	t.Cleanup(func() {
		_ = pg.run("pg_ctl", "stop", "-D", pg.data(), "-m", "immediate", "-w")
		_ = os.RemoveAll(dir)
	})
	if out, err := exec.Command("chown", "-R", "postgres:postgres", dir).CombinedOutput(); err != nil {
		t.Fatalf("chown %s: %v\n%s", dir, err, out)
	}
	if err := pg.run("initdb", "-D", pg.data(), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"); err != nil {
		t.Fatal(err)
	}
	pg.Start()
	return pg
}

func (pg *privatePG) data() string { return filepath.Join(pg.dir, "data") }

// URL is the database "postgres" of the cluster.
func (pg *privatePG) URL() string {
	return "postgres://postgres@127.0.0.1:" + strconv.Itoa(pg.port) + "/postgres?sslmode=disable"
}

// run runs a PostgreSQL program as the postgres user.
func (pg *privatePG) run(prog string, args ...string) error {
	cmd := exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(pg.bin, prog)}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %v: %v\n%s", prog, args, err, out)
	}
	return nil
}

// Start starts the cluster and waits until it accepts connections.
func (pg *privatePG) Start() {
	pg.t.Helper()
	if err := pg.run("pg_ctl", "start", "-D", pg.data(), "-w", "-l", filepath.Join(pg.dir, "log"), "-o", pg.options); err != nil {
		pg.t.Fatal(err)
	}
}

// Stop shuts the cluster down in fast mode (what `pg_ctl restart -m fast` does first): open
// transactions are rolled back and every connection is cut.
func (pg *privatePG) Stop() {
	pg.t.Helper()
	if err := pg.run("pg_ctl", "stop", "-D", pg.data(), "-m", "fast", "-w"); err != nil {
		pg.t.Fatal(err)
	}
}
