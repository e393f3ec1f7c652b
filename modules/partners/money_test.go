package partners

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"marquee/modules/billing"
	"marquee/modules/identity"
	"marquee/platform/audit"
	"marquee/platform/ids"
	"marquee/platform/money"
	"marquee/platform/pagination"
	"marquee/platform/testkit"
)

// The partner program's money rules, each through HTTP: one referral credit per card, per-charge
// bonus cents, flagged self-paid charges.

func (f *fixture) code(companyID string) string {
	f.t.Helper()
	return f.partner(companyID).PromoCode
}

func (f *fixture) credit(companyID string) money.Cents {
	f.t.Helper()
	c, err := f.bill.AccountCredit(f.t.Context(), companyID)
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// newCompany signs up a standard company with its own user and session.
func (f *fixture) newCompany(email, name string) (*testkit.Client, string) {
	f.t.Helper()
	c, u := f.user(email, name, identity.RoleUser)
	return c, u.Company.ID
}

// "Referral codes stack": a fresh company without a card redeemed three partners' codes.
func TestReferralCodesDoNotStack(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		other, _ := f.newCompany("otto@partners.test", "Otto Outdoor")
		u, _ := f.ids.FindUserByEmail(t.Context(), "otto@partners.test")
		f.upgrade(u.Company.ID, identity.CompanyAmbassador)

		// Without a card: no credit, no link.
		if e := errBody(t, f.adv.Post("/api/promo/", billing.RedeemPromoRequest{Code: f.code(f.ambCo)}), 400); e.Message != MsgReferralNeedsCard {
			t.Fatalf("no card = %+v", e)
		}
		if f.credit(f.advCo) != 0 || f.count("partners_links") != 0 {
			t.Fatal("a refused redemption left credit or a link")
		}
		addCard(t, f.adv)
		f.adv.Post("/api/promo/", billing.RedeemPromoRequest{Code: f.code(f.ambCo)}).Expect(t, 200)
		for _, code := range []string{f.code(f.certCo), f.code(u.Company.ID)} {
			if e := errBody(t, f.adv.Post("/api/promo/", billing.RedeemPromoRequest{Code: code}), 409); !strings.Contains(e.Message, "joins one partner only") {
				t.Errorf("second partner's code = %+v", e)
			}
		}
		if c := f.credit(f.advCo); c != ReferralPromoValue {
			t.Errorf("credit = %v, want one referral credit", c)
		}
		_ = other

		// One referral credit per card, across companies: another company with the same card number.
		twin, twinCo := f.newCompany("tina@partners.test", "Twin Signs")
		addCard(t, twin)
		if e := errBody(t, twin.Post("/api/promo/", billing.RedeemPromoRequest{Code: f.code(f.certCo)}), 409); e.Message != MsgReferralCardUsed {
			t.Errorf("same card = %+v", e)
		}
		addCard(t, twin, "5555555555554444")
		twin.Post("/api/promo/", billing.RedeemPromoRequest{Code: f.code(f.certCo)}).Expect(t, 200)
		if f.credit(twinCo) != ReferralPromoValue {
			t.Errorf("twin's credit = %v", f.credit(twinCo))
		}
		// A link that expired still counts: a company joins one partner in its lifetime.
		f.s.Clock.Advance(400 * 24 * time.Hour)
		f.adv.SessionAs(f.s, mustUser(t, f, "dana@partners.test"))
		if e := errBody(t, f.adv.Post("/api/promo/", billing.RedeemPromoRequest{Code: f.code(f.certCo)}), 409); e.Message != MsgReferralLinkedOnce {
			t.Errorf("after the link expired = %+v", e)
		}
	})
}

