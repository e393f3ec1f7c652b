package locations

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"marquee/modules/locations/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/db"
)

// AuditFaceHours is the audit action of an admin's change of a face's time zone or hours.
const AuditFaceHours = "face.hours"

// marketTimezones is the IANA zone of each reference market (markets.go), where the demo and the
// generated faces stand. Phoenix keeps MST all year (America/Phoenix, no DST); El Paso-like
// exceptions do not occur among these markets. A market not listed takes the business zone.
var marketTimezones = map[string]string{
	"Atlanta": "America/New_York", "Austin": "America/Chicago", "Boston": "America/New_York",
	"Charlotte": "America/New_York", "Chicago": "America/Chicago", "Cleveland": "America/New_York",
	"Dallas-Ft. Worth": "America/Chicago", "Denver": "America/Denver", "Detroit": "America/Detroit",
	"Houston": "America/Chicago", "Las Vegas": "America/Los_Angeles", "Los Angeles": "America/Los_Angeles",
	"Miami-Ft. Lauderdale": "America/New_York", "Minneapolis-St. Paul": "America/Chicago", "New York": "America/New_York",
	"Orlando": "America/New_York", "Philadelphia": "America/New_York", "Phoenix": "America/Phoenix",
	"Portland": "America/Los_Angeles", "Sacramento": "America/Los_Angeles", "San Diego": "America/Los_Angeles",
	"SF Bay Area": "America/Los_Angeles", "Seattle-Tacoma": "America/Los_Angeles", "Tampa-St. Petersburg": "America/New_York",
	"Washington DC": "America/New_York",
}

// MarketTimezone is the IANA zone of a market's faces: marketTimezones, else business (the
// business time zone).
func MarketTimezone(market string, business *time.Location) string {
	if z, ok := marketTimezones[market]; ok {
		return z
	}
	return business.String()
}

// ParseClock reads "HH:MM" (00:00 to 24:00) as minutes of the day.
func ParseClock(s string) (int, bool) {
	h, m, ok := strings.Cut(s, ":")
	if !ok || len(h) != 2 || len(m) != 2 {
		return 0, false
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || mm < 0 || mm > 59 || hh > 24 || (hh == 24 && mm != 0) {
		return 0, false
	}
	return hh*60 + mm, true
}

// ClockText writes minutes of the day as HH:MM (1440 is "24:00").
func ClockText(minutes int) string {
	return twoDigits(minutes/60) + ":" + twoDigits(minutes%60)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// loadedZones keeps each zone loaded: time.LoadLocation reads the zone's file on every call, and the
// screens module asks for a face's zone on every batch and every health check. Only names that
// loaded are kept, so the map is bounded by the time database.
var loadedZones sync.Map // name → *time.Location

// LoadTimezone loads an IANA zone name. time.LoadLocation takes "" and "Local" as UTC and the
// machine's zone; neither is a face's zone, so both are refused, as is anything it cannot load.
func LoadTimezone(name string) (*time.Location, bool) {
	if name == "" || name == "Local" || len(name) > 64 {
		return nil, false
	}
	if loc, ok := loadedZones.Load(name); ok {
		return loc.(*time.Location), true
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, false
	}
	loadedZones.Store(name, loc)
	return loc, true
}

func toHours(h store.FaceHours) FaceHours {
	return FaceHours{Timezone: h.Timezone, Open: ClockText(h.OpenMinute), Close: ClockText(h.CloseMinute),
		OpenMinute: h.OpenMinute, CloseMinute: h.CloseMinute}
}

// updateFaceHours is PUT /api/admin/faces/{id}/hours: an admin sets a face's time zone and
// operating hours, audited in the same transaction (the route admits admins only).
func (s *service) updateFaceHours(ctx context.Context, _ *auth.Principal, id string, req FaceHoursUpdate) (Location, error) {
	if _, ok := LoadTimezone(req.Timezone); !ok {
		return Location{}, apperr.Field("timezone", MsgTimezone)
	}
	open, ok := ParseClock(req.Open)
	if !ok {
		return Location{}, apperr.Field("open", MsgClock)
	}
	closeAt, ok := ParseClock(req.Close)
	if !ok {
		return Location{}, apperr.Field("close", MsgClock)
	}
	if open >= closeAt {
		return Location{}, apperr.Field("close", MsgHoursOrder)
	}
	var out Location
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		f, err := s.faceToEdit(ctx, id)
		if err != nil {
			return err
		}
		before := toHours(f.FaceHours)
		f.FaceHours = store.FaceHours{Timezone: req.Timezone, OpenMinute: open, CloseMinute: closeAt}
		if _, err := s.store.UpdateFaceHours(ctx, id, f.FaceHours); err != nil {
			return apperr.Internal(err)
		}
		out = toLocation(&f)
		if s.deps.Audit == nil {
			return nil
		}
		return s.deps.Audit.Record(ctx, audit.Change{Action: AuditFaceHours, ObjectType: "face", ObjectID: id, Before: before, After: *out.Hours})
	})
	return out, err
}

func (s *service) SetFaceHours(ctx context.Context, faceID string, req FaceHoursUpdate) (Location, error) {
	return s.updateFaceHours(ctx, nil, faceID, req)
}

// faceToEdit reads the face an admin edits, in the edit's transaction: ENOTFOUND when there is none.
func (s *service) faceToEdit(ctx context.Context, id string) (store.Face, error) {
	fs, err := s.store.FacesByIDs(ctx, []string{id})
	if err != nil {
		return store.Face{}, apperr.Internal(err)
	}
	if len(fs) == 0 {
		return store.Face{}, apperr.NotFound(MsgFaceNotFound)
	}
	return fs[0], nil
}
