package campaigns

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"marquee/modules/billing"
	"marquee/modules/campaigns/internal/store"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/money"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// usedSpots is POST /api/available-spots/'s used_spots of a face in a week, as the map reads it.
func (w *world) usedSpots(t testing.TB, a *advertiser, market, face string, week dates.Date) int {
	t.Helper()
	var spots []locations.AvailableSpot
	a.c.Post("/api/available-spots/", locations.AvailableSpotsRequest{StartAt: week.String(), Markets: []string{market}}).Expect(t, 200).JSON(t, &spots)
	for _, sp := range spots {
		if sp.Xxx == face {
			return sp.UsedSpots
		}
	}
	t.Fatalf("face %s not in the available spots", face)
	return 0
}

// TestABookedSpotIsReleasedOnlyByTheCampaign: the calendar's DELETE and PUT week
// calls (B §7) serve only the conflict paths of B §4. A paid campaign's spot stays booked whatever
// its owner (or anyone) sends there; a held week of an open conflict draft may still be deleted,
// and the resolution then leaves that week out instead of charging it without a spot.
func TestABookedSpotIsReleasedOnlyByTheCampaign(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		face := w.atlanta[0]
		var res CreateResponse
		post(t, w.s, w.adv.c, "booked", w.form(w.adv, FrequencyOneTime, 0, face)).Expect(t, 201).JSON(t, &res)
		w.settle(t)
		spots := w.spotsOf(t, w.adv, res.Campaign.ID)
		if len(spots) != 1 || spots[0].Status != locations.StatusActive {
			t.Fatalf("spots = %+v", spots)
		}
		used := w.usedSpots(t, w.adv, "Atlanta", face.ID, start0)

		w.adv.c.Delete("/api/calendar/week?id="+spots[0].ID).Expect(t, 409)
		w.adv.c.Put("/api/calendar/week", locations.SetWeekStatusRequest{ID: spots[0].ID, Status: "active"}).Expect(t, 409)
		w.adv.c.Delete("/api/calendar/campaigns/"+res.Campaign.ID).Expect(t, 404)
		w.other.c.Delete("/api/calendar/week?id="+spots[0].ID).Expect(t, 404)

		if got := w.usedSpots(t, w.adv, "Atlanta", face.ID, start0); got != used {
			t.Fatalf("used_spots %d after the calls, was %d", got, used)
		}
		if after := w.spotsOf(t, w.adv, res.Campaign.ID); len(after) != 1 || after[0].Status != locations.StatusActive {
			t.Fatalf("the booked spot changed: %+v", after)
		}
		if c := w.campaign(t, res.Campaign.ID); c.Status != StatusActive {
			t.Fatalf("campaign = %+v", c)
		}

		// An open conflict draft: its held weeks are the caller's to delete (B §4 "Keep my own
		// dates"), and the resolution leaves the deleted week out.
		b := w.atlanta[1]
		wk2 := start0.AddWeeks(1)
		w.fill(t, b.ID, wk2, 0)
		var cr ConflictResponse
		post(t, w.s, w.adv.c, "draft", w.form(w.adv, FrequencyWeekly, 2, w.atlanta[2], b)).Expect(t, 409).JSON(t, &cr)
		held := w.spotsOf(t, w.adv, cr.Campaign.ID)
		var gone locations.Spot
		for _, sp := range held {
			if sp.FaceID == w.atlanta[2].ID && sp.Week == wk2 {
				gone = sp
			}
		}
		if gone.ID == "" || gone.Status != locations.StatusReserved {
			t.Fatalf("held = %+v", held)
		}
		w.other.c.Delete("/api/calendar/week?id="+gone.ID).Expect(t, 404)
		w.adv.c.Delete("/api/calendar/week?id="+gone.ID).Expect(t, 200)
		var rr ResolveResponse
		w.adv.c.Post("/api/campaigns/"+cr.Campaign.ID+"/resolve", ResolveRequest{Choice: ResolveSuggestedDates}).Expect(t, 200).JSON(t, &rr)
		weeks, _ := w.m.svc.store.WeeksOf(ctx, cr.Campaign.ID)
		live := w.spotsOf(t, w.adv, cr.Campaign.ID)
		if len(weeks) != len(held)-1 || len(live) != len(weeks) || slices.ContainsFunc(weeks, func(x store.Week) bool { return x.SpotID == gone.ID }) {
			t.Fatalf("after deleting a held week: %d rows, %d spots (held %d)", len(weeks), len(live), len(held))
		}
		// Once resolved, its weeks are booked: the calendar can no longer touch them.
		w.adv.c.Delete("/api/calendar/week?id="+live[0].ID).Expect(t, 409)
	})
}

