package campaigns

import (
	"fmt"
	"testing"
	"time"

	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// The dashboard counts are answered from memory, yet every campaign write (an action
// through the API, a raw UPDATE, a new campaign) shows in the next count, per company and for
// admins. On PostgreSQL the writes go to replica A and the counts are read on replica B (two
// servers on one database, each with its own memory), which must have them cached before each
// write; SQLite is one process, so A and B are the same server.
func TestCountIsRightAfterEveryWrite(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		t.Parallel()
		a := testkit.Start(t, dialect, server.Compose(Component))
		b := a
		if dialect == db.Postgres {
			url := testkit.PostgresURL(t)
			a = testkit.Start(t, dialect, server.Compose(Component), testkit.WithDatabaseURL(url))
			b = testkit.Start(t, dialect, server.Compose(Component), testkit.WithDatabaseURL(url))
		}
		ma, mb := testkit.ModuleOf[*Module](t, a), testkit.ModuleOf[*Module](t, b)
		ids := testkit.ModuleOf[*identity.Module](t, a).Service()
		accounts := map[string]server.DemoAccount{}
		clients := map[string]*testkit.Client{} // on B
		for _, u := range []struct{ email, company, role string }{
			{"adv@count.test", "Count Co", identity.RoleUser}, {"other@count.test", "Other Count Co", identity.RoleUser},
			{"admin@count.test", "Marquee", identity.RoleAdmin},
		} {
			user, _, err := ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: u.email, Password: "count password 1", Role: u.role, CompanyName: u.company})
			if err != nil {
				t.Fatal(err)
			}
			accounts[u.email] = server.DemoAccount{UserID: user.ID, CompanyID: user.Company.ID, Email: u.email}
			clients[u.email] = b.Client(t)
			clients[u.email].SessionAs(b, user.ID)
		}
		loc := testkit.ModuleOf[*locations.Module](t, a)
		today := dates.Today(a.Clock)
		if _, err := loc.GenerateInventory(t.Context(), locations.GenerateOptions{Markets: []string{"SF Bay Area"}, FacesPerMarket: 30, Seed: 7, Weeks: today.WeekStart().AddWeeks(-2).Weeks(8)}); err != nil {
			t.Fatal(err)
		}
		fs, err := loc.Service().Locations(t.Context(), locations.LocationQuery{Markets: []string{"SF Bay Area"}})
		if err != nil || len(fs) < 12 {
			t.Fatalf("faces: %d %v", len(fs), err)
		}
		seeded := 0
		seed := func(email, status string) string {
			t.Helper()
			id := demoID("count", fmt.Sprint(seeded))
			d := demoCampaign{"", "Count " + fmt.Sprint(seeded), "SF Bay Area", 1, seeded, -1, 3, status, FrequencyWeekly, "succeeded", ""}
			if err := ma.svc.seedCampaign(t.Context(), id, accounts[email], d, fs[seeded:seeded+1], today.WeekStart().AddWeeks(-1), false); err != nil {
				t.Fatal(err)
			}
			seeded++
			return id
		}
		active := seed("adv@count.test", StatusActive)
		seed("adv@count.test", StatusPaused)
		seed("other@count.test", StatusActive)

		// cacheAll reads every count on B until B answers it from memory.
		cacheAll := func() {
			t.Helper()
			time.Sleep(db.WatchSettle + 100*time.Millisecond) // the last write holds off caching
			for email, acc := range accounts {
				clients[email].Get("/api/campaigns/count").Expect(t, 200)
				scope := acc.CompanyID
				if email == "admin@count.test" {
					scope = ""
				}
				mb.svc.counts.mu.RLock()
				k, ok := mb.svc.counts.kept[scope]
				mb.svc.counts.mu.RUnlock()
				if !ok || !mb.svc.counts.watch.Fresh(k.gen) {
					t.Fatalf("%s: the count is not kept on B", email)
				}
			}
		}
		// expect fails unless B answers want right away (within the time a write takes to reach
		// another replica: a PostgreSQL notice, milliseconds; at once on the same process).
		expect := func(what string, want map[string]Count) {
			t.Helper()
			start := time.Now()
			for email, w := range want {
				for {
					var got Count
					clients[email].Get("/api/campaigns/count").Expect(t, 200).JSON(t, &got)
					if got == w {
						break
					}
					if a == b || time.Since(start) > 500*time.Millisecond {
						t.Fatalf("%s: %s's count on B = %+v, want %+v (after %s)", what, email, got, w, time.Since(start))
					}
					time.Sleep(time.Millisecond)
				}
			}
			t.Logf("%s: right on B after %s", what, time.Since(start))
		}
		otherCount := Count{Active: 1, Total: 1}

		cacheAll()
		expect("cached", map[string]Count{"adv@count.test": {Active: 1, Paused: 1, Total: 2}, "other@count.test": otherCount, "admin@count.test": {Active: 2, Paused: 1, Total: 3}})

		// An action through the API on A.
		cacheAll()
		adv := a.Client(t)
		adv.SessionAs(a, accounts["adv@count.test"].UserID)
		adv.Put("/api/campaigns/"+active+"/pause", nil).Expect(t, 200)
		expect("pause", map[string]Count{"adv@count.test": {Paused: 2, Total: 2}, "other@count.test": otherCount, "admin@count.test": {Active: 1, Paused: 2, Total: 3}})

		// A new campaign.
		cacheAll()
		seed("adv@count.test", StatusPending)
		expect("create", map[string]Count{"adv@count.test": {Pending: 1, Paused: 2, Total: 3}, "other@count.test": otherCount, "admin@count.test": {Pending: 1, Active: 1, Paused: 2, Total: 4}})

		// Raw SQL, outside any module code.
		cacheAll()
		if err := a.Kernel.DB.Exec("UPDATE campaigns_campaigns SET deleted = ? WHERE id = ?", true, active).Error; err != nil {
			t.Fatal(err)
		}
		expect("raw delete", map[string]Count{"adv@count.test": {Pending: 1, Paused: 1, Total: 2}, "other@count.test": otherCount, "admin@count.test": {Pending: 1, Active: 1, Paused: 1, Total: 3}})
	})
}
