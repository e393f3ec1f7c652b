package creatives_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"marquee/modules/creatives"
	"marquee/platform/testkit"
)

// onS3 starts a real S3 protocol peer in the process (gofakes3, in memory) and answers the options
// that put a server's storage in its bucket.
func onS3(t *testing.T, bucket string) (*s3mem.Backend, []testkit.Option) {
	t.Helper()
	backend := s3mem.New()
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	return backend, []testkit.Option{
		testkit.WithEnv("STORAGE_DRIVER", "s3"), testkit.WithEnv("S3_ENDPOINT", strings.TrimPrefix(srv.URL, "http://")),
		testkit.WithEnv("S3_ACCESS_KEY", "test-access"), testkit.WithEnv("S3_SECRET_KEY", "test-secret"),
		testkit.WithEnv("S3_BUCKET", bucket)}
}

// The module on the s3 driver, against a real S3 protocol peer in the process (gofakes3).
func TestUploadsOnS3(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		backend, opts := onS3(t, "marquee-creatives")
		w := start(t, dialect, opts...)
		objects := func() int {
			t.Helper()
			list, err := backend.ListBucket("marquee-creatives", nil, gofakes3.ListBucketPage{})
			if err != nil {
				t.Fatal(err)
			}
			return len(list.Contents)
		}

		up := uploadOne(t, w, w.user, "/upload_creative", namedFile{"board.tif", tiffOf(t, 600, 200)})
		if n := objects(); n != 3 {
			t.Fatalf("objects after a TIFF upload = %d, want 3", n)
		}
		res := w.user.Get(imagePath(up.Path)).Expect(t, 200)
		if res.Header.Get("Content-Type") != "image/jpeg" || len(res.Body) == 0 {
			t.Fatalf("served %s, %d bytes", res.Header.Get("Content-Type"), len(res.Body))
		}
		w.amb.Get(imagePath(up.Path)).Expect(t, 404)
		cr := createCreative(t, w, w.user, creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{URL: up.Path}})

		// Bad input leaves nothing in the bucket.
		expectMessage(t, upload(t, w, w.user, "/upload_creative", "file", namedFile{"x.jpg", exeBytes}), 422, creatives.MsgCreativeType)
		expectMessage(t, upload(t, w, w.user, "/upload_creative", "file", namedFile{"big.jpg", append(jpegOf(t, 8, 8), make([]byte, 11<<20)...)}), 413, creatives.MsgCreativeTooLarge)
		if n := objects(); n != 3 {
			t.Fatalf("objects after refused uploads = %d, want 3", n)
		}
		// A near-limit creative streams through.
		big := append(jpegOf(t, 64, 64), make([]byte, 9<<20)...) // trailing bytes after the JPEG end marker are ignored by decoders
		uploadOne(t, w, w.user, "/upload_creative", namedFile{"big.jpg", big})
		if n := objects(); n != 5 {
			t.Fatalf("objects after a 9 MB upload = %d, want 5", n)
		}

		w.user.Delete("/api/creatives/"+cr.ID).Expect(t, 200)
		if n := objects(); n != 2 {
			t.Fatalf("objects after delete = %d, want 2", n)
		}
	})
}
