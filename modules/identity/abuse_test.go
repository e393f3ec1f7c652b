package identity_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"marquee/modules/identity"
	"marquee/platform/testkit"
)

// Sign-ups are limited per client address, as sign-ins are: each costs a password hash.
func TestSignUpIsRateLimitedPerAddress(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := start(t, dialect, testkit.WithEnv("SIGNUP_RATE_LIMIT", "3"))
		signUp(t, s.Client(t), "Sunrise Coffee", "ada@example.com").Expect(t, 201)
		// The known email answers its 409 twice more; the fourth sign-up of the minute is refused,
		// even a good one, before its body is read.
		for range 2 {
			signUp(t, s.Client(t), "Other Co", "ada@example.com").Expect(t, 409)
		}
		res := signUp(t, s.Client(t), "Fresh Co", "new@example.com").Expect(t, 429)
		if res.Map(t)["message"] != identity.MsgTooManyAttempts || res.Header.Get("Retry-After") == "" {
			t.Fatalf("429 = %s %v", res.Body, res.Header)
		}
		if got := s.Client(t).Get("/company-exists?name=Fresh%20Co").Map(t); got["exists"] != false {
			t.Fatal("a rate-limited sign-up made its company")
		}
		s.Clock.Advance(time.Minute)
		signUp(t, s.Client(t), "Fresh Co", "new@example.com").Expect(t, 201)
	})
}

// A sign-up with a known email, or a taken company, answers 409 without hashing the password: with
// the production argon2id cost (19 MiB a hash), five of them allocate far less than one hash.
func TestKnownEmailSignUpCostsNoHash(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := start(t, dialect, testkit.WithProductionHashing())
		signUp(t, s.Client(t), "Sunrise Coffee", "ada@example.com").Expect(t, 201)
		c := s.Client(t)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 5 {
			signUp(t, c, "Other Co", "ADA@example.com").Expect(t, 409)
			signUp(t, c, "sunrise  coffee", "new@example.com").Expect(t, 409)
		}
		runtime.ReadMemStats(&after)
		const oneHash = 19 << 20
		if grown := after.TotalAlloc - before.TotalAlloc; grown >= oneHash {
			t.Fatalf("10 refused sign-ups allocated %d MiB: a password was hashed", grown>>20)
		}
	})
}

// One password rule on every path that sets a password: sign-up, reset, the
// /access link and the password change refuse a common password, one character repeated, and a
// password made of the account's email or company name.
func TestPasswordRuleOnEveryPath(t *testing.T) {
	const company, email = "Sunrise Coffee", "ada.lovelace@example.com"
	weak := map[string]string{
		"aaaaaaaaaaaa":               identity.MsgCommonPassword,
		strings.Repeat(" ", 12):      identity.MsgCommonPassword,
		"1qaz2wsx3edc":               identity.MsgCommonPassword, // in the embedded list, not in the old one
		"Sunshine1234":               "",                         // not on the list: a control
		"monkeymonkey":               identity.MsgCommonPassword,
		email:                        identity.MsgPersonalPassword,
		"Ada.Lovelace2026":           identity.MsgPersonalPassword,
		"Sunrise Coffee!!":           identity.MsgPersonalPassword,
		"sunrisecoffee ada.lovelace": identity.MsgPersonalPassword,
	}
	check := func(t *testing.T, path string, res *testkit.Response, pw, want string) {
		t.Helper()
		if want == "" {
			if res.Status >= 300 {
				t.Fatalf("%s %q refused: %s", path, pw, res.Body)
			}
			return
		}
		got := res.Expect(t, 400).Map(t)
		if fields, _ := got["errors"].(map[string]any); fields["password"] != want {
			t.Fatalf("%s %q: %v, want errors.password %q", path, pw, got, want)
		}
	}
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := start(t, dialect)
		svc := testkit.ModuleOf[*identity.Module](t, s).Service()

		// Sign-up: each weak password is refused with its field message; the control passes.
		for pw, want := range weak {
			if want == "" {
				continue
			}
			res := s.Client(t).Post("/signup", identity.SignUpRequest{Company: company, Email: email, Password: pw})
			check(t, "/signup", res, pw, want)
		}
		owner := s.Client(t)
		owner.Post("/signup", identity.SignUpRequest{Company: company, Email: email, Password: goodPassword}).Expect(t, 201)

		// Change: the current password is right, the new one is weak.
		for pw, want := range weak {
			if want == "" {
				continue
			}
			res := owner.Put("/users/password", identity.ChangePasswordRequest{CurrentPassword: goodPassword, Password: pw})
			check(t, "PUT /users/password", res, pw, want)
		}

		// Reset: the answer keeps the spec's message (A §5) and the field says why.
		s.Client(t).Post("/users/reset-password", identity.ResetPasswordRequest{Email: email}).Expect(t, 200)
		token := linkRE.FindStringSubmatch(strings.Join(s.DeliverMail(t), "\n"))[1]
		for pw, want := range weak {
			if want == "" {
				continue
			}
			res := s.Client(t).Post("/users/setPassword", identity.SetPasswordRequest{Token: token, Password: pw})
			check(t, "/users/setPassword", res, pw, want)
			if res.Map(t)["message"] != identity.MsgPasswordResetFailed {
				t.Fatalf("reset message = %s", res.Body)
			}
		}
		// The refusals did not use the link.
		check(t, "/users/setPassword", s.Client(t).Post("/users/setPassword", identity.SetPasswordRequest{Token: token, Password: "Sunshine1234"}), "Sunshine1234", "")

		// /access: an invited account of another company.
		_, link, err := svc.CreateUser(t.Context(), identity.CreateUserRequest{Email: "grace.hopper@example.com", CompanyName: "Harbor Freight Lines"})
		if err != nil {
			t.Fatal(err)
		}
		access := strings.TrimPrefix(link, "http://marquee.test/access?token=")
		for pw, want := range map[string]string{
			"grace.hopper@example.com": identity.MsgPersonalPassword,
			"GraceHopper123":           identity.MsgPersonalPassword,
			"harbor freight lines":     identity.MsgPersonalPassword,
			"bbbbbbbbbbbbbbbb":         identity.MsgCommonPassword,
			"qwerty123456":             identity.MsgCommonPassword,
		} {
			res := s.Client(t).Post("/users/set-first-password", identity.SetPasswordRequest{Token: access, Password: pw, FirstName: "Grace"})
			check(t, "/users/set-first-password", res, pw, want)
		}
		s.Client(t).Post("/users/set-first-password", identity.SetPasswordRequest{Token: access, Password: "a grace period of its own", FirstName: "Grace"}).Expect(t, 200)
	})
}
