package identity

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"marquee/modules/identity/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/ratelimit"
)

// accounts implements sign-up, sign-in, passwords and tokens.
type accounts struct {
	deps  Deps
	store *store.Store
	keys  *keys
	// Invitations and resends, per company (each invitee counts) and per recipient (issue 24 §2).
	inviteLimit, inviteeLimit ratelimit.Counter
}

func (a *accounts) now() time.Time { return a.deps.Clock.Now() }

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// signUp creates the company and its first user in one transaction, and the session that signs
// them in. A duplicate company or email, even from a concurrent sign-up, leaves nothing behind.
func (a *accounts) signUp(ctx context.Context, req SignUpRequest, ip, userAgent string) (*User, string, error) {
	if err := validateSignUp(&req); err != nil {
		return nil, "", err
	}
	if err := a.checkSignUpFree(ctx, req); err != nil {
		return nil, "", err
	}
	// Hash before the transaction: it is the slow part and needs no lock.
	hash, err := a.deps.Hasher.Hash(ctx, req.Password)
	if err != nil {
		return nil, "", apperr.Internal(err)
	}
	var user *User
	var token string
	err = db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		now := a.now()
		company := &store.Company{ID: ids.New(), Name: req.Company, NameKey: companyNameKey(req.Company), Type: CompanyStandard,
			Status: StatusActive, CreatedAt: now, UpdatedAt: now}
		if err := a.store.CreateCompany(ctx, company); err != nil {
			return db.Translate(err, "", MsgCompanyTaken)
		}
		u := &store.User{ID: ids.New(), CompanyID: company.ID, Email: req.Email, PasswordHash: hash, Phone: req.Phone,
			Role: RoleUser, Status: StatusActive, TourCampaignShow: true, SendPhoneZoho: req.SendPhoneZoho,
			SignInCount: 0, LastLogin: &now, CreatedAt: now, UpdatedAt: now}
		if err := a.store.CreateUser(ctx, u); err != nil {
			return db.Translate(err, "", MsgEmailTaken)
		}
		if req.Phone != "" {
			if err := a.deps.Events.Publish(ctx, EventPhoneConsent, PhoneConsent{UserID: u.ID, Company: company.Name,
				Email: u.Email, Phone: u.Phone, Consent: req.SendPhoneZoho}); err != nil {
				return apperr.Internal(err)
			}
		}
		db.Notify(ctx, a.deps.DB, "mail: welcome", func(ctx context.Context) error { // DESIGN §1.14
			return a.deps.Outbox.Enqueue(ctx, welcomeMail(u.Email, company.Name, a.deps.BaseURL))
		})
		t, err := a.deps.Sessions.Create(ctx, u.ID, ip, userAgent)
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
// is hashed, so a sign-up with a known email costs a lookup, not an argon2 hash (issue 12 item 14).
// The unique indexes still decide between concurrent sign-ups.
func (a *accounts) checkSignUpFree(ctx context.Context, req SignUpRequest) error {
	if _, err := a.store.CompanyByNameKey(ctx, companyNameKey(req.Company)); err == nil {
		return apperr.New(apperr.ECONFLICT, MsgCompanyTaken)
	} else if !db.IsNotFound(err) {
		return apperr.Internal(err)
	}
	if _, err := a.store.UserByEmail(ctx, req.Email); err == nil {
		return apperr.New(apperr.ECONFLICT, MsgEmailTaken)
	} else if !db.IsNotFound(err) {
		return apperr.Internal(err)
	}
	return nil
}

// personalWords are the account's own words a password must not be made of: its email and its
// company's name (checkPassword). A lookup that fails gives none; the write that follows fails too.
func (a *accounts) personalWords(ctx context.Context, u *store.User) []string {
	words := []string{u.Email}
	if c, err := a.store.CompanyByID(ctx, u.CompanyID); err == nil {
		words = append(words, c.Name)
	}
	return words
}

// signIn checks the credentials and starts a new session. Unknown email and wrong password give
// the same answer in the same time.
func (a *accounts) signIn(ctx context.Context, req SignInRequest, ip, userAgent string) (*User, string, error) {
	email := normalizeEmail(req.Email)
	if email == "" || req.Password == "" || len(req.Password) > 4*MaxPasswordLength {
		return nil, "", apperr.New(apperr.EUNAUTHORIZED, MsgInvalidCredentials)
	}
	u, err := a.store.UserByEmail(ctx, email)
	if db.IsNotFound(err) {
		a.deps.Hasher.Burn(ctx, req.Password)
		return nil, "", apperr.New(apperr.EUNAUTHORIZED, MsgInvalidCredentials)
	}
	if err != nil {
		return nil, "", apperr.Internal(err)
	}
	if u.PasswordHash == "" { // invited, password never set
		a.deps.Hasher.Burn(ctx, req.Password)
		return nil, "", apperr.New(apperr.EUNAUTHORIZED, MsgInvalidCredentials)
	}
	ok, rehash, err := a.deps.Hasher.Verify(ctx, req.Password, u.PasswordHash)
	if err != nil {
		return nil, "", apperr.Internal(err)
	}
	if !ok {
		return nil, "", apperr.New(apperr.EUNAUTHORIZED, MsgInvalidCredentials)
	}
	if u.Status == StatusDisabled {
		return nil, "", apperr.New(apperr.EFORBIDDEN, MsgAccountDisabled)
	}
	if co, err := a.store.CompanyByID(ctx, u.CompanyID); err != nil {
		return nil, "", apperr.Internal(err)
	} else if co.Status != StatusActive {
		return nil, "", apperr.New(apperr.EFORBIDDEN, MsgCompanyDisabled)
	}
	now := a.now()
	var token string
	err = db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		if err := a.store.RecordSignIn(ctx, u.ID, now); err != nil {
			return apperr.Internal(err)
		}
		if rehash {
			if h, err := a.deps.Hasher.Hash(ctx, req.Password); err == nil {
				_ = a.store.UpdateUser(ctx, u.ID, map[string]any{"password_hash": h})
			}
		}
		t, err := a.deps.Sessions.Create(ctx, u.ID, ip, userAgent)
		token = t
		return err
	})
	if err != nil {
		return nil, "", apperr.As(err)
	}
	signedIn, err := a.FindUserByID(ctx, u.ID)
	return signedIn, token, err
}

