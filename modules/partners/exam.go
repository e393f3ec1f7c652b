package partners

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"marquee/modules/billing"
	"marquee/modules/identity"
	"marquee/modules/partners/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/ids"
	pmail "marquee/platform/mail"
	"marquee/platform/money"
	"marquee/platform/retry"
)

// AuditExamPassed is the audit action of a user certified by passing the exam.
const AuditExamPassed = "partners.exam_passed"

// ExamPromoValue is the credit a company receives when its first user passes the exam (B §3 Exam
// result: promo), once per company ever (DESIGN §1.13).
const ExamPromoValue = money.Cents(100_00)

func (s *service) certificate(ctx context.Context, userID string) (*Certificate, error) {
	c, err := s.store.CertificateOf(ctx, userID)
	if err != nil {
		return nil, err
	}
	return &Certificate{Number: c.Number, IssuedOn: c.IssuedOn}, nil
}

// exam is the exam as the signed-in user takes it: the questions, and the user's attempts and
// certificate.
func (s *service) exam(ctx context.Context, me *auth.Principal) (*ExamResponse, error) {
	userID := me.UserID
	out := &ExamResponse{PassMark: PassMark, Questions: make([]ExamQuestion, len(questionBank))}
	for i, q := range questionBank {
		t := "single"
		if q.Multiple {
			t = "multiple"
		}
		out.Questions[i] = ExamQuestion{ID: q.ID, Text: q.Text, OptionType: t, Points: q.Points, Options: q.Options}
	}
	u, err := s.deps.Identity.FindUserByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	// The certificate counts while the user's certification stands (an admin may remove it).
	if c, err := s.certificate(ctx, userID); err == nil && u.Certified {
		out.Certified, out.Certificate = true, c
	} else if err != nil && !db.IsNotFound(err) {
		return nil, apperr.Internal(err)
	}
	if out.AttemptsLeft, out.NextAttemptAt, err = s.attemptsLeft(ctx, userID); err != nil {
		return nil, apperr.Internal(err)
	}
	return out, nil
}

// grade checks a submission (B §5) and scores it. Every question needs an answer; an unknown
// question or option, a question answered twice, two options to a single question, or more
// answers than questions is a 400.
func grade(sub ExamSubmission) ([]ExamQuestionResult, int, int, error) {
	if len(sub.Answers) > len(questionBank) {
		return nil, 0, 0, apperr.Field("answers", fmt.Sprintf(MsgTooManyAnswers, len(questionBank)))
	}
	byID := map[string]*question{}
	for i := range questionBank {
		byID[questionBank[i].ID] = &questionBank[i]
	}
	given := map[string][]string{}
	for _, a := range sub.Answers {
		q, ok := byID[a.QuestionID]
		if !ok || given[a.QuestionID] != nil {
			return nil, 0, 0, apperr.Field("answers", fmt.Sprintf(MsgUnknownQuestion, retry.Truncate(a.QuestionID, 40)))
		}
		if !q.Multiple && len(a.Answers) > 1 {
			return nil, 0, 0, apperr.Field(q.ID, fmt.Sprintf(MsgSingleAnswer, q.ID))
		}
		if len(a.Answers) > len(q.Options) {
			return nil, 0, 0, apperr.Field(q.ID, fmt.Sprintf(MsgUnknownOption, q.ID, "…"))
		}
		seen := map[string]bool{}
		for _, o := range a.Answers {
			if !hasOption(q, o) || seen[o] {
				return nil, 0, 0, apperr.Field(q.ID, fmt.Sprintf(MsgUnknownOption, q.ID, retry.Truncate(o, 40)))
			}
			seen[o] = true
		}
		given[a.QuestionID] = a.Answers
	}
	results := make([]ExamQuestionResult, len(questionBank))
	points, maxPoints := 0, 0
	for i, q := range questionBank {
		if len(given[q.ID]) == 0 {
			// The question's number, as the page shows it; the field names its id.
			return nil, 0, 0, apperr.Field(q.ID, fmt.Sprintf(MsgAnswerMissing, strconv.Itoa(i+1)))
		}
		maxPoints += q.Points
		ok := sameSet(given[q.ID], q.Correct)
		results[i] = ExamQuestionResult{ID: q.ID, Correct: ok}
		if ok {
			results[i].Points = q.Points
			points += q.Points
		}
	}
	return results, points, maxPoints, nil
}

