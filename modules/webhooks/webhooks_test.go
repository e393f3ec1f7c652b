package webhooks_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"marquee/modules/billing"
	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/modules/webhooks"
	"marquee/platform/dates"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// fixture is a running app with two companies' users.
type fixture struct {
	s          *testkit.Server
	m          *webhooks.Module
	adv, other *testkit.Client
	advAcc     server.DemoAccount
}

func start(t *testing.T, dialect string, opts ...testkit.Option) *fixture {
	t.Helper()
	s := testkit.Start(t, dialect, server.Compose(webhooks.Component), opts...)
	f := &fixture{s: s, m: testkit.ModuleOf[*webhooks.Module](t, s)}
	ids := testkit.ModuleOf[*identity.Module](t, s).Service()
	user := func(email, company string) (*testkit.Client, server.DemoAccount) {
		u, _, err := ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: email, Password: "webhooks password 1", Role: identity.RoleUser,
			CompanyName: company, FirstName: "Ada", LastName: "Lovelace"})
		if err != nil {
			t.Fatal(err)
		}
		c := s.Client(t)
		c.SessionAs(s, u.ID)
		return c, server.DemoAccount{UserID: u.ID, CompanyID: u.Company.ID, Email: email}
	}
	f.adv, f.advAcc = user("ada@webhooks.test", "Sunrise Coffee")
	f.other, _ = user("bob@webhooks.test", "Other Co")
	return f
}

func (f *fixture) create(t *testing.T, url string, events ...string) webhooks.EndpointResponse {
	t.Helper()
	var out webhooks.EndpointResponse
	f.adv.Post("/api/webhooks", map[string]any{"url": url, "events": events}).Expect(t, http.StatusOK).JSON(t, &out)
	return out
}

// dispatch runs the event outbox (the fan-out) and then the delivery worker once.
func (f *fixture) dispatch(t *testing.T) {
	t.Helper()
	if _, err := f.s.Kernel.Events.Dispatch(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.DeliverDue(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) deliveries(t *testing.T, c *testkit.Client, id string) []webhooks.Delivery {
	t.Helper()
	var out webhooks.DeliveriesResponse
	c.Get("/api/webhooks/"+id+"/deliveries").Expect(t, http.StatusOK).JSON(t, &out)
	return out.Deliveries
}

// verify checks a Marquee-Signature the way a receiver would, written here from docs/api.md and
// not with the package's Sign: HMAC-SHA256 of "<t>.<body>" under the secret, in hex.
func verify(header, secret string, body []byte, now time.Time) error {
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("no timestamp in %q", header)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return fmt.Errorf("timestamp %d outside the tolerance", sec)
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "." + string(body)))
	want := hex.EncodeToString(mac.Sum(nil))
	for _, s := range sigs {
		if hmac.Equal([]byte(s), []byte(want)) {
			return nil
		}
	}
	return fmt.Errorf("no v1 signature matches")
}

