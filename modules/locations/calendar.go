package locations

import (
	"context"
	"strings"

	"marquee/modules/locations/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
)

// The calendar operations of B §7 ("Calendar service"), served under the user's session
// (DESIGN.md §1.1): every one is scoped to the caller's company, and another company's week or
// campaign answers 404.

// calendarLocations answers the faces that carry the company's live weeks, each with those weeks.
func (s *service) calendarLocations(ctx context.Context, p *auth.Principal, markets []string) ([]CalendarLocation, error) {
	names, err := s.marketFilter(ctx, markets)
	if err != nil {
		return nil, err
	}
	spots, err := s.store.LiveSpotsOfCompany(ctx, p.CompanyID, names, s.now())
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

// heldSpot is the company's spot id when it is a live hold (B §4 conflict paths): reserved, not
// expired, under a Hold's key. Only conflict drafts hold spots (modules/campaigns), so these are the
// reserved weeks of the company's open conflict drafts. A booked (active) spot is released only by
// the campaigns module (delete, stop, pause, the weekly job): here it answers 409 MsgWeekNotHeld.
// Another company's or an unknown spot answers 404. Call it in a transaction.
func (s *service) heldSpot(ctx context.Context, companyID, id string) (*store.Spot, error) {
	sp, err := s.store.CompanySpot(ctx, companyID, strings.TrimSpace(id))
	if err != nil {
		return nil, db.Translate(err, MsgWeekNotFound, "")
	}
	if sp.Status != StatusReserved {
		return nil, apperr.New(apperr.ECONFLICT, MsgWeekNotHeld)
	}
	if sp.ExpiresAt == nil || !sp.ExpiresAt.After(s.now()) {
		return nil, apperr.New(apperr.ECONFLICT, MsgHoldExpired)
	}
	r, err := s.store.Reservation(ctx, companyID, sp.Key)
	if err != nil && !db.IsNotFound(err) {
		return nil, apperr.Internal(err)
	}
	if err != nil || r.Kind != store.KindHold {
		return nil, apperr.New(apperr.ECONFLICT, MsgWeekNotHeld)
	}
	return sp, nil
}

// setWeekActive makes one of the company's held weeks active (B §7 PUT week, B §4 "Use suggested
// dates"). Only a live hold of a conflict draft qualifies (heldSpot).
func (s *service) setWeekActive(ctx context.Context, p *auth.Principal, req SetWeekStatusRequest) (Spot, error) {
	if req.Status != StatusActive {
		return Spot{}, apperr.Field("status", MsgStatusInvalid)
	}
	var out Spot
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		sp, err := s.heldSpot(ctx, p.CompanyID, req.ID)
		if err != nil {
			return err
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

// deleteWeek removes one of the company's held weeks (B §7 DELETE week, B §4 "Keep my own dates").
// Only a live hold of a conflict draft qualifies (heldSpot): a booked week is not released here.
func (s *service) deleteWeek(ctx context.Context, p *auth.Principal, id string) (DeletedResponse, error) {
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		sp, err := s.heldSpot(ctx, p.CompanyID, id)
		if err != nil {
			return err
		}
		if err := s.store.DeleteSpot(ctx, sp.ID); err != nil {
			return apperr.Internal(err)
		}
		return nil
	})
	if err != nil {
		return DeletedResponse{}, err
	}
	return DeletedResponse{Success: true, Deleted: 1}, nil
}

// deleteReservedCampaign removes the reserved weeks of the company's campaign reference (B §4
// "Keep my own dates" without active weeks); a reference the company holds no live reserved week
// under (another company's, or a booked campaign's) answers 404 and changes nothing.
func (s *service) deleteReservedCampaign(ctx context.Context, p *auth.Principal, ref string) (DeletedResponse, error) {
	var n int64
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		count, err := s.store.CountLiveReservedByRef(ctx, p.CompanyID, ref, s.now())
		if err != nil {
			return apperr.Internal(err)
		}
		if count == 0 {
			return apperr.NotFound(MsgCampaignNotFound)
		}
		if n, err = s.store.DeleteReservedByRef(ctx, p.CompanyID, ref); err != nil {
			return apperr.Internal(err)
		}
		return nil
	})
	if err != nil {
		return DeletedResponse{}, err
	}
	return DeletedResponse{Success: true, Deleted: int(n)}, nil
}
