package partners

import (
	"context"
	"encoding/json"

	"marquee/modules/billing"
	"marquee/modules/partners/internal/store"
	"marquee/platform/clock"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/events"
	"marquee/platform/ids"
)

// bonusOf is the bonus on a net billed amount at a rate in basis points, rounded half up to the
// cent: every stored bonus row holds exactly bonusOf(its billed, its rate).
func bonusOf(billed int64, rateBP int) int64 {
	return (billed*int64(rateBP) + 5000) / 10000
}

// onChargeSettled accrues the partner's bonus on a succeeded charge of a linked client, when the
// link is active on the day it settled. The charge's transaction id makes a replay a no-op.
func (m *Module) onChargeSettled(ctx context.Context, e events.Event) error {
	var p billing.ChargeSettled
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return err
	}
	if p.Status != billing.StatusSucceeded || p.Amount <= 0 {
		return nil
	}
	return db.Transact(ctx, m.store.DB(), func(ctx context.Context) error {
		if _, err := m.store.EntryByTransaction(ctx, p.TransactionID); err == nil {
			return nil // already counted
		} else if !db.IsNotFound(err) {
			return err
		}
		l, err := m.store.LinkOfClient(ctx, p.CompanyID)
		if db.IsNotFound(err) {
			return nil
		} else if err != nil {
			return err
		}
		// The link's days and the bonus month are the business time zone's (DESIGN §1.10).
		at := e.CreatedAt.In(clock.Location(m.deps.Clock))
		day := dates.In(at, at.Location())
		if !active(l, day) {
			return nil
		}
		partner, err := m.store.PartnerByID(ctx, l.PartnerID)
		if err != nil {
			return err
		}
		rate := m.rateBP(partner.Type)
		if rate == 0 {
			return nil
		}
		return m.accrue(ctx, l.PartnerID, l.ClientID, p.CampaignRef, at.Year(), int(at.Month()), rate, p.TransactionID, p.TransactionID, int64(p.Amount))
	})
}

// onChargeRefunded reverses the refunded share of a charge's bonus, in the row the charge counted
// in (its month, whatever the link's state today).
func (m *Module) onChargeRefunded(ctx context.Context, e events.Event) error {
	var p billing.ChargeRefunded
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return err
	}
	if p.Amount <= 0 {
		return nil
	}
	return db.Transact(ctx, m.store.DB(), func(ctx context.Context) error {
		if _, err := m.store.EntryByTransaction(ctx, p.TransactionID); err == nil {
			return nil
		} else if !db.IsNotFound(err) {
			return err
		}
		charge, err := m.store.EntryByTransaction(ctx, p.ChargeID)
		if db.IsNotFound(err) {
			return nil // the charge earned no bonus
		} else if err != nil {
			return err
		}
		b, err := m.store.BonusByIDForUpdate(ctx, charge.BonusID)
		if err != nil {
			return err
		}
		return m.apply(ctx, b, p.TransactionID, p.ChargeID, -int64(p.Amount), 0)
	})
}

// accrue adds a charge to its partner/client/campaign/month row, creating the row at the
// partner's current rate.
func (m *Module) accrue(ctx context.Context, partnerID, clientID, campaignRef string, year, month, rate int, txID, chargeID string, amount int64) error {
	b, err := m.store.BonusForUpdate(ctx, partnerID, clientID, campaignRef, year, month)
	if db.IsNotFound(err) {
		now := m.deps.Clock.Now()
		b = &store.Bonus{ID: ids.New(), PartnerID: partnerID, ClientID: clientID, CampaignRef: campaignRef, Year: year, Month: month,
			RateBP: rate, CreatedAt: now, UpdatedAt: now}
		if err := m.store.Create(ctx, b); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	return m.apply(ctx, b, txID, chargeID, amount, 1)
}

// apply records the entry and moves the row and the partner's total by the change of the bonus.
func (m *Module) apply(ctx context.Context, b *store.Bonus, txID, chargeID string, amount int64, charges int) error {
	now := m.deps.Clock.Now()
	if err := m.store.Create(ctx, &store.BonusEntry{TransactionID: txID, ChargeID: chargeID, BonusID: b.ID, Amount: amount, CreatedAt: now}); err != nil {
		return err
	}
	before := b.Bonus
	b.Billed += amount
	if b.Billed < 0 {
		b.Billed = 0 // a refund never exceeds its charge; this only guards the invariant
	}
	b.Bonus = bonusOf(b.Billed, b.RateBP)
	b.Charges += charges
	b.UpdatedAt = now
	if err := m.store.SaveBonus(ctx, b); err != nil {
		return err
	}
	return m.store.AddPartnerBonus(ctx, b.PartnerID, b.Bonus-before)
}
