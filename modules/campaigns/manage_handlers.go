package campaigns

import (
	"marquee/platform/jobs"
	"marquee/platform/server"
)

// manageRoutes are the management side's routes (issue 7).
func (m *Module) manageRoutes() server.RouteTable { return server.RouteTable{} }

// manageJobs are the lifecycle's jobs.
func (m *Module) manageJobs() []jobs.Job { return nil }

// subscribeManage wires the management side's reactions.
func (m *Module) subscribeManage() {}
