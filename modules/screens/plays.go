package screens

import (
	"context"
	"sort"
	"strconv"
	"time"

	"marquee/modules/campaigns"
	"marquee/modules/screens/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/ids"
)

// RecordPlays stores a batch (docs/screens.md "Plays"). In one transaction, under the screen's
// lock (so two batches of one screen take turns and the duplicate count is exact): the plays not
// yet stored are inserted (ON CONFLICT DO NOTHING as well), the counted ones are added to the
// hourly rollups, each touched campaign-week gets its figure from its rollups, and the batch's
// hash and device signature enter each touched campaign's proof chain.
func (s *service) RecordPlays(ctx context.Context, d *Device, req PlaysBatch) (*PlaysResult, error) {
	if len(req.Plays) > MaxPlays {
		return nil, apperr.Field("plays", MsgTooManyPlays)
	}
	for i, p := range req.Plays {
		switch {
		case p.Seq < 1:
			return nil, apperr.Field("plays", "Play "+itoa(i)+": seq must be at least 1.")
		case p.CampaignID == "" || len(p.CampaignID) > 36 || p.CreativeID == "" || len(p.CreativeID) > 36:
			return nil, apperr.Field("plays", "Play "+itoa(i)+": campaign_id and creative_id are required ids.")
		case p.StartedAt.IsZero():
			return nil, apperr.Field("plays", "Play "+itoa(i)+": started_at is required.")
		case p.DurationMs < 0 || p.DurationMs > 24*3600*1000:
			return nil, apperr.Field("plays", "Play "+itoa(i)+": duration_ms must be between 0 and a day.")
		}
	}
	now := s.deps.Clock.Now()
	f, err := s.face(ctx, d.FaceID)
	if err != nil {
		return nil, err
	}
	hours := s.hoursOf(f)
	_, loop := Loop(f.Location.AdSpotDuration, f.Location.AdRotationFrequency)

	// What is booked on the face in the weeks the plays fall in, and which creatives exist.
	var minWeek, maxWeek dates.Date
	creativeIDs := []string{}
	seenCreative := map[string]bool{}
	for _, p := range req.Plays {
		wk := hours.week(p.StartedAt)
		if minWeek.IsZero() || wk.Before(minWeek) {
			minWeek = wk
		}
		if maxWeek.IsZero() || wk.After(maxWeek) {
			maxWeek = wk
		}
		if !seenCreative[p.CreativeID] {
			seenCreative[p.CreativeID] = true
			creativeIDs = append(creativeIDs, p.CreativeID)
		}
	}
	booked := map[faceCampaignWeek]campaigns.FaceBooking{}
	if len(req.Plays) > 0 {
		// Only weeks a play may count in are read (at most three: 14 days back to 300 s ahead).
		lo, hi := hours.week(now.Add(-Backfill)), hours.week(now.Add(ClockSkew))
		if minWeek.After(lo) {
			lo = minWeek
		}
		if maxWeek.Before(hi) {
			hi = maxWeek
		}
		if !hi.Before(lo) {
			bs, err := s.deps.Bookings.FaceBookings(ctx, []string{d.FaceID}, lo, hi)
			if err != nil {
				return nil, err
			}
			for _, b := range bs {
				booked[faceCampaignWeek{d.FaceID, b.CampaignID, b.Week}] = b
			}
		}
	}
	known := map[string]bool{}
	if len(creativeIDs) > 0 {
		crs, err := s.deps.Creatives.FindCreativesByIDs(ctx, creativeIDs)
		if err != nil {
			return nil, err
		}
		for _, c := range crs {
			known[c.ID] = true
		}
	}

	res := &PlaysResult{Flagged: []FlaggedPlay{}, BatchHash: d.BodyHash}
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if err := db.LockForTx(ctx, s.deps.DB, "screens-plays:"+d.ScreenID); err != nil {
			return err
		}
		*res = PlaysResult{Flagged: []FlaggedPlay{}, BatchHash: d.BodyHash}
		seqs := make([]int64, len(req.Plays))
		for i, p := range req.Plays {
			seqs[i] = p.Seq
		}
		stored, err := s.store.ExistingSeqs(ctx, d.ScreenID, seqs)
		if err != nil {
			return err
		}
		batchID := ids.New()
		var rows []store.Play
		rollups := map[store.Rollup]int64{}
		counted := map[faceCampaignWeek]int64{}
		for _, p := range req.Plays {
			if stored[p.Seq] {
				res.Duplicates++
				continue
			}
			stored[p.Seq] = true // a seq twice in one batch is a duplicate too
			wk := hours.week(p.StartedAt)
			flag := TimeFlag(p.StartedAt, now)
			b, isBooked := booked[faceCampaignWeek{d.FaceID, p.CampaignID, wk}]
			switch {
			case flag != "":
			case !known[p.CreativeID]:
				flag = FlagUnknownCreative
			case !isBooked || b.CreativeID != p.CreativeID:
				flag = FlagNotBooked
			case !hours.isOpen(p.StartedAt):
				// The face is dark then: the figure prices a play as a share of the plays its
				// operating hours hold (Impressions), so a play outside them is not one of those.
				flag = FlagOutsideHours
			}
			rows = append(rows, store.Play{ScreenID: d.ScreenID, Seq: p.Seq, FaceID: d.FaceID, Week: wk, CampaignID: p.CampaignID,
				CreativeID: p.CreativeID, StartedAt: p.StartedAt.UTC(), DurationMs: p.DurationMs, Flag: flag, BatchID: batchID, ReceivedAt: now})
			if flag != "" {
				res.Flagged = append(res.Flagged, FlaggedPlay{Seq: p.Seq, Reason: flag})
				continue
			}
			res.Accepted++
			rollups[store.Rollup{FaceID: d.FaceID, CampaignID: p.CampaignID, CreativeID: p.CreativeID, Hour: p.StartedAt.UTC().Truncate(time.Hour), Week: wk}]++
			counted[faceCampaignWeek{d.FaceID, p.CampaignID, wk}]++
		}
		if err := s.store.InsertPlays(ctx, rows); err != nil {
			return err
		}
		rs := make([]store.Rollup, 0, len(rollups))
		for r, n := range rollups {
			r.Plays = n
			rs = append(rs, r)
		}
		sort.Slice(rs, func(i, j int) bool { // one order for every writer: no deadlock between faces' rows
			a, b := rs[i], rs[j]
			if a.CampaignID != b.CampaignID {
				return a.CampaignID < b.CampaignID
			}
			if a.CreativeID != b.CreativeID {
				return a.CreativeID < b.CreativeID
			}
			return a.Hour.Before(b.Hour)
		})
		if err := s.store.AddRollups(ctx, rs); err != nil {
			return err
		}
		if err := s.store.Create(ctx, &store.Batch{ID: batchID, ScreenID: d.ScreenID, Hash: d.BodyHash, Signature: d.Signature, Message: d.Message,
			Received: len(req.Plays), Accepted: res.Accepted, Duplicates: res.Duplicates, Flagged: len(res.Flagged), CreatedAt: now}); err != nil {
			return err
		}
		figures := map[string]faceFigures{d.FaceID: {loop: loop, openPerDay: hours.openSecondsPerDay()}}
		return s.deliver(ctx, counted, booked, figures, func(k faceCampaignWeek, out *campaigns.ScreenDelivery) {
			out.Source = campaigns.DeliverySourceScreen
			out.Device = &campaigns.DeviceBatchProof{ScreenID: d.ScreenID, PublicKey: d.PublicKey, Message: d.Message, Signature: d.Signature,
				BatchHash: d.BodyHash, Plays: counted[k]}
		})
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

func itoa(i int) string { return strconv.Itoa(i) }
