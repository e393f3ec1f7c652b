package campaigns

import (
	"testing"

	"marquee/modules/billing"
	"marquee/platform/testkit"
)

// The edit (PUT /api/campaigns/{id}): re-planned by the creation's rules, charged weeks kept, the
// other weeks released and booked again; refused 5 or fewer days before the start.
func TestUpdateCampaign(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		form := w.form(w.adv, FrequencyWeekly, 3, w.atlanta[:2]...)
		var res CreateResponse
		post(t, w.s, w.adv.c, "edit-1", form).Expect(t, 201).JSON(t, &res)
		w.settle(t)
		id := res.Campaign.ID

		// Another company's campaign answers 404.
		w.other.c.Put("/api/campaigns/"+id, form).Expect(t, 404)

		// Three faces for two weeks: the charged first week keeps its two rows, week 2 has three,
		// week 3 is released.
		edit := w.form(w.adv, FrequencyWeekly, 2, w.atlanta[:3]...)
		edit.Name = "Spring push, edited"
		var up CreateResponse
		w.adv.c.Put("/api/campaigns/"+id, edit).Expect(t, 200).JSON(t, &up)
		if up.Message != MsgUpdated || up.Campaign.Name != "Spring push, edited" || up.Campaign.Duration != 2 {
			t.Fatalf("update = %+v", up)
		}
		weeks, err := w.m.svc.store.CampaignWeeks(ctx, id)
		if err != nil || len(weeks) != 5 {
			t.Fatalf("weeks after edit = %d %v", len(weeks), err)
		}
		if spots := w.spotsOf(t, w.adv, id); len(spots) != 5 {
			t.Fatalf("spots after edit = %d", len(spots))
		}
		// An advertiser's edit without locations gets the creation message; an admin's update gets
		// the admin one (B §5).
		none := w.form(w.adv, FrequencyWeekly, 2)
		none.PlacesChecked = nil
		expectMessage(t, w.adv.c.Put("/api/campaigns/"+id, none), 400, MsgLocationRequired)
		expectMessage(t, w.admin.Put("/api/campaigns/"+id, none), 400, MsgAdminLocationReq)

		// The start of a campaign with a charged week can't move.
		moved := w.form(w.adv, FrequencyWeekly, 2, w.atlanta[:3]...)
		moved.StartDate = start0.AddWeeks(1).String()
		w.adv.c.Put("/api/campaigns/"+id, moved).Expect(t, 400)

		// 5 days before the start: refused on the server too.
		w.s.Clock.Set(start0.AddDays(-5).Time().Add(12 * 3600 * 1e9))
		w.adv.c.SessionAs(w.s, w.adv.p.UserID)
		expectMessage(t, w.adv.c.Put("/api/campaigns/"+id, edit), 400, MsgNotEditable)
	})
}

// Delete with refund: the charged week that has not started is refunded through billing, its spots
// freed, the campaign hidden; another company's delete answers 404.
func TestDeleteWithRefund(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		var res CreateResponse
		post(t, w.s, w.adv.c, "refund-1", w.form(w.adv, FrequencyWeekly, 2, w.atlanta[:2]...)).Expect(t, 201).JSON(t, &res)
		w.settle(t)
		id := res.Campaign.ID
		if c := w.campaign(t, id); c.Status != StatusActive {
			t.Fatalf("status = %s", c.Status)
		}
		w.other.c.Delete("/api/campaigns/"+id+"?refund=true").Expect(t, 404)
		w.adv.c.Delete("/api/campaigns/"+id+"?refund=maybe").Expect(t, 400)
		var act ActionResponse
		w.adv.c.Delete("/api/campaigns/"+id+"?reason=Plans+changed&refund=true").Expect(t, 200).JSON(t, &act)
		if act.Message != MsgDeleted || act.Status != StatusCanceled {
			t.Fatalf("delete = %+v", act)
		}
		txs, err := w.bill.Service().FindCampaignCharges(ctx, w.adv.companyID, id)
		if err != nil {
			t.Fatal(err)
		}
		refunds := 0
		for _, tx := range txs {
			if tx.Kind == billing.KindRefund && tx.Status == billing.StatusSucceeded {
				refunds++
			}
		}
		if refunds != 1 {
			t.Fatalf("refunds = %d of %+v", refunds, txs)
		}
		if spots := w.spotsOf(t, w.adv, id); len(spots) != 0 {
			t.Fatalf("spots left = %d", len(spots))
		}
		w.adv.c.Get("/api/campaigns/"+id).Expect(t, 404)
		row, _ := w.m.svc.store.CampaignByID(ctx, id)
		if !row.Deleted || row.DeletedReason != "Plans changed" {
			t.Fatalf("row = %+v", row)
		}
	})
}
