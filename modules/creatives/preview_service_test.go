package creatives_test

import (
	"bytes"
	"fmt"
	"image/png"
	"testing"
	"time"

	"marquee/modules/creatives"
	"marquee/modules/locations"
	"marquee/platform/apperr"
	"marquee/platform/storage"
	"marquee/platform/testkit"
)

// PreviewPNG, the preview for other modules (the report PDF, the weekly email), is the endpoint's
// PNG from the same renderer and cache: drawn once, stored once, the same bytes either way; it
// checks the creative against the company it is asked for, and takes no user's render budget.
func TestPreviewPNGForOtherModules(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		face := facesByClass(t, w)[locations.ClassFreeway]
		m := creativesModule(w)
		defer m.SetOCR("", time.Second)()
		up := uploadOne(t, w, w.user, "/upload_creative", namedFile{"ad.jpg", encodeJPEG(t, drawSample(t, 1400, 400, hexRGBA(0x1f6feb), nil, nil))})
		var cr creatives.Creative
		w.user.Post("/api/creatives/", map[string]any{"creative": map[string]string{"url": up.Path}}).Expect(t, 201).JSON(t, &cr)
		svc := m.Service()
		req := creatives.PreviewRequest{CompanyID: w.userCompany, CreativeID: cr.ID, FaceID: face.ID, Light: creatives.LightNight, View: creatives.ViewPhoto}
		b, err := svc.PreviewPNG(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil || img.Bounds().Dx() != face.Geometry.PhotoWidth {
			t.Fatalf("preview %v %v", err, img)
		}
		viaHTTP := w.user.Get(fmt.Sprintf("/api/creatives/%s/preview?face=%s&light=night&view=photo", cr.ID, face.ID)).Expect(t, 200).Body
		if !bytes.Equal(viaHTTP, b) {
			t.Fatal("the endpoint and PreviewPNG answer different PNGs")
		}
		var cached int
		if err := w.s.Kernel.Storage.List(t.Context(), "preview/"+cr.ID+"/", func(storage.Object) error { cached++; return nil }); err != nil || cached != 1 {
			t.Fatalf("cached previews = %d (%v), want the one both answered", cached, err)
		}

		for name, bad := range map[string]struct {
			req  creatives.PreviewRequest
			code apperr.Code
		}{
			"another company's creative": {creatives.PreviewRequest{CompanyID: w.ambCompany, CreativeID: cr.ID, FaceID: face.ID, Light: "day", View: "photo"}, apperr.ENOTFOUND},
			"an unknown creative":        {creatives.PreviewRequest{CompanyID: w.userCompany, CreativeID: "nope", FaceID: face.ID, Light: "day", View: "photo"}, apperr.ENOTFOUND},
			"an unknown face":            {creatives.PreviewRequest{CompanyID: w.userCompany, CreativeID: cr.ID, FaceID: "nope", Light: "day", View: "photo"}, apperr.ENOTFOUND},
			"a bad light":                {creatives.PreviewRequest{CompanyID: w.userCompany, CreativeID: cr.ID, FaceID: face.ID, Light: "dusk", View: "photo"}, apperr.EINVALID},
		} {
			if _, err := svc.PreviewPNG(t.Context(), bad.req); apperr.CodeOf(err) != bad.code {
				t.Errorf("%s: %v, want %s", name, err, bad.code)
			}
		}
	})
}
