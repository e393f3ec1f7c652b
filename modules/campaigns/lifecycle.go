package campaigns

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
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
	"marquee/platform/retry"
)

// The campaign lifecycle (docs/campaign-lifecycle.md): the state machine as pure functions, and
// the weekly job that moves campaigns by date. Every transition is idempotent and the job is safe
// to run twice (and at any hour: it works from "today" and what is already recorded).

// action is what moves a campaign from one status to another.
type action string

const (
	actionActivate action = "activate" // the first week's payment succeeded (charges.go)
	actionPause    action = "pause"
	actionResume   action = "resume"
	actionStop     action = "stop"     // "mark complete": irreversible, frequency one-time
	actionComplete action = "complete" // the weekly job, after the end date
	actionDelete   action = "delete"
)

// live are the stored statuses of a campaign that is still running or about to.
var live = []string{StatusPending, StatusPaid, StatusActive, StatusPaused}

// transition answers the status a campaign in stored status moves to under the action, and
// whether that is a change. firstPaid says the first week's payment has succeeded (a resumed
// campaign is active only then; pending otherwise). A refused action answers EINVALID with the
// message the person sees.
func transition(status string, a action, firstPaid bool) (string, bool, error) {
	switch a {
	case actionActivate:
		if status == StatusPending || status == StatusPaid {
			return StatusActive, true, nil
		}
		return status, false, nil
	case actionPause:
		switch status {
		case StatusPending, StatusPaid, StatusActive:
			return StatusPaused, true, nil
		}
		return status, false, apperr.New(apperr.EINVALID, MsgCannotPause)
	case actionResume:
		if status != StatusPaused {
			return status, false, apperr.New(apperr.EINVALID, MsgCannotResume)
		}
		if firstPaid {
			return StatusActive, true, nil
		}
		return StatusPending, true, nil
	case actionStop:
		// B §4: stop ('mark complete') from any live state, a campaign still waiting for its first
		// payment included; its weeks not charged are released.
		if slices.Contains(live, status) {
			return StatusCompleted, true, nil
		}
		if status == StatusCompleted {
			return status, false, nil
		}
		return status, false, apperr.New(apperr.EINVALID, MsgCannotStop)
	case actionComplete:
		if status == StatusActive || status == StatusPaused {
			return StatusCompleted, true, nil
		}
		return status, false, nil
	case actionDelete:
		if slices.Contains(live, status) {
			return StatusCanceled, true, nil
		}
		return status, false, nil
	}
	return status, false, fmt.Errorf("campaigns: unknown action %q", a)
}

// canPause, canResume and canStop are what the detail page offers (B §4).
func canPause(status string) bool {
	_, _, err := transition(status, actionPause, false)
	return err == nil
}
func canResume(status string) bool { return status == StatusPaused }
func canStop(status string) bool   { return slices.Contains(live, status) }

// lockedWeek is the latest Monday whose Wednesday cut-off has passed on today: the week the weekly
// job books, charges or skips. Mon–Wed it is this week's Monday, Thu–Sun the next Monday.
func lockedWeek(today dates.Date) dates.Date { return EarliestStart(today).AddWeeks(-1) }

// catchUpWeeks is how many weeks before the locked week the job still charges or skips a week it
// missed (the job or the server was down over a cut-off).
const catchUpWeeks = 3

// isFinite: one-time and weekly campaigns end on their end date; ongoing ones run until stopped.
func isFinite(frequency string) bool { return NormalizeFrequency(frequency) != FrequencyOngoing }

// firstPaid reports whether the campaign's first payment went through.
func firstPaid(c *store.Campaign) bool {
	return c.PaymentStatus == "succeeded" || c.PaymentStatus == "" && c.Status != StatusPending && c.Status != StatusPaid
}

