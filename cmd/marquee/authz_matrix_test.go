package main

import (
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"marquee/modules/identity"
	"marquee/modules/screens"
	"marquee/platform/authz"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// expectedAccess is the authorization matrix (B §6), written out by hand and independent of the
// policy it checks: for every route, the narrowest role that may call it. A new route without a row
// here fails the test.
var expectedAccess = map[string]string{
	"GET /healthz": authz.Anonymous,
	"GET /readyz":  authz.Anonymous,

	"POST /api/analytics/pageviews": authz.Anonymous,
	"GET /api/openapi.json":         authz.Anonymous,

	// API keys (docs/api.md)
	"GET /api/api-keys/":             authz.User,
	"POST /api/api-keys/":            authz.User,
	"DELETE /api/api-keys/:id":       authz.User,
	"GET /api/admin/api-keys/":       authz.Admin,
	"DELETE /api/admin/api-keys/:id": authz.Admin,
	// The public API: API keys only, which act as regular users (so "user" at most, never admin).
	"GET /api/v1/markets":                authz.User,
	"POST /api/v1/available-spots":       authz.User,
	"POST /api/v1/quotes":                authz.User,
	"POST /api/v1/campaigns":             authz.User,
	"POST /api/v1/campaigns/:id/resolve": authz.User,
	"GET /api/v1/campaigns":              authz.User,
	"GET /api/v1/campaigns/:id":          authz.User,
	"GET /api/v1/campaigns/:id/weeks":    authz.User,
	"PUT /api/v1/campaigns/:id/pause":    authz.User,
	"PUT /api/v1/campaigns/:id/resume":   authz.User,
	"PUT /api/v1/campaigns/:id/stop":     authz.User,
	"POST /api/v1/creatives/uploads":     authz.User,
	"GET /api/v1/creatives":              authz.User,
	"POST /api/v1/creatives":             authz.User,
	"POST /api/v1/creatives/preflight":   authz.User,
	"GET /api/v1/creatives/:id/preview":  authz.User,
	"GET /api/v1/reports":                authz.User,
	"GET /api/v1/reports/:id/file":       authz.User,
	"GET /api/v1/reports/:id/csv":        authz.User,

	"GET /users/loggedin":            authz.Anonymous,
	"GET /users/currentUser":         authz.Member,
	"GET /companies/currentCompany":  authz.Member,
	"GET /company-exists":            authz.Anonymous,
	"POST /signup":                   authz.Anonymous,
	"POST /signin":                   authz.Anonymous,
	"GET /users/logout":              authz.Anonymous,
	"POST /users/reset-password":     authz.Anonymous,
	"GET /users/token/:token":        authz.Anonymous,
	"POST /users/setPassword":        authz.Anonymous,
	"GET /api/users/get-password":    authz.Anonymous,
	"POST /users/set-first-password": authz.Anonymous,
	"PUT /users/password":            authz.Member,
	"GET /users/check-tutorial":      authz.Member,
	"GET /users/disable-tour":        authz.Member,
	"POST /users/tour-call":          authz.Member,
	"GET /users/enable-tour":         authz.Member,
	// identity: profile, team members, the admin area (docs/identity.md)
	"GET /api/users/:id":                authz.Member,
	"PUT /api/users/:id":                authz.Member,
	"GET /api/companies/:id":            authz.Member,
	"GET /api/team-members/":            authz.Member,
	"POST /api/team-members/":           authz.User,
	"DELETE /api/team-members/:id":      authz.User,
	"POST /api/team-members/:id/resend": authz.User,
	"GET /api/users":                    authz.Member,
	"GET /companies":                    authz.Admin,
	"PUT /api/companies/:id":            authz.Admin,
	"GET /api/admin/users/":             authz.Admin,
	"GET /api/admin/companies/":         authz.Admin,
	"PUT /api/users/upgrade/:id":        authz.Admin,
	"PUT /api/users/:id/disable":        authz.Admin,
	"GET /api/admin/audit/":             authz.Admin,
	"POST /moderate-signin":             authz.Admin,
	"POST /moderate-signout":            authz.Member,

	"POST /upload_creative":          authz.Member,
	"POST /upload_creative_library":  authz.Member,
	"POST /upload_temp":              authz.Member,
	"POST /upload_file":              authz.Admin,
	"POST /upload_creative_image":    authz.Member,
	"POST /upload_report":            authz.Admin,
	"GET /creative/image":            authz.Member,
	"GET /proof/image":               authz.Member,
	"GET /api/contents/":             authz.Member,
	"POST /api/contents/":            authz.Admin,
	"PUT /api/contents/:id":          authz.Admin,
	"DELETE /api/contents/:id":       authz.Admin,
	"PUT /api/contents/:id/relevant": authz.Admin,
	"GET /api/creatives/":            authz.Member,
	"GET /api/creatives/size":        authz.Member,
	"GET /api/creatives/default":     authz.Member,
	"PUT /api/creatives/:id/default": authz.Member,
	"POST /api/creatives/":           authz.Member,
	"DELETE /api/creatives/:id":      authz.Member,
	"POST /api/creatives/preflight":  authz.Member,
	"GET /api/creatives/:id/preview": authz.Member,
	"POST /users/creative":           authz.Member,
	// billing (docs/api.md "Billing")
	"GET /api/billing/config":               authz.Member,
	"POST /api/sandbox/tokens":              authz.Member,
	"GET /api/cards/me":                     authz.Member,
	"GET /api/cards/:id":                    authz.Member,
	"POST /api/cards":                       authz.User,
	"PUT /api/cards/:id":                    authz.User,
	"DELETE /api/cards/me":                  authz.User,
	"PUT /api/transactions/:id":             authz.Member,
	"GET /api/admin/transactions":           authz.Admin,
	"POST /api/admin/promo/":                authz.SuperAdmin,
	"GET /api/admin/promo/":                 authz.SuperAdmin,
	"DELETE /api/admin/promo/:id":           authz.SuperAdmin,
	"PUT /api/admin/promo/:id":              authz.SuperAdmin,
	"GET /api/admin/promo/:id/companies":    authz.SuperAdmin,
	"POST /api/promo/":                      authz.User,
	"GET /companies/findpromocode/:code":    authz.Member,
	"DELETE /api/admin/companies/:id/promo": authz.Admin,
	"GET /api/markets/":                     authz.Anonymous,
	"GET /api/od/locations/":                authz.Anonymous,
	"GET /api/od/snapshots/:name":           authz.Anonymous,
	"GET /api/od/photos/:name":              authz.Anonymous,
	"GET /api/admin/faces/:id":              authz.Admin,
	"PUT /api/admin/faces/:id/geometry":     authz.Admin,
	"PUT /api/admin/faces/:id/hours":        authz.Admin,
	"POST /api/admin/faces/:id/photo":       authz.Admin,
	"POST /api/available-spots/":            authz.Anonymous,
	"GET /api/places/predictions":           authz.Anonymous,
	"GET /api/places/details":               authz.Anonymous,
	"GET /api/map/config":                   authz.Anonymous,
	"GET /api/calendar/locations":           authz.User,
	"PUT /api/calendar/week":                authz.User,
	"DELETE /api/calendar/week":             authz.User,
	"DELETE /api/calendar/campaigns/:ref":   authz.User,
	// campaigns, pacing and renewal (docs/delivery-assurance.md)
	"GET /api/campaigns/pacing":     authz.Member,
	"GET /api/campaigns/:id/pacing": authz.Member,
	"GET /api/campaigns/:id/renew":  authz.Member,
	// reports, weekly digest (docs/delivery-assurance.md)
	"GET /api/reports/digest": authz.Member,
	"PUT /api/reports/digest": authz.Member,
	// campaigns, management side (docs/campaign-lifecycle.md)
	"GET /api/campaigns":                         authz.Member,
	"GET /api/campaigns/count":                   authz.Member,
	"GET /api/campaigns/:id":                     authz.Member,
	"PUT /api/campaigns/:id":                     authz.Member,
	"GET /api/campaigns/:id/weeks":               authz.Member,
	"PUT /api/campaigns/:id/pause":               authz.Member,
	"PUT /api/campaigns/:id/resume":              authz.Member,
	"PUT /api/campaigns/:id/stop":                authz.Member,
	"DELETE /api/campaigns/:id":                  authz.Member,
	"PUT /api/campaigns/:id/delete-ac":           authz.Member,
	"PUT /api/campaigns/:id/creative":            authz.Member,
	"PUT /api/campaigns/week/:id/creative":       authz.Member,
	"GET /api/admin/campaigns/":                  authz.Admin,
	"PUT /api/admin/campaigns/weeks/:id":         authz.Admin,
	"POST /api/campaigns/update/mailer/":         authz.Admin,
	"PUT /api/admin/campaigns/week/:id/delivery": authz.Admin,
	"POST /api/admin/campaigns/week/:id/proofs":  authz.Admin,
	"DELETE /api/admin/campaigns/proofs/:id":     authz.Admin,
	"GET /api/admin/make-goods":                  authz.Admin,
	"PUT /api/admin/make-goods/:id/waive":        authz.Admin,
	// signed proof of play (docs/delivery-assurance.md): the key and /verify need no sign-in
	"GET /.well-known/marquee-proof-key":      authz.Anonymous,
	"GET /.well-known/marquee-proof-key.json": authz.Anonymous,
	"GET /api/verify/:code":                   authz.Anonymous,
	"GET /api/verify/:code/proofs/:proof":     authz.Anonymous,
	"GET /api/verify/:code/chain":             authz.Anonymous,
	"GET /api/campaigns/:id/proof-codes":      authz.Member,
	// partners (docs/partners.md)
	"POST /users/ambassador/invite":          authz.Ambassador,
	"PUT /users/ambassador":                  authz.Ambassador,
	"PUT /api/special/ambassador/invite/:id": authz.Ambassador,
	"GET /api/special/":                      authz.SuperAdmin,
	"GET /api/special/flags":                 authz.SuperAdmin,
	"GET /api/special/hub":                   authz.User,
	"PUT /api/special/hub/:userId":           authz.User,
	"GET /api/special/stats":                 authz.User,
	"GET /api/special/invite":                authz.Member,
	"GET /api/special/bonus":                 authz.User,
	"GET /api/special/:companyId/bonus":      authz.Member,
	"GET /api/special/codes":                 authz.User,
	"GET /api/special/campaigns":             authz.User,
	"GET /api/special/certified/exam":        authz.Certified,
	"PUT /api/special/certified/exam":        authz.Certified,
	// campaigns, creation side (docs/campaigns.md)
	"POST /api/campaigns":             authz.User,
	"POST /api/campaigns/quote":       authz.User,
	"POST /api/campaigns/:id/resolve": authz.User,
	"GET /api/campaigns/defaults":     authz.Member,

	// reports (docs/reports.md)
	"GET /api/reports":                                        authz.Member,
	"GET /api/webhooks":                                       authz.User,
	"POST /api/webhooks":                                      authz.User,
	"PUT /api/webhooks/:id":                                   authz.User,
	"DELETE /api/webhooks/:id":                                authz.User,
	"GET /api/webhooks/:id/secret":                            authz.User,
	"GET /api/webhooks/:id/deliveries":                        authz.User,
	"POST /api/webhooks/:id/deliveries/:deliveryId/redeliver": authz.User,
	"POST /api/webhooks/:id/test":                             authz.User,
	"POST /api/reports":                                       authz.Member,
	"POST /api/campaigns/reports":                             authz.Member,
	"GET /api/reports/campaigns":                              authz.Member,
	"GET /api/reports/campaigns/:id/weeks":                    authz.Member,
	"PUT /api/reports/schedules/:id":                          authz.Member,
	"GET /api/reports/data/:id":                               authz.Member,
	"GET /api/reports/:id":                                    authz.Member,
	"PUT /api/reports/:id":                                    authz.Member,
	"DELETE /api/reports/:id":                                 authz.Member,
	"GET /api/reports/:id/file":                               authz.Member,
	"GET /api/reports/:id/csv":                                authz.Member,
	"POST /api/reports/performance-report/mailer/":            authz.Admin,
	"GET /api/admin/reports/":                                 authz.Admin,
	"GET /api/admin/reports/companies":                        authz.Admin,
	"GET /api/ac/reports/":                                    authz.Admin,
	"DELETE /api/ac/reports/:id":                              authz.Admin,
	// screens (docs/screens.md): the admin calls, and the device API, which no user subject may
	// call: a session or an API key is not a device credential.
	"POST /api/admin/screens/pairing-codes": authz.Admin,
	"GET /api/admin/screens":                authz.Admin,
	"POST /api/admin/screens/:id/revoke":    authz.Admin,
	"POST /api/admin/screens/imports":       authz.Admin,
	"GET /api/admin/screens/imports":        authz.Admin,
	"GET /api/admin/screens/mappings":       authz.Admin,
	"PUT /api/admin/screens/mappings":       authz.Admin,
	"POST /api/device/pair":                 server.DeviceRole,
	"GET /api/device/schedule":              server.DeviceRole,
	"POST /api/device/plays":                server.DeviceRole,
	"POST /api/device/heartbeat":            server.DeviceRole,
	"GET /api/device/files/:token":          server.DeviceRole,
}

// admits says which subjects each role admits (the role hierarchy of B §6, restated).
var admits = map[string][]string{
	authz.Anonymous:   authz.Subjects,
	authz.Member:      {"user", "ambassador", "certified", "admin", "super_admin"},
	authz.User:        {"user", "ambassador", "certified"},
	authz.Ambassador:  {"ambassador"},
	authz.Certified:   {"certified"},
	authz.Admin:       {"admin", "super_admin"},
	authz.SuperAdmin:  {"super_admin"},
	server.DeviceRole: {},
}

var paramRE = regexp.MustCompile(`:[A-Za-z_]+|\*[A-Za-z_]+`)

func TestAuthorizationMatrix(t *testing.T) {
	s := testkit.Start(t, testkit.Dialects()[0], buildModules)
	svc := identityService(s.Modules)

	// One user per subject.
	userOf := map[string]string{}
	for subject, req := range map[string]identity.CreateUserRequest{
		"user":        {Email: "user@matrix.test", Role: identity.RoleUser, CompanyName: "Matrix Standard"},
		"ambassador":  {Email: "amb@matrix.test", Role: identity.RoleUser, CompanyName: "Matrix Ambassador", CompanyType: identity.CompanyAmbassador},
		"certified":   {Email: "cert@matrix.test", Role: identity.RoleUser, CompanyName: "Matrix Certified", CompanyType: identity.CompanyCertified},
		"admin":       {Email: "admin@matrix.test", Role: identity.RoleAdmin},
		"super_admin": {Email: "super@matrix.test", Role: identity.RoleSuperAdmin},
	} {
		req.Password = "matrix password 1"
		u, _, err := svc.CreateUser(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		userOf[subject] = u.ID
	}

	// The public API is called with keys: one read-write key per regular subject (admins cannot
	// make keys, so they call it without one).
	keyOf := map[string]string{}
	for _, subject := range []string{"user", "ambassador", "certified"} {
		c := s.Client(t)
		c.SessionAs(s, userOf[subject])
		var made identity.CreatedAPIKey
		c.Post("/api/api-keys/", map[string]string{"name": "matrix", "scope": "read-write"}).Expect(t, http.StatusCreated).JSON(t, &made)
		keyOf[subject] = made.Secret
	}

	registered := map[string]bool{}
	for _, r := range s.Routes {
		registered[r.Method+" "+r.Path] = true
	}
	var routes []string
	for key := range registered {
		if _, ok := expectedAccess[key]; !ok {
			t.Errorf("route %s has no row in the authorization matrix", key)
			continue
		}
		routes = append(routes, key)
	}
	for key := range expectedAccess {
		if !registered[key] {
			t.Errorf("the matrix lists %s, which is not registered", key)
		}
	}
	sort.Strings(routes)

	for _, key := range routes {
		method, path, _ := cut(key)
		url := paramRE.ReplaceAllString(path, "0190a000-0000-7000-8000-000000000000")
		allowed := map[string]bool{}
		for _, s := range admits[expectedAccess[key]] {
			allowed[s] = true
		}
		for _, subject := range authz.Subjects {
			t.Run(key+" as "+subject, func(t *testing.T) {
				if got := s.Enforcer.Allowed(subject, method, path); got != allowed[subject] {
					t.Fatalf("policy says %v, matrix says %v", got, allowed[subject])
				}
				c := s.Client(t)
				switch {
				case strings.HasPrefix(path, server.V1Prefix+"/"):
					c.Bearer = keyOf[subject]
				case subject != "anonymous":
					c.SessionAs(s, userOf[subject])
				}
				var body any
				if method != http.MethodGet {
					body = "{}"
				}
				res := c.Do(method, url, body)
				refused := false
				if res.Status == http.StatusUnauthorized || res.Status == http.StatusForbidden {
					var e struct{ Message string }
					res.JSON(t, &e)
					refused = e.Message == authz.MsgSessionExpired || e.Message == authz.MsgForbidden || e.Message == server.MsgInvalidKey ||
						e.Message == screens.MsgDeviceAuth || e.Message == screens.MsgBadPublicKey
				}
				if res.Status == http.StatusNotFound && strings.HasPrefix(path, server.DevicePrefix+"files/") {
					refused = true // a download token is the credential: a bad one is unknown (404)
				}
				if refused == allowed[subject] {
					t.Fatalf("status %d %s; want allowed=%v", res.Status, res.Body, allowed[subject])
				}
			})
		}
	}
}

func cut(key string) (method, path string, ok bool) {
	for i := 0; i < len(key); i++ {
		if key[i] == ' ' {
			return key[:i], key[i+1:], true
		}
	}
	return key, "", false
}
