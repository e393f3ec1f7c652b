package bench

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"marquee/modules/identity"
	"marquee/modules/partners"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// Partner program sizes of its speed target (docs/performance.md "Partner program"): 500 partners,
// 20,000 linked companies, 1 million settled charges. PARTNERS_BENCH_SCALE (default 1) shrinks all
// three alike: each partner keeps 40 clients and each client 50 charges, so the per-partner queries
// read the same rows.
const (
	benchPartners = 500
	benchClients  = 20_000
	benchCharges  = 1_000_000
)

func partnersScale(b *testing.B) float64 {
	if v := os.Getenv("PARTNERS_BENCH_SCALE"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 || f > 1 {
			b.Fatalf("PARTNERS_BENCH_SCALE=%q: want a number in (0, 1]", v)
		}
		return f
	}
	return 1
}

// fillPartners writes partner companies with an owner each, their clients and links, the charges'
// bonus entries and the monthly bonus rows they add up to, straight into the tables in batches.
// Each client's 50 charges fall over the 24 months before the test clock, on one campaign a year.
func fillPartners(b *testing.B, s *testkit.Server, scale float64) (partnerIDs []string) {
	gdb := s.Kernel.DB
	nPartners, nClients, nCharges := int(benchPartners*scale), int(benchClients*scale), int(benchCharges*scale)
	now := testkit.StartTime
	rows := make([]map[string]any, 0, 500)
	flush := func(table string, force bool) {
		if len(rows) == 0 || (!force && len(rows) < cap(rows)) {
			return
		}
		if err := gdb.Table(table).Create(rows).Error; err != nil {
			b.Fatal(err)
		}
		rows = rows[:0]
	}
	partnerIDs = make([]string, nPartners)
	linked := make([]int, nPartners)
	bonus := make([]int64, nPartners)
	for i := range partnerIDs {
		partnerIDs[i] = ids.New()
		typ := identity.CompanyAmbassador
		if i%3 == 0 {
			typ = identity.CompanyCertified
		}
		rows = append(rows, map[string]any{"id": partnerIDs[i], "name": fmt.Sprintf("Partner %04d", i), "name_key": fmt.Sprintf("partner %04d", i),
			"type": typ, "status": "active", "created_at": now, "updated_at": now})
		flush("identity_companies", false)
	}
	flush("identity_companies", true)
	for i, id := range partnerIDs {
		last := now.Add(-time.Duration(i) * time.Hour)
		rows = append(rows, map[string]any{"id": ids.New(), "company_id": id, "email": fmt.Sprintf("owner%04d@partners.bench", i),
			"password_hash": "", "first_name": benchFirst[i%len(benchFirst)], "last_name": benchLast[i%len(benchLast)], "phone": "",
			"role": "user", "status": "active", "certified": i%3 == 0, "sign_in_count": i % 40, "last_login": &last,
			"tour_campaign_show": false, "tutorial_campaign_showed": true, "send_phone_zoho": false, "created_at": now, "updated_at": now})
		flush("identity_users", false)
	}
	flush("identity_users", true)
	clients := make([]string, nClients)
	for i := range clients {
		clients[i] = ids.New()
		rows = append(rows, map[string]any{"id": clients[i], "name": fmt.Sprintf("Client %05d", i), "name_key": fmt.Sprintf("client %05d", i),
			"type": "standard", "status": "active", "created_at": now, "updated_at": now})
		flush("identity_companies", false)
	}
	flush("identity_companies", true)
	start := now.AddDate(-2, 0, 0)
	for i, c := range clients {
		p := i % nPartners
		linked[p]++
		rows = append(rows, map[string]any{"id": ids.New(), "partner_id": partnerIDs[p], "client_id": c, "source": partners.SourceReferral,
			"invited_user_id": "", "started": start.Format("2006-01-02"), "expiration": now.AddDate(1, 0, 0).Format("2006-01-02"), "created_at": start})
		flush("partners_links", false)
	}
	flush("partners_links", true)
	// The charges: entries, and the monthly rows they sum to.
	type key struct {
		client, year, month int
	}
	type acc struct {
		billed  int64
		charges int
		id      string
	}
	months := map[key]*acc{}
	perClient := nCharges / nClients
	for i := 0; i < nCharges; i++ {
		client := i % nClients
		n := i / nClients
		at := start.AddDate(0, n*24/perClient, 0)
		amount := int64(20_000 + (i*7919)%180_000)
		k := key{client, at.Year(), int(at.Month())}
		a := months[k]
		if a == nil {
			a = &acc{id: ids.New()}
			months[k] = a
		}
		a.billed += amount
		a.charges++
		tx := ids.New()
		rows = append(rows, map[string]any{"transaction_id": tx, "charge_id": tx, "bonus_id": a.id, "amount": amount, "created_at": at})
		flush("partners_bonus_entries", false)
	}
	flush("partners_bonus_entries", true)
	for k, a := range months {
		p := k.client % nPartners
		rate := 1000
		if p%3 == 0 {
			rate = 1500
		}
		bn := (a.billed*int64(rate) + 5000) / 10000
		bonus[p] += bn
		campaign := fmt.Sprintf("00000000-0000-7000-8000-%06d%06d", k.client, k.year%100)
		rows = append(rows, map[string]any{"id": a.id, "partner_id": partnerIDs[p], "client_id": clients[k.client], "campaign_ref": campaign,
			"year": k.year, "month": k.month, "rate_bp": rate, "billed": a.billed, "bonus": bn, "charges": a.charges, "created_at": now, "updated_at": now})
		flush("partners_bonuses", false)
	}
	flush("partners_bonuses", true)
	for i, id := range partnerIDs {
		typ := identity.CompanyAmbassador
		if i%3 == 0 {
			typ = identity.CompanyCertified
		}
		rows = append(rows, map[string]any{"id": id, "type": typ, "promo_id": "", "promo_code": fmt.Sprintf("REF-BENCH%04d", i),
			"website": "", "about": "", "phone": "", "linked": linked[i], "total_bonus": bonus[i], "created_at": now, "updated_at": now})
		flush("partners_partners", false)
	}
	flush("partners_partners", true)
	maintain := "ANALYZE"
	if db.Dialect(gdb) == db.Postgres {
		maintain = "VACUUM ANALYZE"
	}
	if err := gdb.Exec(maintain).Error; err != nil {
		b.Fatal(err)
	}
	return partnerIDs
}

