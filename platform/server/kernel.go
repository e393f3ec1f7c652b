package server

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/platform/analytics"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/config"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/events"
	"marquee/platform/flash"
	"marquee/platform/httpx"
	"marquee/platform/imagecheck"
	"marquee/platform/jobs"
	"marquee/platform/mail"
	"marquee/platform/metrics"
	"marquee/platform/ratelimit"
	"marquee/platform/storage"
)

// Kernel is the platform, built once per process (or per test) and handed to modules.
type Kernel struct {
	Config   config.Config
	Log      *slog.Logger
	Clock    clock.Clock
	DB       *gorm.DB
	Hasher   *auth.Hasher
	Sessions *auth.Sessions
	Cookies  auth.Cookies
	Outbox   *mail.Outbox
	Storage  storage.Storage
	Events   *events.Bus
	Audit    *audit.Log
	// Metrics is the Prometheus registry (docs/operations.md "Metrics and alerts"): requests, the
	// pool, jobs, outboxes, charges.
	Metrics *metrics.Metrics
	// Limits makes the rate limits' counters: in the database on PostgreSQL, so that a limit holds
	// in total across replicas, and in the process on SQLite (ratelimit.ForDatabase).
	Limits ratelimit.Factory
	// Decodes is the memory of the image decodes in flight (IMAGE_DECODE_MEMORY), one budget for
	// every module that decodes an upload (creatives, the face photos of locations).
	Decodes *imagecheck.Budget

	analytics  *analytics.Recorder
	dispatcher *mail.Dispatcher
	// The OpenAPI document, built from the routes Handler registered, once a day: its examples
	// hold dates bookable on the day, so a client that copies one is not refused.
	docRoutes []docRoute
	openapiMu sync.Mutex
	openapi   []byte
	openapiOn dates.Date
}

// Options adjust a kernel; tests use them.
type Options struct {
	// DB, when set, is used instead of opening the configured database.
	DB *gorm.DB
	// HashParams, when set, replace the argon2id parameters (tests use cheaper ones).
	HashParams *auth.Params
	// MailSender, when set, replaces the configured sender.
	MailSender mail.Sender
}

// NewKernel opens the database and builds the platform services from cfg.
func NewKernel(ctx context.Context, cfg config.Config, log *slog.Logger, clk clock.Clock, opts Options) (*Kernel, error) {
	gdb := opts.DB
	if gdb == nil {
		var err error
		gdb, err = db.Open(db.Options{URL: cfg.DatabaseURL, DataDir: cfg.DataDir, SlowQuery: 500 * time.Millisecond, Log: log})
		if err != nil {
			return nil, err
		}
	}
	store, err := storage.Open(ctx, storage.Options{Driver: cfg.StorageDriver, Dir: cfg.FilesDirectory(),
		S3Endpoint: cfg.S3Endpoint, S3AccessKey: cfg.S3AccessKey, S3SecretKey: cfg.S3SecretKey, S3Bucket: cfg.S3Bucket,
		S3Region: cfg.S3Region, S3UseSSL: cfg.S3UseSSL})
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	if fsStore, ok := store.(*storage.FS); ok {
		// A process killed in the middle of a put leaves its temporary file; it would fill the disk.
		if n, err := fsStore.RemoveStaleTemporaries(); err != nil {
			log.Warn("storage: cannot remove the temporary files of interrupted puts", "err", err)
		} else if n > 0 {
			log.Info("storage: removed the temporary files of interrupted puts", "files", n)
		}
	}
	params := auth.DefaultParams
	if opts.HashParams != nil {
		params = *opts.HashParams
	}
	sender := opts.MailSender
	if sender == nil {
		if cfg.MailDriver == "smtp" {
			sender = mail.NewSMTPSender(mail.SMTPOptions{Host: cfg.SMTPHost, Port: cfg.SMTPPort, Username: cfg.SMTPUsername,
				Password: cfg.SMTPPassword, TLS: cfg.SMTPTLS, Timeout: 30 * time.Second})
		} else {
			sender = mail.NewFileSender(cfg.MailDirectory())
		}
	}
	// Every date rule reads "today" in the business time zone (BUSINESS_TIMEZONE, DESIGN.md §1.10).
	if loc, err := cfg.BusinessLocation(); err == nil {
		clk = clock.InZone(clk, loc)
	}
	outbox := mail.NewOutbox(gdb, clk)
	k := &Kernel{
		Config:   cfg,
		Log:      log,
		Clock:    clk,
		DB:       gdb,
		Hasher:   auth.NewHasher(params),
		Sessions: auth.NewSessions(gdb, clk, cfg.SessionIdleTimeout, cfg.SessionAbsoluteTimeout),
		Cookies:  auth.Cookies{Secure: cfg.SecureCookies()},
		Outbox:   outbox,
		Storage:  store,
		Events:   events.NewBus(gdb, clk),
		Audit:    audit.New(gdb, clk),
		Metrics:  metrics.New(gdb),
		Limits:   ratelimit.ForDatabase(gdb, clk),
		Decodes:  imagecheck.NewBudget(cfg.ImageDecodeMemory),
	}
	k.Metrics.Depth("marquee_mail_outbox_pending", "Emails waiting in the outbox to be sent.", k.Outbox.Waiting)
	k.Metrics.Depth("marquee_events_outbox_pending", "Events waiting in the outbox to be handled.", k.Events.Waiting)
	k.analytics = analytics.New(gdb, clk, k.Limits)
	k.dispatcher = mail.NewDispatcher(outbox, sender, clk, mail.DispatchOptions{From: cfg.MailFrom, BatchSize: 50, MaxAttempts: cfg.MailMaxAttempts, Lease: 2 * time.Minute, Log: log})
	return k, nil
}

