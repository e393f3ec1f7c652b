package campaigns

import (
	"context"
	"fmt"
	"strings"
	"time"

	"marquee/modules/billing"
	"marquee/modules/campaigns/internal/makegood"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/jobs"
	"marquee/platform/mail"
	"marquee/platform/money"
	"marquee/platform/pagination"
	"marquee/platform/retry"
)

// Make-goods ("Plan against delivered, with make-goods"; docs/delivery-assurance.md): a
// finished, paid campaign week (one face in one week) that delivered less than the threshold of
// its contracted impressions earns account credit in proportion to its shortfall. The contracted
// impressions are the week's ooh: the face's estimate copied when the week was booked, never
// written again. The credit goes through billing's ledger, in the transaction that records the
// make-good, with its event and its email.

// DefaultMakeGoodThreshold is the threshold when none is configured (MAKEGOOD_THRESHOLD_PERCENT).
const DefaultMakeGoodThreshold = 90

// Make-good statuses and move kinds.
const (
	MakeGoodGranted = "granted"
	MakeGoodWaived  = "waived"

	moveGrant      = "grant"
	moveCorrection = "correction"
	moveWaiver     = "waiver"
)

// jobMakeGoods is the periodic job that grants the make-goods of weeks that finished after their
// delivery was recorded.
const jobMakeGoods = "campaigns.make-goods"

// MsgActImpAboveLimit names the limit a recorded delivery passed.
func MsgActImpAboveLimit(limit int64) string {
	return fmt.Sprintf("Actual impressions can be at most %s for this week: 10 times its %s contracted impressions.",
		makegood.GroupDigits(limit), makegood.GroupDigits(limit/makegood.LimitFactor))
}

// threshold is the configured make-good threshold, in percent.
func (a *assurance) threshold() int {
	if a.deps.MakeGoodThreshold < 1 || a.deps.MakeGoodThreshold > 100 {
		return DefaultMakeGoodThreshold
	}
	return a.deps.MakeGoodThreshold
}

// weekFinished reports whether the week's Sunday is over in the business time zone.
func (a *assurance) weekFinished(w *store.Week) bool {
	return w.EndAt.Before(dates.Today(a.deps.Clock))
}

