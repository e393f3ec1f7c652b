package creatives_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"marquee/modules/creatives"
	"marquee/modules/creatives/internal/preflight"
	"marquee/modules/locations"
	"marquee/platform/storage"
	"marquee/platform/testkit"
)

// requireTesseract skips a test that needs OCR where Tesseract is not installed, and fails it
// under CI (CI=1), where `make tools` (scripts/ensure-tesseract.sh) must have installed it.
func requireTesseract(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tesseract"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("tesseract is required under CI: %v (run make tools)", err)
		}
		t.Skipf("tesseract not installed: %v (run make tools)", err)
	}
}

func locationsModule(w *world) *locations.Module {
	for _, m := range w.s.Modules {
		if l, ok := m.(*locations.Module); ok {
			return l
		}
	}
	panic("locations module not built")
}

// levels maps each check of a report to its level.
func levels(r creatives.PreflightReport) map[string]string {
	out := map[string]string{}
	for _, c := range r.Checks {
		out[c.ID] = c.Level
	}
	return out
}

func check(r creatives.PreflightReport, id string) creatives.PreflightCheck {
	for _, c := range r.Checks {
		if c.ID == id {
			return c
		}
	}
	return creatives.PreflightCheck{}
}

// preflightUpload posts an image to the pre-flight.
func preflightUpload(t *testing.T, c *testkit.Client, body []byte, faceIDs ...string) *testkit.Response {
	t.Helper()
	path := "/api/creatives/preflight"
	if len(faceIDs) > 0 {
		path += "?face_ids=" + strings.Join(faceIDs, ",")
	}
	return c.Upload(path, "file", testkit.File{Name: "ad.jpg", Body: body})
}

func reportOf(t *testing.T, r *testkit.Response) creatives.PreflightReport {
	t.Helper()
	var out creatives.PreflightReport
	r.Expect(t, 200).JSON(t, &out)
	return out
}

// The five sample images of issue 29 (and three more): each check passes on the clean creative and
// fails on the one made to fail it, through the real OCR; the scores do not move between runs.
func TestPreflightOfSampleImages(t *testing.T) {
	requireTesseract(t)
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		clean := reportOf(t, preflightUpload(t, w.user, sampleClean(t)))
		for id, lvl := range levels(clean) {
			if lvl != preflight.LevelPass {
				t.Errorf("clean: %s is %s: %+v", id, lvl, check(clean, id))
			}
		}
		if clean.Score != 100 || len(clean.Checks) != 7 || len(clean.Faces) != 1 || clean.Faces[0].FaceID != "" {
			t.Fatalf("clean: %+v", clean)
		}
		if c := check(clean, preflight.CheckWords); c.Value != 2 {
			t.Errorf("clean: %v words, want 2 (FRESH COFFEE)", c.Value)
		}
		square := encodeJPEG(t, drawSample(t, 1000, 1000, navy, nil, []sampleText{{"FRESH COFFEE", 100, 520, 120, white}}))
		for _, c := range []struct {
			name  string
			body  []byte
			check string
		}{
			{"cluttered", sampleCluttered(t), preflight.CheckClutter},
			{"low contrast", sampleLowContrast(t), preflight.CheckContrast},
			{"tiny text", sampleTinyText(t), preflight.CheckLetterHeight},
			{"glaring white", sampleGlaringWhite(t), preflight.CheckNightBrightness},
			{"wordy", sampleWordy(t), preflight.CheckWords},
			{"text at the edge", sampleAtTheEdge(t), preflight.CheckSafeArea},
			{"square on a bulletin", square, preflight.CheckSize},
		} {
			r := reportOf(t, preflightUpload(t, w.user, c.body))
			if got := check(r, c.check); got.Level != preflight.LevelFail || got.Message == "" || got.Hint == "" {
				t.Errorf("%s: %s is %+v", c.name, c.check, got)
			}
			if r.Score >= clean.Score {
				t.Errorf("%s: score %d, clean %d", c.name, r.Score, clean.Score)
			}
			again := reportOf(t, preflightUpload(t, w.user, c.body))
			a, _ := json.Marshal(r)
			b, _ := json.Marshal(again)
			if !bytes.Equal(a, b) {
				t.Errorf("%s: the report changed between runs:\n%s\n%s", c.name, a, b)
			}
		}
		// A pre-flight keeps nothing.
		expectNothingStored(t, w, 0, 0)
	})
}

