// Package store holds the campaigns tables and their queries. It is internal: no other module can
// reach these rows. The models and the schema live here; the queries are split by what uses them
// (create.go for creation, manage.go for the management side).
package store

import (
	"context"
	"time"

	"gorm.io/gorm"

	"marquee/platform/dates"
	"marquee/platform/db"
)

// Campaign is a row of campaigns_campaigns. Markets and Cities are JSON lists. CreateKey and
// Fingerprint make creation idempotent per company: the same Idempotency-Key answers the same
// campaign, and the key reused for another form is refused. TotalActImp and TotalCost are kept
// from the weeks so the lists never sum 500,000 weeks.
type Campaign struct {
	ID              string `gorm:"primaryKey;size:36"`
	CompanyID       string `gorm:"size:36;not null;uniqueIndex:ux_campaigns_company_key,priority:1;index:ix_campaigns_company_status,priority:1"`
	UserID          string `gorm:"size:36;not null"`
	CreateKey       string `gorm:"size:100;not null;uniqueIndex:ux_campaigns_company_key,priority:2"`
	Fingerprint     string `gorm:"size:64;not null"`
	Name            string `gorm:"size:100;not null"`
	Status          string `gorm:"size:10;not null;index:ix_campaigns_company_status,priority:3;index"`
	Deleted         bool   `gorm:"not null;default:false;index:ix_campaigns_company_status,priority:2"`
	DeletedReason   string `gorm:"size:500;not null;default:''"`
	DeletedAt       *time.Time
	MbCampaign      bool       `gorm:"not null;default:false"`
	Strategy        int        `gorm:"not null"`
	Frequency       string     `gorm:"size:12;not null"`
	StartDate       dates.Date `gorm:"type:varchar(10);not null;index"`
	EndDate         dates.Date `gorm:"type:varchar(10);not null"`
	Duration        int        `gorm:"not null"`
	WeeklyBudget    int64      `gorm:"not null"` // cents
	MaxBudget       int64      `gorm:"not null;default:0"`
	TotalBudget     int64      `gorm:"not null"`
	TotalCost       int64      `gorm:"not null;default:0"`
	TotalActImp     int64      `gorm:"not null;default:0"`
	ImpressionCount int64      `gorm:"not null;default:0"`
	Markets         string     `gorm:"type:text;not null"`
	Cities          string     `gorm:"type:text;not null"`
	PlaceID         string     `gorm:"size:64;not null;default:''"`
	PlaceName       string     `gorm:"size:200;not null;default:''"`
	Radius          int        `gorm:"not null;default:0"`
	CreativeID      string     `gorm:"size:36;not null;default:''"`
	CreativeURL     string     `gorm:"size:300;not null;default:''"`
	PromoCode       string     `gorm:"size:32;not null;default:''"`
	PaymentStatus   string     `gorm:"size:10;not null;default:''"`
	PaymentMessage  string     `gorm:"size:255;not null;default:''"`
	TransactionID   string     `gorm:"size:36;not null;default:''"`
	// HoldExpiresAt is set on a conflict draft: its holds, and the draft, last until then.
	HoldExpiresAt *time.Time
	CreatedAt     time.Time `gorm:"not null;index"`
	UpdatedAt     time.Time `gorm:"not null;autoUpdateTime:false"` // set from the injected clock
}

func (Campaign) TableName() string { return "campaigns_campaigns" }

