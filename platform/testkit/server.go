package testkit

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/clock"
	"marquee/platform/config"
	"marquee/platform/db"
	"marquee/platform/httpx"
	"marquee/platform/server"
)

// Start is the test clock's first reading: a Sunday, 2026-11-22 12:00 UTC.
var StartTime = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// BuildFunc makes the application's modules on the kernel and names the principal loader (the
// identity module). cmd/marquee passes every module; a module's own tests pass that module and
// what it depends on.
type BuildFunc = server.BuildFunc

// Server is a real HTTP server on a fresh database.
type Server struct {
	*httptest.Server
	Kernel   *server.Kernel
	Clock    *clock.Manual
	Enforcer *authz.Enforcer
	MailDir  string
	Modules  []server.Module
	// Routes are every registered route.
	Routes gin.RoutesInfo
}

// Option adjusts a test server.
type Option func(o *startOptions)

type startOptions struct {
	env         map[string]string
	realHashing bool
	web         fs.FS
	databaseURL string
}

// WithDatabaseURL runs the server on the PostgreSQL database at url (PostgresURL) instead of a
// fresh one: two servers on one URL are two replicas of one deployment.
func WithDatabaseURL(url string) Option { return func(o *startOptions) { o.databaseURL = url } }

// WithWeb serves web as the built web app.
func WithWeb(web fs.FS) Option { return func(o *startOptions) { o.web = web } }

// WithEnv sets a configuration variable.
func WithEnv(name, value string) Option { return func(o *startOptions) { o.env[name] = value } }

// WithProductionHashing keeps argon2id's production cost (benchmarks measure the real thing).
func WithProductionHashing() Option { return func(o *startOptions) { o.realHashing = true } }

// cheapHash keeps argon2id but at test cost; the parameters are what production reads back.
var cheapHash = auth.Params{MemoryKiB: 64, Time: 1, Threads: 1}

// Start runs the application built by build on a fresh database of the dialect, with a manual
// clock, file mail in a temporary folder and cheap password hashing.
func Start(t testing.TB, dialect string, build BuildFunc, opts ...Option) *Server {
	t.Helper()
	dir := t.TempDir()
	so := startOptions{env: map[string]string{
		"DATA_DIR": dir, "BASE_URL": "http://marquee.test", "LOG_LEVEL": "error",
		"SIGNIN_RATE_LIMIT": "1000000", "RESET_RATE_LIMIT": "1000000", "SIGNUP_RATE_LIMIT": "1000000",
		"UPLOAD_RATE_LIMIT": "1000000",
	}}
	for _, o := range opts {
		o(&so)
	}
	env := so.env
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.NewManual(StartTime)
	log := slog.New(httpx.RequestIDHandler(slog.NewTextHandler(io.Discard, nil)))
	if os.Getenv("TEST_LOG") != "" {
		log = slog.New(httpx.RequestIDHandler(slog.NewTextHandler(os.Stderr, nil)))
	}
	var gdb *gorm.DB
	if so.databaseURL != "" {
		gdb, err = db.Open(db.Options{URL: so.databaseURL})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close(gdb) })
	} else {
		gdb = OpenDB(t, dialect)
	}
	k, err := server.NewKernel(t.Context(), cfg, log, clk, server.Options{DB: gdb, HashParams: hashParams(so.realHashing)})
	if err != nil {
		t.Fatal(err)
	}
	mods, principals, err := build(k)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Migrate(mods); err != nil {
		t.Fatal(err)
	}
	var web fs.FS = emptyWeb{}
	if so.web != nil {
		web = so.web
	}
	h, enf, err := k.Handler(mods, principals, web)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &Server{Server: srv, Kernel: k, Clock: clk, Enforcer: enf, MailDir: cfg.MailDirectory(), Modules: mods, Routes: h.Routes()}
}

func hashParams(real bool) *auth.Params {
	if real {
		return nil
	}
	return &cheapHash
}

type emptyWeb struct{}

func (emptyWeb) Open(string) (fs.File, error) { return nil, fs.ErrNotExist }

