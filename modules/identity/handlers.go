package identity

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"marquee/modules/identity/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/dates"
	"marquee/platform/httpx"
	"marquee/platform/pagination"
	"marquee/platform/ratelimit"
	"marquee/platform/server"
)

// routes lists every route of the module with the role that may call it: one table for Routes and
// Policy, so the two cannot drift apart.
func (m *Module) routes() server.RouteTable {
	s, limit := m.svc, m.deps.MaxJSONBytes
	return server.RouteTable{
		server.GET("/users/loggedin", authz.Anonymous, m.loggedInHandler).Doc("Whether the browser is signed in", nil, LoggedInResponse{}),
		server.GET("/users/currentUser", authz.Member, httpx.Call(s.currentUser)).Doc("The signed-in user", nil, CurrentUser{}),
		server.GET("/companies/currentCompany", authz.Member, httpx.Call(s.currentCompany)).Doc("The signed-in user's company, with its account credit", nil, CurrentCompany{}),
		server.GET("/company-exists", authz.Anonymous, m.companyExistsHandler).Doc("Whether a company name is taken", nil, CompanyExistsResponse{}).Params(CompanyExistsQuery{}, nil),
		server.POST("/signup", authz.Anonymous, m.signUpHandler).Doc("Sign up: make a company and its first user, and sign in (201)", SignUpRequest{}, UserResponse{}).Answers(http.StatusCreated),
		server.POST("/signin", authz.Anonymous, m.signInHandler).Doc("Sign in with email and password (sets the session cookie)", SignInRequest{}, UserResponse{}),
		server.UnsafeGET("/users/logout", authz.Anonymous, m.logoutHandler).Doc("Sign out (a moderated session returns to the admin's own account)", nil, LogoutResponse{}),
		server.POST("/users/reset-password", authz.Anonymous, m.resetPasswordHandler).Doc("Email a password-reset link", ResetPasswordRequest{}, MessageResponse{}),
		server.GET("/users/token/:token", authz.Anonymous, m.resetTokenInfoHandler).Doc("What a password-reset link is for", nil, TokenInfoResponse{}),
		server.POST("/users/setPassword", authz.Anonymous, m.setPasswordHandler).Doc("Set a new password with a reset link", SetPasswordRequest{}, MessageResponse{}),
		server.GET("/api/users/get-password", authz.Anonymous, m.accessTokenInfoHandler).Doc("What a first-password link is for", nil, TokenInfoResponse{}).Params(AccessTokenQuery{}, nil),
		server.POST("/users/set-first-password", authz.Anonymous, m.setFirstPasswordHandler).Doc("Set the first password of an invited user, and sign in", SetPasswordRequest{}, UserResponse{}),
		server.PUT("/users/password", authz.Member, httpx.CallBody(limit, s.changePassword)).Doc("Change the password", ChangePasswordRequest{}, MessageResponse{}),
		server.UnsafeGET("/users/check-tutorial", authz.Member, httpx.Call(s.checkTutorial)).Doc("Whether to show the tour", nil, TourResponse{}),
		server.UnsafeGET("/users/disable-tour", authz.Member, httpx.Call(s.disableTour)).Doc("Stop showing the tour", nil, TourResponse{}),
		server.UnsafeGET("/users/enable-tour", authz.Member, httpx.Call(s.enableTour)).Doc("Show the tour again", nil, TourResponse{}),
		server.POST("/users/tour-call", authz.Member, httpx.Call(s.requestTourCall)).Doc("Ask for a guided call", nil, MessageResponse{}),

		// Profile and team members (B §2 "Settings and profile", B §5; docs/identity.md).
		server.GET("/api/users/:id", authz.Member, httpx.CallID(s.getUser)).Doc("A user of the company", nil, User{}),
		server.PUT("/api/users/:id", authz.Member, httpx.CallIDBody(limit, s.updateUser)).Doc("Update a user", UpdateUserRequest{}, UserResult{}),
		server.GET("/api/companies/:id", authz.Member, httpx.CallID(s.visibleCompany)).Doc("A company", nil, Company{}),
		server.GET("/api/team-members/", authz.Member, httpx.Call(s.teamMembers)).Doc("The company's team", nil, []*User{}),
		server.POST("/api/team-members/", authz.User, httpx.CallBody(limit, s.inviteTeam)).Doc("Invite a team member (201)", InviteRequest{}, InviteResponse{}).Answers(http.StatusCreated),
		server.DELETE("/api/team-members/:id", authz.User, httpx.CallID(s.removeMember)).Doc("Remove a team member (the company's owner; ends their sessions)", nil, MessageResponse{}),
		server.POST("/api/team-members/:id/resend", authz.User, httpx.CallID(s.resendInvite)).Doc("Mail an invited team member a new link (the company's owner)", nil, MessageResponse{}),
		server.GET("/api/users", authz.Member, httpx.Call(s.listUsers)).Doc("The company's users (its owner), or the admins (an admin)", nil, []User{}),

		// The admin area (B §2 "Admin area", B §6).
		server.GET("/companies", authz.Admin, m.companiesHandler).Doc("Every company (admin)", nil, pagination.Page[*Company]{}).Params(AdminCompanyQuery{}, &adminCompanyPage),
		server.PUT("/api/companies/:id", authz.Admin, httpx.CallIDBody(limit, s.updateCompany)).Doc("Update a company (admin)", UpdateCompanyRequest{}, CompanyResult{}),
		server.GET("/api/admin/users/", authz.Admin, m.adminUsersHandler).Doc("Every user (admin)", nil, pagination.Page[*User]{}).Params(AdminUserQuery{}, &adminUserPage),
		server.GET("/api/admin/companies/", authz.Admin, m.adminCompaniesHandler).Doc("Every company with its figures (admin)", nil, pagination.Page[*AdminCompany]{}).Params(AdminCompanyQuery{}, &adminCompanyPage),
		server.PUT("/api/users/upgrade/:id", authz.Admin, httpx.CallIDBody(limit, s.upgradeUser)).Doc("Change a user's role (admin)", UpgradeUserRequest{}, UserResult{}),
		server.PUT("/api/users/:id/disable", authz.Admin, httpx.CallIDBody(limit, s.setEnabled)).Doc("Disable or enable a user (admin)", DisableUserRequest{}, UserResult{}),
		server.GET("/api/admin/audit/", authz.Admin, m.auditLogHandler).Doc("The audit log (admin)", nil, pagination.Page[audit.Entry]{}).Params(AuditQuery{}, &audit.ListSpec),
		server.POST("/moderate-signin", authz.Admin, m.moderateSignInHandler).Doc("Sign in as a user (admin)", ModerateSignInRequest{}, ModerateResponse{}),
		server.POST("/moderate-signout", authz.Member, m.moderateSignOutHandler).Doc("Go back to the admin's own session", nil, ModerateResponse{}),

		// API keys (apikeys.go; docs/api.md "Authentication"): a company's users manage theirs, admins any company's.
		server.GET("/api/api-keys/", authz.User, httpx.Call(s.keys.list)).Doc("List the company's live API keys", nil, []APIKey{}),
		server.POST("/api/api-keys/", authz.User, httpx.CallBody(limit, s.keys.create)).Answers(http.StatusCreated).Doc("Make an API key (the answer shows it once)", CreateAPIKeyRequest{}, CreatedAPIKey{}),
		server.DELETE("/api/api-keys/:id", authz.User, httpx.CallID(s.keys.revoke)).Doc("Revoke one of the company's API keys", nil, httpx.Success{}),
		server.GET("/api/admin/api-keys/", authz.Admin, m.adminAPIKeysHandler).Params(CompanyQuery{}, &adminAPIKeyPage).Doc("Every company's live API keys (admin; ?company= filters)", nil, pagination.Page[APIKey]{}),
		server.DELETE("/api/admin/api-keys/:id", authz.Admin, httpx.CallID(s.keys.revoke)).Doc("Revoke any company's API key (admin, audited)", nil, httpx.Success{}),
	}
}

