package identity_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"marquee/modules/identity"
	"marquee/platform/audit"
	"marquee/platform/pagination"
	"marquee/platform/testkit"
)

// world is a test server with a standard company (owner and teammate), another company, an admin
// and a super admin, each with a signed-in client.
type world struct {
	s                                *testkit.Server
	svc                              identity.Service
	owner, mate, other, admin, super *identity.User
}

func newWorld(t *testing.T, dialect string) *world {
	t.Helper()
	s := start(t, dialect)
	w := &world{s: s, svc: testkit.ModuleOf[*identity.Module](t, s).Service()}
	mk := func(email, role, company string) *identity.User {
		u, _, err := w.svc.CreateUser(t.Context(), identity.CreateUserRequest{Email: email, Password: goodPassword, Role: role,
			CompanyName: company, FirstName: "First", LastName: "Last"})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	w.owner = mk("owner@sunrise.test", identity.RoleUser, "Sunrise Coffee")
	w.mate = mk("mate@sunrise.test", identity.RoleUser, "Sunrise Coffee")
	w.other = mk("boss@moonset.test", identity.RoleUser, "Moonset Tea")
	w.admin = mk("admin@marquee.test", identity.RoleAdmin, "Marquee")
	w.super = mk("super@marquee.test", identity.RoleSuperAdmin, "Marquee")
	return w
}

// as returns a client signed in (through /signin, a real session) as the user.
func (w *world) as(t *testing.T, u *identity.User) *testkit.Client {
	t.Helper()
	c := w.s.Client(t)
	c.Post("/signin", identity.SignInRequest{Email: u.Local.Email, Password: goodPassword}).Expect(t, 200)
	return c
}

func (w *world) auditEntries(t *testing.T, query string) pagination.Page[audit.Entry] {
	t.Helper()
	var page pagination.Page[audit.Entry]
	w.as(t, w.super).Get("/api/admin/audit/?"+query).Expect(t, 200).JSON(t, &page)
	return page
}

func (w *world) countRows(t *testing.T, table, where string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := w.s.Kernel.DB.Table(table).Where(where, args...).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// failInserts makes the database refuse an INSERT into table whose column has value: a real
// failure in the middle of a transaction, without a hook in the code under test.
func failInserts(t *testing.T, s *testkit.Server, dialect, table, column, value string) {
	t.Helper()
	gdb := s.Kernel.DB
	var stmts []string
	if dialect == "postgres" {
		stmts = []string{
			fmt.Sprintf(`CREATE FUNCTION fail_%[1]s() RETURNS trigger AS $$ BEGIN IF NEW.%[2]s = '%[3]s' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`, table, column, value),
			fmt.Sprintf(`CREATE TRIGGER fail_%[1]s BEFORE INSERT ON %[1]s FOR EACH ROW EXECUTE FUNCTION fail_%[1]s()`, table),
		}
	} else {
		stmts = []string{fmt.Sprintf(`CREATE TRIGGER fail_%[1]s BEFORE INSERT ON %[1]s WHEN NEW.%[2]s = '%[3]s' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`, table, column, value)}
	}
	for _, q := range stmts {
		if err := gdb.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
}

func fieldErr(t *testing.T, r *testkit.Response, field string) string {
	t.Helper()
	m := r.Map(t)
	errs, _ := m["errors"].(map[string]any)
	v, _ := errs[field].(string)
	return v
}

func TestProfileUpdate(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		c := w.as(t, w.owner)
		s := func(v string) *string { return &v }
		var res identity.UserResult
		c.Put("/api/users/"+w.owner.ID, identity.UpdateUserRequest{FirstName: s(" Ada "), LastName: s("Lovelace"), Phone: s("+1 415 555 0100"),
			Address: s("1 Market St"), SubAddress: s("Suite 2"), AddressCity: s("San Francisco"), AddressState: s("ca"), AddressZipcode: s("94105"),
			BillingAddress: s("2 Main St"), BillingCity: s("Washington"), BillingState: s("DC"), BillingZipcode: s("20001-1234")}).Expect(t, 200).JSON(t, &res)
		l := res.User.Local
		if res.Message != identity.MsgUserUpdated || l.FirstName != "Ada" || l.AddressState != "CA" || l.BillingState != "DC" || l.BillingZipcode != "20001-1234" || l.SubAddress != "Suite 2" {
			t.Fatalf("update = %+v", res)
		}
		// An absent field is left as it is.
		c.Put("/api/users/"+w.owner.ID, identity.UpdateUserRequest{Phone: s("")}).Expect(t, 200).JSON(t, &res)
		if res.User.Local.FirstName != "Ada" || res.User.Local.Phone != "" {
			t.Fatalf("partial update = %+v", res.User.Local)
		}
		var got identity.User
		c.Get("/api/users/"+w.owner.ID).Expect(t, 200).JSON(t, &got)
		if got.Local.Address != "1 Market St" {
			t.Fatalf("GET = %+v", got.Local)
		}
		for field, body := range map[string]identity.UpdateUserRequest{
			"address_state":   {AddressState: s("XX")},
			"billing_zipcode": {BillingZipcode: s("9410")},
			"first_name":      {FirstName: s(strings.Repeat("a", 10_000))},
			"phone":           {Phone: s("call me")},
			"address":         {Address: s(strings.Repeat("x", 101))},
		} {
			r := c.Put("/api/users/"+w.owner.ID, body).Expect(t, 400)
			if fieldErr(t, r, field) == "" {
				t.Errorf("%s: %s", field, r.Body)
			}
		}
		// Another user's id answers 404, to read or to write; nothing changes.
		c.Get("/api/users/"+w.mate.ID).Expect(t, 404)
		c.Put("/api/users/"+w.other.ID, identity.UpdateUserRequest{FirstName: s("Mallory")}).Expect(t, 404)
		c.Put("/api/users/not-an-id", identity.UpdateUserRequest{FirstName: s("Mallory")}).Expect(t, 404)
		if u, _ := w.svc.FindUserByID(t.Context(), w.other.ID); u.Local.FirstName != "First" {
			t.Fatal("another user was changed")
		}
		// An ordinary user's own change is not an admin change.
		if n := w.auditEntries(t, "action=user.update").Total; n != 0 {
			t.Fatalf("%d audit entries for a user's own profile", n)
		}
		// An admin updates anyone; that is audited with before and after.
		w.as(t, w.admin).Put("/api/users/"+w.other.ID, identity.UpdateUserRequest{LastName: s("Renamed")}).Expect(t, 200).JSON(t, &res)
		page := w.auditEntries(t, "action=user.update&object_id="+w.other.ID)
		if page.Total != 1 || page.Items[0].ActorID != w.admin.ID || !strings.Contains(string(page.Items[0].Before), `"last_name":"Last"`) ||
			!strings.Contains(string(page.Items[0].After), `"last_name":"Renamed"`) || page.Items[0].IP == "" {
			t.Fatalf("audit = %+v", page)
		}
	})
}

var accessRE = regexp.MustCompile(`http://marquee\.test/access\?token=([A-Za-z0-9_-]+)`)

func TestTeamInvite(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		c := w.as(t, w.owner)
		var res identity.InviteResponse
		c.Post("/api/team-members/", identity.InviteRequest{User: w.owner.ID, NewMember: []identity.Invitee{
			{Name: "Grace Brewster Hopper", Email: "Grace@Sunrise.test"}, {Name: "Alan Turing", Email: "alan@sunrise.test"},
		}}).Expect(t, 201).JSON(t, &res)
		if res.Message != identity.MsgInvitesSent || len(res.Users) != 2 {
			t.Fatalf("invite = %+v", res)
		}
		for _, u := range res.Users {
			if u.Company.ID != w.owner.Company.ID || u.Local.Status != identity.StatusInvited || u.Local.Role.Admin {
				t.Fatalf("invitee = %+v", u)
			}
		}
		var team []identity.User
		c.Get("/api/team-members/").Expect(t, 200).JSON(t, &team)
		if len(team) != 4 {
			t.Fatalf("team = %d", len(team))
		}
		mails := w.s.DeliverMail(t)
		var links []string
		for _, m := range mails {
			if strings.Contains(m, "invited you to join Sunrise Coffee") {
				links = append(links, accessRE.FindStringSubmatch(strings.ReplaceAll(m, "=\r\n", ""))[1])
			}
		}
		if len(links) != 2 {
			t.Fatalf("%d invite mails with a link", len(links))
		}
		// The invitee sets a password through the /access flow and lands in the company as a user.
		inv := w.s.Client(t)
		var in identity.UserResponse
		inv.Post("/users/set-first-password", identity.SetPasswordRequest{Token: links[0], Password: "grace's own password", FirstName: "Grace", LastName: "Hopper"}).Expect(t, 200).JSON(t, &in)
		if in.User.Company.ID != w.owner.Company.ID || in.User.Local.Status != identity.StatusActive || in.User.Local.Role.Admin {
			t.Fatalf("invitee after access = %+v", in.User)
		}
		inv.Get("/api/team-members/").Expect(t, 200)
		// Single use.
		w.s.Client(t).Post("/users/set-first-password", identity.SetPasswordRequest{Token: links[0], Password: "another password 1", FirstName: "X", LastName: "Y"}).Expect(t, 400)

		// Another company's user sees only their own team.
		w.as(t, w.other).Get("/api/team-members/").Expect(t, 200).JSON(t, &team)
		if len(team) != 1 {
			t.Fatalf("other team = %d", len(team))
		}
	})
}

