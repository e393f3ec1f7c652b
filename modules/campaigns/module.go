package campaigns

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/modules/billing"
	"marquee/modules/campaigns/internal/store"
	"marquee/modules/creatives"
	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/events"
	"marquee/platform/jobs"
	"marquee/platform/mail"
	"marquee/platform/money"
	"marquee/platform/server"
	"marquee/platform/signing"
	"marquee/platform/storage"
)

// Mailer queues an email in the caller's transaction (platform/mail.Outbox).
type Mailer interface {
	Enqueue(ctx context.Context, m mail.Message) error
}

// Events publishes in the caller's transaction and subscribes to the events of the modules below
// (platform/events.Bus).
type Events interface {
	Publish(ctx context.Context, name string, payload any) error
	Subscribe(name string, h events.Handler)
}

// Identity is what this module needs from identity: company names for the lists and users' emails
// for the mails.
type Identity interface {
	FindCompaniesByIDs(ctx context.Context, ids []string) ([]*identity.Company, error)
	FindCompanyByID(ctx context.Context, id string) (*identity.Company, error)
	FindUsersByIDs(ctx context.Context, ids []string) ([]*identity.User, error)
}

// Inventory is what this module needs from locations: faces, their prices and markets, and the
// holds and bookings of their weeks.
type Inventory interface {
	Locations(ctx context.Context, q locations.LocationQuery) ([]locations.Location, error)
	FindFacesByIDs(ctx context.Context, ids []string) ([]locations.Location, error)
	Markets(ctx context.Context) ([]locations.Market, error)
	Quote(ctx context.Context, req locations.QuoteRequest) ([]locations.Quote, error)
	Hold(ctx context.Context, req locations.ReserveRequest) (locations.ReserveResult, error)
	Book(ctx context.Context, req locations.ReserveRequest) (locations.ReserveResult, error)
	ConfirmHold(ctx context.Context, req locations.KeyRequest) ([]locations.Spot, error)
	Release(ctx context.Context, req locations.KeyRequest) (int, error)
	ReleaseSpots(ctx context.Context, companyID string, spotIDs []string) (int, error)
	SpotsByRefs(ctx context.Context, companyID string, refs []string) ([]locations.Spot, error)
}

// CreativeFiles is what this module needs from creatives: the campaigns' creatives and the stored
// proof files.
type CreativeFiles interface {
	FindCreativesByIDs(ctx context.Context, ids []string) ([]*creatives.Creative, error)
	FindDefaultCreative(ctx context.Context, companyID string) (*creatives.Creative, error)
	FindFile(ctx context.Context, key string) (*creatives.File, error)
	StoreFile(ctx context.Context, req creatives.StoreFileRequest, r io.Reader) (*creatives.File, error)
}

// Payments is what this module needs from billing: the weeks' charges, refunds, the account
// credit, the card on file and the active promo.
type Payments interface {
	ScheduleCharge(ctx context.Context, req billing.ChargeRequest) (*billing.Transaction, error)
	SettleCharge(ctx context.Context, transactionID string) (*billing.Transaction, error)
	Refund(ctx context.Context, req billing.RefundRequest) (*billing.Transaction, error)
	AccountCredit(ctx context.Context, companyID string) (money.Cents, error)
	ApplyCredit(ctx context.Context, req billing.CreditRequest) (*billing.Transaction, error)
	SpendCredit(ctx context.Context, req billing.CreditRequest) (*billing.Transaction, error)
	ReclaimCredit(ctx context.Context, req billing.CreditRequest) (*billing.Transaction, error)
	FindCardOnFile(ctx context.Context, companyID string) (*billing.Card, error)
	FindActivePromo(ctx context.Context, companyID string) (*billing.ActivePromo, error)
}

// Objects reads stored objects (platform/storage): proofs are hashed from their stored bytes and
// the public /verify page shows them.
type Objects interface {
	Get(ctx context.Context, key string) (io.ReadCloser, storage.Object, error)
}

