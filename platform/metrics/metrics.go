// Package metrics is Marquee's Prometheus instrumentation (docs/operations.md "Metrics and alerts"):
// request counts and latency by route, the database pool, job runs and failures, the outboxes'
// depth and charges by outcome, on one registry served at /metrics off the public port or behind
// a token. Every method is safe on a nil *Metrics, so code built without it (unit tests) needs
// nothing.
package metrics

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"gorm.io/gorm"
)

// Metrics holds the registry and the collectors the platform and the modules update.
type Metrics struct {
	registry    *prometheus.Registry
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	jobRuns     *prometheus.CounterVec
	jobDuration *prometheus.HistogramVec
	charges     *prometheus.CounterVec
}

// New makes the registry with the Go runtime, the process and gdb's connection pool.
func New(gdb *gorm.DB) *Metrics {
	m := &Metrics{registry: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "marquee_http_requests_total",
		Help: "HTTP requests answered, by route pattern, method and status code."}, []string{"route", "method", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "marquee_http_request_duration_seconds",
		Help:    "Time to answer an HTTP request, by route pattern and method.",
		Buckets: []float64{.002, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}}, []string{"route", "method"})
	m.jobRuns = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "marquee_job_runs_total",
		Help: "Periodic job runs on this replica (the leader), by job and outcome (ok, failed)."}, []string{"job", "outcome"})
	m.jobDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "marquee_job_duration_seconds",
		Help: "Time a periodic job run took, by job.", Buckets: prometheus.ExponentialBuckets(0.005, 4, 9)}, []string{"job"})
	m.charges = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "marquee_charges_total",
		Help: "Card charges and refunds settled by this replica, by kind and outcome (succeeded, failed)."}, []string{"kind", "outcome"})
	m.registry.MustRegister(m.requests, m.latency, m.jobRuns, m.jobDuration, m.charges,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if sqlDB, err := gdb.DB(); err == nil {
		m.registry.MustRegister(collectors.NewDBStatsCollector(sqlDB, "marquee"))
	}
	return m
}

// Middleware counts and times every request by its route pattern ("unmatched" for the web app's
// paths and unknown ones, so ids and paths never become label values).
func (m *Metrics) Middleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		if m == nil {
			c.Next()
			return
		}
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		m.requests.WithLabelValues(route, c.Request.Method, strconv.Itoa(c.Writer.Status())).Inc()
		m.latency.WithLabelValues(route, c.Request.Method).Observe(time.Since(start).Seconds())
	}
}

// JobRan records one run of a periodic job.
func (m *Metrics) JobRan(job string, took time.Duration, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "failed"
	}
	m.jobRuns.WithLabelValues(job, outcome).Inc()
	m.jobDuration.WithLabelValues(job).Observe(took.Seconds())
}

// Settled records a charge or refund that reached its outcome.
func (m *Metrics) Settled(kind, outcome string) {
	if m == nil {
		return
	}
	m.charges.WithLabelValues(kind, outcome).Inc()
}

// Depth registers a gauge read at each scrape, such as an outbox's pending rows. A failing read
// reports -1, which an alert can tell from an empty queue.
func (m *Metrics) Depth(name, help string, read func(ctx context.Context) (int64, error)) {
	if m == nil {
		return
	}
	m.registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		n, err := read(ctx)
		if err != nil {
			return -1
		}
		return float64(n)
	}))
}

// Handler serves the registry in the Prometheus text format. With a token, a scrape must send
// `Authorization: Bearer <token>`; others get 401.
func (m *Metrics) Handler(token string) http.Handler {
	h := promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
	if token == "" {
		return h
	}
	want := "Bearer " + token
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !constantTimeEqual(r.Header.Get("Authorization"), want) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "A metrics token is required.", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func constantTimeEqual(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
