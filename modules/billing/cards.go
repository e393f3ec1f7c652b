package billing

import (
	"context"
	"errors"
	"fmt"
	"marquee/platform/auth"
	"marquee/platform/httpx"
	"strings"

	"marquee/modules/billing/internal/gateway"
	"marquee/modules/billing/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/db"
	"marquee/platform/ids"
)

// service implements Service and the HTTP calls.
type service struct {
	deps  Deps
	store *store.Store
	gw    gateway.Gateway
	// redeemHook, when set (the partner program), hears each redemption in its transaction.
	redeemHook RedeemHook
}

// MsgCardExpiry refuses an expiry outside B §5's choices.
const msgCardExpiry = "Please choose an expiry month from 1 to 12 and a year from this year to 9 years ahead."

// checkExpiry applies B §5: months 1 to 12; years the current one and the next 9; not past.
func (s *service) checkExpiry(month, year int) error {
	now := s.deps.Clock.Now()
	if month < 1 || month > 12 || year < now.Year() || year > now.Year()+9 || (year == now.Year() && month < int(now.Month())) {
		return apperr.Invalid(msgCardExpiry, map[string]string{"exp_month": msgCardExpiry, "exp_year": msgCardExpiry})
	}
	return nil
}

// Masked shows a card the way /settings does (B §2).
func Masked(last4 string) string { return "xxxx-xxxx-xxxx-" + last4 }

func cardDTO(c *store.Card) *Card {
	return &Card{ID: c.ID, Brand: c.Brand, Last4: c.Last4, ExpMonth: c.ExpMonth, ExpYear: c.ExpYear, Masked: Masked(c.Last4)}
}

// gatewayErr turns a gateway failure into an application error: a refused card keeps the
// gateway's message (402), an unknown token asks for the card again, the rest is unavailable or
// internal.
func gatewayErr(err error) error {
	var ce *gateway.CardError
	switch {
	case errors.As(err, &ce):
		return cardError(ce)
	case errors.Is(err, gateway.ErrUnknownToken):
		return apperr.Field("token", MsgCardToken)
	case errors.Is(err, gateway.ErrUnavailable):
		return &apperr.Error{Code: apperr.EUNAVAILABLE, Message: "The payment gateway did not answer. Please try again in a moment.", Cause: err}
	default:
		return apperr.Internal(err)
	}
}

// FindCardOnFile returns the company's card.
func (s *service) FindCardOnFile(ctx context.Context, companyID string) (*Card, error) {
	c, err := s.store.CardByCompany(ctx, companyID)
	if err != nil {
		return nil, db.Translate(err, MsgCardNotFound, "")
	}
	return cardDTO(c), nil
}

// gatewayConfig answers the payment gateway's public settings.
func (s *service) gatewayConfig(context.Context, *auth.Principal) (GatewayConfig, error) {
	cfg := GatewayConfig{Gateway: s.deps.Gateway}
	if s.deps.Gateway == GatewayStripe {
		cfg.PublishableKey = s.deps.StripePublishableKey
	}
	return cfg, nil
}

// myCard answers the caller's company's card, or nil when it has none.
func (s *service) myCard(ctx context.Context, p *auth.Principal) (*Card, error) {
	card, err := s.FindCardOnFile(ctx, p.CompanyID)
	if apperr.CodeOf(err) == apperr.ENOTFOUND {
		return nil, nil
	}
	return card, err
}

// getCard answers a card the caller may see.
func (s *service) getCard(ctx context.Context, p *auth.Principal, id string) (*Card, error) {
	c, err := s.findCard(ctx, id, p.CompanyID, p.IsAdmin())
	if err != nil {
		return nil, err
	}
	return cardDTO(c), nil
}

// findCard returns a card the caller may see: their company's, or any for an admin (404 otherwise).
func (s *service) findCard(ctx context.Context, id, companyID string, admin bool) (*store.Card, error) {
	if !ids.Valid(id) {
		return nil, apperr.NotFound(MsgCardNotFound)
	}
	c, err := s.store.CardByID(ctx, id)
	if err != nil {
		return nil, db.Translate(err, MsgCardNotFound, "")
	}
	if c.CompanyID != companyID && !admin {
		return nil, apperr.NotFound(MsgCardNotFound)
	}
	return c, nil
}

// addCard attaches a tokenised card as the caller's company's card on file (attachCard).
func (s *service) addCard(ctx context.Context, p *auth.Principal, req AddCardRequest) (*CardResponse, error) {
	card, err := s.attachCard(ctx, p.CompanyID, req)
	if err != nil {
		return nil, err
	}
	return &CardResponse{Success: true, Message: MsgCardAdded, Card: card}, nil
}

