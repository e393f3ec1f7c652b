package screens_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"marquee/modules/campaigns"
	"marquee/modules/creatives"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/modules/screens"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// world is a running app with faces, a creative, a campaign booked on two faces this week and the
// next, an admin, and the campaign's advertiser.
type world struct {
	s            *testkit.Server
	admin, adv   *testkit.Client
	face, other  string // faces of the campaign
	campaign     string
	creative     string
	weekStart    dates.Date
	adminID      string
	advAcc       server.DemoAccount
	faces        []locations.Location
	m            *screens.Module
	campaignsMod *campaigns.Module
}

func start(t *testing.T, dialect string, opts ...testkit.Option) *world {
	t.Helper()
	s := testkit.Start(t, dialect, server.Compose(screens.Component), opts...)
	w := &world{s: s, m: testkit.ModuleOf[*screens.Module](t, s), campaignsMod: testkit.ModuleOf[*campaigns.Module](t, s)}
	ids := testkit.ModuleOf[*identity.Module](t, s).Service()
	user := func(email, company, role string) (*testkit.Client, server.DemoAccount) {
		u, _, err := ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: email, Password: "screens password 1", Role: role, CompanyName: company, FirstName: "Ada", LastName: "Lovelace"})
		if err != nil {
			t.Fatal(err)
		}
		c := s.Client(t)
		c.SessionAs(s, u.ID)
		return c, server.DemoAccount{UserID: u.ID, CompanyID: u.Company.ID, Email: email}
	}
	var advAcc server.DemoAccount
	w.adv, advAcc = user("ada@screens.test", "Sunrise Coffee", identity.RoleUser)
	var adminAcc server.DemoAccount
	w.admin, adminAcc = user("admin@screens.test", "Marquee", identity.RoleAdmin)
	w.adminID = adminAcc.UserID
	loc := testkit.ModuleOf[*locations.Module](t, s)
	today := dates.Today(s.Clock)
	w.weekStart = today.WeekStart()
	if _, err := loc.GenerateInventory(t.Context(), locations.GenerateOptions{Markets: []string{"New York"}, FacesPerMarket: 10, Seed: 7, Weeks: w.weekStart.AddWeeks(-3).Weeks(8)}); err != nil {
		t.Fatal(err)
	}
	faces, err := loc.Service().Locations(t.Context(), locations.LocationQuery{Markets: []string{"New York"}})
	if err != nil || len(faces) < 4 {
		t.Fatalf("faces: %d %v", len(faces), err)
	}
	var img bytes.Buffer
	_ = jpeg.Encode(&img, image.NewRGBA(image.Rect(0, 0, 1400, 400)), nil)
	var up creatives.UploadedFile
	w.adv.Upload("/upload_creative", "file", testkit.File{Name: "ad.jpg", Body: img.Bytes()}).Expect(t, 200).JSON(t, &up)
	var cr creatives.Creative
	w.adv.Post("/api/creatives/", creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{Name: "Ad", URL: up.Path}}).Expect(t, 201).JSON(t, &cr)
	w.creative = cr.ID
	gen, err := w.campaignsMod.GenerateCampaigns(t.Context(), campaigns.GenerateOptions{CompanyID: advAcc.CompanyID, UserID: advAcc.UserID,
		Campaigns: 1, Weeks: 2, FacesPer: 2, Faces: faces[:2], Start: w.weekStart, NamePrefix: "Screen campaign", CreativeID: cr.ID,
		ChargedBefore: w.weekStart.AddWeeks(2)})
	if err != nil {
		t.Fatal(err)
	}
	w.campaign, w.face, w.other = gen[0], faces[0].ID, faces[1].ID
	w.advAcc, w.faces = advAcc, faces
	return w
}

// player is a test device: its key pair and screen id.
type player struct {
	priv     ed25519.PrivateKey
	pub      ed25519.PublicKey
	screenID string
	c        *testkit.Client
	skew     time.Duration // added to the timestamp it signs
}

func newPlayer(t *testing.T, w *world) *player {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	return &player{priv: priv, pub: pub, c: w.s.Client(t)}
}

func (w *world) code(t *testing.T, face string) string {
	t.Helper()
	var pc screens.PairingCode
	w.admin.Post("/api/admin/screens/pairing-codes", screens.PairingCodeRequest{FaceID: face}).Expect(t, 201).JSON(t, &pc)
	return pc.Code
}

func (p *player) pair(t *testing.T, code string) *testkit.Response {
	t.Helper()
	res := p.c.Post("/api/device/pair", screens.PairRequest{Code: code, PublicKey: base64.StdEncoding.EncodeToString(p.pub), AppVersion: "test/1"})
	if res.Status == 201 {
		var out screens.PairResult
		res.JSON(t, &out)
		p.screenID = out.ScreenID
	}
	return res
}

