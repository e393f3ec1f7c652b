package screens

import (
	"time"

	"marquee/modules/locations"
	"marquee/platform/clock"
	"marquee/platform/dates"
)

// faceHours is a face's time zone and operating hours (locations.FaceHours) made ready to compute
// with: the schedule, the health check, the weeks and the expected plays all read them
// (docs/screens.md "Hours and time zone").
type faceHours struct {
	loc         *time.Location
	open, close int // minutes of the local day, open < close ≤ 1440
}

// hoursOf reads a face's zone and hours. A face always has them (locations-0005); a zone that no
// longer loads (a tz database without it) falls back to the business zone rather than to UTC.
func (s *service) hoursOf(f *locations.Location) faceHours {
	h := faceHours{loc: clock.Location(s.deps.Clock), open: locations.DefaultOpenMinute, close: locations.DefaultCloseMinute}
	if f == nil || f.Hours == nil {
		return h
	}
	if loc, ok := locations.LoadTimezone(f.Hours.Timezone); ok {
		h.loc = loc
	} else {
		s.deps.Log.Warn("screens: a face's time zone does not load; the business zone serves", "face", f.ID, "timezone", f.Hours.Timezone)
	}
	if f.Hours.OpenMinute < f.Hours.CloseMinute && f.Hours.CloseMinute <= 24*60 {
		h.open, h.close = f.Hours.OpenMinute, f.Hours.CloseMinute
	}
	return h
}

// minuteOfDay is t's minute of its local day. On a DST change day it is the wall clock's minute,
// as the face's opening sign reads it.
func (h faceHours) minuteOfDay(t time.Time) int {
	lt := t.In(h.loc)
	return lt.Hour()*60 + lt.Minute()
}

// isOpen reports whether t is within the face's operating hours.
func (h faceHours) isOpen(t time.Time) bool {
	m := h.minuteOfDay(t)
	return m >= h.open && m < h.close
}

// openSecondsPerDay is the length of the face's operating day.
func (h faceHours) openSecondsPerDay() int64 { return OpenSecondsPerDay(h.open, h.close) }

// week is the Monday of t's local day: a face's week runs Monday to Sunday on its own clock, as
// the player reads the schedule's week_start in the schedule's zone.
func (h faceHours) week(t time.Time) dates.Date { return dates.In(t, h.loc).WeekStart() }

// today is t's local date.
func (h faceHours) today(t time.Time) dates.Date { return dates.In(t, h.loc) }

// midnight is the start of t's local day.
func (h faceHours) midnight(t time.Time) time.Time {
	lt := t.In(h.loc)
	return time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, h.loc)
}

// openSecondsSoFar is how many seconds of today's operating hours have passed at now.
func (h faceHours) openSecondsSoFar(now time.Time) int64 {
	midnight := h.midnight(now)
	open := midnight.Add(time.Duration(h.open) * time.Minute)
	closeAt := midnight.Add(time.Duration(h.close) * time.Minute)
	if now.Before(open) {
		return 0
	}
	if now.After(closeAt) {
		now = closeAt
	}
	return int64(now.Sub(open) / time.Second)
}
