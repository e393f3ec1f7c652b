// Package pagination reads list parameters (?page=&page_size=&sort=&q=, page_size 0 = all) and
// applies them to a query, answering the list envelope of DESIGN.md §3.
package pagination

import (
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/platform/apperr"
)

// Params are one list request.
type Params struct {
	Page     int    // 1-based
	PageSize int    // 0 means all
	Sort     string // a column, already mapped from the API field
	Desc     bool
	Q        string
}

// Spec says what a list accepts.
type Spec struct {
	PageSizes   []int             // allowed sizes; 0 (All) allowed only when listed
	DefaultSize int               // used when page_size is absent
	Sortable    map[string]string // API field -> column
	DefaultSort string            // API field, "-" prefix for descending
	MaxQ        int               // longest search text; 100 when 0
}

// Parse reads and checks the parameters. Bad values answer EINVALID naming the parameter
// (B §5: page numbers are digits between 1 and the last page).
func Parse(c *gin.Context, s Spec) (Params, error) {
	p := Params{Page: 1, PageSize: s.DefaultSize}
	if v := c.Query("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || !digits(v) {
			return p, apperr.Field("page", "Page must be a whole number of 1 or more.")
		}
		p.Page = n
	}
	if v := c.Query("page_size"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || !digits(v) || !contains(s.PageSizes, n) {
			return p, apperr.Field("page_size", "Page size must be one of "+sizes(s.PageSizes)+".")
		}
		p.PageSize = n
	}
	// An empty sort is the default one, as an absent one is (?sort= answered 500 on a list
	// that sorts in code and needs a sort).
	sort := c.Query("sort")
	if sort == "" {
		sort = s.DefaultSort
	}
	if sort != "" {
		field := strings.TrimPrefix(sort, "-")
		col, ok := s.Sortable[field]
		if !ok {
			return p, apperr.Field("sort", "Cannot sort by "+field+".")
		}
		p.Sort, p.Desc = col, strings.HasPrefix(sort, "-")
	}
	maxQ := s.MaxQ
	if maxQ == 0 {
		maxQ = 100
	}
	p.Q = strings.TrimSpace(c.Query("q"))
	if len(p.Q) > maxQ {
		return p, apperr.Field("q", "Search text is too long.")
	}
	return p, nil
}

// Apply adds the order, offset and limit to q. A secondary order on id keeps pages stable.
func (p Params) Apply(q *gorm.DB) *gorm.DB {
	if p.Sort != "" {
		dir := " ASC"
		if p.Desc {
			dir = " DESC"
		}
		q = q.Order(p.Sort + dir)
	}
	q = q.Order("id ASC")
	if p.PageSize > 0 {
		q = q.Offset((p.Page - 1) * p.PageSize).Limit(p.PageSize)
	}
	return q
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func contains(xs []int, n int) bool {
	for _, x := range xs {
		if x == n {
			return true
		}
	}
	return false
}

func sizes(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		if x == 0 {
			parts[i] = "0 (all)"
		} else {
			parts[i] = strconv.Itoa(x)
		}
	}
	return strings.Join(parts, ", ")
}