// weekState is what the weekly job knows of a campaign: its stored row, the Mondays it has week
// rows for within the job's window, the window's charge rows, and its last week overall.
type weekState struct {
	Status    string
	Frequency string
	EndDate   dates.Date
	Weeks     []dates.Date          // Mondays with week rows, within the window
	Charged   map[dates.Date]string // charge rows within the window: week → status
	LastWeek  dates.Date            // the campaign's last week with rows (zero when none)
}

// jobPlan is what the weekly job does to one campaign.
type jobPlan struct {
	Charge   []dates.Date // weeks to charge (active)
	Skip     []dates.Date // weeks to skip (paused): free their spots, never charge them
	Book     dates.Date   // the next week of an ongoing campaign to book and charge (zero: none)
	Complete bool         // the end date has passed
}

func (p jobPlan) empty() bool {
	return len(p.Charge) == 0 && len(p.Skip) == 0 && p.Book.IsZero() && !p.Complete
}

// planJob is the weekly job's decision for one campaign on today (pure):
//   - a finite campaign, active or paused, whose end date has passed completes;
//   - an active campaign's weeks past their cut-off (within the catch-up window) that have no
//     charge row are charged;
//   - an active ongoing campaign books and charges the locked week once its last week is behind it;
//   - a paused campaign's weeks past their cut-off that have no charge row are skipped; a paused
//     ongoing campaign skips the locked week too, so a resume continues from the next week not yet
//     past its cut-off;
//   - pending campaigns wait for their first payment.
func planJob(s weekState, today dates.Date) jobPlan {
	var p jobPlan
	locked := lockedWeek(today)
	from := locked.AddWeeks(-catchUpWeeks)
	finite := isFinite(s.Frequency)
	if finite && (s.Status == StatusActive || s.Status == StatusPaused) && !s.EndDate.IsZero() && s.EndDate.Before(today) {
		p.Complete = true
		return p
	}
	var due []dates.Date
	for _, w := range s.Weeks {
		if w.Before(from) || w.After(locked) {
			continue
		}
		if _, ok := s.Charged[w]; !ok && !slices.Contains(due, w) {
			due = append(due, w)
		}
	}
	slices.SortFunc(due, func(a, b dates.Date) int { return a.Compare(b) })
	switch s.Status {
	case StatusActive:
		p.Charge = due
		if !finite {
			next := locked
			if !s.LastWeek.IsZero() && s.LastWeek.AddWeeks(1).After(next) {
				next = s.LastWeek.AddWeeks(1)
			}
			if _, ok := s.Charged[next]; !ok && !next.After(locked) && !slices.Contains(s.Weeks, next) {
				p.Book = next
			}
		}
	case StatusPaused:
		p.Skip = due
		if !finite {
			if _, ok := s.Charged[locked]; !ok && !slices.Contains(due, locked) && !slices.Contains(s.Weeks, locked) {
				p.Skip = append(p.Skip, locked)
			}
		}
	}
	return p
}

// jobLifecycle is the weekly job's name.
const jobLifecycle = "campaigns.lifecycle"

func (s *service) lifecycleJob() jobs.Job {
	return jobs.Job{Name: jobLifecycle, Every: 15 * time.Minute, Run: func(ctx context.Context) error {
		_, err := s.runLifecycle(ctx)
		return err
	}}
}

// LifecycleResult counts what one run of the weekly job did.
type LifecycleResult struct {
	Campaigns int // campaigns looked at
	Charged   int // weeks charged
	Booked    int // ongoing weeks booked
	Skipped   int // weeks of paused campaigns skipped
	Completed int // campaigns completed
	Paused    int // campaigns paused because a week could not be charged (no card on file)
	Failed    int // campaigns whose step failed (retried on the next run)
}

// RunLifecycle runs the weekly job once, now (the CLI, the benchmarks and the tests).
func (s *service) RunLifecycle(ctx context.Context) (LifecycleResult, error) {
	return s.runLifecycle(ctx)
}

