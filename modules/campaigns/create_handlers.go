package campaigns

import (
	"marquee/platform/jobs"
	"marquee/platform/server"
)

// createRoutes are the creation side's routes (issue 6).
func (m *Module) createRoutes() server.RouteTable { return server.RouteTable{} }

// createJobs are the creation side's jobs.
func (m *Module) createJobs() []jobs.Job { return nil }

// subscribeCreate wires the creation side's reactions.
