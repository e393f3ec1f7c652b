package creatives_test

import (
	"bytes"
	"fmt"
	"image/jpeg"
	"strings"
	"testing"
	"time"

	"marquee/modules/creatives"
	"marquee/modules/locations"
	"marquee/platform/db"
	"marquee/platform/imagecheck"
	"marquee/platform/storage"
	"marquee/platform/testkit"
)

// The face photo upload (modules/locations/face_photo.go) is tested here, where the application
// has users, admins and the preview that draws on the photo.

func facePhotos(t *testing.T, w *world) []string {
	t.Helper()
	var keys []string
	if err := w.s.Kernel.Storage.List(t.Context(), "face-photos/", func(o storage.Object) error { keys = append(keys, o.Key); return nil }); err != nil {
		t.Fatal(err)
	}
	return keys
}

// An admin gives a face a photo: it is stored as a JPEG of at most FacePhotoMaxSide a side, its
// size is recorded, the old corners are cleared, the change is audited; the photo is served, and
// once corners are set the preview draws on it. A new photo replaces the old one (deleted) and
// draws a new preview, not the cached one.
func TestAdminUploadsAFacePhoto(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		face := facesByClass(t, w)[locations.ClassStreet]
		if len(face.Geometry.Corners) != 4 {
			t.Fatalf("the demo face has no corners: %+v", face.Geometry)
		}
		path := "/api/admin/faces/" + face.ID + "/photo"
		var got locations.Location
		w.admin.Upload(path, "file", testkit.File{Name: "street.png", Body: pngOf(t, 2400, 1200)}).Expect(t, 200).JSON(t, &got)
		g := got.Geometry
		if g.PhotoWidth != locations.FacePhotoMaxSide || g.PhotoHeight != 800 || len(g.Corners) != 0 || !strings.HasPrefix(g.Photo, "/api/od/photos/") || !strings.HasSuffix(g.Photo, ".jpg") {
			t.Fatalf("after the upload: %+v", g)
		}
		if n := countWhere(t, w, "audit_entries", "action = ? AND object_id = ?", locations.AuditFacePhoto, face.ID); n != 1 {
			t.Fatalf("%d audit entries", n)
		}
		// The photo is public, like the face, and a JPEG of the recorded size.
		served := w.s.Client(t).Get(g.Photo).Expect(t, 200)
		if cfg, err := jpeg.DecodeConfig(bytes.NewReader(served.Body)); err != nil || cfg.Width != g.PhotoWidth || cfg.Height != g.PhotoHeight {
			t.Fatalf("served photo %+v %v", cfg, err)
		}
		var read locations.Location
		w.admin.Get("/api/admin/faces/"+face.ID).Expect(t, 200).JSON(t, &read)
		if read.Geometry.Photo != g.Photo || len(read.Geometry.Corners) != 0 {
			t.Fatalf("admin read after the upload: %+v", read.Geometry)
		}

		// No corners yet: the preview says so; with corners it draws the creative on the photo.
		m := creativesModule(w)
		defer m.SetOCR("", time.Second)()
		up := uploadOne(t, w, w.user, "/upload_creative", namedFile{"red.jpg", encodeJPEG(t, drawSample(t, 1400, 400, hexRGBA(0xe74c3c), nil, nil))})
		var cr creatives.Creative
		w.user.Post("/api/creatives/", map[string]any{"creative": map[string]string{"url": up.Path}}).Expect(t, 201).JSON(t, &cr)
		preview := fmt.Sprintf("/api/creatives/%s/preview?face=%s", cr.ID, face.ID)
		expectMessage(t, w.user.Get(preview), 400, locations.MsgNoCorners)
		corners := []locations.Point{{X: 400, Y: 200}, {X: 1200, Y: 220}, {X: 1180, Y: 600}, {X: 420, Y: 580}}
		geometry := func(cs []locations.Point) locations.FaceGeometryUpdate {
			return locations.FaceGeometryUpdate{WidthFt: g.WidthFt, HeightFt: g.HeightFt, PixelWidth: g.PixelWidth, PixelHeight: g.PixelHeight, DistanceClass: g.DistanceClass, Corners: cs}
		}
		w.admin.Put("/api/admin/faces/"+face.ID+"/geometry", geometry(corners)).Expect(t, 200)
		day := decodePNG(t, w.user.Get(preview))
		if day.Bounds().Dx() != g.PhotoWidth || day.Bounds().Dy() != g.PhotoHeight {
			t.Fatalf("preview %v, photo %dx%d", day.Bounds(), g.PhotoWidth, g.PhotoHeight)
		}
		if c := day.RGBAAt(800, 400); c.R < 200 || c.G > 100 || c.B > 100 {
			t.Fatalf("screen centre %v, want the creative's red", c)
		}

		// A new photo replaces the old one: the old object is deleted, the corners cleared, and the
		// preview is not taken from the cache (the photo's address is in its key).
		first := facePhotos(t, w)
		got = locations.Location{}
		w.admin.Upload(path, "file", testkit.File{Name: "again.jpg", Body: jpegOf(t, 1000, 700)}).Expect(t, 200).JSON(t, &got)
		if got.Geometry.Photo == g.Photo || got.Geometry.PhotoWidth != 1000 || len(got.Geometry.Corners) != 0 {
			t.Fatalf("after a second upload: %+v", got.Geometry)
		}
		if now := facePhotos(t, w); len(first) != 1 || len(now) != 1 || now[0] == first[0] {
			t.Fatalf("photo objects before %v, after %v", first, now)
		}
		w.s.Client(t).Get(g.Photo).Expect(t, 404)
		expectMessage(t, w.user.Get(preview), 400, locations.MsgNoCorners)
		w.admin.Put("/api/admin/faces/"+face.ID+"/geometry", geometry(corners[:0])).Expect(t, 200)
		small := []locations.Point{{X: 300, Y: 200}, {X: 700, Y: 210}, {X: 690, Y: 420}, {X: 310, Y: 400}}
		w.admin.Put("/api/admin/faces/"+face.ID+"/geometry", geometry(small)).Expect(t, 200)
		again := decodePNG(t, w.user.Get(preview))
		if again.Bounds().Dx() != 1000 || again.Bounds().Dy() != 700 {
			t.Fatalf("the preview after a new photo is %v: the old one was served from the cache", again.Bounds())
		}
		if n := countWhere(t, w, "audit_entries", "action = ? AND object_id = ?", locations.AuditFacePhoto, face.ID); n != 2 {
			t.Fatalf("%d audit entries after two uploads", n)
		}
	})
}

