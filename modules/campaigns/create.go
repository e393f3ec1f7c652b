package campaigns

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"marquee/modules/billing"
	"marquee/modules/campaigns/internal/store"
	"marquee/modules/creatives"
	"marquee/modules/locations"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/clock"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/money"
	"marquee/platform/retry"
)

// Campaign creation (brief decisions 2–4, 7, 8). planCampaign validates a form and prices
// it on the server without writing; bookPlan books a plan's weeks in the caller's transaction;
// create runs both, with the first charge, in one transaction, and turns a conflict into a draft
// (conflicts.go).

// Field names of the create errors (the web form focuses them).
const (
	fieldName      = "name"
	fieldType      = "typeCampaign"
	fieldStrategy  = "strategySelected"
	fieldMarkets   = "marketsSelected"
	fieldCities    = "citiesSelected"
	fieldPlace     = "place_id"
	fieldRadius    = "radiusCheckValue"
	fieldPlaces    = "places_checked"
	fieldStart     = "startDate"
	fieldEnd       = "endDate"
	fieldFrequency = "frequencySelected"
	fieldDuration  = "duration"
	fieldCreative  = "creative"
	fieldCard      = "card"
	fieldBudget    = "weekly_budget"
	fieldMaxBudget = "maxBudget"
	fieldPromo     = "promo_code"
	fieldKey       = "Idempotency-Key"
)

// maxNameLength is the longest campaign name (the column's size).
const maxNameLength = 100

// budgetTolerance is how far the form's weekly budget may be from the server's: the form shows
// budgets without cents (B §9), so it may send a rounded amount.
const budgetTolerance = money.Cents(100)

// planOptions adjust planCampaign for its callers.
type planOptions struct {
	// CompanyID is whose campaign it is: the caller's company, or, for an admin editing another
	// company's campaign, that company (its creatives, credit and card).
	CompanyID string
	// Admin applies the admin rules of B §5: any Monday may start, the Wednesday cut-off aside.
	Admin bool
	// KeepStart, when set, is the start of the campaign being edited: keeping it is allowed even
	// past its cut-off (the edit lock of B §2 decides instead).
	KeepStart dates.Date
	// SkipCard does not require a card on file (an edit that charges nothing new).
	SkipCard bool
	// SkipCreative does not require a creative (a quote).
	SkipCreative bool
	// SkipClientPrices does not compare the form's prices and weekly budget with the server's.
	SkipClientPrices bool
	// Quote prices the form for the review step: a maximum-budget daily budget below the minimum
	// is reported (impressions 0, likely cleared, B §4) instead of refused, and a missing one is
	// taken as the minimum.
	Quote bool
}

// campaignPlan is a validated, priced form: everything a campaign row and its weeks need. Prices
// are the server's; nothing the client sent about money is used.
type campaignPlan struct {
	Form         CampaignForm
	CompanyID    string
	Name         string
	Type         int
	MaxBudget    money.Cents // maximum-budget mode: the daily budget
	Strategy     int
	Markets      []string
	Cities       []string
	PlaceID      string
	Radius       int
	Frequency    string
	Start, End   dates.Date
	Duration     int
	Weeks        []dates.Date         // the Mondays booked now
	Faces        []locations.Location // the chosen faces, in the form's order, without repeats
	Prices       map[string]money.Cents
	Quotes       map[locations.FaceWeek]locations.Quote
	Creative     *creatives.Creative
	Credit       money.Cents   // the company's account credit when planned
	Quote        billing.Quote // the weeks of the duration, credit split across them (B §9)
	WeeklyBudget money.Cents   // the first week's net: what the form shows as the weekly budget
	Impressions  int64         // the start week's estimated impressions of the chosen faces
	Likely       []string      // the chosen faces flagged likely (none below the minimum budget)
	// PromoCode is the promo the form names when the company redeemed it (stored with the
	// campaign); PromoCredit its credit still in the account (B §9).
	PromoCode   string
	PromoCredit money.Cents
	// Maximum-budget mode (B §9): the suggested and the least daily budget, and whether MaxBudget
	// is below that least one (a quote only: a creation refuses it).
	SuggestedDaily, MinDaily money.Cents
	BelowMinimum             bool
	// BookKey is the locations reservation key of bookPlan; "" means campaign:<id>.
	BookKey string
}

