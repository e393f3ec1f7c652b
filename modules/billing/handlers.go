package billing

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"marquee/platform/authz"
	"marquee/platform/httpx"
	"marquee/platform/pagination"
	"marquee/platform/server"
)

// routes lists every route of the module with the role that may call it: one table for Routes and
// Policy. Card and promo-redeem calls are for regular users (their company's card, B §6); admins
// read any card and retry any payment; promo administration is for super admins (B §6); removing
// a company's active promo and reading the ledger are for admins.
func (m *Module) routes() server.RouteTable {
	s, limit := m.svc, m.deps.MaxJSONBytes
	rs := server.RouteTable{
		server.GET("/api/billing/config", authz.Member, httpx.Call(s.gatewayConfig)).Doc("The payment gateway's public settings", nil, GatewayConfig{}),
		server.GET("/api/cards/me", authz.Member, httpx.Call(s.myCard)).Doc("The company's card, or null", nil, (*Card)(nil)),
		server.GET("/api/cards/:id", authz.Member, httpx.CallID(s.getCard)).Doc("A card", nil, Card{}),
		server.POST("/api/cards", authz.User, httpx.CallBody(limit, s.addCard)).Doc("Add a card (201)", AddCardRequest{}, CardResponse{}).Answers(http.StatusCreated),
		server.PUT("/api/cards/:id", authz.User, httpx.CallIDBody(limit, s.updateCard)).Doc("Replace the card", UpdateCardRequest{}, CardResponse{}),
		server.DELETE("/api/cards/me", authz.User, httpx.Call(s.removeCard)).Doc("Remove the company's card", nil, httpx.Success{}),
		server.PUT("/api/transactions/:id", authz.Member, httpx.CallID(s.processTransaction)).Doc("Retry a failed charge", nil, Transaction{}),
		server.GET("/api/admin/transactions", authz.Admin, m.ledgerHandler).Doc("The ledger (admin)", nil, pagination.Page[*Transaction]{}).Params(LedgerQuery{}, &ledgerPage),
		server.POST("/api/admin/promo/", authz.SuperAdmin, httpx.CallBody(limit, s.createPromo)).Doc("Make a promo code (admin, 201)", CreatePromoRequest{}, PromoResponse{}).Answers(http.StatusCreated),
		server.GET("/api/admin/promo/", authz.SuperAdmin, m.listPromosHandler).Doc("The promo codes (admin)", nil, pagination.Page[*Promo]{}).Params(nil, &promoPage),
		server.DELETE("/api/admin/promo/:id", authz.SuperAdmin, httpx.CallID(s.cancelPromo)).Doc("Deactivate a promo code (admin)", nil, PromoStatusResponse{}),
		server.PUT("/api/admin/promo/:id", authz.SuperAdmin, httpx.CallID(s.enablePromo)).Doc("Reactivate a promo code (admin)", nil, PromoStatusResponse{}),
		server.GET("/api/admin/promo/:id/companies", authz.SuperAdmin, httpx.CallID(s.redemptions)).Doc("A promo code's redemptions (admin)", nil, []PromoRedemption{}),
		server.POST("/api/promo/", authz.User, httpx.CallBody(limit, s.redeem)).Doc("Redeem a promo code", RedeemPromoRequest{}, RedeemPromoResponse{}),
		server.GET("/companies/findpromocode/:code", authz.Member, m.findPromoHandler).Doc("Look up a promo code", nil, PromoLookup{}),
		server.DELETE("/api/admin/companies/:id/promo", authz.Admin, httpx.CallID(s.removeActivePromo)).Doc("Remove a company's promo (admin)", nil, httpx.Success{}),
	}
	if m.sandbox != nil {
		// The sandbox's stand-in for Stripe.js createToken: served only with the sandbox gateway.
		rs = append(rs, server.POST("/api/sandbox/tokens", authz.Member, m.sandboxTokenHandler).Doc("Tokenize a test card (sandbox gateway only)", SandboxTokenRequest{}, CardToken{}))
	}
	return rs
}

func (m *Module) sandboxTokenHandler(c *gin.Context) error {
	var req SandboxTokenRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	t, err := m.sandbox.CreateToken(c, req.Number, req.ExpMonth, req.ExpYear, req.CVC)
	if err != nil {
		return gatewayErr(err)
	}
	httpx.Answer(c, CardToken{ID: t.ID, Card: CardDetails{Brand: t.Brand, Last4: t.Last4, ExpMonth: t.ExpMonth, ExpYear: t.ExpYear}})
	return nil
}

func (m *Module) ledgerHandler(c *gin.Context) error {
	p, err := pagination.Parse(c, ledgerPage)
	if err != nil {
		return err
	}
	page, err := m.svc.ledger(c, TransactionFilter{CompanyID: c.Query("company"), CampaignRef: c.Query("campaign")}, p)
	if err != nil {
		return err
	}
	httpx.Answer(c, page)
	return nil
}

func (m *Module) listPromosHandler(c *gin.Context) error {
	p, err := pagination.Parse(c, promoPage)
	if err != nil {
		return err
	}
	page, err := m.svc.promos(c, p)
	if err != nil {
		return err
	}
	httpx.Answer(c, page)
	return nil
}

func (m *Module) findPromoHandler(c *gin.Context) error {
	p, err := m.svc.findPromo(c, c.Param("code"))
	if err != nil {
		return err
	}
	httpx.Answer(c, p)
	return nil
}
