package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// call is one kind of request of the mix, sent at its own constant rate by its own vegeta attack,
// so every call has its own latency figures. The rates are per minute at scale 1; they add up to
// about 36 requests a second, a busy hour of a few hundred signed-in people on two cores.
type call struct {
	name   string
	perMin int
	want   int // the only status that is not an error
	target func(w *world, t *vegeta.Target) error
	// after reads a successful answer: new campaigns and uploads join the pools the other calls
	// draw from, and a sign-in's session replaces the account's.
	after func(w *world, r *vegeta.Result)
}

var placeInputs = []string{"Chi", "San", "Bos", "Atl", "Den", "Sea", "Hou", "Mia", "Aus", "New Y", "Los A", "Port"}

func pick[T any](s []T) T { return s[rand.IntN(len(s))] } // #nosec G404 -- a load pick, not a secret

// browser fills a target with the web app's headers for account a.
func browser(w *world, t *vegeta.Target, a *account, method, path, contentType string, body []byte) {
	t.Method, t.URL, t.Body = method, w.base+path, body
	t.Header = http.Header{}
	cookie := ""
	if a != nil {
		cookie = a.session()
	}
	setBrowserHeaders(t.Header, w.base, cookie, contentType)
	// Browsers accept gzip; the large map answers are compressed for them.
	t.Header.Set("Accept-Encoding", "gzip")
}

