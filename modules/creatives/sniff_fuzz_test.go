package creatives

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"runtime"
	"testing"

	"github.com/gabriel-vasile/mimetype"
	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"

	"marquee/platform/apperr"
	"marquee/platform/imagecheck"
)

// fuzzDecodeBudget is the per-image decode budget of the fuzz: the smallest IMAGE_DECODE_MAX_BYTES
// the configuration allows.
const fuzzDecodeBudget = 16 << 20

// FuzzUploadSniff runs the whole check of an upload (stage: the type from the magic bytes, the
// header, the decode budget, the decode, the thumbnail) on arbitrary bytes, for each kind of
// upload. It never panics and refuses with a client error, never an internal one; when it accepts a
// file as an image, the decoder of that very type decodes it at the size it recorded; and it never
// allocates much beyond the decode budget, whatever the header claims.
func FuzzUploadSniff(f *testing.F) {
	for _, seed := range sniffSeeds(f) {
		for kind := range sniffKinds {
			f.Add(seed, uint8(kind))
		}
	}
	u := &uploader{deps: Deps{TempDir: f.TempDir(), Limits: UploadLimits{DecodeMaxBytes: fuzzDecodeBudget, DecodeMemory: fuzzDecodeBudget}},
		decodes: imagecheck.NewBudget(fuzzDecodeBudget)}
	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		k := sniffKinds[int(kind)%len(sniffKinds)]
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s, err := u.stage(t.Context(), k, "upload.bin", bytes.NewReader(data), k.maxBytes)
		runtime.ReadMemStats(&after)
		// The decode takes at most its estimate (TestDecodeCostCoversTheDecode: within 10%), which
		// is within the budget; the rest is the thumbnail, the copy buffers and the sniffing.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > fuzzDecodeBudget*10/9+4<<20+2*uint64(len(data)) {
			t.Fatalf("checking %d bytes as %s allocated %d MiB, over the decode budget of %d MiB",
				len(data), k.kind, alloc>>20, fuzzDecodeBudget>>20)
		}
		if err != nil {
			switch code := apperr.CodeOf(err); code {
			case apperr.EUNSUPPORTED, apperr.EINVALID, apperr.ETOOLARGE:
			default:
				t.Fatalf("%s refused %d bytes with %v (code %s), want a client error", k.kind, len(data), err, code)
			}
			return
		}
		defer s.close()
		if !k.accept(mimetype.Detect(data)) {
			t.Fatalf("%s accepted %s, which it does not take", k.kind, s.contentType)
		}
		if k.image && contentFamily(s.contentType) != ContentImage {
			t.Fatalf("%s accepted %s as an image", k.kind, s.contentType)
		}
		if contentFamily(s.contentType) != ContentImage {
			return
		}
		decode := map[string]func([]byte) (image.Image, error){
			"image/jpeg": func(b []byte) (image.Image, error) { return jpeg.Decode(bytes.NewReader(b)) },
			"image/png":  func(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) },
			"image/gif":  func(b []byte) (image.Image, error) { return gif.Decode(bytes.NewReader(b)) },
			"image/tiff": func(b []byte) (image.Image, error) { return tiff.Decode(bytes.NewReader(b)) },
			"image/bmp":  func(b []byte) (image.Image, error) { return bmp.Decode(bytes.NewReader(b)) },
			"image/webp": func(b []byte) (image.Image, error) { return webp.Decode(bytes.NewReader(b)) },
		}[s.contentType]
		if decode == nil {
			t.Fatalf("accepted %s, an image type with no decoder", s.contentType)
		}
		img, err := decode(data)
		if err != nil {
			t.Fatalf("accepted %d bytes as %s, which its decoder refuses: %v", len(data), s.contentType, err)
		}
		if b := img.Bounds(); b.Dx() != s.width || b.Dy() != s.height || s.width < 1 || s.height < 1 {
			t.Fatalf("recorded %dx%d for a %s of %dx%d", s.width, s.height, s.contentType, b.Dx(), b.Dy())
		}
		if len(s.thumb) == 0 || (s.contentType == "image/tiff") != (s.display != nil) {
			t.Fatalf("%s: thumbnail %d bytes, web copy %v", s.contentType, len(s.thumb), s.display != nil)
		}
	})
}

// sniffKinds are the upload kinds with distinct checks.
var sniffKinds = []uploadKind{kindTemp, kindCreative, kindCreativeImage, kindReport, contentKind(""), contentKind(ContentImage)}

// sniffSeeds are small files of every decodable type, cut short and with headers that lie.
func sniffSeeds(f *testing.F) [][]byte {
	img := image.NewNRGBA(image.Rect(0, 0, 24, 16))
	for y := 0; y < 16; y++ {
		for x := 0; x < 24; x++ {
			img.Set(x, y, color.NRGBA{uint8(x * 10), uint8(y * 15), 90, uint8(128 + x)})
		}
	}
	enc := func(fn func(*bytes.Buffer) error) []byte {
		var b bytes.Buffer
		if err := fn(&b); err != nil {
			f.Fatal(err)
		}
		return b.Bytes()
	}
	jp := enc(func(b *bytes.Buffer) error { return jpeg.Encode(b, img, nil) })
	pn := enc(func(b *bytes.Buffer) error { return png.Encode(b, img) })
	seeds := [][]byte{
		jp, pn,
		enc(func(b *bytes.Buffer) error { return gif.Encode(b, img, nil) }),
		enc(func(b *bytes.Buffer) error { return tiff.Encode(b, img, &tiff.Options{Compression: tiff.Deflate}) }),
		enc(func(b *bytes.Buffer) error { return bmp.Encode(b, img) }),
		jp[:len(jp)/2], pn[:len(pn)-20],
		pngWithHeader(pn, 5000, 5000, 16, 6), // 189 KB of file would decode to 200 MB
		pngWithHeader(pn, 1400, 400, 8, 6),   // the builder's size, but no pixels
		[]byte("RIFF\x1a\x00\x00\x00WEBPVP8 \x0e\x00\x00\x00\x10\x02\x00\x9d\x01\x2a\xff\x3f\xff\x3f"),
		[]byte("GIF89a\xff\xff\xff\xff\x00\x00\x00"),
		[]byte("II*\x00\x08\x00\x00\x00"),
		[]byte("%PDF-1.4\n%%EOF\n"),
		[]byte("<svg xmlns='http://www.w3.org/2000/svg'/>"),
		[]byte("\xff\xd8\xff\xe0"),
		{},
	}
	return seeds
}

// pngWithHeader is p with its IHDR replaced: w x h pixels, the bit depth and colour type, and a
// correct checksum, so that only the pixel data disagrees.
func pngWithHeader(p []byte, w, h uint32, depth, colorType byte) []byte {
	out := bytes.Clone(p)
	ihdr := out[12:29] // "IHDR" + 13 bytes
	binary.BigEndian.PutUint32(ihdr[4:], w)
	binary.BigEndian.PutUint32(ihdr[8:], h)
	ihdr[12], ihdr[13] = depth, colorType
	binary.BigEndian.PutUint32(out[29:], crc32.ChecksumIEEE(ihdr))
	return out
}
