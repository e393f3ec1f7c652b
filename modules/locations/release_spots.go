package locations

import (
	"context"

	"marquee/platform/apperr"
)

// ReleaseSpots implements Service: it frees the company's spots with these ids, in batches. Ids of
// another company, or of spots already freed, are skipped.
func (s *service) ReleaseSpots(ctx context.Context, companyID string, spotIDs []string) (int, error) {
	if companyID == "" || len(spotIDs) == 0 {
		return 0, nil
	}
	total := 0
	for start := 0; start < len(spotIDs); start += 500 {
		end := min(start+500, len(spotIDs))
		n, err := s.store.DeleteCompanySpots(ctx, companyID, spotIDs[start:end])
		if err != nil {
			return total, apperr.Internal(err)
		}
		total += int(n)
	}
	return total, nil
}
