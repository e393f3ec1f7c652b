package partners

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"marquee/modules/billing"
	"marquee/modules/identity"
	"marquee/modules/partners/internal/store"
	"marquee/platform/audit"
	"marquee/platform/events"
	"marquee/platform/httpx"
	"marquee/platform/ids"
	"marquee/platform/money"
	"marquee/platform/pagination"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// fixture is a running app with the partner program: an ambassador, a certified partner, a
// standard advertiser and a super admin.
type fixture struct {
	t                 *testing.T
	s                 *testkit.Server
	m                 *Module
	ids               identity.Service
	bill              billing.Service
	amb, cert, adv    *testkit.Client
	ambCo, certCo     string
	advCo             string
	ambUser, certUser string
	super             *testkit.Client
}

func start(t *testing.T, dialect string) *fixture {
	t.Helper()
	s := testkit.Start(t, dialect, server.Compose(Component))
	f := &fixture{t: t, s: s, m: testkit.ModuleOf[*Module](t, s), ids: testkit.ModuleOf[*identity.Module](t, s).Service(),
		bill: testkit.ModuleOf[*billing.Module](t, s).Service()}
	// The hooks cmd/marquee's wireHooks hands identity and billing.
	id, bill := testkit.ModuleOf[*identity.Module](t, s), testkit.ModuleOf[*billing.Module](t, s)
	id.SetCreditReader(bill.Service())
	id.SetBillingReader(bill.BillingReader())
	bill.SetRedeemHook(f.m)
	var ambU, certU *identity.User
	f.amb, ambU = f.user("amy@partners.test", "Amy Ambassadors", identity.RoleUser)
	f.cert, certU = f.user("carl@partners.test", "Certified Media", identity.RoleUser)
	f.adv, _ = f.user("dana@partners.test", "Dana Diner", identity.RoleUser)
	f.super, _ = f.user("super@partners.test", "Marquee", identity.RoleSuperAdmin)
	f.ambCo, f.certCo, f.ambUser, f.certUser = ambU.Company.ID, certU.Company.ID, ambU.ID, certU.ID
	u, _ := f.ids.FindUserByEmail(t.Context(), "dana@partners.test")
	f.advCo = u.Company.ID
	f.upgrade(f.ambCo, identity.CompanyAmbassador)
	f.upgrade(f.certCo, identity.CompanyCertified)
	return f
}

func (f *fixture) user(email, company, role string) (*testkit.Client, *identity.User) {
	f.t.Helper()
	u, _, err := f.ids.CreateUser(f.t.Context(), identity.CreateUserRequest{Email: email, Password: "partners password 1",
		FirstName: "Pat", LastName: strings.Split(email, "@")[0], Role: role, CompanyName: company})
	if err != nil {
		f.t.Fatal(err)
	}
	c := f.s.Client(f.t)
	c.SessionAs(f.s, u.ID)
	return c, u
}

// upgrade changes a company's type the way an admin's upgrade does, and delivers the event.
func (f *fixture) upgrade(companyID, to string) {
	f.t.Helper()
	if _, err := f.ids.ChangeCompanyType(f.t.Context(), companyID, to, true); err != nil {
		f.t.Fatal(err)
	}
	f.dispatch()
}

func (f *fixture) dispatch() {
	f.t.Helper()
	if _, err := f.s.Kernel.Events.Dispatch(f.t.Context()); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) partner(id string) store.Partner {
	f.t.Helper()
	var p store.Partner
	if err := f.s.Kernel.DB.WithContext(f.t.Context()).Where("id = ?", id).Take(&p).Error; err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) count(table string) int64 {
	f.t.Helper()
	var n int64
	if err := f.s.Kernel.DB.Table(table).Count(&n).Error; err != nil {
		f.t.Fatal(err)
	}
	return n
}

// addCard puts a sandbox test card on file for the client's company (4242… unless a number is
// given: each card number is one fingerprint).
func addCard(t *testing.T, c *testkit.Client, number ...string) {
	t.Helper()
	n := "4242424242424242"
	if len(number) > 0 {
		n = number[0]
	}
	cvc := "123"
	if len(n) == 15 {
		cvc = "1234" // American Express
	}
	var tok billing.CardToken
	c.Post("/api/sandbox/tokens", billing.SandboxTokenRequest{Number: n, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2, CVC: cvc}).Expect(t, 200).JSON(t, &tok)
	c.Post("/api/cards", billing.AddCardRequest{Token: tok.ID, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}).Expect(t, 201)
}

