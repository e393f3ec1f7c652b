// Package sandbox is the default payment gateway (DESIGN.md §1.2): it tokenises and charges by
// Stripe's published test-card rules, offline, keeping its state in the billing_sandbox_* tables so
// that it behaves the same across restarts and replicas. It keeps no card number and no security
// code: a token holds only the brand, the last four digits, the expiry and the test behaviour.
package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"marquee/modules/billing/internal/gateway"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/money"
)

// Behaviours of test cards.
const (
	behaveSucceed        = "succeed"
	behaveDeclineAttach  = "decline_attach"  // generic decline when saved
	behaveExpired        = "expired"         // expired_card when saved
	behaveIncorrectCVC   = "incorrect_cvc"   // incorrect_cvc when saved
	behaveInsufficient   = "insufficient"    // saved, declined for insufficient funds when charged
	behaveProcessing     = "processing"      // saved, processing_error when charged
	behaveDeclineCharge  = "decline_charge"  // saved, declined when charged (Stripe's 0341)
	behaveTimeout        = "timeout"         // saved; the first charge per key is made but its answer is lost
	behaveNotATestCard   = "not_a_test_card" // a real-looking number: refused, as Stripe's test mode does
	msgNotATestCard      = "Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing."
	msgUnknownCharge     = "No such charge."
	msgRefundTooLarge    = "Refund amount is greater than unrefunded amount on charge."
	codeResourceMissing  = "resource_missing"
	codeAmountTooLarge   = "amount_too_large"
	codeInvalidExpiry    = "invalid_expiry_year"
	codeInvalidNumber    = "incorrect_number"
	codeInvalidCVC       = "invalid_cvc"
	codeExpiredCard      = "expired_card"
	codeIncorrectCVC     = "incorrect_cvc"
	codeCardDeclined     = "card_declined"
	codeProcessingError  = "processing_error"
	msgIncorrectNumber   = "Your card number is incorrect."
	msgInvalidExpiry     = "Your card's expiration date is invalid."
	msgInvalidCVC        = "Your card's security code is invalid."
	msgExpired           = "Your card has expired."
	msgIncorrectCVC      = "Your card's security code is incorrect."
	msgDeclined          = "Your card was declined."
	msgInsufficientFunds = "Your card has insufficient funds."
	msgProcessingError   = "An error occurred while processing your card. Try again in a little bit."
)

// TimeoutCard is the sandbox's own test card for a gateway timeout (Stripe has none): it saves, and
// the first charge made with each idempotency key goes through but its answer is lost, so the
// caller sees ErrUnavailable; asking again with the same key returns that charge.
const TimeoutCard = "4000000000000770"

// testCards are Stripe's published test numbers (stripe.com/docs/testing) and their behaviour.
var testCards = map[string]string{
	"4242424242424242": behaveSucceed,
	"4000056655665556": behaveSucceed,
	"5555555555554444": behaveSucceed,
	"2223003122003222": behaveSucceed,
	"378282246310005":  behaveSucceed,
	"6011111111111117": behaveSucceed,
	"4000000000000002": behaveDeclineAttach,
	"4000000000000069": behaveExpired,
	"4000000000000127": behaveIncorrectCVC,
	"4000000000009995": behaveInsufficient,
	"4000000000000119": behaveProcessing,
	"4000000000000341": behaveDeclineCharge,
	TimeoutCard:        behaveTimeout,
}

// Token is a row of billing_sandbox_tokens: a single-use token for a typed card.
type Token struct {
	ID        string `gorm:"primaryKey;size:40"`
	Brand     string `gorm:"size:16;not null"`
	Last4     string `gorm:"size:4;not null"`
	ExpMonth  int    `gorm:"not null"`
	ExpYear   int    `gorm:"not null"`
	Behaviour string `gorm:"size:24;not null"`
	// Fingerprint is derived from the number (Fingerprint), so the number itself is not kept.
	Fingerprint string `gorm:"size:64;not null;default:''"`
	UsedAt      *time.Time
	CreatedAt   time.Time `gorm:"not null"`
}

func (Token) TableName() string { return "billing_sandbox_tokens" }

