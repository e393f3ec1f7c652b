// Package identity manages users, companies, sessions, sign-up and sign-in, passwords and their
// tokens, and the tour flags (DESIGN.md §2). This root package is the module's only public API: the
// Service interface, its DTOs and its requests. Everything else lives in internal/.
package identity

import (
	"context"
	"time"

	"marquee/platform/money"
)

// Company types (A §3).
const (
	CompanyStandard   = "standard"
	CompanyAmbassador = "ambassador"
	CompanyCertified  = "certified"
)

// User roles (A §6). A regular user has no role flag.
const (
	RoleUser       = "user"
	RoleAdmin      = "admin"
	RoleSuperAdmin = "super_admin"
)

// User statuses (B §4: enable or disable changes local.status; 'active' is used for invited clients).
const (
	StatusActive   = "active"
	StatusInvited  = "invited"
	StatusDisabled = "disabled"
)

// Messages of A §8 and of this module, word for word where the spec gives them.
const (
	MsgInvalidCredentials  = "Invalid email or password"
	MsgLoggedOut           = "You have been logged out successfully"
	MsgInvalidCompanyName  = "Invalid company name"
	MsgCompanyTaken        = "This company has already been registered."
	MsgEmailTaken          = "This email has already been registered."
	MsgResetSent           = "We have sent you an email with instructions to reset your password"
	MsgInvalidEmail        = "Invalid email address"
	MsgPasswordReset       = "Your password has been reset successsfully!"
	MsgPasswordResetFailed = "Error to try reset password"          // #nosec G101 -- a user-facing message, not a credential
	MsgTokenInvalid        = "This link is invalid or has expired." // #nosec G101 -- a user-facing message, not a credential
	MsgPasswordChanged     = "Your password has been changed successfully."
	MsgCurrentPassword     = "Your current password is incorrect."
	MsgWeakPassword        = "Password must be at least 12 characters."
	MsgLongPassword        = "Password must be at most 128 characters."
	MsgAccountDisabled     = "Your account has been disabled. Please contact support."
	MsgAccountReady        = "Your account is ready."
	MsgInvalidPhone        = "Invalid phone number"
)

// MsgTooManyAttempts answers a rate-limited sign-in or reset.
const MsgTooManyAttempts = "Too many attempts. Please wait a minute and try again."

// MsgCommonPassword refuses a well-known password.
const MsgCommonPassword = "This password is too common. Please choose another."

// MsgPersonalPassword refuses a password made of the account's email or company name.
const MsgPersonalPassword = "Please choose a password that is not made of your email or company name." // #nosec G101 -- a user-facing message, not a credential

// MsgInvalidName refuses a first or last name.
const MsgInvalidName = "Please use letters, spaces, apostrophes, dots and dashes only (at most 50)."

// EventPhoneConsent is published when a user who gave a phone number answers the consent dialog:
// the CRM hand-off of DESIGN.md §1.8.
const EventPhoneConsent = "identity.phone_consent"

// PhoneConsent is the payload of EventPhoneConsent.
type PhoneConsent struct {
	UserID  string `json:"user_id"`
	Company string `json:"company"`
	Email   string `json:"email"`
	Phone   string `json:"phone"`
	Consent bool   `json:"sendPhoneZoho"`
}

// Password length bounds (ASVS V2.1: at least 12; an upper bound keeps hashing cheap to refuse).
const (
	MinPasswordLength = 12
	MaxPasswordLength = 128
)

// Role flags of a user (A §3: local.role {super_admin, admin}).
type Role struct {
	Admin      bool `json:"admin"`
	SuperAdmin bool `json:"super_admin"`
}

