// Package stripemock runs stripe-mock (Stripe's official API mock, github.com/stripe/stripe-mock)
// for tests: the real protocol peer of the Stripe adapter. `make tools` installs it into
// bin/tools; under CI a missing binary fails the test instead of skipping it.
package stripemock

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Start runs stripe-mock on a free local port until the test ends and returns its base URL.
func Start(tb testing.TB) string {
	tb.Helper()
	bin, err := binary()
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("stripe-mock is required under CI: %v (run make tools)", err)
		}
		tb.Skipf("stripe-mock not installed: %v (run make tools)", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	cmd := exec.Command(bin, "-http-addr", addr) // #nosec G204 -- test support: the stripe-mock binary the Makefile installs
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start stripe-mock: %v", err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			_ = c.Close()
			return "http://" + addr
		}
		if time.Now().After(deadline) {
			tb.Fatalf("stripe-mock did not listen on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// binary finds bin/tools/stripe-mock at the repository root (STRIPE_MOCK overrides it).
func binary() (string, error) {
	if p := os.Getenv("STRIPE_MOCK"); p != "" {
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, "bin", "tools", "stripe-mock")
			if _, err := os.Stat(p); err != nil {
				return "", fmt.Errorf("%s: %w", p, err)
			}
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the test")
		}
		dir = parent
	}
}
