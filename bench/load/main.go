// Command load is the load and soak run (docs/performance.md "Load and soak"): it starts
// `marquee serve` on a fresh database (SQLite, or a new PostgreSQL database it drops afterwards), signs up
// many advertisers and a few admins, and drives the web app's mix of calls over HTTP with vegeta
// for a while, each call at its own rate. It prints a markdown table per database: throughput and
// p50/p95/p99 per call, the errors (every answer but the call's expected status is one), and the
// server's RSS every 10 s.
//
//	go run ./bench/load -binary bin/marquee -db sqlite -duration 10m
//
// `make load` runs it on SQLite and on PostgreSQL; docs/performance.md has the figures.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"marquee/platform/db"
)

func main() {
	var cfg Config
	flag.StringVar(&cfg.Binary, "binary", "bin/marquee", "the marquee binary to serve")
	flag.StringVar(&cfg.Dialect, "db", db.SQLite, "sqlite or postgres")
	flag.StringVar(&cfg.PostgresAdminURL, "pg", envOr("LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"),
		"PostgreSQL server to make the run's database on (it is dropped afterwards); env LOAD_DATABASE_URL")
	flag.DurationVar(&cfg.Duration, "duration", 10*time.Minute, "how long the mix runs")
	flag.IntVar(&cfg.Advertisers, "advertisers", 200, "advertisers signed up before the run (a company each)")
	flag.IntVar(&cfg.Admins, "admins", 5, "admins made before the run")
	flag.Float64Var(&cfg.Scale, "scale", 1, "multiplies every call's rate")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg.Progress = os.Stderr
	rep, err := Run(ctx, cfg)
	if rep != nil {
		rep.Markdown(os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
	if rep.Errors() > 0 {
		os.Exit(2)
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}
