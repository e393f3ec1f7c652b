// Package store holds the billing tables and their queries. It is internal: no other module can
// reach these rows.
package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"marquee/platform/dates"
	"marquee/platform/db"
)

// Customer is a row of billing_customers: the company's customer at the gateway.
type Customer struct {
	CompanyID   string    `gorm:"primaryKey;size:36"`
	Gateway     string    `gorm:"primaryKey;size:16"`
	CustomerRef string    `gorm:"size:64;not null"`
	CreatedAt   time.Time `gorm:"not null"`
}

func (Customer) TableName() string { return "billing_customers" }

// Card is a row of billing_cards: the company's one card on file.
type Card struct {
	ID          string `gorm:"primaryKey;size:36"`
	CompanyID   string `gorm:"size:36;not null;uniqueIndex"`
	Gateway     string `gorm:"size:16;not null"`
	CustomerRef string `gorm:"size:64;not null"`
	CardRef     string `gorm:"size:64;not null"`
	Brand       string `gorm:"size:16;not null"`
	Last4       string `gorm:"size:4;not null"`
	ExpMonth    int    `gorm:"not null"`
	ExpYear     int    `gorm:"not null"`
	// Fingerprint is the gateway's fingerprint of the card number (Stripe's card.fingerprint; the
	// sandbox's derived from the number): the same card saved by two companies has one fingerprint.
	Fingerprint string    `gorm:"size:64;not null;default:''"`
	CreatedAt   time.Time `gorm:"not null"`
	UpdatedAt   time.Time `gorm:"not null;autoUpdateTime:false"` // set from the injected clock
}

func (Card) TableName() string { return "billing_cards" }

// CardFingerprint is a row of billing_card_fingerprints: a card fingerprint a company ever saved.
// A card on file is replaced or removed; this row stays, so "ever saved by" holds (DESIGN §1.13).
type CardFingerprint struct {
	Fingerprint string    `gorm:"primaryKey;size:64"`
	CompanyID   string    `gorm:"primaryKey;size:36;index:billing_card_fingerprints_company"`
	CreatedAt   time.Time `gorm:"not null"`
}

func (CardFingerprint) TableName() string { return "billing_card_fingerprints" }

// Transaction is a row of billing_transactions, the ledger: charges, refunds and credit movements.
// Key is unique: a charge, refund or credit movement asked twice with one key exists once.
type Transaction struct {
	ID             string      `gorm:"primaryKey;size:36"`
	Key            string      `gorm:"column:idempotency_key;size:200;not null;uniqueIndex"`
	CompanyID      string      `gorm:"size:36;not null;index"`
	Kind           string      `gorm:"size:8;not null"`
	Status         string      `gorm:"size:10;not null;index"`
	Amount         int64       `gorm:"not null"` // cents; credit movements are signed
	Refunded       int64       `gorm:"not null;default:0"`
	Currency       string      `gorm:"size:3;not null"`
	Description    string      `gorm:"size:200;not null;default:''"`
	CampaignRef    string      `gorm:"size:36;not null;default:'';index"`
	Week           *dates.Date `gorm:"type:varchar(10)"`
	ParentID       string      `gorm:"size:36;not null;default:''"` // a refund's charge
	PromoID        string      `gorm:"size:36;not null;default:''"`
	Gateway        string      `gorm:"size:16;not null;default:''"`
	GatewayRef     string      `gorm:"size:64;not null;default:''"`
	FailureMessage string      `gorm:"size:255;not null;default:''"`
	Attempts       int         `gorm:"not null;default:0"`
	// CardFingerprint is the fingerprint of the card a charge was attempted with.
	CardFingerprint string `gorm:"size:64;not null;default:''"`
	// GatewayAttempt numbers the gateway idempotency key (Key/GatewayAttempt): a timeout retries
	// with the same one; a definitive failure moves to the next, so a retry after a refusal is a
	// new request at the gateway and not the stored refusal.
	GatewayAttempt int        `gorm:"not null;default:0"`
	NextAttemptAt  *time.Time `gorm:"index"`
	LockedUntil    *time.Time
	CreatedAt      time.Time `gorm:"not null;index"`
	UpdatedAt      time.Time `gorm:"not null;autoUpdateTime:false"` // set from the injected clock
}

