package webhooks

import (
	"github.com/gin-gonic/gin"

	"marquee/platform/auth"
	"marquee/platform/httpx"
)

func (m *Module) bind(c *gin.Context, v any) error { return httpx.BindJSON(c, v, m.deps.MaxJSONBytes) }

func (m *Module) listHandler(c *gin.Context) error {
	eps, err := m.Endpoints(c, auth.Current(c))
	if err != nil {
		return err
	}
	httpx.OK(c, EndpointsResponse{Success: true, Endpoints: eps, EventTypes: EventTypes})
	return nil
}

func (m *Module) createHandler(c *gin.Context) error {
	if err := auth.RefuseModerated(auth.Current(c)); err != nil { // a credential outliving the session (issue 24 §2)
		return err
	}
	var req EndpointRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	ep, secret, err := m.CreateEndpoint(c, auth.Current(c), req)
	if err != nil {
		return err
	}
	httpx.OK(c, EndpointResponse{Success: true, Message: MsgEndpointCreated, Endpoint: *ep, Secret: secret})
	return nil
}

func (m *Module) updateHandler(c *gin.Context) error {
	if err := auth.RefuseModerated(auth.Current(c)); err != nil { // a credential outliving the session (issue 24 §2)
		return err
	}
	var req EndpointRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	ep, err := m.UpdateEndpoint(c, auth.Current(c), c.Param("id"), req)
	if err != nil {
		return err
	}
	httpx.OK(c, EndpointResponse{Success: true, Message: MsgEndpointUpdated, Endpoint: *ep})
	return nil
}

func (m *Module) deleteHandler(c *gin.Context) error {
	if err := m.DeleteEndpoint(c, auth.Current(c), c.Param("id")); err != nil {
		return err
	}
	httpx.OK(c, MessageResponse{Success: true, Message: MsgEndpointDeleted})
	return nil
}

func (m *Module) secretHandler(c *gin.Context) error {
	if err := auth.RefuseModerated(auth.Current(c)); err != nil { // a credential outliving the session (issue 24 §2)
		return err
	}
	s, err := m.Secret(c, auth.Current(c), c.Param("id"))
	if err != nil {
		return err
	}
	httpx.OK(c, SecretResponse{Success: true, Secret: s})
	return nil
}

func (m *Module) deliveriesHandler(c *gin.Context) error {
	ds, err := m.Deliveries(c, auth.Current(c), c.Param("id"))
	if err != nil {
		return err
	}
	httpx.OK(c, DeliveriesResponse{Success: true, Deliveries: ds})
	return nil
}

func (m *Module) redeliverHandler(c *gin.Context) error {
	if err := m.Redeliver(c, auth.Current(c), c.Param("id"), c.Param("deliveryId")); err != nil {
		return err
	}
	httpx.OK(c, MessageResponse{Success: true, Message: MsgRedeliverQueued})
	return nil
}

func (m *Module) testHandler(c *gin.Context) error {
	if err := m.SendTest(c, auth.Current(c), c.Param("id")); err != nil {
		return err
	}
	httpx.OK(c, MessageResponse{Success: true, Message: MsgTestQueued})
	return nil
}