// A creative upload carries its pre-flight, and the creative made of it shows it.
func TestCreativeUploadCarriesItsPreflight(t *testing.T) {
	requireTesseract(t)
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		var up creatives.UploadedFile
		upload(t, w, w.user, "/upload_creative", "file", namedFile{"white.jpg", sampleGlaringWhite(t)}).Expect(t, 200).JSON(t, &up)
		if up.Preflight == nil || check(*up.Preflight, preflight.CheckNightBrightness).Level != preflight.LevelFail {
			t.Fatalf("upload answer: %+v", up.Preflight)
		}
		var cr creatives.Creative
		w.user.Post("/api/creatives/", map[string]any{"creative": map[string]string{"name": "White", "url": up.Path}}).Expect(t, 201).JSON(t, &cr)
		if cr.Preflight == nil || cr.Preflight.Score != up.Preflight.Score {
			t.Fatalf("creative: %+v", cr.Preflight)
		}
		var page struct{ Items []creatives.Creative }
		w.user.Get("/api/creatives/").Expect(t, 200).JSON(t, &page)
		if len(page.Items) != 1 || page.Items[0].Preflight == nil || page.Items[0].Preflight.Score != up.Preflight.Score {
			t.Fatalf("list: %+v", page.Items)
		}
		// Other uploads carry none.
		var temp []creatives.UploadedFile
		upload(t, w, w.user, "/upload_temp", "files", namedFile{"t.jpg", sampleClean(t)}).Expect(t, 200).JSON(t, &temp)
		if temp[0].Preflight != nil {
			t.Fatalf("temp upload has a pre-flight")
		}
	})
}

// Without Tesseract the text checks say they were skipped and why, and the image checks still
// run; an OCR that takes too long is cut short and says so.
func TestPreflightWithoutOCR(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		m := creativesModule(w)
		restore := m.SetOCR("", time.Second)
		r := reportOf(t, preflightUpload(t, w.user, sampleGlaringWhite(t)))
		restore()
		for _, id := range []string{preflight.CheckWords, preflight.CheckLetterHeight, preflight.CheckContrast, preflight.CheckSafeArea} {
			if c := check(r, id); c.Level != preflight.LevelSkipped || !strings.Contains(c.Message, creatives.ReasonNoOCR) {
				t.Errorf("%s: %+v", id, c)
			}
		}
		if c := check(r, preflight.CheckNightBrightness); c.Level != preflight.LevelFail {
			t.Errorf("night: %+v", c)
		}
		if c := check(r, preflight.CheckSize); c.Level != preflight.LevelPass {
			t.Errorf("size: %+v", c)
		}
		// The score is the checks that ran: size, clutter pass and night fails.
		if want := int(float64(20+10) / float64(20+10+10) * 100); r.Score != want {
			t.Errorf("score %d, want %d", r.Score, want)
		}
		if bin, err := exec.LookPath("tesseract"); err == nil {
			restore := m.SetOCR(bin, time.Nanosecond)
			r := reportOf(t, preflightUpload(t, w.user, sampleClean(t)))
			restore()
			if c := check(r, preflight.CheckWords); c.Level != preflight.LevelSkipped || !strings.Contains(c.Message, creatives.ReasonOCRTimeout) {
				t.Errorf("timeout: %+v", c)
			}
		}
	})
}