func mustUser(t *testing.T, f *fixture, email string) string {
	t.Helper()
	u, err := f.ids.FindUserByEmail(t.Context(), email)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// "Partners redeem their own referral code" and "Partners become each other's clients".
func TestPartnersAreNeverClients(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		addCard(t, f.amb, "4000056655665556")
		addCard(t, f.cert, "5555555555554444")
		if e := errBody(t, f.amb.Post("/api/promo/", billing.RedeemPromoRequest{Code: f.code(f.ambCo)}), 403); e.Message != MsgReferralOwnCode {
			t.Errorf("own code = %+v", e)
		}
		if e := errBody(t, f.amb.Post("/api/promo/", billing.RedeemPromoRequest{Code: f.code(f.certCo)}), 403); e.Message != MsgReferralPartner {
			t.Errorf("ambassador redeems certified's code = %+v", e)
		}
		if e := errBody(t, f.cert.Post("/api/promo/", billing.RedeemPromoRequest{Code: f.code(f.ambCo)}), 403); e.Message != MsgReferralPartner {
			t.Errorf("certified redeems ambassador's code = %+v", e)
		}
		if f.credit(f.ambCo) != 0 || f.credit(f.certCo) != 0 || f.count("partners_links") != 0 {
			t.Fatal("a partner got credit or a link")
		}

		// A client that later becomes a partner earns its old partner nothing on its own charges.
		f.linkAdvertiser()
		f.upgrade(f.advCo, identity.CompanyAmbassador)
		if _, err := f.bill.Charge(t.Context(), billing.ChargeRequest{Key: "adv-as-partner", CompanyID: f.advCo, Amount: 82_00, CampaignRef: ids.New()}); err != nil {
			t.Fatal(err)
		}
		f.dispatch()
		if p := f.partner(f.ambCo); p.TotalBonus != 0 {
			t.Errorf("bonus on a partner's own spend = %d", p.TotalBonus)
		}
	})
}

// "Sock-puppet clients": an ambassador's invited "client" pays with the ambassador's own card.
func TestNoBonusOnThePartnersOwnCard(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		addCard(t, f.amb) // 4242…: the ambassador's own card
		addCard(t, f.amb, "5555555555554444")
		var res InviteResponse
		f.amb.Post("/users/ambassador/invite", InviteRequest{FullName: "Sock Puppet", Email: "puppet@partners.test", Company: "Puppet Co"}).Expect(t, 200).JSON(t, &res)
		all := f.s.DeliverMail(t)
		link := accessRE.FindString(all[len(all)-1])
		puppet := f.s.Client(t)
		puppet.Post("/users/set-first-password", identity.SetPasswordRequest{Token: link[strings.Index(link, "token=")+len("token="):],
			Password: "puppet's own password", FirstName: "Sock", LastName: "Puppet"}).Expect(t, 200)
		puppet.SessionAs(f.s, mustUser(t, f, "puppet@partners.test"))
		addCard(t, puppet) // the number the ambassador saved before (and replaced since)

		// Its referral credit is refused too: the card is the partner's.
		if e := errBody(t, puppet.Post("/api/promo/", billing.RedeemPromoRequest{Code: f.code(f.ambCo)}), 403); e.Message != MsgReferralPartnerCard {
			t.Errorf("puppet's referral = %+v", e)
		}
		tx, err := f.bill.Charge(t.Context(), billing.ChargeRequest{Key: "puppet-week", CompanyID: res.Client.CompanyID, Amount: 500_00, CampaignRef: ids.New()})
		if err != nil {
			t.Fatal(err)
		}
		f.dispatch()
		var stats []MonthlyStat
		f.amb.Get("/api/special/stats").Expect(t, 200).JSON(t, &stats)
		if stats[10].TotalBonus != 0 || f.partner(f.ambCo).TotalBonus != 0 {
			t.Fatalf("bonus on the partner's own card: %+v", stats[10])
		}
		// Flagged for review: listed for the super admin, counted on the special users grid, audited.
		var flags []FlaggedCharge
		f.super.Get("/api/special/flags").Expect(t, 200).JSON(t, &flags)
		if len(flags) != 1 || flags[0].TransactionID != tx.ID || flags[0].PartnerName != "Amy Ambassadors" || flags[0].ClientName != "Puppet Co" ||
			flags[0].Amount != 500_00 || flags[0].Reason != FlagOwnCard {
			t.Fatalf("flags = %+v", flags)
		}
		f.amb.Get("/api/special/flags").Expect(t, 403)
		var su pagination.Page[*SpecialUser]
		f.super.Get("/api/special/").Expect(t, 200).JSON(t, &su)
		for _, u := range su.Items {
			if (u.CompanyID == f.ambCo) != (u.Flagged == 1) {
				t.Errorf("special user %s flagged %d", u.CompanyName, u.Flagged)
			}
		}
		entries, err := f.s.Kernel.Audit.List(t.Context(), audit.Filter{Action: AuditBonusWithheld, ObjectID: f.ambCo}, pagination.Params{Page: 1, PageSize: 10, Sort: "created_at"})
		if err != nil || entries.Total != 1 {
			t.Errorf("audit = %+v, %v", entries, err)
		}
		// A refund of the flagged charge reverses nothing.
		if _, err := f.bill.Refund(t.Context(), billing.RefundRequest{Key: "puppet-refund", TransactionID: tx.ID, Amount: 100_00}); err != nil {
			t.Fatal(err)
		}
		f.dispatch()
		if f.partner(f.ambCo).TotalBonus != 0 {
			t.Error("a refund of a flagged charge moved the bonus")
		}

		// The same client paying with a card of its own earns the partner its bonus.
		addCard(t, puppet, "6011111111111117")
		if _, err := f.bill.Charge(t.Context(), billing.ChargeRequest{Key: "puppet-own-card", CompanyID: res.Client.CompanyID, Amount: 100_00, CampaignRef: ids.New()}); err != nil {
			t.Fatal(err)
		}
		f.dispatch()
		if f.partner(f.ambCo).TotalBonus != 10_00 {
			t.Errorf("bonus on the client's own card = %d", f.partner(f.ambCo).TotalBonus)
		}
	})
}

