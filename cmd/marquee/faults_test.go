package main

import (
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"marquee/modules/billing"
	"marquee/platform/apperr"
	"marquee/platform/db"
	"marquee/platform/storage"
	"marquee/platform/testkit"
)

// Faults, each a test with nothing lost (issue 19; docs/operations.md "Faults"). Each runs the
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
						if !errors.Is(a.Err, syscall.ECONNREFUSED) {
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
