package creatives

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"marquee/modules/creatives/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/httpx"
)

// fileURL is where the browser loads a stored file (or its thumbnail): the access-checked image
// route of A §7, which serves every kind of file but proofs.
func fileURL(key string, thumb bool) string {
	u := "/creative/image?image=" + url.QueryEscape(key)
	if thumb {
		u += "&thumb=1"
	}
	return u
}

func fileDTO(f *store.File) *File {
	return &File{Key: f.Key, CompanyID: f.CompanyID, UploaderID: f.UploaderID, Kind: f.Kind, ContentType: f.ContentType,
		Size: f.Size, OriginalName: f.OriginalName, ThumbKey: f.ThumbKey, DisplayKey: f.DisplayKey, Width: f.Width,
		Height: f.Height, CreatedAt: f.CreatedAt.UTC()}
}

func uploadedDTO(f *store.File) UploadedFile {
	return UploadedFile{Filename: path.Base(f.Key), Originalname: f.OriginalName, Path: f.Key}
}

// FindFile implements Service.
func (m *Module) FindFile(ctx context.Context, key string) (*File, error) {
	f, err := m.store.FileByKey(ctx, key)
	if err != nil {
		return nil, db.Translate(err, MsgFileNotFound, "")
	}
	return fileDTO(f), nil
}

// FindFilesByKeys implements Service: one query.
func (m *Module) FindFilesByKeys(ctx context.Context, keys []string) ([]*File, error) {
	rows, err := m.store.FilesByKeys(ctx, keys)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]*File, 0, len(rows))
	for i := range rows {
		out = append(out, fileDTO(&rows[i]))
	}
	return out, nil
}

// StoreFile implements Service.
func (m *Module) StoreFile(ctx context.Context, req StoreFileRequest, r io.Reader) (*File, error) {
	var k uploadKind
	switch req.Kind {
	case KindReport:
		k = kindReport
	case KindProof:
		k = kindProof
	default:
		return nil, apperr.Field("kind", "StoreFile takes report or proof files.")
	}
	if req.CompanyID == "" {
		return nil, apperr.Field("company", "A stored file needs its company.")
	}
	f, err := m.uploads.storeReader(ctx, k, owner{companyID: req.CompanyID, uploaderID: req.UploaderID}, req.OriginalName, r)
	if err != nil {
		return nil, err
	}
	return fileDTO(f), nil
}

// releaseFile deletes the row of a file no content item or creative uses any more, in the caller's
// transaction, and returns it so that its objects are deleted after the commit. nil when the file
// stays (or there is none).
func (m *Module) releaseFile(ctx context.Context, key string) (*store.File, error) {
	if key == "" {
		return nil, nil
	}
	inUse, err := m.store.FileInUse(ctx, key)
	if err != nil || inUse {
		return nil, err
	}
	f, err := m.store.FileByKey(ctx, key)
	if db.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return f, m.store.DeleteFile(ctx, key)
}

// deleteWithFile runs del (which deletes a row and names the file it used) in a transaction with
// the release of that file, then deletes the released file's objects after the commit.
func (m *Module) deleteWithFile(ctx context.Context, del func(ctx context.Context) (fileKey string, err error)) error {
	var gone *store.File
	err := db.Transact(ctx, m.deps.DB, func(ctx context.Context) error {
		key, err := del(ctx)
		if err != nil {
			return err
		}
		gone, err = m.releaseFile(ctx, key)
		return err
	})
	if err != nil {
		return err
	}
	m.deleteObjects(ctx, gone)
	return nil
}

// deleteObjects removes a released file's objects. A failure leaves an unreferenced object (logged),
// never a row without its object.
func (m *Module) deleteObjects(ctx context.Context, f *store.File) {
	if f == nil {
		return
	}
	for _, key := range f.Keys() {
		if err := m.deps.Storage.Delete(context.WithoutCancel(ctx), key); err != nil {
			m.deps.Log.ErrorContext(ctx, "creatives: delete object", "key", key, "err", err)
		}
	}
}

