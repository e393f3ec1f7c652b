package campaigns

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/dates"
	"marquee/platform/httpx"
	"marquee/platform/server"
)

// IdempotencyKeyHeader names the header that makes POST /api/campaigns idempotent.
const IdempotencyKeyHeader = "Idempotency-Key"

// createRoutes are the creation side's routes (issue 6). Creating is for regular users only
// (B §2: admins are redirected away from /campaigns/new); the date defaults serve the admin edit
// form as well.
func (m *Module) createRoutes() server.RouteTable {
	return server.RouteTable{
		server.POST("/api/campaigns", authz.User, m.createCampaign).Answers(http.StatusCreated).Conflicts(ConflictResponse{}).Doc("Create a campaign (201; 409 with the conflict draft when a face was taken)", CampaignForm{}, CreateResponse{}).
			Example(func(today dates.Date) any { return exampleForm(true, EarliestStart(today)) }).V1("/campaigns"),
		server.POST("/api/campaigns/quote", authz.User, m.quoteCampaign).Doc("Price a campaign form without creating it", CampaignForm{}, CampaignQuote{}).
			Example(func(today dates.Date) any { return exampleForm(false, EarliestStart(today)) }).V1Read("/quotes"),
		server.POST("/api/campaigns/:id/resolve", authz.User, m.resolveConflict).Doc("Resolve a creation conflict", ResolveRequest{}, ResolveResponse{}).V1("/campaigns/:id/resolve"),
		server.GET("/api/campaigns/defaults", authz.Member, m.campaignDefaults).Doc("The campaign form's date defaults", nil, CampaignDefaults{}),
	}
}

func (m *Module) bindJSON(c *gin.Context, v any) error {
	return httpx.BindJSON(c, v, m.deps.MaxJSONBytes)
}

// createCampaign answers 201 with the campaign, or 409 with the conflict draft (B §7 "On a failed
// create, the response body is read for a campaign (with weeks) and params").
func (m *Module) createCampaign(c *gin.Context) error {
	var form CampaignForm
	if err := m.bindJSON(c, &form); err != nil {
		return err
	}
	out, err := m.svc.create(c.Request.Context(), auth.Current(c), c.GetHeader(IdempotencyKeyHeader), form)
	if err != nil {
		return err
	}
	if out.conflict != nil {
		httpx.JSON(c, http.StatusConflict, out.conflict)
		return nil
	}
	httpx.JSON(c, http.StatusCreated, CreateResponse{Success: true, Message: createdMessage(out.campaign.Status), Campaign: out.campaign})
	return nil
}

// createdMessage is the success message of a creation: B §8's "pending payment confirmation" while
// the first charge is pending, MsgCreatedActive when the account credit paid it and the campaign is
// active at once (issue 12 item 3).
func createdMessage(status string) string {
	if status == StatusActive {
		return MsgCreatedActive
	}
	return MsgCreated
}

func (m *Module) resolveConflict(c *gin.Context) error {
	var req ResolveRequest
	if err := m.bindJSON(c, &req); err != nil {
		return err
	}
	res, err := m.svc.resolve(c.Request.Context(), auth.Current(c), c.Param("id"), req)
	if err != nil {
		return err
	}
	httpx.OK(c, res)
	return nil
}

func (m *Module) campaignDefaults(c *gin.Context) error {
	today := dates.Today(m.deps.Clock)
	httpx.OK(c, CampaignDefaults{Today: today, EarliestStart: EarliestStart(today), DefaultStart: DefaultStart(today),
		MaxWeeks: MaxDurationWeeks, DefaultWeeklyDuration: DefaultWeeklyDuration, BusinessTimezone: clock.Location(m.deps.Clock).String()})
	return nil
}

// quoteCampaign prices a form as the creation will, without the creative and card checks and
// without writing anything.
func (m *Module) quoteCampaign(c *gin.Context) error {
	var form CampaignForm
	if err := m.bindJSON(c, &form); err != nil {
		return err
	}
	p := auth.Current(c)
	plan, err := m.svc.planCampaign(c.Request.Context(), p, form, planOptions{CompanyID: p.CompanyID, SkipCard: true, SkipClientPrices: true, SkipCreative: true, Quote: true})
	if err != nil {
		return err
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
	httpx.OK(c, q)
	return nil
}

// exampleForm is the public API's example of a campaign form (the OpenAPI document shows it and the
// contract test sends it, with {face_id} replaced by a face of POST /api/v1/available-spots). Its
// start is the next bookable Monday on the day the document is served (issue 25).
func exampleForm(create bool, start dates.Date) CampaignForm {
	f := CampaignForm{Name: "Spring push", TypeCampaign: TypePremium, StrategySelected: StrategyMarket,
		MarketsSelected: []string{"SF Bay Area"}, PlacesChecked: []PlaceChecked{{ID: "{face_id}"}}, StartDate: start.String(),
		FrequencySelected: FrequencyWeekly, Duration: 2}
	f.UseDefaultCreative = create
	return f
}