// signed sends a signed device call at the server clock's time.
func (p *player) signed(t *testing.T, s *testkit.Server, method, path string, body []byte, headers map[string]string) *http.Response {
	t.Helper()
	ts := strconv.FormatInt(s.Clock.Now().Add(p.skew).Unix(), 10)
	msg := screens.SignedMessage(method, path, ts, screens.BodyHash(body))
	req, _ := http.NewRequest(method, s.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(screens.HeaderScreenID, p.screenID)
	req.Header.Set(screens.HeaderTimestamp, ts)
	req.Header.Set(screens.HeaderSignature, base64.StdEncoding.EncodeToString(ed25519.Sign(p.priv, []byte(msg))))
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func decode(t *testing.T, res *http.Response, v any) {
	t.Helper()
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func playsBody(t *testing.T, ps []screens.PlayIn) []byte {
	b, err := json.Marshal(screens.PlaysBatch{Plays: ps})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Pairing, signed calls, the schedule with ETag, and plays counted once whatever the replays;
// the delivered figure comes from plays, and the batch enters the campaign's proof chain with the
// device's signature, which /api/verify checks.
func TestPairScheduleAndPlays(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		p := newPlayer(t, w)
		code := w.code(t, w.face)
		p.pair(t, code).Expect(t, 201)
		// Single use: the same code again stores nothing.
		q := newPlayer(t, w)
		q.pair(t, code).Expect(t, 401)
		// An expired code.
		late := w.code(t, w.face)
		w.s.Clock.Advance(25 * time.Hour)
		q.pair(t, late).Expect(t, 401)
		w.s.Clock.Advance(-25 * time.Hour)
		// A malformed key.
		q.c.Post("/api/device/pair", screens.PairRequest{Code: w.code(t, w.face), PublicKey: "abc"}).Expect(t, 401)

		// The schedule: this week's booking, with the file's SHA-256 and a URL that serves it.
		res := p.signed(t, w.s, "GET", "/api/device/schedule?weeks=2", nil, nil)
		if res.StatusCode != 200 {
			t.Fatalf("schedule: %d", res.StatusCode)
		}
		tag := res.Header.Get("ETag")
		var sch screens.Schedule
		decode(t, res, &sch)
		if sch.FaceID != w.face || len(sch.Weeks) != 2 || len(sch.Weeks[0].Items) != 1 || sch.Weeks[0].Items[0].CreativeID != w.creative || sch.SlotSeconds <= 0 {
			t.Fatalf("schedule = %+v", sch)
		}
		u, _ := url.Parse(sch.Weeks[0].Items[0].URL) // BASE_URL's host is the test's server
		file, err := http.Get(w.s.URL + u.Path)
		if err != nil || file.StatusCode != 200 {
			t.Fatalf("download: %v %v", file, err)
		}
		file.Body.Close()
		if r := p.signed(t, w.s, "GET", "/api/device/schedule?weeks=2", nil, map[string]string{"If-None-Match": tag}); r.StatusCode != 304 {
			t.Fatalf("If-None-Match: %d", r.StatusCode)
		}

		// Plays: 3 counted, 1 of an unbooked campaign, 1 too old.
		now := w.s.Clock.Now().UTC()
		ps := []screens.PlayIn{
			{Seq: 1, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: now.Add(-3 * time.Minute), DurationMs: 8000},
			{Seq: 2, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: now.Add(-2 * time.Minute), DurationMs: 8000},
			{Seq: 3, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: now.Add(-1 * time.Minute), DurationMs: 8000},
			{Seq: 4, CampaignID: "0190a000-0000-7000-8000-000000000000", CreativeID: w.creative, StartedAt: now, DurationMs: 8000},
			{Seq: 5, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: now.Add(-15 * 24 * time.Hour), DurationMs: 8000},
		}
		var out screens.PlaysResult
		decode(t, p.signed(t, w.s, "POST", "/api/device/plays", playsBody(t, ps), nil), &out)
		if out.Accepted != 3 || out.Duplicates != 0 || len(out.Flagged) != 2 || out.BatchHash != screens.BodyHash(playsBody(t, ps)) {
			t.Fatalf("first batch = %+v", out)
		}
		// Replayed, and reordered with one new play: counted once.
		var again screens.PlaysResult
		decode(t, p.signed(t, w.s, "POST", "/api/device/plays", playsBody(t, ps), nil), &again)
		if again.Accepted != 0 || again.Duplicates != 5 {
			t.Fatalf("replay = %+v", again)
		}
		re := []screens.PlayIn{ps[2], {Seq: 6, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: now, DurationMs: 8000}, ps[0]}
		decode(t, p.signed(t, w.s, "POST", "/api/device/plays", playsBody(t, re), nil), &again)
		if again.Accepted != 1 || again.Duplicates != 2 {
			t.Fatalf("reordered = %+v", again)
		}

		// The campaign page: this face's figure comes from the screen, from 4 counted plays.
		weeks, err := w.campaignsMod.Service().FindWeeks(t.Context(), w.campaign)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, wk := range weeks {
			if wk.ProductID == w.face && wk.StartAt == w.weekStart {
				found = true
				if wk.DeliverySource != campaigns.DeliverySourceScreen || wk.ActImp == nil {
					t.Fatalf("week = source %q act %v", wk.DeliverySource, wk.ActImp)
				}
				_, loop := screens.Loop(0, 0)
				_ = loop
			}
			if wk.ProductID == w.other && wk.ActImp != nil {
				t.Fatal("the other face got a figure")
			}
		}
		if !found {
			t.Fatal("no week of the face")
		}
		// The advertiser's campaign page says, per face, where the figure comes from.
		var page struct {
			Items []campaigns.Week `json:"items"`
		}
		w.adv.Get("/api/campaigns/"+w.campaign+"/weeks?pageSize=0").Expect(t, 200).JSON(t, &page)
		sources := map[string]string{}
		for _, wk := range page.Items {
			if wk.StartAt == w.weekStart {
				sources[wk.ProductID] = wk.DeliverySource
			}
		}
		if sources[w.face] != campaigns.DeliverySourceScreen || sources[w.other] != "" {
			t.Fatalf("sources = %v", sources)
		}
		// The OpenAPI document lists the device API, signed by the screen's key.
		var doc struct {
			Paths map[string]map[string]struct {
				Security []map[string][]string `json:"security"`
			} `json:"paths"`
		}
		w.s.Client(t).Get("/api/openapi.json").Expect(t, 200).JSON(t, &doc)
		if sec := doc.Paths["/api/device/plays"]["post"].Security; len(sec) != 1 || sec[0]["deviceSignature"] == nil {
			t.Fatalf("the document's /api/device/plays: %+v", doc.Paths["/api/device/plays"])
		}
		if sec := doc.Paths["/api/device/pair"]["post"].Security; sec == nil || len(sec) != 0 {
			t.Fatalf("the document's /api/device/pair: %+v", sec)
		}
		// The proof chain holds the batches with the device signature; /api/verify checks both.
		codes, err := w.campaignsMod.Service().ProofCodesOf(t.Context(), w.campaign)
		if err != nil || len(codes) == 0 {
			t.Fatalf("codes: %v %v", codes, err)
		}
		// The campaign page says the week is signed by its screen, not "corrected" for its many
		// batch records.
		var pc campaigns.ProofCodes
		w.adv.Get("/api/campaigns/"+w.campaign+"/proof-codes").Expect(t, 200).JSON(t, &pc)
		if len(pc.Weeks) == 0 || !pc.Weeks[0].SignedByScreen {
			t.Fatalf("proof codes = %+v", pc.Weeks)
		}
		var v campaigns.VerifyResult
		w.s.Client(t).Get("/api/verify/"+codes[0].Code).Expect(t, 200).JSON(t, &v)
		if !v.Valid || !v.ChainValid || !strings.Contains(v.Record.Canonical, `"device":{"batch_hash":`) {
			t.Fatalf("verify = valid %v chain %v problems %v canonical %s", v.Valid, v.ChainValid, v.Problems, v.Record.Canonical)
		}
		if v.Device == nil || !v.Device.Valid || v.Device.ScreenID != p.screenID || v.Device.PublicKey != base64.StdEncoding.EncodeToString(p.pub) {
			t.Fatalf("verify's device part = %+v", v.Device)
		}

		// Heartbeat, then the admin list.
		hb, _ := json.Marshal(screens.Heartbeat{AppVersion: "test/2", FreeDiskBytes: 1 << 30, CurrentCreativeID: w.creative})
		if r := p.signed(t, w.s, "POST", "/api/device/heartbeat", hb, nil); r.StatusCode != 204 {
			t.Fatalf("heartbeat: %d", r.StatusCode)
		}
		var list screens.ScreenList
		w.admin.Get("/api/admin/screens").Expect(t, 200).JSON(t, &list)
		if list.Total != 1 || list.Items[0].Health != screens.HealthOnline || list.Items[0].AppVersion != "test/2" {
			t.Fatalf("list = %+v", list)
		}
		w.adv.Get("/api/admin/screens").Expect(t, 403)
	})
}

// Bad signatures, stale timestamps, revoked screens and oversized bodies answer 401 or 413, and
// store nothing; a device credential reaches no user route, and a session no device route.
func TestDeviceAuthRefusals(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		p := newPlayer(t, w)
		p.pair(t, w.code(t, w.face)).Expect(t, 201)
		now := w.s.Clock.Now().UTC()
		body := playsBody(t, []screens.PlayIn{{Seq: 1, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: now, DurationMs: 8000}})

		// Another key signs: 401.
		impostor := newPlayer(t, w)
		impostor.screenID = p.screenID
		if r := impostor.signed(t, w.s, "POST", "/api/device/plays", body, nil); r.StatusCode != 401 {
			t.Fatalf("bad signature: %d", r.StatusCode)
		}
		// A stale timestamp: 401.
		p.skew = -301 * time.Second
		r := p.signed(t, w.s, "POST", "/api/device/plays", body, nil)
		p.skew = 0
		if r.StatusCode != 401 {
			t.Fatalf("stale: %d", r.StatusCode)
		}
		// Oversized: 413 before reading.
		big := bytes.Repeat([]byte(" "), screens.MaxBodyBytes+1)
		if r := p.signed(t, w.s, "POST", "/api/device/plays", big, nil); r.StatusCode != 413 {
			t.Fatalf("oversized: %d", r.StatusCode)
		}
		// A batch of 1,001 plays: refused.
		many := make([]screens.PlayIn, screens.MaxPlays+1)
		for i := range many {
			many[i] = screens.PlayIn{Seq: int64(i + 1), CampaignID: "c", CreativeID: "k", StartedAt: now}
		}
		if r := p.signed(t, w.s, "POST", "/api/device/plays", playsBody(t, many), nil); r.StatusCode != 400 {
			t.Fatalf("1001 plays: %d", r.StatusCode)
		}
		// A screen cannot read another face's schedule: the face is its own, whatever it asks.
		res := p.signed(t, w.s, "GET", "/api/device/schedule?weeks=1&face_id="+w.other, nil, nil)
		var sch screens.Schedule
		decode(t, res, &sch)
		if sch.FaceID != w.face {
			t.Fatalf("schedule of %s", sch.FaceID)
		}
		// The device's headers reach no user route; the admin's session reaches no device route.
		if r := p.signed(t, w.s, "GET", "/api/admin/screens", nil, nil); r.StatusCode != 401 {
			t.Fatalf("device on an admin route: %d", r.StatusCode)
		}
		w.admin.Post("/api/device/plays", screens.PlaysBatch{}).Expect(t, 401)
		w.admin.Get("/api/device/schedule").Expect(t, 401)

		// A download link works until the screen is revoked; a changed token never does.
		if len(sch.Weeks) == 0 || len(sch.Weeks[0].Items) == 0 {
			t.Fatalf("schedule = %+v", sch)
		}
		u, _ := url.Parse(sch.Weeks[0].Items[0].URL)
		w.s.Client(t).Get(u.Path).Expect(t, 200)
		forged := []byte(u.Path)
		forged[len(forged)-20] ^= 1 // one bit of the signature
		w.s.Client(t).Get(string(forged)).Expect(t, 404)
		// Revoked: 401.
		w.admin.Post("/api/admin/screens/"+p.screenID+"/revoke", nil).Expect(t, 200)
		w.s.Client(t).Get(u.Path).Expect(t, 404)
		if r := p.signed(t, w.s, "POST", "/api/device/plays", body, nil); r.StatusCode != 401 {
			t.Fatalf("revoked: %d", r.StatusCode)
		}
		// One screen per face: a new pairing of the other face replaces its screen.
		a, b := newPlayer(t, w), newPlayer(t, w)
		a.pair(t, w.code(t, w.other)).Expect(t, 201)
		b.pair(t, w.code(t, w.other)).Expect(t, 201)
		if r := a.signed(t, w.s, "GET", "/api/device/schedule", nil, nil); r.StatusCode != 401 {
			t.Fatalf("the replaced screen: %d", r.StatusCode)
		}
		if r := b.signed(t, w.s, "GET", "/api/device/schedule", nil, nil); r.StatusCode != 200 {
			t.Fatalf("the new screen: %d", r.StatusCode)
		}
		var list screens.ScreenList
		w.admin.Get("/api/admin/screens").Expect(t, 200).JSON(t, &list)
		for _, it := range list.Items {
			if it.ID == p.screenID && (it.Status != screens.StatusRevoked || it.PlaysToday != 0) {
				t.Fatalf("after refusals: %+v", it)
			}
		}
	})
}