func errBody(t *testing.T, r *testkit.Response, status int) httpx.ErrorBody {
	t.Helper()
	var e httpx.ErrorBody
	r.Expect(t, status).JSON(t, &e)
	return e
}

var accessRE = regexp.MustCompile(`http://[^\s]+/access\?token=[A-Za-z0-9_-]+`)

func TestInvite(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		users, links := f.count("identity_users"), f.count("partners_links")

		// Bad input: nothing created (B §5).
		if e := errBody(t, f.amb.Post("/users/ambassador/invite", InviteRequest{FullName: "  ", Email: "new@client.test"}), 400); e.Message != MsgFullName || e.Errors["full_name"] != MsgFullName {
			t.Errorf("no name = %+v", e)
		}
		if e := errBody(t, f.amb.Post("/users/ambassador/invite", InviteRequest{FullName: "Cher", Email: "new@client.test"}), 400); e.Message != MsgFullNameWords {
			t.Errorf("one word = %+v", e)
		}
		if e := errBody(t, f.amb.Post("/users/ambassador/invite", InviteRequest{FullName: "Dana Other", Email: "dana@partners.test"}), 400); e.Message != identity.MsgEmailTaken {
			t.Errorf("existing email = %+v", e)
		}
		if e := errBody(t, f.amb.Post("/users/ambassador/invite", InviteRequest{FullName: "Dana Other", Email: "new@client.test", Company: "Dana Diner"}), 400); e.Message != identity.MsgCompanyTaken {
			t.Errorf("existing company = %+v", e)
		}
		f.cert.Post("/users/ambassador/invite", InviteRequest{FullName: "Nina New", Email: "new@client.test"}).Expect(t, 403)
		f.adv.Post("/users/ambassador/invite", InviteRequest{FullName: "Nina New", Email: "new@client.test"}).Expect(t, 403)
		if f.count("identity_users") != users || f.count("partners_links") != links {
			t.Fatal("a refused invitation left rows behind")
		}

		var res InviteResponse
		f.amb.Post("/users/ambassador/invite", InviteRequest{FullName: "Nina  New", Email: "nina@client.test", Company: "Nina's Noodles"}).Expect(t, 200).JSON(t, &res)
		if !res.Success || res.Message != MsgInvited || res.Client.Status != InviteInvited || res.Client.CompanyName != "Nina's Noodles" ||
			!res.Client.Linked.Active || res.Client.Linked.Expiration != res.Client.Started.AddDays(364) {
			t.Fatalf("invite = %+v %+v", res, res.Client)
		}
		mails := f.s.DeliverMail(t)
		if len(mails) == 0 || !strings.Contains(mails[len(mails)-1], "nina@client.test") || !accessRE.MatchString(mails[len(mails)-1]) {
			t.Fatalf("no access mail: %v", mails)
		}
		var list []LinkedCompany
		f.amb.Get("/api/special/invite").Expect(t, 200).JSON(t, &list)
		if len(list) != 1 || list[0].Email != "nina@client.test" || list[0].FullName != "Nina New" || list[0].Status != InviteInvited {
			t.Fatalf("invite list = %+v", list)
		}
		// The super admin reads any partner's clients; another partner reads none of them.
		f.super.Get("/api/special/invite?company="+f.ambCo).Expect(t, 200).JSON(t, &list)
		if len(list) != 1 {
			t.Errorf("admin's list = %+v", list)
		}
		f.cert.Get("/api/special/invite").Expect(t, 200).JSON(t, &list)
		if len(list) != 0 {
			t.Errorf("another partner sees %+v", list)
		}
		f.adv.Get("/api/special/invite").Expect(t, 403)
		f.super.Get("/api/special/invite?company="+f.advCo).Expect(t, 404)

		// Resend: a fresh link by mail; another partner's invitation, or an unknown one, is 404.
		var msg MessageResponse
		f.amb.Put("/api/special/ambassador/invite/"+res.Client.ID, nil).Expect(t, 200).JSON(t, &msg)
		if msg.Message != MsgInviteResent || len(f.s.DeliverMail(t)) != len(mails)+1 {
			t.Errorf("resend = %+v", msg)
		}
		other, _ := f.user("olga@partners.test", "Olga Outdoor", identity.RoleUser)
		u, _ := f.ids.FindUserByEmail(t.Context(), "olga@partners.test")
		f.upgrade(u.Company.ID, identity.CompanyAmbassador)
		other.Put("/api/special/ambassador/invite/"+res.Client.ID, nil).Expect(t, 404)
		f.amb.Put("/api/special/ambassador/invite/"+ids.New(), nil).Expect(t, 404)

		// The client sets a password through the emailed link (once): the invitation is active, and
		// resending it now answers the server's message.
		all := f.s.DeliverMail(t)
		link := accessRE.FindString(all[len(all)-1])
		token := link[strings.Index(link, "token=")+len("token="):]
		anon := f.s.Client(t)
		anon.Post("/users/set-first-password", identity.SetPasswordRequest{Token: token, Password: "nina's noodle password", FirstName: "Nina", LastName: "New"}).Expect(t, 200)
		anon.Post("/users/set-first-password", identity.SetPasswordRequest{Token: token, Password: "nina's noodle password", FirstName: "Nina", LastName: "New"}).Expect(t, 400)
		f.amb.Get("/api/special/invite").Expect(t, 200).JSON(t, &list)
		if list[0].Status != InviteActive {
			t.Errorf("after set-up: %+v", list[0])
		}
		if e := errBody(t, f.amb.Put("/api/special/ambassador/invite/"+res.Client.ID, nil), 409); e.Message != identity.MsgNotInvited {
			t.Errorf("resend after set-up = %+v", e)
		}
	})
}

