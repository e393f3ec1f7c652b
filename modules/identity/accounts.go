package identity

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"marquee/modules/identity/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/ratelimit"
)

// service implements Service: accounts (sign-up, sign-in, passwords, tokens), profiles, teams,
// the admin area and moderation. API keys are its keys helper.
type service struct {
	deps  Deps
	store *store.Store
	keys  *keys
	// Invitations and resends, per company (each invitee counts) and per recipient: no bulk mail.
	inviteLimit, inviteeLimit ratelimit.Counter
	// Set once billing is built (Module.SetCreditReader, SetBillingReader); nil until then.
	credit  atomic.Pointer[CreditReader]
	billing atomic.Pointer[BillingReader]
}

func (s *service) creditReader() CreditReader {
	if p := s.credit.Load(); p != nil {
		return *p
	}
	return nil
}

func (s *service) billingReader() BillingReader {
	if p := s.billing.Load(); p != nil {
		return *p
	}
	return nil
}

// currentUser answers GET /users/currentUser: the signed-in user, and who moderates the session.
func (s *service) currentUser(ctx context.Context, p *auth.Principal) (*CurrentUser, error) {
	u, err := s.FindUserByID(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	mod, err := s.moderator(ctx, p)
	if err != nil {
		return nil, err
	}
	return &CurrentUser{User: *u, Moderator: mod}, nil
}

// currentCompany answers GET /companies/currentCompany: the user's company with its account
// credit (0 while no credit reader is set).
func (s *service) currentCompany(ctx context.Context, p *auth.Principal) (*CurrentCompany, error) {
	co, err := s.FindCompanyByID(ctx, p.CompanyID)
	if err != nil {
		return nil, err
	}
	res := &CurrentCompany{Company: *co}
	if r := s.creditReader(); r != nil {
		if res.AccountCredit, err = r.AccountCredit(ctx, co.ID); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func (s *service) now() time.Time { return s.deps.Clock.Now() }

// answered is the answer of a step that returns only an error: its success message, or the error.
func answered(msg string, err error) (*MessageResponse, error) {
	if err != nil {
		return nil, err
	}
	return &MessageResponse{Success: true, Message: msg}, nil
}

// signUp creates the company and its first user in one transaction, and the session that signs
// them in. A duplicate company or email, even from a concurrent sign-up, leaves nothing behind.
func (s *service) signUp(ctx context.Context, req SignUpRequest, ip, userAgent string) (*User, string, error) {
	if err := validateSignUp(&req); err != nil {
		return nil, "", err
	}
	if err := s.checkSignUpFree(ctx, req); err != nil {
		return nil, "", err
	}
	// Hash before the transaction: it is the slow part and needs no lock.
	hash, err := s.deps.Hasher.Hash(ctx, req.Password)
	if err != nil {
		return nil, "", apperr.Internal(err)
	}
	var user *User
	var token string
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		now := s.now()
		company := &store.Company{ID: ids.New(), Name: req.Company, NameKey: companyNameKey(req.Company), Type: CompanyStandard,
			Status: StatusActive, CreatedAt: now, UpdatedAt: now}
		if err := s.store.CreateCompany(ctx, company); err != nil {
			return db.Translate(err, "", MsgCompanyTaken)
		}
		u := &store.User{ID: ids.New(), CompanyID: company.ID, Email: req.Email, PasswordHash: hash, Phone: req.Phone,
			Role: RoleUser, Status: StatusActive, TourCampaignShow: true, SendPhoneZoho: req.SendPhoneZoho,
			SignInCount: 0, LastLogin: &now, CreatedAt: now, UpdatedAt: now}
		if err := s.store.CreateUser(ctx, u); err != nil {
			return db.Translate(err, "", MsgEmailTaken)
		}
		if req.Phone != "" {
			if err := s.deps.Events.Publish(ctx, EventPhoneConsent, PhoneConsent{UserID: u.ID, Company: company.Name,
				Email: u.Email, Phone: u.Phone, Consent: req.SendPhoneZoho}); err != nil {
				return apperr.Internal(err)
			}
		}
		db.Notify(ctx, s.deps.DB, "mail: welcome", func(ctx context.Context) error { // DESIGN §1.14
			return s.deps.Outbox.Enqueue(ctx, welcomeMail(u.Email, company.Name, s.deps.BaseURL))
		})
		t, err := s.deps.Sessions.Create(ctx, u.ID, ip, userAgent)
		if err != nil {
			return apperr.Internal(err)
		}
		token = t
		user = toUser(u, company)
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	return user, token, nil
}

// checkSignUpFree refuses a company name or an email that is already registered before any password
// is hashed, so a sign-up with a known email costs a lookup, not an argon2 hash.
// The unique indexes still decide between concurrent sign-ups.
func (s *service) checkSignUpFree(ctx context.Context, req SignUpRequest) error {
	if _, err := s.store.CompanyByNameKey(ctx, companyNameKey(req.Company)); err == nil {
		return apperr.New(apperr.ECONFLICT, MsgCompanyTaken)
	} else if !db.IsNotFound(err) {
		return apperr.Internal(err)
	}
	if _, err := s.store.UserByEmail(ctx, req.Email); err == nil {
		return apperr.New(apperr.ECONFLICT, MsgEmailTaken)
	} else if !db.IsNotFound(err) {
		return apperr.Internal(err)
	}
	return nil
}

// personalWords are the account's own words a password must not be made of: its email and its
// company's name (checkPassword). A lookup that fails gives none; the write that follows fails too.
func (s *service) personalWords(ctx context.Context, u *store.User) []string {
	words := []string{u.Email}
	if c, err := s.store.CompanyByID(ctx, u.CompanyID); err == nil {
		words = append(words, c.Name)
	}
	return words
}

// signIn checks the credentials and starts a new session. Unknown email and wrong password give
// the same answer in the same time.
func (s *service) signIn(ctx context.Context, req SignInRequest, ip, userAgent string) (*User, string, error) {
	email := normalizeEmail(req.Email)
	if email == "" || req.Password == "" || len(req.Password) > 4*MaxPasswordLength {
		return nil, "", apperr.New(apperr.EUNAUTHORIZED, MsgInvalidCredentials)
	}
	u, err := s.store.UserByEmail(ctx, email)
	if db.IsNotFound(err) {
		s.deps.Hasher.Burn(ctx, req.Password)
		return nil, "", apperr.New(apperr.EUNAUTHORIZED, MsgInvalidCredentials)
	}
	if err != nil {
		return nil, "", apperr.Internal(err)
	}
	if u.PasswordHash == "" { // invited, password never set
		s.deps.Hasher.Burn(ctx, req.Password)
		return nil, "", apperr.New(apperr.EUNAUTHORIZED, MsgInvalidCredentials)
	}
	ok, rehash, err := s.deps.Hasher.Verify(ctx, req.Password, u.PasswordHash)
	if err != nil {
		return nil, "", apperr.Internal(err)
	}
	if !ok {
		return nil, "", apperr.New(apperr.EUNAUTHORIZED, MsgInvalidCredentials)
	}
	if u.Status == StatusDisabled {
		return nil, "", apperr.New(apperr.EFORBIDDEN, MsgAccountDisabled)
	}
	if co, err := s.store.CompanyByID(ctx, u.CompanyID); err != nil {
		return nil, "", apperr.Internal(err)
	} else if co.Status != StatusActive {
		return nil, "", apperr.New(apperr.EFORBIDDEN, MsgCompanyDisabled)
	}
	now := s.now()
	var token string
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if err := s.store.RecordSignIn(ctx, u.ID, now); err != nil {
			return apperr.Internal(err)
		}
		if rehash {
			if h, err := s.deps.Hasher.Hash(ctx, req.Password); err == nil {
				_ = s.store.UpdateUser(ctx, u.ID, map[string]any{"password_hash": h})
			}
		}
		t, err := s.deps.Sessions.Create(ctx, u.ID, ip, userAgent)
		token = t
		return err
	})
	if err != nil {
		return nil, "", apperr.As(err)
	}
	signedIn, err := s.FindUserByID(ctx, u.ID)
	return signedIn, token, err
}

// requestReset mails a single-use reset link to a known, active account. It answers the same
// whether or not the email is known, so the form cannot be used to find accounts.
func (s *service) requestReset(ctx context.Context, email string) error {
	email = normalizeEmail(email)
	if checkEmail(email) != "" {
		return apperr.Field("email", MsgInvalidEmail)
	}
	u, err := s.store.UserByEmail(ctx, email)
	if db.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return apperr.Internal(err)
	}
	if u.Status == StatusDisabled {
		return nil
	}
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		now := s.now()
		if err := s.store.RetireTokens(ctx, u.ID, store.PurposeReset, now); err != nil {
			return apperr.Internal(err)
		}
		token, err := s.issueToken(ctx, u.ID, store.PurposeReset, s.deps.ResetTokenTTL)
		if err != nil {
			return err
		}
		return s.deps.Outbox.Enqueue(ctx, resetMail(u.Email, s.link("/reset-password", token), s.deps.ResetTokenTTL))
	})
}

