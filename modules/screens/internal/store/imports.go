package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"marquee/platform/dates"
	"marquee/platform/db"
)

// Imports of a CMS's proof-of-play export (docs/screens-import.md): the mapping of the CMS's
// references to faces and creatives, one row per uploaded file, and the rows it stored.

// ImportDisplay maps a CMS's display reference to a face.
type ImportDisplay struct {
	Ref       string `gorm:"primaryKey;size:255"`
	FaceID    string `gorm:"size:36;not null"`
	UpdatedBy string `gorm:"size:36;not null;default:''"`
	UpdatedAt time.Time
}

func (ImportDisplay) TableName() string { return "screens_import_displays" }

// ImportMedia maps a CMS's media reference to a campaign's creative.
type ImportMedia struct {
	Ref        string `gorm:"primaryKey;size:255"`
	CampaignID string `gorm:"size:36;not null"`
	CreativeID string `gorm:"size:36;not null"`
	UpdatedBy  string `gorm:"size:36;not null;default:''"`
	UpdatedAt  time.Time
}

func (ImportMedia) TableName() string { return "screens_import_media" }

// Import is one reading of an uploaded file, identified by the SHA-256 of its bytes: the same file
// again answers the latest such row's report (a file is read again only once a reference it had
// unmapped is mapped). Report is the JSON of its first reasons (bounded), Unmapped the JSON of the
// references it could not map.
type Import struct {
	ID         string `gorm:"primaryKey;size:36"`
	SHA256     string `gorm:"column:sha256;size:64;not null;index"`
	Format     string `gorm:"size:10;not null"`
	FileName   string `gorm:"size:255;not null;default:''"`
	UploadedBy string `gorm:"size:36;not null"`
	Rows       int    `gorm:"not null"`
	Accepted   int    `gorm:"not null"`
	Flagged    int    `gorm:"not null"`
	Refused    int    `gorm:"not null"`
	Duplicates int    `gorm:"not null"`
	Plays      int64  `gorm:"not null"`
	Report     string `gorm:"type:text;not null"`
	Unmapped   string `gorm:"type:text;not null"`
	CreatedAt  time.Time
}

func (Import) TableName() string { return "screens_imports" }

// ImportRow is a mapped row of an import, stored once per (display, media, from): a row of a
// later file with the same key is a duplicate and counts nothing. Flag is empty for a counted row.
type ImportRow struct {
	Display    string     `gorm:"primaryKey;size:255"`
	Media      string     `gorm:"primaryKey;size:255"`
	FromAt     time.Time  `gorm:"primaryKey"`
	ToAt       time.Time  `gorm:"not null"`
	ImportID   string     `gorm:"size:36;not null;index"`
	FaceID     string     `gorm:"size:36;not null"`
	CampaignID string     `gorm:"size:36;not null"`
	CreativeID string     `gorm:"size:36;not null"`
	Week       dates.Date `gorm:"type:varchar(10);not null"`
	Count      int64      `gorm:"not null"`
	DurationMs int64      `gorm:"not null"`
	Flag       string     `gorm:"size:20;not null;default:''"`
}

func (ImportRow) TableName() string { return "screens_import_rows" }

// FindImportByHash returns the latest import of the file with this SHA-256, or nil.
func (s *Store) FindImportByHash(ctx context.Context, sum string) (*Import, error) {
	var row Import
	if err := s.conn(ctx).Where("sha256 = ?", sum).Order("created_at DESC, id DESC").Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, nil
		}
		return nil, err
	}
	return &row, nil
}

// Imports returns the latest imports, newest first.
func (s *Store) Imports(ctx context.Context, limit int) ([]Import, error) {
	var rows []Import
	err := s.conn(ctx).Order("created_at DESC, id DESC").Limit(limit).Find(&rows).Error
	return rows, err
}

// ImportDisplays returns the display mappings (all, or those of these refs).
func (s *Store) ImportDisplays(ctx context.Context, refs []string) ([]ImportDisplay, error) {
	var rows []ImportDisplay
	q := s.conn(ctx).Order("ref")
	if refs != nil {
		if len(refs) == 0 {
			return rows, nil
		}
		q = q.Where("ref IN ?", refs)
	}
	err := q.Find(&rows).Error
	return rows, err
}

// ImportMedias returns the media mappings (all, or those of these refs).
func (s *Store) ImportMedias(ctx context.Context, refs []string) ([]ImportMedia, error) {
	var rows []ImportMedia
	q := s.conn(ctx).Order("ref")
	if refs != nil {
		if len(refs) == 0 {
			return rows, nil
		}
		q = q.Where("ref IN ?", refs)
	}
	err := q.Find(&rows).Error
	return rows, err
}

// SaveImportDisplay sets a display's face.
func (s *Store) SaveImportDisplay(ctx context.Context, row ImportDisplay) error {
	return s.conn(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "ref"}},
		DoUpdates: clause.AssignmentColumns([]string{"face_id", "updated_by", "updated_at"})}).Create(&row).Error
}

