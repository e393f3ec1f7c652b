package reports

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jhillyerd/enmime/v2"
	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"marquee/modules/creatives"
	"marquee/modules/locations"
	"marquee/platform/testkit"
)

func init() { model.ConfigPath = "disable" } // pdfcpu reads no configuration from the home folder

// pdfImage is an image of a PDF as pdfcpu (an independent PDF implementation) extracts it.
type pdfImage struct {
	page int
	img  image.Image
	kind string
}

// pdfImages extracts and decodes every image of a PDF; an image that does not decode fails.
func pdfImages(t *testing.T, b []byte) []pdfImage {
	t.Helper()
	var out []pdfImage
	err := api.ExtractImages(bytes.NewReader(b), nil, func(img model.Image, _ bool, _ int) error {
		var dec image.Image
		var err error
		switch img.FileType {
		case "jpg":
			dec, err = jpeg.Decode(img)
		case "png":
			dec, err = png.Decode(img)
		default:
			err = fmt.Errorf("unexpected image type %q", img.FileType)
		}
		if err != nil {
			return fmt.Errorf("image %s on page %d: %w", img.Name, img.PageNr, err)
		}
		out = append(out, pdfImage{page: img.PageNr, img: dec, kind: img.FileType})
		return nil
	}, nil)
	if err != nil {
		t.Fatalf("pdfcpu: %v", err)
	}
	return out
}

// blockMeans averages an image over an n x m grid of blocks (R, G, B per block), so two copies of
// a picture at different sizes and encodings compare.
func blockMeans(img image.Image, n, m int) []float64 {
	b := img.Bounds()
	out := make([]float64, 0, n*m*3)
	for by := range m {
		for bx := range n {
			var sum [3]float64
			cnt := 0.0
			for y := b.Min.Y + by*b.Dy()/m; y < b.Min.Y+(by+1)*b.Dy()/m; y++ {
				for x := b.Min.X + bx*b.Dx()/n; x < b.Min.X+(bx+1)*b.Dx()/n; x++ {
					r, g, bl, _ := img.At(x, y).RGBA()
					sum[0], sum[1], sum[2] = sum[0]+float64(r>>8), sum[1]+float64(g>>8), sum[2]+float64(bl>>8)
					cnt++
				}
			}
			for k := range sum {
				out = append(out, sum[k]/max(cnt, 1))
			}
		}
	}
	return out
}

// meanDiff is the mean absolute difference of two block grids, in levels of 255.
func meanDiff(a, b []float64) float64 {
	var d float64
	for i := range a {
		d += math.Abs(a[i] - b[i])
	}
	return d / float64(len(a))
}

// setCreative gives a campaign a fresh creative through HTTP and returns it.
func (f *fixture) setCreative(t *testing.T, campaignID string) creatives.Creative {
	t.Helper()
	var up creatives.UploadedFile
	upload(t, f.s, f.adv, "/upload_creative", namedFile{"board.jpg", jpegOf(t, 700, 200)}).Expect(t, 200).JSON(t, &up)
	var cr creatives.Creative
	f.adv.Post("/api/creatives/", creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{URL: up.Path, Name: "Board"}}).Expect(t, 201).JSON(t, &cr)
	f.adv.Put("/api/campaigns/"+campaignID+"/creative", map[string]any{"creative_id": cr.ID}).Expect(t, 200)
	return cr
}

// clearCorners takes the screen's corners off a face's photo, as an admin does in the face editor.
func (f *fixture) clearCorners(t *testing.T, faceID string) {
	t.Helper()
	var face locations.Location
	f.admin.Get("/api/admin/faces/"+faceID).Expect(t, 200).JSON(t, &face)
	g := face.Geometry
	f.admin.Put("/api/admin/faces/"+faceID+"/geometry", locations.FaceGeometryUpdate{WidthFt: g.WidthFt, HeightFt: g.HeightFt,
		PixelWidth: g.PixelWidth, PixelHeight: g.PixelHeight, DistanceClass: g.DistanceClass, Corners: []locations.Point{}}).Expect(t, 200)
}