// Week is a row of campaigns_weeks: one face in one week of a campaign. The face's name, market,
// city and position are copied from locations when the week is made, so the detail page and the
// reports read one table. SpotKey is the locations reservation key the week's spot is under.
type Week struct {
	ID           string     `gorm:"primaryKey;size:36"`
	CampaignID   string     `gorm:"size:36;not null;index:ix_campaigns_weeks_campaign,priority:1"`
	CompanyID    string     `gorm:"size:36;not null;index"`
	FaceID       string     `gorm:"size:36;not null;index"`
	StartAt      dates.Date `gorm:"type:varchar(10);not null;index:ix_campaigns_weeks_campaign,priority:2;index"`
	EndAt        dates.Date `gorm:"type:varchar(10);not null"`
	Status       string     `gorm:"size:10;not null"`
	OfferPrice   int64      `gorm:"not null"` // cents
	AskingPrice  int64      `gorm:"not null"` // cents, the face's price before any credit
	Ooh          int64      `gorm:"not null;default:0"`
	ActImp       *int64
	CreativeID   string    `gorm:"size:36;not null;default:''"`
	CreativeURL  string    `gorm:"size:300;not null;default:''"`
	SpotID       string    `gorm:"size:36;not null;default:''"`
	SpotKey      string    `gorm:"size:100;not null;default:''"`
	LocationName string    `gorm:"size:200;not null;default:''"`
	Market       string    `gorm:"size:100;not null;default:''"`
	City         string    `gorm:"size:100;not null;default:''"`
	Face         string    `gorm:"size:20;not null;default:''"`
	Lat          float64   `gorm:"not null;default:0"`
	Lng          float64   `gorm:"not null;default:0"`
	Snapshot     string    `gorm:"size:300;not null;default:''"`
	CreatedAt    time.Time `gorm:"not null"`
	UpdatedAt    time.Time `gorm:"not null;autoUpdateTime:false"`
	// DeliverySource is where ActImp comes from: screen, import or admin ("" before any figure).
	// DeliveryClosedAt is when a screen week was closed (its grace for backfill over): until then
	// the make-good job leaves it alone.
	DeliverySource   string `gorm:"size:10;not null;default:''"`
	DeliveryClosedAt *time.Time
}

func (Week) TableName() string { return "campaigns_weeks" }

// WeekCreative is a row of campaigns_week_creatives: a creative or a proof image of a week (B §3).
// FileKey is the creatives module's storage key.
type WeekCreative struct {
	ID           string    `gorm:"primaryKey;size:36"`
	WeekID       string    `gorm:"size:36;not null;index"`
	CampaignID   string    `gorm:"size:36;not null;index"`
	CreativeType string    `gorm:"size:10;not null"`
	FileKey      string    `gorm:"size:300;not null"`
	URL          string    `gorm:"size:300;not null"`
	Thumb        string    `gorm:"size:300;not null;default:''"`
	CreatedAt    time.Time `gorm:"not null"`
}

func (WeekCreative) TableName() string { return "campaigns_week_creatives" }

// Charge is a row of campaigns_charges: the billing of one calendar week of a campaign. Unique on
// (campaign, week), so the creation and the weekly job charge a week once. Status follows the
// billing transaction (pending, succeeded, failed); Credit is the account credit the week took.
type Charge struct {
	ID            string     `gorm:"primaryKey;size:36"`
	CampaignID    string     `gorm:"size:36;not null;uniqueIndex:ux_campaigns_charges_week,priority:1"`
	CompanyID     string     `gorm:"size:36;not null;index"`
	Week          dates.Date `gorm:"type:varchar(10);not null;uniqueIndex:ux_campaigns_charges_week,priority:2"`
	Amount        int64      `gorm:"not null"`
	Credit        int64      `gorm:"not null;default:0"`
	TransactionID string     `gorm:"size:36;not null;default:'';index"`
	Status        string     `gorm:"size:10;not null"`
	Message       string     `gorm:"size:255;not null;default:''"`
	CreatedAt     time.Time  `gorm:"not null"`
	UpdatedAt     time.Time  `gorm:"not null;autoUpdateTime:false"`
}

func (Charge) TableName() string { return "campaigns_charges" }

