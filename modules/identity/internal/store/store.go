// Package store holds the identity module's tables and queries. It is internal: no other module
// can reach these rows (STYLE.md "Keep what is private out of reach by the compiler").
package store

import (
	"context"
	"strings"
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
	Addresses
}

// users0001 is identity_users as migration identity-0001 created it; a snapshot, so that later
// columns of User come from their own migrations.
type users0001 struct {
	ID                     string `gorm:"primaryKey;size:36"`
	CompanyID              string `gorm:"size:36;not null;index:idx_identity_users_company_id"`
	Email                  string `gorm:"size:254;not null;uniqueIndex:idx_identity_users_email"`
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

func (users0001) TableName() string { return "identity_users" }

// Addresses is the profile's address and billing address (identity-0002).
type Addresses struct {
	Address           string `gorm:"size:100;not null;default:''"`
	SubAddress        string `gorm:"size:100;not null;default:''"`
	AddressCity       string `gorm:"size:100;not null;default:''"`
	AddressState      string `gorm:"size:2;not null;default:''"`
	AddressZipcode    string `gorm:"size:10;not null;default:''"`
	BillingAddress    string `gorm:"size:100;not null;default:''"`
	SubBillingAddress string `gorm:"size:100;not null;default:''"`
	BillingCity       string `gorm:"size:100;not null;default:''"`
	BillingState      string `gorm:"size:2;not null;default:''"`
	BillingZipcode    string `gorm:"size:10;not null;default:''"`
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
			return tx.Migrator().CreateTable(&company0001{}, &users0001{}, &token0001{})
		},
		Rollback: func(tx *gorm.DB) error {
			return tx.Migrator().DropTable("identity_tokens", "identity_users", "identity_companies")
		},
	}, {
		// The profile's addresses (B §2), and the indexes of the admin grids' default sorts and
		// filters (B §2; docs/performance.md).
		ID: "identity-0002-profile-admin-grids",
		Migrate: func(tx *gorm.DB) error {
			type address0002 struct {
				Address           string `gorm:"size:100;not null;default:''"`
				SubAddress        string `gorm:"size:100;not null;default:''"`
				AddressCity       string `gorm:"size:100;not null;default:''"`
				AddressState      string `gorm:"size:2;not null;default:''"`
				AddressZipcode    string `gorm:"size:10;not null;default:''"`
				BillingAddress    string `gorm:"size:100;not null;default:''"`
				SubBillingAddress string `gorm:"size:100;not null;default:''"`
				BillingCity       string `gorm:"size:100;not null;default:''"`
				BillingState      string `gorm:"size:2;not null;default:''"`
				BillingZipcode    string `gorm:"size:10;not null;default:''"`
			}
			m := tx.Table("identity_users").Migrator()
			for _, f := range []string{"Address", "SubAddress", "AddressCity", "AddressState", "AddressZipcode",
				"BillingAddress", "SubBillingAddress", "BillingCity", "BillingState", "BillingZipcode"} {
				if err := m.AddColumn(&address0002{}, f); err != nil {
					return err
				}
			}
			for _, ix := range []string{
				"CREATE INDEX identity_users_created ON identity_users (created_at, id)",
				"CREATE INDEX identity_users_last_login ON identity_users (last_login, id)",
				"CREATE INDEX identity_users_sign_ins ON identity_users (sign_in_count, id)",
				"CREATE INDEX identity_users_last_name ON identity_users (last_name, id)",
				"CREATE INDEX identity_users_first_name ON identity_users (first_name, id)",
				"CREATE INDEX identity_users_status ON identity_users (status, created_at)",
				"CREATE INDEX identity_companies_created ON identity_companies (created_at, id)",
			} {
				if err := tx.Exec(ix).Error; err != nil {
					return err
				}
			}
			// The grids' search is a prefix search of each field (prefixLike): an index that LIKE
			// 'text%' can use, in each dialect's way.
			search := []string{
				"CREATE INDEX identity_users_email_search ON identity_users (email COLLATE NOCASE)",
				"CREATE INDEX identity_users_first_search ON identity_users (first_name COLLATE NOCASE)",
				"CREATE INDEX identity_users_last_search ON identity_users (last_name COLLATE NOCASE)",
				"CREATE INDEX identity_companies_name_search ON identity_companies (name_key COLLATE NOCASE)",
			}
			if db.Dialect(tx) == db.Postgres {
				search = []string{
					"CREATE INDEX identity_users_email_search ON identity_users (lower(email) text_pattern_ops)",
					"CREATE INDEX identity_users_first_search ON identity_users (lower(first_name) text_pattern_ops)",
					"CREATE INDEX identity_users_last_search ON identity_users (lower(last_name) text_pattern_ops)",
					"CREATE INDEX identity_companies_name_search ON identity_companies (name_key text_pattern_ops)",
				}
			}
			for _, ix := range search {
				if err := tx.Exec(ix).Error; err != nil {
					return err
				}
			}
			return nil
		},
		Rollback: func(tx *gorm.DB) error {
			for _, ix := range []string{"identity_users_created", "identity_users_last_login", "identity_users_sign_ins",
				"identity_users_last_name", "identity_users_first_name", "identity_users_status", "identity_companies_created",
				"identity_users_email_search", "identity_users_first_search", "identity_users_last_search", "identity_companies_name_search"} {
				if err := tx.Exec("DROP INDEX " + ix).Error; err != nil {
					return err
				}
			}
			for _, c := range []string{"address", "sub_address", "address_city", "address_state", "address_zipcode",
				"billing_address", "sub_billing_address", "billing_city", "billing_state", "billing_zipcode"} {
				if err := tx.Migrator().DropColumn(&User{}, c); err != nil {
					return err
				}
			}
			return nil
		},
	}}
}

