package httpx

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgconn"

	"marquee/platform/apperr"
)

type form struct {
	Name  string `json:"name" validate:"required,max=5"`
	Email string `json:"email" validate:"required,email"`
	Age   int    `json:"age"`
}

func serve(t *testing.T, h gin.HandlerFunc, method, body string, headers map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.Use(Recovery(), CSRF())
	r.Handle(method, "/x", h)
	req := httptest.NewRequest(method, "/x", strings.NewReader(body))
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	r.ServeHTTP(w, req)
	return w
}

var xhr = map[string]string{"X-Requested-With": "XMLHttpRequest"}

var xhrJSON = map[string]string{"X-Requested-With": "XMLHttpRequest", "Content-Type": "application/json"}

func bindHandler(c *gin.Context) {
	H(func(c *gin.Context) error {
		var f form
		if err := BindJSON(c, &f, 64); err != nil {
			return err
		}
		if err := Validate(&f, map[string]string{"name.max": "Name is too long."}); err != nil {
			return err
		}
		Answer(c, f)
		return nil
	})(c)
}

func TestBindAndValidate(t *testing.T) {
	cases := []struct {
		body   string
		status int
		want   string
	}{
		{`{"name":"Ada","email":"ada@example.com"}`, 200, `"name":"Ada"`},
		{`{"name":"Adalovelace","email":"ada@example.com"}`, 400, `"message":"Name is too long."`},
		{`{"name":"","email":"x"}`, 400, `"errors":{"email":"Invalid email address","name":"Required"}`},
		{`{"name":"Ada","email":"ada@example.com","age":"old"}`, 400, `"errors":{"age":"Invalid value."}`},
		{`{"name":`, 400, MsgBadJSON},
		{``, 400, MsgBadJSON},
		{`{"name":"Ada","email":"ada@example.com","pad":"` + strings.Repeat("x", 100) + `"}`, 413, MsgTooLarge},
	}
	for _, tc := range cases {
		w := serve(t, bindHandler, http.MethodPost, tc.body, xhrJSON)
		if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.want) {
			t.Errorf("%s: %d %s; want %d containing %s", tc.body, w.Code, w.Body, tc.status, tc.want)
		}
	}
}

// A JSON call reads only a body declared as JSON: the same valid JSON sent as text, a form or XML
// answers 415 in the envelope.
func TestBindRefusesOtherContentTypes(t *testing.T) {
	body := `{"name":"Ada","email":"ada@example.com"}`
	for ct, status := range map[string]int{
		"application/json": 200, "application/json; charset=utf-8": 200, "application/merge-patch+json": 200,
		"text/plain": 415, "text/plain;charset=UTF-8": 415, "application/x-www-form-urlencoded": 415,
		"multipart/form-data; boundary=x": 415, "application/xml": 415, "text/xml": 415, "": 415, "json": 415,
	} {
		h := map[string]string{"X-Requested-With": "XMLHttpRequest"}
		if ct != "" {
			h["Content-Type"] = ct
		}
		w := serve(t, bindHandler, http.MethodPost, body, h)
		if w.Code != status {
			t.Errorf("Content-Type %q: %d %s, want %d", ct, w.Code, w.Body, status)
		}
		if status == 415 && !strings.Contains(w.Body.String(), `"success":false,"message":"`+MsgNotJSON+`"`) {
			t.Errorf("Content-Type %q: envelope %s", ct, w.Body)
		}
	}
	// No body and no type: still the 400 of a missing body.
	if w := serve(t, bindHandler, http.MethodPost, "", xhr); w.Code != 400 {
		t.Errorf("empty body: %d %s", w.Code, w.Body)
	}
}