// Gross is the sum of the chosen faces' weekly prices (start week).
func (p *campaignPlan) Gross() money.Cents { return p.Quote.Weekly }

// planCampaign validates the form by B §3 and §5, each refusal with its exact message and field,
// and prices it from the locations service and billing's rules. It writes nothing.
// EINVALID (400), ENOTFOUND for an unknown face or another company's creative.
func (s *service) planCampaign(ctx context.Context, p *auth.Principal, form CampaignForm, opts planOptions) (*campaignPlan, error) {
	if opts.CompanyID == "" && p != nil {
		opts.CompanyID = p.CompanyID
	}
	today := dates.Today(s.deps.Clock)
	plan := &campaignPlan{Form: form, CompanyID: opts.CompanyID}

	plan.Name = strings.TrimSpace(form.Name)
	if plan.Name == "" {
		return nil, apperr.Field(fieldName, MsgNameRequired)
	}
	if len([]rune(plan.Name)) > maxNameLength {
		return nil, apperr.Field(fieldName, MsgNameTooLong)
	}
	if form.TypeCampaign != TypePremium && form.TypeCampaign != TypeMaximumBudget {
		return nil, apperr.Field(fieldType, MsgTypeInvalid)
	}
	plan.Type = form.TypeCampaign
	if form.StrategySelected != StrategyRadius && form.StrategySelected != StrategyMarket {
		return nil, apperr.Field(fieldStrategy, MsgStrategyInvalid)
	}
	plan.Strategy = form.StrategySelected
	if plan.Frequency = NormalizeFrequency(form.FrequencySelected); plan.Frequency == "" {
		return nil, apperr.Field(fieldFrequency, MsgFrequencyInvalid)
	}

	// Dates (B §4, §9): a Monday not past its Wednesday cut-off; a weekly end on a Sunday.
	if strings.TrimSpace(form.StartDate) == "" {
		return nil, apperr.Field(fieldStart, MsgStartRequired)
	}
	start, err := dates.Parse(form.StartDate)
	if err != nil {
		return nil, apperr.Field(fieldStart, MsgStartRequired)
	}
	if !start.IsMonday() {
		return nil, apperr.Field(fieldStart, MsgStartNotMonday)
	}
	kept := !opts.KeepStart.IsZero() && start == opts.KeepStart
	if !opts.Admin && !kept && !ValidStart(today, start) || start.Before(today) {
		return nil, apperr.Field(fieldStart, MsgStartTooSoon)
	}
	plan.Start = start
	var end dates.Date
	if plan.Frequency == FrequencyWeekly && strings.TrimSpace(form.EndDate) != "" {
		if end, err = dates.Parse(form.EndDate); err != nil || end.Weekday() != time.Sunday {
			return nil, apperr.Field(fieldEnd, MsgEndNotSunday)
		}
		if !end.After(start) {
			return nil, apperr.Field(fieldEnd, MsgEndBeforeStart)
		}
	}
	if form.Duration > MaxDurationWeeks {
		return nil, apperr.Field(fieldDuration, MsgDurationTooLong)
	}
	plan.Duration = Duration(plan.Frequency, start, end, form.Duration)
	if plan.Duration > MaxDurationWeeks {
		return nil, apperr.Field(fieldDuration, MsgDurationTooLong)
	}
	plan.End = EndOf(start, plan.Duration)
	plan.Weeks = BookedWeeks(plan.Frequency, start, plan.Duration)

	// Locations: at least one, without repeats.
	var faceIDs []string
	seen := map[string]bool{}
	for _, pc := range form.PlacesChecked {
		id := strings.TrimSpace(pc.ID)
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		faceIDs = append(faceIDs, id)
	}
	if len(faceIDs) == 0 {
		if opts.Admin {
			return nil, apperr.Field(fieldPlaces, MsgAdminLocationReq) // B §5, the admin update
		}
		return nil, apperr.Field(fieldPlaces, MsgLocationRequired)
	}

	// Budgets as typed (B §5): "$" and "," stripped, otherwise a number.
	clientBudget, budgetPresent, ok := ParseBudget(form.WeeklyBudget)
	if !ok {
		return nil, apperr.Field(fieldBudget, MsgInvalidNumber)
	}
	if plan.Type == TypeMaximumBudget {
		// B §9: the input is a daily budget of at least the suggested one (ceil(locations / 10) ×
		// $20, at least $20); B §5: below it the creation is blocked.
		daily, present, ok := ParseBudget(form.MaxBudget)
		if !ok || !present && !opts.Quote {
			return nil, apperr.Field(fieldMaxBudget, MsgInvalidNumber)
		}
		plan.SuggestedDaily, plan.MinDaily = SuggestedDailyBudget(len(faceIDs)), MinDailyBudget(len(faceIDs))
		if !present {
			daily = plan.MinDaily
		}
		if daily < plan.MinDaily {
			if !opts.Quote {
				return nil, apperr.Field(fieldMaxBudget, MsgMaxBudgetTooLow)
			}
			plan.BelowMinimum = true
		}
		plan.MaxBudget = daily
	}

	faces, err := s.checkFaces(ctx, plan, faceIDs)
	if err != nil {
		return nil, err
	}
	plan.Faces = faces

	if !opts.SkipCreative {
		if plan.Creative, err = s.chooseCreative(ctx, opts.CompanyID, form); err != nil {
			return nil, err
		}
	}
	// Prices: the server's, for every face in every booked week (locations' quote, B §9).
	quotes, err := s.deps.Locations.Quote(ctx, locations.QuoteRequest{FaceIDs: faceIDs, Weeks: plan.Weeks})
	if err != nil {
		return nil, err
	}
	plan.Quotes = make(map[locations.FaceWeek]locations.Quote, len(quotes))
	plan.Prices = make(map[string]money.Cents, len(faceIDs))
	prices := make([]money.Cents, 0, len(faceIDs))
	for _, q := range quotes {
		plan.Quotes[locations.FaceWeek{FaceID: q.FaceID, Week: q.Week}] = q
		if q.Week == start {
			plan.Prices[q.FaceID] = q.Price
			plan.Impressions += q.Ooh
		}
	}
	for _, id := range faceIDs {
		prices = append(prices, plan.Prices[id])
	}
	for _, f := range faces {
		if f.Likely && !plan.BelowMinimum {
			plan.Likely = append(plan.Likely, f.ID)
		}
	}
	if plan.Type == TypeMaximumBudget {
		// B §9: the week costs the daily budget × 7; the impressions scale by that budget over the
		// faces' prices, capped at their total, and are 0 below the minimum (B §4).
		weekly := weeklyOfDaily(plan.MaxBudget)
		plan.Impressions = MaxBudgetImpressions(plan.Impressions, weekly, billing.SumPrices(prices), plan.BelowMinimum)
		prices = []money.Cents{weekly}
	}
	if plan.Credit, err = s.deps.Billing.AccountCredit(ctx, opts.CompanyID); err != nil {
		return nil, err
	}
	plan.Quote = billing.QuoteCampaign(prices, plan.Credit, plan.Duration)
	plan.WeeklyBudget = plan.Quote.Weeks[0].Net
	if err := s.planPromo(ctx, plan); err != nil {
		return nil, err
	}

	// B §5: a card is required only when something is charged: some week's budget is above 0 after
	// the account credit.
	if !opts.SkipCard && plan.CardRequired() {
		if _, err := s.deps.Billing.FindCardOnFile(ctx, opts.CompanyID); apperr.CodeOf(err) == apperr.ENOTFOUND {
			return nil, apperr.Field(fieldCard, MsgCardRequired)
		} else if err != nil {
			return nil, err
		}
	}

	if !opts.SkipClientPrices {
		for _, pc := range form.PlacesChecked {
			if pc.Price != nil && *pc.Price != plan.Prices[strings.TrimSpace(pc.ID)] {
				return nil, apperr.Field(fieldPlaces, MsgPriceChanged)
			}
		}
		if budgetPresent && !budgetMatches(clientBudget, plan) {
			return nil, apperr.Field(fieldBudget, MsgBudgetMismatch)
		}
	}
	return plan, nil
}