// company0001 and token0001 are identity_companies and identity_tokens as identity-0001 created
// them (snapshots, like users0001).
type company0001 struct {
	ID        string    `gorm:"primaryKey;size:36"`
	Name      string    `gorm:"size:100;not null"`
	NameKey   string    `gorm:"size:100;not null;uniqueIndex"`
	Type      string    `gorm:"size:16;not null;default:standard"`
	Status    string    `gorm:"size:16;not null;default:active"`
	CreatedAt time.Time `gorm:"not null"`
	UpdatedAt time.Time `gorm:"not null"`
}

func (company0001) TableName() string { return "identity_companies" }

type token0001 struct {
	ID        string    `gorm:"primaryKey;size:36"`
	UserID    string    `gorm:"size:36;not null;index"`
	Purpose   string    `gorm:"size:16;not null"`
	TokenHash string    `gorm:"size:64;not null;uniqueIndex"`
	ExpiresAt time.Time `gorm:"not null"`
	UsedAt    *time.Time
	CreatedAt time.Time `gorm:"not null"`
}

func (token0001) TableName() string { return "identity_tokens" }

// Store runs the identity queries.
type Store struct{ db *gorm.DB }

// New returns the store.
func New(gdb *gorm.DB) *Store { return &Store{db: gdb} }

func (s *Store) conn(ctx context.Context) *gorm.DB { return db.Conn(ctx, s.db) }

// CompanyByNameKey returns the company with that folded name, or gorm.ErrRecordNotFound.
func (s *Store) CompanyByNameKey(ctx context.Context, key string) (*Company, error) {
	return take[Company](s.conn(ctx), "name_key = ?", key)
}

// CompanyByID returns a company.
func (s *Store) CompanyByID(ctx context.Context, id string) (*Company, error) {
	return take[Company](s.conn(ctx), "id = ?", id)
}

// CompaniesByIDs returns the companies with these ids.
func (s *Store) CompaniesByIDs(ctx context.Context, ids []string) ([]Company, error) {
	return byIDs[Company](s.conn(ctx), ids)
}

// take reads the one row that matches the condition, or gorm.ErrRecordNotFound.
func take[T any](q *gorm.DB, query string, args ...any) (*T, error) {
	var row T
	if err := q.Where(query, args...).Take(&row).Error; err != nil {
		return nil, err
	}
	return &row, nil
}

// idsPerQuery bounds the ids of one IN list: an admin grid's "All" page lists every id, and
// SQLite and PostgreSQL cap the parameters of one statement (32,766 and 65,535).
const idsPerQuery = 5000

// byIDs reads the rows with these ids, idsPerQuery at a time.
func byIDs[T any](q *gorm.DB, ids []string) ([]T, error) {
	var out []T
	for start := 0; start < len(ids); start += idsPerQuery {
		var part []T
		if err := q.Where("id IN ?", ids[start:min(start+idsPerQuery, len(ids))]).Find(&part).Error; err != nil {
			return nil, err
		}
		out = append(out, part...)
	}
	return out, nil
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
	return take[User](s.conn(ctx), "email = ?", email)
}