// requestReset mails a single-use reset link to a known, active account. It answers the same
// whether or not the email is known, so the form cannot be used to find accounts.
func (a *accounts) requestReset(ctx context.Context, email string) error {
	email = normalizeEmail(email)
	if checkEmail(email) != "" {
		return apperr.Field("email", MsgInvalidEmail)
	}
	u, err := a.store.UserByEmail(ctx, email)
	if db.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return apperr.Internal(err)
	}
	if u.Status == StatusDisabled {
		return nil
	}
	return db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		now := a.now()
		if err := a.store.RetireTokens(ctx, u.ID, store.PurposeReset, now); err != nil {
			return apperr.Internal(err)
		}
		token, err := a.issueToken(ctx, u.ID, store.PurposeReset, a.deps.ResetTokenTTL)
		if err != nil {
			return err
		}
		return a.deps.Outbox.Enqueue(ctx, resetMail(u.Email, a.link("/reset-password", token), a.deps.ResetTokenTTL))
	})
}

func (a *accounts) link(path, token string) string {
	return strings.TrimRight(a.deps.BaseURL, "/") + path + "?token=" + token
}

func (a *accounts) issueToken(ctx context.Context, userID, purpose string, ttl time.Duration) (string, error) {
	token := ids.Token()
	now := a.now()
	t := &store.Token{ID: ids.New(), UserID: userID, Purpose: purpose, TokenHash: hashToken(token), ExpiresAt: now.Add(ttl), CreatedAt: now}
	if err := a.store.CreateToken(ctx, t); err != nil {
		return "", apperr.Internal(err)
	}
	return token, nil
}