// Close releases the database, which stops every cache's listener (db.Watch).
func (k *Kernel) Close() error {
	return db.Close(k.DB)
}

// Mailer delivers the outbox now; tests and the CLI use it.
func (k *Kernel) Mailer() *mail.Dispatcher { return k.dispatcher }

// platform is the kernel's own module: its tables, its analytics route and its jobs.
type platform struct{ k *Kernel }

func (platform) Name() string { return "platform" }

func (p platform) Migrations() []*db.Migration {
	var ms []*db.Migration
	for _, group := range [][]*db.Migration{auth.Migrations(), mail.Migrations(), events.Migrations(), audit.Migrations(), ratelimit.Migrations()} {
		ms = append(ms, group...)
	}
	return ms
}

func (p platform) Routes(r gin.IRouter) { p.routes().Register(r) }
func (p platform) Policy() []authz.Rule { return p.routes().Policy() }

func (p platform) routes() RouteTable {
	return RouteTable{
		GET("/api/openapi.json", authz.Anonymous, p.k.serveOpenAPI).Doc("This document: OpenAPI 3.1 of every route", nil, nil),
	}
}

func (k *Kernel) serveOpenAPI(c *gin.Context) error {
	doc, err := k.OpenAPI()
	if err != nil {
		return apperr.Internal(err)
	}
	c.Data(http.StatusOK, "application/json", doc)
	return nil
}

// OpenAPI returns the document of the routes Handler registered, as of today.
func (k *Kernel) OpenAPI() ([]byte, error) {
	today := dates.Today(k.Clock)
	k.openapiMu.Lock()
	defer k.openapiMu.Unlock()
	if k.openapi == nil || k.openapiOn != today {
		doc, err := buildOpenAPI(k.docRoutes, today)
		if err != nil {
			return nil, err
		}
		k.openapi, k.openapiOn = doc, today
	}
	return k.openapi, nil
}

// RouteRows are the rows of every route Handler registered, /api/v1 copies included: tests walk
// their DTOs and parameters (single-line fields, list parameters), so no route escapes the checks.
func (k *Kernel) RouteRows() []Route {
	rows := make([]Route, len(k.docRoutes))
	for i, d := range k.docRoutes {
		rows[i] = d.Route
	}
	return rows
}
func (p platform) Jobs() []jobs.Job {
	k := p.k
	return []jobs.Job{
		{Name: "sessions.delete-expired", Every: time.Hour, Run: func(ctx context.Context) error {
			_, err := k.Sessions.DeleteExpired(ctx)
			return err
		}},
		{Name: "mail.deliver", Every: k.Config.MailPollInterval, Run: func(ctx context.Context) error {
			_, err := k.dispatcher.DeliverPending(ctx)
			return err
		}},
		{Name: "events.dispatch", Every: 2 * time.Second, Run: func(ctx context.Context) error {
			_, err := k.Events.Dispatch(ctx)
			return err
		}},
	}
}

// analyticsModule registers the analytics route through a route table (documented, one rule).
type analyticsModule struct{ *analytics.Recorder }

func (a analyticsModule) table() RouteTable {
	return RouteTable{POST("/api/analytics/pageviews", authz.Anonymous, a.Record).Doc("Record a page view (204)", analytics.PageView{}, nil).Answers(http.StatusNoContent)}
}
func (a analyticsModule) Routes(r gin.IRouter) { a.table().Register(r) }
func (a analyticsModule) Policy() []authz.Rule { return a.table().Policy() }

// all puts the kernel's modules before the application's.
func (k *Kernel) all(mods []Module) []Module {
	return append([]Module{platform{k}, analyticsModule{k.analytics}}, mods...)
}

