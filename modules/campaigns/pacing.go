package campaigns

import (
	"context"
	"math"
	"slices"

	"marquee/modules/campaigns/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/money"
)

// Pacing and forecast (issue 17, docs/delivery-assurance.md "Pacing, forecast and renewal"): what
// a campaign has spent, what it has committed, when it will finish, and how its delivery keeps
// pace with its plan. computePacing is pure (table tested); the calls read everything in batch
// queries (the dashboard's list: four queries whatever the number of campaigns).

// plannedImpressions is a week row's plan: the estimate stored when the week was booked. It is the
// one place the pacing reads the plan, so a frozen "contracted" figure can replace it.
func plannedImpressions(w *store.Week) int64 { return w.Ooh }

// pacingInput is what computePacing needs of one campaign.
type pacingInput struct {
	Campaign *store.Campaign
	Weeks    []store.Week   // its active week rows
	Charges  []store.Charge // its charge rows
	HasCard  bool           // the company has a card on file
	Credit   money.Cents    // the company's account credit
}

// weekGross is what one week of the campaign costs: the sum of its faces' offer prices, or the
// daily budget × 7 of a maximum-budget campaign (B §9), as chargeWeek charges it.
func weekGross(c *store.Campaign, rows []store.Week) money.Cents {
	if c.MbCampaign && c.MaxBudget > 0 {
		return weeklyOfDaily(money.Cents(c.MaxBudget))
	}
	var sum money.Cents
	for i := range rows {
		sum += money.Cents(rows[i].OfferPrice)
	}
	return sum
}

// computePacing works out a campaign's pacing on today (pure):
//   - spent = the price (card + credit) of every week with a succeeded or pending charge row;
//   - committed = spent + the gross of each booked week without a charge row or with a failed one;
//   - finish: a finite campaign's end date; an ongoing one is open when the company has a card on
//     file (the weekly job books and charges each week until it is stopped); without a card the
//     job pauses it at the first week whose price the account credit cannot pay in full (a week of
//     an ongoing campaign takes min(credit, price), and a net above 0 needs a card: B §5), so it
//     finishes on the Sunday before that week; paused, it books nothing;
//   - pace = delivered / planned over the faces of finished weeks (ended before today) whose
//     delivery was recorded.
func computePacing(in pacingInput, today dates.Date) Pacing {
	c := in.Campaign
	p := Pacing{CampaignID: c.ID, Name: c.Name, Status: DisplayStatus(c.Status), Frequency: c.Frequency}
	byWeek := map[dates.Date][]store.Week{}
	var weeks []dates.Date
	for _, w := range in.Weeks {
		if _, ok := byWeek[w.StartAt]; !ok {
			weeks = append(weeks, w.StartAt)
		}
		byWeek[w.StartAt] = append(byWeek[w.StartAt], w)
	}
	slices.SortFunc(weeks, func(a, b dates.Date) int { return a.Compare(b) })
	charged := map[dates.Date]store.Charge{}
	for _, ch := range in.Charges {
		charged[ch.Week] = ch
		if ch.Status == ChargeSucceeded || ch.Status == ChargePending {
			p.Spent += money.Cents(ch.Amount + ch.Credit)
		}
	}
	p.Committed = p.Spent
	var unpaid []dates.Date // booked weeks still to pay, oldest first
	for _, wk := range weeks {
		ch, ok := charged[wk]
		if !ok || ch.Status == ChargeFailed {
			p.Committed += weekGross(c, byWeek[wk])
			unpaid = append(unpaid, wk)
		}
		// Delivery: the faces of a finished week whose delivery was recorded.
		if byWeek[wk][0].EndAt.Before(today) {
			p.WeeksFinished++
			reported := false
			for i := range byWeek[wk] {
				w := &byWeek[wk][i]
				if w.ActImp == nil {
					continue
				}
				reported = true
				p.PlannedToDate += plannedImpressions(w)
				p.DeliveredToDate += *w.ActImp
			}
			if reported {
				p.WeeksReported++
			}
		}
	}
	p.Remaining = p.Committed - p.Spent
	if p.PlannedToDate > 0 {
		pct := int(math.Round(float64(p.DeliveredToDate) * 100 / float64(p.PlannedToDate)))
		p.PacePercent = &pct
	}
	if len(weeks) > 0 {
		p.WeeklyCost = weekGross(c, byWeek[weeks[len(weeks)-1]])
	}
	finite := isFinite(c.Frequency)
	p.Renewable = finite && (c.Status == StatusActive || c.Status == StatusPaused || c.Status == StatusCompleted)
	switch {
	case finite || c.Status == StatusCompleted || c.Status == StatusCanceled:
		end := c.EndDate
		p.FinishDate, p.FinishBasis = &end, FinishEndDate
	case c.Status == StatusPaused:
		p.FinishBasis = FinishPaused
	case in.HasCard || p.WeeklyCost <= 0:
		p.FinishBasis = FinishOpen
	default:
		// The booked weeks still to pay first, at their own price; then each next week at the
		// latest week's price, while the credit pays it in full.
		credit := in.Credit
		next := today.WeekStart()
		if len(weeks) > 0 {
			next = weeks[len(weeks)-1].AddWeeks(1)
		}
		stop := dates.Date{}
		for _, wk := range unpaid {
			g := weekGross(c, byWeek[wk])
			if credit < g {
				stop = wk
				break
			}
			credit -= g
			p.CreditWeeks++
		}
		if stop.IsZero() {
			n := int(credit / p.WeeklyCost)
			p.CreditWeeks += n
			stop = next.AddWeeks(n)
		}
		// A week stopped before it is charged never runs: the campaign finishes the Sunday before.
		end := stop.AddDays(-1)
		if end.Before(c.StartDate) {
			end = c.StartDate.AddDays(-1)
		}
		p.FinishDate, p.FinishBasis = &end, FinishCredit
	}
	return p
}

