package campaigns

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"marquee/modules/billing"
	"marquee/modules/campaigns/internal/store"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/auth"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/events"
	"marquee/platform/httpx"
	"marquee/platform/money"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// start0 is the earliest start from testkit's clock (Sunday 2026-11-22): the Monday after next.
var start0 = dates.MustParse("2026-11-30")

// world is a running app with faces in two markets and two advertisers with a card and a creative.
type world struct {
	s       *testkit.Server
	m       *Module
	loc     locations.Service
	locMod  *locations.Module
	bill    *billing.Module
	ids     identity.Service
	adv     *advertiser
	other   *advertiser
	admin   *testkit.Client
	atlanta []locations.Location
	market2 string
	faces2  []locations.Location
}

// advertiser is a regular user of a company, signed in.
type advertiser struct {
	c         *testkit.Client
	p         *auth.Principal
	creative  string
	companyID string
}

func startWorld(t *testing.T, dialect string) *world {
	t.Helper()
	s := testkit.Start(t, dialect, server.Compose(Component))
	w := &world{s: s, m: testkit.ModuleOf[*Module](t, s), locMod: testkit.ModuleOf[*locations.Module](t, s),
		bill: testkit.ModuleOf[*billing.Module](t, s), ids: testkit.ModuleOf[*identity.Module](t, s).Service()}
	w.loc = w.locMod.Service()
	t.Cleanup(w.m.svc.background.Wait)
	ctx := t.Context()
	ms, err := w.loc.Markets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w.market2 = ms[0].Market
	if w.market2 == "Atlanta" {
		w.market2 = ms[1].Market
	}
	if _, err := w.locMod.GenerateInventory(ctx, locations.GenerateOptions{Markets: []string{"Atlanta", w.market2}, FacesPerMarket: 6, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	if w.atlanta, err = w.loc.Locations(ctx, locations.LocationQuery{Markets: []string{"Atlanta"}}); err != nil || len(w.atlanta) != 6 {
		t.Fatalf("faces %d %v", len(w.atlanta), err)
	}
	if w.faces2, err = w.loc.Locations(ctx, locations.LocationQuery{Markets: []string{w.market2}}); err != nil {
		t.Fatal(err)
	}
	w.adv = w.newAdvertiser(t, "ada@campaigns.test", advCompany, "4242424242424242")
	w.other = w.newAdvertiser(t, "bob@campaigns.test", "Other Co", "4242424242424242")
	u, _, err := w.ids.CreateUser(ctx, identity.CreateUserRequest{Email: "admin@campaigns.test", Password: "campaigns password 1", Role: identity.RoleAdmin})
	if err != nil {
		t.Fatal(err)
	}
	w.admin = s.Client(t)
	w.admin.SessionAs(s, u.ID)
	return w
}

// newAdvertiser makes a company with a user, a card on file (card number, "" for none) and a
// creative.
func (w *world) newAdvertiser(t testing.TB, email, company, card string) *advertiser {
	t.Helper()
	u, _, err := w.ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: email, Password: "campaigns password 1",
		Role: identity.RoleUser, CompanyName: company, FirstName: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	a := &advertiser{c: w.s.Client(t), p: &auth.Principal{UserID: u.ID, CompanyID: u.Company.ID, Email: email, Role: auth.SubjectUser}, companyID: u.Company.ID}
	a.c.SessionAs(w.s, u.ID)
	if card != "" {
		w.addCard(t, a, card)
	}
	a.creative = w.newCreative(t, a)
	return a
}

func (w *world) addCard(t testing.TB, a *advertiser, number string) {
	t.Helper()
	var tok billing.CardToken
	a.c.Post("/api/sandbox/tokens", billing.SandboxTokenRequest{Number: number, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2, CVC: "123"}).Expect(t, 200).JSON(t, &tok)
	a.c.Post("/api/cards", billing.AddCardRequest{Token: tok.ID, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}).Expect(t, 201)
}

// newCreative uploads a builder PNG and makes it a creative of the company, as the web app does.
func (w *world) newCreative(t testing.TB, a *advertiser) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 1400, 400))
	for x := 0; x < 1400; x += 7 {
		img.Set(x, x%400, color.RGBA{200, 30, 30, 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	var up struct{ Path string }
	a.c.Upload("/upload_creative_image", "file", testkit.File{Name: "creative.png", Body: buf.Bytes()}).Expect(t, 200).JSON(t, &up)
	if up.Path == "" {
		t.Fatal("upload: no path")
	}
	var cr struct{ ID string }
	a.c.Post("/api/creatives/", map[string]any{"creative": map[string]string{"name": "Spring sale", "url": up.Path}}).Expect(t, 201).JSON(t, &cr)
	return cr.ID
}

// post sends POST /api/campaigns with an Idempotency-Key.
func post(t testing.TB, s *testkit.Server, c *testkit.Client, key string, body any) *testkit.Response {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/campaigns", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	if key != "" {
		req.Header.Set(IdempotencyKeyHeader, key)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return &testkit.Response{Status: res.StatusCode, Header: res.Header, Body: out}
}

// form is a valid market-strategy form for the faces.
func (w *world) form(a *advertiser, frequency string, duration int, faces ...locations.Location) CampaignForm {
	f := CampaignForm{Name: "Spring push", TypeCampaign: TypePremium, StrategySelected: StrategyMarket,
		MarketsSelected: []string{"Atlanta"}, StartDate: start0.String(), FrequencySelected: frequency, Duration: duration,
		CreativeID: a.creative}
	for _, fc := range faces {
		f.PlacesChecked = append(f.PlacesChecked, PlaceChecked{ID: fc.ID})
		if !slices.Contains(f.MarketsSelected, fc.Market) {
			f.MarketsSelected = append(f.MarketsSelected, fc.Market)
		}
	}
	return f
}

// price is the server's price of the face in the week.
func (w *world) price(t testing.TB, face string, week dates.Date) money.Cents {
	t.Helper()
	q, err := w.loc.Quote(t.Context(), locations.QuoteRequest{FaceIDs: []string{face}, Weeks: []dates.Date{week}})
	if err != nil {
		t.Fatal(err)
	}
	return q[0].Price
}

// settle waits for the first charges settled after commit and delivers billing's events.
func (w *world) settle(t testing.TB) {
	t.Helper()
	w.m.svc.background.Wait()
	if _, err := w.s.Kernel.Events.Dispatch(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func (w *world) campaign(t testing.TB, id string) *Campaign {
	t.Helper()
	row, err := w.m.svc.store.CampaignByID(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return campaignDTO(row, "")
}

func (w *world) spotsOf(t testing.TB, a *advertiser, ref string) []locations.Spot {
	t.Helper()
	spots, err := w.loc.SpotsByRefs(t.Context(), a.companyID, []string{ref})
	if err != nil {
		t.Fatal(err)
	}
	return spots
}

func errorBody(t testing.TB, r *testkit.Response, status int) httpx.ErrorBody {
	t.Helper()
	var e httpx.ErrorBody
	r.Expect(t, status).JSON(t, &e)
	return e
}

func TestCreateBooksChargesAndActivates(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()

		var defs CampaignDefaults
		w.adv.c.Get("/api/campaigns/defaults").Expect(t, 200).JSON(t, &defs)
		if defs.Today.String() != "2026-11-22" || defs.EarliestStart != start0 || defs.DefaultStart != start0 || defs.MaxWeeks != 52 {
			t.Fatalf("defaults = %+v", defs)
		}

		faces := w.atlanta[:2]
		form := w.form(w.adv, FrequencyWeekly, 3, faces...)
		var gross money.Cents
		for i, f := range faces {
			p := w.price(t, f.ID, start0)
			form.PlacesChecked[i].Price = &p
			gross += p
		}
		form.WeeklyBudget = BudgetInput("$" + gross.DollarString())
		form.CitiesSelected = []string{""} // an empty cities list is removed
		var quote CampaignQuote
		w.adv.c.Post("/api/campaigns/quote", form).Expect(t, 200).JSON(t, &quote)
		if quote.Weekly != gross || quote.WeeklyBudget != gross || quote.Total != 3*gross || quote.Duration != 3 || len(quote.Prices) != 2 || *quote.Prices[0].Price != *form.PlacesChecked[0].Price {
			t.Fatalf("quote = %+v", quote)
		}
		var res CreateResponse
		post(t, w.s, w.adv.c, "key-1", form).Expect(t, 201).JSON(t, &res)
		c := res.Campaign
		if c.CompanyName != advCompany { // it was empty
			t.Fatalf("companyName = %q", c.CompanyName)
		}
		if !res.Success || res.Message != MsgCreated || c.Status != StatusPending || c.PaymentStatus != billing.StatusPending ||
			c.StartDate != start0 || c.EndDate.String() != "2026-12-20" || c.Duration != 3 || c.WeeklyBudget != gross ||
			c.TotalBudget != 3*gross || len(c.Cities) != 0 || c.CreativeID != w.adv.creative || c.TransactionID == "" {
			t.Fatalf("created = %+v", c)
		}
		weeks, err := w.m.svc.store.WeeksOf(ctx, c.ID)
		if err != nil || len(weeks) != 6 {
			t.Fatalf("weeks = %d %v", len(weeks), err)
		}
		for _, wk := range weeks {
			if wk.Status != WeekActive || wk.SpotID == "" || wk.LocationName == "" || wk.Market != "Atlanta" || wk.EndAt != wk.StartAt.AddDays(6) {
				t.Fatalf("week = %+v", wk)
			}
		}
		if spots := w.spotsOf(t, w.adv, c.ID); len(spots) != 6 {
			t.Fatalf("spots = %d", len(spots))
		}
		charges, _ := w.m.svc.store.ChargesOf(ctx, c.ID)
		if len(charges) != 1 || charges[0].Week != start0 || charges[0].Amount != int64(gross) || charges[0].Status != ChargePending {
			t.Fatalf("charges = %+v", charges)
		}

		w.settle(t)
		got := w.campaign(t, c.ID)
		if got.Status != StatusActive || got.PaymentStatus != billing.StatusSucceeded || got.TotalCost != gross {
			t.Fatalf("after the charge: %+v", got)
		}
		// The same event again, or an older failure arriving late, changes nothing.
		w.settle(t)
		payload, _ := json.Marshal(billing.ChargeSettled{TransactionID: c.TransactionID, Key: chargeKey(c.ID, start0), CompanyID: c.CompanyID,
			CampaignRef: c.ID, Week: &start0, Amount: gross, Status: billing.StatusFailed, Message: "late"})
		if err := db.Transact(ctx, w.s.Kernel.DB, func(ctx context.Context) error {
			return w.m.svc.onChargeSettled(ctx, events.Event{Name: billing.EventChargeSettled, Payload: payload})
		}); err != nil {
			t.Fatal(err)
		}
		if got := w.campaign(t, c.ID); got.Status != StatusActive || got.PaymentStatus != billing.StatusSucceeded || got.TotalCost != gross {
			t.Fatalf("after a late failure: %+v", got)
		}

		// The same key and form: the same campaign, as it is now. Another form: refused.
		var again CreateResponse
		post(t, w.s, w.adv.c, "key-1", form).Expect(t, 201).JSON(t, &again)
		if again.Campaign.ID != c.ID || again.Campaign.Status != StatusActive {
			t.Fatalf("replay = %+v", again.Campaign)
		}
		form.Name = "Another"
		if e := errorBody(t, post(t, w.s, w.adv.c, "key-1", form), 409); e.Message != MsgKeyReused {
			t.Fatalf("reused key: %+v", e)
		}
		// Another company's key space is its own.
		other := w.form(w.other, FrequencyOneTime, 0, w.atlanta[2])
		post(t, w.s, w.other.c, "key-1", other).Expect(t, 201)
	})
}

func TestCreateValidation(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		nocard := w.newAdvertiser(t, "nocard@campaigns.test", "No Card Co", "")
		face := w.atlanta[0]
		price := w.price(t, face.ID, start0)
		wrong := price + 1000
		cases := []struct {
			name    string
			who     *advertiser
			key     string
			edit    func(f *CampaignForm)
			status  int
			field   string
			message string
		}{
			{"no key", w.adv, "-", func(f *CampaignForm) {}, 400, fieldKey, MsgKeyRequired},
			{"long key", w.adv, strings.Repeat("k", 101), func(f *CampaignForm) {}, 400, fieldKey, MsgKeyRequired},
			{"no name", w.adv, "", func(f *CampaignForm) { f.Name = "  " }, 400, fieldName, MsgNameRequired},
			{"long name", w.adv, "", func(f *CampaignForm) { f.Name = strings.Repeat("n", 101) }, 400, fieldName, MsgNameTooLong},
			{"type", w.adv, "", func(f *CampaignForm) { f.TypeCampaign = 7 }, 400, fieldType, MsgTypeInvalid},
			{"strategy", w.adv, "", func(f *CampaignForm) { f.StrategySelected = 3 }, 400, fieldStrategy, MsgStrategyInvalid},
			{"frequency", w.adv, "", func(f *CampaignForm) { f.FrequencySelected = "daily" }, 400, fieldFrequency, MsgFrequencyInvalid},
			{"no start", w.adv, "", func(f *CampaignForm) { f.StartDate = "" }, 400, fieldStart, MsgStartRequired},
			{"not a Monday", w.adv, "", func(f *CampaignForm) { f.StartDate = "2026-12-01" }, 400, fieldStart, MsgStartNotMonday},
			{"in the past", w.adv, "", func(f *CampaignForm) { f.StartDate = "2026-11-16" }, 400, fieldStart, MsgStartTooSoon},
			{"past the cut-off", w.adv, "", func(f *CampaignForm) { f.StartDate = "2026-11-23" }, 400, fieldStart, MsgStartTooSoon},
			{"end not a Sunday", w.adv, "", func(f *CampaignForm) { f.FrequencySelected, f.EndDate = FrequencyWeekly, "2026-12-12" }, 400, fieldEnd, MsgEndNotSunday},
			{"end before start", w.adv, "", func(f *CampaignForm) { f.FrequencySelected, f.EndDate = FrequencyWeekly, "2026-11-29" }, 400, fieldEnd, MsgEndBeforeStart},
			{"duration 53", w.adv, "", func(f *CampaignForm) { f.FrequencySelected, f.Duration = FrequencyWeekly, 53 }, 400, fieldDuration, MsgDurationTooLong},
			{"end 53 weeks away", w.adv, "", func(f *CampaignForm) { f.FrequencySelected, f.EndDate = FrequencyWeekly, "2027-12-05" }, 400, fieldDuration, MsgDurationTooLong},
			{"no location", w.adv, "", func(f *CampaignForm) { f.PlacesChecked = nil }, 400, fieldPlaces, MsgLocationRequired},
			{"budget abc", w.adv, "", func(f *CampaignForm) { f.WeeklyBudget = "abc" }, 400, fieldBudget, MsgInvalidNumber},
			{"unknown face", w.adv, "", func(f *CampaignForm) { f.PlacesChecked = []PlaceChecked{{ID: "0190a000-0000-7000-8000-000000000000"}} }, 404, "", MsgFaceNotFound},
			{"face outside the markets", w.adv, "", func(f *CampaignForm) { f.PlacesChecked = []PlaceChecked{{ID: w.faces2[0].ID}} }, 400, fieldPlaces, MsgFaceNotInMarket},
			{"face outside the cities", w.adv, "", func(f *CampaignForm) { f.CitiesSelected = []string{otherCity(t, w, face)} }, 400, fieldPlaces, MsgFaceNotInMarket},
			{"unknown market", w.adv, "", func(f *CampaignForm) { f.MarketsSelected = []string{"Atlantis"} }, 400, fieldMarkets, locations.MsgUnknownMarket},
			{"another company's creative", w.adv, "", func(f *CampaignForm) { f.CreativeID = w.other.creative }, 404, "", "Creative not found."},
			{"no creative", w.adv, "", func(f *CampaignForm) { f.CreativeID = "" }, 400, fieldCreative, MsgCreativeRequired},
			{"no card", nocard, "", func(f *CampaignForm) { f.CreativeID = nocard.creative }, 400, fieldCard, MsgCardRequired},
			{"tampered price", w.adv, "", func(f *CampaignForm) { f.PlacesChecked[0].Price = &wrong }, 400, fieldPlaces, MsgPriceChanged},
			{"tampered budget", w.adv, "", func(f *CampaignForm) { f.WeeklyBudget = BudgetInput((price / 2).DollarString()) }, 400, fieldBudget, MsgBudgetMismatch},
			{"radius without a place", w.adv, "", func(f *CampaignForm) { f.StrategySelected = StrategyRadius }, 400, fieldPlace, locations.MsgPlaceRequired},
			{"face outside the radius", w.adv, "", func(f *CampaignForm) {
				f.StrategySelected, f.PlaceID, f.RadiusCheckValue = StrategyRadius, placeNear(t, w, "Atlanta"), 5
				f.PlacesChecked = []PlaceChecked{{ID: w.faces2[0].ID}}
			}, 400, fieldPlaces, MsgFaceNotInRadius},
		}
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				f := w.form(c.who, FrequencyOneTime, 0, face)
				f.PlacesChecked[0].Price = &price
				f.WeeklyBudget = BudgetInput(price.DollarString())
				c.edit(&f)
				key := c.key
				switch key {
				case "":
					key = fmt.Sprintf("bad-%d", i)
				case "-":
					key = ""
				}
				e := errorBody(t, post(t, w.s, c.who.c, key, f), c.status)
				if e.Message != c.message || (c.field != "" && e.Errors[c.field] != c.message) {
					t.Fatalf("answer = %+v, want %s on %s", e, c.message, c.field)
				}
			})
		}
		// Nothing was made by the refusals.
		for _, a := range []*advertiser{w.adv, nocard} {
			if n, weeks, charges, _ := w.m.svc.store.CountCompany(t.Context(), a.companyID); n+weeks+charges != 0 {
				t.Fatalf("left behind: %d %d %d", n, weeks, charges)
			}
		}
		// A valid radius campaign around the same place, and the admin cannot create.
		f := w.form(w.adv, FrequencyOngoing, 0, face)
		f.StrategySelected, f.PlaceID, f.RadiusCheckValue, f.MarketsSelected = StrategyRadius, placeNear(t, w, "Atlanta"), 50, nil
		var res CreateResponse
		post(t, w.s, w.adv.c, "radius", f).Expect(t, 201).JSON(t, &res)
		if res.Campaign.Strategy != StrategyRadius || res.Campaign.RadiusCheckValue != 50 || res.Campaign.Duration != 1 || res.Campaign.Frequency != FrequencyOngoing ||
			!slices.Equal(res.Campaign.Markets, []string{"Atlanta"}) {
			t.Fatalf("radius campaign = %+v", res.Campaign)
		}
		post(t, w.s, w.admin, "admin", f).Expect(t, 403)
	})
}

