// Package campaigns is the campaigns bounded context (DESIGN.md §2): campaigns and their weeks,
// creation with booking, payment and conflicts, the lifecycle, the admin campaign screens, the
// dashboard counts, and delivery (actual impressions and proofs). This root package is the
// module's only public API: the Service interface that partners and reports use, the DTOs of its
// calls, and its messages.
package campaigns

import (
	"context"
	"time"

	"marquee/platform/dates"
	"marquee/platform/money"
)

// Campaign statuses (A §4, B §4). StatusPaid is a stored value older data can hold: it is displayed
// as pending (B §4, DisplayStatus). StatusConflict marks the draft that a creation with conflicting
// weeks leaves while its holds last; it is never listed.
const (
	StatusPending   = "pending"
	StatusPaid      = "paid"
	StatusActive    = "active"
	StatusPaused    = "paused"
	StatusCompleted = "completed"
	StatusCanceled  = "canceled"
	StatusConflict  = "conflict"
)

// DisplayStatus is the status the API shows: a stored 'paid' is displayed as pending (B §4).
func DisplayStatus(stored string) string {
	if stored == StatusPaid {
		return StatusPending
	}
	return stored
}

// CampaignTypeOf is Basic when mb_campaign is set, otherwise Premium (A §1).
func CampaignTypeOf(mbCampaign bool) string {
	if mbCampaign {
		return CampaignTypeBasic
	}
	return CampaignTypePremium
}

// Campaign week statuses (B §3): a reserved week is held and expires unless confirmed; an active one
// is booked.
const (
	WeekReserved = "reserved"
	WeekActive   = "active"
)

// Frequencies (B §3 "New-campaign form data"). FrequencyIndefinitely is an older stored value that
// means ongoing (A §3).
const (
	FrequencyOneTime      = "one-time"
	FrequencyWeekly       = "weekly"
	FrequencyOngoing      = "ongoing"
	FrequencyIndefinitely = "indefinitely"
)

// Strategies (B §2): 0 filters by a radius around a place, 1 by DMA market.
const (
	StrategyRadius = 0
	StrategyMarket = 1
)

// Campaign types (B §3 typeCampaign): 1 premium fixed rate; 0 maximum budget, hidden behind the
// feature flag of DESIGN.md §1.7. A maximum-budget campaign is stored with mb_campaign set and is
// shown as Basic (A §1).
const (
	TypeMaximumBudget = 0
	TypePremium       = 1
)

// Campaign types as the lists show them (A §1).
const (
	CampaignTypePremium = "Premium"
	CampaignTypeBasic   = "Basic"
)

// Week creative types (B §3).
const (
	CreativeTypeCreative = "Creative"
	CreativeTypeProof    = "Proof"
)

// Constants of B §9 and A §9.
const (
	// MaxDurationWeeks is the longest campaign.
	MaxDurationWeeks = 52
	// DefaultWeeklyDuration is the duration a weekly campaign starts with (B §4).
	DefaultWeeklyDuration = 2
	// EditLockDays: a campaign is not editable when its start is this many days away or fewer.
	EditLockDays = 5
	// ImminentEndDays: a finite campaign's end is imminent within this many days.
	ImminentEndDays = 12
	// PollIntervalMs is how often the web app re-reads a pending campaign (A §9).
	PollIntervalMs = 5000
	// MinDailyMaxBudget is the smallest daily budget of a maximum-budget campaign (B §9).
	MinDailyMaxBudget = 20
)

