package campaigns

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
type ThumbQuery struct {
	Thumb string `query:"thumb" validate:"oneof=0 1" doc:"1: the thumbnail."`
}