// TestSignedDeliveriesRetryUntilOneSuccess: a receiver that checks every signature independently
// fails three times, then succeeds; concurrent workers retry with backoff, and the delivery is
// marked done exactly once, after four attempts.
func TestSignedDeliveriesRetryUntilOneSuccess(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect, testkit.WithEnv("WEBHOOK_ALLOW_PRIVATE", "true"))
		var (
			mu     sync.Mutex
			bodies [][]byte
			calls  atomic.Int32
			secret string
		)
		recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			if err := verify(r.Header.Get("Marquee-Signature"), secret, body, f.s.Clock.Now()); err != nil {
				t.Errorf("signature: %v", err)
			}
			mu.Lock()
			bodies = append(bodies, body)
			mu.Unlock()
			if calls.Add(1) <= 3 {
				http.Error(w, "not yet", http.StatusServiceUnavailable)
				return
			}
			_, _ = io.WriteString(w, `{"ok":true}`)
		}))
		defer recv.Close()

		ep := f.create(t, recv.URL+"/hooks", webhooks.TypeMakeGoodGranted, webhooks.TypeCampaignPaused)
		secret = ep.Secret
		if !strings.HasPrefix(secret, "whsec_") || ep.Endpoint.Events[0] != webhooks.TypeCampaignPaused {
			t.Fatalf("created %+v", ep)
		}
		var revealed webhooks.SecretResponse
		f.adv.Get("/api/webhooks/"+ep.Endpoint.ID+"/secret").Expect(t, http.StatusOK).JSON(t, &revealed)
		if revealed.Secret != secret {
			t.Fatalf("revealed secret %q, created %q", revealed.Secret, secret)
		}

		// Campaigns' make-good event, and one type not subscribed.
		err := f.s.Kernel.Events.Publish(t.Context(), campaigns.EventMakeGoodGranted, campaigns.MakeGoodGrantedEvent{CampaignID: "camp-1",
			CompanyID: f.advAcc.CompanyID, WeekID: "week-1", CreditCents: 12345, MakeGoodID: "mg-1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.s.Kernel.Events.Publish(t.Context(), "campaigns.week_delivered", map[string]any{"campaign_id": "camp-1",
			"company_id": f.advAcc.CompanyID, "week_id": "week-1", "start_at": "2026-11-16", "impressions": 5}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.s.Kernel.Events.Dispatch(t.Context()); err != nil {
			t.Fatal(err)
		}
		// Four rounds of three concurrent workers, the clock moved to each next attempt.
		for round := 0; round < 4; round++ {
			var wg sync.WaitGroup
			for range 3 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := f.m.DeliverDue(context.Background()); err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			ds := f.deliveries(t, f.adv, ep.Endpoint.ID)
			if len(ds) != 1 {
				t.Fatalf("deliveries = %+v, want one (week.delivered is not subscribed)", ds)
			}
			d := ds[0]
			if d.Attempts != round+1 {
				t.Fatalf("round %d: attempts = %d", round, d.Attempts)
			}
			if round < 3 {
				if d.Status != webhooks.StatusPending || d.LastStatus != 503 || !strings.Contains(d.LastResponse, "not yet") || d.NextAttemptAt == nil {
					t.Fatalf("round %d: %+v", round, d)
				}
				// Backoff: 30 s, then 1 min, then 2 min.
				if want := f.s.Clock.Now().Add(webhooks.RetryBase << round); !d.NextAttemptAt.Equal(want) {
					t.Fatalf("round %d: next attempt %v, want %v", round, d.NextAttemptAt, want)
				}
				f.s.Clock.Set(*d.NextAttemptAt)
				continue
			}
			if d.Status != webhooks.StatusSucceeded || d.LastStatus != 200 || d.DeliveredAt == nil || d.EventType != webhooks.TypeMakeGoodGranted {
				t.Fatalf("final: %+v", d)
			}
		}
		if n := calls.Load(); n != 4 {
			t.Fatalf("receiver got %d requests, want 4", n)
		}
		// The payload's stable shape, the same body at every attempt.
		var p map[string]any
		if err := json.Unmarshal(bodies[3], &p); err != nil {
			t.Fatal(err)
		}
		data, _ := p["data"].(map[string]any)
		if len(p) != 4 || p["type"] != webhooks.TypeMakeGoodGranted || !strings.HasPrefix(p["id"].(string), "evt_") || p["created"] == nil ||
			data["campaign_id"] != "camp-1" || data["make_good_id"] != "mg-1" || data["credit"] != 123.45 || data["week_id"] != "week-1" {
			t.Fatalf("payload %s", bodies[3])
		}
		if string(bodies[0]) != string(bodies[3]) {
			t.Fatalf("the body changed between attempts")
		}

		// Redeliver by hand: a new attempt, marked done again.
		f.adv.Post("/api/webhooks/"+ep.Endpoint.ID+"/deliveries/"+f.deliveries(t, f.adv, ep.Endpoint.ID)[0].ID+"/redeliver", nil).Expect(t, http.StatusOK)
		f.dispatch(t)
		if d := f.deliveries(t, f.adv, ep.Endpoint.ID)[0]; d.Status != webhooks.StatusSucceeded || d.Attempts != 5 || calls.Load() != 5 {
			t.Fatalf("after redeliver: %+v, calls %d", d, calls.Load())
		}
	})
}

