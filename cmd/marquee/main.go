// Command marquee is the composition root: configuration, then the platform kernel, then the
// modules, then the HTTP server and the jobs (DESIGN.md §2).
//
//	marquee serve                 serve the app and run the jobs
//	marquee migrate               run pending migrations
//	marquee healthcheck           exit 0 when the local server's /readyz answers 200
//	marquee backup --out FILE     a consistent copy of the SQLite database
//	marquee seed --demo           load the demo data (idempotent)
//	marquee user create --email E [--password P] --role user|admin|super_admin [--company NAME]
//	marquee verify --campaign ID  check a campaign's proof-of-play chain (--code CODE, --key PEM)
//	marquee dev player --server URL --pairing-code CODE [--speed N] [--duration D] [--queue DIR]
//	marquee config example        print .env.example
//	marquee version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"marquee/modules/identity"
	"marquee/modules/screens"
	"marquee/platform/clock"
	"marquee/platform/config"
	"marquee/platform/httpx"
	"marquee/platform/server"
	"marquee/webapp"
)

// version is set by the build (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "marquee:", err)
		os.Exit(1)
	}
}

const usage = `usage: marquee <command>

commands:
  serve                 serve the app on $PORT and run the jobs
  migrate               run pending database migrations
  healthcheck [--url http://127.0.0.1:$PORT/readyz] [--timeout 3s]
                        exit 0 when the server is ready (the container health check)
  backup --out FILE     copy the SQLite database consistently while it runs (PostgreSQL: pg_dump)
  seed --demo           load the demo data (safe to run again)
  user create --email E [--password P] [--role user|admin|super_admin] [--company NAME]
                        create a user; without --password, print an /access link to set it
  verify --campaign ID | --code CODE [--key public.pem]
                        check a campaign's signed proof-of-play chain; non-zero exit on a break
  screens pair --face FACE_ID
                        print a single-use pairing code (24 h) for a player on the face
  config example        print every configuration variable (.env.example)
  openapi               print the OpenAPI document the server serves (make lint-openapi lints it)
  dev webhook-sink [--addr 127.0.0.1:8090] [--secret S]
                        a local webhook receiver that verifies signatures and prints deliveries
  dev player --server URL [--pairing-code CODE] [--speed N] [--duration D] [--queue DIR]
                        the reference screen player: pairs, plays the loop, posts signed plays
  version               print the version`

