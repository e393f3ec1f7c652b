package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"marquee/platform/server"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"golang.org/x/image/tiff"

	"marquee/modules/creatives"
	"marquee/modules/identity"
	"marquee/platform/testkit"
)

// creativesWorld starts identity and creatives with an admin and a standard advertiser.
func creativesWorld(b *testing.B, dialect string) (s *testkit.Server, admin, user *testkit.Client) {
	s = testkit.Start(b, dialect, server.Compose(creatives.Component))
	var svc identity.Service
	for _, m := range s.Modules {
		if id, ok := m.(*identity.Module); ok {
			svc = id.Service()
		}
	}
	mk := func(req identity.CreateUserRequest) *testkit.Client {
		req.Password = "benchmark password"
		u, _, err := svc.CreateUser(b.Context(), req)
		if err != nil {
			b.Fatal(err)
		}
		c := s.Client(b)
		c.SessionAs(s, u.ID)
		return c
	}
	admin = mk(identity.CreateUserRequest{Email: "admin@bench.test", Role: identity.RoleAdmin, CompanyName: "Bench Admin"})
	user = mk(identity.CreateUserRequest{Email: "user@bench.test", Role: identity.RoleUser, CompanyName: "Bench Co"})
	return s, admin, user
}

// noiseJPEG is a high-entropy JPEG of about target bytes (at most target), the worst case of
// bytes per pixel: a 10 MB file of ordinary photos has more pixels, see docs/performance.md.
func noiseJPEG(b *testing.B, target int) ([]byte, image.Point) {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []byte
	var size image.Point
	for side := 1200; ; side += 100 {
		img := image.NewRGBA(image.Rect(0, 0, side*4/3, side))
		for i := range img.Pix {
			img.Pix[i] = uint8(rng.UintN(256))
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 100}); err != nil {
			b.Fatal(err)
		}
		if buf.Len() > target {
			return out, size
		}
		out, size = buf.Bytes(), img.Bounds().Size()
	}
}

// smoothJPEG is a photo-like JPEG (gradients) of w x h.
func smoothJPEG(b *testing.B, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x + y) % 256), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 92}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// plainTIFF is an uncompressed RGBA TIFF of w x h (4 bytes a pixel, the common export of print tools).
func plainTIFF(b *testing.B, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	var buf bytes.Buffer
	if err := tiff.Encode(&buf, img, nil); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

func multipartBody(b *testing.B, name string, data []byte) ([]byte, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	part, err := mw.CreateFormFile("file", name)
	if err != nil {
		b.Fatal(err)
	}
	part.Write(data)
	mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// heapPeak samples the live heap until stopped and returns its highest value.
type heapPeak struct {
	stop chan struct{}
	done chan uint64
}

func watchHeap() *heapPeak {
	h := &heapPeak{stop: make(chan struct{}), done: make(chan uint64)}
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		t := time.NewTicker(50 * time.Microsecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-h.stop:
				metrics.Read(sample)
				h.done <- max(peak, sample[0].Value.Uint64())
				return
			case <-t.C:
			}
		}
	}()
	return h
}

func (h *heapPeak) end() uint64 { close(h.stop); return <-h.done }

