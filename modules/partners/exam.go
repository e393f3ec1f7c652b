package partners

import (
	"context"
	"fmt"
	"strings"

	"marquee/modules/billing"
	"marquee/modules/partners/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/audit"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/money"

	"marquee/platform/httpx"

	"github.com/gin-gonic/gin"
)

// AuditExamPassed is the audit action of a user certified by passing the exam.
const AuditExamPassed = "partners.exam_passed"

// ExamPromoValue is the credit a user's company receives on passing the exam (B §3 Exam result:
// promo), once per user.
const ExamPromoValue = money.Cents(100_00)

func (m *Module) certificate(ctx context.Context, userID string) (*Certificate, error) {
	var c store.Certificate
	if err := m.store.Conn(ctx).Where("user_id = ?", userID).Take(&c).Error; err != nil {
		return nil, err
	}
	return &Certificate{Number: c.Number, IssuedOn: c.IssuedOn}, nil
}

func (m *Module) exam(ctx context.Context, userID string) (*ExamResponse, error) {
	out := &ExamResponse{PassMark: PassMark, Questions: make([]ExamQuestion, len(questionBank))}
	for i, q := range questionBank {
		t := "single"
		if q.Multiple {
			t = "multiple"
		}
		out.Questions[i] = ExamQuestion{ID: q.ID, Text: q.Text, OptionType: t, Points: q.Points, Options: q.Options}
	}
	if c, err := m.certificate(ctx, userID); err == nil {
		out.Certified, out.Certificate = true, c
	} else if !db.IsNotFound(err) {
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
			return nil, 0, 0, apperr.Field("answers", fmt.Sprintf(MsgUnknownQuestion, truncate(a.QuestionID, 40)))
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
				return nil, 0, 0, apperr.Field(q.ID, fmt.Sprintf(MsgUnknownOption, q.ID, truncate(o, 40)))
			}
			seen[o] = true
		}
		given[a.QuestionID] = a.Answers
	}
	results := make([]ExamQuestionResult, len(questionBank))
	points, maxPoints := 0, 0
	for i, q := range questionBank {
		if len(given[q.ID]) == 0 {
			return nil, 0, 0, apperr.Field(q.ID, fmt.Sprintf(MsgAnswerMissing, q.ID))
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

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// submitExam grades the answers; at the pass mark the user becomes certified, with a certificate
// and a promo for the company, in one transaction. A user who already holds a certificate keeps it
// and gets no second promo.
func (m *Module) submitExam(ctx context.Context, me *auth.Principal, sub ExamSubmission) (*ExamResult, error) {
	results, points, maxPoints, err := grade(sub)
	if err != nil {
		return nil, err
	}
	score := points * 100 / maxPoints
	out := &ExamResult{Questions: results, Points: points, MaxPoints: maxPoints, Score: score, User: ExamUser{ID: me.UserID}}
	if score < PassMark {
		out.Message = MsgExamFailed
		if c, err := m.certificate(ctx, me.UserID); err == nil {
			out.User.Certified, out.User.Certificate = true, c
		}
		return out, nil
	}
	err = db.Transact(ctx, m.store.DB(), func(ctx context.Context) error {
		if err := db.LockForTx(ctx, m.store.DB(), "partners:exam:"+me.UserID); err != nil {
			return err
		}
		if c, err := m.certificate(ctx, me.UserID); err == nil {
			out.User.Certificate = c
			return nil
		} else if !db.IsNotFound(err) {
			return err
		}
		if err := m.deps.Identity.SetCertified(ctx, me.UserID, true); err != nil {
			return err
		}
		tail := strings.ToUpper(strings.ReplaceAll(ids.New(), "-", "")[20:])
		promo, err := m.deps.Billing.CreatePromo(ctx, billing.CreatePromoRequest{Code: "CERT-" + tail, Value: ExamPromoValue, MaxCount: 1})
		if err != nil {
			return err
		}
		today := m.today()
		row := &store.Certificate{UserID: me.UserID, CompanyID: me.CompanyID, Number: fmt.Sprintf("MQ-%d-%s", today.Time().Year(), tail[4:]),
			IssuedOn: today, PromoCode: promo.Code, Score: score, CreatedAt: m.deps.Clock.Now()}
		if err := m.store.Create(ctx, row); err != nil {
			return err
		}
		// The user's certification changes here without an admin: the audit log says how, in the
		// same transaction (the admin's own toggle is audited by identity).
		if err := m.deps.Audit.Record(ctx, audit.Change{Action: AuditExamPassed, ObjectType: "user", ObjectID: me.UserID,
			After: map[string]any{"certified": true, "certificate": row.Number, "score": score, "promo": promo.Code}}); err != nil {
			return err
		}
		out.User.Certificate = &Certificate{Number: row.Number, IssuedOn: row.IssuedOn}
		out.Promo = &ExamPromo{Code: promo.Code, Value: promo.Value}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Success, out.Message, out.User.Certified = true, MsgExamPassed, true
	return out, nil
}

func (m *Module) examHandler(c *gin.Context) error {
	out, err := m.exam(c, auth.Current(c).UserID)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) submitExamHandler(c *gin.Context) error {
	var sub ExamSubmission
	if err := m.bind(c, &sub); err != nil {
		return err
	}
	out, err := m.submitExam(c, auth.Current(c), sub)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}
