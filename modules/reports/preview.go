package reports

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"image/png"
	"sort"

	xdraw "golang.org/x/image/draw"

	"marquee/modules/campaigns"
	"marquee/modules/creatives"
)

// The in-situ preview in the report and the weekly email (issue 29: "the server renders the same
// preview as a PNG for emails and the PDF report"; docs/reports.md "Your ad on the faces"). The
// pictures come from the creatives module's renderer and cache (Deps.Previews); this file only
// chooses the faces and sizes the pictures for where they go.

const (
	// maxPreviewFaces bounds the faces the PDF shows on the face: 2 pictures each, so 8 renders
	// at most on a cold cache (two pages of the PDF). With 6 (12 renders) a campaign's first
	// report took 2.4 to 3.0 s at load 6 on SQLite, against its 3 s target
	// (BenchmarkReportGenerate, docs/performance.md).
	maxPreviewFaces = 4
	// previewPDFWidth is each picture's width in the PDF: a half-page box of about 90 mm at
	// about 220 dpi. The preview is the face's photo size (960 px for a demo photo, up to 1600).
	previewPDFWidth = 800
	// previewJPEGQuality: a photo in a PDF is a JPEG; fpdf would embed a PNG losslessly (Flate),
	// which for a photo is several times larger.
	previewJPEGQuality = 85
	// emailPreviewWidth is the email's picture: the letter's column (mail.Picture shows 512 CSS
	// px), as a PNG well under mail.MaxInlineBytes.
	emailPreviewWidth = 512
	emailPreviewCID   = "preview@marquee"
)

// Why a face has no picture (the page names it rather than skip it).
const (
	previewNoPhoto   = "No preview: this face has no photo yet."
	previewNoCorners = "No preview: the screen's corners are not marked on this face's photo yet."
	previewFailed    = "The preview could not be drawn for this report."
)

// facePreview is one face of the "Your ad on the faces" page: its day and night pictures (JPEG),
// or why it has none.
type facePreview struct {
	faceID, location, market, face string
	day, night                     []byte
	note                           string
}

// previewSet is what the report shows on the faces.
type previewSet struct {
	shown   []facePreview // at most maxPreviewFaces, the faces that delivered the most first
	missing []facePreview // faces without a photo or corners, named with why
	others  int           // faces with a photo past the cap
	total   int           // faces of the report
	// unavailable says the faces could not be read: the page says so instead of naming them.
	unavailable bool
	noCreative  bool
	// email is the first shown face's day picture for the weekly email (PNG), when asked for.
	email *emailPicture
}

// emailPicture is the preview carried by an email.
type emailPicture struct {
	png           []byte
	width, height int
	caption       string
}

