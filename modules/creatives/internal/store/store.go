// Package store holds the creatives module's tables and queries. It is internal: no other module
// can reach these rows.
package store

import (
	"context"
	"strings"
	"time"

	"gorm.io/gorm"

	"marquee/platform/db"
	"marquee/platform/pagination"
)

// File is a row of creatives_files: every stored upload, owned by a company. Its key is the storage
// key of the original; the thumbnail and the web copy of a TIFF live under their own keys.
type File struct {
	Key          string `gorm:"column:storage_key;primaryKey;size:512"`
	CompanyID    string `gorm:"size:36;not null;index"`
	UploaderID   string `gorm:"size:36;not null;default:''"`
	Kind         string `gorm:"size:32;not null;index:idx_creatives_files_unused,priority:1"`
	ContentType  string `gorm:"size:128;not null"`
	Size         int64  `gorm:"not null"`
	OriginalName string `gorm:"size:255;not null;default:''"`
	ThumbKey     string `gorm:"size:512;not null;default:''"`
	DisplayKey   string `gorm:"size:512;not null;default:''"`
	Width        int    `gorm:"not null;default:0"`
	Height       int    `gorm:"not null;default:0"`
	// Attached is set when a content item or a creative uses the file: the temp cleanup keeps it.
	Attached  bool      `gorm:"not null;default:false;index:idx_creatives_files_unused,priority:2"`
	CreatedAt time.Time `gorm:"not null;index:idx_creatives_files_unused,priority:3"`
	// PreflightInput is the pre-flight analysis of an uploaded creative image (JSON of
	// preflight.Input: its OCR'd words, contrast, brightness, elements), made once on upload; the
	// report is evaluated from it against any faces without decoding again. Empty when none.
	PreflightInput string `gorm:"type:text;not null;default:''"`
}

func (File) TableName() string { return "creatives_files" }

