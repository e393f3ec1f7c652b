package campaigns

import (
	"context"

	"marquee/modules/campaigns/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/db"
	"marquee/platform/money"
	"marquee/platform/pagination"
)

// The Service interface for the modules above (partners, reports): batch reads, no N+1.

// FindCampaignsByIDs implements Service: deleted campaigns included, drafts and unknown ids left
// out, company names read in one batch.
func (s *service) FindCampaignsByIDs(ctx context.Context, ids []string) ([]*Campaign, error) {
	if len(ids) == 0 {
		return []*Campaign{}, nil
	}
	rows, err := s.store.CampaignsByIDs(ctx, ids)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return s.campaignDTOs(ctx, rows)
}

// FindCompanyCampaign implements Service. ENOTFOUND for another company's campaign, a deleted one
// or a draft.
func (s *service) FindCompanyCampaign(ctx context.Context, companyID, id string) (*Campaign, error) {
	if companyID == "" {
		return nil, apperr.NotFound(MsgCampaignNotFound)
	}
	c, err := s.store.FindCampaign(ctx, companyID, id)
	if err != nil {
		return nil, db.Translate(err, MsgCampaignNotFound, "")
	}
	out, err := s.campaignDTOs(ctx, []store.Campaign{*c})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// FindWeeks implements Service: the campaign's weeks, oldest first, with their creatives and
// proofs (two queries).
func (s *service) FindWeeks(ctx context.Context, campaignID string) ([]Week, error) {
	rows, err := s.store.CampaignWeeks(ctx, campaignID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	wcs, err := s.store.WeekCreativesOf(ctx, campaignID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	byWeek := map[string][]store.WeekCreative{}
	for _, wc := range wcs {
		byWeek[wc.WeekID] = append(byWeek[wc.WeekID], wc)
	}
	weekIDs := make([]string, len(rows))
	for i := range rows {
		weekIDs[i] = rows[i].ID
	}
	mgs, err := s.store.MakeGoodsOfWeeks(ctx, weekIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]Week, len(rows))
	for i := range rows {
		out[i] = weekDTO(&rows[i], byWeek[rows[i].ID])
		if mg, ok := mgs[rows[i].ID]; ok { // issue 17: the report names the week's make-good
			out[i].MakeGood = &WeekMakeGood{ID: mg.ID, Credit: money.Cents(mg.CreditCents), Status: mg.Status}
		}
	}
	return out, nil
}

// FindCompanyCampaigns implements Service: one query for the rows, one for the company name.
func (s *service) FindCompanyCampaigns(ctx context.Context, companyID string) ([]*Campaign, error) {
	if companyID == "" {
		return []*Campaign{}, nil
	}
	list, err := s.listCampaigns(ctx, companyID, "", pagination.Params{Page: 1, PageSize: 0, Sort: "created_at", Desc: true})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// ProofCodesOf is delivery assurance's (proofchain.go).
func (s *service) ProofCodesOf(ctx context.Context, campaignID string) ([]WeekProofCode, error) {
	return s.assure.ProofCodesOf(ctx, campaignID)
}

// CompanyPacing is delivery assurance's (pacing.go).
func (s *service) CompanyPacing(ctx context.Context, companyID string) ([]Pacing, error) {
	return s.assure.CompanyPacing(ctx, companyID)
}
