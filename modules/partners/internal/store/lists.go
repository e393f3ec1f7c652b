package store

import (
	"context"
	"time"

	"gorm.io/gorm"

	"marquee/platform/pagination"
)

// The read queries of the partner program's lists and hub.

// CertificateOf returns the user's certificate, or gorm.ErrRecordNotFound.
func (s *Store) CertificateOf(ctx context.Context, userID string) (*Certificate, error) {
	var c Certificate
	if err := s.conn(ctx).Where("user_id = ?", userID).Take(&c).Error; err != nil {
		return nil, err
	}
	return &c, nil
}

// RenewCertificate sets the issue date and the score of the user's certificate.
func (s *Store) RenewCertificate(ctx context.Context, userID string, cols map[string]any) error {
	return s.conn(ctx).Model(&Certificate{}).Where("user_id = ?", userID).Updates(cols).Error
}

// PartnersPage is one page of the partners of the given types, and their total.
func (s *Store) PartnersPage(ctx context.Context, types []string, p pagination.Params) ([]Partner, int64, error) {
	var rows []Partner
	var total int64
	q := s.conn(ctx).Model(&Partner{}).Where("type IN ?", types)
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	if err := p.Apply(q).Find(&rows).Error; err != nil {
		return nil, 0, err
	}
	return rows, total, nil
}

// LinksOf returns the partner's links, newest first, at most limit.
func (s *Store) LinksOf(ctx context.Context, partnerID string, limit int) ([]Link, error) {
	var links []Link
	err := s.conn(ctx).Where("partner_id = ?", partnerID).Order("created_at DESC, id DESC").Limit(limit).Find(&links).Error
	return links, err
}

// LinksOfClients returns the partner's links of the given clients.
func (s *Store) LinksOfClients(ctx context.Context, partnerID string, clientIDs []string) ([]Link, error) {
	var links []Link
	err := s.conn(ctx).Where("partner_id = ? AND client_id IN ?", partnerID, nonEmpty(clientIDs)).Find(&links).Error
	return links, err
}

// nonEmpty keeps an IN list valid on both databases.
func nonEmpty(ids []string) []string {
	if len(ids) == 0 {
		return []string{""}
	}
	return ids
}

// BonusByClient is the partner's total bonus per client company.
func (s *Store) BonusByClient(ctx context.Context, partnerID string) (map[string]int64, error) {
	var rows []struct {
		ClientID string
		Bonus    int64
	}
	if err := s.conn(ctx).Model(&Bonus{}).Select("client_id, SUM(bonus) AS bonus").
		Where("partner_id = ?", partnerID).Group("client_id").Scan(&rows).Error; err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.ClientID] = r.Bonus
	}
	return out, nil
}

// BonusGroup is a partner's billed amount and bonus over one month, client or campaign.
type BonusGroup struct {
	Year, Month           int
	ClientID, CampaignRef string
	Billed, Bonus         int64
}

// Groupings of BonusGroups.
const (
	ByMonth    = "year, month"
	ByClient   = "client_id"
	ByCampaign = "campaign_ref"
)

// BonusGroups sums the partner's bonuses by group (ByMonth: newest month first; otherwise the
// largest bonus first, at most limit).
func (s *Store) BonusGroups(ctx context.Context, partnerID, group string, limit int) ([]BonusGroup, error) {
	var rows []BonusGroup
	q := s.conn(ctx).Model(&Bonus{}).Select(group+", SUM(billed) AS billed, SUM(bonus) AS bonus").
		Where("partner_id = ?", partnerID).Group(group)
	if group == ByMonth {
		q = q.Order("year DESC, month DESC")
	} else {
		q = q.Order("bonus DESC").Limit(limit)
	}
	err := q.Scan(&rows).Error
	return rows, err
}

// RedemptionsPage is one page of the redemptions of the partner's referral code (year 0: all
// time), and their total.
func (s *Store) RedemptionsPage(ctx context.Context, partnerID string, year int, p pagination.Params) ([]Redemption, int64, error) {
	q := s.conn(ctx).Model(&Redemption{}).Where("partner_id = ?", partnerID)
	if year > 0 {
		q = q.Where("created_at >= ? AND created_at < ?", time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(year+1, 1, 1, 0, 0, 0, 0, time.UTC))
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var rows []Redemption
	if err := p.Apply(q).Find(&rows).Error; err != nil {
		return nil, 0, err
	}
	return rows, total, nil
}

// CampaignBonus is a partner's billed amount and bonus on one campaign.
type CampaignBonus struct {
	CampaignRef, ClientID string
	Billed, Bonus         int64
}

// CampaignBonusPage is one page of the partner's bonuses by campaign (year 0: all time), sorted on
// p.Sort then the newest campaign, and the number of campaigns.
func (s *Store) CampaignBonusPage(ctx context.Context, partnerID string, year int, p pagination.Params) ([]CampaignBonus, int64, error) {
	base := s.conn(ctx).Model(&Bonus{}).Where("partner_id = ?", partnerID)
	if year > 0 {
		base = base.Where("year = ?", year)
	}
	base = base.Session(&gorm.Session{})
	var total int64
	if err := s.conn(ctx).Table("(?) AS c", base.Select("campaign_ref").Group("campaign_ref")).Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var rows []CampaignBonus
	q := base.Select("campaign_ref, MIN(client_id) AS client_id, SUM(billed) AS billed, SUM(bonus) AS bonus").Group("campaign_ref")
	dir := " ASC"
	if p.Desc {
		dir = " DESC"
	}
	q = q.Order(p.Sort + dir).Order("campaign_ref DESC")
	if p.PageSize > 0 {
		q = q.Offset((p.Page - 1) * p.PageSize).Limit(p.PageSize)
	}
	if err := q.Scan(&rows).Error; err != nil {
		return nil, 0, err
	}
	return rows, total, nil
}