// otherCity is a city of the face's market that is not the face's.
func otherCity(t testing.TB, w *world, face locations.Location) string {
	ms, _ := w.loc.Markets(t.Context())
	for _, m := range ms {
		if m.Market == face.Market {
			for _, c := range m.Cities {
				if c != face.City {
					return c
				}
			}
		}
	}
	t.Fatal("no other city")
	return ""
}

// placeNear is the id of the first place the search finds for the text.
func placeNear(t testing.TB, w *world, text string) string {
	t.Helper()
	var ps []locations.PlacePrediction
	w.adv.c.Get("/api/places/predictions?input="+text).Expect(t, 200).JSON(t, &ps)
	if len(ps) == 0 {
		t.Fatal("no place")
	}
	return ps[0].ID
}

func TestCreditAndPaymentOutcomes(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		svc := w.bill.Service()
		face := w.atlanta[0]
		price := w.price(t, face.ID, start0)

		// Credit covering two weeks of a two-week campaign: active at once, nothing charged.
		if _, err := svc.ApplyCredit(ctx, billing.CreditRequest{Key: "grant-1", CompanyID: w.adv.companyID, Amount: 2 * price}); err != nil {
			t.Fatal(err)
		}
		var res CreateResponse
		post(t, w.s, w.adv.c, "credit", w.form(w.adv, FrequencyWeekly, 2, face)).Expect(t, 201).JSON(t, &res)
		if c := res.Campaign; c.Status != StatusActive || c.PaymentStatus != billing.StatusSucceeded || c.WeeklyBudget != 0 || c.TotalBudget != 0 || c.TransactionID != "" {
			t.Fatalf("credit campaign = %+v", c)
		}
		if credit, _ := svc.AccountCredit(ctx, w.adv.companyID); credit != price {
			t.Fatalf("credit left = %v, want one week's", credit)
		}
		// The second week takes the rest of the credit when the job charges it.
		row, _ := w.m.svc.store.CampaignByID(ctx, res.Campaign.ID)
		ch, err := w.charge(t, row, start0.AddWeeks(1))
		if err != nil || ch.Status != ChargeSucceeded || ch.Credit != int64(price) || ch.Amount != 0 {
			t.Fatalf("second week = %+v %v", ch, err)
		}
		if again, err := w.charge(t, row, start0.AddWeeks(1)); err != nil || again.ID != ch.ID {
			t.Fatalf("charged twice: %+v %v", again, err)
		}

		// A declined card: the campaign stays pending with the gateway's message.
		declined := w.newAdvertiser(t, "dee@campaigns.test", "Declined Co", "4000000000000341")
		post(t, w.s, declined.c, "declined", w.form(declined, FrequencyWeekly, 2, w.atlanta[1])).Expect(t, 201).JSON(t, &res)
		w.settle(t)
		got := w.campaign(t, res.Campaign.ID)
		if got.Status != StatusPending || got.PaymentStatus != billing.StatusFailed || got.PaymentMessage != billing.GatewayMsgDeclined || got.TransactionID == "" {
			t.Fatalf("declined = %+v", got)
		}
		// A good card and a retry through billing: active.
		w.addCard(t, declined, "4242424242424242")
		declined.c.Put("/api/transactions/"+got.TransactionID, nil).Expect(t, 200)
		w.settle(t)
		if got = w.campaign(t, got.ID); got.Status != StatusActive || got.PaymentStatus != billing.StatusSucceeded || got.PaymentMessage != "" {
			t.Fatalf("after the retry = %+v", got)
		}

		// A later week declined: the campaign is paused and the advertiser emailed.
		w.addCard(t, declined, "4000000000000341")
		row, _ = w.m.svc.store.CampaignByID(ctx, got.ID)
		if ch, err = w.charge(t, row, start0.AddWeeks(1)); err != nil || ch.Status != ChargePending {
			t.Fatalf("week 2 = %+v %v", ch, err)
		}
		if err := w.bill.RetryPayments(ctx); err != nil {
			t.Fatal(err)
		}
		w.settle(t)
		if got = w.campaign(t, got.ID); got.Status != StatusPaused || got.PaymentStatus != billing.StatusFailed {
			t.Fatalf("after week 2 failed = %+v", got)
		}
		mails := w.s.DeliverMail(t)
		if len(mails) == 0 || !strings.Contains(mails[len(mails)-1], "dee@campaigns.test") || !strings.Contains(mails[len(mails)-1], billing.GatewayMsgDeclined) {
			t.Fatalf("mails = %v", mails)
		}
	})
}

