package campaigns

import (
	"context"
	"errors"
	"slices"
	"time"

	"marquee/modules/billing"
	"marquee/modules/campaigns/internal/store"
	"marquee/modules/locations"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/jobs"
)

// Conflicts (B §4, brief decision 7). When a creation finds a full week, its transaction
// rolls back and a draft campaign (status conflict) is made in a new one: the chosen weeks that are
// free are held as active week rows (key campaign:<id>:own), the nearest later free weeks of the
// taken ones as reserved rows (key campaign:<id>:suggested). Both holds, and the draft, last until
// hold_expires_at (HOLD_TTL). The person then keeps their own dates or takes the suggested ones
// (resolve), or lets the draft expire (the expireDrafts job).

func ownKey(id string) string       { return "campaign:" + id + ":own" }
func suggestedKey(id string) string { return "campaign:" + id + ":suggested" }

// errHoldRace makes the draft's transaction roll back and start over with fresher conflicts.
var errHoldRace = errors.New("campaigns: a hold lost a race")

// createDraft makes the conflict draft of a plan whose booking found the conflicts, and answers the
// 409. A duplicate-key error means a concurrent call with the same key made the campaign first.
func (s *service) createDraft(ctx context.Context, p *auth.Principal, key, fp string, plan *campaignPlan, conflicts []locations.Conflict) (*createOutcome, error) {
	taken := map[locations.FaceWeek]bool{}
	suggested := map[locations.FaceWeek]bool{}
	// merge adds conflicts to what the draft knows, and says how many weeks it learned are taken.
	merge := func(cs []locations.Conflict) int {
		learned := 0
		for _, c := range cs {
			for _, w := range c.Taken {
				if k := (locations.FaceWeek{FaceID: c.FaceID, Week: w}); !taken[k] {
					taken[k] = true
					learned++
				}
			}
			for _, w := range c.Suggested {
				suggested[locations.FaceWeek{FaceID: c.FaceID, Week: w}] = true
			}
		}
		return learned
	}
	merge(conflicts)
	// The draft is made again as long as each lost race taught it a taken week it did not know. No
	// fixed number of attempts: in a rush every loser's draft races the others for the few spots
	// left and for the same suggested weeks (which fill in turn), so a few attempts run out and
	// the loser got a bare 409 without its draft (TestCreationRace on PostgreSQL under load). It
	// ends: a Hold reports as taken only weeks it was asked for, which the draft did not know were
	// taken, so every retry grows taken, and each needs another request to have filled a week.
	for {
		if s.beforeDraft != nil {
			s.beforeDraft()
		}
		var own, sugg []locations.FaceWeek
		for _, f := range plan.Faces {
			for _, w := range plan.Weeks {
				if k := (locations.FaceWeek{FaceID: f.ID, Week: w}); !taken[k] {
					own = append(own, k)
				}
			}
		}
		for k := range suggested {
			if !taken[k] {
				sugg = append(sugg, k)
			}
		}
		row := s.newCampaignRow(plan, ids.New(), p.UserID, key, fp, StatusConflict)
		expires := s.deps.Clock.Now().Add(s.deps.HoldTTL)
		row.HoldExpiresAt = &expires
		row.PaymentStatus = ""
		err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
			if err := s.store.Create(ctx, row); err != nil {
				return err
			}
			var rows []store.Week
			if len(own) > 0 {
				res, err := s.deps.Locations.Hold(ctx, locations.ReserveRequest{Key: ownKey(row.ID), CompanyID: row.CompanyID, Ref: row.ID, Items: own})
				if len(res.Conflicts) > 0 {
					return holdLost(merge(res.Conflicts))
				} else if err != nil {
					return err
				}
				rows = append(rows, s.weekRows(row, plan, res.Spots, ownKey(row.ID), WeekActive)...)
			}
			if len(sugg) > 0 {
				res, err := s.deps.Locations.Hold(ctx, locations.ReserveRequest{Key: suggestedKey(row.ID), CompanyID: row.CompanyID, Ref: row.ID, Items: sugg})
				if len(res.Conflicts) > 0 {
					// A suggested week went meanwhile: drop it and offer what is free.
					return holdLost(merge(res.Conflicts))
				} else if err != nil {
					return err
				}
				rows = append(rows, s.weekRows(row, plan, res.Spots, suggestedKey(row.ID), WeekReserved)...)
			}
			return s.store.InsertWeeks(ctx, rows)
		})
		if errors.Is(err, errHoldRace) {
			continue
		}
		if err != nil {
			return nil, err
		}
		resp, err := s.conflictResponse(ctx, row, plan.Form)
		if err != nil {
			return nil, err
		}
		return &createOutcome{conflict: resp}, nil
	}
}

// holdLost is the error that rolls a draft's transaction back after a hold lost a race: errHoldRace
// to start over when the conflicts taught the draft a taken week; otherwise another try would ask
// for the same weeks again, so the caller gets the bare conflict (which a Hold never gives).
func holdLost(learned int) error {
	if learned > 0 {
		return errHoldRace
	}
	return apperr.New(apperr.ECONFLICT, locations.MsgSpotTaken)
}

