package campaigns

import (
	"context"

	"marquee/modules/campaigns/internal/pacing"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/money"
)

// Pacing and forecast (docs/delivery-assurance.md "Pacing, forecast and renewal"): what
// a campaign has spent, what it has committed, when it will finish, and how its delivery keeps
// pace with its plan. The arithmetic is internal/pacing's (pure, table tested through computePacing); the calls read everything in batch
// queries (the dashboard's list: four queries whatever the number of campaigns).

// pacingInput is what computePacing needs of one campaign.
type pacingInput struct {
	Campaign *store.Campaign
	Weeks    []store.Week   // its active week rows
	Charges  []store.Charge // its charge rows
	HasCard  bool           // the company has a card on file
	Credit   money.Cents    // the company's account credit
}

// finishBases are the API's names of the forecast's bases (internal/pacing.Basis).
var finishBases = [...]string{pacing.EndDate: FinishEndDate, pacing.Credit: FinishCredit, pacing.Open: FinishOpen, pacing.Paused: FinishPaused}

// computePacing is a campaign's pacing on today (internal/pacing.Compute) as the API shows it.
func computePacing(in pacingInput, today dates.Date) Pacing {
	c := in.Campaign
	pin := pacing.Input{Weeks: in.Weeks, Charges: make([]pacing.Charge, len(in.Charges)), Start: c.StartDate, End: c.EndDate,
		Finite: isFinite(c.Frequency), Ended: c.Status == StatusCompleted || c.Status == StatusCanceled,
		Paused: c.Status == StatusPaused, HasCard: in.HasCard, Credit: in.Credit}
	if c.MbCampaign && c.MaxBudget > 0 {
		pin.WeeklyBudget = weeklyOfDaily(money.Cents(c.MaxBudget))
	}
	for i, ch := range in.Charges {
		pin.Charges[i] = pacing.Charge{Week: ch.Week, Amount: money.Cents(ch.Amount + ch.Credit),
			Paid: ch.Status == ChargeSucceeded || ch.Status == ChargePending, Failed: ch.Status == ChargeFailed}
	}
	r := pacing.Compute(pin, today)
	return Pacing{CampaignID: c.ID, Name: c.Name, Status: DisplayStatus(c.Status), Frequency: c.Frequency,
		Spent: r.Spent, Committed: r.Committed, Remaining: r.Remaining, WeeklyCost: r.WeeklyCost,
		FinishDate: r.FinishDate, FinishBasis: finishBases[r.Basis], CreditWeeks: r.CreditWeeks,
		PlannedToDate: r.PlannedToDate, DeliveredToDate: r.DeliveredToDate, PacePercent: r.PacePercent,
		WeeksFinished: r.WeeksFinished, WeeksReported: r.WeeksReported,
		Renewable: pin.Finite && (c.Status == StatusActive || c.Status == StatusPaused || c.Status == StatusCompleted)}
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