// The report PDF shows the campaign's creative on its faces by day and night: the page is there,
// every image of the PDF decodes (pdfcpu), each preview's pixels are those of the preview the
// creatives endpoint answers for that face and light, and the face whose photo has no corners is
// named with why.
func TestReportShowsTheAdOnTheFaces(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		summer := f.camps["Summer Sale"]
		cr := f.setCreative(t, summer.ID)
		weeks, err := f.m.svc.deps.Campaigns.FindWeeks(t.Context(), summer.ID)
		if err != nil {
			t.Fatal(err)
		}
		faceIDs, names := []string{}, map[string]string{}
		for _, w := range weeks {
			if names[w.ProductID] == "" {
				faceIDs = append(faceIDs, w.ProductID)
				names[w.ProductID] = w.Product.LocationName
			}
		}
		if len(faceIDs) != 3 {
			t.Fatalf("faces = %d", len(faceIDs))
		}
		noCorners := faceIDs[2]
		f.clearCorners(t, noCorners)

		r := f.generate(t, f.adv, ReportRequest{CampaignID: summer.ID, WeekIDs: f.weekIDs(t, f.adv, summer.ID)})
		res := f.adv.Get("/api/reports/"+r.ID+"/file").Expect(t, 200)
		if out := os.Getenv("REPORTS_PREVIEW_PDF"); out != "" && dialect == testkit.Dialects()[0] {
			_ = os.WriteFile(out, res.Body, 0o644) // to look at: pdftoppm -png -r 80 (docs/reports.md)
		}
		if len(res.Body) > 3<<20 {
			t.Errorf("the PDF is %d KB", len(res.Body)>>10)
		}
		pages, text := pdfText(t, res.Body)
		for _, want := range []string{"Your ad on the faces", "Shown: 2 faces of this report's 3 faces", "Faces without a preview",
			"the screen's corners are not marked", names[noCorners]} {
			if !strings.Contains(text, want) {
				t.Fatalf("the PDF lacks %q:\n%s", want, text)
			}
		}

		// The previews as the endpoint answers them (the same cache), by face and light.
		type key struct{ face, light string }
		want := map[key][]float64{}
		for _, id := range faceIDs[:2] {
			for _, light := range []string{creatives.LightDay, creatives.LightNight} {
				b := f.adv.Get("/api/creatives/"+cr.ID+"/preview?face="+id+"&light="+light+"&view=photo").Expect(t, 200).Body
				img, err := png.Decode(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
				want[key{id, light}] = blockMeans(img, 48, 30)
			}
		}
		f.adv.Get("/api/creatives/"+cr.ID+"/preview?face="+noCorners+"&light=day&view=photo").Expect(t, 400)

		imgs := pdfImages(t, res.Body)
		matched := map[key]bool{}
		for _, im := range imgs {
			if im.page != pages || im.kind != "jpg" || im.img.Bounds().Dx() != previewPDFWidth {
				continue // the proofs and the creative, decoded above
			}
			got := blockMeans(im.img, 48, 30)
			best, bestD, second := key{}, math.Inf(1), math.Inf(1)
			for k, w := range want {
				d := meanDiff(got, w)
				if d < bestD {
					best, bestD, second = k, d, bestD
				} else if d < second {
					second = d
				}
			}
			// JPEG and scaling move a block's mean by a level or two; another face or light
			// is tens of levels away.
			if bestD > 3 || second < 3*bestD || matched[best] {
				t.Fatalf("a preview of the PDF matches %v at %.2f levels (next %.2f, already matched %v)", best, bestD, second, matched[best])
			}
			matched[best] = true
		}
		if len(matched) != 4 {
			t.Fatalf("previews in the PDF: %d, want 2 faces x day and night (%d images on %d pages)", len(matched), len(imgs), pages)
		}

		// Past the cap, a face with a photo is counted, not drawn.
		f.m.svc.previewFaces = 1
		r = f.generate(t, f.adv, ReportRequest{CampaignID: summer.ID, WeekIDs: f.weekIDs(t, f.adv, summer.ID)})
		_, text = pdfText(t, f.adv.Get("/api/reports/"+r.ID+"/file").Expect(t, 200).Body)
		for _, want := range []string{"Shown: 1 face of this report's 3 faces", "1 other face with a photo not shown here."} {
			if !strings.Contains(text, want) {
				t.Fatalf("the PDF lacks %q:\n%s", want, text)
			}
		}
	})
}

