// Package retry holds the bookkeeping shared by the outboxes (mail, events): how long to wait
// before the next attempt, and how much of the last error to keep.
package retry

import (
	"time"
	"unicode/utf8"
)

// Backoff is the delay after the given number of failed attempts: base, doubled after each
// further failure, never more than max.
func Backoff(attempts int, base, max time.Duration) time.Duration {
	d := base
	for i := 1; i < attempts && d < max; i++ {
		d *= 2
	}
	return min(d, max)
}

// Truncate cuts s to at most n bytes without splitting a character (for stored error texts).
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