// Migrate runs every pending migration of the kernel and the modules, in dependency order.
func (k *Kernel) Migrate(mods []Module) error {
	all := k.all(mods)
	byName := make(map[string][]*db.Migration, len(all))
	order := make([]string, 0, len(all))
	for _, m := range all {
		// The kernel's module holds several owners' migrations (auth, mail, events); run each under
		// its own prefix.
		for _, mg := range m.Migrations() {
			owner, _, _ := strings.Cut(mg.ID, "-")
			if _, seen := byName[owner]; !seen {
				order = append(order, owner)
			}
			byName[owner] = append(byName[owner], mg)
		}
	}
	return db.Migrate(k.DB, byName, order)
}

// Scheduler returns a scheduler with every job of the kernel and the modules.
func (k *Kernel) Scheduler(mods []Module) *jobs.Scheduler {
	s := jobs.NewScheduler(jobs.LeaderFor(k.DB, 0x6d617271), k.Log) // "marq"
	s.Observe = k.Metrics.JobRan
	for _, m := range k.all(mods) {
		for _, j := range m.Jobs() {
			if k.Config.JobsInterval > 0 {
				j.Every = k.Config.JobsInterval // JOBS_INTERVAL: TestScaleOut counts ticks in seconds
			}
			s.Add(j)
		}
	}
	return s
}

// Handler builds the HTTP handler: middleware, health checks, every module's routes, and the
// single-page app for every other GET. It returns the gin engine (its Routes list every route, for
// the authorization matrix) and the enforcer.
func (k *Kernel) Handler(mods []Module, principals auth.PrincipalLoader, web fs.FS) (*gin.Engine, *authz.Enforcer, error) {
	gin.SetMode(gin.ReleaseMode)
	all := k.all(mods)
	var rules []authz.Rule
	for _, m := range all {
		rules = append(rules, m.Policy()...)
	}
	rules = append(rules, authz.Allow(authz.Anonymous, http.MethodGet, "/healthz"), authz.Allow(authz.Anonymous, http.MethodGet, "/readyz"))
	enforcer, err := authz.New(rules)
	if err != nil {
		return nil, nil, err
	}

	r := gin.New()
	r.ContextWithFallback = true
	r.MaxMultipartMemory = 1 << 20 // larger multipart parts spill to disk, never to memory
	var proxies []string
	if k.Config.TrustedProxies != "" {
		proxies = strings.Split(k.Config.TrustedProxies, ",")
	}
	if err := r.SetTrustedProxies(proxies); err != nil {
		return nil, nil, fmt.Errorf("TRUSTED_PROXIES: %w", err)
	}
	app, err := newSPA(web)
	if err != nil {
		return nil, nil, fmt.Errorf("web app: %w", err)
	}
	headers := httpx.SecurityHeaders(contentSecurityPolicy(&k.Config, inlineScriptHashes(app.htmlPages()...)), strings.HasPrefix(k.Config.BaseURL, "https://"))
	r.Use(httpx.RequestLog(k.Log), k.Metrics.Middleware(), httpx.Recovery(), headers, httpx.RefuseNUL())
	// /metrics on the public port only behind METRICS_TOKEN; with METRICS_ADDR alone it is served
	// on that address instead (MetricsHandler), never here.
	if k.Config.MetricsToken != "" {
		r.GET("/metrics", gin.WrapH(k.Metrics.Handler(k.Config.MetricsToken))) // its own token, outside casbin
	}

	var recorded []docRoute
	RouteTable{
		GET("/healthz", authz.Anonymous, func(c *gin.Context) error {
			c.JSON(http.StatusOK, gin.H{"status": "ok"})
			return nil
		}).Doc("Liveness: 200 while the process runs", nil, nil),
		GET("/readyz", authz.Anonymous, k.readiness(migrationIDs(all))).
			Doc("Readiness: 200 once every migration is applied and the database and the storage answer, else 503 naming the failed checks", nil, nil),
	}.Register(&Router{IRouter: r, module: "health", routes: &recorded})

	// Resolved sessions are cached in process, invalidated on every replica (platform/auth/cache.go).
	k.Sessions.Cache(principals)
	expired := func(c *gin.Context) {
		flash.Set(c, flash.Danger, authz.MsgSessionExpired, k.Cookies.Secure)
	}
	unavailable := func(c *gin.Context, err error) {
		httpx.Logger(c).Error("session lookup failed", "err", err.Error())
		httpx.Fail(c, apperr.EUNAVAILABLE, auth.MsgUnavailable)
	}
	api := r.Group("", httpx.NoStore(), httpx.CSRF(k.Config.BaseURL), auth.Authenticate(k.Sessions, principals, k.Cookies, expired, unavailable), enforcer.Middleware(),
		audit.ModeratedWrites(k.Audit, "/moderate-signout", "/users/logout")) // DESIGN.md §1.12
	// The public API: API keys only, no cookie, no CSRF header (apiv1.go). The principal loader
	// (identity) resolves keys too.
	keys, _ := principals.(auth.KeyResolver)
	v1 := r.Group(V1Prefix, httpx.NoStore(), k.bearer(keys, k.Limits("apikey", k.Config.APIKeyRateLimit, time.Minute)), enforcer.Middleware())
	// The device API (docs/screens.md): its own group, without session, CSRF header or API key;
	// signed rows pass the DeviceAuth port that a module provides.
	var deviceAuth DeviceAuth
	for _, m := range all {
		if a, ok := m.(DeviceAuth); ok {
			if deviceAuth != nil {
				return nil, nil, fmt.Errorf("two modules authenticate devices: %s and another", m.Name())
			}
			deviceAuth = a
		}
	}
	deviceOpen := r.Group("", httpx.NoStore())
	deviceSigned := r.Group("", httpx.NoStore(), deviceMiddleware(deviceAuth))
	for _, m := range all {
		m.Routes(&Router{IRouter: api, v1: v1, deviceOpen: deviceOpen, deviceSigned: deviceSigned, module: m.Name(), routes: &recorded})
	}
	k.docRoutes = recorded
	if _, err := k.OpenAPI(); err != nil {
		return nil, nil, fmt.Errorf("openapi: %w", err)
	}

	r.NoRoute(app.serve)
	return r, enforcer, nil
}

