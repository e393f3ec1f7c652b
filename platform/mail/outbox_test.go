package mail_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	smtpmock "github.com/mocktools/go-smtp-mock/v2"
	"gorm.io/gorm"

	"marquee/platform/apperr"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/mail"
	"marquee/platform/testkit"
)

const resetLink = "http://127.0.0.1:18181/reset-password?token=abc_-XYZ"

const from = "Marquee <no-reply@marquee.example.com>"

var t0 = time.Date(2025, 3, 5, 9, 0, 0, 0, time.UTC)

func openOutbox(t *testing.T, dialect string) (*gorm.DB, *mail.Outbox, *clock.Manual) {
	t.Helper()
	gdb := testkit.OpenDB(t, dialect)
	if err := db.Migrate(gdb, map[string][]*db.Migration{"mail": mail.Migrations()}, []string{"mail"}); err != nil {
		t.Fatal(err)
	}
	clk := clock.NewManual(t0)
	return gdb, mail.NewOutbox(gdb, clk), clk
}

func message(to string) mail.Message {
	return mail.Message{To: []string{to}, Subject: "Reset your password", Text: "Open " + resetLink}
}

func findMessages(t *testing.T, o *mail.Outbox) []*mail.QueuedMessage {
	t.Helper()
	ms, err := o.FindMessages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestOutbox(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()

		t.Run("enqueue joins the caller's transaction", func(t *testing.T) {
			t.Parallel()
			gdb, o, _ := openOutbox(t, dialect)
			rollback := errors.New("the caller's change failed")
			err := db.Transact(ctx, gdb, func(ctx context.Context) error {
				if err := o.Enqueue(ctx, message("rolled-back@example.com")); err != nil {
					return err
				}
				return rollback
			})
			if !errors.Is(err, rollback) {
				t.Fatalf("Transact = %v", err)
			}
			if ms := findMessages(t, o); len(ms) != 0 {
				t.Fatalf("a rolled-back enqueue left %d messages", len(ms))
			}
			err = db.Transact(ctx, gdb, func(ctx context.Context) error { return o.Enqueue(ctx, message("committed@example.com")) })
			if err != nil {
				t.Fatal(err)
			}
			ms := findMessages(t, o)
			if len(ms) != 1 || ms[0].To[0] != "committed@example.com" || ms[0].Status != mail.StatusPending ||
				!ms[0].NextAttemptAt.Equal(t0) || !ms[0].CreatedAt.Equal(t0) || ms[0].Text != "Open "+resetLink {
				t.Fatalf("messages = %+v", ms)
			}
		})

		t.Run("enqueue refuses an invalid message", func(t *testing.T) {
			t.Parallel()
			_, o, _ := openOutbox(t, dialect)
			m := message("ann@example.com\r\nBcc: victim@example.com")
			if err := o.Enqueue(ctx, m); apperr.CodeOf(err) != apperr.EINVALID {
				t.Fatalf("Enqueue = %v, want EINVALID", err)
			}
			if ms := findMessages(t, o); len(ms) != 0 {
				t.Fatalf("%d messages stored", len(ms))
			}
		})

		// A subject built from a name with a line break is folded, not refused (a
		// refused email rolled back the pause it reported), and no header can be added through it.
		t.Run("enqueue folds a subject to one line", func(t *testing.T) {
			t.Parallel()
			_, o, _ := openOutbox(t, dialect)
			m := message("ann@example.com")
			m.Subject = "Your campaign Spring\r\nBcc: victim@example.com\u2028\u0085\t sale is paused"
			if err := o.Enqueue(ctx, m); err != nil {
				t.Fatal(err)
			}
			ms := findMessages(t, o)
			if len(ms) != 1 || ms[0].Subject != "Your campaign Spring Bcc: victim@example.com sale is paused" {
				t.Fatalf("messages = %+v", ms)
			}
		})

		t.Run("delivers oldest first and marks sent", func(t *testing.T) {
			t.Parallel()
			_, o, clk := openOutbox(t, dialect)
			srv, opts := mail.StartSMTP(t, smtpmock.ConfigurationAttr{})
			for i := range 3 {
				if err := o.Enqueue(ctx, message(fmt.Sprintf("user%d@example.com", i))); err != nil {
					t.Fatal(err)
				}
				clk.Advance(time.Second)
			}
			d := mail.NewDispatcher(o, mail.NewSMTPSender(opts), clk, mail.DispatchOptions{From: from, BatchSize: 2})
			if n, err := d.DeliverPending(ctx); err != nil || n != 2 {
				t.Fatalf("DeliverPending = %d, %v; want 2 (the batch size)", n, err)
			}
			if n, err := d.DeliverPending(ctx); err != nil || n != 1 {
				t.Fatalf("second DeliverPending = %d, %v; want 1", n, err)
			}
			if n, err := d.DeliverPending(ctx); err != nil || n != 0 {
				t.Fatalf("third DeliverPending = %d, %v; want 0", n, err)
			}
			msgs, err := srv.WaitForMessages(3, 5*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range msgs {
				if want := fmt.Sprintf("<user%d@example.com>", i); !strings.Contains(m.RcpttoRequestResponse()[0][0], want) {
					t.Errorf("message %d went to %v, want %s", i, m.RcpttoRequestResponse(), want)
				}
			}
			for _, m := range findMessages(t, o) {
				if m.Status != mail.StatusSent || m.Attempts != 1 || m.SentAt == nil || !m.SentAt.Equal(clk.Now()) {
					t.Errorf("message %+v, want sent once at %v", m, clk.Now())
				}
			}
		})

		t.Run("a failing server: retries with backoff, then a success, nothing lost", func(t *testing.T) {
			t.Parallel()
			_, o, clk := openOutbox(t, dialect)
			if err := o.Enqueue(ctx, message("ann@example.com")); err != nil {
				t.Fatal(err)
			}
			// A real SMTP server that refuses the recipient, then a port where nothing listens.
			_, refusing := mail.StartSMTP(t, smtpmock.ConfigurationAttr{NotRegisteredEmails: []string{"ann@example.com"}})
			down := mail.SMTPOptions{Host: "127.0.0.1", Port: mail.ClosedPort(t), Timeout: time.Second}
			for attempt, opts := range []mail.SMTPOptions{refusing, down} {
				d := mail.NewDispatcher(o, mail.NewSMTPSender(opts), clk, mail.DispatchOptions{From: from})
				if n, err := d.DeliverPending(ctx); err != nil || n != 0 {
					t.Fatalf("attempt %d: DeliverPending = %d, %v; want 0, nil", attempt+1, n, err)
				}
				m := findMessages(t, o)[0]
				wantNext := clk.Now().Add(mail.Backoff(attempt + 1))
				if m.Status != mail.StatusPending || m.Attempts != attempt+1 || !m.NextAttemptAt.Equal(wantNext) || m.LastError == "" {
					t.Fatalf("attempt %d: message %+v; want pending, next attempt at %v", attempt+1, m, wantNext)
				}
				// Not due before its backoff has passed.
				clk.Set(wantNext.Add(-time.Millisecond))
				if n, err := d.DeliverPending(ctx); err != nil || n != 0 || findMessages(t, o)[0].Attempts != attempt+1 {
					t.Fatalf("attempt %d: retried before its backoff: %d, %v", attempt+1, n, err)
				}
				clk.Set(wantNext)
			}
			srv, up := mail.StartSMTP(t, smtpmock.ConfigurationAttr{})
			d := mail.NewDispatcher(o, mail.NewSMTPSender(up), clk, mail.DispatchOptions{From: from})
			if n, err := d.DeliverPending(ctx); err != nil || n != 1 {
				t.Fatalf("DeliverPending after recovery = %d, %v; want 1", n, err)
			}
			if _, err := srv.WaitForMessages(1, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			m := findMessages(t, o)[0]
			if m.Status != mail.StatusSent || m.Attempts != 3 || !strings.Contains(m.LastError, "connect") {
				t.Fatalf("message %+v; want sent on the third attempt, the last error kept", m)
			}
		})

		t.Run("after MaxAttempts a message is failed and kept", func(t *testing.T) {
			t.Parallel()
			_, o, clk := openOutbox(t, dialect)
			if err := o.Enqueue(ctx, message("ann@example.com")); err != nil {
				t.Fatal(err)
			}
			d := mail.NewDispatcher(o, mail.NewSMTPSender(mail.SMTPOptions{Host: "127.0.0.1", Port: mail.ClosedPort(t), Timeout: time.Second}), clk,
				mail.DispatchOptions{From: from, MaxAttempts: 3})
			for range 5 {
				if _, err := d.DeliverPending(ctx); err != nil {
					t.Fatal(err)
				}
				clk.Advance(mail.RetryMax)
			}
			ms := findMessages(t, o)
			if len(ms) != 1 || ms[0].Status != mail.StatusFailed || ms[0].Attempts != 3 || ms[0].LastError == "" {
				t.Fatalf("messages = %+v; want one failed after 3 attempts", ms)
			}
		})

		t.Run("a message left sending by a dead dispatcher is sent when its lease ends", func(t *testing.T) {
			t.Parallel()
			_, o, clk := openOutbox(t, dialect)
			if err := o.Enqueue(ctx, message("ann@example.com")); err != nil {
				t.Fatal(err)
			}
			srv, opts := mail.StartSMTP(t, smtpmock.ConfigurationAttr{})
			d := mail.NewDispatcher(o, mail.NewSMTPSender(opts), clk, mail.DispatchOptions{From: from, Lease: time.Minute})
			id := findMessages(t, o)[0].ID
			if claimed, err := d.Claim(ctx, id); err != nil || !claimed {
				t.Fatalf("claim = %v, %v", claimed, err) // and the claimer dies here
			}
			if n, err := d.DeliverPending(ctx); err != nil || n != 0 {
				t.Fatalf("DeliverPending during the lease = %d, %v; want 0", n, err)
			}
			clk.Advance(time.Minute)
			if n, err := d.DeliverPending(ctx); err != nil || n != 1 {
				t.Fatalf("DeliverPending after the lease = %d, %v; want 1", n, err)
			}
			if _, err := srv.WaitForMessages(1, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			if m := findMessages(t, o)[0]; m.Status != mail.StatusSent || m.Attempts != 2 {
				t.Fatalf("message %+v", m)
			}
		})

		t.Run("a dead dispatcher's last attempt fails the message", func(t *testing.T) {
			t.Parallel()
			_, o, clk := openOutbox(t, dialect)
			if err := o.Enqueue(ctx, message("ann@example.com")); err != nil {
				t.Fatal(err)
			}
			_, opts := mail.StartSMTP(t, smtpmock.ConfigurationAttr{})
			d := mail.NewDispatcher(o, mail.NewSMTPSender(opts), clk, mail.DispatchOptions{From: from, Lease: time.Minute, MaxAttempts: 1})
			if claimed, err := d.Claim(ctx, findMessages(t, o)[0].ID); err != nil || !claimed {
				t.Fatalf("claim = %v, %v", claimed, err)
			}
			clk.Advance(time.Minute)
			if n, err := d.DeliverPending(ctx); err != nil || n != 0 {
				t.Fatalf("DeliverPending = %d, %v; want 0", n, err)
			}
			if m := findMessages(t, o)[0]; m.Status != mail.StatusFailed || m.Attempts != 1 {
				t.Fatalf("message %+v; want failed", m)
			}
		})

		t.Run("two dispatchers at once send each message exactly once", func(t *testing.T) {
			t.Parallel()
			_, o, clk := openOutbox(t, dialect)
			const n = 20
			for i := range n {
				if err := o.Enqueue(ctx, message(fmt.Sprintf("user%d@example.com", i))); err != nil {
					t.Fatal(err)
				}
			}
			srv, opts := mail.StartSMTP(t, smtpmock.ConfigurationAttr{})
			var wg sync.WaitGroup
			counts := make([]int, 2)
			for i := range counts {
				wg.Go(func() {
					d := mail.NewDispatcher(o, mail.NewSMTPSender(opts), clk, mail.DispatchOptions{From: from})
					c, err := d.DeliverPending(ctx)
					if err != nil {
						t.Error(err)
					}
					counts[i] = c
				})
			}
			wg.Wait()
			if counts[0]+counts[1] != n {
				t.Fatalf("sent %v, want %d in all", counts, n)
			}
			if _, err := srv.WaitForMessages(n, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond) // room for a duplicate to show up
			if got := len(srv.Messages()); got != n {
				t.Fatalf("the server received %d messages, want %d", got, n)
			}
		})

		t.Run("an invalid From touches nothing", func(t *testing.T) {
			t.Parallel()
			_, o, clk := openOutbox(t, dialect)
			if err := o.Enqueue(ctx, message("ann@example.com")); err != nil {
				t.Fatal(err)
			}
			d := mail.NewDispatcher(o, mail.NewFileSender(t.TempDir()), clk, mail.DispatchOptions{From: "not an address"})
			if _, err := d.DeliverPending(ctx); apperr.CodeOf(err) != apperr.EINVALID {
				t.Fatalf("DeliverPending = %v, want EINVALID", err)
			}
			if m := findMessages(t, o)[0]; m.Attempts != 0 || m.Status != mail.StatusPending {
				t.Fatalf("message %+v", m)
			}
		})
	})
}
