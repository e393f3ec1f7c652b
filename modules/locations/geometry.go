package locations

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"

	"marquee/modules/locations/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/db"
)

// AuditFaceGeometry is the audit action of an admin's change of a face's geometry.
const AuditFaceGeometry = "face.geometry"

// toGeometry is the DTO of a face row's geometry; a class it does not know has no distance.
func toGeometry(g store.FaceGeometry) FaceGeometry {
	dc := DistanceClasses[g.DistanceClass]
	out := FaceGeometry{WidthFt: g.WidthFt, HeightFt: g.HeightFt, PixelWidth: g.PixelWidth, PixelHeight: g.PixelHeight,
		DistanceClass: g.DistanceClass, ViewingDistanceFt: dc.DistanceFt, SpeedMph: dc.SpeedMph,
		Photo: g.Photo, PhotoWidth: g.PhotoWidth, PhotoHeight: g.PhotoHeight, Corners: []Point{}}
	if g.PhotoCorners != "" {
		var pts []Point
		if json.Unmarshal([]byte(g.PhotoCorners), &pts) == nil && len(pts) == 4 {
			out.Corners = pts
		}
	}
	return out
}

// updateFaceGeometry is PUT /api/admin/faces/{id}/geometry: an admin sets a face's size, pixels,
// class and photo corners, audited in the same transaction (the route admits admins only; the audit
// entry names the actor from the context).
func (s *service) updateFaceGeometry(ctx context.Context, _ *auth.Principal, id string, req FaceGeometryUpdate) (Location, error) {
	if req.WidthFt < 1 || req.HeightFt < 1 || req.WidthFt > MaxFaceFeet || req.HeightFt > MaxFaceFeet || math.IsNaN(req.WidthFt) || math.IsNaN(req.HeightFt) {
		return Location{}, apperr.Field("width_ft", MsgFaceFeet)
	}
	if req.PixelWidth < 1 || req.PixelHeight < 1 || req.PixelWidth > MaxFacePixels || req.PixelHeight > MaxFacePixels {
		return Location{}, apperr.Field("pixel_width", MsgFacePixels)
	}
	if _, ok := DistanceClasses[req.DistanceClass]; !ok {
		return Location{}, apperr.Field("distance_class", MsgDistanceClass)
	}
	var out Location
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		f, err := s.faceToEdit(ctx, id)
		if err != nil {
			return err
		}
		corners := ""
		if len(req.Corners) > 0 {
			if f.Photo == "" {
				return apperr.Field("corners", MsgNoPhoto)
			}
			if !ValidCorners(req.Corners, f.PhotoWidth, f.PhotoHeight) {
				return apperr.Field("corners", MsgCorners)
			}
			b, _ := json.Marshal(req.Corners) // points: cannot fail
			corners = string(b)
		}
		before := toGeometry(f.FaceGeometry)
		g := f.FaceGeometry
		g.WidthFt, g.HeightFt, g.PixelWidth, g.PixelHeight, g.DistanceClass, g.PhotoCorners = req.WidthFt, req.HeightFt, req.PixelWidth, req.PixelHeight, req.DistanceClass, corners
		if _, err := s.store.UpdateFaceGeometry(ctx, id, g); err != nil {
			return apperr.Internal(err)
		}
		f.FaceGeometry = g
		out = toLocation(&f)
		if s.deps.Audit == nil {
			return nil
		}
		return s.deps.Audit.Record(ctx, audit.Change{Action: AuditFaceGeometry, ObjectType: "face", ObjectID: id, Before: before, After: *out.Geometry})
	})
	return out, err
}

// adminFace is GET /api/admin/faces/{id}: one face with its geometry, for the face editor.
func (s *service) adminFace(ctx context.Context, _ *auth.Principal, id string) (Location, error) {
	fs, err := s.store.FacesByIDs(ctx, []string{id})
	if err != nil {
		return Location{}, apperr.Internal(err)
	}
	if len(fs) == 0 {
		return Location{}, apperr.NotFound(MsgFaceNotFound)
	}
	return toLocation(&fs[0]), nil
}