// TestOneKeyAnswersTheWinnersOutcomeWithCredit: ten identical creations with one
// Idempotency-Key from a company holding account credit. The winner spends the credit; the others
// plan only after its commit (the hook orders them so on both databases), so their plan sees a
// weekly budget that no longer matches the form's. Each must still answer the winner's campaign.
func TestOneKeyAnswersTheWinnersOutcomeWithCredit(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		faces := w.atlanta[:2]
		gross := w.price(t, faces[0].ID, start0) + w.price(t, faces[1].ID, start0)
		credit := money.Dollars(50)
		if _, err := w.bill.Service().ApplyCredit(ctx, billing.CreditRequest{Key: "grant", CompanyID: w.adv.companyID, Amount: credit}); err != nil {
			t.Fatal(err)
		}
		form := w.form(w.adv, FrequencyOneTime, 0, faces...)
		form.WeeklyBudget = BudgetInput((gross - credit).String())

		const n = 10
		var mu sync.Mutex
		arrived, first := 0, true
		release := make(chan struct{})
		w.m.svc.beforePlan = func() {
			mu.Lock()
			arrived++
			if arrived == n {
				close(release)
			}
			late := arrived > n
			mu.Unlock()
			if late {
				return
			}
			<-release // every call has looked the key up and found nothing
			mu.Lock()
			winner := first
			first = false
			mu.Unlock()
			if winner {
				return
			}
			for { // the others plan once the winner has committed (and spent the credit)
				if _, err := w.m.svc.store.CampaignByKey(ctx, w.adv.companyID, "credit-race"); err == nil {
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
		t.Cleanup(func() { w.m.svc.beforePlan = nil })

		type answer struct {
			status int
			id     string
			body   string
		}
		answers := make([]answer, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				r := post(t, w.s, w.adv.c, "credit-race", form)
				answers[i] = answer{status: r.Status, body: string(r.Body)}
				if r.Status == 201 {
					var cr CreateResponse
					r.JSON(t, &cr)
					answers[i].id = cr.Campaign.ID
				}
			})
		}
		wg.Wait()
		for i, a := range answers {
			if a.status != 201 || a.id != answers[0].id {
				t.Fatalf("call %d: %d %s (the first answered %s)", i, a.status, a.body, answers[0].id)
			}
		}
		if cs, _, _, err := w.m.svc.store.CountCompany(ctx, w.adv.companyID); err != nil || cs != 1 {
			t.Fatalf("%d campaigns, %v", cs, err)
		}
		if left, _ := w.bill.Service().AccountCredit(ctx, w.adv.companyID); left != 0 {
			t.Fatalf("credit left %v", left)
		}
	})
}