// pacingOf reads what computePacing needs for these campaigns of one company (three queries and
// the company's card and credit when an ongoing campaign needs them) and computes each.
func (a *assurance) pacingOf(ctx context.Context, companyID string, cs []store.Campaign) ([]Pacing, error) {
	out := make([]Pacing, 0, len(cs))
	if len(cs) == 0 {
		return out, nil
	}
	ids := make([]string, len(cs))
	ongoing := false
	for i := range cs {
		ids[i] = cs[i].ID
		ongoing = ongoing || !isFinite(cs[i].Frequency)
	}
	weeks, err := a.store.PacingWeeks(ctx, ids)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	charges, err := a.store.ChargesOfCampaigns(ctx, ids)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	weeksOf := map[string][]store.Week{}
	for _, w := range weeks {
		weeksOf[w.CampaignID] = append(weeksOf[w.CampaignID], w)
	}
	chargesOf := map[string][]store.Charge{}
	for _, ch := range charges {
		chargesOf[ch.CampaignID] = append(chargesOf[ch.CampaignID], ch)
	}
	var hasCard bool
	var credit money.Cents
	if ongoing {
		if _, err := a.deps.Billing.FindCardOnFile(ctx, companyID); err == nil {
			hasCard = true
		} else if apperr.CodeOf(err) != apperr.ENOTFOUND {
			return nil, err
		}
		if credit, err = a.deps.Billing.AccountCredit(ctx, companyID); err != nil {
			return nil, err
		}
	}
	today := dates.Today(a.deps.Clock)
	for i := range cs {
		out = append(out, computePacing(pacingInput{Campaign: &cs[i], Weeks: weeksOf[cs[i].ID], Charges: chargesOf[cs[i].ID],
			HasCard: hasCard, Credit: credit}, today))
	}
	return out, nil
}

// CampaignPacing answers a campaign's pacing; another company's campaign is ENOTFOUND.
func (a *assurance) CampaignPacing(ctx context.Context, p *auth.Principal, id string) (*Pacing, error) {
	c, err := a.store.FindCampaign(ctx, scope(p), id)
	if err != nil {
		return nil, db.Translate(err, MsgCampaignNotFound, "")
	}
	out, err := a.pacingOf(ctx, c.CompanyID, []store.Campaign{*c})
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}

// pacingStatuses are the campaigns the dashboard paces: those still running or about to.
var pacingStatuses = []string{StatusActive, StatusPaused, StatusPending, StatusPaid}

// CompanyPacing answers the pacing of the company's live campaigns (the dashboard, the digest).
func (a *assurance) CompanyPacing(ctx context.Context, companyID string) ([]Pacing, error) {
	if companyID == "" {
		return []Pacing{}, nil
	}
	cs, err := a.store.PacingCampaigns(ctx, companyID, pacingStatuses)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return a.pacingOf(ctx, companyID, cs)
}
