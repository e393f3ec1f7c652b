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
func (m *Module) FindReport(ctx context.Context, companyID, id string) (*Report, error) {
	r, err := m.store.Find(ctx, companyID, id)
	if err != nil {
		return nil, db.Translate(err, MsgReportNotFound, "")
	}
	return reportDTO(r, true), nil
}

// listReports answers a page of reports matching q.
func (m *Module) listReports(ctx context.Context, q store.ListQuery, p pagination.Params) (*ReportList, error) {
	rows, total, err := m.store.List(ctx, q, p)
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
func (m *Module) reportData(ctx context.Context, p *auth.Principal, id string) (*ReportData, error) {
	r, err := m.store.Find(ctx, scope(p), id)
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
func (m *Module) createReport(ctx context.Context, p *auth.Principal, req ReportRequest, uploadAllowed bool) (*Report, error) {
	name, err := checkName(req.Name)
	if err != nil {
		return nil, err
	}
	req.Name = name
	if uploadAllowed && p.IsAdmin() && (req.Path != "" || req.Company != "") {
		return m.saveUploaded(ctx, p, req)
	}
	if req.CampaignID == "" {
		return nil, apperr.Field("campaign_id", MsgCampaignRequired)
	}
	camp, err := m.campaignFor(ctx, p, req.CampaignID)
	if err != nil {
		return nil, err
	}
	all, err := m.deps.Campaigns.FindWeeks(ctx, camp.ID)
	if err != nil {
		return nil, err
	}
	weeks, err := chooseWeeks(all, req.WeekIDs, m.today())
	if err != nil {
		return nil, err
	}
	if err := ratelimit.Check(ctx, m.limit, MsgTooManyReports, "generate:"+p.UserID); err != nil {
		return nil, err
	}
	release, err := m.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	r, err := m.generate(ctx, generation{campaign: camp, weeks: weeks, name: req.Name, userID: p.UserID, source: SourceGenerated})
	if err != nil {
		return nil, err
	}
	return reportDTO(r, true), nil
}

// acquire takes a generation slot, waiting while others hold them.
func (m *Module) acquire(ctx context.Context) (func(), error) {
	select {
	case m.slots <- struct{}{}:
		return func() { <-m.slots }, nil
	case <-ctx.Done():
		return nil, apperr.Internal(ctx.Err())
	}
}

// campaignFor finds a campaign the principal may report on: their company's; any for an admin.
func (m *Module) campaignFor(ctx context.Context, p *auth.Principal, id string) (*campaigns.Campaign, error) {
	if p.IsAdmin() {
		cs, err := m.deps.Campaigns.FindCampaignsByIDs(ctx, []string{id})
		if err != nil {
			return nil, err
		}
		if len(cs) == 0 || cs[0].Deleted || cs[0].Status == campaigns.StatusConflict {
			return nil, apperr.NotFound(MsgCampaignNotFound)
		}
		return cs[0], nil
	}
	c, err := m.deps.Campaigns.FindCompanyCampaign(ctx, p.CompanyID, id)
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
func (m *Module) saveUploaded(ctx context.Context, p *auth.Principal, req ReportRequest) (*Report, error) {
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
	cs, err := m.deps.Campaigns.FindCampaignsByIDs(ctx, []string{req.CampaignID})
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 || cs[0].Deleted || cs[0].CompanyID != req.Company {
		return nil, apperr.Field("campaign_id", MsgCampaignNotFound)
	}
	camp := cs[0]
	f, err := m.deps.Creatives.FindFile(ctx, req.Path)
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
	now := m.deps.Clock.Now()
	r := &store.Report{ID: ids.New(), Name: name, CompanyID: camp.CompanyID, CompanyName: camp.CompanyName, CampaignID: camp.ID,
		CampaignName: camp.Name, UserID: camp.UserID, VendorID: p.UserID, Source: SourceUploaded, WeekIDs: "[]",
		PeriodStart: camp.StartDate, PeriodEnd: camp.EndDate, FileKey: f.Key, Filename: filename, Size: f.Size, CreatedAt: now, UpdatedAt: now}
	err = db.Transact(ctx, m.deps.DB, func(ctx context.Context) error {
		if err := m.store.CreateReports(ctx, []store.Report{*r}); err != nil {
			return err
		}
		m.publishReady(ctx, r)
		return nil
	})
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return reportDTO(r, true), nil
}

// renameReport is PUT /api/reports/{id}.
func (m *Module) renameReport(ctx context.Context, p *auth.Principal, id string, req RenameRequest) (*Report, error) {
	name, err := checkName(req.Name)
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, apperr.Field("name", MsgNameRequired)
	}
	if err := m.store.Rename(ctx, scope(p), id, name, m.deps.Clock.Now()); err != nil {
		return nil, db.Translate(err, MsgReportNotFound, "")
	}
	return m.FindReport(ctx, scope(p), id)
}

// deleteReport removes a report and, for a generated one, its files (after the commit). An
// uploaded PDF belongs to the creatives module's files and stays there.
func (m *Module) deleteReport(ctx context.Context, p *auth.Principal, id string) error {
	var gone *store.Report
	err := db.Transact(ctx, m.deps.DB, func(ctx context.Context) error {
		r, err := m.store.Find(ctx, scope(p), id)
		if err != nil {
			return db.Translate(err, MsgReportNotFound, "")
		}
		gone = r
		return m.store.Delete(ctx, r.CompanyID, id)
	})
	if err != nil {
		return err
	}
	if gone.Source != SourceUploaded {
		m.deleteObjects(ctx, gone.FileKey, gone.CSVKey)
	}
	return nil
}

// reportCampaigns answers the picker's campaigns: the caller's company's, or for an admin the
// chosen company's.
func (m *Module) reportCampaigns(ctx context.Context, p *auth.Principal, company string) ([]ReportCampaign, error) {
	companyID := p.CompanyID
	if p.IsAdmin() && company != "" {
		companyID = company
	}
	cs, err := m.deps.Campaigns.FindCompanyCampaigns(ctx, companyID)
	if err != nil {
		return nil, err
	}
	on, err := m.store.CampaignIDsWithSchedule(ctx, companyID)
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
func (m *Module) reportWeeks(ctx context.Context, p *auth.Principal, campaignID string) ([]ReportWeek, error) {
	c, err := m.campaignFor(ctx, p, campaignID)
	if err != nil {
		return nil, err
	}
	all, err := m.deps.Campaigns.FindWeeks(ctx, c.ID)
	if err != nil {
		return nil, err
	}
	return finishedWeeks(all, m.today()), nil
}

// companies answers the admin picker: companies whose name contains q.
func (m *Module) companies(ctx context.Context, q string) ([]CompanyOption, error) {
	cs, err := m.deps.Identity.FindCompanies(ctx, q, 20)
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
func (m *Module) publishReady(ctx context.Context, r *store.Report) {
	db.Notify(ctx, m.deps.DB, EventReportReady, func(ctx context.Context) error {
		return m.deps.Events.Publish(ctx, EventReportReady, ReportReady{ReportID: r.ID, CompanyID: r.CompanyID, CampaignID: r.CampaignID, Name: r.Name, Source: r.Source})
	})
}
