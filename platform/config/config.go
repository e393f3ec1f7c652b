// Package config reads the typed configuration from the environment. Every variable is declared once
// here, with its default, and listed in .env.example (a test keeps the two in step).
package config

import (
	"fmt"
	"net/netip"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // BUSINESS_TIMEZONE works on a host without a zone database
)

// Config is the whole configuration. Field tags: env (the variable), default, and doc (one line for
// .env.example).
type Config struct {
	Port            int           `env:"PORT" default:"8080" doc:"HTTP port of marquee serve"`
	BaseURL         string        `env:"BASE_URL" default:"http://localhost:8080" doc:"public URL of the app, used in emailed links"`
	DataDir         string        `env:"DATA_DIR" default:"./var" doc:"SQLite database, stored files and mail files when those are local"`
	DatabaseURL     string        `env:"DATABASE_URL" default:"" doc:"postgres://user:pass@host:5432/db?sslmode=disable; empty means SQLite in DATA_DIR"`
	LogLevel        string        `env:"LOG_LEVEL" default:"info" doc:"debug, info, warn or error"`
	LogFormat       string        `env:"LOG_FORMAT" default:"json" doc:"json or text"`
	ShutdownTimeout time.Duration `env:"SHUTDOWN_TIMEOUT" default:"15s" doc:"how long a graceful shutdown waits for requests and jobs"`
	JobsInterval    time.Duration `env:"JOBS_INTERVAL" default:"0s" doc:"tests and demos only: run every periodic job this often instead of at its own interval (hold release 1m, charge retries 30s...); 0 keeps each job's own"`
	TrustedProxies  string        `env:"TRUSTED_PROXIES" default:"" doc:"comma-separated CIDRs of proxies whose X-Forwarded-For is trusted"`
	MaxJSONBytes    int64         `env:"MAX_JSON_BYTES" default:"1048576" doc:"largest accepted JSON body, in bytes (413 above)"`

	CookieSecure           string        `env:"COOKIE_SECURE" default:"auto" doc:"auto (Secure when BASE_URL is https), true or false"`
	SessionIdleTimeout     time.Duration `env:"SESSION_IDLE_TIMEOUT" default:"2h" doc:"a session unused this long expires"`
	SessionAbsoluteTimeout time.Duration `env:"SESSION_ABSOLUTE_TIMEOUT" default:"72h" doc:"a session expires this long after sign-in, used or not"`
	ResetTokenTTL          time.Duration `env:"RESET_TOKEN_TTL" default:"1h" doc:"lifetime of a password-reset link"`
	AccessTokenTTL         time.Duration `env:"ACCESS_TOKEN_TTL" default:"168h" doc:"lifetime of an account-access (/access) link"`
	SignInRateLimit        int           `env:"SIGNIN_RATE_LIMIT" default:"10" doc:"sign-in attempts per minute per client address and per email"`
	ResetRateLimit         int           `env:"RESET_RATE_LIMIT" default:"5" doc:"password-reset requests per minute per client address and per email"`
	SignUpRateLimit        int           `env:"SIGNUP_RATE_LIMIT" default:"5" doc:"sign-ups per minute per client address"`
	APIKeyRateLimit        int           `env:"API_KEY_RATE_LIMIT" default:"120" doc:"calls per minute per API key (/api/v1)"`

	StorageDriver string `env:"STORAGE_DRIVER" default:"fs" doc:"fs (files under DATA_DIR/files) or s3"`
	S3Endpoint    string `env:"S3_ENDPOINT" default:"" doc:"host:port of an S3-compatible store"`
	S3AccessKey   string `env:"S3_ACCESS_KEY" default:"" doc:"S3 access key" secret:"true"`
	S3SecretKey   string `env:"S3_SECRET_KEY" default:"" doc:"S3 secret key" secret:"true"`
	S3Bucket      string `env:"S3_BUCKET" default:"marquee" doc:"S3 bucket, created when missing"`
	S3Region      string `env:"S3_REGION" default:"us-east-1" doc:"S3 region"`
	S3UseSSL      bool   `env:"S3_USE_SSL" default:"false" doc:"use HTTPS to reach the S3 store"`

	UploadRequestMaxBytes int64 `env:"UPLOAD_REQUEST_MAX_BYTES" default:"52428800" doc:"largest total of the files of one upload request, in bytes (413 above)"`
	UploadRateLimit       int   `env:"UPLOAD_RATE_LIMIT" default:"60" doc:"files one user may upload per minute (429 above)"`
	CompanyStorageQuota   int64 `env:"COMPANY_STORAGE_QUOTA" default:"2147483648" doc:"bytes of uploaded creatives and images one company may keep (413 above)"`
	ImageDecodeMaxBytes   int64 `env:"IMAGE_DECODE_MAX_BYTES" default:"268435456" doc:"memory one image decode may take, read from its header (422 above)"`
	ImageDecodeMemory     int64 `env:"IMAGE_DECODE_MEMORY" default:"536870912" doc:"memory all image decodes in flight may take together, in bytes; more uploads wait"`

	MailDriver       string        `env:"MAIL_DRIVER" default:"file" doc:"file (writes .eml files to MAIL_DIR) or smtp"`
	MailFrom         string        `env:"MAIL_FROM" default:"Marquee <no-reply@marquee.local>" doc:"sender of every email"`
	MailDir          string        `env:"MAIL_DIR" default:"" doc:"where the file sender writes; empty means DATA_DIR/mail"`
	SMTPHost         string        `env:"SMTP_HOST" default:"" doc:"SMTP server host"`
	SMTPPort         int           `env:"SMTP_PORT" default:"587" doc:"SMTP server port"`
	SMTPUsername     string        `env:"SMTP_USERNAME" default:"" doc:"SMTP user" secret:"true"`
	SMTPPassword     string        `env:"SMTP_PASSWORD" default:"" doc:"SMTP password" secret:"true"`
	SMTPTLS          string        `env:"SMTP_TLS" default:"starttls" doc:"none, starttls or tls"`
	MailPollInterval time.Duration `env:"MAIL_POLL_INTERVAL" default:"5s" doc:"how often the outbox is delivered"`
	MailMaxAttempts  int           `env:"MAIL_MAX_ATTEMPTS" default:"10" doc:"send attempts before a message is marked failed (it is kept)"`
	OperationsEmail  string        `env:"OPERATIONS_EMAIL" default:"operations@marquee.local" doc:"where creative requests (POST /users/creative) are sent"`

	PaymentGateway       string `env:"PAYMENT_GATEWAY" default:"sandbox" doc:"sandbox (Stripe's test-card rules, offline; the default) or stripe (docs/payments.md)"`
	StripeSecretKey      string `env:"STRIPE_SECRET_KEY" default:"" doc:"Stripe secret key (sk_...), server side only; required when PAYMENT_GATEWAY=stripe" secret:"true"`
	StripePublishableKey string `env:"STRIPE_PUBLISHABLE_KEY" default:"" doc:"Stripe publishable key (pk_...) for Stripe.js in the browser; required when PAYMENT_GATEWAY=stripe"`
	StripeAPIURL         string `env:"STRIPE_API_URL" default:"" doc:"replaces https://api.stripe.com, e.g. a stripe-mock for tests; empty for Stripe itself"`

	JobsEnabled    bool `env:"JOBS_ENABLED" default:"true" doc:"run periodic jobs in this process (one leader runs them across replicas)"`
	MigrateOnStart bool `env:"MIGRATE_ON_START" default:"true" doc:"marquee serve runs pending migrations before it listens; false when a separate marquee migrate runs them (the Kubernetes Job, docs/operations.md)"`

	BusinessTimezone string `env:"BUSINESS_TIMEZONE" default:"America/New_York" doc:"IANA time zone of the business calendar: today, the Wednesday cut-off and every date rule"`

	HoldTTL         time.Duration `env:"HOLD_TTL" default:"30m" doc:"how long a hold on billboard spots lasts before the release job frees it"`
	TileURL         string        `env:"TILE_URL" default:"https://tile.openstreetmap.org/{z}/{x}/{y}.png" doc:"map tile URL template of the web map"`
	TileAttribution string        `env:"TILE_ATTRIBUTION" default:"&copy; OpenStreetMap contributors" doc:"credit shown on the map for TILE_URL"`
	Geocoder        string        `env:"GEOCODER" default:"none" doc:"none (the place search knows towns; an address gives its town, marked approximate), nominatim or photon (addresses are looked up at GEOCODER_URL)"`
	GeocoderURL     string        `env:"GEOCODER_URL" default:"" doc:"base URL of the Nominatim or Photon service, e.g. http://nominatim.internal:8080; required unless GEOCODER=none"`

	ProofSigningKey string `env:"PROOF_SIGNING_KEY" default:"" doc:"Ed25519 key that signs proof-of-play records: a base64 32-byte seed or the path of a PKCS#8 PEM file; empty generates a development key in DATA_DIR (docs/delivery-assurance.md)" secret:"true"`

	PartnerLinkMonths          int `env:"PARTNER_LINK_MONTHS" default:"12" doc:"how many months a partner's link to a client company lasts (docs/partners.md)"`
	PartnerBonusRateAmbassador int `env:"PARTNER_BONUS_RATE_AMBASSADOR" default:"1000" doc:"an ambassador's bonus on a linked client's billed spend, in basis points (1000 = 10%)"`
	PartnerBonusRateCertified  int `env:"PARTNER_BONUS_RATE_CERTIFIED" default:"1500" doc:"a certified partner's bonus on a linked client's billed spend, in basis points (1500 = 15%)"`

	MetricsToken string `env:"METRICS_TOKEN" default:"" doc:"serve /metrics (Prometheus) on the public port to scrapes that send Authorization: Bearer <this token>; empty: not on the public port" secret:"true"`
	MetricsAddr  string `env:"METRICS_ADDR" default:"" doc:"also serve /metrics without a token on this address, e.g. 127.0.0.1:9090 or :9090 on a private network; empty: no such listener"`

	WebhookAllowPrivate   string        `env:"WEBHOOK_ALLOW_PRIVATE" default:"auto" doc:"auto (allowed only when BASE_URL is a loopback address such as http://localhost:8080, i.e. a development server: make run, whose demo endpoint is the local marquee dev webhook-sink), true or false: let webhook URLs use http and private or loopback addresses; never true in production"`
	WebhookConnectTimeout time.Duration `env:"WEBHOOK_CONNECT_TIMEOUT" default:"5s" doc:"how long a webhook delivery may take to connect (and finish TLS)"`
	WebhookTimeout        time.Duration `env:"WEBHOOK_TIMEOUT" default:"10s" doc:"how long one webhook delivery may take in all, answer included"`
	WebhookPollInterval   time.Duration `env:"WEBHOOK_POLL_INTERVAL" default:"5s" doc:"how often due webhook deliveries are posted"`

	MakeGoodThresholdPercent int `env:"MAKEGOOD_THRESHOLD_PERCENT" default:"90" doc:"a finished campaign week delivering less than this percentage of its contracted impressions earns a make-good credit (docs/delivery-assurance.md)"`

	ScreensWeekGrace   time.Duration `env:"SCREENS_WEEK_GRACE" default:"48h" doc:"how long after a week ends the plays of paired screens may still change its delivery, before the week is closed and its make-good rule runs (docs/screens.md)"`
	ScreensSilentAfter time.Duration `env:"SCREENS_SILENT_AFTER" default:"1h" doc:"how long a paired screen may be silent during operating hours before the admins are emailed (docs/screens.md)"`
}

