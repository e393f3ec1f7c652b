package store

import (
	"context"
	"strings"
	"time"

	"gorm.io/gorm"

	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/pagination"
)

// Charge statuses of campaigns_charges besides billing's pending, succeeded and failed: a week of a
// paused campaign that passed its cut-off, or a week released by stop, delete or delete-ac, is
// skipped (its spots freed, its week rows deleted, never charged).
const ChargeSkipped = "skipped"

// ListQuery selects campaigns for the lists: the company's (empty for admins: every company), by
// name and by stored statuses. Deleted campaigns and conflict drafts are never listed.
type ListQuery struct {
	CompanyID string
	Q         string
	Statuses  []string
}

// Totals are the sums over every campaign a list query matches.
type Totals struct {
	Count        int64
	WeeklyBudget int64
	TotalBudget  int64
	TotalActImp  int64
}

func (s *Store) listScope(ctx context.Context, q ListQuery) *gorm.DB {
	tx := s.conn(ctx).Model(&Campaign{}).Where("deleted = ? AND status <> ?", false, "conflict")
	if q.CompanyID != "" {
		tx = tx.Where("company_id = ?", q.CompanyID)
	}
	if len(q.Statuses) > 0 {
		tx = tx.Where("status IN ?", q.Statuses)
	}
	if q.Q != "" {
		tx = tx.Where(db.Contains("LOWER(name)", strings.ToLower(q.Q)))
	}
	return tx
}

// ListCampaigns answers one page of the list and the totals of everything it matches.
func (s *Store) ListCampaigns(ctx context.Context, q ListQuery, p pagination.Params) ([]Campaign, Totals, error) {
	var t Totals
	err := s.listScope(ctx, q).Select("COUNT(*) AS count, COALESCE(SUM(weekly_budget),0) AS weekly_budget, " +
		"COALESCE(SUM(total_budget),0) AS total_budget, COALESCE(SUM(total_act_imp),0) AS total_act_imp").Scan(&t).Error
	if err != nil || t.Count == 0 {
		return []Campaign{}, t, err
	}
	var out []Campaign
	err = p.Apply(s.listScope(ctx, q)).Find(&out).Error
	return out, t, err
}

// StatusCounts counts the company's listed campaigns by stored status.
func (s *Store) StatusCounts(ctx context.Context, companyID string) (map[string]int, error) {
	var rows []struct {
		Status string
		N      int
	}
	err := s.listScope(ctx, ListQuery{CompanyID: companyID}).Select("status, COUNT(*) AS n").Group("status").Scan(&rows).Error
	out := map[string]int{}
	for _, r := range rows {
		out[r.Status] = r.N
	}
	return out, err
}

// FindCampaign returns a campaign that is not deleted (of the company unless companyID is empty),
// or gorm.ErrRecordNotFound. Conflict drafts are left to the creation side.
func (s *Store) FindCampaign(ctx context.Context, companyID, id string) (*Campaign, error) {
	tx := s.conn(ctx).Where("id = ? AND deleted = ? AND status <> ?", id, false, "conflict")
	if companyID != "" {
		tx = tx.Where("company_id = ?", companyID)
	}
	var c Campaign
	if err := tx.Take(&c).Error; err != nil {
		return nil, err
	}
	return &c, nil
}

// CampaignsByIDs returns the campaigns with these ids, deleted ones included.
func (s *Store) CampaignsByIDs(ctx context.Context, ids []string) ([]Campaign, error) {
	out := []Campaign{}
	for start := 0; start < len(ids); start += 500 {
		var part []Campaign
		if err := s.conn(ctx).Where("id IN ? AND status <> ?", ids[start:min(start+500, len(ids))], "conflict").Find(&part).Error; err != nil {
			return nil, err
		}
		out = append(out, part...)
	}
	return out, nil
}

// SetCampaign sets columns of a campaign (the caller sets updated_at).
func (s *Store) SetCampaign(ctx context.Context, id string, cols map[string]any) error {
	return s.conn(ctx).Model(&Campaign{}).Where("id = ?", id).Updates(cols).Error
}

// SetStatusFrom moves a campaign from one of the statuses to another, and answers whether it did:
// a conditional update, so two concurrent transitions cannot both apply.
func (s *Store) SetStatusFrom(ctx context.Context, id string, from []string, cols map[string]any) (bool, error) {
	res := s.conn(ctx).Model(&Campaign{}).Where("id = ? AND deleted = ? AND status IN ?", id, false, from).Updates(cols)
	return res.RowsAffected == 1, res.Error
}

