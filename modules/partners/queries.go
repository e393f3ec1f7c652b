package partners

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"marquee/modules/identity"
	"marquee/modules/partners/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/clock"
	"marquee/platform/dates"
	"marquee/platform/money"
	"marquee/platform/pagination"
)

// parseYear reads ?year= (B §9: from 2018 to the current year). Empty answers 0 (all time) when
// allowAll, else the current year.
func (s *service) parseYear(raw string, allowAll bool) (int, error) {
	now := s.deps.Clock.Now().In(clock.Location(s.deps.Clock)).Year()
	raw = strings.TrimSpace(raw)
	if raw == "" || (allowAll && strings.EqualFold(raw, "all")) {
		if allowAll {
			return 0, nil
		}
		return now, nil
	}
	y, err := strconv.Atoi(raw)
	if err != nil || y < FirstYear || y > now {
		return 0, apperr.Field("year", MsgYear)
	}
	return y, nil
}

// profile is the partner's hub profile, with its first user (the company's owner) or the caller.
func (s *service) profile(ctx context.Context, p *store.Partner, userID string) (*Profile, error) {
	var u *identity.User
	var err error
	if userID != "" {
		u, err = s.deps.Identity.FindUserByID(ctx, userID)
	} else {
		var first map[string]*identity.User
		first, err = s.deps.Identity.FindFirstUsers(ctx, []string{p.ID})
		u = first[p.ID]
	}
	if err != nil {
		return nil, err
	}
	rate, bonus, err := s.rateBP(ctx, p.ID, p.Type)
	if err != nil {
		return nil, err
	}
	out := &Profile{CompanyID: p.ID, Type: p.Type, Phone: p.Phone, Website: p.Website, About: p.About, PromoCode: p.PromoCode,
		Linked: p.Linked, TotalBonus: money.Cents(p.TotalBonus), RatePercent: float64(rate) / 100, CertificationBonus: bonus,
		AmbassadorRatePercent: float64(s.deps.RateAmbassadorBP) / 100, CertifiedRatePercent: float64(s.deps.RateCertifiedBP) / 100}
	if reward, err := s.unredeemedReward(ctx, p.ID); err != nil {
		return nil, err
	} else {
		out.ExamPromo = reward
	}
	if u != nil {
		out.UserID, out.FirstName, out.LastName, out.Email = u.ID, u.Local.FirstName, u.Local.LastName, u.Local.Email
		out.CompanyName, out.Certified = u.Company.Name, u.Certified
		if c, err := s.certificate(ctx, u.ID); err == nil && u.Certified {
			out.Certificate = c
		}
	}
	return out, nil
}

// updateProfile changes the partner's hub profile (PUT /api/special/hub/{userId}, PUT
// /users/ambassador).
func (s *service) updateProfile(ctx context.Context, p *store.Partner, req UpdateProfileRequest) error {
	cols := map[string]any{"updated_at": s.deps.Clock.Now()}
	fields := map[string]string{}
	set := func(name string, v *string, limit int) {
		if v == nil {
			return
		}
		s := strings.TrimSpace(*v)
		if len(s) > limit {
			fields[name] = fmt.Sprintf(MsgProfileField, limit)
			return
		}
		cols[name] = s
	}
	set("phone", req.Phone, 32)
	set("website", req.Website, 200)
	set("about", req.About, 1000)
	if w, ok := cols["website"].(string); ok && w != "" && !strings.HasPrefix(w, "http://") && !strings.HasPrefix(w, "https://") {
		fields["website"] = MsgWebsite
	}
	if len(fields) > 0 {
		return apperr.Invalid("Please check the highlighted fields.", fields)
	}
	if err := s.store.UpdatePartner(ctx, p.ID, cols); err != nil {
		return apperr.Internal(err)
	}
	return nil
}

// stats are the 12 months of a year (B §3 Monthly statistic), zero where nothing was billed.
func (s *service) stats(ctx context.Context, partnerID string, year int) ([]MonthlyStat, error) {
	rows, err := s.store.MonthlyStats(ctx, partnerID, year)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]MonthlyStat, 12)
	for i := range out {
		out[i].ID = StatID{Month: i + 1, Year: year}
	}
	for _, r := range rows {
		if r.Month >= 1 && r.Month <= 12 {
			out[r.Month-1] = MonthlyStat{ID: StatID{Month: r.Month, Year: r.Year}, CampaignCount: r.CampaignCount,
				TotalBilled: money.Cents(r.TotalBilled), TotalBonus: money.Cents(r.TotalBonus), TotalCampaign: r.TotalCampaign}
		}
	}
	return out, nil
}

// specialSpec: 0 is All (B §9: the grid offers an All page size).
var specialSpec = pagination.Spec{PageSizes: []int{10, 20, 50, 75, 100, 0}, DefaultSize: 50, DefaultSort: "-bonus",
	Sortable: map[string]string{"bonus": "total_bonus", "linked": "linked", "type": "type", "createdAt": "created_at"}}