// Messages of B §5 and B §8, word for word, and of this module.
const (
	MsgLocationRequired  = "You need to add at least one location to your campaign"
	MsgDurationTooLong   = "You can't have a campaign running for more than 52 weeks."
	MsgCreativeRequired  = "Campaign creative is required"
	MsgCardRequired      = "Please add your credit card information."
	MsgInvalidNumber     = "Please enter a valid number"
	MsgCreated           = "Your campaign was successfully created and is pending payment confirmation"
	MsgUnexpected        = "A unexpected error has occurred."
	MsgUpdated           = "Campaign has been updated successfully!"
	MsgDeleted           = "The campaign has been deleted"
	MsgDeleteFailed      = "An error occurred trying to delete the campaign"
	MsgWeeksUpdated      = "The campaign weeks has been updated"
	MsgWeeksUpdateFailed = "An error occurred trying to update campaign weeks"
	MsgWeeksInconsistent = "There are inconsistencies, each product should only correspond to a single date range"
	MsgAdminLocationReq  = "Please select at least one location!"
	MsgCreativeUpdated   = "Creative uploaded successfully"
	MsgCreativeFailed    = "An unexpected error occurred when trying to update the creative"

	MsgCampaignNotFound = "Campaign not found."
	MsgWeekNotFound     = "Campaign week not found."
	MsgConflict         = "Some of the locations you chose are not available in the weeks you picked."
	MsgNameRequired     = "Please give your campaign a name."
	MsgNameTooLong      = "The campaign name can be at most 100 characters."
	MsgStrategyInvalid  = "Please choose a strategy: a radius around an address, or a market."
	MsgTypeInvalid      = "Please choose a campaign type."
	MsgFrequencyInvalid = "Please choose how often the campaign runs: one time, weekly or ongoing."
	MsgStartRequired    = "Please choose a start date."
	MsgStartNotMonday   = "Campaigns start on a Monday."
	MsgStartTooSoon     = "This start date has passed its Wednesday cut-off. Please choose a later Monday."
	MsgEndNotSunday     = "Campaigns end on a Sunday."
	MsgEndBeforeStart   = "The end date must be after the start date."
	MsgFaceNotInMarket  = "This location is not in the markets you chose."
	MsgFaceNotInRadius  = "This location is not within the radius you chose."
	MsgFaceNotFound     = "Location not found."
	MsgFaceUnavailable  = "This location is not available in the week you chose."
	MsgPriceChanged     = "The prices have changed since you opened the form. Please review your campaign."
	MsgBudgetMismatch   = "The weekly budget does not match the locations you chose. Please review your campaign."
	MsgKeyRequired      = "A campaign needs an Idempotency-Key header of at most 100 characters."
	MsgKeyReused        = "This Idempotency-Key was already used for a different campaign."
	MsgMaxBudgetTooLow  = "The daily budget must be at least the suggested daily budget."
	MsgChoiceInvalid    = "Please choose to keep your own dates or to use the suggested dates."
	MsgNothingCreated   = "None of your own dates were available, so no campaign was created."

	MsgNotEditable      = "This campaign starts in 5 days or less and can no longer be edited."
	MsgCannotPause      = "This campaign can't be paused: it is already paused, completed or canceled."
	MsgCannotResume     = "Only a paused campaign can be resumed."
	MsgCannotStop       = "This campaign has already ended."
	MsgConflictResolved = "This conflict has already been resolved or has expired. Please create the campaign again."
)

// MsgCreatedActive answers a creation whose campaign is active already (the account credit paid its
// first week): B §8's "pending payment confirmation" would be wrong.
const MsgCreatedActive = "Your campaign was successfully created and is active"

// Confirm texts of B §8 the web app shows before an action; kept here so the generated types carry
// them word for word.
const (
	ConfirmPause  = "Are you sure you want to pause this campaign?"
	ConfirmResume = "Are you sure you want to resume this campaign?"
	ConfirmStop   = "Are you sure you would like to mark this campaign as Complete? NOTE: You will not be able to undo this action."
	ConfirmWeeks  = "Do you confirm updating the selected weeks?"
)

// PlaceChecked is a chosen face (B §3 places_checked). Price, when sent, is the weekly price the
// client showed: the server recomputes it and refuses a difference (MsgPriceChanged).
type PlaceChecked struct {
	ID    string       `json:"id" validate:"singleline"`
	Price *money.Cents `json:"price,omitempty"`
}

// PromoCode is the promo the person redeemed in the form (B §3 promo_code {value}).
type PromoCode struct {
	Value string `json:"value" validate:"singleline"`
}