// CampaignWeeks returns a campaign's weeks, oldest first, then by location name.
func (s *Store) CampaignWeeks(ctx context.Context, campaignID string) ([]Week, error) {
	var out []Week
	err := s.conn(ctx).Where("campaign_id = ?", campaignID).Order("start_at, location_name, id").Find(&out).Error
	return out, err
}

// WeeksPage returns a page of a campaign's weeks and their number.
func (s *Store) WeeksPage(ctx context.Context, campaignID string, p pagination.Params) ([]Week, int64, error) {
	var n int64
	if err := s.conn(ctx).Model(&Week{}).Where("campaign_id = ?", campaignID).Count(&n).Error; err != nil {
		return nil, 0, err
	}
	var out []Week
	err := p.Apply(s.conn(ctx).Where("campaign_id = ?", campaignID).Order("start_at, location_name")).Find(&out).Error
	return out, n, err
}

// FindWeek returns a week, or gorm.ErrRecordNotFound.
func (s *Store) FindWeek(ctx context.Context, id string) (*Week, error) {
	var w Week
	if err := s.conn(ctx).Where("id = ?", id).Take(&w).Error; err != nil {
		return nil, err
	}
	return &w, nil
}

// UpdateWeeks sets columns of the weeks with these ids.
func (s *Store) UpdateWeeks(ctx context.Context, ids []string, cols map[string]any) error {
	for start := 0; start < len(ids); start += 500 {
		if err := s.conn(ctx).Model(&Week{}).Where("id IN ?", ids[start:min(start+500, len(ids))]).Updates(cols).Error; err != nil {
			return err
		}
	}
	return nil
}

// DeleteWeeks deletes the weeks with these ids and their creatives.
func (s *Store) DeleteWeeks(ctx context.Context, ids []string) error {
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(start+500, len(ids))]
		if err := s.conn(ctx).Where("week_id IN ?", part).Delete(&WeekCreative{}).Error; err != nil {
			return err
		}
		if err := s.conn(ctx).Where("id IN ?", part).Delete(&Week{}).Error; err != nil {
			return err
		}
	}
	return nil
}

// WeekCreativesOf returns the creatives and proofs of a campaign, oldest first.
func (s *Store) WeekCreativesOf(ctx context.Context, campaignID string) ([]WeekCreative, error) {
	var out []WeekCreative
	err := s.conn(ctx).Where("campaign_id = ?", campaignID).Order("created_at, id").Find(&out).Error
	return out, err
}

// WeekCreativesOfWeeks returns the creatives and proofs of these weeks.
func (s *Store) WeekCreativesOfWeeks(ctx context.Context, weekIDs []string) ([]WeekCreative, error) {
	out := []WeekCreative{}
	for start := 0; start < len(weekIDs); start += 500 {
		var part []WeekCreative
		if err := s.conn(ctx).Where("week_id IN ?", weekIDs[start:min(start+500, len(weekIDs))]).Order("created_at, id").Find(&part).Error; err != nil {
			return nil, err
		}
		out = append(out, part...)
	}
	return out, nil
}

// FindWeekCreative returns a week creative, or gorm.ErrRecordNotFound.
func (s *Store) FindWeekCreative(ctx context.Context, id string) (*WeekCreative, error) {
	var wc WeekCreative
	if err := s.conn(ctx).Where("id = ?", id).Take(&wc).Error; err != nil {
		return nil, err
	}
	return &wc, nil
}

// DeleteWeekCreative deletes a week creative.
func (s *Store) DeleteWeekCreative(ctx context.Context, id string) error {
	return s.conn(ctx).Where("id = ?", id).Delete(&WeekCreative{}).Error
}

// RefreshActImp recomputes a campaign's total of actual impressions from its weeks.
func (s *Store) RefreshActImp(ctx context.Context, campaignID string, now time.Time) error {
	var total int64
	if err := s.conn(ctx).Model(&Week{}).Where("campaign_id = ?", campaignID).Select("COALESCE(SUM(act_imp),0)").Scan(&total).Error; err != nil {
		return err
	}
	return s.SetCampaign(ctx, campaignID, map[string]any{"total_act_imp": total, "updated_at": now})
}

// CampaignCharges returns a campaign's charge rows, by week.
func (s *Store) CampaignCharges(ctx context.Context, campaignID string) ([]Charge, error) {
	var out []Charge
	err := s.conn(ctx).Where("campaign_id = ?", campaignID).Order("week").Find(&out).Error
	return out, err
}

