package billing

import "marquee/platform/money"

// The money rules of B §9 that campaigns price with. They are pure and in cents: no float holds an
// amount, and splitting credit never loses or creates a cent.

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

// SumPrices adds the chosen locations' weekly prices.
func SumPrices(prices []money.Cents) money.Cents {
	var sum money.Cents
	for _, p := range prices {
		sum += p
	}
	return sum
}

// CreditPortions splits account credit evenly across the duration weeks (B §9): the portions
// differ by at most a cent and add up to the credit exactly. No credit, or no weeks, gives zeros.
func CreditPortions(credit money.Cents, weeks int) []money.Cents {
	if weeks < 1 {
		return nil
	}
	return money.Max(credit, 0).SplitEven(weeks)
}

// WeeklyTotal is the sum of the chosen locations' prices minus the week's credit portion, never
// below 0 (B §9).
func WeeklyTotal(prices []money.Cents, creditPortion money.Cents) money.Cents {
	return money.Max(SumPrices(prices)-money.Max(creditPortion, 0), 0)
}

// SpendableBudget is the weekly budget plus promo credit: promo credit adds to what a campaign may
// spend (B §9).
func SpendableBudget(weeklyBudget, promoCredit money.Cents) money.Cents {
	return weeklyBudget + money.Max(promoCredit, 0)
}

// CampaignTotal is the weekly total times the duration in weeks (B §9).
func CampaignTotal(weekly money.Cents, weeks int) money.Cents {
	if weeks < 1 {
		return 0
	}
	return weekly * money.Cents(weeks)
}

// QuoteCampaign prices a campaign of the given weeks: account credit is split evenly across the
// weeks and deducted from each week's total, floored at 0 (B §9). Without credit, Total equals
// CampaignTotal(Weekly, weeks).
func QuoteCampaign(prices []money.Cents, accountCredit money.Cents, weeks int) Quote {
	q := Quote{Weekly: SumPrices(prices)}
	for _, portion := range CreditPortions(accountCredit, weeks) {
		net := WeeklyTotal(prices, portion)
		used := q.Weekly - net
		q.Weeks = append(q.Weeks, WeekQuote{Gross: q.Weekly, Credit: used, Net: net})
		q.CreditUsed += used
		q.Total += net
	}
	return q
}
