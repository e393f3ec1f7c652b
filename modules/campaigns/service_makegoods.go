package campaigns

import (
	"time"

	"marquee/platform/dates"
	"marquee/platform/money"
)

// The DTOs of plan against delivered and make-goods (docs/delivery-assurance.md).

// MakeGood is a make-good as the detail page and the admin filter show it: the week (one face in
// one week), its contracted (planned) and delivered impressions, the threshold it fell under, the
// credit it has given (Credit, net of corrections and a waiver), what the policy gives for the
// delivery now recorded (Target) and what could not be taken back because the company had spent
// it (Clamped).
type MakeGood struct {
	ID               string      `json:"id"`
	CampaignID       string      `json:"campaign_id"`
	CampaignName     string      `json:"campaign_name"`
	CompanyID        string      `json:"company_id"`
	CompanyName      string      `json:"company_name"`
	WeekID           string      `json:"week_id"`
	WeekStart        dates.Date  `json:"week_start"`
	WeekEnd          dates.Date  `json:"week_end"`
	LocationName     string      `json:"location_name"`
	Face             string      `json:"face"`
	Planned          int64       `json:"planned"`
	Delivered        int64       `json:"delivered"`
	Difference       int64       `json:"difference"`
	DeliveryPct      float64     `json:"delivery_pct"`
	Price            money.Cents `json:"price"`
	ThresholdPercent int         `json:"threshold_percent"`
	Credit           money.Cents `json:"credit"`
	Target           money.Cents `json:"target"`
	Clamped          money.Cents `json:"clamped"`
	// Status is granted or waived.
	Status      string     `json:"status"`
	WaiveReason string     `json:"waive_reason"`
	WaivedAt    *time.Time `json:"waived_at"`
	CreatedAt   time.Time  `json:"created_at"`
}

// MakeGoodList answers GET /api/admin/make-goods?status=&company=&page=&page_size=.
type MakeGoodList struct {
	Items    []MakeGood `json:"items"`
	Total    int64      `json:"total"`
	Page     int        `json:"page"`
	PageSize int        `json:"page_size"`
}

// WaiveRequest is the body of PUT /api/admin/make-goods/{id}/waive.
type WaiveRequest struct {
	Reason string `json:"reason" validate:"singleline"`
}

// WaiveResponse answers a waiver with the make-good as it now is.
type WaiveResponse struct {
	Success  bool      `json:"success"`
	Message  string    `json:"message"`
	MakeGood *MakeGood `json:"make_good"`
}

// WeekMakeGood is a week's make-good as its row in the week table shows it.
type WeekMakeGood struct {
	ID     string      `json:"id"`
	Credit money.Cents `json:"credit"`
	Status string      `json:"status"`
}

// EventMakeGoodGranted is published when a week earns its make-good, in the transaction that
// grants the credit (once per week; corrections and waivers publish nothing).
const EventMakeGoodGranted = "campaigns.make_good_granted"

// MakeGoodGrantedEvent is the payload of EventMakeGoodGranted. CreditCents is in cents.
type MakeGoodGrantedEvent struct {
	CampaignID  string `json:"campaign_id"`
	CompanyID   string `json:"company_id"`
	WeekID      string `json:"week_id"`
	CreditCents int64  `json:"credit_cents"`
	MakeGoodID  string `json:"make_good_id"`
}

// Messages of the make-good calls.
const (
	MsgMakeGoodNotFound      = "Make-good not found."
	MsgMakeGoodWaivedAlready = "This make-good has already been waived."
	MsgWaiveReasonRequired   = "Please give a reason for waiving this make-good."
	MsgMakeGoodWaived        = "The make-good has been waived and its credit taken back."
	MsgMakeGoodStatus        = "The status must be granted, waived or all."
)

// AuditMakeGoodWaive is the audit action of a waiver.
const AuditMakeGoodWaive = "campaign.make_good_waive"
