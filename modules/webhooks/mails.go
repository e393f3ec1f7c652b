package webhooks

import (
	"fmt"

	"marquee/platform/mail"
)

// disabledMail tells an endpoint's owner it was disabled.
func disabledMail(to, firstName, endpointURL, base string) mail.Message {
	text := fmt.Sprintf("Hello %s,\n\nEvery delivery to your webhook endpoint %s failed for 24 hours, so we have disabled it.\n\n"+
		"Once your receiver answers again, enable the endpoint in Settings > API (%s/settings) and redeliver the events you missed "+
		"from its delivery log.\n\nThe Marquee team\n", firstName, endpointURL, base)
	html := mail.Letter{Title: "Your webhook endpoint was disabled", Greeting: "Hello " + firstName + ",",
		Intro:  []string{"Every delivery to your webhook endpoint failed for 24 hours, so we have disabled it."},
		Facts:  []mail.Fact{{Label: "Endpoint", Value: endpointURL}},
		Outro:  []string{"Once your receiver answers again, enable the endpoint in Settings > API and redeliver the events you missed from its delivery log."},
		Button: &mail.Link{Label: "Open Settings", URL: base + "/settings"},
	}.HTML()
	return mail.Message{To: []string{to}, Subject: "Your Marquee webhook endpoint was disabled", Text: text, HTML: html}
}