// Migrations creates the campaigns tables. Each creates its tables from its own snapshot of the
// rows, so a later change to a row never changes what it does.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID: "campaigns-0001-campaigns-weeks-creatives-charges",
		Migrate: func(tx *gorm.DB) error {
			return tx.Migrator().CreateTable(&campaign0001{}, &week0001{}, &weekCreative0001{}, &charge0001{})
		},
		Rollback: func(tx *gorm.DB) error {
			return tx.Migrator().DropTable("campaigns_charges", "campaigns_week_creatives", "campaigns_weeks", "campaigns_campaigns")
		},
	}, manageIndexes, renewalMails, MakeGoodsMigration, proofChainMigration, deliverySourceMigration, proofWeekHeadsMigration,
		proofCheckpointsMigration, proofWeekHeadRowsMigration}
}

// The rows as campaigns-0001 created them.
type campaign0001 struct {
	ID              string `gorm:"primaryKey;size:36"`
	CompanyID       string `gorm:"size:36;not null;uniqueIndex:ux_campaigns_company_key,priority:1;index:ix_campaigns_company_status,priority:1"`
	UserID          string `gorm:"size:36;not null"`
	CreateKey       string `gorm:"size:100;not null;uniqueIndex:ux_campaigns_company_key,priority:2"`
	Fingerprint     string `gorm:"size:64;not null"`
	Name            string `gorm:"size:100;not null"`
	Status          string `gorm:"size:10;not null;index:ix_campaigns_company_status,priority:3;index"`
	Deleted         bool   `gorm:"not null;default:false;index:ix_campaigns_company_status,priority:2"`
	DeletedReason   string `gorm:"size:500;not null;default:''"`
	DeletedAt       *time.Time
	MbCampaign      bool       `gorm:"not null;default:false"`
	Strategy        int        `gorm:"not null"`
	Frequency       string     `gorm:"size:12;not null"`
	StartDate       dates.Date `gorm:"type:varchar(10);not null;index"`
	EndDate         dates.Date `gorm:"type:varchar(10);not null"`
	Duration        int        `gorm:"not null"`
	WeeklyBudget    int64      `gorm:"not null"`
	MaxBudget       int64      `gorm:"not null;default:0"`
	TotalBudget     int64      `gorm:"not null"`
	TotalCost       int64      `gorm:"not null;default:0"`
	TotalActImp     int64      `gorm:"not null;default:0"`
	ImpressionCount int64      `gorm:"not null;default:0"`
	Markets         string     `gorm:"type:text;not null"`
	Cities          string     `gorm:"type:text;not null"`
	PlaceID         string     `gorm:"size:64;not null;default:''"`
	PlaceName       string     `gorm:"size:200;not null;default:''"`
	Radius          int        `gorm:"not null;default:0"`
	CreativeID      string     `gorm:"size:36;not null;default:''"`
	CreativeURL     string     `gorm:"size:300;not null;default:''"`
	PromoCode       string     `gorm:"size:32;not null;default:''"`
	PaymentStatus   string     `gorm:"size:10;not null;default:''"`
	PaymentMessage  string     `gorm:"size:255;not null;default:''"`
	TransactionID   string     `gorm:"size:36;not null;default:''"`
	HoldExpiresAt   *time.Time
	CreatedAt       time.Time `gorm:"not null;index"`
	UpdatedAt       time.Time `gorm:"not null;autoUpdateTime:false"`
}

func (campaign0001) TableName() string { return "campaigns_campaigns" }

