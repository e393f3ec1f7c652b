package main

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"marquee/platform/mail"
	"marquee/platform/testkit"
)

// /metrics in the Prometheus format, only behind METRICS_TOKEN on the public port, with
// request counts and latency by route pattern (never by raw path), the database pool, job runs
// and failures, and the outboxes' depth.
func TestMetricsBehindAToken(t *testing.T) {
	s := testkit.Start(t, testkit.Dialects()[0], buildModules, testkit.WithEnv("METRICS_TOKEN", "scrape-token-for-tests"))
	c := s.Client(t)
	c.Get("/healthz").Expect(t, http.StatusOK)
	c.Get("/api/campaigns/0197a5e2-0000-7000-8000-000000000000").Expect(t, http.StatusUnauthorized)
	c.Get("/no/such/page/42")

	scrape := func(auth string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, s.URL+"/metrics", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}
	if code, _ := scrape(""); code != http.StatusUnauthorized {
		t.Fatalf("without the token: %d", code)
	}
	if code, _ := scrape("Bearer wrong"); code != http.StatusUnauthorized {
		t.Fatalf("with a wrong token: %d", code)
	}

	// A job that fails and one that succeeds, through the real scheduler's observer.
	sched := s.Kernel.Scheduler(s.Modules)
	sched.Observe("metrics.test-job", 0, nil)
	sched.Observe("metrics.test-job", 0, errors.New("boom"))
	if err := sched.RunNow(t.Context(), "mail.deliver"); err != nil {
		t.Fatal(err)
	}

	// One email and one event waiting: the depth gauges count them, read at the scrape.
	if err := s.Kernel.Outbox.Enqueue(t.Context(), mail.Message{To: []string{"ops@example.com"}, Subject: "Waiting", Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Kernel.Events.Publish(t.Context(), "metrics.test_event", map[string]string{}); err != nil {
		t.Fatal(err)
	}

	code, body := scrape("Bearer scrape-token-for-tests")
	if code != http.StatusOK {
		t.Fatalf("with the token: %d", code)
	}
	for _, want := range []string{
		`marquee_http_requests_total{method="GET",route="/healthz",status="200"} 1`,
		`marquee_http_requests_total{method="GET",route="/api/campaigns/:id",status="401"} 1`,
		`marquee_http_requests_total{method="GET",route="unmatched",status="200"}`,
		`marquee_http_request_duration_seconds_bucket{method="GET",route="/healthz",le="0.01"}`,
		`marquee_job_runs_total{job="mail.deliver",outcome="ok"} 1`,
		`marquee_job_runs_total{job="metrics.test-job",outcome="failed"} 1`,
		"marquee_mail_outbox_pending 1\n",
		"marquee_events_outbox_pending 1\n",
		`go_sql_max_open_connections{db_name="marquee"}`,
		`go_goroutines `,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if strings.Contains(body, "0197a5e2") || strings.Contains(body, "/no/such/page") {
		t.Error("a raw path became a label")
	}
}
