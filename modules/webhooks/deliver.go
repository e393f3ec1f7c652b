package webhooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"marquee/modules/identity"
	"marquee/modules/webhooks/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/db"
	"marquee/platform/retry"
)

// The delivery schedule (docs/api.md "Retries"), kept out of service.go: durations do not
// translate to the web app's types.
const (
	// RetryWindow is how long a delivery is retried, and how long an endpoint may fail before it
	// is disabled.
	RetryWindow = 24 * time.Hour
	// RetryBase is the wait after the first failed attempt; it doubles up to RetryMax.
	RetryBase = 30 * time.Second
	RetryMax  = time.Hour
	// SignatureTolerance is the replay window receivers should allow (docs/api.md).
	SignatureTolerance = 5 * time.Minute
	// HoldRecheck is how often a held delivery (its company is disabled) looks again.
	HoldRecheck = 15 * time.Minute
)

// MsgHeldCompanyDisabled is the delivery log's note on a delivery held while its company is
// disabled.
const MsgHeldCompanyDisabled = "Held: the company is disabled."

// Worker tuning: how many due deliveries one run takes, how many are in flight at once (a slow
// receiver holds one slot for at most the timeout), and the claim's lease beyond the timeout.
const (
	deliverBatch   = 100
	deliverWorkers = 4
	leaseMargin    = 30 * time.Second
)

// Sign is the Marquee-Signature value of body at t: "t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>".
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

// deliverDue posts every due delivery once and returns how many succeeded. Run by the
// webhooks.deliver job under the leader lock; safe to run concurrently anyway (each delivery is
// claimed by a conditional update, and its outcome is recorded only by the worker that claimed
// that attempt).
func (s *service) deliverDue(ctx context.Context) (int, error) {
	now := s.deps.Clock.Now().UTC()
	due, err := s.store.DueDeliveries(ctx, now, deliverBatch)
	if err != nil {
		return 0, apperr.Internal(fmt.Errorf("webhooks: find due deliveries: %w", err))
	}
	var (
		mu       sync.Mutex
		ok       int
		firstErr error
		wg       sync.WaitGroup
	)
	slots := make(chan struct{}, deliverWorkers)
	for _, d := range due {
		if ctx.Err() != nil {
			break
		}
		slots <- struct{}{}
		wg.Add(1)
		go func(d store.Delivery) {
			defer func() { <-slots; wg.Done() }()
			done, err := s.deliverOne(ctx, d.ID)
			mu.Lock()
			defer mu.Unlock()
			if done {
				ok++
			}
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}(d)
	}
	wg.Wait()
	return ok, firstErr
}

// deliverOne claims a delivery, posts it, and records the outcome. It reports a success.
func (s *service) deliverOne(ctx context.Context, id string) (bool, error) {
	now := s.deps.Clock.Now().UTC()
	claimed, err := s.store.ClaimDelivery(ctx, id, now, now.Add(s.deps.Timeout+leaseMargin))
	if err != nil || !claimed {
		return false, err
	}
	d, err := s.store.DeliveryByID(ctx, id)
	if err != nil {
		return false, err
	}
	eps, err := s.store.EndpointsByIDs(ctx, []string{d.EndpointID})
	if err != nil {
		return false, err
	}
	if len(eps) == 0 || !eps[0].Enabled {
		_, err := s.store.FinishDelivery(ctx, d.ID, d.Attempts, map[string]any{"status": StatusFailed,
			"last_error": "The endpoint is disabled.", "updated_at": now})
		return false, err
	}
	if co, err := s.deps.Identity.FindCompanyByID(ctx, d.CompanyID); err != nil && apperr.CodeOf(err) != apperr.ENOTFOUND {
		return false, err
	} else if co != nil && co.Status != identity.StatusActive {
		// A disabled company's deliveries are held, not sent nor failed: the attempt does not
		// count, and the retry window starts again when the company is enabled.
		_, err := s.store.FinishDelivery(ctx, d.ID, d.Attempts, map[string]any{"attempts": d.Attempts - 1,
			"next_attempt_at": now.Add(HoldRecheck), "expires_at": now.Add(HoldRecheck + RetryWindow),
			"last_error": MsgHeldCompanyDisabled, "updated_at": now})
		return false, err
	}
	ep := eps[0]
	res := s.post(ctx, ep, *d)
	return res.ok, s.record(ctx, ep, *d, res)
}

// attempt is one POST's outcome.
type attempt struct {
	ok     bool
	status int
	body   string
	err    string
}

