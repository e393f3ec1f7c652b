package creatives_test

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"marquee/modules/creatives"
	"marquee/platform/testkit"
)

// bombPNG is a valid PNG of w x h pixels, RGBA at 16 bits a channel, all black: a 5000x5000 one is
// a 189 KB file that decodes to 200 MB (8 bytes a pixel). It is written row by row, so making it
// costs no pixel buffer.
func bombPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		out.Write(n[:])
		crc := crc32.NewIEEE()
		crc.Write([]byte(kind))
		crc.Write(data)
		out.WriteString(kind)
		out.Write(data)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		out.Write(n[:])
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 16, 6 // bit depth 16, colour type 6 (RGBA)
	chunk("IHDR", ihdr)
	var idat bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&idat, zlib.BestCompression)
	row := make([]byte, 1+w*8) // filter byte 0, then the pixels
	for range h {
		zw.Write(row)
	}
	zw.Close()
	chunk("IDAT", idat.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// noisePNG is a PNG of random pixels: about 4 bytes a pixel on disk.
func noisePNG(t testing.TB, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(uint64(w), uint64(h)))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.Uint32())
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// heapPeak samples the bytes of live and not yet swept heap objects every millisecond until stop
// is called, and returns the highest reading.
func heapPeak() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > peak.Load() {
			peak.Store(v)
		}
	}
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				read()
				return
			case <-tick.C:
				read()
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak.Load()
	}
}

func heapNow() uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// uploadAll sends each body to path at once, one file a call, and returns the answers.
func uploadAll(t *testing.T, w *world, path string, bodies ...[]byte) []*testkit.Response {
	out := make([]*testkit.Response, len(bodies))
	var wg sync.WaitGroup
	for i, b := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = upload(t, w, w.user, path, "files", namedFile{fmt.Sprintf("bomb-%d.png", i), b})
		}()
	}
	wg.Wait()
	return out
}

const mib = 1 << 20

// A decode is budgeted by the bytes it allocates, read from the header, and the
// decodes in flight together never hold more than IMAGE_DECODE_MEMORY. Eight concurrent uploads of
// a 189 KB PNG of 5000x5000 pixels at 16 bits (200 MB decoded each) all succeed, one decode at a
// time, and the heap never grows by more than IMAGE_DECODE_MEMORY + 64 MiB (288 MiB here). With the
// old two decode slots, two bombs were decoded at once: 400 MB live, and the bound fails.
func TestImageBombsStayWithinTheDecodeBudget(t *testing.T) {
	const budget = 224 * mib // one 200 MB decode at a time
	const bound = budget + 64*mib
	bomb := bombPNG(t, 5000, 5000)
	if len(bomb) > 250<<10 {
		t.Fatalf("bomb is %d bytes", len(bomb))
	}
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect, testkit.WithEnv("IMAGE_DECODE_MAX_BYTES", fmt.Sprint(budget)),
			testkit.WithEnv("IMAGE_DECODE_MEMORY", fmt.Sprint(budget)))
		base := heapNow()
		// The collector works to keep the heap under this limit, as it would in a container with
		// GOMEMLIMIT set (docs/uploads.md): what is left above it is live memory.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(base) + bound))
		stop := heapPeak()
		bodies := make([][]byte, 8)
		for i := range bodies {
			bodies[i] = bomb
		}
		answers := uploadAll(t, w, "/upload_temp", bodies...)
		peak := stop()
		for _, r := range answers {
			r.Expect(t, 200)
		}
		grown := int64(peak) - int64(base)
		t.Logf("heap grew by %d MiB at most (bound %d MiB)", grown/mib, bound/mib)
		if grown > bound {
			t.Fatalf("heap grew by %d MiB during 8 concurrent bomb uploads, over the bound of %d MiB", grown/mib, bound/mib)
		}
		expectNothingStored(t, w, 16, 8) // each stored, with its thumbnail
	})
}

// A bomb over IMAGE_DECODE_MAX_BYTES is refused from its header, before anything is decoded: eight
// concurrent ones answer 422 and allocate almost nothing.
func TestImageOverTheDecodeLimitIsRefused(t *testing.T) {
	bomb := bombPNG(t, 5000, 5000)
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect, testkit.WithEnv("IMAGE_DECODE_MAX_BYTES", fmt.Sprint(128*mib)))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		bodies := make([][]byte, 8)
		for i := range bodies {
			bodies[i] = bomb
		}
		for _, r := range uploadAll(t, w, "/upload_temp", bodies...) {
			expectMessage(t, r, 422, creatives.MsgImageTooHeavy)
		}
		runtime.ReadMemStats(&after)
		if grown := after.TotalAlloc - before.TotalAlloc; grown > 64*mib {
			t.Fatalf("8 refused bombs allocated %d MiB", grown>>20)
		}
		expectNothingStored(t, w, 0, 0)
		// An ordinary image still goes through.
		uploadOne(t, w, w.user, "/upload_creative", namedFile{"fine.jpg", jpegOf(t, 1400, 400)})
	})
}

