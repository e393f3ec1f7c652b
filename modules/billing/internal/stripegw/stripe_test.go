package stripegw

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"marquee/modules/billing/internal/gateway"
	"marquee/modules/billing/internal/stripemock"
)

// TestAgainstStripeMock drives every call of the adapter against stripe-mock, which checks each
// request against Stripe's OpenAPI description and answers Stripe's fixtures.
func TestAgainstStripeMock(t *testing.T) {
	url := stripemock.Start(t)
	g, err := New(Options{SecretKey: "sk_test_123", APIURL: url, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	card, err := g.AttachCard(ctx, gateway.AttachRequest{CompanyID: "0190a000-0000-7000-8000-000000000001", Token: "tok_visa"})
	if err != nil {
		t.Fatal(err)
	}
	// The fingerprint is Stripe's card.fingerprint (DESIGN §1.13: one referral credit per card).
	if !strings.HasPrefix(card.CustomerRef, "cus_") || !strings.HasPrefix(card.CardRef, "pm_") || card.Last4 == "" || card.ExpMonth == 0 || card.Fingerprint == "" {
		t.Fatalf("attached = %+v", card)
	}
	// A second card for the same customer does not create another customer.
	again, err := g.AttachCard(ctx, gateway.AttachRequest{CompanyID: "x", CustomerRef: card.CustomerRef, Token: "tok_mastercard"})
	if err != nil || again.CustomerRef != card.CustomerRef {
		t.Fatalf("second card = %+v %v", again, err)
	}
	if err := g.UpdateCardExpiry(ctx, card.CustomerRef, card.CardRef, 12, 2030); err != nil {
		t.Fatal(err)
	}
	ref, err := g.Charge(ctx, gateway.ChargeRequest{CustomerRef: card.CustomerRef, CardRef: card.CardRef, Amount: 125000,
		Currency: "usd", Description: "Week of Nov 30", IdempotencyKey: "campaign-1/week-1/0"})
	if err != nil || !strings.HasPrefix(ref, "pi_") {
		t.Fatalf("charge = %q %v", ref, err)
	}
	refund, err := g.Refund(ctx, gateway.RefundRequest{ChargeRef: ref, Amount: 25000, IdempotencyKey: "refund-1/0"})
	if err != nil || !strings.HasPrefix(refund, "re_") {
		t.Fatalf("refund = %q %v", refund, err)
	}
	if err := g.DetachCard(ctx, card.CustomerRef, card.CardRef); err != nil {
		t.Fatal(err)
	}
}

// stripeAnswer is an HTTP peer that answers every call with one Stripe response, to check how the
// adapter reads Stripe's errors (stripe-mock answers only successes).
func stripeAnswer(t *testing.T, status int, body string, seen *http.Header) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if seen != nil {
			*seen = r.Header.Clone()
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestStripeErrorsMapToThePort(t *testing.T) {
	req := gateway.ChargeRequest{CustomerRef: "cus_1", CardRef: "pm_1", Amount: 100, Currency: "usd", IdempotencyKey: "k/0"}
	t.Run("card error keeps Stripe's code and message", func(t *testing.T) {
		var seen http.Header
		url := stripeAnswer(t, 402, `{"error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds","message":"Your card has insufficient funds."}}`, &seen)
		g, _ := New(Options{SecretKey: "sk_test_123", APIURL: url})
		_, err := g.Charge(t.Context(), req)
		var ce *gateway.CardError
		if !errors.As(err, &ce) || ce.Code != "card_declined" || ce.DeclineCode != "insufficient_funds" || ce.Message != "Your card has insufficient funds." {
			t.Fatalf("err = %v", err)
		}
		if seen.Get("Idempotency-Key") != "k/0" || !strings.HasPrefix(seen.Get("Authorization"), "Bearer sk_test_123") {
			t.Fatalf("request headers = %v", seen)
		}
	})
	t.Run("incorrect number", func(t *testing.T) {
		url := stripeAnswer(t, 402, `{"error":{"type":"card_error","code":"incorrect_number","message":"Your card number is incorrect."}}`, nil)
		g, _ := New(Options{SecretKey: "sk_test_123", APIURL: url})
		_, err := g.AttachCard(t.Context(), gateway.AttachRequest{CustomerRef: "cus_1", Token: "tok_x"})
		var ce *gateway.CardError
		if !errors.As(err, &ce) || ce.Code != "incorrect_number" {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("Stripe's 5xx is unavailable", func(t *testing.T) {
		url := stripeAnswer(t, 500, `{"error":{"type":"api_error","message":"Something went wrong."}}`, nil)
		g, _ := New(Options{SecretKey: "sk_test_123", APIURL: url})
		if _, err := g.Charge(t.Context(), req); !errors.Is(err, gateway.ErrUnavailable) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("no answer is unavailable", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { time.Sleep(time.Second) }))
		defer srv.Close()
		g, _ := New(Options{SecretKey: "sk_test_123", APIURL: srv.URL, Timeout: 200 * time.Millisecond})
		if _, err := g.Charge(t.Context(), req); !errors.Is(err, gateway.ErrUnavailable) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a bad key is not a card error", func(t *testing.T) {
		url := stripeAnswer(t, 401, `{"error":{"type":"invalid_request_error","message":"Invalid API Key provided"}}`, nil)
		g, _ := New(Options{SecretKey: "sk_test_bad", APIURL: url})
		_, err := g.Charge(t.Context(), req)
		var ce *gateway.CardError
		if err == nil || errors.As(err, &ce) || errors.Is(err, gateway.ErrUnavailable) {
			t.Fatalf("err = %v", err)
		}
	})
	if _, err := New(Options{}); err == nil {
		t.Fatal("an empty secret key was accepted")
	}
}