func (Transaction) TableName() string { return "billing_transactions" }

// CreditBalance is a row of billing_credit_balances: the sum of the company's credit movements,
// kept beside the ledger so that spending is one conditional update (never below zero).
type CreditBalance struct {
	CompanyID string    `gorm:"primaryKey;size:36"`
	Balance   int64     `gorm:"not null;default:0"`
	UpdatedAt time.Time `gorm:"not null"`
}

func (CreditBalance) TableName() string { return "billing_credit_balances" }

// Promo is a row of billing_promos. Code is stored upper-cased and unique.
type Promo struct {
	ID          string `gorm:"primaryKey;size:36"`
	Code        string `gorm:"size:32;not null;uniqueIndex"`
	Value       int64  `gorm:"not null"`
	Status      string `gorm:"size:10;not null"` // active or cancelled
	MaxCount    int    `gorm:"not null"`
	RedeemCount int    `gorm:"not null;default:0"`
	// CompanyID, when set, is the only company that may redeem the promo (the exam's reward).
	CompanyID string    `gorm:"size:36;not null;default:''"`
	CreatedAt time.Time `gorm:"not null;index"`
	UpdatedAt time.Time `gorm:"not null"`
}

func (Promo) TableName() string { return "billing_promos" }

// Redemption is a row of billing_promo_redemptions: unique per promo and company (a company redeems
// a code once).
type Redemption struct {
	ID            string `gorm:"primaryKey;size:36"`
	PromoID       string `gorm:"size:36;not null;uniqueIndex:billing_redemption_once,priority:1"`
	CompanyID     string `gorm:"size:36;not null;uniqueIndex:billing_redemption_once,priority:2;index"`
	Amount        int64  `gorm:"not null"`
	TransactionID string `gorm:"size:36;not null"`
	RemovedAt     *time.Time
	CreatedAt     time.Time `gorm:"not null"`
}

func (Redemption) TableName() string { return "billing_promo_redemptions" }

// Migrations of the billing tables. Never edit a landed migration; add one. Each creates its tables
// from its own snapshot of the rows, so a later change to a row never changes what it does.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID: "billing-0001-cards-transactions-credit-promos",
		Migrate: func(tx *gorm.DB) error {
			return tx.Migrator().CreateTable(&customer0001{}, &card0001{}, &transaction0001{}, &creditBalance0001{},
				&promo0001{}, &redemption0001{})
		},
		Rollback: func(tx *gorm.DB) error {
			return tx.Migrator().DropTable("billing_promo_redemptions", "billing_promos", "billing_credit_balances",
				"billing_transactions", "billing_cards", "billing_customers")
		},
	}, {
		// Card fingerprints (on the card, on each charge, and every one a company ever saved), so that
		// a card earns one referral credit and a partner's own card earns no bonus (DESIGN §1.13);
		// and promos reserved to one company (the exam's reward).
		ID: "billing-0003-card-fingerprints-company-promos",
		Migrate: func(tx *gorm.DB) error {
			type card0003 struct {
				Fingerprint string `gorm:"size:64;not null;default:''"`
			}
			type transaction0003 struct {
				CardFingerprint string `gorm:"size:64;not null;default:''"`
			}
			type promo0003 struct {
				CompanyID string `gorm:"size:36;not null;default:''"`
			}
			type cardFingerprint0003 struct {
				Fingerprint string    `gorm:"primaryKey;size:64"`
				CompanyID   string    `gorm:"primaryKey;size:36;index:billing_card_fingerprints_company"`
				CreatedAt   time.Time `gorm:"not null"`
			}
			// A database made while billing-0001 created its tables from the live rows has these
			// columns already.
			for _, c := range []struct {
				table, field string
				model        any
			}{{"billing_cards", "Fingerprint", &card0003{}}, {"billing_transactions", "CardFingerprint", &transaction0003{}},
				{"billing_promos", "CompanyID", &promo0003{}}} {
				if m := tx.Table(c.table).Migrator(); !m.HasColumn(c.model, c.field) {
					if err := m.AddColumn(c.model, c.field); err != nil {
						return err
					}
				}
			}
			return tx.Table("billing_card_fingerprints").Migrator().CreateTable(&cardFingerprint0003{})
		},
		Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("billing_card_fingerprints") },
	}}
}

