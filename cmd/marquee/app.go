package main

import (
	"marquee/modules/billing"
	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/partners"
	"marquee/modules/reports"
	"marquee/modules/screens"
	"marquee/modules/webhooks"
	"marquee/platform/auth"
	"marquee/platform/server"
)

// buildModules is the one place that knows every module: the top of the module graph (DESIGN.md
// §2). server.Compose builds each component's Needs first, so the rest of the graph follows; then
// wireHooks hands the lower modules the readers and hooks of the modules built above them.
var buildModules = withHooks(server.Compose(campaigns.Component, partners.Component, reports.Component, webhooks.Component, screens.Component))

// withHooks runs build, then wireHooks on the modules it built.
func withHooks(build server.BuildFunc) server.BuildFunc {
	return func(k *server.Kernel) ([]server.Module, auth.PrincipalLoader, error) {
		mods, principals, err := build(k)
		if err != nil {
			return nil, nil, err
		}
		wireHooks(mods)
		return mods, principals, nil
	}
}

// wireHooks hands a module what it reads from a module built on top of it. Each hook is an
// interface the lower module declares and answers without until it is set; none is a dependency
// of the lower module, because the module graph has no cycles and the other module already
// depends on it (DESIGN.md §2). They are wired here, once, so a reader sees every edge that runs
// against the graph.
func wireHooks(mods server.Built) {
	id, bill, part := server.Get[*identity.Module](mods), server.Get[*billing.Module](mods), server.Get[*partners.Module](mods)
	// Identity answers a company's account credit (GET /companies/currentCompany) and the admin
	// company grid's billing columns, which billing keeps; billing needs identity's companies.
	id.SetCreditReader(bill.Service())
	id.SetBillingReader(bill.BillingReader())
	// A partner's referral code is a billing promo: its redemption links the redeeming company to
	// the partner, or refuses it, in the redemption's transaction; partners needs billing's
	// promos, cards and charges.
	bill.SetRedeemHook(part)
}

// identityService finds the identity module among the built ones (the seed and the CLI use it).
func identityService(mods []server.Module) identity.Service {
	return server.Get[*identity.Module](mods).Service()
}
