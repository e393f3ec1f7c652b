package campaigns

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"marquee/modules/campaigns/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/jobs"
	"marquee/platform/mail"
	"marquee/platform/money"
)

// Renewal (docs/delivery-assurance.md): RenewalReminderDays before a finite campaign
// ends (B §9 "imminent") the advertiser is emailed a link to /campaigns/new?renew={id}. The link
// opens the creation form prefilled by GET /api/campaigns/{id}/renew: the same faces, the next
// weeks that can still be booked, the current prices (the form asks the quote). Creating it is the
// normal creation (quote, card, conflicts): renewal itself books and charges nothing.

// renewLink is the web page that opens the prefilled form.
func (a *assurance) renewLink(campaignID string) string {
	return strings.TrimRight(a.deps.BaseURL, "/") + "/campaigns/new?renew=" + campaignID
}

// renewNameSuffix marks the renewed campaign's name; the name stays within its 100 characters.
const renewNameSuffix = " (renewed)"

// renewPrefill answers the prefill of a campaign of the principal's company (any for an admin).
// ENOTFOUND for another company's; EINVALID (MsgNotRenewable) for an ongoing, pending or canceled
// campaign.
func (a *assurance) renewPrefill(ctx context.Context, p *auth.Principal, id string) (*RenewPrefill, error) {
	c, err := a.store.FindCampaign(ctx, scope(p), id)
	if err != nil {
		return nil, db.Translate(err, MsgCampaignNotFound, "")
	}
	if !isFinite(c.Frequency) || !(c.Status == StatusActive || c.Status == StatusPaused || c.Status == StatusCompleted) {
		return nil, apperr.New(apperr.EINVALID, MsgNotRenewable)
	}
	rows, err := a.store.PacingWeeks(ctx, []string{c.ID})
	if err != nil {
		return nil, apperr.Internal(err)
	}
	var last dates.Date
	for _, w := range rows {
		if w.StartAt.After(last) {
			last = w.StartAt
		}
	}
	faces := []string{}
	for _, w := range rows {
		if w.StartAt.Equal(last) && !slices.Contains(faces, w.FaceID) {
			faces = append(faces, w.FaceID)
		}
	}
	start := renewStart(c, last, dates.Today(a.deps.Clock))
	freq := NormalizeFrequency(c.Frequency)
	duration := 1
	if freq == FrequencyWeekly {
		duration = max(c.Duration, 1)
	}
	name := c.Name
	if r := []rune(name); len(r)+len([]rune(renewNameSuffix)) > 100 {
		name = string(r[:100-len([]rune(renewNameSuffix))])
	}
	out := &RenewPrefill{CampaignID: c.ID, Name: name + renewNameSuffix, TypeCampaign: TypePremium, Strategy: c.Strategy,
		Markets: jsonList(c.Markets), Cities: jsonList(c.Cities), PlaceID: c.PlaceID, PlaceName: c.PlaceName, Radius: c.Radius,
		StartDate: start, EndDate: EndOf(start, duration), Frequency: freq, Duration: duration, Faces: faces}
	if c.MbCampaign {
		out.TypeCampaign, out.DailyBudget = TypeMaximumBudget, money.Cents(c.MaxBudget)
	}
	if c.CreativeID != "" {
		crs, err := a.deps.Creatives.FindCreativesByIDs(ctx, []string{c.CreativeID})
		if err != nil {
			return nil, err
		}
		// Only a creative that is still the company's (FindCreativesByIDs leaves the check to us).
		for _, cr := range crs {
			if cr.ID == c.CreativeID && cr.Company == c.CompanyID {
				out.CreativeID, out.CreativeName, out.CreativeURL = cr.ID, cr.Name, cr.AwsURL
			}
		}
	}
	return out, nil
}

