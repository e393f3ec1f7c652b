package billing

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"marquee/modules/billing/internal/gateway"
	"marquee/modules/billing/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/money"
	"marquee/platform/pagination"
	"marquee/platform/retry"
)

// Retry timing of pending charges and refunds (a gateway that did not answer).
const (
	retryBase  = time.Minute
	retryMax   = time.Hour
	leaseFor   = 2 * time.Minute // one attempt's hold on a transaction; longer than GatewayTimeout
	maxKeySize = 180
)

func txDTO(t *store.Transaction) *Transaction {
	return &Transaction{ID: t.ID, CompanyID: t.CompanyID, Kind: t.Kind, Status: t.Status, Amount: money.Cents(t.Amount),
		Currency: t.Currency, Description: t.Description, CampaignRef: t.CampaignRef, Week: t.Week, GatewayRef: t.GatewayRef,
		FailureMessage: t.FailureMessage, Refunded: money.Cents(t.Refunded), CreatedAt: t.CreatedAt}
}

func checkKey(key string) error {
	if strings.TrimSpace(key) == "" || len(key) > maxKeySize {
		return apperr.Field("key", "A payment needs an idempotency key of at most 180 characters.")
	}
	return nil
}

// gatewayKey is the idempotency key the gateway sees for this attempt (see GatewayAttempt).
func gatewayKey(t *store.Transaction) string { return fmt.Sprintf("%s/%d", t.Key, t.GatewayAttempt) }

// Charge charges the company's card on file, once per key.
func (s *service) Charge(ctx context.Context, req ChargeRequest) (*Transaction, error) {
	if err := checkKey(req.Key); err != nil {
		return nil, err
	}
	if req.Amount <= 0 {
		return nil, apperr.Field("amount", MsgChargeAmount)
	}
	if !ids.Valid(req.CompanyID) {
		return nil, apperr.NotFound(MsgCardNotFound)
	}
	now := s.deps.Clock.Now()
	lease := now.Add(leaseFor)
	row := &store.Transaction{ID: ids.New(), Key: req.Key, CompanyID: req.CompanyID, Kind: KindCharge, Status: StatusPending,
		Amount: int64(req.Amount), Currency: Currency, Description: retry.Truncate(strings.TrimSpace(req.Description), 200), CampaignRef: req.CampaignRef,
		Week: req.Week, Gateway: s.gw.Name(), NextAttemptAt: &now, LockedUntil: &lease, CreatedAt: now, UpdatedAt: now}
	// The unique key decides who charges: one insert wins; every other caller with the key, at
	// the same moment or later, gets that transaction and never reaches the gateway.
	if err := s.store.Create(ctx, row); err != nil {
		if !db.IsDuplicate(err) {
			return nil, apperr.Internal(err)
		}
		prior, err := s.store.TransactionByKey(ctx, req.Key)
		if err != nil {
			return nil, apperr.Internal(err)
		}
		if prior.Kind != KindCharge || prior.CompanyID != req.CompanyID || prior.Amount != int64(req.Amount) {
			return nil, apperr.New(apperr.ECONFLICT, MsgChargeKeyReused)
		}
		return s.outcome(prior)
	}
	return s.attempt(ctx, row)
}

