package creatives_test

import (
	"bytes"
	"fmt"
	"image"
	"net/url"
	"strings"
	"testing"

	"marquee/modules/creatives"
	"marquee/platform/testkit"
)

func imagePath(key string) string { return "/creative/image?image=" + url.QueryEscape(key) }

func TestCreativeUploadStoresAndServes(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		up := uploadOne(t, w, w.user, "/upload_creative", namedFile{"spring sale.jpg", jpegOf(t, 1400, 400)})
		if !strings.HasPrefix(up.Path, "creative/"+w.userCompany+"/") || !strings.HasSuffix(up.Filename, ".jpg") {
			t.Fatalf("upload = %+v", up)
		}
		expectNothingStored(t, w, 2, 1) // original and converted_thumb

		res := w.user.Get(imagePath(up.Path)).Expect(t, 200)
		if res.Header.Get("Content-Type") != "image/jpeg" || res.Header.Get("X-Content-Type-Options") != "nosniff" ||
			!strings.HasPrefix(res.Header.Get("Cache-Control"), "private") {
			t.Fatalf("image headers = %v", res.Header)
		}
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(res.Body)); err != nil || cfg.Width != 1400 {
			t.Fatalf("served image: %v %+v", err, cfg)
		}
		thumb := w.user.Get(imagePath(up.Path)+"&thumb=1").Expect(t, 200)
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(thumb.Body)); err != nil || cfg.Width != creatives.ThumbMaxSide || cfg.Height != 91 {
			t.Fatalf("thumb: %v %+v", err, cfg)
		}
		// Another company, and an anonymous caller, cannot load it.
		expectMessage(t, w.amb.Get(imagePath(up.Path)), 404, creatives.MsgFileNotFound)
		w.s.Client(t).Get(imagePath(up.Path)).Expect(t, 401)
		// The admin can.
		w.admin.Get(imagePath(up.Path)).Expect(t, 200)
		// A creative is not a proof.
		w.user.Get("/proof/image?image="+url.QueryEscape(up.Path)).Expect(t, 404)

		// The face's ad size, when given, must match.
		expectMessage(t, upload(t, w, w.user, "/upload_creative?width=1400&height=400", "file", namedFile{"a.jpg", jpegOf(t, 640, 480)}),
			422, creatives.MsgCreativeSize)
		uploadOne(t, w, w.user, "/upload_creative?width=640&height=480", namedFile{"b.jpg", jpegOf(t, 640, 480)})
		expectMessage(t, upload(t, w, w.user, "/upload_creative?width=x&height=1", "file", namedFile{"a.jpg", jpegOf(t, 64, 48)}),
			400, creatives.MsgBadSize)
	})
}

func TestTIFFCreativeGetsAWebCopy(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		up := uploadOne(t, w, w.user, "/upload_creative", namedFile{"board.tif", tiffOf(t, 800, 200)})
		if !strings.HasSuffix(up.Path, ".tiff") {
			t.Fatalf("path = %s", up.Path)
		}
		expectNothingStored(t, w, 3, 1) // original, thumb, web copy
		web := w.user.Get(imagePath(up.Path)).Expect(t, 200)
		if web.Header.Get("Content-Type") != "image/jpeg" {
			t.Fatalf("a TIFF is shown as %s", web.Header.Get("Content-Type"))
		}
		orig := w.user.Get(imagePath(up.Path)+"&original=1").Expect(t, 200)
		if orig.Header.Get("Content-Type") != "image/tiff" {
			t.Fatalf("original = %s", orig.Header.Get("Content-Type"))
		}
	})
}