// The formula of docs/screens.md.
func TestImpressionsFormula(t *testing.T) {
	// 18 open hours a day, a 64 s loop: 7 × 64,800 ÷ 64 = 7,087 expected plays a week.
	open := screens.OpenSecondsPerDay(6*60, 24*60)
	if got := screens.ExpectedPlaysPerWeek(64, open); got != 7087 {
		t.Fatalf("expected plays = %d", got)
	}
	// All of them deliver the face's weekly impressions; half of them half.
	if got := screens.Impressions(7087*2, 70_000, 64, open); got != 139_990 {
		t.Fatalf("impressions = %d", got)
	}
	if got := screens.Impressions(0, 70_000, 64, open); got != 0 {
		t.Fatalf("none = %d", got)
	}
}

// weekOf returns the campaign's week on the face starting at start.
func (w *world) weekOf(t *testing.T, face string, start dates.Date) campaigns.Week {
	t.Helper()
	return w.weekOfCampaign(t, w.campaign, face, start)
}

// A week with a figure from plays is closed only once its 48 h grace is over, and then the
// make-good rule runs on it; before that the make-good job leaves it alone. An admin replaces
// the screen's figure only with a reason, and plays no longer change it.
func TestWeekCloseAndOverride(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		p := newPlayer(t, w)
		p.pair(t, w.code(t, w.face)).Expect(t, 201)
		now := w.s.Clock.Now().UTC()
		var out screens.PlaysResult
		decode(t, p.signed(t, w.s, "POST", "/api/device/plays", playsBody(t, []screens.PlayIn{
			{Seq: 1, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: now.Add(-time.Hour), DurationMs: 8000}}), nil), &out)
		if out.Accepted != 1 {
			t.Fatalf("plays = %+v", out)
		}
		wk := w.weekOf(t, w.face, w.weekStart)
		if wk.DeliverySource != campaigns.DeliverySourceScreen || wk.ActImp == nil || *wk.ActImp >= wk.ProductOoh/2 {
			t.Fatalf("week = %s %v of %d", wk.DeliverySource, wk.ActImp, wk.ProductOoh)
		}
		closeWeeks := func() int {
			n, err := w.m.CloseWeeks(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		// The week ends tonight; a day later it is over but within its grace.
		w.s.Clock.Advance(24 * time.Hour)
		if n := closeWeeks(); n != 0 {
			t.Fatalf("closed %d within the grace", n)
		}
		if _, err := w.campaignsMod.RunMakeGoods(t.Context()); err != nil {
			t.Fatal(err)
		}
		if w.weekOf(t, w.face, w.weekStart).MakeGood != nil {
			t.Fatal("a make-good before the week was closed")
		}
		// A late play (backfill) still counts within the grace.
		decode(t, p.signed(t, w.s, "POST", "/api/device/plays", playsBody(t, []screens.PlayIn{
			{Seq: 2, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: now.Add(-30 * time.Minute), DurationMs: 8000}}), nil), &out)
		before := *w.weekOf(t, w.face, w.weekStart).ActImp
		if out.Accepted != 1 || before <= *wk.ActImp {
			t.Fatalf("backfill: %+v, %d then %d", out, *wk.ActImp, before)
		}
		w.s.Clock.Advance(48 * time.Hour)
		if n := closeWeeks(); n != 1 {
			t.Fatalf("closed %d after the grace", n)
		}
		if n := closeWeeks(); n != 0 {
			t.Fatalf("closed %d again", n)
		}
		closed := w.weekOf(t, w.face, w.weekStart)
		if closed.MakeGood == nil {
			t.Fatal("no make-good for an under-delivered closed week")
		}

		// The admin override of next week's figure from the screen: a reason is required.
		next := w.weekStart.AddWeeks(1)
		decode(t, p.signed(t, w.s, "POST", "/api/device/plays", playsBody(t, []screens.PlayIn{
			{Seq: 3, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: w.s.Clock.Now().UTC().Add(-time.Minute), DurationMs: 8000}}), nil), &out)
		nw := w.weekOf(t, w.face, next)
		if out.Accepted != 1 || nw.DeliverySource != campaigns.DeliverySourceScreen {
			t.Fatalf("next week: %+v %s", out, nw.DeliverySource)
		}
		w.admin.SessionAs(w.s, w.adminID) // three days later: a fresh session
		r := w.admin.Put("/api/admin/campaigns/week/"+nw.ID+"/delivery", campaigns.DeliveryUpdate{ActImp: 12345})
		r.Expect(t, 400)
		if !strings.Contains(string(r.Body), campaigns.MsgOverrideReason) {
			t.Fatalf("no reason: %s", r.Body)
		}
		w.admin.Put("/api/admin/campaigns/week/"+nw.ID+"/delivery", campaigns.DeliveryUpdate{ActImp: 12345, Reason: "screen was covered by scaffolding"}).Expect(t, 200)
		decode(t, p.signed(t, w.s, "POST", "/api/device/plays", playsBody(t, []screens.PlayIn{
			{Seq: 4, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: w.s.Clock.Now().UTC(), DurationMs: 8000}}), nil), &out)
		if got := w.weekOf(t, w.face, next); got.DeliverySource != campaigns.DeliverySourceAdmin || got.ActImp == nil || *got.ActImp != 12345 {
			t.Fatalf("after the override: %s %v", got.DeliverySource, got.ActImp)
		}
	})
}

