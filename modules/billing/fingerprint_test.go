package billing

import (
	"encoding/json"
	"strings"
	"testing"

	"marquee/modules/billing/internal/store"
	"marquee/platform/ids"
	"marquee/platform/testkit"
)

// Card fingerprints (DESIGN §1.13: one referral credit per card): a saved card carries its
// fingerprint, the same for one number in any company; every fingerprint a company ever saved stays
// known after the card is replaced or removed; each charge and its settled event name the card's
// fingerprint; the card's JSON never shows it.
func TestCardFingerprints(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		ctx := t.Context()
		svc := f.bill.svc
		r := f.adv.Post("/api/cards", AddCardRequest{Token: token(t, f.adv, "4242424242424242"), ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}).Expect(t, 201)
		if strings.Contains(string(r.Body), "fp_") || strings.Contains(strings.ToLower(string(r.Body)), "fingerprint") {
			t.Fatalf("the card's answer shows its fingerprint: %s", r.Body)
		}
		addCard(t, f.other, "4242424242424242")
		mine, _ := svc.store.CardByCompany(ctx, f.advCompany)
		theirs, _ := svc.store.CardByCompany(ctx, f.otherCo)
		if mine.Fingerprint == "" || mine.Fingerprint != theirs.Fingerprint || strings.Contains(mine.Fingerprint, "4242") {
			t.Fatalf("fingerprints %q and %q", mine.Fingerprint, theirs.Fingerprint)
		}
		addCard(t, f.adv, "5555555555554444")
		replaced, _ := svc.store.CardByCompany(ctx, f.advCompany)
		if replaced.Fingerprint == mine.Fingerprint {
			t.Fatal("two numbers, one fingerprint")
		}
		f.adv.Delete("/api/cards/me").Expect(t, 200)
		for _, fp := range []string{mine.Fingerprint, replaced.Fingerprint} {
			if ok, err := svc.FingerprintSavedBy(ctx, fp, f.advCompany); err != nil || !ok {
				t.Errorf("fingerprint %s forgotten after the card went: %v %v", fp, ok, err)
			}
		}
		if ok, _ := svc.FingerprintSavedBy(ctx, replaced.Fingerprint, f.otherCo); ok {
			t.Error("another company's fingerprint")
		}
		if ok, _ := svc.FingerprintSavedBy(ctx, "", f.advCompany); ok {
			t.Error("an empty fingerprint matched")
		}

		// The charge and its event carry the fingerprint of the card charged.
		tx, err := svc.Charge(ctx, ChargeRequest{Key: "fp-charge", CompanyID: f.otherCo, Amount: 10_00, CampaignRef: ids.New()})
		if err != nil {
			t.Fatal(err)
		}
		row, _ := svc.store.TransactionByID(ctx, tx.ID)
		if row.CardFingerprint != theirs.Fingerprint {
			t.Errorf("charge's fingerprint = %q", row.CardFingerprint)
		}
		var payload string
		f.s.Kernel.DB.Table("events_outbox").Select("payload").Where("name = ?", EventChargeSettled).Order("created_at DESC").Limit(1).Scan(&payload)
		var ev ChargeSettled
		if err := json.Unmarshal([]byte(payload), &ev); err != nil || ev.CardFingerprint != theirs.Fingerprint {
			t.Errorf("event = %s (%v)", payload, err)
		}
		var n int64
		f.s.Kernel.DB.Model(&store.CardFingerprint{}).Count(&n)
		if n != 3 {
			t.Errorf("%d fingerprints remembered, want 3", n)
		}
	})
}
