package creatives

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"os"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/sync/semaphore"
	"gorm.io/gorm"

	"marquee/modules/creatives/internal/store"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/audit"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/imagecheck"
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

// Identity is what this module needs from identity: the company of an admin's upload and of a
// creative request.
type Identity interface {
	FindCompanyByID(ctx context.Context, id string) (*identity.Company, error)
}

// FaceGeometry is what this module needs from locations: the faces a creative is checked against
// (size, pixels, viewing distance) and a face's photo with its screen corners, for the preview.
type FaceGeometry interface {
	FindFacesByIDs(ctx context.Context, ids []string) ([]locations.Location, error)
	FacePhoto(ctx context.Context, faceID string) (image.Image, locations.FaceGeometry, error)
}

// CreativeRequestsPerHour bounds POST /users/creative per user: each one emails the operations team.
const CreativeRequestsPerHour = 5

// Auditor records an admin change in the caller's transaction (platform/audit.Log).
type Auditor interface {
	Record(ctx context.Context, ch audit.Change) error
}

// Deps are what the creatives module needs; New refuses a missing one.
type Deps struct {
	DB       *gorm.DB
	Clock    clock.Clock
	Storage  storage.Storage
	Outbox   Mailer
	Identity Identity
	Faces    FaceGeometry
	Audit    Auditor
	Log      *slog.Logger
	// RateLimits makes the counters of the upload and creative-request limits; nil counts in the
	// process.
	RateLimits ratelimit.Factory

	OperationsEmail string // receives creative requests
	MaxJSONBytes    int64
	// TempDir is where uploads wait while they are checked (config.UploadStagingDir): under
	// DATA_DIR with fs storage; empty means the system's temporary directory (TMPDIR), where
	// nothing is created at start.
	TempDir string
	Limits  UploadLimits
	// Decodes is the process's image decode budget (server.Kernel.Decodes, shared with the face
	// photos); nil makes one of Limits.DecodeMemory for this module alone (tests, benchmarks).
	Decodes *imagecheck.Budget
	// OCR reads the text of uploaded creatives for the pre-flight; nil finds tesseract on the PATH
	// with DefaultOCRTimeout (none there: the text checks are skipped).
	OCR *OCR
}

// DefaultOCRTimeout bounds one text recognition: the pre-flight of a 10 MB upload has 500 ms in
// all (issue 29), and a recognition that takes far longer is a hostile or pathological image.
const DefaultOCRTimeout = 2 * time.Second

// UploadLimits bound what uploads may cost the server (docs/uploads.md "Quotas and memory").
type UploadLimits struct {
	RequestMaxBytes int64 // the files of one upload request together (413)
	FilesPerMinute  int   // files one user may upload per minute (429)
	CompanyQuota    int64 // bytes of creatives and images one company keeps (413)
	DecodeMaxBytes  int64 // memory one image decode may take, from its header (422)
	DecodeMemory    int64 // memory all decodes in flight take together; more wait
}

// Module is the creatives bounded context: its wiring and its HTTP handlers (handlers.go). The
// work is the service's.
type Module struct {
	deps Deps
	svc  *service
}

// New builds the module.
func New(d Deps) (*Module, error) {
	if d.DB == nil || d.Clock == nil || d.Storage == nil || d.Outbox == nil || d.Identity == nil || d.Faces == nil || d.Audit == nil {
		return nil, errors.New("creatives: missing dependency")
	}
	if d.OperationsEmail == "" || d.MaxJSONBytes < 1 || d.Limits.RequestMaxBytes < 1 || d.Limits.FilesPerMinute < 1 ||
		d.Limits.CompanyQuota < 1 || d.Limits.DecodeMaxBytes < 1 || d.Limits.DecodeMemory < d.Limits.DecodeMaxBytes {
		return nil, errors.New("creatives: missing configuration")
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.RateLimits == nil {
		d.RateLimits = ratelimit.InProcess(d.Clock)
	}
	if d.Decodes == nil {
		d.Decodes = imagecheck.NewBudget(d.Limits.DecodeMemory)
	}
	if d.OCR == nil {
		d.OCR = NewOCR(DefaultOCRTimeout)
	}
	if d.TempDir == "" {
		d.TempDir = os.TempDir() // made by the system; nothing to create
	} else {
		if err := os.MkdirAll(d.TempDir, 0o750); err != nil {
			return nil, fmt.Errorf("creatives: temporary directory: %w", err)
		}
		// Only in our own directory, never in the system's, where the names are anyone's.
		if n := removeStaleStaging(d.TempDir, d.Log); n > 0 {
			d.Log.Info("creatives: removed the staged files of interrupted uploads", "files", n)
		}
	}
	st := store.New(d.DB)
	return &Module{deps: d, svc: &service{
		deps:  d,
		store: st,
		uploads: &uploader{deps: d, store: st, decodes: d.Decodes,
			rate: d.RateLimits("uploads", d.Limits.FilesPerMinute, time.Minute), ocr: d.OCR},
		previews:     semaphore.NewWeighted(PreviewLimit),
		renders:      d.RateLimits("preview-renders", PreviewRendersPerMinute, time.Minute),
		requestLimit: d.RateLimits("creative-requests", CreativeRequestsPerHour, time.Hour),
	}}, nil
}

// Service returns the module's public API.
func (m *Module) Service() Service { return m.svc }

func (m *Module) Name() string { return "creatives" }

func (m *Module) Migrations() []*db.Migration { return store.Migrations() }

func (m *Module) Jobs() []jobs.Job {
	return []jobs.Job{{Name: "creatives.temp-cleanup", Every: time.Hour, Run: func(ctx context.Context) error {
		_, err := m.svc.cleanTempFiles(ctx)
		return err
	}}, {Name: JobSweepOrphans, Every: time.Hour, Run: m.svc.sweepOrphansDaily}}
}

func (m *Module) Routes(r gin.IRouter) { m.routes().Register(r) }

func (m *Module) Policy() []authz.Rule { return m.routes().Policy() }

// NewFromKernel builds the module from the platform kernel, the identity service and the
// locations service.
func NewFromKernel(k *server.Kernel, id Identity, faces FaceGeometry) (*Module, error) {
	return New(Deps{
		DB: k.DB, Clock: k.Clock, Storage: k.Storage, Outbox: k.Outbox, Identity: id, Faces: faces, Audit: k.Audit, Log: k.Log,
		RateLimits: k.Limits, OperationsEmail: k.Config.OperationsEmail, MaxJSONBytes: k.Config.MaxJSONBytes,
		TempDir: k.Config.UploadStagingDir(), Decodes: k.Decodes,
		Limits: UploadLimits{RequestMaxBytes: k.Config.UploadRequestMaxBytes, FilesPerMinute: k.Config.UploadRateLimit,
			CompanyQuota: k.Config.CompanyStorageQuota, DecodeMaxBytes: k.Config.ImageDecodeMaxBytes, DecodeMemory: k.Config.ImageDecodeMemory},
	})
}

// Component builds creatives on the kernel after identity and locations (server.Compose).
var Component = &server.Component{Name: "creatives", Needs: []*server.Component{identity.Component, locations.Component},
	Build: func(k *server.Kernel, b server.Built) (server.Module, error) {
		return NewFromKernel(k, server.Get[*identity.Module](b).Service(), server.Get[*locations.Module](b).Service())
	}}
