package identity_test

import (
	"marquee/platform/server"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"marquee/modules/identity"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/testkit"
)

func start(t *testing.T, dialect string, opts ...testkit.Option) *testkit.Server {
	return testkit.Start(t, dialect, server.Compose(identity.Component), opts...)
}

const goodPassword = "correct horse battery"

func signUp(t *testing.T, c *testkit.Client, company, email string) *testkit.Response {
	t.Helper()
	return c.Post("/signup", identity.SignUpRequest{Company: company, Email: email, Phone: "+1 415 555 0100", Password: goodPassword, SendPhoneZoho: true})
}

func TestSignUpSignInLogout(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := start(t, dialect)
		c := s.Client(t)

		c.Get("/users/loggedin").Expect(t, 200)
		if c.Get("/users/loggedin").Map(t)["loggedin"] != false {
			t.Fatal("anonymous client reported logged in")
		}
		if got := c.Get("/company-exists?name=Sunrise%20Coffee").Expect(t, 200).Map(t); got["exists"] != false {
			t.Fatalf("company-exists before sign-up = %v", got)
		}

		var res identity.UserResponse
		signUp(t, c, "Sunrise Coffee", "Ada@Example.com").Expect(t, 201).JSON(t, &res)
		if !res.Success || res.User.Local.Email != "ada@example.com" || res.User.Company.Name != "Sunrise Coffee" ||
			res.User.Company.Type != identity.CompanyStandard || !res.User.SendPhoneZoho || !res.User.TourCampaignShow {
			t.Fatalf("sign-up answer = %+v", res)
		}
		if strings.Contains(string(signUp(t, s.Client(t), "Other", "x@example.com").Body), "password_hash") {
			t.Fatal("a password hash was serialised")
		}
		if c.Get("/users/loggedin").Map(t)["loggedin"] != true {
			t.Fatal("sign-up did not sign in")
		}
		var me identity.User
		c.Get("/users/currentUser").Expect(t, 200).JSON(t, &me)
		if me.ID != res.User.ID {
			t.Fatalf("currentUser = %+v", me)
		}
		var co identity.Company
		c.Get("/companies/currentCompany").Expect(t, 200).JSON(t, &co)
		if co.Name != "Sunrise Coffee" || co.UserCount != 1 {
			t.Fatalf("currentCompany = %+v", co)
		}
		if got := c.Get("/company-exists?name=sunrise%20%20COFFEE").Map(t); got["exists"] != true {
			t.Fatalf("company-exists after sign-up = %v", got)
		}

		// The session cookie as an attacker would have copied it before the logout.
		base, _ := url.Parse(s.URL)
		stolen := s.Client(t)
		stolen.HTTP.Jar.SetCookies(base, c.HTTP.Jar.Cookies(base))
		stolen.Get("/users/currentUser").Expect(t, 200)
		if got := c.Get("/users/logout").Expect(t, 200).Map(t); got["message"] != identity.MsgLoggedOut {
			t.Fatalf("logout = %v", got)
		}
		c.Get("/users/currentUser").Expect(t, 401)
		// Logout ends the session on the server: the copied token, replayed, is refused.
		stolen.Get("/users/currentUser").Expect(t, 401)
		stolen.Get("/users/loggedin").Expect(t, 200)
		if stolen.Get("/users/loggedin").Map(t)["loggedin"] != false {
			t.Fatal("a token replayed after logout is still signed in")
		}

		if got := c.Post("/signin", identity.SignInRequest{Email: "ada@example.com", Password: "wrong password!"}).Expect(t, 401).Map(t); got["message"] != identity.MsgInvalidCredentials {
			t.Fatalf("wrong password = %v", got)
		}
		if got := c.Post("/signin", identity.SignInRequest{Email: "nobody@example.com", Password: goodPassword}).Expect(t, 401).Map(t); got["message"] != identity.MsgInvalidCredentials {
			t.Fatalf("unknown email = %v", got)
		}
		c.Post("/signin", identity.SignInRequest{Email: " ADA@example.com ", Password: goodPassword}).Expect(t, 200).JSON(t, &res)
		if res.User.SignInCount != 1 || res.User.LastLogin == nil {
			t.Fatalf("sign-in not recorded: %+v", res.User)
		}
		c.Get("/users/currentUser").Expect(t, 200)
	})
}