// Local holds the user's own fields, under the spec's `local` key (A §3, B §3), with the profile's
// address and billing address (B §2 "Settings and profile"; state is a US state code or DC).
type Local struct {
	Email             string `json:"email"`
	FirstName         string `json:"first_name"`
	LastName          string `json:"last_name"`
	Phone             string `json:"phone"`
	Status            string `json:"status"`
	Role              Role   `json:"role"`
	Address           string `json:"address"`
	SubAddress        string `json:"sub_address"`
	AddressCity       string `json:"address_city"`
	AddressState      string `json:"address_state"`
	AddressZipcode    string `json:"address_zipcode"`
	BillingAddress    string `json:"billing_address"`
	SubBillingAddress string `json:"sub_billing_address"`
	BillingCity       string `json:"billing_city"`
	BillingState      string `json:"billing_state"`
	BillingZipcode    string `json:"billing_zipcode"`
}

// CompanyRef is the company as embedded in a user.
type CompanyRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
}

// User is a user as the API shows it. It never carries a password hash or a credential.
type User struct {
	ID                     string     `json:"id"`
	Local                  Local      `json:"local"`
	Company                CompanyRef `json:"company"`
	Certified              bool       `json:"certified"`
	SignInCount            int        `json:"sign_in_count"`
	LastLogin              *time.Time `json:"last_login"`
	CreatedAt              time.Time  `json:"created_at"`
	TourCampaignShow       bool       `json:"tourCampaignShow"`
	TutorialCampaignShowed bool       `json:"tutorialCampaignShowed"`
	SendPhoneZoho          bool       `json:"sendPhoneZoho"`
}

// Company is a company as the API shows it.
type Company struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Type      string    `json:"type"`
	Status    string    `json:"status"`
	UserCount int       `json:"user_count"`
	CreatedAt time.Time `json:"createdAt"`
}

// CurrentCompany answers GET /companies/currentCompany: the company and its account credit (B §7),
// which the billing module keeps (see CreditReader).
type CurrentCompany struct {
	Company
	AccountCredit money.Cents `json:"account_credit"`
}

// CreditReader reads a company's account credit. Identity owns this interface and billing
// implements it; billing depends on identity, so cmd/marquee hands the billing service in after
// both are built (Module.SetCreditReader).
type CreditReader interface {
	AccountCredit(ctx context.Context, companyID string) (money.Cents, error)
}

// SignUpRequest is the sign-up form of A §3.
type SignUpRequest struct {
	Company       string `json:"company" validate:"singleline"`
	Email         string `json:"email" validate:"singleline"`
	Phone         string `json:"phone" validate:"singleline"`
	Password      string `json:"password" validate:"singleline"`
	SendPhoneZoho bool   `json:"sendPhoneZoho"`
}

// SignInRequest is the sign-in form.
type SignInRequest struct {
	Email    string `json:"email" validate:"singleline"`
	Password string `json:"password" text:"secret"`
}

// ResetPasswordRequest asks for a reset email.
type ResetPasswordRequest struct {
	Email string `json:"email" validate:"singleline"`
}

// SetPasswordRequest sets a password with a reset token (/users/setPassword) or sets the first
// password with an access token (/users/set-first-password, which also takes the names).
type SetPasswordRequest struct {
	Token     string `json:"token" validate:"singleline"`
	Password  string `json:"password" validate:"singleline"`
	FirstName string `json:"first_name,omitempty" validate:"singleline"`
	LastName  string `json:"last_name,omitempty" validate:"singleline"`
}

// ChangePasswordRequest changes the signed-in user's password (PUT /users/password).
type ChangePasswordRequest struct {
	CurrentPassword string `json:"current_password" text:"secret"`
	Password        string `json:"password" validate:"singleline"`
}

// CreateUserRequest creates a user from the command line (marquee user create) or the seed.
// An empty Password makes an invited user who sets it through an /access link.
type CreateUserRequest struct {
	Email       string
	Password    string
	FirstName   string
	LastName    string
	Phone       string
	Role        string // RoleUser, RoleAdmin or RoleSuperAdmin
	CompanyName string
	CompanyType string // CompanyStandard when empty
	Certified   bool
	// Onboarded creates the user with the guided tour and the tutorial video already given (the
	// demo accounts, returning users with campaigns); otherwise both come at the first sign-in
	// (A §2, §4).
	Onboarded bool
}