// settleMakeGood brings a week's make-good in line with its recorded delivery, in the caller's
// transaction, which holds the campaign's lock. A finished, paid week under the threshold without
// a make-good gets one (credit, event, email); a week that has one has its credit moved by the
// difference between what the policy now gives and what it has given, up or down (a take-back is
// clamped to the company's credit, and the clamp recorded); a waived make-good stays as it is.
// It answers whether a make-good was granted.
func (a *assurance) settleMakeGood(ctx context.Context, c *store.Campaign, w *store.Week, batch *settleBatch) (bool, error) {
	if w.ActImp == nil || w.Ooh <= 0 || !a.weekFinished(w) {
		return false, nil
	}
	th := a.threshold()
	var mg *store.MakeGood
	if batch != nil && batch.known != nil {
		if row, ok := batch.known[w.ID]; ok {
			mg = &row
		}
	} else {
		var err error
		if mg, err = a.store.MakeGoodOfWeek(ctx, w.ID); err != nil {
			return false, err
		}
	}
	now := a.deps.Clock.Now()
	if mg == nil {
		target := makegood.Credit(money.Cents(w.OfferPrice), w.Ooh, *w.ActImp, th)
		if target == 0 {
			return false, nil
		}
		// The job's query already joined the week's succeeded charge (a finished week's charge
		// does not change: refunds are for weeks not started).
		if batch == nil || !batch.paid {
			paid, err := a.store.WeekPaid(ctx, c.ID, w.StartAt)
			if err != nil || !paid {
				return false, err
			}
		}
		mg = &store.MakeGood{ID: ids.New(), CampaignID: c.ID, CompanyID: c.CompanyID, WeekID: w.ID, FaceID: w.FaceID,
			WeekStart: w.StartAt, LocationName: w.LocationName, Face: w.Face, Planned: w.Ooh, Delivered: *w.ActImp,
			PriceCents: w.OfferPrice, ThresholdPercent: th, TargetCents: int64(target), Status: MakeGoodGranted,
			CreatedAt: now, UpdatedAt: now}
		// The move first, then the row with the credit it gave: one insert, no update. The
		// unique week index still refuses a second make-good at the insert.
		if err := a.moveMakeGoodCredit(ctx, c, mg, w.StartAt, moveGrant, int64(target)); err != nil {
			return false, err
		}
		if err := a.store.Create(ctx, mg); err != nil {
			return false, err
		}
		a.notify(ctx, EventMakeGoodGranted, func(ctx context.Context) error {
			return a.deps.Events.Publish(ctx, EventMakeGoodGranted, MakeGoodGrantedEvent{CampaignID: c.ID, CompanyID: c.CompanyID,
				WeekID: w.ID, CreditCents: int64(target), MakeGoodID: mg.ID})
		})
		a.notify(ctx, "mail: make-good", func(ctx context.Context) error { return a.mailMakeGood(ctx, c, mg, batch) })
		return true, nil
	}
	if mg.Status == MakeGoodWaived || (mg.Delivered == *w.ActImp && mg.ThresholdPercent == th) {
		return false, nil
	}
	// A correction: the policy applied to the new delivery (the threshold as it is now), and the
	// credit moved by the difference from what the make-good has given.
	mg.Delivered, mg.ThresholdPercent, mg.UpdatedAt = *w.ActImp, th, now
	mg.TargetCents = int64(makegood.Credit(money.Cents(mg.PriceCents), mg.Planned, mg.Delivered, th))
	was := mg.CreditCents
	if diff := mg.TargetCents - mg.CreditCents; diff != 0 {
		if err := a.moveMakeGoodCredit(ctx, c, mg, w.StartAt, moveCorrection, diff); err != nil {
			return false, err
		}
	}
	if err := a.store.SaveMakeGood(ctx, mg); err != nil {
		return false, err
	}
	if mg.CreditCents == was {
		return false, nil // the credit stands (or a take-back found no credit to take): nothing to correct
	}
	// The advertiser was emailed the credit at the grant: tell them it changed. A
	// notification: an email that cannot be queued never undoes the correction (DESIGN §1.14).
	a.notify(ctx, "mail: make-good correction", func(ctx context.Context) error {
		return a.mailMakeGoodWith(ctx, c, batch, func(to, name string) mail.Message {
			return makeGoodCorrectionMail(to, name, c, mg, was, a.campaignLink(c.ID))
		})
	})
	return false, nil
}

// moveMakeGoodCredit moves a make-good's credit by delta cents through billing's ledger (key
// makegood:<week>:<n>, one per move, so a retried move is made once; the week is the ledger row's
// reason) and records the move. A take-back is clamped to the company's credit: what could not be
// taken is added to ClampedCents.
func (a *assurance) moveMakeGoodCredit(ctx context.Context, c *store.Campaign, mg *store.MakeGood, week dates.Date, kind string, delta int64) error {
	seq := mg.Moves
	mv := store.MakeGoodMove{ID: ids.New(), MakeGoodID: mg.ID, Seq: seq, Kind: kind, Delivered: mg.Delivered, Requested: delta,
		CreatedAt: a.deps.Clock.Now()}
	wk := week
	req := billing.CreditRequest{Key: fmt.Sprintf("makegood:%s:%d", mg.WeekID, seq), CompanyID: c.CompanyID,
		Description: retry.Truncate(fmt.Sprintf("Make-good (%s): %s, %s %s, week of %s", kind, c.Name, mg.LocationName, mg.Face,
			week.Format("Jan 02, 2006")), 200), CampaignRef: c.ID, Week: &wk}
	if delta > 0 {
		req.Amount = money.Cents(delta)
		tx, err := a.deps.Billing.ApplyCredit(ctx, req)
		if err != nil {
			return err
		}
		mv.Applied, mv.TransactionID = int64(tx.Amount), tx.ID
	} else if delta < 0 {
		req.Amount = money.Cents(-delta)
		tx, err := a.deps.Billing.ReclaimCredit(ctx, req)
		if err != nil {
			return err
		}
		mv.Applied, mv.TransactionID = int64(tx.Amount), tx.ID
		mv.Clamped = mv.Applied != delta
		mg.ClampedCents += mv.Applied - delta
	}
	mg.CreditCents += mv.Applied
	mg.Moves++
	return a.store.Create(ctx, &mv)
}

