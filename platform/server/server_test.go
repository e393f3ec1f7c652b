package server_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"marquee/platform/analytics"
	"marquee/platform/auth"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

func noModules(*server.Kernel) ([]server.Module, auth.PrincipalLoader, error) {
	return nil, nobody{}, nil
}

type nobody struct{}

func (nobody) LoadPrincipal(context.Context, string) (*auth.Principal, error) {
	return nil, nil
}

var web = fstest.MapFS{
	"index.html":           {Data: []byte("<!doctype html><div id=root></div>")},
	"assets/app-3f9a1c.js": {Data: []byte("console.log('app')")},
	"favicon.svg":          {Data: []byte("<svg/>")},
}

func TestHealthAndSinglePageApp(t *testing.T) {
	s := testkit.Start(t, testkit.Dialects()[0], noModules, testkit.WithWeb(web))
	c := s.Client(t)

	if got := c.Get("/healthz").Expect(t, 200).Map(t); got["status"] != "ok" {
		t.Fatalf("healthz = %v", got)
	}
	if got := c.Get("/readyz").Expect(t, 200).Map(t); got["status"] != "ready" {
		t.Fatalf("readyz = %v", got)
	}

	for _, path := range []string{"/", "/dashboard", "/campaigns/0190a000-0000-7000-8000-000000000000", "/reset-password?token=x"} {
		res := c.Get(path).Expect(t, 200)
		if !strings.Contains(string(res.Body), "id=root") || res.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("%s: %s %v", path, res.Body, res.Header)
		}
	}
	asset := c.Get("/assets/app-3f9a1c.js").Expect(t, 200)
	if !strings.Contains(asset.Header.Get("Cache-Control"), "immutable") || string(asset.Body) != "console.log('app')" {
		t.Fatalf("asset: %v %s", asset.Header, asset.Body)
	}
	c.Get("/assets/app-old.js").Expect(t, 404)
	c.Get("/api/nothing-here").Expect(t, 404)
	if res := c.Post("/nowhere", "{}").Expect(t, 404); res.Map(t)["success"] != false {
		t.Fatal("unknown POST must answer the error envelope")
	}
	if c.Get("/healthz").Header.Get("X-Content-Type-Options") != "nosniff" || c.Get("/healthz").Header.Get("X-Request-Id") == "" {
		t.Fatal("security headers or request id missing")
	}
}

func TestPageViewsAreRecordedWithoutQueryStrings(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := testkit.Start(t, dialect, noModules)
		c := s.Client(t)
		c.Post("/api/analytics/pageviews", map[string]string{"path": "/reset-password?token=secret", "referrer": "/login"}).Expect(t, 204)
		c.Post("/api/analytics/pageviews", map[string]string{"path": "/dashboard"}).Expect(t, 204)
		c.Post("/api/analytics/pageviews", map[string]string{"path": "dashboard"}).Expect(t, 400)
		c.Post("/api/analytics/pageviews", map[string]string{"path": "/" + strings.Repeat("a", 600)}).Expect(t, 400)

		for i := 0; i < analytics.MaxViewsPerMinute; i++ {
			if res := c.Post("/api/analytics/pageviews", map[string]string{"path": "/faq"}); res.Status == 429 {
				break
			}
		}
		c.Post("/api/analytics/pageviews", map[string]string{"path": "/faq"}).Expect(t, 429)
		s.Kernel.DB.Exec("DELETE FROM analytics_page_views WHERE path = ?", "/faq")

		var paths []string
		s.Kernel.DB.Raw("SELECT path FROM analytics_page_views ORDER BY path").Scan(&paths)
		if strings.Join(paths, ",") != "/dashboard,/reset-password" {
			t.Fatalf("stored paths = %v", paths)
		}
	})
}

func TestJobsAreRegistered(t *testing.T) {
	s := testkit.Start(t, testkit.Dialects()[0], noModules)
	sched := s.Kernel.Scheduler(nil)
	got := strings.Join(sched.Jobs(), ",")
	for _, want := range []string{"sessions.delete-expired", "mail.deliver", "events.dispatch"} {
		if !strings.Contains(got, want) {
			t.Errorf("job %s not registered (have %s)", want, got)
		}
	}
	if err := sched.RunNow(t.Context(), "sessions.delete-expired"); err != nil {
		t.Fatal(err)
	}
}