// The rows as billing-0001 created them (the card fingerprints and the promo's company came with
// billing-0003).
type customer0001 struct {
	CompanyID   string    `gorm:"primaryKey;size:36"`
	Gateway     string    `gorm:"primaryKey;size:16"`
	CustomerRef string    `gorm:"size:64;not null"`
	CreatedAt   time.Time `gorm:"not null"`
}

func (customer0001) TableName() string { return "billing_customers" }

type card0001 struct {
	ID          string    `gorm:"primaryKey;size:36"`
	CompanyID   string    `gorm:"size:36;not null;uniqueIndex"`
	Gateway     string    `gorm:"size:16;not null"`
	CustomerRef string    `gorm:"size:64;not null"`
	CardRef     string    `gorm:"size:64;not null"`
	Brand       string    `gorm:"size:16;not null"`
	Last4       string    `gorm:"size:4;not null"`
	ExpMonth    int       `gorm:"not null"`
	ExpYear     int       `gorm:"not null"`
	CreatedAt   time.Time `gorm:"not null"`
	UpdatedAt   time.Time `gorm:"not null;autoUpdateTime:false"`
}

func (card0001) TableName() string { return "billing_cards" }

type transaction0001 struct {
	ID             string      `gorm:"primaryKey;size:36"`
	Key            string      `gorm:"column:idempotency_key;size:200;not null;uniqueIndex"`
	CompanyID      string      `gorm:"size:36;not null;index"`
	Kind           string      `gorm:"size:8;not null"`
	Status         string      `gorm:"size:10;not null;index"`
	Amount         int64       `gorm:"not null"`
	Refunded       int64       `gorm:"not null;default:0"`
	Currency       string      `gorm:"size:3;not null"`
	Description    string      `gorm:"size:200;not null;default:''"`
	CampaignRef    string      `gorm:"size:36;not null;default:'';index"`
	Week           *dates.Date `gorm:"type:varchar(10)"`
	ParentID       string      `gorm:"size:36;not null;default:''"`
	PromoID        string      `gorm:"size:36;not null;default:''"`
	Gateway        string      `gorm:"size:16;not null;default:''"`
	GatewayRef     string      `gorm:"size:64;not null;default:''"`
	FailureMessage string      `gorm:"size:255;not null;default:''"`
	Attempts       int         `gorm:"not null;default:0"`
	GatewayAttempt int         `gorm:"not null;default:0"`
	NextAttemptAt  *time.Time  `gorm:"index"`
	LockedUntil    *time.Time
	CreatedAt      time.Time `gorm:"not null;index"`
	UpdatedAt      time.Time `gorm:"not null;autoUpdateTime:false"`
}

func (transaction0001) TableName() string { return "billing_transactions" }

type creditBalance0001 struct {
	CompanyID string    `gorm:"primaryKey;size:36"`
	Balance   int64     `gorm:"not null;default:0"`
	UpdatedAt time.Time `gorm:"not null"`
}

func (creditBalance0001) TableName() string { return "billing_credit_balances" }

