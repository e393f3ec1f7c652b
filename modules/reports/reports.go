package reports

import (
	"context"
	"encoding/json"
	"path"
	"strings"
	"unicode/utf8"

	"marquee/modules/campaigns"
	"marquee/modules/creatives"
	"marquee/modules/reports/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/pagination"
	"marquee/platform/ratelimit"
)

// The report calls of B §7 "Reports". A user reaches only their company's reports, an admin every
// company's (DESIGN.md §3); another company's report answers 404.

// scope is the company a principal's reads are limited to; "" for admins.
func scope(p *auth.Principal) string {
	if p.IsAdmin() {
		return ""
	}
	return p.CompanyID
}

// fileURL and csvURL are the access-checked addresses of a report's files.
func fileURL(id string) string { return "/api/reports/" + id + "/file" }
func csvURL(id string) string  { return "/api/reports/" + id + "/csv" }

func reportDTO(r *store.Report, withWeeks bool) *Report {
	out := &Report{ID: r.ID, Name: r.Name, Campaign: r.CampaignID, CampaignWeeksCount: r.WeeksCount, AccountID: r.CompanyID,
		CampaignID: r.CampaignID, VendorID: r.VendorID, UserID: r.UserID, Company: r.CompanyID, CompanyName: r.CompanyName,
		CampaignName: r.CampaignName, WeekIDs: []string{}, URL: fileURL(r.ID), Filename: r.Filename, Source: r.Source,
		PeriodStart: r.PeriodStart, PeriodEnd: r.PeriodEnd, Size: r.Size, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
	if r.CSVKey != "" {
		out.CSVURL = csvURL(r.ID)
	}
	if withWeeks && r.WeekIDs != "" {
		_ = json.Unmarshal([]byte(r.WeekIDs), &out.WeekIDs)
	}
	return out
}

// FindReport implements Service.
func (s *service) FindReport(ctx context.Context, companyID, id string) (*Report, error) {
	r, err := s.store.Find(ctx, companyID, id)
	if err != nil {
		return nil, db.Translate(err, MsgReportNotFound, "")
	}
	return reportDTO(r, true), nil
}

// listReports answers a page of reports matching q.
func (s *service) listReports(ctx context.Context, q store.ListQuery, p pagination.Params) (*ReportList, error) {
	rows, total, err := s.store.List(ctx, q, p)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	items := make([]Report, 0, len(rows))
	for i := range rows {
		items = append(items, *reportDTO(&rows[i], false))
	}
	return &ReportList{Items: items, Total: total, Page: p.Page, PageSize: p.PageSize}, nil
}

// reportData answers the figures recorded with the report.
func (s *service) reportData(ctx context.Context, p *auth.Principal, id string) (*ReportData, error) {
	r, err := s.store.Find(ctx, scope(p), id)
	if err != nil {
		return nil, db.Translate(err, MsgReportNotFound, "")
	}
	out := &ReportData{Report: reportDTO(r, true), Weeks: []WeekFigures{}, Faces: []FaceFigures{}, Markets: []string{}}
	if r.Figures == "" {
		return out, nil
	}
	var figs figureSet
	if err := json.Unmarshal([]byte(r.Figures), &figs); err != nil {
		return nil, apperr.Internal(err)
	}
	out.HasFigures = true
	out.Totals = figs.Totals
	if figs.Weeks != nil {
		out.Weeks = figs.Weeks
	}
	if figs.Faces != nil {
		out.Faces = figs.Faces
	}
	if figs.Markets != nil {
		out.Markets = figs.Markets
	}
	return out, nil
}

// checkName trims a report name and checks its length; "" stays "" (a default is made).
func checkName(name string) (string, error) {
	name = strings.Join(strings.Fields(name), " ")
	if utf8.RuneCountInString(name) > MaxNameLen {
		return "", apperr.Field("name", MsgNameTooLong)
	}
	return name, nil
}

// createReport is POST /api/reports and POST /api/campaigns/reports: an admin's upload when the
// body names a stored PDF, otherwise a generated report.
func (s *service) createReport(ctx context.Context, p *auth.Principal, req ReportRequest, uploadAllowed bool) (*Report, error) {
	name, err := checkName(req.Name)
	if err != nil {
		return nil, err
	}
	req.Name = name
	if uploadAllowed && p.IsAdmin() && (req.Path != "" || req.Company != "") {
		return s.saveUploaded(ctx, p, req)
	}
	if req.CampaignID == "" {
		return nil, apperr.Field("campaign_id", MsgCampaignRequired)
	}
	camp, err := s.campaignFor(ctx, p, req.CampaignID)
	if err != nil {
		return nil, err
	}
	all, err := s.deps.Campaigns.FindWeeks(ctx, camp.ID)
	if err != nil {
		return nil, err
	}
	weeks, err := chooseWeeks(all, req.WeekIDs, s.today())
	if err != nil {
		return nil, err
	}
	if err := ratelimit.Check(ctx, s.limit, MsgTooManyReports, "generate:"+p.UserID); err != nil {
		return nil, err
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	r, err := s.generate(ctx, generation{campaign: camp, weeks: weeks, name: req.Name, userID: p.UserID, source: SourceGenerated})
	if err != nil {
		return nil, err
	}
	return reportDTO(r, true), nil
}

// acquire takes a generation slot, waiting while others hold them.
func (s *service) acquire(ctx context.Context) (func(), error) {
	select {
	case s.slots <- struct{}{}:
		return func() { <-s.slots }, nil
	case <-ctx.Done():
		return nil, apperr.Internal(ctx.Err())
	}
}

// campaignFor finds a campaign the principal may report on: their company's; any for an admin.
func (s *service) campaignFor(ctx context.Context, p *auth.Principal, id string) (*campaigns.Campaign, error) {
	if p.IsAdmin() {
		cs, err := s.deps.Campaigns.FindCampaignsByIDs(ctx, []string{id})
		if err != nil {
			return nil, err
		}
		if len(cs) == 0 || cs[0].Deleted || cs[0].Status == campaigns.StatusConflict {
			return nil, apperr.NotFound(MsgCampaignNotFound)
		}
		return cs[0], nil
	}
	c, err := s.deps.Campaigns.FindCompanyCampaign(ctx, p.CompanyID, id)
	if err != nil {
		if apperr.CodeOf(err) == apperr.ENOTFOUND {
			return nil, apperr.NotFound(MsgCampaignNotFound)
		}
		return nil, err
	}
	return c, nil
}

// saveUploaded records an admin's uploaded PDF as a report of a company's campaign (B §2 "Admin
// area"): the file must be one that POST /upload_report stored (a PDF checked by content, B §5).
func (s *service) saveUploaded(ctx context.Context, p *auth.Principal, req ReportRequest) (*Report, error) {
	// Every missing input is named; the message is the first one's, in the form's order.
	fields, msg := map[string]string{}, ""
	for _, c := range []struct{ field, value, msg string }{
		{"company", req.Company, MsgCompanyRequired},
		{"campaign_id", req.CampaignID, MsgCampaignRequired},
		{"path", req.Path, MsgPDFRequired}, // B §8
	} {
		if c.value == "" {
			fields[c.field] = c.msg
			if msg == "" {
				msg = c.msg
			}
		}
	}
	if len(fields) > 0 {
		return nil, apperr.Invalid(msg, fields)
	}
	cs, err := s.deps.Campaigns.FindCampaignsByIDs(ctx, []string{req.CampaignID})
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 || cs[0].Deleted || cs[0].CompanyID != req.Company {
		return nil, apperr.Field("campaign_id", MsgCampaignNotFound)
	}
	camp := cs[0]
	f, err := s.deps.Creatives.FindFile(ctx, req.Path)
	if err != nil || f.Kind != creatives.KindReport {
		return nil, apperr.Field("path", MsgNotAReportFile)
	}
	filename := path.Base(strings.ReplaceAll(req.Filename, `\`, "/"))
	if filename == "" || filename == "." || filename == "/" {
		filename = f.OriginalName
	}
	if !strings.HasSuffix(strings.ToLower(filename), ".pdf") {
		filename += ".pdf"
	}
	name := req.Name
	if name == "" {
		name = strings.TrimSuffix(filename, path.Ext(filename))
		if r := []rune(name); len(r) > MaxNameLen {
			name = string(r[:MaxNameLen])
		}
	}
	now := s.deps.Clock.Now()
	r := &store.Report{ID: ids.New(), Name: name, CompanyID: camp.CompanyID, CompanyName: camp.CompanyName, CampaignID: camp.ID,
		CampaignName: camp.Name, UserID: camp.UserID, VendorID: p.UserID, Source: SourceUploaded, WeekIDs: "[]",
		PeriodStart: camp.StartDate, PeriodEnd: camp.EndDate, FileKey: f.Key, Filename: filename, Size: f.Size, CreatedAt: now, UpdatedAt: now}
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if err := s.store.CreateReports(ctx, []store.Report{*r}); err != nil {
			return err
		}
		s.publishReady(ctx, r)
		return nil
	})
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return reportDTO(r, true), nil
}

// renameReport is PUT /api/reports/{id}.
func (s *service) renameReport(ctx context.Context, p *auth.Principal, id string, req RenameRequest) (*Report, error) {
	name, err := checkName(req.Name)
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, apperr.Field("name", MsgNameRequired)
	}
	if err := s.store.Rename(ctx, scope(p), id, name, s.deps.Clock.Now()); err != nil {
		return nil, db.Translate(err, MsgReportNotFound, "")
	}
	return s.FindReport(ctx, scope(p), id)
}

// deleteReport removes a report and, for a generated one, its files (after the commit). An
// uploaded PDF belongs to the creatives module's files and stays there.
func (s *service) deleteReport(ctx context.Context, p *auth.Principal, id string) error {
	var gone *store.Report
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		r, err := s.store.Find(ctx, scope(p), id)
		if err != nil {
			return db.Translate(err, MsgReportNotFound, "")
		}
		gone = r
		return s.store.Delete(ctx, r.CompanyID, id)
	})
	if err != nil {
		return err
	}
	if gone.Source != SourceUploaded {
		s.deleteObjects(ctx, gone.FileKey, gone.CSVKey)
	}
	return nil
}

// reportCampaigns answers the picker's campaigns: the caller's company's, or for an admin the
// chosen company's.
func (s *service) reportCampaigns(ctx context.Context, p *auth.Principal, company string) ([]ReportCampaign, error) {
	companyID := p.CompanyID
	if p.IsAdmin() && company != "" {
		companyID = company
	}
	cs, err := s.deps.Campaigns.FindCompanyCampaigns(ctx, companyID)
	if err != nil {
		return nil, err
	}
	on, err := s.store.CampaignIDsWithSchedule(ctx, companyID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	scheduled := map[string]bool{}
	for _, id := range on {
		scheduled[id] = true
	}
	out := make([]ReportCampaign, 0, len(cs))
	for _, c := range cs {
		out = append(out, ReportCampaign{ID: c.ID, Name: c.Name, Status: c.Status, StartDate: c.StartDate, EndDate: c.EndDate, Scheduled: scheduled[c.ID]})
	}
	return out, nil
}

// reportWeeks answers a campaign's finished weeks (B §4).
func (s *service) reportWeeks(ctx context.Context, p *auth.Principal, campaignID string) ([]ReportWeek, error) {
	c, err := s.campaignFor(ctx, p, campaignID)
	if err != nil {
		return nil, err
	}
	all, err := s.deps.Campaigns.FindWeeks(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	return finishedWeeks(all, s.today()), nil
}

// companies answers the admin picker: companies whose name contains q.
func (s *service) companies(ctx context.Context, q string) ([]CompanyOption, error) {
	cs, err := s.deps.Identity.FindCompanies(ctx, q, 20)
	if err != nil {
		return nil, err
	}
	out := make([]CompanyOption, 0, len(cs))
	for _, c := range cs {
		out = append(out, CompanyOption{ID: c.ID, Name: c.Name})
	}
	return out, nil
}

// publishReady publishes EventReportReady in the caller's transaction, as a notification: its
// failure is logged and never vetoes the report (DESIGN §1.14).
func (s *service) publishReady(ctx context.Context, r *store.Report) {
	db.Notify(ctx, s.deps.DB, EventReportReady, func(ctx context.Context) error {
		return s.deps.Events.Publish(ctx, EventReportReady, ReportReady{ReportID: r.ID, CompanyID: r.CompanyID, CampaignID: r.CampaignID, Name: r.Name, Source: r.Source})
	})
}

// The HTTP calls that answer a message with the report or the outcome.

// report is GET /api/reports/{id}: a report the caller may see (admins: any company's).
func (s *service) report(ctx context.Context, p *auth.Principal, id string) (*Report, error) {
	return s.FindReport(ctx, scope(p), id)
}

// rename is PUT /api/reports/{id}.
func (s *service) rename(ctx context.Context, p *auth.Principal, id string, req RenameRequest) (ReportResponse, error) {
	r, err := s.renameReport(ctx, p, id, req)
	if err != nil {
		return ReportResponse{}, err
	}
	return ReportResponse{Success: true, Message: MsgRenamed, Report: r}, nil
}

// remove is DELETE /api/reports/{id} and /api/ac/reports/{id}.
func (s *service) remove(ctx context.Context, p *auth.Principal, id string) (MessageResponse, error) {
	if err := s.deleteReport(ctx, p, id); err != nil {
		return MessageResponse{}, err
	}
	return MessageResponse{Success: true, Message: MsgRemoved}, nil
}

// mailer is POST /api/reports/performance-report/mailer/ (admin).
func (s *service) mailer(ctx context.Context, _ *auth.Principal, req MailerRequest) (MessageResponse, error) {
	if err := s.sendMailer(ctx, req); err != nil {
		return MessageResponse{}, err
	}
	return MessageResponse{Success: true, Message: MsgMailerSent}, nil
}
