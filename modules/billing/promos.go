package billing

import (
	"context"
	"strings"
	"unicode"

	"marquee/modules/billing/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/httpx"
	"marquee/platform/ids"
	"marquee/platform/money"
	"marquee/platform/pagination"
)

// promoPage is the admin promo grid's list rules (B §2: page sizes 50, 75, 100, All; filter).
var promoPage = pagination.Spec{PageSizes: []int{50, 75, 100, 0}, DefaultSize: 50,
	Sortable:    map[string]string{"created_at": "created_at", "code": "code", "value": "value", "redeem_count": "redeem_count"},
	DefaultSort: "-created_at", MaxQ: MaxPromoCodeSize}

// NormalizePromoCode checks a typed promo code (B §5: no whitespace) and returns it upper-cased:
// codes match whatever the case.
func NormalizePromoCode(code string) (string, error) {
	if code == "" {
		return "", apperr.Field("code", MsgPromoRequired)
	}
	if strings.IndexFunc(code, unicode.IsSpace) >= 0 {
		return "", apperr.Field("code", MsgPromoWhitespace)
	}
	if len(code) > MaxPromoCodeSize || strings.IndexFunc(code, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_'))
	}) >= 0 {
		return "", apperr.Field("code", MsgPromoFormat)
	}
	return strings.ToUpper(code), nil
}

// promoStatus is the status the API shows: an active promo with nothing left is exhausted.
func promoStatus(p *store.Promo) string {
	if p.Status == PromoActive && p.RedeemCount >= p.MaxCount {
		return PromoExhausted
	}
	return p.Status
}

func promoDTO(p *store.Promo) *Promo {
	return &Promo{ID: p.ID, Code: p.Code, Value: money.Cents(p.Value), Status: promoStatus(p), MaxCount: p.MaxCount,
		RedeemCount: p.RedeemCount, Remaining: max(0, p.MaxCount-p.RedeemCount), CreatedAt: p.CreatedAt}
}

// createPromo creates a promo (super admin) and answers it with its message.
func (s *service) createPromo(ctx context.Context, _ *auth.Principal, req CreatePromoRequest) (*PromoResponse, error) {
	p, err := s.CreatePromo(ctx, req)
	if err != nil {
		return nil, err
	}
	return &PromoResponse{Success: true, Message: MsgPromoCreated, Promo: p}, nil
}

// CreatePromo implements Service.
func (s *service) CreatePromo(ctx context.Context, req CreatePromoRequest) (*Promo, error) {
	code, err := NormalizePromoCode(req.Code)
	if err != nil {
		return nil, err
	}
	if req.Value <= 0 || req.Value > money.Dollars(MaxPromoDollars) {
		return nil, apperr.Field("value", MsgPromoValue)
	}
	if req.MaxCount < 1 || req.MaxCount > MaxPromoCount {
		return nil, apperr.Field("max_count", MsgPromoMaxCount)
	}
	now := s.deps.Clock.Now()
	p := &store.Promo{ID: ids.New(), Code: code, Value: int64(req.Value), Status: PromoActive, MaxCount: req.MaxCount,
		CompanyID: req.CompanyID, CreatedAt: now, UpdatedAt: now}
	err = s.store.Transact(ctx, func(ctx context.Context) error {
		if err := s.store.Create(ctx, p); err != nil {
			return err
		}
		return s.deps.Audit.Record(ctx, audit.Change{Action: AuditPromoCreate, ObjectType: "promo", ObjectID: p.ID, After: promoDTO(p)})
	})
	if err != nil {
		if db.IsDuplicate(err) {
			return nil, apperr.Field("code", MsgPromoTaken)
		}
		return nil, apperr.Internal(err)
	}
	return promoDTO(p), nil
}

func (s *service) promos(ctx context.Context, p pagination.Params) (pagination.Page[*Promo], error) {
	rows, total, err := s.store.Promos(ctx, strings.ToUpper(p.Q), p.Apply)
	if err != nil {
		return pagination.Page[*Promo]{}, apperr.Internal(err)
	}
	out := make([]*Promo, len(rows))
	for i := range rows {
		out[i] = promoDTO(&rows[i])
	}
	return pagination.Envelope(out, total, p), nil
}

// cancelPromo deactivates a promo; enablePromo reactivates it.
func (s *service) cancelPromo(ctx context.Context, _ *auth.Principal, id string) (*PromoStatusResponse, error) {
	return promoStatusAnswer(s.setPromoStatus(ctx, id, PromoCancelled))
}

func (s *service) enablePromo(ctx context.Context, _ *auth.Principal, id string) (*PromoStatusResponse, error) {
	return promoStatusAnswer(s.setPromoStatus(ctx, id, PromoActive))
}