type week0001 struct {
	ID           string     `gorm:"primaryKey;size:36"`
	CampaignID   string     `gorm:"size:36;not null;index:ix_campaigns_weeks_campaign,priority:1"`
	CompanyID    string     `gorm:"size:36;not null;index"`
	FaceID       string     `gorm:"size:36;not null;index"`
	StartAt      dates.Date `gorm:"type:varchar(10);not null;index:ix_campaigns_weeks_campaign,priority:2;index"`
	EndAt        dates.Date `gorm:"type:varchar(10);not null"`
	Status       string     `gorm:"size:10;not null"`
	OfferPrice   int64      `gorm:"not null"`
	AskingPrice  int64      `gorm:"not null"`
	Ooh          int64      `gorm:"not null;default:0"`
	ActImp       *int64
	CreativeID   string    `gorm:"size:36;not null;default:''"`
	CreativeURL  string    `gorm:"size:300;not null;default:''"`
	SpotID       string    `gorm:"size:36;not null;default:''"`
	SpotKey      string    `gorm:"size:100;not null;default:''"`
	LocationName string    `gorm:"size:200;not null;default:''"`
	Market       string    `gorm:"size:100;not null;default:''"`
	City         string    `gorm:"size:100;not null;default:''"`
	Face         string    `gorm:"size:20;not null;default:''"`
	Lat          float64   `gorm:"not null;default:0"`
	Lng          float64   `gorm:"not null;default:0"`
	Snapshot     string    `gorm:"size:300;not null;default:''"`
	CreatedAt    time.Time `gorm:"not null"`
	UpdatedAt    time.Time `gorm:"not null;autoUpdateTime:false"`
}

func (week0001) TableName() string { return "campaigns_weeks" }

type weekCreative0001 struct {
	ID           string    `gorm:"primaryKey;size:36"`
	WeekID       string    `gorm:"size:36;not null;index"`
	CampaignID   string    `gorm:"size:36;not null;index"`
	CreativeType string    `gorm:"size:10;not null"`
	FileKey      string    `gorm:"size:300;not null"`
	URL          string    `gorm:"size:300;not null"`
	Thumb        string    `gorm:"size:300;not null;default:''"`
	CreatedAt    time.Time `gorm:"not null"`
}

func (weekCreative0001) TableName() string { return "campaigns_week_creatives" }

type charge0001 struct {
	ID            string     `gorm:"primaryKey;size:36"`
	CampaignID    string     `gorm:"size:36;not null;uniqueIndex:ux_campaigns_charges_week,priority:1"`
	CompanyID     string     `gorm:"size:36;not null;index"`
	Week          dates.Date `gorm:"type:varchar(10);not null;uniqueIndex:ux_campaigns_charges_week,priority:2"`
	Amount        int64      `gorm:"not null"`
	Credit        int64      `gorm:"not null;default:0"`
	TransactionID string     `gorm:"size:36;not null;default:'';index"`
	Status        string     `gorm:"size:10;not null"`
	Message       string     `gorm:"size:255;not null;default:''"`
	CreatedAt     time.Time  `gorm:"not null"`
	UpdatedAt     time.Time  `gorm:"not null;autoUpdateTime:false"`
}

func (charge0001) TableName() string { return "campaigns_charges" }

// Store runs the campaigns queries.
type Store struct{ db *gorm.DB }

// New returns the store.
func New(gdb *gorm.DB) *Store { return &Store{db: gdb} }

func (s *Store) conn(ctx context.Context) *gorm.DB { return db.Conn(ctx, s.db) }

// Create inserts a row.
func (s *Store) Create(ctx context.Context, row any) error { return s.conn(ctx).Create(row).Error }

// deliverySourceMigration adds where a week's delivered figure comes from (docs/screens.md).
var deliverySourceMigration = &db.Migration{
	ID: "campaigns-0006-delivery-source",
	Migrate: func(tx *gorm.DB) error {
		for _, col := range []string{"DeliverySource", "DeliveryClosedAt"} {
			if err := tx.Migrator().AddColumn(&week0006{}, col); err != nil {
				return err
			}
		}
		return nil
	},
	Rollback: func(tx *gorm.DB) error {
		for _, col := range []string{"DeliverySource", "DeliveryClosedAt"} {
			if err := tx.Migrator().DropColumn(&week0006{}, col); err != nil {
				return err
			}
		}
		return nil
	},
}

// week0006 is the columns campaigns-0006 added.
type week0006 struct {
	DeliverySource   string `gorm:"size:10;not null;default:''"`
	DeliveryClosedAt *time.Time
}

func (week0006) TableName() string { return "campaigns_weeks" }
