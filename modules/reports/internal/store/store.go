// Package store holds the reports module's tables and queries. It is internal: no other module can
// reach these rows.
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

// Report is a row of reports_reports (B §3 Report). A generated report's PDF and CSV live in
// storage under FileKey and CSVKey, written before the row; an uploaded one names the PDF that
// POST /upload_report stored (the creatives module's file) and has no CSV.
type Report struct {
	ID           string `gorm:"primaryKey;size:36"`
	Name         string `gorm:"size:100;not null"`
	CompanyID    string `gorm:"size:36;not null"`
	CompanyName  string `gorm:"size:100;not null;default:''"`
	CampaignID   string `gorm:"size:36;not null"`
	CampaignName string `gorm:"size:100;not null;default:''"`
	UserID       string `gorm:"size:36;not null;default:''"`
	VendorID     string `gorm:"size:36;not null;default:''"`
	Source       string `gorm:"size:16;not null"`
	// WeekIDs are the campaign week ids reported on, as a JSON list; WeeksCount the calendar
	// weeks they cover.
	WeekIDs     string     `gorm:"type:text;not null"`
	WeeksCount  int        `gorm:"not null;default:0"`
	PeriodStart dates.Date `gorm:"not null;default:''"`
	PeriodEnd   dates.Date `gorm:"not null;default:''"`
	FileKey     string     `gorm:"size:512;not null"`
	CSVKey      string     `gorm:"size:512;not null;default:''"`
	Filename    string     `gorm:"size:255;not null"`
	Size        int64      `gorm:"not null;default:0"`
	// Figures is the JSON of the per-week and per-face totals the PDF shows (the data call
	// answers it as recorded, so the screen and the PDF always agree).
	Figures   string    `gorm:"type:text;not null"`
	CreatedAt time.Time `gorm:"not null"`
	UpdatedAt time.Time `gorm:"not null"`
}

func (Report) TableName() string { return "reports_reports" }

// Count is a row of reports_counts: how many reports a company has. It is kept in the transactions
// that insert and delete reports, so a list's total is one row, not a count of 50,000
// (docs/performance.md).
type Count struct {
	CompanyID string `gorm:"primaryKey;size:36"`
	N         int64  `gorm:"not null;default:0"`
}

func (Count) TableName() string { return "reports_counts" }

// Schedule is a row of reports_schedules: a campaign whose weekly report is on.
type Schedule struct {
	CampaignID string    `gorm:"primaryKey;size:36"`
	CompanyID  string    `gorm:"size:36;not null;index"`
	UserID     string    `gorm:"size:36;not null"`
	CreatedAt  time.Time `gorm:"not null"`
}

func (Schedule) TableName() string { return "reports_schedules" }

// ScheduleRun is a row of reports_schedule_runs: the weekly report of one campaign for one week
// was made (or there was nothing to report). Its primary key makes the job's work happen once,
// whichever replica or run gets there first.
type ScheduleRun struct {
	CampaignID string     `gorm:"primaryKey;size:36"`
	WeekStart  dates.Date `gorm:"primaryKey"`
	ReportID   string     `gorm:"size:36;not null;default:''"`
	CreatedAt  time.Time  `gorm:"not null"`
}

func (ScheduleRun) TableName() string { return "reports_schedule_runs" }

// Migrations of the reports tables. Never edit a landed migration; add one. Each creates its tables
// from its own snapshot of the rows, so a later change to a row never changes what it does.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID: "reports-0001-reports-schedules",
		Migrate: func(tx *gorm.DB) error {
			if err := tx.Migrator().CreateTable(&report0001{}, &count0001{}, &schedule0001{}, &scheduleRun0001{}); err != nil {
				return err
			}
			// The lists in their order (newest first; pagination.Apply adds id ASC), declared with
			// the ORDER BY's directions so a page is read off the index: the company's list, the
			// admin list, and the admin list of one campaign (docs/performance.md).
			for _, q := range []string{
				"CREATE INDEX ix_reports_company_created ON reports_reports (company_id, created_at DESC, id)",
				"CREATE INDEX ix_reports_created ON reports_reports (created_at DESC, id)",
				"CREATE INDEX ix_reports_campaign_created ON reports_reports (campaign_id, created_at DESC, id)",
			} {
				if err := tx.Exec(q).Error; err != nil {
					return err
				}
			}
			return nil
		},
		Rollback: func(tx *gorm.DB) error {
			return tx.Migrator().DropTable("reports_schedule_runs", "reports_schedules", "reports_counts", "reports_reports")
		},
	}, digestTables}
}

