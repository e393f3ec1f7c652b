package billing

import (
	"context"
	"strings"

	"marquee/modules/billing/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/money"
	"marquee/platform/retry"
)

// AccountCredit returns the company's account credit: the sum of its credit movements, kept in
// billing_credit_balances.
func (s *service) AccountCredit(ctx context.Context, companyID string) (money.Cents, error) {
	m, err := s.store.CreditBalances(ctx, []string{companyID})
	if err != nil {
		return 0, apperr.Internal(err)
	}
	return money.Cents(m[companyID]), nil
}

// SpendCredit deducts credit, once per key; never below zero.
func (s *service) SpendCredit(ctx context.Context, req CreditRequest) (*Transaction, error) {
	return s.moveCredit(ctx, req, -1)
}

// ApplyCredit adds credit, once per key.
func (s *service) ApplyCredit(ctx context.Context, req CreditRequest) (*Transaction, error) {
	return s.moveCredit(ctx, req, 1)
}

// checkCredit checks a credit movement's key, amount and company.
func checkCredit(req CreditRequest) error {
	if err := checkKey(req.Key); err != nil {
		return err
	}
	if req.Amount <= 0 {
		return apperr.Field("amount", MsgChargeAmount)
	}
	if !ids.Valid(req.CompanyID) {
		return apperr.NotFound("Company not found.")
	}
	return nil
}

func (s *service) moveCredit(ctx context.Context, req CreditRequest, sign int64) (*Transaction, error) {
	if err := checkCredit(req); err != nil {
		return nil, err
	}
	// A repeated key answers the first movement. The check spares a caller's own transaction the
	// duplicate-key error; the unique key still decides between concurrent callers.
	if prior, err := s.store.TransactionByKey(ctx, req.Key); err == nil {
		if prior.Kind != KindCredit || prior.CompanyID != req.CompanyID || prior.Amount != sign*int64(req.Amount) {
			return nil, apperr.New(apperr.ECONFLICT, MsgChargeKeyReused)
		}
		return txDTO(prior), nil
	}
	var row *store.Transaction
	err := s.store.Transact(ctx, func(ctx context.Context) error {
		var err error
		row, err = s.recordCredit(ctx, creditEntry{key: req.Key, companyID: req.CompanyID, amount: sign * int64(req.Amount),
			description: req.Description, campaignRef: req.CampaignRef, week: req.Week})
		return err
	})
	if err != nil {
		if db.IsDuplicate(err) {
			prior, err := s.store.TransactionByKey(ctx, req.Key)
			if err != nil {
				return nil, apperr.Internal(err)
			}
			if prior.Kind != KindCredit || prior.CompanyID != req.CompanyID || prior.Amount != sign*int64(req.Amount) {
				return nil, apperr.New(apperr.ECONFLICT, MsgChargeKeyReused)
			}
			return txDTO(prior), nil
		}
		return nil, db.Translate(err, "", MsgChargeKeyReused)
	}
	return txDTO(row), nil
}

// creditEntry is one movement of account credit.
type creditEntry struct {
	key, companyID, description, campaignRef, promoID string
	amount                                            int64 // signed cents
	week                                              *dates.Date
}

// recordCredit writes a credit movement to the ledger and the balance, in the caller's
// transaction. A spend larger than the balance is ECONFLICT; a reused key is a duplicate error.
func (s *service) recordCredit(ctx context.Context, e creditEntry) (*store.Transaction, error) {
	now := s.deps.Clock.Now()
	row := &store.Transaction{ID: ids.New(), Key: e.key, CompanyID: e.companyID, Kind: KindCredit, Status: StatusSucceeded,
		Amount: e.amount, Currency: Currency, Description: retry.Truncate(strings.TrimSpace(e.description), 200), CampaignRef: e.campaignRef,
		PromoID: e.promoID, Week: e.week, CreatedAt: now, UpdatedAt: now}
	if err := s.store.Create(ctx, row); err != nil {
		return nil, err
	}
	ok, err := s.store.AddCredit(ctx, e.companyID, e.amount, now)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.New(apperr.ECONFLICT, MsgCreditInsufficient)
	}
	return row, nil
}

// ReclaimCredit takes back up to req.Amount, clamped to the balance. The balance moves first, by a
// conditional update (balance >= take); when a concurrent spend got there first, the balance is
// read again and the smaller take tried, so the credit is never negative and never over-taken.
func (s *service) ReclaimCredit(ctx context.Context, req CreditRequest) (*Transaction, error) {
	if err := checkCredit(req); err != nil {
		return nil, err
	}
	if prior, err := s.store.TransactionByKey(ctx, req.Key); err == nil {
		if prior.Kind != KindCredit || prior.CompanyID != req.CompanyID || prior.Amount > 0 || -prior.Amount > int64(req.Amount) {
			return nil, apperr.New(apperr.ECONFLICT, MsgChargeKeyReused)
		}
		return txDTO(prior), nil
	}
	out := &Transaction{CompanyID: req.CompanyID, Kind: KindCredit, Status: StatusSucceeded, Currency: Currency,
		Description: req.Description, CampaignRef: req.CampaignRef, Week: req.Week}
	err := s.store.Transact(ctx, func(ctx context.Context) error {
		for attempt := 0; attempt < 20; attempt++ {
			bal, err := s.store.CreditBalances(ctx, []string{req.CompanyID})
			if err != nil {
				return err
			}
			take := min(bal[req.CompanyID], int64(req.Amount))
			if take <= 0 {
				return nil
			}
			now := s.deps.Clock.Now()
			ok, err := s.store.AddCredit(ctx, req.CompanyID, -take, now)
			if err != nil {
				return err
			}
			if !ok {
				continue // spent meanwhile: read the balance again
			}
			row := &store.Transaction{ID: ids.New(), Key: req.Key, CompanyID: req.CompanyID, Kind: KindCredit, Status: StatusSucceeded,
				Amount: -take, Currency: Currency, Description: retry.Truncate(strings.TrimSpace(req.Description), 200), CampaignRef: req.CampaignRef,
				Week: req.Week, CreatedAt: now, UpdatedAt: now}
			if err := s.store.Create(ctx, row); err != nil {
				return err
			}
			out = txDTO(row)
			return nil
		}
		return apperr.New(apperr.ECONFLICT, MsgCreditInsufficient)
	})
	if err != nil {
		return nil, db.Translate(err, "", MsgChargeKeyReused)
	}
	return out, nil
}
