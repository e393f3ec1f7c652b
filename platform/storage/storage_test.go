package storage

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"marquee/platform/apperr"
)

// Both drivers must behave the same; each runs this whole suite.
func TestFS(t *testing.T) {
	t.Parallel()
	testStorage(t, func(t *testing.T) Storage {
		s, err := Open(context.Background(), Options{Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestS3(t *testing.T) {
	t.Parallel()
	testStorage(t, func(t *testing.T) Storage { return newFakeS3(t) })
}

// newFakeS3 starts a real S3 server (gofakes3, in memory) and connects to it through minio-go.
func newFakeS3(t *testing.T) *S3 {
	t.Helper()
	srv := httptest.NewServer(gofakes3.New(s3mem.New()).Server())
	t.Cleanup(srv.Close)
	s, err := Open(context.Background(), Options{
		Driver:      DriverS3,
		S3Endpoint:  strings.TrimPrefix(srv.URL, "http://"),
		S3AccessKey: "test-access",
		S3SecretKey: "test-secret",
		S3Bucket:    "marquee-test",
	})
	if err != nil {
		t.Fatal(err)
	}
	s3 := s.(*S3)
	// The smallest part S3 allows, so the streamed test below is a real multipart upload.
	s3.partSize = 5 << 20
	return s3
}

func testStorage(t *testing.T, newStorage func(t *testing.T) Storage) {
	ctx := context.Background()

	t.Run("put, stat and get keep bytes and content type", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		body := []byte("<svg>hello</svg>")
		before := time.Now().Add(-time.Minute)
		if err := s.Put(ctx, "creatives/2024/abc.svg", bytes.NewReader(body), int64(len(body)), "image/svg+xml"); err != nil {
			t.Fatal(err)
		}
		st, err := s.Stat(ctx, "creatives/2024/abc.svg")
		if err != nil {
			t.Fatal(err)
		}
		want := Object{Key: "creatives/2024/abc.svg", ContentType: "image/svg+xml", Size: int64(len(body))}
		if st.Key != want.Key || st.ContentType != want.ContentType || st.Size != want.Size {
			t.Fatalf("Stat = %+v, want %+v", st, want)
		}
		if st.ModTime.Before(before) || st.ModTime.After(time.Now().Add(time.Minute)) {
			t.Fatalf("ModTime %v is not about now", st.ModTime)
		}
		rc, obj, err := s.Get(ctx, "creatives/2024/abc.svg")
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		got, err := io.ReadAll(rc)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, body) {
			t.Fatalf("Get = %q, want %q", got, body)
		}
		if obj.ContentType != "image/svg+xml" || obj.Size != int64(len(body)) {
			t.Fatalf("Get object = %+v", obj)
		}
	})

	t.Run("an empty content type is stored as octet-stream", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		mustPut(t, s, "blob", "x", "")
		st, err := s.Stat(ctx, "blob")
		if err != nil {
			t.Fatal(err)
		}
		if st.ContentType != DefaultContentType {
			t.Fatalf("ContentType = %q", st.ContentType)
		}
	})

	t.Run("an empty object", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		mustPut(t, s, "empty.txt", "", "text/plain")
		if got := mustGet(t, s, "empty.txt"); got != "" {
			t.Fatalf("Get = %q", got)
		}
	})

	t.Run("put replaces an object", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		mustPut(t, s, "a/b.txt", "first", "text/plain")
		mustPut(t, s, "a/b.txt", "second, longer", "text/markdown")
		if got := mustGet(t, s, "a/b.txt"); got != "second, longer" {
			t.Fatalf("Get = %q", got)
		}
		st, _ := s.Stat(ctx, "a/b.txt")
		if st.ContentType != "text/markdown" || st.Size != int64(len("second, longer")) {
			t.Fatalf("Stat = %+v", st)
		}
	})

	t.Run("an absent key is not found", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		mustPut(t, s, "dir/present", "x", "text/plain")
		for _, key := range []string{"missing", "dir/missing", "dir/present/below", "dir"} {
			if _, err := s.Stat(ctx, key); apperr.CodeOf(err) != apperr.ENOTFOUND {
				t.Errorf("Stat(%q) = %v, want ENOTFOUND", key, err)
			}
			rc, _, err := s.Get(ctx, key)
			if apperr.CodeOf(err) != apperr.ENOTFOUND {
				t.Errorf("Get(%q) = %v, want ENOTFOUND", key, err)
			}
			if rc != nil {
				rc.Close()
			}
		}
	})

	t.Run("delete removes, and deleting an absent key is fine", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		mustPut(t, s, "x/y/z.bin", "data", "application/pdf")
		if err := s.Delete(ctx, "x/y/z.bin"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Stat(ctx, "x/y/z.bin"); apperr.CodeOf(err) != apperr.ENOTFOUND {
			t.Fatalf("Stat after Delete = %v", err)
		}
		for _, key := range []string{"x/y/z.bin", "never-was", "x/y"} {
			if err := s.Delete(ctx, key); err != nil {
				t.Fatalf("Delete(%q) = %v", key, err)
			}
		}
		// The key can be used again after a delete.
		mustPut(t, s, "x/y/z.bin", "again", "text/plain")
		if got := mustGet(t, s, "x/y/z.bin"); got != "again" {
			t.Fatalf("Get = %q", got)
		}
	})

	t.Run("invalid keys are refused", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		for _, key := range []string{"", "/abs", "a/../b", "..", "a//b", "a/", "./a", "a\nb", strings.Repeat("k", MaxKeyLen+1)} {
			if err := s.Put(ctx, key, strings.NewReader("x"), 1, "text/plain"); apperr.CodeOf(err) != apperr.EINVALID {
				t.Errorf("Put(%q) = %v, want EINVALID", key, err)
			}
			if _, _, err := s.Get(ctx, key); apperr.CodeOf(err) != apperr.EINVALID {
				t.Errorf("Get(%q) = %v, want EINVALID", key, err)
			}
			if _, err := s.Stat(ctx, key); apperr.CodeOf(err) != apperr.EINVALID {
				t.Errorf("Stat(%q) = %v, want EINVALID", key, err)
			}
			if err := s.Delete(ctx, key); apperr.CodeOf(err) != apperr.EINVALID {
				t.Errorf("Delete(%q) = %v, want EINVALID", key, err)
			}
		}
		if err := s.Put(ctx, "ok", strings.NewReader("x"), 1, "text/plain\r\nX-Evil: 1"); apperr.CodeOf(err) != apperr.EINVALID {
			t.Errorf("Put with a CRLF content type = %v, want EINVALID", err)
		}
	})

	t.Run("a reader that does not match the announced size is refused and nothing is stored", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		if err := s.Put(ctx, "short", strings.NewReader("abc"), 10, "text/plain"); apperr.CodeOf(err) != apperr.EINVALID {
			t.Errorf("Put of a short reader = %v, want EINVALID", err)
		}
		if err := s.Put(ctx, "long", strings.NewReader("abcdef"), 3, "text/plain"); apperr.CodeOf(err) != apperr.EINVALID {
			t.Errorf("Put of a long reader = %v, want EINVALID", err)
		}
		for _, key := range []string{"short", "long"} {
			if _, err := s.Stat(ctx, key); apperr.CodeOf(err) != apperr.ENOTFOUND {
				t.Errorf("Stat(%q) after a refused Put = %v, want ENOTFOUND", key, err)
			}
		}
	})

	t.Run("a file is put from its current offset", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		f, err := os.CreateTemp(t.TempDir(), "put-*")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.WriteString("skip:the body")
		if _, err := f.Seek(5, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		if err := s.Put(ctx, "from-file", f, 8, "text/plain"); err != nil {
			t.Fatal(err)
		}
		if got := mustGet(t, s, "from-file"); got != "the body" {
			t.Fatalf("got %q", got)
		}
		f.Seek(5, io.SeekStart)
		if err := s.Put(ctx, "from-file-short", f, 7, "text/plain"); apperr.CodeOf(err) != apperr.EINVALID {
			t.Fatalf("Put of a longer file = %v, want EINVALID", err)
		}
	})

	t.Run("a failing reader stores nothing", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		r := io.MultiReader(strings.NewReader("partial"), errReader{})
		if err := s.Put(ctx, "broken", r, -1, "text/plain"); err == nil {
			t.Fatal("Put of a failing reader succeeded")
		}
		if _, err := s.Stat(ctx, "broken"); apperr.CodeOf(err) != apperr.ENOTFOUND {
			t.Fatalf("Stat after a failed Put = %v, want ENOTFOUND", err)
		}
	})

	t.Run("a streamed put of unknown size", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		const size = 12<<20 + 12345 // several parts of 5 MiB on S3, and a short last one
		src := rand.New(rand.NewPCG(1, 2))
		want := sha256.New()
		// Only a plain io.Reader: no Len, Seek or WriterTo for the driver to find the size by.
		r := io.TeeReader(io.LimitReader(readerFunc(func(p []byte) (int, error) {
			for i := range p {
				p[i] = byte(src.Uint32())
			}
			return len(p), nil
		}), size), want)
		if err := s.Put(ctx, "videos/big.mp4", r, -1, "video/mp4"); err != nil {
			t.Fatal(err)
		}
		rc, obj, err := s.Get(ctx, "videos/big.mp4")
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		got := sha256.New()
		n, err := io.Copy(got, rc)
		if err != nil {
			t.Fatal(err)
		}
		if n != size || obj.Size != size || obj.ContentType != "video/mp4" {
			t.Fatalf("read %d bytes, object %+v; want %d bytes of video/mp4", n, obj, size)
		}
		if !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
			t.Fatal("the object read back differs from what was put")
		}
	})

	t.Run("concurrent puts of different keys", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		errs := make(chan error, 16)
		for i := range 16 {
			go func() {
				key := "uploads/" + string(rune('a'+i)) + "/file"
				errs <- s.Put(ctx, key, strings.NewReader(key), int64(len(key)), "text/plain")
			}()
		}
		for range 16 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if got := mustGet(t, s, "uploads/c/file"); got != "uploads/c/file" {
			t.Fatalf("Get = %q", got)
		}
	})

	t.Run("list walks one folder, whole and only it", func(t *testing.T) {
		t.Parallel()
		s := newStorage(t)
		before := time.Now().Add(-time.Minute)
		for _, key := range []string{"creative/c1/a.jpg", "creative/c1/a.thumb.jpg", "creative/c2/b.png",
			"creative-x/c1/z.jpg", "creatives/c1/y.jpg", "report/c1/r.pdf"} {
			if err := s.Put(ctx, key, strings.NewReader(key), int64(len(key)), "text/plain"); err != nil {
				t.Fatal(err)
			}
		}
		list := func(prefix string) []Object {
			t.Helper()
			var got []Object
			if err := s.List(ctx, prefix, func(o Object) error { got = append(got, o); return nil }); err != nil {
				t.Fatal(err)
			}
			slices.SortFunc(got, func(a, b Object) int { return strings.Compare(a.Key, b.Key) })
			return got
		}
		got := list("creative/")
		keys := make([]string, len(got))
		for i, o := range got {
			keys[i] = o.Key
			if o.Size != int64(len(o.Key)) || o.ModTime.Before(before) || o.ModTime.After(time.Now().Add(time.Minute)) {
				t.Errorf("listed %+v", o)
			}
		}
		if want := []string{"creative/c1/a.jpg", "creative/c1/a.thumb.jpg", "creative/c2/b.png"}; !slices.Equal(keys, want) {
			t.Fatalf("List(creative/) = %q, want %q", keys, want)
		}
		if n := len(list("")); n != 6 {
			t.Fatalf("List(\"\") = %d objects, want 6", n)
		}
		if n := len(list("nothing/here/")); n != 0 {
			t.Fatalf("List of an empty folder = %d objects", n)
		}
		if err := s.Delete(ctx, "creative/c2/b.png"); err != nil {
			t.Fatal(err)
		}
		if n := len(list("creative/")); n != 2 {
			t.Fatalf("List after a delete = %d objects, want 2", n)
		}

		stop := errors.New("enough")
		calls := 0
		if err := s.List(ctx, "", func(Object) error { calls++; return stop }); err != stop || calls != 1 {
			t.Fatalf("List stopped by fn = %v after %d calls, want fn's error after 1", err, calls)
		}
		for _, bad := range []string{"creative", "/creative/", "creative//", "../", "a/../"} {
			if err := s.List(ctx, bad, func(Object) error { return nil }); apperr.CodeOf(err) != apperr.EINVALID {
				t.Errorf("List(%q) = %v, want EINVALID", bad, err)
			}
		}
	})
}

