package identity

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"marquee/modules/identity/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
)

// The profile (B §2 "Settings and profile"): a user reads and updates themselves, an admin anyone
// (another user's id answers 404 to a non-admin, so ids cannot be probed). The company's team list
// and the team invite of B §5.

// usStates are the US state codes and DC (B §9: "the list of US state codes, including DC").
var usStates = map[string]bool{}

func init() {
	for _, s := range strings.Fields(`AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE
		NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY`) {
		usStates[s] = true
	}
}

var zipRE = regexp.MustCompile(`^[0-9]{5}(-[0-9]{4})?$`)

// maxAddressLen bounds an address line or a city.
const maxAddressLen = 100

func checkAddressLine(s string) string {
	if utf8.RuneCountInString(s) > maxAddressLen || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return MsgInvalidAddress
	}
	return ""
}

func checkState(s string) string {
	if s != "" && !usStates[s] {
		return MsgInvalidState
	}
	return ""
}

func checkZip(s string) string {
	if s != "" && !zipRE.MatchString(s) {
		return MsgInvalidZip
	}
	return ""
}

// profileColumns checks the profile fields of req and returns the columns to set.
func profileColumns(req UpdateUserRequest) (map[string]any, error) {
	fields := map[string]string{}
	cols := map[string]any{}
	type rule struct {
		field, column string
		v             *string
		clean         func(string) string
		check         func(string) string
	}
	trim := strings.TrimSpace
	upper := func(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }
	for _, r := range []rule{
		{"first_name", "first_name", req.FirstName, trim, checkName},
		{"last_name", "last_name", req.LastName, trim, checkName},
		{"phone", "phone", req.Phone, cleanPhone, checkPhone},
		{"address", "address", req.Address, trim, checkAddressLine},
		{"sub_address", "sub_address", req.SubAddress, trim, checkAddressLine},
		{"address_city", "address_city", req.AddressCity, trim, checkAddressLine},
		{"address_state", "address_state", req.AddressState, upper, checkState},
		{"address_zipcode", "address_zipcode", req.AddressZipcode, trim, checkZip},
		{"billing_address", "billing_address", req.BillingAddress, trim, checkAddressLine},
		{"sub_billing_address", "sub_billing_address", req.SubBillingAddress, trim, checkAddressLine},
		{"billing_city", "billing_city", req.BillingCity, trim, checkAddressLine},
		{"billing_state", "billing_state", req.BillingState, upper, checkState},
		{"billing_zipcode", "billing_zipcode", req.BillingZipcode, trim, checkZip},
	} {
		if r.v == nil {
			continue
		}
		v := r.clean(*r.v)
		if m := r.check(v); m != "" {
			fields[r.field] = m
			continue
		}
		cols[r.column] = v
	}
	return cols, fieldsError(fields)
}

// getUser answers GET /api/users/:id: the user, when p may see them.
func (s *service) getUser(ctx context.Context, p *auth.Principal, id string) (*User, error) {
	u, err := s.visibleUser(ctx, p, id)
	if err != nil {
		return nil, err
	}
	return s.FindUserByID(ctx, u.ID)
}

// visibleUser returns the user row when p may see it: themselves, or anyone for an admin.
func (s *service) visibleUser(ctx context.Context, p *auth.Principal, id string) (*store.User, error) {
	if !ids.Valid(id) || (!p.IsAdmin() && id != p.UserID) {
		return nil, apperr.NotFound(MsgUserNotFound)
	}
	u, err := s.store.UserByID(ctx, id)
	if err != nil {
		return nil, db.Translate(err, MsgUserNotFound, "")
	}
	return u, nil
}

// auditing reports whether a change by p to a user or company is an admin change for the audit
// log: an admin changing someone else, or anything done in a moderated session.
func auditing(p *auth.Principal, ownID string) bool {
	return p.ModeratorID != "" || (p.IsAdmin() && ownID != p.UserID)
}