// settleBatch is what one transaction of the make-good job already knows: the advertisers found
// so far (each looked up once), the make-goods of the weeks it settles, and that those weeks were
// paid (its query joined their succeeded charges).
type settleBatch struct {
	byUser map[string][2]string
	known  map[string]store.MakeGood
	paid   bool
}

// makeGoodMail tells the advertiser about a make-good.
func makeGoodMail(to, firstName string, c *store.Campaign, mg *store.MakeGood, link string) mail.Message {
	pct := "0.0"
	if _, p := makegood.DeliveryFigures(mg.Planned, &mg.Delivered); p != nil {
		pct = fmt.Sprintf("%.1f", *p)
	}
	html := mail.Letter{Title: "A make-good credit for your campaign", Greeting: "Hello " + firstName + ",",
		Intro: []string{fmt.Sprintf("Your campaign \u201c%s\u201d delivered fewer impressions than contracted at %s (%s) in the week of %s, below our %d%% guarantee.",
			c.Name, mg.LocationName, mg.Face, mg.WeekStart.Format("Jan 02, 2006"), mg.ThresholdPercent)},
		Facts:  append(makeGoodFacts(c, mg, pct), mail.Fact{Label: "Credit added", Value: makegood.CreditString(mg.CreditCents)}),
		Outro:  []string{"We have added " + makegood.CreditString(mg.CreditCents) + " to your account credit as a make-good. It is used on your next campaign weeks; you can see it on the campaign's page and in your settings."},
		Button: &mail.Link{Label: "View the campaign", URL: link},
	}.HTML()
	return mail.Message{
		HTML:    html,
		To:      []string{to},
		Subject: "A make-good credit for your campaign " + c.Name,
		Text: fmt.Sprintf(`Hello %s,

Your campaign "%s" delivered fewer impressions than contracted at %s (%s) in the week of %s:
%s of %s impressions (%s%%), below our %d%% guarantee.

We have added %s to your account credit as a make-good. It is used on your next campaign weeks;
you can see it on the campaign's page and in your settings.

The campaign: %s

The Marquee team
`, firstName, c.Name, mg.LocationName, mg.Face, mg.WeekStart.Format("Jan 02, 2006"), makegood.GroupDigits(mg.Delivered),
			makegood.GroupDigits(mg.Planned), pct, mg.ThresholdPercent, makegood.CreditString(mg.CreditCents), link),
	}
}

// makeGoodCorrectionMail tells the advertiser that a make-good they were emailed about changed:
// the week's delivery was corrected after the make-good email went out (else the email would go on
// promising a credit the page no longer shows).
func makeGoodCorrectionMail(to, firstName string, c *store.Campaign, mg *store.MakeGood, was int64, link string) mail.Message {
	pct := "0.0"
	if _, p := makegood.DeliveryFigures(mg.Planned, &mg.Delivered); p != nil {
		pct = fmt.Sprintf("%.1f", *p)
	}
	week := mg.WeekStart.Format("Jan 02, 2006")
	html := mail.Letter{Title: "A correction to your make-good credit", Greeting: "Hello " + firstName + ",",
		Intro: []string{fmt.Sprintf("The delivery of your campaign \u201c%s\u201d at %s (%s) in the week of %s was corrected, so its make-good credit changed from %s to %s.",
			c.Name, mg.LocationName, mg.Face, week, makegood.CreditString(was), makegood.CreditString(mg.CreditCents))},
		Facts: append(makeGoodFacts(c, mg, pct), mail.Fact{Label: "Credit before", Value: makegood.CreditString(was)},
			mail.Fact{Label: "Credit now", Value: makegood.CreditString(mg.CreditCents)}),
		Outro:  []string{"Your account credit is adjusted by the difference. This replaces the figures of our earlier email; the campaign's page shows the make-good as it is now."},
		Button: &mail.Link{Label: "View the campaign", URL: link},
	}.HTML()
	return mail.Message{
		HTML:    html,
		To:      []string{to},
		Subject: "Correction: your make-good credit for " + c.Name,
		Text: fmt.Sprintf(`Hello %s,

The delivery of your campaign "%s" at %s (%s) in the week of %s was corrected:
%s of %s impressions (%s%%), against our %d%% guarantee.

Its make-good credit changed from %s to %s, and your account credit is adjusted by the
difference. This replaces the figures of our earlier email; the campaign's page shows the
make-good as it is now: %s

The Marquee team
`, firstName, c.Name, mg.LocationName, mg.Face, week, makegood.GroupDigits(mg.Delivered), makegood.GroupDigits(mg.Planned), pct,
			mg.ThresholdPercent, makegood.CreditString(was), makegood.CreditString(mg.CreditCents), link),
	}
}

