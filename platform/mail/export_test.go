package mail

import (
	"context"
	"net"
	"testing"
	"time"

	smtpmock "github.com/mocktools/go-smtp-mock/v2"

	"marquee/platform/retry"
)

// What the external tests (package mail_test, which may import testkit) need of the inside.

// Backoff is the package's retry delay after attempts failures.
func Backoff(attempts int) time.Duration { return retry.Backoff(attempts, retryBase, retryMax) }

const RetryMax = retryMax

// Claim claims one message as DeliverPending would, and then sends nothing: a dispatcher that
// died while sending.
func (d *Dispatcher) Claim(ctx context.Context, id string) (bool, error) {
	_, claimed, err := d.claim(ctx, id)
	return claimed, err
}

func StartSMTP(t *testing.T, cfg smtpmock.ConfigurationAttr) (*smtpmock.Server, SMTPOptions) {
	return startSMTP(t, cfg)
}

func ClosedPort(t *testing.T) int { return closedPort(t) }

// startSMTP starts a real SMTP server in the test process; it keeps every message it receives.
func startSMTP(t *testing.T, cfg smtpmock.ConfigurationAttr) (*smtpmock.Server, SMTPOptions) {
	t.Helper()
	cfg.MultipleRcptto = true
	srv := smtpmock.New(cfg)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	return srv, SMTPOptions{Host: "127.0.0.1", Port: srv.PortNumber(), TLS: TLSNone, Timeout: 5 * time.Second}
}

// closedPort returns a port on which nothing listens.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}
