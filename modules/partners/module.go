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
	"marquee/platform/pagination"
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

// Deps are what the partners module needs; New refuses a missing one.
type Deps struct {
	DB        *gorm.DB
	Clock     clock.Clock
	Identity  identity.Service
	Billing   billing.Service
	Campaigns campaigns.Service
	Outbox    Mailer
	Events    Events
	Audit     Auditor
	Log       *slog.Logger

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

// Invitation limits (issue 24 §2): per partner company, and per recipient address, counting
// invitations and resends alike.
const (
	InvitesPerCompanyHour  = 20
	InvitesPerRecipientDay = 3
)

// Module is the partners bounded context.
type Module struct {
	deps  Deps
	store *store.Store
	// inviteCompany and inviteRecipient count invitations and resends (Deps.Limits).
	inviteCompany, inviteRecipient ratelimit.Counter
	// seedCard puts a test card on a demo client (billing.Module.SeedCard; SeedDemo only).
	seedCard func(ctx context.Context, companyID string) error
	// seedCampaign makes a demo client's campaign (campaigns.Module.SeedClientCampaign; SeedDemo
	// only), so the demo bonuses come from real campaigns.
	seedCampaign func(ctx context.Context, companyID, userID, name, market string, start dates.Date, weeks, faceSkip int) (string, error)
}

// New builds the module and subscribes it to identity's and billing's events.
func New(d Deps) (*Module, error) {
	if d.DB == nil || d.Clock == nil || d.Identity == nil || d.Billing == nil || d.Campaigns == nil || d.Outbox == nil || d.Events == nil || d.Audit == nil {
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
	m := &Module{deps: d, store: store.New(d.DB),
		inviteCompany:   d.Limits("partner-invites-company", InvitesPerCompanyHour, time.Hour),
		inviteRecipient: d.Limits("partner-invites-recipient", InvitesPerRecipientDay, 24*time.Hour)}
	d.Events.Subscribe(identity.EventCompanyTypeChanged, m.onCompanyTypeChanged)
	d.Events.Subscribe(billing.EventChargeSettled, m.onChargeSettled)
	d.Events.Subscribe(billing.EventChargeRefunded, m.onChargeRefunded)
	return m, nil
}

// Service returns the module's public API.
func (m *Module) Service() Service { return m }

func (m *Module) Name() string { return "partners" }

func (m *Module) Migrations() []*db.Migration { return store.Migrations() }

// routes is every route of the module (B §7 "Special", POST /users/ambassador/invite, PUT
// /users/ambassador). The hub and the bonus lists are open to any regular user and answer 403 to
// a company that is not a partner (both partner kinds share them; a rule names one role).
func (m *Module) routes() server.RouteTable {
	return server.RouteTable{
		server.POST("/users/ambassador/invite", authz.Ambassador, m.inviteHandler).Doc("Invite a partner", InviteRequest{}, InviteResponse{}),
		server.PUT("/users/ambassador", authz.Ambassador, m.updateAmbassadorHandler).Doc("Update the partner's profile", UpdateProfileRequest{}, HubResponse{}),
		server.PUT("/api/special/ambassador/invite/:id", authz.Ambassador, m.resendHandler).Doc("Accept a partner invitation", nil, MessageResponse{}),
		server.GET("/api/special/", authz.SuperAdmin, m.specialUsersHandler).Doc("The partners", nil, pagination.Page[*SpecialUser]{}).Params(nil, &specialSpec),
		server.GET("/api/special/flags", authz.SuperAdmin, m.flagsHandler).Doc("The charges held for review: paid with a card the partner's company saved (super admin)", nil, []*FlaggedCharge{}),
		server.GET("/api/special/hub", authz.User, m.hubHandler).Doc("The partner's hub", nil, HubResponse{}),
		server.PUT("/api/special/hub/:userId", authz.User, m.updateHubHandler).Doc("Update a partner's hub (admin)", UpdateProfileRequest{}, HubResponse{}),
		server.GET("/api/special/stats", authz.User, m.statsHandler).Doc("The partner's monthly figures", nil, []MonthlyStat{}).Params(YearQuery{}, nil),
		server.GET("/api/special/invite", authz.Member, m.linkedHandler).Doc("The partner's linked companies", nil, []*LinkedCompany{}).Params(CompanyQuery{}, nil),
		server.GET("/api/special/bonus", authz.User, m.ownBonusHandler).Doc("The partner's bonuses", nil, []BonusRow{}).Params(BonusQuery{}, nil),
		server.GET("/api/special/:companyId/bonus", authz.Member, m.bonusHandler).Doc("A linked company's bonuses", nil, []BonusRow{}).Params(BonusQuery{}, nil),
		server.GET("/api/special/codes", authz.User, m.codesHandler).Doc("The partner's code redemptions", nil, pagination.Page[*CodeRedemption]{}).Params(YearQuery{}, &codesSpec),
		server.GET("/api/special/campaigns", authz.User, m.campaignsHandler).Doc("The partner's linked campaigns", nil, pagination.Page[*LinkedCampaign]{}).Params(YearQuery{}, &campaignsSpec),
		server.GET("/api/special/certified/exam", authz.Certified, m.examHandler).Doc("The certification exam", nil, ExamResponse{}),
		server.PUT("/api/special/certified/exam", authz.Certified, m.submitExamHandler).Doc("Submit the certification exam", ExamSubmission{}, ExamResult{}),
	}
}

func (m *Module) Routes(r gin.IRouter) { m.routes().Register(r) }

func (m *Module) Policy() []authz.Rule { return m.routes().Policy() }

// Jobs: none; the bonuses follow billing's events.
func (m *Module) Jobs() []jobs.Job { return nil }

// NewFromKernel builds the module from the platform kernel and the services it uses.
func NewFromKernel(k *server.Kernel, id identity.Service, bill billing.Service, camp campaigns.Service) (*Module, error) {
	return New(Deps{DB: k.DB, Clock: k.Clock, Identity: id, Billing: bill, Campaigns: camp, Outbox: k.Outbox,
		Events: k.Events, Audit: k.Audit, Log: k.Log, MaxJSONBytes: k.Config.MaxJSONBytes, LinkMonths: k.Config.PartnerLinkMonths,
		RateAmbassadorBP: k.Config.PartnerBonusRateAmbassador, RateCertifiedBP: k.Config.PartnerBonusRateCertified, Limits: k.Limits})
}

// Component builds partners after the modules it uses (server.Compose), and hands billing its
// reaction to a referral code's redemption (billing.RedeemHook).
var Component = &server.Component{Name: "partners",
	Needs: []*server.Component{identity.Component, billing.Component, campaigns.Component},
	Build: func(k *server.Kernel, b server.Built) (server.Module, error) {
		bill, camp := server.Get[*billing.Module](b), server.Get[*campaigns.Module](b)
		m, err := NewFromKernel(k, server.Get[*identity.Module](b).Service(), bill.Service(), camp.Service())
		if err != nil {
			return nil, err
		}
		bill.SetRedeemHook(m)
		m.seedCard = bill.SeedCard
		m.seedCampaign = camp.SeedClientCampaign
		return m, nil
	}}
