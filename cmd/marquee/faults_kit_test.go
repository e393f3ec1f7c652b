package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptrace"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gorm.io/gorm"

	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/httpx"
	"marquee/platform/storage"
	"marquee/platform/testkit"
)

// Helpers of the fault tests (faults_test.go): the real binary's command line, an HTTP
// client that reports a refused or cut connection instead of failing the test, the demo
// advertiser's campaign form, uploads, and the consistency checks run on the database afterwards.

// demoKey is the demo advertiser's API key (seed --demo): /api/v1 with it needs no session.
const demoKey = "mq_live_demo0advertiser0key0for0local0use0only"

// faultCampaignPrefix names every campaign a fault test creates, so the checks find them.
const faultCampaignPrefix = "Fault "

// faultWeeks is how many weeks each fault campaign books (one face each).
const faultWeeks = 2

// cli runs `marquee args...` with env (as Proc.Start does) and fails the test on a non-zero exit.
func cli(t *testing.T, env map[string]string, args ...string) string {
	t.Helper()
	cmd := exec.Command(testkit.Binary(t), args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TZ=UTC"}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("marquee %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// baseEnv is the environment of a fault test's server: limits that a load of one client would
// hit raised out of the way (they are not what these tests are about), and jobs on.
func baseEnv(dataDir string) map[string]string {
	return map[string]string{
		"DATA_DIR": dataDir, "API_KEY_RATE_LIMIT": "100000", "UPLOAD_RATE_LIMIT": "100000",
		"SIGNIN_RATE_LIMIT": "100000", "RESET_RATE_LIMIT": "100000", "LOG_LEVEL": "info",
	}
}

// answer is one HTTP exchange of a fault client: a status and body, or the transport error (the
// server was not there, or went away mid-request).
type answer struct {
	Status int
	Body   []byte
	Err    error
	// Sent says the request reached the server whole on some attempt. Go's transport sends a
	// request again on a new connection when a reused one fails before the answer, if the
	// request is replayable (a GET, or a POST with an Idempotency-Key). A request cut by a kill
	// can therefore end in "connection refused" from its second attempt; Sent tells it apart
	// from one that was never sent.
	Sent bool
}

func (a answer) String() string {
	if a.Err != nil {
		return "error: " + a.Err.Error()
	}
	return fmt.Sprintf("%d %.300s", a.Status, a.Body)
}

// envelope decodes the error envelope, or reports that the body is not one.
func (a answer) envelope() (httpx.ErrorBody, bool) {
	var e httpx.ErrorBody
	if json.Unmarshal(a.Body, &e) != nil || e.Success || e.Message == "" {
		return e, false
	}
	return e, true
}

// faultClient talks to a server like the web app (cookies, the CSRF header) or the public API (a
// bearer key). It never fails the test on a transport error: that is what the tests provoke.
type faultClient struct {
	base, key string
	http      *http.Client
}

func newFaultClient(base, key string) *faultClient {
	jar, _ := cookiejar.New(nil)
	return &faultClient{base: base, key: key, http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

func (c *faultClient) do(method, path string, body io.Reader, header http.Header) answer {
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		return answer{Err: err}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	} else {
		req.Header.Set("X-Requested-With", "XMLHttpRequest")
	}
	var sent atomic.Bool
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		WroteRequest: func(w httptrace.WroteRequestInfo) {
			if w.Err == nil {
				sent.Store(true)
			}
		},
	}))
	res, err := c.http.Do(req)
	if err != nil {
		return answer{Err: err, Sent: sent.Load()}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return answer{Status: res.StatusCode, Err: err, Sent: true}
	}
	return answer{Status: res.StatusCode, Body: raw, Sent: true}
}

func (c *faultClient) json(method, path string, v any, header http.Header) answer {
	var body io.Reader
	if v != nil {
		raw, err := json.Marshal(v)
		if err != nil {
			return answer{Err: err}
		}
		body = bytes.NewReader(raw)
	}
	return c.do(method, path, body, header)
}

