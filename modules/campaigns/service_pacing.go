package campaigns

import (
	"marquee/platform/dates"
	"marquee/platform/money"
)

// The DTOs of pacing, forecast and renewal (docs/delivery-assurance.md "Pacing,
// forecast and renewal").

// How a campaign's projected finish date was decided (Pacing.FinishBasis).
const (
	// FinishEndDate: a finite campaign ends on its end date.
	FinishEndDate = "end_date"
	// FinishCredit: an ongoing campaign of a company without a card on file stops at the first
	// week its account credit cannot pay in full (the weekly job pauses it, B §5).
	FinishCredit = "credit"
	// FinishOpen: an ongoing campaign the card on file pays runs until it is stopped.
	FinishOpen = "open"
	// FinishPaused: a paused ongoing campaign books no week until it is resumed.
	FinishPaused = "paused"
)

// RenewalReminderDays: the renewal email goes this many days before a finite campaign ends (B §9
// "imminent": within 12 days, ImminentEndDays; pacing_test.go checks they agree).
const RenewalReminderDays = 12

// Pacing answers GET /api/campaigns/{id}/pacing, and is an item of GET /api/campaigns/pacing.
// Money is the campaign's price (card and account credit together); the delivery figures are of
// the finished weeks whose delivery was recorded.
type Pacing struct {
	CampaignID string `json:"campaign_id"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	Frequency  string `json:"frequency"`
	// Spent is what the weeks charged so far cost (succeeded or waiting for the gateway).
	Spent money.Cents `json:"spent"`
	// Committed is Spent plus the booked weeks not yet paid (a failed charge is still owed).
	Committed money.Cents `json:"committed"`
	// Remaining is Committed − Spent.
	Remaining money.Cents `json:"remaining"`
	// WeeklyCost is the price of the campaign's latest booked week.
	WeeklyCost money.Cents `json:"weekly_cost"`
	// FinishDate is the projected last day (a Sunday); null when open or paused.
	FinishDate  *dates.Date `json:"finish_date"`
	FinishBasis string      `json:"finish_basis"`
	// CreditWeeks: for FinishCredit, the weeks from the next one to charge that the account credit
	// still pays.
	CreditWeeks int `json:"credit_weeks"`
	// PlannedToDate and DeliveredToDate are the planned (the week's estimate) and delivered
	// impressions of the faces whose delivery was recorded in finished weeks.
	PlannedToDate   int64 `json:"planned_to_date"`
	DeliveredToDate int64 `json:"delivered_to_date"`
	// PacePercent is DeliveredToDate / PlannedToDate in whole percent; null with nothing recorded.
	PacePercent   *int `json:"pace_percent"`
	WeeksFinished int  `json:"weeks_finished"`
	WeeksReported int  `json:"weeks_reported"`
	// Renewable: a finite campaign that is running or has ended can be renewed (a prefilled
	// /campaigns/new?renew={id}).
	Renewable bool `json:"renewable"`
}

// PacingList answers GET /api/campaigns/pacing: the company's live campaigns (active, paused,
// pending), oldest start first.
type PacingList struct {
	Items []Pacing `json:"items"`
}

// RenewPrefill answers GET /api/campaigns/{id}/renew: the new-campaign form prefilled to book the
// same faces for the next weeks at the current prices. Nothing is booked or charged by it: the
// form goes through the normal creation (quote, card, conflicts).
type RenewPrefill struct {
	CampaignID   string   `json:"campaign_id"`
	Name         string   `json:"name"`
	TypeCampaign int      `json:"typeCampaign"`
	Strategy     int      `json:"strategySelected"`
	Markets      []string `json:"marketsSelected"`
	Cities       []string `json:"citiesSelected"`
	PlaceID      string   `json:"place_id"`
	PlaceName    string   `json:"place_name"`
	Radius       int      `json:"radiusCheckValue"`
	// StartDate is the first Monday after the campaign's last week that can still be booked.
	StartDate dates.Date `json:"startDate"`
	EndDate   dates.Date `json:"endDate"`
	Frequency string     `json:"frequencySelected"`
	Duration  int        `json:"duration"`
	// Faces are the faces of the campaign's last week.
	Faces []string `json:"faces"`
	// DailyBudget is a maximum-budget campaign's daily budget (0 for premium).
	DailyBudget money.Cents `json:"daily_budget"`
	// The campaign's creative, when it is still the company's (else the form offers the default).
	CreativeID   string `json:"creative_id"`
	CreativeName string `json:"creative_name"`
	CreativeURL  string `json:"creative_url"`
}

// MsgNotRenewable refuses to renew an ongoing, canceled or pending campaign.
const MsgNotRenewable = "Only a campaign with an end date that is running or has ended can be renewed."