// ChargedWeeks returns, for these campaigns, the weeks from..to that have a charge row (of any
// status): campaign id → week → status.
func (s *Store) ChargedWeeks(ctx context.Context, campaignIDs []string, from, to dates.Date) (map[string]map[dates.Date]string, error) {
	out := map[string]map[dates.Date]string{}
	for start := 0; start < len(campaignIDs); start += 500 {
		var rows []struct {
			CampaignID string
			Week       dates.Date
			Status     string
		}
		err := s.conn(ctx).Model(&Charge{}).Select("campaign_id, week, status").
			Where("campaign_id IN ? AND week >= ? AND week <= ?", campaignIDs[start:min(start+500, len(campaignIDs))], from, to).Scan(&rows).Error
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if out[r.CampaignID] == nil {
				out[r.CampaignID] = map[dates.Date]string{}
			}
			out[r.CampaignID][r.Week] = r.Status
		}
	}
	return out, nil
}

// InsertSkipped records weeks as skipped unless they already have a charge row.
func (s *Store) InsertSkipped(ctx context.Context, rows []Charge) error {
	for i := range rows {
		var n int64
		if err := s.conn(ctx).Model(&Charge{}).Where("campaign_id = ? AND week = ?", rows[i].CampaignID, rows[i].Week).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			continue
		}
		if err := s.conn(ctx).Create(&rows[i]).Error; err != nil {
			return err
		}
	}
	return nil
}

// LiveCampaigns returns the campaigns the weekly job looks at: not deleted, in these statuses.
func (s *Store) LiveCampaigns(ctx context.Context, statuses []string) ([]Campaign, error) {
	var out []Campaign
	err := s.conn(ctx).Where("deleted = ? AND status IN ?", false, statuses).Order("id").Find(&out).Error
	return out, err
}

// WeekSpan is the first and last week a campaign has rows for.
type WeekSpan struct {
	CampaignID string
	First      dates.Date
	Last       dates.Date
}

// WeekSpans returns the first and last week of each of these campaigns.
func (s *Store) WeekSpans(ctx context.Context, campaignIDs []string) (map[string]WeekSpan, error) {
	out := map[string]WeekSpan{}
	for start := 0; start < len(campaignIDs); start += 500 {
		var rows []WeekSpan
		err := s.conn(ctx).Model(&Week{}).Select("campaign_id, MIN(start_at) AS first, MAX(start_at) AS last").
			Where("campaign_id IN ?", campaignIDs[start:min(start+500, len(campaignIDs))]).Group("campaign_id").Scan(&rows).Error
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			out[r.CampaignID] = r
		}
	}
	return out, nil
}

// WeeksOn returns a campaign's weeks starting on one of these Mondays.
func (s *Store) WeeksOn(ctx context.Context, campaignID string, weeks []dates.Date) ([]Week, error) {
	var out []Week
	err := s.conn(ctx).Where("campaign_id = ? AND start_at IN ?", campaignID, weeks).Order("start_at, location_name").Find(&out).Error
	return out, err
}

// WindowWeeks returns, for these campaigns, the distinct Mondays they have week rows for between
// from and to.
func (s *Store) WindowWeeks(ctx context.Context, campaignIDs []string, from, to dates.Date) (map[string][]dates.Date, error) {
	out := map[string][]dates.Date{}
	for start := 0; start < len(campaignIDs); start += 500 {
		var rows []struct {
			CampaignID string
			StartAt    dates.Date
		}
		err := s.conn(ctx).Model(&Week{}).Distinct("campaign_id", "start_at").
			Where("campaign_id IN ? AND start_at >= ? AND start_at <= ?", campaignIDs[start:min(start+500, len(campaignIDs))], from, to).Scan(&rows).Error
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			out[r.CampaignID] = append(out[r.CampaignID], r.StartAt)
		}
	}
	return out, nil
}

// ChargeRefunded marks a charge refunded when its campaign was deleted with a refund.
const ChargeRefunded = "refunded"

// SetChargeStatus sets a charge row's status.
func (s *Store) SetChargeStatus(ctx context.Context, id, status string, now time.Time) error {
	return s.conn(ctx).Model(&Charge{}).Where("id = ?", id).Updates(map[string]any{"status": status, "updated_at": now}).Error
}

// InsertCampaigns inserts campaign rows in batches (generated data).
func (s *Store) InsertCampaigns(ctx context.Context, rows []Campaign) error {
	return s.conn(ctx).CreateInBatches(rows, 40).Error
}

