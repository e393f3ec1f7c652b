package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"marquee/modules/webhooks"
)

// TestWebhookSinkVerifies: the dev sink accepts a delivery signed as the worker signs it, and
// refuses a wrong secret and a replay older than the tolerance.
func TestWebhookSinkVerifies(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	h := sinkHandler("whsec_test", &out, func() time.Time { return now })
	body := []byte(`{"id":"evt_1","type":"webhook.test","created":1,"data":{}}`)
	post := func(sig string) int {
		req := httptest.NewRequest(http.MethodPost, "/hooks", bytes.NewReader(body))
		req.Header.Set(webhooks.SignatureHeader, sig)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	if c := post(webhooks.Sign("whsec_test", now.Add(-time.Minute), body)); c != http.StatusOK {
		t.Fatalf("signed: %d", c)
	}
	if c := post(webhooks.Sign("whsec_other", now, body)); c != http.StatusBadRequest {
		t.Fatalf("wrong secret: %d", c)
	}
	if c := post(webhooks.Sign("whsec_test", now.Add(-6*time.Minute), body)); c != http.StatusBadRequest {
		t.Fatalf("replay: %d", c)
	}
	if !strings.Contains(out.String(), "webhook.test") || !strings.Contains(out.String(), "REFUSED") {
		t.Fatalf("printed %q", out.String())
	}
}
