package identity

// The query parameters of the module's routes, for the OpenAPI document (server.Route.Params): the
// handlers read them with c.Query under these names.

// CompanyExistsQuery is /company-exists's.
type CompanyExistsQuery struct {
	Name string `query:"name" validate:"required,max=200" doc:"The company name to look up."`
}

// AccessTokenQuery is /api/users/get-password's.
type AccessTokenQuery struct {
	Token string `query:"token" validate:"required,max=200" doc:"The token of the first-password link."`
}

// AdminCompanyQuery filters the admin company lists.
type AdminCompanyQuery struct {
	Status string `query:"status" validate:"max=50" doc:"Only companies of this status."`
	Type   string `query:"type" validate:"max=50" doc:"Only companies of this type."`
}

// AdminUserQuery filters the admin user list.
type AdminUserQuery struct {
	Status  string `query:"status" validate:"max=50" doc:"Only users of this status."`
	Company string `query:"company" validate:"max=64" doc:"A company id: only its users."`
}

// AuditQuery filters the audit log.
type AuditQuery struct {
	Action     string `query:"action" validate:"max=100" doc:"Only entries of this action."`
	Actor      string `query:"actor" validate:"max=200" doc:"Only entries of this actor (an email)."`
	ObjectType string `query:"object_type" validate:"max=100"`
	ObjectID   string `query:"object_id" validate:"max=200"`
	From       string `query:"from" doc:"YYYY-MM-DD: entries on or after the day."`
	To         string `query:"to" doc:"YYYY-MM-DD: entries on or before the day."`
}

// CompanyQuery names a company (admins only; ignored for others).
type CompanyQuery struct {
	Company string `query:"company" validate:"max=200" doc:"A company id (admins)."`
}
