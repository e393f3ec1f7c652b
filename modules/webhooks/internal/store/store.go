// Package store holds the webhooks module's rows and queries (tables prefixed webhooks_).
package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"marquee/platform/db"
)

// Endpoint is a company's receiver. Events is a comma-separated list of types. Secret is kept in
// clear because every delivery is signed with it (an HMAC needs the key itself).
type Endpoint struct {
	ID             string `gorm:"primaryKey;size:36"`
	CompanyID      string `gorm:"size:36;not null;index"`
	UserID         string `gorm:"size:36;not null"` // who registered it: emailed when it is disabled
	URL            string `gorm:"size:500;not null"`
	Description    string `gorm:"size:200;not null;default:''"`
	Events         string `gorm:"size:1000;not null"`
	Secret         string `gorm:"size:100;not null"`
	Enabled        bool   `gorm:"not null"`
	DisabledAt     *time.Time
	DisabledReason string `gorm:"size:200;not null;default:''"`
	FailingSince   *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

func (Endpoint) TableName() string { return "webhooks_endpoints" }

// Delivery is one event for one endpoint. Body is the exact JSON posted (signed at each attempt
// with a fresh timestamp). ExpiresAt ends the retries (24 hours after creation or a redelivery).
type Delivery struct {
	ID            string    `gorm:"primaryKey;size:36"`
	EndpointID    string    `gorm:"size:36;not null;uniqueIndex:webhooks_deliveries_event,priority:2;index:webhooks_deliveries_log,priority:1"`
	CompanyID     string    `gorm:"size:36;not null"`
	EventID       string    `gorm:"size:64;not null;uniqueIndex:webhooks_deliveries_event,priority:1"`
	EventType     string    `gorm:"size:64;not null"`
	Body          string    `gorm:"type:text;not null"`
	Status        string    `gorm:"size:16;not null;index:webhooks_deliveries_due,priority:1"`
	Attempts      int       `gorm:"not null;default:0"`
	NextAttemptAt time.Time `gorm:"not null;index:webhooks_deliveries_due,priority:2"`
	ExpiresAt     time.Time `gorm:"not null"`
	LastStatus    int       `gorm:"not null;default:0"`
	LastResponse  string    `gorm:"size:600;not null;default:''"`
	LastError     string    `gorm:"size:600;not null;default:''"`
	DeliveredAt   *time.Time
	CreatedAt     time.Time `gorm:"index:webhooks_deliveries_log,priority:2"`
	UpdatedAt     time.Time
}

func (Delivery) TableName() string { return "webhooks_deliveries" }

// Migrations create the module's tables.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID:       "webhooks-0001-endpoints-deliveries",
		Migrate:  func(tx *gorm.DB) error { return tx.Migrator().CreateTable(&endpoint0001{}, &delivery0001{}) },
		Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("webhooks_deliveries", "webhooks_endpoints") },
	}}
}