// runLifecycle reads every active and paused campaign with three batch queries (campaigns, their
// week spans, the window's weeks and charges), plans each one with planJob, and applies the plans
// that do something, each campaign in its own transaction under its lock (so a pause or a stop
// and the job take turns). A campaign that fails is logged and retried on the next run.
func (s *service) runLifecycle(ctx context.Context) (LifecycleResult, error) {
	var res LifecycleResult
	today := dates.Today(s.deps.Clock)
	locked := lockedWeek(today)
	from := locked.AddWeeks(-catchUpWeeks)
	cs, err := s.store.LiveCampaigns(ctx, []string{StatusActive, StatusPaused})
	if err != nil {
		return res, err
	}
	res.Campaigns = len(cs)
	idsOf := make([]string, len(cs))
	for i := range cs {
		idsOf[i] = cs[i].ID
	}
	spans, err := s.store.WeekSpans(ctx, idsOf)
	if err != nil {
		return res, err
	}
	window, err := s.store.WindowWeeks(ctx, idsOf, from, locked)
	if err != nil {
		return res, err
	}
	charged, err := s.store.ChargedWeeks(ctx, idsOf, from, locked)
	if err != nil {
		return res, err
	}
	plans := make([]planned, 0, len(cs))
	for i := range cs {
		c := &cs[i]
		st := weekState{Status: c.Status, Frequency: c.Frequency, EndDate: c.EndDate, Weeks: window[c.ID],
			Charged: charged[c.ID], LastWeek: spans[c.ID].Last}
		if plan := planJob(st, today); !plan.empty() {
			plans = append(plans, planned{c: c, plan: plan})
		}
	}
	// Each campaign is its own transaction. PostgreSQL takes them from a few workers at once (the
	// round trips dominate); SQLite has one writer, so one worker.
	workers := 1
	if db.Dialect(s.deps.DB) == db.Postgres {
		workers = lifecycleWorkers
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan planned)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				var r LifecycleResult
				err := s.applyPlan(ctx, p.c, p.plan, &r)
				mu.Lock()
				if err != nil {
					res.Failed++
					s.deps.Log.ErrorContext(ctx, "campaigns: lifecycle step failed", "campaign", p.c.ID, "err", err)
				} else {
					res.Charged += r.Charged
					res.Booked += r.Booked
					res.Skipped += r.Skipped
					res.Completed += r.Completed
					res.Paused += r.Paused
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range plans {
		if ctx.Err() != nil {
			break
		}
		next <- p
	}
	close(next)
	wg.Wait()
	return res, ctx.Err()
}

// lifecycleWorkers is how many campaigns the job applies at once on PostgreSQL.
const lifecycleWorkers = 4

// planned is a campaign and the plan made from the batch reads.
type planned struct {
	c    *store.Campaign
	plan jobPlan
}

// applyPlan carries out one campaign's plan in a transaction, under the campaign's lock. When the
// campaign changed since the batch read (its status or updated_at: every action, edit, delivery and
// payment outcome sets it) it plans again from what is recorded, so a pause or stop that came in
// between is honoured. Each step is idempotent on its own (a charged or skipped week has its row), so
// a second run finds nothing left to do.
func (s *service) applyPlan(ctx context.Context, seen *store.Campaign, plan jobPlan, res *LifecycleResult) error {
	var r LifecycleResult
	id := seen.ID
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		r = LifecycleResult{}
		c, err := s.lockCampaign(ctx, "", id)
		if err != nil {
			return err
		}
		today := dates.Today(s.deps.Clock)
		if c.Status != seen.Status || !c.UpdatedAt.Equal(seen.UpdatedAt) || !c.EndDate.Equal(seen.EndDate) {
			locked := lockedWeek(today)
			from := locked.AddWeeks(-catchUpWeeks)
			window, err := s.store.WindowWeeks(ctx, []string{id}, from, locked)
			if err != nil {
				return err
			}
			charged, err := s.store.ChargedWeeks(ctx, []string{id}, from, locked)
			if err != nil {
				return err
			}
			spans, err := s.store.WeekSpans(ctx, []string{id})
			if err != nil {
				return err
			}
			plan = planJob(weekState{Status: c.Status, Frequency: c.Frequency, EndDate: c.EndDate, Weeks: window[id],
				Charged: charged[id], LastWeek: spans[id].Last}, today)
		}
		now := s.deps.Clock.Now()
		if plan.Complete {
			next, changed, _ := transition(c.Status, actionComplete, false)
			if changed {
				if _, err := s.store.SetStatusFrom(ctx, c.ID, []string{c.Status}, map[string]any{"status": next, "updated_at": now}); err != nil {
					return err
				}
				s.publishCompleted(ctx, c)
				r.Completed++
			}
			return nil
		}
		if len(plan.Skip) > 0 {
			n, err := s.skipWeeks(ctx, c, plan.Skip)
			if err != nil {
				return err
			}
			r.Skipped += n
		}
		for _, w := range plan.Charge {
			if _, err := s.scheduleWeekCharge(ctx, c, w); err != nil {
				return asCardMissing(w, err)
			}
			r.Charged++
		}
		if !plan.Book.IsZero() {
			booked, err := s.bookOngoingWeek(ctx, c, plan.Book)
			if err != nil {
				return err
			}
			if booked {
				// A campaign the credit paid so far may have no card (B §5): when the credit runs
				// out, it is paused as for a failed charge.
				if _, err := s.scheduleWeekCharge(ctx, c, plan.Book); err != nil {
					return asCardMissing(plan.Book, err)
				}
				r.Booked++
				r.Charged++
			} else {
				r.Skipped++
			}
		}
		return nil
	})
	var missing *cardMissing
	if errors.As(err, &missing) {
		// Nothing of the week was written (the transaction rolled back): the campaign is paused and
		// the advertiser told, as when a charge fails at the gateway (charges.go).
		return s.pauseForPayment(ctx, id, missing.week, billing.MsgCardRequired, res)
	}
	if err != nil {
		return err
	}
	res.Charged += r.Charged
	res.Booked += r.Booked
	res.Skipped += r.Skipped
	res.Completed += r.Completed
	return nil
}