type promo0001 struct {
	ID          string    `gorm:"primaryKey;size:36"`
	Code        string    `gorm:"size:32;not null;uniqueIndex"`
	Value       int64     `gorm:"not null"`
	Status      string    `gorm:"size:10;not null"`
	MaxCount    int       `gorm:"not null"`
	RedeemCount int       `gorm:"not null;default:0"`
	CreatedAt   time.Time `gorm:"not null;index"`
	UpdatedAt   time.Time `gorm:"not null"`
}

func (promo0001) TableName() string { return "billing_promos" }

type redemption0001 struct {
	ID            string `gorm:"primaryKey;size:36"`
	PromoID       string `gorm:"size:36;not null;uniqueIndex:billing_redemption_once,priority:1"`
	CompanyID     string `gorm:"size:36;not null;uniqueIndex:billing_redemption_once,priority:2;index"`
	Amount        int64  `gorm:"not null"`
	TransactionID string `gorm:"size:36;not null"`
	RemovedAt     *time.Time
	CreatedAt     time.Time `gorm:"not null"`
}

func (redemption0001) TableName() string { return "billing_promo_redemptions" }

// Store runs the billing queries.
type Store struct{ db *gorm.DB }

// New returns the store.
func New(gdb *gorm.DB) *Store { return &Store{db: gdb} }

// Transact runs fn in one transaction on the store's database (platform/db.Transact: a call
// already inside one joins it), so the service's queries commit together.
func (s *Store) Transact(ctx context.Context, fn func(ctx context.Context) error) error {
	return db.Transact(ctx, s.db, fn)
}

func (s *Store) conn(ctx context.Context) *gorm.DB { return db.Conn(ctx, s.db) }

// Create inserts a row.
func (s *Store) Create(ctx context.Context, row any) error { return s.conn(ctx).Create(row).Error }

// Save updates every column of a row.
func (s *Store) Save(ctx context.Context, row any) error { return s.conn(ctx).Save(row).Error }

// Customer returns the company's customer at the gateway, or gorm.ErrRecordNotFound.
func (s *Store) Customer(ctx context.Context, companyID, gateway string) (*Customer, error) {
	var c Customer
	err := s.conn(ctx).Where("company_id = ? AND gateway = ?", companyID, gateway).Take(&c).Error
	return &c, err
}

// SaveCustomer records the company's customer unless one exists.
func (s *Store) SaveCustomer(ctx context.Context, c *Customer) error {
	return s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(c).Error
}

// CardByCompany returns the company's card, or gorm.ErrRecordNotFound.
func (s *Store) CardByCompany(ctx context.Context, companyID string) (*Card, error) {
	var c Card
	err := s.conn(ctx).Where("company_id = ?", companyID).Take(&c).Error
	return &c, err
}

// CardByID returns a card, or gorm.ErrRecordNotFound.
func (s *Store) CardByID(ctx context.Context, id string) (*Card, error) {
	var c Card
	err := s.conn(ctx).Where("id = ?", id).Take(&c).Error
	return &c, err
}

// ReplaceCard makes c the company's card on file, removing the one before; it returns the old one.
func (s *Store) ReplaceCard(ctx context.Context, c *Card) (*Card, error) {
	var old *Card
	err := db.Transact(ctx, s.db, func(ctx context.Context) error {
		prev, err := s.CardByCompany(ctx, c.CompanyID)
		switch {
		case err == nil:
			old = prev
			if err := s.conn(ctx).Delete(&Card{}, "id = ?", prev.ID).Error; err != nil {
				return err
			}
		case !db.IsNotFound(err):
			return err
		}
		return s.conn(ctx).Create(c).Error
	})
	return old, err
}

// RememberFingerprint records that the company saved a card with this fingerprint (once).
func (s *Store) RememberFingerprint(ctx context.Context, fingerprint, companyID string, now time.Time) error {
	if fingerprint == "" {
		return nil
	}
	return s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).
		Create(&CardFingerprint{Fingerprint: fingerprint, CompanyID: companyID, CreatedAt: now}).Error
}