// TestNoCardWhenCreditPaysEverything: a company without a card and with $500 of
// promo credit creates a one-week campaign the credit covers. The quote says no card is needed,
// the campaign is active at once, and the message does not say it is pending payment. When the
// credit does not cover it, the card is required again.
func TestNoCardWhenCreditPaysEverything(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		noCard := w.newAdvertiser(t, "nocard@campaigns.test", "No Card Co", "")
		w.promo(t, noCard, "SPRING500", money.Dollars(500))
		face := w.atlanta[0]
		form := w.form(noCard, FrequencyOneTime, 0, face)

		var q CampaignQuote
		noCard.c.Post("/api/campaigns/quote", form).Expect(t, 200).JSON(t, &q)
		if q.WeeklyBudget != 0 || q.Total != 0 || q.CardRequired {
			t.Fatalf("quote = %+v", q)
		}
		var res CreateResponse
		post(t, w.s, noCard.c, "no-card", form).Expect(t, 201).JSON(t, &res)
		if c := res.Campaign; c.Status != StatusActive || c.PaymentStatus != billing.StatusSucceeded || res.Message != MsgCreatedActive {
			t.Fatalf("created = %+v %q", c, res.Message)
		}
		if slices.Contains([]string{MsgCreated}, res.Message) {
			t.Fatal("a campaign active at once says it is pending payment")
		}
		if charges, _ := w.m.svc.store.ChargesOf(ctx, res.Campaign.ID); len(charges) != 1 || charges[0].Amount != 0 || charges[0].Status != ChargeSucceeded {
			t.Fatalf("charges = %+v", charges)
		}

		// Ten weeks of four faces cost more than what is left: the card is required.
		long := w.form(noCard, FrequencyWeekly, 10, w.atlanta[1:5]...)
		noCard.c.Post("/api/campaigns/quote", long).Expect(t, 200).JSON(t, &q)
		if !q.CardRequired || q.Total == 0 {
			t.Fatalf("long quote = %+v", q)
		}
		if e := errorBody(t, post(t, w.s, noCard.c, "no-card-long", long), 400); e.Errors[fieldCard] != MsgCardRequired {
			t.Fatalf("long = %+v", e)
		}
		// A campaign that charges the card still says it is pending payment confirmation.
		post(t, w.s, w.adv.c, "with-card", w.form(w.adv, FrequencyOneTime, 0, w.atlanta[5])).Expect(t, 201).JSON(t, &res)
		if res.Message != MsgCreated || res.Campaign.Status != StatusPending {
			t.Fatalf("card campaign = %q %+v", res.Message, res.Campaign)
		}
	})
}

// promo creates a promo of value as a super admin and redeems it for the advertiser, over HTTP.
func (w *world) promo(t testing.TB, a *advertiser, code string, value money.Cents) {
	t.Helper()
	u, _, err := w.ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: "super-" + strings.ToLower(code) + "@campaigns.test",
		Password: "campaigns password 1", Role: identity.RoleSuperAdmin})
	if err != nil {
		t.Fatal(err)
	}
	super := w.s.Client(t)
	super.SessionAs(w.s, u.ID)
	super.Post("/api/admin/promo/", billing.CreatePromoRequest{Code: code, Value: value, MaxCount: 10}).Expect(t, 201)
	a.c.Post("/api/promo/", billing.RedeemPromoRequest{Code: code}).Expect(t, 200)
}

// TestPromoCodeIsStoredAndAddsToTheSpendableBudget: the form's promo_code (B §3)
// is stored with the campaign when the company redeemed it, and the quote counts its credit into
// the spendable budget (B §9): the weekly budget plus the promo credit.
func TestPromoCodeIsStoredAndAddsToTheSpendableBudget(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		w.promo(t, w.adv, "WELCOME100", money.Dollars(100))
		faces := w.atlanta[:3]
		form := w.form(w.adv, FrequencyWeekly, 4, faces...)
		form.PromoCode = &PromoCode{Value: "welcome100"}

		var q CampaignQuote
		w.adv.c.Post("/api/campaigns/quote", form).Expect(t, 200).JSON(t, &q)
		if q.AccountCredit != money.Dollars(100) || q.PromoCredit != money.Dollars(100) || q.SpendableBudget != q.WeeklyBudget+money.Dollars(100) ||
			q.WeeklyBudget != q.Weekly-money.Dollars(25) || !q.CardRequired {
			t.Fatalf("quote = %+v", q)
		}
		var res CreateResponse
		post(t, w.s, w.adv.c, "promo", form).Expect(t, 201).JSON(t, &res)
		if res.Campaign.PromoCode != "WELCOME100" {
			t.Fatalf("promo_code = %q", res.Campaign.PromoCode)
		}
		var detail CampaignDetail
		w.adv.c.Get("/api/campaigns/"+res.Campaign.ID).Expect(t, 200).JSON(t, &detail)
		if detail.PromoCode != "WELCOME100" {
			t.Fatalf("stored promo_code = %q", detail.PromoCode)
		}

		// A code the company did not redeem gives no credit and is not stored; a malformed one is
		// refused naming the field.
		other := w.form(w.adv, FrequencyOneTime, 0, w.atlanta[4])
		other.PromoCode = &PromoCode{Value: "NOTMINE"}
		w.adv.c.Post("/api/campaigns/quote", other).Expect(t, 200).JSON(t, &q)
		if q.PromoCredit != 0 || q.SpendableBudget != q.WeeklyBudget {
			t.Fatalf("unredeemed quote = %+v", q)
		}
		post(t, w.s, w.adv.c, "not-mine", other).Expect(t, 201).JSON(t, &res)
		if res.Campaign.PromoCode != "" {
			t.Fatalf("an unredeemed code was stored: %q", res.Campaign.PromoCode)
		}
		other.PromoCode = &PromoCode{Value: "two words"}
		if e := errorBody(t, w.adv.c.Post("/api/campaigns/quote", other), 400); e.Errors[fieldPromo] != billing.MsgPromoWhitespace {
			t.Fatalf("malformed = %+v", e)
		}
	})
}

