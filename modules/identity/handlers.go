package identity

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"marquee/modules/identity/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/httpx"
	"marquee/platform/pagination"
	"marquee/platform/server"
)

// routes lists every route of the module with the role that may call it: one table for Routes and
// Policy, so the two cannot drift apart.
func (m *Module) routes() server.RouteTable {
	return server.RouteTable{
		server.GET("/users/loggedin", authz.Anonymous, m.loggedIn).Doc("Whether the browser is signed in", nil, LoggedInResponse{}),
		server.GET("/users/currentUser", authz.Member, m.currentUser).Doc("The signed-in user", nil, CurrentUser{}),
		server.GET("/companies/currentCompany", authz.Member, m.currentCompany).Doc("The signed-in user's company, with its account credit", nil, CurrentCompany{}),
		server.GET("/company-exists", authz.Anonymous, m.companyExists).Doc("Whether a company name is taken", nil, CompanyExistsResponse{}).Params(CompanyExistsQuery{}, nil),
		server.POST("/signup", authz.Anonymous, m.signUp).Doc("Sign up: make a company and its first user, and sign in (201)", SignUpRequest{}, UserResponse{}).Answers(http.StatusCreated),
		server.POST("/signin", authz.Anonymous, m.signIn).Doc("Sign in with email and password (sets the session cookie)", SignInRequest{}, UserResponse{}),
		server.UnsafeGET("/users/logout", authz.Anonymous, m.logout).Doc("Sign out (a moderated session returns to the admin's own account)", nil, LogoutResponse{}),
		server.POST("/users/reset-password", authz.Anonymous, m.resetPassword).Doc("Email a password-reset link", ResetPasswordRequest{}, MessageResponse{}),
		server.GET("/users/token/:token", authz.Anonymous, m.resetTokenInfo).Doc("What a password-reset link is for", nil, TokenInfoResponse{}),
		server.POST("/users/setPassword", authz.Anonymous, m.setPassword).Doc("Set a new password with a reset link", SetPasswordRequest{}, MessageResponse{}),
		server.GET("/api/users/get-password", authz.Anonymous, m.accessTokenInfo).Doc("What a first-password link is for", nil, TokenInfoResponse{}).Params(AccessTokenQuery{}, nil),
		server.POST("/users/set-first-password", authz.Anonymous, m.setFirstPassword).Doc("Set the first password of an invited user, and sign in", SetPasswordRequest{}, UserResponse{}),
		server.PUT("/users/password", authz.Member, m.changePassword).Doc("Change the password", ChangePasswordRequest{}, MessageResponse{}),
		server.UnsafeGET("/users/check-tutorial", authz.Member, m.checkTutorial).Doc("Whether to show the tour", nil, TourResponse{}),
		server.UnsafeGET("/users/disable-tour", authz.Member, m.disableTour).Doc("Stop showing the tour", nil, TourResponse{}),
		server.UnsafeGET("/users/enable-tour", authz.Member, m.enableTour).Doc("Show the tour again", nil, TourResponse{}),
		server.POST("/users/tour-call", authz.Member, m.tourCall).Doc("Ask for a guided call", nil, MessageResponse{}),

		// Profile and team members (B §2 "Settings and profile", B §5; docs/identity.md).
		server.GET("/api/users/:id", authz.Member, m.getUser).Doc("A user of the company", nil, User{}),
		server.PUT("/api/users/:id", authz.Member, m.updateUser).Doc("Update a user", UpdateUserRequest{}, UserResult{}),
		server.GET("/api/companies/:id", authz.Member, m.getCompany).Doc("A company", nil, Company{}),
		server.GET("/api/team-members/", authz.Member, m.teamMembers).Doc("The company's team", nil, []*User{}),
		server.POST("/api/team-members/", authz.User, m.inviteTeam).Doc("Invite a team member (201)", InviteRequest{}, InviteResponse{}).Answers(http.StatusCreated),
		server.DELETE("/api/team-members/:id", authz.User, m.removeMember).Doc("Remove a team member (the company's owner; ends their sessions)", nil, MessageResponse{}),
		server.POST("/api/team-members/:id/resend", authz.User, m.resendInvite).Doc("Mail an invited team member a new link (the company's owner)", nil, MessageResponse{}),
		server.GET("/api/users", authz.Member, m.listUsers).Doc("The company's users (its owner), or the admins (an admin)", nil, []User{}),

		// The admin area (B §2 "Admin area", B §6).
		server.GET("/companies", authz.Admin, m.companies).Doc("Every company (admin)", nil, pagination.Page[*Company]{}).Params(AdminCompanyQuery{}, &adminCompanyPage),
		server.PUT("/api/companies/:id", authz.Admin, m.updateCompany).Doc("Update a company (admin)", UpdateCompanyRequest{}, CompanyResult{}),
		server.GET("/api/admin/users/", authz.Admin, m.adminUsers).Doc("Every user (admin)", nil, pagination.Page[*User]{}).Params(AdminUserQuery{}, &adminUserPage),
		server.GET("/api/admin/companies/", authz.Admin, m.adminCompanies).Doc("Every company with its figures (admin)", nil, pagination.Page[*AdminCompany]{}).Params(AdminCompanyQuery{}, &adminCompanyPage),
		server.PUT("/api/users/upgrade/:id", authz.Admin, m.upgradeUser).Doc("Change a user's role (admin)", UpgradeUserRequest{}, UserResult{}),
		server.PUT("/api/users/:id/disable", authz.Admin, m.disableUser).Doc("Disable or enable a user (admin)", DisableUserRequest{}, UserResult{}),
		server.GET("/api/admin/audit/", authz.Admin, m.auditLog).Doc("The audit log (admin)", nil, pagination.Page[audit.Entry]{}).Params(AuditQuery{}, &audit.ListSpec),
		server.POST("/moderate-signin", authz.Admin, m.moderateSignIn).Doc("Sign in as a user (admin)", ModerateSignInRequest{}, ModerateResponse{}),
		server.POST("/moderate-signout", authz.Member, m.moderateSignOut).Doc("Go back to the admin's own session", nil, ModerateResponse{}),

		// API keys (issue 18; apikeys.go): a company's users manage theirs, admins any company's.
		server.GET("/api/api-keys/", authz.User, m.listAPIKeys).Doc("List the company's live API keys", nil, []APIKey{}),
		server.POST("/api/api-keys/", authz.User, m.createAPIKey).Answers(http.StatusCreated).Doc("Make an API key (the answer shows it once)", CreateAPIKeyRequest{}, CreatedAPIKey{}),
		server.DELETE("/api/api-keys/:id", authz.User, m.revokeAPIKey).Doc("Revoke one of the company's API keys", nil, httpx.Success{}),
		server.GET("/api/admin/api-keys/", authz.Admin, m.adminAPIKeys).Params(CompanyQuery{}, &adminAPIKeyPage).Doc("Every company's live API keys (admin; ?company= filters)", nil, pagination.Page[APIKey]{}),
		server.DELETE("/api/admin/api-keys/:id", authz.Admin, m.revokeAPIKey).Doc("Revoke any company's API key (admin, audited)", nil, httpx.Success{}),
	}
}