// Deps are what the campaigns module needs; New refuses a missing one.
type Deps struct {
	DB        *gorm.DB
	Clock     clock.Clock
	Identity  Identity
	Locations Inventory
	Creatives CreativeFiles
	Billing   Payments
	Outbox    Mailer
	Events    Events
	Audit     Auditor
	Log       *slog.Logger
	// Signer signs the proof-of-play chain; Objects reads stored proofs to hash them and to show
	// them on /verify.
	Signer  signing.Signer
	Objects Objects

	MaxJSONBytes int64
	// HoldTTL is how long a conflict's holds, and its draft, last (HOLD_TTL).
	HoldTTL time.Duration
	// BaseURL is the web app's address, for emailed links (the renewal link, renew.go).
	BaseURL string
	// MakeGoodThreshold is the delivery percentage under which a finished week earns a make-good
	// (MAKEGOOD_THRESHOLD_PERCENT; DefaultMakeGoodThreshold when 0).
	MakeGoodThreshold int
}

// Module is the campaigns bounded context: its wiring and its HTTP handlers (handlers.go).
type Module struct {
	deps   Deps
	svc    *service
	assure *assurance
}

// service implements Service and every call the handlers, jobs and subscriptions make. Delivery
// assurance (proof of play, pacing, make-goods) is its own receiver, assurance, held here: it
// shares the delivery transaction and the week lock with the rest.
type service struct {
	deps   Deps
	store  *store.Store
	counts *countCache // the dashboard counts kept in memory (count.go)
	assure *assurance

	// afterBook, when set (tests only), runs inside the creation's transaction right after the
	// bookings: a failure there must leave nothing behind (create_test.go's crash test).
	afterBook func() error
	// beforePlan, when set (tests only), runs in a creation after its key lookup and before its
	// plan: the same-key race test orders the calls with it.
	beforePlan func()
	// beforeDraft, when set (tests only), runs before each attempt at a conflict draft: the test of
	// drafts losing many holds takes a week with it before each attempt.
	beforeDraft func()
	// background counts the first charges being settled after their commit (tests wait on it).
	background sync.WaitGroup
	// codeLookups counts verification-code lookups (proofchain.go; tests read it).
	codeLookups atomic.Int64
}

// assurance is delivery assurance (docs/delivery-assurance.md): the signed proof-of-play chain,
// pacing and make-goods. It is part of the service (the same dependencies, store and
// transactions); its pure cores are internal/proofchain, internal/pacing and internal/makegood.
type assurance struct {
	*service
}

// New builds the module.
func New(d Deps) (*Module, error) {
	if d.DB == nil || d.Clock == nil || d.Identity == nil || d.Locations == nil || d.Creatives == nil ||
		d.Billing == nil || d.Outbox == nil || d.Events == nil || d.Audit == nil || d.Signer == nil || d.Objects == nil {
		return nil, errors.New("campaigns: missing dependency")
	}
	if d.MaxJSONBytes < 1 || d.HoldTTL <= 0 {
		return nil, errors.New("campaigns: missing configuration")
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	svc := &service{deps: d, store: store.New(d.DB), counts: newCountCache(db.NewWatch(d.DB, "campaigns", store.Campaign{}.TableName()))}
	svc.assure = &assurance{service: svc}
	m := &Module{deps: d, svc: svc, assure: svc.assure}
	svc.subscribe()
	return m, nil
}

// Service returns the module's public API.
func (m *Module) Service() Service { return publicAPI{service: m.svc, plays: &playDelivery{m.svc}} }

func (m *Module) Name() string { return "campaigns" }

func (m *Module) Migrations() []*db.Migration { return store.Migrations() }

func (m *Module) Routes(r gin.IRouter) { m.routes().Register(r) }

func (m *Module) Policy() []authz.Rule { return m.routes().Policy() }

// Jobs are the creation side's (conflict drafts expire), the lifecycle's, the renewal reminder and
// the make-goods of weeks that finish after their delivery was recorded, and the proof chain's
// checkpoints.
func (m *Module) Jobs() []jobs.Job {
	return []jobs.Job{m.svc.expireDraftsJob(), m.svc.lifecycleJob(), m.assure.renewalJob(), m.assure.makeGoodsJob(), m.assure.checkpointsJob()}
}

// NewFromKernel builds the module from the platform kernel and the services it uses.
func NewFromKernel(k *server.Kernel, id Identity, loc Inventory, cr CreativeFiles, bill Payments) (*Module, error) {
	signer, err := proofSigner(k)
	if err != nil {
		return nil, err
	}
	return New(Deps{
		DB: k.DB, Clock: k.Clock, Identity: id, Locations: loc, Creatives: cr, Billing: bill,
		Outbox: k.Outbox, Events: k.Events, Audit: k.Audit, Log: k.Log, Signer: signer, Objects: k.Storage,
		MaxJSONBytes: k.Config.MaxJSONBytes, HoldTTL: k.Config.HoldTTL, BaseURL: k.Config.BaseURL,
		MakeGoodThreshold: k.Config.MakeGoodThresholdPercent,
	})
}

// Component builds campaigns on the kernel after the modules it uses (server.Compose).
var Component = &server.Component{Name: "campaigns",
	Needs: []*server.Component{identity.Component, locations.Component, creatives.Component, billing.Component},
	Build: func(k *server.Kernel, b server.Built) (server.Module, error) {
		return NewFromKernel(k, server.Get[*identity.Module](b).Service(), server.Get[*locations.Module](b).Service(),
			server.Get[*creatives.Module](b).Service(), server.Get[*billing.Module](b).Service())
	}}

// The calls made on the module outside HTTP: the demo seeding (server.Seeder), partners' demo
// clients, marquee verify, the generators of the benchmarks and the periodic runs tests and
// benchmarks drive. Each is the service's.

// SeedDemo seeds the demo campaigns (seed.go).
func (m *Module) SeedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	return m.svc.SeedDemo(ctx, demo)
}

