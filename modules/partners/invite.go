package partners

import (
	"context"
	"fmt"
	"net/mail"
	"strings"

	"marquee/modules/identity"
	"marquee/modules/partners/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
	pmail "marquee/platform/mail"
	"marquee/platform/ratelimit"
)

// MaxCompanyName bounds a client company's name (identity's rule is the same).
const MaxCompanyName = 100

// splitName splits a full name into first and last name (B §5: at least two words; the first word
// is the first name, the rest the last name).
func splitName(full string) (string, string, error) {
	words := strings.Fields(full)
	if len(words) == 0 {
		return "", "", apperr.Field("full_name", MsgFullName)
	}
	if len(words) < 2 {
		return "", "", apperr.Field("full_name", MsgFullNameWords)
	}
	return words[0], strings.Join(words[1:], " "), nil
}

// invite is POST /users/ambassador/invite (inviteClient).
func (s *service) invite(ctx context.Context, me *auth.Principal, req InviteRequest) (InviteResponse, error) {
	out, err := s.inviteClient(ctx, me, req)
	if err != nil {
		return InviteResponse{}, err
	}
	return InviteResponse{Success: true, Message: MsgInvited, Client: out}, nil
}

// inviteClient creates the client's company and user, links the company to the ambassador and
// mails the single-use /access link, all in one transaction: a refusal anywhere leaves nothing
// behind.
func (s *service) inviteClient(ctx context.Context, me *auth.Principal, req InviteRequest) (*LinkedCompany, error) {
	if me.CompanyType != identity.CompanyAmbassador {
		return nil, apperr.New(apperr.EFORBIDDEN, MsgNotAmbassador)
	}
	first, last, err := splitName(req.FullName)
	if err != nil {
		return nil, err
	}
	email := strings.TrimSpace(req.Email)
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > 254 {
		return nil, apperr.Field("email", identity.MsgNotValidEmail)
	}
	company := strings.TrimSpace(req.Company)
	if company == "" {
		company = first + " " + last
	}
	if len(company) > MaxCompanyName {
		return nil, apperr.Field("company", MsgCompanyName)
	}
	if _, err := s.deps.Identity.FindUserByEmail(ctx, email); err == nil {
		return nil, apperr.Field("email", identity.MsgEmailTaken)
	} else if apperr.CodeOf(err) != apperr.ENOTFOUND {
		return nil, err
	}
	partner, err := s.partnerOf(ctx, me.CompanyID, me.CompanyType)
	if err != nil {
		return nil, err
	}
	if err := s.checkInviteLimits(ctx, me.CompanyID, email); err != nil {
		return nil, err
	}
	inviter, err := s.deps.Identity.FindUserByID(ctx, me.UserID)
	if err != nil {
		return nil, err
	}
	var out *LinkedCompany
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		u, link, err := s.deps.Identity.CreateUser(ctx, identity.CreateUserRequest{Email: email, FirstName: first, LastName: last,
			Role: identity.RoleUser, CompanyName: company, CompanyType: identity.CompanyStandard})
		if err != nil {
			if apperr.CodeOf(err) == apperr.ECONFLICT {
				return apperr.Field("email", identity.MsgEmailTaken)
			}
			return err
		}
		c, err := s.deps.Identity.FindCompanyByID(ctx, u.Company.ID)
		if err != nil {
			return err
		}
		if c.UserCount != 1 {
			// CreateUser joined an existing company of that name: an ambassador cannot add users to it.
			return apperr.Field("company", identity.MsgCompanyTaken)
		}
		l, created, err := s.link(ctx, partner.ID, c.ID, SourceInvite, u.ID)
		if err != nil {
			return err
		}
		if !created {
			return apperr.Field("company", identity.MsgCompanyTaken)
		}
		// The link stands even when its email cannot be queued; a resend mails it again (DESIGN §1.14).
		db.Notify(ctx, s.deps.DB, "mail: client invitation", func(ctx context.Context) error {
			return s.deps.Outbox.Enqueue(ctx, clientInviteMail(email, fullName(inviter), inviter.Company.Name, link))
		})
		out = s.linkDTO(l, u.Local.Status)
		out.CompanyName, out.Email, out.FullName = c.Name, u.Local.Email, first+" "+last
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// resend is PUT /api/special/ambassador/invite/{id} (resendLink).
func (s *service) resend(ctx context.Context, me *auth.Principal, linkID string) (MessageResponse, error) {
	if err := s.resendLink(ctx, me, linkID); err != nil {
		return MessageResponse{}, err
	}
	return MessageResponse{Success: true, Message: MsgInviteResent}, nil
}

// resendLink mails a fresh /access link to the client an ambassador invited; another partner's
// invitation answers 404.
func (s *service) resendLink(ctx context.Context, me *auth.Principal, linkID string) error {
	l, err := s.ownLink(ctx, me.CompanyID, linkID)
	if err != nil {
		return err
	}
	if l.InvitedUserID == "" {
		return apperr.NotFound(MsgLinkNotFound)
	}
	inviter, err := s.deps.Identity.FindUserByID(ctx, me.UserID)
	if err != nil {
		return err
	}
	u, err := s.deps.Identity.FindUserByID(ctx, l.InvitedUserID)
	if err != nil {
		return err
	}
	if err := s.checkInviteLimits(ctx, me.CompanyID, u.Local.Email); err != nil {
		return err
	}
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		link, err := s.deps.Identity.NewAccessLink(ctx, u.ID)
		if err != nil {
			return err
		}
		return s.deps.Outbox.Enqueue(ctx, clientInviteMail(u.Local.Email, fullName(inviter), inviter.Company.Name, link))
	})
}