// DeliverMail runs the outbox once and returns the text of every mail file written so far, oldest
// first.
func (s *Server) DeliverMail(t testing.TB) []string {
	t.Helper()
	if _, err := s.Kernel.Mailer().DeliverPending(t.Context()); err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(s.MailDir, "*.eml"))
	sort.Strings(paths)
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p) // #nosec G304 -- a mail file the test server wrote in its temporary folder
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// Client is a browser-like HTTP client: it keeps cookies and sends the CSRF header.
type Client struct {
	t    testing.TB
	base string
	HTTP *http.Client
	// NoXHR drops the CSRF header, to test the refusal.
	NoXHR bool
	// Bearer, when set, is sent as Authorization: Bearer (an API key, /api/v1).
	Bearer string
	// Header is sent with every request.
	Header http.Header
}

// Client returns a new client with an empty cookie jar. Each of its calls in a test is checked
// against the server's OpenAPI document (openapi.go). A benchmark's calls are not: validating a
// 5,000-face answer costs the client more CPU than the server spent making it, and a benchmark
// measures the server (the tests run the same calls checked).
func (s *Server) Client(t testing.TB) *Client {
	c := NewClient(t, s.URL)
	if _, benchmark := t.(*testing.B); benchmark {
		return c
	}
	c.HTTP.Transport = &checkingTransport{t: t, next: http.DefaultTransport, check: s.openAPICheck(t)}
	return c
}

// NewClient returns a browser-like client (cookies, the CSRF header) of the server at base.
func NewClient(t testing.TB, base string) *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{t: t, base: base, HTTP: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// Response is a finished call.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Map decodes the body as a JSON object.
func (r *Response) Map(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	r.JSON(t, &m)
	return m
}

// Do sends a request with a JSON body (nil for none, []byte or string as is).
func (c *Client) Do(method, path string, body any) *Response {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.send(req)
}

// File is one part of a multipart upload.
type File struct {
	Name string
	Body []byte
}

// Upload posts files as multipart parts named field, as a browser's form does.
func (c *Client) Upload(path, field string, files ...File) *Response {
	c.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, f := range files {
		part, err := mw.CreateFormFile(field, f.Name)
		if err != nil {
			c.t.Fatal(err)
		}
		if _, err := part.Write(f.Body); err != nil {
			c.t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		c.t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, c.base+path, &body)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return c.send(req)
}

// send adds what the client always sends (the CSRF header, Header, the bearer key) and reads the
// whole answer.
func (c *Client) send(req *http.Request) *Response {
	c.t.Helper()
	if !c.NoXHR {
		req.Header.Set("X-Requested-With", "XMLHttpRequest")
	}
	for k, vs := range c.Header {
		req.Header[k] = vs
	}
	if c.Bearer != "" {
		req.Header.Set("Authorization", "Bearer "+c.Bearer)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return &Response{Status: res.StatusCode, Header: res.Header, Body: raw}
}

// Get, Post, Put and Delete are Do with the method.
func (c *Client) Get(path string) *Response            { return c.Do(http.MethodGet, path, nil) }
func (c *Client) Post(path string, body any) *Response { return c.Do(http.MethodPost, path, body) }
func (c *Client) Put(path string, body any) *Response  { return c.Do(http.MethodPut, path, body) }
func (c *Client) Delete(path string) *Response         { return c.Do(http.MethodDelete, path, nil) }

// Expect fails the test unless the response has the status; it returns the response.
func (r *Response) Expect(t testing.TB, status int) *Response {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status = %d, want %d; body %s", r.Status, status, r.Body)
	}
	return r
}

// SessionAs gives the client a session for userID directly, skipping the password (fast, for
// matrices of roles).
func (c *Client) SessionAs(s *Server, userID string) {
	c.t.Helper()
	token, err := s.Kernel.Sessions.Create(c.t.Context(), userID, "127.0.0.1", "testkit")
	if err != nil {
		c.t.Fatal(err)
	}
	u, _ := http.NewRequest(http.MethodGet, c.base, nil)
	c.HTTP.Jar.SetCookies(u.URL, []*http.Cookie{{Name: auth.CookieName, Value: token, Path: "/"}}) // #nosec G124 -- a test client's cookie jar, not a server's answer
}

// ModuleOf returns the server's module of type T (for example *campaigns.Module), failing the test
// when the server was built without one.
func ModuleOf[T server.Module](tb testing.TB, s *Server) T {
	tb.Helper()
	for _, m := range s.Modules {
		if t, ok := m.(T); ok {
			return t
		}
	}
	var zero T
	tb.Fatalf("testkit: the server has no %T module", zero)
	return zero
}
