package billing

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"marquee/modules/identity"
	"marquee/platform/apperr"
	"marquee/platform/db"
	"marquee/platform/events"
	"marquee/platform/httpx"
	"marquee/platform/money"
	"marquee/platform/pagination"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// fixture is a running app with billing and a signed-in client per role.
type fixture struct {
	s                   *testkit.Server
	bill                *Module
	ids                 identity.Service
	adv, other          *testkit.Client // regular users of two companies
	advCompany, otherCo string
	advUser             string
	admin, super        *testkit.Client
	anon                *testkit.Client
}

func start(t *testing.T, dialect string, opts ...testkit.Option) *fixture {
	t.Helper()
	s := testkit.Start(t, dialect, server.Compose(Component), opts...)
	f := &fixture{s: s}
	for _, m := range s.Modules {
		switch m := m.(type) {
		case *Module:
			f.bill = m
		case *identity.Module:
			f.ids = m.Service()
		}
	}
	// The readers cmd/marquee's wireHooks hands identity.
	id := testkit.ModuleOf[*identity.Module](t, s)
	id.SetCreditReader(f.bill.Service())
	id.SetBillingReader(f.bill.BillingReader())
	user := func(email, company, role string) (*testkit.Client, string) {
		t.Helper()
		u, _, err := f.ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: email, Password: "billing password 1", Role: role, CompanyName: company})
		if err != nil {
			t.Fatal(err)
		}
		c := s.Client(t)
		c.SessionAs(s, u.ID)
		return c, u.Company.ID
	}
	f.adv, f.advCompany = user("ada@billing.test", "Sunrise Coffee", identity.RoleUser)
	if u, err := f.ids.FindUserByEmail(t.Context(), "ada@billing.test"); err == nil {
		f.advUser = u.ID
	}
	f.other, f.otherCo = user("bob@billing.test", "Other Co", identity.RoleUser)
	f.admin, _ = user("admin@billing.test", "Marquee", identity.RoleAdmin)
	f.super, _ = user("super@billing.test", "Marquee", identity.RoleSuperAdmin)
	f.anon = s.Client(t)
	return f
}

// token tokenises a typed card through the sandbox's client endpoint.
func token(t *testing.T, c *testkit.Client, number string) string {
	t.Helper()
	var tok CardToken
	c.Post("/api/sandbox/tokens", SandboxTokenRequest{Number: number, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2, CVC: "123"}).Expect(t, 200).JSON(t, &tok)
	if !strings.HasPrefix(tok.ID, "tok_") || tok.Card.Last4 != number[len(number)-4:] {
		t.Fatalf("token = %+v", tok)
	}
	return tok.ID
}

// addCard puts a test card on file for the client's company.
func addCard(t *testing.T, c *testkit.Client, number string) *Card {
	t.Helper()
	var res CardResponse
	c.Post("/api/cards", AddCardRequest{Token: token(t, c, number), ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}).Expect(t, 201).JSON(t, &res)
	if res.Message != MsgCardAdded || res.Card == nil {
		t.Fatalf("add card = %+v", res)
	}
	return res.Card
}

// cardErr reads a refused card's answer: 402 and the error envelope with the gateway's code.
func cardErr(t *testing.T, r *testkit.Response) httpx.ErrorBody {
	t.Helper()
	var e httpx.ErrorBody
	r.Expect(t, http.StatusPaymentRequired).JSON(t, &e)
	return e
}

func message(t *testing.T, r *testkit.Response, status int) string {
	t.Helper()
	var e struct{ Message string }
	r.Expect(t, status).JSON(t, &e)
	return e.Message
}

func TestGatewayConfigNeverShowsASecret(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		var cfg GatewayConfig
		f.adv.Get("/api/billing/config").Expect(t, 200).JSON(t, &cfg)
		if cfg.Gateway != GatewaySandbox || cfg.PublishableKey != "" {
			t.Fatalf("config = %+v", cfg)
		}
		f.anon.Get("/api/billing/config").Expect(t, 401)
	})
}

