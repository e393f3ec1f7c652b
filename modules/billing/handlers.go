package billing

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/auth"
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
	rs := server.RouteTable{
		server.GET("/api/billing/config", authz.Member, m.gatewayConfig).Doc("The payment gateway's public settings", nil, GatewayConfig{}),
		server.GET("/api/cards/me", authz.Member, m.myCard).Doc("The company's card, or null", nil, (*Card)(nil)),
		server.GET("/api/cards/:id", authz.Member, m.getCard).Doc("A card", nil, Card{}),
		server.POST("/api/cards", authz.User, m.addCard).Doc("Add a card (201)", AddCardRequest{}, CardResponse{}).Answers(http.StatusCreated),
		server.PUT("/api/cards/:id", authz.User, m.updateCard).Doc("Replace the card", UpdateCardRequest{}, CardResponse{}),
		server.DELETE("/api/cards/me", authz.User, m.removeCard).Doc("Remove the company's card", nil, httpx.Success{}),
		server.PUT("/api/transactions/:id", authz.Member, m.processTransaction).Doc("Retry a failed charge", nil, Transaction{}),
		server.GET("/api/admin/transactions", authz.Admin, m.ledger).Doc("The ledger (admin)", nil, pagination.Page[*Transaction]{}).Params(LedgerQuery{}, &ledgerPage),
		server.POST("/api/admin/promo/", authz.SuperAdmin, m.createPromo).Doc("Make a promo code (admin, 201)", CreatePromoRequest{}, PromoResponse{}).Answers(http.StatusCreated),
		server.GET("/api/admin/promo/", authz.SuperAdmin, m.listPromos).Doc("The promo codes (admin)", nil, pagination.Page[*Promo]{}).Params(nil, &promoPage),
		server.DELETE("/api/admin/promo/:id", authz.SuperAdmin, m.cancelPromo).Doc("Deactivate a promo code (admin)", nil, PromoStatusResponse{}),
		server.PUT("/api/admin/promo/:id", authz.SuperAdmin, m.enablePromo).Doc("Reactivate a promo code (admin)", nil, PromoStatusResponse{}),
		server.GET("/api/admin/promo/:id/companies", authz.SuperAdmin, m.promoCompanies).Doc("A promo code's redemptions (admin)", nil, []PromoRedemption{}),
		server.POST("/api/promo/", authz.User, m.redeemPromo).Doc("Redeem a promo code", RedeemPromoRequest{}, RedeemPromoResponse{}),
		server.GET("/companies/findpromocode/:code", authz.Member, m.findPromo).Doc("Look up a promo code", nil, PromoLookup{}),
		server.DELETE("/api/admin/companies/:id/promo", authz.Admin, m.removeActivePromo).Doc("Remove a company's promo (admin)", nil, httpx.Success{}),
	}
	if m.sandbox != nil {
		// The sandbox's stand-in for Stripe.js createToken: served only with the sandbox gateway.
		rs = append(rs, server.POST("/api/sandbox/tokens", authz.Member, m.createSandboxToken).Doc("Tokenize a test card (sandbox gateway only)", SandboxTokenRequest{}, CardToken{}))
	}
	return rs
}

func (m *Module) bind(c *gin.Context, v any) error { return httpx.BindJSON(c, v, m.deps.MaxJSONBytes) }

func (m *Module) gatewayConfig(c *gin.Context) error {
	cfg := GatewayConfig{Gateway: m.deps.Gateway}
	if m.deps.Gateway == GatewayStripe {
		cfg.PublishableKey = m.deps.StripePublishableKey
	}
	httpx.OK(c, cfg)
	return nil
}

func (m *Module) createSandboxToken(c *gin.Context) error {
	var req SandboxTokenRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	t, err := m.sandbox.CreateToken(c, req.Number, req.ExpMonth, req.ExpYear, req.CVC)
	if err != nil {
		return gatewayErr(err)
	}
	httpx.OK(c, CardToken{ID: t.ID, Card: CardDetails{Brand: t.Brand, Last4: t.Last4, ExpMonth: t.ExpMonth, ExpYear: t.ExpYear}})
	return nil
}

// myCard answers the company's card, or null when it has none.
func (m *Module) myCard(c *gin.Context) error {
	card, err := m.svc.FindCardOnFile(c, auth.Current(c).CompanyID)
	if apperr.CodeOf(err) == apperr.ENOTFOUND {
		httpx.OK(c, nil)
		return nil
	}
	if err != nil {
		return err
	}
	httpx.OK(c, card)
	return nil
}