// FingerprintSavedBy reports whether the company ever saved a card with this fingerprint.
func (s *Store) FingerprintSavedBy(ctx context.Context, fingerprint, companyID string) (bool, error) {
	if fingerprint == "" {
		return false, nil
	}
	var n int64
	err := s.conn(ctx).Model(&CardFingerprint{}).Where("fingerprint = ? AND company_id = ?", fingerprint, companyID).Count(&n).Error
	return n > 0, err
}

// DeleteCard removes a card.
func (s *Store) DeleteCard(ctx context.Context, id string) error {
	return s.conn(ctx).Delete(&Card{}, "id = ?", id).Error
}

// CardCompanies returns which of these companies have a card on file.
func (s *Store) CardCompanies(ctx context.Context, companyIDs []string) (map[string]bool, error) {
	var ids []string
	err := s.conn(ctx).Model(&Card{}).Where("company_id IN ?", companyIDs).Pluck("company_id", &ids).Error
	out := map[string]bool{}
	for _, id := range ids {
		out[id] = true
	}
	return out, err
}

// TransactionByID returns a ledger row, or gorm.ErrRecordNotFound.
func (s *Store) TransactionByID(ctx context.Context, id string) (*Transaction, error) {
	var t Transaction
	err := s.conn(ctx).Where("id = ?", id).Take(&t).Error
	return &t, err
}

// TransactionByKey returns the ledger row with the idempotency key, or gorm.ErrRecordNotFound.
func (s *Store) TransactionByKey(ctx context.Context, key string) (*Transaction, error) {
	var t Transaction
	err := s.conn(ctx).Where("idempotency_key = ?", key).Take(&t).Error
	return &t, err
}

// RecordAttempt writes the outcome of one gateway attempt (and releases the lease), touching only
// the columns an attempt owns.
func (s *Store) RecordAttempt(ctx context.Context, t *Transaction) error {
	return s.conn(ctx).Model(&Transaction{}).Where("id = ?", t.ID).Updates(map[string]any{
		"status": t.Status, "gateway_ref": t.GatewayRef, "failure_message": t.FailureMessage, "attempts": t.Attempts,
		"gateway_attempt": t.GatewayAttempt, "next_attempt_at": t.NextAttemptAt, "locked_until": nil, "updated_at": t.UpdatedAt,
		"card_fingerprint": t.CardFingerprint,
	}).Error
}

// ClaimTransaction leases a pending or failed charge or refund for one attempt at the gateway until
// `until`: a conditional update, so two callers (a double click, the job and a user) never attempt
// at once. It reports whether the caller holds the lease.
func (s *Store) ClaimTransaction(ctx context.Context, id string, now, until time.Time) (bool, error) {
	res := s.conn(ctx).Model(&Transaction{}).
		Where("id = ? AND status IN ? AND (locked_until IS NULL OR locked_until < ?)", id, []string{"pending", "failed"}, now).
		Updates(map[string]any{"locked_until": until, "updated_at": now})
	return res.RowsAffected == 1, res.Error
}

// DueTransactions returns pending charges and refunds whose next attempt is due and that nobody
// holds, oldest first.
func (s *Store) DueTransactions(ctx context.Context, now time.Time, limit int) ([]Transaction, error) {
	var ts []Transaction
	err := s.conn(ctx).Where("status = ? AND kind IN ? AND next_attempt_at <= ? AND (locked_until IS NULL OR locked_until < ?)",
		"pending", []string{"charge", "refund"}, now, now).Order("next_attempt_at ASC").Limit(limit).Find(&ts).Error
	return ts, err
}

// TransactionFilter selects ledger rows.
type TransactionFilter struct {
	CompanyID, CampaignRef string
}

