package locations

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/jpeg"
	"io"
	"os"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/gabriel-vasile/mimetype"
	xdraw "golang.org/x/image/draw"

	"marquee/modules/locations/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/httpx"
	"marquee/platform/ids"
	"marquee/platform/imagecheck"
	"marquee/platform/ratelimit"
)

// Face photos uploaded by an admin (docs/inventory.md "Face photos"). The upload goes through the
// same checks as every image upload (platform/imagecheck: the type by content, the size while
// reading, the header before the pixels, the decode budget), and the photo is stored as a JPEG of
// at most FacePhotoMaxSide a side: the corners are set on that copy and the preview draws on it, so
// a 25-megapixel original would cost every preview a 100 MB decode for no visible gain. Re-encoding
// also drops the original's metadata (a phone photo's EXIF carries where it was taken).

// uploadedPhotoName is the name of an uploaded photo in its address (/api/od/photos/NAME): a
// UUIDv7, so a new photo has a new address (the preview cache's key covers it) and browsers may
// keep a photo for good.
var uploadedPhotoName = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jpg$`)

// uploadedPhoto reads an uploaded photo's name back from a face's photo address.
func uploadedPhoto(photo string) (string, bool) {
	name, ok := strings.CutPrefix(photo, "/api/od/photos/")
	return name, ok && uploadedPhotoName.MatchString(name)
}

// uploadFacePhoto is POST /api/admin/faces/{id}/photo after the handler found the part "file":
// the checks, the stored copy, the face's new photo. An unknown face was refused before the body
// was read (the handler asks adminFace first).
func (s *service) uploadFacePhoto(ctx context.Context, p *auth.Principal, id string, r io.Reader) (Location, error) {
	if err := ratelimit.Check(ctx, s.photoRate, MsgFacePhotoTooFast, "face-photo:"+p.UserID); err != nil {
		return Location{}, err
	}
	jpg, w, h, err := s.readFacePhoto(ctx, r)
	if err != nil {
		return Location{}, err
	}
	return s.setFacePhoto(ctx, id, jpg, w, h)
}

// photoReadError answers a body that could not be read: 413 past the cap, else no photo.
func photoReadError(err error) error {
	if httpx.IsTooLarge(err) {
		return apperr.New(apperr.ETOOLARGE, MsgFacePhotoTooLarge)
	}
	return &apperr.Error{Code: apperr.EINVALID, Message: MsgFacePhotoMissing, Cause: err}
}

// readFacePhoto stages the upload on disk (at most MaxFacePhotoBytes), checks it by its content,
// and answers the stored copy: a JPEG of at most FacePhotoMaxSide a side, with its size.
func (s *service) readFacePhoto(ctx context.Context, r io.Reader) ([]byte, int, int, error) {
	tmp, err := os.CreateTemp(s.deps.TempDir, "face-photo-*")
	if err != nil {
		return nil, 0, 0, apperr.Internal(err)
	}
	defer func() { _ = tmp.Close(); _ = os.Remove(tmp.Name()) }()
	n, err := io.Copy(tmp, io.LimitReader(r, MaxFacePhotoBytes+1))
	if err != nil {
		return nil, 0, 0, photoReadError(err)
	}
	if n > MaxFacePhotoBytes {
		return nil, 0, 0, apperr.New(apperr.ETOOLARGE, MsgFacePhotoTooLarge)
	}
	if n == 0 {
		return nil, 0, 0, apperr.New(apperr.EINVALID, MsgFacePhotoMissing)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return nil, 0, 0, apperr.Internal(err)
	}
	mt, err := mimetype.DetectReader(tmp)
	if err != nil {
		return nil, 0, 0, apperr.Internal(err)
	}
	contentType := mt.String()
	if contentType != "image/jpeg" && contentType != "image/png" && contentType != "image/webp" {
		return nil, 0, 0, apperr.New(apperr.EUNSUPPORTED, MsgFacePhotoType)
	}
	var out []byte
	var w, h int
	err = s.decodeFile(ctx, tmp, contentType, func(img image.Image) error {
		w, h = fitWithin(img.Bounds().Dx(), img.Bounds().Dy(), FacePhotoMaxSide)
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, img.Bounds(), xdraw.Src, nil)
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 88}); err != nil {
			return apperr.Internal(err)
		}
		out = buf.Bytes()
		return nil
	})
	return out, w, h, err
}

// decodeFile decodes the image in f (checked header first: a pixel flood or an image over the
// per-decode limit is refused before its pixels are allocated) within the process's decode budget,
// and hands it to fn while the budget is held.
func (s *service) decodeFile(ctx context.Context, f io.ReadSeeker, contentType string, fn func(image.Image) error) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return apperr.Internal(err)
	}
	cfg, err := imagecheck.Header(f, contentType)
	if err != nil {
		return err
	}
	cost := imagecheck.DecodeCost(f, contentType, cfg)
	if cost > s.deps.DecodeMaxBytes {
		return apperr.New(apperr.EUNSUPPORTED, imagecheck.MsgTooHeavy)
	}
	if err := s.deps.Decodes.Acquire(ctx, cost); err != nil {
		return apperr.As(err)
	}
	defer s.deps.Decodes.Release(cost)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return apperr.Internal(err)
	}
	img, err := imagecheck.Decode(f, contentType)
	if err == nil {
		err = fn(img)
	}
	// As in the creatives' uploads: collect a large decode's garbage before handing its budget
	// on, so that the heap, not only the live memory, stays within IMAGE_DECODE_MEMORY.
	if cost >= 32<<20 {
		img = nil
		runtime.GC()
	}
	return err
}

// fitWithin fits w x h within side, keeping the ratio.
func fitWithin(w, h, side int) (int, int) {
	if w <= side && h <= side {
		return w, h
	}
	if w >= h {
		return side, max(1, h*side/w)
	}
	return max(1, w*side/h), side
}

// setFacePhoto stores the checked photo and makes it the face's, with its size and no corners, in
// one transaction with its audit entry. The old uploaded photo is deleted after the commit (a
// failure there leaves an unreferenced object, logged); the new one is deleted again when the
// transaction fails.
func (s *service) setFacePhoto(ctx context.Context, id string, jpg []byte, w, h int) (Location, error) {
	if s.deps.Storage == nil {
		return Location{}, apperr.Internal(errors.New("locations: no storage for face photos"))
	}
	name := ids.New() + ".jpg"
	key := facePhotoPrefix + name
	if err := s.deps.Storage.Put(ctx, key, bytes.NewReader(jpg), int64(len(jpg)), "image/jpeg"); err != nil {
		_ = s.deps.Storage.Delete(context.WithoutCancel(ctx), key) // a failed put may have left a part
		return Location{}, err
	}
	var out Location
	var old string
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		fs, err := s.store.FacesByIDs(ctx, []string{id})
		if err != nil {
			return apperr.Internal(err)
		}
		if len(fs) == 0 {
			return apperr.NotFound(MsgFaceNotFound)
		}
		f := fs[0]
		before := toGeometry(f.FaceGeometry)
		old = f.Photo
		f.Photo, f.PhotoWidth, f.PhotoHeight, f.PhotoCorners = "/api/od/photos/"+name, w, h, ""
		if _, err := s.store.SetFacePhoto(ctx, id, f.Photo, w, h); err != nil {
			return apperr.Internal(err)
		}
		out = toLocation(&f)
		if s.deps.Audit == nil {
			return nil
		}
		return s.deps.Audit.Record(ctx, audit.Change{Action: AuditFacePhoto, ObjectType: "face", ObjectID: id, Before: before, After: *out.Geometry})
	})
	if err != nil {
		_ = s.deps.Storage.Delete(context.WithoutCancel(ctx), key)
		return Location{}, err
	}
	if oldName, ok := uploadedPhoto(old); ok {
		if err := s.deps.Storage.Delete(context.WithoutCancel(ctx), facePhotoPrefix+oldName); err != nil && s.deps.Log != nil {
			s.deps.Log.Warn("locations: delete a replaced face photo", "key", facePhotoPrefix+oldName, "err", err)
		}
	}
	return out, nil
}

// openUploadedPhoto opens an uploaded face photo by its name (the photo route); an unknown name
// answers 404.
func (s *service) openUploadedPhoto(ctx context.Context, name string) (io.ReadCloser, int64, error) {
	if !uploadedPhotoName.MatchString(name) || s.deps.Storage == nil {
		return nil, 0, apperr.NotFound("Not found.")
	}
	rc, obj, err := s.deps.Storage.Get(ctx, facePhotoPrefix+name)
	if err != nil {
		return nil, 0, err
	}
	return rc, obj.Size, nil
}

// photoCache keeps the last few uploaded photos decoded: the preview asks for the face's photo
// before it looks in its own cache, and a decode per cached preview would cost more than the
// preview. Photos are at most FacePhotoMaxSide a side (10 MB decoded), and names never change
// meaning, so an entry is never stale.
type photoCache struct {
	mu      sync.Mutex
	entries []photoEntry // most recent last
}

type photoEntry struct {
	name string
	img  image.Image
}

const photoCacheSize = 8

func (pc *photoCache) get(name string) (image.Image, bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	for i, e := range pc.entries {
		if e.name == name {
			pc.entries = append(append(pc.entries[:i:i], pc.entries[i+1:]...), e)
			return e.img, true
		}
	}
	return nil, false
}

func (pc *photoCache) put(name string, img image.Image) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.entries = append(pc.entries, photoEntry{name, img})
	if len(pc.entries) > photoCacheSize {
		pc.entries = pc.entries[len(pc.entries)-photoCacheSize:]
	}
}

// photoImage answers the decoded picture of a face's photo: a demo photo, drawn in memory, or an
// uploaded one from storage (within the decode budget).
func (s *service) photoImage(ctx context.Context, photo string) (image.Image, error) {
	if n, ok := demoPhotoVariant(photo); ok {
		return demoPhoto(n).img, nil
	}
	name, ok := uploadedPhoto(photo)
	if !ok || s.deps.Storage == nil {
		return nil, apperr.New(apperr.EINVALID, MsgNoPhoto)
	}
	if img, ok := s.photos.get(name); ok {
		return img, nil
	}
	rc, _, err := s.deps.Storage.Get(ctx, facePhotoPrefix+name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, MaxFacePhotoBytes))
	if err != nil {
		return nil, apperr.Internal(err)
	}
	var out image.Image
	err = s.decodeFile(ctx, bytes.NewReader(b), "image/jpeg", func(img image.Image) error {
		out = img
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.photos.put(name, out)
	return out, nil
}

// facePhotoRate makes the counter of FacePhotosPerMinute.
func facePhotoRate(d Deps) ratelimit.Counter {
	if d.RateLimits == nil {
		return ratelimit.InProcess(d.Clock)("face-photos", FacePhotosPerMinute, time.Minute)
	}
	return d.RateLimits("face-photos", FacePhotosPerMinute, time.Minute)
}

// DemoMarketWithoutPhoto is the demo market whose first face has no photo, so that the face
// editor shows its invitation to upload one (and the journey uploads there): a market no other
// journey books.
const DemoMarketWithoutPhoto = "Austin"

// clearDemoPhoto takes the photo off the first face of DemoMarketWithoutPhoto (SeedDemo).
func (m *Module) clearDemoPhoto(ctx context.Context) error {
	fs, err := m.svc.store.Faces(ctx, store.FacesQuery{Markets: []string{DemoMarketWithoutPhoto}})
	if err != nil || len(fs) == 0 {
		return err
	}
	return db.Transact(ctx, m.deps.DB, func(ctx context.Context) error {
		_, err := m.svc.store.SetFacePhoto(ctx, fs[0].ID, "", 0, 0)
		return err
	})
}

// facePhotoPrefix is the storage folder of the uploaded face photos.
const facePhotoPrefix = "face-photos/"
