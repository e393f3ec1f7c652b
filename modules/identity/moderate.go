package identity

import (
	"context"
	"strings"

	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/db"
)

// Moderated sign-in (B §2 "authorize a moderator", DESIGN.md §1.12): an admin acts as a user in a
// separate session marked with the admin's id. The admin's own session is left alone and its token
// kept aside in an HttpOnly cookie, so the way back (POST /moderate-signout) restores it. Both
// steps are written to the audit log in the transaction that creates or ends the session.

// moderator returns who is acting as the principal's user, or nil for an ordinary session.
func (s *service) moderator(ctx context.Context, p *auth.Principal) (*Moderator, error) {
	if p == nil || p.ModeratorID == "" {
		return nil, nil
	}
	u, err := s.store.UserByID(ctx, p.ModeratorID)
	if db.IsNotFound(err) {
		return &Moderator{ID: p.ModeratorID}, nil
	}
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return toModerator(u.ID, u.Email, u.FirstName, u.LastName), nil
}

func toModerator(id, email, first, last string) *Moderator {
	return &Moderator{ID: id, Email: email, Name: strings.TrimSpace(first + " " + last)}
}

// moderateSignIn checks that admin p may act as the user with email, then creates the moderated
// session and records it. Returns the user, the moderator and the session token.
func (s *service) moderateSignIn(ctx context.Context, p *auth.Principal, email, ip, userAgent string) (*User, *Moderator, string, error) {
	if p.ModeratorID != "" {
		return nil, nil, "", apperr.Field("email", MsgModerateNested)
	}
	email = normalizeEmail(email)
	if email == "" {
		return nil, nil, "", apperr.Field("email", MsgRequired)
	}
	if checkEmail(email) != "" {
		return nil, nil, "", apperr.Field("email", MsgInvalidEmail)
	}
	target, err := s.store.UserByEmail(ctx, email)
	if db.IsNotFound(err) {
		return nil, nil, "", apperr.Field("email", MsgModerateUnknown)
	}
	if err != nil {
		return nil, nil, "", apperr.Internal(err)
	}
	switch {
	case target.ID == p.UserID:
		return nil, nil, "", apperr.Field("email", MsgModerateSelf)
	case target.Status == StatusDisabled:
		return nil, nil, "", apperr.Field("email", MsgModerateDisabled)
	case target.Status != StatusActive:
		return nil, nil, "", apperr.Field("email", MsgModerateInvited)
	case target.Role == RoleAdmin || target.Role == RoleSuperAdmin:
		// Acting as an admin would hand one admin another's powers; a moderated session carries no
		// admin rights anyway (platform/auth.Authenticate).
		return nil, nil, "", apperr.New(apperr.EFORBIDDEN, MsgModerateAdmin)
	}
	if co, err := s.store.CompanyByID(ctx, target.CompanyID); err != nil {
		return nil, nil, "", db.Translate(err, MsgCompanyNotFound, "")
	} else if co.Status != StatusActive {
		return nil, nil, "", apperr.Field("email", MsgModerateCompanyOff)
	}
	admin, err := s.store.UserByID(ctx, p.UserID)
	if err != nil {
		return nil, nil, "", apperr.Internal(err)
	}
	var token string
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		t, err := s.deps.Sessions.CreateModerated(ctx, target.ID, admin.ID, ip, userAgent)
		if err != nil {
			return apperr.Internal(err)
		}
		token = t
		err = s.deps.Audit.RecordAs(ctx, audit.Actor{ID: admin.ID, Email: admin.Email, IP: ip}, audit.Change{
			Action: AuditModerateSignIn, ObjectType: AuditObjectUser, ObjectID: target.ID,
			After: map[string]string{"email": target.Email, "user_agent": userAgent}})
		if err != nil {
			return apperr.Internal(err)
		}
		return nil
	})
	if err != nil {
		return nil, nil, "", err
	}
	u, err := s.FindUserByID(ctx, target.ID)
	if err != nil {
		return nil, nil, "", err
	}
	return u, toModerator(admin.ID, admin.Email, admin.FirstName, admin.LastName), token, nil
}

// moderateSignOut ends the moderated session of p and records it. It reports whether adminToken
// is still a live session of the moderating admin (to be restored) and returns that admin.
func (s *service) moderateSignOut(ctx context.Context, p *auth.Principal, adminToken string) (*User, bool, error) {
	if p.ModeratorID == "" {
		return nil, false, apperr.New(apperr.EINVALID, MsgModerateNotModerated)
	}
	admin, err := s.store.UserByID(ctx, p.ModeratorID)
	if err != nil && !db.IsNotFound(err) {
		return nil, false, apperr.Internal(err)
	}
	sess, err := s.deps.Sessions.Lookup(ctx, adminToken)
	if err != nil {
		return nil, false, apperr.Internal(err)
	}
	restore := admin != nil && admin.Status == StatusActive && sess != nil && sess.UserID == p.ModeratorID && sess.ModeratorID == ""
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if err := s.deps.Sessions.RevokeID(ctx, p.SessionID); err != nil {
			return apperr.Internal(err)
		}
		actor := audit.Actor{ID: p.ModeratorID, IP: p.IP}
		if admin != nil {
			actor.Email = admin.Email
		}
		if err := s.deps.Audit.RecordAs(ctx, actor, audit.Change{Action: AuditModerateSignOut, ObjectType: AuditObjectUser,
			ObjectID: p.UserID, Before: map[string]string{"email": p.Email}}); err != nil {
			return apperr.Internal(err)
		}
		return nil
	})
	if err != nil || !restore {
		return nil, false, err
	}
	u, err := s.FindUserByID(ctx, admin.ID)
	return u, err == nil, err
}