// TestPricesAreTheLocationMinimumRoundedUp: B §9 "the location minimum value is
// the server value plus 10" and "the spot price is rounded up to a multiple of 10", applied
// wherever a price is shown or charged: /api/od/locations value, available-spots price, the
// quote, and the booked weeks' offer price and charge.
func TestPricesAreTheLocationMinimumRoundedUp(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		step := money.Dollars(10)
		minimum := func(server money.Cents) money.Cents { return (server + step).CeilTo(step) }

		var listed []locations.Location
		w.adv.c.Get("/api/od/locations/?market=Atlanta").Expect(t, 200).JSON(t, &listed)
		var spots []locations.AvailableSpot
		w.adv.c.Post("/api/available-spots/", locations.AvailableSpotsRequest{StartAt: start0.String(), Markets: []string{"Atlanta"}}).Expect(t, 200).JSON(t, &spots)
		price := map[string]money.Cents{}
		for _, sp := range spots {
			if sp.Price != minimum(sp.MinValue) {
				t.Fatalf("available spot %s: price %v for min_value %v", sp.Xxx, sp.Price, sp.MinValue)
			}
			price[sp.Xxx] = sp.Price
		}
		if len(listed) != len(w.atlanta) {
			t.Fatalf("listed %d locations", len(listed))
		}
		for _, l := range listed {
			// The faces have no explicit inventory rows: a week's min_value is the face's own value.
			q, err := w.loc.Quote(ctx, locations.QuoteRequest{FaceIDs: []string{l.ID}, Weeks: []dates.Date{start0}})
			if err != nil {
				t.Fatal(err)
			}
			if l.Value != minimum(q[0].MinValue) || l.Value != price[l.ID] {
				t.Fatalf("location %s: value %v, server value %v, spot price %v", l.ID, l.Value, q[0].MinValue, price[l.ID])
			}
		}
		face := w.atlanta[0]
		raw, err := w.loc.Quote(ctx, locations.QuoteRequest{FaceIDs: []string{face.ID}, Weeks: []dates.Date{start0}})
		if err != nil {
			t.Fatal(err)
		}
		want := minimum(locations.TierPrice(raw[0].MinValue, raw[0].MinValue2, raw[0].VendorTier))
		if raw[0].Price != want || price[face.ID] != want {
			t.Fatalf("face price: quote %v, available-spots %v, want %v (server value %v)", raw[0].Price, price[face.ID], want, raw[0].MinValue)
		}
		var q CampaignQuote
		form := w.form(w.adv, FrequencyOneTime, 0, face)
		w.adv.c.Post("/api/campaigns/quote", form).Expect(t, 200).JSON(t, &q)
		if q.Weekly != want || *q.Prices[0].Price != want {
			t.Fatalf("quote = %+v, want %v", q, want)
		}
		var res CreateResponse
		post(t, w.s, w.adv.c, "priced", form).Expect(t, 201).JSON(t, &res)
		weeks, _ := w.m.svc.store.WeeksOf(ctx, res.Campaign.ID)
		charges, _ := w.m.svc.store.ChargesOf(ctx, res.Campaign.ID)
		if len(weeks) != 1 || money.Cents(weeks[0].OfferPrice) != want || len(charges) != 1 || money.Cents(charges[0].Amount) != want {
			t.Fatalf("booked %+v, charged %+v, want %v", weeks, charges, want)
		}
	})
}

