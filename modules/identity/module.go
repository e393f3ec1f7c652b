package identity

import (
	"context"
	"errors"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/modules/identity/internal/store"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/jobs"
	"marquee/platform/mail"
	"marquee/platform/ratelimit"
	"marquee/platform/server"
)

// Mailer queues an email in the caller's transaction (platform/mail.Outbox).
type Mailer interface {
	Enqueue(ctx context.Context, m mail.Message) error
}

// Publisher publishes an event in the caller's transaction (platform/events.Bus).
type Publisher interface {
	Publish(ctx context.Context, name string, payload any) error
}

// Deps are what the identity module needs; New refuses a missing one.
type Deps struct {
	DB       *gorm.DB
	Clock    clock.Clock
	Hasher   *auth.Hasher
	Sessions *auth.Sessions
	Cookies  auth.Cookies
	Outbox   Mailer
	Events   Publisher
	Audit    *audit.Log
	// Limits makes the invitation limits' counters (Kernel.Limits: in the database on PostgreSQL).
	Limits ratelimit.Factory

	BaseURL         string
	ResetTokenTTL   time.Duration
	AccessTokenTTL  time.Duration
	SignInRateLimit int // per minute, per client address and per email
	ResetRateLimit  int
	SignUpRateLimit int // per minute, per client address
	MaxJSONBytes    int64
}

// Module is the identity bounded context.
type Module struct {
	deps Deps
	svc  *service
	// Counted in the database, so the limits hold in total across replicas.
	signInLimit *ratelimit.Shared
	resetLimit  *ratelimit.Shared
	signUpLimit *ratelimit.Shared
}

// SetBillingReader hands identity the reader of the admin company grid's billing columns (the
// billing module's, handed in by cmd/marquee's wireHooks). Until it is set, those columns answer zero.
func (m *Module) SetBillingReader(r BillingReader) { m.svc.billing.Store(&r) }

// SetCreditReader hands identity the reader of account credit (the billing service), which is
// built after identity because billing depends on it. Until it is set, or when identity runs alone,
// GET /companies/currentCompany answers an account_credit of 0.
func (m *Module) SetCreditReader(r CreditReader) { m.svc.credit.Store(&r) }

// New builds the module.
func New(d Deps) (*Module, error) {
	if d.DB == nil || d.Clock == nil || d.Hasher == nil || d.Sessions == nil || d.Outbox == nil || d.Events == nil || d.Audit == nil || d.Limits == nil {
		return nil, errors.New("identity: missing dependency")
	}
	if d.BaseURL == "" || d.ResetTokenTTL <= 0 || d.AccessTokenTTL <= 0 || d.SignInRateLimit < 1 || d.ResetRateLimit < 1 || d.SignUpRateLimit < 1 || d.MaxJSONBytes < 1 {
		return nil, errors.New("identity: missing configuration")
	}
	svc := &service{deps: d, store: store.New(d.DB),
		inviteLimit:  d.Limits("identity.invite", InviteCompanyLimit, InviteWindow),
		inviteeLimit: d.Limits("identity.invitee", InviteRecipientLimit, InviteWindow)}
	svc.keys = &keys{s: svc}
	return &Module{
		deps:        d,
		svc:         svc,
		signInLimit: ratelimit.NewShared(d.DB, d.SignInRateLimit, time.Minute, d.Clock),
		resetLimit:  ratelimit.NewShared(d.DB, d.ResetRateLimit, time.Minute, d.Clock),
		signUpLimit: ratelimit.NewShared(d.DB, d.SignUpRateLimit, time.Minute, d.Clock),
	}, nil
}

// Service returns the module's public API.
func (m *Module) Service() Service { return m.svc }

// Principals resolves sessions into principals for platform/auth.
func (m *Module) Principals() auth.PrincipalLoader { return m.svc }

func (m *Module) Name() string { return "identity" }

func (m *Module) Migrations() []*db.Migration {
	return append(store.Migrations(), store.APIKeyMigrations()...)
}

func (m *Module) Jobs() []jobs.Job { return nil }

func (m *Module) Routes(r gin.IRouter) { m.routes().Register(r) }

func (m *Module) Policy() []authz.Rule { return m.routes().Policy() }

// NewFromKernel builds the module from the platform kernel (cmd/marquee and tests wire it the same
// way).
func NewFromKernel(k *server.Kernel) (*Module, error) {
	return New(Deps{
		DB: k.DB, Clock: k.Clock, Hasher: k.Hasher, Sessions: k.Sessions, Cookies: k.Cookies,
		Outbox: k.Outbox, Events: k.Events, Audit: k.Audit, Limits: k.Limits,
		BaseURL: k.Config.BaseURL, ResetTokenTTL: k.Config.ResetTokenTTL, AccessTokenTTL: k.Config.AccessTokenTTL,
		SignInRateLimit: k.Config.SignInRateLimit, ResetRateLimit: k.Config.ResetRateLimit, MaxJSONBytes: k.Config.MaxJSONBytes,
		SignUpRateLimit: k.Config.SignUpRateLimit,
	})
}

// Component builds identity on the kernel; it needs no other module (server.Compose).
var Component = &server.Component{Name: "identity",
	Build: func(k *server.Kernel, _ server.Built) (server.Module, error) { return NewFromKernel(k) }}