// Keys are the storage keys of the file: the original, its thumbnail and its web copy.
func (f *File) Keys() []string {
	keys := []string{f.Key}
	for _, k := range []string{f.ThumbKey, f.DisplayKey} {
		if k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

// Content is a row of creatives_contents: a content library item (A §4). Scopes and tags are kept
// as "|a|b|" so a scope filter is one LIKE on an indexed-free but small table.
type Content struct {
	ID          string    `gorm:"primaryKey;size:36"`
	CompanyID   string    `gorm:"size:36;not null"` // the admin's company that published it
	FileKey     string    `gorm:"size:512;not null;default:''"`
	CustomName  string    `gorm:"size:255;not null;default:''"`
	Name        string    `gorm:"size:255;not null"`
	Type        string    `gorm:"size:16;not null"`
	Scopes      string    `gorm:"size:64;not null"`
	Tags        string    `gorm:"size:2048;not null;default:''"`
	Status      string    `gorm:"size:16;not null;index:idx_creatives_contents_list,priority:1"`
	Description string    `gorm:"size:2000;not null;default:''"`
	Relevant    bool      `gorm:"not null;default:false"`
	Youtube     string    `gorm:"size:32;not null;default:''"`
	CreatedBy   string    `gorm:"size:36;not null;default:''"`
	CreatedAt   time.Time `gorm:"not null;index:idx_creatives_contents_list,priority:2"`
	UpdatedAt   time.Time `gorm:"not null"`
}

func (Content) TableName() string { return "creatives_contents" }

// Creative is a row of creatives_creatives: a company's creative (A §4).
type Creative struct {
	ID        string    `gorm:"primaryKey;size:36"`
	CompanyID string    `gorm:"size:36;not null;index:idx_creatives_creatives_company,priority:1"`
	FileKey   string    `gorm:"size:512;not null"`
	Name      string    `gorm:"size:255;not null"`
	Alt       string    `gorm:"size:255;not null;default:''"`
	Reference string    `gorm:"size:16;not null;uniqueIndex"`
	Width     int       `gorm:"not null;default:0"`
	Height    int       `gorm:"not null;default:0"`
	IsDefault bool      `gorm:"not null;default:false"`
	CreatedBy string    `gorm:"size:36;not null;default:''"`
	CreatedAt time.Time `gorm:"not null;index:idx_creatives_creatives_company,priority:2"`
	// Design is the Ad Design Tool's design (JSON of preflight.Design) for a builder creative: its
	// pre-flight is exact, without OCR. Empty for uploaded images.
	Design string `gorm:"type:text;not null;default:''"`
}

func (Creative) TableName() string { return "creatives_creatives" }

// Migrations of the creatives tables. Never edit a landed migration; add one. Each creates its
// tables from its own snapshot of the rows, so a later change to a row never changes what it does.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID: "creatives-0001-files-contents-creatives",
		Migrate: func(tx *gorm.DB) error {
			if err := tx.Migrator().CreateTable(&file0001{}, &content0001{}, &creative0001{}); err != nil {
				return err
			}
			// At most one relevant content item (A §5) and one default creative per company, held
			// by the database: partial unique indexes work the same on PostgreSQL and SQLite.
			for _, stmt := range []string{
				"CREATE UNIQUE INDEX idx_creatives_contents_one_relevant ON creatives_contents (relevant) WHERE relevant = true",
				"CREATE UNIQUE INDEX idx_creatives_creatives_one_default ON creatives_creatives (company_id) WHERE is_default = true",
				"CREATE INDEX idx_creatives_creatives_size ON creatives_creatives (company_id, width, height)",
			} {
				if err := tx.Exec(stmt).Error; err != nil {
					return err
				}
			}
			return nil
		},
		Rollback: func(tx *gorm.DB) error {
			return tx.Migrator().DropTable("creatives_creatives", "creatives_contents", "creatives_files")
		},
	}, {
		// The orphan sweep asks which keys of a batch a row names as its original, thumbnail or
		// web copy (NamedKeys); without these, each batch would scan the table.
		ID: "creatives-0002-derived-key-indexes",
		Migrate: func(tx *gorm.DB) error {
			for _, stmt := range []string{
				"CREATE INDEX IF NOT EXISTS idx_creatives_files_thumb_key ON creatives_files (thumb_key)",
				"CREATE INDEX IF NOT EXISTS idx_creatives_files_display_key ON creatives_files (display_key)",
			} {
				if err := tx.Exec(stmt).Error; err != nil {
					return err
				}
			}
			return nil
		},
		Rollback: func(tx *gorm.DB) error {
			for _, ix := range []string{"idx_creatives_files_thumb_key", "idx_creatives_files_display_key"} {
				if err := tx.Migrator().DropIndex(&file0001{}, ix); err != nil {
					return err
				}
			}
			return nil
		},
	}, {
		// Issue 29: the pre-flight analysis of an uploaded image, the builder's design of a creative.
		ID: "creatives-0003-preflight",
		Migrate: func(tx *gorm.DB) error {
			if err := tx.Migrator().AddColumn(&file0003{}, "PreflightInput"); err != nil {
				return err
			}
			return tx.Migrator().AddColumn(&creative0003{}, "Design")
		},
		Rollback: func(tx *gorm.DB) error {
			if err := tx.Migrator().DropColumn(&file0003{}, "PreflightInput"); err != nil {
				return err
			}
			return tx.Migrator().DropColumn(&creative0003{}, "Design")
		},
	}}
}

// The columns creatives-0003 added.
type file0003 struct {
	PreflightInput string `gorm:"type:text;not null;default:''"`
}

func (file0003) TableName() string { return "creatives_files" }

type creative0003 struct {
	Design string `gorm:"type:text;not null;default:''"`
}

func (creative0003) TableName() string { return "creatives_creatives" }

