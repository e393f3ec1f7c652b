package reports

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/modules/campaigns"
	"marquee/modules/creatives"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/modules/reports/internal/store"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/jobs"
	"marquee/platform/mail"
	"marquee/platform/ratelimit"
	"marquee/platform/server"
	"marquee/platform/storage"
)

// Mailer queues an email in the caller's transaction (platform/mail.Outbox).
type Mailer interface {
	Enqueue(ctx context.Context, m mail.Message) error
}

// Publisher publishes an event in the caller's transaction (platform/events.Bus).
type Publisher interface {
	Publish(ctx context.Context, name string, payload any) error
}

// Identity is what this module needs from identity: company names and pickers, and the
// advertisers' emails.
type Identity interface {
	FindCompaniesByIDs(ctx context.Context, ids []string) ([]*identity.Company, error)
	FindCompanies(ctx context.Context, q string, limit int) ([]*identity.Company, error)
	FindUsersByIDs(ctx context.Context, ids []string) ([]*identity.User, error)
}

// Campaigns is what this module needs from campaigns: the campaigns and their weeks, with the
// recorded impressions and the proofs.
type Campaigns interface {
	FindCampaignsByIDs(ctx context.Context, ids []string) ([]*campaigns.Campaign, error)
	FindCompanyCampaign(ctx context.Context, companyID, id string) (*campaigns.Campaign, error)
	FindCompanyCampaigns(ctx context.Context, companyID string) ([]*campaigns.Campaign, error)
	FindWeeks(ctx context.Context, campaignID string) ([]campaigns.Week, error)
	// CompanyPacing: the live campaigns' delivery against plan (the weekly digest, digest.go).
	CompanyPacing(ctx context.Context, companyID string) ([]campaigns.Pacing, error)
	ProofCodesOf(ctx context.Context, campaignID string) ([]campaigns.WeekProofCode, error) // the PDF's proof-of-play codes
}

// Creatives is what this module needs from creatives: the uploaded report PDFs, the proof and
// creative files, and the creatives that ran (StoreFile: the seed's uploaded PDF).
type Creatives interface {
	FindFile(ctx context.Context, key string) (*creatives.File, error)
	StoreFile(ctx context.Context, req creatives.StoreFileRequest, r io.Reader) (*creatives.File, error)
	FindFilesByKeys(ctx context.Context, keys []string) ([]*creatives.File, error)
	FindCreativesByIDs(ctx context.Context, ids []string) ([]*creatives.Creative, error)
}

// Previews is what this module needs to show the campaign's creative on its faces (the PDF's "Your
// ad on the faces", the weekly email): the PNG of GET /api/creatives/{id}/preview, from the same
// renderer and cache (creatives.Service.PreviewPNG).
type Previews interface {
	PreviewPNG(ctx context.Context, req creatives.PreviewRequest) ([]byte, error)
}

// Faces is what this module needs from locations: which of a report's faces have a photo with
// its screen's corners, in one query, so the PDF names the others without drawing them.
type Faces interface {
	FindFacesByIDs(ctx context.Context, ids []string) ([]locations.Location, error)
}

// Deps are what the reports module needs; New refuses a missing one.
type Deps struct {
	DB        *gorm.DB
	Clock     clock.Clock
	Storage   storage.Storage
	Outbox    Mailer
	Events    Publisher
	Identity  Identity
	Campaigns Campaigns
	Creatives Creatives
	Previews  Previews
	Faces     Faces
	Log       *slog.Logger
	// RateLimits makes the counter of the generation limit; nil counts in the process.
	RateLimits ratelimit.Factory

	BaseURL      string // emailed links
	MaxJSONBytes int64
	// Generators bounds the reports made at once in this process (each holds its images and PDF
	// in memory for a moment).
	Generators int
}

// Module is the reports bounded context: its wiring and its HTTP handlers.
type Module struct {
	deps Deps
	svc  *service
}

// service implements Service, the HTTP calls, the jobs and the demo seed.
type service struct {
	deps  Deps
	store *store.Store
	slots chan struct{}
	limit ratelimit.Counter
	// previewFaces is how many faces the PDF draws the ad on (maxPreviewFaces; a test lowers it).
	previewFaces int
}

// New builds the module.
func New(d Deps) (*Module, error) {
	if d.DB == nil || d.Clock == nil || d.Storage == nil || d.Outbox == nil || d.Events == nil || d.Identity == nil || d.Campaigns == nil || d.Creatives == nil || d.Previews == nil || d.Faces == nil {
		return nil, errors.New("reports: missing dependency")
	}
	if d.BaseURL == "" || d.MaxJSONBytes < 1 {
		return nil, errors.New("reports: missing configuration")
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.RateLimits == nil {
		d.RateLimits = ratelimit.InProcess(d.Clock)
	}
	if d.Generators < 1 {
		d.Generators = 2
	}
	return &Module{deps: d, svc: &service{deps: d, store: store.New(d.DB), slots: make(chan struct{}, d.Generators),
		limit: d.RateLimits("report-generations", GenerationsPerHour, time.Hour), previewFaces: maxPreviewFaces}}, nil
}

// Service returns the module's public API.
func (m *Module) Service() Service { return m.svc }

// SeedDemo implements server.DemoSeeder (seed.go).
func (m *Module) SeedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	return m.svc.seedDemo(ctx, demo)
}

// GenerateReports inserts report rows in batches, without files (the list benchmark's 50,000).
func (m *Module) GenerateReports(ctx context.Context, o GenerateOptions) error {
	return m.svc.generateReports(ctx, o)
}

func (m *Module) Name() string { return "reports" }

func (m *Module) Migrations() []*db.Migration { return store.Migrations() }

func (m *Module) Routes(r gin.IRouter) { m.routes().Register(r) }

func (m *Module) Policy() []authz.Rule { return m.routes().Policy() }

// Jobs: the weekly scheduled reports (schedule.go) and the weekly digest (digest.go).
func (m *Module) Jobs() []jobs.Job { return []jobs.Job{m.svc.weeklyJob(), m.svc.digestJob()} }

// NewFromKernel builds the module from the platform kernel and the services it uses.
func NewFromKernel(k *server.Kernel, id Identity, camps Campaigns, cr Creatives, previews Previews, faces Faces) (*Module, error) {
	return New(Deps{
		DB: k.DB, Clock: k.Clock, Storage: k.Storage, Outbox: k.Outbox, Events: k.Events, Identity: id, Campaigns: camps, Creatives: cr,
		Previews: previews, Faces: faces, Log: k.Log, RateLimits: k.Limits,
		BaseURL: k.Config.BaseURL, MaxJSONBytes: k.Config.MaxJSONBytes,
	})
}

// Component builds reports on the kernel after the modules it reads (server.Compose). The
// creatives service is both its file reader and its preview renderer (Previews): the edge runs
// down the module graph, so every composition (the app, the module's tests, the benchmarks) gets
// the one renderer.
var Component = &server.Component{Name: "reports",
	Needs: []*server.Component{identity.Component, locations.Component, creatives.Component, campaigns.Component},
	Build: func(k *server.Kernel, b server.Built) (server.Module, error) {
		cr := server.Get[*creatives.Module](b).Service()
		return NewFromKernel(k, server.Get[*identity.Module](b).Service(), server.Get[*campaigns.Module](b).Service(),
			cr, cr, server.Get[*locations.Module](b).Service())
	}}
