package partners

import (
	"github.com/gin-gonic/gin"

	"marquee/modules/identity"
	"marquee/modules/partners/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/httpx"
	"marquee/platform/pagination"
)

func (m *Module) bind(c *gin.Context, v any) error { return httpx.BindJSON(c, v, m.deps.MaxJSONBytes) }

// me is the caller's partner row; a company that is not a partner answers 403.
func (m *Module) me(c *gin.Context) (*auth.Principal, *store.Partner, error) {
	p := auth.Current(c)
	partner, err := m.partnerOf(c, p.CompanyID, p.CompanyType)
	return p, partner, err
}

func (m *Module) inviteHandler(c *gin.Context) error {
	var req InviteRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	out, err := m.invite(c, auth.Current(c), req)
	if err != nil {
		return err
	}
	httpx.OK(c, InviteResponse{Success: true, Message: MsgInvited, Client: out})
	return nil
}

func (m *Module) resendHandler(c *gin.Context) error {
	if err := m.resend(c, auth.Current(c), c.Param("id")); err != nil {
		return err
	}
	httpx.OK(c, MessageResponse{Success: true, Message: MsgInviteResent})
	return nil
}

func (m *Module) updateAmbassadorHandler(c *gin.Context) error {
	var req UpdateProfileRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	return m.saveProfile(c, req)
}

// updateHubHandler is PUT /api/special/hub/{userId}: the caller's own hub only; another user's id
// answers 404.
func (m *Module) updateHubHandler(c *gin.Context) error {
	if c.Param("userId") != auth.Current(c).UserID {
		return apperr.NotFound(identity.MsgUserNotFound)
	}
	var req UpdateProfileRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	return m.saveProfile(c, req)
}

func (m *Module) saveProfile(c *gin.Context, req UpdateProfileRequest) error {
	me, partner, err := m.me(c)
	if err != nil {
		return err
	}
	if err := m.updateProfile(c, partner, req); err != nil {
		return err
	}
	if partner, err = m.store.PartnerByID(c, partner.ID); err != nil {
		return apperr.Internal(err)
	}
	prof, err := m.profile(c, partner, me.UserID)
	if err != nil {
		return err
	}
	httpx.OK(c, HubResponse{Success: true, Message: MsgHubUpdated, Profile: prof})
	return nil
}

func (m *Module) hubHandler(c *gin.Context) error {
	me, partner, err := m.me(c)
	if err != nil {
		return err
	}
	prof, err := m.profile(c, partner, me.UserID)
	if err != nil {
		return err
	}
	httpx.OK(c, HubResponse{Success: true, Profile: prof})
	return nil
}

func (m *Module) statsHandler(c *gin.Context) error {
	_, partner, err := m.me(c)
	if err != nil {
		return err
	}
	year, err := m.parseYear(c.Query("year"), false)
	if err != nil {
		return err
	}
	out, err := m.stats(c, partner.ID, year)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) specialUsersHandler(c *gin.Context) error {
	p, err := pagination.Parse(c, specialSpec)
	if err != nil {
		return err
	}
	out, err := m.specialUsers(c, p)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

// partnerFor resolves whose partner data a call reads: an admin names the partner company
// (?company=, or the path's companyId); a partner reads its own, and naming another partner
// answers 404.
func (m *Module) partnerFor(c *gin.Context, named string) (*store.Partner, error) {
	me := auth.Current(c)
	if me.Role == identity.RoleAdmin || me.Role == identity.RoleSuperAdmin {
		p, err := m.store.PartnerByID(c, named)
		if err != nil || !isPartnerType(p.Type) {
			return nil, apperr.NotFound(MsgPartnerMissing)
		}
		return p, nil
	}
	if named != "" && named != me.CompanyID {
		return nil, apperr.NotFound(MsgPartnerMissing)
	}
	return m.partnerOf(c, me.CompanyID, me.CompanyType)
}

func (m *Module) linkedHandler(c *gin.Context) error {
	p, err := m.partnerFor(c, c.Query("company"))
	if err != nil {
		return err
	}
	out, err := m.linkedCompanies(c, p.ID)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) bonusHandler(c *gin.Context) error {
	p, err := m.partnerFor(c, c.Param("companyId"))
	if err != nil {
		return err
	}
	out, err := m.bonusList(c, p.ID, c.Query("type"))
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) ownBonusHandler(c *gin.Context) error {
	_, partner, err := m.me(c)
	if err != nil {
		return err
	}
	out, err := m.bonusList(c, partner.ID, c.Query("type"))
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) codesHandler(c *gin.Context) error {
	_, partner, err := m.me(c)
	if err != nil {
		return err
	}
	year, err := m.parseYear(c.Query("year"), true)
	if err != nil {
		return err
	}
	p, err := pagination.Parse(c, codesSpec)
	if err != nil {
		return err
	}
	out, err := m.codes(c, partner.ID, year, p)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) campaignsHandler(c *gin.Context) error {
	_, partner, err := m.me(c)
	if err != nil {
		return err
	}
	year, err := m.parseYear(c.Query("year"), true)
	if err != nil {
		return err
	}
	p, err := pagination.Parse(c, campaignsSpec)
	if err != nil {
		return err
	}
	out, err := m.linkedCampaigns(c, partner.ID, year, p)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) flagsHandler(c *gin.Context) error {
	out, err := m.flaggedCharges(c)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}
