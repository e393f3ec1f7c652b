package auth

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
)

// Subjects are the roles that authorization decides on (B §6). A request has exactly one.
const (
	SubjectAnonymous  = "anonymous"
	SubjectUser       = "user"
	SubjectAmbassador = "ambassador"
	SubjectCertified  = "certified"
	SubjectAdmin      = "admin"
	SubjectSuperAdmin = "super_admin"
)

// Principal is who is calling: the signed-in user and their company.
type Principal struct {
	UserID      string
	CompanyID   string
	Email       string
	Role        string // "user", "admin" or "super_admin"
	CompanyType string // "standard", "ambassador" or "certified"
	SessionID   string
	// ModeratorID is the admin acting as this user through a moderated sign-in (DESIGN.md §1.12),
	// or "".
	ModeratorID string
	// IP is the request's client address (recorded by the audit log).
	IP string
	// APIKey is the key a bearer call of /api/v1 presents, or nil for a session (apikeys.go).
	APIKey *APIKeyRef
}

// APIKeyRef names the key a principal acts through: audit entries and the scope check read it.
type APIKeyRef struct {
	ID, Name, Prefix, Scope string
}

// Subject is the principal's authorization role: super_admin, admin, then the company type for a
// regular user (ambassador, certified), else user. A nil principal is anonymous.
func (p *Principal) Subject() string {
	switch {
	case p == nil:
		return SubjectAnonymous
	case p.Role == SubjectSuperAdmin:
		return SubjectSuperAdmin
	case p.Role == SubjectAdmin:
		return SubjectAdmin
	case p.CompanyType == SubjectAmbassador:
		return SubjectAmbassador
	case p.CompanyType == SubjectCertified:
		return SubjectCertified
	default:
		return SubjectUser
	}
}

// IsAdmin reports whether the principal is an admin or a super admin (they see every company).
func (p *Principal) IsAdmin() bool {
	return p != nil && (p.Role == SubjectAdmin || p.Role == SubjectSuperAdmin)
}

// MsgModeratedCredentials refuses, in a moderated session, what would hand the admin a credential
// that outlives the session: an API key, a webhook endpoint or its secret, a password (DESIGN.md
// §1.12): such a credential would let the admin act as the user after the session ends.
const MsgModeratedCredentials = "You are signed in as this user by an admin: API keys, webhook endpoints and passwords can only be changed by the user."

// RefuseModerated answers 403 MsgModeratedCredentials when p is a moderated session.
func RefuseModerated(p *Principal) error {
	if p != nil && p.ModeratorID != "" {
		return apperr.New(apperr.EFORBIDDEN, MsgModeratedCredentials)
	}
	return nil
}