func TestSignUpRefusesBadInputAndLeavesNothing(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := start(t, dialect)
		signUp(t, s.Client(t), "Sunrise Coffee", "ada@example.com").Expect(t, 201)

		cases := []struct {
			name   string
			body   any
			status int
			field  string
			msg    string
		}{
			{"duplicate company", identity.SignUpRequest{Company: "SUNRISE  coffee", Email: "new@example.com", Password: goodPassword}, 409, "", identity.MsgCompanyTaken},
			{"duplicate email", identity.SignUpRequest{Company: "Fresh Co", Email: "ADA@example.com", Password: goodPassword}, 409, "", identity.MsgEmailTaken},
			{"weak password", identity.SignUpRequest{Company: "Fresh Co", Email: "new@example.com", Password: "short"}, 400, "password", identity.MsgWeakPassword},
			{"malformed email", identity.SignUpRequest{Company: "Fresh Co", Email: "not-an-email", Password: goodPassword}, 400, "email", identity.MsgInvalidEmail},
			{"bad company", identity.SignUpRequest{Company: "<>", Email: "new@example.com", Password: goodPassword}, 400, "company", identity.MsgInvalidCompanyName},
			{"bad phone", identity.SignUpRequest{Company: "Fresh Co", Email: "new@example.com", Phone: "call me", Password: goodPassword}, 400, "phone", identity.MsgInvalidPhone},
			{"not json", "{company:", 400, "", "The request body is not valid JSON."},
			{"wrong type", `{"company": 42}`, 400, "company", "Invalid value."},
			{"oversized json", `{"company":"` + strings.Repeat("a", 2<<20) + `"}`, 413, "", "The request is too large."},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got := s.Client(t).Post("/signup", tc.body).Expect(t, tc.status).Map(t)
				if got["message"] != tc.msg || got["success"] != false {
					t.Fatalf("answer = %v", got)
				}
				if tc.field != "" {
					fields, _ := got["errors"].(map[string]any)
					if fields[tc.field] == nil {
						t.Fatalf("no error for %s: %v", tc.field, got)
					}
				}
			})
		}
		// Nothing half-made: "Fresh Co" never got a company row, and the email is still free.
		if got := s.Client(t).Get("/company-exists?name=Fresh%20Co").Map(t); got["exists"] != false {
			t.Fatalf("a refused sign-up left its company behind: %v", got)
		}
		signUp(t, s.Client(t), "Fresh Co", "new@example.com").Expect(t, 201)
	})
}

func TestConcurrentSignUpsOfOneCompanyMakeOne(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := start(t, dialect)
		const n = 8
		var wg sync.WaitGroup
		statuses := make(chan int, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				c := s.Client(t)
				statuses <- c.Post("/signup", identity.SignUpRequest{Company: "Race Co", Email: "racer" + string(rune('a'+i)) + "@example.com", Password: goodPassword}).Status
			}(i)
		}
		wg.Wait()
		close(statuses)
		created, conflicts := 0, 0
		for st := range statuses {
			switch st {
			case 201:
				created++
			case 409:
				conflicts++
			default:
				t.Errorf("unexpected status %d", st)
			}
		}
		if created != 1 || conflicts != n-1 {
			t.Fatalf("created %d, conflicts %d", created, conflicts)
		}
	})
}

var linkRE = regexp.MustCompile(`http://marquee\.test/reset-password\?token=([A-Za-z0-9_-]+)`)