// Var describes one variable, for .env.example and its test.
type Var struct {
	Name, Default, Doc string
	Secret             bool
}

// Vars lists every variable Config reads, in declaration order.
func Vars() []Var {
	t := reflect.TypeOf(Config{})
	out := make([]Var, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		out = append(out, Var{Name: f.Tag.Get("env"), Default: f.Tag.Get("default"), Doc: f.Tag.Get("doc"), Secret: f.Tag.Get("secret") == "true"})
	}
	return out
}

// Load reads the configuration through getenv (os.Getenv in production, a map in tests).
func Load(getenv func(string) string) (Config, error) {
	var c Config
	v := reflect.ValueOf(&c).Elem()
	t := v.Type()
	var problems []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("env")
		raw := strings.TrimSpace(getenv(name))
		if raw == "" {
			raw = f.Tag.Get("default")
		}
		if err := set(v.Field(i), raw); err != nil {
			problems = append(problems, fmt.Sprintf("%s=%q: %v", name, raw, err))
		}
	}
	if len(problems) == 0 {
		problems = c.check()
	}
	if len(problems) > 0 {
		return Config{}, fmt.Errorf("configuration: %s", strings.Join(problems, "; "))
	}
	return c, nil
}

func set(f reflect.Value, raw string) error {
	switch f.Interface().(type) {
	case string:
		f.SetString(raw)
	case int:
		n, err := strconv.Atoi(raw)
		if err != nil {
			return fmt.Errorf("not an integer")
		}
		f.SetInt(int64(n))
	case int64:
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return fmt.Errorf("not an integer")
		}
		f.SetInt(n)
	case bool:
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return fmt.Errorf("not true or false")
		}
		f.SetBool(b)
	case time.Duration:
		d, err := time.ParseDuration(raw)
		if err != nil {
			return fmt.Errorf("not a duration such as 90s or 2h")
		}
		f.SetInt(int64(d))
	default:
		return fmt.Errorf("unsupported type %s", f.Type())
	}
	return nil
}