func promoStatusAnswer(shown string, err error) (*PromoStatusResponse, error) {
	if err != nil {
		return nil, err
	}
	return &PromoStatusResponse{Success: true, Status: shown}, nil
}

// setPromoStatus cancels or enables a promo and answers the status it shows now.
func (s *service) setPromoStatus(ctx context.Context, id, status string) (string, error) {
	if !ids.Valid(id) {
		return "", apperr.NotFound(MsgPromoNotFound)
	}
	var p *store.Promo
	err := s.store.Transact(ctx, func(ctx context.Context) error {
		before, err := s.store.PromoByID(ctx, id)
		if err != nil {
			return db.Translate(err, MsgPromoNotFound, "")
		}
		found, err := s.store.SetPromoStatus(ctx, id, status, s.deps.Clock.Now())
		if err != nil {
			return apperr.Internal(err)
		}
		if !found {
			return apperr.NotFound(MsgPromoNotFound)
		}
		if p, err = s.store.PromoByID(ctx, id); err != nil {
			return apperr.Internal(err)
		}
		return s.deps.Audit.Record(ctx, audit.Change{Action: AuditPromoStatus, ObjectType: "promo", ObjectID: id,
			Before: map[string]string{"status": promoStatus(before)}, After: map[string]string{"status": promoStatus(p)}})
	})
	if err != nil {
		return "", apperr.As(err)
	}
	return promoStatus(p), nil
}

// findPromo answers GET /companies/findpromocode/{code}.
func (s *service) findPromo(ctx context.Context, code string) (*PromoLookup, error) {
	code, err := NormalizePromoCode(code)
	if err != nil {
		return nil, err
	}
	p, err := s.store.PromoByCode(ctx, code)
	if err != nil {
		return nil, db.Translate(err, MsgPromoNotFound, "")
	}
	d := promoDTO(p)
	return &PromoLookup{Code: d.Code, Value: d.Value, Status: d.Status, Remaining: d.Remaining}, nil
}

// redeem redeems a code for the caller's company (redeemPromo) and answers the credit it gave.
func (s *service) redeem(ctx context.Context, p *auth.Principal, req RedeemPromoRequest) (*RedeemPromoResponse, error) {
	amount, note, err := s.redeemPromo(ctx, p.CompanyID, req.Code)
	if err != nil {
		return nil, err
	}
	msg := MsgPromoRedeemed
	if note != "" {
		msg += " " + note
	}
	return &RedeemPromoResponse{Success: true, Message: msg, Amount: amount}, nil
}

// redeemPromo redeems a code for the company: in one transaction, a conditional update takes one of
// the promo's redemptions (so its maximum holds under concurrency), a unique row records that this
// company redeemed it (once per company), and the ledger grants the credit.
func (s *service) redeemPromo(ctx context.Context, companyID, code string) (money.Cents, string, error) {
	code, err := NormalizePromoCode(code)
	if err != nil {
		return 0, "", err
	}
	var amount money.Cents
	var note string
	err = s.store.Transact(ctx, func(ctx context.Context) error {
		p, err := s.store.PromoByCode(ctx, code)
		if err != nil {
			return db.Translate(err, MsgPromoNotFound, "")
		}
		if p.CompanyID != "" && p.CompanyID != companyID {
			return apperr.New(apperr.EFORBIDDEN, MsgPromoOtherCompany) // not transferable (DESIGN §1.13)
		}
		now := s.deps.Clock.Now()
		took, err := s.store.CountRedeem(ctx, p.ID, now)
		if err != nil {
			return err
		}
		if !took {
			if p, err = s.store.PromoByID(ctx, p.ID); err != nil {
				return err
			}
			if p.Status == PromoCancelled {
				return apperr.New(apperr.ECONFLICT, MsgPromoCancelled)
			}
			return apperr.New(apperr.ECONFLICT, MsgPromoExhausted)
		}
		credit, err := s.recordCredit(ctx, creditEntry{key: "promo:" + p.ID + ":" + companyID, companyID: companyID,
			amount: p.Value, description: "Promo code " + p.Code, promoID: p.ID})
		if err != nil {
			return err
		}
		r := &store.Redemption{ID: ids.New(), PromoID: p.ID, CompanyID: companyID, Amount: p.Value, TransactionID: credit.ID, CreatedAt: now}
		if err := s.store.Create(ctx, r); err != nil {
			return err
		}
		amount = money.Cents(p.Value)
		if s.redeemHook != nil {
			fingerprint := ""
			if card, err := s.store.CardByCompany(ctx, companyID); err == nil {
				fingerprint = card.Fingerprint
			} else if !db.IsNotFound(err) {
				return err
			}
			note, err = s.redeemHook.PromoRedeemed(ctx, Redeemed{PromoID: p.ID, Code: p.Code, CompanyID: companyID, Amount: amount,
				CardFingerprint: fingerprint})
			return err
		}
		return nil
	})
	if db.IsDuplicate(err) {
		return 0, "", apperr.New(apperr.ECONFLICT, MsgPromoAlreadyRedeemed)
	}
	if err != nil {
		return 0, "", db.Translate(err, MsgPromoNotFound, MsgPromoAlreadyRedeemed)
	}
	return amount, note, nil
}

