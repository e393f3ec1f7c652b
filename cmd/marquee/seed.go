package main

import (
	"context"
	"fmt"
	"io"

	"marquee/modules/identity"
	"marquee/platform/apperr"
)

// DemoPassword is the password of every demo account (printed by make run).
const DemoPassword = "demo-password-2026"

// demoUsers are one account per role: advertiser, admin, super admin, ambassador and certified
// partner.
var demoUsers = []identity.CreateUserRequest{
	{Email: "advertiser@marquee.demo", FirstName: "Ada", LastName: "Lovelace", Phone: "+1 415 555 0100", Role: identity.RoleUser, CompanyName: "Sunrise Coffee Co.", CompanyType: identity.CompanyStandard},
	{Email: "admin@marquee.demo", FirstName: "Alan", LastName: "Turing", Role: identity.RoleAdmin, CompanyName: "Marquee", CompanyType: identity.CompanyStandard},
	{Email: "superadmin@marquee.demo", FirstName: "Grace", LastName: "Hopper", Role: identity.RoleSuperAdmin, CompanyName: "Marquee", CompanyType: identity.CompanyStandard},
	{Email: "ambassador@marquee.demo", FirstName: "Katherine", LastName: "Johnson", Role: identity.RoleUser, CompanyName: "Billboard Partners", CompanyType: identity.CompanyAmbassador},
	{Email: "certified@marquee.demo", FirstName: "Hedy", LastName: "Lamarr", Role: identity.RoleUser, CompanyName: "Certified Media Group", CompanyType: identity.CompanyCertified, Certified: true},
}

// seedDemo loads the demo data. Running it again changes nothing: an account that exists is kept.
func seedDemo(ctx context.Context, app *application, out io.Writer) error {
	ids := identityService(app.modules)
	created := 0
	for _, u := range demoUsers {
		u.Password = DemoPassword
		if _, _, err := ids.CreateUser(ctx, u); err != nil {
			if apperr.CodeOf(err) == apperr.ECONFLICT {
				continue
			}
			return fmt.Errorf("seed %s: %w", u.Email, err)
		}
		created++
	}
	fmt.Fprintf(out, "demo data: %d accounts created, %d already there\n", created, len(demoUsers)-created)
	return nil
}