// updateUser is PUT /api/users/{id}: the profile fields, or the admin's certification toggle.
func (s *service) updateUser(ctx context.Context, p *auth.Principal, id string, req UpdateUserRequest) (*UserResult, error) {
	u, err := s.visibleUser(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if err := guardSuperAdmin(p, u); err != nil {
		return nil, err
	}
	if req.Certified != nil {
		return s.setCertified(ctx, p, u, *req.Certified, req)
	}
	cols, err := profileColumns(req)
	if err != nil {
		return nil, err
	}
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if len(cols) == 0 {
			return nil
		}
		before, _ := s.FindUserByID(ctx, u.ID)
		cols["updated_at"] = s.now()
		if err := s.store.UpdateUser(ctx, u.ID, cols); err != nil {
			return db.Translate(err, MsgUserNotFound, "")
		}
		if !auditing(p, u.ID) {
			return nil
		}
		after, err := s.FindUserByID(ctx, u.ID)
		if err != nil {
			return err
		}
		return s.record(ctx, AuditUserUpdate, AuditObjectUser, u.ID, before.Local, after.Local)
	})
	return s.userResult(ctx, u.ID, MsgUserUpdated, err)
}

// userResult answers a change to a user: its message and the user as they are now; or err, the
// change's error.
func (s *service) userResult(ctx context.Context, id, msg string, err error) (*UserResult, error) {
	if err != nil {
		return nil, err
	}
	out, err := s.FindUserByID(ctx, id)
	if err != nil {
		return nil, err
	}
	return &UserResult{Success: true, Message: msg, User: out}, nil
}

// setCertified is the admin's certification toggle (B §4, §8).
func (s *service) setCertified(ctx context.Context, p *auth.Principal, u *store.User, on bool, req UpdateUserRequest) (*UserResult, error) {
	if !p.IsAdmin() {
		return nil, apperr.New(apperr.EFORBIDDEN, MsgCertificationAdmin)
	}
	req.Certified = nil
	if req != (UpdateUserRequest{}) {
		return nil, apperr.Field("certified", MsgCertificationAlone)
	}
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if err := s.store.UpdateUser(ctx, u.ID, map[string]any{"certified": on, "updated_at": s.now()}); err != nil {
			return db.Translate(err, MsgUserNotFound, "")
		}
		return s.record(ctx, AuditUserCertify, AuditObjectUser, u.ID, map[string]bool{"certified": u.Certified}, map[string]bool{"certified": on})
	})
	msg := MsgCertificationOff
	if on {
		msg = MsgCertificationOn
	}
	return s.userResult(ctx, u.ID, msg, err)
}

// record writes an audit entry in the caller's transaction.
func (s *service) record(ctx context.Context, action, objectType, objectID string, before, after any) error {
	if err := s.deps.Audit.Record(ctx, audit.Change{Action: action, ObjectType: objectType, ObjectID: objectID, Before: before, After: after}); err != nil {
		return apperr.Internal(err)
	}
	return nil
}

// maxTeam bounds the team list (a company has a handful of users; the bound keeps one call cheap).
const maxTeam = 500

// teamMembers lists the users of the caller's company (B §2 /profile "team members list").
func (s *service) teamMembers(ctx context.Context, p *auth.Principal) ([]*User, error) {
	rows, err := s.store.UsersOfCompany(ctx, p.CompanyID, maxTeam)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	c, err := s.store.CompanyByID(ctx, p.CompanyID)
	if err != nil {
		return nil, db.Translate(err, MsgCompanyNotFound, "")
	}
	out := make([]*User, len(rows))
	for i := range rows {
		out[i] = toUser(&rows[i], c)
	}
	return out, nil
}

// invitee is a checked row of the invite form.
type invitee struct {
	first, last, email string
}

// splitName splits a full name into first name and the rest (B §5: a single word has no last name).
func splitName(name string) (string, string) {
	parts := strings.Fields(name)
	if len(parts) == 0 {
		return "", ""
	}
	return parts[0], strings.Join(parts[1:], " ")
}