// post sends the delivery's body, signed now, and reads at most ResponseReadCap of the answer.
func (s *service) post(ctx context.Context, ep store.Endpoint, d store.Delivery) attempt {
	body := []byte(d.Body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		return attempt{err: "Invalid URL."}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Marquee-Webhooks/1")
	req.Header.Set("Marquee-Event-Id", d.EventID)
	req.Header.Set("Marquee-Event-Type", d.EventType)
	req.Header.Set("Marquee-Delivery-Id", d.ID)
	req.Header.Set(SignatureHeader, Sign(ep.Secret, s.deps.Clock.Now(), body))
	resp, err := s.client.Do(req)
	if err != nil {
		// The operator's log keeps the cause; the delivery log shows one plain message.
		slog.InfoContext(ctx, "webhooks: delivery failed", "endpoint_id", ep.ID, "delivery_id", d.ID, "err", err)
		return attempt{err: transportError(err)}
	}
	defer resp.Body.Close()
	data, rerr := io.ReadAll(io.LimitReader(resp.Body, ResponseReadCap))
	out := attempt{status: resp.StatusCode, body: excerpt(data), ok: resp.StatusCode >= 200 && resp.StatusCode < 300}
	if rerr != nil {
		// The log keeps the cause; the owner reads one plain sentence (as for a POST that got no answer).
		slog.InfoContext(ctx, "webhooks: reading the answer failed", "endpoint_id", ep.ID, "delivery_id", d.ID, "err", rerr)
		out.err = MsgAnswerCut
	}
	if !out.ok && out.err == "" {
		out.err = "HTTP " + strconv.Itoa(resp.StatusCode)
	}
	return out
}

// MsgCouldNotConnect is the delivery log's one message for a POST that got no HTTP answer: a
// refused connection, a timeout, a TLS failure and a listener that does not speak HTTP read the
// same, so the log cannot be used to scan which ports of a host are open.
const MsgCouldNotConnect = "Could not connect."

// MsgAnswerCut is the delivery log's message for an answer that stopped before its end.
const MsgAnswerCut = "The receiver's answer was cut off before its end."

// MsgRefusedAddress is the delivery log's message for a host the guard refused at dial time.
const MsgRefusedAddress = "Refused: the host is not a public internet address."

// transportError is what the delivery log shows of a POST's transport error.
func transportError(err error) string {
	var refused *refusedError
	if errors.As(err, &refused) || errors.Is(err, errHostForm) {
		return MsgRefusedAddress
	}
	return MsgCouldNotConnect
}

// excerpt keeps the start of an answer as valid text.
func excerpt(b []byte) string {
	s := retry.Truncate(string(b), ResponseExcerptLen)
	return strings.ToValidUTF8(s, string(utf8.RuneError))
}

// record stores an attempt's outcome in one transaction with the endpoint's failure run: a
// success clears it; a failure starts it, and an endpoint failing for RetryWindow is disabled
// and its owner emailed (through the outbox, in the same transaction).
func (s *service) record(ctx context.Context, ep store.Endpoint, d store.Delivery, a attempt) error {
	now := s.deps.Clock.Now().UTC()
	return db.Transact(context.WithoutCancel(ctx), s.deps.DB, func(ctx context.Context) error {
		cols := map[string]any{"last_status": a.status, "last_response": a.body, "last_error": a.err, "updated_at": now}
		if a.ok {
			cols["status"], cols["delivered_at"] = StatusSucceeded, now
		} else {
			// Retries back off up to RetryMax; the last one is at the end of the 24-hour window,
			// so an endpoint that never answers has failed for the whole window (and is disabled).
			if !now.Before(d.ExpiresAt) {
				cols["status"] = StatusFailed
			} else {
				cols["next_attempt_at"] = minTime(now.Add(retry.Backoff(d.Attempts, RetryBase, RetryMax)), d.ExpiresAt)
			}
		}
		done, err := s.store.FinishDelivery(ctx, d.ID, d.Attempts, cols)
		if err != nil || !done {
			return err // another worker's attempt, or a redelivery, has it now
		}
		if a.ok {
			return s.store.UpdateEndpoint(ctx, ep.ID, map[string]any{"failing_since": nil})
		}
		if _, err := s.store.UpdateEndpointWhere(ctx, ep.ID, "failing_since IS NULL", nil, map[string]any{"failing_since": now}); err != nil {
			return err
		}
		cur, err := s.store.EndpointsByIDs(ctx, []string{ep.ID})
		if err != nil || len(cur) == 0 {
			return err
		}
		e := cur[0]
		if !e.Enabled || e.FailingSince == nil || now.Sub(*e.FailingSince) < RetryWindow {
			return nil
		}
		reason := "Every delivery failed for 24 hours."
		disabled, err := s.store.UpdateEndpointWhere(ctx, e.ID, "enabled = ?", []any{true},
			map[string]any{"enabled": false, "disabled_at": now, "disabled_reason": reason, "updated_at": now})
		if err != nil || !disabled {
			return err
		}
		if err := s.store.FailPending(ctx, e.ID, "The endpoint was disabled.", now); err != nil {
			return err
		}
		// The endpoint stays disabled even when the email cannot be queued (DESIGN §1.14).
		db.Notify(ctx, s.deps.DB, "mail: webhook endpoint disabled", func(ctx context.Context) error { return s.mailDisabled(ctx, e) })
		return nil
	})
}

// mailDisabled tells the endpoint's owner it was disabled.
func (s *service) mailDisabled(ctx context.Context, e store.Endpoint) error {
	users, err := s.deps.Identity.FindUsersByIDs(ctx, []string{e.UserID})
	if err != nil || len(users) == 0 || users[0].Local.Email == "" {
		return err
	}
	u := users[0]
	return s.deps.Outbox.Enqueue(ctx, disabledMail(u.Local.Email, u.Local.FirstName, e.URL, strings.TrimRight(s.deps.BaseURL, "/")))
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// pruneDeliveries deletes the deliveries finished more than DeliveryLogKeep ago (idempotent).
func (s *service) pruneDeliveries(ctx context.Context) (int64, error) {
	return s.store.PruneDeliveries(ctx, s.deps.Clock.Now().UTC().Add(-DeliveryLogKeep))
}
