package campaigns

import (
	"context"
	"fmt"
	"strings"

	"marquee/modules/campaigns/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/db"
	"marquee/platform/mail"
	"marquee/platform/money"
)

// The module's emails. They go through the outbox (Deps.Outbox) in the transaction that causes
// them, to the user who created the campaign.

// campaignUpdatedMail tells the advertiser that an admin updated their campaign (the 'update
// mailer' of the admin edit screen, B §2).
func campaignUpdatedMail(to, firstName string, c *store.Campaign, note string) mail.Message {
	if note = strings.TrimSpace(note); note != "" {
		note = "\nA note from our team:\n" + note + "\n"
	}
	return mail.Message{
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
func (m *Module) advertiser(ctx context.Context, c *store.Campaign) (email, firstName string, err error) {
	us, err := m.deps.Identity.FindUsersByIDs(ctx, []string{c.UserID})
	if err != nil {
		return "", "", err
	}
	if len(us) == 0 || us[0].Local.Email == "" {
		return "", "", apperr.NotFound("The campaign's advertiser no longer exists.")
	}
	return us[0].Local.Email, us[0].Local.FirstName, nil
}

// mailCampaignUpdated queues the update mail in the caller's transaction.
func (m *Module) mailCampaignUpdated(ctx context.Context, c *store.Campaign, note string) error {
	to, name, err := m.advertiser(ctx, c)
	if err != nil {
		return err
	}
	return m.deps.Outbox.Enqueue(ctx, campaignUpdatedMail(to, name, c, note))
}

// notify queues a notification in the caller's transaction without letting it veto the change
// it reports (DESIGN §1.14, issue 24 §3): a campaign whose pause email could not be queued was
// left running unpaid.
func (m *Module) notify(ctx context.Context, what string, fn func(ctx context.Context) error) {
	db.Notify(ctx, m.deps.DB, what, fn)
}

// publishCompleted publishes EventCampaignCompleted in the caller's transaction (webhooks forward
// it), as a notification.
func (m *Module) publishCompleted(ctx context.Context, c *store.Campaign) {
	m.notify(ctx, EventCampaignCompleted, func(ctx context.Context) error {
		return m.deps.Events.Publish(ctx, EventCampaignCompleted, CampaignCompleted{CampaignID: c.ID, CompanyID: c.CompanyID, TotalCost: money.Cents(c.TotalCost)})
	})
}

// publishStatus publishes EventCampaignActivated or EventCampaignPaused when status is active or
// paused, in the caller's transaction, as a notification (webhooks forward them; other statuses
// publish nothing).
func (m *Module) publishStatus(ctx context.Context, c *store.Campaign, status string) {
	name := map[string]string{StatusActive: EventCampaignActivated, StatusPaused: EventCampaignPaused}[status]
	if name == "" || status == c.Status {
		return
	}
	m.notify(ctx, name, func(ctx context.Context) error {
		return m.deps.Events.Publish(ctx, name, CampaignStatusChanged{CampaignID: c.ID, CompanyID: c.CompanyID, Status: status})
	})
}