func TestReferralCode(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		var hub HubResponse
		f.amb.Get("/api/special/hub").Expect(t, 200).JSON(t, &hub)
		if hub.Profile == nil || !strings.HasPrefix(hub.Profile.PromoCode, "REF-") || hub.Profile.Type != identity.CompanyAmbassador || hub.Profile.RatePercent != 10 {
			t.Fatalf("hub = %+v", hub.Profile)
		}
		var certHub HubResponse
		f.cert.Get("/api/special/hub").Expect(t, 200).JSON(t, &certHub)
		// Replaying the type change keeps the one code.
		f.upgradeAgain(f.ambCo)
		if p := f.partner(f.ambCo); p.PromoCode != hub.Profile.PromoCode {
			t.Errorf("code changed on replay: %s", p.PromoCode)
		}

		var red billing.RedeemPromoResponse
		addCard(t, f.adv)
		f.adv.Post("/api/promo/", billing.RedeemPromoRequest{Code: hub.Profile.PromoCode}).Expect(t, 200).JSON(t, &red)
		if !strings.HasPrefix(red.Message, billing.MsgPromoRedeemed) || !strings.Contains(red.Message, "now linked") || red.Amount != ReferralPromoValue {
			t.Fatalf("redeem = %+v", red)
		}
		// A second partner's code is refused: a company joins one partner only (DESIGN §1.13).
		if e := errBody(t, f.adv.Post("/api/promo/", billing.RedeemPromoRequest{Code: certHub.Profile.PromoCode}), 409); !strings.HasPrefix(e.Message, "Your company is already linked to a partner until") {
			t.Fatalf("second redeem = %+v", e)
		}
		l, err := f.m.svc.FindLink(t.Context(), f.advCo)
		if err != nil || l.Source != SourceReferral {
			t.Fatalf("link = %+v, %v", l, err)
		}
		if p := f.partner(f.ambCo); p.Linked != 1 {
			t.Errorf("linked = %d", p.Linked)
		}
		var page pagination.Page[*CodeRedemption]
		f.amb.Get("/api/special/codes").Expect(t, 200).JSON(t, &page)
		if page.Total != 1 || !page.Items[0].Linked || page.Items[0].CompanyName != "Dana Diner" || page.Items[0].LinkedUntil == nil {
			t.Fatalf("codes = %+v", page)
		}
		f.cert.Get("/api/special/codes?year="+fmt.Sprint(testkit.StartTime.Year())).Expect(t, 200).JSON(t, &page)
		if page.Total != 0 {
			t.Fatalf("second partner's codes = %+v", page.Items)
		}
		f.cert.Get("/api/special/codes?year=2017").Expect(t, 400)
		f.cert.Get("/api/special/codes?year=2019").Expect(t, 200).JSON(t, &page)
		if page.Total != 0 {
			t.Errorf("2019 = %+v", page)
		}
		f.amb.Get("/api/special/codes?sort=nope").Expect(t, 400)
		f.amb.Get("/api/special/codes?page_size=7").Expect(t, 400)
		f.amb.Get("/api/special/campaigns?year="+fmt.Sprint(testkit.StartTime.Year()+1)).Expect(t, 400)
		// A partner redeeming its own code is refused.
		if e := errBody(t, f.amb.Post("/api/promo/", billing.RedeemPromoRequest{Code: hub.Profile.PromoCode}), 403); e.Message != MsgReferralOwnCode {
			t.Errorf("own code = %+v", e)
		}
		if _, err := f.m.svc.FindLink(t.Context(), f.ambCo); err == nil {
			t.Error("a partner linked to itself")
		}
	})
}

