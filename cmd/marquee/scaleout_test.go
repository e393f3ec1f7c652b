package main

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"marquee/modules/billing"
	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// TestScaleOut proves the several-replica deployment (docs/operations.md "Scaling
// out"): three `marquee serve` processes on one PostgreSQL database and one S3 endpoint (gofakes3),
// behind a round-robin proxy, as a load balancer would put them. Through the proxy a session works
// on every replica, a file uploaded on one is read on another, the rate limits count in total;
// bookings raced on two replicas never sell a spot twice; each periodic job runs once per tick
// across the three, and another replica takes over when the leader is killed; two replicas that
// migrate a fresh database at once apply each migration once.
func TestScaleOut(t *testing.T) {
	dbURL := testkit.PostgresURL(t)
	bin := testkit.Binary(t)

	s3 := httptest.NewServer(gofakes3.New(s3mem.New()).Server())
	t.Cleanup(s3.Close)
	s3URL, _ := url.Parse(s3.URL)

	px := newRoundRobin(t)

	const (
		tick        = time.Second // JOBS_INTERVAL
		signInLimit = 4
		resetLimit  = 4
		apiKeyLimit = 5
		token       = "scale-out-metrics-token"
	)
	env := map[string]string{
		"DATABASE_URL": dbURL, "BASE_URL": px.URL, "TRUSTED_PROXIES": "127.0.0.1/32",
		"STORAGE_DRIVER": "s3", "S3_ENDPOINT": s3URL.Host, "S3_ACCESS_KEY": "scaleout", "S3_SECRET_KEY": "scaleout-secret",
		"S3_BUCKET": "marquee-scaleout", "METRICS_TOKEN": token, "JOBS_INTERVAL": tick.String(),
		"SIGNIN_RATE_LIMIT": strconv.Itoa(signInLimit), "RESET_RATE_LIMIT": strconv.Itoa(resetLimit),
		"API_KEY_RATE_LIMIT": strconv.Itoa(apiKeyLimit), "LOG_LEVEL": "warn",
	}

	// The demo data: faces with spots partly sold, the demo advertiser with a card. Seeding migrates.
	seed := exec.Command(bin, "seed", "--demo")
	seed.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TZ=UTC", "DATA_DIR=" + t.TempDir()}
	for k, v := range env {
		seed.Env = append(seed.Env, k+"="+v)
	}
	if out, err := seed.CombinedOutput(); err != nil {
		t.Fatalf("seed: %v\n%s", err, out)
	}
	replicas := make([]*testkit.Proc, 3)
	for i := range replicas {
		replicas[i] = testkit.Serve(t, fmt.Sprintf("replica%d", i), env)
	}
	px.setBackends(replicas)
	sqlDB := openSQL(t, dbURL)

	// A session made on one replica is good on every replica (sessions live in the database).
	c := testkit.NewClient(t, px.URL)
	c.Header = http.Header{"Origin": {px.URL}}
	c.Post("/signin", identity.SignInRequest{Email: demoUsers["advertiser"].Email, Password: DemoPassword}).Expect(t, 200)
	seen := map[string]int{}
	for range 2 * len(replicas) {
		var u identity.CurrentUser
		res := c.Get("/users/currentUser").Expect(t, 200)
		res.JSON(t, &u)
		if u.Local.Email != demoUsers["advertiser"].Email {
			t.Fatalf("currentUser = %s", res.Body)
		}
		seen[res.Header.Get(backendHeader)]++
	}
	if len(seen) != len(replicas) {
		t.Fatalf("the session was answered by %v, want all %d replicas", seen, len(replicas))
	}

	// A file uploaded on one replica is read from another (the bytes, from the shared S3 store).
	picture := testPNG(t)
	up := uploadPNG(t, c.HTTP, px.URL, picture)
	if up.backend == "" {
		t.Fatal("upload answered by no backend")
	}
	res := c.Get("/creative/image?image="+url.QueryEscape(up.path)).Expect(t, 200)
	if res.Header.Get(backendHeader) == up.backend {
		t.Fatalf("the file was read on %s, where it was uploaded", up.backend)
	}
	if !bytes.Equal(res.Body, picture) {
		t.Fatalf("read %d bytes from %s, uploaded %d on %s: not the same file", len(res.Body), res.Header.Get(backendHeader), len(picture), up.backend)
	}

	raceForSpots(t, c, px, replicas, sqlDB)
	rateLimitsAddUp(t, px, len(replicas), signInLimit, resetLimit)
	apiKeyLimitAddsUp(t, c, px, len(replicas), apiKeyLimit)
	jobsRunOncePerTick(t, replicas, token, tick)
	twoReplicasMigrateOnce(t, sqlDB)
}

