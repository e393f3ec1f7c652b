package main

import (
	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/partners"
	"marquee/modules/reports"
	"marquee/modules/webhooks"
	"marquee/platform/server"
)

// buildModules is the one place that knows every module: the top of the module graph (DESIGN.md
// §2). server.Compose builds each component's Needs first, so the rest of the graph follows.
var buildModules = server.Compose(campaigns.Component, partners.Component, reports.Component, webhooks.Component)

// identityService finds the identity module among the built ones (the seed and the CLI use it).
func identityService(mods []server.Module) identity.Service {
	return server.Get[*identity.Module](mods).Service()
}