// failingPreviews is the real renderer with a fault: every preview fails (a creative whose image
// is lost, a storage outage).
type failingPreviews struct{}

func (failingPreviews) PreviewPNG(context.Context, creatives.PreviewRequest) ([]byte, error) {
	return nil, errors.New("the renderer is down")
}

// The weekly email shows the ad on the face that delivered the most: enmime (an independent MIME
// parser) finds a cid in the HTML that resolves to an image/png part that decodes, and the text
// part says what it said before. When the preview cannot be drawn, the report, its run and the
// email are made all the same, without the picture.
func TestWeeklyEmailShowsTheAdOnTheFace(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		holiday := f.camps["Holiday Coffee Push"]
		f.setCreative(t, holiday.ID)
		f.adv.Put("/api/reports/schedules/"+holiday.ID, ScheduleRequest{Enabled: true}).Expect(t, 200)
		f.s.Clock.Advance(24 * time.Hour) // Monday
		if res, err := f.m.svc.RunWeekly(t.Context()); err != nil || res.Made != 1 {
			t.Fatalf("weekly: %+v %v", res, err)
		}
		env := weeklyEnvelope(t, f.s.DeliverMail(t), 1)
		if len(env.Inlines) != 1 {
			t.Fatalf("inline parts = %d", len(env.Inlines))
		}
		p := env.Inlines[0]
		if p.ContentType != "image/png" || p.ContentID == "" || !strings.Contains(env.HTML, `src="cid:`+p.ContentID+`"`) {
			t.Fatalf("part %s %q; HTML:\n%s", p.ContentType, p.ContentID, env.HTML)
		}
		img, err := png.Decode(bytes.NewReader(p.Content))
		if err != nil || img.Bounds().Dx() != emailPreviewWidth {
			t.Fatalf("the picture: %v %v", err, img)
		}
		text := env.Text

		// Next Monday, with the renderer failing: the email goes, without a picture.
		f.m.svc.deps.Previews = failingPreviews{}
		f.s.Clock.Advance(7 * 24 * time.Hour)
		if res, err := f.m.svc.RunWeekly(t.Context()); err != nil || res.Made != 1 {
			t.Fatalf("weekly without previews: %+v %v", res, err)
		}
		env = weeklyEnvelope(t, f.s.DeliverMail(t), 2)
		if len(env.Inlines) != 0 || strings.Contains(env.HTML, "cid:") || !strings.Contains(env.HTML, "Open the report") {
			t.Fatalf("without a preview: %d inline parts\n%s", len(env.Inlines), env.HTML)
		}
		// The text part is the same email's, with or without the picture (only the week changed).
		if strings.Count(env.Text, "\n") != strings.Count(text, "\n") || !strings.Contains(env.Text, "Open it here: ") {
			t.Fatalf("text part:\n%s\nbefore:\n%s", env.Text, text)
		}
	})
}

// weeklyEnvelope parses the weekly report emails among raw messages (oldest first) with enmime,
// checks there are want of them, and returns the newest.
func weeklyEnvelope(t *testing.T, raws []string, want int) *enmime.Envelope {
	t.Helper()
	var found *enmime.Envelope
	n := 0
	for _, raw := range raws {
		env, err := enmime.ReadEnvelope(strings.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range env.Errors {
			if e.Severe {
				t.Fatalf("enmime: %v", e)
			}
		}
		if strings.Contains(env.GetHeader("Subject"), "weekly report for Holiday Coffee Push") {
			found, n = env, n+1
		}
	}
	if n != want {
		t.Fatalf("%d weekly emails among %d, want %d", n, len(raws), want)
	}
	return found
}
