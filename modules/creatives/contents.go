package creatives

import (
	"context"
	"path"

	"marquee/modules/creatives/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/pagination"
)

// contentListSpec: A §9, content lists default to 50 (50, 75, 100, All).
var contentListSpec = pagination.Spec{
	PageSizes: ContentPageSizes, DefaultSize: 50,
	Sortable:    map[string]string{"created_at": "created_at", "name": "name", "type": "type"},
	DefaultSort: "-created_at",
}

// contentFilter is what p may see (A §6): admins every item; others the active items whose scope
// holds their company type.
func contentFilter(p *auth.Principal, q string) store.ContentFilter {
	if p.IsAdmin() {
		return store.ContentFilter{Q: q}
	}
	scope := p.CompanyType
	if scope == "" {
		scope = ScopeStandard
	}
	return store.ContentFilter{Scope: scope, Active: true, Q: q}
}

func (s *service) listContents(ctx context.Context, p *auth.Principal, params pagination.Params) (pagination.Page[*Content], error) {
	rows, total, err := s.store.ListContents(ctx, contentFilter(p, params.Q), params)
	if err != nil {
		return pagination.Page[*Content]{}, apperr.Internal(err)
	}
	files, err := s.filesOf(ctx, contentKeys(rows))
	if err != nil {
		return pagination.Page[*Content]{}, err
	}
	out := make([]*Content, 0, len(rows))
	for i := range rows {
		out = append(out, contentDTO(&rows[i], files[rows[i].FileKey]))
	}
	return pagination.Envelope(out, total, params), nil
}

func contentKeys(rows []store.Content) []string {
	var keys []string
	for _, r := range rows {
		if r.FileKey != "" {
			keys = append(keys, r.FileKey)
		}
	}
	return keys
}

// filesOf returns the file rows under keys, by key.
func (s *service) filesOf(ctx context.Context, keys []string) (map[string]*store.File, error) {
	rows, err := s.store.FilesByKeys(ctx, keys)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make(map[string]*store.File, len(rows))
	for i := range rows {
		out[rows[i].Key] = &rows[i]
	}
	return out, nil
}

func contentDTO(c *store.Content, f *store.File) *Content {
	dto := &Content{ID: c.ID, CustomName: c.CustomName, Name: c.Name, Type: readContentType(c.Type),
		Scope: store.SplitSet(c.Scopes), Tags: store.SplitSet(c.Tags), Status: c.Status, Description: c.Description,
		Relevant: c.Relevant, URL: c.FileKey, Youtube: c.Youtube, CreatedAt: c.CreatedAt.UTC()}
	if c.FileKey != "" {
		dto.AwsURL = fileURL(c.FileKey, false)
	}
	if f != nil && f.ThumbKey != "" {
		dto.Thumb = fileURL(c.FileKey, true)
	}
	return dto
}

// createContent saves a content item (admins, A §6). A file item needs a content or temp upload of
// the caller's company first (A §5); a youtube item needs a link with a v parameter.
func (s *service) createContent(ctx context.Context, p *auth.Principal, req CreateContentRequest) (*Content, error) {
	typ, scopes, tags, err := normalizeContentFields(req.Type, req.Scopes, req.Tags)
	if err != nil {
		return nil, err
	}
	name, err := cleanText("name", req.Content.Name, maxNameLen, false)
	if err != nil {
		return nil, err
	}
	now := s.deps.Clock.Now()
	row := &store.Content{ID: ids.New(), CompanyID: p.CompanyID, Type: typ, Scopes: store.JoinSet(scopes),
		Tags: store.JoinSet(tags), Status: StatusActive, CreatedBy: p.UserID, CreatedAt: now, UpdatedAt: now}
	var file *store.File
	if typ == ContentYoutube {
		if row.Youtube, err = youtubeID(req.Youtube); err != nil {
			return nil, err
		}
		row.Name = name
		if row.Name == "" {
			row.Name = "YouTube " + row.Youtube
		}
	} else {
		file, err = s.ownUpload(ctx, p, p.CompanyID, req.Content.URL, []string{KindContent, KindTemp})
		if err != nil {
			return nil, apperr.New(apperr.EINVALID, MsgUploadContent)
		}
		if contentFamily(file.ContentType) != typ {
			return nil, apperr.Field("type", MsgContentTypeKind)
		}
		row.FileKey, row.CustomName, row.Name = file.Key, path.Base(file.Key), name
		if row.Name == "" {
			row.Name = file.OriginalName
		}
		if row.Name == "" {
			row.Name = row.CustomName
		}
	}
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if file != nil {
			if err := s.attach(ctx, file.Key, p.CompanyID); err != nil {
				return err
			}
		}
		return s.store.CreateContent(ctx, row)
	})
	if err != nil {
		return nil, db.Translate(err, MsgUploadContent, MsgSaveFailed)
	}
	return contentDTO(row, file), nil
}

