package campaigns

import (
	"context"

	"marquee/modules/campaigns/internal/makegood"
	"marquee/modules/campaigns/internal/proofchain"
	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/db"
)

// Delivery from plays (docs/screens.md "Delivery"): the screens module records a face-week's
// figure from its counted plays, and closes the week once its backfill grace is over. It is an
// area of its own receiver, playDelivery, so service stays a type and not a namespace.

// playDelivery implements the delivery-from-plays part of Service.
type playDelivery struct{ *service }

// publicAPI is the module's Service: service's methods and playDelivery's.
type publicAPI struct {
	*service
	plays *playDelivery
}

func (a publicAPI) FaceBookings(ctx context.Context, faceIDs []string, from, to dates.Date) ([]FaceBooking, error) {
	return a.plays.FaceBookings(ctx, faceIDs, from, to)
}
func (a publicAPI) RecordScreenDelivery(ctx context.Context, req ScreenDelivery) error {
	return a.plays.RecordScreenDelivery(ctx, req)
}
func (a publicAPI) ScreenWeeksToClose(ctx context.Context, endedBefore dates.Date) ([]ScreenWeekToClose, error) {
	return a.plays.ScreenWeeksToClose(ctx, endedBefore)
}
func (a publicAPI) CloseScreenWeek(ctx context.Context, weekID string) error {
	return a.plays.CloseScreenWeek(ctx, weekID)
}

// FaceBookings returns the weeks booked on these faces from..to (week starts), for players'
// schedules: live weeks of campaigns that are active, or completed (a past week's plays still
// arrive by backfill). A week's creative is its own, else its campaign's, else its company's
// default creative (what the face shows when the advertiser chose none).
func (s *playDelivery) FaceBookings(ctx context.Context, faceIDs []string, from, to dates.Date) ([]FaceBooking, error) {
	rows, err := s.store.FaceWeeks(ctx, faceIDs, from, to, []string{StatusActive, StatusCompleted})
	if err != nil {
		return nil, err
	}
	var campaignIDs []string
	seen := map[string]bool{}
	for _, w := range rows {
		if w.CreativeID == "" && !seen[w.CampaignID] {
			seen[w.CampaignID] = true
			campaignIDs = append(campaignIDs, w.CampaignID)
		}
	}
	creativeOf := map[string]string{} // campaign -> its creative, or its company's default
	if len(campaignIDs) > 0 {
		cs, err := s.store.CampaignsByIDs(ctx, campaignIDs)
		if err != nil {
			return nil, err
		}
		defaults := map[string]string{}
		for _, c := range cs {
			if c.CreativeID != "" {
				creativeOf[c.ID] = c.CreativeID
				continue
			}
			d, ok := defaults[c.CompanyID]
			if !ok { // one read per company (a face has few advertisers a week)
				if cr, err := s.deps.Creatives.FindDefaultCreative(ctx, c.CompanyID); err == nil {
					d = cr.ID
				} else if apperr.CodeOf(err) != apperr.ENOTFOUND {
					return nil, err
				}
				defaults[c.CompanyID] = d
			}
			creativeOf[c.ID] = d
		}
	}
	out := make([]FaceBooking, len(rows))
	for i, w := range rows {
		cr := w.CreativeID
		if cr == "" {
			cr = creativeOf[w.CampaignID]
		}
		out[i] = FaceBooking{CampaignID: w.CampaignID, WeekID: w.ID, FaceID: w.FaceID, Week: w.StartAt, CreativeID: cr, Ooh: w.Ooh}
	}
	return out, nil
}

