package billing

import (
	"context"
	"fmt"

	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/money"
	"marquee/platform/server"
)

// demoPromos are promos in every status: active, cancelled, and exhausted (its one redemption goes
// to the certified partner).
var demoPromos = []struct {
	req    CreatePromoRequest
	cancel bool
}{
	{req: CreatePromoRequest{Code: "WELCOME50", Value: money.Dollars(50), MaxCount: 100}},
	{req: CreatePromoRequest{Code: "SPRING25", Value: money.Dollars(25), MaxCount: 50}, cancel: true},
	{req: CreatePromoRequest{Code: "LAUNCH100", Value: money.Dollars(100), MaxCount: 1}},
}

// SeedDemo gives the demo advertiser a 4242 card on file, $50 of account credit from WELCOME50 and
// a paid campaign week; it makes the demo promos. Running it again changes nothing.
func (m *Module) SeedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	adv, ok := demo["advertiser"]
	if !ok {
		return "", fmt.Errorf("billing demo: no advertiser account")
	}
	s := m.svc
	promos := 0
	for _, p := range demoPromos {
		created, err := s.CreatePromo(ctx, p.req)
		switch {
		case err == nil:
			promos++
			if p.cancel {
				if _, err := s.setPromoStatus(ctx, created.ID, PromoCancelled); err != nil {
					return "", err
				}
			}
		case apperr.As(err).Message != MsgPromoTaken:
			return "", err
		}
	}
	redeem := func(companyID, code string) error {
		_, _, err := s.redeemPromo(ctx, companyID, code)
		if err != nil && apperr.As(err).Message != MsgPromoAlreadyRedeemed {
			return err
		}
		return nil
	}
	if err := redeem(adv.CompanyID, "WELCOME50"); err != nil {
		return "", err
	}
	if cert, ok := demo["certified"]; ok {
		if err := redeem(cert.CompanyID, "LAUNCH100"); err != nil && apperr.As(err).Message != MsgPromoExhausted {
			return "", err
		}
	}
	if _, err := s.FindCardOnFile(ctx, adv.CompanyID); apperr.CodeOf(err) == apperr.ENOTFOUND {
		if err := m.seedCard(ctx, adv.CompanyID); err != nil {
			return "", err
		}
	} else if err != nil {
		return "", err
	}
	week := dates.New(2026, 11, 16)
	if _, err := s.Charge(ctx, ChargeRequest{Key: "demo:advertiser:week-2026-11-16", CompanyID: adv.CompanyID,
		Amount: money.Dollars(1250), Description: "Demo campaign, week of Nov 16, 2026", Week: &week}); err != nil {
		return "", err
	}
	credit, err := s.AccountCredit(ctx, adv.CompanyID)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("billing: %d promos created; advertiser has a card on file and %s of credit", promos, credit), nil
}

// seedCard puts a Visa ending 4242 on file: through the sandbox's tokens, or Stripe's test token.
func (m *Module) seedCard(ctx context.Context, companyID string) error {
	year := m.deps.Clock.Now().Year() + 3
	token := "tok_visa" // Stripe test mode's Visa 4242 token
	if m.sandbox != nil {
		t, err := m.sandbox.CreateToken(ctx, "4242424242424242", 12, year, "123")
		if err != nil {
			return err
		}
		token = t.ID
	}
	_, err := m.svc.attachCard(ctx, companyID, AddCardRequest{Token: token, ExpMonth: 12, ExpYear: year})
	return err
}

// SeedCard puts a Visa 4242 test card on file for a company, unless it has one: the demo data of
// the modules above (the partner program's demo clients) charges it. Demo seeding only.
func (m *Module) SeedCard(ctx context.Context, companyID string) error {
	if _, err := m.svc.FindCardOnFile(ctx, companyID); apperr.CodeOf(err) != apperr.ENOTFOUND {
		return err
	}
	return m.seedCard(ctx, companyID)
}