func TestErrorMappingHidesInternals(t *testing.T) {
	for code, status := range map[apperr.Code]int{
		apperr.EINVALID: 400, apperr.EUNAUTHORIZED: 401, apperr.EFORBIDDEN: 403, apperr.ENOTFOUND: 404,
		apperr.ECONFLICT: 409, apperr.ETOOLARGE: 413, apperr.EUNSUPPORTED: 422, apperr.EMEDIATYPE: 415, apperr.ERATELIMIT: 429,
		apperr.EPAYMENT: 402, apperr.EUNAVAILABLE: 503, apperr.ENOSPACE: 507, apperr.EINTERNAL: 500,
	} {
		if Status(code) != status {
			t.Errorf("%s -> %d, want %d", code, Status(code), status)
		}
	}
	w := serve(t, H(func(*gin.Context) error { return errors.New("pq: relation \"users\" does not exist") }), http.MethodGet, "", nil)
	if w.Code != 500 || strings.Contains(w.Body.String(), "relation") || !strings.Contains(w.Body.String(), apperr.MsgInternal) {
		t.Fatalf("internal error leaked: %d %s", w.Code, w.Body)
	}
	w = serve(t, func(*gin.Context) { panic("nil map") }, http.MethodGet, "", nil)
	if w.Code != 500 || strings.Contains(w.Body.String(), "nil map") {
		t.Fatalf("panic leaked: %d %s", w.Code, w.Body)
	}
	w = serve(t, H(func(*gin.Context) error { return apperr.New(apperr.ERATELIMIT, "Slow down.") }), http.MethodGet, "", nil)
	if w.Code != 429 || w.Header().Get("Retry-After") == "" {
		t.Fatalf("rate limit answer: %d %v", w.Code, w.Header())
	}
	// A reason reaches the client as the envelope's code; an internal error's never does.
	w = serve(t, H(func(*gin.Context) error {
		return &apperr.Error{Code: apperr.EPAYMENT, Message: "Your card was declined.", Reason: "card_declined"}
	}), http.MethodGet, "", nil)
	if w.Code != 402 || !strings.Contains(w.Body.String(), `"code":"card_declined"`) {
		t.Fatalf("payment answer: %d %s", w.Code, w.Body)
	}
	w = serve(t, H(func(*gin.Context) error {
		return &apperr.Error{Code: apperr.EINTERNAL, Message: "x", Reason: "db_down"}
	}), http.MethodGet, "", nil)
	if strings.Contains(w.Body.String(), "db_down") {
		t.Fatalf("internal reason leaked: %s", w.Body)
	}
}

// An outage or a full disk under a request answers 503 or 507 with the user's message, the cause
// (which names hosts and files) never shown.
func TestFaultsAnswer503And507(t *testing.T) {
	for _, tc := range []struct {
		err    error
		status int
		msg    string
	}{
		{apperr.Internal(fmt.Errorf("load campaign: %w", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED})), 503, apperr.MsgUnavailable},
		{fmt.Errorf("insert: %w", driver.ErrBadConn), 503, apperr.MsgUnavailable},
		{apperr.Internal(&pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}), 503, apperr.MsgUnavailable},
		{apperr.Internal(fmt.Errorf("write /data/files/x: %w", syscall.ENOSPC)), 507, apperr.MsgNoSpace},
		{apperr.Internal(&pgconn.PgError{Code: "23505"}), 500, apperr.MsgInternal},
	} {
		w := serve(t, H(func(*gin.Context) error { return tc.err }), http.MethodGet, "", nil)
		var body ErrorBody
		_ = json.Unmarshal(w.Body.Bytes(), &body)
		if w.Code != tc.status || body.Message != tc.msg || body.Success {
			t.Errorf("%v: %d %s, want %d %q", tc.err, w.Code, w.Body, tc.status, tc.msg)
		}
	}
}

func TestCSRFNeedsTheHeaderOnUnsafeMethods(t *testing.T) {
	ok := func(c *gin.Context) { c.Status(204) }
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if w := serve(t, ok, m, "", nil); w.Code != 403 {
			t.Errorf("%s without header: %d", m, w.Code)
		}
		if w := serve(t, ok, m, "", map[string]string{"X-Requested-With": "fetch"}); w.Code != 403 {
			t.Errorf("%s with a wrong header: %d", m, w.Code)
		}
		if w := serve(t, ok, m, "", xhr); w.Code != 204 {
			t.Errorf("%s with header: %d", m, w.Code)
		}
	}
	if w := serve(t, ok, http.MethodGet, "", nil); w.Code != 204 {
		t.Errorf("GET refused: %d", w.Code)
	}
}

