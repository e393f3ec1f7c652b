package creatives

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"mime/multipart"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/gabriel-vasile/mimetype"

	"marquee/modules/creatives/internal/preflight"
	"marquee/modules/creatives/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/db"
	"marquee/platform/httpx"
	"marquee/platform/ids"
	"marquee/platform/imagecheck"
	"marquee/platform/ratelimit"
)

// uploadKind says what one upload call accepts.
type uploadKind struct {
	kind     string
	maxFiles int
	maxBytes int64
	tooLarge string // the 413 message
	typeMsg  string // the 422 message for a refused type
	accept   func(m *mimetype.MIME) bool
	// image: the file must be a decodable image (a thumbnail is made); wantW/wantH, when set, are
	// its exact size.
	image        bool
	wantW, wantH int
	sizeMsg      string
	// quota: the files count against the owning company's storage quota (the advertisers' own
	// uploads; the admins' content, reports and proofs do not).
	quota bool
	// analyse: the decoded image is analysed for the pre-flight (analyse.go) while it is in memory.
	analyse bool
}

// Content types by family (A §5: image/*, video/*, pdf, doc, docx, xls, xlsx).
var documentTypes = []string{
	"application/pdf", "application/msword", "application/vnd.ms-excel",
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}

func is(m *mimetype.MIME, types ...string) bool {
	for _, t := range types {
		if m.Is(t) {
			return true
		}
	}
	return false
}

func isImage(m *mimetype.MIME) bool    { return decodableImages[m.String()] }
func isVideo(m *mimetype.MIME) bool    { return strings.HasPrefix(m.String(), "video/") }
func isDocument(m *mimetype.MIME) bool { return is(m, documentTypes...) }

// contentFamily names the content type a file's content makes it: image, video or document; ""
// when it is none of them.
func contentFamily(contentType string) string {
	switch {
	case decodableImages[contentType]:
		return ContentImage
	case strings.HasPrefix(contentType, "video/"):
		return ContentVideo
	case slices.Contains(documentTypes, contentType):
		return ContentDocument
	}
	return ""
}

var (
	kindCreative = uploadKind{kind: KindCreative, maxFiles: 1, maxBytes: MaxCreativeBytes, tooLarge: MsgCreativeTooLarge,
		typeMsg: MsgCreativeType, accept: func(m *mimetype.MIME) bool { return is(m, "image/jpeg", "image/tiff") }, image: true, quota: true, analyse: true}
	// kindPreflight is an image checked by POST /api/creatives/preflight and not kept: the creative
	// dropzone's types and size, and the builder's PNG.
	kindPreflight = uploadKind{kind: "preflight", maxFiles: 1, maxBytes: MaxCreativeBytes, tooLarge: MsgCreativeTooLarge,
		typeMsg: MsgCreativeType, accept: func(m *mimetype.MIME) bool { return is(m, "image/jpeg", "image/tiff", "image/png") }, image: true, analyse: true}
	kindCreativeLibrary = uploadKind{kind: KindCreativeLibrary, maxFiles: MaxFilesPerUpload, maxBytes: MaxCreativeBytes,
		tooLarge: MsgCreativeTooLarge, typeMsg: MsgCreativeType,
		accept: func(m *mimetype.MIME) bool { return is(m, "image/jpeg", "image/tiff") }, image: true, quota: true}
	kindTemp = uploadKind{kind: KindTemp, maxFiles: MaxFilesPerUpload, maxBytes: MaxFileBytes, tooLarge: MsgFileTooLarge,
		typeMsg: MsgImageType, accept: isImage, image: true, quota: true}
	kindCreativeImage = uploadKind{kind: KindCreativeImage, maxFiles: 1, maxBytes: MaxCreativeBytes, tooLarge: MsgCreativeTooLarge,
		typeMsg: MsgBuilderType, accept: func(m *mimetype.MIME) bool { return is(m, "image/png") }, image: true,
		wantW: BuilderWidth, wantH: BuilderHeight, sizeMsg: MsgBuilderType, quota: true}
	kindReport = uploadKind{kind: KindReport, maxFiles: 1, maxBytes: MaxReportBytes, tooLarge: MsgReportTooLarge,
		typeMsg: MsgReportType, accept: func(m *mimetype.MIME) bool { return is(m, "application/pdf") }}
	kindProof = uploadKind{kind: KindProof, maxFiles: 1, maxBytes: MaxFileBytes, tooLarge: MsgFileTooLarge,
		typeMsg: MsgImageType, accept: isImage, image: true}
)

