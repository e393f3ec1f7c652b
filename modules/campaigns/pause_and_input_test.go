package campaigns

import (
	"net/url"
	"slices"
	"testing"

	"marquee/modules/billing"
	"marquee/platform/httpx"
	"marquee/platform/testkit"
)

// DESIGN §1.14: a notification never vetoes a state change. A campaign whose later
// week's charge is declined is paused even when its email cannot be queued; the outbox table is
// really out of reach (renamed), as a full or broken outbox would be. Rolling the pause back with the
// refused email would let the campaign run unpaid and retry the event for ever.
func TestDeclinedWeekPausesWhenItsEmailCannotBeQueued(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		a := w.newAdvertiser(t, "dee@campaigns.test", "Declined Co", "4242424242424242")
		var res CreateResponse
		post(t, w.s, a.c, "first", w.form(a, FrequencyWeekly, 2, w.atlanta[1])).Expect(t, 201).JSON(t, &res)
		w.settle(t)
		if got := w.campaign(t, res.Campaign.ID); got.Status != StatusActive {
			t.Fatalf("after the first week = %+v", got)
		}

		// The next week's card declines.
		w.addCard(t, a, "4000000000000341")
		row, _ := w.m.svc.store.CampaignByID(ctx, res.Campaign.ID)
		if ch, err := w.charge(t, row, start0.AddWeeks(1)); err != nil || ch.Status != ChargePending {
			t.Fatalf("week 2 = %+v %v", ch, err)
		}
		gdb := w.s.Kernel.DB
		if err := gdb.Exec("ALTER TABLE mail_outbox RENAME TO mail_outbox_away").Error; err != nil {
			t.Fatal(err)
		}
		restored := false
		restore := func() {
			if !restored {
				restored = true
				if err := gdb.Exec("ALTER TABLE mail_outbox_away RENAME TO mail_outbox").Error; err != nil {
					t.Fatal(err)
				}
			}
		}
		defer restore()
		if err := w.bill.RetryPayments(ctx); err != nil {
			t.Fatal(err)
		}
		w.settle(t)
		restore()

		var got Campaign
		a.c.Get("/api/campaigns/"+res.Campaign.ID).Expect(t, 200).JSON(t, &got)
		if got.Status != StatusPaused || got.PaymentStatus != billing.StatusFailed {
			t.Fatalf("after week 2 was declined, with the outbox out of reach = %+v", got)
		}
		// The event was handled once, not left to be retried.
		if n, err := w.s.Kernel.Events.Waiting(ctx); err != nil || n != 0 {
			t.Fatalf("%d events still waiting (%v)", n, err)
		}
	})
}

// A campaign named with a line break ran unpaid (its pause email was refused). A
// single-line field refuses control characters and the Unicode line and paragraph separators,
// nested fields too, with a field error; nothing is booked.
func TestCampaignNameMustBeOneLine(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		for i, name := range []string{"Spring\nsale", "Spring\r sale", "Spring\u2028sale", "Spring\u2029sale", "Spring\u0085sale", "Spring\tsale", "Spring\x1bsale"} {
			f := w.form(w.adv, FrequencyWeekly, 2, w.atlanta[0])
			f.Name = name
			e := errorBody(t, post(t, w.s, w.adv.c, "bad-name-"+string(rune('a'+i)), f), 400)
			if e.Errors["name"] != httpx.MsgSingleLine {
				t.Fatalf("name %q: %+v", name, e)
			}
		}
		f := w.form(w.adv, FrequencyWeekly, 2, w.atlanta[0])
		f.PlacesChecked[0].ID += "\n"
		if e := errorBody(t, post(t, w.s, w.adv.c, "bad-place", f), 400); e.Errors["places_checked.0.id"] != httpx.MsgSingleLine {
			t.Fatalf("nested: %+v", e)
		}
		var list CampaignList
		w.adv.c.Get("/api/campaigns").Expect(t, 200).JSON(t, &list)
		if list.Total != 0 {
			t.Fatalf("%d campaigns booked", list.Total)
		}
		// Letters of any script, emoji and inner spaces are one line.
		f = w.form(w.adv, FrequencyWeekly, 2, w.atlanta[0])
		f.Name = "Café «Ñandú» 春 🎉 sale"
		post(t, w.s, w.adv.c, "good-name", f).Expect(t, 201)
	})
}

// The campaign search matches '%' and '_' literally on both databases (SQLite missed
// them: the pattern was escaped without an ESCAPE clause).
func TestCampaignSearchIsLiteral(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		for i, name := range []string{"50% off", "500 off", "a_b sale", "axb sale"} {
			f := w.form(w.adv, FrequencyWeekly, 2, w.atlanta[i])
			f.Name = name
			post(t, w.s, w.adv.c, "search-"+name, f).Expect(t, 201)
		}
		for q, want := range map[string][]string{"50%": {"50% off"}, "a_b": {"a_b sale"}, "_": {"a_b sale"}, "off": {"50% off", "500 off"}} {
			var list CampaignList
			w.adv.c.Get("/api/campaigns?sort=name&q="+url.QueryEscape(q)).Expect(t, 200).JSON(t, &list)
			var got []string
			for _, c := range list.Items {
				got = append(got, c.Name)
			}
			if !slices.Equal(got, want) {
				t.Errorf("q=%q: %q, want %q", q, got, want)
			}
		}
	})
}