// "The exam mints promos": one reward per company, ever, only that company can redeem it.
func TestExamRewardOncePerCompany(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		colleague, _ := f.user("cleo@partners.test", "Certified Media", identity.RoleUser) // joins the company
		if u, _ := f.ids.FindUserByEmail(t.Context(), "cleo@partners.test"); u.Company.ID != f.certCo {
			t.Fatalf("colleague's company = %s", u.Company.ID)
		}
		f.s.DeliverMail(t)
		var res ExamResult
		f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: allAnswers(true)}).Expect(t, 200).JSON(t, &res)
		if res.Promo == nil {
			t.Fatal("no reward on the company's first pass")
		}
		mails := f.s.DeliverMail(t)
		if len(mails) != 1 || !strings.Contains(mails[0], "carl@partners.test") || !strings.Contains(mails[0], res.Promo.Code) {
			t.Fatalf("reward mail = %v", mails)
		}
		var hub HubResponse
		colleague.Get("/api/special/hub").Expect(t, 200).JSON(t, &hub)
		if hub.Profile.ExamPromo == nil || hub.Profile.ExamPromo.Code != res.Promo.Code {
			t.Errorf("hub's reward = %+v", hub.Profile.ExamPromo)
		}
		var again ExamResult
		colleague.Put("/api/special/certified/exam", ExamSubmission{Answers: allAnswers(true)}).Expect(t, 200).JSON(t, &again)
		if !again.Success || again.Promo != nil {
			t.Errorf("colleague's pass = %+v", again)
		}
		if n := f.count("billing_promos"); n != 3 { // two referral codes and one reward
			t.Errorf("%d promos", n)
		}
		// Not transferable.
		if e := errBody(t, f.adv.Post("/api/promo/", billing.RedeemPromoRequest{Code: res.Promo.Code}), 403); e.Message != billing.MsgPromoOtherCompany {
			t.Errorf("another company redeems the reward = %+v", e)
		}
		if f.credit(f.advCo) != 0 {
			t.Error("another company got the reward")
		}
		colleague.Post("/api/promo/", billing.RedeemPromoRequest{Code: res.Promo.Code}).Expect(t, 200)
		f.cert.Get("/api/special/hub").Expect(t, 200).JSON(t, &hub)
		if hub.Profile.ExamPromo != nil || f.credit(f.certCo) != ExamPromoValue {
			t.Errorf("after redemption: hub %+v, credit %v", hub.Profile.ExamPromo, f.credit(f.certCo))
		}
	})
}

