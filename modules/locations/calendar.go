package locations

import (
	"context"
	"strings"

	"marquee/platform/apperr"
	"marquee/platform/db"
)

// The calendar operations of B §7 ("Calendar service"), served under the user's session
// (DESIGN.md §1.1): every one is scoped to the caller's company, and another company's week or
// campaign answers 404.

// calendarLocations answers the faces that carry the company's live weeks, each with those weeks.
func (s *inventory) calendarLocations(ctx context.Context, companyID string, markets []string) ([]CalendarLocation, error) {
	names, err := s.marketFilter(ctx, markets)
	if err != nil {
		return nil, err
	}
	spots, err := s.store.LiveSpotsOfCompany(ctx, companyID, names, s.now())
	if err != nil {
		return nil, apperr.Internal(err)
	}
	var faceIDs []string
	weeks := map[string][]Spot{}
	for i := range spots {
		id := spots[i].FaceID
		if weeks[id] == nil {
			faceIDs = append(faceIDs, id)
		}
		weeks[id] = append(weeks[id], toSpot(&spots[i]))
	}
	faces, err := s.store.FacesByIDs(ctx, faceIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]CalendarLocation, 0, len(faces))
	for i := range faces {
		out = append(out, CalendarLocation{Location: toLocation(&faces[i]), Weeks: weeks[faces[i].ID]})
	}
	return out, nil
}

// setWeekActive makes one of the company's weeks active (B §7 PUT week).
func (s *inventory) setWeekActive(ctx context.Context, companyID string, req SetWeekStatusRequest) (Spot, error) {
	if req.Status != StatusActive {
		return Spot{}, apperr.Field("status", MsgStatusInvalid)
	}
	var out Spot
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		sp, err := s.store.CompanySpot(ctx, companyID, strings.TrimSpace(req.ID))
		if err != nil {
			return db.Translate(err, MsgWeekNotFound, "")
		}
		if sp.Status == StatusReserved && sp.ExpiresAt != nil && !sp.ExpiresAt.After(s.now()) {
			return apperr.New(apperr.ECONFLICT, MsgHoldExpired)
		}
		if err := s.store.ActivateSpot(ctx, sp.ID); err != nil {
			return apperr.Internal(err)
		}
		sp.Status, sp.ExpiresAt = StatusActive, nil
		out = toSpot(sp)
		return nil
	})
	return out, err
}

// deleteWeek removes one of the company's weeks (B §7 DELETE week).
func (s *inventory) deleteWeek(ctx context.Context, companyID, id string) error {
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		sp, err := s.store.CompanySpot(ctx, companyID, id)
		if err != nil {
			return db.Translate(err, MsgWeekNotFound, "")
		}
		if err := s.store.DeleteSpot(ctx, sp.ID); err != nil {
			return apperr.Internal(err)
		}
		return nil
	})
}

// deleteReservedCampaign removes the reserved weeks of the company's campaign reference (B §3
// "Keep my own dates"); a reference the company has no weeks under answers 404.
func (s *inventory) deleteReservedCampaign(ctx context.Context, companyID, ref string) (int, error) {
	var n int64
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		count, err := s.store.CountByRef(ctx, companyID, ref)
		if err != nil {
			return apperr.Internal(err)
		}
		if count == 0 {
			return apperr.NotFound(MsgCampaignNotFound)
		}
		if n, err = s.store.DeleteReservedByRef(ctx, companyID, ref); err != nil {
			return apperr.Internal(err)
		}
		return nil
	})
	return int(n), err
}
