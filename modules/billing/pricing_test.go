package billing

import (
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"

	"marquee/platform/apperr"
	"marquee/platform/money"
)

func c(d int64) money.Cents { return money.Cents(d) }

func TestCreditPortions(t *testing.T) {
	for _, tc := range []struct {
		credit money.Cents
		weeks  int
		want   []money.Cents
	}{
		{c(10000), 4, []money.Cents{2500, 2500, 2500, 2500}},
		{c(10001), 4, []money.Cents{2501, 2500, 2500, 2500}},
		{c(100), 3, []money.Cents{34, 33, 33}},
		{c(0), 2, []money.Cents{0, 0}},
		{c(-500), 2, []money.Cents{0, 0}}, // credit is never negative; a bad input gives none
		{c(100), 0, nil},
	} {
		if got := CreditPortions(tc.credit, tc.weeks); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("CreditPortions(%d, %d) = %v, want %v", tc.credit, tc.weeks, got, tc.want)
		}
	}
}

func TestWeeklyTotalAndBudget(t *testing.T) {
	prices := []money.Cents{money.Dollars(500), money.Dollars(750)}
	for _, tc := range []struct {
		portion, want money.Cents
	}{
		{0, money.Dollars(1250)},
		{money.Dollars(250), money.Dollars(1000)},
		{money.Dollars(1250), 0},
		{money.Dollars(5000), 0}, // floored at 0 (B §9)
		{-100, money.Dollars(1250)},
	} {
		if got := WeeklyTotal(prices, tc.portion); got != tc.want {
			t.Errorf("WeeklyTotal(%v) = %v, want %v", tc.portion, got, tc.want)
		}
	}
	if got := SpendableBudget(money.Dollars(1000), money.Dollars(50)); got != money.Dollars(1050) {
		t.Errorf("promo credit adds to the budget: %v", got)
	}
	if got := SpendableBudget(money.Dollars(1000), -1); got != money.Dollars(1000) {
		t.Errorf("negative promo credit: %v", got)
	}
	if got := QuoteCampaign([]money.Cents{money.Dollars(1250)}, 0, 4).Total; got != money.Dollars(5000) {
		t.Errorf("total = weekly x duration: %v", got)
	}
	if got := QuoteCampaign([]money.Cents{money.Dollars(1250)}, 0, 0).Total; got != 0 {
		t.Errorf("no weeks: %v", got)
	}
	if got := money.Dollars(1250).String(); got != "$1,250" {
		t.Errorf("prices are shown without cents: %q", got)
	}
}

func TestQuoteCampaign(t *testing.T) {
	prices := []money.Cents{money.Dollars(500), money.Dollars(750)}
	q := QuoteCampaign(prices, money.Dollars(100), 4)
	if q.Weekly != money.Dollars(1250) || q.CreditUsed != money.Dollars(100) || q.Total != money.Dollars(4900) || len(q.Weeks) != 4 {
		t.Fatalf("quote = %+v", q)
	}
	for _, w := range q.Weeks {
		if w.Credit != money.Dollars(25) || w.Net != money.Dollars(1225) {
			t.Fatalf("week = %+v", w)
		}
	}
	// No credit: total equals weekly x duration.
	if q := QuoteCampaign(prices, 0, 3); q.Total != q.Weekly*3 {
		t.Fatalf("no credit: %+v", q)
	}
	// More credit than the campaign costs: every week 0, the rest stays in the account.
	if q := QuoteCampaign([]money.Cents{money.Dollars(10)}, money.Dollars(100), 2); q.Total != 0 || q.CreditUsed != money.Dollars(20) {
		t.Fatalf("large credit: %+v", q)
	}
}

// TestSplittingCreditNeverLosesOrCreatesACent is the property: for any credit, prices and duration,
// the portions sum to the credit, and each week's net plus the credit it used is its gross, so the
// total plus the credit used equals weekly times duration, to the cent.
func TestSplittingCreditNeverLosesOrCreatesACent(t *testing.T) {
	prop := func(creditRaw uint32, weeksRaw uint8, pricesRaw []uint32) bool {
		credit := money.Cents(creditRaw)
		weeks := int(weeksRaw%52) + 1 // B §9: at most 52 weeks
		prices := make([]money.Cents, len(pricesRaw)%20)
		for i := range prices {
			prices[i] = money.Cents(pricesRaw[i] % 10_000_000)
		}
		portions := CreditPortions(credit, weeks)
		var sum money.Cents
		for _, p := range portions {
			sum += p
			if p < 0 || p-portions[len(portions)-1] > 1 {
				return false
			}
		}
		if sum != credit {
			return false
		}
		q := QuoteCampaign(prices, credit, weeks)
		var nets money.Cents
		for _, w := range q.Weeks {
			if w.Net < 0 || w.Net+w.Credit != w.Gross {
				return false
			}
			nets += w.Net
		}
		return nets == q.Total && q.Total+q.CreditUsed == q.Weekly*money.Cents(weeks) && q.CreditUsed <= credit
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 5000, Rand: rand.New(rand.NewSource(1))}); err != nil {
		t.Fatal(err)
	}
}

func TestNormalizePromoCode(t *testing.T) {
	for _, tc := range []struct{ in, want, msg string }{
		{"welcome50", "WELCOME50", ""},
		{"Spring-25_x", "SPRING-25_X", ""},
		{"", "", MsgPromoRequired},
		{"A B", "", MsgPromoWhitespace},
		{"AB\t", "", MsgPromoWhitespace},
		{"AB\u00a0", "", MsgPromoWhitespace},
		{"ÉTÉ", "", MsgPromoFormat},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456", "", MsgPromoFormat},
	} {
		got, err := NormalizePromoCode(tc.in)
		msg := ""
		if err != nil {
			msg = apperr.As(err).Message
		}
		if got != tc.want || msg != tc.msg {
			t.Errorf("%q = %q %q, want %q %q", tc.in, got, msg, tc.want, tc.msg)
		}
	}
}