func hasOption(q *question, id string) bool {
	for _, o := range q.Options {
		if o.ID == id {
			return true
		}
	}
	return false
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	for _, x := range a {
		if !in[x] {
			return false
		}
	}
	return true
}

// ExamAttemptsPerDay is how many graded attempts a user has per business day (DESIGN §1.13).
const ExamAttemptsPerDay = 3

// attemptsLeft answers how many attempts the user has left today and, when none, the moment the
// next business day starts (BUSINESS_TIMEZONE's midnight).
func (s *service) attemptsLeft(ctx context.Context, userID string) (int, *time.Time, error) {
	today := s.today()
	n, err := s.store.AttemptsOn(ctx, userID, today)
	if err != nil {
		return 0, nil, err
	}
	left := max(ExamAttemptsPerDay-int(n), 0)
	if left > 0 {
		return left, nil, nil
	}
	next := today.AddDays(1).Time() // the product's calendar date, as midnight in the business zone
	loc := clock.Location(s.deps.Clock)
	at := time.Date(next.Year(), next.Month(), next.Day(), 0, 0, 0, 0, loc)
	return 0, &at, nil
}

// submitExam grades the answers, at most ExamAttemptsPerDay times a business day per user (the
// count and the new attempt are one transaction, serialised per user, so two tabs or two replicas
// cannot take a fourth). A failed attempt answers the score and the points only (B §4), never which
// questions were right. At the pass mark the user becomes certified, with a certificate; the first
// pass of the company's users gives the company its one exam reward (a $100 promo only it can
// redeem), mailed to the user who passed. Passing after an admin removed the certification
// certifies the user again.
func (s *service) submitExam(ctx context.Context, me *auth.Principal, sub ExamSubmission) (*ExamResult, error) {
	var out *ExamResult
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		if err := db.LockForTx(ctx, s.deps.DB, "partners:exam:"+me.UserID); err != nil {
			return err
		}
		left, next, err := s.attemptsLeft(ctx, me.UserID)
		if err != nil {
			return err
		}
		if left == 0 {
			return &apperr.Error{Code: apperr.ERATELIMIT, Reason: "exam_attempts",
				Message: fmt.Sprintf(MsgExamAttempts, ExamAttemptsPerDay, next.Format("Jan 02, 2006 at 3:04 PM MST"))}
		}
		results, points, maxPoints, err := grade(sub)
		if err != nil {
			return err
		}
		score := points * 100 / maxPoints
		// Questions stays empty on a failure: which answers were right is the answer key (B §4).
		out = &ExamResult{Questions: []ExamQuestionResult{}, Points: points, MaxPoints: maxPoints, Score: score,
			User: ExamUser{ID: me.UserID}, AttemptsLeft: left - 1}
		now := s.deps.Clock.Now()
		if err := s.store.Create(ctx, &store.ExamAttempt{ID: ids.New(), UserID: me.UserID, Day: s.today(), Score: score,
			Passed: score >= PassMark, CreatedAt: now}); err != nil {
			return err
		}
		u, err := s.deps.Identity.FindUserByID(ctx, me.UserID)
		if err != nil {
			return err
		}
		if score < PassMark {
			out.Message = MsgExamFailed
			if out.AttemptsLeft == 0 {
				_, out.NextAttemptAt, err = s.attemptsLeft(ctx, me.UserID)
			}
			if c, cerr := s.certificate(ctx, me.UserID); cerr == nil && u.Certified {
				out.User.Certified, out.User.Certificate = true, c
			}
			return err
		}
		out.Success, out.Message, out.User.Certified, out.Questions = true, MsgExamPassed, true, results
		cert, err := s.certify(ctx, u, score)
		if err != nil {
			return err
		}
		out.User.Certificate = cert
		out.Promo, err = s.reward(ctx, me)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// certify makes the user certified: a first pass issues the certificate; a pass after an admin
// removed the certification sets the flag again and renews the certificate's date. Both are
// audited in the transaction (the admin's own toggle is audited by identity).
func (s *service) certify(ctx context.Context, u *identity.User, score int) (*Certificate, error) {
	today := s.today()
	c, err := s.certificate(ctx, u.ID)
	switch {
	case err == nil && u.Certified:
		return c, nil // already certified: nothing changes
	case err == nil:
		if err := s.store.RenewCertificate(ctx, u.ID, map[string]any{"issued_on": today, "score": score}); err != nil {
			return nil, err
		}
		c.IssuedOn = today
	case db.IsNotFound(err):
		tail := strings.ToUpper(strings.ReplaceAll(ids.New(), "-", "")[24:])
		row := &store.Certificate{UserID: u.ID, CompanyID: u.Company.ID, Number: fmt.Sprintf("MQ-%d-%s", today.Time().Year(), tail),
			IssuedOn: today, Score: score, CreatedAt: s.deps.Clock.Now()}
		if err := s.store.Create(ctx, row); err != nil {
			return nil, err
		}
		c = &Certificate{Number: row.Number, IssuedOn: row.IssuedOn}
	default:
		return nil, err
	}
	if err := s.deps.Identity.SetCertified(ctx, u.ID, true); err != nil {
		return nil, err
	}
	if err := s.deps.Audit.Record(ctx, audit.Change{Action: AuditExamPassed, ObjectType: "user", ObjectID: u.ID,
		Before: map[string]any{"certified": false}, After: map[string]any{"certified": true, "certificate": c.Number, "score": score}}); err != nil {
		return nil, err
	}
	return c, nil
}

// reward gives the company its one exam reward, the first time one of its users passes: a $100
// promo that only this company can redeem (DESIGN §1.13), mailed to the user who passed. Later
// passes, by anyone of the company, give nothing.
func (s *service) reward(ctx context.Context, me *auth.Principal) (*ExamPromo, error) {
	if err := db.LockForTx(ctx, s.deps.DB, "partners:exam-reward:"+me.CompanyID); err != nil {
		return nil, err
	}
	if _, err := s.store.RewardOf(ctx, me.CompanyID); err == nil {
		return nil, nil
	} else if !db.IsNotFound(err) {
		return nil, err
	}
	tail := strings.ToUpper(strings.ReplaceAll(ids.New(), "-", "")[20:])
	promo, err := s.deps.Billing.CreatePromo(ctx, billing.CreatePromoRequest{Code: "CERT-" + tail, Value: ExamPromoValue, MaxCount: 1,
		CompanyID: me.CompanyID})
	if err != nil {
		return nil, err
	}
	if err := s.store.Create(ctx, &store.ExamReward{CompanyID: me.CompanyID, UserID: me.UserID, PromoCode: promo.Code,
		CreatedAt: s.deps.Clock.Now()}); err != nil {
		return nil, err
	}
	u, err := s.deps.Identity.FindUserByID(ctx, me.UserID)
	if err != nil {
		return nil, err
	}
	if err := s.deps.Outbox.Enqueue(ctx, rewardMail(u.Local.Email, u.Company.Name, promo.Code, promo.Value)); err != nil {
		return nil, err
	}
	return &ExamPromo{Code: promo.Code, Value: promo.Value}, nil
}

func rewardMail(to, company, code string, value money.Cents) pmail.Message {
	return pmail.Message{
		To:      []string{to},
		Subject: "Your Marquee certification reward",
		Text: fmt.Sprintf(`Congratulations on passing the Marquee partner exam.

%s receives a promo code worth %s, for your company's own campaigns:

%s

Redeem it in Settings > Promo code. It can be used once, and only by %s.

The Marquee team
`, company, value.String(), code, company),
	}
}

// unredeemedReward is the company's exam reward while its promo can still be redeemed (the hub
// shows it until then).
func (s *service) unredeemedReward(ctx context.Context, companyID string) (*ExamPromo, error) {
	r, err := s.store.RewardOf(ctx, companyID)
	if db.IsNotFound(err) {
		return nil, nil
	} else if err != nil {
		return nil, apperr.Internal(err)
	}
	p, err := s.deps.Billing.FindPromo(ctx, r.PromoCode)
	if apperr.CodeOf(err) == apperr.ENOTFOUND {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if p.RedeemCount > 0 || p.Status != billing.PromoActive {
		return nil, nil
	}
	return &ExamPromo{Code: p.Code, Value: p.Value}, nil
}
