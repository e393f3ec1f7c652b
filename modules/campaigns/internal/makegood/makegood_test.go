package makegood

import (
	"testing"

	"marquee/platform/money"
)

// The make-good arithmetic on its own; the HTTP tests of modules/campaigns (makegoods_test.go)
// check the same rules through the delivery call.
func TestCredit(t *testing.T) {
	cases := []struct {
		name               string
		price              money.Cents
		planned, delivered int64
		threshold          int
		want               money.Cents
	}{
		{"nothing planned earns nothing", 50000, 0, 0, 90, 0},
		{"a free week earns nothing", 0, 1000, 0, 90, 0},
		{"a negative delivery is not a shortfall", 50000, 1000, -1, 90, 0},
		{"delivery at the threshold earns nothing", 50000, 1000, 900, 90, 0},
		{"one impression under the threshold earns the whole shortfall", 50000, 1000, 899, 90, 5050},
		{"nothing delivered earns the whole price", 50000, 1000, 0, 90, 50000},
		{"70% of plan earns 30% of the price", 10000, 1000, 700, 90, 3000},
		// 1 cent × 1 / 3 = 0.333… rounds down; 2 cents × 1 / 3 = 0.666… rounds up.
		{"a third of a cent rounds down", 1, 3, 2, 90, 0},
		{"two thirds of a cent round up", 2, 3, 2, 90, 1},
		{"half a cent rounds up", 1, 2, 1, 90, 1},
		{"big figures stay exact", 1_000_000_000, MaxActImp, 1, 90, 999_999_999},
	}
	for _, c := range cases {
		if got := Credit(c.price, c.planned, c.delivered, c.threshold); got != c.want {
			t.Errorf("%s: Credit(%d, %d, %d, %d) = %d, want %d", c.name, c.price, c.planned, c.delivered, c.threshold, got, c.want)
		}
	}
}

func TestDeliveryFigures(t *testing.T) {
	if d, p := DeliveryFigures(1000, nil); d != nil || p != nil {
		t.Errorf("nothing recorded: got %v %v, want nil nil", d, p)
	}
	act := int64(700)
	d, p := DeliveryFigures(1000, &act)
	if d == nil || *d != -300 || p == nil || *p != 70 {
		t.Errorf("700 of 1000: got %v %v, want -300 and 70.0", d, p)
	}
	// 2 of 3 is 66.666…%: one decimal, half up.
	two := int64(2)
	if _, p := DeliveryFigures(3, &two); p == nil || *p != 66.7 {
		t.Errorf("2 of 3: got %v, want 66.7", p)
	}
	// Nothing planned: a difference but no percentage.
	if d, p := DeliveryFigures(0, &act); d == nil || *d != 700 || p != nil {
		t.Errorf("nothing planned: got %v %v, want 700 and nil", d, p)
	}
}

func TestMaxImpressions(t *testing.T) {
	for _, c := range []struct{ planned, want int64 }{
		{0, MaxActImp}, {-5, MaxActImp}, {1000, 10_000}, {MaxActImp, MaxActImp},
	} {
		if got := MaxImpressions(c.planned); got != c.want {
			t.Errorf("MaxImpressions(%d) = %d, want %d", c.planned, got, c.want)
		}
	}
}

func TestCreditString(t *testing.T) {
	for _, c := range []struct {
		cents int64
		want  string
	}{{0, "$0.00"}, {5, "$0.05"}, {3800, "$38.00"}, {123456789, "$1,234,567.89"}} {
		if got := CreditString(c.cents); got != c.want {
			t.Errorf("CreditString(%d) = %q, want %q", c.cents, got, c.want)
		}
	}
}