// CardRequired says whether the plan charges a card: some week still costs more than its share of
// the account credit (B §5).
func (p *campaignPlan) CardRequired() bool { return p.Quote.Total > 0 }

// SpendableBudget is the first week's budget plus the promo credit (B §9 "Promo credit adds to the
// spendable budget").
func (p *campaignPlan) SpendableBudget() money.Cents {
	return billing.SpendableBudget(p.WeeklyBudget, p.PromoCredit)
}

// planPromo reads the form's promo_code (B §3): when it is the company's active promo (the code it
// redeemed in the flow), the plan stores it, upper-cased as codes are, and counts its credit still in
// the account as promo credit (B §9). A code the company did not redeem (or whose redemption an
// admin removed) is not stored and gives no credit: the campaign names only a promo that paid.
func (s *service) planPromo(ctx context.Context, plan *campaignPlan) error {
	form := plan.Form
	if form.PromoCode == nil || strings.TrimSpace(form.PromoCode.Value) == "" {
		return nil
	}
	code, err := billing.NormalizePromoCode(strings.TrimSpace(form.PromoCode.Value))
	if err != nil {
		return apperr.Field(fieldPromo, apperr.As(err).Message)
	}
	active, err := s.deps.Billing.FindActivePromo(ctx, plan.CompanyID)
	if apperr.CodeOf(err) == apperr.ENOTFOUND {
		return nil
	} else if err != nil {
		return err
	}
	if active.Code != code {
		return nil
	}
	plan.PromoCode, plan.PromoCredit = code, min(active.Value, money.Max(plan.Credit, 0))
	return nil
}

