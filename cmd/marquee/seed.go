package main

import (
	"context"
	"fmt"
	"io"

	"marquee/modules/identity"
	"marquee/platform/apperr"
	"marquee/platform/server"
)

// DemoPassword is the password of every demo account (printed by make run).
const DemoPassword = "demo-password-2026"

// demoUsers are one account per role: advertiser, admin, super admin, ambassador and certified
// partner, keyed as server.DemoAccounts names them.
var demoUsers = map[string]identity.CreateUserRequest{
	"advertiser":  {Email: "advertiser@marquee.demo", FirstName: "Ada", LastName: "Lovelace", Phone: "+1 415 555 0100", Role: identity.RoleUser, CompanyName: "Sunrise Coffee Co.", CompanyType: identity.CompanyStandard},
	"admin":       {Email: "admin@marquee.demo", FirstName: "Alan", LastName: "Turing", Role: identity.RoleAdmin, CompanyName: "Marquee", CompanyType: identity.CompanyStandard},
	"super_admin": {Email: "superadmin@marquee.demo", FirstName: "Grace", LastName: "Hopper", Role: identity.RoleSuperAdmin, CompanyName: "Marquee", CompanyType: identity.CompanyStandard},
	"ambassador":  {Email: "ambassador@marquee.demo", FirstName: "Katherine", LastName: "Johnson", Role: identity.RoleUser, CompanyName: "Billboard Partners", CompanyType: identity.CompanyAmbassador},
	"certified":   {Email: "certified@marquee.demo", FirstName: "Hedy", LastName: "Lamarr", Role: identity.RoleUser, CompanyName: "Certified Media Group", CompanyType: identity.CompanyCertified, Certified: true},
}

// seedDemo loads the demo data: the accounts, then each module's demo data (server.DemoSeeder) in
// module order. Running it again changes nothing: what exists is kept.
func seedDemo(ctx context.Context, app *application, out io.Writer) error {
	ids := identityService(app.modules)
	accounts := server.DemoAccounts{}
	created := 0
	for role, req := range demoUsers {
		req.Password = DemoPassword
		// The demo accounts are returning users with campaigns: their tour and tutorial video have
		// been given. A new sign-up gets both.
		req.Onboarded = true
		u, _, err := ids.CreateUser(ctx, req)
		switch {
		case apperr.CodeOf(err) == apperr.ECONFLICT:
			if u, err = ids.FindUserByEmail(ctx, req.Email); err != nil {
				return fmt.Errorf("seed %s: %w", req.Email, err)
			}
		case err != nil:
			return fmt.Errorf("seed %s: %w", req.Email, err)
		default:
			created++
		}
		accounts[role] = server.DemoAccount{UserID: u.ID, CompanyID: u.Company.ID, Email: u.Local.Email}
	}
	fmt.Fprintf(out, "demo data: %d accounts created, %d already there\n", created, len(demoUsers)-created)
	for _, m := range app.modules {
		if s, ok := m.(server.DemoSeeder); ok {
			summary, err := s.SeedDemo(ctx, accounts)
			if err != nil {
				return fmt.Errorf("seed %s: %w", m.Name(), err)
			}
			fmt.Fprintf(out, "demo data: %s\n", summary)
		}
	}
	return nil
}