// RecordScreenDelivery sets the week's figure from plays and appends the device's batch to the
// campaign's proof chain, in the caller's transaction. An admin's override stays (its figure is
// not replaced), and a closed week keeps its final figure; the batch still enters the chain.
// ENOTFOUND when the campaign has no such week on the face.
func (s *playDelivery) RecordScreenDelivery(ctx context.Context, req ScreenDelivery) error {
	if req.Source != DeliverySourceScreen && req.Source != DeliverySourceImport {
		return apperr.New(apperr.EINVALID, "campaigns: unknown delivery source "+req.Source)
	}
	if err := db.LockForTx(ctx, s.deps.DB, "campaign:"+req.CampaignID); err != nil {
		return err
	}
	w, err := s.store.WeekOfFace(ctx, req.CampaignID, req.FaceID, req.Week)
	if err != nil {
		return db.Translate(err, MsgWeekNotFound, "")
	}
	if w.DeliveryClosedAt == nil && (w.DeliverySource == "" || w.DeliverySource == req.Source) {
		now := s.deps.Clock.Now()
		// The ceiling of any delivery (10 times the contracted impressions): a device that reports
		// more plays than its face can show does not buy itself an unbounded figure.
		v := min(max(req.Impressions, 0), makegood.MaxImpressions(w.Ooh))
		if err := s.store.UpdateWeeks(ctx, []string{w.ID}, map[string]any{"act_imp": &v, "delivery_source": req.Source, "updated_at": now}); err != nil {
			return err
		}
		if err := s.store.RefreshActImp(ctx, w.CampaignID, now); err != nil {
			return err
		}
	}
	var dev *proofchain.Device
	if d := req.Device; d != nil {
		dev = &proofchain.Device{BatchHash: d.BatchHash, Message: d.Message, Plays: d.Plays, PublicKey: d.PublicKey, ScreenID: d.ScreenID, Signature: d.Signature}
	}
	reason := ProofReasonDeviceBatch
	if dev == nil && req.ImportHash != "" {
		reason = ProofReasonImport + ":" + req.ImportHash
	}
	return s.assure.appendProofRecordWith(ctx, w.ID, reason, "", dev)
}

// ScreenWeeksToClose returns the weeks whose figure comes from a screen or an import, not yet
// closed, whose Sunday is before the given day, with their faces (the caller closes each on its
// face's clock).
func (s *playDelivery) ScreenWeeksToClose(ctx context.Context, endedBefore dates.Date) ([]ScreenWeekToClose, error) {
	rows, err := s.store.OpenScreenWeeks(ctx, endedBefore, []string{DeliverySourceScreen, DeliverySourceImport})
	if err != nil {
		return nil, err
	}
	out := make([]ScreenWeekToClose, len(rows))
	for i, w := range rows {
		out[i] = ScreenWeekToClose{WeekID: w.ID, FaceID: w.FaceID, Week: w.StartAt}
	}
	return out, nil
}

// CloseScreenWeek closes a week whose figure comes from plays: its figure is final, and the
// make-good rule runs on it (granted once, as for an admin's figure). Closing twice changes
// nothing.
func (s *playDelivery) CloseScreenWeek(ctx context.Context, weekID string) error {
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		w, err := s.store.FindWeek(ctx, weekID)
		if err != nil {
			return db.Translate(err, MsgWeekNotFound, "")
		}
		c, err := s.lockCampaign(ctx, "", w.CampaignID) // the job's, on behalf of no company
		if err != nil {
			return err
		}
		if w, err = s.store.FindWeek(ctx, weekID); err != nil { // read again under the lock
			return err
		}
		if w.DeliveryClosedAt != nil {
			return nil
		}
		now := s.deps.Clock.Now()
		if err := s.store.UpdateWeeks(ctx, []string{w.ID}, map[string]any{"delivery_closed_at": now, "updated_at": now}); err != nil {
			return err
		}
		if w.ActImp != nil {
			v := *w.ActImp
			s.notify(ctx, EventWeekDelivered, func(ctx context.Context) error {
				return s.deps.Events.Publish(ctx, EventWeekDelivered, WeekDelivered{CampaignID: c.ID, CompanyID: c.CompanyID, WeekID: w.ID, StartAt: w.StartAt, Impressions: v})
			})
		}
		_, err = s.assure.settleMakeGood(ctx, c, w, nil)
		return err
	})
}