func TestTeamInviteRefusesBadListsAndCreatesNothing(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		c := w.as(t, w.owner)
		users := func() int64 { return w.countRows(t, "identity_users", "1 = 1") }
		before := users()
		many := make([]identity.Invitee, 200)
		for i := range many {
			many[i] = identity.Invitee{Name: "Team Member", Email: fmt.Sprintf("m%d@sunrise.test", i)}
		}
		cases := []struct {
			name, field, msg string
			list             []identity.Invitee
		}{
			{"no name", "new_member.0.name", identity.MsgRequired, []identity.Invitee{{Name: " ", Email: "a@sunrise.test"}}},
			{"one word", "new_member.1.name", identity.MsgLastNameBlank, []identity.Invitee{{Name: "Ok Name", Email: "a@sunrise.test"}, {Name: "Cher", Email: "b@sunrise.test"}}},
			{"no email", "new_member.0.email", identity.MsgRequired, []identity.Invitee{{Name: "Ok Name", Email: ""}}},
			{"bad email", "new_member.0.email", identity.MsgNotValidEmail, []identity.Invitee{{Name: "Ok Name", Email: "not-an-email"}}},
			{"duplicate", "new_member.1.email", identity.MsgEmailAlreadyExist, []identity.Invitee{{Name: "Ok Name", Email: "a@sunrise.test"}, {Name: "Ok Two", Email: "A@sunrise.test"}}},
			{"has an account", "new_member.1.email", identity.MsgEmailHasAccount, []identity.Invitee{{Name: "Ok Name", Email: "a@sunrise.test"}, {Name: "Ok Two", Email: "mate@sunrise.test"}}},
			{"another company", "new_member.0.email", identity.MsgEmailOtherCompany, []identity.Invitee{{Name: "Ok Name", Email: "boss@moonset.test"}}},
			{"10,000-char name", "new_member.0.name", identity.MsgInvalidName, []identity.Invitee{{Name: "A " + strings.Repeat("b", 10_000), Email: "a@sunrise.test"}}},
			{"200 invitees", "new_member", identity.MsgTooManyInvitees, many},
			{"empty", "new_member", identity.MsgNoInvitees, nil},
		}
		for _, tc := range cases {
			r := c.Post("/api/team-members/", identity.InviteRequest{NewMember: tc.list}).Expect(t, 400)
			if got := fieldErr(t, r, tc.field); got != tc.msg {
				t.Errorf("%s: %s = %q; %s", tc.name, tc.field, got, r.Body)
			}
		}
		c.Post("/api/team-members/", identity.InviteRequest{User: w.other.ID, NewMember: []identity.Invitee{{Name: "Ok Name", Email: "a@sunrise.test"}}}).Expect(t, 400)
		if n := users(); n != before {
			t.Fatalf("users %d -> %d after refused invites", before, n)
		}
		// A failure in the middle (the database refuses the second invitee) leaves no user, no
		// token and no mail.
		mailsBefore := w.countRows(t, "mail_outbox", "1 = 1")
		failInserts(t, w.s, dialect, "identity_users", "email", "second@sunrise.test")
		c.Post("/api/team-members/", identity.InviteRequest{NewMember: []identity.Invitee{
			{Name: "First One", Email: "first@sunrise.test"}, {Name: "Second One", Email: "second@sunrise.test"}, {Name: "Third One", Email: "third@sunrise.test"},
		}}).Expect(t, 500)
		if n := users(); n != before {
			t.Fatalf("a failed invite left %d users", n-before)
		}
		if n := w.countRows(t, "identity_tokens", "1 = 1"); n != 0 {
			t.Fatalf("a failed invite left %d tokens", n)
		}
		if n := w.countRows(t, "mail_outbox", "1 = 1"); n != mailsBefore {
			t.Fatal("a failed invite queued mail")
		}
		// Admins are not team inviters (B §6: regular users).
		w.as(t, w.admin).Post("/api/team-members/", identity.InviteRequest{NewMember: []identity.Invitee{{Name: "Ok Name", Email: "z@sunrise.test"}}}).Expect(t, 403)
	})
}