// Bad input gets clear answers: a corrupt image, one over the decode budget, a pixel flood, no
// creative, an unknown face, another company's creative.
func TestPreflightBadInput(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect, testkit.WithEnv("IMAGE_DECODE_MAX_BYTES", fmt.Sprint(128*mib)))
		m := creativesModule(w)
		defer m.SetOCR("", time.Second)() // the refusals come before any OCR
		expectMessage(t, preflightUpload(t, w.user, sampleClean(t)[:700]), 422, creatives.MsgCorruptImage)
		expectMessage(t, preflightUpload(t, w.user, bombPNG(t, 5000, 5000)), 422, creatives.MsgImageTooHeavy)
		expectMessage(t, preflightUpload(t, w.user, pixelFlood(t)), 422, creatives.MsgImageTooBig)
		expectMessage(t, preflightUpload(t, w.user, tinyPDF), 422, creatives.MsgCreativeType)
		expectMessage(t, w.user.Post("/api/creatives/preflight", map[string]any{}), 400, creatives.MsgPreflightSource)
		expectMessage(t, preflightUpload(t, w.user, sampleClean(t), "no-such-face"), 400, creatives.MsgUnknownFace)
		many := make([]string, creatives.MaxPreflightFaces+1)
		for i := range many {
			many[i] = fmt.Sprint("f", i)
		}
		expectMessage(t, w.user.Post("/api/creatives/preflight", map[string]any{"creative_id": "x", "face_ids": many}), 400, creatives.MsgTooManyFaces)
		up := uploadOne(t, w, w.amb, "/upload_creative", namedFile{"a.jpg", sampleClean(t)})
		var cr creatives.Creative
		w.amb.Post("/api/creatives/", map[string]any{"creative": map[string]string{"url": up.Path}}).Expect(t, 201).JSON(t, &cr)
		expectMessage(t, w.user.Post("/api/creatives/preflight", map[string]any{"creative_id": cr.ID}), 404, creatives.MsgCreativeNotFound)
		w.amb.Post("/api/creatives/preflight", map[string]any{"creative_id": cr.ID}).Expect(t, 200)
	})
}

