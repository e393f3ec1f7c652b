package partners

// The query parameters of the module's routes, for the OpenAPI document (server.Route.Params).

// YearQuery picks a year.
type YearQuery struct {
	Year string `query:"year" validate:"max=10" doc:"The year (this one when absent)."`
}

// CompanyQuery names a linked company.
type CompanyQuery struct {
	Company string `query:"company" validate:"max=200" doc:"A linked company's id."`
}

// BonusQuery picks the bonus list.
type BonusQuery struct {
	Type string `query:"type" validate:"max=50" doc:"The kind of bonus."`
}
