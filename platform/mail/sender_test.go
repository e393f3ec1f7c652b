package mail

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	smtpmock "github.com/mocktools/go-smtp-mock/v2"
)

func TestSMTPSender(t *testing.T) {
	t.Parallel()
	srv, opts := startSMTP(t, smtpmock.ConfigurationAttr{})
	err := NewSMTPSender(opts).Send(context.Background(), "Marquee <no-reply@marquee.example.com>", Message{
		To:      []string{"ann@example.com", "Bob <bob@example.com>"},
		Subject: "Réinitialiser",
		Text:    "Open " + resetLink + "\n.\nA line with a lone dot above.",
		HTML:    `<a href="` + resetLink + `">reset</a>`,
	})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := srv.WaitForMessages(1, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	m := msgs[0]
	if !m.IsConsistent() || !strings.Contains(m.MailfromRequest(), "no-reply@marquee.example.com") {
		t.Fatalf("session: %+v", m)
	}
	var rcpts []string
	for _, rr := range m.RcpttoRequestResponse() {
		rcpts = append(rcpts, rr[0])
	}
	if got := strings.Join(rcpts, ";"); !strings.Contains(got, "<ann@example.com>") || !strings.Contains(got, "<bob@example.com>") {
		t.Fatalf("RCPT TO: %s", got)
	}
	data := m.MsgRequest()
	for _, want := range []string{
		"From: \"Marquee\" <no-reply@marquee.example.com>\r\n",
		"To: <ann@example.com>, \"Bob\" <bob@example.com>\r\n",
		"Subject: =?utf-8?q?R=C3=A9initialiser?=\r\n",
		"MIME-Version: 1.0\r\n",
		"Message-ID: <",
		"Date: ",
		"Content-Type: multipart/alternative; boundary=",
		"Content-Transfer-Encoding: 7bit",
		"Open " + resetLink + "\r\n.\r\nA line with a lone dot above.", // dot-stuffing undone by the server
	} {
		if !strings.Contains(data, want) {
			t.Errorf("message lacks %q:\n%s", want, data)
		}
	}
}

func TestSMTPSenderErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := Message{To: []string{"ann@example.com"}, Subject: "s", Text: "t"}

	t.Run("refused recipient", func(t *testing.T) {
		t.Parallel()
		_, opts := startSMTP(t, smtpmock.ConfigurationAttr{BlacklistedRcpttoEmails: []string{"ann@example.com"}})
		if err := NewSMTPSender(opts).Send(ctx, "no-reply@example.com", m); err == nil || !strings.Contains(err.Error(), "RCPT TO") {
			t.Fatalf("Send = %v, want a RCPT TO error", err)
		}
	})
	t.Run("closed port", func(t *testing.T) {
		t.Parallel()
		err := NewSMTPSender(SMTPOptions{Host: "127.0.0.1", Port: closedPort(t)}).Send(ctx, "no-reply@example.com", m)
		if err == nil || !strings.Contains(err.Error(), "connect") {
			t.Fatalf("Send = %v, want a connect error", err)
		}
	})
	t.Run("starttls required but not offered", func(t *testing.T) {
		t.Parallel()
		srv, opts := startSMTP(t, smtpmock.ConfigurationAttr{})
		opts.TLS = TLSStartTLS
		if err := NewSMTPSender(opts).Send(ctx, "no-reply@example.com", m); err == nil || !strings.Contains(err.Error(), "STARTTLS") {
			t.Fatalf("Send = %v, want a STARTTLS error", err)
		}
		if n := len(srv.Messages()); n > 0 && srv.Messages()[0].Msg() {
			t.Fatal("a message went out without the TLS it was configured to require")
		}
	})
	t.Run("unknown TLS mode", func(t *testing.T) {
		t.Parallel()
		if err := NewSMTPSender(SMTPOptions{Host: "127.0.0.1", TLS: "maybe"}).Send(ctx, "no-reply@example.com", m); err == nil {
			t.Fatal("Send with an unknown TLS mode succeeded")
		}
	})
	t.Run("a server that never answers times out", func(t *testing.T) {
		t.Parallel()
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		go func() { // accepts, then stays silent
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				defer c.Close()
			}
		}()
		start := time.Now()
		opts := SMTPOptions{Host: "127.0.0.1", Port: l.Addr().(*net.TCPAddr).Port, Timeout: 200 * time.Millisecond}
		if err := NewSMTPSender(opts).Send(ctx, "no-reply@example.com", m); err == nil {
			t.Fatal("Send to a silent server succeeded")
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Send took %v with a 200ms timeout", d)
		}
	})
}

func TestFileSender(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "mail") // created on first send
	s := NewFileSender(dir)
	for _, subject := range []string{"first", "second"} {
		if err := s.Send(context.Background(), "no-reply@example.com", Message{To: []string{"ann@example.com"}, Subject: subject, Text: "Reset: " + resetLink}); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("%d files, want 2 (and no temporary files left)", len(entries))
	}
	name := regexp.MustCompile(`^\d{8}T\d{6}\.\d{9}Z-[0-9a-f]{8}\.eml$`)
	for i, e := range entries {
		if !name.MatchString(e.Name()) {
			t.Errorf("file name %q", e.Name())
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), resetLink) {
			t.Errorf("%s lacks the link verbatim:\n%s", e.Name(), b)
		}
		// Names sort by time: the first file holds the first message.
		if want := []string{"Subject: first\r\n", "Subject: second\r\n"}[i]; !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q", e.Name(), want)
		}
	}
	if err := s.Send(context.Background(), "no-reply@example.com", Message{To: []string{"x@example.com"}, Subject: "a\r\nBcc: v@example.com", Text: "t"}); err == nil {
		t.Fatal("a header injection was written")
	}
}