// TestEndpointFailingFor24HoursIsDisabled: every attempt fails; at the end of the 24-hour window
// the delivery gives up, the endpoint is disabled and its owner emailed.
func TestEndpointFailingFor24HoursIsDisabled(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect, testkit.WithEnv("WEBHOOK_ALLOW_PRIVATE", "true"))
		var calls atomic.Int32
		recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.WriteHeader(http.StatusInternalServerError)
		}))
		defer recv.Close()
		ep := f.create(t, recv.URL, webhooks.TypeCampaignPaused)
		f.adv.Post("/api/webhooks/"+ep.Endpoint.ID+"/test", nil).Expect(t, http.StatusOK)
		start := f.s.Clock.Now()
		f.dispatch(t)
		for i := 0; i < 100; i++ {
			d := f.deliveries(t, f.adv, ep.Endpoint.ID)[0]
			if d.Status != webhooks.StatusPending {
				break
			}
			if f.s.Clock.Now().Sub(start) <= 23*time.Hour {
				var eps webhooks.EndpointsResponse
				f.adv.Get("/api/webhooks").Expect(t, http.StatusOK).JSON(t, &eps)
				if !eps.Endpoints[0].Enabled || eps.Endpoints[0].FailingSince == nil {
					t.Fatalf("at %v: %+v", f.s.Clock.Now().Sub(start), eps.Endpoints[0])
				}
			}
			f.s.Clock.Set(*d.NextAttemptAt)
			f.dispatch(t)
		}
		d := f.deliveries(t, f.adv, ep.Endpoint.ID)[0]
		if d.Status != webhooks.StatusFailed || d.EventType != webhooks.TypeTest {
			t.Fatalf("delivery %+v", d)
		}
		if got := f.s.Clock.Now().Sub(start); got != 24*time.Hour {
			t.Fatalf("the last attempt was after %v, want 24h", got)
		}
		// 30 s doubling to one hour: 8 attempts in the first ~64 minutes, then hourly.
		if n := calls.Load(); n < 25 || n > 35 || int(n) != d.Attempts {
			t.Fatalf("attempts = %d (log %d)", n, d.Attempts)
		}
		var eps webhooks.EndpointsResponse
		f.adv.Get("/api/webhooks").Expect(t, http.StatusOK).JSON(t, &eps)
		if e := eps.Endpoints[0]; e.Enabled || e.DisabledAt == nil || e.DisabledReason == "" {
			t.Fatalf("endpoint %+v", e)
		}
		mails := f.s.DeliverMail(t)
		if len(mails) != 1 || !strings.Contains(mails[0], "To: <ada@webhooks.test>") || !strings.Contains(mails[0], recv.URL) ||
			!strings.Contains(mails[0], "disabled") {
			t.Fatalf("mails %q", mails)
		}
		// Disabled: no test event, no redelivery; enabling again works.
		f.adv.Post("/api/webhooks/"+ep.Endpoint.ID+"/test", nil).Expect(t, http.StatusBadRequest)
		f.adv.Post("/api/webhooks/"+ep.Endpoint.ID+"/deliveries/"+d.ID+"/redeliver", nil).Expect(t, http.StatusBadRequest)
		f.adv.Put("/api/webhooks/"+ep.Endpoint.ID, map[string]any{"url": recv.URL, "events": []string{webhooks.TypeCampaignPaused}, "enabled": true}).Expect(t, http.StatusOK)
		f.adv.Post("/api/webhooks/"+ep.Endpoint.ID+"/deliveries/"+d.ID+"/redeliver", nil).Expect(t, http.StatusOK)
	})
}

// fakeDNS answers from a map the test changes (DNS rebinding).
type fakeDNS struct {
	mu    sync.Mutex
	hosts map[string]string
}

func (d *fakeDNS) set(host, ip string) { d.mu.Lock(); d.hosts[host] = ip; d.mu.Unlock() }

func (d *fakeDNS) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	ip, ok := d.hosts[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return []net.IPAddr{{IP: net.ParseIP(ip)}}, nil
}

