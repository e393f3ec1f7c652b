package reports

import (
	"context"
	"fmt"
	"strings"
	"time"

	"marquee/modules/campaigns"
	"marquee/modules/reports/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/jobs"
	"marquee/platform/mail"
)

// Scheduled reports (beyond the spec): an advertiser turns on a campaign's weekly report
// on /reports; each Monday the job makes the PDF of the week that just ended and emails its link
// through the outbox. It happens once per campaign and week, whatever the replicas: the job runs
// on the leader only (platform/jobs), and the run row (primary key campaign and week) is inserted
// in the transaction that inserts the report and queues the email, so a second attempt rolls back.

// weeklyEvery is how often the job looks; a run finds nothing to do until the next Monday.
const weeklyEvery = time.Hour

// schedulePage is how many schedules the job reads at a time.
const schedulePage = 100

func (s *service) today() dates.Date { return dates.Today(s.deps.Clock) }

// lastWeek is the week that ended last Sunday (business time zone), and when this week began.
func (s *service) lastWeek() (dates.Date, time.Time) {
	thisWeek := s.today().WeekStart()
	return thisWeek.AddWeeks(-1), thisWeek.Time()
}

func (s *service) weeklyJob() jobs.Job {
	return jobs.Job{Name: "reports.weekly", Every: weeklyEvery, Run: func(ctx context.Context) error {
		_, err := s.RunWeekly(ctx)
		return err
	}}
}

// WeeklyResult says what one run of the weekly job did.
type WeeklyResult struct {
	Made    int // reports made and emailed
	Skipped int // campaigns with nothing to report for the week
}

// setSchedule turns a campaign's weekly report on or off. The emails go to whoever turned it on
// (for an admin, the campaign's advertiser).
func (s *service) setSchedule(ctx context.Context, p *auth.Principal, campaignID string, req ScheduleRequest) (*MessageResponse, error) {
	on := req.Enabled
	c, err := s.campaignFor(ctx, p, campaignID)
	if err != nil {
		return nil, err
	}
	user := p.UserID
	if p.IsAdmin() {
		user = c.UserID
	}
	sc := store.Schedule{CampaignID: c.ID, CompanyID: c.CompanyID, UserID: user, CreatedAt: s.deps.Clock.Now()}
	if err := s.store.SetSchedule(ctx, sc, on); err != nil {
		return nil, apperr.Internal(err)
	}
	msg := MsgScheduleOff
	if on {
		msg = MsgScheduleOn
	}
	return &MessageResponse{Success: true, Message: msg}, nil
}

// RunWeekly makes the weekly reports due: for each schedule turned on before this week began, the
// report of last week (Monday to Sunday), unless it was made already.
func (s *service) RunWeekly(ctx context.Context) (WeeklyResult, error) {
	var res WeeklyResult
	week, thisMonday := s.lastWeek()
	after := ""
	for {
		scs, err := s.store.SchedulesAfter(ctx, after, schedulePage)
		if err != nil {
			return res, apperr.Internal(err)
		}
		if len(scs) == 0 {
			return res, nil
		}
		after = scs[len(scs)-1].CampaignID
		ids := make([]string, 0, len(scs))
		for _, sc := range scs {
			ids = append(ids, sc.CampaignID)
		}
		done, err := s.store.RunsOf(ctx, ids, week)
		if err != nil {
			return res, apperr.Internal(err)
		}
		cs, err := s.deps.Campaigns.FindCampaignsByIDs(ctx, ids)
		if err != nil {
			return res, err
		}
		byID := map[string]*campaigns.Campaign{}
		for _, c := range cs {
			byID[c.ID] = c
		}
		for _, sc := range scs {
			// A schedule turned on during this week starts next Monday.
			if done[sc.CampaignID] || !sc.CreatedAt.Before(thisMonday) {
				continue
			}
			made, err := s.weeklyReport(ctx, sc, byID[sc.CampaignID], week)
			if err != nil {
				return res, err
			}
			if made {
				res.Made++
			} else {
				res.Skipped++
			}
		}
		if len(scs) < schedulePage {
			return res, nil
		}
	}
}

