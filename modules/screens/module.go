// Package screens is the screens bounded context (docs/screens.md): players paired with faces,
// their schedules, signed plays and hourly rollups, delivery from plays, and screen health.
package screens

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/modules/campaigns"
	"marquee/modules/creatives"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/modules/screens/internal/store"
	"marquee/platform/audit"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/jobs"
	"marquee/platform/mail"
	"marquee/platform/ratelimit"
	"marquee/platform/server"
	"marquee/platform/signing"
	"marquee/platform/storage"
)

// Bookings is what this module needs from campaigns: the weeks booked on a face, and the
// delivery it records from plays and closes (campaigns.Service).
type Bookings interface {
	FaceBookings(ctx context.Context, faceIDs []string, from, to dates.Date) ([]campaigns.FaceBooking, error)
	RecordScreenDelivery(ctx context.Context, req campaigns.ScreenDelivery) error
	ScreenWeeksToClose(ctx context.Context, endedBefore dates.Date) ([]campaigns.ScreenWeekToClose, error)
	CloseScreenWeek(ctx context.Context, weekID string) error
	// The demo seed pairs a face of the demo advertiser's running campaign.
	FindCompanyCampaigns(ctx context.Context, companyID string) ([]*campaigns.Campaign, error)
	FindWeeks(ctx context.Context, campaignID string) ([]campaigns.Week, error)
}

// Faces reads faces from locations: their name, position, weekly impressions and loop.
type Faces interface {
	FindFacesByIDs(ctx context.Context, ids []string) ([]locations.Location, error)
	// SetFaceHours gives the demo face all-day hours (seedDemo).
	SetFaceHours(ctx context.Context, faceID string, req locations.FaceHoursUpdate) (locations.Location, error)
}

// Creatives reads the creatives a schedule names (their file key).
type Creatives interface {
	FindCreativesByIDs(ctx context.Context, ids []string) ([]*creatives.Creative, error)
}

// Objects reads stored files (the creatives a player downloads).
type Objects interface {
	Get(ctx context.Context, key string) (io.ReadCloser, storage.Object, error)
}

// Mailer queues an email in the caller's transaction (platform/mail.Outbox).
type Mailer interface {
	Enqueue(ctx context.Context, m mail.Message) error
}

// Auditor records an admin's change in its transaction (platform/audit.Log).
type Auditor interface {
	Record(ctx context.Context, ch audit.Change) error
}

// Signer signs and checks the download URLs of a schedule (platform/signing).
type Signer interface {
	Sign(msg []byte) ([]byte, error)
	PublicKey() ed25519.PublicKey
}

// Deps are what the screens module needs; New refuses a missing one.
type Deps struct {
	DB        *gorm.DB
	Clock     clock.Clock
	Log       *slog.Logger
	Bookings  Bookings
	Faces     Faces
	Creatives Creatives
	Objects   Objects
	Outbox    Mailer
	Audit     Auditor
	Signer    Signer
	// PairLimit limits pairing attempts per IP.
	PairLimit ratelimit.Counter

	BaseURL string
	// AlertsTo is where screen health emails go (OPERATIONS_EMAIL).
	AlertsTo     string
	MaxJSONBytes int64
	// WeekGrace is how long after a week ends its backfill may still arrive (48 h by default).
	WeekGrace time.Duration
	// SilentAfter is how long a screen may be silent during operating hours before the admins
	// are emailed (1 h).
	SilentAfter time.Duration
}

// Module is the screens bounded context: its wiring and its HTTP handlers.
type Module struct {
	deps Deps
	svc  *service
}

// service implements Service, the device authentication and the jobs.
type service struct {
	deps  Deps
	store *store.Store
}

