package billing

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"marquee/modules/identity"
	"marquee/platform/apperr"
	"marquee/platform/db"
	"marquee/platform/money"
	"marquee/platform/testkit"
)

// TestPromoMaximumHoldsUnderConcurrency: 100 companies redeem a promo with a maximum count of 10 at
// the same moment, through HTTP, on PostgreSQL: exactly 10 succeed, and the credit exists exactly
// for them.
func TestPromoMaximumHoldsUnderConcurrency(t *testing.T) {
	testkit.PostgresURL(t) // skips without TEST_DATABASE_URL; CI sets it
	f := start(t, db.Postgres)
	var created PromoResponse
	f.super.Post("/api/admin/promo/", CreatePromoRequest{Code: "RACE10", Value: money.Dollars(10), MaxCount: 10}).Expect(t, 201).JSON(t, &created)

	const companies = 100
	clients := make([]*testkit.Client, companies)
	companyIDs := make([]string, companies)
	for i := range clients {
		u, _, err := f.ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: fmt.Sprintf("racer%d@billing.test", i), Password: "billing password 1", CompanyName: fmt.Sprintf("Racer %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		clients[i] = f.s.Client(t)
		clients[i].SessionAs(f.s, u.ID)
		companyIDs[i] = u.Company.ID
	}
	statuses := make([]int, companies)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			statuses[i] = clients[i].Post("/api/promo/", RedeemPromoRequest{Code: "RACE10"}).Status
		}()
	}
	close(start)
	wg.Wait()
	ok, exhausted := 0, 0
	for _, s := range statuses {
		switch s {
		case http.StatusOK:
			ok++
		case http.StatusConflict:
			exhausted++
		default:
			t.Errorf("unexpected status %d", s)
		}
	}
	if ok != 10 || exhausted != 90 {
		t.Fatalf("%d redeemed, %d refused; want 10 and 90", ok, exhausted)
	}
	p, err := f.bill.svc.store.PromoByID(t.Context(), created.Promo.ID)
	if err != nil || p.RedeemCount != 10 {
		t.Fatalf("redeem count = %d (%v)", p.RedeemCount, err)
	}
	summaries, err := f.bill.Service().FindBillingSummaries(t.Context(), companyIDs)
	if err != nil {
		t.Fatal(err)
	}
	var credited money.Cents
	for i, id := range companyIDs {
		want := money.Cents(0)
		if statuses[i] == http.StatusOK {
			want = money.Dollars(10)
		}
		if summaries[id].AccountCredit != want {
			t.Fatalf("company %d credit %v, want %v", i, summaries[id].AccountCredit, want)
		}
		credited += summaries[id].AccountCredit
	}
	if credited != money.Dollars(100) {
		t.Fatalf("credit granted = %v", credited)
	}
}

// TestSameCompanyRedeemsOnceUnderConcurrency: one company sends the same code 20 times at once.
func TestSameCompanyRedeemsOnceUnderConcurrency(t *testing.T) {
	testkit.PostgresURL(t)
	f := start(t, db.Postgres)
	f.super.Post("/api/admin/promo/", CreatePromoRequest{Code: "ONCE", Value: money.Dollars(5), MaxCount: 100}).Expect(t, 201)
	var wg sync.WaitGroup
	statuses := make([]int, 20)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.adv.Post("/api/promo/", RedeemPromoRequest{Code: "ONCE"}).Status
		}()
	}
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		if s == http.StatusOK {
			ok++
		} else if s != http.StatusConflict {
			t.Errorf("status %d", s)
		}
	}
	credit, _ := f.bill.Service().AccountCredit(t.Context(), f.advCompany)
	if ok != 1 || credit != money.Dollars(5) {
		t.Fatalf("%d redeems succeeded, credit %v", ok, credit)
	}
}

// TestSameChargeTwentyTimesChargesOnce: the same charge (one idempotency key) sent 20 times
// concurrently gives one transaction and one charge at the gateway, on PostgreSQL.
func TestSameChargeTwentyTimesChargesOnce(t *testing.T) {
	testkit.PostgresURL(t)
	f := start(t, db.Postgres)
	addCard(t, f.adv, "4242424242424242")
	svc := f.bill.Service()
	var wg sync.WaitGroup
	txIDs := make([]string, 20)
	errs := make([]error, 20)
	for i := range txIDs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tx, err := svc.Charge(t.Context(), ChargeRequest{Key: "campaign-7/week-2026-11-30", CompanyID: f.advCompany, Amount: 250000, Description: "Week of Nov 30"})
			errs[i] = err
			if tx != nil {
				txIDs[i] = tx.ID
			}
		}()
	}
	wg.Wait()
	for i := range txIDs {
		if errs[i] != nil || txIDs[i] != txIDs[0] {
			t.Fatalf("call %d: %s %v (first %s)", i, txIDs[i], errs[i], txIDs[0])
		}
	}
	n, total, err := f.bill.sandbox.Charges(t.Context(), "campaign-7/week-2026-11-30/")
	if err != nil || n != 1 || total != 250000 {
		t.Fatalf("gateway charged %d times, %v (%v)", n, total, err)
	}
	var rows int64
	f.s.Kernel.DB.Table("billing_transactions").Where("idempotency_key = ?", "campaign-7/week-2026-11-30").Count(&rows)
	if rows != 1 {
		t.Fatalf("%d ledger rows", rows)
	}
	// The one transaction ends succeeded (whoever made it).
	tx, err := f.bill.svc.store.TransactionByID(t.Context(), txIDs[0])
	if err != nil || tx.Status != StatusSucceeded {
		t.Fatalf("transaction = %+v %v", tx, err)
	}
}

// TestDoubleClickOnProcessChargesOnce: PUT /api/transactions/{id} sent 10 times at once for a
// declined charge after a good card was added: one new attempt, one charge.
func TestDoubleClickOnProcessChargesOnce(t *testing.T) {
	testkit.PostgresURL(t)
	f := start(t, db.Postgres)
	addCard(t, f.adv, "4000000000000341")
	tx, err := f.bill.Service().Charge(t.Context(), ChargeRequest{Key: "dbl", CompanyID: f.advCompany, Amount: 1000})
	if _, ok := AsCardError(err); !ok || apperr.As(err).Message != GatewayMsgDeclined {
		t.Fatalf("decline: %v", err)
	}
	addCard(t, f.adv, "4242424242424242")
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s := f.adv.Put("/api/transactions/"+tx.ID, nil).Status; s != http.StatusOK {
				t.Errorf("status %d", s)
			}
		}()
	}
	wg.Wait()
	if n, _, _ := f.bill.sandbox.Charges(t.Context(), "dbl/"); n != 1 {
		t.Fatalf("charged %d times", n)
	}
}