// Card is a row of billing_sandbox_cards: a saved card of a sandbox customer.
type Card struct {
	ID          string `gorm:"primaryKey;size:40"`
	CustomerRef string `gorm:"size:64;not null;index"`
	Brand       string `gorm:"size:16;not null"`
	Last4       string `gorm:"size:4;not null"`
	ExpMonth    int    `gorm:"not null"`
	ExpYear     int    `gorm:"not null"`
	Behaviour   string `gorm:"size:24;not null"`
	Fingerprint string `gorm:"size:64;not null;default:''"`
	DetachedAt  *time.Time
	CreatedAt   time.Time `gorm:"not null"`
}

func (Card) TableName() string { return "billing_sandbox_cards" }

// Charge is a row of billing_sandbox_charges: one per idempotency key, so a key charges once.
type Charge struct {
	ID             string `gorm:"primaryKey;size:40"`
	IdempotencyKey string `gorm:"size:255;not null;uniqueIndex"`
	CardRef        string `gorm:"size:40;not null"`
	Amount         int64  `gorm:"not null"`
	Refunded       int64  `gorm:"not null;default:0"`
	Status         string `gorm:"size:16;not null"` // succeeded or failed
	FailureCode    string `gorm:"size:32;not null;default:''"`
	DeclineCode    string `gorm:"size:32;not null;default:''"`
	FailureMessage string `gorm:"size:255;not null;default:''"`
	// AnswerLost marks the timeout card's first answer, which the caller never saw.
	AnswerLost bool      `gorm:"not null;default:false"`
	CreatedAt  time.Time `gorm:"not null"`
}

func (Charge) TableName() string { return "billing_sandbox_charges" }

// Refund is a row of billing_sandbox_refunds.
type Refund struct {
	ID             string    `gorm:"primaryKey;size:40"`
	IdempotencyKey string    `gorm:"size:255;not null;uniqueIndex"`
	ChargeID       string    `gorm:"size:40;not null;index"`
	Amount         int64     `gorm:"not null"`
	CreatedAt      time.Time `gorm:"not null"`
}

func (Refund) TableName() string { return "billing_sandbox_refunds" }

// Migrations create the sandbox tables (they run with billing's, ids billing-...), each from its own
// snapshot of the rows, so a later change to a row never changes what it does.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID: "billing-0002-sandbox-gateway",
		Migrate: func(tx *gorm.DB) error {
			return tx.Migrator().CreateTable(&token0002{}, &card0002{}, &charge0002{}, &refund0002{})
		},
		Rollback: func(tx *gorm.DB) error {
			return tx.Migrator().DropTable("billing_sandbox_refunds", "billing_sandbox_charges", "billing_sandbox_cards", "billing_sandbox_tokens")
		},
	}, {
		ID: "billing-0004-sandbox-fingerprints",
		Migrate: func(tx *gorm.DB) error {
			type fingerprint0004 struct {
				Fingerprint string `gorm:"size:64;not null;default:''"`
			}
			for _, table := range []string{"billing_sandbox_tokens", "billing_sandbox_cards"} {
				// A database made while billing-0002 created the tables from the live rows has it.
				if m := tx.Table(table).Migrator(); !m.HasColumn(&fingerprint0004{}, "Fingerprint") {
					if err := m.AddColumn(&fingerprint0004{}, "Fingerprint"); err != nil {
						return err
					}
				}
			}
			return nil
		},
		Rollback: func(tx *gorm.DB) error { return nil },
	}}
}

// The rows as billing-0002 created them (the fingerprints came with billing-0004).
type token0002 struct {
	ID        string `gorm:"primaryKey;size:40"`
	Brand     string `gorm:"size:16;not null"`
	Last4     string `gorm:"size:4;not null"`
	ExpMonth  int    `gorm:"not null"`
	ExpYear   int    `gorm:"not null"`
	Behaviour string `gorm:"size:24;not null"`
	UsedAt    *time.Time
	CreatedAt time.Time `gorm:"not null"`
}

func (token0002) TableName() string { return "billing_sandbox_tokens" }

type card0002 struct {
	ID          string `gorm:"primaryKey;size:40"`
	CustomerRef string `gorm:"size:64;not null;index"`
	Brand       string `gorm:"size:16;not null"`
	Last4       string `gorm:"size:4;not null"`
	ExpMonth    int    `gorm:"not null"`
	ExpYear     int    `gorm:"not null"`
	Behaviour   string `gorm:"size:24;not null"`
	DetachedAt  *time.Time
	CreatedAt   time.Time `gorm:"not null"`
}

func (card0002) TableName() string { return "billing_sandbox_cards" }