// One request's files together are capped (413), each company has a storage
// quota (413, also under concurrent uploads), and each user an upload rate (429).
func TestUploadQuotas(t *testing.T) {
	file := noisePNG(t, 330, 330) // about 430 KB
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		t.Run("request total", func(t *testing.T) {
			w := start(t, dialect, testkit.WithEnv("UPLOAD_REQUEST_MAX_BYTES", fmt.Sprint(1*mib)))
			three := []namedFile{{"a.png", file}, {"b.png", file}, {"c.png", file}}
			expectMessage(t, upload(t, w, w.user, "/upload_temp", "files", three...), 413, fmt.Sprintf(creatives.MsgRequestTooLarge, 1))
			expectNothingStored(t, w, 0, 0)
			upload(t, w, w.user, "/upload_temp", "files", three[:2]...).Expect(t, 200)
		})
		t.Run("company storage", func(t *testing.T) {
			w := start(t, dialect, testkit.WithEnv("COMPANY_STORAGE_QUOTA", fmt.Sprint(1*mib)))
			full := fmt.Sprintf(creatives.MsgStorageFull, 1)
			// Six at once from one company: the quota holds two.
			answers := uploadAll(t, w, "/upload_temp", file, file, file, file, file, file)
			ok := 0
			for _, r := range answers {
				switch r.Status {
				case 200:
					ok++
				default:
					expectMessage(t, r, 413, full)
				}
			}
			if ok != 2 {
				t.Fatalf("%d of 6 concurrent uploads fitted in a quota for 2", ok)
			}
			expectNothingStored(t, w, 4, 2)
			// What is left is too little for one more; an admin uploading for the company counts
			// against it too; another company is free.
			expectMessage(t, upload(t, w, w.user, "/upload_temp", "files", namedFile{"x.png", file}), 413, full)
			expectMessage(t, upload(t, w, w.admin, "/upload_temp?company="+w.userCompany, "files", namedFile{"x.png", file}), 413, full)
			upload(t, w, w.amb, "/upload_temp", "files", namedFile{"x.png", file}).Expect(t, 200)
			expectNothingStored(t, w, 6, 3)
		})
		t.Run("rate per user", func(t *testing.T) {
			w := start(t, dialect, testkit.WithEnv("UPLOAD_RATE_LIMIT", "3"))
			small := namedFile{"s.jpg", jpegOf(t, 64, 48)}
			upload(t, w, w.user, "/upload_temp", "files", small, small).Expect(t, 200)
			r := upload(t, w, w.user, "/upload_temp", "files", small, small)
			expectMessage(t, r, 429, creatives.MsgUploadTooFast)
			if r.Header.Get("Retry-After") == "" {
				t.Fatal("no Retry-After")
			}
			expectNothingStored(t, w, 4, 2)
			uploadOne(t, w, w.amb, "/upload_creative", small) // another user is not slowed
			w.s.Clock.Advance(time.Minute)
			upload(t, w, w.user, "/upload_temp", "files", small, small).Expect(t, 200)
		})
	})
}

// A JSON call refuses a body declared as anything but JSON with 415 in the
// envelope; uploads (multipart) and GETs are unaffected.
func TestJSONCallsRefuseOtherContentTypes(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		up := uploadOne(t, w, w.user, "/upload_creative", namedFile{"a.jpg", jpegOf(t, 1400, 400)})
		body := fmt.Sprintf(`{"creative":{"name":"Spring","url":%q}}`, up.Path)
		for _, ct := range []string{"text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "application/xml"} {
			r := postAs(t, w, "/api/creatives/", ct, body)
			r.Expect(t, 415)
			if got := r.Map(t); got["success"] != false || got["message"] != "The request body must be JSON (Content-Type: application/json)." {
				t.Fatalf("%s: %v", ct, got)
			}
		}
		if n := rowCount(t, w, "creatives_creatives"); n != 0 {
			t.Fatalf("%d creatives made from non-JSON bodies", n)
		}
		w.user.Post("/api/creatives/", body).Expect(t, 201)
		w.user.Get("/api/creatives/").Expect(t, 200)
	})
}

// postAs posts body with the content type ct, as the user.
func postAs(t *testing.T, w *world, path, ct, body string) *testkit.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, w.s.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	req.Header.Set("X-Requested-With", "XMLHttpRequest")
	res, err := w.user.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return &testkit.Response{Status: res.StatusCode, Header: res.Header, Body: raw}
}

// Unicode format characters (category Cf: bidi overrides, zero-width ones) are
// stripped from stored file names, so "photo<U+202E>gpj.exe" cannot show as "photoexe.jpg".
func TestUploadedNamesLoseFormatCharacters(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		var out creatives.UploadedFile
		upload(t, w, w.user, "/upload_creative", "file", namedFile{"photo\u202egpj.exe", jpegOf(t, 64, 48)}).Expect(t, 200).JSON(t, &out)
		if out.Originalname != "photogpj.exe" {
			t.Fatalf("originalname = %q", out.Originalname)
		}
		var list []creatives.UploadedFile
		upload(t, w, w.user, "/upload_temp", "files", namedFile{"\u200bsale\u2066\ufeff.jpg", jpegOf(t, 64, 48)}).Expect(t, 200).JSON(t, &list)
		if list[0].Originalname != "sale.jpg" {
			t.Fatalf("originalname = %q", list[0].Originalname)
		}
		var stored []string
		if err := w.s.Kernel.DB.Table("creatives_files").Order("original_name").Pluck("original_name", &stored).Error; err != nil {
			t.Fatal(err)
		}
		for _, name := range stored {
			if strings.ContainsAny(name, "\u202e\u200b\u2066\ufeff") {
				t.Fatalf("stored name %q keeps a format character", name)
			}
		}
	})
}
