package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"marquee/platform/dates"
	"marquee/platform/db"
)

// Digest is a row of reports_digests: the company's weekly digest is on, and goes to the user who
// turned it on last (docs/delivery-assurance.md "Weekly digest").
type Digest struct {
	CompanyID string    `gorm:"primaryKey;size:36"`
	UserID    string    `gorm:"size:36;not null"`
	CreatedAt time.Time `gorm:"not null"`
}

func (Digest) TableName() string { return "reports_digests" }

// DigestRun is a row of reports_digest_runs: the company's digest of one week was sent (or there
// was nothing to send). Its primary key makes the digest once per company and week.
type DigestRun struct {
	CompanyID string     `gorm:"primaryKey;size:36"`
	WeekStart dates.Date `gorm:"primaryKey"`
	Mailed    bool       `gorm:"not null;default:false"`
	CreatedAt time.Time  `gorm:"not null"`
}

func (DigestRun) TableName() string { return "reports_digest_runs" }

// digestTables creates the digest's tables.
var digestTables = &db.Migration{
	ID:       "reports-0002-digests",
	Migrate:  func(tx *gorm.DB) error { return tx.Migrator().CreateTable(&digest0002{}, &digestRun0002{}) },
	Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("reports_digest_runs", "reports_digests") },
}

// The rows as reports-0002 created them.
type digest0002 struct {
	CompanyID string    `gorm:"primaryKey;size:36"`
	UserID    string    `gorm:"size:36;not null"`
	CreatedAt time.Time `gorm:"not null"`
}

func (digest0002) TableName() string { return "reports_digests" }

type digestRun0002 struct {
	CompanyID string     `gorm:"primaryKey;size:36"`
	WeekStart dates.Date `gorm:"primaryKey"`
	Mailed    bool       `gorm:"not null;default:false"`
	CreatedAt time.Time  `gorm:"not null"`
}

func (digestRun0002) TableName() string { return "reports_digest_runs" }

// FindDigest returns the company's digest row, or gorm.ErrRecordNotFound when it is off.
func (s *Store) FindDigest(ctx context.Context, companyID string) (*Digest, error) {
	var d Digest
	if err := s.conn(ctx).Where("company_id = ?", companyID).Take(&d).Error; err != nil {
		return nil, err
	}
	return &d, nil
}

// SetDigest turns the company's digest on (the recipient becomes d.UserID; the date it was first
// turned on stays) or off.
func (s *Store) SetDigest(ctx context.Context, d Digest, on bool) error {
	if !on {
		return s.conn(ctx).Where("company_id = ?", d.CompanyID).Delete(&Digest{}).Error
	}
	return s.conn(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "company_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"user_id"})}).Create(&d).Error
}

// DigestsAfter returns up to limit digests with a company id after the given one (the job walks
// them in pages).
func (s *Store) DigestsAfter(ctx context.Context, after string, limit int) ([]Digest, error) {
	var out []Digest
	err := s.conn(ctx).Where("company_id > ?", after).Order("company_id").Limit(limit).Find(&out).Error
	return out, err
}

// DigestRunsOf returns which of these companies already have their digest of the week.
func (s *Store) DigestRunsOf(ctx context.Context, companyIDs []string, week dates.Date) (map[string]bool, error) {
	out := map[string]bool{}
	if len(companyIDs) == 0 {
		return out, nil
	}
	var ids []string
	if err := s.conn(ctx).Model(&DigestRun{}).Where("company_id IN ? AND week_start = ?", companyIDs, week).Pluck("company_id", &ids).Error; err != nil {
		return nil, err
	}
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// InsertDigestRun records the company's digest of the week and answers whether this call did.
func (s *Store) InsertDigestRun(ctx context.Context, r *DigestRun) (bool, error) {
	res := s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(r)
	return res.RowsAffected == 1, res.Error
}