// budgetMatches accepts the form's weekly budget when it is, to the dollar, the first week's net
// (the sum of prices minus the credit portion, B §9) or the sum of prices before credit.
func budgetMatches(client money.Cents, plan *campaignPlan) bool {
	near := func(v money.Cents) bool { d := client - v; return d < budgetTolerance && d > -budgetTolerance }
	return near(plan.WeeklyBudget) || near(plan.Gross())
}

// checkFaces reads the chosen faces in one batch and checks each against the strategy: within the
// chosen markets (and cities, when some are chosen) for strategy 1, within the radius of the place
// for strategy 0. It sets the plan's markets, cities, place and radius. ENOTFOUND for an unknown
// face.
func (s *service) checkFaces(ctx context.Context, plan *campaignPlan, faceIDs []string) ([]locations.Location, error) {
	form := plan.Form
	faces, err := s.deps.Locations.FindFacesByIDs(ctx, faceIDs)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]locations.Location, len(faces))
	for _, f := range faces {
		byID[f.ID] = f
	}
	out := make([]locations.Location, 0, len(faceIDs))
	for _, id := range faceIDs {
		f, ok := byID[id]
		if !ok {
			return nil, apperr.NotFound(MsgFaceNotFound)
		}
		if plan.Type == TypeMaximumBudget && f.ExcludeMaximizeBudget {
			return nil, apperr.Field(fieldPlaces, MsgFaceUnavailable)
		}
		out = append(out, f)
	}
	switch plan.Strategy {
	case StrategyMarket:
		markets, err := s.deps.Locations.Markets(ctx)
		if err != nil {
			return nil, err
		}
		citiesOf := map[string][]string{}
		for _, mk := range markets {
			citiesOf[mk.Market] = mk.Cities
		}
		for _, name := range form.MarketsSelected {
			name = strings.TrimSpace(name)
			if name == "" || slices.Contains(plan.Markets, name) {
				continue
			}
			if _, ok := citiesOf[name]; !ok {
				return nil, apperr.Field(fieldMarkets, locations.MsgUnknownMarket)
			}
			plan.Markets = append(plan.Markets, name)
		}
		if len(plan.Markets) == 0 {
			return nil, apperr.Field(fieldMarkets, locations.MsgMarketsRequired)
		}
		// An empty cities list is removed before saving (B §4).
		for _, city := range form.CitiesSelected {
			city = strings.TrimSpace(city)
			if city == "" || slices.Contains(plan.Cities, city) {
				continue
			}
			known := false
			for _, mk := range plan.Markets {
				known = known || slices.Contains(citiesOf[mk], city)
			}
			if !known {
				return nil, apperr.Field(fieldCities, locations.MsgUnknownCity)
			}
			plan.Cities = append(plan.Cities, city)
		}
		for _, f := range out {
			if !slices.Contains(plan.Markets, f.Market) || (len(plan.Cities) > 0 && !slices.Contains(plan.Cities, f.City)) {
				return nil, apperr.Field(fieldPlaces, MsgFaceNotInMarket)
			}
		}
	case StrategyRadius:
		plan.PlaceID = strings.TrimSpace(form.PlaceID)
		if plan.PlaceID == "" {
			return nil, apperr.Field(fieldPlace, locations.MsgPlaceRequired)
		}
		plan.Radius = form.RadiusCheckValue
		if plan.Radius == 0 {
			plan.Radius = locations.DefaultRadius
		}
		if !locations.ValidRadius(plan.Radius) {
			return nil, apperr.Field(fieldRadius, locations.MsgRadiusInvalid)
		}
		near, err := s.deps.Locations.Locations(ctx, locations.LocationQuery{PlaceID: plan.PlaceID, Radius: plan.Radius})
		if err != nil {
			return nil, err
		}
		within := make(map[string]bool, len(near))
		for _, f := range near {
			within[f.ID] = true
		}
		for _, f := range out {
			if !within[f.ID] {
				return nil, apperr.Field(fieldPlaces, MsgFaceNotInRadius)
			}
			if !slices.Contains(plan.Markets, f.Market) {
				plan.Markets = append(plan.Markets, f.Market)
			}
		}
	}
	return out, nil
}