// limit counts one attempt for keys on l and answers ERATELIMIT (MsgTooManyAttempts) when any of
// them is over the limit.
func limit(ctx context.Context, l *ratelimit.Shared, keys ...string) error {
	return ratelimit.Check(ctx, l, MsgTooManyAttempts, keys...)
}

func (m *Module) loggedInHandler(c *gin.Context) error {
	auth.Passive(c) // the client's 15-minute check must not keep an idle session alive (B §4)
	p := auth.Current(c)
	res := LoggedInResponse{LoggedIn: p != nil}
	if p != nil {
		mod, err := m.svc.moderator(c, p)
		if err != nil {
			return err
		}
		res.Moderator = mod
	}
	httpx.Answer(c, res)
	return nil
}

func (m *Module) companyExistsHandler(c *gin.Context) error {
	res, err := m.svc.companyExists(c, c.Query("name"))
	if err != nil {
		return err
	}
	httpx.Answer(c, res)
	return nil
}

func (m *Module) signUpHandler(c *gin.Context) error {
	// Per client address, as sign-in: each sign-up costs a password hash.
	if err := limit(c, m.signUpLimit, "signup:ip:"+c.ClientIP()); err != nil {
		return err
	}
	var req SignUpRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	u, token, err := m.svc.signUp(c, req, c.ClientIP(), c.Request.UserAgent())
	if err != nil {
		return err
	}
	m.startSession(c, token)
	httpx.Answer(c, UserResponse{Success: true, User: u})
	return nil
}