// CampaignForm is the body of POST /api/campaigns (B §3 "New-campaign form data"), with dates as
// YYYY-MM-DD (DESIGN.md §1.5). WeeklyBudget is what the form typed or computed: a number or a
// string ('$' and ',' are stripped, B §5); the server recomputes it from the prices.
type CampaignForm struct {
	Name               string         `json:"name" validate:"singleline"`
	TypeCampaign       int            `json:"typeCampaign"`
	StrategySelected   int            `json:"strategySelected"`
	MarketsSelected    []string       `json:"marketsSelected" validate:"dive,singleline"`
	CitiesSelected     []string       `json:"citiesSelected,omitempty" validate:"dive,singleline"`
	PlaceID            string         `json:"place_id,omitempty" validate:"singleline"`
	RadiusCheckValue   int            `json:"radiusCheckValue,omitempty"`
	PlacesChecked      []PlaceChecked `json:"places_checked" validate:"dive"`
	StartDate          string         `json:"startDate" validate:"singleline"`
	EndDate            string         `json:"endDate,omitempty" validate:"singleline"`
	FrequencySelected  string         `json:"frequencySelected" validate:"singleline"`
	Duration           int            `json:"duration"`
	CreativeID         string         `json:"creative_id,omitempty" validate:"singleline"`
	UseDefaultCreative bool           `json:"use_default_creative,omitempty"`
	WeeklyBudget       BudgetInput    `json:"weekly_budget" tstype:"number | string" validate:"singleline"`
	MaxBudget          BudgetInput    `json:"maxBudget,omitempty" tstype:"number | string" validate:"singleline"`
	ImpressionCount    int64          `json:"impression_count"`
	PromoCode          *PromoCode     `json:"promo_code,omitempty"`
}

// BudgetInput is a budget as typed: a JSON number or a string such as "$1,250". Its parse is
// checked by the create rules (MsgInvalidNumber), not by JSON decoding, so the form gets the
// spec's message for "abc".
type BudgetInput string

// Week is a campaign week (B §3 "Campaign week"): one face in one Monday–Sunday week.
type Week struct {
	ID                 string         `json:"id"`
	CampaignID         string         `json:"campaign_id"`
	ProductID          string         `json:"product_id"`
	StartAt            dates.Date     `json:"start_at"`
	EndAt              dates.Date     `json:"end_at"`
	StatusWeek         string         `json:"status_week"`
	OfferPrice         money.Cents    `json:"offer_price"`
	ProductAskingPrice money.Cents    `json:"product_asking_price"`
	ProductOoh         int64          `json:"product_ooh"`
	ActImp             *int64         `json:"act_imp"`
	CreativeURL        string         `json:"creativeUrl"`
	CreativeID         string         `json:"creative_id"`
	Product            WeekProduct    `json:"product"`
	Creatives          []WeekCreative `json:"creatives"`
	// Status is the week as the advertiser reads it, consistent with its campaign: pending while
	// the campaign awaits its payment, paused or canceled with it, completed once the week has
	// ended, reserved for a held week, otherwise active (running or to come).
	// Answered by GET /api/campaigns/{id}/weeks.
	Status string `json:"status"`
	// Plan against delivered: ProductOoh is the contracted impressions, frozen when the
	// week was booked; DeliveryDiff is act_imp − product_ooh and DeliveryPct act_imp ÷ product_ooh
	// in percent with one decimal, both null until delivery is recorded (the percentage also when
	// nothing was planned). MakeGood is the week's make-good, when it has one (the week table).
	DeliveryDiff *int64        `json:"delivery_diff"`
	DeliveryPct  *float64      `json:"delivery_pct"`
	MakeGood     *WeekMakeGood `json:"make_good,omitempty"`
	// DeliverySource says where act_imp comes from: screen (a paired player's plays), import (a
	// CMS's export) or admin (typed); empty while nothing is recorded (docs/screens.md).
	DeliverySource string `json:"delivery_source"`
}

// WeekProduct is the face of a week as the detail page shows it (B §3 product).
type WeekProduct struct {
	LocationName string  `json:"location_name"`
	Market       string  `json:"market"`
	City         string  `json:"city"`
	Face         string  `json:"face"`
	Latitude     float64 `json:"latitude"`
	Longitude    float64 `json:"longitude"`
	ProductImage string  `json:"product_image"`
}

// WeekCreative is a creative or a proof of a week (B §3 creatives).
type WeekCreative struct {
	ID             string    `json:"id"`
	CreativeType   string    `json:"creative_type"`
	URL            string    `json:"url"`
	ConvertedThumb string    `json:"converted_thumb"`
	CreatedAt      time.Time `json:"created_at"`
}

