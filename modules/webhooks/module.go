package webhooks

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/modules/billing"
	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/reports"
	"marquee/modules/webhooks/internal/store"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/events"
	"marquee/platform/jobs"
	"marquee/platform/mail"
	"marquee/platform/server"
)

// Events publishes and subscribes through the event outbox (platform/events.Bus).
type Events interface {
	Publish(ctx context.Context, name string, payload any) error
	Subscribe(name string, h events.Handler)
}

// Mailer queues an email in the caller's transaction (platform/mail.Outbox).
type Mailer interface {
	Enqueue(ctx context.Context, m mail.Message) error
}

// Identity is what this module needs from identity: the email of an endpoint's owner, and whether
// a company is disabled (its deliveries are held).
type Identity interface {
	FindUsersByIDs(ctx context.Context, ids []string) ([]*identity.User, error)
	FindCompanyByID(ctx context.Context, id string) (*identity.Company, error)
}

// Deps are what the webhooks module needs; New refuses a missing one.
type Deps struct {
	DB       *gorm.DB
	Clock    clock.Clock
	Events   Events
	Outbox   Mailer
	Identity Identity
	Log      *slog.Logger
	// Resolver looks up receivers' hosts; nil means net.DefaultResolver.
	Resolver Resolver

	BaseURL      string
	MaxJSONBytes int64
	// AllowPrivate (WEBHOOK_ALLOW_PRIVATE) lets URLs use http and private or loopback addresses:
	// for development only (the demo's local sink).
	AllowPrivate   bool
	ConnectTimeout time.Duration
	Timeout        time.Duration
	PollInterval   time.Duration
}

// Module is the webhooks bounded context: its wiring and its HTTP handlers.
type Module struct {
	deps Deps
	svc  *service
}

// service implements Service, the HTTP calls, the fan-out of events and the delivery worker.
type service struct {
	deps   Deps
	store  *store.Store
	guard  guard
	client *http.Client
}

// New builds the module and subscribes it to the events it forwards.
func New(d Deps) (*Module, error) {
	if d.DB == nil || d.Clock == nil || d.Events == nil || d.Outbox == nil || d.Identity == nil {
		return nil, errors.New("webhooks: missing dependency")
	}
	if d.BaseURL == "" || d.MaxJSONBytes < 1 || d.Timeout <= 0 || d.ConnectTimeout <= 0 || d.PollInterval <= 0 {
		return nil, errors.New("webhooks: missing configuration")
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Resolver == nil {
		d.Resolver = net.DefaultResolver
	}
	s := &service{deps: d, store: store.New(d.DB)}
	s.setResolver(d.Resolver)
	s.subscribe()
	return &Module{deps: d, svc: s}, nil
}

// SetResolver replaces the resolver of registrations and deliveries (tests play DNS with it).
func (m *Module) SetResolver(r Resolver) { m.svc.setResolver(r) }

func (s *service) setResolver(r Resolver) {
	s.guard = guard{resolver: r, allowPrivate: s.deps.AllowPrivate}
	s.client = s.guard.client(s.deps.ConnectTimeout, s.deps.Timeout)
}

// Service returns the module's public API.
func (m *Module) Service() Service { return m.svc }

// SeedDemo implements server.DemoSeeder (seed.go).
func (m *Module) SeedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	return m.svc.seedDemo(ctx, demo)
}

func (m *Module) Name() string { return "webhooks" }

func (m *Module) Migrations() []*db.Migration { return store.Migrations() }

func (m *Module) Routes(r gin.IRouter) { m.routes().Register(r) }

func (m *Module) Policy() []authz.Rule { return m.routes().Policy() }

// Jobs: the delivery worker (deliver.go) and the log's pruning, run by the leader only.
func (m *Module) Jobs() []jobs.Job {
	return []jobs.Job{
		{Name: "webhooks.deliver", Every: m.deps.PollInterval, Run: func(ctx context.Context) error {
			_, err := m.DeliverDue(ctx)
			return err
		}},
		{Name: "webhooks.prune", Every: time.Hour, Run: func(ctx context.Context) error {
			_, err := m.PruneDeliveries(ctx)
			return err
		}},
	}
}

// DeliveryLogKeep is how long a finished delivery stays in the log.
const DeliveryLogKeep = 30 * 24 * time.Hour

// DeliverDue runs the delivery worker once (the webhooks.deliver job; deliver.go).
func (m *Module) DeliverDue(ctx context.Context) (int, error) { return m.svc.deliverDue(ctx) }

// PruneDeliveries deletes the deliveries finished more than DeliveryLogKeep ago (idempotent).
func (m *Module) PruneDeliveries(ctx context.Context) (int64, error) {
	return m.svc.pruneDeliveries(ctx)
}

// NewFromKernel builds the module from the platform kernel and identity.
func NewFromKernel(k *server.Kernel, id Identity) (*Module, error) {
	c := k.Config
	return New(Deps{DB: k.DB, Clock: k.Clock, Events: k.Events, Outbox: k.Outbox, Identity: id, Log: k.Log,
		BaseURL: c.BaseURL, MaxJSONBytes: c.MaxJSONBytes, AllowPrivate: c.WebhookPrivateAllowed(),
		ConnectTimeout: c.WebhookConnectTimeout, Timeout: c.WebhookTimeout, PollInterval: c.WebhookPollInterval})
}

// Component builds webhooks after the modules whose events it forwards (server.Compose): it
// imports their root packages for the event names and payloads only.
var Component = &server.Component{Name: "webhooks",
	Needs: []*server.Component{identity.Component, billing.Component, campaigns.Component, reports.Component},
	Build: func(k *server.Kernel, b server.Built) (server.Module, error) {
		return NewFromKernel(k, server.Get[*identity.Module](b).Service())
	}}