func (s *service) link(path, token string) string {
	return strings.TrimRight(s.deps.BaseURL, "/") + path + "?token=" + token
}

func (s *service) issueToken(ctx context.Context, userID, purpose string, ttl time.Duration) (string, error) {
	token := ids.Token()
	now := s.now()
	t := &store.Token{ID: ids.New(), UserID: userID, Purpose: purpose, TokenHash: auth.HashToken(token), ExpiresAt: now.Add(ttl), CreatedAt: now}
	if err := s.store.CreateToken(ctx, t); err != nil {
		return "", apperr.Internal(err)
	}
	return token, nil
}

var errBadToken = apperr.Field("token", MsgTokenInvalid)

// tokenInfo returns the account a live token belongs to, without using it.
func (s *service) tokenInfo(ctx context.Context, token, purpose string) (*TokenInfoResponse, error) {
	if token == "" || len(token) > 128 {
		return nil, errBadToken
	}
	t, err := s.store.LiveToken(ctx, auth.HashToken(token), purpose, s.now())
	if db.IsNotFound(err) {
		return nil, errBadToken
	}
	if err != nil {
		return nil, apperr.Internal(err)
	}
	u, err := s.store.UserByID(ctx, t.UserID)
	if err != nil {
		return nil, db.Translate(err, MsgTokenInvalid, "")
	}
	c, err := s.store.CompanyByID(ctx, u.CompanyID)
	if err != nil {
		return nil, db.Translate(err, MsgTokenInvalid, "")
	}
	return &TokenInfoResponse{Success: true, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName, CompanyName: c.Name}, nil
}

