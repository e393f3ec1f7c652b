package creatives

import (
	"fmt"

	"marquee/platform/mail"
)

// The module's emails. They go through the outbox in the transaction that causes them.

// creativeRequestMail tells the operations team that a company wants a creative built (A §4). The
// requester's typed address is the Reply-To, so the team answers them directly.
func creativeRequestMail(to, company, companyType string, req CreativeRequest, accountEmail string) mail.Message {
	msg := req.Message
	if msg == "" {
		msg = "(no message)"
	}
	return mail.Message{
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
	return mail.Message{
		To:      []string{to},
		Subject: "We received your creative request",
		Text: fmt.Sprintf(`Hello %s,

Thank you for your Creative request - Someone will be in touch with you shortly at %s.

The Marquee team
`, req.FullName, req.Email),
	}
}
