package identity

import (
	"context"
	"strings"

	"marquee/modules/identity/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/pagination"
)

// The admin area's users and companies (B §2 "Admin area", B §4, B §6): the grids, upgrade,
// enable and disable, certification (profile.go), company updates, and the audit log. Every
// change is written to the audit log in its own transaction.

// adminPage is the admin grids' paging (B §9: admin lists 50, 75, 100, All; companies default 50).
// Sorts are the columns with an index (identity-0002), so a page never sorts the whole table.
var (
	adminUserPage = pagination.Spec{PageSizes: []int{50, 75, 100, 0}, DefaultSize: 50,
		Sortable: map[string]string{"created_at": "created_at", "last_login": "last_login", "sign_in_count": "sign_in_count",
			"email": "email", "first_name": "first_name", "last_name": "last_name", "status": "status"},
		DefaultSort: "-created_at"}
	adminCompanyPage = pagination.Spec{PageSizes: []int{50, 75, 100, 0}, DefaultSize: 50,
		Sortable:    map[string]string{"createdAt": "created_at", "name": "name_key", "status": "status", "type": "type"},
		DefaultSort: "-createdAt"}
)

// likeText lower-cases typed search text; the store matches it literally (db.HasPrefix).
func likeText(q string) string { return strings.ToLower(q) }