// "The answers cost nothing": a failed attempt says only the score, and a user has 3 a business day.
func TestExamFeedbackAndAttempts(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		half := allAnswers(true)
		copy(half[:9], allAnswers(false)[:9])
		for i := 1; i <= ExamAttemptsPerDay; i++ {
			r := f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: half}).Expect(t, 200)
			var res ExamResult
			r.JSON(t, &res)
			if res.Success || len(res.Questions) != 0 || strings.Contains(string(r.Body), `"correct"`) || res.Points == 0 || res.Score == 0 ||
				res.AttemptsLeft != ExamAttemptsPerDay-i {
				t.Fatalf("attempt %d = %s", i, r.Body)
			}
			if i == ExamAttemptsPerDay && (res.NextAttemptAt == nil || !res.NextAttemptAt.Equal(time.Date(2026, 11, 23, 5, 0, 0, 0, time.UTC))) {
				t.Errorf("next attempt at %v", res.NextAttemptAt)
			}
		}
		// A submission that is not graded (an answer missing) does not count, and is refused the same.
		r := f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: allAnswers(true)})
		e := errBody(t, r, 429)
		if e.Message != fmt.Sprintf(MsgExamAttempts, 3, "Nov 23, 2026 at 12:00 AM EST") || r.Header.Get("Retry-After") == "" {
			t.Errorf("4th attempt = %+v", e)
		}
		var exam ExamResponse
		f.cert.Get("/api/special/certified/exam").Expect(t, 200).JSON(t, &exam)
		if exam.AttemptsLeft != 0 || exam.NextAttemptAt == nil {
			t.Errorf("exam = left %d, next %v", exam.AttemptsLeft, exam.NextAttemptAt)
		}
		if u, _ := f.ids.FindUserByID(t.Context(), f.certUser); u.Certified {
			t.Fatal("the refused attempt certified the user")
		}
		// The business day, not 24 hours: midnight in New York opens the next three.
		ny, _ := time.LoadLocation("America/New_York")
		f.s.Clock.Set(time.Date(2026, 11, 23, 0, 0, 1, 0, ny))
		f.cert.SessionAs(f.s, f.certUser)
		var res ExamResult
		f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: allAnswers(true)}).Expect(t, 200).JSON(t, &res)
		if !res.Success || len(res.Questions) != len(questionBank) {
			t.Errorf("next day = %+v", res)
		}
	})
}

// Passing again after an admin removed the certification certifies the user again; the rate, the
// hub and the badge follow the company's certificate holders.
func TestCertificationAndRate(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		var hub HubResponse
		f.cert.Get("/api/special/hub").Expect(t, 200).JSON(t, &hub)
		if hub.Profile.RatePercent != 10 || hub.Profile.CertificationBonus || hub.Profile.CertifiedRatePercent != 15 {
			t.Fatalf("certified company without a certificate = %+v", hub.Profile)
		}
		var res ExamResult
		f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: allAnswers(true)}).Expect(t, 200).JSON(t, &res)
		f.cert.Get("/api/special/hub").Expect(t, 200).JSON(t, &hub)
		if hub.Profile.RatePercent != 15 || !hub.Profile.CertificationBonus || !hub.Profile.Certified {
			t.Fatalf("after the pass = %+v", hub.Profile)
		}
		f.super.Put("/api/users/"+f.certUser, identity.UpdateUserRequest{Certified: new(bool)}).Expect(t, 200)
		f.cert.Get("/api/special/hub").Expect(t, 200).JSON(t, &hub)
		if hub.Profile.RatePercent != 10 || hub.Profile.CertificationBonus || hub.Profile.Certified || hub.Profile.Certificate != nil {
			t.Fatalf("after the admin's removal = %+v", hub.Profile)
		}
		var again ExamResult
		f.cert.Put("/api/special/certified/exam", ExamSubmission{Answers: allAnswers(true)}).Expect(t, 200).JSON(t, &again)
		if u, _ := f.ids.FindUserByID(t.Context(), f.certUser); !again.Success || !u.Certified || again.User.Certificate == nil {
			t.Fatalf("pass after removal = %+v, user certified %v", again, u.Certified)
		}
		f.cert.Get("/api/special/hub").Expect(t, 200).JSON(t, &hub)
		if hub.Profile.RatePercent != 15 || !hub.Profile.CertificationBonus {
			t.Fatalf("after passing again = %+v", hub.Profile)
		}
	})
}

