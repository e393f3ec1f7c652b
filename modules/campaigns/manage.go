package campaigns

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"marquee/modules/billing"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/clock"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/money"
	"marquee/platform/pagination"
	"marquee/platform/retry"
)

// The management side: list, count, detail, weeks, the lifecycle actions and the
// creative changes. Every call reads the campaign through the caller's company (admins: any
// company); another company's campaign, week or creative answers 404.

// scope is the company a principal's queries are limited to: its own, or none for admins.
func scope(p *auth.Principal) string {
	if p.IsAdmin() {
		return ""
	}
	return p.CompanyID
}

// statusFilter maps ?status= to stored statuses (a stored 'paid' is pending).
func statusFilter(s string) ([]string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "all":
		return nil, nil
	case StatusActive:
		return []string{StatusActive}, nil
	case StatusPaused:
		return []string{StatusPaused}, nil
	case StatusPending:
		return []string{StatusPending, StatusPaid}, nil
	case StatusCompleted:
		return []string{StatusCompleted}, nil
	case StatusCanceled:
		return []string{StatusCanceled}, nil
	}
	return nil, apperr.Field("status", MsgStatusFilter)
}

// listCampaigns answers a list page with the totals of everything matched.
func (s *service) listCampaigns(ctx context.Context, companyID, status string, p pagination.Params) (*CampaignList, error) {
	statuses, err := statusFilter(status)
	if err != nil {
		return nil, err
	}
	rows, totals, err := s.store.ListCampaigns(ctx, store.ListQuery{CompanyID: companyID, Q: p.Q, Statuses: statuses}, p)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	items, err := s.campaignDTOs(ctx, rows)
	if err != nil {
		return nil, err
	}
	return &CampaignList{Items: items, Total: int(totals.Count), Page: p.Page, PageSize: p.PageSize,
		Totals: ListTotals{WeeklyBudget: money.Cents(totals.WeeklyBudget), TotalBudget: money.Cents(totals.TotalBudget), TotalActImp: totals.TotalActImp}}, nil
}

