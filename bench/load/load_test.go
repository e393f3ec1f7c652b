package main

import (
	"strings"
	"testing"
	"time"

	"marquee/platform/db"
	"marquee/platform/testkit"
)

// TestLoadSmoke runs the load mix of `make load` for a few seconds against a real `marquee serve`
// (SQLite; PostgreSQL too when TEST_DATABASE_URL is set) and fails on any error, so the load
// script keeps working as the API changes. It asserts no timing.
func TestLoadSmoke(t *testing.T) {
	for _, dialect := range testkit.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			cfg := Config{Binary: testkit.Binary(t), Dialect: dialect, Duration: 8 * time.Second,
				Advertisers: 6, Admins: 2, Scale: 1}
			if dialect == db.Postgres {
				cfg.DatabaseURL = testkit.PostgresURL(t) // a fresh database, dropped by the test
			}
			rep, err := Run(t.Context(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			var md strings.Builder
			rep.Markdown(&md)
			t.Log("\n" + md.String())
			if rep.Errors() > 0 {
				t.Fatalf("%d errors in the load mix", rep.Errors())
			}
			for _, c := range rep.Calls {
				if c.Requests == 0 {
					t.Errorf("call %q was never made", c.Name)
				}
			}
			if len(rep.RSS) == 0 {
				t.Error("no RSS sample of the server")
			}
		})
	}
}