// A screen silent for more than an hour during operating hours emails the admins once, and
// again when it is heard.
func TestHealthEmails(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		p := newPlayer(t, w)
		p.pair(t, w.code(t, w.face)).Expect(t, 201)
		hb, _ := json.Marshal(screens.Heartbeat{AppVersion: "test/1"})
		beat := func() {
			if r := p.signed(t, w.s, "POST", "/api/device/heartbeat", hb, nil); r.StatusCode != 204 {
				t.Fatalf("heartbeat: %d", r.StatusCode)
			}
		}
		check := func() int {
			n, err := w.m.CheckHealth(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		beat()
		if n := check(); n != 0 {
			t.Fatalf("%d emails for a live screen", n)
		}
		w.s.Clock.Advance(90 * time.Minute) // 08:30 in New York: operating hours
		if n := check(); n != 1 {
			t.Fatalf("%d emails for a silent screen", n)
		}
		if n := check(); n != 0 {
			t.Fatalf("%d emails again", n)
		}
		var list screens.ScreenList
		w.admin.Get("/api/admin/screens").Expect(t, 200).JSON(t, &list)
		if list.Items[0].Health != screens.HealthOffline {
			t.Fatalf("health = %s", list.Items[0].Health)
		}
		beat()
		if n := check(); n != 1 {
			t.Fatalf("%d emails on recovery", n)
		}
		mails := strings.Join(w.s.DeliverMail(t), "\n")
		if !strings.Contains(mails, "Screen silent: "+p.screenID) || !strings.Contains(mails, "Screen back: "+p.screenID) {
			t.Fatalf("mails: %s", mails)
		}
	})
}

