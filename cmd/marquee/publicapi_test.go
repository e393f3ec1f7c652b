package main

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"marquee/modules/identity"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/httpx"
	"marquee/platform/pagination"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// The public API (docs/api.md): API keys, the /api/v1 edge, and the OpenAPI document.

// makeKey makes a key through Settings → API's call, as the user whose session c holds.
func makeKey(t *testing.T, c *testkit.Client, name, scope string) identity.CreatedAPIKey {
	t.Helper()
	var made identity.CreatedAPIKey
	c.Post("/api/api-keys/", map[string]string{"name": name, "scope": scope}).Expect(t, http.StatusCreated).JSON(t, &made)
	return made
}

func keyClient(s *testkit.Server, t *testing.T, key string) *testkit.Client {
	c := s.Client(t)
	c.NoXHR = true // the API needs no CSRF header
	c.Bearer = key
	return c
}

func envelope(t *testing.T, r *testkit.Response) httpx.ErrorBody {
	t.Helper()
	var e httpx.ErrorBody
	r.JSON(t, &e)
	return e
}

func TestAPIKeys(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		t.Parallel()
		s := testkit.Start(t, dialect, buildModules)
		svc := identityService(s.Modules)
		mk := func(email, company string, role string) string {
			u, _, err := svc.CreateUser(t.Context(), identity.CreateUserRequest{Email: email, Password: "apikeys password 1", Role: role, CompanyName: company})
			if err != nil {
				t.Fatal(err)
			}
			return u.ID
		}
		owner, other, admin := mk("owner@keys.test", "Keys Co", identity.RoleUser), mk("other@keys.test", "Other Co", identity.RoleUser), mk("admin@keys.test", "", identity.RoleAdmin)
		web := s.Client(t)
		web.SessionAs(s, owner)

		// Made once: the answer shows the key; the list shows only its prefix; the table holds its hash.
		rw := makeKey(t, web, "Reporting", auth.ScopeReadWrite)
		if !strings.HasPrefix(rw.Secret, "mq_live_") || len(rw.Secret) < 48 || rw.Key.Prefix != rw.Secret[:12] {
			t.Fatalf("key %q prefix %q", rw.Secret, rw.Key.Prefix)
		}
		list := web.Get("/api/api-keys/").Expect(t, http.StatusOK)
		if bytes.Contains(list.Body, []byte(rw.Secret)) || !bytes.Contains(list.Body, []byte(rw.Key.Prefix)) {
			t.Fatalf("list %s", list.Body)
		}
		var stored []map[string]any
		if err := s.Kernel.DB.Table("identity_api_keys").Find(&stored).Error; err != nil {
			t.Fatal(err)
		}
		for _, row := range stored {
			for col, v := range row {
				if s, ok := v.(string); ok && strings.Contains(s, rw.Secret[12:]) {
					t.Fatalf("column %s holds the key", col)
				}
			}
			if row["hash"] != auth.HashAPIKey(rw.Secret) {
				t.Fatalf("hash %v", row["hash"])
			}
		}
		web.Post("/api/api-keys/", map[string]string{"name": " ", "scope": "admin"}).Expect(t, http.StatusBadRequest)

		// The key works with no cookie and no CSRF header, with the rate-limit headers.
		api := keyClient(s, t, rw.Secret)
		res := api.Get("/api/v1/campaigns").Expect(t, http.StatusOK)
		if res.Header.Get("RateLimit-Policy") == "" || !regexp.MustCompile(`^"per-key";r=\d+;t=\d+$`).MatchString(res.Header.Get("RateLimit")) {
			t.Fatalf("rate-limit headers %v", res.Header)
		}
		// Last use: time and address.
		var keys []identity.APIKey
		web.Get("/api/api-keys/").Expect(t, http.StatusOK).JSON(t, &keys)
		if len(keys) != 1 || keys[0].LastUsedAt == nil || keys[0].LastUsedIP == "" {
			t.Fatalf("last use not recorded: %+v", keys)
		}

		// A cookie does not open /api/v1, and a key does not open the cookie routes (admin ones
		// included): each side ignores the other's credential.
		web.Get("/api/v1/campaigns").Expect(t, http.StatusUnauthorized)
		web.Bearer = rw.Secret // a cookie and a key: the key decides
		web.Get("/api/v1/campaigns").Expect(t, http.StatusOK)
		web.Bearer = "mq_live_unknown" // and a valid cookie does not rescue a bad key
		web.Get("/api/v1/campaigns").Expect(t, http.StatusUnauthorized)
		web.Bearer = ""
		api.Get("/api/campaigns").Expect(t, http.StatusUnauthorized)
		if e := envelope(t, api.Get("/api/admin/users/").Expect(t, http.StatusUnauthorized)); e.Message != authz.MsgSessionExpired {
			t.Fatalf("admin route with a key: %+v", e)
		}

		// Unknown, malformed, empty and revoked keys: the same 401 envelope.
		want := httpx.ErrorBody{Message: server.MsgInvalidKey}
		for _, k := range []string{"mq_live_" + strings.Repeat("A", 43), "not-a-key", "", rw.Secret + "x"} {
			r := keyClient(s, t, k).Get("/api/v1/campaigns").Expect(t, http.StatusUnauthorized)
			if e := envelope(t, r); e.Message != want.Message || len(e.Errors) > 0 {
				t.Fatalf("key %q: %+v", k, e)
			}
			if r.Header.Get("WWW-Authenticate") == "" {
				t.Fatal("no WWW-Authenticate")
			}
		}

		// A read key reads and quotes, but may not change anything (403).
		ro := makeKey(t, web, "Dashboards", auth.ScopeRead)
		read := keyClient(s, t, ro.Secret)
		read.Get("/api/v1/markets").Expect(t, http.StatusOK)
		if r := read.Post("/api/v1/quotes", map[string]any{}); r.Status == http.StatusForbidden {
			t.Fatalf("a read key may quote: %s", r.Body)
		}
		for _, call := range [][2]string{{"PUT", "/api/v1/campaigns/x/pause"}, {"POST", "/api/v1/campaigns"}, {"POST", "/api/v1/creatives"}} {
			if e := envelope(t, read.Do(call[0], call[1], "{}").Expect(t, http.StatusForbidden)); e.Message != server.MsgReadOnlyKey {
				t.Fatalf("%v: %+v", call, e)
			}
		}

		// A write through a key is in the audit log, naming the key.
		upload := uploadJPEG(t, s, rw.Secret)
		created := api.Post("/api/v1/creatives", map[string]any{"creative": map[string]string{"name": "From the API", "alt": "api", "url": upload}}).Expect(t, http.StatusCreated)
		var entries []struct{ Action, ObjectID, After, ActorEmail string }
		if err := s.Kernel.DB.Table("audit_entries").Where("action = ?", server.AuditAPIWrite).Find(&entries).Error; err != nil {
			t.Fatal(err)
		}
		if len(entries) != 2 || entries[0].ObjectID != rw.Key.ID || !strings.Contains(entries[0].After+entries[1].After, `"key_name":"Reporting"`) ||
			!strings.Contains(entries[0].After+entries[1].After, `"route":"/api/v1/creatives"`) {
			t.Fatalf("audit entries %+v (created %s)", entries, created.Body)
		}

		// Revocation reaches a principal the cache holds (platform/auth/cache.go): nothing is cached
		// for a moment after a write that could end one (making a key is one), so call until it is.
		for deadline := time.Now().Add(10 * time.Second); !s.Kernel.Sessions.CachedKey(rw.Secret); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the key's principal is never cached")
			}
			api.Get("/api/v1/campaigns").Expect(t, http.StatusOK)
		}
		otherWeb := s.Client(t)
		otherWeb.SessionAs(s, other)
		otherWeb.Delete("/api/api-keys/"+rw.Key.ID).Expect(t, http.StatusNotFound) // another company's key
		web.Delete("/api/api-keys/"+rw.Key.ID).Expect(t, http.StatusOK)
		if e := envelope(t, api.Get("/api/v1/campaigns").Expect(t, http.StatusUnauthorized)); e.Message != want.Message || len(e.Errors) > 0 {
			t.Fatalf("revoked: %+v", e)
		}
		web.Delete("/api/api-keys/"+rw.Key.ID).Expect(t, http.StatusNotFound)

		// Admins list every company's keys and revoke any, audited.
		adm := s.Client(t)
		adm.SessionAs(s, admin)
		var page pagination.Page[identity.APIKey]
		adm.Get("/api/admin/api-keys/").Expect(t, http.StatusOK).JSON(t, &page)
		if page.Total != 1 || page.Items[0].ID != ro.Key.ID || page.Items[0].CompanyName != "Keys Co" {
			t.Fatalf("admin list %+v", page)
		}
		adm.Delete("/api/admin/api-keys/"+ro.Key.ID).Expect(t, http.StatusOK)
		read.Get("/api/v1/markets").Expect(t, http.StatusUnauthorized)
		var n int64
		s.Kernel.DB.Table("audit_entries").Where("action = ? AND object_id = ?", identity.AuditAPIKeyRevoke, ro.Key.ID).Count(&n)
		if n != 1 {
			t.Fatalf("admin revoke audited %d times", n)
		}
		web.Delete("/api/admin/api-keys/x").Expect(t, http.StatusForbidden) // not for users
	})
}