// charge runs scheduleWeekCharge in a transaction, as the weekly job does.
func (w *world) charge(t testing.TB, row *store.Campaign, week dates.Date) (*store.Charge, error) {
	t.Helper()
	var ch *store.Charge
	err := db.Transact(t.Context(), w.s.Kernel.DB, func(ctx context.Context) error {
		var err error
		ch, err = w.m.svc.scheduleWeekCharge(ctx, row, week)
		return err
	})
	return ch, err
}

func TestCrashAfterBookingLeavesNothing(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		svc := w.bill.Service()
		// Credit for part of the first week, so the creation spends credit and charges the card.
		if _, err := svc.ApplyCredit(ctx, billing.CreditRequest{Key: "grant", CompanyID: w.adv.companyID, Amount: 5000}); err != nil {
			t.Fatal(err)
		}
		crash := errors.New("killed midway")
		w.m.svc.afterBook = func() error { return crash }
		form := w.form(w.adv, FrequencyWeekly, 4, w.atlanta[:3]...)
		errorBody(t, post(t, w.s, w.adv.c, "crash", form), 500)
		if n, weeks, charges, err := w.m.svc.store.CountCompany(ctx, w.adv.companyID); err != nil || n+weeks+charges != 0 {
			t.Fatalf("campaigns %d, weeks %d, charges %d left (%v)", n, weeks, charges, err)
		}
		// No spot or hold of the company anywhere (the calendar lists the company's live weeks).
		var cal []locations.CalendarLocation
		w.adv.c.Get("/api/calendar/locations").Expect(t, 200).JSON(t, &cal)
		if len(cal) != 0 {
			t.Fatalf("calendar = %+v", cal)
		}
		for _, f := range w.atlanta[:3] {
			q, _ := w.loc.Quote(ctx, locations.QuoteRequest{FaceIDs: []string{f.ID}, Weeks: start0.Weeks(4)})
			for _, x := range q {
				if x.UsedSpots != 0 {
					t.Fatalf("a spot is left: %+v", x)
				}
			}
		}
		if credit, _ := svc.AccountCredit(ctx, w.adv.companyID); credit != 5000 {
			t.Fatalf("credit = %v", credit)
		}
		if n := w.ledgerRows(t, w.adv.companyID, ""); n != 1 {
			t.Fatalf("ledger rows = %d, want only the grant", n)
		}
		// The same key works once the failure is gone: nothing of the first try is in the way.
		w.m.svc.afterBook = nil
		post(t, w.s, w.adv.c, "crash", form).Expect(t, 201)
		w.adv.c.Get("/api/calendar/locations").Expect(t, 200).JSON(t, &cal)
		if len(cal) != 3 || len(cal[0].Weeks) != 4 {
			t.Fatalf("calendar after the creation = %d faces", len(cal))
		}
	})
}

