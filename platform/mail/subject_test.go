package mail

import (
	"strings"
	"testing"
)

func TestFoldSubject(t *testing.T) {
	long := strings.Repeat("é", MaxSubjectLen+5)
	for in, want := range map[string]string{
		"plain":                       "plain",
		"  a\r\n\tb  ":                "a b",
		"a\u2028b\u2029c\u0085d\x7fe": "a b c d e",
		"a\x00\x1bb":                  "a b",
		"bad \xff utf8":               "bad \uFFFD utf8",
		long:                          strings.Repeat("é", MaxSubjectLen-1) + "…",
	} {
		got := FoldSubject(in)
		if got != want {
			t.Errorf("FoldSubject(%q) = %q, want %q", in, got, want)
		}
		if err := Validate(Message{To: []string{"a@example.com"}, Subject: got, Text: "x"}); err != nil {
			t.Errorf("the folded %q is refused: %v", got, err)
		}
	}
}