func (f *fixture) upgradeAgain(companyID string) {
	f.t.Helper()
	payload, _ := json.Marshal(identity.CompanyTypeChanged{CompanyID: companyID, From: identity.CompanyStandard, To: identity.CompanyAmbassador})
	if err := f.m.svc.onCompanyTypeChanged(f.t.Context(), events.Event{ID: ids.New(), Name: identity.EventCompanyTypeChanged, Payload: payload, CreatedAt: f.s.Clock.Now()}); err != nil {
		f.t.Fatal(err)
	}
}

// linkAdvertiser links the advertiser to the ambassador through the referral code (with the card
// on file it needs).
func (f *fixture) linkAdvertiser() {
	f.t.Helper()
	addCard(f.t, f.adv)
	p := f.partner(f.ambCo)
	f.adv.Post("/api/promo/", billing.RedeemPromoRequest{Code: p.PromoCode}).Expect(f.t, 200)
}

func TestBonusesFromBillingEvents(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		f.linkAdvertiser()
		ctx := t.Context()
		campaign := ids.New()
		c1, err := f.bill.Charge(ctx, billing.ChargeRequest{Key: "w1", CompanyID: f.advCo, Amount: 1234_56, CampaignRef: campaign})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.bill.Charge(ctx, billing.ChargeRequest{Key: "w2", CompanyID: f.advCo, Amount: 1000_01, CampaignRef: campaign}); err != nil {
			t.Fatal(err)
		}
		f.dispatch()
		var stats []MonthlyStat
		f.amb.Get("/api/special/stats").Expect(t, 200).JSON(t, &stats)
		nov := stats[10]
		if len(stats) != 12 || nov.ID != (StatID{Month: 11, Year: 2026}) || nov.TotalBilled != 2234_57 || nov.TotalBonus != 223_46 ||
			nov.CampaignCount != 1 || nov.TotalCampaign != 2 {
			t.Fatalf("stats = %+v", nov)
		}
		// A partial refund reverses its share.
		if _, err := f.bill.Refund(ctx, billing.RefundRequest{Key: "r1", TransactionID: c1.ID, Amount: 234_56}); err != nil {
			t.Fatal(err)
		}
		f.dispatch()
		f.amb.Get("/api/special/stats?year=2026").Expect(t, 200).JSON(t, &stats)
		if stats[10].TotalBilled != 2000_01 || stats[10].TotalBonus != 200_00 {
			t.Fatalf("after refund = %+v", stats[10])
		}
		if p := f.partner(f.ambCo); p.TotalBonus != 200_00 {
			t.Errorf("partner total = %d", p.TotalBonus)
		}
		f.amb.Get("/api/special/stats?year=2017").Expect(t, 400)
		f.adv.Get("/api/special/stats").Expect(t, 403)

		// Bonus lists: by month, client and campaign; another partner's answers 404.
		var rows []BonusRow
		f.amb.Get("/api/special/bonus?type=client").Expect(t, 200).JSON(t, &rows)
		if len(rows) != 1 || rows[0].Label != "Dana Diner" || rows[0].Bonus != 200_00 {
			t.Errorf("by client = %+v", rows)
		}
		f.amb.Get("/api/special/"+f.ambCo+"/bonus?type=month").Expect(t, 200).JSON(t, &rows)
		if len(rows) != 1 || rows[0].Month != 11 || rows[0].Billed != 2000_01 {
			t.Errorf("by month = %+v", rows)
		}
		f.cert.Get("/api/special/"+f.ambCo+"/bonus").Expect(t, 404)
		f.super.Get("/api/special/"+f.ambCo+"/bonus?type=campaign").Expect(t, 200).JSON(t, &rows)
		if len(rows) != 1 || rows[0].Key != campaign {
			t.Errorf("by campaign = %+v", rows)
		}
		f.super.Get("/api/special/"+f.advCo+"/bonus").Expect(t, 404)
		f.amb.Get("/api/special/bonus?type=week").Expect(t, 400)

		var camps pagination.Page[*LinkedCampaign]
		f.amb.Get("/api/special/campaigns").Expect(t, 200).JSON(t, &camps)
		if camps.Total != 1 || camps.Items[0].Bonus != 200_00 || camps.Items[0].CompanyName != "Dana Diner" {
			t.Errorf("campaigns linked = %+v", camps)
		}
		f.cert.Get("/api/special/campaigns").Expect(t, 200).JSON(t, &camps)
		if camps.Total != 0 {
			t.Errorf("another partner sees %+v", camps.Items)
		}

		// The special users grid, bonus descending by default (super admin only).
		var su pagination.Page[*SpecialUser]
		f.super.Get("/api/special/").Expect(t, 200).JSON(t, &su)
		if su.Total != 2 || su.Items[0].CompanyID != f.ambCo || su.Items[0].Bonus != 200_00 || su.Items[0].Linked != 1 ||
			su.Items[0].Email != "amy@partners.test" || su.Items[0].Type != identity.CompanyAmbassador || su.Items[1].CompanyID != f.certCo {
			t.Fatalf("special users = %+v %+v", su.Items[0], su.Items[1])
		}
		f.super.Get("/api/special/?sort=bonus").Expect(t, 200).JSON(t, &su)
		if su.Items[0].CompanyID != f.certCo {
			t.Errorf("ascending = %+v", su.Items[0])
		}
	})
}