// endpoint0001 and delivery0001 are the tables as migration 0001 made them (snapshots, so that
// later changes to the rows never change what the migration does).
type endpoint0001 struct {
	ID             string `gorm:"primaryKey;size:36"`
	CompanyID      string `gorm:"size:36;not null;index"`
	UserID         string `gorm:"size:36;not null"` // who registered it: emailed when it is disabled
	URL            string `gorm:"size:500;not null"`
	Description    string `gorm:"size:200;not null;default:''"`
	Events         string `gorm:"size:1000;not null"`
	Secret         string `gorm:"size:100;not null"`
	Enabled        bool   `gorm:"not null"`
	DisabledAt     *time.Time
	DisabledReason string `gorm:"size:200;not null;default:''"`
	FailingSince   *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

func (endpoint0001) TableName() string { return "webhooks_endpoints" }

type delivery0001 struct {
	ID            string    `gorm:"primaryKey;size:36"`
	EndpointID    string    `gorm:"size:36;not null;uniqueIndex:webhooks_deliveries_event,priority:2;index:webhooks_deliveries_log,priority:1"`
	CompanyID     string    `gorm:"size:36;not null"`
	EventID       string    `gorm:"size:64;not null;uniqueIndex:webhooks_deliveries_event,priority:1"`
	EventType     string    `gorm:"size:64;not null"`
	Body          string    `gorm:"type:text;not null"`
	Status        string    `gorm:"size:16;not null;index:webhooks_deliveries_due,priority:1"`
	Attempts      int       `gorm:"not null;default:0"`
	NextAttemptAt time.Time `gorm:"not null;index:webhooks_deliveries_due,priority:2"`
	ExpiresAt     time.Time `gorm:"not null"`
	LastStatus    int       `gorm:"not null;default:0"`
	LastResponse  string    `gorm:"size:600;not null;default:''"`
	LastError     string    `gorm:"size:600;not null;default:''"`
	DeliveredAt   *time.Time
	CreatedAt     time.Time `gorm:"index:webhooks_deliveries_log,priority:2"`
	UpdatedAt     time.Time
}

func (delivery0001) TableName() string { return "webhooks_deliveries" }

// Store runs the module's queries.
type Store struct{ db *gorm.DB }

// New returns the store.
func New(gdb *gorm.DB) *Store { return &Store{db: gdb} }

// conn is the caller's transaction or the database.
func (s *Store) conn(ctx context.Context) *gorm.DB { return db.Conn(ctx, s.db) }

// Create inserts a row.
func (s *Store) Create(ctx context.Context, row any) error { return s.conn(ctx).Create(row).Error }

// CompanyEndpoints lists a company's endpoints, oldest first.
func (s *Store) CompanyEndpoints(ctx context.Context, companyID string) ([]Endpoint, error) {
	var out []Endpoint
	err := s.conn(ctx).Where("company_id = ?", companyID).Order("created_at, id").Find(&out).Error
	return out, err
}

// CountEndpoints counts a company's endpoints.
func (s *Store) CountEndpoints(ctx context.Context, companyID string) (int64, error) {
	var n int64
	err := s.conn(ctx).Model(&Endpoint{}).Where("company_id = ?", companyID).Count(&n).Error
	return n, err
}

// CompanyEndpoint returns one of the company's endpoints, or gorm.ErrRecordNotFound.
func (s *Store) CompanyEndpoint(ctx context.Context, companyID, id string) (*Endpoint, error) {
	var e Endpoint
	err := s.conn(ctx).Where("company_id = ? AND id = ?", companyID, id).Take(&e).Error
	return &e, err
}

// EndpointsByIDs returns endpoints by id.
func (s *Store) EndpointsByIDs(ctx context.Context, ids []string) ([]Endpoint, error) {
	var out []Endpoint
	if len(ids) == 0 {
		return out, nil
	}
	err := s.conn(ctx).Where("id IN ?", ids).Find(&out).Error
	return out, err
}

// EnabledEndpoints lists the company's enabled endpoints.
func (s *Store) EnabledEndpoints(ctx context.Context, companyID string) ([]Endpoint, error) {
	var out []Endpoint
	err := s.conn(ctx).Where("company_id = ? AND enabled = ?", companyID, true).Order("created_at, id").Find(&out).Error
	return out, err
}

// UpdateEndpoint sets columns of an endpoint.
func (s *Store) UpdateEndpoint(ctx context.Context, id string, cols map[string]any) error {
	return s.conn(ctx).Model(&Endpoint{}).Where("id = ?", id).Updates(cols).Error
}

// UpdateEndpointWhere sets columns of an endpoint when cond holds; it reports whether it did.
func (s *Store) UpdateEndpointWhere(ctx context.Context, id string, cond string, args []any, cols map[string]any) (bool, error) {
	res := s.conn(ctx).Model(&Endpoint{}).Where("id = ?", id).Where(cond, args...).Updates(cols)
	return res.RowsAffected == 1, res.Error
}

// DeleteEndpoint removes an endpoint and its deliveries.
func (s *Store) DeleteEndpoint(ctx context.Context, id string) error {
	if err := s.conn(ctx).Where("endpoint_id = ?", id).Delete(&Delivery{}).Error; err != nil {
		return err
	}
	return s.conn(ctx).Where("id = ?", id).Delete(&Endpoint{}).Error
}

// AddDeliveries inserts deliveries; a (event, endpoint) pair already there is left alone, so a
// repeated fan-out adds nothing.
func (s *Store) AddDeliveries(ctx context.Context, rows []Delivery) error {
	if len(rows) == 0 {
		return nil
	}
	return s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&rows).Error
}