func (m *Module) signInHandler(c *gin.Context) error {
	var req SignInRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	emailKey := "signin:email:" + normalizeEmail(req.Email)
	if err := limit(c, m.signInLimit, "signin:ip:"+c.ClientIP(), emailKey); err != nil {
		return err
	}
	u, token, err := m.svc.signIn(c, req, c.ClientIP(), c.Request.UserAgent())
	if err != nil {
		return err
	}
	if err := m.signInLimit.Reset(c, emailKey); err != nil {
		// The user is signed in all the same; the count ends with its window.
		httpx.Logger(c).Warn("sign-in: clear the email's attempts", "err", err)
	}
	m.startSession(c, token)
	httpx.Answer(c, UserResponse{Success: true, User: u})
	return nil
}

// startSession replaces any session the browser had with the new one (renewed on sign-in, so a
// planted cookie is worthless).
func (m *Module) startSession(c *gin.Context, token string) {
	if old := auth.Token(c); old != "" {
		_ = m.deps.Sessions.Revoke(c, old)
	}
	m.endKeptAdminSession(c)
	m.deps.Cookies.Set(c, token)
}

// endKeptAdminSession ends the admin's own session kept aside during a moderated sign-in, when the
// browser signs out or signs in as someone else instead of going back to it.
func (m *Module) endKeptAdminSession(c *gin.Context) {
	if kept := auth.ModeratorToken(c); kept != "" {
		_ = m.deps.Sessions.Revoke(c, kept)
		m.deps.Cookies.ClearModerator(c)
	}
}

func (m *Module) logoutHandler(c *gin.Context) error {
	if p := auth.Current(c); p != nil && p.ModeratorID != "" {
		// Logging out of a moderated session returns to the admin's own account, with the
		// moderate.signout audit row; it never silently ends the admin's session.
		res, err := m.endModeration(c)
		if err != nil {
			return err
		}
		httpx.Answer(c, LogoutResponse{Success: res.Success, Message: res.Message, User: res.User, Moderator: res.Moderator})
		return nil
	}
	if token := auth.Token(c); token != "" {
		if err := m.deps.Sessions.Revoke(c, token); err != nil {
			return apperr.Internal(err)
		}
	}
	m.endKeptAdminSession(c)
	m.deps.Cookies.Clear(c)
	httpx.Answer(c, LogoutResponse{Success: true, Message: MsgLoggedOut})
	return nil
}

func (m *Module) resetPasswordHandler(c *gin.Context) error {
	var req ResetPasswordRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	if err := limit(c, m.resetLimit, "reset:ip:"+c.ClientIP(), "reset:email:"+normalizeEmail(req.Email)); err != nil {
		return err
	}
	if err := m.svc.requestReset(c, req.Email); err != nil {
		return err
	}
	httpx.Answer(c, MessageResponse{Success: true, Message: MsgResetSent})
	return nil
}

func (m *Module) resetTokenInfoHandler(c *gin.Context) error {
	info, err := m.svc.tokenInfo(c, c.Param("token"), store.PurposeReset)
	if err != nil {
		return err
	}
	httpx.Answer(c, info)
	return nil
}

func (m *Module) accessTokenInfoHandler(c *gin.Context) error {
	info, err := m.svc.tokenInfo(c, c.Query("token"), store.PurposeAccess)
	if err != nil {
		return err
	}
	httpx.Answer(c, info)
	return nil
}

func (m *Module) setPasswordHandler(c *gin.Context) error {
	var req SetPasswordRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	if err := m.svc.resetPassword(c, req); err != nil {
		return err
	}
	m.deps.Cookies.Clear(c)
	httpx.Answer(c, MessageResponse{Success: true, Message: MsgPasswordReset})
	return nil
}

func (m *Module) setFirstPasswordHandler(c *gin.Context) error {
	var req SetPasswordRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	u, token, err := m.svc.setFirstPassword(c, req, c.ClientIP(), c.Request.UserAgent())
	if err != nil {
		return err
	}
	m.startSession(c, token)
	httpx.Answer(c, UserResponse{Success: true, Message: MsgAccountReady, User: u})
	return nil
}

