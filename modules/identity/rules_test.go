package identity

import (
	"strings"
	"testing"
	"unicode/utf8"

	"marquee/platform/apperr"
)

func TestCompanyNameRules(t *testing.T) {
	for name, want := range map[string]string{
		"Acme":                   "",
		"  Sunrise   Coffee  ":   "",
		"Ben & Jerry's":          "",
		"Café Zoë (West)":        "",
		"A":                      MsgInvalidCompanyName,
		"":                       MsgInvalidCompanyName,
		"---":                    MsgInvalidCompanyName,
		"<script>":               MsgInvalidCompanyName,
		"Acme\x00Corp":           MsgInvalidCompanyName,
		strings.Repeat("a", 101): MsgInvalidCompanyName,
	} {
		if got := checkCompanyName(name); got != want {
			t.Errorf("checkCompanyName(%q) = %q, want %q", name, got, want)
		}
	}
	if companyNameKey("  Sunrise   COFFEE ") != companyNameKey("sunrise coffee") {
		t.Error("names differing only in case and spaces must fold to one key")
	}
}

func TestEmailRules(t *testing.T) {
	for email, ok := range map[string]bool{
		"ada@example.com":       true,
		"ada.l+ads@example.co":  true,
		"ada@localhost":         false,
		"Ada <ada@example.com>": false,
		"ada@@example.com":      false,
		"ada example@x.com":     false,
		"@example.com":          false,
		"ada@example.":          false,
		"":                      false,
	} {
		if got := checkEmail(email) == ""; got != ok {
			t.Errorf("checkEmail(%q) ok = %v, want %v", email, got, ok)
		}
	}
}

func TestPhoneAndPasswordRules(t *testing.T) {
	for phone, ok := range map[string]bool{"": true, "+1 (415) 555-0100": true, "415.555.0100": true, "12345": false, "call me": false, "++14155550100": false} {
		if got := checkPhone(phone) == ""; got != ok {
			t.Errorf("checkPhone(%q) ok = %v, want %v", phone, got, ok)
		}
	}
	for pw, want := range map[string]string{
		"short":                  MsgWeakPassword,
		"elevenchars":            MsgWeakPassword,
		"twelve chars":           "",
		"Password1234":           MsgCommonPassword,
		"ünïcödé-pässwörd":       "",
		strings.Repeat("x", 129): MsgLongPassword,
	} {
		if got := checkPassword(pw); got != want {
			t.Errorf("checkPassword(%q) = %q, want %q", pw, got, want)
		}
	}
}

func TestValidateSignUpReportsEveryField(t *testing.T) {
	req := SignUpRequest{Company: "x", Email: "nope", Phone: "abc", Password: "short", SendPhoneZoho: true}
	err := apperr.As(validateSignUp(&req))
	if err.Code != apperr.EINVALID {
		t.Fatalf("code = %s", err.Code)
	}
	for _, f := range []string{"company", "email", "phone", "password"} {
		if err.Fields[f] == "" {
			t.Errorf("no message for %s: %v", f, err.Fields)
		}
	}
	ok := SignUpRequest{Company: " Sunrise  Coffee ", Email: " Ada@Example.COM ", Password: "a long enough secret"}
	ok.SendPhoneZoho = true
	if err := validateSignUp(&ok); err != nil {
		t.Fatal(err)
	}
	if ok.Company != "Sunrise Coffee" || ok.Email != "ada@example.com" || ok.SendPhoneZoho {
		t.Fatalf("not normalised: %+v", ok)
	}
}

// FuzzValidateSignUp: whatever the input, validation never panics, an accepted form is normalised
// and within every bound, and no field is silently accepted that a rule refuses.
func FuzzValidateSignUp(f *testing.F) {
	f.Add("Sunrise Coffee", "ada@example.com", "+1 415 555 0100", "a long enough secret", true)
	f.Add("", "", "", "", false)
	f.Add("Ben & Jerry's", "x@y.z", "12345678", "ünïcödé-pässwörd", false)
	f.Add("\x00\xff", "a@b@c", "+++", strings.Repeat("p", 200), true)
	f.Fuzz(func(t *testing.T, company, email, phone, password string, consent bool) {
		req := SignUpRequest{Company: company, Email: email, Phone: phone, Password: password, SendPhoneZoho: consent}
		err := validateSignUp(&req)
		if err != nil {
			e := apperr.As(err)
			if e.Code != apperr.EINVALID || len(e.Fields) == 0 {
				t.Fatalf("refusal without field messages: %v", err)
			}
			return
		}
		if n := utf8.RuneCountInString(req.Company); n < 2 || n > 100 || req.Company != strings.TrimSpace(req.Company) {
			t.Fatalf("accepted company %q", req.Company)
		}
		if req.Email != strings.ToLower(req.Email) || checkEmail(req.Email) != "" {
			t.Fatalf("accepted email %q", req.Email)
		}
		if n := utf8.RuneCountInString(req.Password); n < MinPasswordLength || n > MaxPasswordLength {
			t.Fatalf("accepted password of %d characters", n)
		}
		if req.Phone == "" && req.SendPhoneZoho {
			t.Fatal("consent kept without a phone")
		}
	})
}
