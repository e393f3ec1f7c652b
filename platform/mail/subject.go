package mail

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// FoldSubject makes s one line of text fit for a Subject header: every run of whitespace or
// control characters (line breaks, tabs, C0 and C1 controls, U+2028 and U+2029) becomes one space,
// invalid UTF-8 becomes U+FFFD, and a subject over MaxSubjectLen characters is cut with an
// ellipsis. A subject is built from names users typed; refusing it would refuse the notification,
// and a notification never vetoes the change it reports (DESIGN §1.14).
func FoldSubject(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	out := b.String()
	if utf8.RuneCountInString(out) > MaxSubjectLen {
		out = string([]rune(out)[:MaxSubjectLen-1]) + "…"
	}
	return out
}
