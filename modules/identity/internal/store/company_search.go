package store

import (
	"context"
	"strings"
)

// SearchCompanies returns up to limit companies whose folded name contains q, by name.
func (s *Store) SearchCompanies(ctx context.Context, q string, limit int) ([]Company, error) {
	tx := s.conn(ctx).Order("name_key ASC, id ASC").Limit(limit)
	// The key is the name folded as companyNameKey folds it: lower case, single spaces.
	if q = strings.ToLower(strings.Join(strings.Fields(q), " ")); q != "" {
		q = strings.NewReplacer("!", "!!", "%", "!%", "_", "!_").Replace(q)
		tx = tx.Where("name_key LIKE ? ESCAPE '!'", "%"+q+"%")
	}
	var out []Company
	err := tx.Find(&out).Error
	return out, err
}