// attach marks an upload used; a not-found error (db.IsNotFound) when the temp cleanup took it
// first.
func (s *service) attach(ctx context.Context, key, companyID string) error {
	return s.store.AttachFile(ctx, key, companyID)
}

// ownUpload returns the upload under key when it is of one of kinds and belongs to companyID or was
// uploaded by p (an admin's upload for a company). ENOTFOUND otherwise.
func (s *service) ownUpload(ctx context.Context, p *auth.Principal, companyID, key string, kinds []string) (*store.File, error) {
	if key == "" {
		return nil, apperr.NotFound(MsgFileNotFound)
	}
	f, err := s.store.FileByKey(ctx, key)
	if err != nil {
		return nil, db.Translate(err, MsgFileNotFound, "")
	}
	ok := false
	for _, k := range kinds {
		ok = ok || f.Kind == k
	}
	if !ok || (f.CompanyID != companyID && f.UploaderID != p.UserID) {
		return nil, apperr.NotFound(MsgFileNotFound)
	}
	return f, nil
}

// updateContent changes a content item (admins, A §6); the body's id, when given, must be the
// address's.
func (s *service) updateContent(ctx context.Context, _ *auth.Principal, id string, req UpdateContentRequest) (*Content, error) {
	if req.ID != "" && req.ID != id {
		return nil, apperr.Field("id", "The id does not match the address.")
	}
	typ, scopes, tags, err := normalizeContentFields(req.Type, req.Scopes, req.Tags)
	if err != nil {
		return nil, err
	}
	name, err := cleanText("name", req.Name, maxNameLen, true)
	if err != nil {
		return nil, err
	}
	desc, err := cleanText("description", req.Description, maxDescriptionLen, false)
	if err != nil {
		return nil, err
	}
	if req.Status != StatusActive && req.Status != StatusInactive {
		return nil, apperr.Field("status", "Status is active or inactive.")
	}
	var row *store.Content
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		cur, err := s.store.ContentByID(ctx, id)
		if err != nil {
			return err
		}
		// A link stays a link and a file stays of its family.
		if (readContentType(cur.Type) == ContentYoutube) != (typ == ContentYoutube) {
			return apperr.Field("type", MsgContentTypeKind)
		}
		if cur.FileKey != "" {
			f, err := s.store.FileByKey(ctx, cur.FileKey)
			if err != nil {
				return err
			}
			if contentFamily(f.ContentType) != typ {
				return apperr.Field("type", MsgContentTypeKind)
			}
		}
		if err := s.store.UpdateContent(ctx, id, map[string]any{"name": name, "type": typ, "scopes": store.JoinSet(scopes),
			"tags": store.JoinSet(tags), "status": req.Status, "description": desc, "updated_at": s.deps.Clock.Now()}); err != nil {
			return err
		}
		row, err = s.store.ContentByID(ctx, id)
		return err
	})
	if err != nil {
		return nil, db.Translate(err, MsgContentNotFound, MsgSaveFailed)
	}
	files, err := s.filesOf(ctx, contentKeys([]store.Content{*row}))
	if err != nil {
		return nil, err
	}
	return contentDTO(row, files[row.FileKey]), nil
}

// deleteContent removes the item and its file: the rows in one transaction, then the objects.
func (s *service) deleteContent(ctx context.Context, _ *auth.Principal, id string) (SuccessResponse, error) {
	err := s.deleteWithFile(ctx, func(ctx context.Context) (string, error) {
		cur, err := s.store.ContentByID(ctx, id)
		if err != nil {
			return "", err
		}
		return cur.FileKey, s.store.DeleteContent(ctx, id)
	})
	if err != nil {
		return SuccessResponse{}, db.Translate(err, MsgContentNotFound, "")
	}
	return SuccessResponse{Success: true}, nil
}

// markRelevant makes id the only relevant item (A §5) in one transaction. Concurrent markings take
// turns (db.LockForTx): the unique index alone would refuse the loser instead of ordering them.
func (s *service) markRelevant(ctx context.Context, _ *auth.Principal, id string) (*Content, error) {
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if err := db.LockForTx(ctx, s.deps.DB, "creatives.relevant"); err != nil {
			return err
		}
		return s.store.MarkRelevant(ctx, id, s.deps.Clock.Now())
	})
	if err != nil {
		return nil, db.Translate(err, MsgContentNotFound, MsgSaveFailed)
	}
	row, err := s.store.ContentByID(ctx, id)
	if err != nil {
		return nil, db.Translate(err, MsgContentNotFound, "")
	}
	files, err := s.filesOf(ctx, contentKeys([]store.Content{*row}))
	if err != nil {
		return nil, err
	}
	return contentDTO(row, files[row.FileKey]), nil
}