func TestDisableEndsSessionsAndRefusesSignIn(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		victim, second := w.as(t, w.owner), w.as(t, w.owner)
		admin := w.as(t, w.admin)
		var res identity.UserResult
		admin.Put("/api/users/"+w.owner.ID+"/disable", identity.DisableUserRequest{Enable: false}).Expect(t, 200).JSON(t, &res)
		if res.Status != identity.StatusDisabled || res.User.Local.Status != identity.StatusDisabled {
			t.Fatalf("disable = %+v", res)
		}
		victim.Get("/users/currentUser").Expect(t, 401)
		second.Get("/users/currentUser").Expect(t, 401)
		if n := w.countRows(t, "auth_sessions", "user_id = ?", w.owner.ID); n != 0 {
			t.Fatalf("%d sessions left", n)
		}
		got := w.s.Client(t).Post("/signin", identity.SignInRequest{Email: w.owner.Local.Email, Password: goodPassword}).Expect(t, 403).Map(t)
		if got["message"] != identity.MsgAccountDisabled {
			t.Fatalf("sign-in when disabled = %v", got)
		}
		admin.Put("/api/users/"+w.owner.ID+"/disable", identity.DisableUserRequest{Enable: true}).Expect(t, 200).JSON(t, &res)
		if res.Status != identity.StatusActive {
			t.Fatalf("enable = %+v", res)
		}
		w.as(t, w.owner).Get("/users/currentUser").Expect(t, 200)

		page := w.auditEntries(t, "object_id="+w.owner.ID+"&sort=created_at")
		if page.Total != 2 || page.Items[0].Action != identity.AuditUserDisable || page.Items[1].Action != identity.AuditUserEnable ||
			string(page.Items[0].Before) != `{"status":"active"}` || string(page.Items[0].After) != `{"status":"disabled"}` {
			t.Fatalf("audit = %+v", page.Items)
		}
		// Nobody disables themselves; a plain admin does not touch a super admin; a user gets 403.
		admin.Put("/api/users/"+w.admin.ID+"/disable", identity.DisableUserRequest{}).Expect(t, 400)
		admin.Put("/api/users/"+w.super.ID+"/disable", identity.DisableUserRequest{}).Expect(t, 403)
		w.as(t, w.mate).Put("/api/users/"+w.owner.ID+"/disable", identity.DisableUserRequest{}).Expect(t, 403)
		w.as(t, w.super).Put("/api/users/"+w.admin.ID+"/disable", identity.DisableUserRequest{}).Expect(t, 200)
		admin.Get("/users/currentUser").Expect(t, 401)
	})
}

