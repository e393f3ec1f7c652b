package campaigns

import (
	"bytes"
	"fmt"
	"image/png"
	"slices"
	"strings"
	"testing"

	"marquee/modules/billing"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/audit"
	"marquee/platform/dates"
	"marquee/platform/pagination"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// manageFixture is a running app with faces, a card on file for the advertiser and demo-style
// campaigns, and a client per role.
type manageFixture struct {
	s                 *testkit.Server
	m                 *Module
	loc               *locations.Module
	adv, other, admin *testkit.Client
	advAcc, otherAcc  server.DemoAccount
	ids               map[string]string // campaign name → id
}

func startManage(t *testing.T, dialect string) *manageFixture {
	t.Helper()
	s := testkit.Start(t, dialect, server.Compose(Component))
	f := &manageFixture{s: s, ids: map[string]string{}, m: testkit.ModuleOf[*Module](t, s), loc: testkit.ModuleOf[*locations.Module](t, s)}
	ids := testkit.ModuleOf[*identity.Module](t, s).Service()
	user := func(email, company, role string) (*testkit.Client, server.DemoAccount) {
		u, _, err := ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: email, Password: "campaigns password 1", Role: role, CompanyName: company, FirstName: "Ada", LastName: "Lovelace"})
		if err != nil {
			t.Fatal(err)
		}
		c := s.Client(t)
		c.SessionAs(s, u.ID)
		return c, server.DemoAccount{UserID: u.ID, CompanyID: u.Company.ID, Email: email}
	}
	f.adv, f.advAcc = user("ada@campaigns.test", "Sunrise Coffee", identity.RoleUser)
	f.other, f.otherAcc = user("bob@campaigns.test", "Other Co", identity.RoleUser)
	f.admin, _ = user("admin@campaigns.test", "Marquee", identity.RoleAdmin)
	today := dates.Today(s.Clock)
	if _, err := f.loc.GenerateInventory(t.Context(), locations.GenerateOptions{Markets: []string{"SF Bay Area"}, FacesPerMarket: 60, Seed: 7, Weeks: today.WeekStart().AddWeeks(-4).Weeks(12)}); err != nil {
		t.Fatal(err)
	}
	// A card on file, so the weekly job can charge (sandbox test card).
	var tok billing.CardToken
	f.adv.Post("/api/sandbox/tokens", billing.SandboxTokenRequest{Number: "4242424242424242", ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2, CVC: "123"}).Expect(t, 200).JSON(t, &tok)
	f.adv.Post("/api/cards", billing.AddCardRequest{Token: tok.ID, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}).Expect(t, 201)
	fs, err := f.loc.Service().Locations(t.Context(), locations.LocationQuery{Markets: []string{"SF Bay Area"}})
	if err != nil || len(fs) < 40 {
		t.Fatalf("faces: %d %v", len(fs), err)
	}
	for i, d := range []demoCampaign{
		{"advertiser", "Holiday Coffee Push", "SF Bay Area", 3, 0, -1, 4, StatusActive, FrequencyWeekly, "succeeded", ""},
		{"advertiser", "Weekend Brunch", "SF Bay Area", 2, 5, -1, 4, StatusPaused, FrequencyWeekly, "succeeded", ""},
		{"advertiser", "Summer Sale", "SF Bay Area", 2, 10, -4, 2, StatusCompleted, FrequencyWeekly, "succeeded", ""},
		{"advertiser", "Spring Launch", "SF Bay Area", 2, 15, 2, 2, StatusPending, FrequencyWeekly, "pending", ""},
		{"advertiser", "Always On", "SF Bay Area", 2, 20, -1, 2, StatusActive, FrequencyOngoing, "succeeded", ""},
		{"other", "Other Campaign", "SF Bay Area", 2, 30, -1, 3, StatusActive, FrequencyWeekly, "succeeded", ""},
	} {
		acc := f.advAcc
		if d.account == "other" {
			acc = f.otherAcc
		}
		id := demoID("test", fmt.Sprint(i))
		if err := f.m.svc.seedCampaign(t.Context(), id, acc, d, fs[d.faceSkip:d.faceSkip+d.faces], today.WeekStart().AddWeeks(d.offset), true); err != nil {
			t.Fatal(err)
		}
		f.ids[d.name] = id
	}
	return f
}

