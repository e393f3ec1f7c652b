package partners

import (
	"context"
	"encoding/json"

	"marquee/modules/billing"
	"marquee/modules/partners/internal/store"
	"marquee/platform/audit"
	"marquee/platform/clock"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/events"
	"marquee/platform/ids"
)

// bonusOf is the bonus on a charge's net amount at a rate in basis points, rounded half up to the
// cent: a bonus row holds the sum of its charges' bonusOf (per-charge cents).
func bonusOf(billed int64, rateBP int) int64 {
	return (billed*int64(rateBP) + 5000) / 10000
}

// Reasons a charge is flagged instead of earning a bonus.
const (
	FlagOwnCard     = "own_card"     // paid with a card the partner's company ever saved
	FlagPartnerCard = "partner_card" // paid with a card the partner's own partner ever saved
)

// AuditBonusWithheld is the audit action of a charge that earned no bonus and awaits review.
const AuditBonusWithheld = "partners.bonus_withheld"

// onChargeSettled accrues the partner's bonus on a succeeded charge of a linked client, when the
// link is active on the day it settled, at the partner's rate of that moment. The charge's
// transaction id makes a replay a no-op. A charge from a client that has since become a partner
// earns nothing (a partner's spend is not a client's); a charge paid with a card the partner's
// company, or its own partner, ever saved earns nothing and is flagged for review (DESIGN §1.13).
func (s *service) onChargeSettled(ctx context.Context, e events.Event) error {
	var p billing.ChargeSettled
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return err
	}
	if p.Status != billing.StatusSucceeded || p.Amount <= 0 {
		return nil
	}
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if _, err := s.store.EntryByTransaction(ctx, p.TransactionID); err == nil {
			return nil // already counted
		} else if !db.IsNotFound(err) {
			return err
		}
		l, err := s.store.LinkOfClient(ctx, p.CompanyID)
		if db.IsNotFound(err) {
			return nil
		} else if err != nil {
			return err
		}
		// The link's days and the bonus month are the business time zone's (DESIGN §1.10).
		at := e.CreatedAt.In(clock.Location(s.deps.Clock))
		day := dates.In(at, at.Location())
		if !active(l, day) {
			return nil
		}
		if client, err := s.store.PartnerByID(ctx, l.ClientID); err == nil && isPartnerType(client.Type) {
			return nil
		} else if err != nil && !db.IsNotFound(err) {
			return err
		}
		partner, err := s.store.PartnerByID(ctx, l.PartnerID)
		if err != nil {
			return err
		}
		if reason, err := s.cardOfPartner(ctx, partner.ID, p.CardFingerprint); err != nil {
			return err
		} else if reason != "" {
			return s.flag(ctx, partner.ID, l.ClientID, p, reason)
		}
		rate, _, err := s.rateBP(ctx, partner.ID, partner.Type)
		if err != nil || rate == 0 {
			return err
		}
		return s.accrue(ctx, l.PartnerID, l.ClientID, p.CampaignRef, at.Year(), int(at.Month()), rate, p.TransactionID, int64(p.Amount))
	})
}

// cardOfPartner says why a charge's card is the partner's own money: a card its company ever
// saved, or one its own partner ever saved (when the partner was itself linked as a client).
func (s *service) cardOfPartner(ctx context.Context, partnerID, fingerprint string) (string, error) {
	if fingerprint == "" {
		return "", nil
	}
	if own, err := s.deps.Billing.FingerprintSavedBy(ctx, fingerprint, partnerID); err != nil || own {
		return FlagOwnCard, err
	}
	up, err := s.store.LinkOfClient(ctx, partnerID)
	if db.IsNotFound(err) {
		return "", nil
	} else if err != nil {
		return "", err
	}
	if theirs, err := s.deps.Billing.FingerprintSavedBy(ctx, fingerprint, up.PartnerID); err != nil || theirs {
		return FlagPartnerCard, err
	}
	return "", nil
}