// weeklyReport makes one campaign's report of the week, or records that there was nothing to
// report. It answers whether a report was made.
func (s *service) weeklyReport(ctx context.Context, sc store.Schedule, c *campaigns.Campaign, week dates.Date) (bool, error) {
	run := &store.ScheduleRun{CampaignID: sc.CampaignID, WeekStart: week, CreatedAt: s.deps.Clock.Now()}
	var weeks []campaigns.Week
	if c != nil && !c.Deleted {
		all, err := s.deps.Campaigns.FindWeeks(ctx, c.ID)
		if err != nil {
			return false, err
		}
		for i := range all {
			if all[i].StartAt.Equal(week) && all[i].EndAt.Before(s.today()) {
				weeks = append(weeks, all[i])
			}
		}
	}
	if len(weeks) == 0 {
		if err := s.store.Create(ctx, run); err != nil && !db.IsDuplicate(err) {
			return false, apperr.Internal(err)
		}
		return false, nil
	}
	us, err := s.deps.Identity.FindUsersByIDs(ctx, []string{sc.UserID})
	if err != nil {
		return false, err
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return false, err
	}
	defer release()
	_, err = s.generate(ctx, generation{campaign: c, weeks: weeks, userID: sc.UserID, source: SourceScheduled,
		name:         fmt.Sprintf("%s - week of %s", c.Name, week.Format("Jan 02, 2006")),
		emailPreview: true,
		inTx: func(ctx context.Context, r *store.Report, pic *emailPicture) error {
			run.ReportID = r.ID
			if err := s.store.Create(ctx, run); err != nil {
				return err
			}
			if len(us) == 0 || us[0].Local.Email == "" {
				return nil
			}
			// The report and its run stand even when the email cannot be queued (DESIGN §1.14).
			db.Notify(ctx, s.deps.DB, "mail: weekly report", func(ctx context.Context) error {
				err := s.deps.Outbox.Enqueue(ctx, weeklyMail(us[0].Local.Email, us[0].Local.FirstName, r, s.reportLink(r.ID), pic))
				if err != nil && pic != nil {
					// The picture is a bonus: the email goes without it rather than not at all.
					s.deps.Log.WarnContext(ctx, "reports: weekly email without its preview", "report", r.ID, "err", err)
					err = s.deps.Outbox.Enqueue(ctx, weeklyMail(us[0].Local.Email, us[0].Local.FirstName, r, s.reportLink(r.ID), nil))
				}
				return err
			})
			return nil
		}})
	if db.IsDuplicate(err) {
		// Another run made it first: nothing was kept of this one.
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, nil
}

// reportLink is the report's page in the web app.
func (s *service) reportLink(id string) string {
	return strings.TrimRight(s.deps.BaseURL, "/") + "/reports/" + id
}

// weeklyMail tells the advertiser that the week's report is ready. With pic, the HTML shows their
// ad on the face that delivered the most (an inline picture, mail.Inline); without it (no face
// with a photo, or the preview could not be drawn or is too large) the email goes all the same.
// The text part is the same either way.
func weeklyMail(to, firstName string, r *store.Report, link string, pic *emailPicture) mail.Message {
	var inline []mail.Inline
	var picture *mail.Picture
	if pic != nil && len(pic.png) <= mail.MaxInlineBytes {
		inline = []mail.Inline{{ContentID: emailPreviewCID, ContentType: "image/png", Data: pic.png}}
		picture = &mail.Picture{ContentID: emailPreviewCID, Width: pic.width, Height: pic.height,
			Alt: "Your ad on the face " + pic.caption, Caption: "Your ad on " + pic.caption + ", as drawn on the face's photo."}
	}
	return mail.Message{
		Inline:  inline,
		HTML:    weeklyLetter(firstName, r.CampaignName, reportFacts(r.PeriodStart, r.PeriodEnd, r.Figures), link, picture),
		To:      []string{to},
		Subject: "Your weekly report for " + r.CampaignName + " is ready",
		Text: fmt.Sprintf(`Hello %s,

The proof of performance of your campaign "%s" for the week of %s to %s is ready.

Open it here: %s

You receive this email every Monday because the weekly report of this campaign is on. You can
turn it off on the Reports page.

The Marquee team
`, firstName, r.CampaignName, r.PeriodStart.Format("Jan 02"), r.PeriodEnd.Format("Jan 02, 2006"), link),
	}
}

// newReportMail is the 'new report mailer' of B §2: an admin tells the advertiser that a report
// is ready.
func newReportMail(to, firstName string, r *Report, facts []mail.Fact, link, note string) mail.Message {
	html := newReportLetter(firstName, r.CampaignName, r.Name, facts, link, note)
	if note = strings.TrimSpace(note); note != "" {
		note = "\nA note from our team:\n" + note + "\n"
	}
	return mail.Message{
		HTML:    html,
		To:      []string{to},
		Subject: "A new performance report for " + r.CampaignName,
		Text: fmt.Sprintf(`Hello %s,

A new performance report of your campaign "%s" is ready: %s.
%s
Open it here: %s

The Marquee team
`, firstName, r.CampaignName, r.Name, note, link),
	}
}

// sendMailer emails the report's advertiser (the campaign's user) a link to the report.
func (s *service) sendMailer(ctx context.Context, req MailerRequest) error {
	if len([]rune(req.Message)) > 2000 {
		return apperr.Field("message", MsgMessageTooLong)
	}
	r, err := s.FindReport(ctx, "", req.ReportID)
	if err != nil {
		return err
	}
	user := r.UserID
	cs, err := s.deps.Campaigns.FindCampaignsByIDs(ctx, []string{r.CampaignID})
	if err != nil {
		return err
	}
	if len(cs) > 0 && cs[0].UserID != "" {
		user = cs[0].UserID
	}
	us, err := s.deps.Identity.FindUsersByIDs(ctx, []string{user})
	if err != nil {
		return err
	}
	if len(us) == 0 || us[0].Local.Email == "" {
		return apperr.NotFound("The report's advertiser no longer exists.")
	}
	facts := reportFacts(r.PeriodStart, r.PeriodEnd, "")
	if row, err := s.store.Find(ctx, "", r.ID); err == nil {
		facts = reportFacts(row.PeriodStart, row.PeriodEnd, row.Figures)
	}
	return s.deps.Outbox.Enqueue(ctx, newReportMail(us[0].Local.Email, us[0].Local.FirstName, r, facts, s.reportLink(r.ID), req.Message))
}
