package creatives_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io/fs"
	"marquee/platform/server"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/image/tiff"

	"marquee/modules/creatives"
	"marquee/modules/identity"
	"marquee/platform/storage"
	"marquee/platform/testkit"
)

// world is a server with a standard company (advertiser), an ambassador company and an admin.
type world struct {
	s                       *testkit.Server
	user, amb, admin        *testkit.Client
	userID, ambID, adminID  string
	userCompany, ambCompany string
	adminCompany, userEmail string
}

func start(t *testing.T, dialect string, opts ...testkit.Option) *world {
	t.Helper()
	s := testkit.Start(t, dialect, server.Compose(creatives.Component), opts...)
	var svc identity.Service
	for _, m := range s.Modules {
		if id, ok := m.(*identity.Module); ok {
			svc = id.Service()
		}
	}
	mk := func(req identity.CreateUserRequest) (*testkit.Client, *identity.User) {
		req.Password = "a long test password"
		u, _, err := svc.CreateUser(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		c := s.Client(t)
		c.SessionAs(s, u.ID)
		return c, u
	}
	w := &world{s: s}
	var u *identity.User
	w.user, u = mk(identity.CreateUserRequest{Email: "ada@standard.test", Role: identity.RoleUser, CompanyName: "Standard Co", FirstName: "Ada"})
	w.userID, w.userCompany, w.userEmail = u.ID, u.Company.ID, u.Local.Email
	w.amb, u = mk(identity.CreateUserRequest{Email: "bo@ambassador.test", Role: identity.RoleUser, CompanyName: "Ambassador Co", CompanyType: identity.CompanyAmbassador})
	w.ambID, w.ambCompany = u.ID, u.Company.ID
	w.admin, u = mk(identity.CreateUserRequest{Email: "root@marquee.test", Role: identity.RoleAdmin, CompanyName: "Marquee"})
	w.adminID, w.adminCompany = u.ID, u.Company.ID
	return w
}

// namedFile is one part of a multipart upload.
type namedFile struct {
	name string
	body []byte
}

// upload posts files as a multipart body with the given field name, as a browser does.
func upload(t *testing.T, w *world, c *testkit.Client, path, field string, files ...namedFile) *testkit.Response {
	t.Helper()
	parts := make([]testkit.File, len(files))
	for i, f := range files {
		parts[i] = testkit.File{Name: f.name, Body: f.body}
	}
	return c.Upload(path, field, parts...)
}

func uploadOne(t *testing.T, w *world, c *testkit.Client, path string, f namedFile) creatives.UploadedFile {
	t.Helper()
	var out creatives.UploadedFile
	upload(t, w, c, path, "file", f).Expect(t, 200).JSON(t, &out)
	if out.Path == "" || out.Filename == "" || out.Originalname != f.name {
		t.Fatalf("upload answer = %+v", out)
	}
	return out
}

// expectMessage checks status and message.
func expectMessage(t *testing.T, r *testkit.Response, status int, msg string) {
	t.Helper()
	r.Expect(t, status)
	if got := r.Map(t)["message"]; got != msg {
		t.Fatalf("message = %q, want %q", got, msg)
	}
}

// objectCount counts the objects of the fs storage.
func objectCount(t *testing.T, w *world) int {
	t.Helper()
	n := 0
	root := filepath.Join(w.s.Kernel.Config.FilesDirectory(), "objects")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && !strings.HasPrefix(d.Name(), storage.TemporaryPrefix) {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func rowCount(t *testing.T, w *world, table string) int64 {
	t.Helper()
	var n int64
	if err := w.s.Kernel.DB.Table(table).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// expectNothingStored checks that no object and no file row exist.
func expectNothingStored(t *testing.T, w *world, objects int, rows int64) {
	t.Helper()
	if got := objectCount(t, w); got != objects {
		t.Fatalf("objects = %d, want %d", got, objects)
	}
	if got := rowCount(t, w, "creatives_files"); got != rows {
		t.Fatalf("file rows = %d, want %d", got, rows)
	}
}

func drawn(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), uint8(x + y), 255})
		}
	}
	return img
}

func jpegOf(t testing.TB, w, h int) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, drawn(w, h), &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func pngOf(t testing.TB, w, h int) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, drawn(w, h)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func tiffOf(t testing.TB, w, h int) []byte {
	var buf bytes.Buffer
	if err := tiff.Encode(&buf, drawn(w, h), &tiff.Options{Compression: tiff.Deflate}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pixelFlood is a valid small PNG whose header announces 100000 x 100000 pixels.
func pixelFlood(t testing.TB) []byte {
	b := pngOf(t, 1, 1)
	// The IHDR chunk: length(4) "IHDR"(4) width(4) height(4) ... crc(4), right after the 8-byte signature.
	binary.BigEndian.PutUint32(b[16:], 100000)
	binary.BigEndian.PutUint32(b[20:], 100000)
	crc := crc32.ChecksumIEEE(b[12:29])
	binary.BigEndian.PutUint32(b[29:], crc)
	return b
}

// tinyPDF is a minimal PDF document.
var tinyPDF = []byte("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")

// exeBytes starts like a Windows executable.
var exeBytes = append([]byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00"), bytes.Repeat([]byte{0}, 200)...)

// concurrently calls call for every id at once and fails on any answer but want.
func concurrently(t *testing.T, ids []string, want int, call func(id string) *testkit.Response) {
	t.Helper()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := call(id); r.Status != want {
				t.Errorf("%s: %d %s", id, r.Status, r.Body)
			}
		}()
	}
	wg.Wait()
}

// countWhere counts the rows of table matching the condition.
func countWhere(t *testing.T, w *world, table, cond string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := w.s.Kernel.DB.Table(table).Where(cond, args...).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}