// contentKind is /upload_file?type=: any content type, or only the chosen family.
func contentKind(family string) uploadKind {
	k := uploadKind{kind: KindContent, maxFiles: 1, maxBytes: MaxFileBytes, tooLarge: MsgFileTooLarge, typeMsg: MsgContentType}
	switch family {
	case ContentImage:
		k.accept, k.typeMsg = isImage, MsgContentTypeKind
	case ContentVideo:
		k.accept, k.typeMsg = isVideo, MsgContentTypeKind
	case ContentDocument:
		k.accept, k.typeMsg = isDocument, MsgContentTypeKind
	default:
		k.accept = func(m *mimetype.MIME) bool { return isImage(m) || isVideo(m) || isDocument(m) }
	}
	return k
}

// staged is one checked file waiting on local disk to be stored.
type staged struct {
	tmp          *os.File
	size         int64
	contentType  string
	ext          string
	originalName string
	width        int
	height       int
	thumb        []byte
	display      *os.File // the web copy of a TIFF
	analysis     *preflight.Input
}

func (s *staged) close() {
	for _, f := range []*os.File{s.tmp, s.display} {
		if f != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}
}

// owner is whom stored files belong to.
type owner struct {
	companyID, uploaderID string
}

// uploader checks, stores and registers uploads. Nothing is kept on any failure: the checks all
// run on local temporary files before the first object is stored, the rows are inserted in one
// transaction after the objects, and the objects are deleted when that fails.
type uploader struct {
	deps  Deps
	store *store.Store
	// decodes holds the memory of the image decodes in flight, in bytes (Limits.DecodeMemory): a
	// decode takes its decodeCost before it starts and waits while the others hold too much.
	decodes *imagecheck.Budget
	// rate counts the files each user uploads (Limits.FilesPerMinute).
	rate ratelimit.Counter
	// ocr reads the text of analysed images.
	ocr *OCR
}

// staleStagingAge is how old a staged file must be before removeStaleStaging takes it for the
// debris of a crash: an upload is staged, checked and stored within its request.
const staleStagingAge = time.Hour

// The names stage and processImage give their temporary files.
const (
	stagedUploadPrefix  = "upload-"
	stagedWebCopyPrefix = "web-"
)

// removeStaleStaging deletes the staged files older than staleStagingAge from dir, which uploads
// cut short by a crash leave (a killed process runs no deferred removal), and answers
// how many it deleted. New calls it, which is when a process starts; younger files may be another
// process's upload in progress, and are kept.
func removeStaleStaging(dir string, log *slog.Logger) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		log.Warn("creatives: cannot read the staging directory", "dir", dir, "err", err)
		return 0
	}
	before := time.Now().Add(-staleStagingAge) // file times are the system clock's
	removed := 0
	for _, e := range entries {
		if e.IsDir() || !strings.HasPrefix(e.Name(), stagedUploadPrefix) && !strings.HasPrefix(e.Name(), stagedWebCopyPrefix) {
			continue
		}
		if info, err := e.Info(); err != nil || !info.ModTime().Before(before) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err == nil {
			removed++
		}
	}
	return removed
}