// The rows as creatives-0001 created them.
type file0001 struct {
	Key          string    `gorm:"column:storage_key;primaryKey;size:512"`
	CompanyID    string    `gorm:"size:36;not null;index"`
	UploaderID   string    `gorm:"size:36;not null;default:''"`
	Kind         string    `gorm:"size:32;not null;index:idx_creatives_files_unused,priority:1"`
	ContentType  string    `gorm:"size:128;not null"`
	Size         int64     `gorm:"not null"`
	OriginalName string    `gorm:"size:255;not null;default:''"`
	ThumbKey     string    `gorm:"size:512;not null;default:''"`
	DisplayKey   string    `gorm:"size:512;not null;default:''"`
	Width        int       `gorm:"not null;default:0"`
	Height       int       `gorm:"not null;default:0"`
	Attached     bool      `gorm:"not null;default:false;index:idx_creatives_files_unused,priority:2"`
	CreatedAt    time.Time `gorm:"not null;index:idx_creatives_files_unused,priority:3"`
}

func (file0001) TableName() string { return "creatives_files" }

type content0001 struct {
	ID          string    `gorm:"primaryKey;size:36"`
	CompanyID   string    `gorm:"size:36;not null"`
	FileKey     string    `gorm:"size:512;not null;default:''"`
	CustomName  string    `gorm:"size:255;not null;default:''"`
	Name        string    `gorm:"size:255;not null"`
	Type        string    `gorm:"size:16;not null"`
	Scopes      string    `gorm:"size:64;not null"`
	Tags        string    `gorm:"size:2048;not null;default:''"`
	Status      string    `gorm:"size:16;not null;index:idx_creatives_contents_list,priority:1"`
	Description string    `gorm:"size:2000;not null;default:''"`
	Relevant    bool      `gorm:"not null;default:false"`
	Youtube     string    `gorm:"size:32;not null;default:''"`
	CreatedBy   string    `gorm:"size:36;not null;default:''"`
	CreatedAt   time.Time `gorm:"not null;index:idx_creatives_contents_list,priority:2"`
	UpdatedAt   time.Time `gorm:"not null"`
}

func (content0001) TableName() string { return "creatives_contents" }

type creative0001 struct {
	ID        string    `gorm:"primaryKey;size:36"`
	CompanyID string    `gorm:"size:36;not null;index:idx_creatives_creatives_company,priority:1"`
	FileKey   string    `gorm:"size:512;not null"`
	Name      string    `gorm:"size:255;not null"`
	Alt       string    `gorm:"size:255;not null;default:''"`
	Reference string    `gorm:"size:16;not null;uniqueIndex"`
	Width     int       `gorm:"not null;default:0"`
	Height    int       `gorm:"not null;default:0"`
	IsDefault bool      `gorm:"not null;default:false"`
	CreatedBy string    `gorm:"size:36;not null;default:''"`
	CreatedAt time.Time `gorm:"not null;index:idx_creatives_creatives_company,priority:2"`
}

func (creative0001) TableName() string { return "creatives_creatives" }

// JoinSet encodes a set of words as "|a|b|" (empty set: "").
func JoinSet(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return "|" + strings.Join(xs, "|") + "|"
}

// SplitSet decodes JoinSet.
func SplitSet(s string) []string {
	s = strings.Trim(s, "|")
	if s == "" {
		return []string{}
	}
	return strings.Split(s, "|")
}

// Store runs the creatives queries.
type Store struct{ db *gorm.DB }

// New returns the store.
func New(gdb *gorm.DB) *Store { return &Store{db: gdb} }

func (s *Store) conn(ctx context.Context) *gorm.DB { return db.Conn(ctx, s.db) }

// CreateFiles inserts file rows.
func (s *Store) CreateFiles(ctx context.Context, fs []*File) error {
	if len(fs) == 0 {
		return nil
	}
	return s.conn(ctx).Create(fs).Error
}

