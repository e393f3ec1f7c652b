package main

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"marquee/modules/identity"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/testkit"
)

// Signed-in requests answer from an in-process session cache, yet a logout, a disabled
// account and a password change end the session at once on every replica. On PostgreSQL two
// servers share one database (two replicas, each with its own cache); SQLite is one process, so A
// and B are the same server. B has the session cached before each revocation.
func TestRevocationReachesEveryReplica(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		a := testkit.Start(t, dialect, buildModules)
		b := a
		if dialect == db.Postgres {
			url := testkit.PostgresURL(t)
			a = testkit.Start(t, dialect, buildModules, testkit.WithDatabaseURL(url))
			b = testkit.Start(t, dialect, buildModules, testkit.WithDatabaseURL(url))
			if err := a.Kernel.Migrate(a.Modules); err != nil {
				t.Fatal(err)
			}
		}
		svc := identityService(a.Modules)
		const password = "a replica password"
		signIn := func(email string) (onA, onB *testkit.Client) {
			onA = a.Client(t)
			onA.Post("/signin", identity.SignInRequest{Email: email, Password: password}).Expect(t, 200)
			// The same browser's cookie, sent to the other replica (its own jar: A's logout
			// answer clears A's, and B must be asked with the cookie all the same).
			onB = b.Client(t)
			aURL, _ := url.Parse(a.URL)
			bURL, _ := url.Parse(b.URL)
			onB.HTTP.Jar.SetCookies(bURL, onA.HTTP.Jar.Cookies(aURL))
			// The sign-in wrote the user, which ends every cached entry and holds off caching
			// for a moment; then B caches the session on its next read.
			time.Sleep(db.WatchSettle + 100*time.Millisecond)
			for range 2 {
				onB.Get("/users/currentUser").Expect(t, 200)
			}
			var token string
			for _, c := range onB.HTTP.Jar.Cookies(bURL) {
				if c.Name == auth.CookieName {
					token = c.Value
				}
			}
			if !b.Kernel.Sessions.Cached(token) {
				t.Fatalf("%s: the session is not cached on B", email)
			}
			return onA, onB
		}
		// endsOnB fails unless B refuses the session right away (within the time a change takes to
		// reach another replica: a PostgreSQL notice, milliseconds).
		endsOnB := func(what string, c *testkit.Client) {
			t.Helper()
			start := time.Now()
			for c.Get("/users/currentUser").Status != http.StatusUnauthorized {
				if time.Since(start) > 500*time.Millisecond {
					t.Fatalf("%s: replica B still accepts the session after %s", what, time.Since(start))
				}
				time.Sleep(time.Millisecond)
			}
			t.Logf("%s: refused on B after %s", what, time.Since(start))
		}
		for i, email := range []string{"logout@replica.test", "disable@replica.test", "password@replica.test"} {
			if _, _, err := svc.CreateUser(t.Context(), identity.CreateUserRequest{Email: email, Password: password, CompanyName: "Replica Co " + string(rune('A'+i))}); err != nil {
				t.Fatal(err)
			}
		}

		onA, onB := signIn("logout@replica.test")
		onA.Get("/users/logout").Expect(t, 200)
		endsOnB("logout", onB)

		_, onB = signIn("disable@replica.test")
		if err := a.Kernel.DB.Exec("UPDATE identity_users SET status = ? WHERE email = ?", identity.StatusDisabled, "disable@replica.test").Error; err != nil {
			t.Fatal(err)
		}
		endsOnB("disable", onB)

		// A password change ends the user's other sessions, here a second browser on B.
		onA, _ = signIn("password@replica.test")
		_, other := signIn("password@replica.test")
		onA.Put("/users/password", identity.ChangePasswordRequest{CurrentPassword: password, Password: "a new replica password"}).Expect(t, 200)
		endsOnB("password change", other)
		onA.Get("/users/currentUser").Expect(t, 200) // the session that changed it goes on
	})
}

// The cache never answers for a session past its idle expiry, nor during a database outage.
func TestCachedSessionExpiresAndOutageAnswers503(t *testing.T) {
	s := testkit.Start(t, testkit.Dialects()[0], buildModules)
	svc := identityService(s.Modules)
	if _, _, err := svc.CreateUser(t.Context(), identity.CreateUserRequest{Email: "idle@replica.test", Password: "an idle password", CompanyName: "Idle Co"}); err != nil {
		t.Fatal(err)
	}
	c := s.Client(t)
	c.Post("/signin", identity.SignInRequest{Email: "idle@replica.test", Password: "an idle password"}).Expect(t, 200)
	c.Get("/users/loggedin").Expect(t, 200)
	c.Get("/users/loggedin").Expect(t, 200) // cached
	s.Clock.Advance(s.Kernel.Config.SessionIdleTimeout + time.Second)
	if got := c.Get("/users/loggedin").Map(t); got["loggedin"] != false {
		t.Fatalf("idle session still signed in: %v", got)
	}

	c = s.Client(t)
	c.Post("/signin", identity.SignInRequest{Email: "idle@replica.test", Password: "an idle password"}).Expect(t, 200)
	c.Get("/users/loggedin").Expect(t, 200)
	c.Get("/users/loggedin").Expect(t, 200)
	if err := db.Close(s.Kernel.DB); err != nil {
		t.Fatal(err)
	}
	// The first failing query ends the cache; a signed-in call then answers 503, the cookie kept.
	c.Get("/users/currentUser").Expect(t, http.StatusServiceUnavailable)
	res := c.Get("/users/loggedin").Expect(t, http.StatusServiceUnavailable)
	if res.Map(t)["message"] != auth.MsgUnavailable {
		t.Fatalf("outage: %s", res.Body)
	}
}