// facesByClass generates demo faces and answers one of each viewing distance class.
func facesByClass(t *testing.T, w *world) map[string]locations.Location {
	t.Helper()
	loc := locationsModule(w)
	if _, err := loc.GenerateInventory(t.Context(), locations.GenerateOptions{Markets: []string{"Phoenix"}, FacesPerMarket: 40, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	ls, err := loc.Service().Locations(t.Context(), locations.LocationQuery{Markets: []string{"Phoenix"}})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]locations.Location{}
	for _, l := range ls {
		if _, ok := out[l.Geometry.DistanceClass]; !ok {
			out[l.Geometry.DistanceClass] = l
		}
	}
	for _, c := range []string{locations.ClassFreeway, locations.ClassArterial, locations.ClassStreet} {
		if _, ok := out[c]; !ok {
			t.Fatalf("no %s face among %d", c, len(ls))
		}
	}
	return out
}

// A builder creative is judged from its design, exactly: on the faces asked for, each with its own
// size and viewing distance.
func TestPreflightOfABuilderCreativeOnFaces(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		faces := facesByClass(t, w)
		up := uploadOne(t, w, w.user, "/upload_creative_image", namedFile{"ad.png", pngOf(t, 1400, 400)})
		// Letters of 48 px: 33.6 px capitals, 13.8 in on a 14 x 48 ft bulletin, legible from 415 ft.
		design := map[string]any{"width": 1400, "height": 400, "background": "#0b3d91", "elements": []map[string]any{
			{"kind": "text", "x": 200, "y": 150, "width": 900, "height": 80, "text": "Fresh coffee", "font_size": 48, "font_family": "Kanit", "fill": "#ffffff"}}}
		expectMessage(t, w.user.Post("/api/creatives/", map[string]any{"creative": map[string]string{"url": up.Path},
			"design": map[string]any{"width": 1400, "height": 400, "background": "navy", "elements": []any{}}}), 400, creatives.MsgBadDesign)
		var cr creatives.Creative
		w.user.Post("/api/creatives/", map[string]any{"creative": map[string]string{"url": up.Path}, "design": design}).Expect(t, 201).JSON(t, &cr)
		if cr.Preflight == nil || check(*cr.Preflight, preflight.CheckLetterHeight).Level != preflight.LevelPass {
			t.Fatalf("builder creative on the reference face: %+v", cr.Preflight)
		}
		ids := []string{faces[locations.ClassStreet].ID, faces[locations.ClassFreeway].ID}
		r := reportOf(t, w.user.Post("/api/creatives/preflight", creatives.PreflightRequest{CreativeID: cr.ID, FaceIDs: ids}))
		if len(r.Faces) != 2 || r.Faces[0].FaceID != ids[0] || r.Faces[1].FaceID != ids[1] {
			t.Fatalf("faces: %+v", r.Faces)
		}
		perFace := func(f creatives.PreflightFace, id string) string {
			for _, c := range f.Checks {
				if c.ID == id {
					return c.Level
				}
			}
			return ""
		}
		// The street face (read from 100 ft) is fine; the freeway (500 ft) needs bigger letters.
		if perFace(r.Faces[0], preflight.CheckLetterHeight) != preflight.LevelPass || perFace(r.Faces[1], preflight.CheckLetterHeight) != preflight.LevelWarning {
			t.Fatalf("letter height by face: %+v", r.Faces)
		}
		// The poster-shaped street face letterboxes the bulletin-shaped creative.
		if c := r.Faces[0].Checks[0]; c.ID != preflight.CheckSize || c.Fit != preflight.FitLetterboxed || c.Level != preflight.LevelFail {
			t.Fatalf("size on the street face: %+v", c)
		}
		if r.Score != min(r.Faces[0].Score, r.Faces[1].Score) {
			t.Fatalf("score %d of faces %d, %d", r.Score, r.Faces[0].Score, r.Faces[1].Score)
		}
		// The API key's copy answers the same.
		var again creatives.PreflightReport
		w.user.Post("/api/creatives/preflight", creatives.PreflightRequest{CreativeID: cr.ID, FaceIDs: ids}).Expect(t, 200).JSON(t, &again)
		if again.Score != r.Score {
			t.Fatalf("second call: %d, first %d", again.Score, r.Score)
		}
	})
}

func decodePNG(t *testing.T, r *testkit.Response) *image.RGBA {
	t.Helper()
	r.Expect(t, 200)
	if ct := r.Header.Get("Content-Type"); ct != "image/png" {
		t.Fatalf("content type %q", ct)
	}
	img, err := png.Decode(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	rgba, ok := img.(*image.RGBA)
	if !ok {
		b := img.Bounds()
		rgba = image.NewRGBA(b)
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				rgba.Set(x, y, img.At(x, y))
			}
		}
	}
	return rgba
}

func brightness(img *image.RGBA, x, y int) int {
	c := img.RGBAAt(x, y)
	return int(c.R) + int(c.G) + int(c.B)
}