// TestSSRFRefusals: in production mode (the default) URLs must be https and reach public
// addresses only, at registration and again at delivery (a host that resolves to a private
// address by then is refused and never dialed).
func TestSSRFRefusals(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		dns := &fakeDNS{hosts: map[string]string{"hooks.example.com": "93.184.216.34", "private.example.com": "192.168.1.10",
			"meta.example.com": "169.254.169.254", "cgnat.example.com": "100.64.0.1", "ula.example.com": "fd00:ec2::254"}}
		f.m.SetResolver(dns)
		refused := map[string]string{
			"http://hooks.example.com/x":         webhooks.MsgURLHTTPS,
			"https://127.0.0.1/x":                webhooks.MsgURLPrivate,
			"https://localhost.example/x":        webhooks.MsgURLUnresolvable,
			"https://10.1.2.3/x":                 webhooks.MsgURLPrivate,
			"https://172.16.0.1/x":               webhooks.MsgURLPrivate,
			"https://169.254.169.254/latest":     webhooks.MsgURLPrivate,
			"https://[fd00:ec2::254]/latest":     webhooks.MsgURLPrivate,
			"https://[::1]/x":                    webhooks.MsgURLPrivate,
			"https://[::ffff:127.0.0.1]/x":       webhooks.MsgURLHost,
			"https://[fe80::1]/x":                webhooks.MsgURLPrivate,
			"https://0.0.0.0/x":                  webhooks.MsgURLPrivate,
			"https://100.64.0.1/x":               webhooks.MsgURLPrivate,
			"https://private.example.com/x":      webhooks.MsgURLPrivate,
			"https://meta.example.com/x":         webhooks.MsgURLPrivate,
			"https://cgnat.example.com/x":        webhooks.MsgURLPrivate,
			"https://ula.example.com/x":          webhooks.MsgURLPrivate,
			"https://user:pw@hooks.example.com/": webhooks.MsgURLInvalid,
			"ftp://hooks.example.com/":           webhooks.MsgURLInvalid,
			"not a url":                          webhooks.MsgURLInvalid,
		}
		for u, msg := range refused {
			res := f.adv.Post("/api/webhooks", map[string]any{"url": u, "events": []string{webhooks.TypeCampaignPaused}})
			if res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), msg) {
				t.Errorf("%s: %d %s, want 400 %q", u, res.Status, res.Body, msg)
			}
		}
		f.adv.Post("/api/webhooks", map[string]any{"url": "https://hooks.example.com/x", "events": []string{"campaign.exploded"}}).
			Expect(t, http.StatusBadRequest)

		// Rebinding: a TLS receiver on loopback, registered under a name that resolved public.
		var calls atomic.Int32
		recv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
		defer recv.Close()
		_, port, _ := net.SplitHostPort(recv.Listener.Addr().String())
		ep := f.create(t, "https://hooks.example.com:"+port+"/x", webhooks.TypeCampaignPaused)
		dns.set("hooks.example.com", "127.0.0.1")
		f.adv.Post("/api/webhooks/"+ep.Endpoint.ID+"/test", nil).Expect(t, http.StatusOK)
		f.dispatch(t)
		d := f.deliveries(t, f.adv, ep.Endpoint.ID)[0]
		if d.Status != webhooks.StatusPending || d.Attempts != 1 || d.LastError != webhooks.MsgRefusedAddress || calls.Load() != 0 {
			t.Fatalf("delivery %+v, receiver calls %d", d, calls.Load())
		}
	})
}

