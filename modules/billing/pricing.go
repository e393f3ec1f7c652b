package billing

import "marquee/platform/money"

// The money rules of B §9 that campaigns price with. They are pure and in cents: no float holds an
// amount, and splitting credit never loses or creates a cent.

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

// QuoteCampaign prices a campaign of the given weeks: account credit is split evenly across the
// weeks and deducted from each week's total, floored at 0 (B §9). Without credit, Total is Weekly
// times the weeks.
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