// stage copies one file to a temporary file, at most k.maxBytes and at most left, what the request
// may still carry (413 above either, 400 when empty), and checks its content: type by magic bytes,
// and for images the header, the size and a full decode (thumbnail, web copy of a TIFF).
func (u *uploader) stage(ctx context.Context, k uploadKind, name string, r io.Reader, left int64) (*staged, error) {
	tmp, err := os.CreateTemp(u.deps.TempDir, stagedUploadPrefix+"*")
	if err != nil {
		return nil, apperr.Internal(err)
	}
	s := &staged{tmp: tmp, originalName: cleanName(name)}
	ok := false
	defer func() {
		if !ok {
			s.close()
		}
	}()
	limit := min(k.maxBytes, left)
	w := &stagingWriter{f: tmp}
	n, err := io.Copy(w, io.LimitReader(r, limit+1))
	if err != nil {
		if w.err != nil {
			// Our disk failed, not the client's body: internal, and 507 when it is full.
			return nil, apperr.Internal(fmt.Errorf("creatives: stage an upload: %w", w.err))
		}
		return nil, readError(err, k)
	}
	if n > limit {
		if limit < k.maxBytes {
			return nil, u.requestTooLarge()
		}
		return nil, apperr.New(apperr.ETOOLARGE, k.tooLarge)
	}
	if n == 0 {
		return nil, apperr.New(apperr.EINVALID, MsgEmptyFile)
	}
	s.size = n
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return nil, apperr.Internal(err)
	}
	mt, err := mimetype.DetectReader(tmp)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	if !k.accept(mt) {
		return nil, apperr.New(apperr.EUNSUPPORTED, k.typeMsg)
	}
	s.contentType, s.ext = mt.String(), mt.Extension()
	if s.ext == "" {
		s.ext = ".bin"
	}
	if k.image || decodableImages[s.contentType] {
		if err := u.processImage(ctx, k, s); err != nil {
			return nil, err
		}
	}
	ok = true
	return s, nil
}

func (u *uploader) processImage(ctx context.Context, k uploadKind, s *staged) error {
	if _, err := s.tmp.Seek(0, io.SeekStart); err != nil {
		return apperr.Internal(err)
	}
	cfg, err := imagecheck.Header(s.tmp, s.contentType)
	if err != nil {
		return err
	}
	if k.wantW > 0 && (cfg.Width != k.wantW || cfg.Height != k.wantH) {
		return apperr.New(apperr.EUNSUPPORTED, k.sizeMsg)
	}
	s.width, s.height = cfg.Width, cfg.Height
	// Budget the decode by the bytes it allocates, read from the header: one
	// over the per-image limit is refused before anything is decoded, and the decodes in flight
	// never hold more than the total together.
	cost := imagecheck.DecodeCost(s.tmp, s.contentType, cfg)
	if cost > u.deps.Limits.DecodeMaxBytes {
		return apperr.New(apperr.EUNSUPPORTED, MsgImageTooHeavy)
	}
	if err := u.decodes.Acquire(ctx, cost); err != nil {
		return apperr.As(err)
	}
	defer u.decodes.Release(cost)
	err = u.decode(ctx, k, s)
	// A large decode's pixels are garbage now, but the collector would free them only after the
	// next decode had allocated its own: collect before handing the budget on, so that the heap,
	// not only the live memory, stays within IMAGE_DECODE_MEMORY (the test measures it).
	if cost >= collectAfterDecode {
		runtime.GC()
	}
	return err
}

// collectAfterDecode is the decode size from which the memory is collected before the decode's
// budget is released. A collection costs in proportion to the live heap, not to the garbage.
const collectAfterDecode = 32 << 20

// decode decodes a staged image whose budget is held, and makes its thumbnail and, for a TIFF, its
// web copy.
func (u *uploader) decode(ctx context.Context, k uploadKind, s *staged) error {
	if _, err := s.tmp.Seek(0, io.SeekStart); err != nil {
		return apperr.Internal(err)
	}
	var run *ocrRun
	if k.analyse {
		// Started before the decode: Tesseract loads its model meanwhile (ocr.go).
		run = u.ocr.startOCR(ctx, u.deps.TempDir, image.Pt(s.width, s.height))
		defer run.close()
	}
	img, err := imagecheck.Decode(s.tmp, s.contentType)
	if err != nil {
		return err
	}
	if k.analyse {
		in := analyse(img, run)
		s.analysis = &in
	}
	if s.thumb, err = thumbnail(img); err != nil {
		return err
	}
	if s.contentType == "image/tiff" {
		f, err := os.CreateTemp(u.deps.TempDir, stagedWebCopyPrefix+"*")
		if err != nil {
			return apperr.Internal(err)
		}
		s.display = f
		if err := webCopy(f, img); err != nil {
			return err
		}
	}
	return nil
}