// ScheduleCharge records a pending charge for the retry job or SettleCharge (see Service).
func (s *service) ScheduleCharge(ctx context.Context, req ChargeRequest) (*Transaction, error) {
	if err := checkKey(req.Key); err != nil {
		return nil, err
	}
	if req.Amount <= 0 {
		return nil, apperr.Field("amount", MsgChargeAmount)
	}
	if !ids.Valid(req.CompanyID) {
		return nil, apperr.Field("card", MsgCardRequired)
	}
	if prior, err := s.store.TransactionByKey(ctx, req.Key); err == nil {
		if prior.Kind != KindCharge || prior.CompanyID != req.CompanyID || prior.Amount != int64(req.Amount) {
			return nil, apperr.New(apperr.ECONFLICT, MsgChargeKeyReused)
		}
		return txDTO(prior), nil
	} else if !db.IsNotFound(err) {
		return nil, apperr.Internal(err)
	}
	card, err := s.store.CardByCompany(ctx, req.CompanyID)
	if db.IsNotFound(err) || (err == nil && card.Gateway != s.gw.Name()) {
		return nil, apperr.Field("card", MsgCardRequired)
	} else if err != nil {
		return nil, apperr.Internal(err)
	}
	now := s.deps.Clock.Now()
	row := &store.Transaction{ID: ids.New(), Key: req.Key, CompanyID: req.CompanyID, Kind: KindCharge, Status: StatusPending,
		Amount: int64(req.Amount), Currency: Currency, Description: retry.Truncate(strings.TrimSpace(req.Description), 200), CampaignRef: req.CampaignRef,
		Week: req.Week, Gateway: s.gw.Name(), NextAttemptAt: &now, CreatedAt: now, UpdatedAt: now}
	if err := s.store.Create(ctx, row); err != nil {
		// A concurrent caller with the same key inserted first: inside a transaction the failed
		// insert may have aborted it (PostgreSQL), so the caller retries as a whole.
		if db.IsDuplicate(err) {
			return nil, apperr.New(apperr.ECONFLICT, MsgChargeKeyReused)
		}
		return nil, apperr.Internal(err)
	}
	return txDTO(row), nil
}

// SettleCharge asks the gateway now for a scheduled charge (see Service).
func (s *service) SettleCharge(ctx context.Context, transactionID string) (*Transaction, error) {
	t, err := s.findTransaction(ctx, transactionID, "", true)
	if err != nil {
		return nil, err
	}
	if t.Kind != KindCharge || t.Status != StatusPending {
		return txDTO(t), nil
	}
	now := s.deps.Clock.Now()
	held, err := s.store.ClaimTransaction(ctx, t.ID, now, now.Add(leaseFor))
	if err != nil {
		return nil, apperr.Internal(err)
	}
	if t, err = s.store.TransactionByID(ctx, t.ID); err != nil {
		return nil, apperr.Internal(err)
	}
	if !held {
		return txDTO(t), nil
	}
	return s.attempt(ctx, t)
}

// outcome answers a transaction as its caller sees it: a failed charge carries the gateway's
// message as a card error.
func (s *service) outcome(t *store.Transaction) (*Transaction, error) {
	if t.Status == StatusFailed && t.Kind == KindCharge {
		return txDTO(t), cardError(&CardError{Code: CodeCardDeclined, Message: t.FailureMessage})
	}
	return txDTO(t), nil
}

