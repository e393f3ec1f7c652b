package player

import (
	"testing"
	"time"
)

func TestPlanHoursAndWeeks(t *testing.T) {
	s := Schedule{Timezone: "America/New_York", SlotSeconds: 8, LoopSeconds: 64,
		Weeks: []Week{{WeekStart: "2026-11-23", Items: []Item{{CreativeID: "a"}}}, {WeekStart: "2026-11-30", Items: []Item{}}}}
	ny, _ := time.LoadLocation("America/New_York")
	at := func(day, hh, mm int) time.Time { return time.Date(2026, 11, day, hh, mm, 0, 0, ny) }
	for _, tc := range []struct {
		open, close string
		t           time.Time
		want        bool
	}{
		{"06:00", "24:00", at(26, 5, 59), false},
		{"06:00", "24:00", at(26, 6, 0), true},
		{"06:00", "24:00", at(26, 23, 59), true},
		{"18:00", "02:00", at(26, 1, 59), true}, // past midnight
		{"18:00", "02:00", at(26, 2, 0), false},
		{"18:00", "02:00", at(26, 12, 0), false},
		{"00:00", "24:00", at(26, 0, 0), true},
		{"00:00", "00:00", at(26, 13, 0), true},
	} {
		s.Hours.Open, s.Hours.Close = tc.open, tc.close
		p, err := newPlan(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.isOpen(tc.t.UTC()); got != tc.want {
			t.Errorf("%s-%s at %s: open %v, want %v", tc.open, tc.close, tc.t, got, tc.want)
		}
	}
	p, _ := newPlan(s)
	// Weeks are local: Sunday 23:30 in New York is already Monday in UTC, still the first week.
	if got := p.itemsAt(at(29, 23, 30).UTC()); len(got) != 1 {
		t.Errorf("Sunday night: %v, want the first week's item", got)
	}
	if got := p.itemsAt(at(30, 0, 0)); got == nil || len(got) != 0 {
		t.Errorf("the second week: %v, want its empty list", got)
	}
	if p.covers(at(22, 12, 0)) || !p.covers(at(23, 0, 0)) {
		t.Error("covers: wrong bounds")
	}
	for _, bad := range []Schedule{
		{Timezone: "Mars/Olympus", SlotSeconds: 8},
		{Timezone: "UTC", SlotSeconds: 0},
		{Timezone: "UTC", SlotSeconds: 8, Weeks: []Week{{WeekStart: "11/23/2026"}}},
	} {
		bad.Hours.Open, bad.Hours.Close = "06:00", "24:00"
		if _, err := newPlan(bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	s.Hours.Open, s.Hours.Close = "6:00", "24:30"
	if _, err := newPlan(s); err == nil {
		t.Error("24:30 accepted")
	}
}

func TestLastErrorIsOneLine(t *testing.T) {
	got := oneLine("post: the server answered 500:\n<html>\r\n\u2028boom\x00", 300)
	if got != "post: the server answered 500: <html>   boom " {
		t.Errorf("%q", got)
	}
	if n := len([]rune(oneLine(string(make([]byte, 1000)), 300))); n != 300 {
		t.Errorf("cut to %d runes", n)
	}
}