// A replayed event changes nothing: the transaction id is the entry's key.
func TestEventReplay(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		f.linkAdvertiser()
		charge := settled(f, ids.New(), "camp", 999_99)
		refund := refunded(f, ids.New(), charge, 333_33)
		for range 3 {
			if err := f.m.svc.onChargeSettled(t.Context(), charge); err != nil {
				t.Fatal(err)
			}
			if err := f.m.svc.onChargeRefunded(t.Context(), refund); err != nil {
				t.Fatal(err)
			}
		}
		var b store.Bonus
		f.s.Kernel.DB.WithContext(t.Context()).Take(&b)
		if b.Billed != 666_66 || b.Bonus != 66_67 || b.Charges != 1 || f.partner(f.ambCo).TotalBonus != 66_67 {
			t.Fatalf("after replays: %+v", b)
		}
	})
}

func settled(f *fixture, txID, campaign string, amount money.Cents) events.Event {
	p, _ := json.Marshal(billing.ChargeSettled{TransactionID: txID, CompanyID: f.advCo, CampaignRef: campaign, Amount: amount, Status: billing.StatusSucceeded})
	return events.Event{ID: ids.New(), Name: billing.EventChargeSettled, Payload: p, CreatedAt: f.s.Clock.Now()}
}

func refunded(f *fixture, txID string, charge events.Event, amount money.Cents) events.Event {
	var c billing.ChargeSettled
	_ = json.Unmarshal(charge.Payload, &c)
	p, _ := json.Marshal(billing.ChargeRefunded{TransactionID: txID, ChargeID: c.TransactionID, CompanyID: c.CompanyID, CampaignRef: c.CampaignRef, Amount: amount})
	return events.Event{ID: ids.New(), Name: billing.EventChargeRefunded, Payload: p, CreatedAt: f.s.Clock.Now()}
}