// checkInviteLimits counts an invitation or a resend against the partner company's limit and the
// recipient's (without them, 100 invitations went out in 5 calls, and one address was mailed 21
// times). Each refusal has its own message; both are 429.
func (s *service) checkInviteLimits(ctx context.Context, companyID, email string) error {
	if err := ratelimit.Check(ctx, s.inviteCompany, MsgTooManyInvites, companyID); err != nil {
		return err
	}
	return ratelimit.Check(ctx, s.inviteRecipient, MsgTooManyInvitesTo, strings.ToLower(email))
}

// ownLink returns the partner's link; another partner's, or an unknown one, answers 404.
func (s *service) ownLink(ctx context.Context, partnerID, linkID string) (*store.Link, error) {
	l, err := s.store.LinkByID(ctx, linkID)
	if err != nil {
		return nil, db.Translate(err, MsgLinkNotFound, "") // an outage is not a 404
	}
	if l.PartnerID != partnerID {
		return nil, apperr.NotFound(MsgLinkNotFound)
	}
	return l, nil
}

func fullName(u *identity.User) string {
	return strings.TrimSpace(u.Local.FirstName + " " + u.Local.LastName)
}

func clientInviteMail(to, inviter, partnerCompany, link string) pmail.Message {
	// A self-registered partner user may have no name: the company alone then
	// invites, not "Northwind Outdoor of Northwind Outdoor".
	from := partnerCompany
	if inviter != "" {
		from = inviter + " of " + partnerCompany
	}
	subjectFrom := inviter
	if subjectFrom == "" {
		subjectFrom = partnerCompany
	}
	return pmail.Message{
		HTML: pmail.Letter{Title: subjectFrom + " invited you to Marquee",
			Intro:  []string{from + " invited you to Marquee, where you book digital billboards by the week.", "Set your password and open your account with this link (it works once)."},
			Button: &pmail.Link{Label: "Open your account", URL: link},
		}.HTML(),
		To:      []string{to},
		Subject: subjectFrom + " invited you to Marquee",
		Text: fmt.Sprintf(`%s invited you to Marquee, where you book digital billboards by the week.

Set your password and open your account with this link (it works once):

%s

The Marquee team
`, from, link),
	}
}
