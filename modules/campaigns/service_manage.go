package campaigns

import (
	"marquee/platform/dates"
	"marquee/platform/money"
)

// The DTOs of the management calls: lists, detail, edit, lifecycle actions, creative
// changes, admin weeks and delivery.

// ListTotals are the totals of the campaign list (A §2): of every campaign the query matches, not
// only the page.
type ListTotals struct {
	WeeklyBudget money.Cents `json:"weekly_budget"`
	TotalBudget  money.Cents `json:"total_budget"`
	TotalActImp  int64       `json:"total_act_imp"`
}

// CampaignList answers GET /api/campaigns?q=&status=&page=&page_size=&sort= and GET
// /api/admin/campaigns/: the list envelope of docs/api.md plus the totals. Deleted campaigns and
// conflict drafts are never listed.
type CampaignList struct {
	Items    []*Campaign `json:"items"`
	Total    int         `json:"total"`
	Page     int         `json:"page"`
	PageSize int         `json:"page_size"`
	Totals   ListTotals  `json:"totals"`
}

// CampaignLocation is a face of a campaign on the detail page: its marker and the creative it
// shows (a creative per location, B §2).
type CampaignLocation struct {
	ID           string  `json:"id"`
	LocationName string  `json:"location_name"`
	Market       string  `json:"market"`
	City         string  `json:"city"`
	Face         string  `json:"face"`
	Lat          float64 `json:"lat"`
	Lng          float64 `json:"lng"`
	DoubleFaced  bool    `json:"double_faced"`
	OtherFace    string  `json:"other_face"`
	CreativeID   string  `json:"creative_id"`
	CreativeURL  string  `json:"creativeUrl"`
	Snapshot     string  `json:"new_location_snapshot"`
}

// ChartSeries is the detail chart (A §9, B §9): 'Week n' labels, or 7 'Day n' labels for a single
// week. Minimum is the estimated impressions; Actual is null where the week (over 1 day) or day
// (over 24 hours) has not passed, or nothing was recorded.
type ChartSeries struct {
	Labels  []string `json:"labels"`
	Minimum []int64  `json:"minimum"`
	Actual  []*int64 `json:"actual"`
	// Reported and Faces count, per point, the faces whose delivery was recorded and the faces
	// booked that week: an actual of 2 of 3 faces is not the week's whole delivery.
	Reported []int `json:"reported"`
	Faces    []int `json:"faces"`
	// PlanFloor is, per point, the make-good threshold of the plan (Minimum × threshold %): with
	// Minimum it bounds the plan band of the chart; a week delivered under it earns a make-good.
	PlanFloor []int64 `json:"plan_floor,omitempty"`
}

// Proof is a proof of play with the face and the week it shows (its caption).
type Proof struct {
	WeekCreative `tstype:",extends"`
	LocationName string     `json:"location_name"`
	Face         string     `json:"face"`
	StartAt      dates.Date `json:"start_at"`
	EndAt        dates.Date `json:"end_at"`
}

// CampaignDetail answers GET /api/campaigns/{id}.
type CampaignDetail struct {
	Campaign  `tstype:",extends"`
	Locations []CampaignLocation `json:"locations"`
	Proofs    []Proof            `json:"proofs"`
	Chart     ChartSeries        `json:"chart"`
	// Editable is false when the start is 5 or fewer days away (B §9).
	Editable bool `json:"editable"`
	// ImminentEnd is true for a finite campaign ending within 12 days (B §9).
	ImminentEnd bool `json:"imminent_end"`
	// Actions the status allows (B §4).
	CanPause  bool `json:"can_pause"`
	CanResume bool `json:"can_resume"`
	CanStop   bool `json:"can_stop"`
	// MakeGoods are the campaign's make-goods, oldest week first;
	// MakeGoodThreshold is the delivery percentage under which a finished week earns one.
	MakeGoods         []MakeGood `json:"make_goods,omitempty"`
	MakeGoodThreshold int        `json:"make_good_threshold,omitempty"`
}

// ActionResponse answers pause, resume, stop and delete: the new status (B §4: resume sets the
// status the server returns).
type ActionResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	Status  string `json:"status"`
}

// DeleteParams are the query of DELETE /api/campaigns/{id} (B §3 "Delete-campaign request"):
// ?reason=&refund=true. A refund returns what was charged for weeks that have not started.
type DeleteParams struct {
	Reason string `form:"reason" json:"reason"`
	Refund bool   `form:"refund" json:"refund"`
}

// CreativeChange is the body of PUT /api/campaigns/{id}/creative and PUT
// /api/campaigns/week/{id}/creative: the creative to show at these locations (face ids; empty
// means every location of the campaign, or of the week).
type CreativeChange struct {
	CreativeID string   `json:"creative_id" validate:"singleline"`
	Locations  []string `json:"locations" validate:"dive,singleline"`
}