// conflictResponse is the 409 of a draft: the campaign with its weeks (active where the chosen
// dates are held, reserved on the suggested ones), when the holds expire, and the form.
func (s *service) conflictResponse(ctx context.Context, c *store.Campaign, form CampaignForm) (*ConflictResponse, error) {
	rows, err := s.store.WeeksOf(ctx, c.ID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	weeks := make([]Week, len(rows))
	for i := range rows {
		weeks[i] = weekDTO(&rows[i], nil)
	}
	cc := ConflictCampaign{Campaign: *s.namedCampaignDTO(ctx, c), Weeks: weeks}
	if c.HoldExpiresAt != nil {
		cc.ExpiresAt = *c.HoldExpiresAt
	}
	return &ConflictResponse{Success: false, Message: MsgConflict, Campaign: cc, Params: form}, nil
}

func (s *service) draftExpired(c *store.Campaign) bool {
	return c.HoldExpiresAt != nil && !c.HoldExpiresAt.After(s.deps.Clock.Now())
}

// dropDraft releases a draft's holds and deletes it with its weeks.
func (s *service) dropDraft(ctx context.Context, c *store.Campaign) error {
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		for _, key := range []string{ownKey(c.ID), suggestedKey(c.ID)} {
			if _, err := s.deps.Locations.Release(ctx, locations.KeyRequest{Key: key, CompanyID: c.CompanyID}); err != nil {
				return err
			}
		}
		if err := s.store.DeleteCampaign(ctx, c.ID); err != nil {
			return apperr.Internal(err)
		}
		return nil
	})
}

// resolve applies the person's choice for a draft (B §4):
//   - "own": without any active week the draft is deleted and its holds released (campaign nil);
//     otherwise the own hold is confirmed, the suggested one released and the reserved rows dropped;
//   - "suggested": both holds are confirmed and the reserved rows become active.
//
// Either way the campaign becomes pending, its dates follow its weeks, and its first week is
// charged as at creation. ENOTFOUND for another company's draft; ECONFLICT (MsgConflictResolved)
// when it was resolved already or its holds expired.
func (s *service) resolve(ctx context.Context, p *auth.Principal, id string, req ResolveRequest) (*ResolveResponse, error) {
	if req.Choice != ResolveOwnDates && req.Choice != ResolveSuggestedDates {
		return nil, apperr.Field("choice", MsgChoiceInvalid)
	}
	if !ids.Valid(id) {
		return nil, apperr.NotFound(MsgCampaignNotFound)
	}
	c, err := s.store.CompanyCampaign(ctx, p.CompanyID, id)
	if err != nil {
		return nil, db.Translate(err, MsgCampaignNotFound, "")
	}
	if c.Status != StatusConflict {
		return nil, apperr.New(apperr.ECONFLICT, MsgConflictResolved)
	}
	if s.draftExpired(c) {
		if err := s.dropDraft(ctx, c); err != nil {
			return nil, err
		}
		return nil, apperr.New(apperr.ECONFLICT, MsgConflictResolved)
	}
	rows, err := s.store.WeeksOf(ctx, c.ID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	hasActive := slices.ContainsFunc(rows, func(w store.Week) bool { return w.Status == WeekActive })
	hasReserved := slices.ContainsFunc(rows, func(w store.Week) bool { return w.Status == WeekReserved })
	if req.Choice == ResolveOwnDates && !hasActive || req.Choice == ResolveSuggestedDates && !hasActive && !hasReserved {
		if err := s.dropDraft(ctx, c); err != nil {
			return nil, err
		}
		return &ResolveResponse{Success: true, Message: MsgNothingCreated}, nil
	}
	var charge *store.Charge
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		now := s.deps.Clock.Now()
		// Only one resolution wins: the draft turns pending once.
		claimed, err := s.store.ClaimDraft(ctx, c.ID, StatusConflict, StatusPending, now)
		if err != nil {
			return apperr.Internal(err)
		}
		if !claimed {
			return apperr.New(apperr.ECONFLICT, MsgConflictResolved)
		}
		// The spots still held: the web app may have deleted some held weeks through the calendar
		// (B §4 "the reserved weeks are deleted there"); their rows go below, so no week is charged
		// without its spot.
		live := map[string]bool{}
		if hasActive {
			spots, err := s.deps.Locations.ConfirmHold(ctx, locations.KeyRequest{Key: ownKey(c.ID), CompanyID: c.CompanyID})
			if err != nil {
				return resolveErr(err)
			}
			for _, sp := range spots {
				live[sp.ID] = true
			}
		}
		if req.Choice == ResolveOwnDates {
			if _, err := s.deps.Locations.Release(ctx, locations.KeyRequest{Key: suggestedKey(c.ID), CompanyID: c.CompanyID}); err != nil {
				return err
			}
			if err := s.store.DeleteWeeksWithStatus(ctx, c.ID, WeekReserved); err != nil {
				return apperr.Internal(err)
			}
		} else if hasReserved {
			spots, err := s.deps.Locations.ConfirmHold(ctx, locations.KeyRequest{Key: suggestedKey(c.ID), CompanyID: c.CompanyID})
			if err != nil {
				return resolveErr(err)
			}
			for _, sp := range spots {
				live[sp.ID] = true
			}
			if err := s.store.SetWeeksStatus(ctx, c.ID, WeekReserved, WeekActive, now); err != nil {
				return apperr.Internal(err)
			}
		}
		var gone []string
		for _, w := range rows {
			if !live[w.SpotID] && (w.Status == WeekActive || req.Choice == ResolveSuggestedDates) {
				gone = append(gone, w.ID)
			}
		}
		if len(gone) > 0 {
			if err := s.store.DeleteWeeks(ctx, gone); err != nil {
				return apperr.Internal(err)
			}
		}
		if err := s.fitDatesToWeeks(ctx, c); err != nil {
			return err
		}
		if charge, err = s.scheduleWeekCharge(ctx, c, c.StartDate); err != nil {
			return err
		}
		return s.markCharged(ctx, c, charge)
	})
	if err != nil {
		return nil, err
	}
	s.settleAfterCommit(ctx, charge)
	return &ResolveResponse{Success: true, Message: createdMessage(c.Status), Campaign: s.namedCampaignDTO(ctx, c)}, nil
}

