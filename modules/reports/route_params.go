package reports

// The query parameters of the module's routes, for the OpenAPI document (server.Route.Params).

// ListQuery filters a report list.
type ListQuery struct {
	Campaign string `query:"campaign" validate:"max=200" doc:"Only this campaign's reports."`
	Company  string `query:"company" validate:"max=200" doc:"Only this company's (admins)."`
}

// CompanyQuery names a company (admins).
type CompanyQuery struct {
	Company string `query:"company" validate:"max=200" doc:"A company id (admins)."`
}

// SearchQuery is a search text.
type SearchQuery struct {
	Q string `query:"q" validate:"max=100" doc:"Search text."`
}

// DownloadQuery asks for an attachment.
type DownloadQuery struct {
	Download string `query:"download" validate:"oneof=0 1" doc:"1: as an attachment."`
}
