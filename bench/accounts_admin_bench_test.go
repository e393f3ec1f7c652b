package bench

import (
	"fmt"
	"testing"
	"time"

	"marquee/modules/billing"
	"marquee/modules/identity"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/money"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// Admin grid sizes of the grids' speed target (docs/performance.md "Admin user and company grids").
const (
	gridUsers     = 100_000
	gridCompanies = 20_000
)

var benchFirst = []string{"Ada", "Grace", "Alan", "Barbara", "Edsger", "Frances", "John", "Radia", "Ken", "Margaret", "Dennis", "Adele"}
var benchLast = []string{"Lovelace", "Hopper", "Turing", "Liskov", "Dijkstra", "Allen", "Backus", "Perlman", "Thompson", "Hamilton", "Ritchie", "Goldberg", "Smith"}

// fillAccounts writes the companies and users straight into identity's tables, in batches (the
// service's one-by-one path would take minutes), and gives 2,000 companies billing rows (credit)
// so the billing columns are read for real.
func fillAccounts(b *testing.B, s *testkit.Server, bill billing.Service) {
	gdb := s.Kernel.DB
	base := testkit.StartTime.Add(-400 * 24 * time.Hour)
	companies := make([]string, gridCompanies)
	rows := make([]map[string]any, 0, 1000)
	flush := func(table string) {
		if len(rows) == 0 {
			return
		}
		if err := gdb.Table(table).Create(rows).Error; err != nil {
			b.Fatal(err)
		}
		rows = rows[:0]
	}
	for i := range companies {
		companies[i] = ids.New()
		name := fmt.Sprintf("Grid Company %05d", i)
		rows = append(rows, map[string]any{"id": companies[i], "name": name, "name_key": fmt.Sprintf("grid company %05d", i),
			"type": "standard", "status": "active", "created_at": base.Add(time.Duration(i) * time.Minute), "updated_at": base})
		if len(rows) == cap(rows) {
			flush("identity_companies")
		}
	}
	flush("identity_companies")
	for i := 0; i < gridUsers; i++ {
		status := "active"
		if i%17 == 0 {
			status = "disabled"
		}
		last := base.Add(time.Duration(i) * 3 * time.Minute)
		rows = append(rows, map[string]any{"id": ids.New(), "company_id": companies[i%gridCompanies], "email": fmt.Sprintf("user%06d@grid.bench", i),
			"password_hash": "", "first_name": benchFirst[i%len(benchFirst)], "last_name": fmt.Sprintf("%s%d", benchLast[i%len(benchLast)], i%97),
			"phone": fmt.Sprintf("+1 415 %03d %04d", i%1000, i%10000), "role": "user", "status": status, "certified": false,
			"sign_in_count": i % 50, "last_login": &last, "tour_campaign_show": false, "tutorial_campaign_showed": true,
			"send_phone_zoho": i%3 == 0, "created_at": base.Add(time.Duration(i) * time.Minute), "updated_at": base})
		if len(rows) == cap(rows) {
			flush("identity_users")
		}
	}
	flush("identity_users")
	for i := 0; i < 2000; i++ {
		if _, err := bill.ApplyCredit(b.Context(), billing.CreditRequest{Key: fmt.Sprintf("grid-%d", i), CompanyID: companies[(i*7)%gridCompanies], Amount: money.Dollars(int64(10 + i%90))}); err != nil {
			b.Fatal(err)
		}
	}
	// Fresh planner statistics and, on PostgreSQL, the visibility map that autovacuum keeps: what
	// a database that has grown to this size has.
	maintain := "ANALYZE"
	if db.Dialect(gdb) == db.Postgres {
		maintain = "VACUUM ANALYZE"
	}
	if err := gdb.Exec(maintain).Error; err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAdminGrids: the admin user and company grids (GET /api/admin/users/,
// GET /api/admin/companies/) over 100,000 users and 20,000 companies: one page with its total,
// over HTTP, sequentially. Target: p95 under 50 ms on both databases.
func BenchmarkAdminGrids(b *testing.B) {
	for _, dialect := range testkit.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			s := testkit.Start(b, dialect, server.Compose(billing.Component))
			bill := testkit.ModuleOf[*billing.Module](b, s).Service()
			id := testkit.ModuleOf[*identity.Module](b, s).Service()
			// The admin company grid's billing columns, as cmd/marquee's wireHooks wires them.
			testkit.ModuleOf[*identity.Module](b, s).SetBillingReader(testkit.ModuleOf[*billing.Module](b, s).BillingReader())
			fillAccounts(b, s, bill)
			u, _, err := id.CreateUser(b.Context(), identity.CreateUserRequest{Email: "admin@grid.bench", Password: "benchmark password", Role: identity.RoleAdmin, CompanyName: "Marquee"})
			if err != nil {
				b.Fatal(err)
			}
			admin := s.Client(b)
			admin.SessionAs(s, u.ID)
			for _, tc := range []struct{ name, path string }{
				{"users-first-page", "/api/admin/users/"},
				{"users-page-100-by-last-login", "/api/admin/users/?page=100&page_size=100&sort=-last_login"},
				{"users-by-last-name", "/api/admin/users/?sort=last_name&page_size=75"},
				{"users-search", "/api/admin/users/?q=smith4"},
				{"users-search-company", "/api/admin/users/?q=grid%20company%2001234"},
				{"users-disabled", "/api/admin/users/?status=disabled&page=3"},
				{"companies-first-page", "/api/admin/companies/"},
				{"companies-by-name-page-50", "/api/admin/companies/?sort=name&page=50&page_size=100"},
				{"companies-search", "/api/admin/companies/?q=grid%20company%20019"},
			} {
				b.Run(tc.name, func(b *testing.B) {
					var lat latencies
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						start := time.Now()
						res := admin.Get(tc.path)
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
