package screens

import (
	"fmt"
	"time"

	"marquee/platform/mail"
)

// silentMail tells the admins a screen has gone silent during operating hours.
func silentMail(to, screenID, faceID string, heard time.Time, after time.Duration, base string) mail.Message {
	last := heard.UTC().Format(time.RFC3339)
	text := fmt.Sprintf("The screen %s of face %s has not been heard since %s: more than %s, during operating hours.\n\n"+
		"Its plays are not counted while it is silent; a player that only lost its network sends them when it reconnects.\n\n"+
		"Screens: %s/admin/screens\n", screenID, faceID, last, after, base)
	html := mail.Letter{Title: "A screen is silent", Greeting: "Hello,",
		Intro:  []string{fmt.Sprintf("A paired screen has not been heard for more than %s, during operating hours.", after)},
		Facts:  []mail.Fact{{Label: "Screen", Value: screenID}, {Label: "Face", Value: faceID}, {Label: "Last heard", Value: last}},
		Outro:  []string{"Its plays are not counted while it is silent; a player that only lost its network sends them when it reconnects."},
		Button: &mail.Link{Label: "Open Screens", URL: base + "/admin/screens"},
	}.HTML()
	return mail.Message{To: []string{to}, Subject: "Screen silent: " + screenID, Text: text, HTML: html}
}

// backMail tells the admins a silent screen is heard again.
func backMail(to, screenID, faceID string, heard, silentSince time.Time, base string) mail.Message {
	last, since := heard.UTC().Format(time.RFC3339), silentSince.UTC().Format(time.RFC3339)
	text := fmt.Sprintf("The screen %s of face %s is heard again (last heard %s), after a silence reported at %s.\n\n"+
		"Screens: %s/admin/screens\n", screenID, faceID, last, since, base)
	html := mail.Letter{Title: "A screen is back", Greeting: "Hello,",
		Intro:  []string{"A paired screen that was silent is heard again."},
		Facts:  []mail.Fact{{Label: "Screen", Value: screenID}, {Label: "Face", Value: faceID}, {Label: "Last heard", Value: last}, {Label: "Silent since", Value: since}},
		Button: &mail.Link{Label: "Open Screens", URL: base + "/admin/screens"},
	}.HTML()
	return mail.Message{To: []string{to}, Subject: "Screen back: " + screenID, Text: text, HTML: html}
}
