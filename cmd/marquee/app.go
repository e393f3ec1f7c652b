package main

import (
	"marquee/modules/billing"
	"marquee/modules/campaigns"
	"marquee/modules/creatives"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/auth"
	"marquee/platform/server"
)

// buildModules is the one place that knows every module: it builds them on the kernel in
// dependency order (DESIGN.md §2) and names the principal loader.
func buildModules(k *server.Kernel) ([]server.Module, auth.PrincipalLoader, error) {
	id, err := identity.NewFromKernel(k)
	if err != nil {
		return nil, nil, err
	}
	loc, err := locations.NewFromKernel(k)
	if err != nil {
		return nil, nil, err
	}
	cr, err := creatives.NewFromKernel(k, id.Service())
	if err != nil {
		return nil, nil, err
	}
	bill, err := billing.NewFromKernel(k, id.Service())
	if err != nil {
		return nil, nil, err
	}
	// Billing depends on identity; identity reads account credit through its own CreditReader.
	id.SetCreditReader(bill.Service())
	camp, err := campaigns.NewFromKernel(k, id.Service(), loc.Service(), cr.Service(), bill.Service())
	if err != nil {
		return nil, nil, err
	}
	return []server.Module{id, loc, cr, bill, camp}, id.Principals(), nil
}

// identityService finds the identity module among the built ones (the seed and the CLI use it).
func identityService(mods []server.Module) identity.Service {
	for _, m := range mods {
		if id, ok := m.(*identity.Module); ok {
			return id.Service()
		}
	}
	panic("identity module not built")
}
