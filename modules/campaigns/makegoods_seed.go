package campaigns

import (
	"context"
	"fmt"

	"marquee/modules/campaigns/internal/makegood"
	"marquee/platform/db"
)

// demoMakeGoodCampaign is the demo campaign whose first finished week under-delivered:
// recorded at 70 % of plan, it earned a make-good, then was corrected to 80 %, which took back the
// difference. The ambassador's, so the demo advertiser's credit (and the journeys that read it)
// stay as they were.
const demoMakeGoodCampaign = "ambassador:Fall Clearance"

// seedMakeGood records the demo campaign's short week and its correction through the same path an
// admin's delivery takes (settleMakeGood), so the make-good, its ledger rows, its event and its
// email are real. It runs only when the campaign was just made.
func (a *assurance) seedMakeGood(ctx context.Context, campaignID string) (note string, err error) {
	err = db.Transact(ctx, a.deps.DB, func(ctx context.Context) error {
		c, err := a.lockCampaign(ctx, "", campaignID)
		if err != nil {
			return err
		}
		weeks, err := a.store.CampaignWeeks(ctx, c.ID)
		if err != nil {
			return err
		}
		for i := range weeks {
			w := &weeks[i]
			if w.ActImp == nil || w.Ooh <= 0 || !a.weekFinished(w) {
				continue
			}
			for _, pct := range []int64{70, 80} { // the short week, then its correction
				v := w.Ooh * pct / 100
				if err := a.store.UpdateWeeks(ctx, []string{w.ID}, map[string]any{"act_imp": &v, "updated_at": a.deps.Clock.Now()}); err != nil {
					return err
				}
				w.ActImp = &v
				if _, err := a.settleMakeGood(ctx, c, w, nil); err != nil {
					return err
				}
			}
			mg, err := a.store.MakeGoodOfWeek(ctx, w.ID)
			if err != nil || mg == nil {
				return fmt.Errorf("no make-good for the short week: %v", err)
			}
			note = fmt.Sprintf("; %s: a week at 70%% of plan corrected to 80%%, make-good %s", c.Name, makegood.CreditString(mg.CreditCents))
			return a.store.RefreshActImp(ctx, c.ID, a.deps.Clock.Now())
		}
		return nil
	})
	return note, err
}
