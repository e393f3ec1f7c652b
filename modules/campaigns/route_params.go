package campaigns

import "marquee/platform/pagination"

// The query parameters of the module's routes, for the OpenAPI document (server.Route.Params).

// StatusQuery filters a campaign list (statusFilter).
type StatusQuery struct {
	Status string `query:"status" validate:"oneof=all active paused pending completed canceled All Active Paused Pending Completed Canceled" doc:"Only campaigns of this status."`
}

// MakeGoodsQuery filters the make-goods.
type MakeGoodsQuery struct {
	Status  string `query:"status" validate:"max=50" doc:"Only make-goods of this status."`
	Company string `query:"company" validate:"max=200" doc:"Only this company's."`
}

// DeleteQuery is DELETE /api/campaigns/{id}'s (DeleteParams, read from the query).
type DeleteQuery struct {
	Reason string `query:"reason" validate:"max=500" doc:"Why the campaign is deleted (admins)."`
	Refund bool   `query:"refund" doc:"Refund the unspent weeks (admins)."`
}

// ThumbQuery asks for a thumbnail.
// ChainQuery pages GET /api/verify/{code}/chain.
type ChainQuery struct {
	After string `query:"after" validate:"omitempty,numeric,max=18" doc:"The records after this seq (a page's last); 0 or none: from the first."`
}

type ThumbQuery struct {
	Thumb string `query:"thumb" validate:"oneof=0 1" doc:"1: the thumbnail."`
}

// listSpec is the advertiser's list (A §2: page sizes 50, 75, 100, All; the older 10 and 20 too),
// newest first.
var listSpec = pagination.Spec{
	PageSizes: []int{10, 20, 50, 75, 100, 0}, DefaultSize: 50, DefaultSort: "-created_at",
	Sortable: map[string]string{"name": "name", "status": "status", "start_date": "start_date", "end_date": "end_date",
		"weekly_budget": "weekly_budget", "total_budget": "total_budget", "totalActImp": "total_act_imp",
		"frequency": "frequency", "created_at": "created_at", "campaignType": "mb_campaign"},
}

// adminSpec is the admin grid (B §2: 50, 75, 100, All), start date newest first.
var adminSpec = pagination.Spec{
	PageSizes: []int{50, 75, 100, 0}, DefaultSize: 50, DefaultSort: "-start_date", Sortable: listSpec.Sortable,
}

// weeksSpec is the detail's week table (B §2: 10, 50, 75, 100, All; default 10).
var weeksSpec = pagination.Spec{
	PageSizes: []int{10, 50, 75, 100, 0}, DefaultSize: 10,
	Sortable: map[string]string{"start_at": "start_at", "location_name": "location_name", "product_ooh": "ooh", "act_imp": "act_imp", "offer_price": "offer_price"},
}

// makeGoodsSpec is the admin make-goods filter: 50, 75, 100, All, newest first.
var makeGoodsSpec = pagination.Spec{PageSizes: []int{50, 75, 100, 0}, DefaultSize: 50}