// The preview draws the creative on the face's screen in perspective, darkens the scene at night,
// blurs it for a driver at the face's distance, caches each by its options and answers clearly
// when a face has no photo or no corners.
func TestPreviewOnTheFacePhoto(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		faces := facesByClass(t, w)
		face := faces[locations.ClassFreeway]
		m := creativesModule(w)
		defer m.SetOCR("", time.Second)()
		// A creative of one colour, so the screen's pixels are known.
		solid := encodeJPEG(t, drawSample(t, 1400, 400, hexRGBA(0xe74c3c), nil, nil))
		up := uploadOne(t, w, w.user, "/upload_creative", namedFile{"red.jpg", solid})
		var cr creatives.Creative
		w.user.Post("/api/creatives/", map[string]any{"creative": map[string]string{"url": up.Path}}).Expect(t, 201).JSON(t, &cr)
		url := func(light, view string) string {
			return fmt.Sprintf("/api/creatives/%s/preview?face=%s&light=%s&view=%s", cr.ID, face.ID, light, view)
		}
		day := decodePNG(t, w.user.Get(url("day", "photo")))
		g := face.Geometry
		if day.Bounds().Dx() != g.PhotoWidth || day.Bounds().Dy() != g.PhotoHeight || len(g.Corners) != 4 {
			t.Fatalf("preview %v, photo %dx%d, corners %v", day.Bounds(), g.PhotoWidth, g.PhotoHeight, g.Corners)
		}
		var cx, cy float64
		for _, p := range g.Corners {
			cx, cy = cx+p.X/4, cy+p.Y/4
		}
		if c := day.RGBAAt(int(cx), int(cy)); c.R < 200 || c.G > 100 || c.B > 100 {
			t.Fatalf("screen centre %v, want the creative's red", c)
		}
		// Outside the screen, the photo.
		photo := w.user.Get(g.Photo).Expect(t, 200)
		p, _ := png.Decode(bytes.NewReader(photo.Body))
		if pr, pg, pb, _ := p.At(5, 5).RGBA(); day.RGBAAt(5, 5) != (color.RGBA{uint8(pr >> 8), uint8(pg >> 8), uint8(pb >> 8), 255}) {
			t.Fatalf("outside the screen %v, photo %v", day.RGBAAt(5, 5), p.At(5, 5))
		}
		night := decodePNG(t, w.user.Get(url("night", "photo")))
		if brightness(night, 5, 5) >= brightness(day, 5, 5)/2 {
			t.Fatalf("night sky %d, day %d", brightness(night, 5, 5), brightness(day, 5, 5))
		}
		if brightness(night, int(cx), int(cy)) < brightness(day, int(cx), int(cy))*8/10 {
			t.Fatalf("the screen does not glow at night")
		}
		drive := decodePNG(t, w.user.Get(url("day", "driveby")))
		if bytes.Equal(drive.Pix, day.Pix) {
			t.Fatalf("the drive-by view is the photo view")
		}
		cached := func() int {
			n := 0
			_ = w.s.Kernel.Storage.List(t.Context(), "preview/", func(storage.Object) error { n++; return nil })
			return n
		}
		if n := cached(); n != 3 {
			t.Fatalf("%d previews cached, want 3", n)
		}
		again := w.user.Get(url("day", "photo")).Expect(t, 200)
		if d, _ := png.Decode(bytes.NewReader(again.Body)); d == nil || cached() != 3 {
			t.Fatalf("the second preview was not the cached one")
		}
		expectMessage(t, w.user.Get(fmt.Sprintf("/api/creatives/%s/preview?face=%s&light=dusk", cr.ID, face.ID)), 400, creatives.MsgPreviewLight)
		expectMessage(t, w.user.Get(fmt.Sprintf("/api/creatives/%s/preview?face=%s&view=map", cr.ID, face.ID)), 400, creatives.MsgPreviewView)
		expectMessage(t, w.user.Get(fmt.Sprintf("/api/creatives/%s/preview", cr.ID)), 400, creatives.MsgPreviewFace)
		expectMessage(t, w.user.Get(fmt.Sprintf("/api/creatives/%s/preview?face=nope", cr.ID)), 404, locations.MsgFaceNotFound)
		expectMessage(t, w.amb.Get(url("day", "photo")), 404, creatives.MsgCreativeNotFound)
		// A stored image that has gone bad answers clearly, and is not cached.
		up2 := uploadOne(t, w, w.user, "/upload_creative", namedFile{"b.jpg", solid})
		var broken creatives.Creative
		w.user.Post("/api/creatives/", map[string]any{"creative": map[string]string{"url": up2.Path}}).Expect(t, 201).JSON(t, &broken)
		junk := solid[:600]
		if err := w.s.Kernel.Storage.Put(t.Context(), up2.Path, bytes.NewReader(junk), int64(len(junk)), "image/jpeg"); err != nil {
			t.Fatal(err)
		}
		expectMessage(t, w.user.Get(fmt.Sprintf("/api/creatives/%s/preview?face=%s", broken.ID, face.ID)), 422, creatives.MsgCorruptImage)
		if n := cached(); n != 3 {
			t.Fatalf("%d previews cached after a failure", n)
		}
		// An admin moves the corners: the preview is drawn again, not taken from the cache.
		moved := []locations.Point{{X: 100, Y: 100}, {X: 500, Y: 120}, {X: 520, Y: 300}, {X: 90, Y: 280}}
		w.admin.Put("/api/admin/faces/"+face.ID+"/geometry", locations.FaceGeometryUpdate{WidthFt: g.WidthFt, HeightFt: g.HeightFt,
			PixelWidth: g.PixelWidth, PixelHeight: g.PixelHeight, DistanceClass: g.DistanceClass, Corners: moved}).Expect(t, 200)
		if c := decodePNG(t, w.user.Get(url("day", "photo"))).RGBAAt(300, 200); c.R < 200 || c.G > 100 {
			t.Fatalf("moved screen centre %v", c)
		}
		// No corners, no photo: clear answers.
		w.admin.Put("/api/admin/faces/"+face.ID+"/geometry", locations.FaceGeometryUpdate{WidthFt: g.WidthFt, HeightFt: g.HeightFt,
			PixelWidth: g.PixelWidth, PixelHeight: g.PixelHeight, DistanceClass: g.DistanceClass}).Expect(t, 200)
		expectMessage(t, w.user.Get(url("day", "photo")), 400, locations.MsgNoCorners)
		if err := w.s.Kernel.DB.Exec("UPDATE locations_faces SET photo = '' WHERE id = ?", face.ID).Error; err != nil {
			t.Fatal(err)
		}
		expectMessage(t, w.user.Get(url("day", "photo")), 400, locations.MsgNoPhoto)
		// Deleting the creative deletes its cached previews.
		if cached() == 0 {
			t.Fatal("nothing cached")
		}
		w.user.Do("DELETE", "/api/creatives/"+cr.ID, nil).Expect(t, 200)
		if n := cached(); n != 0 {
			t.Fatalf("%d previews left after the creative was deleted", n)
		}
	})
}

