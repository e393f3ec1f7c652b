package server

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/httpx"
	"marquee/platform/pagination"
)

// Route is one row of a module's route table: the gin pattern, the narrowest role that may call it
// (B §6) and the handler. The same row feeds the OpenAPI document (openapi.go): Summary, Request and
// Response (zero values of the DTOs the handler binds and answers) describe it, so the document
// cannot name a route that does not exist nor miss one that does; the contract test checks the
// answers of the public API against the Response schemas.
type Route struct {
	Method, Path, Role string
	Handler            httpx.HandlerFunc

	Summary  string
	Request  any // the JSON body's DTO (Upload for a multipart one), or nil
	Response any // the 2xx answer's DTO (a nil pointer when it may be null, File for a file), or nil
	// Query is a struct whose `query:"name"` fields are the query parameters the handler reads (their
	// `validate` tags give the limits and enums); List is the pagination.Spec of a list's page,
	// page_size, sort and q.
	Query any
	List  *pagination.Spec
	// Success is the status of the answer (200 when 0).
	Success int
	// unsafeGET marks a GET that changes something (UnsafeGET): it needs the CSRF header.
	unsafeGET bool

	// V1Path, when set, serves the same handler at /api/v1+V1Path to API keys (bearer only): the
	// public API is the web's handlers, not a second implementation. V1Scope is the key scope the
	// call needs (auth.ScopeRead or auth.ScopeReadWrite).
	V1Path, V1Scope string

	example  any  // the request body's example (Example)
	conflict any  // the 409's body, when not the envelope (Conflicts)
	etag     bool // the answer has an ETag and If-None-Match may answer 304 (Revalidates)

	// device marks a row of the device API (Device, DeviceOpen): mounted in its own group under
	// DevicePrefix, without session, CSRF or API key; deviceSigned rows pass the DeviceAuth port
	// first.
	device, deviceSigned bool
}

// RouteTable is a module's routes. One table gives both Module.Routes and Module.Policy, so a route
// cannot exist without its rule, nor a rule without its route.
type RouteTable []Route

// Register adds every route to r. Under the kernel, r is a *Router: it records the rows for the
// OpenAPI document and mounts the /api/v1 copies.
func (t RouteTable) Register(r gin.IRouter) {
	rec, _ := r.(*Router)
	for _, rt := range t {
		// A device path is served by the device group only, and the device group serves device
		// rows only: a device credential never reaches a user route, nor a session a device route.
		if rt.device != strings.HasPrefix(rt.Path, DevicePrefix) {
			panic("server: a route under " + DevicePrefix + " must be a device row, and only there: " + rt.Method + " " + rt.Path)
		}
		target := r
		if rt.device && rec != nil {
			target = rec.deviceOpen
			if rt.deviceSigned {
				target = rec.deviceSigned
			}
			if target == nil {
				panic("server: no device group for " + rt.Method + " " + rt.Path)
			}
		}
		target.Handle(rt.Method, rt.Path, httpx.H(httpx.WithSuccess(rt.Handler, rt.Success)))
		if rec != nil {
			rec.add(rt)
		}
	}
}

// Policy is one authorization rule per route, and one per /api/v1 copy. Device rows have none:
// Casbin's subjects are users, and no user may call them (the device group has no session).
func (t RouteTable) Policy() []authz.Rule {
	rules := make([]authz.Rule, 0, len(t))
	for _, rt := range t {
		if rt.device {
			continue
		}
		rules = append(rules, authz.Allow(rt.Role, rt.Method, rt.Path))
		if rt.V1Path != "" {
			v := rt.v1()
			rules = append(rules, authz.Allow(v.Role, v.Method, v.Path))
		}
	}
	return rules
}

// GET, POST, PUT and DELETE make the rows of a route table:
//
//	server.GET("/api/markets/", authz.Anonymous, m.markets)
func GET(path, role string, h httpx.HandlerFunc) Route {
	return Route{Method: "GET", Path: path, Role: role, Handler: h}
}

// UnsafeGET is a GET that changes something (the spec gives some such paths, like /users/logout):
// httpx.SideEffectGET guards it as an unsafe method, and the document says it needs the CSRF header.
func UnsafeGET(path, role string, h httpx.HandlerFunc) Route {
	return Route{Method: "GET", Path: path, Role: role, Handler: httpx.SideEffectGET(h), unsafeGET: true}
}

func POST(path, role string, h httpx.HandlerFunc) Route {
	return Route{Method: "POST", Path: path, Role: role, Handler: h}
}

func PUT(path, role string, h httpx.HandlerFunc) Route {
	return Route{Method: "PUT", Path: path, Role: role, Handler: h}
}

func DELETE(path, role string, h httpx.HandlerFunc) Route {
	return Route{Method: "DELETE", Path: path, Role: role, Handler: h}
}

// Doc describes the row for the OpenAPI document: a one-line summary, the request body's DTO and
// the answer's DTO (zero values, or nil for none).
func (r Route) Doc(summary string, request, response any) Route {
	r.Summary, r.Request, r.Response = summary, request, response
	return r
}

