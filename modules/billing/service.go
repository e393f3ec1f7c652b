// Package billing holds cards, charges and transactions, account credit and promo codes
// (DESIGN.md §2, B §7 "Cards and transactions" and "Promos"). This root package is the module's only
// public API: the Service interface that campaigns calls, its DTOs, its requests and its messages.
// The pure pricing rules of B §9 are in pricing.go; the payment gateway port and its adapters
// (sandbox, stripe) are internal.
package billing

import (
	"context"
	"time"

	"marquee/platform/dates"
	"marquee/platform/money"
)

// Gateways a deployment can choose (PAYMENT_GATEWAY, DESIGN.md §1.2).
const (
	GatewaySandbox = "sandbox"
	GatewayStripe  = "stripe"
)

// Transaction kinds: a card charge, a refund of one, and a movement of account credit.
const (
	KindCharge = "charge"
	KindRefund = "refund"
	KindCredit = "credit"
)

// Transaction statuses. A pending transaction is waiting for the gateway (a timeout leaves it
// pending and the retry job finishes it); a failed one carries the gateway's message.
const (
	StatusPending   = "pending"
	StatusSucceeded = "succeeded"
	StatusFailed    = "failed"
)

// Promo statuses. "exhausted" is not stored: an active promo whose redeem count reached its maximum
// count shows as exhausted.
const (
	PromoActive    = "active"
	PromoCancelled = "cancelled"
	PromoExhausted = "exhausted"
)

// Limits of a promo (server-side rules for /admin/promos/new).
const (
	MaxPromoDollars  = 10_000 // the largest promo value, in dollars
	MaxPromoCount    = 100_000
	MaxPromoCodeSize = 32
)

// Currency is the one currency of the product (US billboards).
const Currency = "usd"

// Messages of B §8, word for word, and of this module.
const (
	MsgCardAdded       = "Your card has been added successfully."
	MsgCardRemoved     = "Your card has been removed."
	MsgCardUpdated     = "Your card has been updated."
	MsgCardNotFound    = "Card not found."
	MsgCardRequired    = "Please add your credit card information." // B §8 missing card
	MsgCardToken       = "The card could not be read. Please enter it again."
	MsgActivePromoGone = "Active promo removed"
	MsgNoActivePromo   = "This company has no active promo."

	MsgTransactionNotFound = "Transaction not found."
	MsgPaymentPending      = "The payment gateway did not answer. The payment is pending and will be retried."
	MsgChargeAmount        = "The amount to charge must be more than $0."
	MsgChargeKeyReused     = "This payment key was already used for another payment."
	MsgRefundTooLarge      = "The refund is larger than what is left of the charge."
	MsgRefundNotCharged    = "Only a succeeded charge can be refunded."
	MsgRefundOtherGateway  = "This charge was made through another payment gateway; refund it there."
	MsgCreditInsufficient  = "The account credit is not enough for this."

	MsgPromoRequired        = "Promo code is required."
	MsgPromoWhitespace      = "Promo code can't contain spaces."
	MsgPromoFormat          = "Promo codes use letters, digits, dashes and underscores only (at most 32)."
	MsgPromoNotFound        = "This promo code does not exist."
	MsgPromoCancelled       = "This promo code is no longer active."
	MsgPromoExhausted       = "This promo code has been fully redeemed."
	MsgPromoAlreadyRedeemed = "Your company has already redeemed this promo code."
	MsgPromoTaken           = "A promo with this code already exists."
	MsgPromoValue           = "The amount must be more than $0 and at most $10,000."
	MsgPromoMaxCount        = "The maximum count must be a whole number from 1 to 100,000."
	MsgPromoRedeemed        = "Your promo code has been redeemed."
	MsgPromoOtherCompany    = "This promo code was issued to another company and only that company can redeem it."
	MsgPromoCreated         = "The promo code has been created."
)

// Card-form messages the web app shows for a gateway card error (B §8): a wrong number gets the
// first, any other card error the second. The gateway's own message is in CardError.Message.
const (
	MsgConfirmCardNumber = "Please confirm the Card Number is accurate and try again"
	MsgConfirmCardOther  = "Please confirm the Month/Year and CVC are accurate and try again"
)

// Gateway card-error codes (Stripe's names). CodeIncorrectNumber is the one that maps to
// MsgConfirmCardNumber.
const (
	CodeIncorrectNumber = "incorrect_number"
	CodeInvalidNumber   = "invalid_number"
	CodeInvalidExpiry   = "invalid_expiry_year"
	CodeInvalidCVC      = "invalid_cvc"
	CodeExpiredCard     = "expired_card"
	CodeIncorrectCVC    = "incorrect_cvc"
	CodeCardDeclined    = "card_declined"
	CodeProcessingError = "processing_error"
)