// cardMissing stops a campaign's step when its week cannot be charged: no card on file.
type cardMissing struct {
	week dates.Date
	err  error
}

// asCardMissing marks a week's charge refused for want of a card, so the job pauses the campaign
// instead of failing; other errors pass through.
func asCardMissing(week dates.Date, err error) error {
	if e := apperr.As(err); e.Message == billing.MsgCardRequired {
		return &cardMissing{week: week, err: err}
	}
	return err
}

func (e *cardMissing) Error() string { return e.err.Error() }
func (e *cardMissing) Unwrap() error { return e.err }

// pauseForPayment pauses an active campaign whose week could not be charged, records the payment
// failure with its message and mails the advertiser, in one transaction.
func (s *service) pauseForPayment(ctx context.Context, id string, week dates.Date, message string, res *LifecycleResult) error {
	paused := false
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		c, err := s.lockCampaign(ctx, "", id)
		if err != nil {
			return err
		}
		next, changed, err := transition(c.Status, actionPause, firstPaid(c))
		if err != nil || !changed || c.Status != StatusActive {
			return nil
		}
		ok, err := s.store.SetStatusFrom(ctx, c.ID, []string{c.Status}, map[string]any{"status": next, "payment_status": ChargeFailed,
			"payment_message": retry.Truncate(message, 255), "updated_at": s.deps.Clock.Now()})
		if err != nil || !ok {
			return err
		}
		paused = true
		s.publishStatus(ctx, c, next)
		s.mailWeekPaymentFailed(ctx, c, week, message)
		return nil
	})
	if paused {
		res.Paused++
	}
	return err
}

// withLockedCampaign runs fn in one transaction with the principal's campaign locked
// (lockCampaign).
func (s *service) withLockedCampaign(ctx context.Context, p *auth.Principal, id string, fn func(ctx context.Context, c *store.Campaign) error) error {
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		c, err := s.lockCampaign(ctx, scope(p), id)
		if err != nil {
			return err
		}
		return fn(ctx, c)
	})
}

