// Package partners is the partner program (DESIGN.md §1.11, §2; B §2 "Partner program", B §7
// "Special"): partner companies (ambassador and certified), the client companies they link, the
// bonuses they earn on their clients' billed spend, the certification exam and the hub. This root
// package is the module's only public API: the Service interface, its DTOs and its messages.
// docs/partners.md describes the model.
package partners

import (
	"context"
	"time"

	"marquee/platform/dates"
	"marquee/platform/money"
)

// Messages of B §8, word for word, and of this module.
const (
	MsgInvited        = "The client was invited successfully." // B §8
	MsgFullName       = "Full name must be present"            // B §5
	MsgFullNameWords  = "Please enter the client's first and last name."
	MsgHubUpdated     = "Your information has been updated successfully!" // B §8
	MsgInviteResent   = "The invitation was sent again."
	MsgNotPartner     = "Only ambassador and certified companies take part in the partner program."
	MsgNotAmbassador  = "Only an ambassador can invite clients."
	MsgLinkNotFound   = "Invitation not found."
	MsgPartnerMissing = "Partner not found."
	MsgCompanyName    = "Please enter the client's company name (at most 100 characters)."
	MsgAlreadyLinked  = "Your company stays linked to its partner until %s."
	MsgLinked         = "Your company is now linked to its partner until %s."
	// Referral refusals (DESIGN §1.13), one message each.
	MsgReferralOwnCode     = "This is your own company's referral code: a partner cannot redeem it."
	MsgReferralPartner     = "Referral codes are for advertisers: an ambassador or certified company cannot redeem one."
	MsgReferralOtherLink   = "Your company is already linked to a partner until %s, and a company joins one partner only."
	MsgReferralLinkedOnce  = "Your company has already been linked to a partner, and a company joins one partner only."
	MsgReferralNeedsCard   = "Please add a card on file in Settings before redeeming a referral code."
	MsgReferralPartnerCard = "The card on file belongs to the partner's own company: a partner cannot be its own client."
	MsgReferralCardUsed    = "A referral credit has already been granted for the card on file. Each card earns one referral credit."
	MsgTooManyInvites      = "Too many invitations in a short time. Please wait a few minutes and try again."
	MsgTooManyInvitesTo    = "This address has been sent several invitations already. Please wait a day before sending another."
	MsgYear                = "The year must be from 2018 to this year."
	MsgBonusType           = "The type must be month, client or campaign."
	MsgProfileField        = "Please use at most %d characters."
	MsgWebsite             = "The website must start with http:// or https://."
)

// Exam messages (B §5).
const (
	MsgAnswerMissing   = "You must answer the question %s!" // B §5, with the question id
	MsgUnknownQuestion = "There is no question %s in this exam."
	MsgSingleAnswer    = "Question %s takes one answer."
	MsgUnknownOption   = "Question %s has no option %s."
	MsgTooManyAnswers  = "The exam has %d questions; send one answer for each."
	MsgExamPassed      = "Congratulations! You passed the exam: you are now a certified partner."
	MsgExamFailed      = "You did not reach the pass mark this time. Review the material and try again."
	MsgExamAttempts    = "You have used your %d attempts for today. You can take the exam again from %s."
)

// Link sources.
const (
	SourceInvite   = "invite"
	SourceReferral = "referral"
)

// Invitation statuses of the /invite list.
const (
	InviteInvited = "invited" // the client has not set up their account yet
	InviteActive  = "active"  // linked, link not expired
	InviteExpired = "expired" // the link expired
)

// FirstYear is the first year of the year selectors (B §9: years run from 2018 to the present).
const FirstYear = 2018

// PassMark is the exam's pass mark, in percent of the points (docs/partners.md).
const PassMark = 80

// Linked is a link as B §3 Company.invited shows it.
type Linked struct {
	Expiration dates.Date `json:"expiration"`
	Active     bool       `json:"active"`
}

// LinkedCompany is a client company of a partner (the /invite list, the linked-companies modal).
type LinkedCompany struct {
	ID          string      `json:"id"` // the link id (resend takes it)
	CompanyID   string      `json:"company_id"`
	CompanyName string      `json:"company_name"`
	Email       string      `json:"email"`
	FullName    string      `json:"full_name"`
	Source      string      `json:"source"`
	Status      string      `json:"status"`
	Started     dates.Date  `json:"started"`
	Linked      Linked      `json:"linked"`
	Bonus       money.Cents `json:"bonus"`
}

