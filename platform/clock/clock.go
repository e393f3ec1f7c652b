// Package clock gives "now" through an interface, so every date rule is testable (DESIGN.md §1.5).
package clock

import (
	"sync"
	"time"
)

// Clock tells the time.
type Clock interface {
	Now() time.Time
}

// Real is the system clock, in UTC.
type Real struct{}

func (Real) Now() time.Time { return time.Now().UTC() }

// Manual is a clock that moves only when told; safe for concurrent use. For tests.
type Manual struct {
	mu  sync.Mutex
	now time.Time
}

// NewManual returns a manual clock set to t.
func NewManual(t time.Time) *Manual { return &Manual{now: t.UTC()} }

func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// Set moves the clock to t.
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	m.now = t.UTC()
	m.mu.Unlock()
}

// Advance moves the clock forward by d.
func (m *Manual) Advance(d time.Duration) {
	m.mu.Lock()
	m.now = m.now.Add(d)
	m.mu.Unlock()
}

// DefaultZone is the business time zone when none is configured: America/New_York, the earliest
// US midnight, so no US advertiser sees a day (or a Wednesday cut-off) end before it did for them.
const DefaultZone = "America/New_York"

// InZone is c with the business time zone loc (BUSINESS_TIMEZONE): Now is unchanged (timestamps stay
// UTC), and the calendar rules read "today" in loc (dates.Today). The kernel wraps its clock so;
// a test still moves the wrapped Manual clock.
func InZone(c Clock, loc *time.Location) Clock { return zoned{Clock: c, loc: loc} }

type zoned struct {
	Clock
	loc *time.Location
}

func (z zoned) Location() *time.Location { return z.loc }

// Location is the business time zone of c: the one InZone gave it, UTC for a bare clock.
func Location(c Clock) *time.Location {
	if z, ok := c.(interface{ Location() *time.Location }); ok && z.Location() != nil {
		return z.Location()
	}
	return time.UTC
}
