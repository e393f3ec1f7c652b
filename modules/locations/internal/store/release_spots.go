package store

import "context"

// DeleteCompanySpots deletes the company's spots with these ids.
func (s *Store) DeleteCompanySpots(ctx context.Context, companyID string, ids []string) (int64, error) {
	res := s.conn(ctx).Where("company_id = ? AND id IN ?", companyID, ids).Delete(&Spot{})
	return res.RowsAffected, res.Error
}
