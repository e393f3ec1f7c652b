package webhooks_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"marquee/modules/webhooks"
	"marquee/platform/testkit"
)

// TestLoopbackURLsSayWhyTheyAreRefused: in production (a public BASE_URL) an http URL on a
// loopback or private address is refused for its address, not only for its scheme: https would
// not make it allowed. A public http URL still needs https.
func TestLoopbackURLsSayWhyTheyAreRefused(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect) // BASE_URL http://marquee.test: not a development server
		f.m.SetResolver(&fakeDNS{hosts: map[string]string{"hooks.example.com": "93.184.216.34", "localhost": "127.0.0.1"}})
		for u, msg := range map[string]string{
			webhooks.DemoSinkURL:                  webhooks.MsgURLPrivate,
			"http://localhost:8090/hooks":         webhooks.MsgURLPrivate,
			"http://192.168.1.20/hooks":           webhooks.MsgURLPrivate,
			"http://hooks.example.com/x":          webhooks.MsgURLHTTPS,
			"http://[::1]:8090/hooks":             webhooks.MsgURLPrivate,
			"http://169.254.169.254/latest/meta/": webhooks.MsgURLPrivate,
		} {
			res := f.adv.Post("/api/webhooks", map[string]any{"url": u, "events": []string{webhooks.TypeCampaignPaused}})
			if res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), msg) {
				t.Errorf("%s: %d %s, want 400 %q", u, res.Status, res.Body, msg)
			}
		}
	})
}

// TestDevelopmentServerDeliversToTheLocalSink: a server whose BASE_URL is loopback (make run,
// serve on the defaults) takes the demo's http://127.0.0.1 endpoint without WEBHOOK_ALLOW_PRIVATE
// and delivers to it.
func TestDevelopmentServerDeliversToTheLocalSink(t *testing.T) {
	t.Parallel()
	f := start(t, testkit.Dialects()[0], testkit.WithEnv("BASE_URL", "http://localhost:8080"))
	got := make(chan string, 1)
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("Marquee-Event-Type")
	}))
	defer sink.Close()
	ep := f.create(t, sink.URL+"/hooks", webhooks.TypeCampaignPaused)
	f.adv.Post("/api/webhooks/"+ep.Endpoint.ID+"/test", nil).Expect(t, http.StatusOK)
	f.dispatch(t)
	if d := f.deliveries(t, f.adv, ep.Endpoint.ID)[0]; d.Status != webhooks.StatusSucceeded {
		t.Fatalf("delivery to the local sink: %+v", d)
	}
	if typ := <-got; typ == "" {
		t.Fatal("the sink got no event type")
	}
}

// TestDeliveryLogSpeaksPlainWords: a receiver that is not running is logged as a sentence the
// endpoint's owner understands, not as Go's `Post "…": dial tcp …: connect: connection refused`.
func TestDeliveryLogSpeaksPlainWords(t *testing.T) {
	t.Parallel()
	f := start(t, testkit.Dialects()[0], testkit.WithEnv("WEBHOOK_ALLOW_PRIVATE", "true"))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/hooks"
	_ = l.Close() // nothing listens there now
	ep := f.create(t, closed, webhooks.TypeCampaignPaused)
	f.adv.Post("/api/webhooks/"+ep.Endpoint.ID+"/test", nil).Expect(t, http.StatusOK)
	f.dispatch(t)
	d := f.deliveries(t, f.adv, ep.Endpoint.ID)[0]
	// Plain words, and the same words for a closed port as for an open one (the log
	// must not map the receiver's ports); the cause goes to the server's log.
	if d.Status != webhooks.StatusPending || d.LastError != webhooks.MsgCouldNotConnect ||
		strings.Contains(d.LastError, "dial tcp") || strings.Contains(d.LastError, "Post ") {
		t.Fatalf("delivery log: %q", d.LastError)
	}
}