// stagingWriter keeps the error of writing the staged file, which io.Copy would not tell from an
// error reading the request.
type stagingWriter struct {
	f   *os.File
	err error
}

func (w *stagingWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		w.err = err
	}
	return n, err
}

func readError(err error, k uploadKind) error {
	if httpx.IsTooLarge(err) {
		return apperr.New(apperr.ETOOLARGE, k.tooLarge)
	}
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return err
	}
	return &apperr.Error{Code: apperr.EINVALID, Message: MsgNoFile, Cause: err}
}

// requestTooLarge answers a request whose files together pass Limits.RequestMaxBytes.
func (u *uploader) requestTooLarge() error {
	return apperr.Errorf(apperr.ETOOLARGE, MsgRequestTooLarge, u.deps.Limits.RequestMaxBytes>>20)
}

// storageFull answers an upload past the company's storage quota.
func (u *uploader) storageFull() error {
	return apperr.Errorf(apperr.ETOOLARGE, MsgStorageFull, u.deps.Limits.CompanyQuota>>20)
}

// checkQuota refuses an upload of kind k for o when the company's files and add bytes more pass
// its quota.
func (u *uploader) checkQuota(ctx context.Context, k uploadKind, o owner, add int64) error {
	if !k.quota {
		return nil
	}
	used, err := u.store.CompanyBytes(ctx, o.companyID)
	if err != nil {
		return apperr.Internal(err)
	}
	if used+add > u.deps.Limits.CompanyQuota {
		return u.storageFull()
	}
	return nil
}

// readParts stages every file part of a multipart body, in order, for o. Fields other than file
// and files are ignored. More than k.maxFiles files answers MsgTooManyFiles (or MsgOneFile), files
// past Limits.RequestMaxBytes together 413, and a file past the uploader's Limits.FilesPerMinute
// 429, before it is read.
func (u *uploader) readParts(ctx context.Context, k uploadKind, o owner, mr *multipart.Reader) ([]*staged, error) {
	var out []*staged
	left := u.deps.Limits.RequestMaxBytes
	fail := func(err error) ([]*staged, error) {
		for _, s := range out {
			s.close()
		}
		return nil, err
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fail(readError(err, k))
		}
		if part.FileName() == "" || (part.FormName() != "file" && part.FormName() != "files") {
			if _, err := io.Copy(io.Discard, io.LimitReader(part, 64<<10)); err != nil {
				return fail(readError(err, k))
			}
			continue
		}
		if len(out) == k.maxFiles {
			if k.maxFiles == 1 {
				return fail(apperr.New(apperr.EINVALID, MsgOneFile))
			}
			return fail(apperr.New(apperr.EINVALID, MsgTooManyFiles))
		}
		if err := ratelimit.Check(ctx, u.rate, MsgUploadTooFast, "upload:user:"+o.uploaderID); err != nil {
			return fail(err)
		}
		s, err := u.stage(ctx, k, part.FileName(), part, left)
		_ = part.Close()
		if err != nil {
			return fail(err)
		}
		left -= s.size
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, apperr.New(apperr.EINVALID, MsgNoFile)
	}
	return out, nil
}