// LoggedInResponse answers GET /users/loggedin. Moderator is set when an admin is acting as this
// user (DESIGN.md §1.12): the web app shows the banner and the way back.
type LoggedInResponse struct {
	LoggedIn  bool       `json:"loggedin"`
	Moderator *Moderator `json:"moderator,omitempty"`
}

// Moderator is the admin acting as the signed-in user through a moderated sign-in.
type Moderator struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
}

// CurrentUser answers GET /users/currentUser: the user, and the admin acting as them when the
// session is a moderated one (null otherwise).
type CurrentUser struct {
	User      `tstype:",extends"`
	Moderator *Moderator `json:"moderator"`
}

// CompanyExistsResponse answers GET /company-exists: the matching companies, by name only.
type CompanyExistsResponse struct {
	Exists    bool             `json:"exists"`
	Companies []CompanyNameRef `json:"companies"`
}

// CompanyNameRef is a company reduced to its name, for the public company check.
type CompanyNameRef struct {
	Name string `json:"name"`
}

// UserResponse answers sign-in, sign-up and set-first-password.
type UserResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message,omitempty"`
	User    *User  `json:"user"`
}

// B §8's default confirm offers a call for a free dashboard tour (POST /users/tour-call). The
// answers are the sign-up consent's words (A §8).
const (
	MsgTourCallRequested  = "Great, someone will be in touch with you soon"
	MsgTourCallDeclined   = "No problem, but feel free to reach out to us anytime"
	MsgTourCallNeedsPhone = "Please add a phone number to your profile so we can call you."
)

// MessageResponse is a success with a message.
type MessageResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// TokenInfoResponse answers GET /users/token/{token} and GET /api/users/get-password.
type TokenInfoResponse struct {
	Success     bool   `json:"success"`
	Email       string `json:"email"`
	FirstName   string `json:"first_name"`
	LastName    string `json:"last_name"`
	CompanyName string `json:"company_name"`
}

// TourResponse answers the tour-flag calls.
type TourResponse struct {
	TourCampaignShow       bool `json:"tourCampaignShow"`
	TutorialCampaignShowed bool `json:"tutorialCampaignShowed"`
}

// Service is the identity module's public API for other modules and the composition root.
type Service interface {
	// FindUserByID returns a user. ENOTFOUND if there is none.
	FindUserByID(ctx context.Context, id string) (*User, error)
	// FindUserByEmail returns the user with this email (any case). ENOTFOUND if there is none.
	FindUserByEmail(ctx context.Context, email string) (*User, error)
	// FindUsersByIDs returns the users with these ids, in no particular order; missing ids are skipped.
	FindUsersByIDs(ctx context.Context, ids []string) ([]*User, error)
	// FindCompanyByID returns a company. ENOTFOUND if there is none.
	FindCompanyByID(ctx context.Context, id string) (*Company, error)
	// FindCompaniesByIDs returns the companies with these ids; missing ids are skipped.
	FindCompaniesByIDs(ctx context.Context, ids []string) ([]*Company, error)
	// FindCompanies returns up to limit companies whose name contains q (any case), by name; every
	// company when q is empty (the admin company pickers).
	FindCompanies(ctx context.Context, q string, limit int) ([]*Company, error)
	// ChangeCompanyType changes a company's type: the one place it changes (an admin's upgrade, an
	// admin's company update, the partner program). It joins the caller's transaction and publishes
	// EventCompanyTypeChanged when the type changes. With onlyFromStandard, a company that is already
	// ambassador or certified answers EINVALID (MsgAlreadyPartner). ENOTFOUND for an unknown company.
	ChangeCompanyType(ctx context.Context, companyID, to string, onlyFromStandard bool) (*Company, error)
	// CreateUser creates a user, and the company when none has that name. EINVALID for bad input,
	// ECONFLICT when the email is taken. When Password is empty it returns an /access token too.
	CreateUser(ctx context.Context, req CreateUserRequest) (*User, string, error)
	// FindFirstUsers returns the oldest user of each company (its owner), by company id; companies
	// without users are left out (the partner program's special-users grid).
	FindFirstUsers(ctx context.Context, companyIDs []string) (map[string]*User, error)
	// NewAccessLink issues a fresh single-use /access link for a user who has not set up their
	// account yet (a resent invitation). ENOTFOUND for an unknown user; ECONFLICT when the user is
	// no longer invited.
	NewAccessLink(ctx context.Context, userID string) (string, error)
	// SetCertified sets a user's certification flag (the partner program's exam). It joins the
	// caller's transaction. ENOTFOUND for an unknown user.
	SetCertified(ctx context.Context, userID string, certified bool) error
	// CountCertifiedUsers counts the company's users who hold a certificate (the partner
	// program's certified rate applies while there is one, DESIGN §1.11).
	CountCertifiedUsers(ctx context.Context, companyID string) (int, error)
}