// upload sends a small JPEG (distinct per seed, so no two uploads are the same bytes) as a
// creative upload: /api/v1/creatives/uploads with a key, /upload_creative with a session.
func (c *faultClient) upload(seed int) answer {
	img := image.NewRGBA(image.Rect(0, 0, 48, 24))
	for i := range img.Pix {
		img.Pix[i] = byte(seed*7 + i)
	}
	var raw bytes.Buffer
	if err := jpeg.Encode(&raw, img, nil); err != nil {
		return answer{Err: err}
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, _ := w.CreateFormFile("file", fmt.Sprintf("fault-%d.jpg", seed))
	_, _ = part.Write(raw.Bytes())
	_ = w.Close()
	path := "/upload_creative"
	if c.key != "" {
		path = "/api/v1/creatives/uploads"
	}
	return c.do(http.MethodPost, path, &body, http.Header{"Content-Type": {w.FormDataContentType()}})
}

// signIn signs the client in with a password (a session cookie).
func (c *faultClient) signIn(t *testing.T, email, password string) {
	t.Helper()
	if a := c.json(http.MethodPost, "/signin", identity.SignInRequest{Email: email, Password: password}, nil); a.Status != http.StatusOK {
		t.Fatalf("sign in %s: %s", email, a)
	}
}

// campaignPlan is what the demo advertiser's fault campaigns book: a start week that is open
// for booking today, and faces available then.
type campaignPlan struct {
	Start   string
	Markets []string
	Faces   []string
	next    atomic.Int64
}

// Next returns the index of a face no other creation of the test has taken.
func (p *campaignPlan) Next() int { return int(p.next.Add(1)) - 1 }

// planCampaigns finds the faces the fault campaigns book: the faces of every market free in both
// weeks of a campaign that starts in the earliest start week after next (a week later than the
// earliest, so a midnight passing during the test cannot close it). Each creation takes the next
// face (Next), so no two of a test's campaigns compete for a spot: a conflict is not a fault.
func planCampaigns(t *testing.T, c *faultClient) *campaignPlan {
	t.Helper()
	ny, err := time.LoadLocation("America/New_York") // BUSINESS_TIMEZONE's default
	if err != nil {
		t.Fatal(err)
	}
	start := campaigns.EarliestStart(dates.In(time.Now(), ny)).AddWeeks(1)
	a := c.do(http.MethodGet, "/api/v1/markets", nil, nil)
	var markets []struct{ Market string }
	if a.Status != http.StatusOK || json.Unmarshal(a.Body, &markets) != nil {
		t.Fatalf("markets: %s", a)
	}
	// A few markets hold faces enough for a test's campaigns; all 25 would only make the two
	// availability reads slower.
	var names []string
	for _, m := range markets[:min(len(markets), 6)] {
		names = append(names, m.Market)
	}
	free := map[string]int{}
	for w := range faultWeeks {
		a := c.json(http.MethodPost, "/api/v1/available-spots", locations.AvailableSpotsRequest{StartAt: start.AddWeeks(w).String(), Markets: names}, nil)
		var spots []locations.AvailableSpot
		if a.Status != http.StatusOK || json.Unmarshal(a.Body, &spots) != nil {
			t.Fatalf("available spots: %s", a)
		}
		for _, s := range spots {
			if s.Available && s.UsedSpots == 0 {
				free[s.Xxx]++
			}
		}
	}
	plan := &campaignPlan{Start: start.String(), Markets: names}
	for id, weeks := range free {
		if weeks == faultWeeks {
			plan.Faces = append(plan.Faces, id)
		}
	}
	sort.Strings(plan.Faces)
	if len(plan.Faces) < 300 {
		t.Fatalf("only %d faces to book", len(plan.Faces))
	}
	return plan
}

// create books face i of the plan as campaign "Fault <key>", with the Idempotency-Key key.
func (c *faultClient) create(plan *campaignPlan, i int, key string) answer {
	form := campaigns.CampaignForm{Name: faultCampaignPrefix + key, TypeCampaign: campaigns.TypePremium,
		StrategySelected: campaigns.StrategyMarket, MarketsSelected: plan.Markets,
		PlacesChecked: []campaigns.PlaceChecked{{ID: plan.Faces[i%len(plan.Faces)]}}, StartDate: plan.Start,
		FrequencySelected: campaigns.FrequencyWeekly, Duration: faultWeeks, UseDefaultCreative: true}
	return c.json(http.MethodPost, "/api/v1/campaigns", form, http.Header{campaigns.IdempotencyKeyHeader: {key}})
}

// openDB opens the database a server used: its PostgreSQL URL, or the SQLite file in its DATA_DIR.
func openDB(t *testing.T, env map[string]string) *gorm.DB {
	t.Helper()
	opts := db.Options{URL: env["DATABASE_URL"], MaxOpenConns: 2}
	if opts.URL == "" {
		opts.SQLitePath = filepath.Join(env["DATA_DIR"], "marquee.db")
	}
	gdb, err := db.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close(gdb) })
	return gdb
}

// ids runs a query that selects one column of ids and returns them.
func queryIDs(t *testing.T, gdb *gorm.DB, query string, args ...any) []string {
	t.Helper()
	var out []string
	if err := gdb.Raw(query, args...).Scan(&out).Error; err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	sort.Strings(out)
	return out
}

