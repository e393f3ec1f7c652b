package campaigns

import (
	"context"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/httpx"
	"marquee/platform/jobs"
	"marquee/platform/pagination"
	"marquee/platform/server"
)

// manageRoutes are the management side's routes (issue 7). Advertisers and admins share the
// campaign calls (admins reach every company's campaigns, for the admin screens); the admin grid,
// the weeks update, the mailer and delivery are for admins.
func (m *Module) manageRoutes() server.RouteTable {
	return server.RouteTable{
		server.GET("/api/campaigns", authz.Member, m.listHandler).Params(StatusQuery{}, &listSpec).Doc("List the company's campaigns (?status=, list params)", nil, CampaignList{}).V1("/campaigns"),
		server.GET("/api/campaigns/count", authz.Member, m.countHandler).Doc("The company's campaign counts", nil, Count{}),
		server.GET("/api/campaigns/:id", authz.Member, m.detailHandler).Doc("A campaign with its totals", nil, CampaignDetail{}).V1("/campaigns/:id"),
		server.GET("/api/campaigns/:id/weeks", authz.Member, m.weeksHandler).Params(nil, &weeksSpec).Doc("A campaign's weeks: one face in one week each, with its delivery (act_imp)", nil, pagination.Page[Week]{}).V1("/campaigns/:id/weeks"),
		server.PUT("/api/campaigns/:id", authz.Member, m.updateHandler).Doc("Update a campaign", CampaignForm{}, CreateResponse{}),
		server.PUT("/api/campaigns/:id/pause", authz.Member, m.actionHandler(m.svc.pauseCampaign)).Doc("Pause a campaign", nil, ActionResponse{}).V1("/campaigns/:id/pause"),
		server.PUT("/api/campaigns/:id/resume", authz.Member, m.actionHandler(m.svc.resumeCampaign)).Doc("Resume a paused campaign", nil, ActionResponse{}).V1("/campaigns/:id/resume"),
		server.PUT("/api/campaigns/:id/stop", authz.Member, m.actionHandler(m.svc.stopCampaign)).Doc("Stop a campaign", nil, ActionResponse{}).V1("/campaigns/:id/stop"),
		server.DELETE("/api/campaigns/:id", authz.Member, m.deleteHandler).Doc("Delete a campaign", nil, ActionResponse{}).Params(DeleteQuery{}, nil),
		server.PUT("/api/campaigns/:id/delete-ac", authz.Member, m.actionHandler(m.svc.releaseCalendar)).Doc("Release a campaign's spots", nil, ActionResponse{}),
		server.PUT("/api/campaigns/:id/creative", authz.Member, m.campaignCreativeHandler).Doc("Change a campaign's creative", CreativeChange{}, MessageResponse{}),
		server.PUT("/api/campaigns/week/:id/creative", authz.Member, m.weekCreativeHandler).Doc("Change a week's creative", CreativeChange{}, MessageResponse{}),
		server.GET("/api/admin/campaigns/", authz.Admin, m.adminListHandler).Doc("Every campaign (admin)", nil, CampaignList{}).Params(StatusQuery{}, &adminSpec),
		server.PUT("/api/admin/campaigns/weeks/:id", authz.Admin, m.weeksUpdateHandler).Doc("Update a campaign's weeks (admin)", WeeksUpdate{}, MessageResponse{}),
		server.POST("/api/campaigns/update/mailer/", authz.Admin, m.mailerHandler).Doc("Email a campaign update (admin)", UpdateMailerRequest{}, MessageResponse{}),
		server.PUT("/api/admin/campaigns/week/:id/delivery", authz.Admin, m.deliveryHandler).Doc("Set a week's delivery (admin)", DeliveryUpdate{}, MessageResponse{}),
		server.POST("/api/admin/campaigns/week/:id/proofs", authz.Admin, m.proofsHandler).Doc("Attach proofs to a week (admin): image files, or the keys of stored ones", server.Upload{Field: "files", Many: true, JSON: ProofsUpload{}}, MessageResponse{}),
		server.DELETE("/api/admin/campaigns/proofs/:id", authz.Admin, m.deleteProofHandler).Doc("Delete a proof (admin)", nil, MessageResponse{}),
	}
}