// Bonus arithmetic: a total is the sum of per-charge cents. Three 5-cent charges at 10% earn one
// cent each (half up), 3 cents, where the month's rounded 15 cents gave 2.
func TestBonusIsPerChargeCents(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		f.linkAdvertiser()
		for range 3 {
			if err := f.m.svc.onChargeSettled(t.Context(), settled(f, ids.New(), "tiny", 5)); err != nil {
				t.Fatal(err)
			}
		}
		var stats []MonthlyStat
		f.amb.Get("/api/special/stats").Expect(t, 200).JSON(t, &stats)
		if stats[10].TotalBilled != 15 || stats[10].TotalBonus != 3 || f.partner(f.ambCo).TotalBonus != 3 {
			t.Fatalf("stats = %+v", stats[10])
		}
	})
}

// Invitation limits: partner invitations and resends, per company and per recipient.
func TestInvitationLimits(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		var res InviteResponse
		f.amb.Post("/users/ambassador/invite", InviteRequest{FullName: "Rita Resend", Email: "rita@client.test"}).Expect(t, 200).JSON(t, &res)
		for range InvitesPerRecipientDay - 1 {
			f.amb.Put("/api/special/ambassador/invite/"+res.Client.ID, nil).Expect(t, 200)
		}
		if e := errBody(t, f.amb.Put("/api/special/ambassador/invite/"+res.Client.ID, nil), 429); e.Message != MsgTooManyInvitesTo {
			t.Errorf("resend over the recipient's limit = %+v", e)
		}
		// The company has counted the invitation and every resend, the refused one too.
		for i := InvitesPerRecipientDay + 1; i < InvitesPerCompanyHour; i++ {
			f.amb.Post("/users/ambassador/invite", InviteRequest{FullName: "Client Number", Email: fmt.Sprintf("c%d@client.test", i), Company: fmt.Sprintf("Client %d", i)}).Expect(t, 200)
		}
		users := f.count("identity_users")
		if e := errBody(t, f.amb.Post("/users/ambassador/invite", InviteRequest{FullName: "One Toomany", Email: "late@client.test"}), 429); e.Message != MsgTooManyInvites {
			t.Errorf("invite over the company's limit = %+v", e)
		}
		if f.count("identity_users") != users {
			t.Error("a refused invitation created a user")
		}
		// An hour on, the company may invite again.
		f.s.Clock.Advance(time.Hour + time.Minute)
		f.amb.SessionAs(f.s, f.ambUser)
		f.amb.Post("/users/ambassador/invite", InviteRequest{FullName: "One Later", Email: "later@client.test"}).Expect(t, 200)
	})
}

// A self-registered partner user has no name: the client's invitation names the partner company
// once, not "Northwind Outdoor of Northwind Outdoor".
func TestClientInvitationWithoutTheInvitersName(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		u, _, err := f.ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: "founder@northwind.test",
			Password: "partners password 1", Role: identity.RoleUser, CompanyName: "Northwind Outdoor"})
		if err != nil {
			t.Fatal(err)
		}
		f.upgrade(u.Company.ID, identity.CompanyAmbassador)
		c := f.s.Client(t)
		c.SessionAs(f.s, u.ID)
		f.s.DeliverMail(t)
		c.Post("/users/ambassador/invite", InviteRequest{FullName: "Cleo Client", Email: "cleo@client.test", Company: "Cleo Co"}).Expect(t, 200)
		var invite string
		for _, m := range f.s.DeliverMail(t) {
			if strings.Contains(m, "cleo@client.test") {
				invite = strings.ReplaceAll(m, "=\r\n", "")
			}
		}
		if !strings.Contains(invite, "Northwind Outdoor invited you to Marquee, where you book") || strings.Contains(invite, "Northwind Outdoor of Northwind Outdoor") {
			t.Fatalf("invite = %s", invite)
		}
	})
}
