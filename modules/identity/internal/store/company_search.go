package store

import (
	"context"
	"strings"

	"marquee/platform/db"
)

// SearchCompanies returns up to limit companies whose folded name contains q, by name.
func (s *Store) SearchCompanies(ctx context.Context, q string, limit int) ([]Company, error) {
	tx := s.conn(ctx).Order("name_key ASC, id ASC").Limit(limit)
	// The key is the name folded as companyNameKey folds it: lower case, single spaces.
	if q = strings.ToLower(strings.Join(strings.Fields(q), " ")); q != "" {
		tx = tx.Where(db.Contains("name_key", q))
	}
	var out []Company
	err := tx.Find(&out).Error
	return out, err
}