// redemptions lists the companies that redeemed a promo, named in one call to identity.
func (s *service) redemptions(ctx context.Context, _ *auth.Principal, promoID string) ([]PromoRedemption, error) {
	if !ids.Valid(promoID) {
		return nil, apperr.NotFound(MsgPromoNotFound)
	}
	if _, err := s.store.PromoByID(ctx, promoID); err != nil {
		return nil, db.Translate(err, MsgPromoNotFound, "")
	}
	rows, err := s.store.Redemptions(ctx, promoID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	companyIDs := make([]string, len(rows))
	for i, r := range rows {
		companyIDs[i] = r.CompanyID
	}
	names, err := s.companyNames(ctx, companyIDs)
	if err != nil {
		return nil, err
	}
	out := make([]PromoRedemption, len(rows))
	for i, r := range rows {
		out[i] = PromoRedemption{CompanyID: r.CompanyID, CompanyName: names[r.CompanyID], Amount: money.Cents(r.Amount),
			RedeemedAt: r.CreatedAt, Removed: r.RemovedAt != nil}
	}
	return out, nil
}

// FindActivePromo returns the company's active promo: its latest redemption an admin has not
// removed.
func (s *service) FindActivePromo(ctx context.Context, companyID string) (*ActivePromo, error) {
	r, err := s.store.ActiveRedemption(ctx, companyID)
	if err != nil {
		return nil, db.Translate(err, MsgNoActivePromo, "")
	}
	p, err := s.store.PromoByID(ctx, r.PromoID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return &ActivePromo{ID: p.ID, Code: p.Code, Value: money.Cents(r.Amount), Redeemed: true}, nil
}

// removeActivePromo removes the company's active promo (admin): the redemption is marked removed
// and the credit it gave that is still unspent (at most the promo's amount, at most the balance)
// is taken back, in one transaction. The promo's redeem count is kept: the code was used.
func (s *service) removeActivePromo(ctx context.Context, _ *auth.Principal, companyID string) (*httpx.Success, error) {
	if !ids.Valid(companyID) {
		return nil, apperr.NotFound(MsgNoActivePromo)
	}
	err := s.store.Transact(ctx, func(ctx context.Context) error {
		r, err := s.store.ActiveRedemption(ctx, companyID)
		if err != nil {
			return db.Translate(err, MsgNoActivePromo, "")
		}
		removed, err := s.store.MarkRedemptionRemoved(ctx, r.ID, s.deps.Clock.Now())
		if err != nil {
			return err
		}
		if !removed {
			return apperr.NotFound(MsgNoActivePromo)
		}
		balances, err := s.store.CreditBalances(ctx, []string{companyID})
		if err != nil {
			return err
		}
		unspent := min(r.Amount, balances[companyID])
		if err := s.deps.Audit.Record(ctx, audit.Change{Action: AuditPromoRemove, ObjectType: "company", ObjectID: companyID,
			Before: map[string]any{"promo_id": r.PromoID, "redemption_id": r.ID, "account_credit": money.Cents(balances[companyID])},
			After:  map[string]any{"promo_id": "", "account_credit": money.Cents(balances[companyID] - max(unspent, 0))}}); err != nil {
			return err
		}
		if unspent <= 0 {
			return nil
		}
		_, err = s.recordCredit(ctx, creditEntry{key: "promo-removed:" + r.ID, companyID: companyID, amount: -unspent,
			description: "Active promo removed", promoID: r.PromoID})
		return err
	})
	if err != nil {
		return nil, err
	}
	return &httpx.Success{Success: true, Message: MsgActivePromoGone}, nil
}

// FindPromo implements Service.
func (s *service) FindPromo(ctx context.Context, code string) (*Promo, error) {
	p, err := s.store.PromoByCode(ctx, strings.ToUpper(code))
	if err != nil {
		return nil, db.Translate(err, MsgPromoNotFound, "")
	}
	return promoDTO(p), nil
}