// Each bad input gets a clear message and leaves no object and no row behind.
func TestBadUploadsLeaveNothing(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		cases := []struct {
			name, path, field string
			files             []namedFile
			status            int
			msg               string
		}{
			{"renamed exe", "/upload_creative", "file", []namedFile{{"photo.jpg", exeBytes}}, 422, creatives.MsgCreativeType},
			{"png as creative", "/upload_creative", "file", []namedFile{{"photo.jpg", pngOf(t, 10, 10)}}, 422, creatives.MsgCreativeType},
			{"zero bytes", "/upload_creative", "file", []namedFile{{"empty.jpg", nil}}, 400, creatives.MsgEmptyFile},
			{"11 MB creative", "/upload_creative", "file", []namedFile{{"big.jpg", append(jpegOf(t, 8, 8), make([]byte, 11<<20)...)}}, 413, creatives.MsgCreativeTooLarge},
			{"corrupt image", "/upload_creative", "file", []namedFile{{"cut.jpg", jpegOf(t, 400, 400)[:600]}}, 422, creatives.MsgCorruptImage},
			{"pixel flood", "/upload_temp", "files", []namedFile{{"flood.png", pixelFlood(t)}}, 422, creatives.MsgImageTooBig},
			{"two files on a one-file kind", "/upload_creative", "file", []namedFile{{"a.jpg", jpegOf(t, 8, 8)}, {"b.jpg", jpegOf(t, 8, 8)}}, 400, creatives.MsgOneFile},
			{"no file", "/upload_creative", "other", []namedFile{{"a.jpg", jpegOf(t, 8, 8)}}, 400, creatives.MsgNoFile},
			{"builder png of the wrong size", "/upload_creative_image", "file", []namedFile{{"ad.png", pngOf(t, 140, 40)}}, 422, creatives.MsgBuilderType},
			{"builder jpeg", "/upload_creative_image", "file", []namedFile{{"ad.png", jpegOf(t, 1400, 400)}}, 422, creatives.MsgBuilderType},
			{"svg in temp", "/upload_temp", "files", []namedFile{{"x.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)}}, 422, creatives.MsgImageType},
			// A good file before a bad one: the whole upload is refused, the good one is not kept.
			{"good then corrupt", "/upload_creative_library", "files", []namedFile{{"ok.jpg", jpegOf(t, 20, 20)}, {"bad.jpg", jpegOf(t, 300, 300)[:500]}}, 422, creatives.MsgCorruptImage},
		}
		var many []namedFile
		for i := range creatives.MaxFilesPerUpload + 1 {
			many = append(many, namedFile{fmt.Sprintf("f%d.jpg", i), jpegOf(t, 16, 16)})
		}
		cases = append(cases, struct {
			name, path, field string
			files             []namedFile
			status            int
			msg               string
		}{"21 files at once", "/upload_creative_library", "files", many, 400, creatives.MsgTooManyFiles})
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				expectMessage(t, upload(t, w, w.user, tc.path, tc.field, tc.files...), tc.status, tc.msg)
				expectNothingStored(t, w, 0, 0)
			})
		}
		// Exactly 20 is fine, and answers a list.
		var list []creatives.UploadedFile
		upload(t, w, w.user, "/upload_creative_library", "files", many[:20]...).Expect(t, 200).JSON(t, &list)
		if len(list) != 20 || list[19].Originalname != "f19.jpg" {
			t.Fatalf("library upload = %d items", len(list))
		}
		expectNothingStored(t, w, 40, 20)
	})
}

func TestContentAndReportUploads(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		// Content uploads are content management: admins only (A §6).
		upload(t, w, w.user, "/upload_file?type=document", "file", namedFile{"a.pdf", tinyPDF}).Expect(t, 403)
		doc := uploadOne(t, w, w.admin, "/upload_file?type=document", namedFile{"guide.pdf", tinyPDF})
		if !strings.HasSuffix(doc.Path, ".pdf") {
			t.Fatalf("pdf path = %s", doc.Path)
		}
		expectMessage(t, upload(t, w, w.admin, "/upload_file?type=image", "file", namedFile{"guide.pdf", tinyPDF}), 422, creatives.MsgContentTypeKind)
		expectMessage(t, upload(t, w, w.admin, "/upload_file", "file", namedFile{"setup.doc", exeBytes}), 422, creatives.MsgContentType)
		upload(t, w, w.admin, "/upload_file?type=photo", "file", namedFile{"a.jpg", jpegOf(t, 8, 8)}).Expect(t, 400)
		uploadOne(t, w, w.admin, "/upload_file?type=image", namedFile{"a.png", pngOf(t, 30, 30)})
		expectNothingStored(t, w, 3, 2) // the pdf; the png and its thumb

		report := uploadOne(t, w, w.admin, "/upload_report", namedFile{"week.pdf", tinyPDF})
		if !strings.HasPrefix(report.Path, "report/") {
			t.Fatalf("report = %+v", report)
		}
		expectMessage(t, upload(t, w, w.admin, "/upload_report", "file", namedFile{"week.pdf", jpegOf(t, 8, 8)}), 422, creatives.MsgReportType)
		expectMessage(t, upload(t, w, w.admin, "/upload_report", "file", namedFile{"big.pdf", append(append([]byte{}, tinyPDF...), make([]byte, creatives.MaxReportBytes)...)}),
			413, creatives.MsgReportTooLarge)
		upload(t, w, w.user, "/upload_report", "file", namedFile{"week.pdf", tinyPDF}).Expect(t, 403)

		builder := uploadOne(t, w, w.user, "/upload_creative_image", namedFile{"ad.png", pngOf(t, 1400, 400)})
		if !strings.HasPrefix(builder.Path, "creative_image/"+w.userCompany+"/") {
			t.Fatalf("builder = %+v", builder)
		}
	})
}
