// Package authz decides who may call which route, with Casbin: an embedded model, the role
// hierarchy of B §6, and the rules each module declares next to its routes. Data-level rules
// (a user sees only their company's data) live in the services.
package authz

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/casbin/casbin/v2"
	"github.com/casbin/casbin/v2/model"
	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/httpx"
)

//go:embed model.conf
var modelText string

//go:embed roles.csv
var rolesCSV string

// Roles a rule may name.
const (
	Anonymous  = "anonymous"
	Member     = "member"
	User       = "user"
	Ambassador = "ambassador"
	Certified  = "certified"
	Admin      = "admin"
	SuperAdmin = "super_admin"
)

// Subjects lists every subject a request can have, for the authorization matrix.
var Subjects = []string{auth.SubjectAnonymous, auth.SubjectUser, auth.SubjectAmbassador, auth.SubjectCertified, auth.SubjectAdmin, auth.SubjectSuperAdmin}

// Rule lets Role call Method on Path, a gin route pattern exactly as the route registers it.
type Rule struct {
	Role, Method, Path string
}

// Allow is shorthand for a rule.
func Allow(role, method, path string) Rule { return Rule{Role: role, Method: method, Path: path} }

// Messages of a refusal.
const (
	MsgSessionExpired = "Your session has expired please login again." // A §8
	MsgForbidden      = "You do not have access to this."
)

// Enforcer decides on requests.
type Enforcer struct {
	e *casbin.SyncedEnforcer
	// decided memoizes Enforce by subject, method and route pattern. The policy is fixed once New
	// returns and the keys are bounded (roles x registered routes), while casbin's matcher
	// evaluation was a tenth of a signed-in request's CPU (docs/performance.md).
	decided sync.Map
}

// New builds the enforcer from the embedded model, the role hierarchy and rules.
func New(rules []Rule) (*Enforcer, error) {
	m, err := model.NewModelFromString(modelText)
	if err != nil {
		return nil, fmt.Errorf("authz model: %w", err)
	}
	e, err := casbin.NewSyncedEnforcer(m)
	if err != nil {
		return nil, fmt.Errorf("authz enforcer: %w", err)
	}
	for _, line := range strings.Split(rolesCSV, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, ",")
		if _, err := e.AddGroupingPolicy(strings.TrimSpace(parts[1]), strings.TrimSpace(parts[2])); err != nil {
			return nil, err
		}
	}
	known := map[string]bool{Anonymous: true, Member: true, User: true, Ambassador: true, Certified: true, Admin: true, SuperAdmin: true}
	for _, r := range rules {
		if !known[r.Role] {
			return nil, fmt.Errorf("authz rule %v names an unknown role", r)
		}
		if _, err := e.AddPolicy(r.Role, r.Path, r.Method); err != nil {
			return nil, err
		}
	}
	return &Enforcer{e: e}, nil
}

type decision struct{ subject, method, route string }

// Allowed reports whether subject may call method on the route pattern.
func (e *Enforcer) Allowed(subject, method, route string) bool {
	key := decision{subject, method, route}
	if ok, seen := e.decided.Load(key); seen {
		return ok.(bool)
	}
	ok, err := e.e.Enforce(subject, route, method)
	allowed := err == nil && ok
	if err == nil {
		e.decided.Store(key, allowed)
	}
	return allowed
}

// Middleware refuses a request whose subject may not call its route: 401 with the session-expired
// message when anonymous (the client then goes to /login, A §2), 403 otherwise. Requests that match
// no route pass through to the not-found handler (the single-page app).
func (e *Enforcer) Middleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		route := c.FullPath()
		if route == "" {
			c.Next()
			return
		}
		p := auth.Current(c)
		method := c.Request.Method
		if method == "HEAD" {
			method = "GET"
		}
		if e.Allowed(p.Subject(), method, route) {
			c.Next()
			return
		}
		if p == nil {
			httpx.Fail(c, apperr.EUNAUTHORIZED, MsgSessionExpired)
			return
		}
		httpx.Fail(c, apperr.EFORBIDDEN, MsgForbidden)
	}
}