var errBadToken = apperr.Field("token", MsgTokenInvalid)

// tokenInfo returns the account a live token belongs to, without using it.
func (a *accounts) tokenInfo(ctx context.Context, token, purpose string) (*TokenInfoResponse, error) {
	if token == "" || len(token) > 128 {
		return nil, errBadToken
	}
	t, err := a.store.LiveToken(ctx, hashToken(token), purpose, a.now())
	if db.IsNotFound(err) {
		return nil, errBadToken
	}
	if err != nil {
		return nil, apperr.Internal(err)
	}
	u, err := a.store.UserByID(ctx, t.UserID)
	if err != nil {
		return nil, db.Translate(err, MsgTokenInvalid, "")
	}
	c, err := a.store.CompanyByID(ctx, u.CompanyID)
	if err != nil {
		return nil, db.Translate(err, MsgTokenInvalid, "")
	}
	return &TokenInfoResponse{Success: true, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName, CompanyName: c.Name}, nil
}

// resetPassword sets a new password with a reset link and ends every session of the user.
func (a *accounts) resetPassword(ctx context.Context, req SetPasswordRequest) error {
	req.FirstName, req.LastName = "", "" // a reset changes only the password
	return a.usePasswordToken(ctx, req, store.PurposeReset, nil)
}

// setFirstPassword sets up an invited account from its access link: the password, the names, and
// a session that signs the person in, all in one transaction. Returns the user and the session
// token.
func (a *accounts) setFirstPassword(ctx context.Context, req SetPasswordRequest, ip, userAgent string) (*User, string, error) {
	var userID, token string
	err := a.usePasswordToken(ctx, req, store.PurposeAccess, func(ctx context.Context, id string) error {
		t, err := a.deps.Sessions.Create(ctx, id, ip, userAgent)
		userID, token = id, t
		return err
	})
	if err != nil {
		return nil, "", apperr.As(err).WithMessage(MsgAccessFailed)
	}
	u, err := a.FindUserByID(ctx, userID)
	return u, token, err
}