func TestAuditIsWrittenInTheChangesTransaction(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		victim := w.as(t, w.owner)
		admin := w.as(t, w.admin)
		// The audit row cannot be written: the change it records does not happen either.
		failInserts(t, w.s, dialect, "audit_entries", "action", identity.AuditUserDisable)
		admin.Put("/api/users/"+w.owner.ID+"/disable", identity.DisableUserRequest{}).Expect(t, 500)
		if u, _ := w.svc.FindUserByID(t.Context(), w.owner.ID); u.Local.Status != identity.StatusActive {
			t.Fatal("the user was disabled without its audit row")
		}
		victim.Get("/users/currentUser").Expect(t, 200)
		// A refused change leaves no audit row.
		s := func(v string) *string { return &v }
		admin.Put("/api/companies/"+w.other.Company.ID, identity.UpdateCompanyRequest{Name: s("SUNRISE  coffee")}).Expect(t, 409)
		if n := w.countRows(t, "audit_entries", "1 = 1"); n != 0 {
			t.Fatalf("%d audit rows after failed changes", n)
		}
	})
}

func TestUpgradeAndCertification(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		admin := w.as(t, w.admin)
		var res identity.UserResult
		admin.Put("/api/users/upgrade/"+w.owner.ID, identity.UpgradeUserRequest{Type: "gold"}).Expect(t, 400)
		admin.Put("/api/users/upgrade/"+w.owner.ID, identity.UpgradeUserRequest{Type: identity.CompanyCertified}).Expect(t, 200).JSON(t, &res)
		if res.Message != identity.MsgUserUpgraded || res.User.Company.Type != identity.CompanyCertified {
			t.Fatalf("upgrade = %+v", res)
		}
		got := admin.Put("/api/users/upgrade/"+w.mate.ID, identity.UpgradeUserRequest{Type: identity.CompanyAmbassador}).Expect(t, 400).Map(t)
		if got["message"] != identity.MsgAlreadyPartner {
			t.Fatalf("second upgrade = %v", got)
		}
		if n := w.countRows(t, "events_outbox", "name = ? AND payload LIKE ?", identity.EventCompanyTypeChanged, "%"+w.owner.Company.ID+"%"); n != 1 {
			t.Fatalf("%d type-change events", n)
		}
		w.as(t, w.owner).Put("/api/users/upgrade/"+w.other.ID, identity.UpgradeUserRequest{Type: identity.CompanyCertified}).Expect(t, 403)
		admin.Put("/api/users/upgrade/00000000-0000-7000-8000-000000000000", identity.UpgradeUserRequest{Type: identity.CompanyCertified}).Expect(t, 404)

		on, off := true, false
		admin.Put("/api/users/"+w.owner.ID, identity.UpdateUserRequest{Certified: &on}).Expect(t, 200).JSON(t, &res)
		if res.Message != identity.MsgCertificationOn || !res.User.Certified {
			t.Fatalf("certify = %+v", res)
		}
		admin.Put("/api/users/"+w.owner.ID, identity.UpdateUserRequest{Certified: &off}).Expect(t, 200).JSON(t, &res)
		if res.Message != identity.MsgCertificationOff || res.User.Certified {
			t.Fatalf("uncertify = %+v", res)
		}
		// A user cannot certify themselves.
		w.as(t, w.owner).Put("/api/users/"+w.owner.ID, identity.UpdateUserRequest{Certified: &on}).Expect(t, 403)
		if n := w.auditEntries(t, "action=user.certification").Total; n != 2 {
			t.Fatalf("%d certification entries", n)
		}
		if n := w.auditEntries(t, "action=user.upgrade&actor=admin@").Total; n != 1 {
			t.Fatalf("%d upgrade entries", n)
		}
	})
}