// Hostile bodies, signed by a paired screen, answer 4xx with the envelope and store nothing.
func TestSignedHostileBodies(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		p := newPlayer(t, w)
		p.pair(t, w.code(t, w.face)).Expect(t, 201)
		bodies := []string{``, `null`, `[]`, `{"plays":null}`, `{"plays":[null]}`, `{"plays":"x"}`, `{"plays":[{"seq":"1"}]}`,
			`{"plays":[{"seq":0,"campaign_id":"c","creative_id":"k","started_at":"2026-11-22T00:00:00Z"}]}`,
			`{"plays":[{"seq":1,"campaign_id":"c\n","creative_id":"k","started_at":"2026-11-22T00:00:00Z"}]}`,
			`{"plays":[{"seq":1,"campaign_id":"c","creative_id":"k","started_at":"yesterday"}]}`,
			`{"plays":[{"seq":99999999999999999999}]}`, `{"plays":[]} {}`, strings.Repeat(`[`, 10000),
			`{"app_version":"` + strings.Repeat("v", 5000) + `"}`, `{"free_disk_bytes":-1}`}
		for _, path := range []string{"/api/device/plays", "/api/device/heartbeat"} {
			for _, b := range bodies {
				res := p.signed(t, w.s, "POST", path, []byte(b), nil)
				var env struct {
					Success *bool  `json:"success"`
					Message string `json:"message"`
				}
				decodeErr := json.NewDecoder(res.Body).Decode(&env)
				res.Body.Close()
				ok := res.StatusCode == 200 || res.StatusCode == 204
				if res.StatusCode >= 500 || (!ok && (decodeErr != nil || env.Success == nil || env.Message == "")) {
					t.Fatalf("%s %.60q: %d %v", path, b, res.StatusCode, decodeErr)
				}
			}
		}
		var list screens.ScreenList
		w.admin.Get("/api/admin/screens").Expect(t, 200).JSON(t, &list)
		if list.Items[0].PlaysToday != 0 {
			t.Fatalf("plays stored: %d", list.Items[0].PlaysToday)
		}
	})
}

