package store

import (
	"context"
	"time"

	"gorm.io/gorm"

	"marquee/platform/db"
)

// APIKey is a row of identity_api_keys (docs/api.md "Authentication"). Only the SHA-256 of the key
// is stored; Prefix is its first characters, shown so a person can tell keys apart.
type APIKey struct {
	ID         string     `gorm:"primaryKey;size:36"`
	CompanyID  string     `gorm:"size:36;not null;index:identity_api_keys_company,priority:1"`
	CreatedBy  string     `gorm:"size:36;not null"`
	Name       string     `gorm:"size:100;not null"`
	Scope      string     `gorm:"size:16;not null"`
	Prefix     string     `gorm:"size:16;not null"`
	Hash       string     `gorm:"size:64;not null;uniqueIndex:identity_api_keys_hash"`
	CreatedAt  time.Time  `gorm:"not null;index:identity_api_keys_company,priority:2"`
	LastUsedAt *time.Time ``
	LastUsedIP string     `gorm:"size:64;not null;default:''"`
	RevokedAt  *time.Time ``
	RevokedBy  string     `gorm:"size:36;not null;default:''"`
}

func (APIKey) TableName() string { return "identity_api_keys" }

// APIKeyMigrations create identity_api_keys; identity's Migrations append them.
func APIKeyMigrations() []*db.Migration {
	// A snapshot of the row as this migration made it.
	type apiKeys0001 struct {
		ID         string    `gorm:"primaryKey;size:36"`
		CompanyID  string    `gorm:"size:36;not null;index:identity_api_keys_company,priority:1"`
		CreatedBy  string    `gorm:"size:36;not null"`
		Name       string    `gorm:"size:100;not null"`
		Scope      string    `gorm:"size:16;not null"`
		Prefix     string    `gorm:"size:16;not null"`
		Hash       string    `gorm:"size:64;not null;uniqueIndex:identity_api_keys_hash"`
		CreatedAt  time.Time `gorm:"not null;index:identity_api_keys_company,priority:2"`
		LastUsedAt *time.Time
		LastUsedIP string `gorm:"size:64;not null;default:''"`
		RevokedAt  *time.Time
		RevokedBy  string `gorm:"size:36;not null;default:''"`
	}
	return []*db.Migration{{
		ID:       "identity-apikeys-0001-api-keys",
		Migrate:  func(tx *gorm.DB) error { return tx.Table("identity_api_keys").Migrator().CreateTable(&apiKeys0001{}) },
		Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("identity_api_keys") },
	}}
}

// CreateAPIKey inserts k.
func (s *Store) CreateAPIKey(ctx context.Context, k *APIKey) error {
	return s.conn(ctx).Create(k).Error
}

// APIKeyByHash returns the key with that hash, revoked or not.
func (s *Store) APIKeyByHash(ctx context.Context, hash string) (*APIKey, error) {
	return take[APIKey](s.conn(ctx), "hash = ?", hash)
}

// APIKeyByID returns the key with that id.
func (s *Store) APIKeyByID(ctx context.Context, id string) (*APIKey, error) {
	return take[APIKey](s.conn(ctx), "id = ?", id)
}

// APIKeys lists keys, newest first: of one company, or of every company when companyID is "".
// Revoked keys are listed too unless live.
func (s *Store) APIKeys(ctx context.Context, companyID string, live bool, offset, limit int) ([]APIKey, int64, error) {
	q := s.conn(ctx).Model(&APIKey{})
	if companyID != "" {
		q = q.Where("company_id = ?", companyID)
	}
	if live {
		q = q.Where("revoked_at IS NULL")
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []APIKey
	q = q.Order("created_at DESC, id DESC").Offset(offset)
	if limit > 0 {
		q = q.Limit(limit)
	}
	return out, total, q.Find(&out).Error
}

// RevokeAPIKey marks a live key revoked; it reports whether it did. The UPDATE ends every cached
// principal (identity_api_keys is one of identity's PrincipalTables).
func (s *Store) RevokeAPIKey(ctx context.Context, id, by string, at time.Time) (bool, error) {
	res := s.conn(ctx).Model(&APIKey{}).Where("id = ? AND revoked_at IS NULL", id).
		Updates(map[string]any{"revoked_at": at, "revoked_by": by})
	return res.RowsAffected == 1, res.Error
}

// TouchAPIKey records a use unless one was recorded after since. It is a quiet write: a last-used
// time does not end cached principals.
func (s *Store) TouchAPIKey(ctx context.Context, id, ip string, at, since time.Time) error {
	return db.Quiet(s.conn(ctx)).Model(&APIKey{}).
		Where("id = ? AND (last_used_at IS NULL OR last_used_at < ?)", id, since).
		Updates(map[string]any{"last_used_at": at, "last_used_ip": ip}).Error
}
