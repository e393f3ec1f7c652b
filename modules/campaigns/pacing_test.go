package campaigns

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"marquee/modules/billing"
	"marquee/modules/campaigns/internal/store"
	"marquee/modules/locations"
	"marquee/platform/dates"
	"marquee/platform/money"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// The pacing rules, pure: spent, committed, the finish date of finite, ongoing (credit
// limit, card, paused) campaigns, and the delivery pace of finished weeks.
func TestComputePacing(t *testing.T) {
	if RenewalReminderDays != ImminentEndDays {
		t.Fatalf("the renewal reminder (%d days) is not B §9's imminent end (%d)", RenewalReminderDays, ImminentEndDays)
	}
	today := dates.MustParse("2026-11-22") // a Sunday
	mon := dates.MustParse("2026-11-09")
	imp := func(v int64) *int64 { return &v }
	week := func(start dates.Date, price, ooh int64, act *int64) store.Week {
		return store.Week{CampaignID: "c", FaceID: fmt.Sprint(price, ooh), StartAt: start, EndAt: start.AddDays(6), Status: WeekActive, OfferPrice: price, Ooh: ooh, ActImp: act}
	}
	weeks := []store.Week{
		week(mon, 100_00, 1000, imp(800)), week(mon, 50_00, 1000, imp(1100)), // finished, reported: 1900 of 2000
		week(mon.AddWeeks(1), 100_00, 1000, nil), week(mon.AddWeeks(1), 50_00, 1000, nil), // ends today: not finished
	}
	charges := []store.Charge{{Week: mon, Amount: 120_00, Credit: 30_00, Status: ChargeSucceeded}, {Week: mon.AddWeeks(1), Amount: 150_00, Status: ChargeFailed}}
	finite := &store.Campaign{ID: "c", Status: StatusActive, Frequency: FrequencyWeekly, StartDate: mon, EndDate: mon.AddDays(13)}
	p := computePacing(pacingInput{Campaign: finite, Weeks: weeks, Charges: charges}, today)
	if p.Spent != 150_00 || p.Committed != 300_00 || p.Remaining != 150_00 || p.WeeklyCost != 150_00 || p.FinishBasis != FinishEndDate ||
		*p.FinishDate != finite.EndDate || p.PlannedToDate != 2000 || p.DeliveredToDate != 1900 || *p.PacePercent != 95 ||
		p.WeeksFinished != 1 || p.WeeksReported != 1 || !p.Renewable {
		t.Fatalf("finite = %+v", p)
	}

	// Ongoing, no card, $150 a week: the failed week (owed) and two more weeks of credit, then the
	// job would pause it: it finishes the Sunday before the third week after its last.
	ongoing := &store.Campaign{ID: "c", Status: StatusActive, Frequency: FrequencyOngoing, StartDate: mon, EndDate: mon.AddDays(13)}
	p = computePacing(pacingInput{Campaign: ongoing, Weeks: weeks, Charges: charges, Credit: 450_00 + 10_00}, today)
	if p.FinishBasis != FinishCredit || p.CreditWeeks != 3 || p.FinishDate.String() != "2026-12-06" || p.Renewable {
		t.Fatalf("ongoing on credit = %+v", p)
	}
	// Credit that does not pay the owed week: it stops at that week.
	p = computePacing(pacingInput{Campaign: ongoing, Weeks: weeks, Charges: charges, Credit: 149_99}, today)
	if p.FinishBasis != FinishCredit || p.CreditWeeks != 0 || p.FinishDate.String() != "2026-11-15" {
		t.Fatalf("ongoing without credit = %+v", p)
	}
	// A card on file: open. Paused: no date.
	if p = computePacing(pacingInput{Campaign: ongoing, Weeks: weeks, Charges: charges, HasCard: true}, today); p.FinishBasis != FinishOpen || p.FinishDate != nil {
		t.Fatalf("ongoing with a card = %+v", p)
	}
	paused := *ongoing
	paused.Status = StatusPaused
	if p = computePacing(pacingInput{Campaign: &paused, Weeks: weeks, Charges: charges}, today); p.FinishBasis != FinishPaused || p.FinishDate != nil {
		t.Fatalf("paused = %+v", p)
	}
	// Nothing recorded: no pace.
	if p = computePacing(pacingInput{Campaign: finite, Weeks: weeks[2:]}, today); p.PacePercent != nil || p.WeeksFinished != 0 {
		t.Fatalf("no delivery = %+v", p)
	}
}

