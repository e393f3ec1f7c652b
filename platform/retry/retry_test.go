package retry

import (
	"testing"
	"time"
)

func TestBackoffDoublesUpToTheCap(t *testing.T) {
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour}
	for i, w := range want {
		if got := Backoff(i+1, 30*time.Second, time.Hour); got != w {
			t.Errorf("Backoff(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := Backoff(1000, time.Second, time.Minute); got != time.Minute {
		t.Errorf("Backoff(1000) = %v", got)
	}
}

func TestTruncateKeepsCharactersWhole(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{{"ééé", 3, "é"}, {"abc", 5, "abc"}, {"abcdef", 3, "abc"}, {"€", 2, ""}} {
		if got := Truncate(tc.s, tc.n); got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