// attempt asks the gateway once for a charge or refund the caller holds the lease on, and records
// the outcome: succeeded; failed with the gateway's message (a later retry uses a new gateway
// key); or still pending when the gateway did not answer (the retry job asks again with the same
// key, so the card is charged once).
func (s *service) attempt(ctx context.Context, t *store.Transaction) (*Transaction, error) {
	gctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.deps.GatewayTimeout)
	defer cancel()
	var ref string
	var err error
	switch t.Kind {
	case KindCharge:
		var card *store.Card
		card, err = s.store.CardByCompany(ctx, t.CompanyID)
		if db.IsNotFound(err) || (err == nil && card.Gateway != s.gw.Name()) {
			// No card, or one saved by the other gateway before a switch: the company must add one.
			err = &gateway.CardError{Code: "missing_card", Message: MsgCardRequired}
		} else if err == nil {
			t.CardFingerprint = card.Fingerprint
			ref, err = s.gw.Charge(gctx, gateway.ChargeRequest{CustomerRef: card.CustomerRef, CardRef: card.CardRef,
				Amount: money.Cents(t.Amount), Currency: t.Currency, Description: t.Description, IdempotencyKey: gatewayKey(t)})
		}
	case KindRefund:
		var parent *store.Transaction
		parent, err = s.store.TransactionByID(ctx, t.ParentID)
		if err == nil && parent.Gateway != s.gw.Name() {
			// Charged through the other gateway, before a switch: only that gateway can refund it.
			err = &gateway.CardError{Code: "gateway_changed", Message: MsgRefundOtherGateway}
		} else if err == nil {
			ref, err = s.gw.Refund(gctx, gateway.RefundRequest{ChargeRef: parent.GatewayRef, Amount: money.Cents(t.Amount), IdempotencyKey: gatewayKey(t)})
		}
	default:
		return nil, apperr.Internal(fmt.Errorf("attempt on a %s transaction", t.Kind))
	}
	now := s.deps.Clock.Now()
	t.Attempts++
	t.LockedUntil, t.UpdatedAt = nil, now
	var ce *gateway.CardError
	switch {
	case err == nil:
		t.Status, t.GatewayRef, t.FailureMessage, t.NextAttemptAt = StatusSucceeded, ref, "", nil
	case errors.As(err, &ce):
		t.Status, t.FailureMessage, t.NextAttemptAt = StatusFailed, retry.Truncate(strings.TrimSpace(ce.Message), 255), nil
		t.GatewayAttempt++
	default:
		// Unknown outcome (timeout, outage, or a bug): stay pending and ask again later with the
		// same gateway key.
		t.Status = StatusPending
		next := now.Add(retry.Backoff(t.Attempts, retryBase, retryMax))
		t.NextAttemptAt = &next
	}
	saveErr := s.store.Transact(ctx, func(ctx context.Context) error {
		if t.Kind == KindRefund && t.Status == StatusFailed {
			// The refund did not happen: give its amount back to the charge.
			if _, err := s.store.AddRefunded(ctx, t.ParentID, -t.Amount); err != nil {
				return err
			}
		}
		if err := s.store.RecordAttempt(ctx, t); err != nil {
			return err
		}
		if t.Kind == KindRefund && t.Status == StatusSucceeded {
			if err := s.deps.Events.Publish(ctx, EventChargeRefunded, ChargeRefunded{TransactionID: t.ID, ChargeID: t.ParentID,
				CompanyID: t.CompanyID, CampaignRef: t.CampaignRef, Amount: money.Cents(t.Amount)}); err != nil {
				return err
			}
		}
		if t.Kind == KindCharge && t.Status != StatusPending {
			return s.deps.Events.Publish(ctx, EventChargeSettled, ChargeSettled{TransactionID: t.ID, Key: t.Key,
				CompanyID: t.CompanyID, CampaignRef: t.CampaignRef, Week: t.Week, Amount: money.Cents(t.Amount),
				Status: t.Status, Message: t.FailureMessage, CardFingerprint: t.CardFingerprint})
		}
		return nil
	})
	if saveErr != nil {
		return nil, apperr.Internal(saveErr)
	}
	if t.Status != StatusPending {
		s.deps.Metrics.Settled(t.Kind, t.Status)
	}
	if ce != nil {
		return txDTO(t), cardError(ce)
	}
	return txDTO(t), nil
}

// processTransaction retries a pending or failed charge of the caller's company (PUT
// /api/transactions/{id}); an admin may retry any. A succeeded one is answered as it is.
// A refused card answers 402 with the gateway's message (shown for 5000 ms, B §8).
func (s *service) processTransaction(ctx context.Context, p *auth.Principal, id string) (*Transaction, error) {
	t, err := s.findTransaction(ctx, id, p.CompanyID, p.IsAdmin())
	if err != nil {
		return nil, err
	}
	if t.Kind == KindCredit {
		return txDTO(t), nil
	}
	if t.Status == StatusSucceeded {
		return txDTO(t), nil
	}
	now := s.deps.Clock.Now()
	held, err := s.store.ClaimTransaction(ctx, t.ID, now, now.Add(leaseFor))
	if err != nil {
		return nil, apperr.Internal(err)
	}
	if !held {
		// Someone else is asking the gateway right now (a double click, or the retry job).
		if t, err = s.store.TransactionByID(ctx, t.ID); err != nil {
			return nil, apperr.Internal(err)
		}
		return txDTO(t), nil
	}
	if t, err = s.store.TransactionByID(ctx, t.ID); err != nil {
		return nil, apperr.Internal(err)
	}
	return s.attempt(ctx, t)
}