// CompanyBytes is the size of every original a company keeps (its storage quota counts these).
func (s *Store) CompanyBytes(ctx context.Context, companyID string) (int64, error) {
	var n int64
	err := s.conn(ctx).Model(&File{}).Where("company_id = ?", companyID).Select("COALESCE(SUM(size), 0)").Scan(&n).Error
	return n, err
}

// FileByKey returns a file, or gorm.ErrRecordNotFound.
func (s *Store) FileByKey(ctx context.Context, key string) (*File, error) {
	var f File
	if err := s.conn(ctx).Where("storage_key = ?", key).Take(&f).Error; err != nil {
		return nil, err
	}
	return &f, nil
}

// NamedKeys answers which of keys a file row names, as its original, thumbnail or web copy: one
// query for a batch of the orphan sweep, on three indexed columns.
func (s *Store) NamedKeys(ctx context.Context, keys []string) (map[string]bool, error) {
	named := map[string]bool{}
	if len(keys) == 0 {
		return named, nil
	}
	var fs []File
	err := s.conn(ctx).Select("storage_key", "thumb_key", "display_key").
		Where("storage_key IN ? OR thumb_key IN ? OR display_key IN ?", keys, keys, keys).Find(&fs).Error
	for i := range fs {
		for _, k := range fs[i].Keys() {
			named[k] = true
		}
	}
	return named, err
}

// AttachFile marks a file used and moves it to companyID (an admin's upload for a company).
func (s *Store) AttachFile(ctx context.Context, key, companyID string) error {
	res := s.conn(ctx).Model(&File{}).Where("storage_key = ?", key).
		Updates(map[string]any{"attached": true, "company_id": companyID})
	if res.Error == nil && res.RowsAffected == 0 {
		return gorm.ErrRecordNotFound
	}
	return res.Error
}

// FilesByKeys returns the files under these keys.
func (s *Store) FilesByKeys(ctx context.Context, keys []string) ([]File, error) {
	var fs []File
	if len(keys) == 0 {
		return fs, nil
	}
	err := s.conn(ctx).Where("storage_key IN ?", keys).Find(&fs).Error
	return fs, err
}

// DeleteUnusedFile removes a file row only while it is not attached; it reports whether it did.
// The temp cleanup and an attach racing for the same file therefore never both win.
func (s *Store) DeleteUnusedFile(ctx context.Context, key string) (bool, error) {
	res := s.conn(ctx).Where("storage_key = ? AND attached = ?", key, false).Delete(&File{})
	return res.RowsAffected == 1, res.Error
}

// DeleteFile removes a file row.
func (s *Store) DeleteFile(ctx context.Context, key string) error {
	return s.conn(ctx).Where("storage_key = ?", key).Delete(&File{}).Error
}

// UnusedFiles returns up to limit files of kind created before cutoff and never attached.
func (s *Store) UnusedFiles(ctx context.Context, kind string, cutoff time.Time, limit int) ([]File, error) {
	var fs []File
	err := s.conn(ctx).Where("kind = ? AND attached = ? AND created_at < ?", kind, false, cutoff).
		Order("created_at").Limit(limit).Find(&fs).Error
	return fs, err
}

// FileInUse reports whether a content item or a creative still uses key.
func (s *Store) FileInUse(ctx context.Context, key string) (bool, error) {
	var n int64
	if err := s.conn(ctx).Model(&Content{}).Where("file_key = ?", key).Count(&n).Error; err != nil || n > 0 {
		return n > 0, err
	}
	err := s.conn(ctx).Model(&Creative{}).Where("file_key = ?", key).Count(&n).Error
	return n > 0, err
}

// ContentFilter narrows the content list.
type ContentFilter struct {
	Scope  string // "" for every scope (admins)
	Active bool   // only active items
	Q      string // in name, description or tags
}