func oneOf(v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

// adminUsers answers the admin user grid: one query for the page, one for the total, one for the
// page's companies.
func (s *service) adminUsers(ctx context.Context, status, company string, p pagination.Params) (pagination.Page[*User], error) {
	if status != "" && !oneOf(status, StatusActive, StatusInvited, StatusDisabled) {
		return pagination.Page[*User]{}, apperr.Field("status", "Status must be active, invited or disabled.")
	}
	if company != "" && !ids.Valid(company) {
		// An id that cannot exist matches nothing, as an unknown one does.
		return pagination.Envelope([]*User{}, 0, p), nil
	}
	rows, total, err := s.store.ListUsers(ctx, store.UserFilter{Q: likeText(p.Q), Status: status, Company: company}, p.Apply)
	if err != nil {
		return pagination.Page[*User]{}, apperr.Internal(err)
	}
	companyIDs := make([]string, len(rows))
	for i := range rows {
		companyIDs[i] = rows[i].CompanyID
	}
	companies, err := s.store.CompaniesByIDs(ctx, companyIDs)
	if err != nil {
		return pagination.Page[*User]{}, apperr.Internal(err)
	}
	byID := make(map[string]*store.Company, len(companies))
	for i := range companies {
		byID[companies[i].ID] = &companies[i]
	}
	out := make([]*User, len(rows))
	for i := range rows {
		out[i] = toUser(&rows[i], byID[rows[i].CompanyID])
	}
	return pagination.Envelope(out, total, p), nil
}

// listCompanies answers a page of companies with their user counts (GET /companies).
func (s *service) listCompanies(ctx context.Context, f store.CompanyFilter, p pagination.Params) ([]*Company, int64, error) {
	if f.Status != "" && !oneOf(f.Status, StatusActive, StatusDisabled) {
		return nil, 0, apperr.Field("status", MsgCompanyStatus)
	}
	if f.Type != "" && !oneOf(f.Type, CompanyStandard, CompanyAmbassador, CompanyCertified) {
		return nil, 0, apperr.Field("type", MsgCompanyType)
	}
	f.Q = likeText(f.Q)
	rows, total, err := s.store.ListCompanies(ctx, f, p.Apply)
	if err != nil {
		return nil, 0, apperr.Internal(err)
	}
	out, err := s.companies(ctx, rows)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// adminCompanies answers the admin company grid: identity's columns, and billing's in one batch
// through the BillingReader.
func (s *service) adminCompanies(ctx context.Context, f store.CompanyFilter, p pagination.Params) (pagination.Page[*AdminCompany], error) {
	billing := s.billingReader()
	cs, total, err := s.listCompanies(ctx, f, p)
	if err != nil {
		return pagination.Page[*AdminCompany]{}, err
	}
	sums := map[string]CompanyBilling{}
	if billing != nil && len(cs) > 0 {
		companyIDs := make([]string, len(cs))
		for i, c := range cs {
			companyIDs[i] = c.ID
		}
		if sums, err = billing.CompanyBilling(ctx, companyIDs); err != nil {
			return pagination.Page[*AdminCompany]{}, apperr.As(err)
		}
	}
	out := make([]*AdminCompany, len(cs))
	for i, c := range cs {
		b := sums[c.ID]
		out[i] = &AdminCompany{Company: *c, CardOnFile: b.CardOnFile, AccountCredit: b.AccountCredit, TotalSpend: b.TotalSpend, AmountPending: b.AmountPending}
	}
	return pagination.Envelope(out, total, p), nil
}

// ChangeCompanyType implements Service: the one place a company's type changes (an admin's upgrade
// or company update; the partner program builds on it). It joins the caller's transaction, takes
// the company's lock, and publishes EventCompanyTypeChanged. With onlyFromStandard, a company that
// is already ambassador or certified is refused (B §4) with EINVALID.
func (s *service) ChangeCompanyType(ctx context.Context, companyID, to string, onlyFromStandard bool) (*Company, error) {
	if !oneOf(to, CompanyStandard, CompanyAmbassador, CompanyCertified) {
		return nil, apperr.Field("type", MsgCompanyType)
	}
	if !ids.Valid(companyID) {
		return nil, apperr.NotFound(MsgCompanyNotFound)
	}
	var out *Company
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if err := db.LockForTx(ctx, s.deps.DB, "identity.company:"+companyID); err != nil {
			return apperr.Internal(err)
		}
		c, err := s.store.CompanyByID(ctx, companyID)
		if err != nil {
			return db.Translate(err, MsgCompanyNotFound, "")
		}
		from := c.Type
		if onlyFromStandard && from != "" && from != CompanyStandard {
			return apperr.Field("type", MsgAlreadyPartner)
		}
		if from != to {
			if err := s.store.UpdateCompany(ctx, c.ID, map[string]any{"type": to, "updated_at": s.now()}); err != nil {
				return apperr.Internal(err)
			}
			actor := ""
			if p := auth.FromContext(ctx); p != nil {
				actor = p.UserID
			}
			if err := s.deps.Events.Publish(ctx, EventCompanyTypeChanged, CompanyTypeChanged{CompanyID: c.ID, From: from, To: to, ActorID: actor}); err != nil {
				return apperr.Internal(err)
			}
		}
		found, err := s.FindCompanyByID(ctx, c.ID)
		out = found
		return err
	})
	return out, err
}

// upgradeUser makes the user's company certified or ambassador (B §4, §8).
func (s *service) upgradeUser(ctx context.Context, p *auth.Principal, id string, req UpgradeUserRequest) (*UserResult, error) {
	if !oneOf(req.Type, CompanyCertified, CompanyAmbassador) {
		return nil, apperr.Field("type", MsgUpgradeType)
	}
	if !ids.Valid(id) {
		return nil, apperr.NotFound(MsgUserNotFound)
	}
	u, err := s.store.UserByID(ctx, id)
	if err != nil {
		return nil, db.Translate(err, MsgUserNotFound, "")
	}
	if err := guardSuperAdmin(p, u); err != nil {
		return nil, err
	}
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		before, err := s.FindCompanyByID(ctx, u.CompanyID)
		if err != nil {
			return err
		}
		after, err := s.ChangeCompanyType(ctx, u.CompanyID, req.Type, true)
		if err != nil {
			return err
		}
		return s.record(ctx, AuditUserUpgrade, AuditObjectUser, u.ID,
			map[string]string{"company_id": before.ID, "company_type": before.Type}, map[string]string{"company_id": after.ID, "company_type": after.Type})
	})
	return s.userResult(ctx, u.ID, MsgUserUpgraded, err)
}