// Only an admin gives a face a photo; bad files answer clearly and store nothing; a pixel flood is
// refused from its header, before its pixels are decoded.
func TestFacePhotoUploadIsCheckedAndAdminOnly(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		face := facesByClass(t, w)[locations.ClassFreeway]
		path := "/api/admin/faces/" + face.ID + "/photo"
		good := testkit.File{Name: "face.jpg", Body: jpegOf(t, 640, 400)}
		w.user.Upload(path, "file", good).Expect(t, 403)
		w.s.Client(t).Upload(path, "file", good).Expect(t, 401)
		expectMessage(t, w.admin.Upload("/api/admin/faces/nope/photo", "file", good), 404, locations.MsgFaceNotFound)

		bad := func(f testkit.File, field string, status int, msg string) {
			t.Helper()
			expectMessage(t, w.admin.Upload(path, field, f), status, msg)
		}
		bad(testkit.File{Name: "face.jpg", Body: exeBytes}, "file", 422, locations.MsgFacePhotoType)
		bad(testkit.File{Name: "face.pdf", Body: tinyPDF}, "file", 422, locations.MsgFacePhotoType)
		bad(testkit.File{Name: "face.tif", Body: tiffOf(t, 40, 30)}, "file", 422, locations.MsgFacePhotoType)
		bad(testkit.File{Name: "flood.png", Body: pixelFlood(t)}, "file", 422, creatives.MsgImageTooBig)
		bad(testkit.File{Name: "cut.jpg", Body: jpegOf(t, 640, 400)[:700]}, "file", 422, creatives.MsgCorruptImage)
		bad(testkit.File{Name: "big.jpg", Body: append(jpegOf(t, 8, 8), make([]byte, locations.MaxFacePhotoBytes)...)}, "file", 413, locations.MsgFacePhotoTooLarge)
		bad(testkit.File{Name: "empty.jpg"}, "file", 400, locations.MsgFacePhotoMissing)
		bad(good, "photo", 400, locations.MsgFacePhotoMissing)

		if keys := facePhotos(t, w); len(keys) != 0 {
			t.Fatalf("refused uploads stored %v", keys)
		}
		if n := countWhere(t, w, "audit_entries", "action = ?", locations.AuditFacePhoto); n != 0 {
			t.Fatalf("%d audit entries for refused uploads", n)
		}
		var read locations.Location
		w.admin.Get("/api/admin/faces/"+face.ID).Expect(t, 200).JSON(t, &read)
		if read.Geometry.Photo != face.Geometry.Photo || len(read.Geometry.Corners) != 4 {
			t.Fatalf("a refused upload changed the face: %+v", read.Geometry)
		}
		w.s.Client(t).Get("/api/od/photos/not-a-photo.jpg").Expect(t, 404)
		w.s.Client(t).Get("/api/od/photos/01234567-89ab-7def-8123-456789abcdef.jpg").Expect(t, 404)
	})
}