// The link counts through its expiration day and not the day after (B §4).
func TestLinkExpiryBoundary(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		f.linkAdvertiser()
		l, _ := f.m.svc.FindLink(t.Context(), f.advCo)
		if l.Linked.Expiration.String() != "2027-11-21" {
			t.Fatalf("expiration = %s", l.Linked.Expiration)
		}
		// The boundary is the business time zone's midnight (BUSINESS_TIMEZONE, America/New_York).
		ny, _ := time.LoadLocation("America/New_York")
		f.s.Clock.Set(time.Date(2027, 11, 21, 23, 59, 0, 0, ny))
		last := settled(f, ids.New(), "last-day", 100_00)
		if err := f.m.svc.onChargeSettled(t.Context(), last); err != nil {
			t.Fatal(err)
		}
		f.s.Clock.Set(time.Date(2027, 11, 22, 0, 0, 0, 0, ny))
		if err := f.m.svc.onChargeSettled(t.Context(), settled(f, ids.New(), "day-after", 100_00)); err != nil {
			t.Fatal(err)
		}
		var rows []store.Bonus
		f.s.Kernel.DB.WithContext(t.Context()).Find(&rows)
		if len(rows) != 1 || rows[0].CampaignRef != "last-day" || rows[0].Bonus != 10_00 {
			t.Fatalf("bonuses = %+v", rows)
		}
		// A refund after the link expired still reverses the share its charge earned.
		if err := f.m.svc.onChargeRefunded(t.Context(), refunded(f, ids.New(), last, 40_00)); err != nil {
			t.Fatal(err)
		}
		f.s.Kernel.DB.WithContext(t.Context()).Find(&rows)
		if rows[0].Billed != 60_00 || rows[0].Bonus != 6_00 {
			t.Fatalf("after the refund = %+v", rows[0])
		}
		var list []LinkedCompany
		f.amb.SessionAs(f.s, f.ambUser) // a year on, the first session has ended
		f.amb.Get("/api/special/invite").Expect(t, 200).JSON(t, &list)
		if len(list) != 1 || list[0].Linked.Active || list[0].Status != InviteExpired {
			t.Errorf("expired link = %+v", list)
		}
	})
}

// The sum of bonuses is the rate times each charge's net amount, to the cent, whatever the charges
// and refunds: every row holds the sum of its charges' round(net × rate) (per-charge cents, issue
// 24 §1), and the partner's total is the sum of its rows.
func TestBonusProperty(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		f.linkAdvertiser()
		rng := rand.New(rand.NewPCG(14, uint64(len(dialect))))
		ny, _ := time.LoadLocation("America/New_York")
		type charge struct {
			ev   events.Event
			left int64
		}
		var charges []*charge
		billed, bonus := map[string]int64{}, map[string]int64{}
		for i := range 120 {
			f.s.Clock.Advance(time.Duration(rng.IntN(72)) * time.Hour)
			campaign := fmt.Sprintf("c%d", rng.IntN(4))
			if len(charges) == 0 || rng.IntN(3) > 0 {
				amt := int64(1 + rng.IntN(500_000))
				c := &charge{ev: settled(f, ids.New(), campaign, money.Cents(amt)), left: amt}
				charges = append(charges, c)
				if err := f.m.svc.onChargeSettled(t.Context(), c.ev); err != nil {
					t.Fatal(err)
				}
				continue
			}
			c := charges[rng.IntN(len(charges))]
			if c.left == 0 {
				continue
			}
			amt := 1 + rng.Int64N(c.left)
			c.left -= amt
			if err := f.m.svc.onChargeRefunded(t.Context(), refunded(f, fmt.Sprintf("refund-%d", i), c.ev, money.Cents(amt))); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range charges {
			var p billing.ChargeSettled
			_ = json.Unmarshal(c.ev.Payload, &p)
			t := c.ev.CreatedAt.In(ny) // a charge's month is the business time zone's
			billed[fmt.Sprintf("%s/%d/%d", p.CampaignRef, t.Year(), t.Month())] += c.left
			bonus[fmt.Sprintf("%s/%d/%d", p.CampaignRef, t.Year(), t.Month())] += (c.left*1000 + 5000) / 10000
		}
		var rows []store.Bonus
		f.s.Kernel.DB.WithContext(t.Context()).Find(&rows)
		var sum int64
		for _, r := range rows {
			key := fmt.Sprintf("%s/%d/%d", r.CampaignRef, r.Year, r.Month)
			want := billed[key]
			// rate × each charge's net amount to the cent, rounded half up: 10% of 12345 cents is 1235.
			if r.Billed != want || r.Bonus != bonus[key] {
				t.Fatalf("row %s %d-%d: billed %d (want %d), bonus %d", r.CampaignRef, r.Year, r.Month, r.Billed, want, r.Bonus)
			}
			sum += r.Bonus
		}
		if len(rows) != len(billed) || f.partner(f.ambCo).TotalBonus != sum {
			t.Fatalf("%d rows for %d months; total %d, sum %d", len(rows), len(billed), f.partner(f.ambCo).TotalBonus, sum)
		}
	})
}

