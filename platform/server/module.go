// Package server assembles the kernel (configuration, database, sessions, mail, storage, events)
// and turns modules into one HTTP handler and one job scheduler. cmd/marquee and platform/testkit
// both build the application through it, so tests run the real thing.
package server

import (
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