// chooseCreative is the form's creative, which must be the company's and have a url, or the
// company's default when the form asks for it (B §5). ENOTFOUND for another company's creative.
func (s *service) chooseCreative(ctx context.Context, companyID string, form CampaignForm) (*creatives.Creative, error) {
	id := strings.TrimSpace(form.CreativeID)
	if id == "" {
		if !form.UseDefaultCreative {
			return nil, apperr.Field(fieldCreative, MsgCreativeRequired)
		}
		cr, err := s.deps.Creatives.FindDefaultCreative(ctx, companyID)
		if apperr.CodeOf(err) == apperr.ENOTFOUND || (err == nil && cr.URL == "") {
			return nil, apperr.Field(fieldCreative, MsgCreativeRequired)
		}
		return cr, err
	}
	crs, err := s.deps.Creatives.FindCreativesByIDs(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	if len(crs) == 0 || crs[0].Company != companyID {
		return nil, apperr.NotFound(creatives.MsgCreativeNotFound)
	}
	if crs[0].URL == "" {
		return nil, apperr.Field(fieldCreative, MsgCreativeRequired)
	}
	return crs[0], nil
}

// conflictError is bookPlan's answer when some chosen weeks are full: nothing was booked (the
// caller's transaction must roll back) and Conflicts says which weeks were taken and which later
// ones are free.
type conflictError struct {
	conflicts []locations.Conflict
	err       error
}

func (e *conflictError) Error() string { return e.err.Error() }
func (e *conflictError) Unwrap() error { return e.err }

// bookPlan books the plan's faces × weeks for the campaign and writes its week rows, in the
// caller's transaction (call it inside db.Transact). The reservation key is plan.BookKey, or
// campaign:<id>; the reference is the campaign id. A full week answers a *conflictError (ECONFLICT)
// and the caller must roll back.
func (s *service) bookPlan(ctx context.Context, c *store.Campaign, plan *campaignPlan) error {
	if !db.InTx(ctx) {
		return apperr.Internal(errors.New("campaigns: bookPlan outside a transaction"))
	}
	key := plan.BookKey
	if key == "" {
		key = "campaign:" + c.ID
	}
	items := make([]locations.FaceWeek, 0, len(plan.Faces)*len(plan.Weeks))
	for _, f := range plan.Faces {
		for _, w := range plan.Weeks {
			items = append(items, locations.FaceWeek{FaceID: f.ID, Week: w})
		}
	}
	res, err := s.deps.Locations.Book(ctx, locations.ReserveRequest{Key: key, CompanyID: c.CompanyID, Ref: c.ID, Items: items})
	if err != nil {
		if len(res.Conflicts) > 0 {
			return &conflictError{conflicts: res.Conflicts, err: err}
		}
		return err
	}
	return s.store.InsertWeeks(ctx, s.weekRows(c, plan, res.Spots, key, WeekActive))
}

// weekRows makes the week rows of booked or held spots: the face's name, market, city, position and
// snapshot copied (brief decision 3), the offer price locked at the start week's price the person
// saw, the asking price and impressions of the spot's own week.
func (s *service) weekRows(c *store.Campaign, plan *campaignPlan, spots []locations.Spot, key, status string) []store.Week {
	faces := make(map[string]*locations.Location, len(plan.Faces))
	for i := range plan.Faces {
		faces[plan.Faces[i].ID] = &plan.Faces[i]
	}
	now := s.deps.Clock.Now()
	rows := make([]store.Week, 0, len(spots))
	for _, sp := range spots {
		f := faces[sp.FaceID]
		if f == nil {
			continue
		}
		offer := plan.Prices[sp.FaceID]
		if offer == 0 {
			offer = sp.Price
		}
		rows = append(rows, store.Week{ID: ids.New(), CampaignID: c.ID, CompanyID: c.CompanyID, FaceID: sp.FaceID,
			StartAt: sp.Week, EndAt: sp.Week.WeekEnd(), Status: status, OfferPrice: int64(offer), AskingPrice: int64(sp.Price),
			Ooh: sp.Ooh, CreativeID: c.CreativeID, CreativeURL: c.CreativeURL, SpotID: sp.ID, SpotKey: key,
			LocationName: f.LocationName, Market: f.Market, City: f.City, Face: f.Face, Lat: f.Lat, Lng: f.Lng,
			Snapshot: f.LocationSnapshot, CreatedAt: now, UpdatedAt: now})
	}
	return rows
}

// newCampaignRow is the campaign row of a plan.
func (s *service) newCampaignRow(plan *campaignPlan, id, userID, key, fingerprint, status string) *store.Campaign {
	now := s.deps.Clock.Now()
	c := &store.Campaign{ID: id, CompanyID: plan.CompanyID, UserID: userID, CreateKey: key, Fingerprint: fingerprint,
		Name: plan.Name, Status: status, MbCampaign: plan.Type == TypeMaximumBudget, Strategy: plan.Strategy,
		Frequency: plan.Frequency, StartDate: plan.Start, EndDate: plan.End, Duration: plan.Duration,
		WeeklyBudget: int64(plan.WeeklyBudget), MaxBudget: int64(plan.MaxBudget), TotalBudget: int64(plan.Quote.Total),
		ImpressionCount: plan.Impressions, Markets: encodeList(plan.Markets), Cities: encodeList(plan.Cities),
		PlaceID: plan.PlaceID, Radius: plan.Radius, PromoCode: retry.Truncate(plan.PromoCode, 32), PaymentStatus: billing.StatusPending,
		CreatedAt: now, UpdatedAt: now}
	if plan.Creative != nil {
		c.CreativeID, c.CreativeURL = plan.Creative.ID, retry.Truncate(plan.Creative.URL, 300)
	}
	return c
}

// fingerprint identifies a form for the Idempotency-Key: the same key with another form is refused.
func fingerprint(form CampaignForm) string {
	b, _ := json.Marshal(form)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// createOutcome is what POST /api/campaigns answers: the campaign (201) or a conflict (409).
type createOutcome struct {
	campaign *Campaign
	conflict *ConflictResponse
}

// maxCreateAttempts bounds how often a creation starts over after losing a race for its key.
const maxCreateAttempts = 3

// create creates a campaign from the form under the Idempotency-Key (brief decisions 4, 7, 8). In
// one transaction: the campaign, its weeks, their bookings, the first week's credit and charge.
// SettleCharge runs after the commit. A full week rolls everything back and leaves a conflict
// draft instead (409). The same key and form answer the same outcome; the key with another form
// is ECONFLICT (MsgKeyReused).
func (s *service) create(ctx context.Context, p *auth.Principal, key string, form CampaignForm) (*createOutcome, error) {
	key = strings.TrimSpace(key)
	if key == "" || len(key) > 100 {
		return nil, apperr.Field(fieldKey, MsgKeyRequired)
	}
	fp := fingerprint(form)
	for attempt := 0; attempt < maxCreateAttempts; attempt++ {
		if prior, err := s.store.CampaignByKey(ctx, p.CompanyID, key); err == nil {
			out, err := s.replay(ctx, prior, fp, form)
			if out != nil || err != nil {
				return out, err
			}
			// An expired draft was cleared: create afresh.
		} else if !db.IsNotFound(err) {
			return nil, apperr.Internal(err)
		}
		if s.beforePlan != nil {
			s.beforePlan()
		}
		plan, err := s.planCampaign(ctx, p, form, planOptions{CompanyID: p.CompanyID})
		if err != nil {
			// A concurrent call with the same key may have won meanwhile and spent the credit this
			// plan was priced with (MsgBudgetMismatch, MsgCardRequired): every call with one key
			// answers the winner's outcome, so look the key up again.
			if prior, perr := s.store.CampaignByKey(ctx, p.CompanyID, key); perr == nil {
				if out, rerr := s.replay(ctx, prior, fp, form); out != nil || rerr != nil {
					return out, rerr
				}
			}
			return nil, err
		}
		row := s.newCampaignRow(plan, ids.New(), p.UserID, key, fp, StatusPending)
		var charge *store.Charge
		err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
			if err := s.store.Create(ctx, row); err != nil {
				return err
			}
			if err := s.bookPlan(ctx, row, plan); err != nil {
				return err
			}
			if s.afterBook != nil {
				if err := s.afterBook(); err != nil {
					return err
				}
			}
			var err error
			if charge, err = s.scheduleWeekCharge(ctx, row, plan.Start); err != nil {
				return err
			}
			return s.markCharged(ctx, row, charge)
		})
		var ce *conflictError
		switch {
		case err == nil:
			s.settleAfterCommit(ctx, charge)
			return &createOutcome{campaign: s.namedCampaignDTO(ctx, row)}, nil
		case db.IsDuplicate(err):
			continue // the same key won by a concurrent call: answer its outcome
		case errors.As(err, &ce):
			out, err := s.createDraft(ctx, p, key, fp, plan, ce.conflicts)
			if db.IsDuplicate(err) {
				continue
			}
			return out, err
		default:
			return nil, db.Translate(err, "", MsgKeyReused)
		}
	}
	return nil, apperr.New(apperr.ECONFLICT, MsgKeyReused)
}

