package webhooks

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"
)

// plainError says in words why a delivery got no answer, for the delivery log its endpoint's owner
// reads (issue 25 §4), instead of Go's `Post "…": dial tcp 127.0.0.1:8090: connect: connection
// refused`. Each sentence says what happened and, where it helps, what to check.
func plainError(err error, timeout time.Duration) string {
	var refused *refusedError
	var dnsErr *net.DNSError
	var netErr net.Error
	var certInvalid x509.CertificateInvalidError
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var verify *tls.CertificateVerificationError
	var recordHeader tls.RecordHeaderError
	switch {
	case errors.As(err, &refused):
		if refused.host == refused.ip {
			return fmt.Sprintf("Refused: %s is not a public address. Webhooks are delivered only to public internet addresses.", refused.ip)
		}
		return fmt.Sprintf("Refused: %s resolves to %s, which is not a public address. Webhooks are delivered only to public internet addresses.", refused.host, refused.ip)
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		return fmt.Sprintf("Timeout: the receiver did not answer within %s.", timeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		return "Could not connect: nothing accepted the connection at that address and port. Is the receiver running?"
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return fmt.Sprintf("Could not find the host %s: it has no address in DNS.", dnsErr.Name)
		}
		return fmt.Sprintf("Could not look up the host %s: DNS did not answer.", dnsErr.Name)
	case errors.As(err, &hostname):
		return "The receiver's TLS certificate is not valid for this host name."
	case errors.As(err, &unknownAuthority), errors.As(err, &certInvalid), errors.As(err, &verify):
		return "The receiver's TLS certificate is not trusted (expired, self-signed or from an unknown authority)."
	case errors.As(err, &recordHeader):
		return "The receiver does not speak https on that port."
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "The receiver closed the connection before answering."
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return "Could not connect: the receiver's network cannot be reached."
	}
	return "Could not deliver: the connection to the receiver failed."
}