func run(ctx context.Context, args []string, getenv func(string) string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "version":
		fmt.Fprintln(out, version)
		return nil
	case "config":
		if len(args) == 2 && args[1] == "example" {
			printEnvExample(out)
			return nil
		}
		return errors.New(usage)
	case "dev":
		if len(args) > 1 && args[1] == "player" {
			return runPlayer(ctx, args[2:], out, os.Stderr)
		}
		return runDev(ctx, args[1:], out)
	case "healthcheck":
		return healthcheck(ctx, args[1:], getenv, out)
	case "backup":
		return backup(ctx, args[1:], getenv, out)
	case "serve", "migrate", "seed", "user", "verify", "openapi", "screens":
	default:
		return errors.New(usage)
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	log := newLogger(cfg, os.Stderr)
	slog.SetDefault(log) // the platform's packages that log without a logger of their own use it
	app, err := open(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer app.kernel.Close()
	switch args[0] {
	case "serve":
		return app.serve(ctx)
	case "openapi":
		doc, err := app.kernel.OpenAPI()
		if err != nil {
			return err
		}
		_, err = out.Write(doc)
		return err
	case "migrate":
		if err := app.migrate(); err != nil {
			return err
		}
		fmt.Fprintln(out, "migrations are up to date")
		return nil
	case "seed":
		fs := flag.NewFlagSet("seed", flag.ContinueOnError)
		demo := fs.Bool("demo", false, "load the demo data")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if !*demo {
			return errors.New("usage: marquee seed --demo")
		}
		if err := app.migrate(); err != nil {
			return err
		}
		return seedDemo(ctx, app, out)
	case "verify":
		if err := app.migrate(); err != nil {
			return err
		}
		return verifyChain(ctx, app, args[1:], out)
	case "screens":
		if err := app.migrate(); err != nil {
			return err
		}
		return pairScreen(ctx, app, args[1:], out)
	default: // user
		if len(args) < 2 || args[1] != "create" {
			return errors.New(usage)
		}
		if err := app.migrate(); err != nil {
			return err
		}
		return createUser(ctx, app, args[2:], out)
	}
}

type application struct {
	cfg     config.Config
	log     *slog.Logger
	kernel  *server.Kernel
	modules []server.Module
	handler http.Handler
}

func open(ctx context.Context, cfg config.Config, log *slog.Logger) (*application, error) {
	k, err := server.NewKernel(ctx, cfg, log, clock.Real{}, server.Options{})
	if err != nil {
		return nil, err
	}
	mods, principals, err := buildModules(k)
	if err != nil {
		_ = k.Close()
		return nil, err
	}
	h, _, err := k.Handler(mods, principals, webapp.Dist())
	if err != nil {
		_ = k.Close()
		return nil, err
	}
	return &application{cfg: cfg, log: log, kernel: k, modules: mods, handler: h}, nil
}

func (a *application) migrate() error { return a.kernel.Migrate(a.modules) }

// serve runs the HTTP server and the jobs until SIGINT or SIGTERM, then drains both.
func (a *application) serve(ctx context.Context) error {
	// MIGRATE_ON_START=false leaves migrations to `marquee migrate` (the Kubernetes Job), so a
	// rolling upgrade migrates once, before the new pods start (docs/operations.md).
	if a.cfg.MigrateOnStart {
		if err := a.migrate(); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	srv := &http.Server{
		Addr:              net.JoinHostPort("", strconv.Itoa(a.cfg.Port)),
		Handler:           a.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       5 * time.Minute, // uploads of 20 files on slow links
		WriteTimeout:      5 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	jobsCtx, stopJobs := context.WithCancel(context.WithoutCancel(ctx))
	defer stopJobs()
	sched := a.kernel.Scheduler(a.modules)
	if a.cfg.JobsEnabled {
		sched.Start(jobsCtx)
	}
	errc := make(chan error, 2)
	go func() {
		a.log.Info("serving", "addr", srv.Addr, "base_url", a.cfg.BaseURL, "database", dbKind(a.cfg), "version", version)
		errc <- srv.ListenAndServe()
	}()
	if a.cfg.MetricsAddr != "" {
		// Prometheus scrapes here without a token: bind it to a private address (docs/operations.md).
		msrv := &http.Server{Addr: a.cfg.MetricsAddr, Handler: a.kernel.MetricsHandler(), ReadHeaderTimeout: 10 * time.Second}
		defer func() { _ = msrv.Close() }()
		go func() {
			a.log.Info("serving metrics", "addr", msrv.Addr)
			if err := msrv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
				errc <- fmt.Errorf("METRICS_ADDR: %w", err)
			}
		}()
	}
	select {
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	case <-ctx.Done():
	}
	a.log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownTimeout)
	defer cancel()
	httpErr := srv.Shutdown(shutdownCtx)
	stopJobs()
	jobsErr := sched.Stop(shutdownCtx)
	return errors.Join(httpErr, jobsErr)
}

func dbKind(cfg config.Config) string {
	if cfg.DatabaseURL != "" {
		return "postgres"
	}
	return "sqlite"
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewJSONHandler(w, opts)
	if cfg.LogFormat == "text" {
		h = slog.NewTextHandler(w, opts)
	}
	return slog.New(httpx.RequestIDHandler(h))
}

func printEnvExample(out io.Writer) {
	fmt.Fprintln(out, "# Marquee configuration. Every variable is optional; the value shown is the default.")
	fmt.Fprintln(out, "# Printed by `marquee config example`; the config package's test keeps it complete.")
	for _, v := range config.Vars() {
		fmt.Fprintf(out, "\n# %s\n", v.Doc)
		if v.Default == "" || v.Secret {
			fmt.Fprintf(out, "# %s=\n", v.Name)
		} else {
			fmt.Fprintf(out, "# %s=%s\n", v.Name, v.Default)
		}
	}
}

func createUser(ctx context.Context, app *application, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("user create", flag.ContinueOnError)
	email := fs.String("email", "", "email address (required)")
	password := fs.String("password", "", "password; omit to print an /access link instead")
	role := fs.String("role", identity.RoleUser, "user, admin or super_admin")
	company := fs.String("company", "", "company name (created when new; default Marquee)")
	companyType := fs.String("company-type", identity.CompanyStandard, "standard, ambassador or certified")
	first := fs.String("first-name", "", "first name")
	last := fs.String("last-name", "", "last name")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *email == "" {
		return errors.New("--email is required")
	}
	u, link, err := identityService(app.modules).CreateUser(ctx, identity.CreateUserRequest{
		Email: *email, Password: *password, Role: *role, CompanyName: *company, CompanyType: *companyType,
		FirstName: *first, LastName: *last,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "created %s (%s) in %s\n", u.Local.Email, *role, u.Company.Name)
	if link != "" {
		fmt.Fprintf(out, "set the password at: %s\n", link)
	}
	return nil
}

// pairScreen is `marquee screens pair --face FACE_ID`: it prints a single-use pairing code, valid
// 24 hours, for a player to pair with the face (docs/screens.md).
func pairScreen(ctx context.Context, app *application, args []string, out io.Writer) error {
	if len(args) < 1 || args[0] != "pair" {
		return errors.New("usage: marquee screens pair --face FACE_ID")
	}
	fs := flag.NewFlagSet("screens pair", flag.ContinueOnError)
	face := fs.String("face", "", "the face to pair a player with")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *face == "" {
		return errors.New("usage: marquee screens pair --face FACE_ID")
	}
	pc, err := server.Get[*screens.Module](app.modules).NewPairingCode(ctx, *face)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "pairing code for face %s: %s (single use, valid until %s)\n", pc.FaceID, pc.Code, pc.ExpiresAt.Format(time.RFC3339))
	return nil
}