func TestHubProfile(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		site := "https://amy.example"
		var hub HubResponse
		f.amb.Put("/api/special/hub/"+f.ambUser, UpdateProfileRequest{Website: &site}).Expect(t, 200).JSON(t, &hub)
		if hub.Message != MsgHubUpdated || hub.Profile.Website != site || hub.Profile.Email != "amy@partners.test" {
			t.Fatalf("update = %+v", hub)
		}
		bad := "amy.example"
		if e := errBody(t, f.amb.Put("/api/special/hub/"+f.ambUser, UpdateProfileRequest{Website: &bad}), 400); e.Errors["website"] != MsgWebsite {
			t.Errorf("bad website = %+v", e)
		}
		f.amb.Put("/api/special/hub/"+f.certUser, UpdateProfileRequest{Website: &site}).Expect(t, 404)
		about := "Billboards for Austin restaurants"
		f.amb.Put("/users/ambassador", UpdateProfileRequest{About: &about}).Expect(t, 200).JSON(t, &hub)
		if hub.Profile.About != about || hub.Profile.Website != site {
			t.Errorf("ambassador update = %+v", hub.Profile)
		}
		f.adv.Get("/api/special/hub").Expect(t, 403)
		f.cert.Put("/users/ambassador", UpdateProfileRequest{About: &about}).Expect(t, 403)
	})
}

func allAnswers(correct bool) []ExamAnswer {
	out := make([]ExamAnswer, len(questionBank))
	for i, q := range questionBank {
		a := q.Correct
		if !correct {
			for _, o := range q.Options {
				if !sameSet([]string{o.ID}, q.Correct) {
					a = []string{o.ID}
					break
				}
			}
		}
		out[i] = ExamAnswer{QuestionID: q.ID, Answers: a}
	}
	return out
}

func TestExam(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		r := f.cert.Get("/api/special/certified/exam").Expect(t, 200)
		var exam ExamResponse
		r.JSON(t, &exam)
		if len(exam.Questions) < 15 || exam.PassMark != PassMark || exam.Certified || strings.Contains(strings.ToLower(string(r.Body)), "correct") {
			t.Fatalf("exam = %d questions, body %s", len(exam.Questions), r.Body)
		}
		f.amb.Get("/api/special/certified/exam").Expect(t, 403)

		missing := allAnswers(true)[1:]
		// The question's number, as the page shows it; the field names the question.
		if e := errBody(t, f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: missing}), 400); e.Message != "You must answer the question 1!" || e.Errors["q1"] == "" {
			t.Errorf("missing = %+v", e)
		}
		unknown := append(allAnswers(true)[1:], ExamAnswer{QuestionID: "q999", Answers: []string{"a"}})
		f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: unknown}).Expect(t, 400)
		two := allAnswers(true)
		two[0].Answers = []string{"a", "b"}
		if e := errBody(t, f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: two}), 400); e.Message != fmt.Sprintf(MsgSingleAnswer, "q1") {
			t.Errorf("two options = %+v", e)
		}
		many := make([]ExamAnswer, 1000)
		for i := range many {
			many[i] = ExamAnswer{QuestionID: "q1", Answers: []string{"b"}}
		}
		f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: many}).Expect(t, 400)

		var res ExamResult
		f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: allAnswers(false)}).Expect(t, 200).JSON(t, &res)
		if res.Success || res.Score >= PassMark || res.Promo != nil || res.User.Certified || len(res.Questions) != 0 {
			t.Fatalf("failed exam = %+v", res)
		}
		f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: allAnswers(true)}).Expect(t, 200).JSON(t, &res)
		if !res.Success || res.Score != 100 || res.Points != res.MaxPoints || res.Promo == nil || res.Promo.Value != ExamPromoValue ||
			res.User.Certificate == nil || !strings.HasPrefix(res.User.Certificate.Number, "MQ-2026-") {
			t.Fatalf("passed exam = %+v", res)
		}
		if u, _ := f.ids.FindUserByID(t.Context(), f.certUser); !u.Certified {
			t.Error("the user is not certified")
		}
		// The certification is in the audit log, once (a second pass changes nothing).
		entries, err := f.s.Kernel.Audit.List(t.Context(), audit.Filter{Action: AuditExamPassed, ObjectID: f.certUser}, pagination.Params{Page: 1, PageSize: 10, Sort: "created_at"})
		if err != nil || entries.Total != 1 || entries.Items[0].ActorID != f.certUser {
			t.Errorf("audit of the pass = %+v, %v", entries, err)
		}
		// Passing again keeps the certificate and gives no second promo.
		var again ExamResult
		f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: allAnswers(true)}).Expect(t, 200).JSON(t, &again)
		if again.Promo != nil || again.User.Certificate.Number != res.User.Certificate.Number {
			t.Errorf("second pass = %+v", again)
		}
		if n, _ := f.s.Kernel.Audit.List(t.Context(), audit.Filter{Action: AuditExamPassed}, pagination.Params{Page: 1, PageSize: 10, Sort: "created_at"}); n.Total != 1 {
			t.Errorf("%d audit entries after a second pass", n.Total)
		}
		var red billing.RedeemPromoResponse
		f.cert.Post("/api/promo/", billing.RedeemPromoRequest{Code: res.Promo.Code}).Expect(t, 200).JSON(t, &red)
		if red.Amount != ExamPromoValue {
			t.Errorf("exam promo = %+v", red)
		}
		f.cert.Get("/api/special/certified/exam").Expect(t, 200).JSON(t, &exam)
		if !exam.Certified || exam.Certificate.Number != res.User.Certificate.Number {
			t.Errorf("exam after pass = %+v", exam)
		}
	})
}

