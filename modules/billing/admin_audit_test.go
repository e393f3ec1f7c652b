package billing

import (
	"testing"

	"marquee/modules/identity"
	"marquee/platform/audit"
	"marquee/platform/money"
	"marquee/platform/pagination"
	"marquee/platform/testkit"
)

// The admin company grid (identity) shows billing's columns through the reader billing's Component
// hands to identity.
func TestAdminCompanyGridShowsBilling(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		addCard(t, f.adv, "4242424242424242")
		if _, err := f.bill.Service().ApplyCredit(t.Context(), CreditRequest{Key: "grant-1", CompanyID: f.advCompany, Amount: money.Dollars(30)}); err != nil {
			t.Fatal(err)
		}
		var page pagination.Page[identity.AdminCompany]
		f.admin.Get("/api/admin/companies/?q=sunrise").Expect(t, 200).JSON(t, &page)
		if page.Total != 1 || !page.Items[0].CardOnFile || page.Items[0].AccountCredit != money.Dollars(30) || page.Items[0].UserCount != 1 {
			t.Fatalf("grid = %+v", page.Items)
		}
		f.admin.Get("/api/admin/companies/?q=other").Expect(t, 200).JSON(t, &page)
		if page.Items[0].CardOnFile || page.Items[0].AccountCredit != 0 {
			t.Fatalf("grid without billing = %+v", page.Items)
		}
	})
}

// Every admin change of the promo screens is in the audit log, with its actor.
func TestPromoAdminChangesAreAudited(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect)
		var created PromoResponse
		f.super.Post("/api/admin/promo/", CreatePromoRequest{Code: "AUDIT10", Value: money.Dollars(10), MaxCount: 3}).Expect(t, 201).JSON(t, &created)
		f.super.Delete("/api/admin/promo/"+created.Promo.ID).Expect(t, 200)
		f.super.Put("/api/admin/promo/"+created.Promo.ID, nil).Expect(t, 200)
		f.adv.Post("/api/promo/", RedeemPromoRequest{Code: "AUDIT10"}).Expect(t, 200)
		f.admin.Delete("/api/admin/companies/"+f.advCompany+"/promo").Expect(t, 200)
		// A refused change writes nothing.
		f.super.Post("/api/admin/promo/", CreatePromoRequest{Code: "AUDIT10", Value: money.Dollars(10), MaxCount: 3}).Expect(t, 400)
		f.admin.Delete("/api/admin/companies/"+f.advCompany+"/promo").Expect(t, 404)

		var page pagination.Page[audit.Entry]
		f.super.Get("/api/admin/audit/?sort=created_at").Expect(t, 200).JSON(t, &page)
		want := []struct{ action, actor string }{{AuditPromoCreate, "super@billing.test"}, {AuditPromoStatus, "super@billing.test"},
			{AuditPromoStatus, "super@billing.test"}, {AuditPromoRemove, "admin@billing.test"}}
		if int(page.Total) != len(want) {
			t.Fatalf("audit = %+v", page.Items)
		}
		for i, w := range want {
			if page.Items[i].Action != w.action || page.Items[i].ActorEmail != w.actor {
				t.Fatalf("entry %d = %+v, want %v", i, page.Items[i], w)
			}
		}
		if e := page.Items[1]; string(e.Before) != `{"status":"active"}` || string(e.After) != `{"status":"cancelled"}` {
			t.Fatalf("cancel entry = %s -> %s", e.Before, e.After)
		}
		if e := page.Items[3]; e.ObjectType != "company" || e.ObjectID != f.advCompany {
			t.Fatalf("removal entry = %+v", e)
		}
	})
}