// New builds the module.
func New(d Deps) (*Module, error) {
	if d.DB == nil || d.Clock == nil || d.Bookings == nil || d.Faces == nil || d.Creatives == nil || d.Objects == nil ||
		d.Outbox == nil || d.Audit == nil || d.Signer == nil || d.PairLimit == nil {
		return nil, errors.New("screens: missing dependency")
	}
	if d.MaxJSONBytes < 1 || d.BaseURL == "" {
		return nil, errors.New("screens: missing configuration")
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.WeekGrace <= 0 {
		d.WeekGrace = 48 * time.Hour
	}
	if d.SilentAfter <= 0 {
		d.SilentAfter = time.Hour
	}
	return &Module{deps: d, svc: &service{deps: d, store: store.New(d.DB)}}, nil
}

// Service returns the module's public API.
func (m *Module) Service() Service { return m.svc }

func (m *Module) Name() string { return "screens" }

func (m *Module) Migrations() []*db.Migration { return store.Migrations() }

func (m *Module) Routes(r gin.IRouter) { m.routes().Register(r) }

func (m *Module) Policy() []authz.Rule { return m.routes().Policy() }

// AuthenticateDevice implements server.DeviceAuth: the signature check of every signed device
// call (device.go).
func (m *Module) AuthenticateDevice(r *http.Request) (*http.Request, error) {
	return m.svc.authenticate(r)
}

// Jobs: closing weeks once their backfill grace is over, the screens' health, and the retention
// of raw plays.
func (m *Module) Jobs() []jobs.Job {
	return []jobs.Job{
		{Name: "screens.close-weeks", Every: 10 * time.Minute, Run: func(ctx context.Context) error {
			_, err := m.CloseWeeks(ctx)
			return err
		}},
		{Name: "screens.health", Every: time.Minute, Run: func(ctx context.Context) error {
			_, err := m.CheckHealth(ctx)
			return err
		}},
		{Name: "screens.prune-plays", Every: time.Hour, Run: func(ctx context.Context) error {
			_, err := m.PrunePlays(ctx)
			return err
		}},
	}
}

// CloseWeeks runs the week-close job once; it answers how many weeks it closed.
func (m *Module) CloseWeeks(ctx context.Context) (int, error) { return m.svc.closeWeeks(ctx) }

// PrunePlays deletes the raw plays older than 90 days (the rollups stay); it answers how many.
func (m *Module) PrunePlays(ctx context.Context) (int64, error) { return m.svc.prunePlays(ctx) }

// CheckHealth runs the health job once; it answers how many emails it queued.
func (m *Module) CheckHealth(ctx context.Context) (int, error) { return m.svc.checkHealth(ctx) }

// NewPairingCode makes a pairing code for a face without an admin session (the CLI and the demo
// seed).
func (m *Module) NewPairingCode(ctx context.Context, faceID string) (*PairingCode, error) {
	return m.svc.newPairingCode(ctx, "", faceID)
}

// SeedDemo implements server.DemoSeeder (seed.go).
func (m *Module) SeedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	return m.svc.seedDemo(ctx, demo)
}

// NewFromKernel builds the module from the platform kernel and the modules below it.
func NewFromKernel(k *server.Kernel, b Bookings, f Faces, cr Creatives) (*Module, error) {
	c := k.Config
	signer, _, err := signing.FromConfig(c.ProofSigningKey, c.DataDir)
	if err != nil {
		return nil, fmt.Errorf("screens: PROOF_SIGNING_KEY: %w", err)
	}
	return New(Deps{DB: k.DB, Clock: k.Clock, Log: k.Log, Bookings: b, Faces: f, Creatives: cr, Objects: k.Storage,
		Outbox: k.Outbox, Audit: k.Audit, Signer: signer, PairLimit: k.Limits("screens-pair", 20, time.Minute),
		BaseURL: c.BaseURL, AlertsTo: c.OperationsEmail, MaxJSONBytes: c.MaxJSONBytes, WeekGrace: c.ScreensWeekGrace, SilentAfter: c.ScreensSilentAfter})
}

// Component builds screens after the modules it reads: identity (admins), locations (faces),
// creatives (the files a player downloads) and campaigns (bookings and delivery).
var Component = &server.Component{Name: "screens",
	Needs: []*server.Component{identity.Component, locations.Component, creatives.Component, campaigns.Component},
	Build: func(k *server.Kernel, b server.Built) (server.Module, error) {
		return NewFromKernel(k, server.Get[*campaigns.Module](b).Service(), server.Get[*locations.Module](b).Service(),
			server.Get[*creatives.Module](b).Service())
	}}