func TestValidKey(t *testing.T) {
	t.Parallel()
	valid := []string{"a", "a/b/c.png", "0190f5c2-7a0e-7c3a-8f00-000000000000.pdf", "name with spaces", "ünïcode/ok", strings.Repeat("k", MaxKeyLen), ".hidden", "a/..b/c.."}
	invalid := []string{"", "/a", "a/", "a//b", "..", "a/..", "../a", "a/../b", ".", "a/./b", "a\\b", "a\x00b", "a\tb", "\xff", strings.Repeat("k", MaxKeyLen+1)}
	for _, k := range valid {
		if !ValidKey(k) {
			t.Errorf("ValidKey(%q) = false, want true", k)
		}
	}
	for _, k := range invalid {
		if ValidKey(k) {
			t.Errorf("ValidKey(%q) = true, want false", k)
		}
	}
}

func TestOpen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if _, err := Open(ctx, Options{Driver: "ftp", Dir: t.TempDir()}); err == nil {
		t.Error("Open with an unknown driver succeeded")
	}
	if _, err := Open(ctx, Options{Driver: DriverFS}); err == nil {
		t.Error("Open fs without a directory succeeded")
	}
	if _, err := Open(ctx, Options{Driver: DriverS3, S3Bucket: "b"}); err == nil {
		t.Error("Open s3 without an endpoint succeeded")
	}
}