// An admin sets a face's geometry; the corners must be a convex quad inside the photo, clockwise
// from the top-left; the change is audited; a user may not.
func TestAdminSetsFaceGeometry(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		face := facesByClass(t, w)[locations.ClassArterial]
		path := "/api/admin/faces/" + face.ID + "/geometry"
		ok := locations.FaceGeometryUpdate{WidthFt: 40, HeightFt: 12, PixelWidth: 1600, PixelHeight: 480, DistanceClass: locations.ClassFreeway,
			Corners: []locations.Point{{X: 10, Y: 20}, {X: 900, Y: 40}, {X: 880, Y: 500}, {X: 20, Y: 480}}}
		var got locations.Location
		w.admin.Put(path, ok).Expect(t, 200).JSON(t, &got)
		if g := got.Geometry; g.WidthFt != 40 || g.PixelWidth != 1600 || g.ViewingDistanceFt != 500 || g.SpeedMph != 65 || len(g.Corners) != 4 || g.Corners[2].X != 880 {
			t.Fatalf("geometry %+v", g)
		}
		if n := countWhere(t, w, "audit_entries", "action = ?", locations.AuditFaceGeometry); n != 1 {
			t.Fatalf("%d audit entries", n)
		}
		bad := func(mod func(*locations.FaceGeometryUpdate), msg string) {
			t.Helper()
			u := ok
			u.Corners = append([]locations.Point(nil), ok.Corners...)
			mod(&u)
			expectMessage(t, w.admin.Put(path, u), 400, msg)
		}
		bad(func(u *locations.FaceGeometryUpdate) { u.Corners[2] = locations.Point{X: 300, Y: 100} }, locations.MsgCorners)          // dented
		bad(func(u *locations.FaceGeometryUpdate) { u.Corners[1], u.Corners[2] = u.Corners[2], u.Corners[1] }, locations.MsgCorners) // crossed
		bad(func(u *locations.FaceGeometryUpdate) { u.Corners[1].X = 5000 }, locations.MsgCorners)                                   // outside the photo
		bad(func(u *locations.FaceGeometryUpdate) { u.Corners = u.Corners[:3] }, locations.MsgCorners)                               // three
		bad(func(u *locations.FaceGeometryUpdate) {
			u.Corners = []locations.Point{u.Corners[3], u.Corners[0], u.Corners[1], u.Corners[2]}
		}, locations.MsgCorners) // not from the top-left
		bad(func(u *locations.FaceGeometryUpdate) { u.DistanceClass = "highway" }, locations.MsgDistanceClass)
		bad(func(u *locations.FaceGeometryUpdate) { u.WidthFt = 0 }, locations.MsgFaceFeet)
		bad(func(u *locations.FaceGeometryUpdate) { u.PixelHeight = 100000 }, locations.MsgFacePixels)
		w.user.Put(path, ok).Expect(t, 403)
		var read locations.Location
		w.admin.Get("/api/admin/faces/"+face.ID).Expect(t, 200).JSON(t, &read)
		if read.Geometry == nil || read.Geometry.PixelHeight != 480 || len(read.Geometry.Corners) != 4 {
			t.Fatalf("admin read: %+v", read.Geometry)
		}
		expectMessage(t, w.admin.Get("/api/admin/faces/nope"), 404, locations.MsgFaceNotFound)
		expectMessage(t, w.admin.Put("/api/admin/faces/nope/geometry", ok), 404, locations.MsgFaceNotFound)
		// The public face list shows the new geometry.
		ls, _ := locationsModule(w).Service().FindFacesByIDs(t.Context(), []string{face.ID})
		if len(ls) != 1 || ls[0].Geometry.DistanceClass != locations.ClassFreeway {
			t.Fatalf("after: %+v", ls)
		}
	})
}

