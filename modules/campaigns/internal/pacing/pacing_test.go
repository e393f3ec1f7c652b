package pacing

import (
	"testing"

	"marquee/modules/campaigns/internal/store"
	"marquee/platform/dates"
	"marquee/platform/money"
)

// The pacing core on its own; modules/campaigns/pacing_test.go checks the same through HTTP.

func week(start string, price, ooh int64, act *int64) store.Week {
	s := dates.MustParse(start)
	return store.Week{StartAt: s, EndAt: s.AddDays(6), OfferPrice: price, Ooh: ooh, ActImp: act}
}

func ptr(n int64) *int64 { return &n }

func TestComputeSpentAndCommitted(t *testing.T) {
	in := Input{
		Weeks: []store.Week{
			week("2026-11-02", 10000, 1000, ptr(800)), week("2026-11-02", 5000, 500, ptr(500)),
			week("2026-11-09", 10000, 1000, nil), week("2026-11-09", 5000, 500, nil),
			week("2026-11-16", 10000, 1000, nil), week("2026-11-16", 5000, 500, nil),
		},
		Charges: []Charge{
			{Week: dates.MustParse("2026-11-02"), Amount: 15000, Paid: true},
			{Week: dates.MustParse("2026-11-09"), Amount: 15000, Failed: true},
		},
		Start: dates.MustParse("2026-11-02"), End: dates.MustParse("2026-11-22"), Finite: true,
	}
	p := Compute(in, dates.MustParse("2026-11-12"))
	if p.Spent != 15000 || p.Committed != 45000 || p.Remaining != 30000 || p.WeeklyCost != 15000 {
		t.Errorf("spent %d committed %d remaining %d weekly %d, want 15000 45000 30000 15000", p.Spent, p.Committed, p.Remaining, p.WeeklyCost)
	}
	// Only the first week has ended (Nov 8 is before Nov 12): 1,300 of 1,500 is 87%.
	if p.WeeksFinished != 1 || p.WeeksReported != 1 || p.PlannedToDate != 1500 || p.DeliveredToDate != 1300 {
		t.Errorf("weeks %d/%d planned %d delivered %d, want 1/1 1500 1300", p.WeeksReported, p.WeeksFinished, p.PlannedToDate, p.DeliveredToDate)
	}
	if p.PacePercent == nil || *p.PacePercent != 87 {
		t.Errorf("pace %v, want 87", p.PacePercent)
	}
	if p.Basis != EndDate || p.FinishDate == nil || *p.FinishDate != dates.MustParse("2026-11-22") {
		t.Errorf("finish %v (basis %d), want the end date 2026-11-22", p.FinishDate, p.Basis)
	}
}

func TestComputeNoDeliveryRecorded(t *testing.T) {
	in := Input{Weeks: []store.Week{week("2026-11-02", 10000, 1000, nil)}, Start: dates.MustParse("2026-11-02")}
	p := Compute(in, dates.MustParse("2026-11-20"))
	if p.WeeksFinished != 1 || p.WeeksReported != 0 || p.PacePercent != nil {
		t.Errorf("finished %d reported %d pace %v, want 1 0 nil", p.WeeksFinished, p.WeeksReported, p.PacePercent)
	}
}

func TestComputeOngoingFinish(t *testing.T) {
	base := Input{
		Weeks:   []store.Week{week("2026-11-09", 10000, 1000, nil)},
		Charges: []Charge{{Week: dates.MustParse("2026-11-09"), Amount: 10000, Paid: true}},
		Start:   dates.MustParse("2026-11-09"),
	}
	today := dates.MustParse("2026-11-12")

	withCard := base
	withCard.HasCard = true
	if p := Compute(withCard, today); p.Basis != Open || p.FinishDate != nil {
		t.Errorf("card on file: basis %d finish %v, want open and no date", p.Basis, p.FinishDate)
	}
	paused := base
	paused.Paused = true
	if p := Compute(paused, today); p.Basis != Paused || p.FinishDate != nil {
		t.Errorf("paused: basis %d finish %v, want paused and no date", p.Basis, p.FinishDate)
	}
	// No card, $250 of credit at $100 a week: two more weeks (Nov 16 and 23) are paid in full, the
	// week of Nov 30 is not, so the campaign finishes on Sunday Nov 29.
	credit := base
	credit.Credit = money.Cents(25000)
	p := Compute(credit, today)
	if p.Basis != Credit || p.CreditWeeks != 2 || p.FinishDate == nil || *p.FinishDate != dates.MustParse("2026-11-29") {
		t.Errorf("credit: basis %d weeks %d finish %v, want credit, 2, 2026-11-29", p.Basis, p.CreditWeeks, p.FinishDate)
	}
	// An unpaid booked week the credit cannot pay stops the campaign before that week.
	owed := credit
	owed.Charges = nil
	owed.Credit = 5000
	p = Compute(owed, today)
	if p.Basis != Credit || p.CreditWeeks != 0 || p.FinishDate == nil || *p.FinishDate != dates.MustParse("2026-11-08") {
		t.Errorf("owed week: basis %d weeks %d finish %v, want credit, 0, 2026-11-08", p.Basis, p.CreditWeeks, p.FinishDate)
	}
}

func TestComputeWeeklyBudget(t *testing.T) {
	in := Input{
		Weeks:        []store.Week{week("2026-11-09", 10000, 1000, nil), week("2026-11-09", 5000, 500, nil)},
		WeeklyBudget: 7000,
		Start:        dates.MustParse("2026-11-09"), Finite: true, End: dates.MustParse("2026-11-15"),
	}
	// A maximum-budget campaign's week costs its budget, not its faces' prices (B §9).
	if p := Compute(in, dates.MustParse("2026-11-10")); p.Committed != 7000 || p.WeeklyCost != 7000 {
		t.Errorf("committed %d weekly %d, want 7000 7000", p.Committed, p.WeeklyCost)
	}
}
