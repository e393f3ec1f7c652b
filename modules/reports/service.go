// Package reports is the reports bounded context (DESIGN.md §2): performance reports that the
// server generates as PDFs (with a CSV of the same figures) from a campaign's finished weeks,
// reports that admins upload for a company, their mailers, and the weekly scheduled reports
// (B §2 "Reports", §3 Report, §5, §7 "Reports", §8). This root package is the module's only public
// API: the Service interface, the DTOs of its calls, and its messages.
package reports

import (
	"context"
	"time"

	"marquee/platform/dates"
	"marquee/platform/money"
)

// Report sources: made by the server on request, made by the weekly job, or uploaded by an admin.
const (
	SourceGenerated = "generated"
	SourceScheduled = "scheduled"
	SourceUploaded  = "uploaded"
)

// Page sizes (B §9): the advertiser's list 10, 20, 50 and All (default 10); the admin lists 50, 75,
// 100 and All. 0 means All.
var (
	PageSizes      = []int{10, 20, 50, 0}
	AdminPageSizes = []int{50, 75, 100, 0}
)

// Limits.
const (
	// MaxNameLen is the longest report name.
	MaxNameLen = 100
	// MaxWeekIDs bounds one request: 52 weeks of a campaign on up to 400 faces.
	MaxWeekIDs = 52 * 400
	// GenerationsPerHour bounds the reports one user makes: each costs seconds of CPU.
	GenerationsPerHour = 30
	// FlashSeconds is how long the list shows its flash message (B §2).
	FlashSeconds = 5
)

// Messages of B §8, word for word, and of this module.
const (
	MsgRemoveFailed = "We had a unexpected issue while we process your request."
	MsgNoCampaigns  = "You must have at least one campaign to generate a report."
	MsgCreated      = "Your report has been created successfully!"
	MsgPDFRequired  = "PDF report is required."

	ConfirmRemove = "Are you sure you want to remove this report?"

	MsgReportNotFound    = "Report not found."
	MsgCampaignNotFound  = "Campaign not found."
	MsgCompanyNotFound   = "Company not found."
	MsgCampaignRequired  = "Please choose a campaign."
	MsgCompanyRequired   = "Please choose a company."
	MsgWeeksRequired     = "Please choose at least one finished week."
	MsgTooManyWeeks      = "A report can cover at most 52 weeks of a campaign."
	MsgWeekNotInCampaign = "Some of the weeks you chose are not weeks of this campaign."
	MsgWeekNotFinished   = "Only weeks that have ended can be reported. Please choose weeks whose end date has passed."
	MsgNameRequired      = "Please give the report a name."
	MsgNameTooLong       = "The report name can be at most 100 characters."
	MsgNotAReportFile    = "The uploaded file is not a report PDF. Please upload the PDF again."
	MsgRenamed           = "The report has been renamed."
	MsgRemoved           = "The report has been removed."
	MsgMailerSent        = "The advertiser has been emailed about the report."
	MsgMessageTooLong    = "The message can be at most 2,000 characters."
	MsgScheduleOn        = "You will receive this campaign's report every Monday."
	MsgScheduleOff       = "The weekly report of this campaign is off."
	MsgTooManyReports    = "You have made many reports in a short time. Please wait a few minutes and try again."
	MsgNoFile            = "This report has no such file."
)

// Report is a report as the API shows it (B §3 Report, with id for _id, DESIGN.md §1.3).
// Campaign and CampaignID are both the campaign's id; AccountID is the company's (the calendar's
// account is the company, DESIGN.md §1.1); VendorID is the admin who uploaded the file, empty for
// a report the server made. URL is the access-checked address of the PDF (never a public one);
// CSVURL that of the CSV beside it, empty for an uploaded report. WeekIDs are the campaign week
// ids reported on (answered by the report and data calls; the lists leave them empty).
type Report struct {
	ID                 string     `json:"id"`
	Name               string     `json:"name"`
	Campaign           string     `json:"campaign"`
	CampaignWeeksCount int        `json:"campaign_weeks_count"`
	AccountID          string     `json:"account_id"`
	CampaignID         string     `json:"campaign_id"`
	VendorID           string     `json:"vendor_id"`
	UserID             string     `json:"user_id"`
	Company            string     `json:"company"`
	CompanyName        string     `json:"company_name"`
	CampaignName       string     `json:"campaign_name"`
	WeekIDs            []string   `json:"week_ids"`
	URL                string     `json:"url"`
	Filename           string     `json:"filename"`
	CSVURL             string     `json:"csv_url"`
	Source             string     `json:"source"`
	PeriodStart        dates.Date `json:"period_start"`
	PeriodEnd          dates.Date `json:"period_end"`
	Size               int64      `json:"size"`
	CreatedAt          time.Time  `json:"created_at"`
	UpdatedAt          time.Time  `json:"updated_at"`
}

// ReportList answers GET /api/reports and GET /api/admin/reports/ (the list envelope).
type ReportList struct {
	Items    []Report `json:"items"`
	Total    int64    `json:"total"`
	Page     int      `json:"page"`
	PageSize int      `json:"page_size"`
}

