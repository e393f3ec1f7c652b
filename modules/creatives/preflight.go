package creatives

import (
	"context"
	"encoding/json"
	"image"
	"io"
	"math"
	"os"
	"strings"

	"marquee/modules/creatives/internal/preflight"
	"marquee/modules/creatives/internal/store"
	"marquee/modules/locations"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/imagecheck"
)

// The pre-flight of a creative (issue 29, docs/creatives.md): a builder creative is judged from
// its design, an uploaded one from the analysis made on upload (analyse.go); either against the
// faces asked for, or the reference face.

// toPreflightFaces reads the faces and turns them into the checks' faces. An unknown id is
// EINVALID: the client chose it from a list.
func (s *service) toPreflightFaces(ctx context.Context, faceIDs []string) ([]preflight.Face, error) {
	if len(faceIDs) == 0 {
		return nil, nil
	}
	if len(faceIDs) > MaxPreflightFaces {
		return nil, apperr.Field("face_ids", MsgTooManyFaces)
	}
	seen := map[string]bool{}
	uniq := make([]string, 0, len(faceIDs))
	for _, id := range faceIDs {
		if id = strings.TrimSpace(id); id != "" && !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	ls, err := s.deps.Faces.FindFacesByIDs(ctx, uniq)
	if err != nil {
		return nil, err
	}
	if len(ls) != len(uniq) {
		return nil, apperr.Field("face_ids", MsgUnknownFace)
	}
	byID := make(map[string]locations.Location, len(ls))
	for _, l := range ls {
		byID[l.ID] = l
	}
	out := make([]preflight.Face, 0, len(uniq))
	for _, id := range uniq {
		g := byID[id].Geometry
		if g == nil {
			return nil, apperr.Field("face_ids", MsgUnknownFace)
		}
		out = append(out, preflight.Face{ID: id, WidthFt: g.WidthFt, HeightFt: g.HeightFt, PixelWidth: g.PixelWidth,
			PixelHeight: g.PixelHeight, DistanceClass: g.DistanceClass, ViewingDistanceFt: g.ViewingDistanceFt})
	}
	return out, nil
}

// preflightCreative is POST /api/creatives/preflight with a JSON body: a creative of the caller's
// company (another's answers 404) on the faces asked for.
func (s *service) preflightCreative(ctx context.Context, p *auth.Principal, req PreflightRequest) (*PreflightReport, error) {
	if strings.TrimSpace(req.CreativeID) == "" {
		return nil, apperr.Field("creative_id", MsgPreflightSource)
	}
	faces, err := s.toPreflightFaces(ctx, req.FaceIDs)
	if err != nil {
		return nil, err
	}
	c, err := s.ownCreative(ctx, p, req.CreativeID)
	if err != nil {
		return nil, err
	}
	in, err := s.creativeInput(ctx, c)
	if err != nil {
		return nil, err
	}
	return reportDTO(preflight.Evaluate(in, faces)), nil
}

// creativeInput is the checks' input of a creative: its design, the analysis of its image, or,
// for an image uploaded before the pre-flight existed, an analysis made now (and kept).
func (s *service) creativeInput(ctx context.Context, c *store.Creative) (preflight.Input, error) {
	if in, ok := designInput(c.Design); ok {
		return in, nil
	}
	f, err := s.store.FileByKey(ctx, c.FileKey)
	if err != nil {
		return preflight.Input{}, apperr.Internal(err)
	}
	if in, ok := storedInput(f.PreflightInput); ok {
		return in, nil
	}
	var in preflight.Input
	run := s.uploads.ocr.startOCR(ctx, s.deps.TempDir, image.Point{}) // before the decode, as on upload (ocr.go); the size unknown yet
	defer run.close()
	err = s.withStoredImage(ctx, f, func(img image.Image) error {
		in = analyse(img, run)
		return nil
	})
	if err != nil {
		return preflight.Input{}, err
	}
	if b, err := json.Marshal(in); err == nil {
		if err := s.store.SetPreflightInput(ctx, f.Key, string(b)); err != nil {
			return preflight.Input{}, apperr.Internal(err)
		}
	}
	return in, nil
}

func designInput(design string) (preflight.Input, bool) {
	if design == "" {
		return preflight.Input{}, false
	}
	var d preflight.Design
	if json.Unmarshal([]byte(design), &d) != nil {
		return preflight.Input{}, false
	}
	return preflight.FromDesign(d), true
}

func storedInput(s string) (preflight.Input, bool) {
	if s == "" {
		return preflight.Input{}, false
	}
	var in preflight.Input
	if json.Unmarshal([]byte(s), &in) != nil {
		return preflight.Input{}, false
	}
	return in, true
}

// creativeReport is the report a creative DTO carries: on the reference face, or nil when the
// creative has neither a design nor an analysis.
func creativeReport(c *store.Creative, f *store.File) *PreflightReport {
	if in, ok := designInput(c.Design); ok {
		return reportDTO(preflight.Evaluate(in, nil))
	}
	if f != nil {
		if in, ok := storedInput(f.PreflightInput); ok {
			return reportDTO(preflight.Evaluate(in, nil))
		}
	}
	return nil
}

// fileReport is the report of an uploaded file's analysis on the reference face, or nil.
func fileReport(f *store.File) *PreflightReport {
	if in, ok := storedInput(f.PreflightInput); ok {
		return reportDTO(preflight.Evaluate(in, nil))
	}
	return nil
}

// preflightUpload is POST /api/creatives/preflight with an image that is checked and not kept.
func (s *service) preflightUpload(ctx context.Context, staged *staged, faceIDs []string) (*PreflightReport, error) {
	faces, err := s.toPreflightFaces(ctx, faceIDs)
	if err != nil {
		return nil, err
	}
	if staged.analysis == nil {
		return nil, apperr.New(apperr.EUNSUPPORTED, MsgCorruptImage)
	}
	return reportDTO(preflight.Evaluate(*staged.analysis, faces)), nil
}

// validDesign checks a builder design at the boundary and answers it as JSON for the row.
func validDesign(d *Design) (string, error) {
	if d.Width < 1 || d.Height < 1 || d.Width > MaxImageSide || d.Height > MaxImageSide || len(d.Elements) > MaxDesignElements {
		return "", apperr.Field("design", MsgBadDesign)
	}
	if _, ok := preflight.ParseHex(d.Background); !ok {
		return "", apperr.Field("design", MsgBadDesign)
	}
	finite := func(xs ...float64) bool {
		for _, x := range xs {
			if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e6 {
				return false
			}
		}
		return true
	}
	pd := preflight.Design{Width: d.Width, Height: d.Height, Background: d.Background, Elements: make([]preflight.Element, 0, len(d.Elements))}
	for _, e := range d.Elements {
		switch e.Kind {
		case preflight.ElementText, preflight.ElementShape:
			if _, ok := preflight.ParseHex(e.Fill); !ok {
				return "", apperr.Field("design", MsgBadDesign)
			}
		case preflight.ElementImage:
		default:
			return "", apperr.Field("design", MsgBadDesign)
		}
		if !finite(e.X, e.Y, e.Width, e.Height, e.FontSize) || e.Width < 0 || e.Height < 0 || e.FontSize < 0 || len(e.Text) > MaxDesignText || len(e.FontFamily) > 100 {
			return "", apperr.Field("design", MsgBadDesign)
		}
		pd.Elements = append(pd.Elements, preflight.Element{Kind: e.Kind, X: e.X, Y: e.Y, Width: e.Width, Height: e.Height,
			Text: e.Text, FontSize: e.FontSize, FontFamily: e.FontFamily, Fill: e.Fill})
	}
	b, err := json.Marshal(pd)
	if err != nil {
		return "", apperr.Internal(err)
	}
	return string(b), nil
}

func checksDTO(cs []preflight.Check) []PreflightCheck {
	out := make([]PreflightCheck, len(cs))
	for i, c := range cs {
		out[i] = PreflightCheck(c)
	}
	return out
}

func reportDTO(r preflight.Report) *PreflightReport {
	out := &PreflightReport{Score: r.Score, Checks: checksDTO(r.Checks), Faces: make([]PreflightFace, len(r.Faces))}
	for i, f := range r.Faces {
		out.Faces[i] = PreflightFace{FaceID: f.FaceID, Score: f.Score, Checks: checksDTO(f.Checks)}
	}
	return out
}

// withStoredImage decodes a stored image (its web copy for a TIFF) within the decode budget and
// hands it to fn while the budget is held.
func (s *service) withStoredImage(ctx context.Context, f *store.File, fn func(image.Image) error) error {
	key, contentType := f.Key, f.ContentType
	if f.DisplayKey != "" {
		key, contentType = f.DisplayKey, "image/jpeg"
	}
	if !decodableImages[contentType] {
		return apperr.New(apperr.EUNSUPPORTED, MsgCorruptImage)
	}
	rc, _, err := s.deps.Storage.Get(ctx, key)
	if err != nil {
		return err
	}
	defer rc.Close()
	tmp, err := os.CreateTemp(s.deps.TempDir, stagedUploadPrefix+"*")
	if err != nil {
		return apperr.Internal(err)
	}
	defer func() { _ = tmp.Close(); _ = os.Remove(tmp.Name()) }()
	if _, err := io.Copy(tmp, io.LimitReader(rc, MaxFileBytes+1)); err != nil {
		return apperr.Internal(err)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return apperr.Internal(err)
	}
	cfg, err := imagecheck.Header(tmp, contentType)
	if err != nil {
		return err
	}
	cost := imagecheck.DecodeCost(tmp, contentType, cfg)
	if cost > s.deps.Limits.DecodeMaxBytes {
		return apperr.New(apperr.EUNSUPPORTED, MsgImageTooHeavy)
	}
	if err := s.uploads.decodes.Acquire(ctx, cost); err != nil {
		return apperr.As(err)
	}
	defer s.uploads.decodes.Release(cost)
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return apperr.Internal(err)
	}
	img, err := imagecheck.Decode(tmp, contentType)
	if err != nil {
		return err
	}
	return fn(img)
}
