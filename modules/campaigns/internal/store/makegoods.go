package store

import (
	"context"
	"time"

	"gorm.io/gorm"

	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/pagination"
)

// MakeGood is a row of campaigns_make_goods: the credit a finished campaign week (one face in one
// week) earned by delivering less than the threshold of its contracted impressions
// (docs/delivery-assurance.md "Make-goods"). Unique on the week: a week has at most one make-good,
// whatever corrections follow. CreditCents is the net credit it has given (the sum of its moves);
// TargetCents what the policy gives for the delivery now recorded; ClampedCents what corrections
// and a waiver could not take back because the company had already spent it.
type MakeGood struct {
	ID               string     `gorm:"primaryKey;size:36"`
	CampaignID       string     `gorm:"size:36;not null;index"`
	CompanyID        string     `gorm:"size:36;not null;index"`
	WeekID           string     `gorm:"size:36;not null;uniqueIndex"`
	FaceID           string     `gorm:"size:36;not null"`
	WeekStart        dates.Date `gorm:"type:varchar(10);not null"`
	LocationName     string     `gorm:"size:200;not null;default:''"`
	Face             string     `gorm:"size:20;not null;default:''"`
	Planned          int64      `gorm:"not null"`
	Delivered        int64      `gorm:"not null"`
	PriceCents       int64      `gorm:"not null"`
	ThresholdPercent int        `gorm:"not null"`
	TargetCents      int64      `gorm:"not null"`
	CreditCents      int64      `gorm:"not null"`
	ClampedCents     int64      `gorm:"not null;default:0"`
	Status           string     `gorm:"size:10;not null;index"`
	WaiveReason      string     `gorm:"size:500;not null;default:''"`
	WaivedBy         string     `gorm:"size:36;not null;default:''"`
	WaivedAt         *time.Time
	Moves            int       `gorm:"not null;default:0"`
	CreatedAt        time.Time `gorm:"not null;index"`
	UpdatedAt        time.Time `gorm:"not null;autoUpdateTime:false"`
}

func (MakeGood) TableName() string { return "campaigns_make_goods" }

// MakeGoodMove is a row of campaigns_make_good_moves: one credit movement of a make-good (the
// grant, a correction, the waiver). Requested is the signed change the policy asked for, Applied
// the one billing made: they differ when a take-back was clamped to the company's credit.
type MakeGoodMove struct {
	ID            string    `gorm:"primaryKey;size:36"`
	MakeGoodID    string    `gorm:"size:36;not null;uniqueIndex:ux_campaigns_make_good_moves_seq,priority:1"`
	Seq           int       `gorm:"not null;uniqueIndex:ux_campaigns_make_good_moves_seq,priority:2"`
	Kind          string    `gorm:"size:12;not null"`
	Delivered     int64     `gorm:"not null"`
	Requested     int64     `gorm:"not null"`
	Applied       int64     `gorm:"not null"`
	Clamped       bool      `gorm:"not null;default:false"`
	TransactionID string    `gorm:"size:36;not null;default:''"`
	CreatedAt     time.Time `gorm:"not null"`
}

func (MakeGoodMove) TableName() string { return "campaigns_make_good_moves" }

// MakeGoodsMigration creates the make-good tables. The contracted impressions need no column: a
// week's ooh is the face's estimate copied when the week is booked and never written again.
var MakeGoodsMigration = &db.Migration{
	ID: "campaigns-0004-make-goods",
	Migrate: func(tx *gorm.DB) error {
		return tx.Migrator().CreateTable(&makeGood0004{}, &makeGoodMove0004{})
	},
	Rollback: func(tx *gorm.DB) error {
		return tx.Migrator().DropTable("campaigns_make_good_moves", "campaigns_make_goods")
	},
}

// The rows as campaigns-0004 created them.
type makeGood0004 struct {
	ID               string     `gorm:"primaryKey;size:36"`
	CampaignID       string     `gorm:"size:36;not null;index"`
	CompanyID        string     `gorm:"size:36;not null;index"`
	WeekID           string     `gorm:"size:36;not null;uniqueIndex"`
	FaceID           string     `gorm:"size:36;not null"`
	WeekStart        dates.Date `gorm:"type:varchar(10);not null"`
	LocationName     string     `gorm:"size:200;not null;default:''"`
	Face             string     `gorm:"size:20;not null;default:''"`
	Planned          int64      `gorm:"not null"`
	Delivered        int64      `gorm:"not null"`
	PriceCents       int64      `gorm:"not null"`
	ThresholdPercent int        `gorm:"not null"`
	TargetCents      int64      `gorm:"not null"`
	CreditCents      int64      `gorm:"not null"`
	ClampedCents     int64      `gorm:"not null;default:0"`
	Status           string     `gorm:"size:10;not null;index"`
	WaiveReason      string     `gorm:"size:500;not null;default:''"`
	WaivedBy         string     `gorm:"size:36;not null;default:''"`
	WaivedAt         *time.Time
	Moves            int       `gorm:"not null;default:0"`
	CreatedAt        time.Time `gorm:"not null;index"`
	UpdatedAt        time.Time `gorm:"not null;autoUpdateTime:false"`
}

func (makeGood0004) TableName() string { return "campaigns_make_goods" }

type makeGoodMove0004 struct {
	ID            string    `gorm:"primaryKey;size:36"`
	MakeGoodID    string    `gorm:"size:36;not null;uniqueIndex:ux_campaigns_make_good_moves_seq,priority:1"`
	Seq           int       `gorm:"not null;uniqueIndex:ux_campaigns_make_good_moves_seq,priority:2"`
	Kind          string    `gorm:"size:12;not null"`
	Delivered     int64     `gorm:"not null"`
	Requested     int64     `gorm:"not null"`
	Applied       int64     `gorm:"not null"`
	Clamped       bool      `gorm:"not null;default:false"`
	TransactionID string    `gorm:"size:36;not null;default:''"`
	CreatedAt     time.Time `gorm:"not null"`
}