// uploadJPEG uploads a small JPEG through the API and returns its storage path.
func uploadJPEG(t *testing.T, s *testkit.Server, key string) string {
	t.Helper()
	var img bytes.Buffer
	if err := jpeg.Encode(&img, image.NewRGBA(image.Rect(0, 0, 40, 20)), nil); err != nil {
		t.Fatal(err)
	}
	api := s.Client(t)
	api.NoXHR, api.Bearer = true, key // an API caller: the key, no browser headers
	var up struct{ Path string }
	api.Upload("/api/v1/creatives/uploads", "file", testkit.File{Name: "creative.jpg", Body: img.Bytes()}).Expect(t, http.StatusOK).JSON(t, &up)
	return up.Path
}

func TestAPIKeyRateLimit(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		t.Parallel()
		s := testkit.Start(t, dialect, buildModules, testkit.WithEnv("API_KEY_RATE_LIMIT", "3"))
		u, _, err := identityService(s.Modules).CreateUser(t.Context(), identity.CreateUserRequest{Email: "rate@keys.test", Password: "apikeys password 1", Role: identity.RoleUser, CompanyName: "Rate Co"})
		if err != nil {
			t.Fatal(err)
		}
		web := s.Client(t)
		web.SessionAs(s, u.ID)
		a, b := keyClient(s, t, makeKey(t, web, "a", auth.ScopeRead).Secret), keyClient(s, t, makeKey(t, web, "b", auth.ScopeRead).Secret)
		for i := 2; i >= 0; i-- {
			r := a.Get("/api/v1/markets").Expect(t, http.StatusOK)
			if got := r.Header.Get("RateLimit"); !strings.HasPrefix(got, fmt.Sprintf(`"per-key";r=%d;t=`, i)) || r.Header.Get("RateLimit-Policy") != `"per-key";q=3;w=60` {
				t.Fatalf("RateLimit %q, policy %q", got, r.Header.Get("RateLimit-Policy"))
			}
		}
		r := a.Get("/api/v1/markets").Expect(t, http.StatusTooManyRequests)
		if r.Header.Get("Retry-After") != "60" || envelope(t, r).Message != server.MsgKeyRateLimited {
			t.Fatalf("429: %v %s", r.Header, r.Body)
		}
		b.Get("/api/v1/markets").Expect(t, http.StatusOK) // per key
		s.Clock.Advance(61 * time.Second)
		a.Get("/api/v1/markets").Expect(t, http.StatusOK)
	})
}