func TestCompanies(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		owner, admin := w.as(t, w.owner), w.as(t, w.admin)
		var co identity.Company
		owner.Get("/api/companies/"+w.owner.Company.ID).Expect(t, 200).JSON(t, &co)
		if co.Name != "Sunrise Coffee" || co.UserCount != 2 {
			t.Fatalf("company = %+v", co)
		}
		owner.Get("/api/companies/"+w.other.Company.ID).Expect(t, 404)
		admin.Get("/api/companies/"+w.other.Company.ID).Expect(t, 200)
		s := func(v string) *string { return &v }
		owner.Put("/api/companies/"+w.owner.Company.ID, identity.UpdateCompanyRequest{Name: s("Mine")}).Expect(t, 403)

		var res identity.CompanyResult
		admin.Put("/api/companies/"+w.other.Company.ID, identity.UpdateCompanyRequest{Name: s("  Moonset   Teas "), Status: s("disabled"), Type: s("ambassador")}).Expect(t, 200).JSON(t, &res)
		if res.Message != identity.MsgCompanyUpdated || res.Company.Name != "Moonset Teas" || res.Company.Status != "disabled" || res.Company.Type != "ambassador" {
			t.Fatalf("update = %+v", res)
		}
		// Names stay unique, whatever the case.
		got := admin.Put("/api/companies/"+w.other.Company.ID, identity.UpdateCompanyRequest{Name: s("sunrise COFFEE")}).Expect(t, 409).Map(t)
		if got["message"] != identity.MsgCompanyTaken {
			t.Fatalf("taken = %v", got)
		}
		admin.Put("/api/companies/"+w.other.Company.ID, identity.UpdateCompanyRequest{Type: s("gold")}).Expect(t, 400)
		admin.Put("/api/companies/"+w.other.Company.ID, identity.UpdateCompanyRequest{Name: s("<script>")}).Expect(t, 400)
		// Its own name in another case is fine.
		admin.Put("/api/companies/"+w.other.Company.ID, identity.UpdateCompanyRequest{Name: s("MOONSET TEAS")}).Expect(t, 200)

		var page pagination.Page[identity.Company]
		admin.Get("/companies?q=moon").Expect(t, 200).JSON(t, &page)
		if page.Total != 1 || page.Items[0].ID != w.other.Company.ID {
			t.Fatalf("GET /companies = %+v", page)
		}
		admin.Get("/companies?q=moon&status=disabled&type=ambassador&sort=name").Expect(t, 200).JSON(t, &page)
		if page.Total != 1 {
			t.Fatalf("search with filters = %+v", page)
		}
		admin.Get("/companies?q=moon&status=active").Expect(t, 200).JSON(t, &page)
		if page.Total != 0 {
			t.Fatalf("search with another status = %+v", page)
		}
		entries := w.auditEntries(t, "object_type=company&sort=created_at")
		if entries.Total != 2 || !strings.Contains(string(entries.Items[0].Before), `"name":"Moonset Tea"`) {
			t.Fatalf("audit = %+v", entries.Items)
		}
	})
}