func TestPasswordResetIsSingleUseAndExpires(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := start(t, dialect)
		signUp(t, s.Client(t), "Sunrise Coffee", "ada@example.com").Expect(t, 201)
		c := s.Client(t)

		if got := c.Post("/users/reset-password", identity.ResetPasswordRequest{Email: "bad"}).Expect(t, 400).Map(t); got["message"] != identity.MsgInvalidEmail {
			t.Fatalf("bad email = %v", got)
		}
		// An unknown email gets the same answer and no mail.
		if got := c.Post("/users/reset-password", identity.ResetPasswordRequest{Email: "nobody@example.com"}).Expect(t, 200).Map(t); got["message"] != identity.MsgResetSent {
			t.Fatalf("unknown email = %v", got)
		}
		c.Post("/users/reset-password", identity.ResetPasswordRequest{Email: "ADA@example.com"}).Expect(t, 200)
		mails := s.DeliverMail(t)
		var token string
		for _, m := range mails {
			if strings.Contains(m, "nobody@example.com") {
				t.Fatal("mail sent to an unknown address")
			}
			if mm := linkRE.FindStringSubmatch(m); mm != nil {
				token = mm[1]
			}
		}
		if token == "" {
			t.Fatalf("no reset link in %d mails", len(mails))
		}
		if got := c.Get("/users/token/"+token).Expect(t, 200).Map(t); got["email"] != "ada@example.com" {
			t.Fatalf("token info = %v", got)
		}
		c.Get("/users/token/not-a-token").Expect(t, 400)

		weak := c.Post("/users/setPassword", identity.SetPasswordRequest{Token: token, Password: "short"}).Expect(t, 400).Map(t)
		if weak["message"] != identity.MsgPasswordResetFailed {
			t.Fatalf("weak = %v", weak)
		}
		if got := c.Post("/users/setPassword", identity.SetPasswordRequest{Token: token, Password: "a brand new secret"}).Expect(t, 200).Map(t); got["message"] != identity.MsgPasswordReset {
			t.Fatalf("reset = %v", got)
		}
		// Replayed: refused, and the password stays the one just set.
		replay := c.Post("/users/setPassword", identity.SetPasswordRequest{Token: token, Password: "an attacker's choice"}).Expect(t, 400).Map(t)
		if fields, _ := replay["errors"].(map[string]any); fields["token"] != identity.MsgTokenInvalid {
			t.Fatalf("replay = %v", replay)
		}
		c.Post("/signin", identity.SignInRequest{Email: "ada@example.com", Password: goodPassword}).Expect(t, 401)
		c.Post("/signin", identity.SignInRequest{Email: "ada@example.com", Password: "a brand new secret"}).Expect(t, 200)

		// Expired: a link older than RESET_TOKEN_TTL is refused.
		c.Post("/users/reset-password", identity.ResetPasswordRequest{Email: "ada@example.com"}).Expect(t, 200)
		mails = s.DeliverMail(t)
		expired := linkRE.FindStringSubmatch(mails[len(mails)-1])[1]
		s.Clock.Advance(time.Hour + time.Second)
		c.Get("/users/token/"+expired).Expect(t, 400)
		c.Post("/users/setPassword", identity.SetPasswordRequest{Token: expired, Password: "too late for this"}).Expect(t, 400)
	})
}

func TestResetEndsOtherSessions(t *testing.T) {
	s := start(t, testkit.Dialects()[0])
	victim := s.Client(t)
	signUp(t, victim, "Sunrise Coffee", "ada@example.com").Expect(t, 201)
	s.Client(t).Post("/users/reset-password", identity.ResetPasswordRequest{Email: "ada@example.com"}).Expect(t, 200)
	token := linkRE.FindStringSubmatch(strings.Join(s.DeliverMail(t), "\n"))[1]
	s.Client(t).Post("/users/setPassword", identity.SetPasswordRequest{Token: token, Password: "a brand new secret"}).Expect(t, 200)
	victim.Get("/users/currentUser").Expect(t, 401)
}

func TestAccessLinkSetsFirstPassword(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := start(t, dialect)
		var svc identity.Service
		for _, m := range s.Modules {
			svc = m.(*identity.Module).Service()
		}
		u, link, err := svc.CreateUser(t.Context(), identity.CreateUserRequest{Email: "invitee@example.com", CompanyName: "Invited Co"})
		if err != nil {
			t.Fatal(err)
		}
		if u.Local.Status != identity.StatusInvited || !strings.HasPrefix(link, "http://marquee.test/access?token=") {
			t.Fatalf("user %+v, link %q", u, link)
		}
		token := strings.TrimPrefix(link, "http://marquee.test/access?token=")
		c := s.Client(t)
		c.Post("/signin", identity.SignInRequest{Email: "invitee@example.com", Password: "anything at all"}).Expect(t, 401)
		if got := c.Get("/api/users/get-password?token="+token).Expect(t, 200).Map(t); got["email"] != "invitee@example.com" || got["company_name"] != "Invited Co" {
			t.Fatalf("access info = %v", got)
		}
		var res identity.UserResponse
		c.Post("/users/set-first-password", identity.SetPasswordRequest{Token: token, Password: "my first password", FirstName: "Ivy", LastName: "Invitee"}).Expect(t, 200).JSON(t, &res)
		if res.User.Local.Status != identity.StatusActive || res.User.Local.FirstName != "Ivy" {
			t.Fatalf("set-first-password = %+v", res)
		}
		c.Get("/users/currentUser").Expect(t, 200)
		c.Get("/api/users/get-password?token="+token).Expect(t, 400)
		// A reset token does not work as an access token, and the other way round.
		c.Get("/users/token/"+token).Expect(t, 400)

		// An invited user who uses "forgot password" instead of the access link ends up active too.
		_, _, err = svc.CreateUser(t.Context(), identity.CreateUserRequest{Email: "second@example.com", CompanyName: "Invited Co"})
		if err != nil {
			t.Fatal(err)
		}
		c.Post("/users/reset-password", identity.ResetPasswordRequest{Email: "second@example.com"}).Expect(t, 200)
		reset := linkRE.FindStringSubmatch(strings.Join(s.DeliverMail(t), "\n"))[1]
		c.Post("/users/setPassword", identity.SetPasswordRequest{Token: reset, Password: "second first password"}).Expect(t, 200)
		var in identity.UserResponse
		c.Post("/signin", identity.SignInRequest{Email: "second@example.com", Password: "second first password"}).Expect(t, 200).JSON(t, &in)
		if in.User.Local.Status != identity.StatusActive {
			t.Fatalf("status after reset = %s", in.User.Local.Status)
		}
		c.Get("/users/currentUser").Expect(t, 200)
	})
}