// Gateway messages (Stripe's wording, which the sandbox reproduces).
const (
	GatewayMsgIncorrectNumber   = "Your card number is incorrect." // B §8
	GatewayMsgInvalidExpiry     = "Your card's expiration date is invalid."
	GatewayMsgInvalidCVC        = "Your card's security code is invalid."
	GatewayMsgExpired           = "Your card has expired."
	GatewayMsgIncorrectCVC      = "Your card's security code is incorrect."
	GatewayMsgDeclined          = "Your card was declined."
	GatewayMsgInsufficientFunds = "Your card has insufficient funds."
	GatewayMsgProcessingError   = "An error occurred while processing your card. Try again in a little bit."
)

// GatewayConfig answers GET /api/billing/config: which client code tokenises cards. It never holds
// a secret key.
type GatewayConfig struct {
	Gateway        string `json:"gateway"`
	PublishableKey string `json:"publishable_key,omitempty"`
}

// SandboxTokenRequest is the typed card the sandbox's client code sends to POST /api/sandbox/tokens
// (the sandbox's stand-in for Stripe.js createToken). The number and code are never stored.
type SandboxTokenRequest struct {
	Number   string `json:"number" validate:"singleline"`
	ExpMonth int    `json:"exp_month"`
	ExpYear  int    `json:"exp_year"`
	CVC      string `json:"cvc" validate:"singleline"`
}

// CardDetails is what a token says about its card.
type CardDetails struct {
	Brand    string `json:"brand"`
	Last4    string `json:"last4"`
	ExpMonth int    `json:"exp_month"`
	ExpYear  int    `json:"exp_year"`
}

// CardToken answers POST /api/sandbox/tokens, shaped like a Stripe token.
type CardToken struct {
	ID   string      `json:"id"`
	Card CardDetails `json:"card"`
}

// Card is the company's card on file: never the number, only its brand, last four digits and
// expiry (B §3), masked as xxxx-xxxx-xxxx-1234 (B §2).
type Card struct {
	ID       string `json:"id"`
	Brand    string `json:"brand"`
	Last4    string `json:"last4"`
	ExpMonth int    `json:"exp_month"`
	ExpYear  int    `json:"exp_year"`
	Masked   string `json:"masked"`
}

// AddCardRequest attaches a tokenised card (POST /api/cards). The expiry is the one typed in the
// card form; a company has one card on file, and a new one replaces it.
type AddCardRequest struct {
	Token    string `json:"token" validate:"singleline"`
	ExpMonth int    `json:"exp_month"`
	ExpYear  int    `json:"exp_year"`
}

// UpdateCardRequest changes the expiry of the card on file (PUT /api/cards/{id}).
type UpdateCardRequest struct {
	ExpMonth int `json:"exp_month"`
	ExpYear  int `json:"exp_year"`
}

// CardResponse answers adding or updating a card.
type CardResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	Card    *Card  `json:"card"`
}

// Transaction is one row of the ledger: a card charge, a refund, or a movement of account credit
// (positive grants, negative spends and removals).
type Transaction struct {
	ID             string      `json:"id"`
	CompanyID      string      `json:"company_id"`
	CompanyName    string      `json:"company_name,omitempty"`
	Kind           string      `json:"kind"`
	Status         string      `json:"status"`
	Amount         money.Cents `json:"amount"`
	Currency       string      `json:"currency"`
	Description    string      `json:"description"`
	CampaignRef    string      `json:"campaign_ref"`
	Week           *dates.Date `json:"week"`
	GatewayRef     string      `json:"gateway_ref"`
	FailureMessage string      `json:"failure_message"`
	Refunded       money.Cents `json:"refunded"`
	CreatedAt      time.Time   `json:"created_at"`
}

// ChargeRequest charges a company's card on file for a campaign week. Key makes it idempotent:
// the same key always answers the same transaction and the card is charged at most once.
type ChargeRequest struct {
	Key         string
	CompanyID   string
	Amount      money.Cents
	Description string
	CampaignRef string
	Week        *dates.Date
}

// RefundRequest refunds all or part of a succeeded charge; Amount 0 refunds what is left. Key
// makes it idempotent.
type RefundRequest struct {
	Key           string
	TransactionID string
	Amount        money.Cents
}

// CreditRequest spends or grants account credit. Key makes it idempotent. Description is the
// reason shown in the ledger; Week, when set, is the campaign week the movement is for (a
// make-good's credit names its week, docs/delivery-assurance.md).
type CreditRequest struct {
	Key         string
	CompanyID   string
	Amount      money.Cents
	Description string
	CampaignRef string
	Week        *dates.Date
}