// TestSlowAndHugeReceivers: a receiver that never answers is cut at WEBHOOK_TIMEOUT, and one that
// answers an endless body is read only up to the cap: neither holds the worker.
func TestSlowAndHugeReceivers(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect, testkit.WithEnv("WEBHOOK_ALLOW_PRIVATE", "true"), testkit.WithEnv("WEBHOOK_TIMEOUT", "1s"),
			testkit.WithEnv("WEBHOOK_CONNECT_TIMEOUT", "500ms"))
		release := make(chan struct{})
		slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		defer slow.Close()
		defer close(release)
		huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			chunk := []byte(strings.Repeat("x", 32<<10))
			for {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}))
		defer huge.Close()
		a := f.create(t, slow.URL, webhooks.TypeCampaignPaused)
		b := f.create(t, huge.URL, webhooks.TypeCampaignPaused)
		f.adv.Post("/api/webhooks/"+a.Endpoint.ID+"/test", nil).Expect(t, http.StatusOK)
		f.adv.Post("/api/webhooks/"+b.Endpoint.ID+"/test", nil).Expect(t, http.StatusOK)
		began := time.Now()
		f.dispatch(t)
		if took := time.Since(began); took > 4*time.Second {
			t.Fatalf("the worker was held %v", took)
		}
		ds := f.deliveries(t, f.adv, a.Endpoint.ID)[0]
		if ds.Status != webhooks.StatusPending || ds.LastStatus != 0 || ds.LastError != webhooks.MsgCouldNotConnect {
			t.Fatalf("slow: %+v", ds)
		}
		dh := f.deliveries(t, f.adv, b.Endpoint.ID)[0]
		if dh.Status != webhooks.StatusSucceeded || len(dh.LastResponse) != webhooks.ResponseExcerptLen {
			t.Fatalf("huge: status %s, excerpt %d bytes, error %q", dh.Status, len(dh.LastResponse), dh.LastError)
		}
	})
}

// TestAnotherCompanysEndpointsAnswer404: every call on an endpoint is scoped to the company.
func TestAnotherCompanysEndpointsAnswer404(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect, testkit.WithEnv("WEBHOOK_ALLOW_PRIVATE", "true"))
		ep := f.create(t, "http://127.0.0.1:9/hooks", webhooks.TypeCampaignPaused)
		f.adv.Post("/api/webhooks/"+ep.Endpoint.ID+"/test", nil).Expect(t, http.StatusOK)
		if _, err := f.s.Kernel.Events.Dispatch(t.Context()); err != nil {
			t.Fatal(err)
		}
		d := f.deliveries(t, f.adv, ep.Endpoint.ID)[0]
		id := ep.Endpoint.ID
		body := map[string]any{"url": "http://127.0.0.1:9/other", "events": []string{webhooks.TypeCampaignPaused}}
		for _, r := range []*testkit.Response{
			f.other.Get("/api/webhooks/" + id + "/deliveries"),
			f.other.Get("/api/webhooks/" + id + "/secret"),
			f.other.Put("/api/webhooks/"+id, body),
			f.other.Post("/api/webhooks/"+id+"/test", nil),
			f.other.Post("/api/webhooks/"+id+"/deliveries/"+d.ID+"/redeliver", nil),
			f.other.Delete("/api/webhooks/" + id),
		} {
			r.Expect(t, http.StatusNotFound)
		}
		var list webhooks.EndpointsResponse
		f.other.Get("/api/webhooks").Expect(t, http.StatusOK).JSON(t, &list)
		if len(list.Endpoints) != 0 || len(list.EventTypes) != len(webhooks.EventTypes) {
			t.Fatalf("other company's list %+v", list)
		}
		// A finished delivery leaves the log after 30 days; a pending one stays.
		f.s.Clock.Advance(webhooks.DeliveryLogKeep + time.Hour)
		f.adv.SessionAs(f.s, f.advAcc.UserID) // the old session has expired by now
		if n, err := f.m.PruneDeliveries(t.Context()); err != nil || n != 0 {
			t.Fatalf("pruned %d pending deliveries (%v)", n, err)
		}
		if _, err := f.m.DeliverDue(t.Context()); err != nil { // port 9 refuses: failed, the window is over
			t.Fatal(err)
		}
		if d := f.deliveries(t, f.adv, id)[0]; d.Status != webhooks.StatusFailed {
			t.Fatalf("after the window: %+v", d)
		}
		f.s.Clock.Advance(webhooks.DeliveryLogKeep + time.Hour)
		f.adv.SessionAs(f.s, f.advAcc.UserID)
		if n, err := f.m.PruneDeliveries(t.Context()); err != nil || n != 1 || len(f.deliveries(t, f.adv, id)) != 0 {
			t.Fatalf("pruned %d (%v)", n, err)
		}
		// The owner still has it, and can delete it.
		f.adv.Delete("/api/webhooks/"+id).Expect(t, http.StatusOK)
		f.adv.Get("/api/webhooks/"+id+"/deliveries").Expect(t, http.StatusNotFound)
	})
}

