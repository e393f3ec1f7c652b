package authz

import "testing"

func TestRoleHierarchy(t *testing.T) {
	e, err := New([]Rule{
		Allow(Anonymous, "GET", "/public"),
		Allow(Member, "GET", "/me"),
		Allow(User, "POST", "/api/campaigns"),
		Allow(Ambassador, "GET", "/api/special/invite"),
		Allow(Certified, "GET", "/api/special/certified/exam"),
		Allow(Admin, "GET", "/api/admin/users/"),
		Allow(SuperAdmin, "GET", "/api/admin/promo/"),
		Allow(User, "GET", "/api/campaigns/:id"),
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		route, method string
		allowed       []string
	}{
		{"/public", "GET", Subjects},
		{"/me", "GET", []string{"user", "ambassador", "certified", "admin", "super_admin"}},
		{"/api/campaigns", "POST", []string{"user", "ambassador", "certified"}},
		{"/api/campaigns", "GET", nil},
		{"/api/special/invite", "GET", []string{"ambassador"}},
		{"/api/special/certified/exam", "GET", []string{"certified"}},
		{"/api/admin/users/", "GET", []string{"admin", "super_admin"}},
		{"/api/admin/promo/", "GET", []string{"super_admin"}},
		{"/api/campaigns/:id", "GET", []string{"user", "ambassador", "certified"}},
	}
	for _, tc := range cases {
		want := map[string]bool{}
		for _, s := range tc.allowed {
			want[s] = true
		}
		for _, s := range Subjects {
			if got := e.Allowed(s, tc.method, tc.route); got != want[s] {
				t.Errorf("%s %s %s: allowed = %v, want %v", s, tc.method, tc.route, got, want[s])
			}
		}
	}
	if _, err := New([]Rule{Allow("root", "GET", "/")}); err == nil {
		t.Fatal("a rule naming an unknown role was accepted")
	}
}

// A rule names one route: the rule of /api/cards/:id says nothing about the route /api/cards/me.
func TestRuleNamesOneRoute(t *testing.T) {
	e, err := New([]Rule{Allow(Admin, "GET", "/api/cards/:id"), Allow(User, "GET", "/api/cards/me")})
	if err != nil {
		t.Fatal(err)
	}
	if e.Allowed("admin", "GET", "/api/cards/me") {
		t.Error("the admin rule of /api/cards/:id admitted an admin to /api/cards/me")
	}
	if !e.Allowed("admin", "GET", "/api/cards/:id") || !e.Allowed("user", "GET", "/api/cards/me") {
		t.Error("a rule did not admit its own route")
	}
}