func (m *Module) bind(c *gin.Context, v any) error { return httpx.BindJSON(c, v, m.deps.MaxJSONBytes) }

func (m *Module) loggedIn(c *gin.Context) error {
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
	httpx.OK(c, res)
	return nil
}

func (m *Module) currentUser(c *gin.Context) error {
	p := auth.Current(c)
	u, err := m.svc.FindUserByID(c, p.UserID)
	if err != nil {
		return err
	}
	mod, err := m.svc.moderator(c, p)
	if err != nil {
		return err
	}
	httpx.OK(c, CurrentUser{User: *u, Moderator: mod})
	return nil
}

func (m *Module) currentCompany(c *gin.Context) error {
	co, err := m.svc.FindCompanyByID(c, auth.Current(c).CompanyID)
	if err != nil {
		return err
	}
	res := CurrentCompany{Company: *co}
	if r := m.creditReader(); r != nil {
		if res.AccountCredit, err = r.AccountCredit(c, co.ID); err != nil {
			return err
		}
	}
	httpx.OK(c, res)
	return nil
}

func (m *Module) companyExists(c *gin.Context) error {
	res, err := m.svc.companyExists(c, c.Query("name"))
	if err != nil {
		return err
	}
	httpx.OK(c, res)
	return nil
}

func (m *Module) signUp(c *gin.Context) error {
	// Per client address, as sign-in: each sign-up costs a password hash (issue 12 item 14).
	if err := limit(c, m.signUpLimit, "signup:ip:"+c.ClientIP()); err != nil {
		return err
	}
	var req SignUpRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	u, token, err := m.svc.signUp(c, req, c.ClientIP(), c.Request.UserAgent())
	if err != nil {
		return err
	}
	m.startSession(c, token)
	httpx.JSON(c, http.StatusCreated, UserResponse{Success: true, User: u})
	return nil
}