// lockCampaign takes the campaign's transaction lock and reads it (of the company unless
// companyID is empty). ENOTFOUND for another company's, a deleted one or a draft.
func (s *service) lockCampaign(ctx context.Context, companyID, id string) (*store.Campaign, error) {
	if err := db.LockForTx(ctx, s.deps.DB, "campaign:"+id); err != nil {
		return nil, apperr.Internal(err)
	}
	c, err := s.store.FindCampaign(ctx, companyID, id)
	if err != nil {
		return nil, db.Translate(err, MsgCampaignNotFound, "")
	}
	return c, nil
}

// lockWeek finds a week of a campaign the principal may reach and locks its campaign, inside the
// caller's transaction. Another company's week answers ENOTFOUND (MsgWeekNotFound).
func (s *service) lockWeek(ctx context.Context, p *auth.Principal, weekID string) (*store.Week, *store.Campaign, error) {
	w, err := s.store.FindWeek(ctx, weekID)
	if err != nil {
		return nil, nil, db.Translate(err, MsgWeekNotFound, "")
	}
	c, err := s.lockCampaign(ctx, scope(p), w.CampaignID)
	if apperr.CodeOf(err) == apperr.ENOTFOUND {
		return nil, nil, apperr.NotFound(MsgWeekNotFound)
	}
	return w, c, err
}

// skipWeeks frees the spots of these weeks of the campaign, deletes their week rows and records
// them as skipped, so they are never charged. It answers how many weeks it skipped.
func (s *service) skipWeeks(ctx context.Context, c *store.Campaign, weeks []dates.Date) (int, error) {
	if len(weeks) == 0 {
		return 0, nil
	}
	rows, err := s.store.WeeksOn(ctx, c.ID, weeks)
	if err != nil {
		return 0, err
	}
	if err := s.releaseWeekRows(ctx, c, rows); err != nil {
		return 0, err
	}
	return len(weeks), s.recordSkipped(ctx, c, weeks)
}

// recordSkipped records weeks as skipped unless they already have a charge row.
func (s *service) recordSkipped(ctx context.Context, c *store.Campaign, weeks []dates.Date) error {
	now := s.deps.Clock.Now()
	rows := make([]store.Charge, 0, len(weeks))
	for _, w := range weeks {
		rows = append(rows, store.Charge{ID: ids.New(), CampaignID: c.ID, CompanyID: c.CompanyID, Week: w, Status: store.ChargeSkipped, CreatedAt: now, UpdatedAt: now})
	}
	return s.store.InsertSkipped(ctx, rows)
}

// releaseWeekRows frees the spots of these week rows and deletes the rows. The spots are found by
// the campaign's reference (face and week), so rows made before SpotID was kept are freed too.
func (s *service) releaseWeekRows(ctx context.Context, c *store.Campaign, rows []store.Week) error {
	if len(rows) == 0 {
		return nil
	}
	spots, err := s.deps.Locations.SpotsByRefs(ctx, c.CompanyID, []string{c.ID})
	if err != nil {
		return err
	}
	type fw struct {
		face string
		week dates.Date
	}
	byFaceWeek := map[fw][]string{}
	for _, sp := range spots {
		k := fw{sp.FaceID, sp.Week}
		byFaceWeek[k] = append(byFaceWeek[k], sp.ID)
	}
	var spotIDs, weekIDs []string
	for _, w := range rows {
		weekIDs = append(weekIDs, w.ID)
		k := fw{w.FaceID, w.StartAt}
		if w.SpotID != "" && slices.Contains(byFaceWeek[k], w.SpotID) {
			spotIDs = append(spotIDs, w.SpotID)
			byFaceWeek[k] = slices.DeleteFunc(byFaceWeek[k], func(spot string) bool { return spot == w.SpotID })
		} else if len(byFaceWeek[k]) > 0 {
			spotIDs = append(spotIDs, byFaceWeek[k][0])
			byFaceWeek[k] = byFaceWeek[k][1:]
		}
	}
	if _, err := s.deps.Locations.ReleaseSpots(ctx, c.CompanyID, spotIDs); err != nil {
		return err
	}
	return s.store.DeleteWeeks(ctx, weekIDs)
}

