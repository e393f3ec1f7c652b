package identity

import (
	"strings"
	"testing"
)

func TestCommonPasswordList(t *testing.T) {
	if n := len(commonPasswords()); n < 10000 {
		t.Fatalf("the embedded list has %d passwords, want at least 10,000", n)
	}
	for pw, want := range map[string]bool{
		"123456": true, "Password": true, "1qaz2wsx3edc": true, "iloveyou1234": true, "marquee12345": true,
		"aaaaaaaaaaaa": true, "            ": true, "🎯🎯🎯🎯🎯🎯": true, "dragondragondragon": true, "abcabcabcabc": false,
		"correct horse battery": false, "billboards-by-the-week": false,
	} {
		if got := isCommonPassword(pw); got != want {
			t.Errorf("isCommonPassword(%q) = %v, want %v", pw, got, want)
		}
	}
}

func TestPasswordRule(t *testing.T) {
	personal := []string{"ada.lovelace@example.com", "Sunrise Coffee"}
	for pw, want := range map[string]string{
		"short":                     MsgWeakPassword,
		strings.Repeat("x", 129):    MsgLongPassword,
		"Password1234":              MsgCommonPassword,
		"  password1234  ":          MsgCommonPassword,
		"ada.lovelace@example.com":  MsgPersonalPassword,
		"ADA LOVELACE 1815":         MsgPersonalPassword,
		"sunrise-coffee-2026":       MsgPersonalPassword,
		"SunriseCoffee+AdaLovelace": MsgPersonalPassword,
		// Enough of its own besides the personal words.
		"ada lovelace wrote the first program": "",
		"sunrise coffee is great at 7am":       "",
		"twelve chars":                         "",
		"ünïcödé-pässwörd":                     "",
	} {
		if got := checkPassword(pw, personal...); got != want {
			t.Errorf("checkPassword(%q) = %q, want %q", pw, got, want)
		}
	}
	// Without personal words, only the general rules apply; short words are not looked for.
	if got := checkPassword("ada.lovelace@example.com"); got != "" {
		t.Errorf("no personal words: %q", got)
	}
	if got := checkPassword("jo-and-the-river-1999", "jo@example.com", "JB"); got != "" {
		t.Errorf("a two-letter local part refused %q", got)
	}
}
