package screens

import (
	"context"
	"strings"
	"time"

	"marquee/platform/apperr"
	"marquee/platform/clock"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/mail"
)

func (s *service) RecordHeartbeat(ctx context.Context, d *Device, req Heartbeat) error {
	trim := func(v string, n int) string {
		v = strings.TrimSpace(v)
		if len(v) > n {
			v = v[:n]
		}
		return v
	}
	if req.FreeDiskBytes < 0 {
		return apperr.Field("free_disk_bytes", "Free disk cannot be negative.")
	}
	now := s.deps.Clock.Now()
	return s.store.UpdateScreen(ctx, d.ScreenID, map[string]any{"app_version": trim(req.AppVersion, 100), "free_disk_bytes": req.FreeDiskBytes,
		"current_creative_id": trim(req.CurrentCreativeID, 36), "last_error": trim(req.LastError, 500), "last_seen_at": now})
}

// checkHealth emails the admins once when an active screen has been silent for more than
// SilentAfter during operating hours, and once more when it is heard again. The email is queued
// with db.Notify: it never holds back the state it reports.
func (s *service) checkHealth(ctx context.Context) (int, error) {
	rows, err := s.store.ActiveScreens(ctx)
	if err != nil {
		return 0, err
	}
	now := s.deps.Clock.Now()
	faceIDs := make([]string, 0, len(rows))
	for _, r := range rows {
		faceIDs = append(faceIDs, r.FaceID)
	}
	faces, err := s.deps.Faces.FindFacesByIDs(ctx, faceIDs)
	if err != nil {
		return 0, err
	}
	hoursOf := map[string]faceHours{}
	for i := range faces {
		hoursOf[faces[i].ID] = s.hoursOf(&faces[i])
	}
	sent := 0
	for _, r := range rows {
		hours, ok := hoursOf[r.FaceID]
		if !ok {
			hours = s.hoursOf(nil) // the face is gone: the default hours in the business zone
		}
		heard := r.PairedAt
		if r.LastSeenAt != nil {
			heard = *r.LastSeenAt
		}
		silent := now.Sub(heard) > s.deps.SilentAfter
		var msg mail.Message
		set := map[string]any{}
		switch {
		case silent && r.SilentSince == nil && hours.isOpen(now): // the face's own hours, on its own clock
			set["silent_since"] = now
			msg = silentMail(s.deps.AlertsTo, r.ID, r.FaceID, heard, s.deps.SilentAfter, s.deps.BaseURL)
		case !silent && r.SilentSince != nil:
			set["silent_since"] = nil
			msg = backMail(s.deps.AlertsTo, r.ID, r.FaceID, heard, *r.SilentSince, s.deps.BaseURL)
		default:
			continue
		}
		err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
			if err := s.store.UpdateScreen(ctx, r.ID, set); err != nil {
				return err
			}
			if s.deps.AlertsTo != "" {
				db.Notify(ctx, s.deps.DB, "screens.health", func(ctx context.Context) error {
					return s.deps.Outbox.Enqueue(ctx, msg)
				})
			}
			return nil
		})
		if err != nil {
			return sent, err
		}
		sent++
	}
	return sent, nil
}

// closeWeeks closes the weeks with figures from plays that ended more than WeekGrace ago on
// their face's own clock: their figure is final and the make-good rule runs
// (campaigns.CloseScreenWeek). A face's week runs Monday to Sunday in its zone, as its plays are
// counted ("Hours and time zone"), so a Los Angeles week ends three hours after New York's.
func (s *service) closeWeeks(ctx context.Context) (int, error) {
	cut := s.deps.Clock.Now().Add(-s.deps.WeekGrace)
	// A week ends on its Sunday: it is past the grace when that day is before the cut's day in
	// the face's zone. No zone's day is more than one day after UTC's (UTC+14), so the weeks
	// ended before UTC's day after the cut's hold every candidate; each is then judged on its
	// face's clock.
	candidates, err := s.deps.Bookings.ScreenWeeksToClose(ctx, dates.In(cut, time.UTC).AddDays(1))
	if err != nil || len(candidates) == 0 {
		return 0, err
	}
	faceIDs := make([]string, 0, len(candidates))
	seen := map[string]bool{}
	for _, c := range candidates {
		if !seen[c.FaceID] {
			seen[c.FaceID] = true
			faceIDs = append(faceIDs, c.FaceID)
		}
	}
	faces, err := s.deps.Faces.FindFacesByIDs(ctx, faceIDs)
	if err != nil {
		return 0, err
	}
	zoneOf := make(map[string]*time.Location, len(faces))
	for i := range faces {
		zoneOf[faces[i].ID] = s.hoursOf(&faces[i]).loc
	}
	var weeks []string
	for _, c := range candidates {
		loc, ok := zoneOf[c.FaceID]
		if !ok {
			loc = s.hoursOf(nil).loc // the face is gone: the business zone
		}
		if c.Week.AddDays(6).Before(dates.In(cut, loc)) {
			weeks = append(weeks, c.WeekID)
		}
	}
	n := 0
	for _, id := range weeks {
		if err := s.deps.Bookings.CloseScreenWeek(ctx, id); err != nil {
			if ctx.Err() != nil {
				return n, ctx.Err()
			}
			s.deps.Log.ErrorContext(ctx, "screens: a week could not be closed", "week", id, "err", err)
			continue
		}
		n++
	}
	return n, nil
}

// PlaysKept is how long raw plays are kept; the hourly rollups are kept for good.
const PlaysKept = 90 * 24 * time.Hour

// prunePlays keeps raw plays PlaysKept. On PostgreSQL it first makes the coming weeks'
// partitions and drops the partitions of weeks wholly older than that (a drop, not a delete);
// then, on both engines, it deletes what is left older than PlaysKept by chunks (each its own
// statement, so a backlog never holds one long transaction). A replay of such a play is flagged
// too_old, never counted, so its (screen, seq) need not be remembered.
func (s *service) prunePlays(ctx context.Context) (int64, error) {
	now := s.deps.Clock.Now()
	before := now.Add(-PlaysKept)
	loc := clock.Location(s.deps.Clock)
	made, dropped, err := s.store.PlayPartitions(ctx, dates.In(now, loc).WeekStart(), dates.In(before, loc))
	if err != nil {
		return 0, err
	}
	if made+dropped > 0 {
		s.deps.Log.InfoContext(ctx, "screens: plays' partitions", "made", made, "dropped", dropped)
	}
	var total int64
	for range 100 { // at most a million a run; the next run goes on
		n, err := s.store.DeletePlaysBefore(ctx, before, 10000)
		total += n
		if err != nil || n < 10000 {
			return total, err
		}
	}
	return total, nil
}