// InviteRequest is POST /users/ambassador/invite (B §3: contains a full name).
type InviteRequest struct {
	FullName string `json:"full_name" validate:"singleline"`
	Email    string `json:"email" validate:"singleline"`
	Company  string `json:"company" validate:"singleline"`
}

// InviteResponse answers an invitation.
type InviteResponse struct {
	Success bool           `json:"success"`
	Message string         `json:"message"`
	Client  *LinkedCompany `json:"client"`
}

// MessageResponse is a success with a message.
type MessageResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// Profile is a partner's hub profile (B §2 /admin/hub) with its referral code and totals.
type Profile struct {
	CompanyID   string      `json:"company_id"`
	CompanyName string      `json:"company_name"`
	Type        string      `json:"type"`
	UserID      string      `json:"user_id"`
	FirstName   string      `json:"first_name"`
	LastName    string      `json:"last_name"`
	Email       string      `json:"email"`
	Phone       string      `json:"phone"`
	Website     string      `json:"website"`
	About       string      `json:"about"`
	PromoCode   string      `json:"promo_code"`
	Linked      int         `json:"linked"`
	TotalBonus  money.Cents `json:"total_bonus"`
	RatePercent float64     `json:"rate_percent"`
	// CertificationBonus says the certified rate applies: at least one user of the company holds a
	// certificate (B §4 "certification bonus"; DESIGN §1.11). The header badge shows the same.
	CertificationBonus    bool    `json:"certification_bonus"`
	AmbassadorRatePercent float64 `json:"ambassador_rate_percent"`
	CertifiedRatePercent  float64 `json:"certified_rate_percent"`
	// Certified and Certificate are the signed-in user's own.
	Certified   bool         `json:"certified"`
	Certificate *Certificate `json:"certificate"`
	// ExamPromo is the company's exam reward while it is not redeemed.
	ExamPromo *ExamPromo `json:"exam_promo"`
}

// HubResponse answers GET /api/special/hub and the profile updates.
type HubResponse struct {
	Success bool     `json:"success"`
	Message string   `json:"message,omitempty"`
	Profile *Profile `json:"profile"`
}

// UpdateProfileRequest is PUT /api/special/hub/{userId} and PUT /users/ambassador: an absent
// field is left as it is.
type UpdateProfileRequest struct {
	Phone   *string `json:"phone,omitempty" validate:"singleline"`
	Website *string `json:"website,omitempty" validate:"singleline"`
	About   *string `json:"about,omitempty" text:"multiline"`
}

// StatID is the key of a monthly statistic.
type StatID struct {
	Month int `json:"month"`
	Year  int `json:"year"`
}

// MonthlyStat is one month of B §3 Monthly statistic. CampaignCount counts the distinct campaigns
// billed in the month; TotalCampaign counts their settled weekly charges.
type MonthlyStat struct {
	ID            StatID      `json:"_id"`
	CampaignCount int         `json:"campaignCount"`
	TotalBilled   money.Cents `json:"totalBilled"`
	TotalBonus    money.Cents `json:"totalBonus"`
	TotalCampaign int         `json:"totalCampaign"`
}

// SpecialUser is a row of /admin/special-users (B §2): Type, Linked, Email, Full Name, Last
// Login, Bonus.
type SpecialUser struct {
	CompanyID   string      `json:"company_id"`
	CompanyName string      `json:"company_name"`
	UserID      string      `json:"user_id"`
	Type        string      `json:"type"`
	Linked      int         `json:"linked"`
	Email       string      `json:"email"`
	FullName    string      `json:"full_name"`
	LastLogin   *time.Time  `json:"last_login"`
	Bonus       money.Cents `json:"bonus"`
	Certified   bool        `json:"certified"`
	// Flagged counts the partner's charges held for review (paid with its own card).
	Flagged int `json:"flagged"`
}

// FlaggedCharge is a client's charge that earned its partner no bonus because it was paid with a
// card the partner's company (own_card) or the partner's own partner (partner_card) ever saved,
// listed for an admin's review on /admin/special-users (DESIGN §1.13).
type FlaggedCharge struct {
	TransactionID string      `json:"transaction_id"`
	PartnerID     string      `json:"partner_id"`
	PartnerName   string      `json:"partner_name"`
	ClientID      string      `json:"client_id"`
	ClientName    string      `json:"client_name"`
	CampaignID    string      `json:"campaign_id"`
	Amount        money.Cents `json:"amount"`
	Reason        string      `json:"reason"`
	CreatedAt     time.Time   `json:"created_at"`
}