func (s *Store) contentQuery(ctx context.Context, f ContentFilter) *gorm.DB {
	q := s.conn(ctx).Model(&Content{})
	if f.Scope != "" {
		q = q.Where(db.Contains("scopes", "|"+f.Scope+"|"))
	}
	if f.Active {
		q = q.Where("status = ?", "active")
	}
	if f.Q != "" {
		text := strings.ToLower(f.Q)
		name, like := db.Contains("LOWER(name)", text)
		desc, _ := db.Contains("LOWER(description)", text)
		tags, _ := db.Contains("LOWER(tags)", text)
		q = q.Where("("+name+" OR "+desc+" OR "+tags+")", like, like, like)
	}
	return q
}

// listPage returns one page of the rows query selects, and how many it selects in all; page applies
// the order, offset and limit.
func listPage[T any](query func() *gorm.DB, page func(*gorm.DB) *gorm.DB) ([]T, int64, error) {
	var total int64
	if err := query().Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var rows []T
	err := page(query()).Find(&rows).Error
	return rows, total, err
}

// ListContents returns one page of content, the relevant item first (A §5), and the total.
func (s *Store) ListContents(ctx context.Context, f ContentFilter, params pagination.Params) ([]Content, int64, error) {
	return listPage[Content](func() *gorm.DB { return s.contentQuery(ctx, f) },
		func(q *gorm.DB) *gorm.DB { return params.Apply(q.Order("relevant DESC")) })
}

// ContentByID returns a content item, or gorm.ErrRecordNotFound.
func (s *Store) ContentByID(ctx context.Context, id string) (*Content, error) {
	var c Content
	if err := s.conn(ctx).Where("id = ?", id).Take(&c).Error; err != nil {
		return nil, err
	}
	return &c, nil
}

// CreateContent inserts a content item.
func (s *Store) CreateContent(ctx context.Context, c *Content) error {
	return s.conn(ctx).Create(c).Error
}

// UpdateContent sets columns of a content item.
func (s *Store) UpdateContent(ctx context.Context, id string, cols map[string]any) error {
	res := s.conn(ctx).Model(&Content{}).Where("id = ?", id).Updates(cols)
	if res.Error == nil && res.RowsAffected == 0 {
		return gorm.ErrRecordNotFound
	}
	return res.Error
}

// DeleteContent removes a content item.
func (s *Store) DeleteContent(ctx context.Context, id string) error {
	res := s.conn(ctx).Where("id = ?", id).Delete(&Content{})
	if res.Error == nil && res.RowsAffected == 0 {
		return gorm.ErrRecordNotFound
	}
	return res.Error
}

// MarkRelevant makes id the only relevant content item: the others are cleared first, in the
// caller's transaction; the unique index refuses a concurrent second one.
func (s *Store) MarkRelevant(ctx context.Context, id string, at time.Time) error {
	if err := s.conn(ctx).Model(&Content{}).Where("relevant = ? AND id <> ?", true, id).
		Updates(map[string]any{"relevant": false, "updated_at": at}).Error; err != nil {
		return err
	}
	return s.UpdateContent(ctx, id, map[string]any{"relevant": true, "updated_at": at})
}

// CreativeFilter narrows the creative list.
type CreativeFilter struct {
	CompanyID     string // "" for every company (admins without a company filter)
	Width, Height int    // both > 0: only that size
}

func (s *Store) creativeQuery(ctx context.Context, f CreativeFilter) *gorm.DB {
	q := s.conn(ctx).Model(&Creative{})
	if f.CompanyID != "" {
		q = q.Where("company_id = ?", f.CompanyID)
	}
	if f.Width > 0 && f.Height > 0 {
		q = q.Where("width = ? AND height = ?", f.Width, f.Height)
	}
	return q
}

// ListCreatives returns one page of creatives and the total.
func (s *Store) ListCreatives(ctx context.Context, f CreativeFilter, params pagination.Params) ([]Creative, int64, error) {
	return listPage[Creative](func() *gorm.DB { return s.creativeQuery(ctx, f) }, params.Apply)
}

