package reports

import (
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/gin-gonic/gin"

	"marquee/modules/reports/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/db"
	"marquee/platform/httpx"
	"marquee/platform/pagination"
	"marquee/platform/server"
)

// routes lists every route of the module with the narrowest role that may call it (B §6): the
// report calls are for anyone signed in and scoped to their company by the service (admins reach
// every company's); the admin list, the company picker, the mailer and the calendar's copy are
// admin calls.
func (m *Module) routes() server.RouteTable {
	limit := m.deps.MaxJSONBytes
	return server.RouteTable{
		// The weekly digest's setting (digest.go).
		server.GET("/api/reports/digest", authz.Member, httpx.Call(m.svc.digest)).Doc("The weekly digest setting", nil, DigestSetting{}),
		server.PUT("/api/reports/digest", authz.Member, httpx.CallBody(limit, m.svc.setDigest)).Doc("Set the weekly digest", DigestRequest{}, DigestSetting{}),

		server.GET("/api/reports", authz.Member, m.listHandler(listSpec, false)).Params(ListQuery{}, &listSpec).Doc("List the company's reports (?campaign=)", nil, ReportList{}).V1("/reports"),
		server.POST("/api/reports", authz.Member, m.createHandler(true)).Doc("Post /api/reports", ReportRequest{}, ReportResponse{}).Answers(http.StatusCreated),
		server.POST("/api/campaigns/reports", authz.Member, m.createHandler(false)).Doc("Generate a campaign report (201)", ReportRequest{}, ReportResponse{}).Answers(http.StatusCreated),
		server.GET("/api/reports/campaigns", authz.Member, m.campaignsHandler).Doc("The campaigns a report can cover", nil, []ReportCampaign{}).Params(CompanyQuery{}, nil),
		server.GET("/api/reports/campaigns/:id/weeks", authz.Member, httpx.CallID(m.svc.reportWeeks)).Doc("The weeks a report can cover", nil, []ReportWeek{}),
		server.PUT("/api/reports/schedules/:id", authz.Member, httpx.CallIDBody(limit, m.svc.setSchedule)).Doc("Set a report's schedule", ScheduleRequest{}, MessageResponse{}),
		server.GET("/api/reports/data/:id", authz.Member, httpx.CallID(m.svc.reportData)).Doc("A report's figures", nil, ReportData{}),
		server.GET("/api/reports/:id", authz.Member, httpx.CallID(m.svc.report)).Doc("A report", nil, Report{}),
		server.PUT("/api/reports/:id", authz.Member, httpx.CallIDBody(limit, m.svc.rename)).Doc("Rename a report", RenameRequest{}, ReportResponse{}),
		server.DELETE("/api/reports/:id", authz.Member, httpx.CallID(m.svc.remove)).Doc("Delete a report", nil, MessageResponse{}),
		server.GET("/api/reports/:id/file", authz.Member, m.fileHandler(false)).Params(DownloadQuery{}, nil).Doc("Download a report's PDF", nil, server.File{Types: []string{"application/pdf"}}).V1("/reports/:id/file"),
		server.GET("/api/reports/:id/csv", authz.Member, m.fileHandler(true)).Params(DownloadQuery{}, nil).Doc("Download a report's CSV", nil, server.File{Types: []string{"text/csv"}}).V1("/reports/:id/csv"),
		server.POST("/api/reports/performance-report/mailer/", authz.Admin, httpx.CallBody(limit, m.svc.mailer)).Doc("Email a report", MailerRequest{}, MessageResponse{}),
		server.GET("/api/admin/reports/", authz.Admin, m.listHandler(adminSpec, true)).Doc("Every report (admin)", nil, ReportList{}).Params(ListQuery{}, &adminSpec),
		server.GET("/api/admin/reports/companies", authz.Admin, m.companiesHandler).Doc("Companies with reports (admin)", nil, []CompanyOption{}).Params(SearchQuery{}, nil),
		// The calendar service's copy of the reports (B §7) is this module's table: DESIGN.md §1.1
		// and docs/reports.md. It lists the same rows as the admin list.
		server.GET("/api/ac/reports/", authz.Admin, m.listHandler(adminSpec, true)).Doc("The account reports", nil, ReportList{}).Params(ListQuery{}, &adminSpec),
		server.DELETE("/api/ac/reports/:id", authz.Admin, httpx.CallID(m.svc.remove)).Doc("Delete an account report", nil, MessageResponse{}),
	}
}

