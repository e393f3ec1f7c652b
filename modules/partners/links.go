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

// rateBP is the partner's bonus rate in basis points now (DESIGN §1.11, B §4 "certification
// bonus"): the certified rate while at least one user of the company holds a certificate, the
// ambassador rate otherwise; nothing for a company that is no longer a partner. The hub, the
// header badge and the bonuses all ask this one function.
func (s *service) rateBP(ctx context.Context, partnerID, partnerType string) (int, bool, error) {
	if !isPartnerType(partnerType) {
		return 0, false, nil
	}
	n, err := s.deps.Identity.CountCertifiedUsers(ctx, partnerID)
	if err != nil {
		return 0, false, err
	}
	if n > 0 {
		return s.deps.RateCertifiedBP, true, nil
	}
	return s.deps.RateAmbassadorBP, false, nil
}

// today is the business day by the clock (platform/dates: the product's calendar is UTC).
func (s *service) today() dates.Date { return dates.Today(s.deps.Clock) }

// expiration is the last day of a link started on start: PARTNER_LINK_MONTHS later, less a day,
// so that a 12-month link started on Nov 23 counts through Nov 22 of the next year (both days
// included; 12 months and not 12 months and a day).
func (s *service) expiration(start dates.Date) dates.Date {
	return dates.Of(start.Time().AddDate(0, s.deps.LinkMonths, -1))
}

// active says whether a link counts on day d: started on or before it, expiring on or after it
// (B §4: inactive once its expiration is before today).
func active(l *store.Link, d dates.Date) bool {
	return !l.Started.After(d) && !l.Expiration.Before(d)
}

// onCompanyTypeChanged keeps the partner row in step with the company's type (identity's event).
func (s *service) onCompanyTypeChanged(ctx context.Context, e events.Event) error {
	var p identity.CompanyTypeChanged
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return err
	}
	_, err := s.ensurePartner(ctx, p.CompanyID, p.To)
	return err
}

