// Package pacing is the pure core of pacing and forecast (docs/delivery-assurance.md "Pacing,
// forecast and renewal"): what a campaign has spent and committed, when it will finish and how its
// delivery keeps pace with its plan. No I/O: campaigns' assurance reads the rows in batch.
package pacing

import (
	"math"
	"slices"

	"marquee/modules/campaigns/internal/store"
	"marquee/platform/dates"
	"marquee/platform/money"
)

// Basis is what a forecast finish date rests on.
type Basis int

const (
	// EndDate: a finite (or ended) campaign ends on its end date.
	EndDate Basis = iota
	// Credit: an ongoing campaign without a card on file stops at the first week its account
	// credit cannot pay in full.
	Credit
	// Open: an ongoing campaign the card on file pays runs until it is stopped.
	Open
	// Paused: a paused ongoing campaign books nothing.
	Paused
)

// Charge is one week's charge row, as the pacing reads it.
type Charge struct {
	Week   dates.Date
	Amount money.Cents // card and account credit together
	Paid   bool        // succeeded or waiting for the gateway
	Failed bool        // failed: the week is still owed
}

// Input is what Compute needs of one campaign.
type Input struct {
	Weeks   []store.Week // its active week rows
	Charges []Charge
	// WeeklyBudget is a maximum-budget campaign's week (its daily budget × 7); 0 for a campaign
	// priced by its faces.
	WeeklyBudget money.Cents
	Start, End   dates.Date // the campaign's dates
	Finite       bool       // it has an end (not ongoing)
	Ended        bool       // completed or canceled
	Paused       bool
	HasCard      bool        // the company has a card on file
	Credit       money.Cents // the company's account credit
}

// Result is a campaign's pacing.
type Result struct {
	Spent, Committed, Remaining, WeeklyCost money.Cents
	FinishDate                              *dates.Date
	Basis                                   Basis
	CreditWeeks                             int
	PlannedToDate, DeliveredToDate          int64
	PacePercent                             *int
	WeeksFinished, WeeksReported            int
}

// plannedImpressions is a week row's plan: the estimate stored when the week was booked. It is the
// one place the pacing reads the plan, so a frozen "contracted" figure can replace it.
func plannedImpressions(w *store.Week) int64 { return w.Ooh }

// weekGross is what one week of the campaign costs: the sum of its faces' offer prices, or the
// weekly budget of a maximum-budget campaign (B §9), as the week is charged.
func weekGross(in *Input, rows []store.Week) money.Cents {
	if in.WeeklyBudget > 0 {
		return in.WeeklyBudget
	}
	var sum money.Cents
	for i := range rows {
		sum += money.Cents(rows[i].OfferPrice)
	}
	return sum
}

// Compute works out a campaign's pacing on today:
//   - spent = the price (card + credit) of every week with a succeeded or pending charge row;
//   - committed = spent + the gross of each booked week without a charge row or with a failed one;
//   - finish: a finite campaign's end date; an ongoing one is open when the company has a card on
//     file (the weekly job books and charges each week until it is stopped); without a card the
//     job pauses it at the first week whose price the account credit cannot pay in full (a week of
//     an ongoing campaign takes min(credit, price), and a net above 0 needs a card: B §5), so it
//     finishes on the Sunday before that week; paused, it books nothing;
//   - pace = delivered / planned over the faces of finished weeks (ended before today) whose
//     delivery was recorded.
func Compute(in Input, today dates.Date) Result {
	var p Result
	byWeek := map[dates.Date][]store.Week{}
	var weeks []dates.Date
	for _, w := range in.Weeks {
		if _, ok := byWeek[w.StartAt]; !ok {
			weeks = append(weeks, w.StartAt)
		}
		byWeek[w.StartAt] = append(byWeek[w.StartAt], w)
	}
	slices.SortFunc(weeks, func(a, b dates.Date) int { return a.Compare(b) })
	charged := map[dates.Date]Charge{}
	for _, ch := range in.Charges {
		charged[ch.Week] = ch
		if ch.Paid {
			p.Spent += ch.Amount
		}
	}
	p.Committed = p.Spent
	var unpaid []dates.Date // booked weeks still to pay, oldest first
	for _, wk := range weeks {
		ch, ok := charged[wk]
		if !ok || ch.Failed {
			p.Committed += weekGross(&in, byWeek[wk])
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
		p.WeeklyCost = weekGross(&in, byWeek[weeks[len(weeks)-1]])
	}
	switch {
	case in.Finite || in.Ended:
		end := in.End
		p.FinishDate, p.Basis = &end, EndDate
	case in.Paused:
		p.Basis = Paused
	case in.HasCard || p.WeeklyCost <= 0:
		p.Basis = Open
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
			g := weekGross(&in, byWeek[wk])
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
		if end.Before(in.Start) {
			end = in.Start.AddDays(-1)
		}
		p.FinishDate, p.Basis = &end, Credit
	}
	return p
}