// resetPassword sets a new password with a reset link and ends every session of the user.
func (s *service) resetPassword(ctx context.Context, req SetPasswordRequest) error {
	req.FirstName, req.LastName = "", "" // a reset changes only the password
	return s.usePasswordToken(ctx, req, store.PurposeReset, nil)
}

// setFirstPassword sets up an invited account from its access link: the password, the names, and
// a session that signs the person in, all in one transaction. Returns the user and the session
// token.
func (s *service) setFirstPassword(ctx context.Context, req SetPasswordRequest, ip, userAgent string) (*User, string, error) {
	var userID, token string
	err := s.usePasswordToken(ctx, req, store.PurposeAccess, func(ctx context.Context, id string) error {
		t, err := s.deps.Sessions.Create(ctx, id, ip, userAgent)
		userID, token = id, t
		return err
	})
	if err != nil {
		return nil, "", apperr.As(err).WithMessage(MsgAccessFailed)
	}
	u, err := s.FindUserByID(ctx, userID)
	return u, token, err
}

// usePasswordToken sets a new password with a single-use token of purpose, ends every session of
// the user, activates an invited account, fills in the names (access links only), then runs then,
// when given, in the same transaction. The token is used in that transaction too: a replay, even a
// concurrent one, changes nothing.
func (s *service) usePasswordToken(ctx context.Context, req SetPasswordRequest, purpose string, then func(ctx context.Context, userID string) error) error {
	fields := map[string]string{}
	var personal []string
	if req.Token != "" && len(req.Token) <= 128 {
		// The token's account, read without using the token, for the password rule; the token is
		// used in the transaction below.
		if t, err := s.store.LiveToken(ctx, auth.HashToken(req.Token), purpose, s.now()); err == nil {
			if u, err := s.store.UserByID(ctx, t.UserID); err == nil {
				personal = s.personalWords(ctx, u)
			}
		}
	}
	if m := checkPassword(req.Password, personal...); m != "" {
		fields["password"] = m
	}
	req.FirstName, req.LastName = strings.TrimSpace(req.FirstName), strings.TrimSpace(req.LastName)
	if purpose == store.PurposeAccess {
		if m := checkName(req.FirstName); m != "" {
			fields["first_name"] = m
		}
		if m := checkName(req.LastName); m != "" {
			fields["last_name"] = m
		}
	}
	if req.Token == "" || len(req.Token) > 128 {
		fields["token"] = MsgTokenInvalid
	}
	if len(fields) > 0 {
		return apperr.Invalid(MsgPasswordResetFailed, fields)
	}
	hash, err := s.deps.Hasher.Hash(ctx, req.Password)
	if err != nil {
		return apperr.Internal(err)
	}
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		now := s.now()
		t, err := s.store.UseToken(ctx, auth.HashToken(req.Token), purpose, now)
		if db.IsNotFound(err) {
			return apperr.Invalid(MsgPasswordResetFailed, map[string]string{"token": MsgTokenInvalid})
		}
		if err != nil {
			return apperr.Internal(err)
		}
		cols := map[string]any{"password_hash": hash, "updated_at": now}
		if purpose == store.PurposeAccess {
			if req.FirstName != "" {
				cols["first_name"] = req.FirstName
			}
			if req.LastName != "" {
				cols["last_name"] = req.LastName
			}
		}
		if err := s.store.UpdateUser(ctx, t.UserID, cols); err != nil {
			return db.Translate(err, MsgTokenInvalid, "")
		}
		// Either link proves the person reads the account's mail: an invited account becomes
		// active. A disabled one stays disabled.
		if err := s.store.ActivateInvited(ctx, t.UserID, now); err != nil {
			return apperr.Internal(err)
		}
		if err := s.deps.Sessions.RevokeUser(ctx, t.UserID, ""); err != nil {
			return apperr.Internal(err)
		}
		if then != nil {
			if err := then(ctx, t.UserID); err != nil {
				return apperr.As(err)
			}
		}
		return nil
	})
}

