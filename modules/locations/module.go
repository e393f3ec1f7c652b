package locations

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/modules/locations/internal/store"
	"marquee/platform/audit"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/imagecheck"
	"marquee/platform/jobs"
	"marquee/platform/ratelimit"
	"marquee/platform/server"
	"marquee/platform/storage"
)

// Deps are what the locations module needs; New refuses a missing one. It depends on no module.
type Deps struct {
	DB    *gorm.DB
	Clock clock.Clock

	// HoldTTL is how long a hold lasts before the release job frees it (HOLD_TTL).
	HoldTTL         time.Duration
	TileURL         string
	TileAttribution string
	MaxJSONBytes    int64
	// Geocoder looks up street addresses in the place search; nil answers the town an address
	// names, marked approximate (GEOCODER, GEOCODER_URL).
	Geocoder Geocoder
	Log      *slog.Logger
	// RateLimits makes the counter of the geocoding limit; nil counts in the process.
	RateLimits ratelimit.Factory
	// Audit records an admin's change of a face in its transaction (platform/audit.Log); nil
	// records nothing (benchmarks).
	Audit Auditor
	// Storage keeps the face photos admins upload (face_photo.go); nil refuses the upload.
	Storage storage.Storage
	// Decodes is the process's image decode budget (server.Kernel.Decodes, shared with the
	// creatives' uploads); DecodeMaxBytes refuses one decode over it (IMAGE_DECODE_MAX_BYTES).
	// Nil makes a budget of DecodeMaxBytes (256 MiB when unset) for this module alone.
	Decodes        *imagecheck.Budget
	DecodeMaxBytes int64
	// TempDir is where a face photo waits while it is checked (config.UploadStagingDir); empty
	// means the system's.
	TempDir string
}

// Auditor records an admin change in the caller's transaction (platform/audit.Log).
type Auditor interface {
	Record(ctx context.Context, ch audit.Change) error
}

// Module is the locations bounded context: its wiring and its HTTP handlers (handlers.go). The
// work is the service's.
type Module struct {
	deps Deps
	svc  *service
}

// New builds the module and its place index.
func New(d Deps) (*Module, error) {
	if d.DB == nil || d.Clock == nil {
		return nil, errors.New("locations: missing dependency")
	}
	if d.HoldTTL <= 0 || d.TileURL == "" || d.MaxJSONBytes < 1 {
		return nil, errors.New("locations: missing configuration")
	}
	if d.DecodeMaxBytes < 1 {
		d.DecodeMaxBytes = 256 << 20
	}
	if d.Decodes == nil {
		d.Decodes = imagecheck.NewBudget(d.DecodeMaxBytes)
	}
	g, err := loadGazetteer()
	if err != nil {
		return nil, err
	}
	return &Module{deps: d, svc: &service{deps: d, store: store.New(d.DB), places: newPlaceSearch(g, d.Geocoder, d.RateLimits, d.Clock, d.Log),
		tiles: newTileProbe(d.TileURL, d.Clock), photoRate: facePhotoRate(d)}}, nil
}

// NewFromKernel builds the module from the platform kernel.
func NewFromKernel(k *server.Kernel) (*Module, error) {
	geocoder, err := NewGeocoder(k.Config.Geocoder, k.Config.GeocoderURL, "Marquee ("+k.Config.BaseURL+")", nil)
	if err != nil {
		return nil, err
	}
	return New(Deps{
		DB: k.DB, Clock: k.Clock, HoldTTL: k.Config.HoldTTL,
		TileURL: k.Config.TileURL, TileAttribution: k.Config.TileAttribution, MaxJSONBytes: k.Config.MaxJSONBytes,
		Geocoder: geocoder, Log: k.Log, RateLimits: k.Limits, Audit: k.Audit,
		Storage: k.Storage, Decodes: k.Decodes, DecodeMaxBytes: k.Config.ImageDecodeMaxBytes, TempDir: k.Config.UploadStagingDir(),
	})
}

// Service returns the module's public API.
func (m *Module) Service() Service { return m.svc }

func (m *Module) Name() string { return "locations" }

func (m *Module) Migrations() []*db.Migration {
	business := clock.Location(m.deps.Clock)
	return store.Migrations(referenceRows, func(market string) string { return MarketTimezone(market, business) })
}

// JobReleaseHolds is the name of the job that frees expired holds.
const JobReleaseHolds = "locations.release-expired-holds"

func (m *Module) Jobs() []jobs.Job {
	return []jobs.Job{{Name: JobReleaseHolds, Every: time.Minute, Run: m.svc.releaseExpiredHolds}}
}

func (m *Module) Routes(r gin.IRouter) { m.routes().Register(r) }

func (m *Module) Policy() []authz.Rule { return m.routes().Policy() }

// Component builds locations on the kernel; it needs no other module, so a locations-only graph
// knows no users and every caller is anonymous (the signed-in calendar calls are tested with the
// whole application, cmd/marquee).
var Component = &server.Component{Name: "locations",
	Build: func(k *server.Kernel, _ server.Built) (server.Module, error) { return NewFromKernel(k) }}