// Figures are planned against delivered impressions (the proof-of-performance columns): planned
// is the faces' estimated weekly impressions (product_ooh), delivered the recorded actual ones
// (act_imp; a week without a record counts 0 and is flagged). DeliveryPct is delivered / planned
// in percent, rounded to one decimal; 0 when nothing was planned.
type Figures struct {
	Planned     int64       `json:"planned"`
	Delivered   int64       `json:"delivered"`
	Difference  int64       `json:"difference"`
	DeliveryPct float64     `json:"delivery_pct"`
	Spend       money.Cents `json:"spend"`
	// Unrecorded counts the face-weeks without recorded impressions.
	Unrecorded int `json:"unrecorded"`
}

// WeekFigures are one calendar week's figures over the report's faces.
type WeekFigures struct {
	Figures `tstype:",extends"`
	StartAt dates.Date `json:"start_at"`
	EndAt   dates.Date `json:"end_at"`
	Faces   int        `json:"faces"`
	Proofs  int        `json:"proofs"`
}

// FaceFigures are one face's figures over the report's weeks.
type FaceFigures struct {
	Figures      `tstype:",extends"`
	FaceID       string `json:"face_id"`
	LocationName string `json:"location_name"`
	Market       string `json:"market"`
	City         string `json:"city"`
	Face         string `json:"face"`
	Weeks        int    `json:"weeks"`
}

// ReportData answers GET /api/reports/data/{id}: the figures the PDF shows, as recorded when it
// was made. HasFigures is false for an uploaded report (its PDF is all there is).
type ReportData struct {
	Report     *Report       `json:"report"`
	HasFigures bool          `json:"has_figures"`
	Totals     Figures       `json:"totals"`
	Weeks      []WeekFigures `json:"weeks"`
	Faces      []FaceFigures `json:"faces"`
	Markets    []string      `json:"markets"`
}

// ReportRequest is the body of POST /api/reports and POST /api/campaigns/reports. To generate: a
// campaign and some of its finished weeks (campaign week ids, B §4), and an optional name. An admin
// who uploaded a PDF (POST /upload_report) saves it for a company's campaign with Path and
// Filename (B §2 "Admin area").
type ReportRequest struct {
	Name       string   `json:"name" validate:"singleline"`
	CampaignID string   `json:"campaign_id" validate:"singleline"`
	Company    string   `json:"company,omitempty" validate:"singleline"`
	WeekIDs    []string `json:"week_ids" validate:"dive,singleline"`
	Path       string   `json:"path,omitempty" validate:"singleline"`
	Filename   string   `json:"filename,omitempty" validate:"singleline"`
}

// RenameRequest is the body of PUT /api/reports/{id}.
type RenameRequest struct {
	Name string `json:"name" validate:"singleline"`
}

// ReportResponse answers a created or renamed report.
type ReportResponse struct {
	Success bool    `json:"success"`
	Message string  `json:"message"`
	Report  *Report `json:"report"`
}

// MailerRequest is the body of POST /api/reports/performance-report/mailer/: email the report's
// advertiser (the 'new report mailer' of B §2), with an optional note.
type MailerRequest struct {
	ReportID string `json:"report_id" validate:"singleline"`
	Message  string `json:"message" text:"multiline"`
}

// MessageResponse answers a change with a message.
type MessageResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// ReportCampaign is a campaign in the report form's picker (GET /api/reports/campaigns).
// Scheduled says whether its weekly report is on.
type ReportCampaign struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Status    string     `json:"status"`
	StartDate dates.Date `json:"start_date"`
	EndDate   dates.Date `json:"end_date"`
	Scheduled bool       `json:"scheduled"`
}

// ReportWeek is a finished week of a campaign that a report can cover (GET
// /api/reports/campaigns/{id}/weeks, B §4: only weeks whose end date is in the past): its dates,
// the campaign week ids of its faces, and its figures.
type ReportWeek struct {
	StartAt   dates.Date `json:"start_at"`
	EndAt     dates.Date `json:"end_at"`
	WeekIDs   []string   `json:"week_ids"`
	Faces     int        `json:"faces"`
	Planned   int64      `json:"planned"`
	Delivered int64      `json:"delivered"`
}

// ScheduleRequest is the body of PUT /api/reports/schedules/{campaign_id}.
type ScheduleRequest struct {
	Enabled bool `json:"enabled"`
}

// CompanyOption is a company of the admin report form's picker (GET
// /api/admin/reports/companies?q=).
type CompanyOption struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Service is the reports module's public API. Nothing above reports uses it yet; the composition
// root uses it for the seed.
type Service interface {
	// FindReport returns a report of the company ("" for any company). ENOTFOUND otherwise.
	FindReport(ctx context.Context, companyID, id string) (*Report, error)
}

// EventReportReady is published when a report is stored (generated or uploaded), in the
// transaction that stores it; webhooks forward it.
const EventReportReady = "reports.ready"

// ReportReady is the payload of EventReportReady.
type ReportReady struct {
	ReportID   string `json:"report_id"`
	CompanyID  string `json:"company_id"`
	CampaignID string `json:"campaign_id"`
	Name       string `json:"name"`
	Source     string `json:"source"`
}