func TestSandboxTokensFollowStripeTestCards(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		year := testkit.StartTime.Year()
		for _, tc := range []struct {
			name, number, cvc string
			month, year       int
			code, message     string
		}{
			{"Luhn", "4242424242424241", "123", 12, year + 1, CodeIncorrectNumber, GatewayMsgIncorrectNumber},
			{"short", "4242", "123", 12, year + 1, CodeIncorrectNumber, GatewayMsgIncorrectNumber},
			{"letters", "4242abcd42424242", "123", 12, year + 1, CodeIncorrectNumber, GatewayMsgIncorrectNumber},
			{"past month", "4242424242424242", "123", int(testkit.StartTime.Month()) - 1, year, CodeInvalidExpiry, GatewayMsgInvalidExpiry},
			{"past year", "4242424242424242", "123", 12, year - 1, CodeInvalidExpiry, GatewayMsgInvalidExpiry},
			{"month 13", "4242424242424242", "123", 13, year + 1, CodeInvalidExpiry, GatewayMsgInvalidExpiry},
			{"short cvc", "4242424242424242", "12", 12, year + 1, CodeInvalidCVC, GatewayMsgInvalidCVC},
			{"amex needs 4", "378282246310005", "123", 12, year + 1, CodeInvalidCVC, GatewayMsgInvalidCVC},
		} {
			t.Run(tc.name, func(t *testing.T) {
				e := cardErr(t, f.adv.Post("/api/sandbox/tokens", SandboxTokenRequest{Number: tc.number, ExpMonth: tc.month, ExpYear: tc.year, CVC: tc.cvc}))
				if e.Code != tc.code || e.Message != tc.message || e.Success {
					t.Fatalf("got %+v, want %s %q", e, tc.code, tc.message)
				}
			})
		}
		var tok CardToken
		f.adv.Post("/api/sandbox/tokens", SandboxTokenRequest{Number: "4242 4242 4242 4242", ExpMonth: 1, ExpYear: year + 1, CVC: "123"}).Expect(t, 200).JSON(t, &tok)
		if tok.Card.Brand != "visa" || tok.Card.Last4 != "4242" || tok.Card.ExpMonth != 1 || tok.Card.ExpYear != year+1 {
			t.Fatalf("token = %+v", tok)
		}
		// The full number and the code are never stored.
		var leaked int64
		if err := f.s.Kernel.DB.Table("billing_sandbox_tokens").Where("id = ? AND (last4 <> ? OR brand <> ?)", tok.ID, "4242", "visa").Count(&leaked).Error; err != nil || leaked != 0 {
			t.Fatalf("token row: %v %d", err, leaked)
		}
		cols, err := f.s.Kernel.DB.Migrator().ColumnTypes("billing_sandbox_tokens")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cols {
			if n := strings.ToLower(c.Name()); strings.Contains(n, "number") || strings.Contains(n, "cvc") {
				t.Fatalf("sandbox tokens keep a %s column", n)
			}
		}
	})
}

func TestCardOnFile(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		if body := strings.TrimSpace(string(f.adv.Get("/api/cards/me").Expect(t, 200).Body)); body != "null" {
			t.Fatalf("no card answers %s", body)
		}
		// Stripe refuses these when they are saved (B §8 messages come from the gateway's).
		for _, tc := range []struct{ number, code, message string }{
			{"4000000000000002", CodeCardDeclined, GatewayMsgDeclined},
			{"4000000000000069", CodeExpiredCard, GatewayMsgExpired},
			{"4000000000000127", CodeIncorrectCVC, GatewayMsgIncorrectCVC},
			{"4111111111111111", CodeCardDeclined, "Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing."},
		} {
			e := cardErr(t, f.adv.Post("/api/cards", AddCardRequest{Token: token(t, f.adv, tc.number), ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}))
			if e.Code != tc.code || e.Message != tc.message {
				t.Fatalf("%s: %+v", tc.number, e)
			}
		}
		f.adv.Get("/api/cards/me").Expect(t, 200)
		if got := message(t, f.adv.Post("/api/cards", AddCardRequest{Token: "tok_unknown", ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}), 400); got != MsgCardToken {
			t.Fatalf("unknown token: %q", got)
		}
		if got := message(t, f.adv.Post("/api/cards", AddCardRequest{Token: token(t, f.adv, "4242424242424242"), ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 10}), 400); got != msgCardExpiry {
			t.Fatalf("year 10 ahead: %q", got)
		}

		card := addCard(t, f.adv, "4242424242424242")
		if card.Masked != "xxxx-xxxx-xxxx-4242" || card.Brand != "visa" {
			t.Fatalf("card = %+v", card)
		}
		// A token is single use.
		tok := token(t, f.adv, "5555555555554444")
		f.adv.Post("/api/cards", AddCardRequest{Token: tok, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}).Expect(t, 201)
		if got := message(t, f.adv.Post("/api/cards", AddCardRequest{Token: tok, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}), 400); got != MsgCardToken {
			t.Fatalf("used token: %q", got)
		}
		// One card per company: the new one replaced the old.
		var mine Card
		f.adv.Get("/api/cards/me").Expect(t, 200).JSON(t, &mine)
		if mine.Last4 != "4444" || mine.Brand != "mastercard" || mine.ID == card.ID {
			t.Fatalf("card on file = %+v", mine)
		}
		f.adv.Get("/api/cards/"+card.ID).Expect(t, 404)
		f.adv.Get("/api/cards/"+mine.ID).Expect(t, 200)

		// Another company's card answers 404, to read or to change; an admin may read it.
		f.other.Get("/api/cards/"+mine.ID).Expect(t, 404)
		f.other.Put("/api/cards/"+mine.ID, UpdateCardRequest{ExpMonth: 1, ExpYear: testkit.StartTime.Year() + 1}).Expect(t, 404)
		f.admin.Get("/api/cards/"+mine.ID).Expect(t, 200)
		f.adv.Get("/api/cards/not-an-id").Expect(t, 404)

		var upd CardResponse
		f.adv.Put("/api/cards/"+mine.ID, UpdateCardRequest{ExpMonth: 3, ExpYear: testkit.StartTime.Year() + 4}).Expect(t, 200).JSON(t, &upd)
		if upd.Card.ExpMonth != 3 || upd.Card.ExpYear != testkit.StartTime.Year()+4 {
			t.Fatalf("update = %+v", upd)
		}
		f.adv.Put("/api/cards/"+mine.ID, UpdateCardRequest{ExpMonth: 0, ExpYear: testkit.StartTime.Year()}).Expect(t, 400)

		if got := message(t, f.adv.Delete("/api/cards/me"), 200); got != MsgCardRemoved {
			t.Fatalf("remove = %q", got)
		}
		f.adv.Delete("/api/cards/me").Expect(t, 404)
		if _, err := f.bill.Service().FindCardOnFile(t.Context(), f.advCompany); apperr.CodeOf(err) != apperr.ENOTFOUND {
			t.Fatalf("card still on file: %v", err)
		}
		// The client cannot do without the CSRF header.
		f.adv.NoXHR = true
		f.adv.Post("/api/cards", AddCardRequest{}).Expect(t, 403)
	})
}

