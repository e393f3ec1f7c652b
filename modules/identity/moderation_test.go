package identity_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"marquee/modules/identity"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/testkit"
)

// Moderation, the audit log's names, team removal and resends, and invitations from a nameless
// inviter, through HTTP on both databases.

// moderate signs client (an admin's) in as the user with email.
func moderate(t *testing.T, c *testkit.Client, email string) {
	t.Helper()
	c.Post("/moderate-signin", identity.ModerateSignInRequest{Email: email}).Expect(t, 200)
}

// A moderated session makes no credential: no API key, no password change. Each refusal is a 403
// with the message, and every write it makes is audited with the moderator's id.
func TestModeratedSessionMakesNoCredentials(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		admin := w.as(t, w.admin)
		moderate(t, admin, "owner@sunrise.test")
		for _, r := range []*testkit.Response{
			admin.Post("/api/api-keys/", identity.CreateAPIKeyRequest{Name: "via admin", Scope: auth.ScopeReadWrite}),
			admin.Put("/users/password", identity.ChangePasswordRequest{CurrentPassword: goodPassword, Password: "an admin's choice 123"}),
		} {
			if got := r.Expect(t, http.StatusForbidden).Map(t); got["message"] != auth.MsgModeratedCredentials {
				t.Fatalf("refusal = %v", got)
			}
		}
		if n := w.countRows(t, "identity_api_keys", "1 = 1"); n != 0 {
			t.Fatalf("%d API keys made in a moderated session", n)
		}
		// The user's own password still signs them in.
		w.as(t, w.owner)

		// Every write, refused or not, is in the log under the moderator.
		s := func(v string) *string { return &v }
		admin.Put("/api/users/"+w.owner.ID, identity.UpdateUserRequest{Phone: s("+1 415 555 0199")}).Expect(t, 200)
		page := w.auditEntries(t, "action="+audit.ActionModeratedWrite+"&sort=created_at")
		if page.Total != 3 {
			t.Fatalf("moderated writes = %d: %+v", page.Total, page.Items)
		}
		for i, want := range []string{"POST /api/api-keys/", "PUT /users/password", "PUT /api/users/" + w.owner.ID} {
			e := page.Items[i]
			if e.ObjectName != want || e.ActorID != w.owner.ID || e.ModeratorID != w.admin.ID || e.ModeratorName != "First Last" {
				t.Fatalf("entry %d = %+v", i, e)
			}
		}
		if !strings.Contains(string(page.Items[0].After), `"status":403`) || !strings.Contains(string(page.Items[2].After), `"status":200`) {
			t.Fatalf("statuses = %s, %s", page.Items[0].After, page.Items[2].After)
		}
		// The owner's own writes are not moderated writes.
		s2 := w.as(t, w.owner)
		s2.Put("/api/users/"+w.owner.ID, identity.UpdateUserRequest{Phone: s("+1 415 555 0198")}).Expect(t, 200)
		if n := w.auditEntries(t, "action="+audit.ActionModeratedWrite).Total; n != 3 {
			t.Fatalf("moderated writes after the user's own = %d", n)
		}
	})
}

// An admin signs in as no admin and no super admin, and a moderated session never carries admin
// rights, even one made some other way.
func TestNoModeratingAdmins(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		other, _, err := w.svc.CreateUser(t.Context(), identity.CreateUserRequest{Email: "admin2@marquee.test", Password: goodPassword,
			Role: identity.RoleAdmin, CompanyName: "Marquee", FirstName: "Second", LastName: "Admin"})
		if err != nil {
			t.Fatal(err)
		}
		admin, super := w.as(t, w.admin), w.as(t, w.super)
		for _, c := range []struct {
			who   *testkit.Client
			email string
		}{{admin, other.Local.Email}, {admin, "super@marquee.test"}, {super, "admin@marquee.test"}} {
			got := c.who.Post("/moderate-signin", identity.ModerateSignInRequest{Email: c.email}).Expect(t, http.StatusForbidden).Map(t)
			if got["message"] != identity.MsgModerateAdmin {
				t.Fatalf("%s: %v", c.email, got)
			}
		}
		if n := w.countRows(t, "auth_sessions", "moderator_id <> ''"); n != 0 {
			t.Fatalf("%d moderated sessions", n)
		}
		// A moderated session of an admin (as an older release could make) has no admin rights.
		token, err := w.s.Kernel.Sessions.CreateModerated(t.Context(), other.ID, w.super.ID, "127.0.0.1", "test")
		if err != nil {
			t.Fatal(err)
		}
		c := w.s.Client(t)
		c.Header = http.Header{"Cookie": {auth.CookieName + "=" + token}}
		c.Get("/users/currentUser").Expect(t, 200)
		c.Get("/api/admin/users/").Expect(t, http.StatusForbidden)
		c.Put("/api/users/"+w.owner.ID+"/disable", identity.DisableUserRequest{}).Expect(t, http.StatusForbidden)
	})
}