// A week booked without a creative shows its company's default creative: the player has
// something to play, and its plays count.
func TestScheduleFallsBackToTheDefaultCreative(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		gen, err := w.campaignsMod.GenerateCampaigns(t.Context(), campaigns.GenerateOptions{CompanyID: w.advAcc.CompanyID, UserID: w.advAcc.UserID,
			Campaigns: 1, Weeks: 1, FacesPer: 1, Faces: w.faces[2:3], Start: w.weekStart, NamePrefix: "No creative"})
		if err != nil {
			t.Fatal(err)
		}
		p := newPlayer(t, w)
		p.pair(t, w.code(t, w.faces[2].ID)).Expect(t, 201)
		var sch screens.Schedule
		decode(t, p.signed(t, w.s, "GET", "/api/device/schedule?weeks=1", nil, nil), &sch)
		if len(sch.Weeks[0].Items) != 1 || sch.Weeks[0].Items[0].CreativeID != w.creative || sch.Weeks[0].Items[0].CampaignID != gen[0] {
			t.Fatalf("schedule = %+v", sch.Weeks)
		}
		var out screens.PlaysResult
		decode(t, p.signed(t, w.s, "POST", "/api/device/plays", playsBody(t, []screens.PlayIn{
			{Seq: 1, CampaignID: gen[0], CreativeID: w.creative, StartedAt: w.s.Clock.Now().UTC(), DurationMs: 8000}}), nil), &out)
		if out.Accepted != 1 {
			t.Fatalf("plays = %+v", out)
		}
	})
}