// Params declares the query parameters: q is a struct of `query:"name"` fields, and list, when not
// nil, the list's page, page_size, sort and q.
func (r Route) Params(q any, list *pagination.Spec) Route {
	r.Query, r.List = q, list
	return r
}

// Answers sets the success status (201 for a creation, 204 for no body).
func (r Route) Answers(status int) Route {
	r.Success = status
	return r
}

// Revalidates declares that the answer carries a strong ETag and that a request whose
// If-None-Match names it is answered 304 Not Modified, without a body (the handler does both).
func (r Route) Revalidates() Route {
	r.etag = true
	return r
}

// V1 also serves the row at /api/v1+path to API keys. A GET needs the read scope, any other
// method read-write.
func (r Route) V1(path string) Route {
	r.V1Path, r.V1Scope = path, auth.ScopeReadWrite
	if r.Method == "GET" {
		r.V1Scope = auth.ScopeRead
	}
	return r
}

// V1Read is V1 for a POST that changes nothing (a quote, a search): a read key may call it.
func (r Route) V1Read(path string) Route {
	r = r.V1(path)
	r.V1Scope = auth.ScopeRead
	return r
}

// DevicePrefix is where the device API lives (docs/screens.md): calls of paired players, which
// authenticate by their Ed25519 key, never by a session or an API key.
const DevicePrefix = "/api/device/"

// DeviceRole is the role written on device rows (the authorization matrix, the OpenAPI x-role):
// no user subject has it.
const DeviceRole = "device"

// Device marks the row as a signed call of the device API: the kernel's DeviceAuth port
// authenticates it (a module that implements DeviceAuth) before the handler runs.
func (r Route) Device() Route {
	r.device, r.deviceSigned, r.Role = true, true, DeviceRole
	return r
}

// DeviceOpen marks the row as a call of the device API that carries its own credential in the
// body (pairing with a single-use code): no session, no signature.
func (r Route) DeviceOpen() Route {
	r.device, r.deviceSigned, r.Role = true, false, DeviceRole
	return r
}

// DeviceAuth is the port that authenticates a signed device call: it checks the request (it may
// read and restore the body) and answers it with the device in its context, or the error to
// answer (401, 413). The screens module implements it; the platform imports no module.
type DeviceAuth interface {
	AuthenticateDevice(r *http.Request) (*http.Request, error)
}

// deviceMiddleware runs the port before a signed device row.
func deviceMiddleware(a DeviceAuth) gin.HandlerFunc {
	return func(c *gin.Context) {
		if a == nil {
			httpx.Fail(c, apperr.EUNAUTHORIZED, MsgNoDeviceAuth)
			return
		}
		r, err := a.AuthenticateDevice(c.Request)
		if err != nil {
			httpx.WriteError(c, err)
			return
		}
		c.Request = r
		c.Next()
	}
}

// MsgNoDeviceAuth answers a signed device call when no module authenticates devices.
const MsgNoDeviceAuth = "This server does not accept device calls."

// V1Prefix is where the public API lives.
const V1Prefix = "/api/v1"

// v1 is the /api/v1 copy of the row. Only API keys reach it, and a key acts as a regular user of
// its company, so the rule is at least "user": an admin route can never be mounted there.
func (r Route) v1() Route {
	v := r
	v.Path = V1Prefix + r.V1Path
	switch r.Role {
	case authz.Anonymous, authz.Member:
		v.Role = authz.User
	case authz.Admin, authz.SuperAdmin:
		panic("server: an admin route cannot be part of the public API: " + r.Method + " " + r.Path)
	}
	v.V1Path = ""
	v.Handler = requireScope(r.V1Scope, r.Handler)
	return v
}

// MsgReadOnlyKey answers a write call made with a read-scoped key.
const MsgReadOnlyKey = "This API key can only read. Make a read-write key to change data."

// requireScope refuses a call whose key lacks scope (403).
func requireScope(scope string, h httpx.HandlerFunc) httpx.HandlerFunc {
	return func(c *gin.Context) error {
		p := auth.Current(c)
		if scope != auth.ScopeRead && (p == nil || p.APIKey == nil || p.APIKey.Scope != auth.ScopeReadWrite) {
			return apperr.New(apperr.EFORBIDDEN, MsgReadOnlyKey)
		}
		if scope != auth.ScopeRead {
			c.Set(writeCallKey, true)
		}
		return h(c)
	}
}

// Router is the router modules register on under the kernel: the cookie API group, the /api/v1
// group of API keys, and the record of every row (for the OpenAPI document).
type Router struct {
	gin.IRouter
	v1 gin.IRouter
	// deviceOpen and deviceSigned are the device API's groups (Device, DeviceOpen).
	deviceOpen, deviceSigned gin.IRouter
	module                   string
	routes                   *[]docRoute
}

func (r *Router) add(rt Route) {
	*r.routes = append(*r.routes, docRoute{rt, r.module})
	if rt.V1Path == "" || r.v1 == nil {
		return
	}
	v := rt.v1()
	r.v1.Handle(v.Method, rt.V1Path, httpx.H(httpx.WithSuccess(v.Handler, v.Success)))
	*r.routes = append(*r.routes, docRoute{v, r.module})
}
