package identity

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The password rule (ASVS V2.1, NIST 800-63B §5.1.1.2), one function for every path that sets a
// password: sign-up, reset, the /access link, a password change and the command line.

//go:embed passwords/common.txt.gz
var commonPasswordsGz []byte

// commonPasswords is the embedded list of frequent passwords (passwords/README.md), loaded on first
// use: about 49,000 entries.
var commonPasswords = sync.OnceValue(func() map[string]struct{} {
	zr, err := gzip.NewReader(bytes.NewReader(commonPasswordsGz))
	if err != nil {
		panic("identity: embedded password list: " + err.Error())
	}
	set := make(map[string]struct{}, 50000)
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		if p := sc.Text(); p != "" {
			set[p] = struct{}{}
		}
	}
	if err := sc.Err(); err != nil || len(set) < 10000 {
		panic("identity: embedded password list is damaged")
	}
	return set
})

// isCommonPassword reports whether password, lower-cased, is in the list, or is one entry of the
// list (or one character) said over and over: "monkeymonkey", "aaaaaaaaaaaa", twelve spaces.
func isCommonPassword(password string) bool {
	p := strings.ToLower(password)
	list := commonPasswords()
	if _, ok := list[p]; ok {
		return true
	}
	if unit := repeatedUnit(p); unit != "" {
		if utf8.RuneCountInString(unit) == 1 {
			return true
		}
		_, ok := list[unit]
		return ok
	}
	return false
}

// repeatedUnit returns the shortest string that p repeats at least twice, or "".
func repeatedUnit(p string) string {
	for size := 1; size <= len(p)/2; size++ {
		if len(p)%size == 0 && strings.Repeat(p[:size], len(p)/size) == p && utf8.ValidString(p[:size]) {
			return p[:size]
		}
	}
	return ""
}

// fold keeps the lower-cased letters and digits of s: "Ada.Lovelace" and "ada lovelace" compare equal.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// minOwnPart is how many letters or digits a password must keep once the account's own words are
// taken out of it.
const minOwnPart = 6

// builtFromPersonal reports whether password is made of the account's own words: its email, the
// email's local part or the company name, with at most a few characters added ("ada@example.com",
// "Sunrise Coffee 2026"). Words of fewer than 3 letters or digits are not looked for.
func builtFromPersonal(password string, personal []string) bool {
	rest := fold(password)
	found := false
	var words []string
	for _, s := range personal {
		words = append(words, fold(s))
		if local, _, ok := strings.Cut(s, "@"); ok {
			words = append(words, fold(local))
		}
	}
	// Longest first, so the whole email goes before its local part.
	slices.SortFunc(words, func(a, b string) int { return len(b) - len(a) })
	for _, w := range words {
		if len(w) >= 3 && strings.Contains(rest, w) {
			rest = strings.ReplaceAll(rest, w, "")
			found = true
		}
	}
	return found && utf8.RuneCountInString(rest) < minOwnPart
}

// checkPassword: 12 to 128 characters (ASVS V2.1.1-2), counted in characters, not bytes; not a
// well-known password or one character repeated; not made of personal, the account's email and
// company name. It returns the message to show, or "".
func checkPassword(password string, personal ...string) string {
	n := utf8.RuneCountInString(password)
	switch {
	case n < MinPasswordLength:
		return MsgWeakPassword
	case n > MaxPasswordLength:
		return MsgLongPassword
	case isCommonPassword(password) || isCommonPassword(strings.TrimSpace(password)):
		return MsgCommonPassword
	case builtFromPersonal(password, personal):
		return MsgPersonalPassword
	}
	return ""
}
