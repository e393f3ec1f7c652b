package reports

import (
	"strings"
	"testing"
	"time"

	"marquee/platform/testkit"
)

// The weekly digest: opt-in per company in /settings, the delivery against plan of each
// active campaign every Monday, once per company and week, and nothing once it is off.
func TestWeeklyDigest(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		var st DigestSetting
		f.adv.Get("/api/reports/digest").Expect(t, 200).JSON(t, &st)
		if st.On {
			t.Fatalf("on by default: %+v", st)
		}
		f.adv.Put("/api/reports/digest", DigestRequest{On: true}).Expect(t, 200).JSON(t, &st)
		if !st.On || st.Recipient != "ada@reports.test" || st.Message != MsgDigestOn {
			t.Fatalf("turned on: %+v", st)
		}
		// The setting is the company's: another company's stays off.
		f.other.Get("/api/reports/digest").Expect(t, 200).JSON(t, &st)
		if st.On {
			t.Fatalf("other company: %+v", st)
		}
		f.adv.Put("/api/reports/digest", "{bad").Expect(t, 400)

		// Turned on this week (Sunday): nothing until Monday.
		if res, err := f.m.svc.RunDigest(t.Context()); err != nil || res.Mailed != 0 {
			t.Fatalf("same week: %+v %v", res, err)
		}
		// Monday: one digest, even from two runs at once.
		f.s.Clock.Advance(24 * time.Hour)
		done := make(chan DigestResult, 2)
		for range 2 {
			go func() {
				r, err := f.m.svc.RunDigest(t.Context())
				if err != nil {
					t.Error(err)
				}
				done <- r
			}()
		}
		if a, b := <-done, <-done; a.Mailed+b.Mailed != 1 {
			t.Fatalf("two runs mailed %d and %d", a.Mailed, b.Mailed)
		}
		if res, err := f.m.svc.RunDigest(t.Context()); err != nil || res.Mailed != 0 || res.Skipped != 0 {
			t.Fatalf("third run: %+v %v", res, err)
		}
		digests := func() []string {
			var out []string
			for _, m := range f.s.DeliverMail(t) {
				if strings.Contains(m, "weekly campaign digest") {
					out = append(out, m)
				}
			}
			return out
		}
		ds := digests()
		holiday := f.camps["Holiday Coffee Push"]
		if len(ds) != 1 || !strings.Contains(ds[0], "ada@reports.test") || !strings.Contains(ds[0], "Holiday Coffee Push") ||
			!strings.Contains(ds[0], "planned impressions") || !strings.Contains(ds[0], "/campaigns/"+holiday.ID) ||
			strings.Contains(ds[0], "Summer Sale") || strings.Contains(ds[0], "Other campaign") {
			t.Fatalf("digests:\n%s", strings.Join(ds, "\n---\n"))
		}

		// Off: the next Monday sends nothing.
		f.adv.SessionAs(f.s, f.advAcc.UserID) // the day went by: a fresh session
		f.adv.Put("/api/reports/digest", DigestRequest{On: false}).Expect(t, 200).JSON(t, &st)
		if st.On || st.Message != MsgDigestOff {
			t.Fatalf("turned off: %+v", st)
		}
		f.s.Clock.Advance(7 * 24 * time.Hour)
		if res, err := f.m.svc.RunDigest(t.Context()); err != nil || res.Mailed != 0 {
			t.Fatalf("off: %+v %v", res, err)
		}
		if n := len(digests()); n != 1 {
			t.Fatalf("digests after off = %d", n)
		}
	})
}