func TestChangePassword(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := start(t, dialect)
		c, other := s.Client(t), s.Client(t)
		signUp(t, c, "Sunrise Coffee", "ada@example.com").Expect(t, 201)
		other.Post("/signin", identity.SignInRequest{Email: "ada@example.com", Password: goodPassword}).Expect(t, 200)

		got := c.Put("/users/password", identity.ChangePasswordRequest{CurrentPassword: "not my password", Password: "a new long secret"}).Expect(t, 400).Map(t)
		if got["message"] != identity.MsgCurrentPassword {
			t.Fatalf("wrong current = %v", got)
		}
		c.Put("/users/password", identity.ChangePasswordRequest{CurrentPassword: goodPassword, Password: "short"}).Expect(t, 400)
		c.Put("/users/password", identity.ChangePasswordRequest{CurrentPassword: goodPassword, Password: "a new long secret"}).Expect(t, 200)
		c.Get("/users/currentUser").Expect(t, 200)     // this session stays
		other.Get("/users/currentUser").Expect(t, 401) // the others end
		s.Client(t).Post("/signin", identity.SignInRequest{Email: "ada@example.com", Password: "a new long secret"}).Expect(t, 200)
	})
}

func TestSessionsExpire(t *testing.T) {
	s := start(t, testkit.Dialects()[0])
	c := s.Client(t)
	signUp(t, c, "Sunrise Coffee", "ada@example.com").Expect(t, 201)

	// Used within the idle timeout, the session lives on.
	for i := 0; i < 3; i++ {
		s.Clock.Advance(90 * time.Minute)
		c.Get("/users/currentUser").Expect(t, 200)
	}
	// The periodic logged-in check does not extend it (B §4).
	s.Clock.Advance(90 * time.Minute)
	c.Get("/users/loggedin").Expect(t, 200)
	s.Clock.Advance(31 * time.Minute)
	res := c.Get("/users/loggedin").Expect(t, 200)
	if res.Map(t)["loggedin"] != false {
		t.Fatal("idle session still live")
	}

	// Absolute expiry: a session used every hour still ends after SESSION_ABSOLUTE_TIMEOUT.
	c2 := s.Client(t)
	c2.Post("/signin", identity.SignInRequest{Email: "ada@example.com", Password: goodPassword}).Expect(t, 200)
	for i := 0; i < 71; i++ {
		s.Clock.Advance(time.Hour)
		c2.Get("/users/currentUser").Expect(t, 200)
	}
	s.Clock.Advance(time.Hour)
	c2.Get("/users/currentUser").Expect(t, 401)
}

func TestCSRFAndRateLimits(t *testing.T) {
	s := start(t, testkit.Dialects()[0], testkit.WithEnv("SIGNIN_RATE_LIMIT", "3"), testkit.WithEnv("RESET_RATE_LIMIT", "2"))
	c := s.Client(t)
	signUp(t, c, "Sunrise Coffee", "ada@example.com").Expect(t, 201)

	forged := s.Client(t)
	forged.NoXHR = true
	forged.Post("/signin", identity.SignInRequest{Email: "ada@example.com", Password: goodPassword}).Expect(t, 403)
	// A cross-site link cannot log the user out or change the tour flags.
	noXHR := *c
	noXHR.NoXHR = true
	noXHR.Get("/users/logout").Expect(t, 403)
	noXHR.Get("/users/disable-tour").Expect(t, 403)
	c.Get("/users/currentUser").Expect(t, 200)

	a := s.Client(t)
	for i := 0; i < 3; i++ {
		a.Post("/signin", identity.SignInRequest{Email: "ada@example.com", Password: "wrong password!"}).Expect(t, 401)
	}
	res := a.Post("/signin", identity.SignInRequest{Email: "ada@example.com", Password: goodPassword}).Expect(t, 429)
	if res.Map(t)["message"] != identity.MsgTooManyAttempts || res.Header.Get("Retry-After") == "" {
		t.Fatalf("429 = %s %v", res.Body, res.Header)
	}
	s.Clock.Advance(time.Minute)
	a.Post("/signin", identity.SignInRequest{Email: "ada@example.com", Password: goodPassword}).Expect(t, 200)

	for i := 0; i < 2; i++ {
		a.Post("/users/reset-password", identity.ResetPasswordRequest{Email: "ada@example.com"}).Expect(t, 200)
	}
	a.Post("/users/reset-password", identity.ResetPasswordRequest{Email: "ada@example.com"}).Expect(t, 429)
}