// migrationIDs lists every migration of this binary: the kernel's and the modules'.
func migrationIDs(mods []Module) []string {
	var ids []string
	for _, m := range mods {
		for _, mg := range m.Migrations() {
			ids = append(ids, mg.ID)
		}
	}
	return ids
}

// Readiness checks, as /readyz names them.
const (
	ReadyDatabase   = "database"
	ReadyMigrations = "migrations"
	ReadyStorage    = "storage"
)

// readiness is /readyz: 503 until every migration of this binary is applied, the
// database answers and the storage answers (its bucket or its directory), so that a load balancer
// sends no request to a server that would answer 500. The body names each check and why one
// failed, in words that leak no address or credential (the error itself goes to the log). Mail is
// not checked: the outbox is durable, so a mail server that is down delays emails, never loses
// them, and must not take the app out of service.
func (k *Kernel) readiness(ids []string) func(c *gin.Context) error {
	var migrated atomic.Bool // applied migrations stay applied: checked until true, then no more
	return func(c *gin.Context) error {
		ctx, cancel := context.WithTimeout(c.Request.Context(), 3*time.Second)
		defer cancel()
		var dbErr, pendingErr, storeErr error
		pending := 0
		var wg sync.WaitGroup
		wg.Go(func() {
			if dbErr = db.Ping(ctx, k.DB); dbErr == nil && !migrated.Load() {
				pending, pendingErr = db.Pending(ctx, k.DB, ids)
				migrated.Store(pendingErr == nil && pending == 0)
			}
		})
		wg.Go(func() { storeErr = storage.Check(ctx, k.Storage) })
		wg.Wait()

		checks := map[string]string{ReadyDatabase: "ok", ReadyMigrations: "ok", ReadyStorage: "ok"}
		var failed []string
		fail := func(name, why string, err error) {
			checks[name] = why
			failed = append(failed, name)
			if err != nil {
				k.Log.Warn("not ready: "+name, "err", err)
			}
		}
		switch {
		case dbErr != nil:
			fail(ReadyDatabase, "the database does not answer", dbErr)
			fail(ReadyMigrations, "not checked: the database does not answer", nil)
		case pendingErr != nil:
			fail(ReadyMigrations, "the applied migrations cannot be read", pendingErr)
		case pending > 0:
			fail(ReadyMigrations, fmt.Sprintf("%d of the %d migrations of this version are not applied: run marquee migrate", pending, len(ids)), nil)
		}
		if storeErr != nil {
			fail(ReadyStorage, fmt.Sprintf("the %s storage does not answer", k.Config.StorageDriver), storeErr)
		}
		if len(failed) > 0 {
			c.JSON(http.StatusServiceUnavailable, gin.H{"status": "unavailable", "failed": failed, "checks": checks})
			return nil
		}
		c.JSON(http.StatusOK, gin.H{"status": "ready", "checks": checks})
		return nil
	}
}

// MetricsHandler is /metrics for the separate METRICS_ADDR listener (no token: that address is
// meant to be reachable only from the monitoring network).
func (k *Kernel) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", k.Metrics.Handler(""))
	return mux
}
