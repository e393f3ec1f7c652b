// Package server assembles the kernel (configuration, database, sessions, mail, storage, events)
// and turns modules into one HTTP handler and one job scheduler. cmd/marquee and platform/testkit
// both build the application through it, so tests run the real thing.
package server

import (
	"context"

	"github.com/gin-gonic/gin"

	"marquee/platform/authz"
	"marquee/platform/db"
	"marquee/platform/jobs"
)

// Module is what a bounded context gives the kernel (DESIGN.md §2: module.go).
type Module interface {
	// Name prefixes the module's tables and migration ids.
	Name() string
	// Migrations are the module's schema changes, in order.
	Migrations() []*db.Migration
	// Routes registers the module's HTTP routes.
	Routes(r gin.IRouter)
	// Policy says which roles may call each route.
	Policy() []authz.Rule
	// Jobs are the module's periodic jobs.
	Jobs() []jobs.Job
}

// DemoSeeder is implemented by a module that has demo data for `marquee seed --demo`. The seed
// calls it in module order (identity first), after the demo accounts exist. It must be
// idempotent and deterministic: running it again changes nothing, and the same seed always gives
// the same data. It returns a one-line summary for the console.
type DemoSeeder interface {
	SeedDemo(ctx context.Context, demo DemoAccounts) (summary string, err error)
}

// DemoAccounts are the demo accounts the seed made, by role: "advertiser", "admin",
// "super_admin", "ambassador" and "certified".
type DemoAccounts map[string]DemoAccount

// DemoAccount is one demo user and its company.
type DemoAccount struct {
	UserID, CompanyID, Email string
}
