package campaigns

import (
	"testing"
	"time"

	"marquee/modules/campaigns/internal/store"
	"marquee/platform/dates"
)

func TestTransitions(t *testing.T) {
	type tc struct {
		from    string
		a       action
		paid    bool
		to      string
		changed bool
		err     string
	}
	cases := []tc{
		{StatusPending, actionActivate, false, StatusActive, true, ""},
		{StatusPaid, actionActivate, false, StatusActive, true, ""},
		{StatusPaused, actionActivate, false, StatusPaused, false, ""},
		{StatusActive, actionPause, true, StatusPaused, true, ""},
		{StatusPending, actionPause, false, StatusPaused, true, ""},
		{StatusPaused, actionPause, true, StatusPaused, false, MsgCannotPause},
		{StatusCompleted, actionPause, true, StatusCompleted, false, MsgCannotPause},
		{StatusCanceled, actionPause, true, StatusCanceled, false, MsgCannotPause},
		{StatusPaused, actionResume, true, StatusActive, true, ""},
		{StatusPaused, actionResume, false, StatusPending, true, ""},
		{StatusActive, actionResume, true, StatusActive, false, MsgCannotResume},
		{StatusActive, actionStop, true, StatusCompleted, true, ""},
		{StatusPaused, actionStop, true, StatusCompleted, true, ""},
		{StatusCompleted, actionStop, true, StatusCompleted, false, ""},
		{StatusPending, actionStop, false, StatusCompleted, true, ""},
		{StatusPaid, actionStop, false, StatusCompleted, true, ""},
		{StatusCanceled, actionStop, false, StatusCanceled, false, MsgCannotStop},
		{StatusActive, actionComplete, true, StatusCompleted, true, ""},
		{StatusPaused, actionComplete, true, StatusCompleted, true, ""},
		{StatusPending, actionComplete, false, StatusPending, false, ""},
		{StatusCompleted, actionComplete, true, StatusCompleted, false, ""},
		{StatusActive, actionDelete, true, StatusCanceled, true, ""},
		{StatusCompleted, actionDelete, true, StatusCompleted, false, ""},
	}
	for _, c := range cases {
		to, changed, err := transition(c.from, c.a, c.paid)
		if to != c.to || changed != c.changed || (err == nil) != (c.err == "") || (err != nil && err.Error() != "invalid: "+c.err && !contains(err.Error(), c.err)) {
			t.Errorf("%s --%s--> %s %v %v, want %s %v %q", c.from, c.a, to, changed, err, c.to, c.changed, c.err)
		}
	}
	// Every status: applying a successful transition again changes nothing or is refused (idempotent).
	for _, s := range []string{StatusPending, StatusPaid, StatusActive, StatusPaused, StatusCompleted, StatusCanceled} {
		for _, a := range []action{actionActivate, actionPause, actionResume, actionStop, actionComplete, actionDelete} {
			to, changed, err := transition(s, a, true)
			if err != nil || !changed {
				continue
			}
			if to2, changed2, _ := transition(to, a, true); changed2 && a != actionResume && a != actionPause {
				t.Errorf("%s --%s--> %s --%s--> %s changed again", s, a, to, a, to2)
			}
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestLockedWeek(t *testing.T) {
	for day, want := range map[string]string{
		"2026-11-23": "2026-11-23", // Monday: this week
		"2026-11-25": "2026-11-23", // Wednesday: still this week (the cut-off is the end of Wednesday)
		"2026-11-26": "2026-11-30", // Thursday: next Monday is locked
		"2026-11-29": "2026-11-30", // Sunday
	} {
		if got := lockedWeek(dates.MustParse(day)); got.String() != want {
			t.Errorf("lockedWeek(%s) = %s, want %s", day, got, want)
		}
	}
}

func TestPlanJob(t *testing.T) {
	thu := dates.MustParse("2026-11-26") // locked: 11-30
	w := func(s string) dates.Date { return dates.MustParse(s) }
	weeks := []dates.Date{w("2026-11-16"), w("2026-11-23"), w("2026-11-30"), w("2026-12-07")}
	charged := map[dates.Date]string{w("2026-11-16"): "succeeded", w("2026-11-23"): "succeeded"}

	p := planJob(weekState{Status: StatusActive, Frequency: FrequencyWeekly, EndDate: w("2026-12-13"), Weeks: weeks, Charged: charged}, thu)
	if len(p.Charge) != 1 || p.Charge[0] != w("2026-11-30") || p.Complete || len(p.Skip) != 0 {
		t.Errorf("active weekly: %+v", p)
	}
	p = planJob(weekState{Status: StatusPaused, Frequency: FrequencyWeekly, EndDate: w("2026-12-13"), Weeks: weeks, Charged: charged}, thu)
	if len(p.Skip) != 1 || p.Skip[0] != w("2026-11-30") || len(p.Charge) != 0 {
		t.Errorf("paused weekly: %+v", p)
	}
	// After the next run recorded the charge, nothing is left: the job is safe to run twice.
	charged2 := map[dates.Date]string{w("2026-11-16"): "succeeded", w("2026-11-23"): "succeeded", w("2026-11-30"): "pending"}
	if p := planJob(weekState{Status: StatusActive, Frequency: FrequencyWeekly, EndDate: w("2026-12-13"), Weeks: weeks, Charged: charged2}, thu); !p.empty() {
		t.Errorf("second run: %+v", p)
	}
	// A finite campaign past its end completes; a pending one waits.
	if p := planJob(weekState{Status: StatusActive, Frequency: FrequencyWeekly, EndDate: w("2026-11-22"), Weeks: weeks}, thu); !p.Complete {
		t.Errorf("past end: %+v", p)
	}
	if p := planJob(weekState{Status: StatusPending, Frequency: FrequencyWeekly, EndDate: w("2026-11-22")}, thu); !p.empty() {
		t.Errorf("pending: %+v", p)
	}
	// Ongoing: books the locked week once its last week is behind it, and never a week in the past.
	ongoing := weekState{Status: StatusActive, Frequency: FrequencyOngoing, EndDate: w("2026-11-29"), Weeks: weeks[:2], Charged: charged, LastWeek: w("2026-11-23")}
	if p := planJob(ongoing, thu); p.Book != w("2026-11-30") || len(p.Charge) != 0 {
		t.Errorf("ongoing: %+v", p)
	}
	ongoing.LastWeek = w("2026-11-02")
	ongoing.Weeks = nil
	if p := planJob(ongoing, thu); p.Book != w("2026-11-30") {
		t.Errorf("ongoing after a gap: %+v", p)
	}
	ongoing.LastWeek, ongoing.Weeks = w("2026-11-30"), []dates.Date{w("2026-11-30")}
	ongoing.Charged = map[dates.Date]string{w("2026-11-30"): "pending"}
	if p := planJob(ongoing, thu); !p.empty() {
		t.Errorf("ongoing already booked: %+v", p)
	}
	// A paused ongoing campaign skips the locked week, so a resume continues after it.
	paused := weekState{Status: StatusPaused, Frequency: FrequencyOngoing, EndDate: w("2026-11-29"), Weeks: weeks[:2], Charged: charged, LastWeek: w("2026-11-23")}
	if p := planJob(paused, thu); len(p.Skip) != 1 || p.Skip[0] != w("2026-11-30") {
		t.Errorf("paused ongoing: %+v", p)
	}
	// Ongoing campaigns never complete by date.
	if p := planJob(weekState{Status: StatusActive, Frequency: FrequencyOngoing, EndDate: w("2026-11-01"), LastWeek: w("2026-11-30"), Weeks: []dates.Date{w("2026-11-30")}, Charged: map[dates.Date]string{w("2026-11-30"): "succeeded"}}, thu); !p.empty() {
		t.Errorf("ongoing past end: %+v", p)
	}
}

func TestChart(t *testing.T) {
	imp := func(v int64) *int64 { return &v }
	start := dates.MustParse("2026-11-02")
	var weeks []store.Week
	for i := 0; i < 3; i++ {
		for f := 0; f < 2; f++ {
			w := store.Week{FaceID: string(rune('a' + f)), StartAt: start.AddWeeks(i), EndAt: start.AddWeeks(i).AddDays(6), Ooh: 1000}
			if i < 2 {
				w.ActImp = imp(700)
			}
			weeks = append(weeks, w)
		}
	}
	// Tuesday 2026-11-17 00:00 + 1 s: week 1 ended (Sunday 11-08) more than a day ago, week 2
	// (ended 11-15 24:00) exactly 1 day and 1 s ago.
	now := time.Date(2026, 11, 17, 0, 0, 1, 0, time.UTC)
	ch := buildChart(weeks, 3, now, time.UTC)
	if len(ch.Labels) != 3 || ch.Labels[0] != "Week 1" || ch.Minimum[0] != 2000 || ch.Actual[0] == nil || *ch.Actual[0] != 1400 ||
		ch.Actual[1] == nil || ch.Actual[2] != nil {
		t.Fatalf("weekly chart = %+v", ch)
	}
	// Monday 11-16 12:00: week 2 ended only 12 hours ago.
	if ch := buildChart(weeks, 3, time.Date(2026, 11, 16, 12, 0, 0, 0, time.UTC), time.UTC); ch.Actual[1] != nil {
		t.Errorf("week 2 shown too early: %+v", ch)
	}
	// Duration 2 or 4: weeks up to and including the current one.
	if ch := buildChart(weeks, 4, time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC), time.UTC); len(ch.Labels) != 2 {
		t.Errorf("duration 4 labels = %v", ch.Labels)
	}
	// A single week: 7 days, a seventh each, actual for days ended over 24 hours ago.
	single := weeks[:2]
	ch = buildChart(single, 1, time.Date(2026, 11, 5, 0, 0, 1, 0, time.UTC), time.UTC) // Thursday: Mon, Tue ended > 24 h ago
	if len(ch.Labels) != 7 || ch.Labels[6] != "Day 7" || ch.Minimum[0] != 2000/7 || ch.Actual[0] == nil || *ch.Actual[0] != 1400/7 ||
		ch.Actual[1] == nil || ch.Actual[2] != nil {
		t.Fatalf("daily chart = %+v", ch)
	}
	// No data: no actual points at all (the web app draws 0–3).
	ch = buildChart(nil, 1, now, time.UTC)
	if len(ch.Labels) != 0 || ch.Actual == nil {
		t.Errorf("empty chart = %+v", ch)
	}
}
