package creatives

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	xdraw "golang.org/x/image/draw"

	"marquee/modules/creatives/internal/store"
	"marquee/modules/locations"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ratelimit"
	"marquee/platform/storage"
)

// The in-situ preview (issue 29, docs/creatives.md "Preview"): the creative drawn on a face's photo
// through the projective transform that takes the creative's rectangle to the screen's four
// corners, by inverse mapping with bilinear sampling (golang.org/x/image/draw has no projective
// warp); at night the photo is darkened and the screen glows; the drive-by view blurs the picture
// to what a driver's eye resolves at the face's viewing distance. PNGs are cached in storage by
// (creative, face and its geometry, light, view).

// homography maps the unit square to a quad: (0,0), (1,0), (1,1), (0,1) go to q[0..3] (Heckbert,
// "Fundamentals of Texture Mapping and Image Warping", 1989, the square-to-quad case).
type homography [9]float64

func squareToQuad(q []locations.Point) homography {
	x0, y0, x1, y1, x2, y2, x3, y3 := q[0].X, q[0].Y, q[1].X, q[1].Y, q[2].X, q[2].Y, q[3].X, q[3].Y
	dx3, dy3 := x0-x1+x2-x3, y0-y1+y2-y3
	if math.Abs(dx3) < 1e-9 && math.Abs(dy3) < 1e-9 { // a parallelogram: affine
		return homography{x1 - x0, x2 - x1, x0, y1 - y0, y2 - y1, y0, 0, 0, 1}
	}
	dx1, dx2, dy1, dy2 := x1-x2, x3-x2, y1-y2, y3-y2
	det := dx1*dy2 - dx2*dy1
	g := (dx3*dy2 - dx2*dy3) / det
	h := (dx1*dy3 - dx3*dy1) / det
	return homography{x1 - x0 + g*x1, x3 - x0 + h*x3, x0, y1 - y0 + g*y1, y3 - y0 + h*y3, y0, g, h, 1}
}

// inverse is the adjugate of m: the inverse up to a scale, which the division by w removes.
func (m homography) inverse() homography {
	a, b, c, d, e, f, g, h, i := m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]
	return homography{e*i - f*h, c*h - b*i, b*f - c*e, f*g - d*i, a*i - c*g, c*d - a*f, d*h - e*g, b*g - a*h, a*e - b*d}
}

func (m homography) apply(x, y float64) (float64, float64) {
	w := m[6]*x + m[7]*y + m[8]
	return (m[0]*x + m[1]*y + m[2]) / w, (m[3]*x + m[4]*y + m[5]) / w
}

// bilinear samples src at (x, y) in its pixels (centres at +0.5).
func bilinear(src *image.RGBA, x, y float64) color.RGBA {
	b := src.Bounds()
	x, y = x-0.5, y-0.5
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(x0), y-float64(y0)
	clampX := func(v int) int { return min(max(v, 0), b.Dx()-1) }
	clampY := func(v int) int { return min(max(v, 0), b.Dy()-1) }
	var out [4]float64
	for _, s := range [4]struct {
		dx, dy int
		w      float64
	}{{0, 0, (1 - fx) * (1 - fy)}, {1, 0, fx * (1 - fy)}, {0, 1, (1 - fx) * fy}, {1, 1, fx * fy}} {
		i := src.PixOffset(clampX(x0+s.dx), clampY(y0+s.dy))
		for k := range 4 {
			out[k] += s.w * float64(src.Pix[i+k])
		}
	}
	return color.RGBA{uint8(out[0] + 0.5), uint8(out[1] + 0.5), uint8(out[2] + 0.5), uint8(out[3] + 0.5)}
}

// quadBounds is the pixel rectangle around a quad, within r.
func quadBounds(q []locations.Point, r image.Rectangle) image.Rectangle {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range q {
		minX, minY, maxX, maxY = math.Min(minX, p.X), math.Min(minY, p.Y), math.Max(maxX, p.X), math.Max(maxY, p.Y)
	}
	return image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY))).Intersect(r)
}

func inside(q []locations.Point, x, y float64) bool {
	for i := range 4 {
		a, b := q[i], q[(i+1)%4]
		if (b.X-a.X)*(y-a.Y)-(b.Y-a.Y)*(x-a.X) < 0 {
			return false
		}
	}
	return true
}

// eyeArcminRad is the resolving power of a normal eye (20/20 vision: details of one minute of arc).
const eyeArcminRad = math.Pi / (180 * 60)