// An unsafe request that names a foreign Origin is refused even with the CSRF header.
func TestCSRFRefusesAForeignOrigin(t *testing.T) {
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.Use(Recovery(), CSRF("https://marquee.example"))
	r.POST("/x", func(c *gin.Context) { c.Status(204) })
	r.GET("/logout", H(SideEffectGET(func(c *gin.Context) error { c.Status(204); return nil })))
	call := func(method, path, host, origin string) int {
		req := httptest.NewRequest(method, path, nil)
		req.Host = host
		req.Header.Set(CSRFHeader, "XMLHttpRequest")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		return w.Code
	}
	cases := []struct {
		host, origin string
		want         int
	}{
		{"app.internal:8080", "", 204},                         // no Origin: the header decides
		{"app.internal:8080", "http://app.internal:8080", 204}, // the request's own host
		{"app.internal:8080", "https://marquee.example", 204},  // BASE_URL, behind a proxy that rewrites Host
		{"app.internal:8080", "https://evil.example", 403},     // another site
		{"app.internal:8080", "http://app.internal:9090", 403}, // another port is another origin
		{"app.internal:8080", "http://marquee.example", 403},   // BASE_URL's host with another scheme
		{"app.internal:8080", "null", 403},                     // a sandboxed page or a file
		{"app.internal:8080", "chrome-extension://abc", 403},   // not a web origin
	}
	for _, tc := range cases {
		if got := call(http.MethodPost, "/x", tc.host, tc.origin); got != tc.want {
			t.Errorf("POST from %q to %s = %d, want %d", tc.origin, tc.host, got, tc.want)
		}
		if got := call(http.MethodGet, "/logout", tc.host, tc.origin); got != tc.want {
			t.Errorf("side-effect GET from %q to %s = %d, want %d", tc.origin, tc.host, got, tc.want)
		}
	}
}

// The logs carry the request id into every error — the handler's own logger, an error
// the envelope hides, a panic, and a service that logs with the context it was given (the
// logger it holds knows nothing of the request).
func TestErrorLogsCarryTheRequestID(t *testing.T) {
	var out strings.Builder
	log := slog.New(RequestIDHandler(slog.NewJSONHandler(&out, nil)))
	gin.SetMode(gin.TestMode)
	r := gin.New()
	r.ContextWithFallback = true // as the kernel sets it: a *gin.Context is the request's context
	r.Use(RequestLog(log), Recovery())
	service := func(ctx context.Context) error {
		log.ErrorContext(ctx, "service failed")
		return errors.New("disk on fire")
	}
	r.GET("/internal", H(func(c *gin.Context) error { return service(c) }))
	r.GET("/request-context", H(func(c *gin.Context) error { return service(c.Request.Context()) }))
	r.GET("/panic", func(*gin.Context) { panic("boom") })
	r.GET("/handler", func(c *gin.Context) { Logger(c).Warn("handler noticed"); c.Status(204) })

	for _, path := range []string{"/internal", "/request-context", "/panic", "/handler"} {
		out.Reset()
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		id := w.Header().Get(RequestIDHeader)
		if id == "" {
			t.Fatalf("%s: no %s header", path, RequestIDHeader)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) < 2 { // at least one error or warning, then the access line
			t.Fatalf("%s: logged %q", path, out.String())
		}
		for _, line := range lines {
			if strings.Count(line, `"request_id"`) != 1 || !strings.Contains(line, `"request_id":"`+id+`"`) {
				t.Errorf("%s: a log line without request_id %s (or with two): %s", path, id, line)
			}
		}
	}
}