func (s *service) findTransaction(ctx context.Context, id, companyID string, admin bool) (*store.Transaction, error) {
	if !ids.Valid(id) {
		return nil, apperr.NotFound(MsgTransactionNotFound)
	}
	t, err := s.store.TransactionByID(ctx, id)
	if err != nil {
		return nil, db.Translate(err, MsgTransactionNotFound, "")
	}
	if t.CompanyID != companyID && !admin {
		return nil, apperr.NotFound(MsgTransactionNotFound)
	}
	return t, nil
}

// retryPending is one pass of the retry job: every pending charge or refund that is due gets one
// more attempt with its gateway key. It returns how many it attempted.
func (s *service) retryPending(ctx context.Context) (int, error) {
	now := s.deps.Clock.Now()
	due, err := s.store.DueTransactions(ctx, now, 100)
	if err != nil {
		return 0, err
	}
	n := 0
	for i := range due {
		held, err := s.store.ClaimTransaction(ctx, due[i].ID, now, now.Add(leaseFor))
		if err != nil {
			return n, err
		}
		if !held {
			continue
		}
		n++
		if _, err := s.attempt(ctx, &due[i]); err != nil && apperr.CodeOf(err) == apperr.EINTERNAL {
			return n, err
		}
	}
	return n, nil
}

// Refund refunds a succeeded charge, once per key.
func (s *service) Refund(ctx context.Context, req RefundRequest) (*Transaction, error) {
	if err := checkKey(req.Key); err != nil {
		return nil, err
	}
	if req.Amount < 0 {
		return nil, apperr.Field("amount", MsgRefundTooLarge)
	}
	if !ids.Valid(req.TransactionID) {
		return nil, apperr.NotFound(MsgTransactionNotFound)
	}
	if prior, err := s.store.TransactionByKey(ctx, req.Key); err == nil {
		if prior.Kind != KindRefund || prior.ParentID != req.TransactionID {
			return nil, apperr.New(apperr.ECONFLICT, MsgChargeKeyReused)
		}
		return txDTO(prior), nil
	}
	now := s.deps.Clock.Now()
	lease := now.Add(leaseFor)
	var row *store.Transaction
	err := s.store.Transact(ctx, func(ctx context.Context) error {
		charge, err := s.store.TransactionByID(ctx, req.TransactionID)
		if err != nil {
			return db.Translate(err, MsgTransactionNotFound, "") // an outage is not a 404
		}
		if charge.Kind != KindCharge {
			return apperr.NotFound(MsgTransactionNotFound)
		}
		if charge.Status != StatusSucceeded {
			return apperr.New(apperr.ECONFLICT, MsgRefundNotCharged)
		}
		amount := int64(req.Amount)
		if amount == 0 {
			amount = charge.Amount - charge.Refunded
		}
		if amount <= 0 {
			return apperr.New(apperr.ECONFLICT, MsgRefundTooLarge)
		}
		ok, err := s.store.AddRefunded(ctx, charge.ID, amount)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.New(apperr.ECONFLICT, MsgRefundTooLarge)
		}
		row = &store.Transaction{ID: ids.New(), Key: req.Key, CompanyID: charge.CompanyID, Kind: KindRefund, Status: StatusPending,
			Amount: amount, Currency: charge.Currency, Description: retry.Truncate(strings.TrimSpace("Refund: "+charge.Description), 200),
			CampaignRef: charge.CampaignRef, Week: charge.Week, ParentID: charge.ID, Gateway: charge.Gateway,
			NextAttemptAt: &now, LockedUntil: &lease, CreatedAt: now, UpdatedAt: now}
		return s.store.Create(ctx, row)
	})
	if err != nil {
		if db.IsDuplicate(err) {
			// The same key at the same moment: the other call made the refund.
			prior, err := s.store.TransactionByKey(ctx, req.Key)
			if err != nil {
				return nil, apperr.Internal(err)
			}
			return txDTO(prior), nil
		}
		return nil, db.Translate(err, MsgTransactionNotFound, MsgChargeKeyReused)
	}
	return s.attempt(ctx, row)
}