// A simulated week of 50 players, one booking each: a loop's play per loop of the operating hours,
// posted in batches of 1,000. Ten players are cut off mid-week and backfill their queued batches,
// newest first, when they reconnect; ten others send every batch twice. Every week's delivered
// impressions equal what its player played, by the formula.
func TestSimulatedWeekOfFiftyPlayers(t *testing.T) {
	if testing.Short() {
		t.Skip("a week of plays")
	}
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		loc := testkit.ModuleOf[*locations.Module](t, w.s)
		const players = 50
		if _, err := loc.GenerateInventory(t.Context(), locations.GenerateOptions{Markets: []string{"Chicago"}, FacesPerMarket: players, Seed: 9, Weeks: w.weekStart.Weeks(2)}); err != nil {
			t.Fatal(err)
		}
		faces, err := loc.Service().Locations(t.Context(), locations.LocationQuery{Markets: []string{"Chicago"}})
		if err != nil || len(faces) < players {
			t.Fatalf("faces: %d %v", len(faces), err)
		}
		faces = faces[:players]
		gen, err := w.campaignsMod.GenerateCampaigns(t.Context(), campaigns.GenerateOptions{CompanyID: w.advAcc.CompanyID, UserID: w.advAcc.UserID,
			Campaigns: players, Weeks: 1, FacesPer: 1, Faces: faces, Start: w.weekStart, NamePrefix: "Simulated", CreativeID: w.creative})
		if err != nil {
			t.Fatal(err)
		}
		// The week runs Monday 06:00 to Sunday 24:00 on the faces' own clock, Chicago's (an hour
		// behind the business zone: a play at 06:00 New York would be outside their hours); the
		// server's clock is at its end.
		if faces[0].Hours == nil || faces[0].Hours.Timezone != "America/Chicago" {
			t.Fatalf("a Chicago face's hours: %+v", faces[0].Hours)
		}
		chicago, _ := time.LoadLocation("America/Chicago")
		monday := time.Date(w.weekStart.Time().Year(), w.weekStart.Time().Month(), w.weekStart.Time().Day(), 0, 0, 0, 0, chicago)
		open := screens.OpenSecondsPerDay(6*60, 24*60)
		played := make([]int64, players)
		var mu sync.Mutex
		var wg sync.WaitGroup
		errs := make(chan error, players)
		ps := make([]*player, players)
		for i := range ps {
			if i%15 == 14 {
				w.s.Clock.Advance(61 * time.Second) // pairings are 20 a minute per IP
			}
			ps[i] = newPlayer(t, w)
			ps[i].pair(t, w.code(t, faces[i].ID)).Expect(t, 201)
		}
		w.s.Clock.Set(monday.AddDate(0, 0, 7).Add(-time.Minute))
		sem := make(chan struct{}, 2)
		for i := 0; i < players; i++ {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				slot, loop := screens.Loop(faces[i].Location.AdSpotDuration, faces[i].Location.AdRotationFrequency)
				var plays []screens.PlayIn
				for d := 0; d < 7; d++ {
					day := monday.AddDate(0, 0, d)
					for at := day.Add(6 * time.Hour); at.Before(day.Add(24 * time.Hour)); at = at.Add(time.Duration(loop) * time.Second) {
						plays = append(plays, screens.PlayIn{Seq: int64(len(plays) + 1), CampaignID: gen[i], CreativeID: w.creative, StartedAt: at.UTC(), DurationMs: int64(slot) * 1000})
					}
				}
				mu.Lock()
				played[i] = int64(len(plays))
				mu.Unlock()
				var batches [][]byte
				for k := 0; k < len(plays); k += screens.MaxPlays {
					batches = append(batches, playsBody(t, plays[k:min(k+screens.MaxPlays, len(plays))]))
				}
				send := func(b []byte) {
					var out screens.PlaysResult
					res := ps[i].signed(t, w.s, "POST", "/api/device/plays", b, nil)
					decode(t, res, &out)
					if res.StatusCode != 200 || len(out.Flagged) != 0 {
						errs <- fmt.Errorf("player %d: %d %+v", i, res.StatusCode, out.Flagged)
					}
				}
				var queued [][]byte
				for k, b := range batches {
					switch {
					case i < 10 && k >= 3 && k < 6: // the outage: kept on the player's disk
						queued = append(queued, b)
					case i >= 10 && i < 20: // a flaky network: every batch arrives twice
						send(b)
						send(b)
					default:
						send(b)
					}
				}
				for k := len(queued) - 1; k >= 0; k-- { // reconnected: the backfill, in any order
					send(queued[k])
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		weeks := map[string]campaigns.Week{}
		for _, id := range gen {
			ws, err := w.campaignsMod.Service().FindWeeks(t.Context(), id)
			if err != nil || len(ws) != 1 {
				t.Fatalf("weeks of %s: %d %v", id, len(ws), err)
			}
			weeks[id] = ws[0]
		}
		for i, id := range gen {
			_, loop := screens.Loop(faces[i].Location.AdSpotDuration, faces[i].Location.AdRotationFrequency)
			wk := weeks[id]
			want := screens.Impressions(played[i], wk.ProductOoh, loop, open)
			if wk.ActImp == nil || *wk.ActImp != want || wk.DeliverySource != campaigns.DeliverySourceScreen {
				t.Fatalf("player %d: delivered %v (%s), played %d plays = %d impressions of %d", i, wk.ActImp, wk.DeliverySource, played[i], want, wk.ProductOoh)
			}
			if want < wk.ProductOoh*99/100 || want > wk.ProductOoh*101/100 { // a loop cut by the close still plays
				t.Fatalf("player %d: a full week of plays delivers %d of %d", i, want, wk.ProductOoh)
			}
		}
	})
}

