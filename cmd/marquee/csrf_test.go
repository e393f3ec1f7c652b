package main

import (
	"net/http"
	"strings"
	"testing"

	"marquee/modules/identity"
	"marquee/platform/httpx"
	"marquee/platform/testkit"
)

// Besides the CSRF header, an unsafe request whose Origin is not ours is refused before
// any handler runs, through the real server: a sign-in posted from another site never reaches the
// password check, while the same request from the app's own origin does (and fails on the
// password).
func TestForeignOriginIsRefused(t *testing.T) {
	s := testkit.Start(t, testkit.Dialects()[0], buildModules)
	signIn := identity.SignInRequest{Email: "nobody@example.com", Password: "not-the-password-1"}

	foreign := s.Client(t)
	foreign.Header = http.Header{"Origin": {"https://evil.example"}}
	r := foreign.Post("/signin", signIn).Expect(t, http.StatusForbidden)
	if !strings.Contains(string(r.Body), httpx.MsgCSRF) {
		t.Fatalf("foreign origin: %s", r.Body)
	}
	foreign.Get("/users/logout").Expect(t, http.StatusForbidden)

	own := s.Client(t)
	own.Header = http.Header{"Origin": {s.URL}}
	r = own.Post("/signin", signIn)
	if r.Status == http.StatusForbidden || strings.Contains(string(r.Body), httpx.MsgCSRF) {
		t.Fatalf("own origin refused: %d %s", r.Status, r.Body)
	}
}