func (f TransactionFilter) apply(q *gorm.DB) *gorm.DB {
	if f.CompanyID != "" {
		q = q.Where("company_id = ?", f.CompanyID)
	}
	if f.CampaignRef != "" {
		q = q.Where("campaign_ref = ?", f.CampaignRef)
	}
	return q
}

// Transactions returns one page of ledger rows and the total; page applies order and limits.
func (s *Store) Transactions(ctx context.Context, f TransactionFilter, page func(*gorm.DB) *gorm.DB) ([]Transaction, int64, error) {
	var total int64
	if err := f.apply(s.conn(ctx).Model(&Transaction{})).Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var ts []Transaction
	err := page(f.apply(s.conn(ctx).Model(&Transaction{}))).Find(&ts).Error
	return ts, total, err
}

// CampaignTransactions are the campaign's transactions of the given kinds, oldest first.
func (s *Store) CampaignTransactions(ctx context.Context, companyID, campaignRef string, kinds []string) ([]Transaction, error) {
	var ts []Transaction
	f := TransactionFilter{CompanyID: companyID, CampaignRef: campaignRef}
	err := f.apply(s.conn(ctx).Model(&Transaction{})).Where("kind IN ?", kinds).Order("created_at ASC, id ASC").Find(&ts).Error
	return ts, err
}

// AddCredit changes the company's credit balance by delta. A negative delta applies only when the
// balance covers it; it reports whether it applied.
func (s *Store) AddCredit(ctx context.Context, companyID string, delta int64, now time.Time) (bool, error) {
	if delta >= 0 {
		err := s.conn(ctx).Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "company_id"}},
			DoUpdates: clause.Assignments(map[string]any{"balance": gorm.Expr("billing_credit_balances.balance + ?", delta), "updated_at": now}),
		}).Create(&CreditBalance{CompanyID: companyID, Balance: delta, UpdatedAt: now}).Error
		return err == nil, err
	}
	res := s.conn(ctx).Model(&CreditBalance{}).Where("company_id = ? AND balance >= ?", companyID, -delta).
		Updates(map[string]any{"balance": gorm.Expr("balance + ?", delta), "updated_at": now})
	return res.RowsAffected == 1, res.Error
}

// CreditBalances returns the balances of these companies (absent ones have none).
func (s *Store) CreditBalances(ctx context.Context, companyIDs []string) (map[string]int64, error) {
	var rows []CreditBalance
	err := s.conn(ctx).Where("company_id IN ?", companyIDs).Find(&rows).Error
	out := map[string]int64{}
	for _, r := range rows {
		out[r.CompanyID] = r.Balance
	}
	return out, err
}

// CreditLedgerSum returns the sum of the company's credit movements (the balance's proof).
func (s *Store) CreditLedgerSum(ctx context.Context, companyID string) (int64, error) {
	var sum int64
	err := s.conn(ctx).Model(&Transaction{}).Select("COALESCE(SUM(amount), 0)").
		Where("company_id = ? AND kind = ? AND status = ?", companyID, "credit", "succeeded").Scan(&sum).Error
	return sum, err
}

// SpendByCompany returns, per company, the succeeded charges minus refunds, and the pending charges.
func (s *Store) SpendByCompany(ctx context.Context, companyIDs []string) (spend, pending map[string]int64, err error) {
	var rows []struct {
		CompanyID string
		Kind      string
		Status    string
		Total     int64
	}
	err = s.conn(ctx).Model(&Transaction{}).Select("company_id, kind, status, SUM(amount) AS total").
		Where("company_id IN ? AND kind IN ?", companyIDs, []string{"charge", "refund"}).
		Group("company_id, kind, status").Scan(&rows).Error
	spend, pending = map[string]int64{}, map[string]int64{}
	for _, r := range rows {
		switch {
		case r.Kind == "charge" && r.Status == "succeeded":
			spend[r.CompanyID] += r.Total
		case r.Kind == "refund" && r.Status == "succeeded":
			spend[r.CompanyID] -= r.Total
		case r.Kind == "charge" && r.Status == "pending":
			pending[r.CompanyID] += r.Total
		}
	}
	return spend, pending, err
}