// The rows as reports-0001 created them.
type report0001 struct {
	ID           string     `gorm:"primaryKey;size:36"`
	Name         string     `gorm:"size:100;not null"`
	CompanyID    string     `gorm:"size:36;not null"`
	CompanyName  string     `gorm:"size:100;not null;default:''"`
	CampaignID   string     `gorm:"size:36;not null"`
	CampaignName string     `gorm:"size:100;not null;default:''"`
	UserID       string     `gorm:"size:36;not null;default:''"`
	VendorID     string     `gorm:"size:36;not null;default:''"`
	Source       string     `gorm:"size:16;not null"`
	WeekIDs      string     `gorm:"type:text;not null"`
	WeeksCount   int        `gorm:"not null;default:0"`
	PeriodStart  dates.Date `gorm:"not null;default:''"`
	PeriodEnd    dates.Date `gorm:"not null;default:''"`
	FileKey      string     `gorm:"size:512;not null"`
	CSVKey       string     `gorm:"size:512;not null;default:''"`
	Filename     string     `gorm:"size:255;not null"`
	Size         int64      `gorm:"not null;default:0"`
	Figures      string     `gorm:"type:text;not null"`
	CreatedAt    time.Time  `gorm:"not null"`
	UpdatedAt    time.Time  `gorm:"not null"`
}

func (report0001) TableName() string { return "reports_reports" }

type count0001 struct {
	CompanyID string `gorm:"primaryKey;size:36"`
	N         int64  `gorm:"not null;default:0"`
}

func (count0001) TableName() string { return "reports_counts" }

type schedule0001 struct {
	CampaignID string    `gorm:"primaryKey;size:36"`
	CompanyID  string    `gorm:"size:36;not null;index"`
	UserID     string    `gorm:"size:36;not null"`
	CreatedAt  time.Time `gorm:"not null"`
}

func (schedule0001) TableName() string { return "reports_schedules" }

type scheduleRun0001 struct {
	CampaignID string     `gorm:"primaryKey;size:36"`
	WeekStart  dates.Date `gorm:"primaryKey"`
	ReportID   string     `gorm:"size:36;not null;default:''"`
	CreatedAt  time.Time  `gorm:"not null"`
}

func (scheduleRun0001) TableName() string { return "reports_schedule_runs" }

// Store runs the reports queries.
type Store struct{ db *gorm.DB }

// New returns the store.
func New(gdb *gorm.DB) *Store { return &Store{db: gdb} }

func (s *Store) conn(ctx context.Context) *gorm.DB { return db.Conn(ctx, s.db) }

// ListQuery scopes a list: a company ("" for all), a campaign, a search in the names.
type ListQuery struct {
	CompanyID, CampaignID, Q string
}

// listColumns leave out the large columns (week ids, figures) that a list never shows.
var listColumns = []string{"id", "name", "company_id", "company_name", "campaign_id", "campaign_name", "user_id", "vendor_id",
	"source", "weeks_count", "period_start", "period_end", "file_key", "csv_key", "filename", "size", "created_at", "updated_at"}

func (s *Store) scope(ctx context.Context, q ListQuery) *gorm.DB {
	tx := s.conn(ctx).Model(&Report{})
	if q.CompanyID != "" {
		tx = tx.Where("company_id = ?", q.CompanyID)
	}
	if q.CampaignID != "" {
		tx = tx.Where("campaign_id = ?", q.CampaignID)
	}
	if q.Q != "" {
		text := strings.ToLower(q.Q)
		name, like := db.Contains("LOWER(name)", text)
		campaign, _ := db.Contains("LOWER(campaign_name)", text)
		company, _ := db.Contains("LOWER(company_name)", text)
		tx = tx.Where("("+name+" OR "+campaign+" OR "+company+")", like, like, like)
	}
	return tx
}

// List answers one page and the count of everything matched: from reports_counts when the list
// is a company's (or every company's) unfiltered.
func (s *Store) List(ctx context.Context, q ListQuery, p pagination.Params) ([]Report, int64, error) {
	var n int64
	var err error
	if q.CampaignID == "" && q.Q == "" {
		tx := s.conn(ctx).Model(&Count{})
		if q.CompanyID != "" {
			tx = tx.Where("company_id = ?", q.CompanyID)
		}
		err = tx.Select("COALESCE(SUM(n), 0)").Scan(&n).Error
	} else {
		err = s.scope(ctx, q).Count(&n).Error
	}
	if err != nil || n == 0 {
		return []Report{}, n, err
	}
	var out []Report
	err = p.Apply(s.scope(ctx, q).Select(listColumns)).Find(&out).Error
	return out, n, err
}