// renderPreview draws creative on photo's screen. The creative keeps its shape: letterboxed in the
// face's pixel aspect, with black bars, as the screen shows it.
func renderPreview(photo image.Image, g locations.FaceGeometry, creative image.Image, light, view string) *image.RGBA {
	pb := photo.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, pb.Dx(), pb.Dy()))
	xdraw.Copy(out, image.Point{}, photo, pb, xdraw.Src, nil)
	q := g.Corners
	box := quadBounds(q, out.Bounds())
	// The creative at most twice the screen's size in the photo: sampling needs no more, and a
	// 25-megapixel creative is not held twice.
	cb := creative.Bounds()
	scale := math.Min(1, 2*float64(max(box.Dx(), box.Dy()))/float64(max(cb.Dx(), cb.Dy())))
	src := image.NewRGBA(image.Rect(0, 0, max(1, int(float64(cb.Dx())*scale)), max(1, int(float64(cb.Dy())*scale))))
	xdraw.ApproxBiLinear.Scale(src, src.Bounds(), creative, cb, xdraw.Src, nil)
	sw, sh := float64(src.Bounds().Dx()), float64(src.Bounds().Dy())
	faceAspect := float64(g.PixelWidth) / float64(max(1, g.PixelHeight))
	ca := sw / sh
	// The creative's part of the unit square: [u0, u0+uw] x [v0, v0+vh].
	u0, v0, uw, vh := 0.0, 0.0, 1.0, 1.0
	if ca > faceAspect {
		vh = faceAspect / ca
		v0 = (1 - vh) / 2
	} else {
		uw = ca / faceAspect
		u0 = (1 - uw) / 2
	}
	inv := squareToQuad(q).inverse()
	night := light == LightNight
	var mean [3]float64
	n := 0.0
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			if !inside(q, fx, fy) {
				continue
			}
			u, v := inv.apply(fx, fy)
			// A pixel on the quad's edge may map a hair outside the square.
			u, v = math.Min(1, math.Max(0, u)), math.Min(1, math.Max(0, v))
			c := color.RGBA{0, 0, 0, 255}
			if u >= u0 && u <= u0+uw && v >= v0 && v <= v0+vh {
				c = bilinear(src, (u-u0)/uw*sw, (v-v0)/vh*sh)
				c.A = 255
			}
			mean[0], mean[1], mean[2], n = mean[0]+float64(c.R), mean[1]+float64(c.G), mean[2]+float64(c.B), n+1
			out.SetRGBA(x, y, c)
		}
	}
	if night {
		nightScene(out, q, mean, n)
	}
	if view == ViewDriveBy && g.ViewingDistanceFt > 0 {
		// What the eye resolves of the face at the class's distance, in lines across its height.
		lines := g.HeightFt / g.ViewingDistanceFt / eyeArcminRad
		left := math.Hypot(q[3].X-q[0].X, q[3].Y-q[0].Y)
		right := math.Hypot(q[2].X-q[1].X, q[2].Y-q[1].Y)
		if f := math.Min(16, (left+right)/2/lines); f > 1 {
			small := image.NewRGBA(image.Rect(0, 0, max(1, int(float64(pb.Dx())/f)), max(1, int(float64(pb.Dy())/f))))
			xdraw.BiLinear.Scale(small, small.Bounds(), out, out.Bounds(), xdraw.Src, nil)
			xdraw.BiLinear.Scale(out, out.Bounds(), small, small.Bounds(), xdraw.Src, nil)
		}
	}
	return out
}

// nightScene darkens everything but the screen to a blue dusk and lets the screen's mean colour
// glow around it, fading linearly over a quarter of the screen's height.
func nightScene(out *image.RGBA, q []locations.Point, mean [3]float64, n float64) {
	if n > 0 {
		for k := range mean {
			mean[k] /= n
		}
	}
	// The outward normal of each edge (the quad is clockwise on screen), to measure how far
	// outside a pixel is: the largest distance beyond an edge's line.
	type edge struct{ ax, ay, nx, ny float64 }
	var edges [4]edge
	for i := range 4 {
		a, b := q[i], q[(i+1)%4]
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		if l == 0 {
			l = 1
		}
		edges[i] = edge{a.X, a.Y, (b.Y - a.Y) / l, -(b.X - a.X) / l}
	}
	reach := 0.25 * (math.Hypot(q[3].X-q[0].X, q[3].Y-q[0].Y) + math.Hypot(q[2].X-q[1].X, q[2].Y-q[1].Y)) / 2
	b := out.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			d := math.Inf(-1)
			for _, e := range edges {
				d = math.Max(d, (fx-e.ax)*e.nx+(fy-e.ay)*e.ny)
			}
			if d <= 0 {
				continue // the screen
			}
			i := out.PixOffset(x, y)
			p := out.Pix[i : i+3]
			r, g, bl := float64(p[0])*0.16, float64(p[1])*0.18, float64(p[2])*0.28
			if reach > 0 && d < reach {
				glow := 0.45 * (1 - d/reach)
				r, g, bl = r+mean[0]*glow, g+mean[1]*glow, bl+mean[2]*glow
			}
			p[0], p[1], p[2] = uint8(math.Min(255, r)), uint8(math.Min(255, g)), uint8(math.Min(255, bl))
		}
	}
}