// BenchmarkPartners: the hub statistics (GET /api/special/stats) of a partner and the special-users
// grid (GET /api/special/) over HTTP, sequentially. Target: p95 under 50 ms on both databases.
func BenchmarkPartners(b *testing.B) {
	scale := partnersScale(b)
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			s := testkit.Start(b, dialect, server.Compose(partners.Component))
			id := testkit.ModuleOf[*identity.Module](b, s).Service()
			setup := time.Now()
			partnerIDs := fillPartners(b, s, scale)
			b.Logf("%s: data written in %s (scale %.3g)", dialect, time.Since(setup).Round(time.Second), scale)
			owners, err := id.FindFirstUsers(b.Context(), partnerIDs[1:2])
			if err != nil || owners[partnerIDs[1]] == nil {
				b.Fatalf("owner: %v", err)
			}
			partner := s.Client(b)
			partner.SessionAs(s, owners[partnerIDs[1]].ID)
			u, _, err := id.CreateUser(b.Context(), identity.CreateUserRequest{Email: "super@partners.bench", Password: "benchmark password", Role: identity.RoleSuperAdmin, CompanyName: "Marquee"})
			if err != nil {
				b.Fatal(err)
			}
			super := s.Client(b)
			super.SessionAs(s, u.ID)
			year := testkit.StartTime.Year()
			for _, tc := range []struct {
				name string
				c    *testkit.Client
				path string
			}{
				{"stats-this-year", partner, fmt.Sprintf("/api/special/stats?year=%d", year)},
				{"stats-last-year", partner, fmt.Sprintf("/api/special/stats?year=%d", year-1)},
				{"special-users-first-page", super, "/api/special/"},
				{"special-users-by-linked-page-5", super, "/api/special/?sort=-linked&page=5&page_size=20"},
			} {
				b.Run(tc.name, func(b *testing.B) {
					var lat latencies
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						start := time.Now()
						res := tc.c.Get(tc.path)
						lat.add(time.Since(start))
						if res.Status != 200 {
							b.Fatalf("%s: %d %s", tc.path, res.Status, res.Body)
						}
					}
					lat.report(b)
				})
			}
		})
	}
}