// Campaign is a campaign as the API shows it (A §3, B §3). Status is the display status (a stored
// 'paid' shows as pending). CampaignType and MaxBudget are derived (A §3).
type Campaign struct {
	ID               string      `json:"id"`
	AcID             string      `json:"ac_id"`
	CompanyID        string      `json:"company"`
	CompanyName      string      `json:"companyName"`
	UserID           string      `json:"user"`
	Name             string      `json:"name"`
	Status           string      `json:"status"`
	Deleted          bool        `json:"deleted"`
	MbCampaign       bool        `json:"mb_campaign"`
	CampaignType     string      `json:"campaignType"`
	Strategy         int         `json:"strategy"`
	Frequency        string      `json:"frequency"`
	StartDate        dates.Date  `json:"start_date"`
	EndDate          dates.Date  `json:"end_date"`
	Duration         int         `json:"duration"`
	WeeklyBudget     money.Cents `json:"weekly_budget"`
	MaxBudget        money.Cents `json:"max_budget"`
	TotalBudget      money.Cents `json:"total_budget"`
	TotalCost        money.Cents `json:"totalCost"`
	TotalActImp      int64       `json:"totalActImp"`
	ImpressionCount  int64       `json:"impression_count"`
	Markets          []string    `json:"market"`
	Cities           []string    `json:"cities"`
	PlaceID          string      `json:"place_id"`
	PlaceName        string      `json:"place_name"`
	RadiusCheckValue int         `json:"radiusCheckValue"`
	CreativeID       string      `json:"creative_id"`
	CreativeURL      string      `json:"creative"`
	PromoCode        string      `json:"promo_code"`
	// PaymentStatus is the first charge's: pending until the gateway answers, then succeeded or
	// failed (with PaymentMessage); TransactionID lets the web app retry a failed payment.
	PaymentStatus  string    `json:"payment_status"`
	PaymentMessage string    `json:"payment_message"`
	TransactionID  string    `json:"transaction"`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`
}

// CreateResponse answers a successful POST /api/campaigns (201).
type CreateResponse struct {
	Success  bool      `json:"success"`
	Message  string    `json:"message"`
	Campaign *Campaign `json:"campaign"`
}

// ConflictCampaign is the campaign a conflicting creation answers: its weeks are active where the
// chosen dates could be booked and reserved on the nearest later free weeks (B §4). Both are held
// until ExpiresAt.
type ConflictCampaign struct {
	Campaign  `tstype:",extends"`
	Weeks     []Week    `json:"weeks"`
	ExpiresAt time.Time `json:"expires_at"`
}

// ConflictResponse answers a creation with conflicting weeks (409, B §7 "On a failed create").
type ConflictResponse struct {
	Success  bool             `json:"success"`
	Message  string           `json:"message"`
	Campaign ConflictCampaign `json:"campaign"`
	Params   CampaignForm     `json:"params"`
}

// CampaignDefaults answers GET /api/campaigns/defaults: the server's date rules for the form
// (brief decision 2), so the client and the server agree on the Wednesday cut-off.
type CampaignDefaults struct {
	Today dates.Date `json:"today"`
	// EarliestStart is the first Monday not past its cut-off; DefaultStart the one the picker
	// proposes (A §5, B §4).
	EarliestStart         dates.Date `json:"earliest_start"`
	DefaultStart          dates.Date `json:"default_start"`
	MaxWeeks              int        `json:"max_weeks"`
	DefaultWeeklyDuration int        `json:"default_weekly_duration"`
	// BusinessTimezone is the IANA zone of every date rule (BUSINESS_TIMEZONE): Today is the date
	// there, and a Monday's Wednesday cut-off ends at midnight there.
	BusinessTimezone string `json:"business_timezone"`
}

// CampaignQuote answers POST /api/campaigns/quote: the server's prices of a form for the review
// step (B §9). Prices are the start week's, per chosen face.
type CampaignQuote struct {
	Prices          []PlaceChecked `json:"places_checked"`
	Weekly          money.Cents    `json:"weekly"`
	WeeklyBudget    money.Cents    `json:"weekly_budget"`
	AccountCredit   money.Cents    `json:"account_credit"`
	CreditUsed      money.Cents    `json:"credit_used"`
	Total           money.Cents    `json:"total"`
	Duration        int            `json:"duration"`
	StartDate       dates.Date     `json:"start_date"`
	EndDate         dates.Date     `json:"end_date"`
	ImpressionCount int64          `json:"impression_count"`
	// PromoCredit is the credit of the promo code named in the form (promo_code) that the company
	// redeemed and still holds: the redemption's amount, at most the account credit; 0 without a
	// code or for a code the company did not redeem.
	PromoCredit money.Cents `json:"promo_credit"`
	// SpendableBudget is what the company can spend in the first week: WeeklyBudget (what the card
	// pays) plus PromoCredit (B §9 "Promo credit adds to the spendable budget").
	SpendableBudget money.Cents `json:"spendable_budget"`
	// CardRequired says whether a card on file is needed: some week still costs more than the
	// credit covers (B §5: a card is required only when the weekly budget is above 0).
	CardRequired bool `json:"card_required"`
	// Maximum-budget type (typeCampaign 0, B §9), 0 for premium: DailyBudget is the form's maxBudget
	// (the suggested one when the form sends none), and Weekly is DailyBudget × 7;
	// SuggestedDailyBudget is ceil(locations / 10) × $20; MinDailyBudget is the least daily budget
	// a creation accepts (the suggested one, at least $20). Below it, ImpressionCount is 0 and
	// Likely is empty.
	DailyBudget          money.Cents `json:"daily_budget"`
	SuggestedDailyBudget money.Cents `json:"suggested_daily_budget"`
	MinDailyBudget       money.Cents `json:"min_daily_budget"`
	// Likely lists the chosen faces flagged likely to run (B §3 "likely"); a maximum-budget quote
	// below the minimum clears them (B §4).
	Likely []string `json:"likely"`
}

// Conflict resolutions (B §4).
const (
	ResolveOwnDates       = "own"
	ResolveSuggestedDates = "suggested"
)

// ResolveRequest is the body of POST /api/campaigns/{id}/resolve: the person's choice in the
// conflict dialog.
type ResolveRequest struct {
	Choice string `json:"choice" validate:"singleline"`
}

// ResolveResponse answers a resolution. Campaign is nil when "keep my own dates" left no active
// week, so nothing was created.
type ResolveResponse struct {
	Success  bool      `json:"success"`
	Message  string    `json:"message"`
	Campaign *Campaign `json:"campaign"`
}

// Count answers GET /api/campaigns/count (A §3).
type Count struct {
	Pending   int `json:"pending"`
	Active    int `json:"active"`
	Completed int `json:"completed"`
	Paused    int `json:"paused"`
	Total     int `json:"total"`
}

// Service is the campaigns module's public API for the modules above it (partners, reports).
type Service interface {
	// FindCampaignsByIDs returns the campaigns with these ids, deleted ones included (unknown ids
	// are left out).
	FindCampaignsByIDs(ctx context.Context, ids []string) ([]*Campaign, error)
	// FindCompanyCampaign returns a campaign of the company. ENOTFOUND for another company's.
	FindCompanyCampaign(ctx context.Context, companyID, id string) (*Campaign, error)
	// FindWeeks returns a campaign's weeks, oldest first, with their creatives and proofs.
	FindWeeks(ctx context.Context, campaignID string) ([]Week, error)
	// ProofCodesOf returns the verification code of each week's current proof-of-play record
	//, by week then face; the caller has checked the campaign is the company's.
	ProofCodesOf(ctx context.Context, campaignID string) ([]WeekProofCode, error)
	// FindCompanyCampaigns returns the company's listed campaigns (not deleted, no drafts), newest
	// first (the reports' campaign picker).
	FindCompanyCampaigns(ctx context.Context, companyID string) ([]*Campaign, error)
	// CompanyPacing returns the pacing of the company's live campaigns (the weekly digest).
	CompanyPacing(ctx context.Context, companyID string) ([]Pacing, error)

	// FaceBookings returns the live weeks booked on these faces whose start is in from..to (a
	// player's schedule), each with the creative it shows.
	FaceBookings(ctx context.Context, faceIDs []string, from, to dates.Date) ([]FaceBooking, error)
	// RecordScreenDelivery sets a face-week's figure from plays and appends the device's batch to
	// the proof chain, in the caller's transaction. ENOTFOUND for no such week.
	RecordScreenDelivery(ctx context.Context, req ScreenDelivery) error
	// ScreenWeeksToClose returns the weeks with a figure from plays, not closed, whose Sunday is
	// before the day, with their faces (the caller judges each on its face's clock).
	ScreenWeeksToClose(ctx context.Context, endedBefore dates.Date) ([]ScreenWeekToClose, error)
	// CloseScreenWeek makes a week's figure from plays final and runs the make-good rule on it.
	CloseScreenWeek(ctx context.Context, weekID string) error
}