// flag holds a charge for an admin's review instead of a bonus, audited in the same transaction.
func (s *service) flag(ctx context.Context, partnerID, clientID string, p billing.ChargeSettled, reason string) error {
	f := &store.Flag{ID: ids.New(), TransactionID: p.TransactionID, PartnerID: partnerID, ClientID: clientID, CampaignRef: p.CampaignRef,
		Amount: int64(p.Amount), Reason: reason, CreatedAt: s.deps.Clock.Now()}
	if err := s.store.Create(ctx, f); err != nil {
		return err
	}
	// The entry (with no bonus) makes a replay a no-op and a later refund reverse nothing.
	if err := s.store.Create(ctx, &store.BonusEntry{TransactionID: p.TransactionID, ChargeID: p.TransactionID, BonusID: "", Amount: 0,
		CreatedAt: f.CreatedAt}); err != nil {
		return err
	}
	return s.deps.Audit.Record(ctx, audit.Change{Action: AuditBonusWithheld, ObjectType: "company", ObjectID: partnerID,
		After: map[string]any{"transaction_id": p.TransactionID, "client_id": clientID, "amount": p.Amount, "reason": reason}})
}

// onChargeRefunded reverses the refunded share of a charge's bonus, in the row the charge counted
// in (its month, whatever the link's state today), at the charge's own rate.
func (s *service) onChargeRefunded(ctx context.Context, e events.Event) error {
	var p billing.ChargeRefunded
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return err
	}
	if p.Amount <= 0 {
		return nil
	}
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if _, err := s.store.EntryByTransaction(ctx, p.TransactionID); err == nil {
			return nil
		} else if !db.IsNotFound(err) {
			return err
		}
		charge, err := s.store.EntryByTransaction(ctx, p.ChargeID)
		if db.IsNotFound(err) || (err == nil && charge.BonusID == "") {
			return nil // the charge earned no bonus
		} else if err != nil {
			return err
		}
		b, err := s.store.BonusByIDForUpdate(ctx, charge.BonusID)
		if err != nil {
			return err
		}
		refunded, err := s.store.RefundedOf(ctx, p.ChargeID)
		if err != nil {
			return err
		}
		rate := charge.RateBP
		if rate == 0 {
			rate = b.RateBP // an entry from before per-charge rates
		}
		// The charge's bonus is always round(its net amount × its rate): a refund moves it by the
		// change of that rounded figure, so a full refund takes back exactly what the charge earned.
		before := max(charge.Amount-refunded, 0)
		after := max(before-int64(p.Amount), 0)
		return s.apply(ctx, b, p.TransactionID, p.ChargeID, after-before, bonusOf(after, rate)-bonusOf(before, rate), rate, 0)
	})
}

// accrue adds a charge to its partner/client/campaign/month row, creating the row at the rate.
func (s *service) accrue(ctx context.Context, partnerID, clientID, campaignRef string, year, month, rate int, txID string, amount int64) error {
	b, err := s.store.BonusForUpdate(ctx, partnerID, clientID, campaignRef, year, month)
	if db.IsNotFound(err) {
		now := s.deps.Clock.Now()
		b = &store.Bonus{ID: ids.New(), PartnerID: partnerID, ClientID: clientID, CampaignRef: campaignRef, Year: year, Month: month,
			RateBP: rate, CreatedAt: now, UpdatedAt: now}
		if err := s.store.Create(ctx, b); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	return s.apply(ctx, b, txID, txID, amount, bonusOf(amount, rate), rate, 1)
}

// apply records the entry and moves the row and the partner's total by the entry's bonus cents.
func (s *service) apply(ctx context.Context, b *store.Bonus, txID, chargeID string, amount, bonus int64, rate, charges int) error {
	now := s.deps.Clock.Now()
	if err := s.store.Create(ctx, &store.BonusEntry{TransactionID: txID, ChargeID: chargeID, BonusID: b.ID, Amount: amount,
		Bonus: bonus, RateBP: rate, CreatedAt: now}); err != nil {
		return err
	}
	b.Billed += amount
	b.Bonus += bonus
	b.Charges += charges
	b.UpdatedAt = now
	if err := s.store.SaveBonus(ctx, b); err != nil {
		return err
	}
	return s.store.AddPartnerBonus(ctx, b.PartnerID, bonus)
}
