package bench

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/platform/auth"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// BenchmarkSignedInPath (docs/performance.md "First visit and the signed-in request"): the
// signed-in request path against a gin hello-world handler, in the same process, on the same
// machine and in the same run. Each sub-benchmark drives 16 concurrent keep-alive clients for a
// fixed time against the hello-world server and then against Marquee, and reports both throughputs
// and their ratio (target: ratio >= 0.5).
func BenchmarkSignedInPath(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			s := testkit.Start(b, dialect, server.Compose(campaigns.Component))
			ids := testkit.ModuleOf[*identity.Module](b, s).Service()
			u, _, err := ids.CreateUser(b.Context(), identity.CreateUserRequest{Email: "adv@bench.test", Password: "benchmark password", Role: identity.RoleUser, CompanyName: "Bench Co"})
			if err != nil {
				b.Fatal(err)
			}
			// 16 clients, 16 live sessions of the same user (one per browser tab or device).
			const clients = 16
			cookies := make([]string, clients)
			for i := range cookies {
				token, err := s.Kernel.Sessions.Create(b.Context(), u.ID, "127.0.0.1", "bench")
				if err != nil {
					b.Fatal(err)
				}
				cookies[i] = auth.CookieName + "=" + token
			}
			check := s.Client(b)
			check.SessionAs(s, u.ID)
			if res := check.Get("/users/loggedin").Expect(b, 200); string(res.Body) != `{"loggedin":true}` {
				b.Fatalf("loggedin: %s", res.Body)
			}
			hello := helloWorld(b)
			for _, path := range []string{"/users/loggedin", "/api/campaigns/count"} {
				b.Run(path[1:], func(b *testing.B) {
					base := throughput(b, hello.URL+"/hello", nil, clients)
					got := throughput(b, s.URL+path, cookies, clients)
					b.ReportMetric(base, "hello-req/s")
					b.ReportMetric(got, "req/s")
					b.ReportMetric(got/base, "ratio")
				})
			}
		})
	}
}

// helloWorld is the baseline: a bare gin engine answering a small JSON object.
func helloWorld(b *testing.B) *httptest.Server {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.GET("/hello", func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"hello": "world"}) })
	srv := httptest.NewServer(r)
	b.Cleanup(srv.Close)
	return srv
}

// throughput runs n clients against url for b.N requests in all (at least 2 s' worth: b.N grows
// with -benchtime) and returns requests a second. cookies[i], when given, is client i's session.
func throughput(b *testing.B, url string, cookies []string, n int) float64 {
	b.Helper()
	tr := &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: n, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	const window = 2 * time.Second
	var done atomic.Int64
	var failed atomic.Value
	stop := time.Now().Add(window)
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodGet, url, nil)
			req.Header.Set("X-Requested-With", "XMLHttpRequest")
			if cookies != nil {
				req.Header.Set("Cookie", cookies[i%len(cookies)])
			}
			for time.Now().Before(stop) {
				res, err := client.Do(req)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				_, _ = io.Copy(io.Discard, res.Body)
				_ = res.Body.Close()
				if res.StatusCode != http.StatusOK {
					failed.Store(url + ": " + res.Status)
					return
				}
				done.Add(1)
			}
		}(i)
	}
	wg.Wait()
	if msg := failed.Load(); msg != nil {
		b.Fatal(msg)
	}
	return float64(done.Load()) / time.Since(start).Seconds()
}