func TestAdminGrids(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		admin := w.as(t, w.admin)
		var users pagination.Page[identity.User]
		admin.Get("/api/admin/users/").Expect(t, 200).JSON(t, &users)
		if users.Total != 5 || users.PageSize != 50 || len(users.Items) != 5 || users.Items[0].Company.Name == "" {
			t.Fatalf("users = %+v", users)
		}
		admin.Get("/api/admin/users/?q=SUNRISE&sort=email&page_size=75").Expect(t, 200).JSON(t, &users)
		if users.Total != 2 || users.Items[0].Local.Email != "mate@sunrise.test" {
			t.Fatalf("search by company = %+v", users.Items)
		}
		w.as(t, w.super).Put("/api/users/"+w.mate.ID+"/disable", identity.DisableUserRequest{}).Expect(t, 200)
		admin.Get("/api/admin/users/?q=sunrise&status=disabled").Expect(t, 200).JSON(t, &users)
		if users.Total != 1 || users.Items[0].ID != w.mate.ID {
			t.Fatalf("search and status = %+v", users.Items)
		}
		admin.Get("/api/admin/users/?q=boss").Expect(t, 200).JSON(t, &users)
		if users.Total != 1 {
			t.Fatalf("search by email = %d", users.Total)
		}
		admin.Get("/api/admin/users/?page=2&sort=-sign_in_count").Expect(t, 200).JSON(t, &users)
		if users.Total != 5 || len(users.Items) != 0 || users.Page != 2 {
			t.Fatalf("paging = %+v", users)
		}
		admin.Get("/api/admin/users/?page_size=0&status=active").Expect(t, 200).JSON(t, &users)
		if users.Total != 4 {
			t.Fatalf("all = %d", users.Total)
		}
		admin.Get("/api/admin/users/?page_size=20").Expect(t, 400)
		admin.Get("/api/admin/users/?sort=password_hash").Expect(t, 400)
		admin.Get("/api/admin/users/?q="+strings.Repeat("a", 101)).Expect(t, 400)
		admin.Get("/api/admin/users/?q=%25").Expect(t, 200) // a LIKE wildcard is plain text

		var cos pagination.Page[identity.AdminCompany]
		w.as(t, w.super).Get("/api/admin/companies/?sort=name").Expect(t, 200).JSON(t, &cos)
		if cos.Total != 3 || cos.Items[0].Name != "Marquee" || cos.Items[2].UserCount != 2 || cos.Items[2].CardOnFile {
			t.Fatalf("companies = %+v", cos.Items)
		}
		// B §6: a plain user gets 403 on every admin call, and nothing changes.
		user := w.as(t, w.owner)
		for _, p := range []string{"/api/admin/users/", "/api/admin/companies/", "/companies", "/api/admin/audit/"} {
			user.Get(p).Expect(t, http.StatusForbidden)
		}
	})
}