// Deliveries lists an endpoint's latest deliveries.
func (s *Store) Deliveries(ctx context.Context, endpointID string, limit int) ([]Delivery, error) {
	var out []Delivery
	err := s.conn(ctx).Where("endpoint_id = ?", endpointID).Order("created_at DESC, id DESC").Limit(limit).Find(&out).Error
	return out, err
}

// DeliveryByID returns a delivery, or gorm.ErrRecordNotFound.
func (s *Store) DeliveryByID(ctx context.Context, id string) (*Delivery, error) {
	var d Delivery
	if err := s.conn(ctx).Where("id = ?", id).Take(&d).Error; err != nil {
		return nil, err
	}
	return &d, nil
}

// Delivery returns one delivery of an endpoint, or gorm.ErrRecordNotFound.
func (s *Store) Delivery(ctx context.Context, endpointID, id string) (*Delivery, error) {
	var d Delivery
	err := s.conn(ctx).Where("endpoint_id = ? AND id = ?", endpointID, id).Take(&d).Error
	return &d, err
}

// DueDeliveries lists pending deliveries whose next attempt has come, oldest first.
func (s *Store) DueDeliveries(ctx context.Context, now time.Time, limit int) ([]Delivery, error) {
	var out []Delivery
	err := s.conn(ctx).Where("status = ? AND next_attempt_at <= ?", "pending", now).
		Order("next_attempt_at, id").Limit(limit).Find(&out).Error
	return out, err
}

// ClaimDelivery takes a due delivery for one attempt: it moves the next attempt past the lease and
// counts the attempt, with a conditional update so that two workers never both take it.
func (s *Store) ClaimDelivery(ctx context.Context, id string, now, leaseEnd time.Time) (bool, error) {
	res := s.conn(ctx).Model(&Delivery{}).Where("id = ? AND status = ? AND next_attempt_at <= ?", id, "pending", now).
		Updates(map[string]any{"next_attempt_at": leaseEnd, "attempts": gorm.Expr("attempts + 1"), "updated_at": now})
	return res.RowsAffected == 1, res.Error
}

// FinishDelivery records an attempt's outcome on a delivery still pending and still at the
// attempt this worker claimed; it reports whether it did (so exactly one outcome is recorded).
func (s *Store) FinishDelivery(ctx context.Context, id string, attempts int, cols map[string]any) (bool, error) {
	res := s.conn(ctx).Model(&Delivery{}).Where("id = ? AND status = ? AND attempts = ?", id, "pending", attempts).Updates(cols)
	return res.RowsAffected == 1, res.Error
}

// UpdateDelivery sets columns of a delivery.
func (s *Store) UpdateDelivery(ctx context.Context, id string, cols map[string]any) error {
	return s.conn(ctx).Model(&Delivery{}).Where("id = ?", id).Updates(cols).Error
}

// FailPending marks an endpoint's pending deliveries failed (the endpoint was disabled).
func (s *Store) FailPending(ctx context.Context, endpointID, reason string, now time.Time) error {
	return s.conn(ctx).Model(&Delivery{}).Where("endpoint_id = ? AND status = ?", endpointID, "pending").
		Updates(map[string]any{"status": "failed", "last_error": reason, "updated_at": now}).Error
}

// Attempts reads a delivery's attempt count.
func (s *Store) Attempts(ctx context.Context, id string) (int, error) {
	var n []int
	if err := s.conn(ctx).Model(&Delivery{}).Where("id = ?", id).Pluck("attempts", &n).Error; err != nil {
		return 0, err
	}
	if len(n) != 1 {
		return 0, gorm.ErrRecordNotFound
	}
	return n[0], nil
}

// PruneDeliveries deletes finished deliveries last changed before cutoff; it returns how many.
func (s *Store) PruneDeliveries(ctx context.Context, cutoff time.Time) (int64, error) {
	res := s.conn(ctx).Where("status <> ? AND updated_at < ?", "pending", cutoff).Delete(&Delivery{})
	return res.RowsAffected, res.Error
}