func (m *Module) signIn(c *gin.Context) error {
	var req SignInRequest
	if err := m.bind(c, &req); err != nil {
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
	httpx.OK(c, UserResponse{Success: true, User: u})
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

func (m *Module) logout(c *gin.Context) error {
	if p := auth.Current(c); p != nil && p.ModeratorID != "" {
		// Logging out of a moderated session returns to the admin's own account, with the
		// moderate.signout audit row; it never silently ends the admin's session (issue 24 §2).
		res, err := m.endModeration(c)
		if err != nil {
			return err
		}
		httpx.OK(c, LogoutResponse{Success: res.Success, Message: res.Message, User: res.User, Moderator: res.Moderator})
		return nil
	}
	if token := auth.Token(c); token != "" {
		if err := m.deps.Sessions.Revoke(c, token); err != nil {
			return apperr.Internal(err)
		}
	}
	m.endKeptAdminSession(c)
	m.deps.Cookies.Clear(c)
	httpx.OK(c, LogoutResponse{Success: true, Message: MsgLoggedOut})
	return nil
}

func (m *Module) resetPassword(c *gin.Context) error {
	var req ResetPasswordRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	if err := limit(c, m.resetLimit, "reset:ip:"+c.ClientIP(), "reset:email:"+normalizeEmail(req.Email)); err != nil {
		return err
	}
	if err := m.svc.requestReset(c, req.Email); err != nil {
		return err
	}
	httpx.OK(c, MessageResponse{Success: true, Message: MsgResetSent})
	return nil
}

func (m *Module) resetTokenInfo(c *gin.Context) error {
	info, err := m.svc.tokenInfo(c, c.Param("token"), store.PurposeReset)
	if err != nil {
		return err
	}
	httpx.OK(c, info)
	return nil
}

func (m *Module) accessTokenInfo(c *gin.Context) error {
	info, err := m.svc.tokenInfo(c, c.Query("token"), store.PurposeAccess)
	if err != nil {
		return err
	}
	httpx.OK(c, info)
	return nil
}

func (m *Module) setPassword(c *gin.Context) error {
	var req SetPasswordRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	if err := m.svc.resetPassword(c, req); err != nil {
		return err
	}
	m.deps.Cookies.Clear(c)
	httpx.OK(c, MessageResponse{Success: true, Message: MsgPasswordReset})
	return nil
}

func (m *Module) setFirstPassword(c *gin.Context) error {
	var req SetPasswordRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	u, token, err := m.svc.setFirstPassword(c, req, c.ClientIP(), c.Request.UserAgent())
	if err != nil {
		return err
	}
	m.startSession(c, token)
	httpx.OK(c, UserResponse{Success: true, Message: MsgAccountReady, User: u})
	return nil
}

func (m *Module) changePassword(c *gin.Context) error {
	var req ChangePasswordRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	if err := m.svc.changePassword(c, auth.Current(c), req); err != nil {
		return err
	}
	httpx.OK(c, MessageResponse{Success: true, Message: MsgPasswordChanged})
	return nil
}

func (m *Module) checkTutorial(c *gin.Context) error {
	res, err := m.svc.checkTutorial(c, auth.Current(c).UserID)
	if err != nil {
		return err
	}
	httpx.OK(c, res)
	return nil
}

// tourCall answers the dashboard's default confirm (B §8): the user asks for a call and a free tour
// of the dashboard.
func (m *Module) tourCall(c *gin.Context) error {
	if err := m.svc.requestTourCall(c, auth.Current(c).UserID); err != nil {
		return err
	}
	httpx.OK(c, MessageResponse{Success: true, Message: MsgTourCallRequested})
	return nil
}

func (m *Module) disableTour(c *gin.Context) error { return m.setTour(c, false) }
func (m *Module) enableTour(c *gin.Context) error  { return m.setTour(c, true) }

func (m *Module) setTour(c *gin.Context, on bool) error {
	res, err := m.svc.setTourFlags(c, auth.Current(c).UserID, &on, nil)
	if err != nil {
		return err
	}
	httpx.OK(c, res)
	return nil
}
