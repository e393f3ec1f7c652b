package campaigns

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"marquee/modules/billing"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/events"
	"marquee/platform/ids"
	"marquee/platform/money"
	"marquee/platform/retry"
)

// Charging (brief decisions 4 and 5): one charge per campaign per calendar week, recorded in
// campaigns_charges (unique on campaign and week). The creation charges the first week in its own
// transaction; the weekly job charges each later week at the Wednesday cut-off before it. The
// outcome comes back as billing.EventChargeSettled.

// Charge row statuses: billing's pending, succeeded and failed, and skipped for a week of a paused
// campaign that the weekly job released instead of charging.
const (
	ChargePending   = billing.StatusPending
	ChargeSucceeded = billing.StatusSucceeded
	ChargeFailed    = billing.StatusFailed
	ChargeSkipped   = "skipped"
)

// msgNothingToCharge refuses to charge a week in which the campaign has no booked location.
const msgNothingToCharge = "This campaign has no booked locations in that week."

// Billing keys of a campaign week: the card charge, and the account credit it spends.
func chargeKey(campaignID string, week dates.Date) string {
	return "campaign:" + campaignID + ":week:" + week.String()
}

func creditKey(campaignID string, week dates.Date) string {
	return "campaign:" + campaignID + ":credit:" + week.String()
}

// scheduleWeekCharge charges one week of the campaign, in the caller's transaction (or in its own
// when there is none: the credit, the charge and the row commit together). The amount is the week's net from billing.QuoteCampaign: the sum of the offer
// prices of the campaign's active rows in that week, minus the week's even share of the account
// credit over the campaign's booked weeks from this one on (B §9). The credit share is spent with
// billing.SpendCredit; the net is scheduled with billing.ScheduleCharge (SettleCharge, or billing's
// retry job, asks the gateway after the commit). A net of 0 records the week as succeeded without a
// charge. Calling it again for the same week answers the existing row and charges nothing: the
// creation and the weekly job may both reach a week. ECONFLICT when the week has nothing booked;
// EINVALID (billing.MsgCardRequired) without a card on file.
func (s *service) scheduleWeekCharge(ctx context.Context, c *store.Campaign, week dates.Date) (*store.Charge, error) {
	var ch *store.Charge
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		var err error
		ch, err = s.chargeWeek(ctx, c, week)
		return err
	})
	return ch, err
}

// chargeWeek is scheduleWeekCharge inside a transaction.
func (s *service) chargeWeek(ctx context.Context, c *store.Campaign, week dates.Date) (*store.Charge, error) {
	if existing, err := s.store.ChargeOf(ctx, c.ID, week); err == nil {
		return existing, nil
	} else if !db.IsNotFound(err) {
		return nil, apperr.Internal(err)
	}
	rows, err := s.store.WeekRows(ctx, c.ID, week, WeekActive)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	if len(rows) == 0 {
		return nil, apperr.New(apperr.ECONFLICT, msgNothingToCharge)
	}
	prices := make([]money.Cents, len(rows))
	for i := range rows {
		prices[i] = money.Cents(rows[i].OfferPrice)
	}
	if c.MbCampaign && c.MaxBudget > 0 {
		// Maximum budget (B §9): the week costs the daily budget × 7, whatever the faces' prices.
		prices = []money.Cents{weeklyOfDaily(money.Cents(c.MaxBudget))}
	}
	remaining, err := s.store.CountWeeksFrom(ctx, c.ID, week, WeekActive)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	credit, err := s.deps.Billing.AccountCredit(ctx, c.CompanyID)
	if err != nil {
		return nil, err
	}
	wq := billing.QuoteCampaign(prices, credit, max(remaining, 1)).Weeks[0]
	now := s.deps.Clock.Now()
	ch := &store.Charge{ID: ids.New(), CampaignID: c.ID, CompanyID: c.CompanyID, Week: week, Amount: int64(wq.Net),
		Credit: int64(wq.Credit), Status: ChargeSucceeded, CreatedAt: now, UpdatedAt: now}
	desc := fmt.Sprintf("Campaign %s, week of %s", c.Name, week.Format("Jan 02, 2006"))
	if wq.Credit > 0 {
		if _, err := s.deps.Billing.SpendCredit(ctx, billing.CreditRequest{Key: creditKey(c.ID, week), CompanyID: c.CompanyID,
			Amount: wq.Credit, Description: desc, CampaignRef: c.ID}); err != nil {
			return nil, err
		}
	}
	if wq.Net > 0 {
		w := week
		t, err := s.deps.Billing.ScheduleCharge(ctx, billing.ChargeRequest{Key: chargeKey(c.ID, week), CompanyID: c.CompanyID,
			Amount: wq.Net, Description: desc, CampaignRef: c.ID, Week: &w})
		if err != nil {
			return nil, err
		}
		ch.TransactionID, ch.Status = t.ID, ChargePending
	}
	inserted, err := s.store.InsertCharge(ctx, ch)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	if !inserted {
		// Another transaction charged the week first (and, by the billing keys, the same amount).
		return s.store.ChargeOf(ctx, c.ID, week)
	}
	if ch.Status == ChargeSucceeded {
		// Credit covered the week: it is paid now.
		if err := s.store.AddTotalCost(ctx, c.ID, ch.Amount+ch.Credit); err != nil {
			return nil, apperr.Internal(err)
		}
	}
	return ch, nil
}