// TestModuleChangesBecomeWebhooks: pausing, resuming and stopping a campaign, recording a week's
// impressions, adding a proof and making a report, through their HTTP calls, each reach a subscribed endpoint as its webhook
// type (the Publish in the changing transaction, then the fan-out).
func TestModuleChangesBecomeWebhooks(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect, testkit.WithEnv("WEBHOOK_ALLOW_PRIVATE", "true"))
		var mu sync.Mutex
		var got []map[string]any
		recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var p map[string]any
			_ = json.NewDecoder(r.Body).Decode(&p)
			mu.Lock()
			got = append(got, p)
			mu.Unlock()
		}))
		defer recv.Close()
		loc := testkit.ModuleOf[*locations.Module](t, f.s)
		today := dates.Today(f.s.Clock)
		if _, err := loc.GenerateInventory(t.Context(), locations.GenerateOptions{Markets: []string{"Los Angeles"}, FacesPerMarket: 10, Seed: 7,
			Weeks: today.WeekStart().AddWeeks(-2).Weeks(6)}); err != nil {
			t.Fatal(err)
		}
		faces, err := loc.Service().Locations(t.Context(), locations.LocationQuery{Markets: []string{"Los Angeles"}})
		if err != nil {
			t.Fatal(err)
		}
		camp := testkit.ModuleOf[*campaigns.Module](t, f.s)
		ids, err := camp.GenerateCampaigns(t.Context(), campaigns.GenerateOptions{CompanyID: f.advAcc.CompanyID, UserID: f.advAcc.UserID,
			Campaigns: 1, Weeks: 4, FacesPer: 1, Faces: faces, Start: today.WeekStart().AddWeeks(-1), NamePrefix: "Hooked",
			ChargedBefore: today.WeekStart().AddWeeks(3)})
		if err != nil {
			t.Fatal(err)
		}
		weeks, err := camp.Service().FindWeeks(t.Context(), ids[0])
		if err != nil || len(weeks) == 0 {
			t.Fatal(weeks, err)
		}
		f.create(t, recv.URL, webhooks.TypeCampaignPaused, webhooks.TypeCampaignActivated, webhooks.TypeCampaignCompleted, webhooks.TypeWeekDelivered,
			webhooks.TypeReportReady, webhooks.TypeProofAdded)
		other := f.other // another company's endpoint must hear nothing of it
		other.Post("/api/webhooks", map[string]any{"url": recv.URL + "/other", "events": webhooks.EventTypes}).Expect(t, http.StatusOK)

		f.adv.Put("/api/campaigns/"+ids[0]+"/pause", nil).Expect(t, http.StatusOK)
		f.adv.Put("/api/campaigns/"+ids[0]+"/resume", nil).Expect(t, http.StatusOK)
		u, _, err := testkit.ModuleOf[*identity.Module](t, f.s).Service().CreateUser(t.Context(), identity.CreateUserRequest{Email: "admin@webhooks.test",
			Password: "webhooks password 1", Role: identity.RoleAdmin, CompanyName: "Marquee", FirstName: "Ad", LastName: "Min"})
		if err != nil {
			t.Fatal(err)
		}
		admin := f.s.Client(t)
		admin.SessionAs(f.s, u.ID)
		admin.Put("/api/admin/campaigns/week/"+weeks[0].ID+"/delivery", map[string]any{"act_imp": 1234}).Expect(t, http.StatusOK)
		postProof(t, f.s, admin, "/api/admin/campaigns/week/"+weeks[0].ID+"/proofs")
		f.adv.Put("/api/campaigns/"+ids[0]+"/stop", nil).Expect(t, http.StatusOK)
		f.adv.Post("/api/reports", map[string]any{"campaign_id": ids[0], "week_ids": []string{weeks[0].ID}}).Expect(t, http.StatusCreated)
		f.dispatch(t)

		mu.Lock()
		defer mu.Unlock()
		var types []string
		for _, p := range got {
			types = append(types, p["type"].(string))
			if d := p["data"].(map[string]any); d["campaign_id"] != ids[0] {
				t.Errorf("payload %v", p)
			}
		}
		// Deliveries are posted in parallel: no order is promised (docs/api.md).
		want := []string{webhooks.TypeCampaignActivated, webhooks.TypeCampaignCompleted, webhooks.TypeCampaignPaused, webhooks.TypeProofAdded,
			webhooks.TypeReportReady, webhooks.TypeWeekDelivered}
		slices.Sort(types)
		if strings.Join(types, " ") != strings.Join(want, " ") {
			t.Fatalf("received %v, want %v", types, want)
		}
		for _, p := range got {
			if d := p["data"].(map[string]any); p["type"] == webhooks.TypeWeekDelivered && (d["impressions"] != float64(1234) || d["week_id"] != weeks[0].ID) {
				t.Fatalf("week.delivered %v", p)
			}
		}
	})
}