// TestMaximumBudgetRules: the maximum-budget type (typeCampaign 0, the flag on)
// by B §4, §5 and §9: a daily budget, weekly = daily × 7; the suggested daily budget ceil(n/10) ×
// $20, at least $20; impressions scaled by the budget ratio and capped at the total; below the
// minimum, impressions 0 and no likely face; the creation refuses it; the charge is daily × 7.
func TestMaximumBudgetRules(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		var faces []locations.Location
		for _, f := range append(append([]locations.Location{}, w.atlanta...), w.faces2...) {
			if !f.ExcludeMaximizeBudget {
				faces = append(faces, f)
			}
		}
		if len(faces) < 3 {
			t.Fatalf("only %d faces allow maximum budget", len(faces))
		}
		faces = faces[:3]
		form := w.form(w.adv, FrequencyOneTime, 0, faces...)
		form.TypeCampaign = TypeMaximumBudget
		var sum money.Cents
		var ooh int64
		likely := 0
		for _, f := range faces {
			q, err := w.loc.Quote(ctx, locations.QuoteRequest{FaceIDs: []string{f.ID}, Weeks: []dates.Date{start0}})
			if err != nil {
				t.Fatal(err)
			}
			sum += q[0].Price
			ooh += q[0].Ooh
			if f.Likely {
				likely++
			}
		}

		// $20 a day: $140 a week, the impressions scaled by 140 / the prices.
		form.MaxBudget = "20"
		var q CampaignQuote
		w.adv.c.Post("/api/campaigns/quote", form).Expect(t, 200).JSON(t, &q)
		wantImp := ooh * int64(money.Dollars(140)) / int64(sum)
		if q.Weekly != money.Dollars(140) || q.WeeklyBudget != money.Dollars(140) || q.DailyBudget != money.Dollars(20) ||
			q.SuggestedDailyBudget != money.Dollars(20) || q.MinDailyBudget != money.Dollars(20) || q.ImpressionCount != wantImp || len(q.Likely) != likely {
			t.Fatalf("$20 a day: %+v (want impressions %d of %d)", q, wantImp, ooh)
		}
		// A budget above the prices is capped at the total.
		form.MaxBudget = "$10,000"
		w.adv.c.Post("/api/campaigns/quote", form).Expect(t, 200).JSON(t, &q)
		if q.Weekly != money.Dollars(70_000) || q.ImpressionCount != ooh {
			t.Fatalf("$10,000 a day: %+v", q)
		}
		// Below the minimum: impressions 0, no likely face; the creation is refused.
		form.MaxBudget = "19"
		w.adv.c.Post("/api/campaigns/quote", form).Expect(t, 200).JSON(t, &q)
		if q.ImpressionCount != 0 || len(q.Likely) != 0 || q.DailyBudget != money.Dollars(19) {
			t.Fatalf("$19 a day: %+v", q)
		}
		if e := errorBody(t, post(t, w.s, w.adv.c, "mb-low", form), 400); e.Errors[fieldMaxBudget] != MsgMaxBudgetTooLow {
			t.Fatalf("$19 a day created: %+v", e)
		}
		// Eleven locations suggest $40 a day.
		if SuggestedDailyBudget(11) != money.Dollars(40) || MinDailyBudget(1) != money.Dollars(20) || SuggestedDailyBudget(10) != money.Dollars(20) {
			t.Fatal("suggested daily budget")
		}

		// Created at $25 a day: the campaign and its first charge are $175.
		form.MaxBudget = "25"
		var res CreateResponse
		post(t, w.s, w.adv.c, "mb", form).Expect(t, 201).JSON(t, &res)
		charges, _ := w.m.svc.store.ChargesOf(ctx, res.Campaign.ID)
		row, _ := w.m.svc.store.CampaignByID(ctx, res.Campaign.ID)
		if res.Campaign.WeeklyBudget != money.Dollars(175) || row.MaxBudget != int64(money.Dollars(25)) || !res.Campaign.MbCampaign ||
			len(charges) != 1 || charges[0].Amount != int64(money.Dollars(175)) {
			t.Fatalf("created %+v, charges %+v", res.Campaign, charges)
		}
	})
}

