package bench

import (
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"marquee/modules/locations"
	"marquee/platform/testkit"
)

// BenchmarkFacePhotoUpload: POST /api/admin/faces/{id}/photo (docs/inventory.md "Face photos")
// through the real handler: staging, the header checks, the decode within the budget, the scale to
// 1600 px a side, the JPEG encode, the put and the transaction. One request at a time; the
// clock moves a minute every FacePhotosPerMinute uploads, so the admin's rate limit never answers.
// Figures in docs/performance.md "Face photos".
func BenchmarkFacePhotoUpload(b *testing.B) {
	cases := []struct {
		name string
		w, h int
	}{
		{"2MP-photo-jpeg", 1920, 1080},
		{"12MP-photo-jpeg", 4000, 3000},
		{"24MP-photo-jpeg", 6000, 4000},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			s, admin, _ := creativesWorld(b, testkit.Dialects()[0])
			var loc *locations.Module
			for _, m := range s.Modules {
				if l, ok := m.(*locations.Module); ok {
					loc = l
				}
			}
			if _, err := loc.GenerateInventory(b.Context(), locations.GenerateOptions{Markets: []string{"Phoenix"}, FacesPerMarket: 1, Seed: 3}); err != nil {
				b.Fatal(err)
			}
			faces, err := loc.Service().Locations(b.Context(), locations.LocationQuery{Markets: []string{"Phoenix"}})
			if err != nil || len(faces) == 0 {
				b.Fatal(err)
			}
			data := smoothJPEG(b, tc.w, tc.h)
			body, contentType := multipartBody(b, "face.jpg", data)
			b.Logf("%s: %d bytes", tc.name, len(data))
			var lat latencies
			var peakTotal uint64
			var ms runtime.MemStats
			b.ResetTimer()
			for i := range b.N {
				if i > 0 && i%locations.FacePhotosPerMinute == 0 {
					s.Clock.Advance(time.Minute)
				}
				runtime.GC()
				runtime.ReadMemStats(&ms)
				idle := ms.HeapAlloc
				watch := watchHeap()
				t0 := time.Now()
				raw := postMultipart(b, s, admin, "/api/admin/faces/"+faces[0].ID+"/photo", body, contentType)
				lat.add(time.Since(t0))
				if peak := watch.end(); peak > idle {
					peakTotal += peak - idle
				}
				var l locations.Location
				if err := json.Unmarshal(raw, &l); err != nil || l.Geometry == nil || l.Geometry.PhotoWidth != locations.FacePhotoMaxSide {
					b.Fatalf("answer %s", raw)
				}
			}
			lat.report(b)
			b.ReportMetric(float64(peakTotal)/float64(b.N)/(1<<20), "peak-extra-heap-MiB")
		})
	}
}
