package billing

import (
	"strings"
	"testing"

	"marquee/modules/billing/internal/stripemock"
	"marquee/platform/money"
	"marquee/platform/testkit"
)

// TestStripeGatewayThroughHTTP runs the module with PAYMENT_GATEWAY=stripe against stripe-mock:
// the browser gets the publishable key (never the secret), the sandbox's token endpoint is gone,
// a Stripe.js token is attached, charged and refunded.
func TestStripeGatewayThroughHTTP(t *testing.T) {
	url := stripemock.Start(t)
	f := start(t, testkit.Dialects()[0],
		testkit.WithEnv("PAYMENT_GATEWAY", "stripe"), testkit.WithEnv("STRIPE_SECRET_KEY", "sk_test_123"),
		testkit.WithEnv("STRIPE_PUBLISHABLE_KEY", "pk_test_123"), testkit.WithEnv("STRIPE_API_URL", url))
	var cfg GatewayConfig
	res := f.adv.Get("/api/billing/config").Expect(t, 200)
	res.JSON(t, &cfg)
	if cfg.Gateway != GatewayStripe || cfg.PublishableKey != "pk_test_123" || strings.Contains(string(res.Body), "sk_test") {
		t.Fatalf("config = %s", res.Body)
	}
	f.adv.Post("/api/sandbox/tokens", SandboxTokenRequest{Number: "4242424242424242"}).Expect(t, 404)

	var added CardResponse
	f.adv.Post("/api/cards", AddCardRequest{Token: "tok_visa", ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}).Expect(t, 201).JSON(t, &added)
	if added.Message != MsgCardAdded || added.Card.Last4 == "" || !strings.HasPrefix(added.Card.Masked, "xxxx-xxxx-xxxx-") {
		t.Fatalf("added = %+v", added)
	}
	tx, err := f.bill.Service().Charge(t.Context(), ChargeRequest{Key: "stripe-week-1", CompanyID: f.advCompany, Amount: money.Dollars(100)})
	if err != nil || tx.Status != StatusSucceeded || !strings.HasPrefix(tx.GatewayRef, "pi_") {
		t.Fatalf("charge = %+v %v", tx, err)
	}
	r, err := f.bill.Service().Refund(t.Context(), RefundRequest{Key: "stripe-refund-1", TransactionID: tx.ID, Amount: money.Dollars(40)})
	if err != nil || r.Status != StatusSucceeded || !strings.HasPrefix(r.GatewayRef, "re_") {
		t.Fatalf("refund = %+v %v", r, err)
	}
	f.adv.Put("/api/cards/"+added.Card.ID, UpdateCardRequest{ExpMonth: 6, ExpYear: testkit.StartTime.Year() + 3}).Expect(t, 200)
	f.adv.Delete("/api/cards/me").Expect(t, 200)
}