func (c Config) check() []string {
	var p []string
	if c.Port < 1 || c.Port > 65535 {
		p = append(p, "PORT must be 1-65535")
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p = append(p, "BASE_URL must be an http(s) URL")
	}
	oneOf := func(name, val string, allowed ...string) {
		for _, a := range allowed {
			if val == a {
				return
			}
		}
		p = append(p, fmt.Sprintf("%s must be one of %s", name, strings.Join(allowed, ", ")))
	}
	oneOf("LOG_LEVEL", c.LogLevel, "debug", "info", "warn", "error")
	oneOf("LOG_FORMAT", c.LogFormat, "json", "text")
	oneOf("COOKIE_SECURE", c.CookieSecure, "auto", "true", "false")
	oneOf("WEBHOOK_ALLOW_PRIVATE", c.WebhookAllowPrivate, "auto", "true", "false")
	oneOf("STORAGE_DRIVER", c.StorageDriver, "fs", "s3")
	oneOf("MAIL_DRIVER", c.MailDriver, "file", "smtp")
	oneOf("SMTP_TLS", c.SMTPTLS, "none", "starttls", "tls")
	oneOf("PAYMENT_GATEWAY", c.PaymentGateway, "sandbox", "stripe")
	if c.PaymentGateway == "stripe" && (c.StripeSecretKey == "" || c.StripePublishableKey == "") {
		p = append(p, "STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are required when PAYMENT_GATEWAY=stripe")
	}
	if c.StorageDriver == "s3" && c.S3Endpoint == "" {
		p = append(p, "S3_ENDPOINT is required when STORAGE_DRIVER=s3")
	}
	if c.MailDriver == "smtp" && c.SMTPHost == "" {
		p = append(p, "SMTP_HOST is required when MAIL_DRIVER=smtp")
	}
	if c.SessionIdleTimeout <= 0 || c.SessionAbsoluteTimeout < c.SessionIdleTimeout {
		p = append(p, "SESSION_IDLE_TIMEOUT must be positive and at most SESSION_ABSOLUTE_TIMEOUT")
	}
	if c.SignInRateLimit < 1 || c.ResetRateLimit < 1 {
		p = append(p, "SIGNIN_RATE_LIMIT and RESET_RATE_LIMIT must be at least 1")
	}
	if c.SignUpRateLimit < 1 {
		p = append(p, "SIGNUP_RATE_LIMIT must be at least 1")
	}
	if c.APIKeyRateLimit < 1 {
		p = append(p, "API_KEY_RATE_LIMIT must be at least 1")
	}
	if c.JobsInterval < 0 || (c.JobsInterval > 0 && c.JobsInterval < 100*time.Millisecond) {
		p = append(p, "JOBS_INTERVAL must be 0 (each job's own interval) or at least 100ms")
	}
	if c.HoldTTL < time.Minute {
		p = append(p, "HOLD_TTL must be at least 1m")
	}
	if c.ScreensWeekGrace < time.Hour || c.ScreensWeekGrace > 13*24*time.Hour {
		p = append(p, "SCREENS_WEEK_GRACE must be from 1h to 312h (plays older than 14 days no longer count)")
	}
	if c.ScreensSilentAfter < time.Minute {
		p = append(p, "SCREENS_SILENT_AFTER must be at least 1m")
	}
	oneOf("GEOCODER", c.Geocoder, "none", "nominatim", "photon")
	if c.Geocoder != "none" && c.GeocoderURL == "" {
		p = append(p, "GEOCODER_URL is required when GEOCODER is nominatim or photon")
	}
	if c.PartnerLinkMonths < 1 || c.PartnerLinkMonths > 120 {
		p = append(p, "PARTNER_LINK_MONTHS must be from 1 to 120")
	}
	if c.PartnerBonusRateAmbassador < 0 || c.PartnerBonusRateAmbassador > 10000 || c.PartnerBonusRateCertified < 0 || c.PartnerBonusRateCertified > 10000 {
		p = append(p, "PARTNER_BONUS_RATE_AMBASSADOR and PARTNER_BONUS_RATE_CERTIFIED must be from 0 to 10000 basis points")
	}
	if c.MakeGoodThresholdPercent < 1 || c.MakeGoodThresholdPercent > 100 {
		p = append(p, "MAKEGOOD_THRESHOLD_PERCENT must be from 1 to 100")
	}
	if c.TileURL == "" {
		p = append(p, "TILE_URL is required")
	}
	if _, err := c.BusinessLocation(); err != nil {
		p = append(p, "BUSINESS_TIMEZONE must be an IANA time zone such as America/New_York")
	}
	if c.UploadRequestMaxBytes < 1<<20 || c.UploadRateLimit < 1 || c.CompanyStorageQuota < 1<<20 {
		p = append(p, "UPLOAD_REQUEST_MAX_BYTES and COMPANY_STORAGE_QUOTA must be at least 1048576, UPLOAD_RATE_LIMIT at least 1")
	}
	if c.ImageDecodeMaxBytes < 16<<20 || c.ImageDecodeMemory < c.ImageDecodeMaxBytes {
		p = append(p, "IMAGE_DECODE_MAX_BYTES must be at least 16777216 and at most IMAGE_DECODE_MEMORY")
	}
	if c.WebhookConnectTimeout < 100*time.Millisecond || c.WebhookTimeout < c.WebhookConnectTimeout || c.WebhookTimeout > 5*time.Minute || c.WebhookPollInterval < 100*time.Millisecond {
		p = append(p, "WEBHOOK_CONNECT_TIMEOUT must be at least 100ms, WEBHOOK_TIMEOUT from it to 5m, WEBHOOK_POLL_INTERVAL at least 100ms")
	}
	if c.MaxJSONBytes < 1024 {
		p = append(p, "MAX_JSON_BYTES must be at least 1024")
	}
	return p
}