func TestPromos(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		var created PromoResponse
		f.super.Post("/api/admin/promo/", CreatePromoRequest{Code: "Welcome50", Value: money.Dollars(50), MaxCount: 2}).Expect(t, 201).JSON(t, &created)
		p := created.Promo
		if p.Code != "WELCOME50" || p.Value != money.Dollars(50) || p.Status != PromoActive || p.Remaining != 2 {
			t.Fatalf("created = %+v", p)
		}
		for _, tc := range []struct {
			req  CreatePromoRequest
			want string
		}{
			{CreatePromoRequest{Code: "WELCOME50", Value: 100, MaxCount: 1}, MsgPromoTaken},
			{CreatePromoRequest{Code: "welcome50", Value: 100, MaxCount: 1}, MsgPromoTaken},
			{CreatePromoRequest{Code: "HAS SPACE", Value: 100, MaxCount: 1}, MsgPromoWhitespace},
			{CreatePromoRequest{Code: "", Value: 100, MaxCount: 1}, MsgPromoRequired},
			{CreatePromoRequest{Code: "BAD!", Value: 100, MaxCount: 1}, MsgPromoFormat},
			{CreatePromoRequest{Code: "NEG", Value: -100, MaxCount: 1}, MsgPromoValue},
			{CreatePromoRequest{Code: "ZERO", Value: 0, MaxCount: 1}, MsgPromoValue},
			{CreatePromoRequest{Code: "HUGE", Value: money.Dollars(10_001), MaxCount: 1}, MsgPromoValue},
			{CreatePromoRequest{Code: "NOCOUNT", Value: 100, MaxCount: 0}, MsgPromoMaxCount},
			{CreatePromoRequest{Code: "TOOMANY", Value: 100, MaxCount: MaxPromoCount + 1}, MsgPromoMaxCount},
		} {
			if got := message(t, f.super.Post("/api/admin/promo/", tc.req), http.StatusBadRequest); got != tc.want {
				t.Fatalf("%+v: %q, want %q", tc.req, got, tc.want)
			}
		}
		f.super.Post("/api/admin/promo/", `{"code":"FLOATY","value":1.234,"max_count":1}`).Expect(t, 400)
		f.admin.Post("/api/admin/promo/", CreatePromoRequest{Code: "ADMIN", Value: 100, MaxCount: 1}).Expect(t, 403)

		// Lookup.
		var found PromoLookup
		f.adv.Get("/companies/findpromocode/welcome50").Expect(t, 200).JSON(t, &found)
		if found.Code != "WELCOME50" || found.Remaining != 2 || found.Status != PromoActive {
			t.Fatalf("lookup = %+v", found)
		}
		f.adv.Get("/companies/findpromocode/NOPE").Expect(t, 404)

		// Redeem: credit goes to the company and shows on currentCompany.
		var red RedeemPromoResponse
		f.adv.Post("/api/promo/", RedeemPromoRequest{Code: "welcome50"}).Expect(t, 200).JSON(t, &red)
		if red.Message != MsgPromoRedeemed || red.Amount != money.Dollars(50) {
			t.Fatalf("redeem = %+v", red)
		}
		var co identity.CurrentCompany
		f.adv.Get("/companies/currentCompany").Expect(t, 200).JSON(t, &co)
		if co.AccountCredit != money.Dollars(50) || co.ID != f.advCompany {
			t.Fatalf("currentCompany = %+v", co)
		}
		for _, tc := range []struct {
			c      *testkit.Client
			code   string
			status int
			want   string
		}{
			{f.adv, "WELCOME50", 409, MsgPromoAlreadyRedeemed},
			{f.adv, "WEL COME", 400, MsgPromoWhitespace},
			{f.adv, " WELCOME50", 400, MsgPromoWhitespace},
			{f.adv, "", 400, MsgPromoRequired},
			{f.adv, "UNKNOWN", 404, MsgPromoNotFound},
		} {
			if got := message(t, tc.c.Post("/api/promo/", RedeemPromoRequest{Code: tc.code}), tc.status); got != tc.want {
				t.Fatalf("redeem %q: %q, want %q", tc.code, got, tc.want)
			}
		}

		// Cancel, then a redeem is refused; enable again and it works; then exhausted.
		var st PromoStatusResponse
		f.super.Delete("/api/admin/promo/"+p.ID).Expect(t, 200).JSON(t, &st)
		if !st.Success || st.Status != PromoCancelled {
			t.Fatalf("cancel = %+v", st)
		}
		if got := message(t, f.other.Post("/api/promo/", RedeemPromoRequest{Code: "WELCOME50"}), 409); got != MsgPromoCancelled {
			t.Fatalf("cancelled: %q", got)
		}
		f.super.Put("/api/admin/promo/"+p.ID, nil).Expect(t, 200).JSON(t, &st)
		if st.Status != PromoActive {
			t.Fatalf("enable = %+v", st)
		}
		f.other.Post("/api/promo/", RedeemPromoRequest{Code: "WELCOME50"}).Expect(t, 200)
		third, _, err := f.ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: "cy@billing.test", Password: "billing password 1", CompanyName: "Third Co"})
		if err != nil {
			t.Fatal(err)
		}
		c3 := f.s.Client(t)
		c3.SessionAs(f.s, third.ID)
		if got := message(t, c3.Post("/api/promo/", RedeemPromoRequest{Code: "WELCOME50"}), 409); got != MsgPromoExhausted {
			t.Fatalf("exhausted: %q", got)
		}
		f.super.Put("/api/admin/promo/"+p.ID, nil).Expect(t, 200).JSON(t, &st)
		if st.Status != PromoExhausted {
			t.Fatalf("enable an exhausted promo = %+v", st)
		}
		f.super.Delete("/api/admin/promo/0190a000-0000-7000-8000-000000000000").Expect(t, 404)

		// The grid: envelope, filter, page sizes of B §2.
		f.s.Clock.Advance(time.Minute)
		f.super.Post("/api/admin/promo/", CreatePromoRequest{Code: "SPRING25", Value: money.Dollars(25), MaxCount: 5}).Expect(t, 201)
		var page pagination.Page[Promo]
		f.super.Get("/api/admin/promo/?page=1&page_size=50").Expect(t, 200).JSON(t, &page)
		if page.Total != 2 || len(page.Items) != 2 || page.Items[0].Code != "SPRING25" {
			t.Fatalf("grid = %+v", page)
		}
		f.super.Get("/api/admin/promo/?q=welc&page_size=0").Expect(t, 200).JSON(t, &page)
		if page.Total != 1 || page.Items[0].Code != "WELCOME50" || page.Items[0].RedeemCount != 2 || page.Items[0].Remaining != 0 || page.Items[0].Status != PromoExhausted {
			t.Fatalf("filtered grid = %+v", page)
		}
		f.super.Get("/api/admin/promo/?page_size=20").Expect(t, 400)

		// Who redeemed it, named by identity.
		var rs []PromoRedemption
		f.super.Get("/api/admin/promo/"+p.ID+"/companies").Expect(t, 200).JSON(t, &rs)
		if len(rs) != 2 || rs[0].CompanyName != "Sunrise Coffee" || rs[1].CompanyName != "Other Co" || rs[0].Amount != money.Dollars(50) {
			t.Fatalf("redemptions = %+v", rs)
		}

		// An admin removes the advertiser's active promo: its unspent credit goes too.
		ap, err := f.bill.Service().FindActivePromo(t.Context(), f.advCompany)
		if err != nil || ap.Code != "WELCOME50" {
			t.Fatalf("active promo = %+v, %v", ap, err)
		}
		if _, err := f.bill.Service().SpendCredit(t.Context(), CreditRequest{Key: "spend-1", CompanyID: f.advCompany, Amount: money.Dollars(20)}); err != nil {
			t.Fatal(err)
		}
		f.adv.Delete("/api/admin/companies/"+f.advCompany+"/promo").Expect(t, 403)
		if got := message(t, f.admin.Delete("/api/admin/companies/"+f.advCompany+"/promo"), 200); got != MsgActivePromoGone {
			t.Fatalf("remove active promo: %q", got)
		}
		f.adv.Get("/companies/currentCompany").Expect(t, 200).JSON(t, &co)
		if co.AccountCredit != 0 {
			t.Fatalf("credit after removal = %v", co.AccountCredit)
		}
		if got := message(t, f.admin.Delete("/api/admin/companies/"+f.advCompany+"/promo"), 404); got != MsgNoActivePromo {
			t.Fatalf("second removal: %q", got)
		}
		f.super.Get("/api/admin/promo/"+p.ID+"/companies").Expect(t, 200).JSON(t, &rs)
		if !rs[0].Removed {
			t.Fatalf("redemption not marked removed: %+v", rs[0])
		}
		assertCreditMatchesLedger(t, f, f.advCompany)
	})
}

