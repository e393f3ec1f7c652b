package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"strconv"
	"time"
)

// TLS modes of SMTPOptions.
const (
	TLSNone     = "none"     // plain SMTP (a relay on localhost, a development inbox)
	TLSStartTLS = "starttls" // plain connection upgraded by STARTTLS; required, never skipped
	TLSImplicit = "tls"      // TLS from the first byte (SMTPS, usually port 465)
)

// SMTPOptions say how to reach the SMTP server (SMTP_* in docs/platform-services.md).
type SMTPOptions struct {
	Host     string
	Port     int    // default 25, 587 or 465 by TLS mode
	Username string // empty: no AUTH
	Password string
	TLS      string        // "none" (default) | "starttls" | "tls"
	Timeout  time.Duration // for a whole session; default 30 s
	HeloName string        // the name given in EHLO; default "localhost"
}

type smtpSender struct{ o SMTPOptions }

// NewSMTPSender returns a sender that opens one SMTP session per message.
func NewSMTPSender(o SMTPOptions) Sender {
	if o.TLS == "" {
		o.TLS = TLSNone
	}
	if o.Port == 0 {
		o.Port = map[string]int{TLSNone: 25, TLSStartTLS: 587, TLSImplicit: 465}[o.TLS]
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.HeloName == "" {
		o.HeloName = "localhost"
	}
	return &smtpSender{o: o}
}

// Send implements Sender. With a Username it authenticates with PLAIN, which net/smtp refuses
// over an unencrypted connection to anything but localhost, so a password never crosses the
// network in clear.
func (s *smtpSender) Send(ctx context.Context, from string, m Message) (err error) {
	o := s.o
	if o.TLS != TLSNone && o.TLS != TLSStartTLS && o.TLS != TLSImplicit {
		return fmt.Errorf("smtp: unknown TLS mode %q (want none, starttls or tls)", o.TLS)
	}
	if o.Host == "" {
		return errors.New("smtp: no host configured")
	}
	raw, envelopeFrom, rcpts, err := compose(from, m, time.Now())
	if err != nil {
		return err
	}

	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	addr := net.JoinHostPort(o.Host, strconv.Itoa(o.Port))
	tlsConfig := &tls.Config{ServerName: o.Host, MinVersion: tls.VersionTLS12}
	var conn net.Conn
	if o.TLS == TLSImplicit {
		conn, err = (&tls.Dialer{Config: tlsConfig}).DialContext(ctx, "tcp", addr)
	} else {
		conn, err = (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return fmt.Errorf("smtp: connect %s: %w", addr, err)
	}
	// net/smtp knows no context: the deadline bounds every read and write, and a cancelled ctx
	// closes the connection under it.
	if dl, ok := ctx.Deadline(); ok {
		if err := conn.SetDeadline(dl); err != nil {
			_ = conn.Close()
			return fmt.Errorf("smtp: %s: %w", addr, err)
		}
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()

	c, err := smtp.NewClient(conn, o.Host)
	if err != nil {
		_ = conn.Close()
		return fmt.Errorf("smtp: %s: greeting: %w", addr, err)
	}
	defer c.Close()
	if err := c.Hello(o.HeloName); err != nil {
		return fmt.Errorf("smtp: %s: EHLO: %w", addr, err)
	}
	if o.TLS == TLSStartTLS {
		if ok, _ := c.Extension("STARTTLS"); !ok {
			return fmt.Errorf("smtp: %s does not offer STARTTLS (SMTP_TLS=starttls)", addr)
		}
		if err := c.StartTLS(tlsConfig); err != nil {
			return fmt.Errorf("smtp: %s: STARTTLS: %w", addr, err)
		}
	}
	if o.Username != "" {
		if err := c.Auth(smtp.PlainAuth("", o.Username, o.Password, o.Host)); err != nil {
			return fmt.Errorf("smtp: %s: AUTH: %w", addr, err)
		}
	}
	if err := c.Mail(envelopeFrom); err != nil {
		return fmt.Errorf("smtp: %s: MAIL FROM: %w", addr, err)
	}
	for _, r := range rcpts {
		if err := c.Rcpt(r); err != nil {
			return fmt.Errorf("smtp: %s: RCPT TO %s: %w", addr, r, err)
		}
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp: %s: DATA: %w", addr, err)
	}
	if _, err := w.Write(raw); err != nil {
		return fmt.Errorf("smtp: %s: DATA: %w", addr, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtp: %s: DATA: %w", addr, err)
	}
	// The server accepted the message with its reply to the end of DATA; a failed QUIT must not
	// make the dispatcher send it again.
	_ = c.Quit()
	return nil
}