func TestModeratedSignIn(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		admin := w.as(t, w.admin)
		sessionsBefore := w.countRows(t, "auth_sessions", "1 = 1")
		for email, want := range map[string]int{"nobody@x.test": 400, "super@marquee.test": 403, "admin@marquee.test": 400, "": 400} {
			admin.Post("/moderate-signin", identity.ModerateSignInRequest{Email: email}).Expect(t, want)
		}
		w.as(t, w.super).Put("/api/users/"+w.mate.ID+"/disable", identity.DisableUserRequest{}).Expect(t, 200)
		got := admin.Post("/moderate-signin", identity.ModerateSignInRequest{Email: "mate@sunrise.test"}).Expect(t, 400).Map(t)
		if got["message"] != identity.MsgModerateDisabled {
			t.Fatalf("disabled = %v", got)
		}
		if n := w.countRows(t, "auth_sessions", "1 = 1"); n != sessionsBefore+1 { // + the super admin's
			t.Fatalf("refused moderated sign-ins made sessions: %d -> %d", sessionsBefore, n)
		}
		w.as(t, w.owner).Post("/moderate-signin", identity.ModerateSignInRequest{Email: "boss@moonset.test"}).Expect(t, 403)

		var res identity.ModerateResponse
		admin.Post("/moderate-signin", identity.ModerateSignInRequest{Email: " Owner@Sunrise.test "}).Expect(t, 200).JSON(t, &res)
		if res.User.ID != w.owner.ID || res.Moderator.ID != w.admin.ID || res.Moderator.Email != "admin@marquee.test" {
			t.Fatalf("moderate = %+v", res)
		}
		var me identity.CurrentUser
		admin.Get("/users/currentUser").Expect(t, 200).JSON(t, &me)
		if me.ID != w.owner.ID || me.Moderator == nil || me.Moderator.ID != w.admin.ID || me.Moderator.Name != "First Last" {
			t.Fatalf("currentUser = %+v", me)
		}
		var li identity.LoggedInResponse
		admin.Get("/users/loggedin").Expect(t, 200).JSON(t, &li)
		if !li.LoggedIn || li.Moderator == nil || li.Moderator.Email != "admin@marquee.test" {
			t.Fatalf("loggedin = %+v", li)
		}
		// The session is the user's: no admin call, no nested moderation.
		admin.Get("/api/admin/users/").Expect(t, 403)
		admin.Post("/moderate-signin", identity.ModerateSignInRequest{Email: "boss@moonset.test"}).Expect(t, 403)
		// What the admin changes as the user is audited in the admin's name.
		admin.Post("/api/team-members/", identity.InviteRequest{NewMember: []identity.Invitee{{Name: "Via Moderator", Email: "via@sunrise.test"}}}).Expect(t, 201)
		// The user's own sessions are not the moderated one, and the moderation does not count as a
		// sign-in.
		var plain identity.CurrentUser
		owner := w.as(t, w.owner)
		owner.Get("/users/currentUser").Expect(t, 200).JSON(t, &plain)
		if plain.Moderator != nil || plain.SignInCount != 2 {
			t.Fatalf("the user's own session = %+v", plain)
		}
		owner.Post("/moderate-signout", nil).Expect(t, 400)

		// The way back restores the admin's own session.
		admin.Post("/moderate-signout", nil).Expect(t, 200).JSON(t, &res)
		if res.User == nil || res.User.ID != w.admin.ID || res.Message != identity.MsgModerateEnded {
			t.Fatalf("signout = %+v", res)
		}
		admin.Get("/users/currentUser").Expect(t, 200).JSON(t, &me)
		if me.ID != w.admin.ID || me.Moderator != nil {
			t.Fatalf("after signout = %+v", me)
		}
		admin.Get("/api/admin/users/").Expect(t, 200)
		if n := w.countRows(t, "auth_sessions", "moderator_id <> ''"); n != 0 {
			t.Fatalf("%d moderated sessions left", n)
		}

		// Every write of the moderated session is recorded (moderate.write, before the module's own
		// entry), in the user's name with the moderator's id and name.
		entries := w.auditEntries(t, "actor="+w.admin.ID+"&sort=created_at")
		if entries.Total != 4 || entries.Items[0].Action != identity.AuditModerateSignIn || entries.Items[0].ObjectID != w.owner.ID ||
			entries.Items[0].IP == "" || entries.Items[1].Action != audit.ActionModeratedWrite || entries.Items[1].ObjectName != "POST /api/team-members/" ||
			entries.Items[2].Action != identity.AuditTeamInvite || entries.Items[2].ActorID != w.owner.ID ||
			entries.Items[2].ModeratorID != w.admin.ID || entries.Items[2].ModeratorEmail != "admin@marquee.test" || entries.Items[2].ModeratorName != "First Last" ||
			entries.Items[2].ObjectName != "Sunrise Coffee" || entries.Items[3].Action != identity.AuditModerateSignOut {
			t.Fatalf("audit = %+v", entries.Items)
		}
		if n := w.auditEntries(t, "from=2026-11-22&to=2026-11-22&action=moderate.signin").Total; n != 1 {
			t.Fatalf("date filter = %d", n)
		}
		if n := w.auditEntries(t, "from=2026-11-23").Total; n != 0 {
			t.Fatalf("from filter = %d", n)
		}
		w.as(t, w.super).Get("/api/admin/audit/?from=yesterday").Expect(t, 400)

		// When the admin's own session has ended meanwhile, the way back signs out instead.
		sup := w.as(t, w.super)
		sup.Post("/moderate-signin", identity.ModerateSignInRequest{Email: "mate@sunrise.test"}).Expect(t, 400) // disabled above
		sup.Post("/moderate-signin", identity.ModerateSignInRequest{Email: "boss@moonset.test"}).Expect(t, 200)
		if err := w.s.Kernel.DB.Exec("DELETE FROM auth_sessions WHERE user_id = ?", w.super.ID).Error; err != nil {
			t.Fatal(err)
		}
		sup.Post("/moderate-signout", nil).Expect(t, 200).JSON(t, &res)
		if res.User != nil || res.Message != identity.MsgModerateAdminExpired {
			t.Fatalf("signout without the admin session = %+v", res)
		}
		sup.Get("/users/currentUser").Expect(t, 401)

		// Logging out of a moderated session returns to the admin's own account, with
		// the moderate.signout row; a second logout then signs the admin out.
		out := w.as(t, w.admin)
		out.Post("/moderate-signin", identity.ModerateSignInRequest{Email: "owner@sunrise.test"}).Expect(t, 200)
		signouts := w.auditEntries(t, "action=moderate.signout").Total
		out.Get("/users/logout").Expect(t, 200).JSON(t, &res)
		if res.User == nil || res.User.ID != w.admin.ID || res.Message != identity.MsgModerateEnded {
			t.Fatalf("logout of a moderated session = %+v", res)
		}
		if n := w.auditEntries(t, "action=moderate.signout").Total; n != signouts+1 {
			t.Fatalf("moderate.signout rows %d -> %d", signouts, n)
		}
		out.Get("/users/currentUser").Expect(t, 200).JSON(t, &me)
		if me.ID != w.admin.ID || me.Moderator != nil {
			t.Fatalf("after logging out of the moderated session = %+v", me)
		}
		out.Get("/users/logout").Expect(t, 200)
		out.Get("/users/currentUser").Expect(t, 401)

		// Disabling an admin ends the sessions they moderate too.
		admin.Post("/moderate-signin", identity.ModerateSignInRequest{Email: "owner@sunrise.test"}).Expect(t, 200)
		w.as(t, w.super).Put("/api/users/"+w.admin.ID+"/disable", identity.DisableUserRequest{}).Expect(t, 200)
		admin.Get("/users/currentUser").Expect(t, 401)
	})
}

