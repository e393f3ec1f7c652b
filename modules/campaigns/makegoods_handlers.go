package campaigns

import (
	"github.com/gin-gonic/gin"

	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/httpx"
	"marquee/platform/pagination"
	"marquee/platform/server"
)

// makeGoodsSpec is the admin make-goods filter: 50, 75, 100, All, newest first.
var makeGoodsSpec = pagination.Spec{PageSizes: []int{50, 75, 100, 0}, DefaultSize: 50}

// makeGoodRoutes are the admin make-good calls (issue 17): the filter over every company and the
// waiver. The advertiser reads a campaign's make-goods on its detail (GET /api/campaigns/{id}).
func (m *Module) makeGoodRoutes() server.RouteTable {
	return server.RouteTable{
		server.GET("/api/admin/make-goods", authz.Admin, m.makeGoodsListHandler).Doc("The make-goods (admin)", nil, MakeGoodList{}).Params(MakeGoodsQuery{}, &makeGoodsSpec),
		server.PUT("/api/admin/make-goods/:id/waive", authz.Admin, m.waiveHandler).Doc("Waive a make-good (admin)", WaiveRequest{}, WaiveResponse{}),
	}
}

func (m *Module) makeGoodsListHandler(c *gin.Context) error {
	pp, err := listParams(c, makeGoodsSpec)
	if err != nil {
		return err
	}
	out, err := m.assure.listMakeGoods(c, c.Query("status"), c.Query("company"), pp)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) waiveHandler(c *gin.Context) error {
	var req WaiveRequest
	if err := m.bindManage(c, &req); err != nil {
		return err
	}
	out, err := m.assure.waiveMakeGood(c, auth.Current(c), c.Param("id"), req)
	if err != nil {
		return err
	}
	httpx.OK(c, WaiveResponse{Success: true, Message: MsgMakeGoodWaived, MakeGood: out})
	return nil
}