// Raw plays are kept 90 days; the rollups, and so the figures, stay.
func TestRawPlaysAreKept90Days(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		p := newPlayer(t, w)
		p.pair(t, w.code(t, w.face)).Expect(t, 201)
		now := w.s.Clock.Now().UTC()
		var out screens.PlaysResult
		decode(t, p.signed(t, w.s, "POST", "/api/device/plays", playsBody(t, []screens.PlayIn{
			{Seq: 1, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: now.Add(-time.Minute), DurationMs: 8000},
			{Seq: 2, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: now, DurationMs: 8000}}), nil), &out)
		before := w.weekOf(t, w.face, w.weekStart)
		if n, err := w.m.PrunePlays(t.Context()); err != nil || n != 0 {
			t.Fatalf("pruned %d %v", n, err)
		}
		partition := "w" + w.weekStart.Format("20060102")
		partitions := func() (n int64) {
			w.s.Kernel.DB.Raw("SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'screens_parts' AND c.relname = ?", partition).Scan(&n)
			return n
		}
		if dialect == db.Postgres {
			var n int64
			w.s.Kernel.DB.Raw("SELECT count(*) FROM screens_parts." + partition).Scan(&n)
			if n != 2 {
				t.Fatalf("the week's partition holds %d plays", n)
			}
		}
		w.s.Clock.Advance(screens.PlaysKept + 8*24*time.Hour)
		n, err := w.m.PrunePlays(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if dialect == db.Postgres {
			if partitions() != 0 {
				t.Fatal("the week's partition is still there")
			}
		} else if n != 2 {
			t.Fatalf("pruned %d", n)
		}
		var left int64
		w.s.Kernel.DB.Raw("SELECT count(*) FROM screens_plays").Scan(&left)
		if left != 0 {
			t.Fatalf("%d plays left", left)
		}
		after := w.weekOf(t, w.face, w.weekStart)
		if before.ActImp == nil || after.ActImp == nil || *after.ActImp != *before.ActImp {
			t.Fatalf("the figure changed: %v then %v", before.ActImp, after.ActImp)
		}
	})
}

// signedCall makes a signed device call through the test client, which checks the request and
// the answer against the OpenAPI document.
func (p *player) signedCall(t *testing.T, s *testkit.Server, method, path string, body []byte) *testkit.Response {
	t.Helper()
	return p.signedCallWith(t, s, method, path, body, http.Header{})
}

// signedCallWith is signedCall with more headers (If-None-Match).
func (p *player) signedCallWith(t *testing.T, s *testkit.Server, method, path string, body []byte, headers http.Header) *testkit.Response {
	t.Helper()
	ts := strconv.FormatInt(s.Clock.Now().Unix(), 10)
	msg := screens.SignedMessage(method, path, ts, screens.BodyHash(body))
	p.c.Header = headers.Clone()
	p.c.Header.Set(screens.HeaderScreenID, p.screenID)
	p.c.Header.Set(screens.HeaderTimestamp, ts)
	p.c.Header.Set(screens.HeaderSignature, base64.StdEncoding.EncodeToString(ed25519.Sign(p.priv, []byte(msg))))
	defer func() { p.c.Header = nil }()
	if body == nil {
		return p.c.Do(method, path, nil)
	}
	return p.c.Do(method, path, body)
}

// The device API's answers are the documented ones (the test client checks each call against the
// OpenAPI document).
func TestDeviceAnswersMatchTheDocument(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		p := newPlayer(t, w)
		p.pair(t, w.code(t, w.face)).Expect(t, 201)
		var sch screens.Schedule
		p.signedCall(t, w.s, "GET", "/api/device/schedule?weeks=3", nil).Expect(t, 200).JSON(t, &sch)
		if len(sch.Weeks) != 3 || len(sch.Weeks[2].Items) != 0 {
			t.Fatalf("schedule = %+v", sch.Weeks)
		}
		now := w.s.Clock.Now().UTC()
		var out screens.PlaysResult
		p.signedCall(t, w.s, "POST", "/api/device/plays", playsBody(t, []screens.PlayIn{
			{Seq: 1, CampaignID: w.campaign, CreativeID: w.creative, StartedAt: now, DurationMs: 8000},
			{Seq: 2, CampaignID: w.campaign, CreativeID: "0190a000-0000-7000-8000-000000000000", StartedAt: now, DurationMs: 8000}})).Expect(t, 200).JSON(t, &out)
		if out.Accepted != 1 || len(out.Flagged) != 1 || out.Flagged[0].Reason != screens.FlagUnknownCreative {
			t.Fatalf("plays = %+v", out)
		}
		hb, _ := json.Marshal(screens.Heartbeat{AppVersion: "test/1"})
		p.signedCall(t, w.s, "POST", "/api/device/heartbeat", hb).Expect(t, 204)
		p.signedCall(t, w.s, "POST", "/api/device/plays", []byte(`{"plays":[{"seq":0}]}`)).Expect(t, 400)
	})
}

// Pairing attempts are limited per IP (the code is the credential): the 21st in a minute is 429.
func TestPairingIsRateLimited(t *testing.T) {
	w := start(t, testkit.Dialects()[0])
	q := newPlayer(t, w)
	for i := range 20 {
		q.pair(t, "WRONG-CODE-"+strconv.Itoa(i)).Expect(t, 401)
	}
	q.pair(t, w.code(t, w.face)).Expect(t, 429)
	w.s.Clock.Advance(61 * time.Second)
	q.pair(t, w.code(t, w.face)).Expect(t, 201)
}
