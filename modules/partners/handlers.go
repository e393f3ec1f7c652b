package partners

import (
	"github.com/gin-gonic/gin"

	"marquee/modules/identity"
	"marquee/modules/partners/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/httpx"
	"marquee/platform/pagination"
	"marquee/platform/server"
)

// routes is every route of the module (B §7 "Special", POST /users/ambassador/invite, PUT
// /users/ambassador). The hub and the bonus lists are open to any regular user and answer 403 to
// a company that is not a partner (both partner kinds share them; a rule names one role).
func (m *Module) routes() server.RouteTable {
	limit := m.deps.MaxJSONBytes
	return server.RouteTable{
		server.POST("/users/ambassador/invite", authz.Ambassador, httpx.CallBody(limit, m.svc.invite)).Doc("Invite a partner", InviteRequest{}, InviteResponse{}),
		server.PUT("/users/ambassador", authz.Ambassador, m.updateAmbassadorHandler).Doc("Update the partner's profile", UpdateProfileRequest{}, HubResponse{}),
		server.PUT("/api/special/ambassador/invite/:id", authz.Ambassador, httpx.CallID(m.svc.resend)).Doc("Accept a partner invitation", nil, MessageResponse{}),
		server.GET("/api/special/", authz.SuperAdmin, m.specialUsersHandler).Doc("The partners", nil, pagination.Page[*SpecialUser]{}).Params(nil, &specialSpec),
		server.GET("/api/special/flags", authz.SuperAdmin, httpx.Call(m.svc.flaggedCharges)).Doc("The charges held for review: paid with a card the partner's company saved (super admin)", nil, []*FlaggedCharge{}),
		server.GET("/api/special/hub", authz.User, m.hubHandler).Doc("The partner's hub", nil, HubResponse{}),
		server.PUT("/api/special/hub/:userId", authz.User, m.updateHubHandler).Doc("Update a partner's hub (admin)", UpdateProfileRequest{}, HubResponse{}),
		server.GET("/api/special/stats", authz.User, m.statsHandler).Doc("The partner's monthly figures", nil, []MonthlyStat{}).Params(YearQuery{}, nil),
		server.GET("/api/special/invite", authz.Member, m.linkedHandler).Doc("The partner's linked companies", nil, []*LinkedCompany{}).Params(CompanyQuery{}, nil),
		server.GET("/api/special/bonus", authz.User, m.ownBonusHandler).Doc("The partner's bonuses", nil, []BonusRow{}).Params(BonusQuery{}, nil),
		server.GET("/api/special/:companyId/bonus", authz.Member, m.bonusHandler).Doc("A linked company's bonuses", nil, []BonusRow{}).Params(BonusQuery{}, nil),
		server.GET("/api/special/codes", authz.User, m.codesHandler).Doc("The partner's code redemptions", nil, pagination.Page[*CodeRedemption]{}).Params(YearQuery{}, &codesSpec),
		server.GET("/api/special/campaigns", authz.User, m.campaignsHandler).Doc("The partner's linked campaigns", nil, pagination.Page[*LinkedCampaign]{}).Params(YearQuery{}, &campaignsSpec),
		server.GET("/api/special/certified/exam", authz.Certified, httpx.Call(m.svc.exam)).Doc("The certification exam", nil, ExamResponse{}),
		server.PUT("/api/special/certified/exam", authz.Certified, httpx.CallBody(limit, m.svc.submitExam)).Doc("Submit the certification exam", ExamSubmission{}, ExamResult{}),
	}
}

// me is the caller's partner row; a company that is not a partner answers 403.
func (m *Module) me(c *gin.Context) (*auth.Principal, *store.Partner, error) {
	p := auth.Current(c)
	partner, err := m.svc.partnerOf(c, p.CompanyID, p.CompanyType)
	return p, partner, err
}

// updateHubHandler is PUT /api/special/hub/{userId}: the caller's own hub only; another user's id
// answers 404.
func (m *Module) updateHubHandler(c *gin.Context) error {
	if c.Param("userId") != auth.Current(c).UserID {
		return apperr.NotFound(identity.MsgUserNotFound)
	}
	return m.updateAmbassadorHandler(c)
}