// campaignDTOs converts rows with their company names, read in one batch.
func (s *service) campaignDTOs(ctx context.Context, rows []store.Campaign) ([]*Campaign, error) {
	out := make([]*Campaign, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	var companyIDs []string
	for i := range rows {
		if !slices.Contains(companyIDs, rows[i].CompanyID) {
			companyIDs = append(companyIDs, rows[i].CompanyID)
		}
	}
	cos, err := s.deps.Identity.FindCompaniesByIDs(ctx, companyIDs)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, co := range cos {
		names[co.ID] = co.Name
	}
	for i := range rows {
		out = append(out, campaignDTO(&rows[i], names[rows[i].CompanyID]))
	}
	return out, nil
}

// findCampaign reads a campaign the principal may see. ENOTFOUND otherwise.
func (s *service) findCampaign(ctx context.Context, p *auth.Principal, id string) (*store.Campaign, error) {
	c, err := s.store.FindCampaign(ctx, scope(p), id)
	if err != nil {
		return nil, db.Translate(err, MsgCampaignNotFound, "")
	}
	return c, nil
}

// editable: a campaign is not editable when its start is EditLockDays or fewer days away (B §9),
// nor once it has ended; admins edit any running campaign (B §5 admin rules).
func editable(c *store.Campaign, today dates.Date, admin bool) bool {
	switch c.Status {
	case StatusCompleted, StatusCanceled, StatusConflict:
		return false
	}
	return admin || today.DaysUntil(c.StartDate) > EditLockDays
}

// imminentEnd: a finite campaign's end is imminent within ImminentEndDays days (B §9).
func imminentEnd(c *store.Campaign, today dates.Date) bool {
	if !isFinite(c.Frequency) || !slices.Contains(live, c.Status) {
		return false
	}
	d := today.DaysUntil(c.EndDate)
	return d >= 0 && d <= ImminentEndDays
}

// campaignDetail answers GET /api/campaigns/{id}.
func (s *service) campaignDetail(ctx context.Context, p *auth.Principal, id string) (*CampaignDetail, error) {
	c, err := s.findCampaign(ctx, p, id)
	if err != nil {
		return nil, err
	}
	weeks, err := s.store.CampaignWeeks(ctx, c.ID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	creatives, err := s.store.WeekCreativesOf(ctx, c.ID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	dtos, err := s.campaignDTOs(ctx, []store.Campaign{*c})
	if err != nil {
		return nil, err
	}
	now := s.deps.Clock.Now()
	today := dates.Today(s.deps.Clock)
	out := &CampaignDetail{Campaign: *dtos[0], Locations: []CampaignLocation{}, Proofs: []Proof{},
		Chart: buildChart(weeks, c.Duration, now, clock.Location(s.deps.Clock)), Editable: editable(c, today, p.IsAdmin()), ImminentEnd: imminentEnd(c, today),
		CanPause: canPause(c.Status), CanResume: canResume(c.Status), CanStop: canStop(c.Status)}
	weekByID := make(map[string]*store.Week, len(weeks))
	for i := range weeks {
		weekByID[weeks[i].ID] = &weeks[i]
	}
	for _, wc := range creatives {
		if wc.CreativeType == CreativeTypeProof {
			proof := Proof{WeekCreative: WeekCreative{ID: wc.ID, CreativeType: wc.CreativeType, URL: wc.URL, ConvertedThumb: wc.Thumb, CreatedAt: wc.CreatedAt}}
			if w := weekByID[wc.WeekID]; w != nil {
				proof.LocationName, proof.Face, proof.StartAt, proof.EndAt = w.LocationName, w.Face, w.StartAt, w.EndAt
			}
			out.Proofs = append(out.Proofs, proof)
		}
	}
	out.Chart, out.MakeGoodThreshold = withPlanFloor(out.Chart, s.assure.threshold()), s.assure.threshold()
	if out.MakeGoods, err = s.assure.campaignMakeGoods(ctx, c); err != nil {
		return nil, err
	}
	out.Locations, err = s.campaignLocations(ctx, weeks, today)
	return out, err
}

// campaignLocations is one marker per face of the campaign, with the creative it shows: that of
// its current week, else its next, else its last (B §2 "a creative per location").
func (s *service) campaignLocations(ctx context.Context, weeks []store.Week, today dates.Date) ([]CampaignLocation, error) {
	pick := map[string]*store.Week{}
	var order []string
	for i := range weeks {
		w := &weeks[i]
		cur, ok := pick[w.FaceID]
		if !ok {
			order = append(order, w.FaceID)
			pick[w.FaceID] = w
			continue
		}
		// weeks are oldest first: move on while the picked week has ended.
		if cur.EndAt.Before(today) {
			pick[w.FaceID] = w
		}
	}
	out := make([]CampaignLocation, 0, len(order))
	if len(order) == 0 {
		return out, nil
	}
	faces, err := s.deps.Locations.FindFacesByIDs(ctx, order)
	if err != nil {
		return nil, err
	}
	byID := map[string]int{}
	for i, f := range faces {
		byID[f.ID] = i
	}
	for _, id := range order {
		w := pick[id]
		l := CampaignLocation{ID: id, LocationName: w.LocationName, Market: w.Market, City: w.City, Face: w.Face, Lat: w.Lat, Lng: w.Lng,
			CreativeID: w.CreativeID, CreativeURL: w.CreativeURL, Snapshot: w.Snapshot}
		if i, ok := byID[id]; ok {
			l.DoubleFaced, l.OtherFace = faces[i].DoubleFaced, faces[i].OtherFace
		}
		out = append(out, l)
	}
	return out, nil
}

// campaignWeeks answers a page of the campaign's weeks with their creatives and proofs.
func (s *service) campaignWeeks(ctx context.Context, p *auth.Principal, id string, pp pagination.Params) (*pagination.Page[Week], error) {
	c, err := s.findCampaign(ctx, p, id)
	if err != nil {
		return nil, err
	}
	rows, total, err := s.store.WeeksPage(ctx, c.ID, pp)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	weekIDs := make([]string, len(rows))
	for i := range rows {
		weekIDs[i] = rows[i].ID
	}
	wcs, err := s.store.WeekCreativesOfWeeks(ctx, weekIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	byWeek := map[string][]store.WeekCreative{}
	for _, wc := range wcs {
		byWeek[wc.WeekID] = append(byWeek[wc.WeekID], wc)
	}
	mgs, err := s.store.MakeGoodsOfWeeks(ctx, weekIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	today := dates.Of(s.deps.Clock.Now())
	items := make([]Week, len(rows))
	for i := range rows {
		items[i] = weekDTO(&rows[i], byWeek[rows[i].ID])
		items[i].Status = weekStatus(c.Status, &rows[i], today)
		if mg, ok := mgs[rows[i].ID]; ok {
			items[i].MakeGood = &WeekMakeGood{ID: mg.ID, Credit: money.Cents(mg.CreditCents), Status: mg.Status}
		}
	}
	page := pagination.Envelope(items, total, pp)
	return &page, nil
}

// pauseCampaign pauses (B §4): the spots of the weeks already charged are kept; the weekly job
// skips the next weeks at their cut-offs.
func (s *service) pauseCampaign(ctx context.Context, p *auth.Principal, id string) (*ActionResponse, error) {
	return s.simpleTransition(ctx, p, id, actionPause, MsgPaused, nil)
}

// resumeCampaign resumes a paused campaign from the next week not yet past its cut-off: the weeks
// that passed their cut-off while it was paused are skipped (their spots freed) first.
func (s *service) resumeCampaign(ctx context.Context, p *auth.Principal, id string) (*ActionResponse, error) {
	return s.simpleTransition(ctx, p, id, actionResume, MsgResumed, func(ctx context.Context, c *store.Campaign) error {
		today := dates.Today(s.deps.Clock)
		locked := lockedWeek(today)
		from := locked.AddWeeks(-catchUpWeeks)
		window, err := s.store.WindowWeeks(ctx, []string{c.ID}, from, locked)
		if err != nil {
			return err
		}
		charged, err := s.store.ChargedWeeks(ctx, []string{c.ID}, from, locked)
		if err != nil {
			return err
		}
		spans, err := s.store.WeekSpans(ctx, []string{c.ID})
		if err != nil {
			return err
		}
		plan := planJob(weekState{Status: StatusPaused, Frequency: c.Frequency, Weeks: window[c.ID], Charged: charged[c.ID], LastWeek: spans[c.ID].Last}, today)
		var withRows, without []dates.Date
		for _, w := range plan.Skip {
			if slices.Contains(window[c.ID], w) {
				withRows = append(withRows, w)
			} else {
				without = append(without, w)
			}
		}
		if _, err := s.skipWeeks(ctx, c, withRows); err != nil {
			return err
		}
		return s.recordSkipped(ctx, c, without)
	})
}

// simpleTransition applies a status change under the campaign's lock, with an optional step
// before the status is written.
func (s *service) simpleTransition(ctx context.Context, p *auth.Principal, id string, a action, msg string, before func(context.Context, *store.Campaign) error) (*ActionResponse, error) {
	var next string
	err := s.withLockedCampaign(ctx, p, id, func(ctx context.Context, c *store.Campaign) error {
		var err error
		var changed bool
		next, changed, err = transition(c.Status, a, firstPaid(c))
		if err != nil || !changed {
			return err
		}
		if before != nil {
			if err := before(ctx, c); err != nil {
				return err
			}
		}
		if _, err = s.store.SetStatusFrom(ctx, c.ID, []string{c.Status}, map[string]any{"status": next, "updated_at": s.deps.Clock.Now()}); err != nil {
			return err
		}
		s.publishStatus(ctx, c, next)
		return s.auditAdmin(ctx, p, AuditCampaignStatus, "campaign", c.ID, map[string]string{"status": c.Status}, map[string]string{"status": next})
	})
	if err != nil {
		return nil, err
	}
	return &ActionResponse{Success: true, Message: msg, Status: DisplayStatus(next)}, nil
}

// stopCampaign marks the campaign complete (B §4): irreversible, frequency one-time, every week not
// yet charged released. A second stop changes nothing and answers the same.
func (s *service) stopCampaign(ctx context.Context, p *auth.Principal, id string) (*ActionResponse, error) {
	var next string
	err := s.withLockedCampaign(ctx, p, id, func(ctx context.Context, c *store.Campaign) error {
		var err error
		var changed bool
		next, changed, err = transition(c.Status, actionStop, firstPaid(c))
		if err != nil || !changed {
			return err
		}
		charges, err := s.store.CampaignCharges(ctx, c.ID)
		if err != nil {
			return err
		}
		// A week is charged when its charge is pending or succeeded; a failed, skipped or refunded
		// week is released.
		chargedWeek := map[dates.Date]bool{}
		for _, ch := range charges {
			if ch.Status == ChargePending || ch.Status == ChargeSucceeded {
				chargedWeek[ch.Week] = true
			}
		}
		weeks, err := s.store.CampaignWeeks(ctx, c.ID)
		if err != nil {
			return err
		}
		var release []store.Week
		var releasedWeeks []dates.Date
		kept := map[dates.Date]bool{}
		end := dates.Date{}
		for _, w := range weeks {
			if chargedWeek[w.StartAt] {
				kept[w.StartAt] = true
				if w.EndAt.After(end) {
					end = w.EndAt
				}
				continue
			}
			release = append(release, w)
			if !slices.Contains(releasedWeeks, w.StartAt) {
				releasedWeeks = append(releasedWeeks, w.StartAt)
			}
		}
		if err := s.releaseWeekRows(ctx, c, release); err != nil {
			return err
		}
		if err := s.recordSkipped(ctx, c, releasedWeeks); err != nil {
			return err
		}
		cols := map[string]any{"status": next, "frequency": FrequencyOneTime, "updated_at": s.deps.Clock.Now()}
		if !end.IsZero() {
			cols["end_date"], cols["duration"] = end, max(len(kept), 1)
		}
		if ok, err := s.store.SetStatusFrom(ctx, c.ID, []string{c.Status}, cols); err != nil || !ok {
			return err
		}
		if err := s.auditAdmin(ctx, p, AuditCampaignStatus, "campaign", c.ID, map[string]string{"status": c.Status}, map[string]string{"status": next}); err != nil {
			return err
		}
		s.publishCompleted(ctx, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &ActionResponse{Success: true, Message: MsgStopped, Status: DisplayStatus(next)}, nil
}

// deleteCampaign marks the campaign deleted (never listed again) with the reason, frees the spots
// of every week that has not started and, with refund, refunds through billing what was charged
// for those weeks and gives back the account credit they took.
func (s *service) deleteCampaign(ctx context.Context, p *auth.Principal, id string, params DeleteParams) (*ActionResponse, error) {
	params.Reason = strings.TrimSpace(params.Reason)
	if len(params.Reason) > 500 {
		return nil, apperr.Field("reason", MsgReasonTooLong)
	}
	c, err := s.findCampaign(ctx, p, id)
	if err != nil {
		return nil, err
	}
	today := dates.Today(s.deps.Clock)
	var refunded []store.Charge
	if params.Refund {
		charges, err := s.store.CampaignCharges(ctx, c.ID)
		if err != nil {
			return nil, apperr.Internal(err)
		}
		// The gateway is asked outside the transaction; each refund is idempotent by its key, so a
		// delete retried after a failure refunds nothing twice.
		for _, ch := range charges {
			if !ch.Week.After(today) || (ch.Status != "succeeded" && ch.Status != store.ChargeRefunded) {
				continue
			}
			if ch.Amount > 0 && ch.TransactionID != "" {
				if _, err := s.deps.Billing.Refund(ctx, billing.RefundRequest{Key: fmt.Sprintf("campaign:%s:refund:%s", c.ID, ch.Week), TransactionID: ch.TransactionID}); err != nil {
					s.deps.Log.ErrorContext(ctx, "campaigns: refund failed", "campaign", c.ID, "week", ch.Week.String(), "err", err)
					return nil, apperr.New(apperr.CodeOf(err), MsgDeleteFailed)
				}
			}
			refunded = append(refunded, ch)
		}
	}
	var next string
	err = s.withLockedCampaign(ctx, p, id, func(ctx context.Context, c *store.Campaign) error {
		if err := s.releaseFrom(ctx, c, today); err != nil {
			return err
		}
		now := s.deps.Clock.Now()
		for _, ch := range refunded {
			if ch.Credit > 0 {
				if _, err := s.deps.Billing.ApplyCredit(ctx, billing.CreditRequest{Key: fmt.Sprintf("campaign:%s:credit-back:%s", c.ID, ch.Week), CompanyID: c.CompanyID,
					Amount: money.Cents(ch.Credit), Description: "Credit back: " + c.Name, CampaignRef: c.ID}); err != nil {
					return err
				}
			}
			if err := s.store.SetChargeStatus(ctx, ch.ID, store.ChargeRefunded, now); err != nil {
				return err
			}
		}
		next, _, _ = transition(c.Status, actionDelete, false)
		if err := s.store.SetCampaign(ctx, c.ID, map[string]any{"deleted": true, "deleted_reason": params.Reason, "deleted_at": now, "status": next, "updated_at": now}); err != nil {
			return err
		}
		return s.auditAdmin(ctx, p, AuditCampaignDelete, "campaign", c.ID, map[string]string{"status": c.Status},
			map[string]any{"status": next, "deleted": true, "reason": params.Reason, "refund": params.Refund})
	})
	if err != nil {
		return nil, err
	}
	return &ActionResponse{Success: true, Message: MsgDeleted, Status: DisplayStatus(next)}, nil
}

// releaseFrom frees the spots of the campaign's weeks that start after today, deletes their rows
// and records the weeks without a charge as skipped.
func (s *service) releaseFrom(ctx context.Context, c *store.Campaign, today dates.Date) error {
	weeks, err := s.store.CampaignWeeks(ctx, c.ID)
	if err != nil {
		return err
	}
	var release []store.Week
	var ws []dates.Date
	for _, w := range weeks {
		if w.StartAt.After(today) {
			release = append(release, w)
			if !slices.Contains(ws, w.StartAt) {
				ws = append(ws, w.StartAt)
			}
		}
	}
	if err := s.releaseWeekRows(ctx, c, release); err != nil {
		return err
	}
	return s.recordSkipped(ctx, c, ws)
}

// releaseCalendar is PUT /api/campaigns/{id}/delete-ac: the campaign's spots of the weeks that
// have not started are freed (B §7, the calendar side), the campaign itself is kept.
func (s *service) releaseCalendar(ctx context.Context, p *auth.Principal, id string) (*ActionResponse, error) {
	var status string
	err := s.withLockedCampaign(ctx, p, id, func(ctx context.Context, c *store.Campaign) error {
		status = c.Status
		return s.releaseFrom(ctx, c, dates.Today(s.deps.Clock))
	})
	if err != nil {
		return nil, err
	}
	return &ActionResponse{Success: true, Message: MsgSpotsReleased, Status: DisplayStatus(status)}, nil
}

// companyCreative reads a creative of the company. ENOTFOUND for another company's.
func (s *service) companyCreative(ctx context.Context, companyID, id string) (url string, err error) {
	if id == "" {
		return "", apperr.Field("creative_id", MsgCreativeRequired)
	}
	crs, err := s.deps.Creatives.FindCreativesByIDs(ctx, []string{id})
	if err != nil {
		return "", err
	}
	if len(crs) == 0 || crs[0].Company != companyID {
		return "", apperr.NotFound("Creative not found.")
	}
	// The storage key, as the creation stores it (creatives serves it at /creative/image).
	return crs[0].URL, nil
}

// changeCampaignCreative shows the creative at these locations (all when empty) for every week of
// the campaign that has not ended; with no locations it becomes the campaign's creative too.
func (s *service) changeCampaignCreative(ctx context.Context, p *auth.Principal, id string, req CreativeChange) (*MessageResponse, error) {
	err := s.withLockedCampaign(ctx, p, id, func(ctx context.Context, c *store.Campaign) error {
		url, err := s.companyCreative(ctx, c.CompanyID, req.CreativeID)
		if err != nil {
			return err
		}
		weeks, err := s.store.CampaignWeeks(ctx, c.ID)
		if err != nil {
			return err
		}
		faces := map[string]bool{}
		for _, w := range weeks {
			faces[w.FaceID] = true
		}
		for _, l := range req.Locations {
			if !faces[l] {
				return apperr.NotFound(MsgFaceNotFound)
			}
		}
		today := dates.Today(s.deps.Clock)
		var change []string
		for _, w := range weeks {
			if !w.EndAt.Before(today) && (len(req.Locations) == 0 || slices.Contains(req.Locations, w.FaceID)) {
				change = append(change, w.ID)
			}
		}
		now := s.deps.Clock.Now()
		if err := s.store.UpdateWeeks(ctx, change, map[string]any{"creative_id": req.CreativeID, "creative_url": url, "updated_at": now}); err != nil {
			return err
		}
		if len(req.Locations) == 0 {
			if err := s.store.SetCampaign(ctx, c.ID, map[string]any{"creative_id": req.CreativeID, "creative_url": url, "updated_at": now}); err != nil {
				return err
			}
		}
		return s.auditAdmin(ctx, p, AuditCampaignCreative, "campaign", c.ID, map[string]string{"creative_id": c.CreativeID}, req)
	})
	if err != nil {
		return nil, err
	}
	return &MessageResponse{Success: true, Message: MsgCreativeUpdated}, nil
}

// changeWeekCreative shows the creative for one week (B §7 PUT /api/campaigns/week/{id}/creative).
// Locations, when given, must name the week's face.
func (s *service) changeWeekCreative(ctx context.Context, p *auth.Principal, weekID string, req CreativeChange) (*MessageResponse, error) {
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		w, c, err := s.lockWeek(ctx, p, weekID)
		if err != nil {
			return err
		}
		if len(req.Locations) > 0 && !slices.Contains(req.Locations, w.FaceID) {
			return apperr.NotFound(MsgFaceNotFound)
		}
		url, err := s.companyCreative(ctx, c.CompanyID, req.CreativeID)
		if err != nil {
			return err
		}
		if err := s.store.UpdateWeeks(ctx, []string{w.ID}, map[string]any{"creative_id": req.CreativeID, "creative_url": url, "updated_at": s.deps.Clock.Now()}); err != nil {
			return err
		}
		return s.auditAdmin(ctx, p, AuditCampaignCreative, "campaign_week", w.ID, map[string]string{"creative_id": w.CreativeID}, req)
	})
	if err != nil {
		return nil, err
	}
	return &MessageResponse{Success: true, Message: MsgCreativeUpdated}, nil
}

// updateCampaign is PUT /api/campaigns/{id} (B §2 edit): the form is validated and priced again by
// the creation's planCampaign (admins with the admin rules of B §5), refused when the start is 5
// or fewer days away (MsgNotEditable; admins may edit any running campaign). Weeks already charged
// keep their rows and spots; every other week is released and the plan's remaining weeks are
// booked (all or nothing: a full week answers 409). The start date of a campaign with a charged
// week can't move. Later weeks are charged by the weekly job as usual.
func (s *service) updateCampaign(ctx context.Context, p *auth.Principal, id string, form CampaignForm) (*CreateResponse, error) {
	c, err := s.findCampaign(ctx, p, id)
	if err != nil {
		return nil, err
	}
	admin := p.IsAdmin()
	if !editable(c, dates.Today(s.deps.Clock), admin) {
		return nil, apperr.New(apperr.EINVALID, MsgNotEditable)
	}
	plan, err := s.planCampaign(ctx, p, form, planOptions{CompanyID: c.CompanyID, Admin: admin, KeepStart: c.StartDate, SkipCard: true, SkipClientPrices: admin})
	if err != nil {
		return nil, err
	}
	err = s.withLockedCampaign(ctx, p, id, func(ctx context.Context, c *store.Campaign) error {
		charges, err := s.store.ChargesOf(ctx, c.ID)
		if err != nil {
			return err
		}
		charged := map[dates.Date]bool{}
		for _, ch := range charges {
			if ch.Status != ChargeSkipped && ch.Status != store.ChargeRefunded {
				charged[ch.Week] = true
			}
		}
		if len(charged) > 0 && !plan.Start.Equal(c.StartDate) {
			return apperr.Field(fieldStart, MsgStartCharged)
		}
		weeks, err := s.store.CampaignWeeks(ctx, c.ID)
		if err != nil {
			return err
		}
		var release []store.Week
		for _, w := range weeks {
			if !charged[w.StartAt] {
				release = append(release, w)
			}
		}
		if err := s.releaseWeekRows(ctx, c, release); err != nil {
			return err
		}
		plan.Weeks = slices.DeleteFunc(plan.Weeks, func(w dates.Date) bool { return charged[w] })
		if len(plan.Weeks) > 0 {
			plan.BookKey = "campaign:" + c.ID + ":edit:" + c.UpdatedAt.Format("20060102150405.000000000") + ":" + fmt.Sprint(len(weeks))
			if err := s.bookPlan(ctx, c, plan); err != nil {
				return err
			}
		}
		cols := map[string]any{"name": plan.Name, "mb_campaign": plan.Type == TypeMaximumBudget, "strategy": plan.Strategy,
			"frequency": plan.Frequency, "start_date": plan.Start, "end_date": plan.End, "duration": plan.Duration,
			"weekly_budget": int64(plan.WeeklyBudget), "max_budget": int64(plan.MaxBudget), "total_budget": int64(plan.Quote.Total),
			"impression_count": plan.Impressions, "markets": encodeList(plan.Markets), "cities": encodeList(plan.Cities),
			"place_id": plan.PlaceID, "radius": plan.Radius, "updated_at": s.deps.Clock.Now()}
		if plan.Creative != nil {
			cols["creative_id"], cols["creative_url"] = plan.Creative.ID, retry.Truncate(plan.Creative.URL, 300)
		}
		if err := s.store.SetCampaign(ctx, c.ID, cols); err != nil {
			return err
		}
		before := map[string]any{"name": c.Name, "status": c.Status, "start_date": c.StartDate, "end_date": c.EndDate,
			"weekly_budget": c.WeeklyBudget, "weeks": len(weeks)}
		return s.auditAdmin(ctx, p, AuditCampaignUpdate, "campaign", c.ID, before, form)
	})
	if err != nil {
		return nil, err
	}
	c, err = s.findCampaign(ctx, p, id)
	if err != nil {
		return nil, err
	}
	dtos, err := s.campaignDTOs(ctx, []store.Campaign{*c})
	if err != nil {
		return nil, err
	}
	return &CreateResponse{Success: true, Message: MsgUpdated, Campaign: dtos[0]}, nil
}