// FacePhoto implements Service.
func (s *service) FacePhoto(ctx context.Context, faceID string) (image.Image, FaceGeometry, error) {
	fs, err := s.store.FacesByIDs(ctx, []string{faceID})
	if err != nil {
		return nil, FaceGeometry{}, apperr.Internal(err)
	}
	if len(fs) == 0 {
		return nil, FaceGeometry{}, apperr.NotFound(MsgFaceNotFound)
	}
	g := toGeometry(fs[0].FaceGeometry)
	img, err := s.photoImage(ctx, g.Photo) // a demo photo or an uploaded one (face_photo.go)
	return img, g, err
}

// Demo photos: a raster scene of a billboard seen from the road, one per snapshot colour, drawn
// here like the SVG snapshots so the demo needs no image host. The screen is a perspective quad
// whose corners DemoPhotoCorners gives.
const (
	DemoPhotoWidth  = 960
	DemoPhotoHeight = 600
)

// demoPhotoPath is the address of demo photo n.
func demoPhotoPath(n int) string { return fmt.Sprintf("/api/od/photos/billboard-%d.png", n) }

// demoPhotoVariant reads n back from a demo photo's address or name.
func demoPhotoVariant(s string) (int, bool) {
	var n int
	name := s
	if len(s) > len("/api/od/photos/") && s[:len("/api/od/photos/")] == "/api/od/photos/" {
		name = s[len("/api/od/photos/"):]
	}
	if _, err := fmt.Sscanf(name, "billboard-%d.png", &n); err != nil || n < 0 || n >= len(snapshotColours) || name != fmt.Sprintf("billboard-%d.png", n) {
		return 0, false
	}
	return n, true
}

// DemoPhotoCorners are the screen's corners in demo photo n: each variant is seen from a
// slightly different angle.
func DemoPhotoCorners(n int) []Point {
	dx, k := float64(n%4)*30, float64(n)
	return []Point{{200 + dx, 110 + k*4}, {760 - dx/2, 140 - k*3}, {770 - dx/2, 330 + k*2}, {190 + dx, 300 - k*2}}
}

type renderedPhoto struct {
	img *image.RGBA
	png []byte
}

var (
	demoPhotosOnce sync.Once
	demoPhotos     []renderedPhoto
)

func demoPhoto(n int) renderedPhoto {
	demoPhotosOnce.Do(func() {
		demoPhotos = make([]renderedPhoto, len(snapshotColours))
		for i := range snapshotColours {
			img := drawDemoPhoto(i)
			var b bytes.Buffer
			_ = png.Encode(&b, img) // to memory: cannot fail
			demoPhotos[i] = renderedPhoto{img: img, png: b.Bytes()}
		}
	})
	return demoPhotos[n]
}

func hexColour(s string) color.RGBA {
	var r, g, b uint8
	_, _ = fmt.Sscanf(s, "#%02x%02x%02x", &r, &g, &b)
	return color.RGBA{r, g, b, 255}
}

// inQuad says whether (x, y) is inside a clockwise convex quad.
func inQuad(q []Point, x, y float64) bool {
	for i := range 4 {
		a, b := q[i], q[(i+1)%4]
		if (b.X-a.X)*(y-a.Y)-(b.Y-a.Y)*(x-a.X) < 0 {
			return false
		}
	}
	return true
}

func drawDemoPhoto(n int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, DemoPhotoWidth, DemoPhotoHeight))
	sky, ground, pole, frame, screen := hexColour(snapshotColours[n]), hexColour("#5d6d7e"), hexColour("#424949"), hexColour("#1b2631"), hexColour("#f4f6f7")
	q := DemoPhotoCorners(n)
	var cx, cy float64
	for _, p := range q {
		cx, cy = cx+p.X/4, cy+p.Y/4
	}
	outer := make([]Point, 4)
	for i, p := range q {
		outer[i] = Point{cx + (p.X-cx)*1.04, cy + (p.Y-cy)*1.08}
	}
	for y := range DemoPhotoHeight {
		for x := range DemoPhotoWidth {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			c := sky
			switch {
			case inQuad(q, fx, fy):
				c = screen
			case inQuad(outer, fx, fy):
				c = frame
			case fx > cx-14 && fx < cx+14 && fy > cy:
				c = pole
			case y > DemoPhotoHeight*3/4:
				c = ground
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}