// changePassword replaces the signed-in user's password after checking the current one, and ends
// their other sessions.
func (s *service) changePassword(ctx context.Context, p *auth.Principal, req ChangePasswordRequest) (*MessageResponse, error) {
	if err := auth.RefuseModerated(p); err != nil { // an admin acting as the user does not set their password
		return nil, err
	}
	u, err := s.store.UserByID(ctx, p.UserID)
	if err != nil {
		return nil, db.Translate(err, "User not found.", "")
	}
	if m := checkPassword(req.Password, s.personalWords(ctx, u)...); m != "" {
		return nil, apperr.Field("password", m)
	}
	ok, _, err := s.deps.Hasher.Verify(ctx, req.CurrentPassword, u.PasswordHash)
	if err != nil || !ok {
		return nil, apperr.Field("current_password", MsgCurrentPassword)
	}
	hash, err := s.deps.Hasher.Hash(ctx, req.Password)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return answered(MsgPasswordChanged, db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if err := s.store.UpdateUser(ctx, u.ID, map[string]any{"password_hash": hash, "updated_at": s.now()}); err != nil {
			return apperr.Internal(err)
		}
		if err := s.deps.Sessions.RevokeUser(ctx, u.ID, p.SessionID); err != nil {
			return apperr.Internal(err)
		}
		db.Notify(ctx, s.deps.DB, "mail: password changed", func(ctx context.Context) error { // DESIGN §1.14
			return s.deps.Outbox.Enqueue(ctx, passwordChangedMail(u.Email))
		})
		return nil
	}))
}