// SaveImportMedia sets a media's campaign and creative.
func (s *Store) SaveImportMedia(ctx context.Context, row ImportMedia) error {
	return s.conn(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "ref"}},
		DoUpdates: clause.AssignmentColumns([]string{"campaign_id", "creative_id", "updated_by", "updated_at"})}).Create(&row).Error
}

// DeleteImportDisplay and DeleteImportMedia remove a mapping.
func (s *Store) DeleteImportDisplay(ctx context.Context, ref string) error {
	return s.conn(ctx).Where("ref = ?", ref).Delete(&ImportDisplay{}).Error
}

func (s *Store) DeleteImportMedia(ctx context.Context, ref string) error {
	return s.conn(ctx).Where("ref = ?", ref).Delete(&ImportMedia{}).Error
}

// ImportKey is the deduplication key of an import row (From in whole seconds, UTC).
type ImportKey struct {
	Display, Media string
	From           int64 // unix seconds
}

// ExistingImportRows returns the keys already stored of these displays between from and to
// (inclusive): the caller compares them with its rows. Reading by range and comparing in Go
// keeps the query the same on both engines (their times' text forms differ).
func (s *Store) ExistingImportRows(ctx context.Context, displays []string, from, to time.Time) (map[ImportKey]bool, error) {
	out := map[ImportKey]bool{}
	for i := 0; i < len(displays); i += 500 {
		var got []ImportRow
		if err := s.conn(ctx).Select("display, media, from_at").Where("display IN ? AND from_at >= ? AND from_at <= ?",
			displays[i:min(i+500, len(displays))], from, to).Find(&got).Error; err != nil {
			return nil, err
		}
		for _, r := range got {
			out[ImportKey{r.Display, r.Media, r.FromAt.Unix()}] = true
		}
	}
	return out, nil
}

// InsertImportRows stores rows; a key already stored is left as it is.
func (s *Store) InsertImportRows(ctx context.Context, rows []ImportRow) error {
	if len(rows) == 0 {
		return nil
	}
	return s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(rows, 200).Error
}

// importMigration creates the import tables (docs/screens-import.md).
func importMigration() *db.Migration {
	return &db.Migration{
		ID: "screens-0002-imports",
		Migrate: func(tx *gorm.DB) error {
			return tx.Migrator().CreateTable(&importDisplay0002{}, &importMedia0002{}, &import0002{}, &importRow0002{})
		},
		Rollback: func(tx *gorm.DB) error {
			return tx.Migrator().DropTable("screens_import_rows", "screens_imports", "screens_import_media", "screens_import_displays")
		},
	}
}

// The tables as migration 0002 made them.
type importDisplay0002 struct {
	Ref       string `gorm:"primaryKey;size:255"`
	FaceID    string `gorm:"size:36;not null"`
	UpdatedBy string `gorm:"size:36;not null;default:''"`
	UpdatedAt time.Time
}

func (importDisplay0002) TableName() string { return "screens_import_displays" }

type importMedia0002 struct {
	Ref        string `gorm:"primaryKey;size:255"`
	CampaignID string `gorm:"size:36;not null"`
	CreativeID string `gorm:"size:36;not null"`
	UpdatedBy  string `gorm:"size:36;not null;default:''"`
	UpdatedAt  time.Time
}

func (importMedia0002) TableName() string { return "screens_import_media" }

type import0002 struct {
	ID         string `gorm:"primaryKey;size:36"`
	SHA256     string `gorm:"column:sha256;size:64;not null;index"`
	Format     string `gorm:"size:10;not null"`
	FileName   string `gorm:"size:255;not null;default:''"`
	UploadedBy string `gorm:"size:36;not null"`
	Rows       int    `gorm:"not null"`
	Accepted   int    `gorm:"not null"`
	Flagged    int    `gorm:"not null"`
	Refused    int    `gorm:"not null"`
	Duplicates int    `gorm:"not null"`
	Plays      int64  `gorm:"not null"`
	Report     string `gorm:"type:text;not null"`
	Unmapped   string `gorm:"type:text;not null"`
	CreatedAt  time.Time
}

func (import0002) TableName() string { return "screens_imports" }

type importRow0002 struct {
	Display    string     `gorm:"primaryKey;size:255"`
	Media      string     `gorm:"primaryKey;size:255"`
	FromAt     time.Time  `gorm:"primaryKey"`
	ToAt       time.Time  `gorm:"not null"`
	ImportID   string     `gorm:"size:36;not null;index"`
	FaceID     string     `gorm:"size:36;not null"`
	CampaignID string     `gorm:"size:36;not null"`
	CreativeID string     `gorm:"size:36;not null"`
	Week       dates.Date `gorm:"type:varchar(10);not null"`
	Count      int64      `gorm:"not null"`
	DurationMs int64      `gorm:"not null"`
	Flag       string     `gorm:"size:20;not null;default:''"`
}

func (importRow0002) TableName() string { return "screens_import_rows" }