// BindJSON refuses a singleline field holding a control character or a line
// separator, naming nested fields by their JSON path; an absent optional field is not an error.
func TestBindRefusesMultilineText(t *testing.T) {
	type item struct {
		Name string `json:"name" validate:"singleline"`
	}
	type body struct {
		Title *string  `json:"title,omitempty" validate:"singleline"`
		Tags  []string `json:"tags" validate:"dive,singleline"`
		Items []item   `json:"items" validate:"dive"`
		Note  string   `json:"note" text:"multiline"`
	}
	for raw, want := range map[string]map[string]string{
		`{"note":"a\nb"}`: nil,
		`{"title":"a b","tags":["x"],"items":[{"name":"Café 春"}]}`: nil,
		`{"title":"a\nb"}`:                          {"title": MsgSingleLine},
		`{"title":"a\u2028b"}`:                      {"title": MsgSingleLine},
		`{"tags":["ok","a\u0085b"]}`:                {"tags.1": MsgSingleLine},
		`{"items":[{"name":"ok"},{"name":"a\tb"}]}`: {"items.1.name": MsgSingleLine},
	} {
		r := gin.New()
		var got error
		r.POST("/", func(c *gin.Context) { var b body; got = BindJSON(c, &b, 1<<20) })
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(raw))
		req.Header.Set("Content-Type", "application/json")
		r.ServeHTTP(httptest.NewRecorder(), req)
		var ae *apperr.Error
		switch {
		case want == nil && got != nil:
			t.Errorf("%s: %v", raw, got)
		case want != nil && (!errors.As(got, &ae) || !maps.Equal(ae.Fields, want)):
			t.Errorf("%s: %v, want the fields %v", raw, got, want)
		}
	}
}

// A client that goes away while its request runs (a page left during a preview, say) is no
// internal error: the answer nobody reads is logged at info as 499 and no "internal error" line is
// written, so the 5xx error-rate alert does not count it. The same error while the client is still
// there stays an internal error.
func TestClientThatWentAwayIsNoInternalError(t *testing.T) {
	var out syncBuilder
	log := slog.New(slog.NewJSONHandler(&out, nil))
	gin.SetMode(gin.TestMode)
	r := gin.New()
	statuses := make(chan int, 2)
	r.Use(func(c *gin.Context) { c.Next(); statuses <- c.Writer.Status() }, RequestLog(log), Recovery())
	started := make(chan struct{})
	r.GET("/slow", H(func(c *gin.Context) error {
		close(started)
		<-c.Request.Context().Done()
		return apperr.Internal(fmt.Errorf("reading the faces: %w", c.Request.Context().Err()))
	}))
	r.GET("/canceled-inside", H(func(*gin.Context) error {
		return apperr.Internal(fmt.Errorf("a job's own context: %w", context.Canceled))
	}))
	srv := httptest.NewServer(r)
	defer srv.Close()

	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/slow", nil)
	go func() { <-started; cancel() }()
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		t.Fatal("the canceled request was answered")
	}
	if got := <-statuses; got != StatusClientClosedRequest {
		t.Errorf("a request whose client went away ended with %d, want %d", got, StatusClientClosedRequest)
	}
	logged := out.String()
	if strings.Contains(logged, "internal error") || strings.Contains(logged, `"level":"ERROR"`) {
		t.Errorf("a client that went away was logged as an error:\n%s", logged)
	}
	if !strings.Contains(logged, `"msg":"request canceled by its client"`) || !strings.Contains(logged, `"status":499`) {
		t.Errorf("the canceled request's lines are missing:\n%s", logged)
	}

	out.Reset()
	res, err := http.Get(srv.URL + "/canceled-inside")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusInternalServerError || <-statuses != http.StatusInternalServerError {
		t.Errorf("context.Canceled with the client still there answered %d, want 500", res.StatusCode)
	}
	if !strings.Contains(out.String(), "internal error") {
		t.Errorf("context.Canceled with the client still there was not logged as an internal error:\n%s", out.String())
	}
}

// syncBuilder is a strings.Builder that the server's goroutines and the test can share.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuilder) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}