// disableTour stops showing the tour; enableTour shows it again.
func (s *service) disableTour(ctx context.Context, p *auth.Principal) (*TourResponse, error) {
	off := false
	return s.setTourFlags(ctx, p.UserID, &off, nil)
}

func (s *service) enableTour(ctx context.Context, p *auth.Principal) (*TourResponse, error) {
	on := true
	return s.setTourFlags(ctx, p.UserID, &on, nil)
}

// setTourFlags updates the tour flags (nil leaves one as it is) and returns them.
func (s *service) setTourFlags(ctx context.Context, userID string, tour, tutorialShowed *bool) (*TourResponse, error) {
	cols := map[string]any{"updated_at": s.now()}
	if tour != nil {
		cols["tour_campaign_show"] = *tour
	}
	if tutorialShowed != nil {
		cols["tutorial_campaign_showed"] = *tutorialShowed
	}
	if err := s.store.UpdateUser(ctx, userID, cols); err != nil {
		return nil, db.Translate(err, "User not found.", "")
	}
	u, err := s.store.UserByID(ctx, userID)
	if err != nil {
		return nil, db.Translate(err, "User not found.", "")
	}
	return &TourResponse{TourCampaignShow: u.TourCampaignShow, TutorialCampaignShowed: u.TutorialCampaignShowed}, nil
}

// requestTourCall records that the user wants a call for a free dashboard tour (B §8's default
// confirm): their phone consent is set and handed to the CRM through the same event as the sign-up
// consent (DESIGN §1.8), in one transaction. A user without a phone number is asked for one.
func (s *service) requestTourCall(ctx context.Context, p *auth.Principal) (*MessageResponse, error) {
	return answered(MsgTourCallRequested, db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		u, err := s.store.UserByID(ctx, p.UserID)
		if err != nil {
			return db.Translate(err, "User not found.", "")
		}
		if strings.TrimSpace(u.Phone) == "" {
			return apperr.Field("phone", MsgTourCallNeedsPhone)
		}
		company, err := s.store.CompanyByID(ctx, u.CompanyID)
		if err != nil {
			return db.Translate(err, "Company not found.", "")
		}
		if err := s.store.UpdateUser(ctx, u.ID, map[string]any{"send_phone_zoho": true, "updated_at": s.now()}); err != nil {
			return db.Translate(err, "User not found.", "")
		}
		if err := s.deps.Events.Publish(ctx, EventPhoneConsent, PhoneConsent{UserID: u.ID, Company: company.Name,
			Email: u.Email, Phone: u.Phone, Consent: true}); err != nil {
			return apperr.Internal(err)
		}
		return nil
	}))
}

// checkTutorial answers whether the tutorial video was already shown, and records that it has
// been: the video modal shows automatically once (A §2).
func (s *service) checkTutorial(ctx context.Context, p *auth.Principal) (*TourResponse, error) {
	u, err := s.store.UserByID(ctx, p.UserID)
	if err != nil {
		return nil, db.Translate(err, "User not found.", "")
	}
	before := &TourResponse{TourCampaignShow: u.TourCampaignShow, TutorialCampaignShowed: u.TutorialCampaignShowed}
	if !u.TutorialCampaignShowed {
		shown := true
		if _, err := s.setTourFlags(ctx, p.UserID, nil, &shown); err != nil {
			return nil, err
		}
	}
	return before, nil
}