// PrincipalLoader turns a session's user id into a principal. The identity module implements it; a
// nil principal (user gone or disabled) makes the request anonymous.
type PrincipalLoader interface {
	LoadPrincipal(ctx context.Context, userID string) (*Principal, error)
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// FromContext returns the principal of ctx, or nil when anonymous.
func FromContext(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// Current returns the principal of the request, or nil when anonymous.
func Current(c *gin.Context) *Principal { return FromContext(c.Request.Context()) }

// CookieName is the session cookie.
const CookieName = "marquee_session"

// Cookies writes the session cookie: HttpOnly, SameSite=Lax, Secure behind TLS (DESIGN.md §3).
type Cookies struct {
	Secure bool
}

// Set writes the session cookie. It is a browser-session cookie: the server decides expiry.
func (k Cookies) Set(c *gin.Context, token string) {
	http.SetCookie(c.Writer, &http.Cookie{Name: CookieName, Value: token, Path: "/", HttpOnly: true, Secure: k.Secure, SameSite: http.SameSiteLaxMode}) // #nosec G124 -- HttpOnly and SameSite; Secure follows COOKIE_SECURE (auto: on over https)
}

// Clear removes the session cookie.
func (k Cookies) Clear(c *gin.Context) {
	http.SetCookie(c.Writer, &http.Cookie{Name: CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: k.Secure, SameSite: http.SameSiteLaxMode}) // #nosec G124 -- HttpOnly and SameSite; Secure follows COOKIE_SECURE (auto: on over https)
}

// ModeratorCookieName holds an admin's own session token while they act as another user through a
// moderated sign-in (DESIGN.md §1.12), so that the way back restores that session instead of
// starting a new one. HttpOnly like the session cookie; the session row it names is checked on
// the way back.
const ModeratorCookieName = "marquee_moderator"

// SetModerator keeps the admin's own session token aside during a moderated sign-in.
func (k Cookies) SetModerator(c *gin.Context, token string) {
	http.SetCookie(c.Writer, &http.Cookie{Name: ModeratorCookieName, Value: token, Path: "/", HttpOnly: true, Secure: k.Secure, SameSite: http.SameSiteLaxMode}) // #nosec G124 -- HttpOnly and SameSite; Secure follows COOKIE_SECURE (auto: on over https)
}

// ClearModerator removes the kept admin session token.
func (k Cookies) ClearModerator(c *gin.Context) {
	http.SetCookie(c.Writer, &http.Cookie{Name: ModeratorCookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: k.Secure, SameSite: http.SameSiteLaxMode}) // #nosec G124 -- HttpOnly and SameSite; Secure follows COOKIE_SECURE (auto: on over https)
}

// ModeratorToken returns the admin's kept session token, or "".
func ModeratorToken(c *gin.Context) string {
	v, err := c.Cookie(ModeratorCookieName)
	if err != nil {
		return ""
	}
	return v
}

// Token returns the session token the request carries, or "".
func Token(c *gin.Context) string {
	v, err := c.Cookie(CookieName)
	if err != nil {
		return ""
	}
	return v
}

// MsgUnavailable answers a request whose session cannot be checked because the database fails.
// It is the message of every outage answer (apperr.MsgUnavailable): the user can only wait.
const MsgUnavailable = apperr.MsgUnavailable

const passiveKey = "auth.passive"

// Passive marks the request as not extending the session (GET /users/loggedin: the client's
// periodic check must not keep an idle session alive).
func Passive(c *gin.Context) { c.Set(passiveKey, true) }

// Authenticate resolves the session cookie into the request's principal. An unknown or expired
// cookie is cleared, onExpired runs, and the request goes on as anonymous (authorization decides
// what that may do). When the session cannot be checked at all, onFault answers the request
// (503); it is passed in because httpx, which writes answers, imports this package for its
// handler adapters. After the handler, the session's idle expiry is pushed back unless the route
// is Passive.
func Authenticate(sessions *Sessions, loader PrincipalLoader, cookies Cookies, onExpired func(c *gin.Context), onFault func(c *gin.Context, err error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		token := Token(c)
		if token == "" {
			c.Next()
			return
		}
		ctx := c.Request.Context()
		sess, p, err := sessions.Resolve(ctx, token, loader)
		if err != nil {
			// The database is failing: answer 503 rather than treat a signed-in user as anonymous
			// (which would clear their cookie and sign them out).
			onFault(c, err)
			c.Abort()
			return
		}
		if p == nil {
			cookies.Clear(c)
			if onExpired != nil {
				onExpired(c)
			}
			c.Next()
			return
		}
		p.SessionID = sess.ID
		p.ModeratorID = sess.ModeratorID
		if sess.ModeratorID != "" && p.IsAdmin() {
			// A moderated session never carries admin rights (DESIGN.md §1.12), whoever it acts as.
			p.Role = SubjectUser
		}
		p.IP = c.ClientIP()
		c.Request = c.Request.WithContext(WithPrincipal(ctx, p))
		c.Next()
		if !c.GetBool(passiveKey) && Current(c) != nil {
			_ = sessions.Touch(context.WithoutCancel(ctx), token, sess)
		}
	}
}