// Disabling a company ends its users' sessions, refuses their sign-in with a message, and stops
// its API keys; enabling it restores access but not the sessions.
func TestDisablingACompany(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		owner, mate, other := w.as(t, w.owner), w.as(t, w.mate), w.as(t, w.other)
		var key identity.CreatedAPIKey
		owner.Post("/api/api-keys/", identity.CreateAPIKeyRequest{Name: "ci", Scope: auth.ScopeRead}).Expect(t, 201).JSON(t, &key)
		resolver := testkit.ModuleOf[*identity.Module](t, w.s).Principals().(auth.KeyResolver)
		if p, err := resolver.ResolveAPIKey(t.Context(), auth.HashAPIKey(key.Secret)); err != nil || p == nil {
			t.Fatalf("key before = %v, %v", p, err)
		}
		// An admin acting as the owner is signed out too.
		admin := w.as(t, w.admin)
		moderate(t, admin, "owner@sunrise.test")

		disabled, active := identity.StatusDisabled, identity.StatusActive
		sup := w.as(t, w.super)
		sup.Put("/api/companies/"+w.owner.Company.ID, identity.UpdateCompanyRequest{Status: &disabled}).Expect(t, 200)
		if n := w.countRows(t, "auth_sessions", "user_id IN (?, ?)", w.owner.ID, w.mate.ID); n != 0 {
			t.Fatalf("%d sessions left", n)
		}
		for _, c := range []*testkit.Client{owner, mate, admin} {
			c.Get("/users/currentUser").Expect(t, http.StatusUnauthorized)
		}
		other.Get("/users/currentUser").Expect(t, 200) // another company is untouched
		got := w.s.Client(t).Post("/signin", identity.SignInRequest{Email: "owner@sunrise.test", Password: goodPassword}).Expect(t, http.StatusForbidden).Map(t)
		if got["message"] != identity.MsgCompanyDisabled {
			t.Fatalf("sign-in = %v", got)
		}
		if p, err := resolver.ResolveAPIKey(t.Context(), auth.HashAPIKey(key.Secret)); err != nil || p != nil {
			t.Fatalf("key while disabled = %v, %v", p, err)
		}
		// A session made some other way (a sign-in racing the disable) has no principal either.
		late := w.s.Client(t)
		late.SessionAs(w.s, w.mate.ID)
		late.Get("/users/currentUser").Expect(t, http.StatusUnauthorized)
		w.as(t, w.admin).Post("/moderate-signin", identity.ModerateSignInRequest{Email: "mate@sunrise.test"}).Expect(t, 400)

		sup.Put("/api/companies/"+w.owner.Company.ID, identity.UpdateCompanyRequest{Status: &active}).Expect(t, 200)
		owner.Get("/users/currentUser").Expect(t, http.StatusUnauthorized) // the sessions do not come back
		w.as(t, w.owner).Get("/users/currentUser").Expect(t, 200)
		if p, err := resolver.ResolveAPIKey(t.Context(), auth.HashAPIKey(key.Secret)); err != nil || p == nil {
			t.Fatalf("key after enabling = %v, %v", p, err)
		}
	})
}

// A plain admin cannot change a super admin's profile, certification, company or company type;
// a super admin can.
func TestPlainAdminLeavesSuperAdminsAlone(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		admin := w.as(t, w.admin)
		s := func(v string) *string { return &v }
		on := true
		for _, r := range []*testkit.Response{
			admin.Put("/api/users/"+w.super.ID, identity.UpdateUserRequest{FirstName: s("Mallory")}),
			admin.Put("/api/users/"+w.super.ID, identity.UpdateUserRequest{Certified: &on}),
			admin.Put("/api/companies/"+w.super.Company.ID, identity.UpdateCompanyRequest{Name: s("Taken Over")}),
			admin.Put("/api/users/upgrade/"+w.super.ID, identity.UpgradeUserRequest{Type: identity.CompanyAmbassador}),
			admin.Put("/api/users/"+w.super.ID+"/disable", identity.DisableUserRequest{}),
		} {
			if got := r.Expect(t, http.StatusForbidden).Map(t); got["message"] != identity.MsgSuperAdminOnly {
				t.Fatalf("refusal = %v", got)
			}
		}
		var me identity.User
		w.as(t, w.super).Get("/api/users/"+w.super.ID).Expect(t, 200).JSON(t, &me)
		if me.Local.FirstName != "First" || me.Certified || me.Company.Name != "Marquee" || me.Company.Type != identity.CompanyStandard {
			t.Fatalf("super admin after refusals = %+v", me)
		}
		// The super admin changes their own; an admin still changes other users.
		w.as(t, w.super).Put("/api/users/"+w.super.ID, identity.UpdateUserRequest{FirstName: s("Root")}).Expect(t, 200)
		admin.Put("/api/users/"+w.owner.ID, identity.UpdateUserRequest{Certified: &on}).Expect(t, 200)
	})
}