// previewKey is the cache key of a preview: it names the creative's image and the face's geometry
// as well, so a change of corners or size renders again.
func previewKey(creativeID, faceID, fileKey string, g locations.FaceGeometry, light, view string) string {
	h := sha256.New()
	_, _ = fmt.Fprintf(h, "%s|%v|%v|%d|%d|%v|%v|%s", fileKey, g.Corners, g.Photo, g.PixelWidth, g.PixelHeight, g.HeightFt, g.ViewingDistanceFt, previewVersion)
	return fmt.Sprintf("preview/%s/%s-%s-%s-%s.png", creativeID, faceID, hex.EncodeToString(h.Sum(nil))[:16], light, view)
}

// previewVersion changes the cache keys when the rendering changes.
const previewVersion = "2"

// preview is GET /api/creatives/{id}/preview: the PNG of the caller's creative on a face's photo.
// A user draws at most PreviewRendersPerMinute (a cached preview is not counted).
func (s *service) preview(ctx context.Context, p *auth.Principal, id, faceID, light, view string) ([]byte, error) {
	if err := checkPreviewOptions(faceID, light, view); err != nil {
		return nil, err
	}
	c, err := s.ownCreative(ctx, p, id)
	if err != nil {
		return nil, err
	}
	return s.cachedPreview(ctx, c, faceID, light, view, func() error {
		return ratelimit.Check(ctx, s.renders, MsgTooManyRequests, "preview:"+p.UserID)
	})
}

// PreviewPNG is the endpoint's PNG for another module (the report PDF, the weekly email): the same
// renderer and the same cache, with the creative checked against req.CompanyID instead of a
// session. Its callers bound their own work (a report shows at most a few faces, and reports are
// rate limited per user), so it takes no user's render budget; it still waits for one of the
// PreviewLimit drawing slots.
func (s *service) PreviewPNG(ctx context.Context, req PreviewRequest) ([]byte, error) {
	if err := checkPreviewOptions(req.FaceID, req.Light, req.View); err != nil {
		return nil, err
	}
	c, err := s.store.CreativeByID(ctx, req.CreativeID)
	if err != nil {
		return nil, db.Translate(err, MsgCreativeNotFound, "")
	}
	if c.CompanyID != req.CompanyID {
		return nil, apperr.NotFound(MsgCreativeNotFound)
	}
	return s.cachedPreview(ctx, c, req.FaceID, req.Light, req.View, nil)
}

func checkPreviewOptions(faceID, light, view string) error {
	if faceID == "" {
		return apperr.Field("face", MsgPreviewFace)
	}
	if light != LightDay && light != LightNight {
		return apperr.Field("light", MsgPreviewLight)
	}
	if view != ViewPhoto && view != ViewDriveBy {
		return apperr.Field("view", MsgPreviewView)
	}
	return nil
}

// cachedPreview answers the cached PNG of c on the face, or draws and caches it. beforeDraw, when
// set, runs on a cache miss before any drawing (the endpoint's per-user limit).
func (s *service) cachedPreview(ctx context.Context, c *store.Creative, faceID, light, view string, beforeDraw func() error) ([]byte, error) {
	photo, g, err := s.deps.Faces.FacePhoto(ctx, faceID)
	if err != nil {
		return nil, err
	}
	if len(g.Corners) != 4 {
		return nil, apperr.New(apperr.EINVALID, locations.MsgNoCorners)
	}
	key := previewKey(c.ID, faceID, c.FileKey, g, light, view)
	if rc, _, err := s.deps.Storage.Get(ctx, key); err == nil {
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, 64<<20))
		if err == nil {
			return b, nil
		}
	} else if apperr.CodeOf(err) != apperr.ENOTFOUND {
		return nil, err
	}
	if beforeDraw != nil {
		if err := beforeDraw(); err != nil {
			return nil, err
		}
	}
	if err := s.previews.Acquire(ctx, 1); err != nil {
		return nil, apperr.As(err)
	}
	defer s.previews.Release(1)
	f, err := s.store.FileByKey(ctx, c.FileKey)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	var out bytes.Buffer
	err = s.withStoredImage(ctx, f, func(img image.Image) error {
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		return enc.Encode(&out, renderPreview(photo, g, img, light, view))
	})
	if err != nil {
		return nil, err
	}
	b := out.Bytes()
	if err := s.deps.Storage.Put(ctx, key, bytes.NewReader(b), int64(len(b)), "image/png"); err != nil {
		s.deps.Log.Warn("creatives: cache preview", "key", key, "err", err) // the answer stands without its cache
	}
	return b, nil
}

// deletePreviews removes a deleted creative's cached previews. They are a cache: a failure is
// logged, and the creative stays deleted.
func (s *service) deletePreviews(ctx context.Context, creativeID string) {
	ctx = context.WithoutCancel(ctx)
	var keys []string
	err := s.deps.Storage.List(ctx, "preview/"+creativeID+"/", func(o storage.Object) error {
		keys = append(keys, o.Key)
		return nil
	})
	for _, k := range keys {
		if err == nil {
			err = s.deps.Storage.Delete(ctx, k)
		}
	}
	if err != nil {
		s.deps.Log.Warn("creatives: delete cached previews", "creative", creativeID, "err", err)
	}
}
