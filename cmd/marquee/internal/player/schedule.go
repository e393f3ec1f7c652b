package player

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Schedule is the device schedule of PROTOCOL "Schedule".
type Schedule struct {
	ScreenID    string `json:"screen_id"`
	FaceID      string `json:"face_id"`
	Timezone    string `json:"timezone"`
	SlotSeconds int    `json:"slot_seconds"`
	LoopSeconds int    `json:"loop_seconds"`
	Hours       struct {
		Open  string `json:"open"`
		Close string `json:"close"`
	} `json:"hours"`
	Weeks []Week `json:"weeks"`
}

// Week is one week of a schedule.
type Week struct {
	WeekStart string `json:"week_start"`
	Items     []Item `json:"items"`
}

// Item is one booked creative of a week.
type Item struct {
	CampaignID string `json:"campaign_id"`
	CreativeID string `json:"creative_id"`
	SHA256     string `json:"sha256"`
	URL        string `json:"url"`
	ExpiresAt  string `json:"expires_at"`
}

// plan is a schedule made ready to play: its zone, hours and weeks parsed once.
type plan struct {
	sched Schedule
	loc   *time.Location
	slot  time.Duration
	open  time.Duration // since local midnight
	close time.Duration // since local midnight; 24h for "24:00"
	weeks []time.Time   // local midnight of each week's start, same order as sched.Weeks
}

const maxSlotSeconds = 3600 // a slot longer than an hour is a malformed schedule, not a loop

func newPlan(s Schedule) (*plan, error) {
	loc, err := time.LoadLocation(s.Timezone)
	if err != nil || s.Timezone == "" {
		return nil, fmt.Errorf("schedule: unknown time zone %q", s.Timezone)
	}
	if s.SlotSeconds < 1 || s.SlotSeconds > maxSlotSeconds {
		return nil, fmt.Errorf("schedule: slot_seconds %d is out of range", s.SlotSeconds)
	}
	open, err := clockTime(s.Hours.Open)
	if err != nil {
		return nil, fmt.Errorf("schedule: hours.open: %w", err)
	}
	closeAt, err := clockTime(s.Hours.Close)
	if err != nil {
		return nil, fmt.Errorf("schedule: hours.close: %w", err)
	}
	p := &plan{sched: s, loc: loc, slot: time.Duration(s.SlotSeconds) * time.Second, open: open, close: closeAt}
	for _, w := range s.Weeks {
		d, err := time.ParseInLocation(time.DateOnly, w.WeekStart, loc)
		if err != nil {
			return nil, fmt.Errorf("schedule: week_start %q: %w", w.WeekStart, err)
		}
		p.weeks = append(p.weeks, d)
	}
	return p, nil
}

// clockTime parses "HH:MM" (00:00 to 24:00) into the time since midnight.
func clockTime(s string) (time.Duration, error) {
	h, m, ok := strings.Cut(s, ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || hh < 0 || mm < 0 || mm > 59 || hh > 24 || (hh == 24 && mm != 0) {
		return 0, fmt.Errorf("%q is not HH:MM", s)
	}
	return time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute, nil
}

// isOpen reports whether the face is in its operating hours at t: the screen is dark outside
// them, so it plays nothing. A close at or before the open is a span past midnight (18:00-02:00).
func (p *plan) isOpen(t time.Time) bool {
	lt := t.In(p.loc)
	midnight := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, p.loc)
	since := lt.Sub(midnight)
	if p.open == p.close {
		return p.open == 0 || p.close == 24*time.Hour // "00:00"-"00:00" reads as all day
	}
	if p.open < p.close {
		return since >= p.open && since < p.close
	}
	return since >= p.open || since < p.close
}

// itemsAt returns the items of the week holding t, or nil when no week of the schedule holds it.
func (p *plan) itemsAt(t time.Time) []Item {
	for i, start := range p.weeks {
		end := start.AddDate(0, 0, 7) // calendar days: a DST week is 167 or 169 hours
		if !t.Before(start) && t.Before(end) {
			return p.sched.Weeks[i].Items
		}
	}
	return nil
}

// covers reports whether the schedule has a week holding t (else the player asks for more weeks).
func (p *plan) covers(t time.Time) bool {
	for _, start := range p.weeks {
		if !t.Before(start) && t.Before(start.AddDate(0, 0, 7)) {
			return true
		}
	}
	return false
}