func expectMessage(t *testing.T, r *testkit.Response, status int, msg string) {
	t.Helper()
	r.Expect(t, status)
	if got, _ := r.Map(t)["message"].(string); got != msg {
		t.Fatalf("message = %q, want %q (%s)", got, msg, r.Body)
	}
}

func TestManageCampaigns(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		adv, other, admin := f.adv, f.other, f.admin

		// List, search, status filter, totals; another company's are not there.
		var list CampaignList
		adv.Get("/api/campaigns").Expect(t, 200).JSON(t, &list)
		if list.Total != 5 || len(list.Items) != 5 || list.Totals.TotalActImp == 0 || list.Totals.WeeklyBudget == 0 || list.PageSize != 50 {
			t.Fatalf("list = %+v", list)
		}
		adv.Get("/api/campaigns?status=Active&q=coffee").Expect(t, 200).JSON(t, &list)
		if list.Total != 1 || list.Items[0].Name != "Holiday Coffee Push" || list.Items[0].CampaignType != CampaignTypePremium || list.Items[0].CompanyName != "Sunrise Coffee" {
			t.Fatalf("filtered = %+v", list)
		}
		adv.Get("/api/campaigns?status=pending").Expect(t, 200).JSON(t, &list)
		if list.Total != 1 {
			t.Fatalf("pending = %+v", list)
		}
		adv.Get("/api/campaigns?status=nope").Expect(t, 400)
		adv.Get("/api/campaigns?page_size=7").Expect(t, 400)
		var cnt Count
		adv.Get("/api/campaigns/count").Expect(t, 200).JSON(t, &cnt)
		if cnt != (Count{Pending: 1, Active: 2, Completed: 1, Paused: 1, Total: 5}) {
			t.Fatalf("count = %+v", cnt)
		}

		// Detail: chart, proofs, flags; another company's answers 404.
		id := f.ids["Holiday Coffee Push"]
		var d CampaignDetail
		adv.Get("/api/campaigns/"+id).Expect(t, 200).JSON(t, &d)
		// Duration 4: the weeks up to and including the current one (B §9).
		if len(d.Chart.Labels) != 2 || d.Chart.Labels[0] != "Week 1" || d.Chart.Minimum[0] == 0 || d.Chart.Actual[0] == nil || len(d.Locations) != 3 || d.Editable ||
			!d.CanPause || d.CanResume || !d.CanStop || d.ImminentEnd || len(d.Proofs) != 1 {
			t.Fatalf("detail = %+v", d)
		}
		other.Get("/api/campaigns/"+id).Expect(t, 404)
		other.Delete("/api/campaigns/"+id).Expect(t, 404)
		other.Put("/api/campaigns/"+id+"/pause", nil).Expect(t, 404)
		var weeks struct {
			Items []Week `json:"items"`
			Total int64  `json:"total"`
		}
		adv.Get("/api/campaigns/"+id+"/weeks").Expect(t, 200).JSON(t, &weeks)
		if weeks.Total != 12 || len(weeks.Items) != 10 {
			t.Fatalf("weeks = %d, %d", weeks.Total, len(weeks.Items))
		}
		other.Get("/api/campaigns/"+id+"/weeks").Expect(t, 404)

		// Pause, pause again, resume; a completed campaign can't be paused.
		var act ActionResponse
		adv.Put("/api/campaigns/"+id+"/pause", nil).Expect(t, 200).JSON(t, &act)
		if act.Status != StatusPaused {
			t.Fatalf("pause = %+v", act)
		}
		expectMessage(t, adv.Put("/api/campaigns/"+id+"/pause", nil), 400, MsgCannotPause)
		expectMessage(t, adv.Put("/api/campaigns/"+f.ids["Summer Sale"]+"/pause", nil), 400, MsgCannotPause)
		adv.Put("/api/campaigns/"+id+"/resume", nil).Expect(t, 200).JSON(t, &act)
		if act.Status != StatusActive {
			t.Fatalf("resume = %+v", act)
		}
		expectMessage(t, adv.Put("/api/campaigns/"+id+"/resume", nil), 400, MsgCannotResume)

		// Delivery and proofs (admin): the chart and the totals follow.
		wk := weeks.Items[0]
		adv.Put("/api/admin/campaigns/week/"+wk.ID+"/delivery", DeliveryUpdate{ActImp: 5}).Expect(t, 403)
		admin.Put("/api/admin/campaigns/week/"+wk.ID+"/delivery", DeliveryUpdate{ActImp: -1}).Expect(t, 400)
		admin.Put("/api/admin/campaigns/week/"+wk.ID+"/delivery", DeliveryUpdate{ActImp: 123456}).Expect(t, 200)
		var proofsBefore = len(d.Proofs)
		var proof bytes.Buffer
		_ = png.Encode(&proof, proofImage(1))
		admin.Upload("/api/admin/campaigns/week/"+wk.ID+"/proofs", "file", testkit.File{Name: "proof.png", Body: proof.Bytes()}).Expect(t, 200)
		adv.Get("/api/campaigns/"+id).Expect(t, 200).JSON(t, &d)
		if len(d.Proofs) != proofsBefore+1 || d.TotalActImp == 0 || d.Chart.Actual[0] == nil {
			t.Fatalf("after delivery: proofs %d, act %d, chart %+v", len(d.Proofs), d.TotalActImp, d.Chart)
		}
		adv.Get(d.Proofs[len(d.Proofs)-1].URL).Expect(t, 200)
		admin.Delete("/api/admin/campaigns/proofs/"+d.Proofs[len(d.Proofs)-1].ID).Expect(t, 200)
		admin.Delete("/api/admin/campaigns/proofs/"+d.Proofs[len(d.Proofs)-1].ID).Expect(t, 404)

		// Creative changes: another company's or an unknown creative answers 404.
		adv.Put("/api/campaigns/"+id+"/creative", CreativeChange{CreativeID: "nope"}).Expect(t, 404)
		adv.Put("/api/campaigns/week/"+wk.ID+"/creative", CreativeChange{CreativeID: "nope"}).Expect(t, 404)
		other.Put("/api/campaigns/week/"+wk.ID+"/creative", CreativeChange{CreativeID: "nope"}).Expect(t, 404)

		// Admin grid: every company, start date newest first; advertisers are refused.
		adv.Get("/api/admin/campaigns/").Expect(t, 403)
		admin.Get("/api/admin/campaigns/").Expect(t, 200).JSON(t, &list)
		if list.Total != 6 || list.Items[0].StartDate.Before(list.Items[len(list.Items)-1].StartDate) {
			t.Fatalf("admin grid = %+v", list)
		}

		// Admin weeks update: two ranges for one product are refused; a move books the new week.
		future := weeks.Items[len(weeks.Items)-1]
		for _, w := range weeks.Items {
			if w.StartAt.After(future.StartAt) {
				future = w
			}
		}
		expectMessage(t, admin.Put("/api/admin/campaigns/weeks/"+id, WeeksUpdate{Weeks: []WeekMove{
			{ID: future.ID, ProductID: future.ProductID, StartAt: "2026-12-07", EndAt: "2026-12-13"},
			{ID: weeks.Items[0].ID, ProductID: future.ProductID, StartAt: "2026-12-14", EndAt: "2026-12-20"},
		}}), 400, MsgWeeksInconsistent)
		newStart := future.StartAt.AddWeeks(2)
		expectMessage(t, admin.Put("/api/admin/campaigns/weeks/"+id, WeeksUpdate{Weeks: []WeekMove{
			{ID: future.ID, ProductID: future.ProductID, StartAt: newStart.String(), EndAt: newStart.AddDays(6).String()},
		}}), 200, MsgWeeksUpdated)
		adv.Get("/api/campaigns/"+id).Expect(t, 200).JSON(t, &d)
		if !d.EndDate.Equal(newStart.AddDays(6)) {
			t.Fatalf("end after move = %s, want %s", d.EndDate, newStart.AddDays(6))
		}

		// Update mailer: the advertiser gets the mail.
		expectMessage(t, admin.Post("/api/campaigns/update/mailer/", UpdateMailerRequest{CampaignID: id, Message: "We moved a week."}), 200, MsgMailerSent)
		mails := f.s.DeliverMail(t)
		if len(mails) == 0 || !strings.Contains(mails[len(mails)-1], "ada@campaigns.test") || !strings.Contains(mails[len(mails)-1], "We moved a week.") {
			t.Fatalf("mailer mail missing: %d", len(mails))
		}

		// Stop: completed, one-time, weeks not charged released; a second stop changes nothing.
		spotsBefore, _ := f.loc.Service().SpotsByRefs(t.Context(), f.advAcc.CompanyID, []string{id})
		adv.Put("/api/campaigns/"+id+"/stop", nil).Expect(t, 200).JSON(t, &act)
		if act.Status != StatusCompleted {
			t.Fatalf("stop = %+v", act)
		}
		spotsAfter, _ := f.loc.Service().SpotsByRefs(t.Context(), f.advAcc.CompanyID, []string{id})
		if len(spotsAfter) >= len(spotsBefore) {
			t.Fatalf("stop released nothing: %d → %d spots", len(spotsBefore), len(spotsAfter))
		}
		adv.Put("/api/campaigns/"+id+"/stop", nil).Expect(t, 200).JSON(t, &act)
		adv.Get("/api/campaigns/"+id).Expect(t, 200).JSON(t, &d)
		if act.Status != StatusCompleted || d.Frequency != FrequencyOneTime || d.CanStop || d.CanPause {
			t.Fatalf("second stop = %+v, detail %+v", act, d.Campaign)
		}

		// Delete with a reason: hidden from the lists, 404 after; its future spots freed.
		pid := f.ids["Spring Launch"]
		adv.Delete("/api/campaigns/"+pid+"?reason="+"changed+plans&refund=true").Expect(t, 200).JSON(t, &act)
		adv.Get("/api/campaigns/"+pid).Expect(t, 404)
		adv.Delete("/api/campaigns/"+pid).Expect(t, 404)
		if spots, _ := f.loc.Service().SpotsByRefs(t.Context(), f.advAcc.CompanyID, []string{pid}); len(spots) != 0 {
			t.Fatalf("deleted campaign keeps %d spots", len(spots))
		}
		adv.Get("/api/campaigns/count").Expect(t, 200).JSON(t, &cnt)
		if cnt.Total != 4 || cnt.Pending != 0 {
			t.Fatalf("count after delete = %+v", cnt)
		}
		// delete-ac frees the spots of the weeks to come and keeps the campaign.
		bid := f.ids["Weekend Brunch"]
		adv.Put("/api/campaigns/"+bid+"/delete-ac", nil).Expect(t, 200)
		adv.Get("/api/campaigns/"+bid).Expect(t, 200)

		// The admin's changes are in the audit log (DESIGN.md §1.12), oldest first; the
		// advertiser's own pause, stop and delete are not admin changes.
		var entries pagination.Page[audit.Entry]
		admin.Get("/api/admin/audit/?sort=created_at").Expect(t, 200).JSON(t, &entries)
		var actions []string
		for _, e := range entries.Items {
			actions = append(actions, e.Action)
		}
		if want := []string{AuditWeekDelivery, AuditWeekProofs, AuditProofDelete, AuditCampaignWeeks}; !slices.Equal(actions, want) {
			t.Fatalf("audit actions = %v, want %v", actions, want)
		}
		if e := entries.Items[0]; e.ObjectID != wk.ID || string(e.After) != `{"act_imp":123456}` {
			t.Fatalf("delivery entry = %+v", e)
		}
	})
}