// The "All" page size lists every user, its rows read in several IN lists (5,000 ids each: the
// databases cap the parameters of one statement), in the page's order.
func TestAdminUsersAllPage(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := newWorld(t, dialect)
		const extra = 6000
		rows := make([]map[string]any, 0, 500)
		for i := 0; i < extra; i++ {
			rows = append(rows, map[string]any{"id": fmt.Sprintf("00000000-0000-7000-8000-%012d", i), "company_id": w.owner.Company.ID,
				"email": fmt.Sprintf("bulk%d@sunrise.test", i), "password_hash": "", "role": "user", "status": "invited",
				"created_at": testkit.StartTime, "updated_at": testkit.StartTime})
			if len(rows) == cap(rows) {
				if err := w.s.Kernel.DB.Table("identity_users").Create(rows).Error; err != nil {
					t.Fatal(err)
				}
				rows = rows[:0]
			}
		}
		var page pagination.Page[identity.User]
		w.as(t, w.admin).Get("/api/admin/users/?page_size=0&sort=email").Expect(t, 200).JSON(t, &page)
		if page.Total != extra+5 || len(page.Items) != extra+5 || page.Items[0].Local.Email != "admin@marquee.test" {
			t.Fatalf("all = %d of %d", len(page.Items), page.Total)
		}
	})
}