// FindCampaignCharges returns the campaign's charges and refunds, oldest first.
func (s *service) FindCampaignCharges(ctx context.Context, companyID, campaignRef string) ([]*Transaction, error) {
	if campaignRef == "" {
		return nil, apperr.Field("campaign_ref", "A campaign is required.")
	}
	rows, err := s.store.CampaignTransactions(ctx, companyID, campaignRef, []string{KindCharge, KindRefund})
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]*Transaction, len(rows))
	for i := range rows {
		out[i] = txDTO(&rows[i])
	}
	return out, nil
}

// ledgerPage is the admin ledger's list rules: newest first.
var ledgerPage = pagination.Spec{PageSizes: []int{50, 75, 100, 0}, DefaultSize: 50,
	Sortable: map[string]string{"created_at": "created_at", "amount": "amount"}, DefaultSort: "-created_at"}

// ledger returns one page of the admin ledger, with company names.
func (s *service) ledger(ctx context.Context, f TransactionFilter, p pagination.Params) (pagination.Page[*Transaction], error) {
	rows, total, err := s.store.Transactions(ctx, store.TransactionFilter{CompanyID: f.CompanyID, CampaignRef: f.CampaignRef}, p.Apply)
	if err != nil {
		return pagination.Page[*Transaction]{}, apperr.Internal(err)
	}
	out := make([]*Transaction, len(rows))
	companyIDs := make([]string, 0, len(rows))
	for i := range rows {
		out[i] = txDTO(&rows[i])
		companyIDs = append(companyIDs, rows[i].CompanyID)
	}
	names, err := s.companyNames(ctx, companyIDs)
	if err != nil {
		return pagination.Page[*Transaction]{}, err
	}
	for _, t := range out {
		t.CompanyName = names[t.CompanyID]
	}
	return pagination.Envelope(out, total, p), nil
}

// companyNames names companies in one call to identity.
func (s *service) companyNames(ctx context.Context, companyIDs []string) (map[string]string, error) {
	names := map[string]string{}
	if len(companyIDs) == 0 {
		return names, nil
	}
	seen := map[string]bool{}
	uniq := make([]string, 0, len(companyIDs))
	for _, id := range companyIDs {
		if !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	cs, err := s.deps.Companies.FindCompaniesByIDs(ctx, uniq)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		names[c.ID] = c.Name
	}
	return names, nil
}

// FindBillingSummaries returns the admin company grid's billing columns.
func (s *service) FindBillingSummaries(ctx context.Context, companyIDs []string) (map[string]BillingSummary, error) {
	out := map[string]BillingSummary{}
	if len(companyIDs) == 0 {
		return out, nil
	}
	cards, err := s.store.CardCompanies(ctx, companyIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	credit, err := s.store.CreditBalances(ctx, companyIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	spend, pending, err := s.store.SpendByCompany(ctx, companyIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	for _, id := range companyIDs {
		out[id] = BillingSummary{CardOnFile: cards[id], AccountCredit: money.Cents(credit[id]),
			TotalSpend: money.Cents(spend[id]), AmountPending: money.Cents(pending[id])}
	}
	return out, nil
}