func TestWeeklyJob(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		ctx := t.Context()
		// Thursday after the start: the next Monday is past its cut-off.
		f.s.Clock.Advance(4 * 24 * 3600 * 1e9)
		res, err := f.m.RunLifecycle(ctx)
		if err != nil || res.Failed != 0 {
			t.Fatalf("run: %+v %v", res, err)
		}
		// The active weekly campaign's next week is charged, the ongoing one booked and charged,
		// the paused one's week skipped, the other company's (no card) fails and is retried.
		if res.Booked != 1 || res.Skipped < 1 || res.Charged < 2 {
			t.Fatalf("first run = %+v", res)
		}
		again, err := f.m.RunLifecycle(ctx)
		if err != nil || again.Charged != 0 || again.Booked != 0 || again.Skipped != 0 || again.Completed != 0 {
			t.Fatalf("second run did something: %+v %v", again, err)
		}
		var d CampaignDetail
		f.adv.SessionAs(f.s, f.advAcc.UserID)
		f.adv.Get("/api/campaigns/"+f.ids["Always On"]).Expect(t, 200).JSON(t, &d)
		if d.EndDate.Weekday() != 0 || !d.EndDate.After(dates.Today(f.s.Clock).AddDays(3)) {
			t.Fatalf("ongoing end = %s", d.EndDate)
		}
		// Weeks later, the finite campaigns have completed; the ongoing one runs on.
		f.s.Clock.Advance(5 * 7 * 24 * 3600 * 1e9)
		for i := 0; i < 6; i++ {
			if _, err := f.m.RunLifecycle(ctx); err != nil {
				t.Fatal(err)
			}
		}
		f.adv.SessionAs(f.s, f.advAcc.UserID)
		f.adv.Get("/api/campaigns/"+f.ids["Holiday Coffee Push"]).Expect(t, 200).JSON(t, &d)
		if d.Status != StatusCompleted {
			t.Fatalf("finite campaign = %s", d.Status)
		}
		f.adv.Get("/api/campaigns/"+f.ids["Always On"]).Expect(t, 200).JSON(t, &d)
		if d.Status != StatusActive {
			t.Fatalf("ongoing campaign = %s", d.Status)
		}
	})
}