// MsgNotInvited refuses a resent invitation to a user who already set up their account.
const MsgNotInvited = "This user has already set up their account."

// MsgAccessFailed is the message of a failed account set-up (A §8: "the server message").
const MsgAccessFailed = "We could not set up your account. Please check the form, or ask for a new link."

// Messages of B §5 and §8 for the profile, team members and the admin user and company screens,
// word for word, and of this module.
const (
	MsgUserUpdated          = "User data updated!"                                       // B §8
	MsgUserUpgraded         = "User upgraded successfully!"                              // B §8
	MsgCertificationOn      = "Certification activated successfully!"                    // B §8
	MsgCertificationOff     = "Certification removed successfully!"                      // B §8
	MsgInvitesSent          = "Your invite(s) have been sent successfully!"              // B §8
	MsgRequired             = "Required"                                                 // B §5
	MsgLastNameBlank        = "Last name can't be blank"                                 // B §5
	MsgNotValidEmail        = "This is not a valid email"                                // B §5
	MsgEmailAlreadyExist    = "Email already exist"                                      // B §5 (an email twice in the list)
	MsgEmailHasAccount      = "This email already has an account."                       // an invitee already registered (same company)
	MsgEmailOtherCompany    = "This email already belongs to a user of another company." // re-invite across companies
	MsgTooManyInvitees      = "You can invite at most 20 team members at once."
	MsgNoInvitees           = "Add at least one team member to invite."
	MsgInvalidZip           = "Please enter a valid ZIP code."
	MsgInvalidState         = "Please choose a US state."
	MsgInvalidAddress       = "Please use at most 100 characters."
	MsgCompanyNotFound      = "Company not found."
	MsgUserNotFound         = "User not found."
	MsgCompanyUpdated       = "Company data updated!"
	MsgAlreadyPartner       = "This company is already ambassador or certified."
	MsgUpgradeType          = "The type must be certified or ambassador."
	MsgCompanyType          = "Company type must be standard, ambassador or certified."
	MsgCompanyStatus        = "Company status must be active or disabled."
	MsgUserEnabled          = "The user has been enabled."
	MsgUserDisabled         = "The user has been disabled."
	MsgCannotDisableSelf    = "You cannot disable your own account."
	MsgSuperAdminOnly       = "Only a super admin can change a super admin."
	MsgCertificationAdmin   = "Only an admin can change certification."
	MsgCertificationAlone   = "Change certification on its own, without other fields."
	MsgModerateUnknown      = "There is no user with this email."
	MsgModerateDisabled     = "This user is disabled; you cannot sign in as them."
	MsgModerateInvited      = "This user has not set up their account yet."
	MsgModerateSelf         = "You are already signed in as yourself."
	MsgModerateNested       = "Return to your own account first."
	MsgModerateStarted      = "You are now signed in as this user."
	MsgModerateNotModerated = "This session is not a moderated sign-in."
	MsgModerateEnded        = "You are back in your own account."
	MsgModerateAdminExpired = "Your own session has ended. Please sign in again."
	MsgModerateAdmin        = "You cannot sign in as an admin or a super admin."
	MsgModerateCompanyOff   = "This user's company is disabled; you cannot sign in as them."
	MsgCompanyDisabled      = "Your company's account has been disabled. Please contact support."
	MsgTooManyInvites       = "Too many invitations were sent. Please try again tomorrow."
	MsgMemberRemoved        = "The team member has been removed."
	MsgInviteResent         = "The invitation has been sent again."
	MsgOwnerOnly            = "Only the company's owner can manage team members."
	MsgRemoveSelf           = "You cannot remove yourself from the team."
	MsgRemoveOwner          = "The company's owner cannot be removed."
)