// TestDatesFollowTheBusinessTimeZone: "today" and the Wednesday cut-off are read
// in BUSINESS_TIMEZONE (America/New_York by default). Wednesday 23:59 in New York is Thursday 04:59
// UTC: the next Monday can still be started; a minute later it cannot.
func TestDatesFollowTheBusinessTimeZone(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		face := w.atlanta[0]
		w.s.Clock.Set(time.Date(2026, 11, 26, 4, 59, 0, 0, time.UTC)) // Wed 25 Nov, 23:59 EST
		w.adv.c.SessionAs(w.s, w.adv.p.UserID)                        // the first session has expired
		var d CampaignDefaults
		w.adv.c.Get("/api/campaigns/defaults").Expect(t, 200).JSON(t, &d)
		if d.BusinessTimezone != "America/New_York" || d.Today != dates.MustParse("2026-11-25") || d.EarliestStart != start0 {
			t.Fatalf("Wednesday 23:59 New York: %+v", d)
		}
		w.adv.c.Post("/api/campaigns/quote", w.form(w.adv, FrequencyOneTime, 0, face)).Expect(t, 200)

		w.s.Clock.Set(time.Date(2026, 11, 26, 5, 0, 0, 0, time.UTC)) // Thu 26 Nov, 00:00 EST
		w.adv.c.SessionAs(w.s, w.adv.p.UserID)
		w.adv.c.Get("/api/campaigns/defaults").Expect(t, 200).JSON(t, &d)
		if d.Today != dates.MustParse("2026-11-26") || d.EarliestStart != start0.AddWeeks(1) {
			t.Fatalf("Thursday 00:00 New York: %+v", d)
		}
		if e := errorBody(t, w.adv.c.Post("/api/campaigns/quote", w.form(w.adv, FrequencyOneTime, 0, face)), 400); e.Errors[fieldStart] != MsgStartTooSoon {
			t.Fatalf("past the cut-off: %+v", e)
		}
	})
}

// TestBusinessTimeZoneIsConfigurable: another BUSINESS_TIMEZONE moves the cut-off with it.
func TestBusinessTimeZoneIsConfigurable(t *testing.T) {
	s := testkit.Start(t, db.SQLite, server.Compose(Component), testkit.WithEnv("BUSINESS_TIMEZONE", "America/Los_Angeles"))
	s.Clock.Set(time.Date(2026, 11, 26, 7, 59, 0, 0, time.UTC)) // Wed 25 Nov, 23:59 PST
	m := testkit.ModuleOf[*Module](t, s)
	if today := dates.Today(m.deps.Clock); today != dates.MustParse("2026-11-25") {
		t.Fatalf("today in Los Angeles = %s", today)
	}
	s.Clock.Advance(time.Minute)
	if today := dates.Today(m.deps.Clock); today != dates.MustParse("2026-11-26") {
		t.Fatalf("today in Los Angeles = %s", today)
	}
}

// TestCreditOnlyOngoingCampaignPausesWhenTheCreditRunsOut: an ongoing campaign created without a
// card because the credit paid its first week is paused by the weekly job when
// the next week finds neither credit nor card, as when a charge fails, instead of failing the job
// on every run.
func TestCreditOnlyOngoingCampaignPausesWhenTheCreditRunsOut(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		noCard := w.newAdvertiser(t, "ongoing@campaigns.test", "Ongoing Co", "")
		face := w.atlanta[0]
		if _, err := w.bill.Service().ApplyCredit(ctx, billing.CreditRequest{Key: "one-week", CompanyID: noCard.companyID, Amount: w.price(t, face.ID, start0)}); err != nil {
			t.Fatal(err)
		}
		var res CreateResponse
		post(t, w.s, noCard.c, "ongoing", w.form(noCard, FrequencyOngoing, 0, face)).Expect(t, 201).JSON(t, &res)
		if res.Campaign.Status != StatusActive {
			t.Fatalf("created = %+v", res.Campaign)
		}
		w.s.Clock.Set(time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)) // Thursday: 7 December is locked
		run, err := w.m.RunLifecycle(ctx)
		if err != nil || run.Failed != 0 {
			t.Fatalf("run = %+v, %v", run, err)
		}
		if c := w.campaign(t, res.Campaign.ID); c.Status != StatusPaused {
			t.Fatalf("campaign = %s %q", c.Status, c.PaymentMessage)
		}
	})
}