// TransactionFilter selects the admin ledger's rows.
type TransactionFilter struct {
	CompanyID   string
	CampaignRef string
}

// Promo is a promo code as the admin grid shows it (B §3: remaining = max_count - redeem_count).
type Promo struct {
	ID          string      `json:"id"`
	Code        string      `json:"code"`
	Value       money.Cents `json:"value"`
	Status      string      `json:"status"`
	MaxCount    int         `json:"max_count"`
	RedeemCount int         `json:"redeem_count"`
	Remaining   int         `json:"remaining"`
	CreatedAt   time.Time   `json:"created_at"`
}

// CreatePromoRequest creates a promo (POST /api/admin/promo/).
type CreatePromoRequest struct {
	Code     string      `json:"code" validate:"singleline"`
	Value    money.Cents `json:"value"`
	MaxCount int         `json:"max_count"`
	// CompanyID, set by a module (never by the admin's form), reserves the promo to one company:
	// no other company can redeem it (the exam's reward, DESIGN §1.13).
	CompanyID string `json:"-"`
}

// PromoResponse answers creating a promo.
type PromoResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	Promo   *Promo `json:"promo"`
}

// PromoStatusResponse answers cancelling or enabling a promo (B §4: the server returns the new
// status, shown when success is true).
type PromoStatusResponse struct {
	Success bool   `json:"success"`
	Status  string `json:"status"`
}

// RedeemPromoRequest redeems a code for the caller's company (POST /api/promo/).
type RedeemPromoRequest struct {
	Code string `json:"code" validate:"singleline"`
}

// RedeemPromoResponse answers a redeem (B §7: message and amount).
type RedeemPromoResponse struct {
	Success bool        `json:"success"`
	Message string      `json:"message"`
	Amount  money.Cents `json:"amount"`
}

// PromoLookup answers GET /companies/findpromocode/{code}.
type PromoLookup struct {
	Code      string      `json:"code"`
	Value     money.Cents `json:"value"`
	Status    string      `json:"status"`
	Remaining int         `json:"remaining"`
}

// PromoRedemption is a company that redeemed a promo (the admin modal).
type PromoRedemption struct {
	CompanyID   string      `json:"company_id"`
	CompanyName string      `json:"company_name"`
	Amount      money.Cents `json:"amount"`
	RedeemedAt  time.Time   `json:"redeemed_at"`
	Removed     bool        `json:"removed"`
}

// ActivePromo is the company's active promo: its latest redemption not removed by an admin.
type ActivePromo struct {
	ID       string      `json:"id"`
	Code     string      `json:"code"`
	Value    money.Cents `json:"value"`
	Redeemed bool        `json:"redeemed"`
}

// BillingSummary is what the admin company grid shows of a company's billing (B §2).
type BillingSummary struct {
	CardOnFile    bool        `json:"cc_onfile"`
	AccountCredit money.Cents `json:"account_credit"`
	TotalSpend    money.Cents `json:"total_spend"`
	AmountPending money.Cents `json:"amountPending"`
}

// Audit actions of the admin promo screens (platform/audit; docs/identity.md "Audit log").
const (
	AuditPromoCreate = "promo.create"
	AuditPromoStatus = "promo.status"
	AuditPromoRemove = "promo.remove_active"
)

// EventChargeSettled is published when a charge reaches succeeded or failed, in the transaction
// that records it: the campaigns module activates a campaign, or pauses it, on it.
const EventChargeSettled = "billing.charge_settled"

// ChargeSettled is the payload of EventChargeSettled.
type ChargeSettled struct {
	TransactionID string      `json:"transaction_id"`
	Key           string      `json:"key"`
	CompanyID     string      `json:"company_id"`
	CampaignRef   string      `json:"campaign_ref"`
	Week          *dates.Date `json:"week"`
	Amount        money.Cents `json:"amount"`
	Status        string      `json:"status"`
	Message       string      `json:"message"`
	// CardFingerprint is the fingerprint of the card charged (DESIGN §1.13: a partner earns no
	// bonus on its own card).
	CardFingerprint string `json:"card_fingerprint,omitempty"`
}

// EventChargeRefunded is published when a refund succeeds at the gateway, in the transaction that
// records it: the partner program reverses the bonus share of the refunded charge.
const EventChargeRefunded = "billing.charge_refunded"

// ChargeRefunded is the payload of EventChargeRefunded. ChargeID is the refunded charge.
type ChargeRefunded struct {
	TransactionID string      `json:"transaction_id"`
	ChargeID      string      `json:"charge_id"`
	CompanyID     string      `json:"company_id"`
	CampaignRef   string      `json:"campaign_ref"`
	Amount        money.Cents `json:"amount"`
}