// WeekMove is one record of PUT /api/admin/campaigns/weeks/{id}: a week and the new date range of
// its product. Every record of one product must carry the same range (MsgWeeksInconsistent).
type WeekMove struct {
	ID        string `json:"id" validate:"singleline"`
	ProductID string `json:"product_id" validate:"singleline"`
	StartAt   string `json:"start_at" validate:"singleline"`
	EndAt     string `json:"end_at" validate:"singleline"`
}

// WeeksUpdate is the body of PUT /api/admin/campaigns/weeks/{id}.
type WeeksUpdate struct {
	Weeks []WeekMove `json:"weeks" validate:"dive"`
}

// UpdateMailerRequest is the body of POST /api/campaigns/update/mailer/: tell the campaign's
// advertiser that an admin updated it.
type UpdateMailerRequest struct {
	CampaignID string `json:"campaign_id" validate:"singleline"`
	Message    string `json:"message" text:"multiline"`
}

// DeliveryUpdate is the body of PUT /api/admin/campaigns/week/{id}/delivery: the week's actual
// impressions, recorded by an admin.
type DeliveryUpdate struct {
	ActImp int64 `json:"act_imp"`
	// Reason is required to override a figure that comes from a screen or an import (audited).
	Reason string `json:"reason,omitempty" validate:"singleline"`
}

// ProofFile is an uploaded proof image (the answer of POST /upload_creative_image).
type ProofFile struct {
	Path         string `json:"path" validate:"singleline"`
	OriginalName string `json:"originalname" validate:"singleline"`
}

// ProofsUpload is the body of POST /api/admin/campaigns/week/{id}/proofs.
type ProofsUpload struct {
	Files []ProofFile `json:"files" validate:"dive"`
}

// Messages of the management calls.
const (
	MsgPaused           = "The campaign has been paused."
	MsgResumed          = "The campaign has been resumed."
	MsgStopped          = "The campaign has been marked as complete."
	MsgSpotsReleased    = "The campaign's locations have been released."
	MsgMailerSent       = "The advertiser has been emailed about the update."
	MsgDeliveryUpdated  = "The week's impressions have been recorded."
	MsgProofsAdded      = "The proofs have been added."
	MsgProofDeleted     = "The proof has been removed."
	MsgProofNotFound    = "Proof not found."
	MsgActImpInvalid    = "Actual impressions must be a whole number from 0 to 1,000,000,000."
	MsgWeekStarted      = "A week that has started can't be moved."
	MsgWeeksRequired    = "Please choose at least one week to move."
	MsgWeekRangeInvalid = "Each date range must start on a Monday and end on a Sunday after it, within 52 weeks."
	MsgStatusFilter     = "The status must be one of active, paused, pending or completed."
	MsgReasonTooLong    = "The reason can be at most 500 characters."
	MsgMessageTooLong   = "The message can be at most 2,000 characters."
	MsgStartCharged     = "This campaign's first week has already been charged: its start date can't be changed."
)

// EventCampaignCompleted is published when a campaign completes (stopped, or past its end date),
// in the transaction that completes it; partners accrue bonuses on it.
const EventCampaignCompleted = "campaigns.completed"

// CampaignCompleted is the payload of EventCampaignCompleted.
type CampaignCompleted struct {
	CampaignID string      `json:"campaign_id"`
	CompanyID  string      `json:"company_id"`
	TotalCost  money.Cents `json:"total_cost"`
}

// EventCampaignActivated and EventCampaignPaused are published when a campaign becomes active or
// paused (paid, resumed; paused by hand or for a failed payment), in the transaction that changes
// it; webhooks forward them.
const (
	EventCampaignActivated = "campaigns.activated"
	EventCampaignPaused    = "campaigns.paused"
)

// CampaignStatusChanged is the payload of EventCampaignActivated and EventCampaignPaused.
type CampaignStatusChanged struct {
	CampaignID string `json:"campaign_id"`
	CompanyID  string `json:"company_id"`
	Status     string `json:"status"`
}

// EventWeekDelivered is published when a week's actual impressions are recorded, in the same
// transaction.
const EventWeekDelivered = "campaigns.week_delivered"

// WeekDelivered is the payload of EventWeekDelivered.
type WeekDelivered struct {
	CampaignID  string     `json:"campaign_id"`
	CompanyID   string     `json:"company_id"`
	WeekID      string     `json:"week_id"`
	StartAt     dates.Date `json:"start_at"`
	Impressions int64      `json:"impressions"`
}

// EventProofsAdded is published when proofs are added to a week, in the same transaction.
const EventProofsAdded = "campaigns.proofs_added"

// ProofsAdded is the payload of EventProofsAdded.
type ProofsAdded struct {
	CampaignID string `json:"campaign_id"`
	CompanyID  string `json:"company_id"`
	WeekID     string `json:"week_id"`
	Count      int    `json:"count"`
}

// MessageResponse answers a change with a message (creative changes, weeks update, mailer,
// delivery, proofs).
type MessageResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}