// attachCard attaches a tokenised card as the company's card on file, replacing (and detaching)
// the one before.
func (s *service) attachCard(ctx context.Context, companyID string, req AddCardRequest) (*Card, error) {
	req.Token = strings.TrimSpace(req.Token)
	if req.Token == "" || len(req.Token) > 255 {
		return nil, apperr.Field("token", MsgCardToken)
	}
	if err := s.checkExpiry(req.ExpMonth, req.ExpYear); err != nil {
		return nil, err
	}
	gwName := s.gw.Name()
	customerRef := ""
	cust, err := s.store.Customer(ctx, companyID, gwName)
	switch {
	case err == nil:
		customerRef = cust.CustomerRef
	case !db.IsNotFound(err):
		return nil, apperr.Internal(err)
	}
	gctx, cancel := context.WithTimeout(ctx, s.deps.GatewayTimeout)
	defer cancel()
	att, err := s.gw.AttachCard(gctx, gateway.AttachRequest{CompanyID: companyID, CustomerRef: customerRef, Token: req.Token})
	if err != nil {
		return nil, gatewayErr(err)
	}
	now := s.deps.Clock.Now()
	if customerRef == "" {
		if err := s.store.SaveCustomer(ctx, &store.Customer{CompanyID: companyID, Gateway: gwName, CustomerRef: att.CustomerRef, CreatedAt: now}); err != nil {
			return nil, apperr.Internal(err)
		}
	}
	row := &store.Card{ID: ids.New(), CompanyID: companyID, Gateway: gwName, CustomerRef: att.CustomerRef, CardRef: att.CardRef,
		Brand: att.Brand, Last4: att.Last4, ExpMonth: att.ExpMonth, ExpYear: att.ExpYear, Fingerprint: att.Fingerprint, CreatedAt: now, UpdatedAt: now}
	if row.ExpMonth == 0 {
		row.ExpMonth, row.ExpYear = req.ExpMonth, req.ExpYear
	}
	var old *store.Card
	err = s.store.Transact(ctx, func(ctx context.Context) error {
		var err error
		if old, err = s.store.ReplaceCard(ctx, row); err != nil {
			return err
		}
		// Kept after the card is replaced or removed: "ever saved by" (DESIGN §1.13).
		return s.store.RememberFingerprint(ctx, row.Fingerprint, companyID, now)
	})
	if err != nil {
		return nil, apperr.Internal(err)
	}
	if old != nil && old.Gateway == gwName {
		// The old card is no longer ours to charge; a failure here leaves it saved at the gateway
		// but unused, which is harmless.
		_ = s.gw.DetachCard(gctx, old.CustomerRef, old.CardRef)
	}
	return cardDTO(row), nil
}

// updateCard changes the expiry of the caller's company's card (an admin too changes only their
// own company's).
func (s *service) updateCard(ctx context.Context, p *auth.Principal, id string, req UpdateCardRequest) (*CardResponse, error) {
	c, err := s.findCard(ctx, id, p.CompanyID, false)
	if err != nil {
		return nil, err
	}
	if err := s.checkExpiry(req.ExpMonth, req.ExpYear); err != nil {
		return nil, err
	}
	gctx, cancel := context.WithTimeout(ctx, s.deps.GatewayTimeout)
	defer cancel()
	if c.Gateway == s.gw.Name() {
		if err := s.gw.UpdateCardExpiry(gctx, c.CustomerRef, c.CardRef, req.ExpMonth, req.ExpYear); err != nil {
			return nil, gatewayErr(err)
		}
	}
	c.ExpMonth, c.ExpYear, c.UpdatedAt = req.ExpMonth, req.ExpYear, s.deps.Clock.Now()
	if err := s.store.Save(ctx, c); err != nil {
		return nil, apperr.Internal(err)
	}
	return &CardResponse{Success: true, Message: MsgCardUpdated, Card: cardDTO(c)}, nil
}

// removeCard removes the caller's company's card on file.
func (s *service) removeCard(ctx context.Context, p *auth.Principal) (*httpx.Success, error) {
	c, err := s.store.CardByCompany(ctx, p.CompanyID)
	if err != nil {
		return nil, db.Translate(err, MsgCardNotFound, "")
	}
	// Detach first: when the gateway fails, nothing has changed and the user can try again.
	if c.Gateway == s.gw.Name() {
		gctx, cancel := context.WithTimeout(ctx, s.deps.GatewayTimeout)
		defer cancel()
		if err := s.gw.DetachCard(gctx, c.CustomerRef, c.CardRef); err != nil {
			return nil, gatewayErr(fmt.Errorf("detach card %s: %w", c.ID, err))
		}
	}
	if err := s.store.DeleteCard(ctx, c.ID); err != nil {
		return nil, apperr.Internal(err)
	}
	return &httpx.Success{Success: true, Message: MsgCardRemoved}, nil
}

// FingerprintSavedBy implements Service.
func (s *service) FingerprintSavedBy(ctx context.Context, fingerprint, companyID string) (bool, error) {
	ok, err := s.store.FingerprintSavedBy(ctx, fingerprint, companyID)
	if err != nil {
		return false, apperr.Internal(err)
	}
	return ok, nil
}
