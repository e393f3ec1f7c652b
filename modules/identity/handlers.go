package identity

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"marquee/modules/identity/internal/store"
	"marquee/platform/apperr"
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
		server.GET("/users/loggedin", authz.Anonymous, m.loggedIn),
		server.GET("/users/currentUser", authz.Member, m.currentUser),
		server.GET("/companies/currentCompany", authz.Member, m.currentCompany),
		server.GET("/company-exists", authz.Anonymous, m.companyExists),
		server.POST("/signup", authz.Anonymous, m.signUp),
		server.POST("/signin", authz.Anonymous, m.signIn),
		server.GET("/users/logout", authz.Anonymous, httpx.SideEffectGET(m.logout)),
		server.POST("/users/reset-password", authz.Anonymous, m.resetPassword),
		server.GET("/users/token/:token", authz.Anonymous, m.resetTokenInfo),
		server.POST("/users/setPassword", authz.Anonymous, m.setPassword),
		server.GET("/api/users/get-password", authz.Anonymous, m.accessTokenInfo),
		server.POST("/users/set-first-password", authz.Anonymous, m.setFirstPassword),
		server.PUT("/users/password", authz.Member, m.changePassword),
		server.GET("/users/check-tutorial", authz.Member, httpx.SideEffectGET(m.checkTutorial)),
		server.GET("/users/disable-tour", authz.Member, httpx.SideEffectGET(m.disableTour)),
		server.GET("/users/enable-tour", authz.Member, httpx.SideEffectGET(m.enableTour)),
		server.POST("/users/tour-call", authz.Member, m.tourCall),

		// Profile and team members (B §2 "Settings and profile", B §5; docs/identity.md).
		server.GET("/api/users/:id", authz.Member, m.getUser),
		server.PUT("/api/users/:id", authz.Member, m.updateUser),
		server.GET("/api/companies/:id", authz.Member, m.getCompany),
		server.GET("/api/team-members/", authz.Member, m.teamMembers),
		server.POST("/api/team-members/", authz.User, m.inviteTeam),
		server.DELETE("/api/team-members/:id", authz.User, m.removeMember).Doc("Remove a team member (the company's owner; ends their sessions)", nil, MessageResponse{}),
		server.POST("/api/team-members/:id/resend", authz.User, m.resendInvite).Doc("Mail an invited team member a new link (the company's owner)", nil, MessageResponse{}),
		server.GET("/api/users", authz.Member, m.listUsers).Doc("The company's users (its owner), or the admins (an admin)", nil, []User{}),

		// The admin area (B §2 "Admin area", B §6).
		server.GET("/companies", authz.Admin, m.companies),
		server.PUT("/api/companies/:id", authz.Admin, m.updateCompany),
		server.GET("/api/admin/users/", authz.Admin, m.adminUsers),
		server.GET("/api/admin/companies/", authz.Admin, m.adminCompanies),
		server.PUT("/api/users/upgrade/:id", authz.Admin, m.upgradeUser),
		server.PUT("/api/users/:id/disable", authz.Admin, m.disableUser),
		server.GET("/api/admin/audit/", authz.Admin, m.auditLog),
		server.POST("/moderate-signin", authz.Admin, m.moderateSignIn),
		server.POST("/moderate-signout", authz.Member, m.moderateSignOut),

		// API keys (issue 18; apikeys.go): a company's users manage theirs, admins any company's.
		server.GET("/api/api-keys/", authz.User, m.listAPIKeys).Doc("List the company's live API keys", nil, []APIKey{}),
		server.POST("/api/api-keys/", authz.User, m.createAPIKey).Doc("Make an API key (the answer shows it once)", CreateAPIKeyRequest{}, CreatedAPIKey{}),
		server.DELETE("/api/api-keys/:id", authz.User, m.revokeAPIKey).Doc("Revoke one of the company's API keys", nil, httpx.Success{}),
		server.GET("/api/admin/api-keys/", authz.Admin, m.adminAPIKeys).Doc("Every company's live API keys (admin; ?company= filters)", nil, pagination.Page[APIKey]{}),
		server.DELETE("/api/admin/api-keys/:id", authz.Admin, m.revokeAPIKey).Doc("Revoke any company's API key (admin, audited)", nil, httpx.Success{}),
	}
}

