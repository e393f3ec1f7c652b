package imagecheck

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/image/tiff"
)

// DecodeCost must not under-count what a decode allocates, or the budget would let too many
// decodes through: for each format and pixel layout, the estimate from the header is at least 90%
// of the bytes the decode allocated, and not wildly more.
func TestDecodeCostCoversTheDecode(t *testing.T) {
	const w, h = 1000, 800
	fill := func(img image.Image, set func(x, y int)) image.Image {
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				set(x, y)
			}
		}
		return img
	}
	rgba := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(rgba, func(x, y int) { rgba.Set(x, y, color.RGBA{uint8(x), uint8(y), uint8(x ^ y), 255}) })
	rgba64 := image.NewNRGBA64(image.Rect(0, 0, w, h))
	fill(rgba64, func(x, y int) { rgba64.Set(x, y, color.NRGBA64{uint16(x * 60), uint16(y * 70), 0, 65535}) })
	gray16 := image.NewGray16(image.Rect(0, 0, w, h))
	fill(gray16, func(x, y int) { gray16.Set(x, y, color.Gray16{uint16(x * y)}) })

	encode := func(f func(*bytes.Buffer) error) []byte {
		var buf bytes.Buffer
		if err := f(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	cases := map[string]struct {
		contentType string
		body        []byte
	}{
		"jpeg 4:2:0":   {"image/jpeg", encode(func(b *bytes.Buffer) error { return jpeg.Encode(b, rgba, nil) })},
		"jpeg gray":    {"image/jpeg", encode(func(b *bytes.Buffer) error { return jpeg.Encode(b, gray16, nil) })},
		"png rgba 8":   {"image/png", encode(func(b *bytes.Buffer) error { return png.Encode(b, rgba) })},
		"png rgba 16":  {"image/png", encode(func(b *bytes.Buffer) error { return png.Encode(b, rgba64) })},
		"png gray 16":  {"image/png", encode(func(b *bytes.Buffer) error { return png.Encode(b, gray16) })},
		"gif":          {"image/gif", encode(func(b *bytes.Buffer) error { return gif.Encode(b, rgba, nil) })},
		"tiff rgba 16": {"image/tiff", encode(func(b *bytes.Buffer) error { return tiff.Encode(b, rgba64, &tiff.Options{Compression: tiff.Deflate}) })},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "img")
			if err := os.WriteFile(path, tc.body, 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cfg, err := Header(f, tc.contentType)
			if err != nil {
				t.Fatal(err)
			}
			estimate := DecodeCost(f, tc.contentType, cfg)
			f.Seek(0, 0)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			img, err := Decode(f, tc.contentType)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			runtime.KeepAlive(img)
			actual := int64(after.TotalAlloc - before.TotalAlloc)
			t.Logf("estimate %d KiB, decode allocated %d KiB", estimate>>10, actual>>10)
			if estimate < actual*9/10 || estimate > 3*actual+decodeOverhead {
				t.Fatalf("estimate %d bytes for a decode of %d", estimate, actual)
			}
		})
	}
}
