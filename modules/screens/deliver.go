package screens

import (
	"context"
	"sort"

	"marquee/modules/campaigns"
	"marquee/platform/dates"
)

// faceFigures are what a face's delivered figure is computed with: its loop and the length of its
// operating day (Impressions).
type faceFigures struct {
	loop       int
	openPerDay int64
}

// deliver sets each touched face campaign-week's figure from all its counted plays (the rollups
// hold a screen's and an import's alike) and appends a record to the campaign's proof chain
// (campaigns.RecordScreenDelivery), in the caller's transaction. proof names the figure's source:
// a screen's signed batch, or an import's file. The weeks are written in one order for every
// writer (campaign, face, week), so two writers never wait on each other's rows in turn.
func (s *service) deliver(ctx context.Context, counted map[faceCampaignWeek]int64, booked map[faceCampaignWeek]campaigns.FaceBooking,
	figures map[string]faceFigures, proof func(k faceCampaignWeek, out *campaigns.ScreenDelivery)) error {
	keys := make([]faceCampaignWeek, 0, len(counted))
	byFace := map[string][]faceCampaignWeek{}
	for k := range counted {
		keys = append(keys, k)
		byFace[k.face] = append(byFace[k.face], k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.campaign != b.campaign {
			return a.campaign < b.campaign
		}
		if a.face != b.face {
			return a.face < b.face
		}
		return a.week.Before(b.week)
	})
	total := map[faceCampaignWeek]int64{}
	for face, ks := range byFace {
		campaignIDs, weeks := make([]string, 0, len(ks)), make([]dates.Date, 0, len(ks))
		for _, k := range ks {
			campaignIDs, weeks = append(campaignIDs, k.campaign), append(weeks, k.week)
		}
		totals, err := s.store.CountedPlaysOf(ctx, face, campaignIDs, weeks)
		if err != nil {
			return err
		}
		for _, t := range totals {
			total[faceCampaignWeek{face, t.CampaignID, t.Week}] = t.Plays
		}
	}
	for _, k := range keys {
		fig := figures[k.face]
		out := campaigns.ScreenDelivery{CampaignID: k.campaign, FaceID: k.face, Week: k.week,
			Impressions: Impressions(total[k], booked[k].Ooh, fig.loop, fig.openPerDay)}
		proof(k, &out)
		if err := s.deps.Bookings.RecordScreenDelivery(ctx, out); err != nil {
			return err
		}
	}
	return nil
}