// ensurePartner makes or updates the company's partner row; a company becoming a partner for the
// first time gets its referral promo code from billing, in the same transaction. It is idempotent,
// so the event, a replay of it, and a call that finds the row missing agree.
func (s *service) ensurePartner(ctx context.Context, companyID, companyType string) (*store.Partner, error) {
	var out *store.Partner
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		p, err := s.store.PartnerByID(ctx, companyID)
		if err == nil {
			if p.Type != companyType {
				p.Type = companyType
				if err := s.store.UpdatePartner(ctx, p.ID, map[string]any{"type": companyType, "updated_at": s.deps.Clock.Now()}); err != nil {
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
		promo, err := s.deps.Billing.CreatePromo(ctx, billing.CreatePromoRequest{Code: referralCode(companyID),
			Value: ReferralPromoValue, MaxCount: ReferralPromoCount})
		if err != nil {
			return err
		}
		now := s.deps.Clock.Now()
		out = &store.Partner{ID: companyID, Type: companyType, PromoID: promo.ID, PromoCode: promo.Code, CreatedAt: now, UpdatedAt: now}
		return s.store.Create(ctx, out)
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
func (s *service) partnerOf(ctx context.Context, companyID, companyType string) (*store.Partner, error) {
	if !isPartnerType(companyType) {
		return nil, apperr.New(apperr.EFORBIDDEN, MsgNotPartner)
	}
	p, err := s.ensurePartner(ctx, companyID, companyType)
	if err != nil {
		// Two first calls at once: one made the row (and its code), the other's insert lost.
		if again, rerr := s.store.PartnerByID(ctx, companyID); rerr == nil {
			return again, nil
		}
		return nil, apperr.Internal(err)
	}
	return p, nil
}

// link ties a client to a partner for PARTNER_LINK_MONTHS from today. It answers the existing
// link, and false, when the client already has one (a client keeps its first partner).
func (s *service) link(ctx context.Context, partnerID, clientID, source, invitedUserID string) (*store.Link, bool, error) {
	var l *store.Link
	created := false
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		prior, err := s.store.LinkOfClient(ctx, clientID)
		if err == nil {
			l = prior
			return nil
		}
		if !db.IsNotFound(err) {
			return err
		}
		today := s.today()
		l = &store.Link{ID: ids.New(), PartnerID: partnerID, ClientID: clientID, Source: source, InvitedUserID: invitedUserID,
			Started: today, Expiration: s.expiration(today), CreatedAt: s.deps.Clock.Now()}
		if err := s.store.Create(ctx, l); err != nil {
			return err
		}
		created = true
		return s.store.AddPartnerLinked(ctx, partnerID, 1)
	})
	return l, created, err
}

// promoRedeemed is billing.RedeemHook (Module.PromoRedeemed), inside the redemption's transaction: a refusal
// rolls the credit back. A referral code (DESIGN §1.13) is redeemable only by a standard company
// that is not the partner itself, that has no other partner (ever), whose card on file is not one
// the partner's company ever saved, and whose card has not earned a referral credit before
// (anywhere). A company already linked to this partner keeps its link and gets the credit once.
func (s *service) promoRedeemed(ctx context.Context, r billing.Redeemed) (string, error) {
	p, err := s.store.PartnerByPromo(ctx, r.PromoID)
	if db.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if p.ID == r.CompanyID {
		return "", apperr.New(apperr.EFORBIDDEN, MsgReferralOwnCode)
	}
	client, err := s.deps.Identity.FindCompanyByID(ctx, r.CompanyID)
	if err != nil {
		return "", err
	}
	if client.Type != identity.CompanyStandard {
		return "", apperr.New(apperr.EFORBIDDEN, MsgReferralPartner)
	}
	prior, err := s.store.LinkOfClient(ctx, r.CompanyID)
	switch {
	case err == nil && prior.PartnerID != p.ID:
		if active(prior, s.today()) {
			return "", apperr.Errorf(apperr.ECONFLICT, MsgReferralOtherLink, prior.Expiration.Format("Jan 02, 2006"))
		}
		return "", apperr.New(apperr.ECONFLICT, MsgReferralLinkedOnce)
	case err != nil && !db.IsNotFound(err):
		return "", err
	}
	if r.CardFingerprint == "" {
		return "", apperr.New(apperr.EINVALID, MsgReferralNeedsCard)
	}
	if own, err := s.deps.Billing.FingerprintSavedBy(ctx, r.CardFingerprint, p.ID); err != nil {
		return "", err
	} else if own {
		return "", apperr.New(apperr.EFORBIDDEN, MsgReferralPartnerCard)
	}
	// One credit per card: the lock orders two redemptions with one card (the unique index on
	// partners_redemptions.card_fingerprint refuses the second anyway).
	if err := db.LockForTx(ctx, s.deps.DB, "partners:referral-card:"+r.CardFingerprint); err != nil {
		return "", err
	}
	if used, err := s.store.CardRedeemed(ctx, r.CardFingerprint); err != nil {
		return "", err
	} else if used {
		return "", apperr.New(apperr.ECONFLICT, MsgReferralCardUsed)
	}
	if !isPartnerType(p.Type) {
		// A former partner's code still credits, but links nobody to a company that earns nothing.
		return "", s.store.Create(ctx, &store.Redemption{ID: ids.New(), PartnerID: p.ID, ClientID: r.CompanyID, PromoID: r.PromoID,
			Amount: int64(r.Amount), CardFingerprint: r.CardFingerprint, CreatedAt: s.deps.Clock.Now()})
	}
	l, created, err := s.link(ctx, p.ID, r.CompanyID, SourceReferral, "")
	if err != nil {
		return "", err
	}
	note := fmt.Sprintf(MsgLinked, l.Expiration.Format("Jan 02, 2006"))
	if !created {
		note = fmt.Sprintf(MsgAlreadyLinked, l.Expiration.Format("Jan 02, 2006"))
	}
	row := &store.Redemption{ID: ids.New(), PartnerID: p.ID, ClientID: r.CompanyID, PromoID: r.PromoID, Amount: int64(r.Amount),
		Linked: created, CardFingerprint: r.CardFingerprint, CreatedAt: s.deps.Clock.Now()}
	return note, s.store.Create(ctx, row)
}

// FindLink implements Service.
func (s *service) FindLink(ctx context.Context, clientID string) (*LinkedCompany, error) {
	l, err := s.store.LinkOfClient(ctx, clientID)
	if err != nil {
		return nil, db.Translate(err, MsgLinkNotFound, "")
	}
	return s.linkDTO(l, ""), nil
}

func (s *service) linkDTO(l *store.Link, userStatus string) *LinkedCompany {
	today := s.today()
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