// facePreviews chooses the faces and draws them: the faces with a photo and screen corners, those
// that delivered the most impressions first, up to maxPreviewFaces, each with the creative shown
// most on it. A face without a photo is named with why; a preview that cannot be drawn leaves a
// note: a report never fails for a picture.
func (s *service) facePreviews(ctx context.Context, c *campaigns.Campaign, weeks []campaigns.Week, figs figureSet, forEmail bool) *previewSet {
	set := &previewSet{total: len(figs.Faces)}
	// The creative shown most on each face (the campaign's when a week names none).
	shown := map[string]map[string]int{}
	for i := range weeks {
		id := weeks[i].CreativeID
		if id == "" {
			id = c.CreativeID
		}
		if id == "" {
			continue
		}
		if shown[weeks[i].ProductID] == nil {
			shown[weeks[i].ProductID] = map[string]int{}
		}
		shown[weeks[i].ProductID][id]++
	}
	if len(shown) == 0 {
		set.noCreative = true
		return set
	}
	faces := append([]FaceFigures(nil), figs.Faces...)
	sort.SliceStable(faces, func(i, j int) bool {
		if faces[i].Delivered != faces[j].Delivered {
			return faces[i].Delivered > faces[j].Delivered
		}
		return faces[i].LocationName+faces[i].Face < faces[j].LocationName+faces[j].Face
	})
	ids := make([]string, len(faces))
	for i := range faces {
		ids[i] = faces[i].FaceID
	}
	locs, err := s.deps.Faces.FindFacesByIDs(ctx, ids)
	if err != nil {
		s.deps.Log.WarnContext(ctx, "reports: faces for the previews", "campaign", c.ID, "err", err)
		set.unavailable = true
		return set
	}
	hasPhoto, hasCorners := map[string]bool{}, map[string]bool{}
	for _, l := range locs {
		if l.Geometry != nil && l.Geometry.Photo != "" {
			hasPhoto[l.ID] = true
			hasCorners[l.ID] = len(l.Geometry.Corners) == 4
		}
	}
	// The faces first, then their pictures, one at a time: drawing two at once made a cold
	// report no faster at load 5 on the 2-core machine and raised its peak heap from 51 to 76 MB
	// (target < 64 MB; BenchmarkReportGenerate, docs/performance.md).
	type job struct {
		face       int
		light      string
		creativeID string
	}
	var todo []job
	for _, f := range faces {
		fp := facePreview{faceID: f.FaceID, location: f.LocationName, market: f.Market, face: f.Face}
		creativeID := mostShown(shown[f.FaceID])
		switch {
		case !hasPhoto[f.FaceID]:
			fp.note = previewNoPhoto
			set.missing = append(set.missing, fp)
			continue
		case !hasCorners[f.FaceID]:
			fp.note = previewNoCorners
			set.missing = append(set.missing, fp)
			continue
		case len(set.shown) == s.previewFaces || creativeID == "":
			set.others++
			continue
		}
		set.shown = append(set.shown, fp)
		for _, light := range []string{creatives.LightDay, creatives.LightNight} {
			todo = append(todo, job{face: len(set.shown) - 1, light: light, creativeID: creativeID})
		}
	}
	pictures := make([][]byte, len(todo))
	failed := make([]error, len(todo))
	var emailPNG []byte
	for i, j := range todo {
		b, err := s.deps.Previews.PreviewPNG(ctx, creatives.PreviewRequest{CompanyID: c.CompanyID, CreativeID: j.creativeID,
			FaceID: set.shown[j.face].faceID, Light: j.light, View: creatives.ViewPhoto})
		if err == nil && forEmail && i == 0 { // the first shown face's day picture
			emailPNG = b
		}
		if err == nil {
			b, err = pdfPicture(b)
		}
		pictures[i], failed[i] = b, err
	}
	for i, j := range todo {
		fp := &set.shown[j.face]
		switch {
		case fp.note != "":
		case failed[i] != nil:
			s.deps.Log.WarnContext(ctx, "reports: preview", "campaign", c.ID, "face", fp.faceID, "light", j.light, "err", failed[i])
			fp.day, fp.night, fp.note = nil, nil, previewFailed
		case j.light == creatives.LightDay:
			fp.day = pictures[i]
		default:
			fp.night = pictures[i]
		}
	}
	if emailPNG != nil && set.shown[0].note == "" {
		set.email = emailPreview(emailPNG, set.shown[0].location+" | "+set.shown[0].face)
	}
	return set
}

// mostShown is the creative with the most face-weeks (ties: the smaller id, so it is stable).
func mostShown(count map[string]int) string {
	best := ""
	for id, n := range count {
		if best == "" || n > count[best] || (n == count[best] && id < best) {
			best = id
		}
	}
	return best
}

// scaledTo decodes a preview PNG and scales it to width (never up).
func scaledTo(pngBytes []byte, width int) (image.Image, error) {
	img, err := png.Decode(bytes.NewReader(pngBytes))
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	if b.Dx() <= width {
		return img, nil
	}
	dst := image.NewRGBA(image.Rect(0, 0, width, max(1, b.Dy()*width/b.Dx())))
	// ApproxBiLinear, not a kernel (CatmullRom, BiLinear): a kernel scaler allocates a float
	// buffer of the destination's width by the source's height (15 MB for a 960 x 600 preview
	// to 800 px), and a report scales up to 13 of them: BenchmarkReportGenerate's
	// sqlite-previews run went from 80 to 35 MB of peak heap (target < 64 MB).
	xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, xdraw.Src, nil)
	return dst, nil
}

// pdfPicture is the preview as the PDF embeds it: a JPEG previewPDFWidth wide.
func pdfPicture(pngBytes []byte) ([]byte, error) {
	img, err := scaledTo(pngBytes, previewPDFWidth)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := jpeg.Encode(&out, img, &jpeg.Options{Quality: previewJPEGQuality}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// emailPreview is the preview as the weekly email carries it, or nil when it cannot be made.
func emailPreview(pngBytes []byte, caption string) *emailPicture {
	img, err := scaledTo(pngBytes, emailPreviewWidth)
	if err != nil {
		return nil
	}
	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, img); err != nil {
		return nil
	}
	return &emailPicture{png: out.Bytes(), width: img.Bounds().Dx(), height: img.Bounds().Dy(), caption: caption}
}