// canSee reports whether p may load the file: its company's files, any file for admins, and the
// files of active content whose scope holds p's company type (A §6).
func (m *Module) canSee(ctx context.Context, p *auth.Principal, f *store.File) (bool, error) {
	if p.IsAdmin() || f.CompanyID == p.CompanyID {
		return true, nil
	}
	if f.Kind != KindContent && f.Kind != KindTemp {
		return false, nil
	}
	scope := p.CompanyType
	if scope == "" {
		scope = ScopeStandard
	}
	return m.store.ContentFileVisible(ctx, f.Key, scope)
}

// serveFile streams a stored file to a caller allowed to see it; any other answers 404 (the key
// cannot be probed). thumb=1 asks for the converted_thumb; a TIFF is served as its web copy unless
// original=1.
func (m *Module) serveFile(c *gin.Context, proofs bool) error {
	key := c.Query("image")
	if key == "" {
		return apperr.Field("image", "image is required.")
	}
	f, err := m.store.FileByKey(c, key)
	if err != nil {
		return db.Translate(err, MsgFileNotFound, "")
	}
	if (f.Kind == KindProof) != proofs {
		return apperr.NotFound(MsgFileNotFound)
	}
	ok, err := m.canSee(c, auth.Current(c), f)
	if err != nil {
		return apperr.Internal(err)
	}
	if !ok {
		return apperr.NotFound(MsgFileNotFound)
	}
	objectKey := f.Key
	switch {
	case c.Query("thumb") == "1":
		if f.ThumbKey == "" {
			return apperr.NotFound(MsgFileNotFound)
		}
		objectKey = f.ThumbKey
	case f.DisplayKey != "" && c.Query("original") != "1":
		objectKey = f.DisplayKey
	}
	rc, obj, err := m.deps.Storage.Get(c, objectKey)
	if err != nil {
		return err
	}
	defer rc.Close()
	h := c.Writer.Header()
	h.Set("Content-Type", obj.ContentType)
	h.Set("X-Content-Type-Options", "nosniff")
	// Keys are never rewritten, so a browser may keep the bytes; "private" keeps shared caches out
	// because access depends on the session.
	h.Set("Cache-Control", "private, max-age=86400")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	disposition := "inline"
	if !strings.HasPrefix(obj.ContentType, "image/") && !strings.HasPrefix(obj.ContentType, "video/") && obj.ContentType != "application/pdf" {
		disposition = "attachment"
	}
	name := f.OriginalName
	if name == "" {
		name = path.Base(f.Key)
	}
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": name}))
	if rs, ok := rc.(io.ReadSeeker); ok {
		// Ranges, for video players.
		http.ServeContent(c.Writer, c.Request, "", obj.ModTime, rs)
		return nil
	}
	h.Set("Content-Length", fmt.Sprint(obj.Size))
	c.Status(http.StatusOK)
	if _, err := io.Copy(c.Writer, rc); err != nil {
		httpx.Logger(c).Warn("creatives: serve file", "key", objectKey, "err", err)
	}
	return nil
}

// CleanTempFiles removes the /upload_temp files that nothing attached within TempFileTTLHours, and
// answers how many it removed. The row goes first, and only while unattached, so a file attached
// meanwhile is kept.
func (m *Module) CleanTempFiles(ctx context.Context) (int, error) {
	cutoff := m.deps.Clock.Now().Add(-time.Duration(TempFileTTLHours) * time.Hour)
	removed := 0
	for {
		files, err := m.store.UnusedFiles(ctx, KindTemp, cutoff, 200)
		if err != nil {
			return removed, apperr.Internal(err)
		}
		if len(files) == 0 {
			return removed, nil
		}
		for i := range files {
			deleted, err := m.store.DeleteUnusedFile(ctx, files[i].Key)
			if err != nil {
				return removed, apperr.Internal(err)
			}
			if deleted {
				m.deleteObjects(ctx, &files[i])
				removed++
			}
		}
		if len(files) < 200 {
			return removed, nil
		}
	}
}
