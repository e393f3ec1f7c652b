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
	MsgPasswordResetFailed = "Error to try reset password"
	MsgTokenInvalid        = "This link is invalid or has expired."
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

// Local holds the user's own fields, under the spec's `local` key (A §3, B §3).
type Local struct {
	Email     string `json:"email"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Phone     string `json:"phone"`
	Status    string `json:"status"`
	Role      Role   `json:"role"`
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
	Company       string `json:"company"`
	Email         string `json:"email"`
	Phone         string `json:"phone"`
	Password      string `json:"password"`
	SendPhoneZoho bool   `json:"sendPhoneZoho"`
}

// SignInRequest is the sign-in form.
type SignInRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// ResetPasswordRequest asks for a reset email.
type ResetPasswordRequest struct {
	Email string `json:"email"`
}

// SetPasswordRequest sets a password with a reset token (/users/setPassword) or sets the first
// password with an access token (/users/set-first-password, which also takes the names).
type SetPasswordRequest struct {
	Token     string `json:"token"`
	Password  string `json:"password"`
	FirstName string `json:"first_name,omitempty"`
	LastName  string `json:"last_name,omitempty"`
}

// ChangePasswordRequest changes the signed-in user's password (PUT /users/password).
type ChangePasswordRequest struct {
	CurrentPassword string `json:"current_password"`
	Password        string `json:"password"`
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

// LoggedInResponse answers GET /users/loggedin.
type LoggedInResponse struct {
	LoggedIn bool `json:"loggedin"`
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
	// CreateUser creates a user, and the company when none has that name. EINVALID for bad input,
	// ECONFLICT when the email is taken. When Password is empty it returns an /access token too.
	CreateUser(ctx context.Context, req CreateUserRequest) (*User, string, error)
}

// MsgAccessFailed is the message of a failed account set-up (A §8: "the server message").
const MsgAccessFailed = "We could not set up your account. Please check the form, or ask for a new link."
