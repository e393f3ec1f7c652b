package billing

import "marquee/platform/money"

// A campaign's price (pricing.go prices it; campaigns shows it).

// WeekQuote is one week of a quote: the week's location prices, the account credit it takes, and
// what is left to charge.
type WeekQuote struct {
	Gross  money.Cents `json:"gross"`
	Credit money.Cents `json:"credit"`
	Net    money.Cents `json:"net"`
}

// Quote prices a campaign: every week's charge after account credit, and the totals.
type Quote struct {
	// Weekly is the sum of the chosen locations' weekly prices.
	Weekly money.Cents `json:"weekly"`
	Weeks  []WeekQuote `json:"weeks"`
	// CreditUsed is the account credit the weeks take (never more than each week's price); the
	// rest stays in the account.
	CreditUsed money.Cents `json:"credit_used"`
	// Total is the sum of the weeks' charges.
	Total money.Cents `json:"total"`
}
