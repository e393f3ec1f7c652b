package identity

import (
	"context"
	"time"

	"marquee/modules/identity/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/ratelimit"
)

// Team members' removal and resent invitations, the invitation limits (so invitations cannot be
// used to send mail in bulk), and GET /api/users (B §7).
//
// A company's owner is its oldest user (the one who signed it up): only they remove members or
// resend invitations. Removing an invited member deletes the invitation (the user row and its
// links); removing a member who has an account disables it, which ends their sessions and the API
// keys they made, and keeps their name on what they did (campaigns, the audit log).

// InviteWindow is the invitation limits' window (kept out of service.go: durations do not
// translate to the web app's types).
const InviteWindow = 24 * time.Hour

// limitInvite counts one invitation to email for the company, and refuses it when the company or
// the recipient has had too many in the window (InviteCompanyLimit, InviteRecipientLimit).
func (s *service) limitInvite(ctx context.Context, companyID, email string) error {
	if err := ratelimit.Check(ctx, s.inviteLimit, MsgTooManyInvites, "company:"+companyID); err != nil {
		return err
	}
	return ratelimit.Check(ctx, s.inviteeLimit, MsgTooManyInvites, "to:"+email)
}

// companyOwner returns the oldest user of the company.
func (s *service) companyOwner(ctx context.Context, companyID string) (*store.User, error) {
	rows, err := s.store.UsersOfCompany(ctx, companyID, 1)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	if len(rows) == 0 {
		return nil, apperr.NotFound(MsgCompanyNotFound)
	}
	return &rows[0], nil
}

// teamMember returns the member id of p's company when p is its owner: another company's user
// answers 404, as an unknown one; a member who is not the owner gets 403.
func (s *service) teamMember(ctx context.Context, p *auth.Principal, id string) (*store.User, error) {
	owner, err := s.companyOwner(ctx, p.CompanyID)
	if err != nil {
		return nil, err
	}
	if owner.ID != p.UserID {
		return nil, apperr.New(apperr.EFORBIDDEN, MsgOwnerOnly)
	}
	if !ids.Valid(id) {
		return nil, apperr.NotFound(MsgUserNotFound)
	}
	u, err := s.store.UserByID(ctx, id)
	if err != nil {
		return nil, db.Translate(err, MsgUserNotFound, "")
	}
	if u.CompanyID != p.CompanyID {
		return nil, apperr.NotFound(MsgUserNotFound)
	}
	if u.ID == owner.ID {
		return nil, apperr.New(apperr.EINVALID, MsgRemoveOwner)
	}
	return u, nil
}

// invitedBy reads the company that invites and the user who does.
func (s *service) invitedBy(ctx context.Context, p *auth.Principal) (*store.Company, *store.User, error) {
	company, err := s.store.CompanyByID(ctx, p.CompanyID)
	if err != nil {
		return nil, nil, db.Translate(err, MsgCompanyNotFound, "")
	}
	inviter, err := s.store.UserByID(ctx, p.UserID)
	if err != nil {
		return nil, nil, db.Translate(err, MsgUserNotFound, "")
	}
	return company, inviter, nil
}

// removeMember removes a member of the owner's company: an invitation is deleted, an account is
// disabled and its sessions end, in one transaction with its audit entry.
func (s *service) removeMember(ctx context.Context, p *auth.Principal, id string) (*MessageResponse, error) {
	if id == p.UserID {
		return nil, apperr.New(apperr.EINVALID, MsgRemoveSelf)
	}
	u, err := s.teamMember(ctx, p, id)
	if err != nil {
		return nil, err
	}
	return answered(MsgMemberRemoved, db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if u.Status == StatusInvited {
			if err := s.store.DeleteUser(ctx, u.ID); err != nil {
				return apperr.Internal(err)
			}
		} else if err := s.store.UpdateUser(ctx, u.ID, map[string]any{"status": StatusDisabled, "updated_at": s.now()}); err != nil {
			return apperr.Internal(err)
		}
		if err := s.deps.Sessions.RevokeUser(ctx, u.ID, ""); err != nil {
			return apperr.Internal(err)
		}
		return s.record(ctx, AuditTeamRemove, AuditObjectUser, u.ID, map[string]string{"email": u.Email, "status": u.Status}, nil)
	}))
}

// resendInvite mails an invited member a new /access link (the earlier ones stop working), within
// the invitation limits.
func (s *service) resendInvite(ctx context.Context, p *auth.Principal, id string) (*MessageResponse, error) {
	u, err := s.teamMember(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if u.Status != StatusInvited {
		return nil, apperr.New(apperr.ECONFLICT, MsgNotInvited)
	}
	if err := s.limitInvite(ctx, p.CompanyID, u.Email); err != nil {
		return nil, err
	}
	return answered(MsgInviteResent, db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		company, inviter, err := s.invitedBy(ctx, p)
		if err != nil {
			return err
		}
		if err := s.store.RetireTokens(ctx, u.ID, store.PurposeAccess, s.now()); err != nil {
			return apperr.Internal(err)
		}
		token, err := s.issueToken(ctx, u.ID, store.PurposeAccess, s.deps.AccessTokenTTL)
		if err != nil {
			return err
		}
		if err := s.deps.Outbox.Enqueue(ctx, inviteMail(u.Email, inviterName(inviter), company.Name, s.link("/access", token), s.deps.AccessTokenTTL)); err != nil {
			return apperr.Internal(err)
		}
		if p.ModeratorID == "" {
			return nil
		}
		return s.record(ctx, AuditTeamResend, AuditObjectUser, u.ID, nil, map[string]string{"email": u.Email})
	}))
}

// listUsers answers GET /api/users (B §7): an admin gets the admins; a company's owner the users of
// their company; another member is refused.
func (s *service) listUsers(ctx context.Context, p *auth.Principal) ([]*User, error) {
	if p.IsAdmin() {
		rows, err := s.store.Admins(ctx)
		if err != nil {
			return nil, apperr.Internal(err)
		}
		userIDs := make([]string, len(rows))
		for i := range rows {
			userIDs[i] = rows[i].ID
		}
		users, err := s.FindUsersByIDs(ctx, userIDs)
		if err != nil {
			return nil, err
		}
		byID := make(map[string]*User, len(users))
		for _, u := range users {
			byID[u.ID] = u
		}
		out := make([]*User, 0, len(rows))
		for _, id := range userIDs {
			if u := byID[id]; u != nil {
				out = append(out, u)
			}
		}
		return out, nil
	}
	owner, err := s.companyOwner(ctx, p.CompanyID)
	if err != nil {
		return nil, err
	}
	if owner.ID != p.UserID {
		return nil, apperr.New(apperr.EFORBIDDEN, MsgOwnerOnly)
	}
	return s.teamMembers(ctx, p)
}
