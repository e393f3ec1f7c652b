package campaigns

import (
	"context"
	"fmt"
	"strings"

	"marquee/modules/campaigns/internal/makegood"
	"marquee/modules/campaigns/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/mail"
	"marquee/platform/money"
)

// The module's emails. They go through the outbox (Deps.Outbox) in the transaction that causes
// them, to the user who created the campaign.

// campaignUpdatedMail tells the advertiser that an admin updated their campaign (the 'update
// mailer' of the admin edit screen, B §2).
func campaignUpdatedMail(to, firstName string, c *store.Campaign, note string) mail.Message {
	html := mail.Letter{Title: "Your campaign has been updated", Greeting: "Hello " + firstName + ",",
		Intro: []string{"Our team has updated your campaign \u201c" + c.Name + "\u201d."},
		Facts: []mail.Fact{{Label: "Starts", Value: c.StartDate.Format("Jan 02, 2006")}, {Label: "Ends", Value: c.EndDate.Format("Jan 02, 2006")}},
		Note:  strings.TrimSpace(note),
		Outro: []string{"You can review it in your dashboard under Campaigns."},
	}.HTML()
	if note = strings.TrimSpace(note); note != "" {
		note = "\nA note from our team:\n" + note + "\n"
	}
	return mail.Message{
		HTML:    html,
		To:      []string{to},
		Subject: "Your campaign " + c.Name + " has been updated",
		Text: fmt.Sprintf(`Hello %s,

Our team has updated your campaign "%s". It now runs from %s to %s.
%s
You can review it in your dashboard under Campaigns.

The Marquee team
`, firstName, c.Name, c.StartDate.Format("Jan 02, 2006"), c.EndDate.Format("Jan 02, 2006"), note),
	}
}

// advertiser finds the email and first name of the user who created the campaign.
func (s *service) advertiser(ctx context.Context, c *store.Campaign) (email, firstName string, err error) {
	us, err := s.deps.Identity.FindUsersByIDs(ctx, []string{c.UserID})
	if err != nil {
		return "", "", err
	}
	if len(us) == 0 || us[0].Local.Email == "" {
		return "", "", apperr.NotFound("The campaign's advertiser no longer exists.")
	}
	return us[0].Local.Email, us[0].Local.FirstName, nil
}

// mailCampaignUpdated queues the update mail in the caller's transaction.
func (s *service) mailCampaignUpdated(ctx context.Context, c *store.Campaign, note string) error {
	to, name, err := s.advertiser(ctx, c)
	if err != nil {
		return err
	}
	return s.deps.Outbox.Enqueue(ctx, campaignUpdatedMail(to, name, c, note))
}

// notify queues a notification in the caller's transaction without letting it veto the change
// it reports (DESIGN §1.14): a campaign whose pause email could not be queued was
// left running unpaid.
func (s *service) notify(ctx context.Context, what string, fn func(ctx context.Context) error) {
	db.Notify(ctx, s.deps.DB, what, fn)
}

// publishCompleted publishes EventCampaignCompleted in the caller's transaction (webhooks forward
// it), as a notification.
func (s *service) publishCompleted(ctx context.Context, c *store.Campaign) {
	s.notify(ctx, EventCampaignCompleted, func(ctx context.Context) error {
		return s.deps.Events.Publish(ctx, EventCampaignCompleted, CampaignCompleted{CampaignID: c.ID, CompanyID: c.CompanyID, TotalCost: money.Cents(c.TotalCost)})
	})
}

// publishStatus publishes EventCampaignActivated or EventCampaignPaused when status is active or
// paused, in the caller's transaction, as a notification (webhooks forward them; other statuses
// publish nothing).
func (s *service) publishStatus(ctx context.Context, c *store.Campaign, status string) {
	name := map[string]string{StatusActive: EventCampaignActivated, StatusPaused: EventCampaignPaused}[status]
	if name == "" || status == c.Status {
		return
	}
	s.notify(ctx, name, func(ctx context.Context) error {
		return s.deps.Events.Publish(ctx, name, CampaignStatusChanged{CampaignID: c.ID, CompanyID: c.CompanyID, Status: status})
	})
}

// paymentFailedMail tells the advertiser that a week's payment failed and the campaign is paused.
func paymentFailedMail(to, firstName string, c *store.Campaign, week dates.Date, reason string) mail.Message {
	text := fmt.Sprintf("Hello %s,\n\nThe payment for the week of %s of your campaign \"%s\" failed: %s\n\n"+
		"Your campaign is paused. Please update your card in Settings, then resume the campaign from its page.\n\n"+
		"The Marquee team\n", firstName, week.Format("Jan 02, 2006"), c.Name, reason)
	html := mail.Letter{Title: "Your campaign is paused: payment failed", Greeting: "Hello " + firstName + ",",
		Intro: []string{"The payment for the week of " + week.Format("Jan 02, 2006") + " of your campaign \u201c" + c.Name + "\u201d failed: " + reason},
		Outro: []string{"Your campaign is paused. Please update your card in Settings, then resume the campaign from its page."},
	}.HTML()
	return mail.Message{To: []string{to}, Subject: "Your campaign " + c.Name + " is paused: payment failed", Text: text, HTML: html}
}

// renewalLetter is the HTML part of the renewal reminder (renew.go writes its text).
func renewalLetter(firstName string, c *store.Campaign, link string) string {
	return mail.Letter{Title: "Your campaign ends on " + c.EndDate.Format("Jan 02, 2006"), Greeting: "Hello " + firstName + ",",
		Intro: []string{"Your campaign \u201c" + c.Name + "\u201d ends on " + c.EndDate.Format("Jan 02, 2006") + ".",
			"To keep your ad on the same billboards, renew it: the link opens a new campaign with the same locations for the next available weeks, at today's prices. You review the quote before anything is booked or charged."},
		Button: &mail.Link{Label: "Renew the campaign", URL: link},
	}.HTML()
}

// makeGoodFacts are the key figures of a make-good email.
func makeGoodFacts(c *store.Campaign, mg *store.MakeGood, pct string) []mail.Fact {
	return []mail.Fact{
		{Label: "Campaign", Value: c.Name},
		{Label: "Billboard", Value: mg.LocationName + " (" + mg.Face + ")"},
		{Label: "Week of", Value: mg.WeekStart.Format("Jan 02, 2006")},
		{Label: "Contracted impressions", Value: makegood.GroupDigits(mg.Planned)},
		{Label: "Delivered impressions", Value: makegood.GroupDigits(mg.Delivered) + " (" + pct + "%)"},
		{Label: "Guarantee", Value: fmt.Sprintf("%d%%", mg.ThresholdPercent)},
	}
}