// NewS3 must create a missing bucket, and accept one that exists (a second replica starting).
func TestNewS3CreatesTheBucketOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := httptest.NewServer(gofakes3.New(s3mem.New()).Server())
	t.Cleanup(srv.Close)
	o := Options{Driver: DriverS3, S3Endpoint: strings.TrimPrefix(srv.URL, "http://"), S3AccessKey: "k", S3SecretKey: "s", S3Bucket: "shared", S3Region: "eu-west-1"}
	first, err := NewS3(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, first, "k", "v", "text/plain")
	second, err := NewS3(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := mustGet(t, second, "k"); got != "v" {
		t.Fatalf("Get through the second client = %q", got)
	}
}

func mustPut(t *testing.T, s Storage, key, body, contentType string) {
	t.Helper()
	if err := s.Put(context.Background(), key, strings.NewReader(body), int64(len(body)), contentType); err != nil {
		t.Fatalf("Put(%q): %v", key, err)
	}
}

func mustGet(t *testing.T, s Storage, key string) string {
	t.Helper()
	rc, _, err := s.Get(context.Background(), key)
	if err != nil {
		t.Fatalf("Get(%q): %v", key, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("read %q: %v", key, err)
	}
	return string(b)
}

type readerFunc func(p []byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

// A failed or refused Put leaves no temporary file behind in the fs tree.
func TestFSLeavesNoTemporaryFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	s, err := NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, "a/ok.txt", "fine", "text/plain")
	_ = s.Put(ctx, "a/short", strings.NewReader("abc"), 10, "text/plain")
	_ = s.Put(ctx, "a/broken", io.MultiReader(strings.NewReader("x"), errReader{}), -1, "text/plain")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Put(cancelled, "a/cancelled", strings.NewReader("x"), 1, "text/plain"); err == nil {
		t.Error("Put with a cancelled context succeeded")
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if got := strings.Join(files, " "); got != "objects/a/ok.txt types/a/ok.txt" {
		t.Fatalf("files: %s", got)
	}
}

// A put cut short by a crash leaves its temporary file; List does not take it for an object.
func TestFSListSkipsTemporaryFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := NewFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	mustPut(t, s, "a/ok.txt", "fine", "text/plain")
	if err := os.WriteFile(filepath.Join(dir, "objects", "a", ".put-123456"), []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	var keys []string
	if err := s.List(context.Background(), "a/", func(o Object) error { keys = append(keys, o.Key); return nil }); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(keys, " "); got != "a/ok.txt" {
		t.Fatalf("listed %q, want only a/ok.txt", got)
	}
}