// A user draws at most PreviewRendersPerMinute previews a minute: each leaves a PNG in storage, and
// every face, light and view is a new one. The next answers 429; a preview already drawn is still
// served from the cache.
func TestPreviewRendersAreRateLimited(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		facesByClass(t, w)
		ls, err := locationsModule(w).Service().Locations(t.Context(), locations.LocationQuery{Markets: []string{"Phoenix"}})
		if err != nil {
			t.Fatal(err)
		}
		m := creativesModule(w)
		defer m.SetOCR("", time.Second)()
		up := uploadOne(t, w, w.user, "/upload_creative", namedFile{"ad.jpg", encodeJPEG(t, drawSample(t, 1400, 400, hexRGBA(0x1f6feb), nil, nil))})
		var cr creatives.Creative
		w.user.Post("/api/creatives/", map[string]any{"creative": map[string]string{"url": up.Path}}).Expect(t, 201).JSON(t, &cr)
		var urls []string
		for _, l := range ls {
			if len(l.Geometry.Corners) != 4 {
				continue
			}
			for _, v := range [][2]string{{"day", "photo"}, {"night", "photo"}, {"day", "driveby"}, {"night", "driveby"}} {
				urls = append(urls, fmt.Sprintf("/api/creatives/%s/preview?face=%s&light=%s&view=%s", cr.ID, l.ID, v[0], v[1]))
			}
		}
		if len(urls) <= creatives.PreviewRendersPerMinute {
			t.Fatalf("%d distinct previews, want more than %d", len(urls), creatives.PreviewRendersPerMinute)
		}
		for _, u := range urls[:creatives.PreviewRendersPerMinute] {
			decodePNG(t, w.user.Get(u))
		}
		refused := w.user.Get(urls[creatives.PreviewRendersPerMinute]).Expect(t, 429)
		if !strings.Contains(string(refused.Body), creatives.MsgTooManyRequests) {
			t.Fatalf("the render past the limit: %s", refused.Body)
		}
		decodePNG(t, w.user.Get(urls[0])) // cached: not a render
	})
}
