package reports

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/google/uuid"

	"marquee/modules/campaigns"
	"marquee/modules/creatives"
	"marquee/modules/reports/internal/store"
	"marquee/platform/db"
	"marquee/platform/server"
)

// Demo data (marquee seed --demo): generated reports of the demo advertiser's campaigns that have
// finished weeks, one with its weekly report on, and one PDF uploaded by the demo admin. Ids come
// from names, so a second run finds them and does nothing.

var demoNamespace = uuid.MustParse("4b8e3f5e-7a0c-4f7e-8f43-6a1f3c2b9d10")

func demoID(name string) string { return uuid.NewSHA1(demoNamespace, []byte(name)).String() }

// demoReports are the demo advertiser's campaigns that get a generated report of all their
// finished weeks.
var demoReports = []string{"Summer Sale", "Back to School", "Holiday Coffee Push"}

// demoScheduled is the demo campaign whose weekly report is on.
const demoScheduled = "Holiday Coffee Push"

// seedDemo is server.DemoSeeder (Module.SeedDemo).
func (s *service) seedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	adv, ok := demo["advertiser"]
	if !ok {
		return "reports: no demo advertiser", nil
	}
	cs, err := s.deps.Campaigns.FindCompanyCampaigns(ctx, adv.CompanyID)
	if err != nil {
		return "", err
	}
	byName := map[string]*campaigns.Campaign{}
	for _, c := range cs {
		byName[c.Name] = c
	}
	made, there := 0, 0
	for _, name := range demoReports {
		c := byName[name]
		if c == nil {
			continue
		}
		id := demoID("generated:" + adv.CompanyID + ":" + name)
		if _, err := s.store.Find(ctx, "", id); err == nil {
			there++
			continue
		} else if !db.IsNotFound(err) {
			return "", err
		}
		all, err := s.deps.Campaigns.FindWeeks(ctx, c.ID)
		if err != nil {
			return "", err
		}
		var ids []string
		for _, w := range finishedWeeks(all, s.today()) {
			ids = append(ids, w.WeekIDs...)
		}
		weeks, err := chooseWeeks(all, ids, s.today())
		if err != nil {
			continue // no finished week yet
		}
		_, err = s.generate(ctx, generation{id: id, campaign: c, weeks: weeks, userID: adv.UserID, source: SourceGenerated})
		if err != nil {
			return "", fmt.Errorf("reports: demo report of %s: %w", name, err)
		}
		made++
	}
	if c := byName[demoScheduled]; c != nil {
		if err := s.store.SetSchedule(ctx, store.Schedule{CampaignID: c.ID, CompanyID: c.CompanyID, UserID: adv.UserID, CreatedAt: s.deps.Clock.Now()}, true); err != nil {
			return "", err
		}
	}
	if admin, ok := demo["admin"]; ok {
		if n, err := s.seedUploaded(ctx, admin, adv, byName["Summer Sale"]); err != nil {
			return "", err
		} else {
			made += n
		}
	}
	return fmt.Sprintf("reports: %d demo reports created, %d already there", made, there), nil
}

// seedUploaded stores an audit PDF as the demo admin's upload for the advertiser's campaign.
func (s *service) seedUploaded(ctx context.Context, admin, adv server.DemoAccount, c *campaigns.Campaign) (int, error) {
	if c == nil {
		return 0, nil
	}
	id := demoID("uploaded:" + adv.CompanyID)
	if _, err := s.store.Find(ctx, "", id); err == nil {
		return 0, nil
	} else if !db.IsNotFound(err) {
		return 0, err
	}
	pdf, err := auditPDF(c, s.deps.Clock.Now())
	if err != nil {
		return 0, err
	}
	f, err := s.deps.Creatives.StoreFile(ctx, creatives.StoreFileRequest{CompanyID: admin.CompanyID, UploaderID: admin.UserID,
		Kind: creatives.KindReport, OriginalName: "independent-audit.pdf"}, bytes.NewReader(pdf))
	if err != nil {
		return 0, err
	}
	now := s.deps.Clock.Now()
	r := &store.Report{ID: id, Name: c.Name + " - independent audit", CompanyID: c.CompanyID, CompanyName: c.CompanyName,
		CampaignID: c.ID, CampaignName: c.Name, UserID: c.UserID, VendorID: admin.UserID, Source: SourceUploaded, WeekIDs: "[]",
		PeriodStart: c.StartDate, PeriodEnd: c.EndDate, FileKey: f.Key, Filename: "independent-audit.pdf", Size: f.Size,
		CreatedAt: now, UpdatedAt: now}
	if err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error { return s.store.CreateReports(ctx, []store.Report{*r}) }); err != nil {
		return 0, err
	}
	return 1, nil
}

// auditPDF is a one-page audit letter, the kind of document an admin uploads.
func auditPDF(c *campaigns.Campaign, now time.Time) ([]byte, error) {
	f := fpdf.New("P", "mm", "Letter", "")
	f.SetCreationDate(now)
	f.SetModificationDate(now)
	f.AddPage()
	f.SetFont("Helvetica", "B", 18)
	f.CellFormat(0, 12, "Independent audit of posting", "", 1, "L", false, 0, "")
	f.SetFont("Helvetica", "", 11)
	tr := f.UnicodeTranslatorFromDescriptor("")
	f.MultiCell(0, 6, tr(fmt.Sprintf("Campaign: %s\nClient: %s\nFlight: %s to %s\n\nOur field auditors visited every face of this campaign during its flight "+
		"and found the creative posted as booked.", c.Name, c.CompanyName, c.StartDate.Format("Jan 02, 2006"), c.EndDate.Format("Jan 02, 2006"))), "", "L", false)
	var buf bytes.Buffer
	err := f.Output(&buf)
	return buf.Bytes(), err
}

// GenerateOptions says what GenerateReports makes (benchmarks).
type GenerateOptions struct {
	CompanyID, CompanyName, UserID string
	// CampaignIDs are given to the reports in turn.
	CampaignIDs []string
	Reports     int
}

// generateReports inserts report rows in batches, without files (the list benchmark's 50,000).
func (s *service) generateReports(ctx context.Context, o GenerateOptions) error {
	if o.Reports < 1 || len(o.CampaignIDs) == 0 {
		return fmt.Errorf("reports: generate needs campaigns and a count")
	}
	now := s.deps.Clock.Now()
	const chunk = 1000
	for first := 0; first < o.Reports; first += chunk {
		rows := make([]store.Report, 0, chunk)
		for i := first; i < min(first+chunk, o.Reports); i++ {
			id := demoID(fmt.Sprintf("bench:%s:%d", o.CompanyID, i))
			rows = append(rows, store.Report{ID: id, Name: fmt.Sprintf("Bench report %d", i), CompanyID: o.CompanyID, CompanyName: o.CompanyName,
				CampaignID: o.CampaignIDs[i%len(o.CampaignIDs)], CampaignName: "Bench campaign", UserID: o.UserID, Source: SourceGenerated,
				WeekIDs: "[]", WeeksCount: 4, FileKey: "reports/bench/" + id + ".pdf", Filename: "bench.pdf", Figures: "{}",
				CreatedAt: now.Add(-time.Duration(i) * time.Minute), UpdatedAt: now})
		}
		if err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error { return s.store.CreateReports(ctx, rows) }); err != nil {
			return err
		}
	}
	return s.store.Analyze(ctx)
}