func assertCreditMatchesLedger(t *testing.T, f *fixture, companyID string) {
	t.Helper()
	sum, err := f.bill.svc.store.CreditLedgerSum(t.Context(), companyID)
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.bill.Service().AccountCredit(t.Context(), companyID)
	if err != nil {
		t.Fatal(err)
	}
	if int64(got) != sum || got < 0 {
		t.Fatalf("account credit %v, ledger sum %d", got, sum)
	}
}

func TestCreditSpendAndApply(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		svc := f.bill.Service()
		ctx := t.Context()
		if _, err := svc.ApplyCredit(ctx, CreditRequest{Key: "grant-1", CompanyID: f.advCompany, Amount: 1000, Description: "goodwill"}); err != nil {
			t.Fatal(err)
		}
		// Same key, same movement: once.
		if _, err := svc.ApplyCredit(ctx, CreditRequest{Key: "grant-1", CompanyID: f.advCompany, Amount: 1000}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.ApplyCredit(ctx, CreditRequest{Key: "grant-1", CompanyID: f.advCompany, Amount: 999}); apperr.CodeOf(err) != apperr.ECONFLICT {
			t.Fatalf("reused key with another amount: %v", err)
		}
		if _, err := svc.SpendCredit(ctx, CreditRequest{Key: "spend-1", CompanyID: f.advCompany, Amount: 1001}); apperr.CodeOf(err) != apperr.ECONFLICT {
			t.Fatalf("overspend: %v", err)
		}
		if _, err := svc.SpendCredit(ctx, CreditRequest{Key: "spend-2", CompanyID: f.advCompany, Amount: 400}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.SpendCredit(ctx, CreditRequest{Key: "spend-3", CompanyID: f.advCompany, Amount: -1}); apperr.CodeOf(err) != apperr.EINVALID {
			t.Fatalf("negative spend: %v", err)
		}
		got, _ := svc.AccountCredit(ctx, f.advCompany)
		if got != 600 {
			t.Fatalf("credit = %v, want 600 cents", got)
		}
		assertCreditMatchesLedger(t, f, f.advCompany)
	})
}

