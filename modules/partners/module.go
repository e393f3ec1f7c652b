package partners

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/modules/billing"
	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/partners/internal/store"
	"marquee/platform/audit"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/events"
	"marquee/platform/jobs"
	"marquee/platform/mail"
	"marquee/platform/ratelimit"
	"marquee/platform/server"
)

// Mailer queues an email in the caller's transaction (platform/mail.Outbox).
type Mailer interface {
	Enqueue(ctx context.Context, m mail.Message) error
}

// Auditor records a change in the caller's transaction (platform/audit.Log).
type Auditor interface {
	Record(ctx context.Context, ch audit.Change) error
}

// Events subscribes to the events of the modules below (platform/events.Bus).
type Events interface {
	Subscribe(name string, h events.Handler)
}

// Identity is what the partner program needs from identity: the partner companies' users and
// names, the invited clients' accounts, and the certificates of the exam.
type Identity interface {
	FindUserByID(ctx context.Context, id string) (*identity.User, error)
	FindUserByEmail(ctx context.Context, email string) (*identity.User, error)
	FindCompanyByID(ctx context.Context, id string) (*identity.Company, error)
	FindCompaniesByIDs(ctx context.Context, ids []string) ([]*identity.Company, error)
	FindFirstUsers(ctx context.Context, companyIDs []string) (map[string]*identity.User, error)
	CreateUser(ctx context.Context, req identity.CreateUserRequest) (*identity.User, string, error)
	NewAccessLink(ctx context.Context, userID string) (string, error)
	SetCertified(ctx context.Context, userID string, certified bool) error
	CountCertifiedUsers(ctx context.Context, companyID string) (int, error)
}

// Billing is what the partner program needs from billing: the promos behind referral codes and
// exam rewards, whether a company ever saved a card (the self-referral checks), and the demo's
// charges.
type Billing interface {
	CreatePromo(ctx context.Context, req billing.CreatePromoRequest) (*billing.Promo, error)
	FindPromo(ctx context.Context, code string) (*billing.Promo, error)
	FingerprintSavedBy(ctx context.Context, fingerprint, companyID string) (bool, error)
	Charge(ctx context.Context, req billing.ChargeRequest) (*billing.Transaction, error)
}

// Campaigns is what the partner program needs from campaigns: the names of the campaigns its
// bonuses were earned on.
type Campaigns interface {
	FindCampaignsByIDs(ctx context.Context, ids []string) ([]*campaigns.Campaign, error)
}

// DemoCards puts a test card on a demo client's company (billing.Module.SeedCard; SeedDemo only).
type DemoCards interface {
	SeedCard(ctx context.Context, companyID string) error
}

// DemoCampaigns makes a demo client's campaign (campaigns.Module.SeedClientCampaign; SeedDemo
// only), so the demo bonuses come from real campaigns.
type DemoCampaigns interface {
	SeedClientCampaign(ctx context.Context, companyID, userID, name, market string, start dates.Date, weeks, faceSkip int) (string, error)
}

// Deps are what the partners module needs; New refuses a missing one.
type Deps struct {
	DB            *gorm.DB
	Clock         clock.Clock
	Identity      Identity
	Billing       Billing
	Campaigns     Campaigns
	DemoCards     DemoCards
	DemoCampaigns DemoCampaigns
	Outbox        Mailer
	Events        Events
	Audit         Auditor
	Log           *slog.Logger

	MaxJSONBytes int64
	// LinkMonths is how long a link lasts (PARTNER_LINK_MONTHS).
	LinkMonths int
	// RateAmbassadorBP and RateCertifiedBP are the bonus rates in basis points
	// (PARTNER_BONUS_RATE_AMBASSADOR, PARTNER_BONUS_RATE_CERTIFIED).
	RateAmbassadorBP int
	RateCertifiedBP  int
	// Limits makes the invitation limits' counters (the kernel's: in the database on PostgreSQL,
	// so a limit holds across replicas); nil counts in the process.
	Limits ratelimit.Factory
}

// Invitation limits: per partner company, and per recipient address, counting
// invitations and resends alike.
const (
	InvitesPerCompanyHour  = 20
	InvitesPerRecipientDay = 3
)

// Module is the partners bounded context: its wiring and its HTTP handlers.
type Module struct {
	deps Deps
	svc  *service
}