// campaignLink is the campaign's page in the web app.
func (a *assurance) campaignLink(id string) string {
	return strings.TrimRight(a.deps.BaseURL, "/") + "/campaigns/" + id
}

// mailMakeGood queues the make-good email in the caller's transaction.
func (a *assurance) mailMakeGood(ctx context.Context, c *store.Campaign, mg *store.MakeGood, adv *settleBatch) error {
	return a.mailMakeGoodWith(ctx, c, adv, func(to, name string) mail.Message {
		return makeGoodMail(to, name, c, mg, a.campaignLink(c.ID))
	})
}

// mailMakeGoodWith finds the campaign's advertiser (through the batch's cache when there is one)
// and queues the email build makes, in the caller's transaction.
func (a *assurance) mailMakeGoodWith(ctx context.Context, c *store.Campaign, adv *settleBatch, build func(to, name string) mail.Message) error {
	var to, name string
	if adv != nil {
		if v, ok := adv.byUser[c.UserID]; ok {
			to, name = v[0], v[1]
		}
	}
	if to == "" {
		var err error
		to, name, err = a.advertiser(ctx, c)
		if apperr.CodeOf(err) == apperr.ENOTFOUND {
			return nil // the advertiser left: the credit stands, nobody to tell
		}
		if err != nil {
			return err
		}
		if adv != nil && adv.byUser != nil {
			adv.byUser[c.UserID] = [2]string{to, name}
		}
	}
	return a.deps.Outbox.Enqueue(ctx, build(to, name))
}

// makeGoodsJob grants the make-goods of weeks that finished after their delivery was recorded.
func (a *assurance) makeGoodsJob() jobs.Job {
	return jobs.Job{Name: jobMakeGoods, Every: 10 * time.Minute, Run: func(ctx context.Context) error {
		_, err := a.RunMakeGoods(ctx)
		return err
	}}
}

// MakeGoodsResult counts what one run of the make-good job did.
type MakeGoodsResult struct {
	Candidates int // weeks found under the threshold without a make-good
	Granted    int // make-goods granted
	Failed     int // campaigns whose step failed (retried on the next run)
}

// makeGoodChunk is how many campaigns one transaction of the job settles: fewer commits, while a
// failing campaign only holds back its chunk, which is then settled one campaign at a time.
const makeGoodChunk = 100

// campaignCandidates are one campaign's candidate weeks.
type campaignCandidates struct {
	campaignID string
	weekIDs    []string
}

