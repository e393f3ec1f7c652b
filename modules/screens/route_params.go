package screens

// ScheduleParams are the query of GET /api/device/schedule.
type ScheduleParams struct {
	From  string `query:"from" validate:"omitempty,datetime=2006-01-02"`
	Weeks int    `query:"weeks" validate:"omitempty,min=1,max=8"`
}