// service implements Service, the HTTP calls, the event handlers and the demo seed.
type service struct {
	deps  Deps
	store *store.Store
	// inviteCompany and inviteRecipient count invitations and resends (Deps.Limits).
	inviteCompany, inviteRecipient ratelimit.Counter
}

// New builds the module and subscribes it to identity's and billing's events.
func New(d Deps) (*Module, error) {
	if d.DB == nil || d.Clock == nil || d.Identity == nil || d.Billing == nil || d.Campaigns == nil || d.DemoCards == nil || d.DemoCampaigns == nil ||
		d.Outbox == nil || d.Events == nil || d.Audit == nil {
		return nil, errors.New("partners: missing dependency")
	}
	if d.MaxJSONBytes < 1 || d.LinkMonths < 1 || d.RateAmbassadorBP < 0 || d.RateCertifiedBP < 0 {
		return nil, errors.New("partners: missing configuration")
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Limits == nil {
		d.Limits = ratelimit.InProcess(d.Clock)
	}
	s := &service{deps: d, store: store.New(d.DB),
		inviteCompany:   d.Limits("partner-invites-company", InvitesPerCompanyHour, time.Hour),
		inviteRecipient: d.Limits("partner-invites-recipient", InvitesPerRecipientDay, 24*time.Hour)}
	d.Events.Subscribe(identity.EventCompanyTypeChanged, s.onCompanyTypeChanged)
	d.Events.Subscribe(billing.EventChargeSettled, s.onChargeSettled)
	d.Events.Subscribe(billing.EventChargeRefunded, s.onChargeRefunded)
	return &Module{deps: d, svc: s}, nil
}

// Service returns the module's public API.
func (m *Module) Service() Service { return m.svc }

// PromoRedeemed is the partner program's billing.RedeemHook: a referral code is a billing promo,
// and its redemption links the company to the partner (links.go). cmd/marquee hands it to billing.
func (m *Module) PromoRedeemed(ctx context.Context, r billing.Redeemed) (string, error) {
	return m.svc.promoRedeemed(ctx, r)
}

// SeedDemo implements server.DemoSeeder (seed.go).
func (m *Module) SeedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	return m.svc.seedDemo(ctx, demo)
}

func (m *Module) Name() string { return "partners" }

func (m *Module) Migrations() []*db.Migration { return store.Migrations() }

func (m *Module) Routes(r gin.IRouter) { m.routes().Register(r) }

func (m *Module) Policy() []authz.Rule { return m.routes().Policy() }

// Jobs: none; the bonuses follow billing's events.
func (m *Module) Jobs() []jobs.Job { return nil }

// NewFromKernel builds the module from the platform kernel and the modules it uses (their services
// satisfy Identity, Billing and Campaigns; billing's and campaigns' modules seed the demo).
func NewFromKernel(k *server.Kernel, id Identity, bill Billing, camp Campaigns, cards DemoCards, demoCampaigns DemoCampaigns) (*Module, error) {
	return New(Deps{DB: k.DB, Clock: k.Clock, Identity: id, Billing: bill, Campaigns: camp, DemoCards: cards, DemoCampaigns: demoCampaigns,
		Outbox: k.Outbox, Events: k.Events, Audit: k.Audit, Log: k.Log, MaxJSONBytes: k.Config.MaxJSONBytes, LinkMonths: k.Config.PartnerLinkMonths,
		RateAmbassadorBP: k.Config.PartnerBonusRateAmbassador, RateCertifiedBP: k.Config.PartnerBonusRateCertified, Limits: k.Limits})
}

// Component builds partners after the modules it uses (server.Compose). Billing hears a referral
// code's redemption through Module.PromoRedeemed, which cmd/marquee hands it (billing is built
// first and cannot depend on partners).
var Component = &server.Component{Name: "partners",
	Needs: []*server.Component{identity.Component, billing.Component, campaigns.Component},
	Build: func(k *server.Kernel, b server.Built) (server.Module, error) {
		bill, camp := server.Get[*billing.Module](b), server.Get[*campaigns.Module](b)
		return NewFromKernel(k, server.Get[*identity.Module](b).Service(), bill.Service(), camp.Service(), bill, camp)
	}}