// InsertCharges inserts charge rows in batches (generated data).
func (s *Store) InsertCharges(ctx context.Context, rows []Charge) error {
	return s.conn(ctx).CreateInBatches(rows, 100).Error
}

// manageIndexes are the indexes of the lists (docs/performance.md "Campaign management"): the
// advertiser's list in its default order (newest first, then id, as pagination.Apply orders) and
// the admin grid in its default order (start date newest first, then id), declared with the
// directions of the ORDER BY so a page is read off the index without sorting every match; and two
// covering indexes from which the totals and the dashboard counts are summed without reading the
// (wide) rows. The company's indexes carry the name too, so a search filters on the index.
var manageIndexes = &db.Migration{
	ID: "campaigns-0002-list-indexes",
	Migrate: func(tx *gorm.DB) error {
		for _, q := range []string{
			"CREATE INDEX ix_campaigns_company_created ON campaigns_campaigns (company_id, deleted, created_at DESC, id, name)",
			"CREATE INDEX ix_campaigns_deleted_start ON campaigns_campaigns (deleted, start_date DESC, id)",
			"CREATE INDEX ix_campaigns_company_totals ON campaigns_campaigns (company_id, deleted, status, weekly_budget, total_budget, total_act_imp, name)",
			"CREATE INDEX ix_campaigns_totals ON campaigns_campaigns (deleted, status, weekly_budget, total_budget, total_act_imp)",
		} {
			if err := tx.Exec(q).Error; err != nil {
				return err
			}
		}
		return nil
	},
	Rollback: func(tx *gorm.DB) error {
		for _, q := range []string{"DROP INDEX ix_campaigns_company_created", "DROP INDEX ix_campaigns_deleted_start",
			"DROP INDEX ix_campaigns_company_totals", "DROP INDEX ix_campaigns_totals"} {
			if err := tx.Exec(q).Error; err != nil {
				return err
			}
		}
		return nil
	},
}

// Analyze refreshes the planner's statistics and visibility map after a bulk insert (PostgreSQL,
// outside any transaction; SQLite needs none).
func (s *Store) Analyze(ctx context.Context) error {
	if db.Dialect(s.db) != db.Postgres {
		return nil
	}
	return s.db.WithContext(ctx).Exec("VACUUM ANALYZE campaigns_campaigns, campaigns_weeks, campaigns_charges").Error
}

// InsertWeekRows inserts week rows with every column, act_imp included (the demo seed and the
// generated data: InsertWeeks writes new weeks, which have no actual impressions yet).
func (s *Store) InsertWeekRows(ctx context.Context, rows []Week) error {
	if len(rows) == 0 {
		return nil
	}
	batch := 50
	if db.Dialect(s.db) == db.Postgres {
		batch = 400
	}
	return s.conn(ctx).CreateInBatches(rows, batch).Error
}

// FaceWeeks returns the weeks on these faces whose start is in from..to, of live campaigns with these
// statuses (not deleted), by week.
func (s *Store) FaceWeeks(ctx context.Context, faceIDs []string, from, to dates.Date, statuses []string) ([]Week, error) {
	var out []Week
	if len(faceIDs) == 0 {
		return out, nil
	}
	err := s.conn(ctx).Model(&Week{}).
		Where("face_id IN ? AND start_at >= ? AND start_at <= ? AND status = ?", faceIDs, from, to, "active").
		Where("campaign_id IN (?)", s.conn(ctx).Model(&Campaign{}).Select("id").Where("status IN ? AND deleted = ?", statuses, false)).
		Order("start_at, campaign_id").Find(&out).Error
	return out, err
}

// WeekOfFace returns a campaign's week on a face, or gorm.ErrRecordNotFound.
func (s *Store) WeekOfFace(ctx context.Context, campaignID, faceID string, week dates.Date) (*Week, error) {
	var w Week
	if err := s.conn(ctx).Where("campaign_id = ? AND face_id = ? AND start_at = ?", campaignID, faceID, week).Take(&w).Error; err != nil {
		return nil, err
	}
	return &w, nil
}

// OpenScreenWeeks returns the weeks (id, face, start) with a figure from these sources, not
// closed, that ended before the day.
func (s *Store) OpenScreenWeeks(ctx context.Context, endedBefore dates.Date, sources []string) ([]Week, error) {
	var rows []Week
	err := s.conn(ctx).Select("id, face_id, start_at").Where("delivery_source IN ? AND delivery_closed_at IS NULL AND end_at < ?", sources, endedBefore).
		Order("end_at, id").Limit(5000).Find(&rows).Error
	return rows, err
}