// setEnabled enables or disables a user (B §4). Disabling ends every session of the user at once,
// and every moderated session they hold as an admin; sign-in is then refused with
// MsgAccountDisabled. Enabling makes the user active again, or invited when they never set a
// password. A plain admin cannot change a super admin; nobody disables themselves.
func (s *service) setEnabled(ctx context.Context, p *auth.Principal, id string, req DisableUserRequest) (*UserResult, error) {
	enable := req.Enable
	if !ids.Valid(id) {
		return nil, apperr.NotFound(MsgUserNotFound)
	}
	if id == p.UserID || (p.ModeratorID != "" && id == p.ModeratorID) {
		return nil, apperr.Field("enable", MsgCannotDisableSelf)
	}
	var status string
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		u, err := s.store.UserByID(ctx, id)
		if err != nil {
			return db.Translate(err, MsgUserNotFound, "")
		}
		if err := guardSuperAdmin(p, u); err != nil {
			return err
		}
		status = StatusDisabled
		action := AuditUserDisable
		if enable {
			action = AuditUserEnable
			status = StatusActive
			if u.PasswordHash == "" {
				status = StatusInvited
			}
		}
		if err := s.store.UpdateUser(ctx, u.ID, map[string]any{"status": status, "updated_at": s.now()}); err != nil {
			return apperr.Internal(err)
		}
		if !enable {
			if err := s.deps.Sessions.RevokeUser(ctx, u.ID, ""); err != nil {
				return apperr.Internal(err)
			}
			if err := s.deps.Sessions.RevokeModeratedBy(ctx, u.ID); err != nil {
				return apperr.Internal(err)
			}
		}
		return s.record(ctx, action, AuditObjectUser, u.ID, map[string]string{"status": u.Status}, map[string]string{"status": status})
	})
	msg := MsgUserDisabled
	if enable {
		msg = MsgUserEnabled
	}
	res, err := s.userResult(ctx, id, msg, err)
	if res != nil {
		res.Status = status
	}
	return res, err
}

// guardSuperAdmin refuses a plain admin's change to a super admin: their profile, certification,
// status or company (B §6: the super admin is above the admins).
func guardSuperAdmin(p *auth.Principal, u *store.User) error {
	if u.Role == RoleSuperAdmin && p.Role != RoleSuperAdmin {
		return apperr.New(apperr.EFORBIDDEN, MsgSuperAdminOnly)
	}
	return nil
}

// visibleCompany returns the company when p may see it: their own, or any for an admin.
func (s *service) visibleCompany(ctx context.Context, p *auth.Principal, id string) (*Company, error) {
	if !ids.Valid(id) || (!p.IsAdmin() && id != p.CompanyID) {
		return nil, apperr.NotFound(MsgCompanyNotFound)
	}
	return s.FindCompanyByID(ctx, id)
}