func TestDoubleSubmitMakesOneCampaign(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		form := w.form(w.adv, FrequencyWeekly, 2, w.atlanta[:2]...)
		const n = 8
		answers := make([]*testkit.Response, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { answers[i] = post(t, w.s, w.adv.c, "double", form) })
		}
		wg.Wait()
		id := ""
		for _, r := range answers {
			var res CreateResponse
			r.Expect(t, 201).JSON(t, &res)
			if id == "" {
				id = res.Campaign.ID
			}
			if res.Campaign.ID != id {
				t.Fatalf("two campaigns: %s and %s", id, res.Campaign.ID)
			}
		}
		if n, weeks, charges, _ := w.m.svc.store.CountCompany(t.Context(), w.adv.companyID); n != 1 || weeks != 4 || charges != 1 {
			t.Fatalf("campaigns %d, weeks %d, charges %d", n, weeks, charges)
		}
		if spots := w.spotsOf(t, w.adv, id); len(spots) != 4 {
			t.Fatalf("spots = %d", len(spots))
		}
		w.settle(t)
		if n := w.ledgerRows(t, w.adv.companyID, id); n != 1 {
			t.Fatalf("%d charges", n)
		}
	})
}

// ledgerRows counts the company's billing transactions (of the campaign, when given), from the
// admin ledger.
func (w *world) ledgerRows(t testing.TB, companyID, campaign string) int {
	t.Helper()
	var page struct{ Total int }
	w.admin.Get("/api/admin/transactions?page_size=0&company="+companyID+"&campaign="+campaign).Expect(t, 200).JSON(t, &page)
	return page.Total
}