// SeedClientCampaign makes a demo client's campaign (seed.go; partners' demo).
func (m *Module) SeedClientCampaign(ctx context.Context, companyID, userID, name, market string, start dates.Date, weeks, faceSkip int) (string, error) {
	return m.svc.SeedClientCampaign(ctx, companyID, userID, name, market, start, weeks, faceSkip)
}

// GenerateCampaigns writes generated campaigns (seed.go; benchmarks and tests).
func (m *Module) GenerateCampaigns(ctx context.Context, o GenerateOptions) ([]string, error) {
	return m.svc.GenerateCampaigns(ctx, o)
}

// GenerateProofChain writes generated proof-of-play records (proofchain_seed.go).
func (m *Module) GenerateProofChain(ctx context.Context, campaignID string, rounds int) ([]string, error) {
	return m.assure.GenerateProofChain(ctx, campaignID, rounds)
}

// RunLifecycle runs the lifecycle job once (lifecycle.go).
func (m *Module) RunLifecycle(ctx context.Context) (LifecycleResult, error) {
	return m.svc.RunLifecycle(ctx)
}

// RunMakeGoods runs the make-goods job once (makegoods.go).
func (m *Module) RunMakeGoods(ctx context.Context) (MakeGoodsResult, error) {
	return m.assure.RunMakeGoods(ctx)
}

// GenerateDeviceChain appends n screen batch records to a campaign's chain by bulk inserts
// (benchmarks; proofchain_seed.go).
func (m *Module) GenerateDeviceChain(ctx context.Context, campaignID string, n int) ([]string, error) {
	return m.assure.GenerateDeviceChain(ctx, campaignID, n)
}

// RunProofCheckpoints runs the proof chain's checkpoint job once (proofcheckpoints.go).
func (m *Module) RunProofCheckpoints(ctx context.Context) (CheckpointsResult, error) {
	return m.assure.RunProofCheckpoints(ctx)
}

// CampaignOfCode is the campaign of a verification code (marquee verify).
func (m *Module) CampaignOfCode(ctx context.Context, code string) (string, error) {
	return m.assure.CampaignOfCode(ctx, code)
}

// VerifyCampaignChain checks a campaign's whole chain (marquee verify).
func (m *Module) VerifyCampaignChain(ctx context.Context, campaignID string, pub ed25519.PublicKey) (*ChainReport, error) {
	return m.assure.VerifyCampaignChain(ctx, campaignID, pub)
}

// proofSigner builds the signer from PROOF_SIGNING_KEY, or the development key in DATA_DIR.
func proofSigner(k *server.Kernel) (signing.Signer, error) {
	s, generated, err := signing.FromConfig(k.Config.ProofSigningKey, k.Config.DataDir)
	if err != nil {
		return nil, fmt.Errorf("campaigns: PROOF_SIGNING_KEY: %w", err)
	}
	if generated {
		k.Log.Debug("campaigns: proof-of-play records are signed with the development key in DATA_DIR", "key_id", signing.KeyID(s.PublicKey()))
	}
	return s, nil
}