// updateCompany is the admin's PUT /api/companies/{id}: name (unique case-insensitively, A §5),
// type (through ChangeCompanyType) and status.
func (s *service) updateCompany(ctx context.Context, p *auth.Principal, id string, req UpdateCompanyRequest) (*CompanyResult, error) {
	if !ids.Valid(id) {
		return nil, apperr.NotFound(MsgCompanyNotFound)
	}
	fields := map[string]string{}
	cols := map[string]any{}
	if req.Name != nil {
		name := cleanCompanyName(*req.Name)
		if m := checkCompanyName(name); m != "" {
			fields["name"] = m
		} else {
			cols["name"], cols["name_key"] = name, companyNameKey(name)
		}
	}
	if req.Status != nil && !oneOf(*req.Status, StatusActive, StatusDisabled) {
		fields["status"] = MsgCompanyStatus
	} else if req.Status != nil {
		cols["status"] = *req.Status
	}
	if req.Type != nil && !oneOf(*req.Type, CompanyStandard, CompanyAmbassador, CompanyCertified) {
		fields["type"] = MsgCompanyType
	}
	if err := fieldsError(fields); err != nil {
		return nil, err
	}
	var out *Company
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		before, err := s.FindCompanyByID(ctx, id)
		if err != nil {
			return err
		}
		members, err := s.store.UsersOfCompany(ctx, id, -1) // -1: every user
		if err != nil {
			return apperr.Internal(err)
		}
		for i := range members {
			if err := guardSuperAdmin(p, &members[i]); err != nil {
				return err // a super admin's company is a super admin's to change
			}
		}
		if len(cols) > 0 {
			cols["updated_at"] = s.now()
			if err := s.store.UpdateCompany(ctx, id, cols); err != nil {
				if db.IsDuplicate(err) {
					return &apperr.Error{Code: apperr.ECONFLICT, Message: MsgCompanyTaken, Fields: map[string]string{"name": MsgCompanyTaken}}
				}
				return db.Translate(err, MsgCompanyNotFound, MsgCompanyTaken)
			}
		}
		if req.Type != nil {
			if _, err := s.ChangeCompanyType(ctx, id, *req.Type, false); err != nil {
				return err
			}
		}
		if out, err = s.FindCompanyByID(ctx, id); err != nil {
			return err
		}
		if before.Status == StatusActive && out.Status == StatusDisabled {
			// Disabling a company ends its users' sessions (and those they moderate); enabling it
			// again restores access, not the sessions. Sign-in, the session loader
			// and API keys refuse a disabled company; webhooks hold its deliveries.
			userIDs := make([]string, len(members))
			for i := range members {
				userIDs[i] = members[i].ID
			}
			if err := s.deps.Sessions.RevokeUsers(ctx, userIDs); err != nil {
				return apperr.Internal(err)
			}
		}
		return s.record(ctx, AuditCompanyUpdate, AuditObjectCompany, id, before, out)
	})
	if err != nil {
		return nil, err
	}
	return &CompanyResult{Success: true, Message: MsgCompanyUpdated, Company: out}, nil
}

// nameAuditEntries fills in the names of a page of audit entries: the actor's and the moderator's,
// and the object's for users and companies (the log answers "who", and shows objects by
// name). Two queries whatever the page size.
func (s *service) nameAuditEntries(ctx context.Context, entries []audit.Entry) error {
	var userIDs, companyIDs []string
	for _, e := range entries {
		userIDs = append(userIDs, e.ActorID, e.ModeratorID)
		switch e.ObjectType {
		case AuditObjectUser:
			userIDs = append(userIDs, e.ObjectID)
		case AuditObjectCompany:
			companyIDs = append(companyIDs, e.ObjectID)
		}
	}
	valid := func(in []string) []string {
		out := make([]string, 0, len(in))
		for _, id := range in {
			if ids.Valid(id) {
				out = append(out, id)
			}
		}
		return out
	}
	users, err := s.store.UsersByIDs(ctx, valid(userIDs))
	if err != nil {
		return apperr.Internal(err)
	}
	companies, err := s.store.CompaniesByIDs(ctx, valid(companyIDs))
	if err != nil {
		return apperr.Internal(err)
	}
	byID := make(map[string]*store.User, len(users))
	for i := range users {
		byID[users[i].ID] = &users[i]
	}
	companyName := make(map[string]string, len(companies))
	for _, co := range companies {
		companyName[co.ID] = co.Name
	}
	for i := range entries {
		e := &entries[i]
		if u := byID[e.ActorID]; u != nil {
			e.ActorName = fullName(u)
		}
		if u := byID[e.ModeratorID]; u != nil {
			e.ModeratorEmail, e.ModeratorName = u.Email, fullName(u)
		}
		switch e.ObjectType {
		case AuditObjectUser:
			if u := byID[e.ObjectID]; u != nil {
				e.ObjectName = fullName(u)
			}
		case AuditObjectCompany:
			if n := companyName[e.ObjectID]; n != "" {
				e.ObjectName = n
			}
		}
	}
	return nil
}
