package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

// account is one person of the load: an advertiser (a company of its own, signed up over HTTP) or
// an admin (made with `marquee user create --role admin`).
type account struct {
	email, password string
	admin           bool

	cookie     atomic.Pointer[string] // marquee_session=...; a sign-in of the mix replaces it
	userID     string
	companyID  string
	creativeID string

	mu        sync.Mutex
	campaigns []string
}

func (a *account) session() string { return *a.cookie.Load() }

func (a *account) addCampaign(id string) {
	a.mu.Lock()
	a.campaigns = append(a.campaigns, id)
	a.mu.Unlock()
}

func (a *account) randomCampaign() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.campaigns) == 0 {
		return ""
	}
	return a.campaigns[rand.IntN(len(a.campaigns))] // #nosec G404 -- a load pick, not a secret
}

// upload is a creative file uploaded and not yet saved as a creative (the web's two steps).
type upload struct {
	owner *account
	path  string
}

// world is what the mix draws from: the accounts, the markets and the free spots of the weeks
// the campaigns start in.
type world struct {
	base        string
	advertisers []*account
	admins      []*account
	markets     []string
	cities      map[string][]string
	weeks       []string // the Mondays campaigns may start on: the default start and the 5 after
	uploads     chan upload
	jpeg        []byte

	byUser    map[string]*account
	byCompany map[string]*account

	spotsMu sync.Mutex
	rng     *rand.Rand // under spotsMu
	// free[market][week][face] is the number of spots the load may still book (the free spots
	// at setup less one, so the demo's weekly job never meets a face the load filled).
	free      map[string][]map[string]int
	faceOrder map[string][]string // the faces of a market, in the answer's order
}

const passwordFmt = "load-password-%04d-marquee"

func newAccounts(advertisers, admins int) (ads, adm []*account) {
	for i := range advertisers {
		a := &account{email: fmt.Sprintf("advertiser%04d@load.test", i), password: fmt.Sprintf(passwordFmt, i)}
		ads = append(ads, a)
	}
	for i := range admins {
		a := &account{email: fmt.Sprintf("admin%02d@load.test", i), password: fmt.Sprintf(passwordFmt, 9000+i), admin: true}
		adm = append(adm, a)
	}
	return ads, adm
}

// client is the setup's browser: JSON calls with the CSRF header, the Origin and a session cookie.
type client struct {
	base   string
	http   *http.Client
	cookie string
}

func (c *client) do(method, path, contentType string, body []byte, header map[string]string, want int, out any) error {
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	setBrowserHeaders(req.Header, c.base, c.cookie, contentType)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		return fmt.Errorf("%s %s: %d, want %d: %.300s", method, path, res.StatusCode, want, raw)
	}
	if ck := sessionCookie(res.Header); ck != "" {
		c.cookie = ck
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return nil
}

func (c *client) json(method, path string, in any, want int, out any) error {
	var body []byte
	if in != nil {
		body, _ = json.Marshal(in)
	}
	return c.do(method, path, "application/json", body, nil, want, out)
}

// setBrowserHeaders sets what the web app sends: the session cookie, the CSRF header on every
// call (the app's fetch wrapper sends it always), the Origin on unsafe calls, JSON accepted.
func setBrowserHeaders(h map[string][]string, base, cookie, contentType string) {
	hh := http.Header(h)
	hh.Set("X-Requested-With", "XMLHttpRequest")
	hh.Set("Origin", base)
	hh.Set("Accept", "application/json")
	if cookie != "" {
		hh.Set("Cookie", cookie)
	}
	if contentType != "" {
		hh.Set("Content-Type", contentType)
	}
}

// sessionCookie returns "marquee_session=<token>" from an answer's Set-Cookie, or "".
func sessionCookie(h http.Header) string {
	for _, ck := range (&http.Response{Header: h}).Cookies() {
		if ck.Name == "marquee_session" && ck.Value != "" {
			return ck.Name + "=" + ck.Value
		}
	}
	return ""
}

// multipartFile is a multipart/form-data body with one file in the field "file".
func multipartFile(name string, data []byte) ([]byte, string) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("file", name)
	_, _ = part.Write(data)
	_ = mw.Close()
	return body.Bytes(), mw.FormDataContentType()
}

