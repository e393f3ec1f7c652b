package creatives

import (
	"context"
	"io"
	"net/url"
	"path"
	"time"

	"marquee/modules/creatives/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
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
func (s *service) FindFile(ctx context.Context, key string) (*File, error) {
	f, err := s.store.FileByKey(ctx, key)
	if err != nil {
		return nil, db.Translate(err, MsgFileNotFound, "")
	}
	return fileDTO(f), nil
}

// FindFilesByKeys implements Service: one query.
func (s *service) FindFilesByKeys(ctx context.Context, keys []string) ([]*File, error) {
	rows, err := s.store.FilesByKeys(ctx, keys)
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
func (s *service) StoreFile(ctx context.Context, req StoreFileRequest, r io.Reader) (*File, error) {
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
	f, err := s.uploads.storeReader(ctx, k, owner{companyID: req.CompanyID, uploaderID: req.UploaderID}, req.OriginalName, r)
	if err != nil {
		return nil, err
	}
	return fileDTO(f), nil
}

// releaseFile deletes the row of a file no content item or creative uses any more, in the caller's
// transaction, and returns it so that its objects are deleted after the commit. nil when the file
// stays (or there is none).
func (s *service) releaseFile(ctx context.Context, key string) (*store.File, error) {
	if key == "" {
		return nil, nil
	}
	inUse, err := s.store.FileInUse(ctx, key)
	if err != nil || inUse {
		return nil, err
	}
	f, err := s.store.FileByKey(ctx, key)
	if db.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return f, s.store.DeleteFile(ctx, key)
}

// deleteWithFile runs del (which deletes a row and names the file it used) in a transaction with
// the release of that file, then deletes the released file's objects after the commit.
func (s *service) deleteWithFile(ctx context.Context, del func(ctx context.Context) (fileKey string, err error)) error {
	var gone *store.File
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		key, err := del(ctx)
		if err != nil {
			return err
		}
		gone, err = s.releaseFile(ctx, key)
		return err
	})
	if err != nil {
		return err
	}
	s.deleteObjects(ctx, gone)
	return nil
}

// deleteObjects removes a released file's objects. A failure leaves an unreferenced object (logged),
// never a row without its object.
func (s *service) deleteObjects(ctx context.Context, f *store.File) {
	if f == nil {
		return
	}
	for _, key := range f.Keys() {
		if err := s.deps.Storage.Delete(context.WithoutCancel(ctx), key); err != nil {
			s.deps.Log.ErrorContext(ctx, "creatives: delete object", "key", key, "err", err)
		}
	}
}

// canSee reports whether p may load the file: its company's files, any file for admins, and the
// files of active content whose scope holds p's company type (A §6).
func (s *service) canSee(ctx context.Context, p *auth.Principal, f *store.File) (bool, error) {
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
	return s.store.ContentFileVisible(ctx, f.Key, scope)
}

// fileToServe is the stored file under key, when p may see it, and the key of the object that
// answers: the converted_thumb when thumb, a TIFF's web copy unless original, the file itself
// otherwise. Any file p may not see answers 404, so a key cannot be probed; proofs are served
// only by the proof route, and only proofs are.
func (s *service) fileToServe(ctx context.Context, p *auth.Principal, key string, proofs, thumb, original bool) (*store.File, string, error) {
	if key == "" {
		return nil, "", apperr.Field("image", "image is required.")
	}
	f, err := s.store.FileByKey(ctx, key)
	if err != nil {
		return nil, "", db.Translate(err, MsgFileNotFound, "")
	}
	if (f.Kind == KindProof) != proofs {
		return nil, "", apperr.NotFound(MsgFileNotFound)
	}
	ok, err := s.canSee(ctx, p, f)
	if err != nil {
		return nil, "", apperr.Internal(err)
	}
	if !ok {
		return nil, "", apperr.NotFound(MsgFileNotFound)
	}
	switch {
	case thumb:
		if f.ThumbKey == "" {
			return nil, "", apperr.NotFound(MsgFileNotFound)
		}
		return f, f.ThumbKey, nil
	case f.DisplayKey != "" && !original:
		return f, f.DisplayKey, nil
	}
	return f, f.Key, nil
}

// cleanTempFiles removes the /upload_temp files that nothing attached within TempFileTTLHours, and
// answers how many it removed. The row goes first, and only while unattached, so a file attached
// meanwhile is kept.
func (s *service) cleanTempFiles(ctx context.Context) (int, error) {
	cutoff := s.deps.Clock.Now().Add(-time.Duration(TempFileTTLHours) * time.Hour)
	removed := 0
	for {
		files, err := s.store.UnusedFiles(ctx, KindTemp, cutoff, 200)
		if err != nil {
			return removed, apperr.Internal(err)
		}
		if len(files) == 0 {
			return removed, nil
		}
		for i := range files {
			deleted, err := s.store.DeleteUnusedFile(ctx, files[i].Key)
			if err != nil {
				return removed, apperr.Internal(err)
			}
			if deleted {
				s.deleteObjects(ctx, &files[i])
				removed++
			}
		}
		if len(files) < 200 {
			return removed, nil
		}
	}
}