func TestChargesAndRefunds(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		svc := f.bill.Service()
		ctx := t.Context()

		if _, err := svc.Charge(ctx, ChargeRequest{Key: "c-0", CompanyID: f.advCompany, Amount: 0}); apperr.CodeOf(err) != apperr.EINVALID {
			t.Fatalf("zero charge: %v", err)
		}
		// No card on file: the spec's message, and nothing charged.
		tx, err := svc.Charge(ctx, ChargeRequest{Key: "c-nocard", CompanyID: f.advCompany, Amount: 5000})
		if apperr.As(err).Message != MsgCardRequired || tx.Status != StatusFailed {
			t.Fatalf("no card: %+v %v", tx, err)
		}

		addCard(t, f.adv, "4242424242424242")
		tx, err = svc.Charge(ctx, ChargeRequest{Key: "c-1", CompanyID: f.advCompany, Amount: 125000, Description: "Week 1", CampaignRef: "camp-1"})
		if err != nil || tx.Status != StatusSucceeded || !strings.HasPrefix(tx.GatewayRef, "ch_") || tx.Amount != 125000 {
			t.Fatalf("charge = %+v %v", tx, err)
		}
		again, err := svc.Charge(ctx, ChargeRequest{Key: "c-1", CompanyID: f.advCompany, Amount: 125000})
		if err != nil || again.ID != tx.ID {
			t.Fatalf("repeat = %+v %v", again, err)
		}
		if _, err := svc.Charge(ctx, ChargeRequest{Key: "c-1", CompanyID: f.otherCo, Amount: 125000}); apperr.CodeOf(err) != apperr.ECONFLICT {
			t.Fatalf("key reused by another company: %v", err)
		}
		n, total, err := f.bill.sandbox.Charges(ctx, "c-1/")
		if err != nil || n != 1 || total != 125000 {
			t.Fatalf("gateway charges = %d %v %v", n, total, err)
		}
		// The settled charge is counted once for /metrics, the repeat not at all.
		scrape := httptest.NewRecorder()
		f.s.Kernel.Metrics.Handler("").ServeHTTP(scrape, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		if !strings.Contains(scrape.Body.String(), `marquee_charges_total{kind="charge",outcome="succeeded"} 1`+"\n") {
			t.Fatalf("charges metric: %s", grepLines(scrape.Body.String(), "marquee_charges_total"))
		}

		// Refunds: part, the rest, then nothing left; idempotent by key.
		r1, err := svc.Refund(ctx, RefundRequest{Key: "r-1", TransactionID: tx.ID, Amount: 25000})
		if err != nil || r1.Status != StatusSucceeded || r1.Kind != KindRefund || !strings.HasPrefix(r1.GatewayRef, "re_") {
			t.Fatalf("refund = %+v %v", r1, err)
		}
		if again, err := svc.Refund(ctx, RefundRequest{Key: "r-1", TransactionID: tx.ID, Amount: 25000}); err != nil || again.ID != r1.ID {
			t.Fatalf("repeat refund = %+v %v", again, err)
		}
		if _, err := svc.Refund(ctx, RefundRequest{Key: "r-2", TransactionID: tx.ID, Amount: 100001}); apperr.CodeOf(err) != apperr.ECONFLICT {
			t.Fatalf("over-refund: %v", err)
		}
		r2, err := svc.Refund(ctx, RefundRequest{Key: "r-3", TransactionID: tx.ID})
		if err != nil || r2.Amount != 100000 {
			t.Fatalf("refund the rest = %+v %v", r2, err)
		}
		if _, err := svc.Refund(ctx, RefundRequest{Key: "r-4", TransactionID: tx.ID}); apperr.CodeOf(err) != apperr.ECONFLICT {
			t.Fatalf("nothing left: %v", err)
		}
		camp, err := svc.FindCampaignCharges(ctx, f.advCompany, "camp-1")
		if err != nil || len(camp) != 3 || camp[0].Refunded != 125000 {
			t.Fatalf("campaign charges = %+v %v", camp, err)
		}

		// Declines when charged: the transaction fails with the gateway's message.
		for _, tc := range []struct{ number, msg string }{
			{"4000000000009995", GatewayMsgInsufficientFunds},
			{"4000000000000119", GatewayMsgProcessingError},
			{"4000000000000341", GatewayMsgDeclined},
		} {
			addCard(t, f.other, tc.number)
			key := "decline-" + tc.number
			tx, err := svc.Charge(ctx, ChargeRequest{Key: key, CompanyID: f.otherCo, Amount: 5000})
			if _, ok := AsCardError(err); !ok || apperr.As(err).Message != tc.msg || tx.Status != StatusFailed || tx.FailureMessage != tc.msg {
				t.Fatalf("%s: %+v %v", tc.number, tx, err)
			}
			// PUT /api/transactions/{id} retries it and answers the gateway's message (B §8).
			if e := cardErr(t, f.other.Put("/api/transactions/"+tx.ID, nil)); e.Message != tc.msg {
				t.Fatalf("retry: %+v", e)
			}
			// Another company cannot see it.
			f.adv.Put("/api/transactions/"+tx.ID, nil).Expect(t, 404)
		}
		// After a good card replaces the declined one, the retry succeeds and charges once.
		addCard(t, f.other, "4242424242424242")
		declined, _ := f.bill.svc.store.TransactionByKey(ctx, "decline-4000000000000341")
		var paid Transaction
		f.other.Put("/api/transactions/"+declined.ID, nil).Expect(t, 200).JSON(t, &paid)
		if paid.Status != StatusSucceeded {
			t.Fatalf("retry after new card = %+v", paid)
		}
		f.other.Put("/api/transactions/"+declined.ID, nil).Expect(t, 200).JSON(t, &paid)
		if n, _, _ := f.bill.sandbox.Charges(ctx, "decline-4000000000000341/"); n != 1 {
			t.Fatalf("charged %d times", n)
		}
		f.other.Put("/api/transactions/not-an-id", nil).Expect(t, 404)

		// The admin ledger: every kind, named companies, filter by company.
		if _, err := svc.ApplyCredit(ctx, CreditRequest{Key: "g-1", CompanyID: f.advCompany, Amount: 500}); err != nil {
			t.Fatal(err)
		}
		var ledger pagination.Page[Transaction]
		f.admin.Get("/api/admin/transactions?company="+f.advCompany+"&page_size=100").Expect(t, 200).JSON(t, &ledger)
		kinds := map[string]int{}
		for _, row := range ledger.Items {
			kinds[row.Kind]++
			if row.CompanyName != "Sunrise Coffee" || row.CompanyID != f.advCompany {
				t.Fatalf("ledger row = %+v", row)
			}
		}
		if kinds[KindCharge] != 2 || kinds[KindRefund] != 2 || kinds[KindCredit] != 1 || ledger.Total != 5 {
			t.Fatalf("ledger kinds = %v total %d", kinds, ledger.Total)
		}
		f.adv.Get("/api/admin/transactions").Expect(t, 403)
	})
}