// fill books every free spot of the face in the week for another company.
func (w *world) fill(t testing.TB, face string, week dates.Date, leave int) {
	t.Helper()
	q, err := w.loc.Quote(t.Context(), locations.QuoteRequest{FaceIDs: []string{face}, Weeks: []dates.Date{week}})
	if err != nil {
		t.Fatal(err)
	}
	for i := q[0].UsedSpots; i < q[0].AvailableSpots-leave; i++ {
		if _, err := w.loc.Book(t.Context(), locations.ReserveRequest{Key: fmt.Sprintf("fill-%s-%s-%d", face, week, i), CompanyID: w.other.companyID,
			Items: []locations.FaceWeek{{FaceID: face, Week: week}}}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestConflictsAndResolution(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		a, b := w.atlanta[0], w.atlanta[1]
		wk2 := start0.AddWeeks(1)
		w.fill(t, a.ID, wk2, 0) // face a is sold out in the second week

		conflictOf := func(key string) ConflictResponse {
			t.Helper()
			var cr ConflictResponse
			post(t, w.s, w.adv.c, key, w.form(w.adv, FrequencyWeekly, 3, a, b)).Expect(t, 409).JSON(t, &cr)
			if cr.Success || cr.Message != MsgConflict || cr.Campaign.Status != StatusConflict || cr.Params.Name != "Spring push" || cr.Campaign.CompanyName != advCompany ||
				!cr.Campaign.ExpiresAt.Equal(testkit.StartTime.Add(w.m.deps.HoldTTL)) {
				t.Fatalf("conflict = %+v", cr)
			}
			active, reserved := 0, 0
			for _, wk := range cr.Campaign.Weeks {
				switch {
				case wk.StatusWeek == WeekActive:
					active++
					if wk.ProductID == a.ID && wk.StartAt == wk2 {
						t.Fatalf("the taken week is active: %+v", wk)
					}
				case wk.StatusWeek == WeekReserved && wk.ProductID == a.ID && wk.StartAt == start0.AddWeeks(3):
					reserved++ // the nearest later free week
				default:
					t.Fatalf("week = %+v", wk)
				}
			}
			if active != 5 || reserved != 1 {
				t.Fatalf("active %d, reserved %d", active, reserved)
			}
			return cr
		}

		// The same key answers the same conflict; the draft is not a campaign yet.
		cr := conflictOf("c-1")
		if again := conflictOf("c-1"); again.Campaign.ID != cr.Campaign.ID {
			t.Fatal("a second draft for the same key")
		}
		if n := len(w.spotsOf(t, w.adv, cr.Campaign.ID)); n != 6 {
			t.Fatalf("held spots = %d", n)
		}
		if charges, _ := w.m.svc.store.ChargesOf(ctx, cr.Campaign.ID); len(charges) != 0 {
			t.Fatalf("a draft was charged: %+v", charges)
		}
		// Another company's draft is not found; a bad choice is refused.
		w.other.c.Post("/api/campaigns/"+cr.Campaign.ID+"/resolve", ResolveRequest{Choice: ResolveOwnDates}).Expect(t, 404)
		if e := errorBody(t, w.adv.c.Post("/api/campaigns/"+cr.Campaign.ID+"/resolve", ResolveRequest{Choice: "mine"}), 400); e.Errors["choice"] != MsgChoiceInvalid {
			t.Fatalf("bad choice = %+v", e)
		}

		// Keep my own dates: the five free weeks are booked, the suggested one released.
		var rr ResolveResponse
		w.adv.c.Post("/api/campaigns/"+cr.Campaign.ID+"/resolve", ResolveRequest{Choice: ResolveOwnDates}).Expect(t, 200).JSON(t, &rr)
		if !rr.Success || rr.Campaign == nil || rr.Campaign.Status != StatusPending || rr.Campaign.StartDate != start0 || rr.Campaign.Duration != 3 || rr.Campaign.CompanyName != advCompany {
			t.Fatalf("own = %+v", rr.Campaign)
		}
		weeks, _ := w.m.svc.store.WeeksOf(ctx, cr.Campaign.ID)
		spots := w.spotsOf(t, w.adv, cr.Campaign.ID)
		if len(weeks) != 5 || len(spots) != 5 || slices.ContainsFunc(spots, func(s locations.Spot) bool { return s.Status != locations.StatusActive }) {
			t.Fatalf("weeks %d, spots %+v", len(weeks), spots)
		}
		w.adv.c.Post("/api/campaigns/"+cr.Campaign.ID+"/resolve", ResolveRequest{Choice: ResolveOwnDates}).Expect(t, 409)
		w.settle(t)
		if got := w.campaign(t, cr.Campaign.ID); got.Status != StatusActive {
			t.Fatalf("resolved campaign = %+v", got)
		}
		// The key now answers the campaign.
		post(t, w.s, w.adv.c, "c-1", w.form(w.adv, FrequencyWeekly, 3, a, b)).Expect(t, 201)

		// Use the suggested dates: every week is booked, the reserved one turns active, the
		// campaign runs to the suggested week's Sunday.
		w.fill(t, b.ID, wk2, 0)
		var cr2 ConflictResponse
		post(t, w.s, w.adv.c, "c-2", w.form(w.adv, FrequencyWeekly, 3, a, b)).Expect(t, 409).JSON(t, &cr2)
		w.adv.c.Post("/api/campaigns/"+cr2.Campaign.ID+"/resolve", ResolveRequest{Choice: ResolveSuggestedDates}).Expect(t, 200).JSON(t, &rr)
		weeks, _ = w.m.svc.store.WeeksOf(ctx, cr2.Campaign.ID)
		if len(weeks) != len(cr2.Campaign.Weeks) || slices.ContainsFunc(weeks, func(x store.Week) bool { return x.Status != WeekActive }) ||
			len(w.spotsOf(t, w.adv, cr2.Campaign.ID)) != len(weeks) || rr.Campaign.EndDate != cr2.Campaign.Weeks[len(cr2.Campaign.Weeks)-1].EndAt {
			t.Fatalf("suggested: %d weeks, campaign %+v", len(weeks), rr.Campaign)
		}

		// A one-time campaign on a sold-out week: keeping my own dates leaves nothing.
		w.fill(t, w.atlanta[2].ID, start0, 0)
		var cr3 ConflictResponse
		post(t, w.s, w.adv.c, "c-3", w.form(w.adv, FrequencyOneTime, 0, w.atlanta[2])).Expect(t, 409).JSON(t, &cr3)
		w.adv.c.Post("/api/campaigns/"+cr3.Campaign.ID+"/resolve", ResolveRequest{Choice: ResolveOwnDates}).Expect(t, 200).JSON(t, &rr)
		if rr.Campaign != nil || rr.Message != MsgNothingCreated || len(w.spotsOf(t, w.adv, cr3.Campaign.ID)) != 0 {
			t.Fatalf("nothing kept = %+v", rr)
		}
		if n, weeks, _, _ := w.m.svc.store.CountRows(ctx, cr3.Campaign.ID); n+weeks != 0 {
			t.Fatal("the draft is left")
		}

		// An abandoned draft expires with its holds; its key is free again.
		var cr4 ConflictResponse
		post(t, w.s, w.adv.c, "c-4", w.form(w.adv, FrequencyOneTime, 0, w.atlanta[2])).Expect(t, 409).JSON(t, &cr4)
		w.s.Clock.Advance(w.m.deps.HoldTTL + 1)
		if err := w.m.svc.expireDrafts(ctx); err != nil {
			t.Fatal(err)
		}
		if err := w.m.svc.expireDrafts(ctx); err != nil {
			t.Fatal(err)
		}
		if n, weeks, _, _ := w.m.svc.store.CountRows(ctx, cr4.Campaign.ID); n+weeks != 0 || len(w.spotsOf(t, w.adv, cr4.Campaign.ID)) != 0 {
			t.Fatal("the expired draft is left")
		}
		w.adv.c.Post("/api/campaigns/"+cr4.Campaign.ID+"/resolve", ResolveRequest{Choice: ResolveSuggestedDates}).Expect(t, 404)
	})
}

// advCompany is the company of the world's advertiser.
const advCompany = "Sunrise Coffee"