// checkInvitees applies B §5 to every row, and refuses emails that already have an account.
// Field keys are new_member.{i}.name and new_member.{i}.email.
func (s *service) checkInvitees(ctx context.Context, p *auth.Principal, req InviteRequest) ([]invitee, error) {
	if req.User != "" && req.User != p.UserID {
		return nil, apperr.Field("user", MsgUserNotFound)
	}
	if len(req.NewMember) == 0 {
		return nil, apperr.Field("new_member", MsgNoInvitees)
	}
	if len(req.NewMember) > MaxInvitees {
		return nil, apperr.Field("new_member", MsgTooManyInvitees)
	}
	fields := map[string]string{}
	out := make([]invitee, len(req.NewMember))
	seen := map[string]bool{}
	for i, m := range req.NewMember {
		key := "new_member." + strconv.Itoa(i) + "."
		name := strings.Join(strings.Fields(m.Name), " ")
		first, last := splitName(name)
		switch {
		case name == "":
			fields[key+"name"] = MsgRequired
		case last == "":
			fields[key+"name"] = MsgLastNameBlank
		case checkName(first) != "" || checkName(last) != "":
			fields[key+"name"] = MsgInvalidName
		}
		email := normalizeEmail(m.Email)
		switch {
		case email == "":
			fields[key+"email"] = MsgRequired
		case checkEmail(email) != "":
			fields[key+"email"] = MsgNotValidEmail
		case seen[email]:
			fields[key+"email"] = MsgEmailAlreadyExist
		}
		seen[email] = true
		out[i] = invitee{first: first, last: last, email: email}
	}
	if len(fields) == 0 {
		emails := make([]string, len(out))
		for i, v := range out {
			emails[i] = v.email
		}
		existing, err := s.store.UsersByEmails(ctx, emails)
		if err != nil {
			return nil, apperr.Internal(err)
		}
		byEmail := map[string]*store.User{}
		for i := range existing {
			byEmail[existing[i].Email] = &existing[i]
		}
		for i, v := range out {
			if u := byEmail[v.email]; u != nil {
				if u.CompanyID == p.CompanyID {
					fields["new_member."+strconv.Itoa(i)+".email"] = MsgEmailHasAccount
				} else {
					fields["new_member."+strconv.Itoa(i)+".email"] = MsgEmailOtherCompany
				}
			}
		}
	}
	if len(fields) > 0 {
		return nil, apperr.Invalid("Please correct the highlighted fields.", fields)
	}
	return out, nil
}

// inviteTeam invites several team members at once (B §5): every invitee becomes an invited user
// of the caller's company with the user role, with a single-use /access link mailed to them, all
// in one transaction: a failure for any of them creates none.
func (s *service) inviteTeam(ctx context.Context, p *auth.Principal, req InviteRequest) (*InviteResponse, error) {
	list, err := s.checkInvitees(ctx, p, req)
	if err != nil {
		return nil, err
	}
	for _, v := range list {
		if err := s.limitInvite(ctx, p.CompanyID, v.email); err != nil {
			return nil, err
		}
	}
	var created []string
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		company, inviter, err := s.invitedBy(ctx, p)
		if err != nil {
			return err
		}
		now := s.now()
		for i, v := range list {
			u := &store.User{ID: ids.New(), CompanyID: company.ID, Email: v.email, FirstName: v.first, LastName: v.last,
				Role: RoleUser, Status: StatusInvited, TourCampaignShow: true, CreatedAt: now, UpdatedAt: now}
			if err := s.store.CreateUser(ctx, u); err != nil {
				if db.IsDuplicate(err) { // invited or signed up meanwhile
					return apperr.Invalid(MsgEmailHasAccount, map[string]string{"new_member." + strconv.Itoa(i) + ".email": MsgEmailHasAccount})
				}
				return apperr.Internal(err)
			}
			token, err := s.issueToken(ctx, u.ID, store.PurposeAccess, s.deps.AccessTokenTTL)
			if err != nil {
				return err
			}
			// The invitation stands even when its email cannot be queued; a resend mails it again (DESIGN §1.14).
			db.Notify(ctx, s.deps.DB, "mail: team invitation", func(ctx context.Context) error {
				return s.deps.Outbox.Enqueue(ctx, inviteMail(u.Email, inviterName(inviter), company.Name, s.link("/access", token), s.deps.AccessTokenTTL))
			})
			created = append(created, u.ID)
		}
		if p.ModeratorID == "" {
			return nil
		}
		// Invites sent by an admin acting as the user are an admin change (DESIGN.md §1.12).
		emails := make([]string, len(list))
		for i, v := range list {
			emails[i] = v.email
		}
		return s.record(ctx, AuditTeamInvite, AuditObjectCompany, company.ID, nil, map[string]any{"invited": emails})
	})
	if err != nil {
		return nil, err
	}
	users, err := s.FindUsersByIDs(ctx, created)
	if err != nil {
		return nil, err
	}
	return &InviteResponse{Success: true, Message: MsgInvitesSent, Users: users}, nil
}

// inviterName is the inviter's name, or "" when they have not given one (a self-registered user):
// the invitation is then worded without it.
func inviterName(u *store.User) string { return strings.TrimSpace(u.FirstName + " " + u.LastName) }

func fullName(u *store.User) string {
	if n := strings.TrimSpace(u.FirstName + " " + u.LastName); n != "" {
		return n
	}
	return u.Email
}