// TestTimeoutStaysPendingAndTheJobChargesOnce: the gateway takes the charge but its answer is lost;
// the transaction stays pending; the job retries with the same key after the backoff, and the card
// is charged once.
func TestTimeoutStaysPendingAndTheJobChargesOnce(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		ctx := t.Context()
		addCard(t, f.adv, "4000000000000770")
		tx, err := f.bill.Service().Charge(ctx, ChargeRequest{Key: "week-1", CompanyID: f.advCompany, Amount: 9900})
		if err != nil || tx.Status != StatusPending {
			t.Fatalf("timeout = %+v %v", tx, err)
		}
		// The job leaves it alone until the backoff is over.
		if err := f.bill.RetryPayments(ctx); err != nil {
			t.Fatal(err)
		}
		row, _ := f.bill.svc.store.TransactionByID(ctx, tx.ID)
		if row.Status != StatusPending || row.Attempts != 1 {
			t.Fatalf("before backoff = %+v", row)
		}
		f.s.Clock.Advance(retryBase + 1)
		if err := f.bill.RetryPayments(ctx); err != nil {
			t.Fatal(err)
		}
		row, _ = f.bill.svc.store.TransactionByID(ctx, tx.ID)
		if row.Status != StatusSucceeded || row.Attempts != 2 || row.GatewayRef == "" {
			t.Fatalf("after retry = %+v", row)
		}
		if n, total, _ := f.bill.sandbox.Charges(ctx, "week-1/"); n != 1 || total != 9900 {
			t.Fatalf("charged %d times, %v", n, total)
		}
		// Nothing left for the job.
		if n, err := f.bill.svc.retryPending(ctx); err != nil || n != 0 {
			t.Fatalf("second pass attempted %d (%v)", n, err)
		}

		// The user need not wait for the job: PUT /api/transactions/{id} asks again at once, with the
		// same gateway key, and the lost charge is found rather than made twice.
		tx2, err := f.bill.Service().Charge(ctx, ChargeRequest{Key: "week-2", CompanyID: f.advCompany, Amount: 4200})
		if err != nil || tx2.Status != StatusPending {
			t.Fatalf("second timeout = %+v %v", tx2, err)
		}
		var done Transaction
		f.adv.Put("/api/transactions/"+tx2.ID, nil).Expect(t, 200).JSON(t, &done)
		if done.Status != StatusSucceeded || done.ID != tx2.ID {
			t.Fatalf("processed = %+v", done)
		}
		if n, _, _ := f.bill.sandbox.Charges(ctx, "week-2/"); n != 1 {
			t.Fatalf("week-2 charged %d times", n)
		}
		f.other.Put("/api/transactions/"+tx2.ID, nil).Expect(t, 404)
	})
}

