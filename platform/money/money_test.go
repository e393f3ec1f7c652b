package money

import (
	"encoding/json"
	"testing"
	"testing/quick"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]Cents{
		"0": 0, "12": 1200, "12.5": 1250, "12.50": 1250, "0.07": 7, "-3": -300, "-0.5": -50, " 7 ": 700,
	} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", ".5", "1.", "1.234", "1e3", "abc", "1,000", "--1", "1000000000001", "NaN"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	for _, c := range []Cents{0, 1, 99, 100, 1250, -7, 123456789} {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back Cents
		if err := json.Unmarshal(b, &back); err != nil || back != c {
			t.Errorf("%v → %s → %v, %v", int64(c), b, back, err)
		}
	}
	b, _ := json.Marshal(struct{ V Cents }{1250})
	if string(b) != `{"V":12.50}` {
		t.Errorf("marshal = %s", b)
	}
}

func TestString(t *testing.T) {
	for c, want := range map[Cents]string{0: "$0", 99: "$0", 1250: "$12", 125000: "$1,250", 123456789: "$1,234,567", -125000: "-$1,250"} {
		if got := c.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int64(c), got, want)
		}
	}
}

func TestCeilTo(t *testing.T) {
	ten := Dollars(10)
	for in, want := range map[Cents]Cents{0: 0, 1: 1000, 1000: 1000, 1001: 2000, 45500: 46000, -1500: -1000} {
		if got := in.CeilTo(ten); got != want {
			t.Errorf("CeilTo(%d) = %d, want %d", in, got, want)
		}
	}
}

// SplitEven never loses or creates a cent, and its parts differ by at most one cent.
func TestSplitEvenProperty(t *testing.T) {
	f := func(total int64, n uint8) bool {
		parts := Cents(total / 4).SplitEven(int(n%60) + 1)
		var sum, lo, hi Cents
		lo, hi = parts[0], parts[0]
		for _, p := range parts {
			sum += p
			lo, hi = min(lo, p), max(hi, p)
		}
		return sum == Cents(total/4) && hi-lo <= 1
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 5000}); err != nil {
		t.Error(err)
	}
	if Cents(5).SplitEven(0) != nil {
		t.Error("SplitEven(0) should be nil")
	}
}