// TestOpenAPIDocumentCoversEveryRoute: the document names every registered route and nothing
// else.
func TestOpenAPIDocumentCoversEveryRoute(t *testing.T) {
	s := testkit.Start(t, testkit.Dialects()[0], buildModules)
	var doc struct {
		OpenAPI string                               `json:"openapi"`
		Paths   map[string]map[string]map[string]any `json:"paths"`
	}
	s.Client(t).Get("/api/openapi.json").Expect(t, http.StatusOK).JSON(t, &doc)
	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q", doc.OpenAPI)
	}
	documented := map[string]bool{}
	for p, ops := range doc.Paths {
		for m, op := range ops {
			documented[strings.ToUpper(m)+" "+p] = true
			if strings.HasPrefix(p, "/api/v1/") && (op["x-codeSamples"] == nil || op["summary"] == "") {
				t.Errorf("%s %s: no summary or code samples", m, p)
			}
		}
	}
	registered := map[string]bool{}
	for _, r := range s.Routes {
		registered[r.Method+" "+server.OpenAPIPath(r.Path)] = true
	}
	var missing, extra []string
	for k := range registered {
		if !documented[k] {
			missing = append(missing, k)
		}
	}
	for k := range documented {
		if !registered[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		t.Fatalf("routes missing from the document: %v\ndocumented routes that do not exist: %v", missing, extra)
	}
}
