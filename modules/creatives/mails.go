package creatives

import (
	"context"
	"fmt"
	netmail "net/mail"

	"marquee/modules/identity"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/mail"
	"marquee/platform/ratelimit"
)

// The module's emails. They go through the outbox in the transaction that causes them.

// creativeRequestMail tells the operations team that a company wants a creative built (A §4). The
// requester's typed address is the Reply-To, so the team answers them directly.
func creativeRequestMail(to, company, companyType string, req CreativeRequest, accountEmail string) mail.Message {
	msg := req.Message
	if msg == "" {
		msg = "(no message)"
	}
	html := mail.Letter{Title: "Creative request from " + company,
		Intro: []string{"A customer asked for a creative to be built. Reply to this email to answer them."},
		Facts: []mail.Fact{{Label: "Name", Value: req.FullName}, {Label: "Email", Value: req.Email},
			{Label: "Company", Value: company + " (" + companyType + ")"}, {Label: "Account", Value: accountEmail}},
		Note: msg, NoteTitle: "Message",
	}.HTML()
	return mail.Message{
		HTML:    html,
		To:      []string{to},
		ReplyTo: req.Email,
		Subject: "Creative request from " + company,
		Text: fmt.Sprintf(`A customer asked for a creative to be built.

Name:     %s
Email:    %s
Company:  %s (%s)
Account:  %s

Message:
%s
`, req.FullName, req.Email, company, companyType, accountEmail, msg),
	}
}

// creativeRequestCopy confirms the request to the signed-in user's own address (never to a typed
// address, so the call cannot send mail to strangers).
func creativeRequestCopy(to string, req CreativeRequest) mail.Message {
	html := mail.Letter{Title: "We received your creative request", Greeting: "Hello " + req.FullName + ",",
		Intro: []string{"Thank you for your Creative request - Someone will be in touch with you shortly at " + req.Email + "."},
	}.HTML()
	return mail.Message{
		HTML:    html,
		To:      []string{to},
		Subject: "We received your creative request",
		Text: fmt.Sprintf(`Hello %s,

Thank you for your Creative request - Someone will be in touch with you shortly at %s.

The Marquee team
`, req.FullName, req.Email),
	}
}

// requestCreative sends the creative request (A §4, §8) to operations, with a copy to the
// signed-in user's own address, never to the typed one: the call cannot mail strangers. Rate
// limited per user.
func (s *service) requestCreative(ctx context.Context, p *auth.Principal, req CreativeRequest) (MessageResponse, error) {
	var err error
	if req.FullName, err = cleanText("full_name", req.FullName, maxFullNameLen, true); err != nil {
		return MessageResponse{}, err
	}
	if req.Message, err = cleanText("message", req.Message, maxMessageLen, false); err != nil {
		return MessageResponse{}, err
	}
	addr, perr := netmail.ParseAddress(req.Email)
	if perr != nil || addr.Name != "" || len(req.Email) > 254 {
		return MessageResponse{}, apperr.Field("email", identity.MsgInvalidEmail)
	}
	req.Email = addr.Address
	if err := ratelimit.Check(ctx, s.requestLimit, MsgTooManyRequests, "creative-request:"+p.UserID); err != nil {
		return MessageResponse{}, err
	}
	company, err := s.deps.Identity.FindCompanyByID(ctx, p.CompanyID)
	if err != nil {
		return MessageResponse{}, err
	}
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if err := s.deps.Outbox.Enqueue(ctx, creativeRequestMail(s.deps.OperationsEmail, company.Name, company.Type, req, p.Email)); err != nil {
			return err
		}
		return s.deps.Outbox.Enqueue(ctx, creativeRequestCopy(p.Email, req))
	})
	if err != nil {
		return MessageResponse{}, err
	}
	return MessageResponse{Success: true, Message: MsgCreativeRequested}, nil
}