// RunMakeGoods runs the make-good job once: one query finds the finished, paid weeks under the
// threshold without a make-good; they are granted by chunks of campaigns, one transaction each,
// under every campaign's lock, reading the weeks and their make-goods again, so a run racing a
// delivery correction, or a second run, grants nothing twice (the make-good is unique on its week).
func (a *assurance) RunMakeGoods(ctx context.Context) (MakeGoodsResult, error) {
	var res MakeGoodsResult
	cands, err := a.store.MakeGoodCandidates(ctx, dates.Today(a.deps.Clock), a.threshold())
	if err != nil {
		return res, err
	}
	res.Candidates = len(cands)
	var groups []campaignCandidates
	for _, c := range cands {
		if n := len(groups); n == 0 || groups[n-1].campaignID != c.CampaignID {
			groups = append(groups, campaignCandidates{campaignID: c.CampaignID})
		}
		g := &groups[len(groups)-1]
		g.weekIDs = append(g.weekIDs, c.ID)
	}
	users := map[string][2]string{}
	for i := 0; i < len(groups); i += makeGoodChunk {
		chunk := groups[i:min(i+makeGoodChunk, len(groups))]
		n, err := a.grantChunk(ctx, chunk, users)
		if err == nil {
			res.Granted += n
			continue
		}
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		for _, g := range chunk { // one campaign at a time: only the failing one is held back
			n, err := a.grantChunk(ctx, []campaignCandidates{g}, users)
			if err != nil {
				if ctx.Err() != nil {
					return res, ctx.Err()
				}
				res.Failed++
				a.deps.Log.ErrorContext(ctx, "make-goods: campaign failed", "campaign", g.campaignID, "err", err)
				continue
			}
			res.Granted += n
		}
	}
	return res, nil
}

// grantChunk settles the candidate weeks of these campaigns in one transaction.
func (a *assurance) grantChunk(ctx context.Context, chunk []campaignCandidates, users map[string][2]string) (int, error) {
	granted := 0
	err := db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		granted = 0
		camps := make(map[string]*store.Campaign, len(chunk))
		var weekIDs []string
		for _, g := range chunk {
			c, err := a.lockCampaign(ctx, "", g.campaignID)
			if err != nil {
				return err
			}
			camps[c.ID] = c
			weekIDs = append(weekIDs, g.weekIDs...)
		}
		weeks, err := a.store.WeeksOfIDs(ctx, weekIDs)
		if err != nil {
			return err
		}
		known, err := a.store.MakeGoodsOfWeeks(ctx, weekIDs)
		if err != nil {
			return err
		}
		batch := &settleBatch{byUser: users, known: known, paid: true}
		for k := range weeks {
			c := camps[weeks[k].CampaignID]
			if c == nil {
				continue
			}
			ok, err := a.settleMakeGood(ctx, c, &weeks[k], batch)
			if err != nil {
				return err
			}
			if ok {
				granted++
			}
		}
		return nil
	})
	return granted, err
}

// makeGoodDTO is a make-good as the API shows it.
func makeGoodDTO(mg *store.MakeGood, campaignName, companyName string) MakeGood {
	_, pct := makegood.DeliveryFigures(mg.Planned, &mg.Delivered)
	out := MakeGood{ID: mg.ID, CampaignID: mg.CampaignID, CampaignName: campaignName, CompanyID: mg.CompanyID,
		CompanyName: companyName, WeekID: mg.WeekID, WeekStart: mg.WeekStart, WeekEnd: mg.WeekStart.AddDays(6),
		LocationName: mg.LocationName, Face: mg.Face, Planned: mg.Planned, Delivered: mg.Delivered,
		Difference: mg.Delivered - mg.Planned, Price: money.Cents(mg.PriceCents), ThresholdPercent: mg.ThresholdPercent,
		Credit: money.Cents(mg.CreditCents), Target: money.Cents(mg.TargetCents), Clamped: money.Cents(mg.ClampedCents),
		Status: mg.Status, WaiveReason: mg.WaiveReason, WaivedAt: mg.WaivedAt, CreatedAt: mg.CreatedAt}
	if pct != nil {
		out.DeliveryPct = *pct
	}
	return out
}

// campaignMakeGoods are a campaign's make-goods for its detail page.
func (a *assurance) campaignMakeGoods(ctx context.Context, c *store.Campaign) ([]MakeGood, error) {
	rows, err := a.store.MakeGoodsOfCampaign(ctx, c.ID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]MakeGood, len(rows))
	for i := range rows {
		out[i] = makeGoodDTO(&rows[i], c.Name, "")
	}
	return out, nil
}