// openSQL opens the database the replicas share, to check what they wrote.
func openSQL(t *testing.T, url string) *sql.DB {
	t.Helper()
	gdb, err := db.Open(db.Options{URL: url, MaxOpenConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close(gdb) })
	sqlDB, err := gdb.DB()
	if err != nil {
		t.Fatal(err)
	}
	return sqlDB
}

// backendHeader names the replica that answered, set by the test's proxy.
const backendHeader = "X-Scaleout-Backend"

// roundRobin is the load balancer: each request goes to the next replica.
type roundRobin struct {
	*httptest.Server
	mu       sync.Mutex
	backends []*url.URL
	names    []string
	next     atomic.Uint64
}

func newRoundRobin(t *testing.T) *roundRobin {
	rr := &roundRobin{}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			rr.mu.Lock()
			i := int(rr.next.Add(1)-1) % len(rr.backends)
			target, name := rr.backends[i], rr.names[i]
			rr.mu.Unlock()
			r.SetURL(target)
			r.Out.Host = r.In.Host // the replica sees the public host, as behind a real balancer
			r.SetXForwarded()
			// Keep what the client said it came from (the rate-limit checks use several addresses).
			if xff := r.In.Header.Get("X-Forwarded-For"); xff != "" {
				r.Out.Header.Set("X-Forwarded-For", xff+", 127.0.0.1")
			}
			r.Out.Header.Set(backendHeader, name)
		},
		ModifyResponse: func(res *http.Response) error {
			res.Header.Set(backendHeader, res.Request.Header.Get(backendHeader))
			return nil
		},
	}
	rr.Server = httptest.NewServer(proxy)
	t.Cleanup(rr.Close)
	return rr
}

func (rr *roundRobin) setBackends(ps []*testkit.Proc) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	for _, p := range ps {
		u, _ := url.Parse(p.URL)
		rr.backends = append(rr.backends, u)
		rr.names = append(rr.names, p.Name)
	}
}

func testPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 1400, 400))
	for x := 0; x < 1400; x += 7 {
		img.Set(x, x%400, color.RGBA{30, 90, 200, 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type uploaded struct{ path, backend string }

// uploadPNG uploads a builder PNG (/upload_creative_image) as the web app does.
func uploadPNG(t *testing.T, hc *http.Client, base string, picture []byte) uploaded {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("file", "creative.png")
	_, _ = part.Write(picture)
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, base+"/upload_creative_image", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	res, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var up struct{ Path string }
	if res.StatusCode != 200 || json.Unmarshal(raw, &up) != nil || up.Path == "" {
		t.Fatalf("upload: %d %s", res.StatusCode, raw)
	}
	return uploaded{path: up.Path, backend: res.Header.Get(backendHeader)}
}

// raceForSpots books one face's last free spots from several companies at once, half of them on
// replica 0 and half on replica 1, directly: exactly the free spots are sold, the other bookings
// get the conflict answer, and no face-week in the database holds more live spots than it has.
func raceForSpots(t *testing.T, c *testkit.Client, px *roundRobin, replicas []*testkit.Proc, sqlDB *sql.DB) {
	var defs campaigns.CampaignDefaults
	c.Get("/api/campaigns/defaults").Expect(t, 200).JSON(t, &defs)
	week := defs.EarliestStart
	// The demo sells some faces partly: take one with the fewest free spots left in the week.
	var face, market string
	var free int
	err := sqlDB.QueryRow(`
		SELECT id, market, free FROM (
			SELECT f.id, f.market, COALESCE(i.available_spots, f.base_spots) - (SELECT COUNT(*) FROM locations_spots s
				WHERE s.face_id = f.id AND s.week = $1 AND (s.status = 'active' OR s.expires_at > now())) AS free
			FROM locations_faces f LEFT JOIN locations_inventory i ON i.face_id = f.id AND i.week = $1
			WHERE COALESCE(i.vendor_tier, 1) = 1) faces
		WHERE free > 0 ORDER BY free, id LIMIT 1`, week.String()).Scan(&face, &market, &free)
	if err != nil || free < 1 {
		t.Fatalf("no face with a free spot in %s: %v (free %d)", week, err, free)
	}
	racers := free + 2 // more companies than spots
	type racer struct {
		c        *http.Client
		creative string
	}
	rs := make([]racer, racers)
	for i := range rs {
		a := testkit.NewClient(t, px.URL)
		// Each company signs up from its own address: the sign-up limit is per address.
		a.Header = http.Header{"X-Forwarded-For": {fmt.Sprintf("198.51.100.%d", 10+i)}}
		a.Post("/signup", identity.SignUpRequest{Company: fmt.Sprintf("Racer %d Co", i), Email: fmt.Sprintf("racer%d@scaleout.test", i),
			Phone: "+1 415 555 0199", Password: "a racing password 1"}).Expect(t, 201)
		var tok billing.CardToken
		year := time.Now().Year() + 2
		a.Post("/api/sandbox/tokens", billing.SandboxTokenRequest{Number: "4242424242424242", ExpMonth: 12, ExpYear: year, CVC: "123"}).Expect(t, 200).JSON(t, &tok)
		a.Post("/api/cards", billing.AddCardRequest{Token: tok.ID, ExpMonth: 12, ExpYear: year}).Expect(t, 201)
		up := uploadPNG(t, a.HTTP, px.URL, testPNG(t))
		var cr struct{ ID string }
		a.Post("/api/creatives/", map[string]any{"creative": map[string]string{"name": "Race", "url": up.path}}).Expect(t, 201).JSON(t, &cr)
		rs[i] = racer{c: a.HTTP, creative: cr.ID}
	}

	type answer struct {
		status int
		body   string
	}
	answers := make([]answer, racers)
	gate := make(chan struct{})
	var wg sync.WaitGroup
	for i, r := range rs {
		form := campaigns.CampaignForm{Name: "Race", TypeCampaign: campaigns.TypePremium, StrategySelected: campaigns.StrategyMarket,
			MarketsSelected: []string{market}, StartDate: week.String(), FrequencySelected: campaigns.FrequencyOneTime,
			CreativeID: r.creative, PlacesChecked: []campaigns.PlaceChecked{{ID: face}}}
		raw, _ := json.Marshal(form)
		target := replicas[i%2].URL // the session cookie is the browser's, on any replica
		wg.Go(func() {
			<-gate
			req, _ := http.NewRequest(http.MethodPost, target+"/api/campaigns", bytes.NewReader(raw))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Requested-With", "XMLHttpRequest")
			req.Header.Set(campaigns.IdempotencyKeyHeader, fmt.Sprintf("race-%d", i))
			res, err := r.c.Do(req)
			if err != nil {
				answers[i] = answer{body: err.Error()}
				return
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			answers[i] = answer{status: res.StatusCode, body: string(body)}
		})
	}
	close(gate)
	wg.Wait()
	won := 0
	for i, a := range answers {
		switch a.status {
		case http.StatusCreated:
			won++
		case http.StatusConflict:
		default:
			t.Fatalf("racer %d on %s: %d %s", i, replicas[i%2].Name, a.status, a.body)
		}
	}
	if won != free {
		t.Fatalf("%d bookings won %d free spots", won, free)
	}
	// No spot is sold twice anywhere: each face-week holds at most its spots.
	rows, err := sqlDB.Query(`
		SELECT s.face_id, s.week, COUNT(*), COALESCE(i.available_spots, f.base_spots)
		FROM locations_spots s JOIN locations_faces f ON f.id = s.face_id
		LEFT JOIN locations_inventory i ON i.face_id = s.face_id AND i.week = s.week
		WHERE s.status = 'active' OR s.expires_at > now()
		GROUP BY s.face_id, s.week, i.available_spots, f.base_spots
		HAVING COUNT(*) > COALESCE(i.available_spots, f.base_spots) OR s.face_id = $1 AND s.week = $2`, face, week.String())
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	checked := false
	for rows.Next() {
		var f, w string
		var used, spots int
		if err := rows.Scan(&f, &w, &used, &spots); err != nil {
			t.Fatal(err)
		}
		if used > spots {
			t.Fatalf("face %s, week %s: %d live spots of %d", f, w, used, spots)
		}
		checked = used == spots // the raced face is sold out, exactly
	}
	if err := rows.Err(); err != nil || !checked {
		t.Fatalf("the raced face %s is not sold out in %s (%v)", face, week, err)
	}
	t.Logf("booking race: %d companies on 2 replicas for %d free spots of face %s in %s: %d won", racers, free, face, week, won)
}

// apiKeyLimitAddsUp spreads one API key's calls over the replicas: its limit, and the remaining
// count of the RateLimit header, hold in total (every limit other than sign-in's counts through
// ratelimit.ForDatabase, in the database on PostgreSQL).
func apiKeyLimitAddsUp(t *testing.T, c *testkit.Client, px *roundRobin, n, limit int) {
	var key identity.CreatedAPIKey
	c.Post("/api/api-keys/", identity.CreateAPIKeyRequest{Name: "scale-out", Scope: auth.ScopeRead}).Expect(t, http.StatusCreated).JSON(t, &key)
	api := testkit.NewClient(t, px.URL)
	api.Header = http.Header{"Authorization": {"Bearer " + key.Secret}}
	refusedBy := map[string]bool{}
	for i := range limit + n {
		res := api.Get("/api/v1/markets")
		if i < limit {
			res.Expect(t, http.StatusOK)
			if want := fmt.Sprintf(`"per-key";r=%d;`, limit-i-1); !strings.HasPrefix(res.Header.Get("RateLimit"), want) {
				t.Fatalf("call %d on %s: RateLimit %q, want it to start %q", i+1, res.Header.Get(backendHeader), res.Header.Get("RateLimit"), want)
			}
			continue
		}
		if res.Status != http.StatusTooManyRequests || res.Map(t)["message"] != server.MsgKeyRateLimited {
			t.Fatalf("call %d on %s, over the key's limit of %d: %d %s", i+1, res.Header.Get(backendHeader), limit, res.Status, res.Body)
		}
		refusedBy[res.Header.Get(backendHeader)] = true
	}
	if len(refusedBy) != n {
		t.Fatalf("the key was refused by %v, want every replica", refusedBy)
	}
}

// rateLimitsAddUp spreads sign-in and reset attempts over the replicas: the limit holds in total.
// With a count per process every replica would allow the limit on its own (3 times as many).
func rateLimitsAddUp(t *testing.T, px *roundRobin, n, signInLimit, resetLimit int) {
	c := testkit.NewClient(t, px.URL)
	try := func(from, path string, body any) *testkit.Response {
		c.Header = http.Header{"X-Forwarded-For": {from}}
		return c.Post(path, body)
	}
	check := func(what string, limit int, attempt func(i int) *testkit.Response, ok int) {
		t.Helper()
		by := map[string]bool{}
		for i := range limit + n {
			res := attempt(i)
			want := ok
			if i >= limit {
				want = http.StatusTooManyRequests
			}
			if res.Status != want {
				t.Fatalf("%s attempt %d on %s: %d %s, want %d", what, i+1, res.Header.Get(backendHeader), res.Status, res.Body, want)
			}
			if want == http.StatusTooManyRequests {
				if res.Map(t)["message"] != identity.MsgTooManyAttempts || res.Header.Get("Retry-After") == "" {
					t.Fatalf("%s: 429 = %s %v", what, res.Body, res.Header)
				}
				by[res.Header.Get(backendHeader)] = true
			}
		}
		if len(by) != n {
			t.Fatalf("%s: refused by %v, want every replica", what, by)
		}
	}
	// Per email, each attempt from another address; then per address, each for another email.
	check("sign-in per email", signInLimit, func(i int) *testkit.Response {
		return try(fmt.Sprintf("203.0.113.%d", 10+i), "/signin", identity.SignInRequest{Email: "guess@scaleout.test", Password: fmt.Sprintf("guess %d", i)})
	}, http.StatusUnauthorized)
	check("sign-in per address", signInLimit, func(i int) *testkit.Response {
		return try("203.0.113.200", "/signin", identity.SignInRequest{Email: fmt.Sprintf("guess%d@scaleout.test", i), Password: "a guess"})
	}, http.StatusUnauthorized)
	check("password reset per email", resetLimit, func(i int) *testkit.Response {
		return try(fmt.Sprintf("203.0.113.%d", 100+i), "/users/reset-password", identity.ResetPasswordRequest{Email: "reset@scaleout.test"})
	}, http.StatusOK)
	check("password reset per address", resetLimit, func(i int) *testkit.Response {
		return try("203.0.113.201", "/users/reset-password", identity.ResetPasswordRequest{Email: fmt.Sprintf("reset%d@scaleout.test", i)})
	}, http.StatusOK)
}

// The jobs that must run once across replicas: hold release, the weekly campaign job (lifecycle),
// the mail outbox and charge retries.
var scaleOutJobs = []string{locations.JobReleaseHolds, "campaigns.lifecycle", "mail.deliver", billing.JobRetryPayments}

var jobRunsLine = regexp.MustCompile(`^marquee_job_runs_total\{job="([^"]+)",outcome="([^"]+)"\} (\S+)$`)

// jobRuns scrapes one replica's /metrics: runs by job and outcome ("job/ok").
func jobRuns(t *testing.T, p *testkit.Proc, token string) map[string]int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, p.URL+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s /metrics: %v", p.Name, err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("%s /metrics: %d", p.Name, res.StatusCode)
	}
	out := map[string]int{}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if m := jobRunsLine.FindStringSubmatch(sc.Text()); m != nil {
			v, _ := strconv.ParseFloat(m[3], 64)
			out[m[1]+"/"+m[2]] = int(v)
		}
	}
	return out
}

// jobsRunOncePerTick counts each job's runs on every replica over a few ticks: one replica (the
// leader) runs each once per tick, the others not at all. Then it kills the leader, and another
// replica runs every job within one tick.
func jobsRunOncePerTick(t *testing.T, replicas []*testkit.Proc, token string, tick time.Duration) {
	scrape := func() []map[string]int {
		out := make([]map[string]int, len(replicas))
		for i, p := range replicas {
			if p.Running() {
				out[i] = jobRuns(t, p, token)
			}
		}
		return out
	}
	const ticks = 4
	before := scrape()
	start := time.Now()
	time.Sleep(ticks * tick)
	after := scrape()
	elapsed := time.Since(start)
	leader := -1
	for _, job := range scaleOutJobs {
		total := 0
		for i := range replicas {
			if failed := after[i][job+"/failed"]; failed > 0 {
				t.Fatalf("%s failed %d times on %s", job, failed, replicas[i].Name)
			}
			d := after[i][job+"/ok"] - before[i][job+"/ok"]
			if d == 0 {
				continue
			}
			if leader >= 0 && leader != i {
				t.Fatalf("%s ran on %s and on %s: two leaders", job, replicas[leader].Name, replicas[i].Name)
			}
			leader = i
			total += d
		}
		// Once per tick across the three: every replica running it would make three times as many.
		most := int(elapsed/tick) + 1
		if total < 1 || total > most {
			t.Fatalf("%s ran %d times in %s of %s ticks, want 1 to %d", job, total, elapsed, tick, most)
		}
		t.Logf("%s: %d runs in %s, all on %s", job, total, elapsed.Round(time.Millisecond), replicas[leader].Name)
	}

	// Kill the leader: its database session ends, and with it the lock; another replica leads on its
	// next tick.
	base := scrape()
	replicas[leader].Kill()
	killed := time.Now()
	deadline := killed.Add(tick + 2*time.Second) // one tick, and the time a run and a scrape take
	for {
		now := scrape()
		took := map[string]string{}
		for _, job := range scaleOutJobs {
			for i := range replicas {
				if i != leader && now[i][job+"/ok"] > base[i][job+"/ok"] {
					took[job] = replicas[i].Name
				}
			}
		}
		if len(took) == len(scaleOutJobs) {
			t.Logf("leader %s killed; every job ran again after %s on %v", replicas[leader].Name, time.Since(killed).Round(time.Millisecond), took)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s after the leader %s was killed, only %v had run again", time.Since(killed), replicas[leader].Name, took)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// twoReplicasMigrateOnce starts two replicas at the same moment on a fresh database, both
// migrating on start: both come up, and each migration is recorded once, the same ones as the
// cluster's database.
func twoReplicasMigrateOnce(t *testing.T, cluster *sql.DB) {
	fresh := testkit.PostgresURL(t)
	env := map[string]string{"DATABASE_URL": fresh, "MIGRATE_ON_START": "true", "JOBS_ENABLED": "false", "LOG_LEVEL": "warn"}
	a, b := testkit.NewProc(t, "migrate-a", env), testkit.NewProc(t, "migrate-b", env)
	a.Launch()
	b.Launch()
	a.WaitReady(60 * time.Second)
	b.WaitReady(60 * time.Second)
	freshDB := openSQL(t, fresh)
	ids := func(d *sql.DB) map[string]int {
		rows, err := d.Query("SELECT id, COUNT(*) FROM " + db.MigrationsTable + " GROUP BY id")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]int{}
		for rows.Next() {
			var id string
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				t.Fatal(err)
			}
			out[id] = n
		}
		return out
	}
	got, want := ids(freshDB), ids(cluster)
	for id, n := range got {
		if n != 1 {
			t.Fatalf("migration %s recorded %d times", id, n)
		}
	}
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d migrations recorded, the cluster has %d", len(got), len(want))
	}
	for _, p := range []*testkit.Proc{a, b} {
		if strings.Contains(p.Log(), "level=ERROR") {
			t.Fatalf("%s logged an error:\n%s", p.Name, p.Log())
		}
	}
	t.Logf("two replicas migrated a fresh database at once: %d migrations, each once", len(got))
}
