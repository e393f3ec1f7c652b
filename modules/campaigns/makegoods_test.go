package campaigns

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"marquee/modules/billing"
	"marquee/modules/campaigns/internal/makegood"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/audit"
	"marquee/platform/dates"
	"marquee/platform/money"
	"marquee/platform/pagination"
	"marquee/platform/testkit"
)

// The make-good policy by table: the threshold is a cliff, the credit is the shortfall's share of
// the price, rounded to the nearest cent (half a cent up).
func TestMakeGoodCreditPolicy(t *testing.T) {
	for _, c := range []struct {
		price              money.Cents
		planned, delivered int64
		th                 int
		want               money.Cents
	}{
		{150000, 100000, 80000, 90, 30000},    // the worked example of docs/delivery-assurance.md
		{150000, 100000, 90000, 90, 0},        // exactly the threshold: nothing
		{150000, 100000, 89999, 90, 15002},    // 1,500 × 10,001/100,000 = 150.015 → 150.02
		{1000, 3, 1, 90, 667},                 // 6.666… → 6.67
		{1000, 3, 2, 90, 333},                 // 3.333… → 3.33
		{1, 2, 1, 90, 1},                      // half a cent rounds up
		{150000, 100000, 0, 90, 150000},       // nothing delivered: the whole price
		{150000, 0, 0, 90, 0},                 // nothing planned: nothing
		{150000, 100000, 50000, 40, 0},        // 50 % against a 40 % threshold
		{1 << 40, 1 << 40, 1, 100, 1<<40 - 1}, // big figures do not overflow
	} {
		if got := makegood.Credit(c.price, c.planned, c.delivered, c.th); got != c.want {
			t.Errorf("makegood.Credit(%d, %d, %d, %d) = %d, want %d", c.price, c.planned, c.delivered, c.th, got, c.want)
		}
	}
}

// mgWeeks are a campaign's weeks as the advertiser reads them.
func mgWeeks(t *testing.T, c *testkit.Client, id string) []Week {
	t.Helper()
	var page struct {
		Items []Week `json:"items"`
	}
	c.Get("/api/campaigns/"+id+"/weeks?page_size=0").Expect(t, 200).JSON(t, &page)
	return page.Items
}

func mgDetail(t *testing.T, c *testkit.Client, id string) CampaignDetail {
	t.Helper()
	var d CampaignDetail
	c.Get("/api/campaigns/"+id).Expect(t, 200).JSON(t, &d)
	return d
}