// Invitation limits, so invitations cannot send mail in bulk: counted through the shared database
// limiter (Kernel.Limits), per company over every invitee and resend, and per recipient, in a
// window of InviteWindow.
const (
	InviteCompanyLimit   = 50
	InviteRecipientLimit = 3
)

// Team invite limits: a form of a few rows; 20 at once bounds the work of one request (each
// invitee is a user row, a token and an email).
const MaxInvitees = 20

// EventCompanyTypeChanged is published, in the transaction of the change, whenever a company's
// type changes (ChangeCompanyType: an upgrade, an admin's company update). The partner program
// reacts to it.
const EventCompanyTypeChanged = "identity.company_type_changed"

// CompanyTypeChanged is the payload of EventCompanyTypeChanged.
type CompanyTypeChanged struct {
	CompanyID string `json:"company_id"`
	From      string `json:"from"`
	To        string `json:"to"`
	ActorID   string `json:"actor_id"`
}

// Audit actions of this module (platform/audit). Object types are "user" and "company".
const (
	AuditUserUpdate      = "user.update"
	AuditUserCertify     = "user.certification"
	AuditUserUpgrade     = "user.upgrade"
	AuditUserDisable     = "user.disable"
	AuditUserEnable      = "user.enable"
	AuditCompanyUpdate   = "company.update"
	AuditModerateSignIn  = "moderate.signin"
	AuditModerateSignOut = "moderate.signout"
	AuditTeamInvite      = "team.invite" // sent in a moderated session
	AuditTeamRemove      = "team.remove"
	AuditTeamResend      = "team.resend"
	AuditObjectUser      = "user"
	AuditObjectCompany   = "company"
)

// UserResult answers the admin and profile calls that change a user: PUT /api/users/{id},
// PUT /api/users/upgrade/{id}, PUT /api/users/{id}/disable (B §4: the server returns the new
// status, also in status).
type UserResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	Status  string `json:"status,omitempty"`
	User    *User  `json:"user"`
}

// UpdateUserRequest is PUT /api/users/{id}: an absent (null) field is left as it is. Certified is
// the admin's certification toggle (B §4) and is sent on its own.
type UpdateUserRequest struct {
	FirstName         *string `json:"first_name,omitempty" validate:"singleline"`
	LastName          *string `json:"last_name,omitempty" validate:"singleline"`
	Phone             *string `json:"phone,omitempty" validate:"singleline"`
	Address           *string `json:"address,omitempty" validate:"singleline"`
	SubAddress        *string `json:"sub_address,omitempty" validate:"singleline"`
	AddressCity       *string `json:"address_city,omitempty" validate:"singleline"`
	AddressState      *string `json:"address_state,omitempty" validate:"singleline"`
	AddressZipcode    *string `json:"address_zipcode,omitempty" validate:"singleline"`
	BillingAddress    *string `json:"billing_address,omitempty" validate:"singleline"`
	SubBillingAddress *string `json:"sub_billing_address,omitempty" validate:"singleline"`
	BillingCity       *string `json:"billing_city,omitempty" validate:"singleline"`
	BillingState      *string `json:"billing_state,omitempty" validate:"singleline"`
	BillingZipcode    *string `json:"billing_zipcode,omitempty" validate:"singleline"`
	Certified         *bool   `json:"certified,omitempty"`
}