// A campaign paused over a cut-off resumes from the next week not yet past its cut-off: the week
// that passed its cut-off while paused is skipped (spots freed, never charged).
func TestResumeAfterCutOff(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		id := f.ids["Holiday Coffee Push"]
		f.adv.Put("/api/campaigns/"+id+"/pause", nil).Expect(t, 200)
		before, _ := f.loc.Service().SpotsByRefs(t.Context(), f.advAcc.CompanyID, []string{id})
		// Thursday: the week of 11-30 is past its cut-off.
		f.s.Clock.Advance(4 * 24 * 3600 * 1e9)
		f.adv.SessionAs(f.s, f.advAcc.UserID)
		var act ActionResponse
		f.adv.Put("/api/campaigns/"+id+"/resume", nil).Expect(t, 200).JSON(t, &act)
		if act.Status != StatusActive {
			t.Fatalf("resume = %+v", act)
		}
		after, _ := f.loc.Service().SpotsByRefs(t.Context(), f.advAcc.CompanyID, []string{id})
		if len(before)-len(after) != 3 {
			t.Fatalf("spots %d → %d, want 3 freed", len(before), len(after))
		}
		charges, err := f.m.svc.store.ChargesOf(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		last := charges[len(charges)-1]
		if last.Week.String() != "2026-11-30" || last.Status != ChargeSkipped {
			t.Fatalf("last charge = %+v", last)
		}
		res, err := f.m.RunLifecycle(t.Context())
		if err != nil || res.Charged != 0 && res.Failed != 0 {
			t.Fatalf("job: %+v %v", res, err)
		}
		if rows, _ := f.m.svc.store.WeekRows(t.Context(), id, dates.MustParse("2026-11-30"), ""); len(rows) != 0 {
			t.Fatalf("skipped week keeps %d rows", len(rows))
		}
	})
}