// manageJobs are the lifecycle's jobs.
func (s *service) manageJobs() []jobs.Job { return []jobs.Job{s.lifecycleJob()} }

// subscribeManage wires the management side's reactions (none: the charge outcome is the
// creation side's, charges.go).
func (s *service) subscribeManage() {}

func (m *Module) bindManage(c *gin.Context, v any) error {
	return httpx.BindJSON(c, v, m.deps.MaxJSONBytes)
}

func (m *Module) listHandler(c *gin.Context) error {
	pp, err := listParams(c, listSpec)
	if err != nil {
		return err
	}
	out, err := m.svc.listCampaigns(c, scope(auth.Current(c)), c.Query("status"), pp)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) adminListHandler(c *gin.Context) error {
	pp, err := listParams(c, adminSpec)
	if err != nil {
		return err
	}
	out, err := m.svc.listCampaigns(c, "", c.Query("status"), pp)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) countHandler(c *gin.Context) error {
	out, err := m.svc.countCampaigns(c, scope(auth.Current(c)))
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) detailHandler(c *gin.Context) error {
	out, err := m.svc.campaignDetail(c, auth.Current(c), c.Param("id"))
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) weeksHandler(c *gin.Context) error {
	pp, err := listParams(c, weeksSpec)
	if err != nil {
		return err
	}
	out, err := m.svc.campaignWeeks(c, auth.Current(c), c.Param("id"), pp)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) actionHandler(f func(ctx context.Context, p *auth.Principal, id string) (*ActionResponse, error)) httpx.HandlerFunc {
	return func(c *gin.Context) error {
		out, err := f(c, auth.Current(c), c.Param("id"))
		if err != nil {
			return err
		}
		httpx.OK(c, out)
		return nil
	}
}

func (m *Module) deleteHandler(c *gin.Context) error {
	var params DeleteParams
	if err := c.ShouldBindQuery(&params); err != nil {
		return apperr.Field("refund", "refund must be true or false.")
	}
	out, err := m.svc.deleteCampaign(c, auth.Current(c), c.Param("id"), params)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) campaignCreativeHandler(c *gin.Context) error {
	var req CreativeChange
	if err := m.bindManage(c, &req); err != nil {
		return err
	}
	out, err := m.svc.changeCampaignCreative(c, auth.Current(c), c.Param("id"), req)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) weekCreativeHandler(c *gin.Context) error {
	var req CreativeChange
	if err := m.bindManage(c, &req); err != nil {
		return err
	}
	out, err := m.svc.changeWeekCreative(c, auth.Current(c), c.Param("id"), req)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) weeksUpdateHandler(c *gin.Context) error {
	var req WeeksUpdate
	if err := m.bindManage(c, &req); err != nil {
		return err
	}
	out, err := m.svc.updateWeeks(c, auth.Current(c), c.Param("id"), req)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) mailerHandler(c *gin.Context) error {
	var req UpdateMailerRequest
	if err := m.bindManage(c, &req); err != nil {
		return err
	}
	out, err := m.svc.sendUpdateMailer(c, auth.Current(c), req)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) deliveryHandler(c *gin.Context) error {
	var req DeliveryUpdate
	if err := m.bindManage(c, &req); err != nil {
		return err
	}
	out, err := m.assure.recordDelivery(c, auth.Current(c), c.Param("id"), req)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) proofsHandler(c *gin.Context) error {
	out, err := m.assure.addProofs(c, auth.Current(c), c.Param("id"))
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) deleteProofHandler(c *gin.Context) error {
	out, err := m.assure.deleteProof(c, auth.Current(c), c.Param("id"))
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) updateHandler(c *gin.Context) error {
	var form CampaignForm
	if err := m.bindManage(c, &form); err != nil {
		return err
	}
	out, err := m.svc.updateCampaign(c, auth.Current(c), c.Param("id"), form)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}