// BusinessLocation is BUSINESS_TIMEZONE as a location (the zone database is embedded: time/tzdata).
func (c Config) BusinessLocation() (*time.Location, error) {
	if strings.TrimSpace(c.BusinessTimezone) == "" {
		return nil, fmt.Errorf("empty time zone")
	}
	return time.LoadLocation(c.BusinessTimezone)
}

// SecureCookies reports whether cookies get the Secure flag.
func (c Config) SecureCookies() bool {
	switch c.CookieSecure {
	case "true":
		return true
	case "false":
		return false
	default:
		return strings.HasPrefix(c.BaseURL, "https://")
	}
}

// WebhookPrivateAllowed reports whether webhook URLs may use http and private or loopback
// addresses, which would let a webhook reach the server's own network. Under auto only a
// development server may: one whose BASE_URL is a loopback address, so that nobody else can reach
// it (make run, bin/marquee serve on the defaults; the demo endpoint is the local webhook sink on
// 127.0.0.1). A production BASE_URL is public, so production keeps refusing them.
func (c Config) WebhookPrivateAllowed() bool {
	switch c.WebhookAllowPrivate {
	case "true":
		return true
	case "false":
		return false
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// MailDirectory is where the file sender writes.
func (c Config) MailDirectory() string {
	if c.MailDir != "" {
		return c.MailDir
	}
	return strings.TrimRight(c.DataDir, "/") + "/mail"
}

// UploadStagingDir is where uploads wait while they are checked. With fs storage it is under
// DATA_DIR, on the disk that keeps the files (the system's temporary directory is often a tmpfs,
// which is memory). With s3 storage DATA_DIR holds nothing and may be missing or read-only (the
// Kubernetes pods, deploy/k8s): "" stages in the system's temporary directory, TMPDIR.
func (c Config) UploadStagingDir() string {
	if c.StorageDriver != "fs" {
		return ""
	}
	return strings.TrimRight(c.DataDir, "/") + "/tmp/uploads"
}

// FilesDirectory is where the fs storage keeps objects.
func (c Config) FilesDirectory() string { return strings.TrimRight(c.DataDir, "/") + "/files" }
