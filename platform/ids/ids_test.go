package ids

import "testing"

func TestIDsAreTimeOrderedUUIDv7(t *testing.T) {
	a, b := New(), New()
	if !Valid(a) || !Valid(b) || a[14] != '7' {
		t.Fatalf("not UUIDv7: %s", a)
	}
	if a >= b {
		t.Fatalf("ids must sort by creation: %s then %s", a, b)
	}
	if Valid("not-a-uuid") || Valid("") {
		t.Fatal("garbage accepted")
	}
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		tok := Token()
		if len(tok) != 43 || seen[tok] {
			t.Fatalf("token %q repeated or wrong length", tok)
		}
		seen[tok] = true
	}
}