// listSpec is the advertiser's list (B §9: 10, 20, 50, All; default 10), newest first.
var listSpec = pagination.Spec{PageSizes: PageSizes, DefaultSize: 10, DefaultSort: "-created_at",
	Sortable: map[string]string{"created_at": "created_at", "name": "name", "campaign_name": "campaign_name"}}

// adminSpec is the admin list (B §9: 50, 75, 100, All; default 50).
var adminSpec = pagination.Spec{PageSizes: AdminPageSizes, DefaultSize: 50, DefaultSort: "-created_at",
	Sortable: map[string]string{"created_at": "created_at", "name": "name", "campaign_name": "campaign_name", "company_name": "company_name"}}

// listHandler answers a page of reports (?campaign=, ?q=): the caller's company's, or on the
// admin lists every company's or the one ?company= names.
func (m *Module) listHandler(spec pagination.Spec, admin bool) httpx.HandlerFunc {
	return func(c *gin.Context) error {
		pp, err := pagination.Parse(c, spec)
		if err != nil {
			return err
		}
		company := scope(auth.Current(c))
		if admin {
			company = c.Query("company")
		}
		out, err := m.svc.listReports(c, store.ListQuery{CompanyID: company, CampaignID: c.Query("campaign"), Q: pp.Q}, pp)
		if err != nil {
			return err
		}
		httpx.Answer(c, out)
		return nil
	}
}

// createHandler makes a report (POST /api/reports may also save an uploaded PDF).
func (m *Module) createHandler(uploadAllowed bool) httpx.HandlerFunc {
	return func(c *gin.Context) error {
		var req ReportRequest
		if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
			return err
		}
		r, err := m.svc.createReport(c, auth.Current(c), req, uploadAllowed)
		if err != nil {
			return err
		}
		httpx.Answer(c, ReportResponse{Success: true, Message: MsgCreated, Report: r})
		return nil
	}
}

func (m *Module) campaignsHandler(c *gin.Context) error {
	out, err := m.svc.reportCampaigns(c, auth.Current(c), c.Query("company"))
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

func (m *Module) companiesHandler(c *gin.Context) error {
	q := c.Query("q")
	if len(q) > 100 {
		return apperr.Field("q", "Search text is too long.")
	}
	out, err := m.svc.companies(c, q)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

// fileHandler streams a report's PDF (inline, or as a download with ?download=1) or its CSV to a
// caller who may see the report; anyone else gets 404. The files have no public address.
func (m *Module) fileHandler(csvFile bool) httpx.HandlerFunc {
	return func(c *gin.Context) error { return m.serveFile(c, csvFile) }
}

func (m *Module) serveFile(c *gin.Context, csvFile bool) error {
	r, err := m.svc.store.Find(c, scope(auth.Current(c)), c.Param("id"))
	if err != nil {
		return db.Translate(err, MsgReportNotFound, "")
	}
	key, name, ctype, disposition := r.FileKey, r.Filename, "application/pdf", "inline"
	if csvFile {
		key, ctype, disposition = r.CSVKey, "text/csv; charset=utf-8", "attachment"
		name = fmt.Sprintf("%s.csv", fileSlug(r.Name))
	}
	if c.Query("download") == "1" {
		disposition = "attachment"
	}
	if key == "" {
		return apperr.NotFound(MsgNoFile)
	}
	rc, obj, err := m.deps.Storage.Get(c, key)
	if err != nil {
		return err
	}
	defer rc.Close()
	h := c.Writer.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", fmt.Sprint(obj.Size))
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": name}))
	// The report page shows the PDF in a frame of our own origin.
	h.Set("X-Frame-Options", "SAMEORIGIN")
	h.Set("Content-Security-Policy", "frame-ancestors 'self'")
	c.Status(http.StatusOK)
	if _, err := io.Copy(c.Writer, rc); err != nil {
		httpx.Logger(c).Warn("reports: serve file", "key", key, "err", err)
	}
	return nil
}
