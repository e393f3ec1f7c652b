package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"

	"marquee/platform/auth"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// GET /api/special/campaigns?sort= answered 500 once. Every list route of the registered
// route rows is called with empty, unknown and hostile sort, page and page_size, as every demo
// principal the policy lets call it: each answer is its default (200, page 1) for an empty value,
// 200 or 400 otherwise, never a 5xx.

// listParamValues are the values sent, one parameter at a time; "" must answer the default.
var listParamValues = map[string][]string{
	"sort": {"", "nope", "-", "--created_at", "-created_at,name", "name;DROP TABLE users", "password_hash",
		"id", "\u202ename", "%", strings.Repeat("s", 5000)},
	"page": {"", "0", "-1", "abc", "1.5", " 1", "1e3", "99999999999999999999", "9223372036854775807",
		"2147483648", "184467440737095516"},
	"page_size": {"", "0", "-1", "abc", "7", "1000000", "99999999999999999999", "9223372036854775807", "1e2"},
}

// isListResponse reports whether t (a route row's Response) is a page of the list envelope: a
// struct whose JSON fields include page and page_size, directly or through an embedded struct.
func isListResponse(t reflect.Type) bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return false
	}
	found := map[string]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				walk(f.Type)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			found[name] = true
		}
	}
	walk(t)
	return found["page"] && found["page_size"]
}

func TestListParamsSweep(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := testkit.Start(t, dialect, buildModules, testkit.WithEnv("API_KEY_RATE_LIMIT", "1000000"))
		if err := seedDemo(t.Context(), &application{modules: s.Modules}, io.Discard); err != nil {
			t.Fatal(err)
		}
		subjects := map[string]string{"advertiser": auth.SubjectUser, "super_admin": auth.SubjectSuperAdmin,
			"ambassador": auth.SubjectAmbassador, "certified": auth.SubjectCertified}
		clients := map[string]*testkit.Client{}
		for role, subject := range subjects {
			u, err := identityService(s.Modules).FindUserByEmail(t.Context(), demoUsers[role].Email)
			if err != nil {
				t.Fatal(err)
			}
			// Not s.Client: the sweep sends what the OpenAPI document refuses on purpose (an
			// empty page or sort, which the server answers with its default), so the checking
			// client would flag the leniency it tests.
			c := testkit.NewClient(t, s.URL)
			c.SessionAs(s, u.ID)
			clients[subject] = c
		}

		// Every GET row is swept (a route that ignores the parameters must still answer them);
		// the list routes among them, the rows whose Response is the list envelope or whose
		// answer is one, must also answer their default to an empty value. The /api/v1 copies are
		// the same handlers, called here through the cookie path.
		var gets []server.Route
		lists := map[string]bool{}
		for _, r := range s.Kernel.RouteRows() {
			if r.Method == http.MethodGet && !strings.HasPrefix(r.Path, server.V1Prefix+"/") && r.Path != "/users/logout" {
				gets = append(gets, r)
				if isListResponse(reflect.TypeOf(r.Response)) {
					lists[r.Path] = true
				}
			}
		}
		sort.Slice(gets, func(i, j int) bool {
			// Parameterless routes first: they answer the ids the others are called with.
			pi, pj := strings.ContainsAny(gets[i].Path, ":*"), strings.ContainsAny(gets[j].Path, ":*")
			if pi != pj {
				return !pi
			}
			return gets[i].Path < gets[j].Path
		})

		type page struct {
			Page     *int `json:"page"`
			PageSize *int `json:"page_size"`
		}
		ids := map[string]map[string]string{} // subject -> list path -> an id it answered
		idFor := func(subject, path string) string {
			at := strings.IndexAny(path, ":*")
			prefix := strings.TrimSuffix(path[:at], "/")
			best, id := -1, missingID
			for list, v := range ids[subject] {
				if (prefix == list || strings.HasPrefix(prefix, list+"/")) && len(list) > best {
					best, id = len(list), v
				}
			}
			return id
		}
		checked, answeredLists := 0, map[string]bool{}
		for _, r := range gets {
			for _, subject := range []string{auth.SubjectUser, auth.SubjectSuperAdmin, auth.SubjectAmbassador, auth.SubjectCertified} {
				if !s.Enforcer.Allowed(subject, r.Method, r.Path) {
					continue
				}
				c := clients[subject]
				path := r.Path
				if strings.ContainsAny(path, ":*") {
					path = routeParamRE.ReplaceAllStringFunc(path, func(string) string { return idFor(subject, r.Path) })
				}
				base := c.Get(path)
				if base.Status >= 500 {
					t.Errorf("GET %s as %s: %d %.300s", path, subject, base.Status, base.Body)
					continue
				}
				if got := harvestIDs(base.Body); base.Status == http.StatusOK && len(got) > 0 && !strings.ContainsAny(r.Path, ":*") {
					if ids[subject] == nil {
						ids[subject] = map[string]string{}
					}
					ids[subject][strings.TrimSuffix(r.Path, "/")] = got[0]
				}
				var def page
				listed := base.Status == http.StatusOK && json.Unmarshal(base.Body, &def) == nil && def.Page != nil && def.PageSize != nil
				if listed {
					answeredLists[r.Path] = true
				} else if lists[r.Path] && base.Status == http.StatusOK {
					t.Errorf("GET %s as %s: its row says it answers a page, but it answered %.200s", path, subject, base.Body)
				}
				for param, values := range listParamValues {
					for i, v := range values {
						if !listed && i > 2 {
							break // not a list here: an empty and two unknown values are enough
						}
						target := path + "?" + url.Values{param: {v}}.Encode()
						res := c.Get(target)
						checked++
						switch {
						case res.Status >= 500:
							t.Errorf("%s as %s: %d %.300s", target, subject, res.Status, res.Body)
						case !listed:
							// Not a list for this principal (a partner route for an advertiser, a
							// single object): any answer but a 5xx will do.
						case v == "":
							var got page
							if res.Status != http.StatusOK || json.Unmarshal(res.Body, &got) != nil || got.Page == nil || *got.Page != 1 || *got.PageSize != *def.PageSize {
								t.Errorf("%s as %s: %d %.300s; want the default page (1, size %d)", target, subject, res.Status, res.Body, *def.PageSize)
							}
						case res.Status != http.StatusOK && res.Status != http.StatusBadRequest:
							t.Errorf("%s as %s: %d %.300s; want 200 or 400", target, subject, res.Status, res.Body)
						}
					}
				}
			}
		}
		for _, want := range []string{"/api/special/campaigns", "/api/campaigns", "/api/reports", "/api/admin/users/"} {
			if !answeredLists[want] {
				t.Errorf("%s did not answer a page to any principal: the sweep missed it", want)
			}
		}
		t.Logf("%d GET routes, %d of them lists, %d calls", len(gets), len(answeredLists), checked)
	})
}
