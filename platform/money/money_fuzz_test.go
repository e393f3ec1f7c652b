package money

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzParse: Parse never panics; what it accepts is a decimal of at most two places within the
// bound, and formats back to the same amount (Parse(DollarString(c)) == c); what it refuses is
// ErrInvalid, by the JSON reader too. The JSON form round-trips.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"12", "12.5", "12.50", "-3", "0.07", "-0.07", "0", "-0", " 1 ", "1.", ".5",
		"1.234", "1e3", "+1", "--1", "1,000", "NaN", "Inf", "0x10", "1_000", "١٢", "9223372036854775807",
		"1000000000000", "1000000000000.99", "1000000000001", "-1000000000000.99", "007.10", "", "-", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse(%q) = %v, want ErrInvalid", s, err)
			}
			// The JSON reader, given the same text, refuses it with the same error (or reads null).
			var j Cents
			if err := j.UnmarshalJSON([]byte(s)); err != nil && !errors.Is(err, ErrInvalid) {
				t.Fatalf("UnmarshalJSON(%q) = %v, want ErrInvalid", s, err)
			} else if err == nil && strings.Trim(s, `"`) != "null" && strings.Trim(s, `"`) == s {
				t.Fatalf("Parse(%q) refused it, but UnmarshalJSON reads %d", s, j)
			}
			return
		}
		if c > Dollars(maxDollars)+99 || c < -(Dollars(maxDollars)+99) {
			t.Fatalf("Parse(%q) = %d cents, past the bound", s, c)
		}
		back, err := Parse(c.DollarString())
		if err != nil || back != c {
			t.Fatalf("Parse(%q) = %d; Parse(%q) = %d, %v", s, c, c.DollarString(), back, err)
		}
		raw, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var j Cents
		if err := json.Unmarshal(raw, &j); err != nil || j != c {
			t.Fatalf("JSON round trip of %d through %s = %d, %v", c, raw, j, err)
		}
		if got := c.String(); !strings.Contains(got, "$") {
			t.Fatalf("String(%d) = %q", c, got)
		}
	})
}

// FuzzCentsArithmetic: SplitEven sums back exactly with parts one cent apart; CeilTo gives the
// next multiple at or above the amount.
func FuzzCentsArithmetic(f *testing.F) {
	f.Add(int64(1000), 3, int64(1000))
	f.Add(int64(-1001), 7, int64(500))
	f.Add(int64(0), 1, int64(0))
	f.Fuzz(func(t *testing.T, v int64, n int, step int64) {
		bound := int64(Dollars(maxDollars))
		c := Cents(v % bound)
		n = n % 1000
		if parts := c.SplitEven(n); n >= 1 {
			var sum Cents
			lo, hi := parts[0], parts[0]
			for _, p := range parts {
				sum += p
				lo, hi = min(lo, p), max(hi, p)
			}
			if sum != c || hi-lo > 1 {
				t.Fatalf("SplitEven(%d, %d) = %v", c, n, parts)
			}
		} else if parts != nil {
			t.Fatalf("SplitEven(%d, %d) = %v, want nil", c, n, parts)
		}
		s := Cents(step % bound)
		got := c.CeilTo(s)
		if s <= 0 {
			if got != c {
				t.Fatalf("CeilTo(%d, %d) = %d", c, s, got)
			}
			return
		}
		if got < c || got-c >= s || got%s != 0 {
			t.Fatalf("CeilTo(%d, %d) = %d", c, s, got)
		}
	})
}
