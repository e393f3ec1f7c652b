package pagination

// The list envelope of DESIGN.md §3, in its own file so that tygo gives the web app this type alone
// (webapp/src/platform/api-types/pagination.ts).

// Page is the list envelope.
type Page[T any] struct {
	Items    []T   `json:"items"`
	Total    int64 `json:"total"`
	Page     int   `json:"page"`
	PageSize int   `json:"page_size"`
}

// Envelope builds the page answer.
func Envelope[T any](items []T, total int64, p Params) Page[T] {
	if items == nil {
		items = []T{}
	}
	return Page[T]{Items: items, Total: total, Page: p.Page, PageSize: p.PageSize}
}