// usePasswordToken sets a new password with a single-use token of purpose, ends every session of
// the user, activates an invited account, fills in the names (access links only), then runs then,
// when given, in the same transaction. The token is used in that transaction too: a replay, even a
// concurrent one, changes nothing.
func (a *accounts) usePasswordToken(ctx context.Context, req SetPasswordRequest, purpose string, then func(ctx context.Context, userID string) error) error {
	fields := map[string]string{}
	var personal []string
	if req.Token != "" && len(req.Token) <= 128 {
		// The token's account, read without using the token, for the password rule; the token is
		// used in the transaction below.
		if t, err := a.store.LiveToken(ctx, hashToken(req.Token), purpose, a.now()); err == nil {
			if u, err := a.store.UserByID(ctx, t.UserID); err == nil {
				personal = a.personalWords(ctx, u)
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
	hash, err := a.deps.Hasher.Hash(ctx, req.Password)
	if err != nil {
		return apperr.Internal(err)
	}
	return db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		now := a.now()
		t, err := a.store.UseToken(ctx, hashToken(req.Token), purpose, now)
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
		if err := a.store.UpdateUser(ctx, t.UserID, cols); err != nil {
			return db.Translate(err, MsgTokenInvalid, "")
		}
		// Either link proves the person reads the account's mail: an invited account becomes
		// active. A disabled one stays disabled.
		if err := a.store.ActivateInvited(ctx, t.UserID, now); err != nil {
			return apperr.Internal(err)
		}
		if err := a.deps.Sessions.RevokeUser(ctx, t.UserID, ""); err != nil {
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
func (a *accounts) changePassword(ctx context.Context, p *auth.Principal, req ChangePasswordRequest) error {
	if err := auth.RefuseModerated(p); err != nil { // issue 24 §2
		return err
	}
	u, err := a.store.UserByID(ctx, p.UserID)
	if err != nil {
		return db.Translate(err, "User not found.", "")
	}
	if m := checkPassword(req.Password, a.personalWords(ctx, u)...); m != "" {
		return apperr.Field("password", m)
	}
	ok, _, err := a.deps.Hasher.Verify(ctx, req.CurrentPassword, u.PasswordHash)
	if err != nil || !ok {
		return apperr.Field("current_password", MsgCurrentPassword)
	}
	hash, err := a.deps.Hasher.Hash(ctx, req.Password)
	if err != nil {
		return apperr.Internal(err)
	}
	return db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		if err := a.store.UpdateUser(ctx, u.ID, map[string]any{"password_hash": hash, "updated_at": a.now()}); err != nil {
			return apperr.Internal(err)
		}
		if err := a.deps.Sessions.RevokeUser(ctx, u.ID, p.SessionID); err != nil {
			return apperr.Internal(err)
		}
		db.Notify(ctx, a.deps.DB, "mail: password changed", func(ctx context.Context) error { // DESIGN §1.14
			return a.deps.Outbox.Enqueue(ctx, passwordChangedMail(u.Email))
		})
		return nil
	})
}

// setTourFlags updates the tour flags (nil leaves one as it is) and returns them.
func (a *accounts) setTourFlags(ctx context.Context, userID string, tour, tutorialShowed *bool) (*TourResponse, error) {
	cols := map[string]any{"updated_at": a.now()}
	if tour != nil {
		cols["tour_campaign_show"] = *tour
	}
	if tutorialShowed != nil {
		cols["tutorial_campaign_showed"] = *tutorialShowed
	}
	if err := a.store.UpdateUser(ctx, userID, cols); err != nil {
		return nil, db.Translate(err, "User not found.", "")
	}
	u, err := a.store.UserByID(ctx, userID)
	if err != nil {
		return nil, db.Translate(err, "User not found.", "")
	}
	return &TourResponse{TourCampaignShow: u.TourCampaignShow, TutorialCampaignShowed: u.TutorialCampaignShowed}, nil
}

// requestTourCall records that the user wants a call for a free dashboard tour (B §8's default
// confirm): their phone consent is set and handed to the CRM through the same event as the sign-up
// consent (DESIGN §1.8), in one transaction. A user without a phone number is asked for one.
func (a *accounts) requestTourCall(ctx context.Context, userID string) error {
	return db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		u, err := a.store.UserByID(ctx, userID)
		if err != nil {
			return db.Translate(err, "User not found.", "")
		}
		if strings.TrimSpace(u.Phone) == "" {
			return apperr.Field("phone", MsgTourCallNeedsPhone)
		}
		company, err := a.store.CompanyByID(ctx, u.CompanyID)
		if err != nil {
			return db.Translate(err, "Company not found.", "")
		}
		if err := a.store.UpdateUser(ctx, u.ID, map[string]any{"send_phone_zoho": true, "updated_at": a.now()}); err != nil {
			return db.Translate(err, "User not found.", "")
		}
		if err := a.deps.Events.Publish(ctx, EventPhoneConsent, PhoneConsent{UserID: u.ID, Company: company.Name,
			Email: u.Email, Phone: u.Phone, Consent: true}); err != nil {
			return apperr.Internal(err)
		}
		return nil
	})
}

// checkTutorial answers whether the tutorial video was already shown, and records that it has
// been: the video modal shows automatically once (A §2).
func (a *accounts) checkTutorial(ctx context.Context, userID string) (*TourResponse, error) {
	u, err := a.store.UserByID(ctx, userID)
	if err != nil {
		return nil, db.Translate(err, "User not found.", "")
	}
	before := &TourResponse{TourCampaignShow: u.TourCampaignShow, TutorialCampaignShowed: u.TutorialCampaignShowed}
	if !u.TutorialCampaignShowed {
		shown := true
		if _, err := a.setTourFlags(ctx, userID, nil, &shown); err != nil {
			return nil, err
		}
	}
	return before, nil
}

// companyExists answers the first sign-up step.
func (a *accounts) companyExists(ctx context.Context, name string) (*CompanyExistsResponse, error) {
	if m := checkCompanyName(name); m != "" {
		return nil, apperr.Field("name", m)
	}
	c, err := a.store.CompanyByNameKey(ctx, companyNameKey(name))
	if db.IsNotFound(err) {
		return &CompanyExistsResponse{Exists: false, Companies: []CompanyNameRef{}}, nil
	}
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return &CompanyExistsResponse{Exists: true, Companies: []CompanyNameRef{{Name: c.Name}}}, nil
}

// FindUserByID implements Service.
func (a *accounts) FindUserByID(ctx context.Context, id string) (*User, error) {
	us, err := a.FindUsersByIDs(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	if len(us) == 0 {
		return nil, apperr.NotFound("User not found.")
	}
	return us[0], nil
}

// FindUserByEmail implements Service.
func (a *accounts) FindUserByEmail(ctx context.Context, email string) (*User, error) {
	u, err := a.store.UserByEmail(ctx, normalizeEmail(email))
	if err != nil {
		return nil, db.Translate(err, "User not found.", "")
	}
	return a.FindUserByID(ctx, u.ID)
}

// FindUsersByIDs implements Service: two queries whatever the number of users.
func (a *accounts) FindUsersByIDs(ctx context.Context, userIDs []string) ([]*User, error) {
	rows, err := a.store.UsersByIDs(ctx, userIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	companyIDs := make([]string, 0, len(rows))
	for _, r := range rows {
		companyIDs = append(companyIDs, r.CompanyID)
	}
	companies, err := a.store.CompaniesByIDs(ctx, companyIDs)
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
func (a *accounts) FindCompanyByID(ctx context.Context, id string) (*Company, error) {
	cs, err := a.FindCompaniesByIDs(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, apperr.NotFound("Company not found.")
	}
	return cs[0], nil
}

// FindCompaniesByIDs implements Service.
func (a *accounts) FindCompaniesByIDs(ctx context.Context, companyIDs []string) ([]*Company, error) {
	rows, err := a.store.CompaniesByIDs(ctx, companyIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	counts, err := a.store.CountUsersByCompany(ctx, companyIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]*Company, 0, len(rows))
	for _, r := range rows {
		out = append(out, &Company{ID: r.ID, Name: r.Name, Type: r.Type, Status: r.Status, UserCount: counts[r.ID], CreatedAt: r.CreatedAt})
	}
	return out, nil
}

// CreateUser implements Service, for the command line and the seed. The company is created when no
// company has that name, and reused otherwise.
func (a *accounts) CreateUser(ctx context.Context, req CreateUserRequest) (*User, string, error) {
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
		h, err := a.deps.Hasher.Hash(ctx, req.Password)
		if err != nil {
			return nil, "", apperr.Internal(err)
		}
		hash = h
	}
	var userID, accessToken string
	err := db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		now := a.now()
		company, err := a.store.CompanyByNameKey(ctx, companyNameKey(req.CompanyName))
		if db.IsNotFound(err) {
			company = &store.Company{ID: ids.New(), Name: req.CompanyName, NameKey: companyNameKey(req.CompanyName),
				Type: req.CompanyType, Status: StatusActive, CreatedAt: now, UpdatedAt: now}
			err = a.store.CreateCompany(ctx, company)
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
		if err := a.store.CreateUser(ctx, u); err != nil {
			return db.Translate(err, "", MsgEmailTaken)
		}
		userID = u.ID
		if req.Onboarded {
			// A separate update: gorm leaves a false bool out of an INSERT, so the column's
			// default (true) would win.
			if err := a.store.UpdateUser(ctx, u.ID, map[string]any{"tour_campaign_show": false, "tutorial_campaign_showed": true}); err != nil {
				return err
			}
		}
		if hash == "" {
			accessToken, err = a.issueToken(ctx, u.ID, store.PurposeAccess, a.deps.AccessTokenTTL)
			return err
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	u, err := a.FindUserByID(ctx, userID)
	if err != nil {
		return nil, "", err
	}
	if accessToken != "" {
		accessToken = a.link("/access", accessToken)
	}
	return u, accessToken, nil
}

// LoadPrincipal implements auth.PrincipalLoader: a disabled or deleted user has no principal.
func (a *accounts) LoadPrincipal(ctx context.Context, userID string) (*auth.Principal, error) {
	u, err := a.store.UserByID(ctx, userID)
	if db.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if u.Status != StatusActive {
		return nil, nil
	}
	c, err := a.store.CompanyByID(ctx, u.CompanyID)
	if db.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err // an outage answers 503; it does not sign anyone out
	}
	if c.Status != StatusActive {
		return nil, nil // a disabled company's users have no access (issue 24 §2)
	}
	return &auth.Principal{UserID: u.ID, CompanyID: u.CompanyID, Email: u.Email, Role: u.Role, CompanyType: c.Type}, nil
}

// PrincipalTables implements auth.PrincipalTables: a change to a user or a company ends the
// cached principals (the session cache, platform/auth/cache.go), and a revoked API key ends the
// cached key principals.
func (a *accounts) PrincipalTables() []string {
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
func (a *accounts) FindFirstUsers(ctx context.Context, companyIDs []string) (map[string]*User, error) {
	out := make(map[string]*User, len(companyIDs))
	if len(companyIDs) == 0 {
		return out, nil
	}
	rows, err := a.store.UsersOfCompanies(ctx, companyIDs)
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
	users, err := a.FindUsersByIDs(ctx, userIDs)
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		out[u.Company.ID] = u
	}
	return out, nil
}

// NewAccessLink retires the user's earlier /access links and issues a new one.
func (a *accounts) NewAccessLink(ctx context.Context, userID string) (string, error) {
	if !ids.Valid(userID) {
		return "", apperr.NotFound(MsgUserNotFound)
	}
	var token string
	err := db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		u, err := a.store.UserByID(ctx, userID)
		if err != nil {
			return db.Translate(err, MsgUserNotFound, "")
		}
		if u.Status != StatusInvited {
			return apperr.New(apperr.ECONFLICT, MsgNotInvited)
		}
		if err := a.store.RetireTokens(ctx, u.ID, store.PurposeAccess, a.now()); err != nil {
			return err
		}
		token, err = a.issueToken(ctx, u.ID, store.PurposeAccess, a.deps.AccessTokenTTL)
		return err
	})
	if err != nil {
		return "", err
	}
	return a.link("/access", token), nil
}

// CountCertifiedUsers implements Service.
func (a *accounts) CountCertifiedUsers(ctx context.Context, companyID string) (int, error) {
	n, err := a.store.CountCertified(ctx, companyID)
	if err != nil {
		return 0, apperr.Internal(err)
	}
	return int(n), nil
}

// SetCertified sets the user's certification flag.
func (a *accounts) SetCertified(ctx context.Context, userID string, certified bool) error {
	if !ids.Valid(userID) {
		return apperr.NotFound(MsgUserNotFound)
	}
	if _, err := a.store.UserByID(ctx, userID); err != nil {
		return db.Translate(err, MsgUserNotFound, "")
	}
	if err := a.store.UpdateUser(ctx, userID, map[string]any{"certified": certified, "updated_at": a.now()}); err != nil {
		return apperr.Internal(err)
	}
	return nil
}