// TestPaymentFailedOnlyOnFailure: billing's settled charges reach endpoints only when they failed,
// and an endpoint hears only the types it chose.
func TestPaymentFailedOnlyOnFailure(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect, testkit.WithEnv("WEBHOOK_ALLOW_PRIVATE", "true"))
		pay := f.create(t, "http://127.0.0.1:9/pay", webhooks.TypePaymentFailed)
		other := f.create(t, "http://127.0.0.1:9/other", webhooks.TypeReportReady)
		for _, status := range []string{billing.StatusSucceeded, billing.StatusFailed} {
			week := dates.Today(f.s.Clock).WeekStart()
			if err := f.s.Kernel.Events.Publish(t.Context(), billing.EventChargeSettled, billing.ChargeSettled{TransactionID: "tx-" + status,
				CompanyID: f.advAcc.CompanyID, CampaignRef: "camp-9", Week: &week, Amount: 25000, Status: status, Message: "Your card was declined."}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.s.Kernel.Events.Dispatch(t.Context()); err != nil {
			t.Fatal(err)
		}
		ds := f.deliveries(t, f.adv, pay.Endpoint.ID)
		if len(ds) != 1 || ds[0].EventType != webhooks.TypePaymentFailed || ds[0].Status != webhooks.StatusPending {
			t.Fatalf("payment endpoint deliveries %+v", ds)
		}
		if ds := f.deliveries(t, f.adv, other.Endpoint.ID); len(ds) != 0 {
			t.Fatalf("report endpoint got %+v", ds)
		}
	})
}

// postProof uploads one small JPEG as a week's proof (multipart, as the admin screen does).
func postProof(t *testing.T, s *testkit.Server, c *testkit.Client, path string) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, img, nil); err != nil {
		t.Fatal(err)
	}
	c.Upload(path, "file", testkit.File{Name: "proof.jpg", Body: jpg.Bytes()}).Expect(t, http.StatusOK)
}