// resolveErr maps a hold that can no longer be confirmed to MsgConflictResolved.
func resolveErr(err error) error {
	switch apperr.CodeOf(err) {
	case apperr.ENOTFOUND, apperr.ECONFLICT:
		return apperr.New(apperr.ECONFLICT, MsgConflictResolved)
	}
	return err
}

// fitDatesToWeeks makes a resolved campaign's dates those of its active weeks: the start is the
// first booked Monday, the end the last booked week's Sunday, the duration the weeks between (a
// one-time campaign that now spans more than one week becomes weekly, B §4). The budgets follow.
func (s *service) fitDatesToWeeks(ctx context.Context, c *store.Campaign) error {
	first, last, _, err := s.store.WeekSpan(ctx, c.ID, WeekActive)
	if err != nil {
		return apperr.Internal(err)
	}
	c.StartDate, c.EndDate = first, last.WeekEnd()
	c.Duration = DurationFromEnd(c.StartDate, c.EndDate)
	if c.Frequency == FrequencyOneTime && c.Duration > 1 {
		c.Frequency = FrequencyWeekly
	}
	if c.Frequency == FrequencyOngoing {
		c.Duration = 1
	}
	weekly, total, err := s.budgetOfWeeks(ctx, c, first)
	if err != nil {
		return err
	}
	c.WeeklyBudget, c.TotalBudget, c.Status, c.HoldExpiresAt, c.PaymentStatus = weekly, total, StatusPending, nil, ""
	return s.store.UpdateCampaign(ctx, c.ID, s.deps.Clock.Now(), map[string]any{"start_date": c.StartDate, "end_date": c.EndDate,
		"duration": c.Duration, "frequency": c.Frequency, "weekly_budget": weekly, "total_budget": total, "hold_expires_at": nil})
}

// budgetOfWeeks prices a campaign's active weeks as the charges will: the first week's net (the
// weekly budget) and the sum of every week's net, the account credit split evenly across the
// booked weeks (B §9).
func (s *service) budgetOfWeeks(ctx context.Context, c *store.Campaign, first dates.Date) (weekly, total int64, err error) {
	rows, err := s.store.WeeksOf(ctx, c.ID)
	if err != nil {
		return 0, 0, apperr.Internal(err)
	}
	credit, err := s.deps.Billing.AccountCredit(ctx, c.CompanyID)
	if err != nil {
		return 0, 0, err
	}
	byWeek := map[dates.Date]int64{}
	var order []dates.Date
	for _, w := range rows {
		if w.Status != WeekActive {
			continue
		}
		if _, ok := byWeek[w.StartAt]; !ok {
			order = append(order, w.StartAt)
		}
		byWeek[w.StartAt] += w.OfferPrice
	}
	slices.SortFunc(order, func(a, b dates.Date) int { return a.Compare(b) })
	portions := billing.CreditPortions(credit, len(order))
	for i, wk := range order {
		net := max(byWeek[wk]-int64(portions[i]), 0)
		if wk == first {
			weekly = net
		}
		total += net
	}
	return weekly, total, nil
}

// JobExpireDrafts deletes the conflict drafts whose holds expired.
const JobExpireDrafts = "campaigns.expire-drafts"

// expireDraftsJob is the creation side's job: conflict drafts whose holds expired are deleted (the
// locations hold job frees their spots; the draft's keys are released here too).
func (s *service) expireDraftsJob() jobs.Job {
	return jobs.Job{Name: JobExpireDrafts, Every: time.Minute, Run: s.expireDrafts}
}

// expireDrafts is one pass of the draft-expiry job. It is idempotent.
func (s *service) expireDrafts(ctx context.Context) error {
	for {
		drafts, err := s.store.ExpiredDrafts(ctx, StatusConflict, s.deps.Clock.Now(), 100)
		if err != nil {
			return err
		}
		for i := range drafts {
			if err := s.dropDraft(ctx, &drafts[i]); err != nil {
				return err
			}
		}
		if len(drafts) < 100 {
			return nil
		}
	}
}