// One admin uploads at most FacePhotosPerMinute photos a minute: each is a full decode.
func TestFacePhotoUploadsAreRateLimited(t *testing.T) {
	w := start(t, db.SQLite)
	face := facesByClass(t, w)[locations.ClassArterial]
	path := "/api/admin/faces/" + face.ID + "/photo"
	body := jpegOf(t, 64, 40)
	for range locations.FacePhotosPerMinute {
		w.admin.Upload(path, "file", testkit.File{Name: "f.jpg", Body: body}).Expect(t, 200)
	}
	expectMessage(t, w.admin.Upload(path, "file", testkit.File{Name: "f.jpg", Body: body}), 429, locations.MsgFacePhotoTooFast)
}

// The image checks are platform/imagecheck's; this module repeats their limits and messages as
// literals for the generated TypeScript (tygo reads no other package). They must not drift.
func TestImageLimitsAreTheCheckers(t *testing.T) {
	if creatives.MaxImagePixels != imagecheck.MaxPixels || creatives.MaxImageSide != imagecheck.MaxSide ||
		creatives.MsgCorruptImage != imagecheck.MsgCorrupt || creatives.MsgImageTooBig != imagecheck.MsgTooBig ||
		creatives.MsgImageTooHeavy != imagecheck.MsgTooHeavy {
		t.Fatal("modules/creatives/service.go and platform/imagecheck disagree on the image limits or messages")
	}
}

// A photo whose decode would take more than IMAGE_DECODE_MAX_BYTES is refused from its header, as
// a creative is: the face photos read the process's decode limits, not limits of their own.
func TestFacePhotoOverTheDecodeLimitIsRefused(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect, testkit.WithEnv("IMAGE_DECODE_MAX_BYTES", "16777216"), testkit.WithEnv("IMAGE_DECODE_MEMORY", "16777216"))
		face := facesByClass(t, w)[locations.ClassStreet]
		// 1500 x 1500 at 16 bits RGBA: 18 MB decoded, a few KB on the wire.
		heavy := bombPNG(t, 1500, 1500)
		expectMessage(t, w.admin.Upload("/api/admin/faces/"+face.ID+"/photo", "file", testkit.File{Name: "heavy.png", Body: heavy}), 422, creatives.MsgImageTooHeavy)
		if keys := facePhotos(t, w); len(keys) != 0 {
			t.Fatalf("a refused photo stored %v", keys)
		}
		// The same photo at 8 bits fits: the limit is the decode's memory, not the pixels.
		w.admin.Upload("/api/admin/faces/"+face.ID+"/photo", "file", testkit.File{Name: "light.jpg", Body: jpegOf(t, 1500, 1500)}).Expect(t, 200)
	})
}
