package bench

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"marquee/modules/creatives"
	"marquee/modules/locations"
	"marquee/platform/storage"
	"marquee/platform/testkit"
)

// The creative pre-flight and preview targets of issue 29 (docs/performance.md "Creative
// pre-flight and preview"): the pre-flight of a 10 MB upload in < 500 ms p95, OCR included, with
// < 64 MB of extra memory; the preview PNG in < 300 ms p95.

// BenchmarkPreflightUpload: POST /api/creatives/preflight of an image (multipart) through the real
// handler: staging, the decode budget, the analysis and Tesseract. One request at a time.
func BenchmarkPreflightUpload(b *testing.B) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		b.Logf("tesseract is not installed (make tools): the text checks are skipped, and the figures leave OCR out")
	}
	cases := []struct {
		name string
		make func(b *testing.B) []byte
	}{
		{"builder-size-photo-jpeg", func(b *testing.B) []byte { return smoothJPEG(b, 1400, 400) }},
		{"12MP-photo-jpeg", func(b *testing.B) []byte { return smoothJPEG(b, 4000, 3000) }},
		{"10MB-noise-jpeg", func(b *testing.B) []byte {
			data, size := noiseJPEG(b, creatives.MaxCreativeBytes)
			b.Logf("noise JPEG: %d bytes, %dx%d", len(data), size.X, size.Y)
			return data
		}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			s, _, user := creativesWorld(b, testkit.Dialects()[0])
			body, contentType := multipartBody(b, "creative.jpg", tc.make(b))
			var lat latencies
			var peakTotal uint64
			var ms runtime.MemStats
			b.ResetTimer()
			for range b.N {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				idle := ms.HeapAlloc
				watch := watchHeap()
				t0 := time.Now()
				raw := postMultipart(b, s, user, "/api/creatives/preflight", body, contentType)
				lat.add(time.Since(t0))
				if peak := watch.end(); peak > idle {
					peakTotal += peak - idle
				}
				var r creatives.PreflightReport
				if err := json.Unmarshal(raw, &r); err != nil || len(r.Checks) != 7 {
					b.Fatalf("report %s", raw)
				}
			}
			lat.report(b)
			// The fastest request: on a machine shared with other work, the nearest to an idle one.
			b.ReportMetric(lat.quantile(0), "min-ms")
			b.ReportMetric(float64(peakTotal)/float64(b.N)/(1<<20), "peak-extra-heap-MiB")
			if len(lat.d) > 0 {
				p95 := float64(lat.d[int(0.95*float64(len(lat.d)-1))].Microseconds()) / 1000
				b.Logf("pre-flight of %s: p95 %.1f ms (goal < 500 ms: %s)", tc.name, p95, metOrNot(p95 < 500))
			}
		})
	}
}

// BenchmarkPreview: GET /api/creatives/{id}/preview of a 1400 x 400 creative on a demo face, drawn
// (the cache emptied before each request) and cached, by day, at night and as a driver sees it.
func BenchmarkPreview(b *testing.B) {
	s, _, user := creativesWorld(b, testkit.Dialects()[0])
	var loc *locations.Module
	for _, m := range s.Modules {
		if l, ok := m.(*locations.Module); ok {
			loc = l
		}
	}
	if _, err := loc.GenerateInventory(b.Context(), locations.GenerateOptions{Markets: []string{"Phoenix"}, FacesPerMarket: 10, Seed: 3}); err != nil {
		b.Fatal(err)
	}
	faces, err := loc.Service().Locations(b.Context(), locations.LocationQuery{Markets: []string{"Phoenix"}})
	if err != nil || len(faces) == 0 {
		b.Fatal(err)
	}
	cr := uploadedCreative(b, s, user)
	// A user may have PreviewRendersPerMinute previews drawn a minute (429 after): the test clock
	// moves on a minute each time as many have been asked for, between the timed requests.
	asked := 0
	for _, v := range []struct{ light, view string }{{"day", "photo"}, {"night", "photo"}, {"day", "driveby"}} {
		path := fmt.Sprintf("/api/creatives/%s/preview?face=%s&light=%s&view=%s", cr.ID, faces[0].ID, v.light, v.view)
		for _, cached := range []bool{false, true} {
			name := v.light + "-" + v.view + "-drawn"
			if cached {
				name = v.light + "-" + v.view + "-cached"
			}
			b.Run(name, func(b *testing.B) {
				var lat latencies
				b.ResetTimer()
				for range b.N {
					b.StopTimer()
					if asked++; asked%creatives.PreviewRendersPerMinute == 0 {
						s.Clock.Advance(time.Minute)
					}
					if !cached {
						emptyPreviewCache(b, s)
					}
					b.StartTimer()
					t0 := time.Now()
					user.Get(path).Expect(b, 200)
					lat.add(time.Since(t0))
				}
				lat.report(b)
				if len(lat.d) > 0 {
					p95 := float64(lat.d[int(0.95*float64(len(lat.d)-1))].Microseconds()) / 1000
					b.Logf("preview %s: p95 %.1f ms (goal < 300 ms: %s)", name, p95, metOrNot(p95 < 300))
				}
			})
		}
	}
}

// uploadedCreative uploads a smooth 1400 x 400 JPEG as c and saves it as a creative, over HTTP.
func uploadedCreative(b *testing.B, s *testkit.Server, c *testkit.Client) creatives.Creative {
	b.Helper()
	body, contentType := multipartBody(b, "creative.jpg", smoothJPEG(b, 1400, 400))
	var up creatives.UploadedFile
	if err := json.Unmarshal(postMultipart(b, s, c, "/upload_creative", body, contentType), &up); err != nil {
		b.Fatal(err)
	}
	var cr creatives.Creative
	c.Post("/api/creatives/", map[string]any{"creative": map[string]string{"url": up.Path}}).Expect(b, 201).JSON(b, &cr)
	return cr
}

// emptyPreviewCache deletes the creatives' stored previews (preview/...), so the next preview is drawn.
func emptyPreviewCache(b *testing.B, s *testkit.Server) {
	b.Helper()
	var keys []string
	if err := s.Kernel.Storage.List(b.Context(), "preview/", func(o storage.Object) error { keys = append(keys, o.Key); return nil }); err != nil {
		b.Fatal(err)
	}
	for _, k := range keys {
		if err := s.Kernel.Storage.Delete(b.Context(), k); err != nil {
			b.Fatal(err)
		}
	}
}