// Pacing through HTTP on both databases: a finite campaign, the dashboard list, an ongoing
// campaign with a card (open) and without one on credit, and another company's campaign (404).
func TestPacingCalls(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		id := f.ids["Holiday Coffee Push"]
		var weeks struct{ Items []Week }
		f.adv.Get("/api/campaigns/"+id+"/weeks?page_size=0").Expect(t, 200).JSON(t, &weeks)
		var weekly money.Cents
		var planned, delivered int64
		today := dates.Today(f.s.Clock)
		for _, w := range weeks.Items {
			if w.StartAt.Equal(weeks.Items[0].StartAt) {
				weekly += w.OfferPrice
			}
			if w.EndAt.Before(today) && w.ActImp != nil {
				planned += w.ProductOoh
				delivered += *w.ActImp
			}
		}
		var p Pacing
		f.adv.Get("/api/campaigns/"+id+"/pacing").Expect(t, 200).JSON(t, &p)
		// Four weeks from last Monday: three charged (up to the locked week), one to come.
		if p.Spent != 3*weekly || p.Committed != 4*weekly || p.Remaining != weekly || p.FinishBasis != FinishEndDate ||
			p.FinishDate.String() != "2026-12-06" || p.PlannedToDate != planned || p.DeliveredToDate != delivered || planned == 0 ||
			p.PacePercent == nil || p.WeeksFinished != 1 || p.WeeksReported != 1 || !p.Renewable {
			t.Fatalf("pacing = %+v (weekly %v, planned %d, delivered %d)", p, weekly, planned, delivered)
		}
		f.other.Get("/api/campaigns/"+id+"/pacing").Expect(t, 404)
		f.other.Get("/api/campaigns/"+id+"/renew").Expect(t, 404)
		f.admin.Get("/api/campaigns/"+id+"/pacing").Expect(t, 200)

		// The dashboard: the company's live campaigns only (not completed, not another company's).
		var list PacingList
		f.adv.Get("/api/campaigns/pacing").Expect(t, 200).JSON(t, &list)
		names := []string{}
		byName := map[string]Pacing{}
		for _, it := range list.Items {
			names = append(names, it.Name)
			byName[it.Name] = it
		}
		slices.Sort(names)
		if strings.Join(names, ",") != "Always On,Holiday Coffee Push,Spring Launch,Weekend Brunch" || byName["Holiday Coffee Push"].Spent != p.Spent {
			t.Fatalf("dashboard = %v", names)
		}
		var onCard Pacing
		f.adv.Get("/api/campaigns/"+f.ids["Always On"]+"/pacing").Expect(t, 200).JSON(t, &onCard)
		if onCard.FinishBasis != FinishOpen || onCard.FinishDate != nil || onCard.WeeklyCost <= 0 || onCard.Renewable {
			t.Fatalf("ongoing with a card = %+v", onCard)
		}

		// Without a card, on $2.5 weeks of credit: two more weeks after its last (this week).
		f.adv.Delete("/api/cards/me").Expect(t, 200)
		bill := testkit.ModuleOf[*billing.Module](t, f.s).Service()
		if _, err := bill.ApplyCredit(t.Context(), billing.CreditRequest{Key: "pacing-credit", CompanyID: f.advAcc.CompanyID, Amount: onCard.WeeklyCost * 5 / 2, Description: "test"}); err != nil {
			t.Fatal(err)
		}
		var onCredit Pacing
		f.adv.Get("/api/campaigns/"+f.ids["Always On"]+"/pacing").Expect(t, 200).JSON(t, &onCredit)
		if onCredit.FinishBasis != FinishCredit || onCredit.CreditWeeks != 2 || onCredit.FinishDate.String() != "2026-12-06" {
			t.Fatalf("ongoing on credit = %+v", onCredit)
		}
		f.adv.Get("/api/campaigns/pacing").Expect(t, 200).JSON(t, &list)
		for _, it := range list.Items {
			if it.Name == "Always On" && (it.FinishBasis != FinishCredit || it.FinishDate.String() != "2026-12-06") {
				t.Fatalf("dashboard on credit = %+v", it)
			}
		}

		// The demo's campaign on credit: a company without a card, credit for two and a half weeks.
		if _, err := f.loc.GenerateInventory(t.Context(), locations.GenerateOptions{Markets: []string{"Houston"}, FacesPerMarket: 40, Seed: 7,
			Weeks: today.WeekStart().AddWeeks(-4).Weeks(12)}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.m.SeedDemo(t.Context(), server.DemoAccounts{"certified": f.otherAcc}); err != nil {
			t.Fatal(err)
		}
		f.other.Get("/api/campaigns/pacing").Expect(t, 200).JSON(t, &list)
		demo := 0
		for _, it := range list.Items {
			if it.Name == pacingCreditCampaign {
				demo++
				if it.FinishBasis != FinishCredit || it.CreditWeeks != 2 || it.FinishDate == nil {
					t.Fatalf("demo on credit = %+v", it)
				}
			}
		}
		if demo != 1 {
			t.Fatalf("demo campaign on credit: %d", demo)
		}
	})
}

