package campaigns

import (
	"context"
	"errors"
)

var errNotBuilt = errors.New("campaigns: not built yet")

// FindCampaignsByIDs implements Service.
func (m *Module) FindCampaignsByIDs(ctx context.Context, ids []string) ([]*Campaign, error) {
	return nil, errNotBuilt
}

// FindCompanyCampaign implements Service.
func (m *Module) FindCompanyCampaign(ctx context.Context, companyID, id string) (*Campaign, error) {
	return nil, errNotBuilt
}

// FindWeeks implements Service.
func (m *Module) FindWeeks(ctx context.Context, campaignID string) ([]Week, error) {
	return nil, errNotBuilt
}
