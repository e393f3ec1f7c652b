package server

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/httpx"
	"marquee/platform/ratelimit"
)

// The public API's edge (docs/api.md): /api/v1 authenticates by API key only. A cookie
// sent there is ignored (so a browser's session can never be ridden through the API, and the API
// needs no CSRF header), and the rest of the API ignores an Authorization header (a key can never
// reach a cookie route, the admin routes among them).

// MsgInvalidKey answers a call of /api/v1 without a valid key: missing, malformed, unknown or
// revoked, all alike.
const MsgInvalidKey = "A valid API key is required: send it as Authorization: Bearer <key>."

// MsgKeyRateLimited answers a key over its per-minute limit.
const MsgKeyRateLimited = "Too many calls with this API key. Please wait and try again."

// AuditAPIWrite is the audit action of a call that changed data through an API key.
const AuditAPIWrite = "api_key.write"

// bearer resolves the request's API key into its principal, applies the key's rate limit with the
// RateLimit headers (draft-ietf-httpapi-ratelimit-headers), and after the handler records the last
// use and, for a call that changed data, an audit entry naming the key.
func (k *Kernel) bearer(keys auth.KeyResolver, limit ratelimit.Counter) gin.HandlerFunc {
	policy := fmt.Sprintf(`"per-key";q=%d;w=%d`, limit.Limit(), int(limit.Window().Seconds()))
	return func(c *gin.Context) {
		var p *auth.Principal
		if keys != nil {
			var err error
			p, err = k.Sessions.ResolveKey(c.Request.Context(), auth.BearerToken(c), keys)
			if err != nil {
				httpx.Logger(c).Error("api key lookup failed", "err", err.Error())
				httpx.Fail(c, apperr.EUNAVAILABLE, auth.MsgUnavailable)
				return
			}
		}
		if p == nil || p.APIKey == nil {
			c.Header("WWW-Authenticate", `Bearer realm="marquee"`)
			httpx.Fail(c, apperr.EUNAUTHORIZED, MsgInvalidKey)
			return
		}
		ok, remaining, reset, err := limit.Take(c.Request.Context(), p.APIKey.ID)
		if err != nil {
			httpx.WriteError(c, apperr.Internal(err)) // the database is down: 503
			return
		}
		secs := int(math.Ceil(reset.Seconds()))
		c.Header("RateLimit-Policy", policy)
		c.Header("RateLimit", fmt.Sprintf(`"per-key";r=%d;t=%d`, remaining, secs))
		if !ok {
			c.Header("Retry-After", strconv.Itoa(secs))
			c.AbortWithStatusJSON(http.StatusTooManyRequests, httpx.ErrorBody{Message: MsgKeyRateLimited})
			return
		}
		p.IP = c.ClientIP()
		ctx := auth.WithPrincipal(c.Request.Context(), p)
		c.Request = c.Request.WithContext(ctx)
		c.Next()

		bg := context.WithoutCancel(ctx)
		keys.TouchAPIKey(bg, p.APIKey.ID, p.IP)
		if c.GetBool(writeCallKey) && c.Writer.Status() < 400 {
			k.auditKeyWrite(bg, c, p)
		}
	}
}

// writeCallKey marks a call of a read-write route (requireScope), which the audit log records.
const writeCallKey = "api.write"

// auditKeyWrite records a call that changed data through a key. It runs after the handler's own
// transaction has committed (the handler is the web's, unchanged), so it is its own transaction.
func (k *Kernel) auditKeyWrite(ctx context.Context, c *gin.Context, p *auth.Principal) {
	type call struct {
		Method    string `json:"method"`
		Path      string `json:"path"`
		Route     string `json:"route"`
		Status    int    `json:"status"`
		KeyName   string `json:"key_name"`
		KeyPrefix string `json:"key_prefix"`
		CompanyID string `json:"company_id"`
	}
	err := db.Transact(ctx, k.DB, func(ctx context.Context) error {
		return k.Audit.RecordAs(ctx, audit.Actor{ID: p.UserID, Email: p.Email, IP: p.IP}, audit.Change{
			Action: AuditAPIWrite, ObjectType: "api_key", ObjectID: p.APIKey.ID,
			After: call{Method: c.Request.Method, Path: c.Request.URL.Path, Route: c.FullPath(), Status: c.Writer.Status(),
				KeyName: p.APIKey.Name, KeyPrefix: p.APIKey.Prefix, CompanyID: p.CompanyID},
		})
	})
	if err != nil {
		httpx.Logger(c).Error("api key audit failed", "err", err.Error())
	}
}
