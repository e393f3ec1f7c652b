package webhooks

import (
	"github.com/gin-gonic/gin"

	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/httpx"
	"marquee/platform/server"
)

// routes is every route of the module: a company's endpoints, their secrets and their delivery
// log, for any signed-in user of the company (the service scopes each call to it).
func (m *Module) routes() server.RouteTable {
	return server.RouteTable{
		server.GET("/api/webhooks", authz.User, httpx.Call(m.svc.list)).Doc("The company's webhook endpoints", nil, EndpointsResponse{}),
		server.POST("/api/webhooks", authz.User, m.createHandler).Doc("Add a webhook endpoint", EndpointRequest{}, EndpointResponse{}),
		server.PUT("/api/webhooks/:id", authz.User, m.updateHandler).Doc("Update a webhook endpoint", EndpointRequest{}, EndpointResponse{}),
		server.DELETE("/api/webhooks/:id", authz.User, httpx.CallID(m.svc.remove)).Doc("Delete a webhook endpoint", nil, MessageResponse{}),
		server.GET("/api/webhooks/:id/secret", authz.User, httpx.CallID(m.svc.revealSecret)).Doc("An endpoint's signing secret", nil, SecretResponse{}),
		server.GET("/api/webhooks/:id/deliveries", authz.User, httpx.CallID(m.svc.log)).Doc("An endpoint's recent deliveries", nil, DeliveriesResponse{}),
		server.POST("/api/webhooks/:id/deliveries/:deliveryId/redeliver", authz.User, m.redeliverHandler).Doc("Send a delivery again", nil, MessageResponse{}),
		server.POST("/api/webhooks/:id/test", authz.User, httpx.CallID(m.svc.test)).Doc("Send a test event", nil, MessageResponse{}),
	}
}

func (m *Module) createHandler(c *gin.Context) error {
	if err := auth.RefuseModerated(auth.Current(c)); err != nil { // a credential outliving the session
		return err
	}
	var req EndpointRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	ep, secret, err := m.svc.CreateEndpoint(c, auth.Current(c), req)
	if err != nil {
		return err
	}
	httpx.Answer(c, EndpointResponse{Success: true, Message: MsgEndpointCreated, Endpoint: *ep, Secret: secret})
	return nil
}

func (m *Module) updateHandler(c *gin.Context) error {
	if err := auth.RefuseModerated(auth.Current(c)); err != nil { // a credential outliving the session
		return err
	}
	var req EndpointRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	ep, err := m.svc.UpdateEndpoint(c, auth.Current(c), c.Param("id"), req)
	if err != nil {
		return err
	}
	httpx.Answer(c, EndpointResponse{Success: true, Message: MsgEndpointUpdated, Endpoint: *ep})
	return nil
}

func (m *Module) redeliverHandler(c *gin.Context) error {
	if err := m.svc.Redeliver(c, auth.Current(c), c.Param("id"), c.Param("deliveryId")); err != nil {
		return err
	}
	httpx.Answer(c, MessageResponse{Success: true, Message: MsgRedeliverQueued})
	return nil
}