func (m *Module) adminUsersHandler(c *gin.Context) error {
	p, err := pagination.Parse(c, adminUserPage)
	if err != nil {
		return err
	}
	page, err := m.svc.adminUsers(c, c.Query("status"), c.Query("company"), p)
	if err != nil {
		return err
	}
	httpx.Answer(c, page)
	return nil
}

func companyFilter(c *gin.Context) store.CompanyFilter {
	return store.CompanyFilter{Q: c.Query("q"), Status: c.Query("status"), Type: c.Query("type")}
}

func (m *Module) companiesHandler(c *gin.Context) error {
	p, err := pagination.Parse(c, adminCompanyPage)
	if err != nil {
		return err
	}
	cs, total, err := m.svc.listCompanies(c, companyFilter(c), p)
	if err != nil {
		return err
	}
	httpx.Answer(c, pagination.Envelope(cs, total, p))
	return nil
}

func (m *Module) adminCompaniesHandler(c *gin.Context) error {
	p, err := pagination.Parse(c, adminCompanyPage)
	if err != nil {
		return err
	}
	page, err := m.svc.adminCompanies(c, companyFilter(c), p)
	if err != nil {
		return err
	}
	httpx.Answer(c, page)
	return nil
}

func (m *Module) auditLogHandler(c *gin.Context) error {
	p, err := pagination.Parse(c, audit.ListSpec)
	if err != nil {
		return err
	}
	f, err := auditFilter(c)
	if err != nil {
		return err
	}
	page, err := m.deps.Audit.List(c, f, p)
	if err != nil {
		return err
	}
	if err := m.svc.nameAuditEntries(c, page.Items); err != nil {
		return err
	}
	httpx.Answer(c, page)
	return nil
}

func (m *Module) adminAPIKeysHandler(c *gin.Context) error {
	p, err := pagination.Parse(c, adminAPIKeyPage)
	if err != nil {
		return err
	}
	out, err := m.svc.keys.adminList(c, c.Query("company"), p)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

func (m *Module) moderateSignInHandler(c *gin.Context) error {
	var req ModerateSignInRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	u, mod, token, err := m.svc.moderateSignIn(c, auth.Current(c), req.Email, c.ClientIP(), c.Request.UserAgent())
	if err != nil {
		return err
	}
	// The admin's own session stays live; its token waits in the moderator cookie for the way back.
	m.deps.Cookies.SetModerator(c, auth.Token(c))
	m.deps.Cookies.Set(c, token)
	httpx.Answer(c, ModerateResponse{Success: true, Message: MsgModerateStarted, User: u, Moderator: mod})
	return nil
}

func (m *Module) moderateSignOutHandler(c *gin.Context) error {
	res, err := m.endModeration(c)
	if err != nil {
		return err
	}
	httpx.Answer(c, res)
	return nil
}

// endModeration ends the request's moderated session (the way back, or a logout inside it: issue
// 24 §2) and puts the admin's own session back in the cookie when it is still live.
func (m *Module) endModeration(c *gin.Context) (*ModerateResponse, error) {
	adminToken := auth.ModeratorToken(c)
	u, restored, err := m.svc.moderateSignOut(c, auth.Current(c), adminToken)
	if err != nil {
		return nil, err
	}
	m.deps.Cookies.ClearModerator(c)
	if !restored {
		m.deps.Cookies.Clear(c)
		return &ModerateResponse{Success: true, Message: MsgModerateAdminExpired}, nil
	}
	m.deps.Cookies.Set(c, adminToken)
	return &ModerateResponse{Success: true, Message: MsgModerateEnded, User: u}, nil
}

// auditFilter reads the audit list's filters: actor (an id or part of an email), action,
// object_type, object_id, from and to (YYYY-MM-DD, inclusive, in UTC).
func auditFilter(c *gin.Context) (audit.Filter, error) {
	f := audit.Filter{Actor: strings.TrimSpace(c.Query("actor")), Action: c.Query("action"), ObjectType: c.Query("object_type"), ObjectID: c.Query("object_id")}
	for _, v := range []string{f.Actor, f.Action, f.ObjectType, f.ObjectID} {
		if len(v) > 254 {
			return f, apperr.Field("actor", "Filter text is too long.")
		}
	}
	for _, d := range []struct {
		name string
		to   **time.Time
		end  bool
	}{{"from", &f.From, false}, {"to", &f.To, true}} {
		v := c.Query(d.name)
		if v == "" {
			continue
		}
		day, err := dates.Parse(v)
		if err != nil {
			return f, apperr.Field(d.name, "Dates are YYYY-MM-DD.")
		}
		t := day.Time()
		if d.end {
			t = t.Add(24*time.Hour - time.Nanosecond)
		}
		*d.to = &t
	}
	return f, nil
}