func TestTourFlags(t *testing.T) {
	s := start(t, testkit.Dialects()[0])
	c := s.Client(t)
	signUp(t, c, "Sunrise Coffee", "ada@example.com").Expect(t, 201)
	var first, second identity.TourResponse
	c.Get("/users/check-tutorial").Expect(t, 200).JSON(t, &first)
	c.Get("/users/check-tutorial").Expect(t, 200).JSON(t, &second)
	if first.TutorialCampaignShowed || !second.TutorialCampaignShowed {
		t.Fatalf("tutorial video should show once: %+v then %+v", first, second)
	}
	var tour identity.TourResponse
	c.Get("/users/disable-tour").Expect(t, 200).JSON(t, &tour)
	if tour.TourCampaignShow {
		t.Fatal("disable-tour did not disable")
	}
	c.Get("/users/enable-tour").Expect(t, 200).JSON(t, &tour)
	if !tour.TourCampaignShow {
		t.Fatal("enable-tour did not enable")
	}
}

func TestExpiredCookieGetsTheFlash(t *testing.T) {
	s := start(t, testkit.Dialects()[0])
	c := s.Client(t)
	signUp(t, c, "Sunrise Coffee", "ada@example.com").Expect(t, 201)
	s.Clock.Advance(3 * time.Hour)
	res := c.Get("/users/currentUser").Expect(t, http.StatusUnauthorized)
	if res.Map(t)["message"] != "Your session has expired please login again." {
		t.Fatalf("401 = %s", res.Body)
	}
	found := false
	for _, v := range res.Header.Values("Set-Cookie") {
		if strings.HasPrefix(v, "marquee_flash=") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no flash cookie in %v", res.Header.Values("Set-Cookie"))
	}
}

// When the database fails, a signed-in browser gets 503 and keeps its cookie: an outage must not
// sign everyone out.
func TestDatabaseOutageKeepsTheSession(t *testing.T) {
	s := start(t, testkit.Dialects()[0])
	c := s.Client(t)
	signUp(t, c, "Sunrise Coffee", "ada@example.com").Expect(t, 201)
	if err := db.Close(s.Kernel.DB); err != nil {
		t.Fatal(err)
	}
	res := c.Get("/users/currentUser").Expect(t, http.StatusServiceUnavailable)
	for _, v := range res.Header.Values("Set-Cookie") {
		if strings.HasPrefix(v, auth.CookieName+"=") {
			t.Fatalf("the session cookie was touched during an outage: %s", v)
		}
	}
	if strings.Contains(string(res.Body), "sql") {
		t.Fatalf("internals leaked: %s", res.Body)
	}
}

// TestCreateOnboardedUser: a user created Onboarded (the demo accounts) has the tour flag off,
// although the column defaults to on, and the tutorial shown; any other new user gets both (A §4).
func TestCreateOnboardedUser(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := start(t, dialect)
		svc := testkit.ModuleOf[*identity.Module](t, s).Service()
		done, _, err := svc.CreateUser(t.Context(), identity.CreateUserRequest{Email: "returning@example.com", Password: "a returning user 1", CompanyName: "Returning Co", Onboarded: true})
		if err != nil {
			t.Fatal(err)
		}
		fresh, _, err := svc.CreateUser(t.Context(), identity.CreateUserRequest{Email: "fresh@example.com", Password: "a brand new user 1", CompanyName: "Fresh Co"})
		if err != nil {
			t.Fatal(err)
		}
		if done.TourCampaignShow || !done.TutorialCampaignShowed || !fresh.TourCampaignShow || fresh.TutorialCampaignShowed {
			t.Fatalf("onboarded %+v, new %+v", done, fresh)
		}
	})
}