// bookOngoingWeek books the next week of an ongoing campaign on the faces of its last week, under
// the key campaign:<id>:week:<monday>, copies their rows with the week's prices and extends the end
// date. Faces whose week is full are left out; when none is free the week is recorded as skipped
// and it answers false.
func (s *service) bookOngoingWeek(ctx context.Context, c *store.Campaign, week dates.Date) (bool, error) {
	spans, err := s.store.WeekSpans(ctx, []string{c.ID})
	if err != nil {
		return false, err
	}
	last, ok := spans[c.ID]
	if !ok {
		return false, s.recordSkipped(ctx, c, []dates.Date{week})
	}
	prev, err := s.store.WeeksOn(ctx, c.ID, []dates.Date{last.Last})
	if err != nil {
		return false, err
	}
	faceIDs := make([]string, 0, len(prev))
	for _, w := range prev {
		if !slices.Contains(faceIDs, w.FaceID) {
			faceIDs = append(faceIDs, w.FaceID)
		}
	}
	key := fmt.Sprintf("campaign:%s:week:%s", c.ID, week)
	for len(faceIDs) > 0 {
		items := make([]locations.FaceWeek, len(faceIDs))
		for i, f := range faceIDs {
			items[i] = locations.FaceWeek{FaceID: f, Week: week}
		}
		rr, err := s.deps.Locations.Book(ctx, locations.ReserveRequest{Key: key, CompanyID: c.CompanyID, Ref: c.ID, Items: items})
		if apperr.CodeOf(err) == apperr.ECONFLICT && len(rr.Conflicts) > 0 {
			taken := map[string]bool{}
			for _, cf := range rr.Conflicts {
				taken[cf.FaceID] = true
			}
			faceIDs = slices.DeleteFunc(faceIDs, func(f string) bool { return taken[f] })
			key = fmt.Sprintf("campaign:%s:week:%s:%d", c.ID, week, len(faceIDs))
			continue
		}
		if err != nil {
			return false, err
		}
		return true, s.insertBookedWeeks(ctx, c, prev, week, rr.Spots)
	}
	return false, s.recordSkipped(ctx, c, []dates.Date{week})
}

// insertBookedWeeks makes the week rows of booked spots from the campaign's rows of the same faces.
func (s *service) insertBookedWeeks(ctx context.Context, c *store.Campaign, like []store.Week, week dates.Date, spots []locations.Spot) error {
	byFace := map[string]store.Week{}
	for _, w := range like {
		byFace[w.FaceID] = w
	}
	now := s.deps.Clock.Now()
	rows := make([]store.Week, 0, len(spots))
	for _, sp := range spots {
		w := byFace[sp.FaceID]
		w.ID, w.StartAt, w.EndAt, w.Status = ids.New(), week, week.AddDays(6), WeekActive
		w.OfferPrice, w.AskingPrice, w.Ooh, w.ActImp = int64(sp.Price), int64(sp.Price), sp.Ooh, nil
		w.SpotID, w.SpotKey, w.CreatedAt, w.UpdatedAt = sp.ID, sp.Key, now, now
		if sp.Ooh == 0 {
			w.Ooh = byFace[sp.FaceID].Ooh
		}
		rows = append(rows, w)
	}
	if err := s.store.InsertWeeks(ctx, rows); err != nil {
		return err
	}
	end := week.AddDays(6)
	if end.After(c.EndDate) {
		c.EndDate = end
		return s.store.SetCampaign(ctx, c.ID, map[string]any{"end_date": end, "updated_at": now})
	}
	return nil
}

// errNothingToDo marks a transition that changes nothing (a stop sent twice).
var errNothingToDo = errors.New("nothing to do")
