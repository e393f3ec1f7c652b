package bench

import (
	"fmt"
	"marquee/platform/server"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"marquee/modules/billing"
	"marquee/modules/identity"
	"marquee/platform/money"
	"marquee/platform/testkit"
)

// billingServer starts identity and billing, with n regular users of n companies, signed in.
func billingServer(b *testing.B, dialect string, n int) (*testkit.Server, billing.Service, []*testkit.Client, []string) {
	s := testkit.Start(b, dialect, server.Compose(billing.Component))
	var ids identity.Service
	var bill billing.Service
	for _, m := range s.Modules {
		switch m := m.(type) {
		case *identity.Module:
			ids = m.Service()
		case *billing.Module:
			bill = m.Service()
		}
	}
	clients := make([]*testkit.Client, n)
	companies := make([]string, n)
	for i := range clients {
		u, _, err := ids.CreateUser(b.Context(), identity.CreateUserRequest{Email: fmt.Sprintf("b%d@bench.test", i), Password: "benchmark password", CompanyName: fmt.Sprintf("Bench Co %d", i)})
		if err != nil {
			b.Fatal(err)
		}
		clients[i] = s.Client(b)
		clients[i].SessionAs(s, u.ID)
		companies[i] = u.Company.ID
	}
	return s, bill, clients, companies
}

func superAdmin(b *testing.B, s *testkit.Server) *testkit.Client {
	for _, m := range s.Modules {
		if id, ok := m.(*identity.Module); ok {
			u, _, err := id.Service().CreateUser(b.Context(), identity.CreateUserRequest{Email: "super@bench.test", Password: "benchmark password", Role: identity.RoleSuperAdmin, CompanyName: "Marquee"})
			if err != nil {
				b.Fatal(err)
			}
			c := s.Client(b)
			c.SessionAs(s, u.ID)
			return c
		}
	}
	b.Fatal("no identity module")
	return nil
}

// BenchmarkPromoRedeem: companies redeem one promo code concurrently over HTTP (POST /api/promo/).
// Every redeem updates the same promo row, so this is the contended path of the maximum-count rule.
func BenchmarkPromoRedeem(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			const companies = 400
			s, _, clients, _ := billingServer(b, dialect, companies)
			super := superAdmin(b, s)
			round := 0
			newPromo := func() string {
				round++
				code := fmt.Sprintf("BENCH%d", round)
				super.Post("/api/admin/promo/", billing.CreatePromoRequest{Code: code, Value: money.Dollars(5), MaxCount: billing.MaxPromoCount}).Expect(b, 201)
				return code
			}
			code := newPromo()
			var lat latencies
			var next atomic.Int64
			var mu sync.Mutex
			b.SetParallelism(4)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := next.Add(1) - 1
					mu.Lock()
					if i > 0 && i%companies == 0 {
						code = newPromo() // every company has redeemed this one: a fresh code
					}
					cur := code
					mu.Unlock()
					start := time.Now()
					res := clients[i%companies].Post("/api/promo/", billing.RedeemPromoRequest{Code: cur})
					lat.add(time.Since(start))
					if res.Status != 200 && res.Status != 409 {
						b.Fatalf("redeem: %d %s", res.Status, res.Body)
					}
				}
			})
			lat.report(b)
		})
	}
}

// BenchmarkCharge: campaign-week charges through the Service (sandbox gateway), each with its own
// idempotency key, from concurrent callers; then the same keys again (retries that must not
// charge).
func BenchmarkCharge(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		for _, replay := range []bool{false, true} {
			name := dialect + "/new"
			if replay {
				name = dialect + "/replay"
			}
			b.Run(name, func(b *testing.B) {
				const companies = 16
				_, bill, clients, cos := billingServer(b, dialect, companies)
				for _, c := range clients {
					var tok billing.CardToken
					c.Post("/api/sandbox/tokens", billing.SandboxTokenRequest{Number: "4242424242424242", ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2, CVC: "123"}).Expect(b, 200).JSON(b, &tok)
					c.Post("/api/cards", billing.AddCardRequest{Token: tok.ID, ExpMonth: 12, ExpYear: testkit.StartTime.Year() + 2}).Expect(b, 201)
				}
				const keys = 2000
				if replay {
					for i := 0; i < keys; i++ {
						if _, err := bill.Charge(b.Context(), billing.ChargeRequest{Key: fmt.Sprintf("k%d", i), CompanyID: cos[i%companies], Amount: 125000}); err != nil {
							b.Fatal(err)
						}
					}
				}
				var lat latencies
				var next atomic.Int64
				b.SetParallelism(4)
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						i := next.Add(1) - 1
						key := fmt.Sprintf("k%d", i)
						if replay {
							key = fmt.Sprintf("k%d", i%keys)
						}
						start := time.Now()
						tx, err := bill.Charge(b.Context(), billing.ChargeRequest{Key: key, CompanyID: cos[i%companies], Amount: 125000})
						lat.add(time.Since(start))
						if err != nil || tx.Status != billing.StatusSucceeded {
							b.Fatalf("charge: %+v %v", tx, err)
						}
					}
				})
				lat.report(b)
			})
		}
	}
}