// An ongoing campaign whose faces are sold out in its next week: the week is skipped, the job does
// not fail, and it is not tried again.
func TestOngoingWeekSoldOut(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		ctx := t.Context()
		id := f.ids["Always On"]
		next := dates.MustParse("2026-11-30")
		rows, err := f.m.svc.store.WeekRows(ctx, id, dates.MustParse("2026-11-16"), "")
		if err != nil || len(rows) == 0 {
			t.Fatalf("rows: %d %v", len(rows), err)
		}
		for _, r := range rows {
			q, err := f.loc.Service().Quote(ctx, locations.QuoteRequest{FaceIDs: []string{r.FaceID}, Weeks: []dates.Date{next}})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < q[0].AvailableSpots-q[0].UsedSpots; i++ {
				if _, err := f.loc.Service().Book(ctx, locations.ReserveRequest{Key: fmt.Sprintf("fill-%s-%d", r.FaceID, i), CompanyID: f.otherAcc.CompanyID,
					Ref: "fill", Items: []locations.FaceWeek{{FaceID: r.FaceID, Week: next}}}); err != nil {
					t.Fatal(err)
				}
			}
		}
		f.s.Clock.Advance(4 * 24 * 3600 * 1e9)
		res, err := f.m.RunLifecycle(ctx)
		if err != nil || res.Failed != 0 || res.Booked != 0 {
			t.Fatalf("run: %+v %v", res, err)
		}
		ch, err := f.m.svc.store.ChargeOf(ctx, id, next)
		if err != nil || ch.Status != ChargeSkipped {
			t.Fatalf("charge of the sold-out week = %+v %v", ch, err)
		}
		if again, _ := f.m.RunLifecycle(ctx); again.Booked != 0 || again.Skipped != 0 {
			t.Fatalf("second run: %+v", again)
		}
	})
}