// markCharged records the first charge on the campaign row: paid by credit alone, the campaign is
// active at once; otherwise it waits for the charge (payment_status pending).
func (s *service) markCharged(ctx context.Context, row *store.Campaign, ch *store.Charge) error {
	fields := map[string]any{"transaction_id": ch.TransactionID, "payment_status": billing.StatusPending}
	row.TransactionID, row.PaymentStatus = ch.TransactionID, billing.StatusPending
	if ch.Status == ChargeSucceeded {
		s.publishStatus(ctx, row, StatusActive)
		fields["payment_status"], fields["status"] = billing.StatusSucceeded, StatusActive
		row.PaymentStatus, row.Status = billing.StatusSucceeded, StatusActive
		row.TotalCost += ch.Amount + ch.Credit
	}
	return s.store.UpdateCampaign(ctx, row.ID, s.deps.Clock.Now(), fields)
}

// settleAfterCommit asks the gateway for a pending first charge right after the commit, in the
// background so the gateway does not hold the response; billing's retry job settles it otherwise.
func (s *service) settleAfterCommit(ctx context.Context, ch *store.Charge) {
	if ch == nil || ch.TransactionID == "" || ch.Status != ChargePending {
		return
	}
	ctx = context.WithoutCancel(ctx)
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		if _, err := s.deps.Billing.SettleCharge(ctx, ch.TransactionID); err != nil && apperr.CodeOf(err) == apperr.EINTERNAL {
			s.deps.Log.ErrorContext(ctx, "settle a campaign's first charge", "transaction", ch.TransactionID, "err", err)
		}
	}()
}

