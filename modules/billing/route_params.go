package billing

// LedgerQuery filters the admin ledger (server.Route.Params).
type LedgerQuery struct {
	Campaign string `query:"campaign" validate:"max=200" doc:"Only this campaign's transactions."`
	Company  string `query:"company" validate:"max=200" doc:"Only this company's transactions."`
}
