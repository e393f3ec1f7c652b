package campaigns

import (
	"context"
	"encoding/json"

	"marquee/modules/campaigns/internal/makegood"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/dates"
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
		if mg, ok := mgs[rows[i].ID]; ok { // the report names the week's make-good
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

// jsonList decodes a stored JSON list; a bad or empty value is an empty list.
func jsonList(s string) []string {
	out := []string{}
	if s != "" {
		_ = json.Unmarshal([]byte(s), &out)
	}
	return out
}

// encodeList stores a list as JSON.
func encodeList(v []string) string {
	if v == nil {
		v = []string{}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// namedCampaignDTO is campaignDTO with the company's name read on its own, for the answers about one
// campaign (create, its replay and conflict, resolve). The campaign is already saved, so a
// failed read leaves the name empty rather than failing the answer.
func (s *service) namedCampaignDTO(ctx context.Context, c *store.Campaign) *Campaign {
	name := ""
	if cos, err := s.deps.Identity.FindCompaniesByIDs(ctx, []string{c.CompanyID}); err != nil {
		s.deps.Log.WarnContext(ctx, "campaigns: company name", "company", c.CompanyID, "err", err)
	} else if len(cos) == 1 {
		name = cos[0].Name
	}
	return campaignDTO(c, name)
}

// campaignDTO is a campaign row as the API shows it; companyName is filled by the caller, which
// reads company names in one batch.
func campaignDTO(c *store.Campaign, companyName string) *Campaign {
	return &Campaign{
		ID: c.ID, AcID: c.ID, CompanyID: c.CompanyID, CompanyName: companyName, UserID: c.UserID, Name: c.Name,
		Status: DisplayStatus(c.Status), Deleted: c.Deleted, MbCampaign: c.MbCampaign, CampaignType: CampaignTypeOf(c.MbCampaign),
		Strategy: c.Strategy, Frequency: c.Frequency, StartDate: c.StartDate, EndDate: c.EndDate, Duration: c.Duration,
		WeeklyBudget: money.Cents(c.WeeklyBudget), MaxBudget: money.Cents(c.WeeklyBudget), TotalBudget: money.Cents(c.TotalBudget),
		TotalCost: money.Cents(c.TotalCost), TotalActImp: c.TotalActImp, ImpressionCount: c.ImpressionCount,
		Markets: jsonList(c.Markets), Cities: jsonList(c.Cities), PlaceID: c.PlaceID, PlaceName: c.PlaceName,
		RadiusCheckValue: c.Radius, CreativeID: c.CreativeID, CreativeURL: c.CreativeURL, PromoCode: c.PromoCode,
		PaymentStatus: c.PaymentStatus, PaymentMessage: c.PaymentMessage, TransactionID: c.TransactionID,
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt,
	}
}

// weekDTO is a week row as the API shows it, with its creatives and proofs.
func weekDTO(w *store.Week, creatives []store.WeekCreative) Week {
	out := Week{
		ID: w.ID, CampaignID: w.CampaignID, ProductID: w.FaceID, StartAt: w.StartAt, EndAt: w.EndAt, StatusWeek: w.Status,
		OfferPrice: money.Cents(w.OfferPrice), ProductAskingPrice: money.Cents(w.AskingPrice), ProductOoh: w.Ooh,
		ActImp: w.ActImp, CreativeURL: w.CreativeURL, CreativeID: w.CreativeID, DeliverySource: deliverySource(w),
		Product: WeekProduct{LocationName: w.LocationName, Market: w.Market, City: w.City, Face: w.Face,
			Latitude: w.Lat, Longitude: w.Lng, ProductImage: w.Snapshot},
		Creatives: []WeekCreative{},
	}
	out.DeliveryDiff, out.DeliveryPct = makegood.DeliveryFigures(w.Ooh, w.ActImp)
	for _, c := range creatives {
		out.Creatives = append(out.Creatives, WeekCreative{ID: c.ID, CreativeType: c.CreativeType, URL: c.URL,
			ConvertedThumb: c.Thumb, CreatedAt: c.CreatedAt})
	}
	return out
}

// weekStatus is a week's status as the advertiser reads it, consistent with its campaign (a
// week of a pending campaign is not active). The campaign's own state comes first for
// the weeks still to end; an ended week is completed; a held week reserved; otherwise active. Nothing
// of a campaign awaiting its payment has run, so all its weeks are pending.
func weekStatus(campaignStatus string, w *store.Week, today dates.Date) string {
	switch {
	case campaignStatus == StatusPending || campaignStatus == StatusPaid || campaignStatus == StatusConflict:
		return StatusPending
	case w.EndAt.Before(today):
		return StatusCompleted
	case campaignStatus == StatusCanceled:
		return StatusCanceled
	case campaignStatus == StatusPaused:
		return StatusPaused
	case campaignStatus == StatusCompleted:
		return StatusCompleted
	case w.Status == WeekReserved:
		return WeekReserved
	}
	return WeekActive
}

// deliverySource is where the week's figure comes from; a figure recorded before sources existed
// was typed by an admin.
func deliverySource(w *store.Week) string {
	switch {
	case w.ActImp == nil:
		return ""
	case w.DeliverySource == "":
		return DeliverySourceAdmin
	}
	return w.DeliverySource
}
