package pagination

import (
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
)

var spec = Spec{PageSizes: []int{50, 75, 100, 0}, DefaultSize: 50, Sortable: map[string]string{"name": "name", "start_date": "start_date"}, DefaultSort: "-start_date"}

func parse(t *testing.T, query string) (Params, error) {
	t.Helper()
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest("GET", "/x?"+query, nil)
	return Parse(c, spec)
}

func TestParse(t *testing.T) {
	cases := []struct {
		query string
		want  Params
		field string
	}{
		{"", Params{Page: 1, PageSize: 50, Sort: "start_date", Desc: true}, ""},
		{"page=3&page_size=75&sort=name&q=%20acme%20", Params{Page: 3, PageSize: 75, Sort: "name", Q: "acme"}, ""},
		{"page_size=0", Params{Page: 1, PageSize: 0, Sort: "start_date", Desc: true}, ""},
		{"page=0", Params{}, "page"},
		{"page=-1", Params{}, "page"},
		{"page=1e3", Params{}, "page"},
		{"page_size=20", Params{}, "page_size"},
		{"page_size=%2B50", Params{}, "page_size"},
		{"sort=password_hash", Params{}, "sort"},
	}
	for _, tc := range cases {
		got, err := parse(t, tc.query)
		if tc.field != "" {
			e := apperr.As(err)
			if e.Code != apperr.EINVALID || e.Fields[tc.field] == "" {
				t.Errorf("%q: err = %v, want EINVALID on %s", tc.query, err, tc.field)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.query, got, err, tc.want)
		}
	}
}

func TestEnvelopeNeverNull(t *testing.T) {
	p := Envelope[int](nil, 0, Params{Page: 1, PageSize: 50})
	if p.Items == nil || p.Total != 0 || p.Page != 1 || p.PageSize != 50 {
		t.Fatalf("%+v", p)
	}
}
