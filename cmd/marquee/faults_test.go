package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	smtpmock "github.com/mocktools/go-smtp-mock/v2"

	"marquee/modules/billing"
	"marquee/modules/identity"
	"marquee/platform/apperr"
	"marquee/platform/db"
	"marquee/platform/storage"
	"marquee/platform/testkit"
)

// Faults, each a test with nothing lost (docs/operations.md "Faults"). Each runs the
// real `marquee serve` (testkit.Serve) against real peers, breaks one of them, and checks what the
// clients saw and what the database holds afterwards.

// drive runs workers against c until stop closes: each turn creates a campaign on the plan's next
// face (its name and Idempotency-Key are "<prefix>-<face index>"), lists the campaigns, and every
// third turn uploads a creative. Every answer goes to judge with its kind ("create", "list",
// "upload") and the turn's face index; a worker ends when judge returns false.
func drive(c *faultClient, plan *campaignPlan, prefix string, workers int, stop <-chan struct{}, judge func(kind string, n int, a answer) bool) *sync.WaitGroup {
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				n := plan.Next()
				if !judge("create", n, c.create(plan, n, fmt.Sprintf("%s-%d", prefix, n))) {
					return
				}
				if !judge("list", n, c.do(http.MethodGet, "/api/v1/campaigns", nil, nil)) {
					return
				}
				if i%3 == 0 && !judge("upload", n, c.upload(n)) {
					return
				}
			}
		}()
	}
	return &wg
}

// isRefusal reports whether a is a refusal that is no fault: concurrent creations of one company
// may find its account credit spent by another (409, nothing written).
func isRefusal(a answer) bool {
	e, ok := a.envelope()
	return a.Err == nil && a.Status == http.StatusConflict && ok && e.Message == billing.MsgCreditInsufficient
}

// isOutage reports whether a is the outage answer: 503 with the envelope and apperr.MsgUnavailable.
func isOutage(a answer) bool {
	e, ok := a.envelope()
	return a.Err == nil && a.Status == http.StatusServiceUnavailable && ok && e.Message == apperr.MsgUnavailable
}