type charge0002 struct {
	ID             string    `gorm:"primaryKey;size:40"`
	IdempotencyKey string    `gorm:"size:255;not null;uniqueIndex"`
	CardRef        string    `gorm:"size:40;not null"`
	Amount         int64     `gorm:"not null"`
	Refunded       int64     `gorm:"not null;default:0"`
	Status         string    `gorm:"size:16;not null"`
	FailureCode    string    `gorm:"size:32;not null;default:''"`
	DeclineCode    string    `gorm:"size:32;not null;default:''"`
	FailureMessage string    `gorm:"size:255;not null;default:''"`
	AnswerLost     bool      `gorm:"not null;default:false"`
	CreatedAt      time.Time `gorm:"not null"`
}

func (charge0002) TableName() string { return "billing_sandbox_charges" }

type refund0002 struct {
	ID             string    `gorm:"primaryKey;size:40"`
	IdempotencyKey string    `gorm:"size:255;not null;uniqueIndex"`
	ChargeID       string    `gorm:"size:40;not null;index"`
	Amount         int64     `gorm:"not null"`
	CreatedAt      time.Time `gorm:"not null"`
}

func (refund0002) TableName() string { return "billing_sandbox_refunds" }

// Fingerprint is the sandbox's card fingerprint: like Stripe's, the same for one card number
// whoever saves it, and not the number (a keyed hash, shortened).
func Fingerprint(number string) string {
	sum := sha256.Sum256([]byte("marquee-sandbox-card:" + number))
	return "fp_" + hex.EncodeToString(sum[:12])
}

// Gateway is the sandbox adapter.
type Gateway struct {
	db    *gorm.DB
	clock clock.Clock
}

// New returns the sandbox gateway on the database.
func New(gdb *gorm.DB, clk clock.Clock) *Gateway { return &Gateway{db: gdb, clock: clk} }

func (g *Gateway) Name() string { return "sandbox" }

func (g *Gateway) conn(ctx context.Context) *gorm.DB { return db.Conn(ctx, g.db) }

// TokenCard is what a new token tells its caller.
type TokenCard struct {
	ID                string
	Brand, Last4      string
	ExpMonth, ExpYear int
}

// CreateToken checks a typed card the way Stripe.js createToken does and answers a single-use
// token, or a *gateway.CardError. Only the brand, last four digits, expiry and behaviour are kept.
func (g *Gateway) CreateToken(ctx context.Context, number string, expMonth, expYear int, cvc string) (*TokenCard, error) {
	number = strings.NewReplacer(" ", "", "-", "").Replace(number)
	if !ValidNumber(number) {
		return nil, &gateway.CardError{Code: codeInvalidNumber, Message: msgIncorrectNumber}
	}
	now := g.clock.Now()
	if expMonth < 1 || expMonth > 12 || expYear < now.Year() || expYear > now.Year()+50 ||
		(expYear == now.Year() && expMonth < int(now.Month())) {
		return nil, &gateway.CardError{Code: codeInvalidExpiry, Message: msgInvalidExpiry}
	}
	brand := Brand(number)
	want := 3
	if brand == "amex" {
		want = 4
	}
	if len(cvc) != want || !digits(cvc) {
		return nil, &gateway.CardError{Code: codeInvalidCVC, Message: msgInvalidCVC}
	}
	behaviour, ok := testCards[number]
	if !ok {
		behaviour = behaveNotATestCard
	}
	t := Token{ID: "tok_" + compactID(), Brand: brand, Last4: number[len(number)-4:], ExpMonth: expMonth, ExpYear: expYear,
		Behaviour: behaviour, Fingerprint: Fingerprint(number), CreatedAt: now}
	if err := g.conn(ctx).Create(&t).Error; err != nil {
		return nil, err
	}
	return &TokenCard{ID: t.ID, Brand: t.Brand, Last4: t.Last4, ExpMonth: t.ExpMonth, ExpYear: t.ExpYear}, nil
}

// TokenLifetime is how long an unused token stays valid (Stripe's tokens are short-lived too).
const TokenLifetime = 24 * time.Hour

// PurgeTokens deletes the tokens created before the token lifetime ended, used or not: a used one
// has done its work, and an unused one can no longer be attached. It returns how many went.
func (g *Gateway) PurgeTokens(ctx context.Context) (int64, error) {
	res := g.conn(ctx).Where("created_at < ?", g.clock.Now().Add(-TokenLifetime)).Delete(&Token{})
	return res.RowsAffected, res.Error
}