// Invitations are limited per company (every invitee counts) and per recipient, resends included.
func TestInvitationLimits(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		owner := w.as(t, w.owner)
		batch := func(n int) identity.InviteRequest {
			req := identity.InviteRequest{}
			for i := 0; i < identity.MaxInvitees; i++ {
				req.NewMember = append(req.NewMember, identity.Invitee{Name: "Guest Number", Email: fmt.Sprintf("g%d-%d@sunrise.test", n, i)})
			}
			return req
		}
		statuses := []int{}
		for n := 0; n < 5; n++ {
			statuses = append(statuses, owner.Post("/api/team-members/", batch(n)).Status)
		}
		if fmt.Sprint(statuses) != "[201 201 429 429 429]" {
			t.Fatalf("five batches of 20 = %v", statuses)
		}
		if n := w.countRows(t, "identity_users", "company_id = ? AND status = ?", w.owner.Company.ID, identity.StatusInvited); n != 40 {
			t.Fatalf("%d invited", n)
		}
		// Per recipient: another company invites one address; it is mailed at most 3 times a day.
		w.s.DeliverMail(t)
		other := w.as(t, w.other)
		var res identity.InviteResponse
		other.Post("/api/team-members/", identity.InviteRequest{NewMember: []identity.Invitee{{Name: "Pat Target", Email: "pat@moonset.test"}}}).Expect(t, 201).JSON(t, &res)
		id := res.Users[0].ID
		statuses = statuses[:0]
		for i := 0; i < 5; i++ {
			statuses = append(statuses, other.Post("/api/team-members/"+id+"/resend", nil).Status)
		}
		if fmt.Sprint(statuses) != "[200 200 429 429 429]" {
			t.Fatalf("resends = %v", statuses)
		}
		mailed := 0
		for _, m := range w.s.DeliverMail(t) {
			if strings.Contains(m, "pat@moonset.test") {
				mailed++
			}
		}
		if mailed != identity.InviteRecipientLimit {
			t.Fatalf("pat was mailed %d times", mailed)
		}
		got := other.Post("/api/team-members/"+id+"/resend", nil).Expect(t, http.StatusTooManyRequests).Map(t)
		if got["message"] != identity.MsgTooManyInvites {
			t.Fatalf("limit = %v", got)
		}
	})
}

// The owner removes team members (an invitation is deleted, an account disabled and signed out)
// and resends invitations; nobody else can, and another company's users are not found.
func TestTeamRemoveAndResend(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		owner, mate := w.as(t, w.owner), w.as(t, w.mate)
		var res identity.InviteResponse
		owner.Post("/api/team-members/", identity.InviteRequest{NewMember: []identity.Invitee{{Name: "New Hire", Email: "hire@sunrise.test"}}}).Expect(t, 201).JSON(t, &res)
		hire := res.Users[0].ID
		first := accessRE.FindStringSubmatch(strings.ReplaceAll(strings.Join(w.s.DeliverMail(t), ""), "=\r\n", ""))[1]

		// Only the owner, and only their company's members.
		mate.Delete("/api/team-members/"+hire).Expect(t, http.StatusForbidden)
		mate.Post("/api/team-members/"+hire+"/resend", nil).Expect(t, http.StatusForbidden)
		w.as(t, w.other).Delete("/api/team-members/"+w.mate.ID).Expect(t, http.StatusNotFound) // Moonset's owner, not Sunrise's
		owner.Delete("/api/team-members/"+w.other.ID).Expect(t, http.StatusNotFound)
		owner.Delete("/api/team-members/"+w.owner.ID).Expect(t, http.StatusBadRequest)
		owner.Post("/api/team-members/"+w.mate.ID+"/resend", nil).Expect(t, http.StatusConflict)

		// Resend: a new link, the old one dead.
		var msg identity.MessageResponse
		owner.Post("/api/team-members/"+hire+"/resend", nil).Expect(t, 200).JSON(t, &msg)
		if msg.Message != identity.MsgInviteResent {
			t.Fatalf("resend = %+v", msg)
		}
		mails := w.s.DeliverMail(t)
		second := accessRE.FindStringSubmatch(strings.ReplaceAll(mails[len(mails)-1], "=\r\n", ""))[1]
		w.s.Client(t).Get("/api/users/get-password?token="+first).Expect(t, 400)
		w.s.Client(t).Get("/api/users/get-password?token="+second).Expect(t, 200)

		// Remove an invitation: the user is gone, the link dead.
		owner.Delete("/api/team-members/"+hire).Expect(t, 200).JSON(t, &msg)
		if msg.Message != identity.MsgMemberRemoved || w.countRows(t, "identity_users", "id = ?", hire) != 0 {
			t.Fatalf("remove invited = %+v", msg)
		}
		w.s.Client(t).Get("/api/users/get-password?token="+second).Expect(t, 400)

		// Remove an account: disabled, signed out, refused at sign-in.
		owner.Delete("/api/team-members/"+w.mate.ID).Expect(t, 200)
		mate.Get("/users/currentUser").Expect(t, http.StatusUnauthorized)
		w.s.Client(t).Post("/signin", identity.SignInRequest{Email: "mate@sunrise.test", Password: goodPassword}).Expect(t, http.StatusForbidden)
		var team []identity.User
		owner.Get("/api/team-members/").Expect(t, 200).JSON(t, &team)
		if len(team) != 2 || team[1].Local.Status != identity.StatusDisabled {
			t.Fatalf("team = %+v", team)
		}
	})
}