// TestSandboxTokensExpire: a token not attached within its lifetime is refused, and the purge job
// deletes old tokens.
func TestSandboxTokensExpire(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		js := f.bill.Jobs()
		if len(js) != 2 || js[0].Name != JobRetryPayments || js[1].Name != JobPurgeSandboxTokens {
			t.Fatalf("jobs = %+v", js)
		}
		old := token(t, f.adv, "4242424242424242")
		f.s.Clock.Advance(25 * time.Hour)
		f.adv.SessionAs(f.s, f.advUser) // the old session expired too
		fresh := token(t, f.adv, "4242424242424242")
		if got := message(t, f.adv.Post("/api/cards", AddCardRequest{Token: old, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}), 400); got != MsgCardToken {
			t.Fatalf("expired token: %q", got)
		}
		if err := js[1].Run(t.Context()); err != nil {
			t.Fatal(err)
		}
		var left []string
		f.s.Kernel.DB.Table("billing_sandbox_tokens").Pluck("id", &left)
		if len(left) != 1 || left[0] != fresh {
			t.Fatalf("tokens left = %v", left)
		}
		f.adv.Post("/api/cards", AddCardRequest{Token: fresh, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}).Expect(t, 201)
	})
}

func TestSeedDemoTwice(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		u, _, err := f.ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: "cert@billing.test", Password: "billing password 1", CompanyName: "Cert Co", CompanyType: identity.CompanyCertified})
		if err != nil {
			t.Fatal(err)
		}
		accounts := server.DemoAccounts{"advertiser": {CompanyID: f.advCompany}, "certified": {CompanyID: u.Company.ID}}
		var summaries []string
		for i := 0; i < 2; i++ {
			s, err := f.bill.SeedDemo(t.Context(), accounts)
			if err != nil {
				t.Fatal(err)
			}
			summaries = append(summaries, s)
		}
		if !strings.Contains(summaries[0], "3 promos created") || !strings.Contains(summaries[1], "0 promos created") {
			t.Fatalf("summaries = %q", summaries)
		}
		var page pagination.Page[Promo]
		f.super.Get("/api/admin/promo/?page_size=0").Expect(t, 200).JSON(t, &page)
		statuses := map[string]bool{}
		for _, p := range page.Items {
			statuses[p.Status] = true
		}
		if !statuses[PromoActive] || !statuses[PromoCancelled] || !statuses[PromoExhausted] {
			t.Fatalf("demo promo statuses = %v", statuses)
		}
		var card Card
		f.adv.Get("/api/cards/me").Expect(t, 200).JSON(t, &card)
		if card.Last4 != "4242" {
			t.Fatalf("demo card = %+v", card)
		}
		if got, _ := f.bill.Service().AccountCredit(t.Context(), f.advCompany); got != money.Dollars(50) {
			t.Fatalf("demo credit = %v", got)
		}
		var ledger pagination.Page[Transaction]
		f.admin.Get("/api/admin/transactions?page_size=0").Expect(t, 200).JSON(t, &ledger)
		if ledger.Total != 3 { // the advertiser's promo credit, its paid week, the partner's promo credit
			t.Fatalf("demo ledger has %d rows: %+v", ledger.Total, ledger.Items)
		}
	})
}

// TestAfterAGatewaySwitch: a card saved and a charge made through the sandbox are not sent to
// another gateway (docs/payments.md "Switching to Stripe"): the card must be added again, and the
// refund is refused with a reason, not retried forever.
func TestAfterAGatewaySwitch(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		ctx := t.Context()
		addCard(t, f.adv, "4242424242424242")
		paid, err := f.bill.Service().Charge(ctx, ChargeRequest{Key: "before-switch", CompanyID: f.advCompany, Amount: 1000})
		if err != nil {
			t.Fatal(err)
		}
		// What a switch to Stripe leaves behind: rows saved by the sandbox.
		gdb := f.s.Kernel.DB
		if err := gdb.Exec("UPDATE billing_cards SET gateway = ?", GatewayStripe).Error; err != nil {
			t.Fatal(err)
		}
		if err := gdb.Exec("UPDATE billing_transactions SET gateway = ? WHERE id = ?", GatewayStripe, paid.ID).Error; err != nil {
			t.Fatal(err)
		}
		tx, err := f.bill.Service().Charge(ctx, ChargeRequest{Key: "after-switch", CompanyID: f.advCompany, Amount: 1000})
		if apperr.As(err).Message != MsgCardRequired || tx.Status != StatusFailed {
			t.Fatalf("charge on the old card = %+v %v", tx, err)
		}
		r, err := f.bill.Service().Refund(ctx, RefundRequest{Key: "refund-after-switch", TransactionID: paid.ID})
		if apperr.As(err).Message != MsgRefundOtherGateway || r.Status != StatusFailed {
			t.Fatalf("refund through the other gateway = %+v %v", r, err)
		}
		// The failed refund gave its amount back to the charge.
		row, _ := f.bill.svc.store.TransactionByID(ctx, paid.ID)
		if row.Refunded != 0 {
			t.Fatalf("refunded = %d", row.Refunded)
		}
		if n, _, _ := f.bill.sandbox.Charges(ctx, "after-switch"); n != 0 {
			t.Fatalf("charged %d times", n)
		}
	})
}

