package main

import (
	"bytes"
	"strings"
	"testing"

	"marquee/platform/db"
	"marquee/platform/testkit"
)

// The demo seed runs through the real command on each database, twice: the second run finds
// everything in place and creates nothing (make run seeds on every start).
func TestSeedDemoIsIdempotent(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		env := map[string]string{"DATA_DIR": t.TempDir(), "LOG_LEVEL": "error"}
		if dialect == db.Postgres {
			env["DATABASE_URL"] = testkit.PostgresURL(t)
		}
		getenv := func(k string) string { return env[k] }

		var first, second bytes.Buffer
		if err := run(t.Context(), []string{"seed", "--demo"}, getenv, &first); err != nil {
			t.Fatalf("first seed: %v\n%s", err, first.String())
		}
		// The demo has an under-delivered week with its make-good, corrected once.
		if !strings.Contains(first.String(), "Fall Clearance: a week at 70% of plan corrected to 80%, make-good $") {
			t.Errorf("first seed made no demo make-good:\n%s", first.String())
		}
		if !strings.Contains(first.String(), "5 accounts created, 0 already there") {
			t.Errorf("first seed said:\n%s", first.String())
		}
		if err := run(t.Context(), []string{"seed", "--demo"}, getenv, &second); err != nil {
			t.Fatalf("second seed: %v\n%s", err, second.String())
		}
		if !strings.Contains(second.String(), "0 accounts created, 5 already there") {
			t.Errorf("second seed said:\n%s", second.String())
		}
	})
}
