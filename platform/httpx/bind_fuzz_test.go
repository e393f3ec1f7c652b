package httpx

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/money"
)

// fuzzRequest has the field types the handlers bind: text, numbers, money, dates, lists, pointers,
// nested objects and maps, with validation tags.
type fuzzRequest struct {
	Name     string            `json:"name" validate:"required,max=20"`
	Email    string            `json:"email" validate:"omitempty,email"`
	Count    int               `json:"count" validate:"min=0,max=1000"`
	Small    int8              `json:"small"`
	Ratio    float64           `json:"ratio"`
	Budget   money.Cents       `json:"budget"`
	Start    dates.Date        `json:"start"`
	Tags     []string          `json:"tags" validate:"max=5,dive,max=10"`
	Flag     *bool             `json:"flag"`
	Kind     string            `json:"kind" validate:"omitempty,oneof=a b"`
	Nested   *fuzzNested       `json:"nested"`
	Items    []fuzzNested      `json:"items" validate:"dive"`
	Extra    map[string]string `json:"extra"`
	Anything any               `json:"anything"`
}

type fuzzNested struct {
	ID  string `json:"id" validate:"required"`
	Qty uint16 `json:"qty"`
}

const fuzzLimit = 4 << 10

// FuzzBindJSON: BindJSON and Validate never panic and never answer an internal error; a body over
// the limit is never accepted; what is accepted is one valid JSON value (nothing but whitespace
// after it) and binds as encoding/json binds it.
func FuzzBindJSON(f *testing.F) {
	gin.SetMode(gin.TestMode)
	for _, seed := range []struct {
		body, contentType string
	}{
		{`{"name":"a","count":3,"budget":12.5,"start":"2026-11-23","tags":["x"]}`, "application/json"},
		{`{"name":"a","nested":{"id":"n","qty":2},"items":[{"id":"i"}],"extra":{"k":"v"}}`, "application/json; charset=utf-8"},
		{`{"name":"a"} `, "application/vnd.api+json"},
		{`{"name":"a"} {"name":"b"}`, "application/json"},
		{`{"name":"a"}x`, "application/json"},
		{`{"budget":1.005}`, "application/json"},
		{`{"start":"2026-02-30"}`, "application/json"},
		{`{"small":300,"count":-1}`, "application/json"},
		{`{"name":1}`, "application/json"},
		{`[]`, "application/json"},
		{`null`, "application/json"},
		{``, ""},
		{`{"name":"a"}`, "text/plain"},
		{`{"name":"a"}`, "application/json; charset"},
		{`{"anything":[[[[[[{}]]]]]]}`, "application/json"},
		{`{"name":"a\u0000b"}`, "application/json"},
		{`{"extra":{"k\u0000":"v"},"anything":{"x":["\u0000"]}}`, "application/json"},
		{`{"email":"not an email","kind":"c","tags":["aaaaaaaaaaaaaaaa"]}`, "application/json"},
	} {
		f.Add([]byte(seed.body), seed.contentType)
	}
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		w := httptest.NewRecorder()
		c, _ := gin.CreateTestContext(w)
		c.Request = req
		var got fuzzRequest
		err := BindJSON(c, &got, fuzzLimit)
		if err != nil {
			switch code := apperr.CodeOf(err); code {
			case apperr.EINVALID, apperr.ETOOLARGE, apperr.EMEDIATYPE:
			default:
				t.Fatalf("BindJSON(%q) = %v (code %s), want a client error", body, err, code)
			}
			if Status(apperr.CodeOf(err)) >= 500 {
				t.Fatalf("BindJSON(%q) maps to %d", body, Status(apperr.CodeOf(err)))
			}
			// Nor does it refuse a JSON body within the limit that encoding/json reads.
			// (Text with a NUL character is refused on purpose.)
			var std fuzzRequest
			if apperr.CodeOf(err) == apperr.EINVALID && len(body) <= fuzzLimit && isJSON(req) && json.Unmarshal(body, &std) == nil &&
				!(apperr.As(err).Message == MsgNUL && hasNUL(reflect.ValueOf(&std), 0)) {
				t.Fatalf("BindJSON(%q) = %v, but it is valid JSON", body, err)
			}
			return
		}
		if len(body) > fuzzLimit {
			t.Fatalf("accepted a body of %d bytes over the limit of %d", len(body), fuzzLimit)
		}
		if !json.Valid(body) {
			t.Fatalf("accepted %q, which is not one JSON value", body)
		}
		var want fuzzRequest
		if err := json.Unmarshal(body, &want); err != nil {
			t.Fatalf("accepted %q, which encoding/json refuses: %v", body, err)
		}
		if hasNUL(reflect.ValueOf(got), 0) {
			t.Fatalf("accepted %q, which holds a NUL character", body)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("bound %+v, encoding/json binds %+v", got, want)
		}
		if err := Validate(&got, nil); err != nil {
			if code := apperr.CodeOf(err); code != apperr.EINVALID {
				t.Fatalf("Validate(%+v) = %v (code %s), want EINVALID", got, err, code)
			}
		}
	})
}

// A NUL character in the path or the query is refused with the envelope before any handler.
func TestRefuseNUL(t *testing.T) {
	r := gin.New()
	r.Use(RefuseNUL())
	r.GET("/x/:id", func(c *gin.Context) { c.String(http.StatusOK, "reached") })
	for target, want := range map[string]int{"/x/1?q=a": 200, "/x/1?q=a%00b": 400, "/x/a%00b": 400, "/x/1?%00=1": 400} {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, target, nil))
		if w.Code != want {
			t.Errorf("GET %s = %d %s, want %d", target, w.Code, w.Body, want)
		}
		if want == 400 && !bytes.Contains(w.Body.Bytes(), []byte(MsgNUL)) {
			t.Errorf("GET %s answered %s", target, w.Body)
		}
	}
}