// BenchmarkCreativeUpload: POST /upload_creative of a 10 MB JPEG (the dropzone's limit, A §9)
// through the real handler, storage (fs) and database. It reports the server's extra memory per
// upload: the bytes allocated during the upload (an upper bound of the extra heap, since nothing
// is freed that was not allocated) and the highest live heap above the idle heap.
func BenchmarkCreativeUpload(b *testing.B) {
	cases := []struct {
		name string
		make func(b *testing.B) []byte
	}{
		{"10MB-noise-jpeg", func(b *testing.B) []byte {
			data, size := noiseJPEG(b, creatives.MaxCreativeBytes)
			b.Logf("noise JPEG: %d bytes, %dx%d", len(data), size.X, size.Y)
			return data
		}},
		{"12MP-photo-jpeg", func(b *testing.B) []byte { return smoothJPEG(b, 4000, 3000) }},
		{"10MB-tiff", func(b *testing.B) []byte { return plainTIFF(b, 1800, 1400) }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			s, _, user := creativesWorld(b, testkit.Dialects()[0])
			body, contentType := multipartBody(b, "creative.jpg", tc.make(b))
			var allocTotal, peakTotal uint64
			var ms runtime.MemStats
			b.SetBytes(int64(len(body)))
			b.ResetTimer()
			for range b.N {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				idleHeap, allocBefore := ms.HeapAlloc, ms.TotalAlloc
				watch := watchHeap()
				postMultipart(b, s, user, "/upload_creative", body, contentType)
				peak := watch.end()
				runtime.ReadMemStats(&ms)
				allocTotal += ms.TotalAlloc - allocBefore
				if peak > idleHeap {
					peakTotal += peak - idleHeap
				}
			}
			b.ReportMetric(float64(allocTotal)/float64(b.N)/(1<<20), "alloc-MiB/op")
			b.ReportMetric(float64(peakTotal)/float64(b.N)/(1<<20), "peak-extra-heap-MiB")
		})
	}
}

// BenchmarkContentList: GET /api/contents/ over 1,000 content items (A §9 page size 50, and All),
// for an admin (every item) and a standard user (the active items of their scope).
func BenchmarkContentList(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			s, admin, user := creativesWorld(b, dialect)
			const items = 1000
			scopes := [][]string{{"standard"}, {"ambassador"}, {"certified"}, {"standard", "ambassador", "certified"}}
			for i := range items {
				req := creatives.CreateContentRequest{Type: "youtube", Content: creatives.ContentFile{Name: fmt.Sprintf("Video %04d", i)},
					Youtube: fmt.Sprintf("https://www.youtube.com/watch?v=bench%06d", i), Scopes: scopes[i%len(scopes)],
					Tags: []string{"BENCH", fmt.Sprintf("T%d", i%17)}}
				if i%20 == 0 {
					up := uploadPDF(b, s, admin, fmt.Sprintf("doc-%d.pdf", i))
					req = creatives.CreateContentRequest{Type: "document", Content: creatives.ContentFile{Name: fmt.Sprintf("Doc %04d", i), URL: up},
						Scopes: scopes[i%len(scopes)], Tags: []string{"DOC"}}
				}
				admin.Post("/api/contents/", req).Expect(b, 201)
			}
			for _, v := range []struct {
				name  string
				c     *testkit.Client
				query string
			}{{"admin-page50", admin, ""}, {"user-page50", user, ""}, {"admin-all", admin, "?page_size=0"}} {
				b.Run(v.name, func(b *testing.B) {
					// One client at a time, as one browser asks: the figure is the answer time of
					// the list, not queueing behind other benchmark clients on two shared cores.
					var lat latencies
					b.ResetTimer()
					for range b.N {
						start := time.Now()
						res := v.c.Get("/api/contents/" + v.query)
						lat.add(time.Since(start))
						if res.Status != 200 {
							b.Fatalf("list: %d %s", res.Status, res.Body)
						}
					}
					lat.report(b)
				})
			}
		})
	}
}

var pdfBytes = []byte("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")

func uploadPDF(b *testing.B, s *testkit.Server, c *testkit.Client, name string) string {
	body, ct := multipartBody(b, name, pdfBytes)
	var out creatives.UploadedFile
	if err := json.Unmarshal(postMultipart(b, s, c, "/upload_file?type=document", body, ct), &out); err != nil {
		b.Fatal(err)
	}
	return out.Path
}

// postMultipart sends a prepared multipart body as the browser does and fails unless it answers 200.
func postMultipart(b *testing.B, s *testkit.Server, c *testkit.Client, path string, body []byte, contentType string) []byte {
	req, _ := http.NewRequest(http.MethodPost, s.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	res, err := c.HTTP.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		b.Fatalf("POST %s: %d %s", path, res.StatusCode, raw)
	}
	return raw
}
