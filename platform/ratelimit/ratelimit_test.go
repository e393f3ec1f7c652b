package ratelimit

import (
	"testing"
	"time"

	"marquee/platform/clock"
)

func TestLimitPerKeyAndWindow(t *testing.T) {
	clk := clock.NewManual(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	l := New(3, time.Minute, clk)
	for i := 0; i < 3; i++ {
		if !l.Allow("ip:1", "email:a") {
			t.Fatalf("attempt %d refused", i+1)
		}
	}
	if l.Allow("ip:1", "email:a") {
		t.Fatal("fourth attempt allowed")
	}
	if l.Allow("ip:2", "email:a") {
		t.Fatal("the email's limit must hold from another address")
	}
	if !l.Allow("ip:3", "email:b") {
		t.Fatal("other keys must be independent")
	}
	clk.Advance(time.Minute)
	if !l.Allow("ip:1", "email:a") {
		t.Fatal("a new window must allow again")
	}
}