// renewStart is the renewal's first week: the Monday after the campaign's last week, or the
// earliest start when that one is already past its Wednesday cut-off (B §4).
func renewStart(c *store.Campaign, lastWeek dates.Date, today dates.Date) dates.Date {
	next := c.EndDate.AddDays(1).WeekStart()
	if !lastWeek.IsZero() && lastWeek.AddWeeks(1).After(next) {
		next = lastWeek.AddWeeks(1)
	}
	if earliest := EarliestStart(today); next.Before(earliest) {
		next = earliest
	}
	return next
}

// jobRenewal is the renewal reminder job's name.
const jobRenewal = "campaigns.renewal-reminders"

// renewalEvery: the job looks four times an hour; a campaign is mailed on the first run of the
// day its end comes within RenewalReminderDays (business time zone).
const renewalEvery = 15 * time.Minute

func (a *assurance) renewalJob() jobs.Job {
	return jobs.Job{Name: jobRenewal, Every: renewalEvery, Run: func(ctx context.Context) error {
		_, err := a.RunRenewalReminders(ctx)
		return err
	}}
}

// RunRenewalReminders mails the renewal reminder of every active finite campaign that has started
// and ends within RenewalReminderDays days (B §9 "imminent"), once per campaign: the row of
// campaigns_renewal_mails and the outbox row commit together, under the campaign's lock, so a
// second run (or a second leader) mails nothing twice. It answers how many it mailed.
func (a *assurance) RunRenewalReminders(ctx context.Context) (int, error) {
	today := dates.Today(a.deps.Clock)
	cs, err := a.store.RenewalDue(ctx, []string{StatusActive}, []string{FrequencyOneTime, FrequencyWeekly}, today, today.AddDays(RenewalReminderDays))
	if err != nil {
		return 0, apperr.Internal(err)
	}
	sent := 0
	for i := range cs {
		if cs[i].StartDate.After(today) || ctx.Err() != nil {
			continue
		}
		ok, err := a.remindRenewal(ctx, cs[i].ID, today)
		if err != nil {
			a.deps.Log.ErrorContext(ctx, "campaigns: renewal reminder failed", "campaign", cs[i].ID, "err", err)
			continue
		}
		if ok {
			sent++
		}
	}
	return sent, ctx.Err()
}

// remindRenewal records and queues one campaign's reminder in one transaction, after reading the
// campaign again under its lock (a stop or an edit may have come in between).
func (a *assurance) remindRenewal(ctx context.Context, id string, today dates.Date) (bool, error) {
	sent := false
	err := db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		sent = false
		c, err := a.lockCampaign(ctx, "", id)
		if err != nil {
			return err
		}
		if c.Status != StatusActive || !isFinite(c.Frequency) || c.StartDate.After(today) || c.EndDate.Before(today) ||
			today.DaysUntil(c.EndDate) > RenewalReminderDays {
			return nil
		}
		ok, err := a.store.InsertRenewalMail(ctx, &store.RenewalMail{CampaignID: c.ID, CompanyID: c.CompanyID, EndDate: c.EndDate, CreatedAt: a.deps.Clock.Now()})
		if err != nil || !ok {
			return err
		}
		to, name, err := a.advertiser(ctx, c)
		if err != nil {
			return err
		}
		sent = true
		return a.deps.Outbox.Enqueue(ctx, renewalMail(to, name, c, a.renewLink(c.ID)))
	})
	return sent, err
}

// renewalMail reminds the advertiser that the campaign ends soon and offers the renewal.
func renewalMail(to, firstName string, c *store.Campaign, link string) mail.Message {
	return mail.Message{
		HTML:    renewalLetter(firstName, c, link),
		To:      []string{to},
		Subject: "Your campaign " + c.Name + " ends on " + c.EndDate.Format("Jan 02, 2006"),
		Text: fmt.Sprintf(`Hello %s,

Your campaign "%s" ends on %s.

To keep your ad on the same billboards, renew it: the link opens a new campaign with the same
locations for the next available weeks, at today's prices. You review the quote before anything
is booked or charged.

Renew: %s

The Marquee team
`, firstName, c.Name, c.EndDate.Format("Jan 02, 2006"), link),
	}
}