// subscribe wires the reactions to billing's settled charges: a settled charge activates a campaign, or
// records the failure, or pauses a running campaign.
func (s *service) subscribe() {
	s.deps.Events.Subscribe(billing.EventChargeSettled, s.onChargeSettled)
}

// onChargeSettled records a charge's outcome (brief decision 5). It runs in the dispatcher's
// transaction and is idempotent: the same event again, or an older outcome after a newer one,
// changes nothing.
//   - the first week succeeded: a pending campaign becomes active, payment_status succeeded;
//   - the first week failed: the campaign stays pending with payment_status failed and the
//     gateway's message (the web app retries through PUT /api/transactions/{id});
//   - a later week failed: an active campaign is paused and the advertiser is emailed.
func (s *service) onChargeSettled(ctx context.Context, e events.Event) error {
	var p billing.ChargeSettled
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return err
	}
	if p.CampaignRef == "" || p.Week == nil || !strings.HasPrefix(p.Key, "campaign:") {
		return nil // not a campaign week's charge
	}
	ch, err := s.store.ChargeOf(ctx, p.CampaignRef, *p.Week)
	if db.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	if ch.TransactionID != p.TransactionID || ch.Status == p.Status || ch.Status == ChargeSucceeded || ch.Status == ChargeSkipped {
		return nil // another charge, already recorded, or already paid
	}
	c, err := s.store.CampaignByID(ctx, p.CampaignRef)
	if db.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	now := s.deps.Clock.Now()
	if err := s.store.UpdateCharge(ctx, ch.ID, now, map[string]any{"status": p.Status, "message": retry.Truncate(p.Message, 255)}); err != nil {
		return err
	}
	first := !p.Week.After(c.StartDate)
	switch {
	case p.Status == billing.StatusSucceeded:
		if err := s.store.AddTotalCost(ctx, c.ID, ch.Amount+ch.Credit); err != nil {
			return err
		}
		if !first {
			return nil
		}
		fields := map[string]any{"payment_status": billing.StatusSucceeded, "payment_message": "", "transaction_id": p.TransactionID}
		if c.Status == StatusPending || c.Status == StatusPaid {
			fields["status"] = StatusActive
			s.publishStatus(ctx, c, StatusActive)
		}
		return s.store.UpdateCampaign(ctx, c.ID, now, fields)
	case p.Status == billing.StatusFailed && first:
		return s.store.UpdateCampaign(ctx, c.ID, now, map[string]any{"payment_status": billing.StatusFailed,
			"payment_message": retry.Truncate(p.Message, 255), "transaction_id": p.TransactionID})
	case p.Status == billing.StatusFailed:
		if c.Status != StatusActive {
			return nil
		}
		if err := s.store.UpdateCampaign(ctx, c.ID, now, map[string]any{"status": StatusPaused,
			"payment_status": billing.StatusFailed, "payment_message": retry.Truncate(p.Message, 255), "transaction_id": p.TransactionID}); err != nil {
			return err
		}
		s.publishStatus(ctx, c, StatusPaused)
		s.mailWeekPaymentFailed(ctx, c, *p.Week, p.Message)
		return nil
	}
	return nil
}

// mailWeekPaymentFailed tells the advertiser that a week's payment failed and the campaign is
// paused, through the outbox (in the caller's transaction), as a notification: the pause stands
// even when the email cannot be queued.
func (s *service) mailWeekPaymentFailed(ctx context.Context, c *store.Campaign, week dates.Date, reason string) {
	s.notify(ctx, "mail: week payment failed", func(ctx context.Context) error { return s.queueWeekPaymentFailed(ctx, c, week, reason) })
}

func (s *service) queueWeekPaymentFailed(ctx context.Context, c *store.Campaign, week dates.Date, reason string) error {
	users, err := s.deps.Identity.FindUsersByIDs(ctx, []string{c.UserID})
	if err != nil {
		return err
	}
	if len(users) == 0 || users[0].Local.Email == "" {
		return nil
	}
	u := users[0]
	return s.deps.Outbox.Enqueue(ctx, paymentFailedMail(u.Local.Email, u.Local.FirstName, c, week, reason))
}
