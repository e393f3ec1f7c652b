package identity

import (
	"context"

	"marquee/platform/apperr"
)

// FindCompanies implements Service: the admin company pickers (reports) search companies by name.
func (s *service) FindCompanies(ctx context.Context, q string, limit int) ([]*Company, error) {
	rows, err := s.store.SearchCompanies(ctx, q, limit)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	ids := make([]string, 0, len(rows))
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	counts, err := s.store.CountUsersByCompany(ctx, ids)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]*Company, 0, len(rows))
	for _, r := range rows {
		out = append(out, &Company{ID: r.ID, Name: r.Name, Type: r.Type, Status: r.Status, UserCount: counts[r.ID], CreatedAt: r.CreatedAt})
	}
	return out, nil
}
