// Package store holds the identity module's tables and queries. It is internal: no other module
// can reach these rows (STYLE.md "Keep what is private out of reach by the compiler").
package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"marquee/platform/db"
)

// Company is a row of identity_companies.
type Company struct {
	ID        string    `gorm:"primaryKey;size:36"`
	Name      string    `gorm:"size:100;not null"`
	NameKey   string    `gorm:"size:100;not null;uniqueIndex"` // case- and space-folded name: names are unique (A §5)
	Type      string    `gorm:"size:16;not null;default:standard"`
	Status    string    `gorm:"size:16;not null;default:active"`
	CreatedAt time.Time `gorm:"not null"`
	UpdatedAt time.Time `gorm:"not null"`
}

func (Company) TableName() string { return "identity_companies" }

// User is a row of identity_users.
type User struct {
	ID                     string `gorm:"primaryKey;size:36"`
	CompanyID              string `gorm:"size:36;not null;index"`
	Email                  string `gorm:"size:254;not null;uniqueIndex"` // lower-cased
	PasswordHash           string `gorm:"size:255;not null;default:''"`
	FirstName              string `gorm:"size:50;not null;default:''"`
	LastName               string `gorm:"size:50;not null;default:''"`
	Phone                  string `gorm:"size:32;not null;default:''"`
	Role                   string `gorm:"size:16;not null;default:user"`
	Status                 string `gorm:"size:16;not null;default:active"`
	Certified              bool   `gorm:"not null;default:false"`
	SignInCount            int    `gorm:"not null;default:0"`
	LastLogin              *time.Time
	TourCampaignShow       bool      `gorm:"not null;default:true"`
	TutorialCampaignShowed bool      `gorm:"not null;default:false"`
	SendPhoneZoho          bool      `gorm:"not null;default:false"`
	CreatedAt              time.Time `gorm:"not null"`
	UpdatedAt              time.Time `gorm:"not null"`
}

func (User) TableName() string { return "identity_users" }

// Token is a single-use link token (password reset, account access). Only its hash is stored.
type Token struct {
	ID        string    `gorm:"primaryKey;size:36"`
	UserID    string    `gorm:"size:36;not null;index"`
	Purpose   string    `gorm:"size:16;not null"`
	TokenHash string    `gorm:"size:64;not null;uniqueIndex"`
	ExpiresAt time.Time `gorm:"not null"`
	UsedAt    *time.Time
	CreatedAt time.Time `gorm:"not null"`
}

func (Token) TableName() string { return "identity_tokens" }

// Token purposes.
const (
	PurposeReset  = "reset"
	PurposeAccess = "access"
)

// Migrations of the identity tables. Never edit a landed migration; add one.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID: "identity-0001-companies-users-tokens",
		Migrate: func(tx *gorm.DB) error {
			return tx.Migrator().CreateTable(&Company{}, &User{}, &Token{})
		},
		Rollback: func(tx *gorm.DB) error {
			return tx.Migrator().DropTable("identity_tokens", "identity_users", "identity_companies")
		},
	}}
}

// Store runs the identity queries.
type Store struct{ db *gorm.DB }

// New returns the store.
func New(gdb *gorm.DB) *Store { return &Store{db: gdb} }

func (s *Store) conn(ctx context.Context) *gorm.DB { return db.Conn(ctx, s.db) }

// CompanyByNameKey returns the company with that folded name, or gorm.ErrRecordNotFound.
func (s *Store) CompanyByNameKey(ctx context.Context, key string) (*Company, error) {
	var c Company
	if err := s.conn(ctx).Where("name_key = ?", key).Take(&c).Error; err != nil {
		return nil, err
	}
	return &c, nil
}

// CompanyByID returns a company.
func (s *Store) CompanyByID(ctx context.Context, id string) (*Company, error) {
	var c Company
	if err := s.conn(ctx).Where("id = ?", id).Take(&c).Error; err != nil {
		return nil, err
	}
	return &c, nil
}

// CompaniesByIDs returns the companies with these ids.
func (s *Store) CompaniesByIDs(ctx context.Context, ids []string) ([]Company, error) {
	var cs []Company
	if len(ids) == 0 {
		return cs, nil
	}
	err := s.conn(ctx).Where("id IN ?", ids).Find(&cs).Error
	return cs, err
}