// Find returns a report of the company ("" for any company), or gorm.ErrRecordNotFound.
func (s *Store) Find(ctx context.Context, companyID, id string) (*Report, error) {
	var r Report
	tx := s.conn(ctx).Where("id = ?", id)
	if companyID != "" {
		tx = tx.Where("company_id = ?", companyID)
	}
	if err := tx.Take(&r).Error; err != nil {
		return nil, err
	}
	return &r, nil
}

// Create inserts a row.
func (s *Store) Create(ctx context.Context, v any) error { return s.conn(ctx).Create(v).Error }

// CreateReports inserts reports and counts them for their companies; run it in a transaction.
func (s *Store) CreateReports(ctx context.Context, rs []Report) error {
	if len(rs) == 0 {
		return nil
	}
	if err := s.conn(ctx).CreateInBatches(rs, 200).Error; err != nil {
		return err
	}
	per := map[string]int64{}
	for i := range rs {
		per[rs[i].CompanyID]++
	}
	for company, k := range per {
		if err := s.addCount(ctx, company, k); err != nil {
			return err
		}
	}
	return nil
}

// addCount adds k to the company's count (an upsert both dialects know).
func (s *Store) addCount(ctx context.Context, companyID string, k int64) error {
	return s.conn(ctx).Exec("INSERT INTO reports_counts (company_id, n) VALUES (?, ?) ON CONFLICT (company_id) DO UPDATE SET n = reports_counts.n + ?",
		companyID, k, k).Error
}

// Rename sets a report's name; gorm.ErrRecordNotFound when there is no such report.
func (s *Store) Rename(ctx context.Context, companyID, id, name string, now time.Time) error {
	tx := s.conn(ctx).Model(&Report{}).Where("id = ?", id)
	if companyID != "" {
		tx = tx.Where("company_id = ?", companyID)
	}
	res := tx.Updates(map[string]any{"name": name, "updated_at": now})
	if res.Error == nil && res.RowsAffected == 0 {
		return gorm.ErrRecordNotFound
	}
	return res.Error
}

// Delete removes a report row of the company and counts it out; gorm.ErrRecordNotFound when there
// is none. Run it in a transaction.
func (s *Store) Delete(ctx context.Context, companyID, id string) error {
	res := s.conn(ctx).Where("id = ? AND company_id = ?", id, companyID).Delete(&Report{})
	if res.Error == nil && res.RowsAffected == 0 {
		return gorm.ErrRecordNotFound
	}
	if res.Error != nil {
		return res.Error
	}
	return s.addCount(ctx, companyID, -1)
}

// CampaignIDsWithSchedule returns which of the company's campaigns have the weekly report on.
func (s *Store) CampaignIDsWithSchedule(ctx context.Context, companyID string) ([]string, error) {
	var out []string
	tx := s.conn(ctx).Model(&Schedule{}).Order("campaign_id")
	if companyID != "" {
		tx = tx.Where("company_id = ?", companyID)
	}
	err := tx.Pluck("campaign_id", &out).Error
	return out, err
}

// SetSchedule turns a campaign's weekly report on (a second insert is a no-op) or off.
func (s *Store) SetSchedule(ctx context.Context, sc Schedule, on bool) error {
	if !on {
		return s.conn(ctx).Where("campaign_id = ?", sc.CampaignID).Delete(&Schedule{}).Error
	}
	err := s.conn(ctx).Create(&sc).Error
	if db.IsDuplicate(err) {
		return nil
	}
	return err
}

// SchedulesAfter returns up to limit schedules with a campaign id after the given one (the job
// walks them in pages).
func (s *Store) SchedulesAfter(ctx context.Context, after string, limit int) ([]Schedule, error) {
	var out []Schedule
	err := s.conn(ctx).Where("campaign_id > ?", after).Order("campaign_id").Limit(limit).Find(&out).Error
	return out, err
}

// RunsOf returns which of these campaigns already have a run for the week.
func (s *Store) RunsOf(ctx context.Context, campaignIDs []string, week dates.Date) (map[string]bool, error) {
	out := map[string]bool{}
	if len(campaignIDs) == 0 {
		return out, nil
	}
	var ids []string
	if err := s.conn(ctx).Model(&ScheduleRun{}).Where("campaign_id IN ? AND week_start = ?", campaignIDs, week).Pluck("campaign_id", &ids).Error; err != nil {
		return nil, err
	}
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// Analyze refreshes the planner's statistics (and on PostgreSQL the visibility map, which
// index-only counts need) after a bulk insert, as autovacuum would (benchmarks).
func (s *Store) Analyze(ctx context.Context) error {
	if db.Dialect(s.db) == db.Postgres {
		return s.db.WithContext(ctx).Exec("VACUUM ANALYZE reports_reports, reports_counts").Error
	}
	return s.conn(ctx).Exec("ANALYZE reports_reports").Error
}
