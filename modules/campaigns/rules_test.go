package campaigns

import (
	"encoding/json"
	"testing"
	"testing/quick"
	"time"

	"marquee/platform/dates"
	"marquee/platform/money"
)

var d = dates.MustParse

// The week of 2026-11-23 (Monday) to 2026-11-29 (Sunday), and the days around it.
func TestEarliestStartAndDefaultStart(t *testing.T) {
	cases := []struct {
		today           string
		earliest, deflt string
	}{
		{"2026-11-23", "2026-11-30", "2026-11-30"}, // Monday (JS 1): next Monday; +7 is a Monday
		{"2026-11-24", "2026-11-30", "2026-12-07"}, // Tuesday (JS 2): +7 = Tue Dec 1 → Mon Dec 7
		{"2026-11-25", "2026-11-30", "2026-12-07"}, // Wednesday (JS 3): the cut-off day itself
		{"2026-11-26", "2026-12-07", "2026-12-14"}, // Thursday (JS 4): past the cut-off; +14 = Dec 10 → Dec 14
		{"2026-11-27", "2026-12-07", "2026-12-14"}, // Friday (JS 5)
		{"2026-11-28", "2026-12-07", "2026-12-14"}, // Saturday (JS 6): +14 = Dec 12 → Dec 14
		{"2026-11-29", "2026-12-07", "2026-12-07"}, // Sunday (JS 0): +7 = Dec 6 → Dec 7
		{"2026-11-22", "2026-11-30", "2026-11-30"}, // testkit's start, a Sunday
		{"2026-12-30", "2027-01-04", "2027-01-11"}, // Wednesday across the year end
	}
	for _, c := range cases {
		if got := EarliestStart(d(c.today)); got != d(c.earliest) {
			t.Errorf("EarliestStart(%s) = %s, want %s", c.today, got, c.earliest)
		}
		if got := DefaultStart(d(c.today)); got != d(c.deflt) {
			t.Errorf("DefaultStart(%s) = %s, want %s", c.today, got, c.deflt)
		}
	}
}

func TestCutOffAndValidStart(t *testing.T) {
	monday := d("2026-11-30")
	if CutOff(monday) != d("2026-11-25") || CutOff(monday).Weekday() != time.Wednesday {
		t.Fatalf("cut-off = %s", CutOff(monday))
	}
	cases := []struct {
		today, start string
		ok           bool
	}{
		{"2026-11-25", "2026-11-30", true},  // on the cut-off
		{"2026-11-26", "2026-11-30", false}, // a day late
		{"2026-11-26", "2026-12-07", true},
		{"2026-11-22", "2026-11-23", false}, // tomorrow's Monday is past its cut-off
		{"2026-11-22", "2026-11-16", false}, // in the past
		{"2026-11-22", "2026-12-01", false}, // a Tuesday
		{"2026-11-22", "2027-11-29", true},
	}
	for _, c := range cases {
		if got := ValidStart(d(c.today), d(c.start)); got != c.ok {
			t.Errorf("ValidStart(%s, %s) = %v, want %v", c.today, c.start, got, c.ok)
		}
	}
}

func TestEndAndDuration(t *testing.T) {
	start := d("2026-11-30")
	cases := []struct {
		freq     string
		end      string
		duration int
		want     int
	}{
		{FrequencyOneTime, "", 5, 1},
		{FrequencyOngoing, "2027-03-28", 9, 1},
		{FrequencyIndefinitely, "", 0, 1},
		{FrequencyWeekly, "", 0, DefaultWeeklyDuration},
		{FrequencyWeekly, "", 7, 7},
		{FrequencyWeekly, "2026-12-06", 0, 1},  // the first Sunday
		{FrequencyWeekly, "2026-12-13", 0, 2},  // the second Sunday
		{FrequencyWeekly, "2026-12-10", 9, 2},  // a Thursday: whole weeks between plus one
		{FrequencyWeekly, "2026-11-29", 3, 1},  // before the start: minimum 1
		{FrequencyWeekly, "2027-11-28", 0, 52}, // a year
		{FrequencyWeekly, "2027-12-05", 0, 53}, // too long: the caller refuses it
	}
	for _, c := range cases {
		var end dates.Date
		if c.end != "" {
			end = d(c.end)
		}
		if got := Duration(c.freq, start, end, c.duration); got != c.want {
			t.Errorf("Duration(%s, end %q, %d) = %d, want %d", c.freq, c.end, c.duration, got, c.want)
		}
	}
	if EndOf(start, 1) != d("2026-12-06") || EndOf(start, 52) != d("2027-11-28") || EndOf(start, 0) != d("2026-12-06") {
		t.Fatal("EndOf")
	}
	if w := BookedWeeks(FrequencyWeekly, start, 3); len(w) != 3 || w[2] != d("2026-12-14") {
		t.Fatalf("weekly weeks = %v", w)
	}
	if w := BookedWeeks(FrequencyOngoing, start, 3); len(w) != 1 || w[0] != start {
		t.Fatalf("ongoing weeks = %v", w)
	}
}

