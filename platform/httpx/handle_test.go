package httpx

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/auth"
)

type renameRequest struct {
	Name string `json:"name" validate:"singleline"`
}

type renamed struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Caller string `json:"caller"`
}

// rename stands for a service method: it sees the principal the request carries, the path's id
// and the body.
func rename(_ context.Context, p *auth.Principal, id string, req renameRequest) (renamed, error) {
	if req.Name == "taken" {
		return renamed{}, apperr.New(apperr.ECONFLICT, "That name is taken.")
	}
	caller := ""
	if p != nil {
		caller = p.UserID
	}
	return renamed{ID: id, Name: req.Name, Caller: caller}, nil
}

// TestCallAdapters drives the adapters through a real gin engine: the principal and the :id reach
// the service, the body is bound by BindJSON's rules, a service error is the envelope, and the
// route's declared success status is the answer's.
func TestCallAdapters(t *testing.T) {
	gin.SetMode(gin.TestMode)
	r := gin.New()
	withCaller := func(c *gin.Context) {
		c.Request = c.Request.WithContext(auth.WithPrincipal(c.Request.Context(), &auth.Principal{UserID: "u1"}))
	}
	r.PUT("/things/:id", withCaller, H(CallIDBody(64, rename)))
	r.POST("/things/:id", withCaller, H(WithSuccess(CallIDBody(64, rename), http.StatusCreated)))
	r.DELETE("/things/:id", H(WithSuccess(CallID(func(_ context.Context, _ *auth.Principal, id string) (any, error) { return nil, nil }), http.StatusNoContent)))

	do := func(method, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, "/things/t9", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		return w
	}
	cases := []struct {
		method, body string
		status       int
		answer       string
	}{
		{"PUT", `{"name":"Spring"}`, 200, `{"id":"t9","name":"Spring","caller":"u1"}`},
		{"POST", `{"name":"Spring"}`, 201, `{"id":"t9","name":"Spring","caller":"u1"}`},
		{"PUT", `{"name":"taken"}`, 409, `"message":"That name is taken."`},
		{"PUT", `{"name":"a\nb"}`, 400, MsgSingleLine},
		{"PUT", `{"name":"` + strings.Repeat("x", 100) + `"}`, 413, MsgTooLarge},
		{"DELETE", ``, 204, ``},
	}
	for _, tc := range cases {
		w := do(tc.method, tc.body)
		if w.Code != tc.status || !strings.Contains(w.Body.String(), tc.answer) {
			t.Errorf("%s %s: %d %s, want %d with %s", tc.method, tc.body, w.Code, w.Body, tc.status, tc.answer)
		}
		if tc.status == 204 && w.Body.Len() != 0 {
			t.Errorf("204 with a body: %q", w.Body)
		}
	}
}
