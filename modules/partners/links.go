package partners

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"marquee/modules/billing"
	"marquee/modules/identity"
	"marquee/modules/partners/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/events"
	"marquee/platform/ids"
	"marquee/platform/money"
)

// ReferralPromoValue is the credit a client gets from a partner's referral code, and
// ReferralPromoCount how many companies may redeem it (billing's maximum).
const (
	ReferralPromoValue = money.Cents(50_00)
	ReferralPromoCount = billing.MaxPromoCount
)

func isPartnerType(t string) bool {
	return t == identity.CompanyAmbassador || t == identity.CompanyCertified
}

// rateBP is the partner's bonus rate in basis points (docs/partners.md).
func (m *Module) rateBP(partnerType string) int {
	switch partnerType {
	case identity.CompanyAmbassador:
		return m.deps.RateAmbassadorBP
	case identity.CompanyCertified:
		return m.deps.RateCertifiedBP
	}
	return 0
}

// today is the business day by the clock (platform/dates: the product's calendar is UTC).
func (m *Module) today() dates.Date { return dates.Today(m.deps.Clock) }

// expiration is the last day of a link started on start (PARTNER_LINK_MONTHS later).
func (m *Module) expiration(start dates.Date) dates.Date {
	return dates.Of(start.Time().AddDate(0, m.deps.LinkMonths, 0))
}

// active says whether a link counts on day d: started on or before it, expiring on or after it
// (B §4: inactive once its expiration is before today).
func active(l *store.Link, d dates.Date) bool {
	return !l.Started.After(d) && !l.Expiration.Before(d)
}

// onCompanyTypeChanged keeps the partner row in step with the company's type (identity's event).
func (m *Module) onCompanyTypeChanged(ctx context.Context, e events.Event) error {
	var p identity.CompanyTypeChanged
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return err
	}
	_, err := m.ensurePartner(ctx, p.CompanyID, p.To)
	return err
}

// ensurePartner makes or updates the company's partner row; a company becoming a partner for the
// first time gets its referral promo code from billing, in the same transaction. It is idempotent,
// so the event, a replay of it, and a call that finds the row missing agree.
func (m *Module) ensurePartner(ctx context.Context, companyID, companyType string) (*store.Partner, error) {
	var out *store.Partner
	err := db.Transact(ctx, m.store.DB(), func(ctx context.Context) error {
		p, err := m.store.PartnerByID(ctx, companyID)
		if err == nil {
			if p.Type != companyType {
				p.Type = companyType
				if err := m.store.UpdatePartner(ctx, p.ID, map[string]any{"type": companyType, "updated_at": m.deps.Clock.Now()}); err != nil {
					return err
				}
			}
			out = p
			return nil
		}
		if !db.IsNotFound(err) {
			return err
		}
		if !isPartnerType(companyType) {
			return nil
		}
		promo, err := m.deps.Billing.CreatePromo(ctx, billing.CreatePromoRequest{Code: referralCode(companyID),
			Value: ReferralPromoValue, MaxCount: ReferralPromoCount})
		if err != nil {
			return err
		}
		now := m.deps.Clock.Now()
		out = &store.Partner{ID: companyID, Type: companyType, PromoID: promo.ID, PromoCode: promo.Code, CreatedAt: now, UpdatedAt: now}
		return m.store.Create(ctx, out)
	})
	return out, err
}

// referralCode is the partner's code: REF- and the random tail of its company's UUIDv7, so a
// replayed event names the same code and two partners never share one.
func referralCode(companyID string) string {
	hex := strings.ReplaceAll(companyID, "-", "")
	return "REF-" + strings.ToUpper(hex[len(hex)-12:])
}

// partnerOf returns the caller's partner row, or EFORBIDDEN when the company is not a partner.
func (m *Module) partnerOf(ctx context.Context, companyID, companyType string) (*store.Partner, error) {
	if !isPartnerType(companyType) {
		return nil, apperr.New(apperr.EFORBIDDEN, MsgNotPartner)
	}
	p, err := m.ensurePartner(ctx, companyID, companyType)
	if err != nil {
		// Two first calls at once: one made the row (and its code), the other's insert lost.
		if again, rerr := m.store.PartnerByID(ctx, companyID); rerr == nil {
			return again, nil
		}
		return nil, apperr.Internal(err)
	}
	return p, nil
}

// link ties a client to a partner for PARTNER_LINK_MONTHS from today. It answers the existing
// link, and false, when the client already has one (a client keeps its first partner).
func (m *Module) link(ctx context.Context, partnerID, clientID, source, invitedUserID string) (*store.Link, bool, error) {
	var l *store.Link
	created := false
	err := db.Transact(ctx, m.store.DB(), func(ctx context.Context) error {
		prior, err := m.store.LinkOfClient(ctx, clientID)
		if err == nil {
			l = prior
			return nil
		}
		if !db.IsNotFound(err) {
			return err
		}
		today := m.today()
		l = &store.Link{ID: ids.New(), PartnerID: partnerID, ClientID: clientID, Source: source, InvitedUserID: invitedUserID,
			Started: today, Expiration: m.expiration(today), CreatedAt: m.deps.Clock.Now()}
		if err := m.store.Create(ctx, l); err != nil {
			return err
		}
		created = true
		return m.store.AddPartnerLinked(ctx, partnerID, 1)
	})
	return l, created, err
}

// PromoRedeemed implements billing.RedeemHook: a company that redeems a partner's referral code
// becomes its client, unless it is already linked (then the message says until when), or it is the
// partner itself.
func (m *Module) PromoRedeemed(ctx context.Context, r billing.Redeemed) (string, error) {
	p, err := m.store.PartnerByPromo(ctx, r.PromoID)
	if db.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	linked := false
	note := ""
	if p.ID != r.CompanyID && isPartnerType(p.Type) {
		l, created, err := m.link(ctx, p.ID, r.CompanyID, SourceReferral, "")
		if err != nil {
			return "", err
		}
		linked = created
		if created {
			note = fmt.Sprintf(MsgLinked, l.Expiration.Format("Jan 02, 2006"))
		} else {
			note = fmt.Sprintf(MsgAlreadyLinked, l.Expiration.Format("Jan 02, 2006"))
		}
	}
	row := &store.Redemption{ID: ids.New(), PartnerID: p.ID, ClientID: r.CompanyID, PromoID: r.PromoID, Amount: int64(r.Amount),
		Linked: linked, CreatedAt: m.deps.Clock.Now()}
	return note, m.store.Create(ctx, row)
}

// FindLink implements Service.
func (m *Module) FindLink(ctx context.Context, clientID string) (*LinkedCompany, error) {
	l, err := m.store.LinkOfClient(ctx, clientID)
	if err != nil {
		return nil, db.Translate(err, MsgLinkNotFound, "")
	}
	return m.linkDTO(l, ""), nil
}

func (m *Module) linkDTO(l *store.Link, userStatus string) *LinkedCompany {
	today := m.today()
	status := InviteActive
	switch {
	case !active(l, today):
		status = InviteExpired
	case userStatus == identity.StatusInvited:
		status = InviteInvited
	}
	return &LinkedCompany{ID: l.ID, CompanyID: l.ClientID, Source: l.Source, Status: status, Started: l.Started,
		Linked: Linked{Expiration: l.Expiration, Active: active(l, today)}}
}