func (makeGoodMove0004) TableName() string { return "campaigns_make_good_moves" }

// MakeGoodOfWeek returns the week's make-good, or nil.
func (s *Store) MakeGoodOfWeek(ctx context.Context, weekID string) (*MakeGood, error) {
	var rows []MakeGood
	if err := s.conn(ctx).Where("week_id = ?", weekID).Limit(1).Find(&rows).Error; err != nil || len(rows) == 0 {
		return nil, err
	}
	return &rows[0], nil
}

// FindMakeGood returns a make-good by id.
func (s *Store) FindMakeGood(ctx context.Context, id string) (*MakeGood, error) {
	var row MakeGood
	if err := s.conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return nil, err
	}
	return &row, nil
}

// MakeGoodsOfCampaign returns a campaign's make-goods, oldest week first.
func (s *Store) MakeGoodsOfCampaign(ctx context.Context, campaignID string) ([]MakeGood, error) {
	var rows []MakeGood
	err := s.conn(ctx).Where("campaign_id = ?", campaignID).Order("week_start, location_name, id").Find(&rows).Error
	return rows, err
}

// MakeGoodsOfWeeks returns the make-goods of these weeks, by week id.
func (s *Store) MakeGoodsOfWeeks(ctx context.Context, weekIDs []string) (map[string]MakeGood, error) {
	out := map[string]MakeGood{}
	if len(weekIDs) == 0 {
		return out, nil
	}
	var rows []MakeGood
	if err := s.conn(ctx).Where("week_id IN ?", weekIDs).Find(&rows).Error; err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.WeekID] = r
	}
	return out, nil
}

// ListMakeGoods is a page of every company's make-goods (the admin filter), newest first; status
// and company narrow it when set.
func (s *Store) ListMakeGoods(ctx context.Context, status, companyID string, p pagination.Params) ([]MakeGood, int64, error) {
	q := s.conn(ctx).Model(&MakeGood{})
	if status != "" {
		q = q.Where("status = ?", status)
	}
	if companyID != "" {
		q = q.Where("company_id = ?", companyID)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var rows []MakeGood
	err := p.Apply(q.Order("created_at DESC").Order("id")).Find(&rows).Error
	return rows, total, err
}

// SaveMakeGood writes a make-good's changing columns.
func (s *Store) SaveMakeGood(ctx context.Context, mg *MakeGood) error {
	return s.conn(ctx).Model(&MakeGood{}).Where("id = ?", mg.ID).Updates(map[string]any{
		"delivered": mg.Delivered, "threshold_percent": mg.ThresholdPercent, "target_cents": mg.TargetCents,
		"credit_cents": mg.CreditCents, "clamped_cents": mg.ClampedCents, "status": mg.Status,
		"waive_reason": mg.WaiveReason, "waived_by": mg.WaivedBy, "waived_at": mg.WaivedAt, "moves": mg.Moves,
		"updated_at": mg.UpdatedAt}).Error
}

// MakeGoodCandidate is a finished, paid week with recorded delivery under the threshold and no
// make-good yet: what the make-good job grants.
type MakeGoodCandidate struct {
	ID         string
	CampaignID string
}

// MakeGoodCandidates finds, in one query, the weeks ended before `before` whose recorded delivery
// is below thresholdPercent of their contracted impressions, whose calendar week was paid (a
// succeeded charge row), whose campaign is not deleted (its weeks answer 404 to everyone) and that
// have no make-good, ordered by campaign.
func (s *Store) MakeGoodCandidates(ctx context.Context, before dates.Date, thresholdPercent int) ([]MakeGoodCandidate, error) {
	var out []MakeGoodCandidate
	err := s.conn(ctx).Raw(`SELECT w.id, w.campaign_id FROM campaigns_weeks w
JOIN campaigns_charges ch ON ch.campaign_id = w.campaign_id AND ch.week = w.start_at AND ch.status = 'succeeded'
JOIN campaigns_campaigns c ON c.id = w.campaign_id AND c.deleted = ? AND c.status <> 'conflict'
WHERE w.act_imp IS NOT NULL AND w.ooh > 0 AND w.end_at < ? AND w.act_imp * 100 < w.ooh * ?
  AND NOT (w.delivery_source = 'screen' AND w.delivery_closed_at IS NULL)
  AND NOT EXISTS (SELECT 1 FROM campaigns_make_goods mg WHERE mg.week_id = w.id)
ORDER BY w.campaign_id, w.start_at, w.id`, false, before, thresholdPercent).Scan(&out).Error
	return out, err
}

// WeeksOfIDs returns these weeks, by campaign and week.
func (s *Store) WeeksOfIDs(ctx context.Context, ids []string) ([]Week, error) {
	var rows []Week
	if len(ids) == 0 {
		return rows, nil
	}
	err := s.conn(ctx).Where("id IN ?", ids).Order("campaign_id, start_at, id").Find(&rows).Error
	return rows, err
}

// WeekPaid reports whether the calendar week of a campaign has a succeeded charge row.
func (s *Store) WeekPaid(ctx context.Context, campaignID string, week dates.Date) (bool, error) {
	var n int64
	err := s.conn(ctx).Model(&Charge{}).Where("campaign_id = ? AND week = ? AND status = ?", campaignID, week, "succeeded").Count(&n).Error
	return n > 0, err
}
