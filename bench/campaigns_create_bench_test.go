package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"marquee/platform/server"
	"mime/multipart"
	"net/http"
	"testing"
	"time"

	"marquee/modules/billing"
	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/testkit"
)

// BenchmarkCampaignCreate100x52: POST /api/campaigns for a weekly campaign of 100 faces over 52
// weeks (5,200 weeks booked, with their week rows, the first week's charge and the
// Idempotency-Key), over HTTP, one at a time (the goal: under 1 s on both databases). Every
// iteration books 100 faces generated for it, so each creation finds the weeks free.
func BenchmarkCampaignCreate100x52(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			s := testkit.Start(b, dialect, server.Compose(campaigns.Component))
			loc := testkit.ModuleOf[*locations.Module](b, s)
			ids := testkit.ModuleOf[*identity.Module](b, s).Service()
			u, _, err := ids.CreateUser(b.Context(), identity.CreateUserRequest{Email: "create@bench.test", Password: "benchmark password", CompanyName: "Bench Create Co"})
			if err != nil {
				b.Fatal(err)
			}
			c := s.Client(b)
			c.SessionAs(s, u.ID)
			var tok billing.CardToken
			c.Post("/api/sandbox/tokens", billing.SandboxTokenRequest{Number: "4242424242424242", ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2, CVC: "123"}).Expect(b, 200).JSON(b, &tok)
			c.Post("/api/cards", billing.AddCardRequest{Token: tok.ID, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}).Expect(b, 201)
			creative := benchCreative(b, s, c)

			seen := map[string]bool{}
			round := 0
			var lat latencies
			var worst time.Duration
			for b.Loop() {
				b.StopTimer()
				round++
				if _, err := loc.GenerateInventory(b.Context(), locations.GenerateOptions{Markets: []string{"Atlanta"}, FacesPerMarket: 100, Seed: uint64(1000 + round)}); err != nil {
					b.Fatal(err)
				}
				all, err := loc.Service().Locations(b.Context(), locations.LocationQuery{Markets: []string{"Atlanta"}})
				if err != nil {
					b.Fatal(err)
				}
				form := campaigns.CampaignForm{Name: fmt.Sprintf("Bench %d", round), TypeCampaign: campaigns.TypePremium,
					StrategySelected: campaigns.StrategyMarket, MarketsSelected: []string{"Atlanta"}, StartDate: "2026-11-30",
					FrequencySelected: campaigns.FrequencyWeekly, Duration: 52, CreativeID: creative}
				for _, f := range all {
					if !seen[f.ID] {
						seen[f.ID] = true
						form.PlacesChecked = append(form.PlacesChecked, campaigns.PlaceChecked{ID: f.ID})
					}
				}
				if len(form.PlacesChecked) != 100 {
					b.Fatalf("%d new faces", len(form.PlacesChecked))
				}
				body, _ := json.Marshal(form)
				b.StartTimer()
				t0 := time.Now()
				status, raw := postWithKey(b, s, c, fmt.Sprintf("bench-%d", round), body)
				d := time.Since(t0)
				b.StopTimer()
				if status != http.StatusCreated {
					b.Fatalf("create: %d %s", status, raw)
				}
				lat.add(d)
				worst = max(worst, d)
				b.StartTimer()
			}
			lat.report(b)
			b.ReportMetric(float64(worst.Microseconds())/1000, "max-ms")
		})
	}
}

// postWithKey sends POST /api/campaigns with an Idempotency-Key.
func postWithKey(b *testing.B, s *testkit.Server, c *testkit.Client, key string, body []byte) (int, []byte) {
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/campaigns", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	req.Header.Set(campaigns.IdempotencyKeyHeader, key)
	res, err := c.HTTP.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, raw
}

// benchCreative uploads a builder PNG and makes it the company's creative.
func benchCreative(b *testing.B, s *testkit.Server, c *testkit.Client) string {
	var img, body bytes.Buffer
	if err := png.Encode(&img, image.NewRGBA(image.Rect(0, 0, 1400, 400))); err != nil {
		b.Fatal(err)
	}
	mw := multipart.NewWriter(&body)
	part, _ := mw.CreateFormFile("file", "creative.png")
	_, _ = part.Write(img.Bytes())
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/upload_creative_image", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	res, err := c.HTTP.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var up struct{ Path string }
	if err := json.NewDecoder(res.Body).Decode(&up); err != nil || up.Path == "" {
		b.Fatalf("upload: %d %v", res.StatusCode, err)
	}
	var cr struct{ ID string }
	c.Post("/api/creatives/", map[string]any{"creative": map[string]string{"name": "Bench", "url": up.Path}}).Expect(b, 201).JSON(b, &cr)
	return cr.ID
}