func jsonBody(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

var keySeq atomic.Int64

func mix() []call {
	return []call{
		// The map: markets, the faces of a market, their free spots in a week, the place search.
		{name: "map markets", perMin: 120, want: 200, target: func(w *world, t *vegeta.Target) error {
			browser(w, t, pick(w.advertisers), http.MethodGet, "/api/markets/", "", nil)
			return nil
		}},
		{name: "map locations of a market", perMin: 240, want: 200, target: func(w *world, t *vegeta.Target) error {
			browser(w, t, pick(w.advertisers), http.MethodGet, "/api/od/locations/?market="+url.QueryEscape(pick(w.markets)), "", nil)
			return nil
		}},
		{name: "map available spots", perMin: 240, want: 200, target: func(w *world, t *vegeta.Target) error {
			body := jsonBody(map[string]any{"start_at": pick(w.weeks), "markets": []string{pick(w.markets)}})
			browser(w, t, pick(w.advertisers), http.MethodPost, "/api/available-spots/", "application/json", body)
			return nil
		}},
		{name: "map place search", perMin: 60, want: 200, target: func(w *world, t *vegeta.Target) error {
			browser(w, t, pick(w.advertisers), http.MethodGet, "/api/places/predictions?input="+url.QueryEscape(pick(placeInputs)), "", nil)
			return nil
		}},
		// Every page load asks who is signed in.
		{name: "current user", perMin: 300, want: 200, target: func(w *world, t *vegeta.Target) error {
			browser(w, t, pick(w.advertisers), http.MethodGet, "/users/currentUser", "", nil)
			return nil
		}},
		// Campaigns: the list, a detail and its weeks, the quote of the review step, a creation
		// (booked and charged with the sandbox card on file).
		{name: "campaigns list", perMin: 240, want: 200, target: func(w *world, t *vegeta.Target) error {
			browser(w, t, pick(w.advertisers), http.MethodGet, "/api/campaigns?page=1&page_size=10", "", nil)
			return nil
		}},
		{name: "campaign detail", perMin: 240, want: 200, target: func(w *world, t *vegeta.Target) error {
			a := pick(w.advertisers)
			browser(w, t, a, http.MethodGet, "/api/campaigns/"+a.randomCampaign(), "", nil)
			return nil
		}},
		{name: "campaign weeks", perMin: 120, want: 200, target: func(w *world, t *vegeta.Target) error {
			a := pick(w.advertisers)
			browser(w, t, a, http.MethodGet, "/api/campaigns/"+a.randomCampaign()+"/weeks?page=1&page_size=10", "", nil)
			return nil
		}},
		{name: "campaign quote", perMin: 30, want: 200, target: func(w *world, t *vegeta.Target) error {
			a := pick(w.advertisers)
			form, ok := w.campaignForm(a, "Quote", false)
			if !ok {
				return errors.New("no free spots left to quote")
			}
			browser(w, t, a, http.MethodPost, "/api/campaigns/quote", "application/json", jsonBody(form))
			return nil
		}},
		{name: "campaign create (book + pay)", perMin: 30, want: 201, target: func(w *world, t *vegeta.Target) error {
			a := pick(w.advertisers)
			form, ok := w.campaignForm(a, "Load", true)
			if !ok {
				return errors.New("no free spots left to book")
			}
			browser(w, t, a, http.MethodPost, "/api/campaigns", "application/json", jsonBody(form))
			t.Header.Set("Idempotency-Key", fmt.Sprintf("load-%d-%d", time.Now().UnixNano(), keySeq.Add(1)))
			return nil
		}, after: func(w *world, r *vegeta.Result) {
			var created struct {
				Campaign struct {
					ID   string `json:"id"`
					User string `json:"user"`
				} `json:"campaign"`
			}
			if json.Unmarshal(r.Body, &created) == nil {
				if a := w.byUser[created.Campaign.User]; a != nil && created.Campaign.ID != "" {
					a.addCampaign(created.Campaign.ID)
				}
			}
		}},
		// Creatives: upload a JPEG (multipart), save an upload as a creative, the library list.
		{name: "creative upload", perMin: 30, want: 200, target: func(w *world, t *vegeta.Target) error {
			body, ct := multipartFile("creative.jpg", w.jpeg)
			browser(w, t, pick(w.advertisers), http.MethodPost, "/upload_creative", ct, body)
			return nil
		}, after: func(w *world, r *vegeta.Result) {
			var up struct {
				Path string `json:"path"`
			}
			if json.Unmarshal(r.Body, &up) == nil {
				// creative/<company id>/<file>
				parts := strings.Split(up.Path, "/")
				if len(parts) == 3 {
					if a := w.byCompany[parts[1]]; a != nil {
						select {
						case w.uploads <- upload{owner: a, path: up.Path}:
						default:
						}
					}
				}
			}
		}},
		{name: "creative save", perMin: 24, want: 201, target: func(w *world, t *vegeta.Target) error {
			select {
			case up := <-w.uploads:
				body := jsonBody(map[string]any{"creative": map[string]string{"name": "Load creative", "url": up.path}})
				browser(w, t, up.owner, http.MethodPost, "/api/creatives/", "application/json", body)
				return nil
			case <-time.After(30 * time.Second):
				return errors.New("no upload to save for 30 s")
			}
		}},
		{name: "creatives list", perMin: 60, want: 200, target: func(w *world, t *vegeta.Target) error {
			browser(w, t, pick(w.advertisers), http.MethodGet, "/api/creatives/?page=1&page_size=10", "", nil)
			return nil
		}},
		// Sign-in: production argon2id, so its rate stays what people do (one every 2 s).
		{name: "sign in", perMin: 30, want: 200, target: func(w *world, t *vegeta.Target) error {
			a := pick(w.advertisers)
			if rand.IntN(10) == 0 { // #nosec G404 -- a load pick, not a secret
				a = pick(w.admins)
			}
			body := jsonBody(map[string]string{"email": a.email, "password": a.password})
			browser(w, t, nil, http.MethodPost, "/signin", "application/json", body)
			return nil
		}, after: func(w *world, r *vegeta.Result) {
			var in signedIn
			if json.Unmarshal(r.Body, &in) == nil {
				if a := w.byUser[in.User.ID]; a != nil {
					if ck := sessionCookie(r.Headers); ck != "" {
						a.cookie.Store(&ck)
					}
				}
			}
		}},
		// Admins: the campaign, user and company grids, and any company's campaign.
		{name: "admin campaigns grid", perMin: 60, want: 200, target: func(w *world, t *vegeta.Target) error {
			browser(w, t, pick(w.admins), http.MethodGet, "/api/admin/campaigns/?page=1&page_size=50", "", nil)
			return nil
		}},
		{name: "admin users grid", perMin: 30, want: 200, target: func(w *world, t *vegeta.Target) error {
			browser(w, t, pick(w.admins), http.MethodGet, "/api/admin/users/?page=1&page_size=50", "", nil)
			return nil
		}},
		{name: "admin companies grid", perMin: 30, want: 200, target: func(w *world, t *vegeta.Target) error {
			browser(w, t, pick(w.admins), http.MethodGet, "/api/admin/companies/?page=1&page_size=50", "", nil)
			return nil
		}},
		{name: "admin campaign detail", perMin: 30, want: 200, target: func(w *world, t *vegeta.Target) error {
			id := pick(w.advertisers).randomCampaign()
			browser(w, t, pick(w.admins), http.MethodGet, "/api/campaigns/"+id, "", nil)
			return nil
		}},
	}
}