// UserByID returns a user.
func (s *Store) UserByID(ctx context.Context, id string) (*User, error) {
	return take[User](s.conn(ctx), "id = ?", id)
}

// UsersByIDs returns the users with these ids.
func (s *Store) UsersByIDs(ctx context.Context, ids []string) ([]User, error) {
	return byIDs[User](s.conn(ctx), ids)
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

// UpdateCompany sets the given columns of a company; gorm.ErrDuplicatedKey when the name is taken.
func (s *Store) UpdateCompany(ctx context.Context, id string, cols map[string]any) error {
	res := s.conn(ctx).Model(&Company{}).Where("id = ?", id).Updates(cols)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return gorm.ErrRecordNotFound
	}
	return nil
}

// UsersByEmails returns the users with these lower-cased emails.
func (s *Store) UsersByEmails(ctx context.Context, emails []string) ([]User, error) {
	var us []User
	if len(emails) == 0 {
		return us, nil
	}
	err := s.conn(ctx).Where("email IN ?", emails).Find(&us).Error
	return us, err
}

// UsersOfCompany returns the users of a company, oldest first.
func (s *Store) UsersOfCompany(ctx context.Context, companyID string, limit int) ([]User, error) {
	var us []User
	err := s.conn(ctx).Where("company_id = ?", companyID).Order("created_at ASC, id ASC").Limit(limit).Find(&us).Error
	return us, err
}

// CountCertified counts the company's users whose certified flag is set (any status).
func (s *Store) CountCertified(ctx context.Context, companyID string) (int64, error) {
	var n int64
	err := s.conn(ctx).Model(&User{}).Where("company_id = ? AND certified = ?", companyID, true).Count(&n).Error
	return n, err
}

// Admins returns the admins and super admins, by email.
func (s *Store) Admins(ctx context.Context) ([]User, error) {
	var us []User
	err := s.conn(ctx).Where("role IN ?", []string{"admin", "super_admin"}).Order("email ASC").Find(&us).Error
	return us, err
}

// DeleteUser deletes a user and their single-use tokens (a removed team member).
func (s *Store) DeleteUser(ctx context.Context, id string) error {
	if err := s.conn(ctx).Where("user_id = ?", id).Delete(&Token{}).Error; err != nil {
		return err
	}
	return s.conn(ctx).Where("id = ?", id).Delete(&User{}).Error
}

// UserFilter selects the admin user grid's rows.
type UserFilter struct {
	Q       string // lower-cased search text, matched literally
	Status  string
	Company string // a company's id: its users only
}

// prefixLike is "column LIKE ?" matching the rows whose column starts with q literally, as the
// search index of identity-0002 can serve it: SQLite's LIKE is case-insensitive and uses a NOCASE
// index (when q holds no wildcard to escape); PostgreSQL's index is on lower(column).
func (s *Store) prefixLike(column, q string) (string, string) {
	if db.Dialect(s.db) == db.Postgres && column != "name_key" {
		return db.HasPrefix("lower("+column+")", q)
	}
	return db.HasPrefix(column, q)
}

// userGridColumns are what a page of the admin user grid sorts on (besides id).
const userGridColumns = "id, created_at, last_login, sign_in_count, email, first_name, last_name, status"