// listMakeGoods is GET /api/admin/make-goods: every company's make-goods, newest first, with
// their campaigns' and companies' names (read in batches).
func (a *assurance) listMakeGoods(ctx context.Context, status, companyID string, pp pagination.Params) (*MakeGoodList, error) {
	status = strings.ToLower(strings.TrimSpace(status))
	if status != "" && status != "all" && status != MakeGoodGranted && status != MakeGoodWaived {
		return nil, apperr.Field("status", MsgMakeGoodStatus)
	}
	if status == "all" {
		status = ""
	}
	rows, total, err := a.store.ListMakeGoods(ctx, status, strings.TrimSpace(companyID), pp)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	campIDs, compIDs := []string{}, []string{}
	for _, r := range rows {
		campIDs, compIDs = append(campIDs, r.CampaignID), append(compIDs, r.CompanyID)
	}
	camps, err := a.store.CampaignsByIDs(ctx, campIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	campName := map[string]string{}
	for _, c := range camps {
		campName[c.ID] = c.Name
	}
	compName := map[string]string{}
	if len(compIDs) > 0 {
		cs, err := a.deps.Identity.FindCompaniesByIDs(ctx, compIDs)
		if err != nil {
			return nil, apperr.Internal(err)
		}
		for _, c := range cs {
			compName[c.ID] = c.Name
		}
	}
	out := &MakeGoodList{Items: make([]MakeGood, len(rows)), Total: total, Page: pp.Page, PageSize: pp.PageSize}
	for i := range rows {
		out.Items[i] = makeGoodDTO(&rows[i], campName[rows[i].CampaignID], compName[rows[i].CompanyID])
	}
	return out, nil
}

// waiveMakeGood is PUT /api/admin/make-goods/{id}/waive: the make-good's credit is taken back
// (clamped to the company's credit, as a correction is), it turns waived with the reason, and the
// change is audited, all in one transaction under the campaign's lock. Later corrections of the
// week's delivery move no credit.
func (a *assurance) waiveMakeGood(ctx context.Context, p *auth.Principal, id string, req WaiveRequest) (*MakeGood, error) {
	reason := strings.TrimSpace(req.Reason)
	if reason == "" {
		return nil, apperr.Field("reason", MsgWaiveReasonRequired)
	}
	if len([]rune(reason)) > 500 {
		return nil, apperr.Field("reason", MsgReasonTooLong)
	}
	first, err := a.store.FindMakeGood(ctx, id)
	if err != nil {
		return nil, db.Translate(err, MsgMakeGoodNotFound, "")
	}
	var out MakeGood
	err = db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		c, err := a.lockCampaign(ctx, scope(p), first.CampaignID)
		if err != nil {
			return apperr.NotFound(MsgMakeGoodNotFound)
		}
		mg, err := a.store.FindMakeGood(ctx, id)
		if err != nil {
			return db.Translate(err, MsgMakeGoodNotFound, "")
		}
		if mg.Status == MakeGoodWaived {
			return apperr.New(apperr.ECONFLICT, MsgMakeGoodWaivedAlready)
		}
		before := makeGoodDTO(mg, c.Name, "")
		now := a.deps.Clock.Now()
		if mg.CreditCents > 0 {
			if err := a.moveMakeGoodCredit(ctx, c, mg, mg.WeekStart, moveWaiver, -mg.CreditCents); err != nil {
				return err
			}
		}
		mg.Status, mg.WaiveReason, mg.WaivedBy, mg.WaivedAt, mg.TargetCents, mg.UpdatedAt = MakeGoodWaived, reason, p.UserID, &now, 0, now
		if err := a.store.SaveMakeGood(ctx, mg); err != nil {
			return err
		}
		out = makeGoodDTO(mg, c.Name, "")
		return a.auditAdmin(ctx, p, AuditMakeGoodWaive, "campaign_make_good", mg.ID,
			map[string]any{"status": before.Status, "credit": before.Credit},
			map[string]any{"status": out.Status, "credit": out.Credit, "clamped": out.Clamped, "reason": reason})
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
