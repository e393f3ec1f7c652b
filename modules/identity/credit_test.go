package identity_test

import (
	"context"
	"testing"

	"marquee/modules/identity"
	"marquee/platform/auth"
	"marquee/platform/money"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// fixedCredit is a CreditReader that knows one company's credit. The real reader is the billing
// service; modules/billing's tests check the two together.
type fixedCredit struct {
	companyID string
	credit    money.Cents
}

func (f *fixedCredit) AccountCredit(_ context.Context, companyID string) (money.Cents, error) {
	if companyID == f.companyID {
		return f.credit, nil
	}
	return 0, nil
}

// TestCurrentCompanyCarriesAccountCredit: GET /companies/currentCompany answers account_credit
// from the reader handed in after the modules are built (B §7), and 0 while identity runs alone.
func TestCurrentCompanyCarriesAccountCredit(t *testing.T) {
	var mod *identity.Module
	s := testkit.Start(t, testkit.Dialects()[0], func(k *server.Kernel) ([]server.Module, auth.PrincipalLoader, error) {
		m, err := identity.NewFromKernel(k)
		mod = m
		if err != nil {
			return nil, nil, err
		}
		return []server.Module{m}, m.Principals(), nil
	})
	c := s.Client(t)
	var res identity.UserResponse
	signUp(t, c, "Credit Co", "credit@example.com").Expect(t, 201).JSON(t, &res)

	var co identity.CurrentCompany
	c.Get("/companies/currentCompany").Expect(t, 200).JSON(t, &co)
	if co.AccountCredit != 0 || co.Name != "Credit Co" {
		t.Fatalf("without a reader: %+v", co)
	}
	mod.SetCreditReader(&fixedCredit{companyID: res.User.Company.ID, credit: money.Dollars(75)})
	c.Get("/companies/currentCompany").Expect(t, 200).JSON(t, &co)
	if co.AccountCredit != money.Dollars(75) || co.ID != res.User.Company.ID {
		t.Fatalf("with a reader: %+v", co)
	}
}