func (m *Module) bind(c *gin.Context, v any) error { return httpx.BindJSON(c, v, m.deps.MaxJSONBytes) }

func (m *Module) loggedIn(c *gin.Context) error {
	auth.Passive(c) // the client's 15-minute check must not keep an idle session alive (B §4)
	p := auth.Current(c)
	res := LoggedInResponse{LoggedIn: p != nil}
	if p != nil {
		mod, err := m.accounts.moderator(c, p)
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
	u, err := m.accounts.FindUserByID(c, p.UserID)
	if err != nil {
		return err
	}
	mod, err := m.accounts.moderator(c, p)
	if err != nil {
		return err
	}
	httpx.OK(c, CurrentUser{User: *u, Moderator: mod})
	return nil
}

func (m *Module) currentCompany(c *gin.Context) error {
	co, err := m.accounts.FindCompanyByID(c, auth.Current(c).CompanyID)
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
	res, err := m.accounts.companyExists(c, c.Query("name"))
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
	u, token, err := m.accounts.signUp(c, req, c.ClientIP(), c.Request.UserAgent())
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
	u, token, err := m.accounts.signIn(c, req, c.ClientIP(), c.Request.UserAgent())
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
		httpx.OK(c, res)
		return nil
	}
	if token := auth.Token(c); token != "" {
		if err := m.deps.Sessions.Revoke(c, token); err != nil {
			return apperr.Internal(err)
		}
	}
	m.endKeptAdminSession(c)
	m.deps.Cookies.Clear(c)
	httpx.OK(c, MessageResponse{Success: true, Message: MsgLoggedOut})
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
	if err := m.accounts.requestReset(c, req.Email); err != nil {
		return err
	}
	httpx.OK(c, MessageResponse{Success: true, Message: MsgResetSent})
	return nil
}

func (m *Module) resetTokenInfo(c *gin.Context) error {
	info, err := m.accounts.tokenInfo(c, c.Param("token"), store.PurposeReset)
	if err != nil {
		return err
	}
	httpx.OK(c, info)
	return nil
}

func (m *Module) accessTokenInfo(c *gin.Context) error {
	info, err := m.accounts.tokenInfo(c, c.Query("token"), store.PurposeAccess)
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
	if err := m.accounts.resetPassword(c, req); err != nil {
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
	u, token, err := m.accounts.setFirstPassword(c, req, c.ClientIP(), c.Request.UserAgent())
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
	if err := m.accounts.changePassword(c, auth.Current(c), req); err != nil {
		return err
	}
	httpx.OK(c, MessageResponse{Success: true, Message: MsgPasswordChanged})
	return nil
}

func (m *Module) checkTutorial(c *gin.Context) error {
	res, err := m.accounts.checkTutorial(c, auth.Current(c).UserID)
	if err != nil {
		return err
	}
	httpx.OK(c, res)
	return nil
}

// tourCall answers the dashboard's default confirm (B §8): the user asks for a call and a free tour
// of the dashboard.
func (m *Module) tourCall(c *gin.Context) error {
	if err := m.accounts.requestTourCall(c, auth.Current(c).UserID); err != nil {
		return err
	}
	httpx.OK(c, MessageResponse{Success: true, Message: MsgTourCallRequested})
	return nil
}

func (m *Module) disableTour(c *gin.Context) error { return m.setTour(c, false) }
func (m *Module) enableTour(c *gin.Context) error  { return m.setTour(c, true) }

func (m *Module) setTour(c *gin.Context, on bool) error {
	res, err := m.accounts.setTourFlags(c, auth.Current(c).UserID, &on, nil)
	if err != nil {
		return err
	}
	httpx.OK(c, res)
	return nil
}
