package testkit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"marquee/platform/auth"
	"marquee/platform/httpx"
)

// Every call a test client makes is checked against the OpenAPI document the server serves, by an
// independent validator (kin-openapi's openapi3filter), so the document and the server cannot drift
// apart:
//   - a request the document calls invalid (a missing parameter, a value out of its enum, a body
//     of the wrong shape, a security requirement not met) must be refused with a 4xx;
//   - every answer must be one the document declares for the operation and status: its media
//     type, its headers, and a body matching the schema, which allows no undeclared field;
//   - a route the document does not name must not answer a 2xx.
//
// The document is the served one (Kernel.OpenAPI), so a route row whose DTOs do not match its
// handler fails every test that calls it.

func init() {
	// The files the API answers: the validator checks their media type, not their bytes.
	for _, t := range []string{"image/jpeg", "image/png", "image/gif", "image/webp", "image/tiff", "image/svg+xml",
		"application/pdf", "application/x-pem-file", "video/mp4", "video/quicktime", "video/webm",
		"application/msword", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"} {
		openapi3filter.RegisterBodyDecoder(t, openapi3filter.FileBodyDecoder)
	}
	openapi3filter.RegisterBodyDecoder("text/csv", openapi3filter.FileBodyDecoder)
}

// openAPICheck is the loaded document of one server.
type openAPICheck struct {
	router routers.Router
}

var openAPIDocs sync.Map // *Server -> *openAPICheck

func (s *Server) openAPICheck(t testing.TB) *openAPICheck {
	t.Helper()
	if c, ok := openAPIDocs.Load(s); ok {
		return c.(*openAPICheck)
	}
	raw, err := s.Kernel.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	check, err := LoadOpenAPI(raw)
	if err != nil {
		t.Fatalf("openapi: %v", err)
	}
	c, _ := openAPIDocs.LoadOrStore(s, check)
	t.Cleanup(func() { openAPIDocs.Delete(s) })
	return c.(*openAPICheck)
}

// LoadOpenAPI loads and validates a document for the checking client.
func LoadOpenAPI(raw []byte) (*openAPICheck, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("the document is not valid OpenAPI: %w", err)
	}
	// The document's one server is "/", this server, wherever it listens: match paths alone.
	doc.Servers = nil
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	return &openAPICheck{router: router}, nil
}

// checkingTransport validates each call against the document.
type checkingTransport struct {
	t     testing.TB
	next  http.RoundTripper
	check *openAPICheck
}

func (tr *checkingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil {
		var err error
		if reqBody, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		_ = req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	res, err := tr.next.RoundTrip(req)
	if err != nil {
		return res, err
	}
	resBody, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(resBody))
	if err != nil {
		return res, nil // the test reads the same error
	}
	if msg := tr.check.verify(req, reqBody, res, resBody); msg != "" {
		tr.t.Errorf("OpenAPI: %s %s -> %d: %s", req.Method, req.URL.RequestURI(), res.StatusCode, msg)
	}
	return res, nil
}

// verify returns what is wrong with the call, or "".
func (c *openAPICheck) verify(req *http.Request, reqBody []byte, res *http.Response, resBody []byte) string {
	probe := req.Clone(context.Background())
	probe.Body = io.NopCloser(bytes.NewReader(reqBody))
	route, params, err := c.router.FindRoute(probe)
	if err != nil {
		if res.StatusCode < 300 && isJSON(res.Header.Get("Content-Type")) {
			return "a JSON answer of a route the document does not name"
		}
		return ""
	}
	in := &openapi3filter.RequestValidationInput{Request: probe, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: authenticate}}
	reqErr := openapi3filter.ValidateRequest(context.Background(), in)
	if reqErr != nil && res.StatusCode < 400 {
		return fmt.Sprintf("the document refuses the request, the server answered it: %v", short(reqErr))
	}
	// kin-openapi passes every 304 unchecked; a 304 the operation does not declare is a drift too.
	if res.StatusCode == http.StatusNotModified && route.Operation.Responses.Status(http.StatusNotModified) == nil {
		return "a 304 the document does not declare (server.Route.Revalidates)"
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: res.StatusCode, Header: res.Header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true}}
	if req.Method == http.MethodHead {
		out.Options.ExcludeResponseBody = true
	}
	out.SetBodyBytes(resBody)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		return fmt.Sprintf("the answer is not the documented one: %v; body %.300s", short(err), resBody)
	}
	return ""
}

// authenticate checks a security requirement the way the server does: the bearer key, the
// session cookie, the CSRF header, a device's signature headers.
func authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	r := in.RequestValidationInput.Request
	switch in.SecuritySchemeName {
	case "apiKey":
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
			return errors.New("no bearer key")
		}
	case "session":
		if _, err := r.Cookie(auth.CookieName); err != nil {
			return errors.New("no session cookie")
		}
	case "csrf":
		if r.Header.Get(httpx.CSRFHeader) != "XMLHttpRequest" {
			return errors.New("no CSRF header")
		}
	case "deviceSignature": // a paired screen's signed call (docs/screens.md); the server checks it
		if r.Header.Get("X-Screen-Signature") == "" || r.Header.Get("X-Screen-Id") == "" || r.Header.Get("X-Screen-Timestamp") == "" {
			return errors.New("no device signature")
		}
	default:
		return fmt.Errorf("unknown security scheme %q", in.SecuritySchemeName)
	}
	return nil
}

func isJSON(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt == "application/json"
}

func short(err error) string {
	s := err.Error()
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return strings.ReplaceAll(s, "\n", " ")
}