// replay answers a repeated Idempotency-Key: the same form gets the earlier outcome (201 with the
// campaign as it is now, or the same conflict while its draft lasts); another form is ECONFLICT. An
// expired draft is cleared and (nil, nil) tells the caller to create afresh.
func (s *service) replay(ctx context.Context, prior *store.Campaign, fp string, form CampaignForm) (*createOutcome, error) {
	if prior.Fingerprint != fp {
		return nil, apperr.New(apperr.ECONFLICT, MsgKeyReused)
	}
	if prior.Status != StatusConflict {
		return &createOutcome{campaign: s.namedCampaignDTO(ctx, prior)}, nil
	}
	if s.draftExpired(prior) {
		return nil, s.dropDraft(ctx, prior)
	}
	resp, err := s.conflictResponse(ctx, prior, form)
	if err != nil {
		return nil, err
	}
	return &createOutcome{conflict: resp}, nil
}

// createdMessage is the success message of a creation: B §8's "pending payment confirmation" while
// the first charge is pending, MsgCreatedActive when the account credit paid it and the campaign is
// active at once.
func createdMessage(status string) string {
	if status == StatusActive {
		return MsgCreatedActive
	}
	return MsgCreated
}

// defaults are the campaign form's date defaults.
func (s *service) defaults(ctx context.Context, _ *auth.Principal) (CampaignDefaults, error) {
	today := dates.Today(s.deps.Clock)
	return CampaignDefaults{Today: today, EarliestStart: EarliestStart(today), DefaultStart: DefaultStart(today),
		MaxWeeks: MaxDurationWeeks, DefaultWeeklyDuration: DefaultWeeklyDuration, BusinessTimezone: clock.Location(s.deps.Clock).String()}, nil
}

