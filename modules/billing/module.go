package billing

import (
	"context"
	"errors"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/modules/billing/internal/gateway"
	"marquee/modules/billing/internal/sandbox"
	"marquee/modules/billing/internal/store"
	"marquee/modules/billing/internal/stripegw"
	"marquee/modules/identity"
	"marquee/platform/audit"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/metrics"
	"marquee/platform/server"
)

// Companies names companies for the admin lists, in one batch (identity.Service has it).
type Companies interface {
	FindCompaniesByIDs(ctx context.Context, ids []string) ([]*identity.Company, error)
}

// Publisher publishes an event in the caller's transaction (platform/events.Bus).
type Publisher interface {
	Publish(ctx context.Context, name string, payload any) error
}

// Auditor records an admin change in the caller's transaction (platform/audit.Log).
type Auditor interface {
	Record(ctx context.Context, ch audit.Change) error
}

// Deps are what the billing module needs; New refuses a missing one.
type Deps struct {
	DB        *gorm.DB
	Clock     clock.Clock
	Companies Companies
	Events    Publisher
	Audit     Auditor
	// Metrics counts settled charges and refunds by outcome (/metrics); nil counts nothing.
	Metrics *metrics.Metrics

	// Gateway is GatewaySandbox or GatewayStripe (PAYMENT_GATEWAY).
	Gateway              string
	StripeSecretKey      string
	StripePublishableKey string
	StripeAPIURL         string
	MaxJSONBytes         int64
	// GatewayTimeout bounds one call to the gateway; past it a charge stays pending. 0 means 30 s.
	GatewayTimeout time.Duration
}

// Module is the billing bounded context.
type Module struct {
	deps    Deps
	svc     *service
	sandbox *sandbox.Gateway // nil unless the sandbox gateway is configured
}

// New builds the module and its gateway adapter.
func New(d Deps) (*Module, error) {
	if d.DB == nil || d.Clock == nil || d.Companies == nil || d.Events == nil || d.Audit == nil {
		return nil, errors.New("billing: missing dependency")
	}
	if d.MaxJSONBytes < 1 {
		return nil, errors.New("billing: missing configuration")
	}
	if d.GatewayTimeout == 0 {
		d.GatewayTimeout = 30 * time.Second
	}
	m := &Module{deps: d}
	var gw gateway.Gateway
	switch d.Gateway {
	case GatewaySandbox, "":
		m.sandbox = sandbox.New(d.DB, d.Clock)
		gw = m.sandbox
		d.Gateway = GatewaySandbox
	case GatewayStripe:
		if d.StripePublishableKey == "" {
			return nil, errors.New("billing: STRIPE_PUBLISHABLE_KEY is required when PAYMENT_GATEWAY=stripe")
		}
		s, err := stripegw.New(stripegw.Options{SecretKey: d.StripeSecretKey, APIURL: d.StripeAPIURL, Timeout: d.GatewayTimeout})
		if err != nil {
			return nil, err
		}
		gw = s
	default:
		return nil, errors.New("billing: PAYMENT_GATEWAY must be sandbox or stripe")
	}
	m.deps = d
	m.svc = &service{deps: d, store: store.New(d.DB), gw: gw}
	return m, nil
}

// Service returns the module's public API.
func (m *Module) Service() Service { return m.svc }

func (m *Module) Name() string { return "billing" }

func (m *Module) Migrations() []*db.Migration {
	// The sandbox tables exist whatever the gateway, so switching gateways never needs a migration.
	return append(store.Migrations(), sandbox.Migrations()...)
}

func (m *Module) Routes(r gin.IRouter) { m.routes().Register(r) }

func (m *Module) Policy() []authz.Rule { return m.routes().Policy() }

// NewFromKernel builds the module from the platform kernel and the identity service.
func NewFromKernel(k *server.Kernel, companies Companies) (*Module, error) {
	c := k.Config
	return New(Deps{DB: k.DB, Clock: k.Clock, Companies: companies, Events: k.Events, Audit: k.Audit, Metrics: k.Metrics,
		Gateway: c.PaymentGateway, StripeSecretKey: c.StripeSecretKey, StripePublishableKey: c.StripePublishableKey,
		StripeAPIURL: c.StripeAPIURL, MaxJSONBytes: c.MaxJSONBytes})
}

// Component builds billing on the kernel after identity (server.Compose). Identity reads account
// credit and the admin grid's billing columns from billing through readers that cmd/marquee hands
// it (Service, BillingReader): identity cannot import billing.
var Component = &server.Component{Name: "billing", Needs: []*server.Component{identity.Component},
	Build: func(k *server.Kernel, b server.Built) (server.Module, error) {
		return NewFromKernel(k, server.Get[*identity.Module](b).Service())
	}}

// BillingReader is the reader of identity's admin company grid's billing columns.
func (m *Module) BillingReader() identity.BillingReader { return companyBilling{m.svc} }

// companyBilling gives identity's admin company grid its billing columns (identity.BillingReader).
type companyBilling struct{ s *service }

func (b companyBilling) CompanyBilling(ctx context.Context, companyIDs []string) (map[string]identity.CompanyBilling, error) {
	sums, err := b.s.FindBillingSummaries(ctx, companyIDs)
	if err != nil {
		return nil, err
	}
	out := make(map[string]identity.CompanyBilling, len(sums))
	for id, s := range sums {
		out[id] = identity.CompanyBilling{CardOnFile: s.CardOnFile, AccountCredit: s.AccountCredit, TotalSpend: s.TotalSpend, AmountPending: s.AmountPending}
	}
	return out, nil
}

// SetRedeemHook hands in the partner program's reaction to a redemption (see RedeemHook). It is
// called once while the modules are built, before any request.
func (m *Module) SetRedeemHook(h RedeemHook) { m.svc.redeemHook = h }