// AttachCard uses up the token and saves its card, refusing the cards Stripe refuses when saved.
func (g *Gateway) AttachCard(ctx context.Context, req gateway.AttachRequest) (*gateway.AttachedCard, error) {
	now := g.clock.Now()
	var t Token
	res := g.conn(ctx).Model(&Token{}).Where("id = ? AND used_at IS NULL AND created_at >= ?", req.Token, now.Add(-TokenLifetime)).Update("used_at", now)
	if res.Error != nil {
		return nil, res.Error
	}
	if res.RowsAffected == 0 {
		return nil, gateway.ErrUnknownToken
	}
	if err := g.conn(ctx).Where("id = ?", req.Token).Take(&t).Error; err != nil {
		return nil, err
	}
	switch t.Behaviour {
	case behaveDeclineAttach:
		return nil, &gateway.CardError{Code: codeCardDeclined, DeclineCode: "generic_decline", Message: msgDeclined}
	case behaveExpired:
		return nil, &gateway.CardError{Code: codeExpiredCard, Message: msgExpired}
	case behaveIncorrectCVC:
		return nil, &gateway.CardError{Code: codeIncorrectCVC, Message: msgIncorrectCVC}
	case behaveNotATestCard:
		return nil, &gateway.CardError{Code: codeCardDeclined, DeclineCode: "test_mode_live_card", Message: msgNotATestCard}
	}
	customer := req.CustomerRef
	if customer == "" {
		customer = "cus_" + compactID()
	}
	c := Card{ID: "card_" + compactID(), CustomerRef: customer, Brand: t.Brand, Last4: t.Last4, ExpMonth: t.ExpMonth,
		ExpYear: t.ExpYear, Behaviour: t.Behaviour, Fingerprint: t.Fingerprint, CreatedAt: now}
	if err := g.conn(ctx).Create(&c).Error; err != nil {
		return nil, err
	}
	return &gateway.AttachedCard{CustomerRef: customer, CardRef: c.ID, Brand: c.Brand, Last4: c.Last4, ExpMonth: c.ExpMonth, ExpYear: c.ExpYear,
		Fingerprint: c.Fingerprint}, nil
}

// UpdateCardExpiry changes a saved card's expiry.
func (g *Gateway) UpdateCardExpiry(ctx context.Context, customerRef, cardRef string, expMonth, expYear int) error {
	res := g.conn(ctx).Model(&Card{}).Where("id = ? AND customer_ref = ? AND detached_at IS NULL", cardRef, customerRef).
		Updates(map[string]any{"exp_month": expMonth, "exp_year": expYear})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("sandbox: no card %s", cardRef)
	}
	return nil
}

// DetachCard removes a saved card (already detached is fine).
func (g *Gateway) DetachCard(ctx context.Context, customerRef, cardRef string) error {
	return g.conn(ctx).Model(&Card{}).Where("id = ? AND customer_ref = ? AND detached_at IS NULL", cardRef, customerRef).
		Update("detached_at", g.clock.Now()).Error
}

// Charge charges a saved card once per idempotency key and answers a repeated key with the stored
// outcome, as Stripe does.
func (g *Gateway) Charge(ctx context.Context, req gateway.ChargeRequest) (string, error) {
	if req.IdempotencyKey == "" || req.Amount <= 0 {
		return "", fmt.Errorf("sandbox: charge needs an idempotency key and a positive amount")
	}
	var card Card
	if err := g.conn(ctx).Where("id = ? AND customer_ref = ? AND detached_at IS NULL", req.CardRef, req.CustomerRef).Take(&card).Error; err != nil {
		if db.IsNotFound(err) {
			return "", &gateway.CardError{Code: codeResourceMissing, Message: "No such card."}
		}
		return "", err
	}
	ch := Charge{ID: "ch_" + compactID(), IdempotencyKey: req.IdempotencyKey, CardRef: card.ID, Amount: int64(req.Amount),
		Status: "succeeded", CreatedAt: g.clock.Now()}
	switch card.Behaviour {
	case behaveInsufficient:
		ch.Status, ch.FailureCode, ch.DeclineCode, ch.FailureMessage = "failed", codeCardDeclined, "insufficient_funds", msgInsufficientFunds
	case behaveProcessing:
		ch.Status, ch.FailureCode, ch.FailureMessage = "failed", codeProcessingError, msgProcessingError
	case behaveDeclineCharge:
		ch.Status, ch.FailureCode, ch.DeclineCode, ch.FailureMessage = "failed", codeCardDeclined, "generic_decline", msgDeclined
	case behaveTimeout:
		ch.AnswerLost = true
	}
	err := g.conn(ctx).Create(&ch).Error
	switch {
	case db.IsDuplicate(err):
		// The same key again: the first outcome, whatever this request says.
		var first Charge
		if err := g.conn(ctx).Where("idempotency_key = ?", req.IdempotencyKey).Take(&first).Error; err != nil {
			return "", err
		}
		ch = first
		if ch.Amount != int64(req.Amount) {
			return "", fmt.Errorf("sandbox: idempotency key %s reused with another amount", req.IdempotencyKey)
		}
	case err != nil:
		return "", err
	case ch.AnswerLost:
		return "", fmt.Errorf("sandbox: charge %s: %w (simulated timeout)", ch.ID, gateway.ErrUnavailable)
	}
	if ch.Status != "succeeded" {
		return "", &gateway.CardError{Code: ch.FailureCode, DeclineCode: ch.DeclineCode, Message: ch.FailureMessage}
	}
	return ch.ID, nil
}