// A week the job cannot charge (no card on file) pauses the campaign and mails the advertiser;
// nothing of the week is written and the next run leaves it alone.
func TestJobPausesWithoutCard(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		ctx := t.Context()
		id := f.ids["Other Campaign"]
		rows, err := f.m.svc.store.WeekRows(ctx, id, dates.MustParse("2026-11-23"), "")
		if err != nil || len(rows) == 0 {
			t.Fatalf("rows %d %v", len(rows), err)
		}
		next := dates.MustParse("2026-11-30")
		for i := range rows {
			rows[i].ID, rows[i].StartAt, rows[i].EndAt, rows[i].ActImp = demoID("extra", rows[i].ID), next, next.AddDays(6), nil
		}
		if err := f.m.svc.store.InsertWeekRows(ctx, rows); err != nil {
			t.Fatal(err)
		}
		f.s.DeliverMail(t)
		f.s.Clock.Advance(4 * 24 * 3600 * 1e9)
		res, err := f.m.RunLifecycle(ctx)
		if err != nil || res.Paused != 1 || res.Failed != 0 {
			t.Fatalf("run: %+v %v", res, err)
		}
		c, err := f.m.svc.store.CampaignByID(ctx, id)
		if err != nil || c.Status != StatusPaused || c.PaymentMessage != billing.MsgCardRequired {
			t.Fatalf("campaign = %+v %v", c, err)
		}
		if _, err := f.m.svc.store.ChargeOf(ctx, id, next); err == nil {
			t.Fatal("a charge row was written")
		}
		mails := f.s.DeliverMail(t)
		if len(mails) == 0 || !strings.Contains(mails[len(mails)-1], "bob@campaigns.test") {
			t.Fatalf("no mail to the advertiser (%d mails)", len(mails))
		}
		// Paused now: the next run skips the week instead.
		again, err := f.m.RunLifecycle(ctx)
		if err != nil || again.Paused != 0 || again.Skipped != 1 {
			t.Fatalf("second run: %+v %v", again, err)
		}
	})
}

// B §4: stop ('mark complete') is allowed from any live state, a campaign still
// waiting for its first payment included; the detail offers it.
func TestStopPendingCampaign(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		id := f.ids["Spring Launch"]
		var d CampaignDetail
		f.adv.Get("/api/campaigns/"+id).Expect(t, 200).JSON(t, &d)
		if d.Status != StatusPending || !d.CanStop {
			t.Fatalf("pending detail: status %q, can_stop %v", d.Status, d.CanStop)
		}
		f.other.Put("/api/campaigns/"+id+"/stop", nil).Expect(t, 404)
		var act ActionResponse
		f.adv.Put("/api/campaigns/"+id+"/stop", nil).Expect(t, 200).JSON(t, &act)
		f.adv.Get("/api/campaigns/"+id).Expect(t, 200).JSON(t, &d)
		if act.Status != StatusCompleted || act.Message != MsgStopped || d.Frequency != FrequencyOneTime || d.CanStop || d.CanPause {
			t.Fatalf("stopped pending: %+v, detail %+v", act, d.Campaign)
		}
	})
}