// dayFrom maps any int to a day between 2020 and about 2080.
func dayFrom(n int32) dates.Date {
	v := int(n) % 22000
	if v < 0 {
		v = -v
	}
	return d("2020-01-01").AddDays(v)
}

func TestDateRulesProperties(t *testing.T) {
	cfg := &quick.Config{MaxCount: 5000}
	// The earliest start is a Monday, not past its cut-off, at most 14 days away; the Monday before
	// it is past its cut-off (it is the first one allowed).
	earliest := func(n int32) bool {
		today := dayFrom(n)
		e := EarliestStart(today)
		return e.IsMonday() && ValidStart(today, e) && e.After(today) && today.DaysUntil(e) <= 14 &&
			!ValidStart(today, e.AddWeeks(-1))
	}
	// The default start is a Monday 7 to 20 days away and never before the earliest start.
	deflt := func(n int32) bool {
		today := dayFrom(n)
		s := DefaultStart(today)
		days := today.DaysUntil(s)
		return s.IsMonday() && days >= 7 && days <= 20 && !s.Before(EarliestStart(today)) && ValidStart(today, s)
	}
	// End and duration are inverse: a campaign of n weeks ends on a Sunday n weeks later, and the
	// duration from that end is n again.
	roundTrip := func(n int32, w uint8) bool {
		start := EarliestStart(dayFrom(n))
		weeks := int(w)%MaxDurationWeeks + 1
		end := EndOf(start, weeks)
		return end.Weekday() == time.Sunday && DurationFromEnd(start, end) == weeks &&
			Duration(FrequencyWeekly, start, end, 0) == weeks && len(BookedWeeks(FrequencyWeekly, start, weeks)) == weeks
	}
	// Any end at or after the start gives at least 1 week, and moving the end a day later never
	// shortens the campaign.
	monotone := func(n int32, days uint16) bool {
		start := EarliestStart(dayFrom(n))
		end := start.AddDays(int(days) % 400)
		return DurationFromEnd(start, end) >= 1 && DurationFromEnd(start, end.AddDays(1)) >= DurationFromEnd(start, end)
	}
	for name, f := range map[string]any{"earliest": earliest, "default": deflt, "roundTrip": roundTrip, "monotone": monotone} {
		if err := quick.Check(f, cfg); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestParseBudget(t *testing.T) {
	cases := []struct {
		in               string
		want             money.Cents
		present, isValid bool
	}{
		{"", 0, false, true},
		{"  ", 0, false, true},
		{"1250", 125000, true, true},
		{"$1,250", 125000, true, true},
		{"$1,250.5", 125050, true, true},
		{"abc", 0, true, false},
		{"12abc", 0, true, false},
		{"-5", 0, true, false},
		{"1e3", 0, true, false},
	}
	for _, c := range cases {
		got, present, ok := ParseBudget(BudgetInput(c.in))
		if got != c.want || present != c.present || ok != c.isValid {
			t.Errorf("ParseBudget(%q) = %d %v %v", c.in, got, present, ok)
		}
	}
	var f struct {
		A BudgetInput `json:"a"`
		B BudgetInput `json:"b"`
		C BudgetInput `json:"c"`
	}
	if err := json.Unmarshal([]byte(`{"a": 1250.5, "b": "$1,250", "c": null}`), &f); err != nil || f.A != "1250.5" || f.B != "$1,250" || f.C != "" {
		t.Fatalf("decode = %+v %v", f, err)
	}
	if SuggestedDailyBudget(0) != 0 || SuggestedDailyBudget(1) != money.Dollars(20) || SuggestedDailyBudget(10) != money.Dollars(20) || SuggestedDailyBudget(11) != money.Dollars(40) {
		t.Fatal("SuggestedDailyBudget")
	}
}
