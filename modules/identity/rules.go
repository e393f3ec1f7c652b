package identity

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"marquee/platform/apperr"
)

// Input rules of sign-up and the password forms (A §5). Each returns the message to show, or "".

// companyNameKey folds a company name for the uniqueness rule: case and runs of spaces do not make
// a different company.
func companyNameKey(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), " "))
}

// cleanCompanyName trims and collapses spaces.
func cleanCompanyName(name string) string { return strings.Join(strings.Fields(name), " ") }

// checkCompanyName: 2 to 100 characters, at least one letter or digit, and only letters, digits,
// spaces and the punctuation company names use (. , & ' - _ ( ) / + !).
func checkCompanyName(name string) string {
	name = cleanCompanyName(name)
	n := utf8.RuneCountInString(name)
	if n < 2 || n > 100 {
		return MsgInvalidCompanyName
	}
	alnum := false
	for _, r := range name {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			alnum = true
		case r == ' ' || strings.ContainsRune(".,&'-_()/+!", r):
		default:
			return MsgInvalidCompanyName
		}
	}
	if !alnum {
		return MsgInvalidCompanyName
	}
	return ""
}

// normalizeEmail trims and lower-cases an email address.
func normalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// checkEmail: a single plain address (no display name), at most 254 characters, with a dot in the
// domain.
func checkEmail(email string) string {
	if email == "" || len(email) > 254 || strings.ContainsAny(email, " \t\r\n<>\"") {
		return MsgInvalidEmail
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || addr.Name != "" {
		return MsgInvalidEmail
	}
	at := strings.LastIndexByte(email, '@')
	domain := email[at+1:]
	if at < 1 || !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return MsgInvalidEmail
	}
	return ""
}

// cleanPhone keeps a phone number as typed, trimmed.
func cleanPhone(phone string) string { return strings.TrimSpace(phone) }

// checkPhone: optional; when given, 7 to 15 digits (E.164), with only spaces, dots, dashes,
// parentheses and a leading + around them.
func checkPhone(phone string) string {
	if phone == "" {
		return ""
	}
	if len(phone) > 32 {
		return MsgInvalidPhone
	}
	digits := 0
	for i, r := range phone {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '+' && i == 0:
		case strings.ContainsRune(" .-()", r):
		default:
			return MsgInvalidPhone
		}
	}
	if digits < 7 || digits > 15 {
		return MsgInvalidPhone
	}
	return ""
}

// commonPasswords are frequent passwords long enough to pass the length rule (ASVS V2.1.7 asks
// for a breached-password check; this list covers the obvious ones without a network call).
var commonPasswords = map[string]bool{
	"password1234": true, "password12345": true, "password123456": true, "123456789012": true,
	"1234567890123": true, "12345678901234": true, "qwertyuiopas": true, "qwerty123456": true,
	"iloveyou1234": true, "passwordpassword": true, "administrator": true, "letmein12345": true,
	"welcome12345": true, "111111111111": true, "000000000000": true, "abcdefghijkl": true,
	"marquee12345": true, "billboard123": true, "changeme1234": true, "1q2w3e4r5t6y": true,
}

// checkPassword: 12 to 128 characters (ASVS V2.1.1-2), counted in characters, not bytes; not a
// well-known password.
func checkPassword(password string) string {
	n := utf8.RuneCountInString(password)
	switch {
	case n < MinPasswordLength:
		return MsgWeakPassword
	case n > MaxPasswordLength:
		return MsgLongPassword
	case commonPasswords[strings.ToLower(password)]:
		return MsgCommonPassword
	}
	return ""
}

// checkName: optional; letters, spaces, apostrophes, dots and dashes, at most 50 characters.
func checkName(name string) string {
	if utf8.RuneCountInString(name) > 50 {
		return MsgInvalidName
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !strings.ContainsRune(" '.-", r) {
			return MsgInvalidName
		}
	}
	return ""
}

// validateSignUp checks the whole form and returns every field's message at once, normalising the
// request in place.
func validateSignUp(req *SignUpRequest) error {
	req.Company = cleanCompanyName(req.Company)
	req.Email = normalizeEmail(req.Email)
	req.Phone = cleanPhone(req.Phone)
	fields := map[string]string{}
	if m := checkCompanyName(req.Company); m != "" {
		fields["company"] = m
	}
	if m := checkEmail(req.Email); m != "" {
		fields["email"] = m
	}
	if m := checkPhone(req.Phone); m != "" {
		fields["phone"] = m
	}
	if m := checkPassword(req.Password); m != "" {
		fields["password"] = m
	}
	if req.Phone == "" {
		req.SendPhoneZoho = false // consent is asked only when a phone is given (A §5)
	}
	return fieldsError(fields)
}

// fieldsError returns EINVALID for the fields, or nil when there are none. With one field its
// message is the error's message.
func fieldsError(fields map[string]string) error {
	if len(fields) == 0 {
		return nil
	}
	msg := "Please correct the highlighted fields."
	if len(fields) == 1 {
		for _, m := range fields {
			msg = m
		}
	}
	return apperr.Invalid(msg, fields)
}
