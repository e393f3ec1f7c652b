package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"marquee/platform/dates"
	"marquee/platform/db"
)

// Pacing and renewal (docs/delivery-assurance.md): batch reads for the pacing figures
// and the table that makes the renewal reminder once per campaign.

// RenewalMail is a row of campaigns_renewal_mails: the renewal reminder of a campaign was queued
// (in the same transaction as the outbox row). The primary key makes it once per campaign.
type RenewalMail struct {
	CampaignID string     `gorm:"primaryKey;size:36"`
	CompanyID  string     `gorm:"size:36;not null;index"`
	EndDate    dates.Date `gorm:"type:varchar(10);not null"`
	CreatedAt  time.Time  `gorm:"not null"`
}

func (RenewalMail) TableName() string { return "campaigns_renewal_mails" }

// renewalMails creates campaigns_renewal_mails.
var renewalMails = &db.Migration{
	ID:       "campaigns-0003-renewal-mails",
	Migrate:  func(tx *gorm.DB) error { return tx.Migrator().CreateTable(&renewalMail0003{}) },
	Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("campaigns_renewal_mails") },
}

// renewalMail0003 is the row as campaigns-0003 created it.
type renewalMail0003 struct {
	CampaignID string     `gorm:"primaryKey;size:36"`
	CompanyID  string     `gorm:"size:36;not null;index"`
	EndDate    dates.Date `gorm:"type:varchar(10);not null"`
	CreatedAt  time.Time  `gorm:"not null"`
}

func (renewalMail0003) TableName() string { return "campaigns_renewal_mails" }

// PacingCampaigns returns the company's campaigns in these stored statuses (not deleted, no
// drafts), oldest start first: one query for the dashboard's pacing list.
func (s *Store) PacingCampaigns(ctx context.Context, companyID string, statuses []string) ([]Campaign, error) {
	var out []Campaign
	err := s.conn(ctx).Where("company_id = ? AND deleted = ? AND status IN ?", companyID, false, statuses).
		Order("start_date, id").Find(&out).Error
	return out, err
}

// PacingWeeks returns the active week rows of these campaigns, only the columns the pacing
// figures read (500 ids per IN).
func (s *Store) PacingWeeks(ctx context.Context, ids []string) ([]Week, error) {
	out := []Week{}
	for start := 0; start < len(ids); start += 500 {
		var part []Week
		if err := s.conn(ctx).Select("id, campaign_id, face_id, start_at, end_at, status, offer_price, ooh, act_imp").
			Where("campaign_id IN ? AND status = ?", ids[start:min(start+500, len(ids))], "active").
			Order("campaign_id, start_at").Find(&part).Error; err != nil {
			return nil, err
		}
		out = append(out, part...)
	}
	return out, nil
}

// ChargesOfCampaigns returns the charge rows of these campaigns (500 ids per IN).
func (s *Store) ChargesOfCampaigns(ctx context.Context, ids []string) ([]Charge, error) {
	out := []Charge{}
	for start := 0; start < len(ids); start += 500 {
		var part []Charge
		if err := s.conn(ctx).Where("campaign_id IN ?", ids[start:min(start+500, len(ids))]).Find(&part).Error; err != nil {
			return nil, err
		}
		out = append(out, part...)
	}
	return out, nil
}

// RenewalDue returns the finite campaigns in these statuses ending between from and to
// (inclusive) that have not had their renewal reminder.
func (s *Store) RenewalDue(ctx context.Context, statuses, frequencies []string, from, to dates.Date) ([]Campaign, error) {
	var out []Campaign
	err := s.conn(ctx).Where("deleted = ? AND status IN ? AND frequency IN ? AND end_date >= ? AND end_date <= ?", false, statuses, frequencies, from, to).
		Where("NOT EXISTS (SELECT 1 FROM campaigns_renewal_mails r WHERE r.campaign_id = campaigns_campaigns.id)").
		Order("end_date, id").Find(&out).Error
	return out, err
}

// InsertRenewalMail records a campaign's renewal reminder and answers whether this call did (a
// second one finds the row and inserts nothing).
func (s *Store) InsertRenewalMail(ctx context.Context, r *RenewalMail) (bool, error) {
	res := s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(r)
	return res.RowsAffected == 1, res.Error
}