// TestScheduledChargeJoinsTheCallersTransaction: a scheduled charge exists only if the caller's
// transaction commits, is asked of the gateway once by SettleCharge or the job, and its outcome is
// published for campaigns.
func TestScheduledChargeJoinsTheCallersTransaction(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		ctx := t.Context()
		var settled []ChargeSettled
		f.s.Kernel.Events.Subscribe(EventChargeSettled, func(_ context.Context, e events.Event) error {
			var p ChargeSettled
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				return err
			}
			settled = append(settled, p)
			return nil
		})
		svc := f.bill.Service()
		if _, err := svc.ScheduleCharge(ctx, ChargeRequest{Key: "s-nocard", CompanyID: f.advCompany, Amount: 100}); apperr.As(err).Message != MsgCardRequired {
			t.Fatalf("no card: %v", err)
		}
		addCard(t, f.adv, "4242424242424242")

		// Rolled back with the caller: no charge is left.
		rollback := errors.New("caller failed")
		err := db.Transact(ctx, f.s.Kernel.DB, func(ctx context.Context) error {
			if _, err := svc.ScheduleCharge(ctx, ChargeRequest{Key: "s-rolled", CompanyID: f.advCompany, Amount: 100}); err != nil {
				return err
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatal(err)
		}
		if _, err := f.bill.svc.store.TransactionByKey(ctx, "s-rolled"); !db.IsNotFound(err) {
			t.Fatalf("a rolled-back charge is left: %v", err)
		}

		var tx *Transaction
		err = db.Transact(ctx, f.s.Kernel.DB, func(ctx context.Context) error {
			tx, err = svc.ScheduleCharge(ctx, ChargeRequest{Key: "s-1", CompanyID: f.advCompany, Amount: 4500, CampaignRef: "camp-9"})
			return err
		})
		if err != nil || tx.Status != StatusPending {
			t.Fatalf("scheduled = %+v %v", tx, err)
		}
		if again, err := svc.ScheduleCharge(ctx, ChargeRequest{Key: "s-1", CompanyID: f.advCompany, Amount: 4500}); err != nil || again.ID != tx.ID {
			t.Fatalf("again = %+v %v", again, err)
		}
		if _, err := svc.ScheduleCharge(ctx, ChargeRequest{Key: "s-1", CompanyID: f.advCompany, Amount: 4600}); apperr.CodeOf(err) != apperr.ECONFLICT {
			t.Fatalf("key reused: %v", err)
		}
		done, err := svc.SettleCharge(ctx, tx.ID)
		if err != nil || done.Status != StatusSucceeded {
			t.Fatalf("settled = %+v %v", done, err)
		}
		if again, err := svc.SettleCharge(ctx, tx.ID); err != nil || again.Status != StatusSucceeded {
			t.Fatalf("settled twice = %+v %v", again, err)
		}
		if n, _, _ := f.bill.sandbox.Charges(ctx, "s-1/"); n != 1 {
			t.Fatalf("charged %d times", n)
		}
		if _, err := f.s.Kernel.Events.Dispatch(ctx); err != nil {
			t.Fatal(err)
		}
		if len(settled) != 1 || settled[0].TransactionID != tx.ID || settled[0].Status != StatusSucceeded || settled[0].CampaignRef != "camp-9" {
			t.Fatalf("events = %+v", settled)
		}

		// A declined card settles as failed through the job, with the gateway's message.
		addCard(t, f.adv, "4000000000000341")
		tx2, err := svc.ScheduleCharge(ctx, ChargeRequest{Key: "s-2", CompanyID: f.advCompany, Amount: 700, CampaignRef: "camp-9"})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.bill.RetryPayments(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := f.s.Kernel.Events.Dispatch(ctx); err != nil {
			t.Fatal(err)
		}
		if len(settled) != 2 || settled[1].TransactionID != tx2.ID || settled[1].Status != StatusFailed || settled[1].Message != GatewayMsgDeclined {
			t.Fatalf("events = %+v", settled)
		}
	})
}

// grepLines is the lines of text that contain word.
func grepLines(text, word string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, word) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// AsCardError returns the card error err carries, if any.
func AsCardError(err error) (*CardError, bool) {
	var ce *CardError
	ok := errors.As(err, &ce)
	return ce, ok
}