// CountUsersByCompany returns the number of users of each company.
func (s *Store) CountUsersByCompany(ctx context.Context, companyIDs []string) (map[string]int, error) {
	type row struct {
		CompanyID string
		N         int
	}
	var rows []row
	out := map[string]int{}
	if len(companyIDs) == 0 {
		return out, nil
	}
	if err := s.conn(ctx).Model(&User{}).Select("company_id, count(*) AS n").Where("company_id IN ?", companyIDs).Group("company_id").Scan(&rows).Error; err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.CompanyID] = r.N
	}
	return out, nil
}

// CreateCompany inserts a company; gorm.ErrDuplicatedKey when the name is taken.
func (s *Store) CreateCompany(ctx context.Context, c *Company) error {
	return s.conn(ctx).Create(c).Error
}

// CreateUser inserts a user; gorm.ErrDuplicatedKey when the email is taken.
func (s *Store) CreateUser(ctx context.Context, u *User) error { return s.conn(ctx).Create(u).Error }

// UserByEmail returns the user with that lower-cased email.
func (s *Store) UserByEmail(ctx context.Context, email string) (*User, error) {
	var u User
	if err := s.conn(ctx).Where("email = ?", email).Take(&u).Error; err != nil {
		return nil, err
	}
	return &u, nil
}

// UserByID returns a user.
func (s *Store) UserByID(ctx context.Context, id string) (*User, error) {
	var u User
	if err := s.conn(ctx).Where("id = ?", id).Take(&u).Error; err != nil {
		return nil, err
	}
	return &u, nil
}

// UsersByIDs returns the users with these ids.
func (s *Store) UsersByIDs(ctx context.Context, ids []string) ([]User, error) {
	var us []User
	if len(ids) == 0 {
		return us, nil
	}
	err := s.conn(ctx).Where("id IN ?", ids).Find(&us).Error
	return us, err
}

// UpdateUser sets the given columns of a user.
func (s *Store) UpdateUser(ctx context.Context, id string, cols map[string]any) error {
	res := s.conn(ctx).Model(&User{}).Where("id = ?", id).Updates(cols)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return gorm.ErrRecordNotFound
	}
	return nil
}

// ActivateInvited makes an invited user active; other statuses are left alone.
func (s *Store) ActivateInvited(ctx context.Context, id string, at time.Time) error {
	return s.conn(ctx).Model(&User{}).Where("id = ? AND status = ?", id, "invited").
		Updates(map[string]any{"status": "active", "updated_at": at}).Error
}

// RecordSignIn counts a sign-in, in SQL so concurrent sign-ins both count.
func (s *Store) RecordSignIn(ctx context.Context, id string, at time.Time) error {
	return s.conn(ctx).Model(&User{}).Where("id = ?", id).Updates(map[string]any{
		"sign_in_count": gorm.Expr("sign_in_count + 1"), "last_login": at, "updated_at": at,
	}).Error
}

// CreateToken stores a token.
func (s *Store) CreateToken(ctx context.Context, t *Token) error { return s.conn(ctx).Create(t).Error }

// LiveToken returns the unused, unexpired token with that hash and purpose.
func (s *Store) LiveToken(ctx context.Context, hash, purpose string, now time.Time) (*Token, error) {
	var t Token
	err := s.conn(ctx).Where("token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?", hash, purpose, now).Take(&t).Error
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// UseToken marks a live token used and returns it. Exactly one of several concurrent callers wins;
// the others get gorm.ErrRecordNotFound (a replayed link).
func (s *Store) UseToken(ctx context.Context, hash, purpose string, now time.Time) (*Token, error) {
	var t Token
	res := s.conn(ctx).Model(&t).Clauses(clause.Returning{}).
		Where("token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?", hash, purpose, now).
		Update("used_at", now)
	if res.Error != nil {
		return nil, res.Error
	}
	if res.RowsAffected != 1 {
		return nil, gorm.ErrRecordNotFound
	}
	return &t, nil
}

// RetireTokens marks every unused token of the user and purpose as used (a new reset link
// replaces older ones).
func (s *Store) RetireTokens(ctx context.Context, userID, purpose string, now time.Time) error {
	return s.conn(ctx).Model(&Token{}).Where("user_id = ? AND purpose = ? AND used_at IS NULL", userID, purpose).Update("used_at", now).Error
}