// updateAmbassadorHandler reads the profile update of the body, applies it and answers the hub.
func (m *Module) updateAmbassadorHandler(c *gin.Context) error {
	var req UpdateProfileRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	me, partner, err := m.me(c)
	if err != nil {
		return err
	}
	if err := m.svc.updateProfile(c, partner, req); err != nil {
		return err
	}
	if partner, err = m.svc.store.PartnerByID(c, partner.ID); err != nil {
		return apperr.Internal(err)
	}
	prof, err := m.svc.profile(c, partner, me.UserID)
	if err != nil {
		return err
	}
	httpx.Answer(c, HubResponse{Success: true, Message: MsgHubUpdated, Profile: prof})
	return nil
}

func (m *Module) hubHandler(c *gin.Context) error {
	me, partner, err := m.me(c)
	if err != nil {
		return err
	}
	prof, err := m.svc.profile(c, partner, me.UserID)
	if err != nil {
		return err
	}
	httpx.Answer(c, HubResponse{Success: true, Profile: prof})
	return nil
}

func (m *Module) statsHandler(c *gin.Context) error {
	_, partner, err := m.me(c)
	if err != nil {
		return err
	}
	year, err := m.svc.parseYear(c.Query("year"), false)
	if err != nil {
		return err
	}
	out, err := m.svc.stats(c, partner.ID, year)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

func (m *Module) specialUsersHandler(c *gin.Context) error {
	p, err := pagination.Parse(c, specialSpec)
	if err != nil {
		return err
	}
	out, err := m.svc.specialUsers(c, p)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

// partnerFor resolves whose partner data a call reads: an admin names the partner company
// (?company=, or the path's companyId); a partner reads its own, and naming another partner
// answers 404.
func (m *Module) partnerFor(c *gin.Context, named string) (*store.Partner, error) {
	me := auth.Current(c)
	if me.Role == identity.RoleAdmin || me.Role == identity.RoleSuperAdmin {
		p, err := m.svc.store.PartnerByID(c, named)
		if err != nil || !isPartnerType(p.Type) {
			return nil, apperr.NotFound(MsgPartnerMissing)
		}
		return p, nil
	}
	if named != "" && named != me.CompanyID {
		return nil, apperr.NotFound(MsgPartnerMissing)
	}
	return m.svc.partnerOf(c, me.CompanyID, me.CompanyType)
}

func (m *Module) linkedHandler(c *gin.Context) error {
	p, err := m.partnerFor(c, c.Query("company"))
	if err != nil {
		return err
	}
	out, err := m.svc.linkedCompanies(c, p.ID)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

func (m *Module) bonusHandler(c *gin.Context) error {
	p, err := m.partnerFor(c, c.Param("companyId"))
	if err != nil {
		return err
	}
	return m.answerBonusList(c, p)
}

func (m *Module) ownBonusHandler(c *gin.Context) error {
	_, partner, err := m.me(c)
	if err != nil {
		return err
	}
	return m.answerBonusList(c, partner)
}

// answerBonusList answers the partner's bonuses grouped as ?type= asks.
func (m *Module) answerBonusList(c *gin.Context, p *store.Partner) error {
	out, err := m.svc.bonusList(c, p.ID, c.Query("type"))
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

// yearPage reads the caller's partner row, ?year= (empty or "all": all time) and the page.
func (m *Module) yearPage(c *gin.Context, spec pagination.Spec) (*store.Partner, int, pagination.Params, error) {
	_, partner, err := m.me(c)
	if err != nil {
		return nil, 0, pagination.Params{}, err
	}
	year, err := m.svc.parseYear(c.Query("year"), true)
	if err != nil {
		return nil, 0, pagination.Params{}, err
	}
	p, err := pagination.Parse(c, spec)
	if err != nil {
		return nil, 0, pagination.Params{}, err
	}
	return partner, year, p, nil
}

func (m *Module) codesHandler(c *gin.Context) error {
	partner, year, p, err := m.yearPage(c, codesSpec)
	if err != nil {
		return err
	}
	out, err := m.svc.codes(c, partner.ID, year, p)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

func (m *Module) campaignsHandler(c *gin.Context) error {
	partner, year, p, err := m.yearPage(c, campaignsSpec)
	if err != nil {
		return err
	}
	out, err := m.svc.linkedCampaigns(c, partner.ID, year, p)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}
