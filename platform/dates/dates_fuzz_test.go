package dates

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzParse: Parse never panics; it refuses with ErrInvalid, or gives a real (non-zero) day that
// formats back to the text it read (format(parse(s)) == s) and survives JSON, text and database
// round trips. The week helpers hold on every accepted day.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"2026-11-23", "2026-02-29", "2028-02-29", "2026-02-30", "2026-13-01", "2026-00-10",
		"0001-01-01", "0001-01-02", "0999-12-31", "1000-01-01", "0000-01-01", "9999-12-31", "10000-01-01", "-2026-01-01", " 2026-11-23 ", "2026-1-1",
		"2026-11-23T00:00:00Z", "26-11-23", "２０２６-11-23", "", "\x00", "2026-11-23\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse(%q) = %v, want ErrInvalid", s, err)
			}
			return
		}
		if d.IsZero() {
			t.Fatalf("Parse(%q) accepted the zero Date, which means \"no date\"", s)
		}
		if got := d.String(); got != strings.TrimSpace(s) {
			t.Fatalf("Parse(%q).String() = %q", s, got)
		}
		raw, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var j Date
		if err := json.Unmarshal(raw, &j); err != nil || !j.Equal(d) {
			t.Fatalf("JSON round trip of %s through %s = %s, %v", d, raw, j, err)
		}
		v, _ := d.Value()
		var scanned Date
		if err := scanned.Scan(v); err != nil || !scanned.Equal(d) {
			t.Fatalf("database round trip of %s = %s, %v", d, scanned, err)
		}
		ws := d.WeekStart()
		if !ws.IsMonday() || ws.After(d) || ws.DaysUntil(d) > 6 {
			t.Fatalf("WeekStart(%s) = %s", d, ws)
		}
		if nm := d.NextMonday(); !nm.IsMonday() || !nm.After(d) || d.DaysUntil(nm) > 7 {
			t.Fatalf("NextMonday(%s) = %s", d, nm)
		}
	})
}

// FuzzFormatParse: every day of years 1000 to 9999 formats and parses back to itself.
func FuzzFormatParse(f *testing.F) {
	f.Add(2026, 11, 23)
	f.Add(1, 1, 1)
	f.Add(9999, 12, 31)
	f.Add(2024, 2, 29)
	f.Fuzz(func(t *testing.T, y, m, day int) {
		d := New(1000+abs(y)%9000, time.Month(1+abs(m)%12), 1+abs(day)%31)
		if d.Time().Year() > 9999 { // Dec 31 + overflow normalises into year 10000
			return
		}
		back, err := Parse(d.String())
		if err != nil || !back.Equal(d) {
			t.Fatalf("Parse(%q) = %s, %v; want %s", d.String(), back, err, d.Time())
		}
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n { // math.MinInt
			return 0
		}
		return -n
	}
	return n
}

// FuzzScan: reading a database value never panics and gives a day or an error.
func FuzzScan(f *testing.F) {
	f.Add("2026-11-23")
	f.Add("2026-11-23 00:00:00+00")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		var d Date
		_ = d.Scan(s)
		_ = d.Scan([]byte(s))
		_ = d.UnmarshalText([]byte(s))
		_ = d.UnmarshalJSON([]byte(s))
	})
}
