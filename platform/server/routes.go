package server

import (
	"github.com/gin-gonic/gin"

	"marquee/platform/authz"
	"marquee/platform/httpx"
)

// Route is one row of a module's route table: the gin pattern, the narrowest role that may call it
// (B §6) and the handler.
type Route struct {
	Method, Path, Role string
	Handler            httpx.HandlerFunc
}

// RouteTable is a module's routes. One table gives both Module.Routes and Module.Policy, so a route
// cannot exist without its rule, nor a rule without its route.
type RouteTable []Route

// Register adds every route to r.
func (t RouteTable) Register(r gin.IRouter) {
	for _, rt := range t {
		r.Handle(rt.Method, rt.Path, httpx.H(rt.Handler))
	}
}

// Policy is one authorization rule per route.
func (t RouteTable) Policy() []authz.Rule {
	rules := make([]authz.Rule, 0, len(t))
	for _, rt := range t {
		rules = append(rules, authz.Allow(rt.Role, rt.Method, rt.Path))
	}
	return rules
}

// GET, POST, PUT and DELETE make the rows of a route table:
//
//	server.GET("/api/markets/", authz.Anonymous, m.markets)
func GET(path, role string, h httpx.HandlerFunc) Route { return Route{"GET", path, role, h} }

func POST(path, role string, h httpx.HandlerFunc) Route { return Route{"POST", path, role, h} }

func PUT(path, role string, h httpx.HandlerFunc) Route { return Route{"PUT", path, role, h} }

func DELETE(path, role string, h httpx.HandlerFunc) Route { return Route{"DELETE", path, role, h} }
