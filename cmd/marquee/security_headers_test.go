package main

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"marquee/platform/testkit"
	"marquee/webapp"
)

// Every answer, HTML and API alike, carries the security headers; the policy lets the
// build's own inline scripts run (each by its hash, recomputed here from the page as served) and no
// other inline script, and allows the map's tile server. HSTS is sent when BASE_URL is https.
func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	s := testkit.Start(t, testkit.Dialects()[0], buildModules, testkit.WithWeb(webapp.Dist()),
		testkit.WithEnv("BASE_URL", "https://marquee.example"), testkit.WithEnv("TILE_URL", "https://{s}.tiles.example/{z}/{x}/{y}.png"))
	c := s.Client(t)
	var csp string
	for _, path := range []string{"/", "/login", "/dashboard", "/api/campaigns/count", "/users/loggedin", "/healthz", "/api/openapi.json", "/no/such/page"} {
		r := c.Get(path)
		h := r.Header
		csp = h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "img-src 'self' data: blob: https://*.tiles.example"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		// The app frames a report's PDF, from our own origin's report routes, and nothing else.
		if frames := directive(csp, "frame-src"); frames != "frame-src https://marquee.example/api/reports/" {
			t.Errorf("%s: %q", path, frames)
		}
		scripts := directive(csp, "script-src")
		if strings.Contains(scripts, "unsafe-inline") || strings.Contains(scripts, "unsafe-eval") || strings.Contains(scripts, "stripe") {
			t.Errorf("%s: script-src %q", path, scripts)
		}
		if h.Get("Referrer-Policy") == "" || !strings.Contains(h.Get("Permissions-Policy"), "camera=()") ||
			h.Get("Strict-Transport-Security") != "max-age=31536000; includeSubDomains" {
			t.Errorf("%s: headers %v", path, h)
		}
	}
	// The prerendered landing page's inline scripts are allowed, each by its own hash.
	page := string(c.Get("/").Expect(t, http.StatusOK).Body)
	found := 0
	for rest := page; ; {
		i := strings.Index(rest, "<script>")
		if i < 0 {
			break
		}
		rest = rest[i+len("<script>"):]
		end := strings.Index(rest, "</script>")
		sum := sha256.Sum256([]byte(rest[:end]))
		if h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(directive(csp, "script-src"), h) {
			t.Errorf("inline script %.60q is not allowed by %s", rest[:end], h)
		}
		found++
	}
	if found == 0 && strings.Contains(page, "__staticRouterHydrationData") {
		t.Fatal("no inline script found in a prerendered page that has one")
	}
	t.Logf("%d inline scripts of / allowed by hash", found)

	// Over http (development), no HSTS.
	plain := testkit.Start(t, testkit.Dialects()[0], buildModules)
	if h := plain.Client(t).Get("/healthz").Header; h.Get("Strict-Transport-Security") != "" || h.Get("Content-Security-Policy") == "" {
		t.Errorf("http: %v", h)
	}
}

// directive is one directive of a policy, "" when absent.
func directive(policy, name string) string {
	for _, d := range strings.Split(policy, ";") {
		if d = strings.TrimSpace(d); strings.HasPrefix(d, name+" ") {
			return d
		}
	}
	return ""
}
