package httpx

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"marquee/platform/auth"
)

// The handler layer. Most handlers do three things: bind the request (the path's :id, the JSON
// body, or both), call the service with the caller's principal, and answer what it returns with
// the route's success status. These adapters are that body, written once, so a route table row
// names the service method itself:
//
//	server.POST("/api/cards", authz.User, httpx.CallBody(limit, m.svc.AddCard)).Answers(http.StatusCreated)
//
// A handler that does more (reads query parameters, sets a cookie, streams a file) stays a
// HandlerFunc of its own and ends with Answer.

// Call adapts a service call that needs only the principal.
func Call[Resp any](call func(ctx context.Context, p *auth.Principal) (Resp, error)) HandlerFunc {
	return func(c *gin.Context) error {
		out, err := call(c, auth.Current(c))
		if err != nil {
			return err
		}
		Answer(c, out)
		return nil
	}
}

// CallID adapts a service call on the resource the path's :id names.
func CallID[Resp any](call func(ctx context.Context, p *auth.Principal, id string) (Resp, error)) HandlerFunc {
	return func(c *gin.Context) error {
		out, err := call(c, auth.Current(c), c.Param("id"))
		if err != nil {
			return err
		}
		Answer(c, out)
		return nil
	}
}

// CallBody adapts a service call that takes the JSON body, read by BindJSON with the module's
// body limit. The service validates the request: its rules and messages are the server's (DESIGN.md
// §3), whoever calls it.
func CallBody[Req, Resp any](limit int64, call func(ctx context.Context, p *auth.Principal, req Req) (Resp, error)) HandlerFunc {
	return func(c *gin.Context) error {
		var req Req
		if err := BindJSON(c, &req, limit); err != nil {
			return err
		}
		out, err := call(c, auth.Current(c), req)
		if err != nil {
			return err
		}
		Answer(c, out)
		return nil
	}
}

// CallIDBody adapts a service call that takes the path's :id and the JSON body.
func CallIDBody[Req, Resp any](limit int64, call func(ctx context.Context, p *auth.Principal, id string, req Req) (Resp, error)) HandlerFunc {
	return func(c *gin.Context) error {
		var req Req
		if err := BindJSON(c, &req, limit); err != nil {
			return err
		}
		out, err := call(c, auth.Current(c), c.Param("id"), req)
		if err != nil {
			return err
		}
		Answer(c, out)
		return nil
	}
}

// successKey holds, in the gin context, the route's success status (server.Route.Answers).
const successKey = "httpx.success"

// WithSuccess wraps h so that Answer uses status (when not 0): the route table declares a route's
// success status once, for both the answer and the OpenAPI document.
func WithSuccess(h HandlerFunc, status int) HandlerFunc {
	if status == 0 {
		return h
	}
	return func(c *gin.Context) error {
		c.Set(successKey, status)
		return h(c)
	}
}

// Answer writes v with the route's success status: 200 unless the route declares another, and no
// body for 204.
func Answer(c *gin.Context, v any) {
	status := http.StatusOK
	if s, ok := c.Get(successKey); ok {
		status = s.(int)
	}
	if status == http.StatusNoContent {
		c.Status(status)
		return
	}
	c.JSON(status, v)
}