// LatestCreatives returns at most limit creatives, the newest first.
func (s *Store) LatestCreatives(ctx context.Context, f CreativeFilter, limit int) ([]Creative, error) {
	var cs []Creative
	err := s.creativeQuery(ctx, f).Order("created_at DESC").Order("id").Limit(limit).Find(&cs).Error
	return cs, err
}

// CreativeByID returns a creative, or gorm.ErrRecordNotFound.
func (s *Store) CreativeByID(ctx context.Context, id string) (*Creative, error) {
	var c Creative
	if err := s.conn(ctx).Where("id = ?", id).Take(&c).Error; err != nil {
		return nil, err
	}
	return &c, nil
}

// CreativesByIDs returns the creatives with these ids.
func (s *Store) CreativesByIDs(ctx context.Context, ids []string) ([]Creative, error) {
	var cs []Creative
	if len(ids) == 0 {
		return cs, nil
	}
	err := s.conn(ctx).Where("id IN ?", ids).Find(&cs).Error
	return cs, err
}

// DefaultCreative returns the company's default creative, or gorm.ErrRecordNotFound.
func (s *Store) DefaultCreative(ctx context.Context, companyID string) (*Creative, error) {
	var c Creative
	if err := s.conn(ctx).Where("company_id = ? AND is_default = ?", companyID, true).Take(&c).Error; err != nil {
		return nil, err
	}
	return &c, nil
}

// CreateCreative inserts a creative.
func (s *Store) CreateCreative(ctx context.Context, c *Creative) error {
	return s.conn(ctx).Create(c).Error
}

// DeleteCreative removes a creative.
func (s *Store) DeleteCreative(ctx context.Context, id string) error {
	res := s.conn(ctx).Where("id = ?", id).Delete(&Creative{})
	if res.Error == nil && res.RowsAffected == 0 {
		return gorm.ErrRecordNotFound
	}
	return res.Error
}

// MakeDefault makes id the company's only default creative, in the caller's transaction.
func (s *Store) MakeDefault(ctx context.Context, companyID, id string) error {
	if err := s.conn(ctx).Model(&Creative{}).Where("company_id = ? AND is_default = ? AND id <> ?", companyID, true, id).
		Update("is_default", false).Error; err != nil {
		return err
	}
	res := s.conn(ctx).Model(&Creative{}).Where("id = ? AND company_id = ?", id, companyID).Update("is_default", true)
	if res.Error == nil && res.RowsAffected == 0 {
		return gorm.ErrRecordNotFound
	}
	return res.Error
}

// ContentFileVisible reports whether an active content item with that scope uses key: a user sees
// the files of the content meant for their company type.
func (s *Store) ContentFileVisible(ctx context.Context, key, scope string) (bool, error) {
	var n int64
	err := s.conn(ctx).Model(&Content{}).
		Where("file_key = ? AND status = ?", key, "active").Where(db.Contains("scopes", "|"+scope+"|")).Count(&n).Error
	return n > 0, err
}

// ContentNamed reports whether a content item has that name (the demo seed keeps what exists).
func (s *Store) ContentNamed(ctx context.Context, name string) (bool, error) {
	var n int64
	err := s.conn(ctx).Model(&Content{}).Where("name = ?", name).Count(&n).Error
	return n > 0, err
}

// CreativeNamed reports whether the company has a creative of that name.
func (s *Store) CreativeNamed(ctx context.Context, companyID, name string) (bool, error) {
	var n int64
	err := s.conn(ctx).Model(&Creative{}).Where("company_id = ? AND name = ?", companyID, name).Count(&n).Error
	return n > 0, err
}

// SetPreflightInput stores a file's pre-flight analysis.
func (s *Store) SetPreflightInput(ctx context.Context, key, input string) error {
	return s.conn(ctx).Model(&File{}).Where("storage_key = ?", key).Update("preflight_input", input).Error
}
