package screens

// ScheduleParams are the query of GET /api/device/schedule.
type ScheduleParams struct {
	From  string `query:"from" validate:"omitempty,datetime=2006-01-02"`
	Weeks int    `query:"weeks" validate:"omitempty,min=1,max=8"`
}

// ImportParams are the query of POST /api/admin/screens/imports (the same may come as form parts
// before the file).
type ImportParams struct {
	Format string `query:"format" validate:"omitempty,oneof=xibo csv" doc:"xibo or csv; empty: the header decides"`
	TZ     string `query:"tz" validate:"omitempty,max=64" doc:"IANA zone of Xibo dates written without one (default UTC)"`
}