// AddRefunded moves a charge's refunded amount by delta when the result stays within 0 and the
// charge's amount; it reports whether it applied.
func (s *Store) AddRefunded(ctx context.Context, chargeID string, delta int64) (bool, error) {
	res := s.conn(ctx).Model(&Transaction{}).
		Where("id = ? AND status = ? AND refunded + ? <= amount AND refunded + ? >= 0", chargeID, "succeeded", delta, delta).
		Update("refunded", gorm.Expr("refunded + ?", delta))
	return res.RowsAffected == 1, res.Error
}

// PromoByCode returns a promo, or gorm.ErrRecordNotFound.
func (s *Store) PromoByCode(ctx context.Context, code string) (*Promo, error) {
	var p Promo
	err := s.conn(ctx).Where("code = ?", code).Take(&p).Error
	return &p, err
}

// PromoByID returns a promo, or gorm.ErrRecordNotFound.
func (s *Store) PromoByID(ctx context.Context, id string) (*Promo, error) {
	var p Promo
	err := s.conn(ctx).Where("id = ?", id).Take(&p).Error
	return &p, err
}

// Promos returns one page of promos whose code contains q, and the total.
func (s *Store) Promos(ctx context.Context, q string, page func(*gorm.DB) *gorm.DB) ([]Promo, int64, error) {
	base := func() *gorm.DB {
		b := s.conn(ctx).Model(&Promo{})
		if q != "" {
			b = b.Where(db.Contains("code", q))
		}
		return b
	}
	var total int64
	if err := base().Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var ps []Promo
	err := page(base()).Find(&ps).Error
	return ps, total, err
}

// CountRedeem takes one of the promo's redemptions: a conditional update that applies only while
// the promo is active and below its maximum count. Concurrent callers queue on the row, so the
// maximum holds. It reports whether it applied.
func (s *Store) CountRedeem(ctx context.Context, promoID string, now time.Time) (bool, error) {
	res := s.conn(ctx).Model(&Promo{}).Where("id = ? AND status = ? AND redeem_count < max_count", promoID, "active").
		Updates(map[string]any{"redeem_count": gorm.Expr("redeem_count + 1"), "updated_at": now})
	return res.RowsAffected == 1, res.Error
}

// SetPromoStatus sets a promo's status; it reports whether the promo exists.
func (s *Store) SetPromoStatus(ctx context.Context, id, status string, now time.Time) (bool, error) {
	res := s.conn(ctx).Model(&Promo{}).Where("id = ?", id).Updates(map[string]any{"status": status, "updated_at": now})
	return res.RowsAffected == 1, res.Error
}

// Redemptions returns a promo's redemptions, oldest first.
func (s *Store) Redemptions(ctx context.Context, promoID string) ([]Redemption, error) {
	var rs []Redemption
	err := s.conn(ctx).Where("promo_id = ?", promoID).Order("created_at ASC, id ASC").Find(&rs).Error
	return rs, err
}

// ActiveRedemption returns the company's latest redemption not removed, or gorm.ErrRecordNotFound.
func (s *Store) ActiveRedemption(ctx context.Context, companyID string) (*Redemption, error) {
	var r Redemption
	err := s.conn(ctx).Where("company_id = ? AND removed_at IS NULL", companyID).Order("created_at DESC, id DESC").Take(&r).Error
	return &r, err
}

// MarkRedemptionRemoved marks a redemption removed; it reports whether it was still active.
func (s *Store) MarkRedemptionRemoved(ctx context.Context, id string, now time.Time) (bool, error) {
	res := s.conn(ctx).Model(&Redemption{}).Where("id = ? AND removed_at IS NULL", id).Update("removed_at", now)
	return res.RowsAffected == 1, res.Error
}