// companyExists answers the first sign-up step.
func (s *service) companyExists(ctx context.Context, name string) (*CompanyExistsResponse, error) {
	if m := checkCompanyName(name); m != "" {
		return nil, apperr.Field("name", m)
	}
	c, err := s.store.CompanyByNameKey(ctx, companyNameKey(name))
	if db.IsNotFound(err) {
		return &CompanyExistsResponse{Exists: false, Companies: []CompanyNameRef{}}, nil
	}
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return &CompanyExistsResponse{Exists: true, Companies: []CompanyNameRef{{Name: c.Name}}}, nil
}

// FindUserByID implements Service.
func (s *service) FindUserByID(ctx context.Context, id string) (*User, error) {
	us, err := s.FindUsersByIDs(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	if len(us) == 0 {
		return nil, apperr.NotFound("User not found.")
	}
	return us[0], nil
}

// FindUserByEmail implements Service.
func (s *service) FindUserByEmail(ctx context.Context, email string) (*User, error) {
	u, err := s.store.UserByEmail(ctx, normalizeEmail(email))
	if err != nil {
		return nil, db.Translate(err, "User not found.", "")
	}
	return s.FindUserByID(ctx, u.ID)
}

// FindUsersByIDs implements Service: two queries whatever the number of users.
func (s *service) FindUsersByIDs(ctx context.Context, userIDs []string) ([]*User, error) {
	rows, err := s.store.UsersByIDs(ctx, userIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	companyIDs := make([]string, 0, len(rows))
	for _, r := range rows {
		companyIDs = append(companyIDs, r.CompanyID)
	}
	companies, err := s.store.CompaniesByIDs(ctx, companyIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	byID := make(map[string]*store.Company, len(companies))
	for i := range companies {
		byID[companies[i].ID] = &companies[i]
	}
	out := make([]*User, 0, len(rows))
	for i := range rows {
		out = append(out, toUser(&rows[i], byID[rows[i].CompanyID]))
	}
	return out, nil
}

// FindCompanyByID implements Service.
func (s *service) FindCompanyByID(ctx context.Context, id string) (*Company, error) {
	cs, err := s.FindCompaniesByIDs(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, apperr.NotFound("Company not found.")
	}
	return cs[0], nil
}

// FindCompaniesByIDs implements Service.
func (s *service) FindCompaniesByIDs(ctx context.Context, companyIDs []string) ([]*Company, error) {
	rows, err := s.store.CompaniesByIDs(ctx, companyIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return s.companies(ctx, rows)
}

// FindCompanies implements Service: the admin company pickers (reports) search companies by name.
func (s *service) FindCompanies(ctx context.Context, q string, limit int) ([]*Company, error) {
	rows, err := s.store.SearchCompanies(ctx, q, limit)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return s.companies(ctx, rows)
}

// companies is how every answer shows company rows: with their user counts, in one query.
func (s *service) companies(ctx context.Context, rows []store.Company) ([]*Company, error) {
	companyIDs := make([]string, len(rows))
	for i := range rows {
		companyIDs[i] = rows[i].ID
	}
	counts, err := s.store.CountUsersByCompany(ctx, companyIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]*Company, len(rows))
	for i, r := range rows {
		out[i] = &Company{ID: r.ID, Name: r.Name, Type: r.Type, Status: r.Status, UserCount: counts[r.ID], CreatedAt: r.CreatedAt}
	}
	return out, nil
}

// CreateUser implements Service, for the command line and the seed. The company is created when no
// company has that name, and reused otherwise.
func (s *service) CreateUser(ctx context.Context, req CreateUserRequest) (*User, string, error) {
	req.Email = normalizeEmail(req.Email)
	req.CompanyName = cleanCompanyName(req.CompanyName)
	if req.CompanyName == "" {
		req.CompanyName = "Marquee"
	}
	if req.CompanyType == "" {
		req.CompanyType = CompanyStandard
	}
	if req.Role == "" {
		req.Role = RoleUser
	}
	fields := map[string]string{}
	if m := checkEmail(req.Email); m != "" {
		fields["email"] = m
	}
	if m := checkCompanyName(req.CompanyName); m != "" {
		fields["company"] = m
	}
	if req.Password != "" {
		if m := checkPassword(req.Password, req.Email, req.CompanyName); m != "" {
			fields["password"] = m
		}
	}
	if req.Role != RoleUser && req.Role != RoleAdmin && req.Role != RoleSuperAdmin {
		fields["role"] = "Role must be user, admin or super_admin."
	}
	if req.CompanyType != CompanyStandard && req.CompanyType != CompanyAmbassador && req.CompanyType != CompanyCertified {
		fields["company_type"] = "Company type must be standard, ambassador or certified."
	}
	if m := checkName(req.FirstName) + checkName(req.LastName); m != "" {
		fields["name"] = MsgInvalidName
	}
	if m := checkPhone(req.Phone); m != "" {
		fields["phone"] = m
	}
	if err := fieldsError(fields); err != nil {
		return nil, "", err
	}
	hash := ""
	if req.Password != "" {
		h, err := s.deps.Hasher.Hash(ctx, req.Password)
		if err != nil {
			return nil, "", apperr.Internal(err)
		}
		hash = h
	}
	var userID, accessToken string
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		now := s.now()
		company, err := s.store.CompanyByNameKey(ctx, companyNameKey(req.CompanyName))
		if db.IsNotFound(err) {
			company = &store.Company{ID: ids.New(), Name: req.CompanyName, NameKey: companyNameKey(req.CompanyName),
				Type: req.CompanyType, Status: StatusActive, CreatedAt: now, UpdatedAt: now}
			err = s.store.CreateCompany(ctx, company)
		}
		if err != nil {
			return db.Translate(err, "", MsgCompanyTaken)
		}
		status := StatusActive
		if hash == "" {
			status = StatusInvited
		}
		u := &store.User{ID: ids.New(), CompanyID: company.ID, Email: req.Email, PasswordHash: hash, FirstName: req.FirstName,
			LastName: req.LastName, Phone: req.Phone, Role: req.Role, Status: status, Certified: req.Certified,
			TourCampaignShow: true, CreatedAt: now, UpdatedAt: now}
		if err := s.store.CreateUser(ctx, u); err != nil {
			return db.Translate(err, "", MsgEmailTaken)
		}
		userID = u.ID
		if req.Onboarded {
			// A separate update: gorm leaves a false bool out of an INSERT, so the column's
			// default (true) would win.
			if err := s.store.UpdateUser(ctx, u.ID, map[string]any{"tour_campaign_show": false, "tutorial_campaign_showed": true}); err != nil {
				return err
			}
		}
		if hash == "" {
			accessToken, err = s.issueToken(ctx, u.ID, store.PurposeAccess, s.deps.AccessTokenTTL)
			return err
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	u, err := s.FindUserByID(ctx, userID)
	if err != nil {
		return nil, "", err
	}
	if accessToken != "" {
		accessToken = s.link("/access", accessToken)
	}
	return u, accessToken, nil
}

// LoadPrincipal implements auth.PrincipalLoader: a disabled or deleted user has no principal.
func (s *service) LoadPrincipal(ctx context.Context, userID string) (*auth.Principal, error) {
	u, err := s.store.UserByID(ctx, userID)
	if db.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if u.Status != StatusActive {
		return nil, nil
	}
	c, err := s.store.CompanyByID(ctx, u.CompanyID)
	if db.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err // an outage answers 503; it does not sign anyone out
	}
	if c.Status != StatusActive {
		return nil, nil // a disabled company's users have no access
	}
	return &auth.Principal{UserID: u.ID, CompanyID: u.CompanyID, Email: u.Email, Role: u.Role, CompanyType: c.Type}, nil
}

// PrincipalTables implements auth.PrincipalTables: a change to a user or a company ends the
// cached principals (the session cache, platform/auth/cache.go), and a revoked API key ends the
// cached key principals.
func (s *service) PrincipalTables() []string {
	return []string{store.User{}.TableName(), store.Company{}.TableName(), store.APIKey{}.TableName()}
}

func toUser(u *store.User, c *store.Company) *User {
	out := &User{
		ID: u.ID,
		Local: Local{Email: u.Email, FirstName: u.FirstName, LastName: u.LastName, Phone: u.Phone, Status: u.Status,
			Role:    Role{Admin: u.Role == RoleAdmin || u.Role == RoleSuperAdmin, SuperAdmin: u.Role == RoleSuperAdmin},
			Address: u.Address, SubAddress: u.SubAddress, AddressCity: u.AddressCity, AddressState: u.AddressState,
			AddressZipcode: u.AddressZipcode, BillingAddress: u.BillingAddress, SubBillingAddress: u.SubBillingAddress,
			BillingCity: u.BillingCity, BillingState: u.BillingState, BillingZipcode: u.BillingZipcode},
		Certified: u.Certified, SignInCount: u.SignInCount, LastLogin: u.LastLogin, CreatedAt: u.CreatedAt,
		TourCampaignShow: u.TourCampaignShow, TutorialCampaignShowed: u.TutorialCampaignShowed, SendPhoneZoho: u.SendPhoneZoho,
	}
	if c != nil {
		out.Company = CompanyRef{ID: c.ID, Name: c.Name, Type: c.Type}
	}
	return out
}

// FindFirstUsers returns each company's oldest user, by company id, reading the companies' users
// in one query (partner companies have a handful).
func (s *service) FindFirstUsers(ctx context.Context, companyIDs []string) (map[string]*User, error) {
	out := make(map[string]*User, len(companyIDs))
	if len(companyIDs) == 0 {
		return out, nil
	}
	rows, err := s.store.UsersOfCompanies(ctx, companyIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	var userIDs []string
	seen := map[string]bool{}
	for _, u := range rows {
		if !seen[u.CompanyID] {
			seen[u.CompanyID] = true
			userIDs = append(userIDs, u.ID)
		}
	}
	users, err := s.FindUsersByIDs(ctx, userIDs)
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		out[u.Company.ID] = u
	}
	return out, nil
}

// NewAccessLink retires the user's earlier /access links and issues a new one.
func (s *service) NewAccessLink(ctx context.Context, userID string) (string, error) {
	if !ids.Valid(userID) {
		return "", apperr.NotFound(MsgUserNotFound)
	}
	var token string
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		u, err := s.store.UserByID(ctx, userID)
		if err != nil {
			return db.Translate(err, MsgUserNotFound, "")
		}
		if u.Status != StatusInvited {
			return apperr.New(apperr.ECONFLICT, MsgNotInvited)
		}
		if err := s.store.RetireTokens(ctx, u.ID, store.PurposeAccess, s.now()); err != nil {
			return err
		}
		token, err = s.issueToken(ctx, u.ID, store.PurposeAccess, s.deps.AccessTokenTTL)
		return err
	})
	if err != nil {
		return "", err
	}
	return s.link("/access", token), nil
}

// CountCertifiedUsers implements Service.
func (s *service) CountCertifiedUsers(ctx context.Context, companyID string) (int, error) {
	n, err := s.store.CountCertified(ctx, companyID)
	if err != nil {
		return 0, apperr.Internal(err)
	}
	return int(n), nil
}

// SetCertified sets the user's certification flag.
func (s *service) SetCertified(ctx context.Context, userID string, certified bool) error {
	if !ids.Valid(userID) {
		return apperr.NotFound(MsgUserNotFound)
	}
	if _, err := s.store.UserByID(ctx, userID); err != nil {
		return db.Translate(err, MsgUserNotFound, "")
	}
	if err := s.store.UpdateUser(ctx, userID, map[string]any{"certified": certified, "updated_at": s.now()}); err != nil {
		return apperr.Internal(err)
	}
	return nil
}