// PostgreSQL restarted under load: while it is down every request answers 503 with the outage
// message (never 500, never a dropped connection); once it is back the same Marquee process
// serves again; and no campaign is left half-written by the transactions the restart cut.
func TestFaultPostgresRestart(t *testing.T) {
	t.Parallel()
	pg := startPrivatePG(t)
	env := baseEnv(filepath.Join(t.TempDir(), "data"))
	env["DATABASE_URL"] = pg.URL()
	// Jobs tick every second and their runs are counted on /metrics, to see them come back.
	const metricsToken = "pg-restart-metrics"
	env["JOBS_INTERVAL"], env["METRICS_TOKEN"] = "1s", metricsToken
	cli(t, env, "seed", "--demo")
	p := testkit.Serve(t, "pg-restart", env)
	c := newFaultClient(p.URL, demoKey)
	plan := planCampaigns(t, c)

	var seen tally
	stop := make(chan struct{})
	wg := drive(c, plan, "pg", 4, stop, func(kind string, n int, a answer) bool {
		switch {
		case a.Err == nil && a.Status < 300:
			seen.add(kind + " ok")
		case isRefusal(a):
			seen.add(kind + " refused")
		case isOutage(a):
			seen.add(kind + " 503")
			time.Sleep(20 * time.Millisecond) // a client backing off; keeps the log short
		default:
			seen.fail(fmt.Sprintf("%s %d: %s", kind, n, a))
		}
		return true
	})
	time.Sleep(time.Second)
	pg.Stop()
	// While it is down: readiness says so, and requests keep answering 503.
	if a := c.do(http.MethodGet, "/readyz", nil, nil); a.Status != http.StatusServiceUnavailable {
		t.Errorf("/readyz while the database is down: %s", a)
	}
	time.Sleep(2 * time.Second)
	outage := seen.get("create 503") + seen.get("list 503") + seen.get("upload 503")
	pg.Start()
	back := time.Now()
	for {
		n := plan.Next()
		if c.create(plan, n, fmt.Sprintf("pg-probe-%d", n)).Status == http.StatusCreated {
			break
		}
		if time.Since(back) > 20*time.Second {
			t.Fatalf("Marquee did not recover within 20 s of PostgreSQL's restart: %s", seen.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("serving again %s after PostgreSQL accepted connections", time.Since(back).Round(time.Millisecond))
	// The jobs come back too: the leader's advisory-lock session died with the server, and the
	// process takes the lead again on a new connection, without a restart.
	before := jobRuns(t, p, metricsToken)["mail.deliver/ok"]
	for jobRuns(t, p, metricsToken)["mail.deliver/ok"] <= before {
		if time.Since(back) > 20*time.Second {
			t.Fatalf("the jobs did not run again within 20 s of PostgreSQL's restart:\n%s", p.Log())
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("jobs running again %s after PostgreSQL accepted connections", time.Since(back).Round(time.Millisecond))
	time.Sleep(time.Second) // the load goes on with the database back
	close(stop)
	wg.Wait()
	if !p.Running() {
		t.Fatal("Marquee exited")
	}
	for range 5 {
		n := plan.Next()
		if a := c.create(plan, n, fmt.Sprintf("pg-after-%d", n)); a.Status != http.StatusCreated {
			t.Fatalf("create after the restart: %s", a)
		}
	}
	t.Logf("answers: %s", seen.String())
	for _, b := range seen.bad {
		t.Errorf("neither a success nor the outage answer: %s", b)
	}
	if outage == 0 {
		t.Fatal("no request answered 503 while PostgreSQL was down: the outage was not seen")
	}
	n := checkCampaignsWhole(t, openDB(t, env))
	t.Logf("%d fault campaigns, each whole", n)
}

// SIGKILL in the middle of campaign creations (each with its first charge) and uploads: after a
// restart every campaign is whole or absent, every file row has its object, and the cut
// creations, sent again with their Idempotency-Key, make exactly one campaign each.
func TestFaultKill(t *testing.T) {
	t.Parallel()
	for _, dialect := range testkit.Dialects() {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			env := baseEnv(filepath.Join(t.TempDir(), "data"))
			if dialect == db.Postgres {
				env["DATABASE_URL"] = testkit.PostgresURL(t)
			}
			cli(t, env, "seed", "--demo")
			p := testkit.Serve(t, "kill-"+dialect, env)
			c := newFaultClient(p.URL, demoKey)
			plan := planCampaigns(t, c)
			files := filepath.Join(env["DATA_DIR"], "files")
			st, err := storage.NewFS(files)
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			cut := map[int]string{} // creations whose connection the kill cut, by face index
			inFlight := 0
			for round := range 2 {
				stop := make(chan struct{})
				var seen tally
				prefix := fmt.Sprintf("kill%d", round)
				wg := drive(c, plan, prefix, 6, stop, func(kind string, n int, a answer) bool {
					switch {
					case a.Err == nil && a.Status < 300:
						seen.add(kind + " ok")
					case isRefusal(a):
						seen.add(kind + " refused")
					case a.Err != nil:
						mu.Lock()
						defer mu.Unlock()
						if a.Sent {
							inFlight++ // sent before the kill, cut by it
							if kind == "create" {
								cut[n] = fmt.Sprintf("%s-%d", prefix, n)
							}
						}
						return false
					default:
						seen.fail(fmt.Sprintf("%s %d: %s", kind, n, a))
					}
					return true
				})
				time.Sleep(800 * time.Millisecond)
				p.Kill()
				close(stop)
				wg.Wait()
				for _, b := range seen.bad {
					t.Errorf("before the kill: %s", b)
				}
				t.Logf("round %d: %s before the kill", round, seen.String())
				p.Start()
				gdb := openDB(t, env)
				n := checkCampaignsWhole(t, gdb)
				rows := checkFilesStored(t, gdb, st)
				t.Logf("round %d after the restart: %d campaigns whole, %d file rows with their objects, %d uploaded objects without a row",
					round, n, rows, orphanObjects(t, gdb, files))
				_ = db.Close(gdb)
			}
			if inFlight == 0 {
				t.Fatal("the kills cut no request in flight")
			}
			t.Logf("%d requests in flight when killed, %d of them creations", inFlight, len(cut))
			// A client that lost its answer sends the creation again with the same key: one
			// campaign, whether the first attempt had committed or not.
			gdb := openDB(t, env)
			for n, key := range cut {
				if a := c.create(plan, n, key); a.Status != http.StatusCreated && !isRefusal(a) {
					t.Errorf("creation %s sent again: %s", key, a)
				}
				var count int64
				gdb.Table("campaigns_campaigns").Where("name = ?", faultCampaignPrefix+key).Count(&count)
				if count > 1 {
					t.Errorf("creation %s: %d campaigns", key, count)
				}
			}
			checkCampaignsWhole(t, gdb)
		})
	}
}

// faultUser makes a user with a company through the command line and returns a client signed in
// as that user.
func faultUser(t *testing.T, p *testkit.Proc, email string) *faultClient {
	t.Helper()
	const password = "a fault test password"
	cli(t, p.Env, "user", "create", "--email", email, "--password", password, "--role", "user", "--company", "Fault Co "+strings.Split(email, "@")[0])
	c := newFaultClient(p.URL, "")
	c.signIn(t, email, password)
	return c
}

// s3Peer is a gofakes3 server over one in-memory store that can be closed and started again on
// the same address, the objects kept (a store that went away and came back).
type s3Peer struct {
	backend *s3mem.Backend
	handler http.Handler
	addr    string
	srv     *httptest.Server
}

func startS3Peer(t *testing.T) *s3Peer {
	backend := s3mem.New()
	s := &s3Peer{backend: backend, handler: gofakes3.New(backend).Server()}
	s.srv = httptest.NewServer(s.handler)
	s.addr = s.srv.Listener.Addr().String()
	t.Cleanup(func() { s.srv.Close() })
	return s
}

func (s *s3Peer) Stop() { s.srv.Close() }

func (s *s3Peer) Start(t *testing.T) {
	l, err := net.Listen("tcp", s.addr)
	if err != nil {
		t.Fatalf("listen again on %s: %v", s.addr, err)
	}
	s.srv = httptest.NewUnstartedServer(s.handler)
	s.srv.Listener = l
	s.srv.Start()
}

// S3 down: uploads (and reads of stored files) answer 503 with the storage message, the rest of
// Marquee keeps serving, and no database row names an object the store does not hold, then or
// after it is back.
func TestFaultS3Down(t *testing.T) {
	t.Parallel()
	s3 := startS3Peer(t)
	env := baseEnv(filepath.Join(t.TempDir(), "data"))
	for k, v := range map[string]string{"STORAGE_DRIVER": "s3", "S3_ENDPOINT": s3.addr, "S3_ACCESS_KEY": "fault",
		"S3_SECRET_KEY": "fault-secret", "S3_BUCKET": "marquee-faults"} {
		env[k] = v
	}
	p := testkit.Serve(t, "s3-down", env)
	c := faultUser(t, p, "s3@fault.test")
	uploaded := 0
	upload := func(n int) answer {
		a := c.upload(n)
		if a.Status == http.StatusOK {
			uploaded++
		}
		return a
	}
	first := upload(1)
	if first.Status != http.StatusOK {
		t.Fatalf("upload with S3 up: %s", first)
	}
	var up struct{ Path string }
	_ = json.Unmarshal(first.Body, &up)
	image := "/creative/image?image=" + url.QueryEscape(up.Path)
	if a := c.do(http.MethodGet, image, nil, nil); a.Status != http.StatusOK {
		t.Fatalf("read with S3 up: %s", a)
	}

	s3.Stop()
	for n := 2; n < 4; n++ {
		a := upload(n)
		if e, ok := a.envelope(); a.Status != http.StatusServiceUnavailable || !ok || e.Message != storage.MsgUnavailable {
			t.Fatalf("upload with S3 down: %s", a)
		}
	}
	if a := c.do(http.MethodGet, image, nil, nil); a.Status != http.StatusServiceUnavailable {
		t.Errorf("read with S3 down: %s", a)
	} else if e, ok := a.envelope(); !ok || e.Message != storage.MsgReadUnavailable {
		t.Errorf("read with S3 down: %s", a)
	}
	if a := c.do(http.MethodGet, "/users/currentUser", nil, nil); a.Status != http.StatusOK {
		t.Errorf("a call that needs no file with S3 down: %s", a)
	}
	s3.Start(t)
	gdb := openDB(t, env)
	st, err := storage.NewS3(t.Context(), storage.Options{S3Endpoint: s3.addr, S3AccessKey: "fault", S3SecretKey: "fault-secret", S3Bucket: "marquee-faults"})
	if err != nil {
		t.Fatal(err)
	}
	if n := checkFilesStored(t, gdb, st); n != uploaded {
		t.Errorf("%d file rows after %d uploads succeeded", n, uploaded)
	}
	if a := upload(5); a.Status != http.StatusOK {
		t.Fatalf("upload with S3 back: %s", a)
	}
	if a := c.do(http.MethodGet, image, nil, nil); a.Status != http.StatusOK {
		t.Errorf("read with S3 back: %s", a)
	}
	if n := checkFilesStored(t, gdb, st); n != uploaded || n != 2 {
		t.Errorf("%d file rows after %d uploads succeeded", n, uploaded)
	}
}

// The SMTP server down: the mail asked for while it is down waits in the outbox and goes out once
// it is back, every message exactly once. The outage here lasts a few seconds, not a minute: what
// matters is that delivery attempts fail while it is down (the outbox then keeps the message
// pending with its next attempt time, retry.Backoff from 30 s), and a minute's outage takes the
// same path, only with more failed attempts. The test therefore waits for the first retry, 30 s.
func TestFaultSMTPDown(t *testing.T) {
	t.Parallel()
	port := testkit.FreePort(t)
	smtp := func() *smtpmock.Server {
		s := smtpmock.New(smtpmock.ConfigurationAttr{HostAddress: "127.0.0.1", PortNumber: port, MultipleMessageReceiving: true})
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := smtp()
	env := baseEnv(filepath.Join(t.TempDir(), "data"))
	for k, v := range map[string]string{"MAIL_DRIVER": "smtp", "SMTP_HOST": "127.0.0.1", "SMTP_PORT": strconv.Itoa(port),
		"SMTP_TLS": "none", "MAIL_POLL_INTERVAL": "200ms"} {
		env[k] = v
	}
	p := testkit.Serve(t, "smtp-down", env)
	const email = "smtp@fault.test"
	cli(t, p.Env, "user", "create", "--email", email, "--password", "a fault test password", "--role", "user", "--company", "Mail Co")
	c := newFaultClient(p.URL, "")
	reset := func() {
		t.Helper()
		if a := c.json(http.MethodPost, "/users/reset-password", identity.ResetPasswordRequest{Email: email}, nil); a.Status != http.StatusOK {
			t.Fatalf("reset: %s", a)
		}
	}
	for range 3 {
		reset()
	}
	before, err := first.WaitForMessages(3, 15*time.Second)
	if err != nil {
		t.Fatalf("mail with SMTP up: %v", err)
	}
	if err := first.Stop(); err != nil {
		t.Fatal(err)
	}

	for range 3 {
		reset()
	}
	// Wait until the dispatcher tried them and failed: they are pending again, with an error.
	gdb := openDB(t, env)
	deadline := time.Now().Add(15 * time.Second)
	for {
		var failed int64
		gdb.Table("mail_outbox").Where("status = ? AND attempts >= 1 AND last_error <> ''", "pending").Count(&failed)
		if failed == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of the 3 messages were tried while SMTP was down", failed)
		}
		time.Sleep(100 * time.Millisecond)
	}
	second := smtp()
	defer func() { _ = second.Stop() }()
	after, err := second.WaitForMessages(3, 45*time.Second)
	if err != nil {
		t.Fatalf("mail after SMTP came back: %v", err)
	}
	time.Sleep(time.Second) // five more polls: nothing more may arrive
	after = second.Messages()
	bodies := map[string]int{}
	for _, m := range append(before, after...) {
		bodies[m.MsgRequest()]++
	}
	if len(before) != 3 || len(after) != 3 || len(bodies) != 6 {
		t.Fatalf("delivered %d before and %d after the outage, %d distinct (want 3, 3, 6)", len(before), len(after), len(bodies))
	}
	var statuses []string
	gdb.Table("mail_outbox").Order("created_at").Pluck("status", &statuses)
	if fmt.Sprint(statuses) != "[sent sent sent sent sent sent]" {
		t.Fatalf("outbox: %v", statuses)
	}
}

// A full disk under SQLite (DATA_DIR on a small tmpfs, filled up): writes answer 507 with the
// disk-full message, never 500; reads go on; once space returns writes work again and the
// database passes PRAGMA integrity_check.
func TestFaultDiskFull(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount a tmpfs (the test runs as root): %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v\n%s", dir, err, out)
		}
	})
	p := testkit.Serve(t, "disk-full", baseEnv(dir)) // stopped before the unmount (cleanups run last first)
	c := faultUser(t, p, "disk@fault.test")
	for n := range 3 {
		if a := c.upload(n); a.Status != http.StatusOK {
			t.Fatalf("upload before the disk is full: %s", a)
		}
	}
	key := func(name string) answer {
		return c.json(http.MethodPost, "/api/api-keys/", map[string]string{"name": name, "scope": "read"}, nil)
	}
	if a := key("before"); a.Status != http.StatusCreated {
		t.Fatalf("a write before the disk is full: %s", a)
	}

	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			break // ENOSPC
		}
	}
	_ = f.Close()

	// Writes: a new key (a row), an upload (a file and a row), a sign-in (a session). SQLite may
	// still fit a few rows in pages its WAL already holds, so write until the disk refuses.
	refused := map[string]int{}
	for n := 0; n < 300 && (refused["key"] < 3 || refused["upload"] < 3); n++ {
		for kind, a := range map[string]answer{"key": key(fmt.Sprintf("full-%d", n)), "upload": c.upload(100 + n)} {
			switch e, ok := a.envelope(); {
			case a.Status == http.StatusCreated || a.Status == http.StatusOK:
			case a.Status == http.StatusInsufficientStorage && ok && e.Message == apperr.MsgNoSpace:
				refused[kind]++
			default:
				t.Fatalf("a write (%s) on a full disk: %s", kind, a)
			}
		}
	}
	// A new key is a row and nothing else: its refusal is SQLite's own (SQLITE_FULL).
	if refused["key"] == 0 || refused["upload"] == 0 {
		t.Fatalf("writes refused on the full disk: %v", refused)
	}
	t.Logf("writes refused on the full disk: %v", refused)
	// Reads go on.
	for _, path := range []string{"/users/currentUser", "/api/creatives/", "/api/api-keys/"} {
		if a := c.do(http.MethodGet, path, nil, nil); a.Status != http.StatusOK {
			t.Errorf("read %s on a full disk: %s", path, a)
		}
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if a := key("after"); a.Status != http.StatusCreated {
		t.Fatalf("a write once space returned: %s", a)
	}
	if a := c.upload(999); a.Status != http.StatusOK {
		t.Fatalf("an upload once space returned: %s", a)
	}
	var check string
	if err := openDB(t, p.Env).Raw("PRAGMA integrity_check").Scan(&check).Error; err != nil || check != "ok" {
		t.Fatalf("integrity_check: %q %v", check, err)
	}
}