// The renewal reminder goes once, when the end comes within 12 days in the business time zone
// (B §9 "imminent"), with the renew link; the prefill it opens books the same faces for the next
// weeks through the normal creation, whose conflicts answer as ever.
func TestRenewalReminderAndPrefill(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		ctx := t.Context()
		id := f.ids["Holiday Coffee Push"] // ends Sunday Dec 6, 2026
		mailsTo := func(campaign string) int {
			n := 0
			for _, m := range f.s.DeliverMail(t) {
				if strings.Contains(m, "/campaigns/new?renew="+campaign) {
					n++
				}
			}
			return n
		}
		run := func(at time.Time) int {
			t.Helper()
			f.s.Clock.Set(at)
			n, err := f.m.assure.RunRenewalReminders(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		// Sunday Nov 22: 14 days to go; only the other company's campaign (ending Nov 29) is due.
		if n := run(testkit.StartTime); n != 1 || mailsTo(id) != 0 || mailsTo(f.ids["Other Campaign"]) != 1 {
			t.Fatalf("Nov 22: %d mailed", n)
		}
		// Nov 24 04:00 UTC is still Nov 23 in New York: 13 days.
		if n := run(time.Date(2026, 11, 24, 4, 0, 0, 0, time.UTC)); n != 0 {
			t.Fatalf("Nov 23 in New York: %d mailed", n)
		}
		// Midnight in New York: 12 days.
		if n := run(time.Date(2026, 11, 24, 5, 0, 0, 0, time.UTC)); n != 1 {
			t.Fatalf("Nov 24 in New York: %d mailed", n)
		}
		if n := run(time.Date(2026, 11, 25, 5, 0, 0, 0, time.UTC)); n != 0 {
			t.Fatalf("the reminder again: %d mailed", n)
		}
		mails := f.s.DeliverMail(t)
		last := mails[len(mails)-1]
		if mailsTo(id) != 1 || !strings.Contains(last, "http://marquee.test/campaigns/new?renew="+id) || !strings.Contains(last, "ada@campaigns.test") ||
			!strings.Contains(last, "Dec 06, 2026") {
			t.Fatalf("reminder mail:\n%s", last)
		}

		// The prefill: same faces, the weeks after the campaign, its creative. (The sessions of
		// Nov 22 have expired by Nov 25.)
		f.adv.SessionAs(f.s, f.advAcc.UserID)
		f.other.SessionAs(f.s, f.otherAcc.UserID)
		creative := (&world{s: f.s}).newCreative(t, &advertiser{c: f.adv})
		if err := f.m.svc.store.SetCampaign(ctx, id, map[string]any{"creative_id": creative}); err != nil {
			t.Fatal(err)
		}
		var pre RenewPrefill
		f.adv.Get("/api/campaigns/"+id+"/renew").Expect(t, 200).JSON(t, &pre)
		if pre.StartDate.String() != "2026-12-07" || pre.EndDate.String() != "2027-01-03" || pre.Duration != 4 || pre.Frequency != FrequencyWeekly ||
			len(pre.Faces) != 3 || pre.CreativeID != creative || pre.Name != "Holiday Coffee Push (renewed)" || pre.TypeCampaign != TypePremium {
			t.Fatalf("prefill = %+v", pre)
		}
		f.adv.Get("/api/campaigns/"+f.ids["Always On"]+"/renew").Expect(t, 400)
		f.adv.Get("/api/campaigns/"+f.ids["Spring Launch"]+"/renew").Expect(t, 400)

		// Another company takes the first face in the renewal's second week: the creation from the
		// prefill answers the normal conflict, and nothing is booked or charged.
		taken := pre.StartDate.AddWeeks(1)
		q, err := f.loc.Service().Quote(ctx, locations.QuoteRequest{FaceIDs: []string{pre.Faces[0]}, Weeks: []dates.Date{taken}})
		if err != nil {
			t.Fatal(err)
		}
		for i := q[0].UsedSpots; i < q[0].AvailableSpots; i++ {
			if _, err := f.loc.Service().Book(ctx, locations.ReserveRequest{Key: fmt.Sprintf("renew-fill-%d", i), CompanyID: f.otherAcc.CompanyID,
				Items: []locations.FaceWeek{{FaceID: pre.Faces[0], Week: taken}}}); err != nil {
				t.Fatal(err)
			}
		}
		form := CampaignForm{Name: pre.Name, TypeCampaign: pre.TypeCampaign, StrategySelected: pre.Strategy, MarketsSelected: pre.Markets,
			CitiesSelected: pre.Cities, StartDate: pre.StartDate.String(), EndDate: pre.EndDate.String(), FrequencySelected: pre.Frequency,
			Duration: pre.Duration, CreativeID: pre.CreativeID}
		for _, face := range pre.Faces {
			form.PlacesChecked = append(form.PlacesChecked, PlaceChecked{ID: face})
		}
		var cr ConflictResponse
		post(t, f.s, f.adv, "renew-1", form).Expect(t, 409).JSON(t, &cr)
		found := false
		for _, w := range cr.Campaign.Weeks {
			if w.ProductID == pre.Faces[0] && w.StartAt.Equal(taken) && w.StatusWeek == WeekActive {
				t.Fatalf("the taken week is booked: %+v", w)
			}
			found = found || w.StatusWeek == WeekReserved && w.ProductID == pre.Faces[0]
		}
		if cr.Message != MsgConflict || cr.Campaign.Status != StatusConflict || !found {
			t.Fatalf("conflict = %+v", cr)
		}
	})
}