// ListUsers returns a page of users (page applies order, offset and limit) and the total. The
// search matches the start of the email, the first name, the last name or the company's name. The
// page is read as ids first, from the sort's index alone, then as rows: a deep page does not read
// the rows it skips.
func (s *Store) ListUsers(ctx context.Context, f UserFilter, page func(*gorm.DB) *gorm.DB) ([]User, int64, error) {
	q := s.conn(ctx).Model(&User{})
	companyName, prefix := s.prefixLike("name_key", f.Q)
	email, _ := s.prefixLike("email", f.Q)
	first, _ := s.prefixLike("first_name", f.Q)
	last, _ := s.prefixLike("last_name", f.Q)
	company := "company_id IN (SELECT id FROM identity_companies WHERE " + companyName + ")"
	fields := []string{email, first, last, company}
	if f.Q != "" && db.Dialect(s.db) == db.Postgres {
		// One indexed branch per field, joined by UNION, with the sort columns carried along so
		// the page sorts the matches alone: PostgreSQL plans an OR of the fields (the company's
		// subquery among them) as a full scan.
		status, args := "", []any{}
		if f.Status != "" {
			status = " AND status = ?"
		}
		if f.Company != "" {
			status += " AND company_id = ?"
		}
		branches := make([]string, len(fields))
		for i, where := range fields {
			branches[i] = "SELECT " + userGridColumns + " FROM identity_users WHERE " + where + status
			args = append(args, prefix)
			if f.Status != "" {
				args = append(args, f.Status)
			}
			if f.Company != "" {
				args = append(args, f.Company)
			}
		}
		q = s.conn(ctx).Table("("+strings.Join(branches, " UNION ")+") AS matches", args...)
	} else {
		// SQLite answers the OR with one index per field (MULTI-INDEX OR), five times faster than
		// the UNION there (docs/performance.md).
		if f.Q != "" {
			q = q.Where(strings.Join(fields, " OR "), prefix, prefix, prefix, prefix)
		}
		if f.Status != "" {
			q = q.Where("status = ?", f.Status)
		}
		if f.Company != "" {
			q = q.Where("company_id = ?", f.Company)
		}
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var pageIDs []string
	if err := page(q).Pluck("id", &pageIDs).Error; err != nil {
		return nil, 0, err
	}
	us, err := s.UsersByIDs(ctx, pageIDs)
	if err != nil {
		return nil, 0, err
	}
	return inOrder(us, pageIDs, func(u User) string { return u.ID }), total, nil
}

// inOrder returns rows in the order of ids (a row gone between the two reads is left out).
func inOrder[T any](rows []T, ids []string, id func(T) string) []T {
	byID := make(map[string]T, len(rows))
	for _, r := range rows {
		byID[id(r)] = r
	}
	out := make([]T, 0, len(ids))
	for _, v := range ids {
		if r, ok := byID[v]; ok {
			out = append(out, r)
		}
	}
	return out
}

// CompanyFilter selects the admin company grid's rows.
type CompanyFilter struct {
	Q      string // lower-cased search text, matched literally
	Status string
	Type   string
}

// ListCompanies returns a page of companies and the total.
func (s *Store) ListCompanies(ctx context.Context, f CompanyFilter, page func(*gorm.DB) *gorm.DB) ([]Company, int64, error) {
	q := s.conn(ctx).Model(&Company{})
	if f.Q != "" && db.Dialect(s.db) == db.Postgres {
		// The matches are read first (OFFSET 0 keeps PostgreSQL from folding the subquery into the
		// page's query), then sorted: otherwise it walks the sort's index from the newest company
		// and filters, which reads most of the table when the matches are old.
		where, prefix := s.prefixLike("name_key", f.Q)
		args := []any{prefix}
		if f.Status != "" {
			where, args = where+" AND status = ?", append(args, f.Status)
		}
		if f.Type != "" {
			where, args = where+" AND type = ?", append(args, f.Type)
		}
		q = s.conn(ctx).Table("(SELECT id, name_key, status, type, created_at FROM identity_companies WHERE "+where+" OFFSET 0) AS matches", args...)
	} else {
		if f.Status != "" {
			q = q.Where("status = ?", f.Status)
		}
		if f.Type != "" {
			q = q.Where("type = ?", f.Type)
		}
		if f.Q != "" {
			q = q.Where(s.prefixLike("name_key", f.Q))
		}
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var pageIDs []string
	if err := page(q).Pluck("id", &pageIDs).Error; err != nil {
		return nil, 0, err
	}
	cs, err := s.CompaniesByIDs(ctx, pageIDs)
	if err != nil {
		return nil, 0, err
	}
	return inOrder(cs, pageIDs, func(c Company) string { return c.ID }), total, nil
}

// UsersOfCompanies returns the ids and companies of these companies' users, each company's oldest
// first.
func (s *Store) UsersOfCompanies(ctx context.Context, companyIDs []string) ([]User, error) {
	var us []User
	err := s.conn(ctx).Select("id, company_id, created_at").Where("company_id IN ?", companyIDs).
		Order("company_id ASC, created_at ASC, id ASC").Find(&us).Error
	return us, err
}