// UpgradeUserRequest is PUT /api/users/upgrade/{id}: the user's company becomes certified or
// ambassador (B §4: offered only when the company type is empty or standard).
type UpgradeUserRequest struct {
	Type string `json:"type" validate:"singleline"`
}

// DisableUserRequest is PUT /api/users/{id}/disable: enable true enables, false disables.
type DisableUserRequest struct {
	Enable bool `json:"enable"`
}

// UpdateCompanyRequest is PUT /api/companies/{id} (admin): an absent field is left as it is. The
// name stays unique, case-insensitively (A §5).
type UpdateCompanyRequest struct {
	Name   *string `json:"name,omitempty" validate:"singleline"`
	Type   *string `json:"type,omitempty" validate:"singleline"`
	Status *string `json:"status,omitempty" validate:"singleline"`
}

// CompanyResult answers PUT /api/companies/{id}.
type CompanyResult struct {
	Success bool     `json:"success"`
	Message string   `json:"message"`
	Company *Company `json:"company"`
}

// AdminCompany is a row of the admin company grid (B §2, B §3): identity's columns and billing's.
type AdminCompany struct {
	Company       `tstype:",extends"`
	CardOnFile    bool        `json:"cc_onfile"`
	AccountCredit money.Cents `json:"account_credit"`
	TotalSpend    money.Cents `json:"total_spend"`
	AmountPending money.Cents `json:"amountPending"`
}

// CompanyBilling is what the admin company grid shows of a company's billing. Identity owns the
// type and the reader (BillingReader); billing fills it.
type CompanyBilling struct {
	CardOnFile    bool
	AccountCredit money.Cents
	TotalSpend    money.Cents
	AmountPending money.Cents
}

// BillingReader reads the billing columns of the admin company grid, in one batch. Billing
// implements it; cmd/marquee hands it in (Module.SetBillingReader), like CreditReader.
type BillingReader interface {
	CompanyBilling(ctx context.Context, companyIDs []string) (map[string]CompanyBilling, error)
}

// Invitee is one row of the team invite form (B §5): a full name (first and last) and an email.
type Invitee struct {
	Name  string `json:"name" validate:"singleline"`
	Email string `json:"email" validate:"singleline"`
}

// InviteRequest is POST /api/team-members/ (B §7: user and new_member). User, when given, must be
// the caller's own id; the invitees join the caller's company with the user role.
type InviteRequest struct {
	User      string    `json:"user" validate:"singleline"`
	NewMember []Invitee `json:"new_member" validate:"dive"`
}

// InviteResponse answers a team invite: the invited users.
type InviteResponse struct {
	Success bool    `json:"success"`
	Message string  `json:"message"`
	Users   []*User `json:"users"`
}

// ModerateSignInRequest is POST /moderate-signin: the email of the user to act as.
type ModerateSignInRequest struct {
	Email string `json:"email" validate:"singleline"`
}

// LogoutResponse answers GET /users/logout: the goodbye, or, when the session was a moderated one,
// the admin's own account it returned to in user (moderator is then null, and
// present).
type LogoutResponse struct {
	Success   bool       `json:"success"`
	Message   string     `json:"message"`
	User      *User      `json:"user,omitempty"`
	Moderator *Moderator `json:"moderator,omitempty"`
}

// ModerateResponse answers POST /moderate-signin (the user now acted as, and the moderator) and
// POST /moderate-signout (the admin back in their own session; User is null when that session has
// ended and the admin must sign in again).
type ModerateResponse struct {
	Success   bool       `json:"success"`
	Message   string     `json:"message"`
	User      *User      `json:"user"`
	Moderator *Moderator `json:"moderator"`
}