// specialUsers is /admin/special-users: the partner companies, sorted on the running totals of
// partners_partners, each with its owner's email, name and last login.
func (s *service) specialUsers(ctx context.Context, p pagination.Params) (pagination.Page[*SpecialUser], error) {
	rows, total, err := s.store.PartnersPage(ctx, []string{identity.CompanyAmbassador, identity.CompanyCertified}, p)
	if err != nil {
		return pagination.Page[*SpecialUser]{}, apperr.Internal(err)
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	owners, err := s.deps.Identity.FindFirstUsers(ctx, ids)
	if err != nil {
		return pagination.Page[*SpecialUser]{}, err
	}
	flags, err := s.store.FlagCounts(ctx, ids)
	if err != nil {
		return pagination.Page[*SpecialUser]{}, apperr.Internal(err)
	}
	out := make([]*SpecialUser, len(rows))
	for i, r := range rows {
		su := &SpecialUser{CompanyID: r.ID, Type: r.Type, Linked: r.Linked, Bonus: money.Cents(r.TotalBonus), Flagged: flags[r.ID]}
		if u := owners[r.ID]; u != nil {
			su.UserID, su.Email, su.FullName, su.LastLogin = u.ID, u.Local.Email, fullName(u), u.LastLogin
			su.CompanyName, su.Certified = u.Company.Name, u.Certified
		}
		out[i] = su
	}
	return pagination.Envelope(out, total, p), nil
}

// MaxLinkedListed bounds the linked-companies list (the newest first): the cost of one request.
const MaxLinkedListed = 1000

// linkedCompanies is the partner's clients with their status and bonus (/invite, the
// linked-companies modal), newest first.
func (s *service) linkedCompanies(ctx context.Context, partnerID string) ([]*LinkedCompany, error) {
	links, err := s.store.LinksOf(ctx, partnerID, MaxLinkedListed)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	byClient, err := s.store.BonusByClient(ctx, partnerID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	companyIDs := make([]string, len(links))
	for i, l := range links {
		companyIDs[i] = l.ClientID
	}
	companies, err := s.deps.Identity.FindCompaniesByIDs(ctx, companyIDs)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for _, c := range companies {
		names[c.ID] = c.Name
	}
	owners, err := s.deps.Identity.FindFirstUsers(ctx, companyIDs)
	if err != nil {
		return nil, err
	}
	out := make([]*LinkedCompany, len(links))
	for i := range links {
		l := &links[i]
		status := ""
		u := owners[l.ClientID]
		if u != nil {
			status = u.Local.Status
		}
		dto := s.linkDTO(l, status)
		dto.CompanyName, dto.Bonus = names[l.ClientID], money.Cents(byClient[l.ClientID])
		if u != nil {
			dto.Email, dto.FullName = u.Local.Email, fullName(u)
		}
		out[i] = dto
	}
	return out, nil
}

// bonusList groups a partner's bonuses by month, client or campaign, largest bonus first.
func (s *service) bonusList(ctx context.Context, partnerID, kind string) ([]BonusRow, error) {
	var group string
	switch kind {
	case "", BonusByMonth:
		kind, group = BonusByMonth, store.ByMonth
	case BonusByClient:
		group = store.ByClient
	case BonusByCampaign:
		group = store.ByCampaign
	default:
		return nil, apperr.Field("type", MsgBonusType)
	}
	rows, err := s.store.BonusGroups(ctx, partnerID, group, 500)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]BonusRow, len(rows))
	var keys []string
	for i, r := range rows {
		out[i] = BonusRow{Billed: money.Cents(r.Billed), Bonus: money.Cents(r.Bonus)}
		switch kind {
		case BonusByMonth:
			out[i].Year, out[i].Month = r.Year, r.Month
			out[i].Key = fmt.Sprintf("%04d-%02d", r.Year, r.Month)
			out[i].Label = time.Month(r.Month).String() + " " + strconv.Itoa(r.Year)
		case BonusByClient:
			out[i].Key = r.ClientID
			keys = append(keys, r.ClientID)
		case BonusByCampaign:
			out[i].Key = r.CampaignRef
			keys = append(keys, r.CampaignRef)
		}
	}
	names := map[string]string{}
	switch kind {
	case BonusByClient:
		cs, err := s.deps.Identity.FindCompaniesByIDs(ctx, keys)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			names[c.ID] = c.Name
		}
	case BonusByCampaign:
		cs, err := s.deps.Campaigns.FindCampaignsByIDs(ctx, keys)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			names[c.ID] = c.Name
		}
	}
	for i := range out {
		if out[i].Label == "" {
			out[i].Label = names[out[i].Key]
		}
	}
	return out, nil
}

var codesSpec = pagination.Spec{PageSizes: []int{10, 20, 50}, DefaultSize: 10, DefaultSort: "createdAt",
	Sortable: map[string]string{"createdAt": "created_at", "amount": "amount", "linked": "linked"}}