// creativeJPEG is a small valid JPEG (a 320x240 gradient, a few KB), what a quick creative upload
// sends; the size limits are measured by the creatives benchmarks, not here.
func creativeJPEG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 320, 240))
	for y := range 240 {
		for x := range 320 {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), uint8(x + y), 255})
		}
	}
	var b bytes.Buffer
	_ = jpeg.Encode(&b, img, &jpeg.Options{Quality: 80})
	return b.Bytes()
}

type idOnly struct {
	ID string `json:"id"`
}

// signedIn is the answer of /signup and /signin.
type signedIn struct {
	User struct {
		ID      string `json:"id"`
		Company idOnly `json:"company"`
	} `json:"user"`
}

// setup signs the accounts up (advertisers: a company each, a sandbox card on file, one saved
// creative, one more uploaded and waiting to be saved, one campaign) and in (admins), and reads
// the markets and the free spots of the start weeks.
func setup(ctx context.Context, base string, ads, admins []*account, workers int) (*world, error) {
	w := &world{base: base, advertisers: ads, admins: admins, cities: map[string][]string{},
		uploads: make(chan upload, 100000), jpeg: creativeJPEG(),
		free: map[string][]map[string]int{}, faceOrder: map[string][]string{},
		byUser: map[string]*account{}, byCompany: map[string]*account{}, rng: rand.New(rand.NewPCG(7, 7))} // #nosec G404 -- load picks, not secrets
	httpc := &http.Client{Timeout: 60 * time.Second}
	anon := &client{base: base, http: httpc}

	var markets []struct {
		Market string   `json:"market"`
		Cities []string `json:"cities"`
	}
	if err := anon.json(http.MethodGet, "/api/markets/", nil, 200, &markets); err != nil {
		return nil, err
	}
	for _, m := range markets {
		w.markets = append(w.markets, m.Market)
		w.cities[m.Market] = m.Cities
	}

	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i, a := range ads {
		g.Go(func() error {
			if gctx.Err() != nil {
				return gctx.Err()
			}
			return w.signUp(httpc, i, a)
		})
	}
	for _, a := range admins {
		g.Go(func() error {
			c := &client{base: base, http: httpc}
			var in signedIn
			if err := c.json(http.MethodPost, "/signin", map[string]string{"email": a.email, "password": a.password}, 200, &in); err != nil {
				return err
			}
			a.cookie.Store(&c.cookie)
			a.userID, a.companyID = in.User.ID, in.User.Company.ID
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for _, a := range append(append([]*account(nil), ads...), admins...) {
		w.byUser[a.userID] = a
		if !a.admin {
			w.byCompany[a.companyID] = a
		}
	}

	first := &client{base: base, http: httpc, cookie: ads[0].session()}
	var defaults struct {
		DefaultStart string `json:"default_start"`
	}
	if err := first.json(http.MethodGet, "/api/campaigns/defaults", nil, 200, &defaults); err != nil {
		return nil, err
	}
	start, err := time.Parse(time.DateOnly, defaults.DefaultStart)
	if err != nil {
		return nil, err
	}
	for i := range 6 {
		w.weeks = append(w.weeks, start.AddDate(0, 0, 7*i).Format(time.DateOnly))
	}
	for _, m := range w.markets {
		w.free[m] = make([]map[string]int, len(w.weeks))
		for wi, week := range w.weeks {
			var spots []struct {
				Face      string `json:"xxx"`
				Used      int    `json:"used_spots"`
				Available int    `json:"available_spots"`
				OK        bool   `json:"available"`
			}
			if err := first.json(http.MethodPost, "/api/available-spots/", map[string]any{"start_at": week, "markets": []string{m}}, 200, &spots); err != nil {
				return nil, err
			}
			w.free[m][wi] = map[string]int{}
			for _, s := range spots {
				if wi == 0 {
					w.faceOrder[m] = append(w.faceOrder[m], s.Face)
				}
				if s.OK && s.Available-s.Used > 1 {
					w.free[m][wi][s.Face] = s.Available - s.Used - 1
				}
			}
		}
		sort.Strings(w.faceOrder[m])
	}

	// One campaign per advertiser, so details and lists have something from the first second.
	g, gctx = errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for _, a := range ads {
		g.Go(func() error {
			if gctx.Err() != nil {
				return gctx.Err()
			}
			form, ok := w.campaignForm(a, "Launch", true)
			if !ok {
				return fmt.Errorf("no free spots left for the setup campaigns")
			}
			body, _ := json.Marshal(form)
			c := &client{base: base, http: httpc, cookie: a.session()}
			var created struct {
				Campaign idOnly `json:"campaign"`
			}
			if err := c.do(http.MethodPost, "/api/campaigns", "application/json", body, map[string]string{"Idempotency-Key": "setup-" + a.email}, 201, &created); err != nil {
				return err
			}
			a.addCampaign(created.Campaign.ID)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return w, nil
}

// signUp makes advertiser i: POST /signup, a sandbox card token and the card on file, an upload
// saved as the company's creative, and one more upload left for the mix to save.
func (w *world) signUp(httpc *http.Client, i int, a *account) error {
	c := &client{base: w.base, http: httpc}
	var in signedIn
	err := c.json(http.MethodPost, "/signup", map[string]any{
		"company": fmt.Sprintf("Load Advertiser %04d", i), "email": a.email,
		"phone": fmt.Sprintf("+1 415 555 %04d", i%10000), "password": a.password,
	}, 201, &in)
	if err != nil {
		return err
	}
	a.cookie.Store(&c.cookie)
	a.userID, a.companyID = in.User.ID, in.User.Company.ID
	year := time.Now().Year() + 3
	var tok idOnly
	if err := c.json(http.MethodPost, "/api/sandbox/tokens", map[string]any{"number": "4242424242424242", "exp_month": 12, "exp_year": year, "cvc": "123"}, 200, &tok); err != nil {
		return err
	}
	if err := c.json(http.MethodPost, "/api/cards", map[string]any{"token": tok.ID, "exp_month": 12, "exp_year": year}, 201, nil); err != nil {
		return err
	}
	for n := range 2 {
		body, ct := multipartFile("creative.jpg", w.jpeg)
		var up struct {
			Path string `json:"path"`
		}
		if err := c.do(http.MethodPost, "/upload_creative", ct, body, nil, 200, &up); err != nil {
			return err
		}
		if n == 1 {
			w.uploads <- upload{owner: a, path: up.Path}
			continue
		}
		var cr idOnly
		if err := c.json(http.MethodPost, "/api/creatives/", map[string]any{"creative": map[string]string{"name": "Spring", "url": up.Path}}, 201, &cr); err != nil {
			return err
		}
		a.creativeID = cr.ID
	}
	return nil
}

// campaignForm is a premium campaign on 1 to 3 faces of one market, starting on one of the start
// weeks, for 1 or 2 weeks, with the account's creative. When book is true, the spots it takes are
// counted off, so no two creations of the load compete for a face's last spot (a 409 conflict is
// the answer to such a race, and the load counts every non-2xx as an error).
func (w *world) campaignForm(a *account, name string, book bool) (map[string]any, bool) {
	w.spotsMu.Lock()
	defer w.spotsMu.Unlock()
	rng := w.rng
	for range 50 {
		market := w.markets[rng.IntN(len(w.markets))]
		duration := 1 + rng.IntN(2)
		wi := rng.IntN(len(w.weeks) - duration + 1)
		want := 1 + rng.IntN(3)
		faces := w.faceOrder[market]
		var picked []string
		for _, k := range rng.Perm(len(faces)) {
			f := faces[k]
			ok := true
			for d := range duration {
				if w.free[market][wi+d][f] < 1 {
					ok = false
				}
			}
			if ok {
				picked = append(picked, f)
				if len(picked) == want {
					break
				}
			}
		}
		if len(picked) < want {
			continue
		}
		places := make([]map[string]string, len(picked))
		for i, f := range picked {
			places[i] = map[string]string{"id": f}
			if book {
				for d := range duration {
					w.free[market][wi+d][f]--
				}
			}
		}
		return map[string]any{
			"name": fmt.Sprintf("%s %d", name, rng.IntN(1000000)), "typeCampaign": 1, "strategySelected": 1,
			"marketsSelected": []string{market}, "places_checked": places, "startDate": w.weeks[wi],
			"frequencySelected": "weekly", "duration": duration, "creative_id": a.creativeID,
		}, true
	}
	return nil, false
}