// grantedEvents are the make_good_granted events published so far.
func grantedEvents(t *testing.T, s *testkit.Server) []MakeGoodGrantedEvent {
	var payloads []string
	if err := s.Kernel.DB.Raw("SELECT payload FROM events_outbox WHERE name = ? ORDER BY created_at", EventMakeGoodGranted).Scan(&payloads).Error; err != nil {
		t.Fatal(err)
	}
	out := make([]MakeGoodGrantedEvent, len(payloads))
	for i, p := range payloads {
		if err := json.Unmarshal([]byte(p), &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestMakeGoods(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		bill := testkit.ModuleOf[*billing.Module](t, f.s).Service()
		credit := func() money.Cents {
			v, err := bill.AccountCredit(t.Context(), f.advAcc.CompanyID)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		id := f.ids["Summer Sale"] // completed: its weeks have finished and were paid
		wk := mgWeeks(t, f.adv, id)[0]
		plan, price := wk.ProductOoh, wk.OfferPrice
		if plan <= 0 || wk.ActImp == nil || wk.DeliveryPct == nil || wk.DeliveryDiff == nil || *wk.DeliveryDiff != *wk.ActImp-plan {
			t.Fatalf("week = %+v", wk)
		}
		deliver := func(c *testkit.Client, v int64) *testkit.Response {
			return c.Put("/api/admin/campaigns/week/"+wk.ID+"/delivery", DeliveryUpdate{ActImp: v})
		}

		// Absurd and negative impressions are refused, naming the limit.
		r := deliver(f.admin, plan*10+1).Expect(t, 400)
		if m := r.Map(t); m["message"] != MsgActImpAboveLimit(plan*10) || !strings.Contains(string(r.Body), `"act_imp"`) || !strings.Contains(m["message"].(string), makegood.GroupDigits(plan*10)) {
			t.Fatalf("10x = %s", r.Body)
		}
		deliver(f.admin, -1).Expect(t, 400)
		deliver(f.adv, plan/2).Expect(t, 403)

		// A short finished week: credit, event, email, detail, week row.
		if credit() != 0 {
			t.Fatalf("credit before = %v", credit())
		}
		deliver(f.admin, plan/2).Expect(t, 200)
		want := makegood.Credit(price, plan, plan/2, 90)
		if want == 0 || credit() != want {
			t.Fatalf("credit = %v, want %v", credit(), want)
		}
		d := mgDetail(t, f.adv, id)
		if len(d.MakeGoods) != 1 || d.MakeGoods[0].Credit != want || d.MakeGoods[0].WeekID != wk.ID || d.MakeGoods[0].Status != MakeGoodGranted || d.MakeGoodThreshold != 90 ||
			len(d.Chart.PlanFloor) != len(d.Chart.Minimum) || d.Chart.PlanFloor[0] != d.Chart.Minimum[0]*90/100 {
			t.Fatalf("detail = %+v %+v", d.MakeGoods, d.Chart)
		}
		mgID := d.MakeGoods[0].ID
		if w := mgWeeks(t, f.adv, id)[0]; w.MakeGood == nil || w.MakeGood.Credit != want || *w.DeliveryPct != 50 {
			t.Fatalf("week row = %+v", w)
		}
		if ev := grantedEvents(t, f.s); len(ev) != 1 || ev[0] != (MakeGoodGrantedEvent{CampaignID: id, CompanyID: f.advAcc.CompanyID, WeekID: wk.ID, CreditCents: int64(want), MakeGoodID: mgID}) {
			t.Fatalf("events = %+v", ev)
		}
		mails := f.s.DeliverMail(t)
		if len(mails) != 1 || !strings.Contains(mails[0], "make-good credit for your campaign Summer Sale") || !strings.Contains(mails[0], "ada@campaigns.test") {
			t.Fatalf("mails = %q", mails)
		}
		// The ledger names the week.
		var ledger pagination.Page[billing.Transaction]
		f.admin.Get("/api/admin/transactions?company="+f.advAcc.CompanyID).Expect(t, 200).JSON(t, &ledger)
		found := false
		for _, tx := range ledger.Items {
			if tx.Kind == billing.KindCredit && tx.Amount == want && tx.Week != nil && tx.Week.Equal(wk.StartAt) && strings.Contains(tx.Description, "Make-good") {
				found = true
			}
		}
		if !found {
			t.Fatalf("ledger = %+v", ledger.Items)
		}

		granted := testkit.ParseMail(t, mails[0], f.s.Kernel.Config.BaseURL)
		if !strings.Contains(granted.HTML, ">"+makegood.CreditString(int64(want))+"</td>") {
			t.Fatalf("the make-good email's figures lack the credit %s:\n%s", makegood.CreditString(int64(want)), granted.HTML)
		}

		// Once per week: the same figure again changes nothing; corrections move the credit by
		// the difference, up and down, without a second make-good or event. Each correction that
		// changes the credit emails a short correction (else the first email would go on promising
		// a credit the page no longer shows).
		deliver(f.admin, plan/2).Expect(t, 200)
		if n := len(f.s.DeliverMail(t)); n != 1 {
			t.Fatalf("the same figure again sent %d emails", n-1)
		}
		was := want
		deliver(f.admin, plan*3/10).Expect(t, 200)
		if want = makegood.Credit(price, plan, plan*3/10, 90); credit() != want {
			t.Fatalf("corrected down: credit = %v, want %v", credit(), want)
		}
		mails = f.s.DeliverMail(t)
		corr := testkit.ParseMail(t, mails[len(mails)-1], f.s.Kernel.Config.BaseURL)
		if len(mails) != 2 || !strings.HasPrefix(corr.Subject, "Correction: your make-good credit for Summer Sale") ||
			!strings.Contains(corr.Text, "changed from "+makegood.CreditString(int64(was))+" to "+makegood.CreditString(int64(want))) ||
			!strings.Contains(corr.HTML, ">"+makegood.CreditString(int64(want))+"</td>") || !strings.Contains(mails[len(mails)-1], "ada@campaigns.test") {
			t.Fatalf("correction email: %d emails, last %s\n%s", len(mails), corr.Subject, corr.Text)
		}
		deliver(f.admin, plan).Expect(t, 200)
		if credit() != 0 {
			t.Fatalf("corrected to plan: credit = %v", credit())
		}
		deliver(f.admin, plan*6/10).Expect(t, 200)
		if want = makegood.Credit(price, plan, plan*6/10, 90); credit() != want {
			t.Fatalf("corrected again: credit = %v, want %v", credit(), want)
		}
		if d = mgDetail(t, f.adv, id); len(d.MakeGoods) != 1 || d.MakeGoods[0].Credit != want || len(grantedEvents(t, f.s)) != 1 || len(f.s.DeliverMail(t)) != 4 {
			t.Fatalf("after corrections: %+v", d.MakeGoods)
		}

		// A correction stands when its email cannot be queued (DESIGN §1.14): the outbox table is
		// moved away, for real, for the one call.
		gdb := f.s.Kernel.DB
		if err := gdb.Exec("ALTER TABLE mail_outbox RENAME TO mail_outbox_away").Error; err != nil {
			t.Fatal(err)
		}
		cut := deliver(f.admin, plan*7/10)
		if err := gdb.Exec("ALTER TABLE mail_outbox_away RENAME TO mail_outbox").Error; err != nil {
			t.Fatal(err)
		}
		cut.Expect(t, 200)
		if want = makegood.Credit(price, plan, plan*7/10, 90); credit() != want {
			t.Fatalf("a correction whose email could not be queued: credit = %v, want %v", credit(), want)
		}

		// A take-back never goes below what was spent: the company spent all but $1; a
		// correction to plan takes the $1 and records the clamp.
		if _, err := bill.SpendCredit(t.Context(), billing.CreditRequest{Key: "test:spend", CompanyID: f.advAcc.CompanyID, Amount: want - 100}); err != nil {
			t.Fatal(err)
		}
		deliver(f.admin, plan).Expect(t, 200)
		d = mgDetail(t, f.adv, id)
		if credit() != 0 || d.MakeGoods[0].Credit != want-100 || d.MakeGoods[0].Clamped != want-100 || d.MakeGoods[0].Target != 0 {
			t.Fatalf("clamped: credit %v, make-good %+v", credit(), d.MakeGoods[0])
		}

		// Admins see every company's make-goods; advertisers may not.
		f.adv.Get("/api/admin/make-goods").Expect(t, 403)
		var list MakeGoodList
		f.admin.Get("/api/admin/make-goods?status=granted").Expect(t, 200).JSON(t, &list)
		if list.Total != 1 || list.Items[0].CompanyName != "Sunrise Coffee" || list.Items[0].CampaignName != "Summer Sale" {
			t.Fatalf("admin list = %+v", list)
		}
		f.admin.Get("/api/admin/make-goods?status=nope").Expect(t, 400)

		// Waive: a reason is required; the credit is taken back (clamped: none is left); audited;
		// once; later corrections move nothing.
		deliver(f.admin, plan/2).Expect(t, 200) // back to a shortfall: the credit is topped up
		if credit() != makegood.Credit(price, plan, plan/2, 90)-(want-100) {
			t.Fatalf("topped up: credit = %v", credit())
		}
		f.adv.Put("/api/admin/make-goods/"+mgID+"/waive", WaiveRequest{Reason: "x"}).Expect(t, 403)
		expectMessage(t, f.admin.Put("/api/admin/make-goods/"+mgID+"/waive", WaiveRequest{Reason: " "}), 400, MsgWaiveReasonRequired)
		f.admin.Put("/api/admin/make-goods/nope/waive", WaiveRequest{Reason: "x"}).Expect(t, 404)
		var wr WaiveResponse
		f.admin.Put("/api/admin/make-goods/"+mgID+"/waive", WaiveRequest{Reason: "The face was dark for a storm, agreed with the client."}).Expect(t, 200).JSON(t, &wr)
		if wr.MakeGood == nil || wr.MakeGood.Status != MakeGoodWaived || credit() != 0 {
			t.Fatalf("waived: %+v, credit %v", wr.MakeGood, credit())
		}
		expectMessage(t, f.admin.Put("/api/admin/make-goods/"+mgID+"/waive", WaiveRequest{Reason: "again"}), 409, MsgMakeGoodWaivedAlready)
		deliver(f.admin, 0).Expect(t, 200)
		if credit() != 0 {
			t.Fatalf("after waiver and correction: credit = %v", credit())
		}
		var entries pagination.Page[audit.Entry]
		f.admin.Get("/api/admin/audit/?sort=-created_at").Expect(t, 200).JSON(t, &entries)
		waived := false
		for _, e := range entries.Items {
			if e.Action == AuditMakeGoodWaive && e.ObjectID == mgID && strings.Contains(string(e.After), "storm") {
				waived = true
			}
		}
		if !waived {
			t.Fatalf("no waiver in the audit log: %+v", entries.Items)
		}

		// Another company's campaign and its make-goods answer 404.
		f.other.Get("/api/campaigns/"+id).Expect(t, 404)
		f.other.Get("/api/campaigns/"+id+"/weeks").Expect(t, 404)

		// A week recorded short before it finished: nothing yet; the job grants it once it has
		// finished, once.
		hid := f.ids["Holiday Coffee Push"]
		var cur Week
		for _, w := range mgWeeks(t, f.adv, hid) {
			if !f.m.assure.weekFinished(storeWeekOf(w)) {
				cur = w
				break
			}
		}
		f.admin.Put("/api/admin/campaigns/week/"+cur.ID+"/delivery", DeliveryUpdate{ActImp: cur.ProductOoh / 4}).Expect(t, 200)
		if d := mgDetail(t, f.adv, hid); len(d.MakeGoods) != 0 {
			t.Fatalf("unfinished week got a make-good: %+v", d.MakeGoods)
		}
		// A deleted campaign's short week is never granted (nor retried forever by the job).
		aid := f.ids["Always On"]
		for _, w := range mgWeeks(t, f.adv, aid) {
			if !f.m.assure.weekFinished(storeWeekOf(w)) && !w.StartAt.After(dates.Today(f.s.Clock)) {
				f.admin.Put("/api/admin/campaigns/week/"+w.ID+"/delivery", DeliveryUpdate{ActImp: 0}).Expect(t, 200)
			}
		}
		f.adv.Delete("/api/campaigns/"+aid+"?reason=test").Expect(t, 200)
		f.s.Clock.Advance(8 * 24 * time.Hour)
		f.adv.SessionAs(f.s, f.advAcc.UserID) // a week later: a fresh session
		res, err := f.m.RunMakeGoods(t.Context())
		if err != nil || res.Granted != 1 || res.Candidates != 1 || res.Failed != 0 {
			t.Fatalf("job = %+v, %v", res, err)
		}
		again, err := f.m.RunMakeGoods(t.Context())
		if err != nil || again.Granted != 0 || again.Candidates != 0 {
			t.Fatalf("second run = %+v, %v", again, err)
		}
		d = mgDetail(t, f.adv, hid)
		found = false
		for _, mg := range d.MakeGoods {
			if mg.WeekID == cur.ID && mg.Credit == makegood.Credit(cur.OfferPrice, cur.ProductOoh, cur.ProductOoh/4, 90) {
				found = true
			}
		}
		if !found {
			t.Fatalf("job's make-good missing: %+v", d.MakeGoods)
		}
	})
}

// The property: over random deliveries and corrections of several weeks, each week's net credit
// equals the policy applied to its last recorded delivery, to the cent, and the account credit is
// their sum; with random spending in between, a take-back that falls short leaves no credit.
func TestMakeGoodCreditProperty(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		bill := testkit.ModuleOf[*billing.Module](t, f.s).Service()
		rng := rand.New(rand.NewPCG(17, uint64(len(dialect))))
		var weeks []Week
		for _, name := range []string{"Summer Sale", "Holiday Coffee Push"} {
			for _, w := range mgWeeks(t, f.adv, f.ids[name]) {
				if f.m.assure.weekFinished(storeWeekOf(w)) && w.ProductOoh > 0 {
					weeks = append(weeks, w)
				}
			}
		}
		if len(weeks) < 3 {
			t.Fatalf("finished weeks: %d", len(weeks))
		}
		last := map[string]int64{}
		spent := int64(0)
		for step := 0; step < 60; step++ {
			w := weeks[rng.IntN(len(weeks))]
			v := rng.Int64N(w.ProductOoh*12/10 + 1)
			f.admin.Put("/api/admin/campaigns/week/"+w.ID+"/delivery", DeliveryUpdate{ActImp: v}).Expect(t, 200)
			last[w.ID] = v
			bal, _ := bill.AccountCredit(t.Context(), f.advAcc.CompanyID)
			if step%7 == 6 && bal > 1 {
				amt := money.Cents(rng.Int64N(int64(bal)) + 1)
				if _, err := bill.SpendCredit(t.Context(), billing.CreditRequest{Key: "prop:spend:" + dialect + ":" + string(rune('a'+step)), CompanyID: f.advAcc.CompanyID, Amount: amt}); err != nil {
					t.Fatal(err)
				}
				spent += int64(amt)
			}
			var sumNet int64
			clampedAny := false
			for _, name := range []string{"Summer Sale", "Holiday Coffee Push"} {
				for _, mg := range mgDetail(t, f.adv, f.ids[name]).MakeGoods {
					target := makegood.Credit(mg.Price, mg.Planned, last[mg.WeekID], 90)
					if mg.Target != target {
						t.Fatalf("step %d: target %v, policy %v", step, mg.Target, target)
					}
					if mg.Credit != target && mg.Credit < target {
						t.Fatalf("step %d: credit %v below the policy's %v", step, mg.Credit, target)
					}
					if mg.Credit > target {
						clampedAny = true
					}
					sumNet += int64(mg.Credit)
				}
			}
			bal, _ = bill.AccountCredit(t.Context(), f.advAcc.CompanyID)
			if int64(bal) != sumNet-spent {
				t.Fatalf("step %d: balance %v, make-goods net %v − spent %v", step, bal, sumNet, spent)
			}
			if clampedAny && spent == 0 {
				t.Fatalf("step %d: a make-good above its policy without any spending", step)
			}
		}
	})
}

// storeWeekOf is the part of a week row weekFinished reads.
func storeWeekOf(w Week) *store.Week { return &store.Week{EndAt: w.EndAt, StartAt: w.StartAt} }