// Refund refunds part or all of a charge, once per idempotency key.
func (g *Gateway) Refund(ctx context.Context, req gateway.RefundRequest) (string, error) {
	var out string
	err := db.Transact(ctx, g.db, func(ctx context.Context) error {
		var prior Refund
		if err := g.conn(ctx).Where("idempotency_key = ?", req.IdempotencyKey).Take(&prior).Error; err == nil {
			out = prior.ID
			return nil
		} else if !db.IsNotFound(err) {
			return err
		}
		res := g.conn(ctx).Model(&Charge{}).
			Where("id = ? AND status = ? AND refunded + ? <= amount", req.ChargeRef, "succeeded", int64(req.Amount)).
			Update("refunded", gorm.Expr("refunded + ?", int64(req.Amount)))
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			var n int64
			if err := g.conn(ctx).Model(&Charge{}).Where("id = ?", req.ChargeRef).Count(&n).Error; err != nil {
				return err
			}
			if n == 0 {
				return &gateway.CardError{Code: codeResourceMissing, Message: msgUnknownCharge}
			}
			return &gateway.CardError{Code: codeAmountTooLarge, Message: msgRefundTooLarge}
		}
		r := Refund{ID: "re_" + compactID(), IdempotencyKey: req.IdempotencyKey, ChargeID: req.ChargeRef, Amount: int64(req.Amount), CreatedAt: g.clock.Now()}
		if err := g.conn(ctx).Create(&r).Error; err != nil {
			return err
		}
		out = r.ID
		return nil
	})
	return out, err
}

// Charges returns how many charges were made with keys starting with prefix, and their total
// (for tests and the demo: "charged once").
func (g *Gateway) Charges(ctx context.Context, keyPrefix string) (int64, money.Cents, error) {
	var row struct {
		N     int64
		Total int64
	}
	err := g.conn(ctx).Model(&Charge{}).Select("COUNT(*) AS n, COALESCE(SUM(amount), 0) AS total").
		Where("status = ?", "succeeded").Where(db.HasPrefix("idempotency_key", keyPrefix)).Scan(&row).Error
	return row.N, money.Cents(row.Total), err
}

// ValidNumber reports whether s is 13 to 19 digits passing the Luhn check.
func ValidNumber(s string) bool {
	if len(s) < 13 || len(s) > 19 || !digits(s) {
		return false
	}
	sum := 0
	for i := 0; i < len(s); i++ {
		d := int(s[len(s)-1-i] - '0')
		if i%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// Brand names the card network by its number's prefix.
func Brand(n string) string {
	switch {
	case strings.HasPrefix(n, "4"):
		return "visa"
	case strings.HasPrefix(n, "34"), strings.HasPrefix(n, "37"):
		return "amex"
	case strings.HasPrefix(n, "6011"), strings.HasPrefix(n, "65"):
		return "discover"
	case len(n) >= 2 && n[0] == '5' && n[1] >= '1' && n[1] <= '5', strings.HasPrefix(n, "2"):
		return "mastercard"
	default:
		return "unknown"
	}
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func compactID() string { return strings.ReplaceAll(ids.New(), "-", "") }
