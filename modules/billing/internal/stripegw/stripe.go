// Package stripegw is the Stripe adapter of the payment gateway port (DESIGN.md §1.2), on
// stripe-go. Cards arrive as tokens made by Stripe.js in the browser; each company is a Stripe
// customer; a card is a PaymentMethod attached to it; charges are PaymentIntents confirmed off
// session with our idempotency key; refunds are Refunds.
package stripegw

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/stripe/stripe-go/v82"

	"marquee/modules/billing/internal/gateway"
)

// Options configure the adapter.
type Options struct {
	SecretKey string
	// APIURL replaces https://api.stripe.com (stripe-mock in tests).
	APIURL string
	// Timeout bounds one call to Stripe; 0 means 30 s.
	Timeout time.Duration
}

// Gateway is the Stripe adapter.
type Gateway struct {
	sc *stripe.Client
}

// New returns the adapter. It refuses an empty secret key.
func New(o Options) (*Gateway, error) {
	if o.SecretKey == "" {
		return nil, errors.New("stripe: STRIPE_SECRET_KEY is required when PAYMENT_GATEWAY=stripe")
	}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	cfg := &stripe.BackendConfig{
		HTTPClient: &http.Client{Timeout: timeout},
		// Our own retry job retries with the same idempotency key; the library retries too, safely.
		MaxNetworkRetries: stripe.Int64(1),
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if o.APIURL != "" {
		cfg.URL = stripe.String(o.APIURL)
	}
	return &Gateway{sc: stripe.NewClient(o.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(cfg)))}, nil
}

func (g *Gateway) Name() string { return "stripe" }

// AttachCard turns the Stripe.js token into a card PaymentMethod and attaches it to the company's
// customer, creating the customer first when there is none. Stripe checks the card when it is
// attached, so a declined, expired or wrong-CVC card is refused here.
func (g *Gateway) AttachCard(ctx context.Context, req gateway.AttachRequest) (*gateway.AttachedCard, error) {
	customer := req.CustomerRef
	if customer == "" {
		cp := &stripe.CustomerCreateParams{Description: stripe.String("Marquee company " + req.CompanyID)}
		cp.AddMetadata("company_id", req.CompanyID)
		cp.SetIdempotencyKey("customer-" + req.CompanyID)
		c, err := g.sc.V1Customers.Create(ctx, cp)
		if err != nil {
			return nil, mapErr(err)
		}
		customer = c.ID
	}
	pm, err := g.sc.V1PaymentMethods.Create(ctx, &stripe.PaymentMethodCreateParams{
		Type: stripe.String(string(stripe.PaymentMethodTypeCard)),
		Card: &stripe.PaymentMethodCreateCardParams{Token: stripe.String(req.Token)},
	})
	if err != nil {
		return nil, mapErr(err)
	}
	pm, err = g.sc.V1PaymentMethods.Attach(ctx, pm.ID, &stripe.PaymentMethodAttachParams{Customer: stripe.String(customer)})
	if err != nil {
		return nil, mapErr(err)
	}
	out := &gateway.AttachedCard{CustomerRef: customer, CardRef: pm.ID}
	if pm.Card != nil {
		out.Brand, out.Last4 = string(pm.Card.Brand), pm.Card.Last4
		out.ExpMonth, out.ExpYear = int(pm.Card.ExpMonth), int(pm.Card.ExpYear)
		out.Fingerprint = pm.Card.Fingerprint
	}
	return out, nil
}

// UpdateCardExpiry updates the PaymentMethod's expiry.
func (g *Gateway) UpdateCardExpiry(ctx context.Context, _, cardRef string, expMonth, expYear int) error {
	_, err := g.sc.V1PaymentMethods.Update(ctx, cardRef, &stripe.PaymentMethodUpdateParams{
		Card: &stripe.PaymentMethodUpdateCardParams{ExpMonth: stripe.Int64(int64(expMonth)), ExpYear: stripe.Int64(int64(expYear))},
	})
	return mapErr(err)
}

// DetachCard detaches the PaymentMethod from its customer.
func (g *Gateway) DetachCard(ctx context.Context, _, cardRef string) error {
	_, err := g.sc.V1PaymentMethods.Detach(ctx, cardRef, &stripe.PaymentMethodDetachParams{})
	return mapErr(err)
}

// Charge creates and confirms an off-session PaymentIntent with the idempotency key, so a retry
// with the same key charges once.
func (g *Gateway) Charge(ctx context.Context, req gateway.ChargeRequest) (string, error) {
	p := &stripe.PaymentIntentCreateParams{
		Amount:        stripe.Int64(int64(req.Amount)),
		Currency:      stripe.String(req.Currency),
		Customer:      stripe.String(req.CustomerRef),
		PaymentMethod: stripe.String(req.CardRef),
		Description:   stripe.String(req.Description),
		Confirm:       stripe.Bool(true),
		OffSession:    stripe.Bool(true),
	}
	p.SetIdempotencyKey(req.IdempotencyKey)
	pi, err := g.sc.V1PaymentIntents.Create(ctx, p)
	if err != nil {
		return "", mapErr(err)
	}
	return pi.ID, nil
}

// Refund refunds a PaymentIntent, in full or in part, with the idempotency key.
func (g *Gateway) Refund(ctx context.Context, req gateway.RefundRequest) (string, error) {
	p := &stripe.RefundCreateParams{PaymentIntent: stripe.String(req.ChargeRef), Amount: stripe.Int64(int64(req.Amount))}
	p.SetIdempotencyKey(req.IdempotencyKey)
	r, err := g.sc.V1Refunds.Create(ctx, p)
	if err != nil {
		return "", mapErr(err)
	}
	return r.ID, nil
}

// mapErr turns Stripe's errors into the port's: card errors keep Stripe's code and message;
// timeouts, network failures, rate limits and Stripe's own 5xx are ErrUnavailable (retry with the
// same key); anything else is returned as is (a bug or a configuration problem).
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	var se *stripe.Error
	if errors.As(err, &se) {
		switch {
		case se.Type == stripe.ErrorTypeCard:
			return &gateway.CardError{Code: string(se.Code), DeclineCode: string(se.DeclineCode), Message: se.Msg}
		case se.HTTPStatusCode == http.StatusTooManyRequests || se.HTTPStatusCode >= 500:
			return fmt.Errorf("stripe %d %s: %w", se.HTTPStatusCode, se.Msg, gateway.ErrUnavailable)
		default:
			return fmt.Errorf("stripe %d %s %s: %s", se.HTTPStatusCode, se.Type, se.Code, se.Msg)
		}
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("stripe: %v: %w", err, gateway.ErrUnavailable)
	}
	return fmt.Errorf("stripe: %w", err)
}
