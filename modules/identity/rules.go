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
	if m := checkPassword(req.Password, req.Email, req.Company); m != "" {
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