// quote prices a form as the creation will, without the creative and card checks and without
// writing anything.
func (s *service) quote(ctx context.Context, p *auth.Principal, form CampaignForm) (CampaignQuote, error) {
	plan, err := s.planCampaign(ctx, p, form, planOptions{CompanyID: p.CompanyID, SkipCard: true, SkipClientPrices: true, SkipCreative: true, Quote: true})
	if err != nil {
		return CampaignQuote{}, err
	}
	q := CampaignQuote{Weekly: plan.Gross(), WeeklyBudget: plan.WeeklyBudget, AccountCredit: plan.Credit, CreditUsed: plan.Quote.CreditUsed,
		Total: plan.Quote.Total, Duration: plan.Duration, StartDate: plan.Start, EndDate: plan.End, ImpressionCount: plan.Impressions,
		Prices: make([]PlaceChecked, 0, len(plan.Faces)), PromoCredit: plan.PromoCredit, SpendableBudget: plan.SpendableBudget(),
		CardRequired: plan.CardRequired(), Likely: plan.Likely}
	if plan.Type == TypeMaximumBudget {
		q.DailyBudget, q.SuggestedDailyBudget, q.MinDailyBudget = plan.MaxBudget, plan.SuggestedDaily, plan.MinDaily
	}
	if q.Likely == nil {
		q.Likely = []string{}
	}
	for _, f := range plan.Faces {
		price := plan.Prices[f.ID]
		q.Prices = append(q.Prices, PlaceChecked{ID: f.ID, Price: &price})
	}
	return q, nil
}
