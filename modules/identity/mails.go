package identity

import (
	"fmt"
	"time"

	"marquee/platform/mail"
)

// The module's emails. They go through the outbox in the transaction that causes them, so a mail
// is sent exactly when its change commits.

func welcomeMail(to, company, baseURL string) mail.Message {
	html := mail.Letter{Title: "Welcome to Marquee!",
		Intro:  []string{"Your company " + company + " is registered. You can plan your first billboard campaign now."},
		Button: &mail.Link{Label: "Plan a campaign", URL: baseURL + "/campaigns/new"},
		Outro:  []string{"Pick faces on the map by market or around an address, choose your dates and a creative, and follow delivery week by week."},
	}.HTML()
	return mail.Message{
		HTML:    html,
		To:      []string{to},
		Subject: "Welcome to Marquee",
		Text: fmt.Sprintf(`Welcome to Marquee!

Your company %s is registered. You can plan your first billboard campaign now:

%s/campaigns/new

Pick faces on the map by market or around an address, choose your dates and a creative, and follow
delivery week by week.

The Marquee team
`, company, baseURL),
	}
}

func resetMail(to, link string, ttl time.Duration) mail.Message {
	html := mail.Letter{Title: "Reset your password",
		Intro:  []string{"Someone asked to reset the password of your Marquee account.", "To choose a new password, open this link within " + humanDuration(ttl) + "."},
		Button: &mail.Link{Label: "Choose a new password", URL: link},
		Outro:  []string{"The link works once. If you did not ask for it, ignore this email: your password stays as it is."},
	}.HTML()
	return mail.Message{
		HTML:    html,
		To:      []string{to},
		Subject: "Reset your Marquee password",
		Text: fmt.Sprintf(`Someone asked to reset the password of your Marquee account.

To choose a new password, open this link within %s:

%s

The link works once. If you did not ask for it, ignore this email: your password stays as it is.

The Marquee team
`, humanDuration(ttl), link),
	}
}

func passwordChangedMail(to string) mail.Message {
	html := mail.Letter{Title: "Your password was changed",
		Intro: []string{"The password of your Marquee account was just changed, and your other sessions were signed out.",
			"If this was not you, reset your password now from the sign-in page and contact support."},
	}.HTML()
	return mail.Message{
		HTML:    html,
		To:      []string{to},
		Subject: "Your Marquee password was changed",
		Text: `The password of your Marquee account was just changed, and your other sessions were signed out.

If this was not you, reset your password now from the sign-in page and contact support.

The Marquee team
`,
	}
}

func humanDuration(d time.Duration) string {
	switch {
	case d >= 48*time.Hour && d%(24*time.Hour) == 0:
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	case d >= 2*time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%d hours", d/time.Hour)
	case d == time.Hour:
		return "1 hour"
	default:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
}

func inviteMail(to, inviter, company, link string, ttl time.Duration) mail.Message {
	who := "You are invited"
	if inviter != "" {
		who = inviter + " invited you"
	}
	html := mail.Letter{Title: "You have been invited to " + company,
		Intro: []string{who + " to join " + company + " on Marquee, where your team plans and follows its billboard campaigns.",
			"To set your password and sign in, open this link within " + humanDuration(ttl) + "."},
		Button: &mail.Link{Label: "Set your password", URL: link},
		Outro:  []string{"The link works once. If you did not expect this invitation, ignore this email."},
	}.HTML()
	return mail.Message{
		HTML:    html,
		To:      []string{to},
		Subject: "You have been invited to " + company + " on Marquee",
		Text: fmt.Sprintf(`%s to join %s on Marquee, where your team plans and follows its billboard
campaigns.

To set your password and sign in, open this link within %s:

%s

The link works once. If you did not expect this invitation, ignore this email.

The Marquee team
`, who, company, humanDuration(ttl), link),
	}
}
