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
	"marquee/platform/money"
)

// The weekly digest (docs/delivery-assurance.md "Weekly digest"): a company turns it on
// in /settings; each Monday the job emails the user who turned it on the delivery against plan of
// each of the company's active campaigns (campaigns.CompanyPacing). The opt-in lives here, in
// reports_digests, because reports is the module that reads it and sends the digest: identity
// would need a column and a port only for this module to read. Once per company and week: the job
// runs on the leader only, and the run row (company, week) commits with the outbox row.

// digestSetting answers the company's digest setting.
func (s *service) digestSetting(ctx context.Context, companyID string) (*DigestSetting, error) {
	d, err := s.store.FindDigest(ctx, companyID)
	if db.IsNotFound(err) {
		return &DigestSetting{}, nil
	}
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := &DigestSetting{On: true}
	if us, err := s.deps.Identity.FindUsersByIDs(ctx, []string{d.UserID}); err != nil {
		return nil, err
	} else if len(us) > 0 {
		out.Recipient = us[0].Local.Email
	}
	return out, nil
}

// digest answers the caller's company's digest setting.
func (s *service) digest(ctx context.Context, p *auth.Principal) (*DigestSetting, error) {
	return s.digestSetting(ctx, p.CompanyID)
}

// setDigest turns the caller's company's digest on (to the caller) or off.
func (s *service) setDigest(ctx context.Context, p *auth.Principal, req DigestRequest) (*DigestSetting, error) {
	on := req.On
	if p.CompanyID == "" {
		return nil, apperr.NotFound(MsgCompanyNotFound)
	}
	if err := s.store.SetDigest(ctx, store.Digest{CompanyID: p.CompanyID, UserID: p.UserID, CreatedAt: s.deps.Clock.Now()}, on); err != nil {
		return nil, apperr.Internal(err)
	}
	out, err := s.digestSetting(ctx, p.CompanyID)
	if err != nil {
		return nil, err
	}
	out.Message = MsgDigestOff
	if on {
		out.Message = MsgDigestOn
	}
	return out, nil
}

// digestEvery is how often the job looks; a run finds nothing to do until the next Monday.
const digestEvery = time.Hour

func (s *service) digestJob() jobs.Job {
	return jobs.Job{Name: "reports.digest", Every: digestEvery, Run: func(ctx context.Context) error {
		_, err := s.RunDigest(ctx)
		return err
	}}
}

// DigestResult says what one run of the digest job did.
type DigestResult struct {
	Mailed  int // digests emailed
	Skipped int // companies with no active campaign this week
}

// RunDigest sends the digests due: for each company whose digest was turned on before this week
// began (business time zone), the digest of the week that just ended, unless it was sent already.
func (s *service) RunDigest(ctx context.Context) (DigestResult, error) {
	var res DigestResult
	week, thisMonday := s.lastWeek()
	after := ""
	for {
		ds, err := s.store.DigestsAfter(ctx, after, schedulePage)
		if err != nil {
			return res, apperr.Internal(err)
		}
		if len(ds) == 0 {
			return res, nil
		}
		after = ds[len(ds)-1].CompanyID
		ids := make([]string, len(ds))
		for i, d := range ds {
			ids[i] = d.CompanyID
		}
		done, err := s.store.DigestRunsOf(ctx, ids, week)
		if err != nil {
			return res, apperr.Internal(err)
		}
		for _, d := range ds {
			// A digest turned on during this week starts next Monday.
			if done[d.CompanyID] || !d.CreatedAt.Before(thisMonday) {
				continue
			}
			mailed, err := s.companyDigest(ctx, d, week)
			if err != nil {
				return res, err
			}
			if mailed {
				res.Mailed++
			} else {
				res.Skipped++
			}
		}
		if len(ds) < schedulePage {
			return res, nil
		}
	}
}

// companyDigest sends one company's digest of the week, or records that it had nothing to send,
// in one transaction with its run row. It answers whether it mailed.
func (s *service) companyDigest(ctx context.Context, d store.Digest, week dates.Date) (bool, error) {
	ps, err := s.deps.Campaigns.CompanyPacing(ctx, d.CompanyID)
	if err != nil {
		return false, err
	}
	active := make([]campaigns.Pacing, 0, len(ps))
	for _, p := range ps {
		if p.Status == campaigns.StatusActive {
			active = append(active, p)
		}
	}
	var to, name string
	if len(active) > 0 {
		us, err := s.deps.Identity.FindUsersByIDs(ctx, []string{d.UserID})
		if err != nil {
			return false, err
		}
		if len(us) > 0 {
			to, name = us[0].Local.Email, us[0].Local.FirstName
		}
	}
	mailed := false
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		mailed = false
		run := &store.DigestRun{CompanyID: d.CompanyID, WeekStart: week, Mailed: len(active) > 0 && to != "", CreatedAt: s.deps.Clock.Now()}
		ok, err := s.store.InsertDigestRun(ctx, run)
		if err != nil || !ok || !run.Mailed {
			return err
		}
		mailed = true
		return s.deps.Outbox.Enqueue(ctx, digestMail(to, name, week, active, strings.TrimRight(s.deps.BaseURL, "/")))
	})
	return mailed, err
}

// digestMail is the weekly digest: each active campaign's delivery against plan, what it spent
// and when it finishes.
func digestMail(to, firstName string, week dates.Date, ps []campaigns.Pacing, base string) mail.Message {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%s\n", p.Name)
		if p.PacePercent != nil {
			fmt.Fprintf(&b, "  Delivered %s of %s planned impressions (%d%%) over %d finished week(s)\n",
				count(p.DeliveredToDate), count(p.PlannedToDate), *p.PacePercent, p.WeeksReported)
		} else {
			b.WriteString("  No delivery recorded yet\n")
		}
		fmt.Fprintf(&b, "  Spent %s of %s committed; %s\n", dollars(p.Spent), dollars(p.Committed), finishText(p))
		fmt.Fprintf(&b, "  %s/campaigns/%s\n\n", base, p.CampaignID)
	}
	return mail.Message{
		HTML:    digestLetter(firstName, week, ps, base),
		To:      []string{to},
		Subject: fmt.Sprintf("Your weekly campaign digest: week of %s", week.Format("Jan 02, 2006")),
		Text: fmt.Sprintf(`Hello %s,

Here is how your active campaigns are delivering against their plan, as of the week of %s to %s.

%sYou receive this email every Monday because the weekly digest is on. You can turn it off in
Settings: %s/settings

The Marquee team
`, firstName, week.Format("Jan 02"), week.AddDays(6).Format("Jan 02, 2006"), b.String(), base),
	}
}

// finishText says when a campaign finishes, as the pacing panel does.
func finishText(p campaigns.Pacing) string {
	switch {
	case p.FinishBasis == campaigns.FinishOpen:
		return "runs until you stop it"
	case p.FinishBasis == campaigns.FinishPaused || p.FinishDate == nil:
		return "paused"
	case p.FinishBasis == campaigns.FinishCredit:
		return "your account credit runs it until " + p.FinishDate.Format("Jan 02, 2006")
	}
	return "ends " + p.FinishDate.Format("Jan 02, 2006")
}

// count writes a whole number with thousands separators.
func count(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + count(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// dollars writes an amount without cents (B §9: prices are shown without cents).
func dollars(c money.Cents) string { return "$" + count(int64(c)/100) }