func (m *Module) getCard(c *gin.Context) error {
	p := auth.Current(c)
	card, err := m.svc.findCard(c, c.Param("id"), p.CompanyID, p.IsAdmin())
	if err != nil {
		return err
	}
	httpx.OK(c, cardDTO(card))
	return nil
}

func (m *Module) addCard(c *gin.Context) error {
	var req AddCardRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	card, err := m.svc.addCard(c, auth.Current(c).CompanyID, req)
	if err != nil {
		return err
	}
	httpx.JSON(c, http.StatusCreated, CardResponse{Success: true, Message: MsgCardAdded, Card: card})
	return nil
}

func (m *Module) updateCard(c *gin.Context) error {
	var req UpdateCardRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	p := auth.Current(c)
	card, err := m.svc.updateCard(c, c.Param("id"), p.CompanyID, false, req)
	if err != nil {
		return err
	}
	httpx.OK(c, CardResponse{Success: true, Message: MsgCardUpdated, Card: card})
	return nil
}

func (m *Module) removeCard(c *gin.Context) error {
	if err := m.svc.removeCard(c, auth.Current(c).CompanyID); err != nil {
		return err
	}
	httpx.OK(c, httpx.Success{Success: true, Message: MsgCardRemoved})
	return nil
}

// processTransaction retries a payment; a refused card answers 402 with the gateway's message
// (shown for 5000 ms, B §8).
func (m *Module) processTransaction(c *gin.Context) error {
	p := auth.Current(c)
	t, err := m.svc.processTransaction(c, c.Param("id"), p.CompanyID, p.IsAdmin())
	if err != nil {
		return err
	}
	httpx.OK(c, t)
	return nil
}

func (m *Module) ledger(c *gin.Context) error {
	p, err := pagination.Parse(c, ledgerPage)
	if err != nil {
		return err
	}
	page, err := m.svc.ledger(c, TransactionFilter{CompanyID: c.Query("company"), CampaignRef: c.Query("campaign")}, p)
	if err != nil {
		return err
	}
	httpx.OK(c, page)
	return nil
}

func (m *Module) createPromo(c *gin.Context) error {
	var req CreatePromoRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	p, err := m.svc.createPromo(c, req)
	if err != nil {
		return err
	}
	httpx.JSON(c, http.StatusCreated, PromoResponse{Success: true, Message: MsgPromoCreated, Promo: p})
	return nil
}

func (m *Module) listPromos(c *gin.Context) error {
	p, err := pagination.Parse(c, promoPage)
	if err != nil {
		return err
	}
	page, err := m.svc.promos(c, p)
	if err != nil {
		return err
	}
	httpx.OK(c, page)
	return nil
}

func (m *Module) cancelPromo(c *gin.Context) error { return m.setPromoStatus(c, PromoCancelled) }
func (m *Module) enablePromo(c *gin.Context) error { return m.setPromoStatus(c, PromoActive) }

func (m *Module) setPromoStatus(c *gin.Context, status string) error {
	shown, err := m.svc.setPromoStatus(c, c.Param("id"), status)
	if err != nil {
		return err
	}
	httpx.OK(c, PromoStatusResponse{Success: true, Status: shown})
	return nil
}

func (m *Module) promoCompanies(c *gin.Context) error {
	rs, err := m.svc.redemptions(c, c.Param("id"))
	if err != nil {
		return err
	}
	httpx.OK(c, rs)
	return nil
}

func (m *Module) redeemPromo(c *gin.Context) error {
	var req RedeemPromoRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	amount, note, err := m.svc.redeemPromo(c, auth.Current(c).CompanyID, req.Code)
	if err != nil {
		return err
	}
	msg := MsgPromoRedeemed
	if note != "" {
		msg += " " + note
	}
	httpx.OK(c, RedeemPromoResponse{Success: true, Message: msg, Amount: amount})
	return nil
}

func (m *Module) findPromo(c *gin.Context) error {
	p, err := m.svc.findPromo(c, c.Param("code"))
	if err != nil {
		return err
	}
	httpx.OK(c, p)
	return nil
}

func (m *Module) removeActivePromo(c *gin.Context) error {
	if err := m.svc.removeActivePromo(c, c.Param("id")); err != nil {
		return err
	}
	httpx.OK(c, httpx.Success{Success: true, Message: MsgActivePromoGone})
	return nil
}
