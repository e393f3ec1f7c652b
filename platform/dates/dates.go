// Package dates holds the calendar date of campaigns and weeks (DESIGN.md §1.5): a day without a
// time zone, "YYYY-MM-DD" in JSON and in the database. Weeks run Monday to Sunday.
package dates

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"

	"marquee/platform/clock"
)

// Layout is the API and storage form of a Date.
const Layout = "2006-01-02"

// Date is a calendar day. The zero Date is "no date".
type Date struct{ t time.Time } // always UTC midnight

// ErrInvalid is returned for text that is not a YYYY-MM-DD date.
var ErrInvalid = errors.New("dates: not a YYYY-MM-DD date")

// New returns the date year-month-day (normalised like time.Date).
func New(year int, month time.Month, day int) Date {
	return Date{time.Date(year, month, day, 0, 0, 0, 0, time.UTC)}
}

// Parse reads "YYYY-MM-DD".
func Parse(s string) (Date, error) {
	t, err := time.Parse(Layout, strings.TrimSpace(s))
	// 0001-01-01 is the zero time, which a Date reads as "no date": it would format as "" and
	// marshal as null, and it is the WeekStart of the days after it (FuzzParse found both). No
	// campaign runs before year 1000, so such a date is refused as the typo it is.
	if err != nil || t.Year() < 1000 {
		return Date{}, ErrInvalid
	}
	return Date{t}, nil
}

// MustParse is Parse for constants and tests.
func MustParse(s string) Date {
	d, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}

// Of is the calendar day of t in UTC.
func Of(t time.Time) Date {
	y, m, d := t.UTC().Date()
	return New(y, m, d)
}

// In is the calendar day of t in the time zone loc.
func In(t time.Time, loc *time.Location) Date {
	y, m, d := t.In(loc).Date()
	return New(y, m, d)
}

// Today is the current day by the clock, in its business time zone (clock.InZone,
// BUSINESS_TIMEZONE): every date rule (the Wednesday cut-off, the edit lock, the weekly job) reads
// it, so a day ends at midnight there and not at midnight UTC.
func Today(c clock.Clock) Date { return In(c.Now(), clock.Location(c)) }

func (d Date) IsZero() bool                { return d.t.IsZero() }
func (d Date) Time() time.Time             { return d.t }
func (d Date) Weekday() time.Weekday       { return d.t.Weekday() }
func (d Date) IsMonday() bool              { return !d.IsZero() && d.Weekday() == time.Monday }
func (d Date) AddDays(n int) Date          { return Date{d.t.AddDate(0, 0, n)} }
func (d Date) AddWeeks(n int) Date         { return d.AddDays(7 * n) }
func (d Date) Before(o Date) bool          { return d.t.Before(o.t) }
func (d Date) After(o Date) bool           { return d.t.After(o.t) }
func (d Date) Equal(o Date) bool           { return d.t.Equal(o.t) }
func (d Date) DaysUntil(o Date) int        { return int(o.t.Sub(d.t).Hours() / 24) }
func (d Date) Compare(o Date) int          { return d.t.Compare(o.t) }
func (d Date) Format(layout string) string { return d.t.Format(layout) }

// String is "YYYY-MM-DD", or "" for the zero Date.
func (d Date) String() string {
	if d.IsZero() {
		return ""
	}
	return d.t.Format(Layout)
}

// WeekStart is the Monday on or before d.
func (d Date) WeekStart() Date {
	back := (int(d.Weekday()) + 6) % 7 // Monday 0 … Sunday 6
	return d.AddDays(-back)
}

// WeekEnd is the Sunday on or after d.
func (d Date) WeekEnd() Date { return d.WeekStart().AddDays(6) }

// NextMonday is the first Monday strictly after d.
func (d Date) NextMonday() Date { return d.WeekStart().AddDays(7) }

// Weeks lists the Mondays of n consecutive weeks starting with the week of d.
func (d Date) Weeks(n int) []Date {
	out := make([]Date, 0, max(n, 0))
	for i, m := 0, d.WeekStart(); i < n; i++ {
		out = append(out, m.AddWeeks(i))
	}
	return out
}

// MarshalJSON writes "YYYY-MM-DD", or null for the zero Date.
func (d Date) MarshalJSON() ([]byte, error) {
	if d.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + d.String() + `"`), nil
}

// UnmarshalJSON reads "YYYY-MM-DD"; null and "" give the zero Date.
func (d *Date) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" || s == `""` {
		*d = Date{}
		return nil
	}
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return ErrInvalid
	}
	v, err := Parse(s[1 : len(s)-1])
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalText and UnmarshalText let a Date be a query or form value (gin binding).
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func (d *Date) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*d = Date{}
		return nil
	}
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Value stores the date as text "YYYY-MM-DD" (dialect-neutral and ordered like the days), or NULL.
func (d Date) Value() (driver.Value, error) {
	if d.IsZero() {
		return nil, nil
	}
	return d.String(), nil
}

// Scan reads text, bytes or a time from the database.
func (d *Date) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*d = Date{}
		return nil
	case time.Time:
		*d = Of(v)
		return nil
	case string:
		return d.UnmarshalText([]byte(v[:min(len(v), 10)]))
	case []byte:
		return d.UnmarshalText(v[:min(len(v), 10)])
	}
	return fmt.Errorf("dates: cannot scan %T", src)
}

// GormDataType keeps the column a 10-character text on every dialect.
func (Date) GormDataType() string { return "string" }

// GormDBDataType sizes the column.
func (Date) GormDBDataType(*gorm.DB, *schema.Field) string { return "varchar(10)" }