// The demo data: clients (two expired links, one invited client), the certificate, and bonuses
// over the last 14 months from real charges; a second run adds nothing.
func TestSeedDemo(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		demo := server.DemoAccounts{"ambassador": {UserID: f.ambUser, CompanyID: f.ambCo}, "certified": {UserID: f.certUser, CompanyID: f.certCo}}
		first, err := f.m.SeedDemo(t.Context(), demo)
		if err != nil || !strings.Contains(first, fmt.Sprintf("%d demo clients created", len(demoClients))) {
			t.Fatalf("first seed: %q, %v", first, err)
		}
		f.dispatch() // the charges' events find their bonuses already counted
		var list []LinkedCompany
		f.amb.Get("/api/special/invite").Expect(t, 200).JSON(t, &list)
		status := map[string]int{}
		for _, l := range list {
			status[l.Status]++
		}
		if len(list) != 6 || status[InviteExpired] != 2 || status[InviteInvited] != 1 || status[InviteActive] != 3 {
			t.Fatalf("ambassador's clients: %v", status)
		}
		var rows []BonusRow
		f.amb.Get("/api/special/bonus?type=month").Expect(t, 200).JSON(t, &rows)
		if len(rows) < 14 {
			t.Errorf("%d months of bonuses", len(rows))
		}
		// The bonuses come from real campaigns: every campaign row is named (two per billed client).
		var byCampaign []BonusRow
		f.amb.Get("/api/special/bonus?type=campaign").Expect(t, 200).JSON(t, &byCampaign)
		if len(byCampaign) != 10 {
			t.Errorf("%d campaigns with bonuses, want 10", len(byCampaign))
		}
		for _, r := range byCampaign {
			if r.Label == "" || r.Bonus <= 0 {
				t.Errorf("campaign bonus row %+v has no campaign name or no bonus", r)
			}
		}
		var linked pagination.Page[LinkedCampaign]
		f.amb.Get("/api/special/campaigns?page_size=100").Expect(t, 200).JSON(t, &linked)
		for i, c := range linked.Items {
			if c.Name == "" || c.CreatedAt.IsZero() {
				t.Errorf("linked campaign %+v has no name or creation date", c)
			}
			// Default sort: created, newest first.
			if i > 0 && c.CreatedAt.After(linked.Items[i-1].CreatedAt) {
				t.Errorf("linked campaign %s (%s) after %s (%s)", c.Name, c.CreatedAt, linked.Items[i-1].Name, linked.Items[i-1].CreatedAt)
			}
		}
		var hub HubResponse
		f.cert.Get("/api/special/hub").Expect(t, 200).JSON(t, &hub)
		if hub.Profile.Certificate == nil || !hub.Profile.Certified || hub.Profile.TotalBonus == 0 || hub.Profile.Linked != 2 {
			t.Errorf("certified hub = %+v", hub.Profile)
		}
		total := f.partner(f.ambCo).TotalBonus
		second, err := f.m.SeedDemo(t.Context(), demo)
		if err != nil || !strings.Contains(second, "0 demo clients created, 0 charges") || f.partner(f.ambCo).TotalBonus != total {
			t.Fatalf("second seed: %q, %v", second, err)
		}
	})
}