// save stores staged files and registers them for o in one transaction. On any failure every
// object it stored is deleted again.
func (u *uploader) save(ctx context.Context, k uploadKind, o owner, files []*staged) ([]*store.File, error) {
	var rows []*store.File
	var putKeys []string
	cleanup := func() {
		for _, key := range putKeys {
			_ = u.deps.Storage.Delete(context.WithoutCancel(ctx), key)
		}
	}
	now := u.deps.Clock.Now()
	for _, s := range files {
		id := ids.New()
		base := fmt.Sprintf("%s/%s/%s", k.kind, o.companyID, id)
		row := &store.File{Key: base + s.ext, CompanyID: o.companyID, UploaderID: o.uploaderID, Kind: k.kind,
			ContentType: s.contentType, Size: s.size, OriginalName: s.originalName, Width: s.width, Height: s.height, CreatedAt: now}
		if s.analysis != nil {
			b, err := json.Marshal(s.analysis)
			if err != nil {
				cleanup()
				return nil, apperr.Internal(err)
			}
			row.PreflightInput = string(b)
		}
		if _, err := s.tmp.Seek(0, io.SeekStart); err != nil {
			cleanup()
			return nil, apperr.Internal(err)
		}
		if err := u.put(ctx, &putKeys, row.Key, s.tmp, s.size, s.contentType); err != nil {
			cleanup()
			return nil, err
		}
		if s.thumb != nil {
			row.ThumbKey = base + ".thumb.jpg"
			if err := u.put(ctx, &putKeys, row.ThumbKey, bytes.NewReader(s.thumb), int64(len(s.thumb)), "image/jpeg"); err != nil {
				cleanup()
				return nil, err
			}
		}
		if s.display != nil {
			row.DisplayKey = base + ".web.jpg"
			size, err := s.display.Seek(0, io.SeekEnd)
			if err == nil {
				_, err = s.display.Seek(0, io.SeekStart)
			}
			if err != nil {
				cleanup()
				return nil, apperr.Internal(err)
			}
			if err := u.put(ctx, &putKeys, row.DisplayKey, s.display, size, "image/jpeg"); err != nil {
				cleanup()
				return nil, err
			}
		}
		rows = append(rows, row)
	}
	err := db.Transact(ctx, u.deps.DB, func(ctx context.Context) error {
		if k.quota {
			// One upload of a company at a time checks the quota and inserts, so two concurrent
			// ones cannot both fit in the last free bytes.
			if err := db.LockForTx(ctx, u.deps.DB, "creatives:quota:"+o.companyID); err != nil {
				return apperr.Internal(err)
			}
			var add int64
			for _, r := range rows {
				add += r.Size
			}
			if err := u.checkQuota(ctx, k, o, add); err != nil {
				return err
			}
		}
		return u.store.CreateFiles(ctx, rows)
	})
	if err != nil {
		cleanup()
		if apperr.CodeOf(err) == apperr.ETOOLARGE {
			return nil, err
		}
		return nil, db.Translate(err, "", MsgSaveFailed)
	}
	return rows, nil
}

func (u *uploader) put(ctx context.Context, keys *[]string, key string, r io.Reader, size int64, contentType string) error {
	*keys = append(*keys, key) // recorded first: a failed put may still have left something
	return u.deps.Storage.Put(ctx, key, r, size, contentType)
}

// storeReader checks and stores one file given as a reader (StoreFile).
func (u *uploader) storeReader(ctx context.Context, k uploadKind, o owner, name string, r io.Reader) (*store.File, error) {
	s, err := u.stage(ctx, k, name, r, k.maxBytes)
	if err != nil {
		return nil, err
	}
	defer s.close()
	rows, err := u.save(ctx, k, o, []*staged{s})
	if err != nil {
		return nil, err
	}
	return rows[0], nil
}

// cleanName keeps the base name a browser sent, without control characters or Unicode format
// characters (category Cf: bidi overrides such as U+202E, which show "gpj.exe" as "exe.jpg", and
// invisible joiners), at most 255 bytes.
func cleanName(name string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, name)
	if name == "." || name == "/" {
		name = ""
	}
	for len(name) > 255 {
		_, size := lastRune(name)
		name = name[:len(name)-size]
	}
	return name
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i]&0xC0 != 0x80 {
			return rune(s[i]), len(s) - i
		}
	}
	return 0, 1
}