// checkCampaignsWhole fails unless every fault campaign in the database is whole and nothing of
// one is left without it: each has its faultWeeks weeks, each week its booked spot, and its first
// week's charge with the billing transaction it names; no week, spot, charge or campaign
// transaction belongs to a campaign that is not there. It returns how many fault campaigns exist.
func checkCampaignsWhole(t *testing.T, gdb *gorm.DB) int {
	t.Helper()
	like := faultCampaignPrefix + "%"
	all := queryIDs(t, gdb, "SELECT id FROM campaigns_campaigns WHERE name LIKE ?", like)
	checks := []struct{ what, query string }{
		{"campaigns without their weeks", fmt.Sprintf(`SELECT c.id FROM campaigns_campaigns c WHERE c.name LIKE ? AND
			(SELECT COUNT(*) FROM campaigns_weeks w WHERE w.campaign_id = c.id) <> %d`, faultWeeks)},
		{"weeks without their booked spot", `SELECT w.id FROM campaigns_weeks w JOIN campaigns_campaigns c ON c.id = w.campaign_id
			WHERE c.name LIKE ? AND NOT EXISTS (SELECT 1 FROM locations_spots s WHERE s.id = w.spot_id AND s.ref = c.id)`},
		{"campaigns without their first week's charge", `SELECT c.id FROM campaigns_campaigns c WHERE c.name LIKE ? AND
			NOT EXISTS (SELECT 1 FROM campaigns_charges ch WHERE ch.campaign_id = c.id AND ch.week = c.start_date)`},
		{"charges naming a missing billing transaction", `SELECT ch.id FROM campaigns_charges ch JOIN campaigns_campaigns c ON c.id = ch.campaign_id
			WHERE c.name LIKE ? AND COALESCE(ch.transaction_id, '') <> ''
			AND NOT EXISTS (SELECT 1 FROM billing_transactions bt WHERE bt.id = ch.transaction_id)`},
	}
	for _, c := range checks {
		if bad := queryIDs(t, gdb, c.query, like); len(bad) > 0 {
			t.Errorf("%s: %v", c.what, bad)
		}
	}
	orphans := []struct{ what, query string }{
		{"weeks of no campaign", `SELECT w.id FROM campaigns_weeks w WHERE NOT EXISTS (SELECT 1 FROM campaigns_campaigns c WHERE c.id = w.campaign_id)`},
		{"spots booked for no campaign", `SELECT s.id FROM locations_spots s WHERE s.reservation_key LIKE 'campaign:%'
			AND NOT EXISTS (SELECT 1 FROM campaigns_campaigns c WHERE c.id = s.ref)`},
		{"charges of no campaign", `SELECT ch.id FROM campaigns_charges ch WHERE NOT EXISTS (SELECT 1 FROM campaigns_campaigns c WHERE c.id = ch.campaign_id)`},
		{"billing transactions of no campaign", `SELECT bt.id FROM billing_transactions bt WHERE COALESCE(bt.campaign_ref, '') <> ''
			AND NOT EXISTS (SELECT 1 FROM campaigns_campaigns c WHERE c.id = bt.campaign_ref)`},
	}
	for _, o := range orphans {
		if bad := queryIDs(t, gdb, o.query); len(bad) > 0 {
			t.Errorf("%s: %v", o.what, bad)
		}
	}
	return len(all)
}

// checkFilesStored fails unless every object a creatives_files row names (the file, its
// thumbnail, its display copy) is in st. It returns how many rows it checked.
func checkFilesStored(t *testing.T, gdb *gorm.DB, st storage.Storage) int {
	t.Helper()
	var rows []struct{ StorageKey, ThumbKey, DisplayKey string }
	if err := gdb.Raw("SELECT storage_key, COALESCE(thumb_key, '') AS thumb_key, COALESCE(display_key, '') AS display_key FROM creatives_files").
		Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		for _, key := range []string{r.StorageKey, r.ThumbKey, r.DisplayKey} {
			if key == "" {
				continue
			}
			if _, err := st.Stat(context.Background(), key); err != nil {
				t.Errorf("row names %s, which is not stored: %v", key, err)
			}
		}
	}
	return len(rows)
}

// orphanObjects counts the stored files under dir (an fs store) that no creatives_files row names.
func orphanObjects(t *testing.T, gdb *gorm.DB, dir string) int {
	t.Helper()
	named := map[string]bool{}
	for _, col := range []string{"storage_key", "thumb_key", "display_key"} {
		for _, k := range queryIDs(t, gdb, "SELECT "+col+" FROM creatives_files WHERE "+col+" IS NOT NULL") {
			named[k] = true
		}
	}
	n := 0
	root := filepath.Join(dir, "objects")
	_ = filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasPrefix(filepath.ToSlash(path[len(root)+1:]), "creative/") {
			if !named[filepath.ToSlash(path[len(root)+1:])] {
				n++
			}
		}
		return nil
	})
	return n
}

// tally counts answers by kind, safe for several goroutines.
type tally struct {
	mu     sync.Mutex
	counts map[string]int
	bad    []string
}

func (t *tally) add(kind string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.counts == nil {
		t.counts = map[string]int{}
	}
	t.counts[kind]++
}

func (t *tally) fail(what string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.bad) < 20 {
		t.bad = append(t.bad, what)
	}
}

func (t *tally) get(kind string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.counts[kind]
}

func (t *tally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return fmt.Sprint(t.counts)
}
