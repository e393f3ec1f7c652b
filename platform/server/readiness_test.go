package server_test

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"marquee/platform/clock"
	"marquee/platform/config"
	"marquee/platform/db"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

type readiness struct {
	Status string            `json:"status"`
	Failed []string          `json:"failed"`
	Checks map[string]string `json:"checks"`
}

// TestReadinessTellsTheTruth: on an empty, unmigrated database /readyz answers 503
// naming the migrations (it answered 200 while every API call answered 500); once migrated, 200;
// a storage directory gone or a database closed, 503 naming that check.
func TestReadinessTellsTheTruth(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		dir := t.TempDir()
		cfg, err := config.Load(func(k string) string { return map[string]string{"DATA_DIR": dir}[k] })
		if err != nil {
			t.Fatal(err)
		}
		gdb := testkit.OpenDB(t, dialect) // empty: nothing migrated
		k, err := server.NewKernel(t.Context(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), clock.Real{}, server.Options{DB: gdb})
		if err != nil {
			t.Fatal(err)
		}
		h, _, err := k.Handler(nil, nobody{}, web)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		c := testkit.NewClient(t, srv.URL)
		ready := func(status int) readiness {
			t.Helper()
			var r readiness
			c.Get("/readyz").Expect(t, status).JSON(t, &r)
			return r
		}

		r := ready(503)
		if r.Status != "unavailable" || !slices.Equal(r.Failed, []string{server.ReadyMigrations}) ||
			!strings.Contains(r.Checks[server.ReadyMigrations], "are not applied: run marquee migrate") || r.Checks[server.ReadyDatabase] != "ok" {
			t.Fatalf("unmigrated: %+v", r)
		}

		if err := k.Migrate(nil); err != nil {
			t.Fatal(err)
		}
		if r := ready(200); r.Status != "ready" || len(r.Failed) != 0 || r.Checks[server.ReadyStorage] != "ok" {
			t.Fatalf("migrated: %+v", r)
		}

		// The storage's directory goes away (a volume unmounted): not ready, and it says so.
		if err := os.RemoveAll(filepath.Join(dir, "files")); err != nil {
			t.Fatal(err)
		}
		if r := ready(503); !slices.Equal(r.Failed, []string{server.ReadyStorage}) || r.Checks[server.ReadyStorage] != "the fs storage does not answer" {
			t.Fatalf("storage gone: %+v", r)
		}
		if err := os.MkdirAll(filepath.Join(dir, "files", "objects"), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "files", "types"), 0o750); err != nil {
			t.Fatal(err)
		}
		ready(200)

		// The database goes away: not ready; the body names it and leaks no error text.
		if err := db.Close(gdb); err != nil {
			t.Fatal(err)
		}
		r = ready(503)
		if !slices.Contains(r.Failed, server.ReadyDatabase) || r.Checks[server.ReadyDatabase] != "the database does not answer" {
			t.Fatalf("database closed: %+v", r)
		}
	})
}
