// Package gateway is the payment gateway port (DESIGN.md §1.2): what billing asks of a card
// processor. Two adapters implement it: internal/sandbox (the default, Stripe's test-card rules,
// offline) and internal/stripegw (stripe-go). Cards reach it only as tokens made by the gateway's
// client code; a full card number never crosses this port.
package gateway

import (
	"context"
	"errors"

	"marquee/platform/money"
)

// Gateway is a card processor.
type Gateway interface {
	// Name is "sandbox" or "stripe".
	Name() string
	// AttachCard saves the tokenised card on the company's gateway customer (created when
	// CustomerRef is empty). A refused card answers a *CardError.
	AttachCard(ctx context.Context, req AttachRequest) (*AttachedCard, error)
	// UpdateCardExpiry changes the expiry of a saved card.
	UpdateCardExpiry(ctx context.Context, customerRef, cardRef string, expMonth, expYear int) error
	// DetachCard removes a saved card from its customer.
	DetachCard(ctx context.Context, customerRef, cardRef string) error
	// Charge charges a saved card. The gateway charges at most once per IdempotencyKey and answers a
	// repeated key with the first answer. A refused card answers a *CardError; a gateway that does not
	// answer (timeout, network, 5xx) answers an error wrapping ErrUnavailable, and the charge may or
	// may not have happened: retry with the same key.
	Charge(ctx context.Context, req ChargeRequest) (ref string, err error)
	// Refund refunds all or part of a charge, at most once per IdempotencyKey.
	Refund(ctx context.Context, req RefundRequest) (ref string, err error)
}

// AttachRequest saves a token's card for a company.
type AttachRequest struct {
	CompanyID   string
	CustomerRef string // empty: create the customer
	Token       string
}

// AttachedCard is a saved card: references and the displayable details only.
type AttachedCard struct {
	CustomerRef string
	CardRef     string
	Brand       string
	Last4       string
	ExpMonth    int
	ExpYear     int
	// Fingerprint identifies the card number across customers (Stripe's card.fingerprint), without
	// revealing it: the partner program's "one referral credit per card" and "no bonus on the
	// partner's own card" (DESIGN §1.13) compare it.
	Fingerprint string
}

// ChargeRequest charges a saved card.
type ChargeRequest struct {
	CustomerRef    string
	CardRef        string
	Amount         money.Cents
	Currency       string
	Description    string
	IdempotencyKey string
}

// RefundRequest refunds a charge.
type RefundRequest struct {
	ChargeRef      string
	Amount         money.Cents
	IdempotencyKey string
}

// CardError is a card the gateway refused, with the gateway's code and message (Stripe's wording).
type CardError struct {
	Code        string
	DeclineCode string
	Message     string
}

func (e *CardError) Error() string { return "card error " + e.Code + ": " + e.Message }

// ErrUnavailable marks a gateway that did not answer: the outcome is unknown, retry with the same
// idempotency key.
var ErrUnavailable = errors.New("payment gateway unavailable")

// ErrUnknownToken is a token the gateway does not know, or one already used.
var ErrUnknownToken = errors.New("unknown or used card token")
