package dates

import (
	"encoding/json"
	"testing"
	"testing/quick"
	"time"

	"marquee/platform/clock"
)

func TestWeekArithmetic(t *testing.T) {
	cases := []struct{ day, start, end, next string }{
		{"2026-11-23", "2026-11-23", "2026-11-29", "2026-11-30"}, // Monday
		{"2026-11-25", "2026-11-23", "2026-11-29", "2026-11-30"}, // Wednesday
		{"2026-11-29", "2026-11-23", "2026-11-29", "2026-11-30"}, // Sunday
		{"2026-12-31", "2026-12-28", "2027-01-03", "2027-01-04"}, // across the year
	}
	for _, c := range cases {
		d := MustParse(c.day)
		if got := d.WeekStart().String(); got != c.start {
			t.Errorf("%s.WeekStart() = %s, want %s", c.day, got, c.start)
		}
		if got := d.WeekEnd().String(); got != c.end {
			t.Errorf("%s.WeekEnd() = %s, want %s", c.day, got, c.end)
		}
		if got := d.NextMonday().String(); got != c.next {
			t.Errorf("%s.NextMonday() = %s, want %s", c.day, got, c.next)
		}
	}
	w := MustParse("2026-11-25").Weeks(3)
	if len(w) != 3 || w[0].String() != "2026-11-23" || w[2].String() != "2026-12-07" {
		t.Errorf("Weeks = %v", w)
	}
}

// For every day, WeekStart is a Monday at most 6 days before it, and WeekEnd the Sunday after.
func TestWeekProperty(t *testing.T) {
	base := MustParse("2000-01-01")
	f := func(n uint16) bool {
		d := base.AddDays(int(n))
		s := d.WeekStart()
		return s.IsMonday() && !s.After(d) && s.DaysUntil(d) <= 6 &&
			d.WeekEnd().Weekday() == time.Sunday && s.DaysUntil(d.WeekEnd()) == 6
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 3000}); err != nil {
		t.Error(err)
	}
}

func TestParseAndJSON(t *testing.T) {
	for _, bad := range []string{"", "2026-13-01", "11/23/2026", "2026-11-31", "2026-1-1"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	var v struct{ D Date }
	if err := json.Unmarshal([]byte(`{"D":"2026-11-23"}`), &v); err != nil || !v.D.IsMonday() {
		t.Fatalf("unmarshal: %v %v", v.D, err)
	}
	b, _ := json.Marshal(v)
	if string(b) != `{"D":"2026-11-23"}` {
		t.Errorf("marshal = %s", b)
	}
	if err := json.Unmarshal([]byte(`{"D":"23/11/2026"}`), &v); err == nil {
		t.Error("bad date accepted")
	}
	var s Date
	for _, src := range []any{"2026-11-23", []byte("2026-11-23"), time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC), "2026-11-23T00:00:00Z"} {
		if err := s.Scan(src); err != nil || s.String() != "2026-11-23" {
			t.Errorf("Scan(%v) = %v, %v", src, s, err)
		}
	}
}

// TestTodayIsTheBusinessZoneDate: a clock put in a zone (clock.InZone) gives that zone's date, at
// both sides of its midnight and across the summer-time change; a bare clock gives UTC's.
func TestTodayIsTheBusinessZoneDate(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		utc  time.Time
		want string
	}{
		{time.Date(2026, 11, 26, 4, 59, 59, 0, time.UTC), "2026-11-25"}, // EST: Wednesday 23:59:59
		{time.Date(2026, 11, 26, 5, 0, 0, 0, time.UTC), "2026-11-26"},
		{time.Date(2026, 7, 2, 3, 59, 0, 0, time.UTC), "2026-07-01"}, // EDT: 23:59
		{time.Date(2026, 7, 2, 4, 0, 0, 0, time.UTC), "2026-07-02"},
	} {
		c := clock.NewManual(tc.utc)
		if got := Today(clock.InZone(c, ny)).String(); got != tc.want {
			t.Errorf("%s in New York = %s, want %s", tc.utc, got, tc.want)
		}
		if got, want := Today(c), Of(tc.utc); got != want {
			t.Errorf("a bare clock at %s = %s, want %s", tc.utc, got, want)
		}
	}
}