// codes is /codes-redeemed: the redemptions of the partner's referral code (year 0: all time).
func (s *service) codes(ctx context.Context, partnerID string, year int, p pagination.Params) (pagination.Page[*CodeRedemption], error) {
	rows, total, err := s.store.RedemptionsPage(ctx, partnerID, year, p)
	if err != nil {
		return pagination.Page[*CodeRedemption]{}, apperr.Internal(err)
	}
	clientIDs := make([]string, len(rows))
	for i, r := range rows {
		clientIDs[i] = r.ClientID
	}
	names, err := s.companyNames(ctx, clientIDs)
	if err != nil {
		return pagination.Page[*CodeRedemption]{}, err
	}
	links, err := s.store.LinksOfClients(ctx, partnerID, clientIDs)
	if err != nil {
		return pagination.Page[*CodeRedemption]{}, apperr.Internal(err)
	}
	until := map[string]dates.Date{}
	for _, l := range links {
		until[l.ClientID] = l.Expiration
	}
	out := make([]*CodeRedemption, len(rows))
	for i, r := range rows {
		out[i] = &CodeRedemption{ID: r.ID, CompanyID: r.ClientID, CompanyName: names[r.ClientID], CreatedAt: r.CreatedAt,
			Amount: money.Cents(r.Amount), Linked: r.Linked}
		if d, ok := until[r.ClientID]; ok {
			d := d
			out[i].LinkedUntil = &d
		}
	}
	return pagination.Envelope(out, total, p), nil
}

// campaignsSpec: 0 is All (B §9).
var campaignsSpec = pagination.Spec{PageSizes: []int{10, 20, 50, 100, 0}, DefaultSize: 10, DefaultSort: "-created",
	// Campaign ids are UUIDv7: ordering by the id orders by the campaign's creation.
	Sortable: map[string]string{"created": "campaign_ref", "billed": "billed", "bonus": "bonus"}}

// linkedCampaigns is /campaings-linked: the linked clients' campaigns with their billed amount
// and the bonus earned on each (year 0: all time).
func (s *service) linkedCampaigns(ctx context.Context, partnerID string, year int, p pagination.Params) (pagination.Page[*LinkedCampaign], error) {
	rows, total, err := s.store.CampaignBonusPage(ctx, partnerID, year, p)
	if err != nil {
		return pagination.Page[*LinkedCampaign]{}, apperr.Internal(err)
	}
	campaignIDs, clientIDs := make([]string, len(rows)), make([]string, len(rows))
	for i, r := range rows {
		campaignIDs[i], clientIDs[i] = r.CampaignRef, r.ClientID
	}
	cs, err := s.deps.Campaigns.FindCampaignsByIDs(ctx, campaignIDs)
	if err != nil {
		return pagination.Page[*LinkedCampaign]{}, err
	}
	names, err := s.companyNames(ctx, clientIDs)
	if err != nil {
		return pagination.Page[*LinkedCampaign]{}, err
	}
	out := make([]*LinkedCampaign, len(rows))
	for i, r := range rows {
		out[i] = &LinkedCampaign{CampaignID: r.CampaignRef, CompanyID: r.ClientID, CompanyName: names[r.ClientID],
			Billed: money.Cents(r.Billed), Bonus: money.Cents(r.Bonus)}
		for _, c := range cs {
			if c.ID == r.CampaignRef {
				out[i].Name, out[i].CreatedAt = c.Name, c.CreatedAt
			}
		}
	}
	return pagination.Envelope(out, total, p), nil
}

func (s *service) companyNames(ctx context.Context, ids []string) (map[string]string, error) {
	names := map[string]string{}
	if len(ids) == 0 {
		return names, nil
	}
	cs, err := s.deps.Identity.FindCompaniesByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		names[c.ID] = c.Name
	}
	return names, nil
}

// MaxFlagsListed bounds the flagged-charges list of /admin/special-users (newest first).
const MaxFlagsListed = 500

// flaggedCharges lists the charges held for review instead of a bonus (DESIGN §1.13), newest
// first, with the partner's and the client's names.
func (s *service) flaggedCharges(ctx context.Context, _ *auth.Principal) ([]*FlaggedCharge, error) {
	rows, err := s.store.Flags(ctx, MaxFlagsListed)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	var companyIDs []string
	for _, r := range rows {
		companyIDs = append(companyIDs, r.PartnerID, r.ClientID)
	}
	names, err := s.companyNames(ctx, companyIDs)
	if err != nil {
		return nil, err
	}
	out := make([]*FlaggedCharge, len(rows))
	for i, r := range rows {
		out[i] = &FlaggedCharge{TransactionID: r.TransactionID, PartnerID: r.PartnerID, PartnerName: names[r.PartnerID],
			ClientID: r.ClientID, ClientName: names[r.ClientID], CampaignID: r.CampaignRef, Amount: money.Cents(r.Amount),
			Reason: r.Reason, CreatedAt: r.CreatedAt}
	}
	return out, nil
}