// GET /api/users (B §7): the owner gets the company's users, an admin the admins, another member
// a 403.
func TestListUsers(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		var users []identity.User
		w.as(t, w.owner).Get("/api/users").Expect(t, 200).JSON(t, &users)
		if len(users) != 2 || users[0].ID != w.owner.ID || users[1].ID != w.mate.ID {
			t.Fatalf("owner's users = %+v", users)
		}
		w.as(t, w.mate).Get("/api/users").Expect(t, http.StatusForbidden)
		w.as(t, w.admin).Get("/api/users").Expect(t, 200).JSON(t, &users)
		if len(users) != 2 || users[0].Local.Email != "admin@marquee.test" || users[1].Local.Email != "super@marquee.test" {
			t.Fatalf("admins = %+v", users)
		}
		// An admin acting as the owner sees the owner's company, not the admins.
		admin := w.as(t, w.admin)
		moderate(t, admin, "owner@sunrise.test")
		admin.Get("/api/users").Expect(t, 200).JSON(t, &users)
		if len(users) != 2 || users[0].ID != w.owner.ID {
			t.Fatalf("moderated = %+v", users)
		}
		w.s.Client(t).Get("/api/users").Expect(t, http.StatusUnauthorized)
	})
}

// The admin user grid's company filter.
func TestAdminUsersCompanyFilter(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		admin := w.as(t, w.admin)
		for _, q := range []string{"", "&q=mate", "&status=active"} {
			var page struct {
				Items []identity.User `json:"items"`
				Total int64           `json:"total"`
			}
			admin.Get("/api/admin/users/?company="+w.owner.Company.ID+q).Expect(t, 200).JSON(t, &page)
			want := 2
			if q == "&q=mate" {
				want = 1
			}
			if int(page.Total) != want || len(page.Items) != want {
				t.Fatalf("%q: %+v", q, page)
			}
			for _, u := range page.Items {
				if u.Company.ID != w.owner.Company.ID {
					t.Fatalf("%q: %+v", q, u)
				}
			}
		}
		var page struct {
			Total int64 `json:"total"`
		}
		admin.Get("/api/admin/users/?company=nonsense").Expect(t, 200).JSON(t, &page)
		if page.Total != 0 {
			t.Fatalf("unknown company = %d", page.Total)
		}
	})
}

// A self-registered inviter has no name: the invitation is worded without one.
func TestInvitationWithoutTheInvitersName(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := start(t, dialect)
		c := s.Client(t)
		signUp(t, c, "Northwind Outdoor", "founder@northwind.test").Expect(t, 201)
		c.Post("/api/team-members/", identity.InviteRequest{NewMember: []identity.Invitee{{Name: "Sam Field", Email: "sam@northwind.test"}}}).Expect(t, 201)
		var invite string
		for _, m := range s.DeliverMail(t) {
			if strings.Contains(m, "sam@northwind.test") {
				invite = strings.ReplaceAll(m, "=\r\n", "")
			}
		}
		if !strings.Contains(invite, "You are invited to join Northwind Outdoor on Marquee") || strings.Contains(invite, " invited you") {
			t.Fatalf("invite = %s", invite)
		}
	})
}