// Redeemed is a promo redemption as RedeemHook hears it.
type Redeemed struct {
	PromoID   string
	Code      string
	CompanyID string
	Amount    money.Cents
	// CardFingerprint is the fingerprint of the company's card on file; empty without one.
	CardFingerprint string
}

// RedeemHook hears a redemption inside its transaction (the partner program links the company to
// the partner whose referral code it is). Billing owns the interface; the partners module
// implements it, and cmd/marquee hands it in (Module.SetRedeemHook). A note it answers is
// added to the redeem message; an error rolls the redemption back.
type RedeemHook interface {
	PromoRedeemed(ctx context.Context, r Redeemed) (note string, err error)
}

// Service is the billing module's public API for campaigns, the composition root and the admin
// companies grid.
type Service interface {
	// Charge charges the company's card on file. Idempotent by Key, even under concurrent calls:
	// the same key returns the same transaction and the gateway is asked with one idempotency key.
	// A refused card answers the failed transaction and a *CardError-backed EPAYMENT with the
	// gateway's message; a gateway timeout answers the transaction still pending (the retry job
	// finishes it). EINVALID without a card on file or for a bad amount; ECONFLICT when the key was
	// used for another company or amount.
	Charge(ctx context.Context, req ChargeRequest) (*Transaction, error)
	// ScheduleCharge records a pending charge, due at once, without asking the gateway: it joins
	// the caller's transaction, so the charge exists exactly when the caller's writes commit. The
	// retry job (or SettleCharge, right after the commit) asks the gateway; the outcome is
	// published as EventChargeSettled. Idempotent by Key like Charge. EINVALID (MsgCardRequired)
	// without a card on file or for a bad amount; ECONFLICT when the key was used for another
	// company or amount.
	ScheduleCharge(ctx context.Context, req ChargeRequest) (*Transaction, error)
	// SettleCharge asks the gateway now for a scheduled charge, unless someone else is asking or it
	// has already settled; it answers the transaction as it stands. Call it outside transactions.
	SettleCharge(ctx context.Context, transactionID string) (*Transaction, error)
	// Refund refunds a succeeded charge, in full or in part. Idempotent by Key. ENOTFOUND for an
	// unknown charge; ECONFLICT when it is not succeeded or the amount exceeds what is left.
	Refund(ctx context.Context, req RefundRequest) (*Transaction, error)
	// FindCampaignCharges returns the charges and refunds of a campaign, oldest first.
	FindCampaignCharges(ctx context.Context, companyID, campaignRef string) ([]*Transaction, error)
	// AccountCredit returns the company's account credit (never negative).
	AccountCredit(ctx context.Context, companyID string) (money.Cents, error)
	// SpendCredit deducts account credit (for a campaign week). Idempotent by Key. ECONFLICT when
	// the credit is not enough.
	SpendCredit(ctx context.Context, req CreditRequest) (*Transaction, error)
	// ApplyCredit adds account credit (for example a refund taken as credit). Idempotent by Key.
	ApplyCredit(ctx context.Context, req CreditRequest) (*Transaction, error)
	// ReclaimCredit takes back up to req.Amount of account credit: as much as the balance holds,
	// never below zero (a make-good corrected down or waived, after the company spent part of
	// it). The answer's Amount is the signed movement made (0, without a ledger row, when the
	// balance is empty). Idempotent by Key. It joins the caller's transaction.
	ReclaimCredit(ctx context.Context, req CreditRequest) (*Transaction, error)
	// FindCardOnFile returns the company's card. ENOTFOUND when it has none.
	FindCardOnFile(ctx context.Context, companyID string) (*Card, error)
	// FindActivePromo returns the company's active promo. ENOTFOUND when it has none.
	FindActivePromo(ctx context.Context, companyID string) (*ActivePromo, error)
	// FindBillingSummaries returns the billing columns of the admin company grid, by company id.
	FindBillingSummaries(ctx context.Context, companyIDs []string) (map[string]BillingSummary, error)
	// CreatePromo creates a promo code (an admin's, a partner's referral code, an exam reward). It
	// joins the caller's transaction. EINVALID for bad input or a code already taken.
	CreatePromo(ctx context.Context, req CreatePromoRequest) (*Promo, error)
	// FindPromo returns a promo by its code (its status and redemptions left). ENOTFOUND when
	// there is none.
	FindPromo(ctx context.Context, code string) (*Promo, error)
	// FingerprintSavedBy reports whether the company ever saved a card with this fingerprint (a
	// card replaced or removed since still counts). False for an empty fingerprint.
	FingerprintSavedBy(ctx context.Context, fingerprint, companyID string) (bool, error)
}
