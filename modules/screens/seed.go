package screens

import (
	"context"
	"fmt"

	"marquee/modules/campaigns"
	"marquee/modules/locations"
	"marquee/modules/screens/internal/store"
	"marquee/platform/clock"
	"marquee/platform/dates"
	"marquee/platform/ids"
	"marquee/platform/server"
)

// DemoPairingCode pairs a player with the demo face (`make run` prints it). It is a fixed code of
// the demo data only, like the demo passwords: a production database never runs the demo seed.
const DemoPairingCode = "DEMO-FACE-0001"

// seedDemo makes the demo pairing code for a face of the demo advertiser's running campaign this
// week. Idempotent: an unused code has its life renewed to 24 h from now; a used one is left (the
// demo face is paired).
func (s *service) seedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	acc, ok := demo["advertiser"]
	if !ok {
		return "screens: no demo advertiser", nil
	}
	cs, err := s.deps.Bookings.FindCompanyCampaigns(ctx, acc.CompanyID)
	if err != nil {
		return "", err
	}
	thisWeek := dates.Today(s.deps.Clock).WeekStart()
	face := ""
	for _, c := range cs {
		if c.Status != campaigns.StatusActive || face != "" {
			continue
		}
		weeks, err := s.deps.Bookings.FindWeeks(ctx, c.ID)
		if err != nil {
			return "", err
		}
		for _, w := range weeks {
			if w.StartAt.Equal(thisWeek) {
				face = w.ProductID
				break
			}
		}
	}
	if face == "" {
		return "screens: no running demo campaign to pair a face of", nil
	}
	// The demo face runs all day, as many digital faces do, so that `make run`'s player shows
	// counted plays on the campaign page at whatever hour it is started (plays outside a face's
	// hours are flagged and not counted: docs/screens.md "Hours and time zone").
	f, err := s.face(ctx, face)
	if err != nil {
		return "", err
	}
	tz := clock.Location(s.deps.Clock).String()
	if f.Hours != nil {
		tz = f.Hours.Timezone
	}
	if _, err := s.deps.Faces.SetFaceHours(ctx, face, locations.FaceHoursUpdate{Timezone: tz, Open: "00:00", Close: "24:00"}); err != nil {
		return "", err
	}
	now := s.deps.Clock.Now()
	hash := BodyHash([]byte(NormalizeCode(DemoPairingCode)))
	renewed, err := s.store.RenewUnusedCode(ctx, hash, now.Add(CodeLife))
	if err != nil {
		return "", err
	}
	if !renewed {
		row := store.PairingCode{ID: ids.New(), CodeHash: hash, FaceID: face, ExpiresAt: now.Add(CodeLife), CreatedAt: now}
		if err := s.store.CreateIfAbsent(ctx, &row); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("screens: pairing code %s for face %s (single use, 24 h; the face runs all day)", DemoPairingCode, face), nil
}