// BonusRow is a row of a bonus list: grouped by month, by client or by campaign.
type BonusRow struct {
	Key    string      `json:"key"`
	Label  string      `json:"label"`
	Year   int         `json:"year,omitempty"`
	Month  int         `json:"month,omitempty"`
	Billed money.Cents `json:"billed"`
	Bonus  money.Cents `json:"bonus"`
}

// Bonus list groupings (GET /api/special/{companyId}/bonus?type=).
const (
	BonusByMonth    = "month"
	BonusByClient   = "client"
	BonusByCampaign = "campaign"
)

// CodeRedemption is a row of /codes-redeemed: the client company, the date, the amount and until
// when it is linked.
type CodeRedemption struct {
	ID          string      `json:"id"`
	CompanyID   string      `json:"company_id"`
	CompanyName string      `json:"company_name"`
	CreatedAt   time.Time   `json:"createdAt"`
	Amount      money.Cents `json:"amount"`
	Linked      bool        `json:"linked"`
	LinkedUntil *dates.Date `json:"linked_until"`
}

// LinkedCampaign is a row of /campaings-linked: a linked client's campaign, its billed amount and
// the bonus earned on it.
type LinkedCampaign struct {
	CampaignID  string      `json:"campaign_id"`
	Name        string      `json:"name"`
	CompanyID   string      `json:"company_id"`
	CompanyName string      `json:"company_name"`
	CreatedAt   time.Time   `json:"created_at"`
	Billed      money.Cents `json:"billed"`
	Bonus       money.Cents `json:"bonus"`
}

// Certificate is a user's exam certificate (B §3 user.certificate).
type Certificate struct {
	Number   string     `json:"number"`
	IssuedOn dates.Date `json:"date"`
}

// ExamOption is one choice of a question.
type ExamOption struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// ExamQuestion is a question as the browser gets it: never its correct answers (B §3 Exam
// question: id, optionType).
type ExamQuestion struct {
	ID         string       `json:"id"`
	Text       string       `json:"text"`
	OptionType string       `json:"optionType"` // "multiple" or "single"
	Points     int          `json:"points"`
	Options    []ExamOption `json:"options"`
}

// ExamResponse answers GET /api/special/certified/exam.
type ExamResponse struct {
	PassMark int `json:"pass_mark"`
	// AttemptsLeft is how many attempts the user has left today (ExamAttemptsPerDay a business
	// day); NextAttemptAt, when none is left, is when the next business day starts.
	AttemptsLeft  int        `json:"attempts_left"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`

	Certified   bool           `json:"certified"`
	Certificate *Certificate   `json:"certificate"`
	Questions   []ExamQuestion `json:"questions"`
}

// ExamAnswer is one answer (B §3: {questionId, answers[]}).
type ExamAnswer struct {
	QuestionID string   `json:"questionId" validate:"singleline"`
	Answers    []string `json:"answers" validate:"dive,singleline"`
}

// ExamSubmission is PUT /api/special/certified/exam (B §7: the answer list).
type ExamSubmission struct {
	Answers []ExamAnswer `json:"answers" validate:"dive"`
}

// ExamQuestionResult says whether one question was answered correctly (after submission only).
type ExamQuestionResult struct {
	ID      string `json:"id"`
	Correct bool   `json:"correct"`
	Points  int    `json:"points"`
}

// ExamUser is the user part of an exam result (B §3 user.certificate).
type ExamUser struct {
	ID          string       `json:"id"`
	Certified   bool         `json:"certified"`
	Certificate *Certificate `json:"certificate"`
}

// ExamPromo is the promo a passing user's company receives.
type ExamPromo struct {
	Code  string      `json:"code"`
	Value money.Cents `json:"value"`
}

// ExamResult answers the submission (B §3 Exam result: success, questions, points, score,
// user.certificate, promo). Score is in percent; points are the points earned. Questions is empty
// on a failed attempt (B §4: the score and the points only).
type ExamResult struct {
	Success   bool                 `json:"success"`
	Message   string               `json:"message"`
	Questions []ExamQuestionResult `json:"questions"`
	Points    int                  `json:"points"`
	MaxPoints int                  `json:"max_points"`
	Score     int                  `json:"score"`
	User      ExamUser             `json:"user"`
	Promo     *ExamPromo           `json:"promo"`
	// AttemptsLeft and NextAttemptAt as in ExamResponse, after this attempt.
	AttemptsLeft  int        `json:"attempts_left"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`
}

// Service is the partner program's public API.
type Service interface {
	// FindLink returns the client company's link to its partner. ENOTFOUND when it has none.
	FindLink(ctx context.Context, clientID string) (*LinkedCompany, error)
}
