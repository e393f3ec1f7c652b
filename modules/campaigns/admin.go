package campaigns

import (
	"context"
	"slices"
	"strings"

	"marquee/modules/campaigns/internal/store"
	"marquee/modules/locations"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/ids"
)

// The admin campaign screens (B §2): the grid (listCampaigns over every company with adminSpec),
// the weeks update and the update mailer.

// weekRange is a product's new date range in a weeks update.
type weekRange struct{ start, end dates.Date }

// checkWeekMoves groups the records by product and checks that each product has a single date
// range (B §5, MsgWeeksInconsistent) made of whole Monday–Sunday weeks, at most 52 of them.
func checkWeekMoves(moves []WeekMove) (map[string]weekRange, map[string][]string, error) {
	if len(moves) == 0 {
		return nil, nil, apperr.Field("weeks", MsgWeeksRequired)
	}
	ranges := map[string]weekRange{}
	listed := map[string][]string{}
	for _, mv := range moves {
		start, err1 := dates.Parse(strings.TrimSpace(mv.StartAt))
		end, err2 := dates.Parse(strings.TrimSpace(mv.EndAt))
		if mv.ID == "" || mv.ProductID == "" || err1 != nil || err2 != nil {
			return nil, nil, apperr.Field("weeks", MsgWeekRangeInvalid)
		}
		r := weekRange{start, end}
		if prev, ok := ranges[mv.ProductID]; ok && (!prev.start.Equal(start) || !prev.end.Equal(end)) {
			return nil, nil, apperr.Field("weeks", MsgWeeksInconsistent)
		}
		if !start.IsMonday() || end.Weekday() != 0 || !end.After(start) || start.DaysUntil(end) >= 7*MaxDurationWeeks {
			return nil, nil, apperr.Field("weeks", MsgWeekRangeInvalid)
		}
		ranges[mv.ProductID] = r
		if !slices.Contains(listed[mv.ProductID], mv.ID) {
			listed[mv.ProductID] = append(listed[mv.ProductID], mv.ID)
		}
	}
	return ranges, listed, nil
}

// updateWeeks is PUT /api/admin/campaigns/weeks/{id}: each product's listed weeks are replaced by
// the weeks of its range. Listed weeks inside the range stay; the others are released; the range's
// weeks the product does not have yet are booked (all or nothing: a full week answers 409) with the
// product's price and details. Weeks that have started can neither be moved nor booked. The
// campaign's dates follow its weeks. Charges are not redone (an admin correction).
func (s *service) updateWeeks(ctx context.Context, p *auth.Principal, id string, req WeeksUpdate) (*MessageResponse, error) {
	ranges, listed, err := checkWeekMoves(req.Weeks)
	if err != nil {
		return nil, err
	}
	err = s.withLockedCampaign(ctx, p, id, func(ctx context.Context, c *store.Campaign) error {
		weeks, err := s.store.CampaignWeeks(ctx, c.ID)
		if err != nil {
			return err
		}
		byID := map[string]store.Week{}
		for _, w := range weeks {
			byID[w.ID] = w
		}
		today := dates.Today(s.deps.Clock)
		var release []store.Week
		var items []locations.FaceWeek
		template := map[string]store.Week{}
		products := make([]string, 0, len(ranges))
		for product := range ranges {
			products = append(products, product)
		}
		slices.Sort(products)
		for _, product := range products {
			r := ranges[product]
			has := map[dates.Date]bool{}
			for _, wid := range listed[product] {
				w, ok := byID[wid]
				if !ok || w.FaceID != product {
					return apperr.NotFound(MsgWeekNotFound)
				}
				template[product] = w
				if !w.StartAt.Before(r.start) && !w.StartAt.After(r.end) {
					has[w.StartAt] = true
					continue
				}
				if !w.StartAt.After(today) {
					return apperr.Field("weeks", MsgWeekStarted)
				}
				release = append(release, w)
			}
			for _, w := range weeks {
				if w.FaceID == product && !slices.Contains(listed[product], w.ID) {
					has[w.StartAt] = true
				}
			}
			for wk := r.start; wk.Before(r.end); wk = wk.AddWeeks(1) {
				if has[wk] {
					continue
				}
				if !wk.After(today) {
					return apperr.Field("weeks", MsgWeekStarted)
				}
				items = append(items, locations.FaceWeek{FaceID: product, Week: wk})
			}
		}
		if err := s.releaseWeekRows(ctx, c, release); err != nil {
			return err
		}
		if len(items) > 0 {
			rr, err := s.deps.Locations.Book(ctx, locations.ReserveRequest{Key: "campaign:" + c.ID + ":move:" + ids.New(), CompanyID: c.CompanyID, Ref: c.ID, Items: items})
			if err != nil {
				return err
			}
			now := s.deps.Clock.Now()
			rows := make([]store.Week, 0, len(rr.Spots))
			for _, sp := range rr.Spots {
				w := template[sp.FaceID]
				w.ID, w.StartAt, w.EndAt, w.Status, w.ActImp = ids.New(), sp.Week, sp.Week.AddDays(6), WeekActive, nil
				w.SpotID, w.SpotKey, w.CreatedAt, w.UpdatedAt = sp.ID, sp.Key, now, now
				rows = append(rows, w)
			}
			if err := s.store.InsertWeeks(ctx, rows); err != nil {
				return err
			}
		}
		if err := s.refreshDates(ctx, c); err != nil {
			return err
		}
		return s.auditAdmin(ctx, p, AuditCampaignWeeks, "campaign", c.ID, map[string]any{"released": len(release), "booked": len(items)}, req)
	})
	if err != nil {
		if apperr.CodeOf(err) == apperr.EINVALID || apperr.CodeOf(err) == apperr.ENOTFOUND || apperr.CodeOf(err) == apperr.ECONFLICT {
			return nil, err
		}
		return nil, apperr.Internal(err).WithMessage(MsgWeeksUpdateFailed)
	}
	return &MessageResponse{Success: true, Message: MsgWeeksUpdated}, nil
}

// refreshDates sets the campaign's start, end and duration from its weeks.
func (s *service) refreshDates(ctx context.Context, c *store.Campaign) error {
	spans, err := s.store.WeekSpans(ctx, []string{c.ID})
	if err != nil {
		return err
	}
	span, ok := spans[c.ID]
	if !ok {
		return nil
	}
	end := span.Last.AddDays(6)
	return s.store.SetCampaign(ctx, c.ID, map[string]any{"start_date": span.First, "end_date": end,
		"duration": span.First.DaysUntil(end)/7 + 1, "updated_at": s.deps.Clock.Now()})
}

// sendUpdateMailer is POST /api/campaigns/update/mailer/: the advertiser is told, through the
// outbox, that an admin updated the campaign.
func (s *service) sendUpdateMailer(ctx context.Context, p *auth.Principal, req UpdateMailerRequest) (*MessageResponse, error) {
	if len(req.Message) > 2000 {
		return nil, apperr.Field("message", MsgMessageTooLong)
	}
	if strings.TrimSpace(req.CampaignID) == "" {
		return nil, apperr.NotFound(MsgCampaignNotFound)
	}
	c, err := s.findCampaign(ctx, p, req.CampaignID)
	if err != nil {
		return nil, err
	}
	if err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error { return s.mailCampaignUpdated(ctx, c, req.Message) }); err != nil {
		return nil, err
	}
	return &MessageResponse{Success: true, Message: MsgMailerSent}, nil
}