// A guard that let https://[::1%25lo]:PORT/ (an IPv6 literal with a zone) through would have
// the server open a TCP and TLS connection to a loopback listener. Every host form whose meaning
// depends on who reads it is refused at registration, and again at dial time for a URL stored
// before the rule.
func TestAddressGuardRefusesAmbiguousHosts(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		f.m.SetResolver(&fakeDNS{hosts: map[string]string{"hooks.example.com": "93.184.216.34", "hooks.example.com.": "93.184.216.34"}})
		var calls atomic.Int32
		recv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
		recv.Config.ConnState = func(net.Conn, http.ConnState) { calls.Add(1) }
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		recv.Listener = ln
		recv.StartTLS()
		defer recv.Close()
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		for _, u := range []string{
			"https://[::1%25lo]:" + port + "/", "https://[fe80::1%25eth0]/", "https://[::1%25lo]/",
			"https://0x7f.1:" + port + "/", "https://0x7f000001/", "https://2130706433:" + port + "/", "https://0177.0.0.1/",
			"https://127.1/", "https://127.0.1/", "https://1.2.3.04/", "https://93.184.216.034/", "https://0x5d.0xb8.0xd8.0x22/",
			"https://1e100/", "https://hooks.example.com./x", "https://hooks..example.com/x", "https://-hooks.example.com/x",
			"https://[::ffff:7f00:1]/", "https://[::ffff:93.184.216.34]/", "https://[::127.0.0.1]/", "https://[0:0:0:0:0:0:0:1]/",
			"https://[2606:2800:0220:0001:0248:1893:25c8:1946]/", "https://hooks.example.com:0443/x", "https://hooks.example.com:99999/x",
			"https://hooks_example.com/x", "https://hooks.example.com%2e/x",
		} {
			res := f.adv.Post("/api/webhooks", map[string]any{"url": u, "events": []string{webhooks.TypeCampaignPaused}})
			if res.Status != http.StatusBadRequest {
				t.Errorf("%s: %d %s, want 400", u, res.Status, res.Body)
			}
		}
		// Plain forms still pass: a name (any case), a dotted quad and a compressed IPv6 literal.
		for _, u := range []string{"https://hooks.example.com/x", "https://HOOKS.Example.com:8443/x", "https://93.184.216.34/x",
			"https://[2606:2800:220:1:248:1893:25c8:1946]/x"} {
			f.adv.Post("/api/webhooks", map[string]any{"url": u, "events": []string{webhooks.TypeCampaignPaused}}).Expect(t, http.StatusOK)
		}

		// A URL stored before the rule is refused at dial time: nothing connects to the listener.
		ep := f.create(t, "https://hooks.example.com/x", webhooks.TypeCampaignPaused)
		for _, stored := range []string{"https://[::1%25lo]:" + port + "/", "https://2130706433:" + port + "/", "https://0x7f.1:" + port + "/"} {
			if err := f.s.Kernel.DB.Exec("UPDATE webhooks_endpoints SET url = ? WHERE id = ?", stored, ep.Endpoint.ID).Error; err != nil {
				t.Fatal(err)
			}
			f.adv.Post("/api/webhooks/"+ep.Endpoint.ID+"/test", nil).Expect(t, http.StatusOK)
			f.dispatch(t)
			d := f.deliveries(t, f.adv, ep.Endpoint.ID)[0]
			if d.LastError != webhooks.MsgRefusedAddress || calls.Load() != 0 {
				t.Fatalf("%s: delivery %+v, listener touched %d times", stored, d, calls.Load())
			}
		}
	})
}

// The delivery log does not tell an open port from a closed one. A listener that
// accepts and hangs up, a plain HTTP listener called over TLS, and a closed port all read "Could
// not connect."
func TestDeliveryLogDoesNotTellOpenPortsFromClosed(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect, testkit.WithEnv("WEBHOOK_ALLOW_PRIVATE", "true"), testkit.WithEnv("WEBHOOK_TIMEOUT", "2s"),
			testkit.WithEnv("WEBHOOK_CONNECT_TIMEOUT", "1s"))
		hangup, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer hangup.Close()
		go func() {
			for {
				c, err := hangup.Accept()
				if err != nil {
					return
				}
				_, _ = c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n"))
				_ = c.Close()
			}
		}()
		plain := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
		defer plain.Close()
		closed, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		closedAddr := closed.Addr().String()
		_ = closed.Close()

		urls := []string{"http://" + hangup.Addr().String() + "/", "https://" + plain.Listener.Addr().String() + "/", "http://" + closedAddr + "/"}
		var ids []string
		for _, u := range urls {
			ids = append(ids, f.create(t, u, webhooks.TypeCampaignPaused).Endpoint.ID)
		}
		for _, id := range ids {
			f.adv.Post("/api/webhooks/"+id+"/test", nil).Expect(t, http.StatusOK)
		}
		f.dispatch(t)
		for i, id := range ids {
			d := f.deliveries(t, f.adv, id)[0]
			if d.LastError != webhooks.MsgCouldNotConnect || d.LastStatus != 0 || d.LastResponse != "" {
				t.Errorf("%s: delivery log %+v", urls[i], d)
			}
		}
	})
}
