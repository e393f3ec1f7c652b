package main

import (
	"testing"

	"marquee/modules/identity"
	"marquee/modules/locations"
	"marquee/platform/dates"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

func locationsModule(mods []server.Module) *locations.Module {
	for _, m := range mods {
		if l, ok := m.(*locations.Module); ok {
			return l
		}
	}
	panic("locations module not built")
}

// TestCalendarCallsAreScopedToTheCompany: the calendar operations of B §7 under the user's session
// (DESIGN.md §1.1): a company sees and changes only its own weeks; another company's week or
// campaign answers 404.
func TestCalendarCallsAreScopedToTheCompany(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := testkit.Start(t, dialect, buildModules)
		ids := identityService(s.Modules)
		loc := locationsModule(s.Modules)
		ctx := t.Context()
		if _, err := loc.GenerateInventory(ctx, locations.GenerateOptions{Markets: []string{"Seattle-Tacoma", "Phoenix"}, FacesPerMarket: 10, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		users := map[string]*identity.User{}
		for _, who := range []string{"a", "b"} {
			u, _, err := ids.CreateUser(ctx, identity.CreateUserRequest{Email: who + "@calendar.test", Password: "calendar password 1", Role: identity.RoleUser, CompanyName: "Calendar " + who})
			if err != nil {
				t.Fatal(err)
			}
			users[who] = u
		}
		svc := loc.Service()
		seattle, _ := svc.Locations(ctx, locations.LocationQuery{Markets: []string{"Seattle-Tacoma"}})
		phoenix, _ := svc.Locations(ctx, locations.LocationQuery{Markets: []string{"Phoenix"}})
		week := dates.MustParse("2026-11-30")
		held, err := svc.Hold(ctx, locations.ReserveRequest{Key: "a-hold", CompanyID: users["a"].Company.ID, Ref: "campaign-a", Items: []locations.FaceWeek{
			{FaceID: seattle[0].ID, Week: week}, {FaceID: seattle[0].ID, Week: week.AddWeeks(1)}, {FaceID: phoenix[0].ID, Week: week},
		}})
		if err != nil {
			t.Fatal(err)
		}
		booked, err := svc.Book(ctx, locations.ReserveRequest{Key: "b-book", CompanyID: users["b"].Company.ID, Ref: "campaign-b", Items: []locations.FaceWeek{{FaceID: seattle[1].ID, Week: week}}})
		if err != nil {
			t.Fatal(err)
		}
		a, b, anon := s.Client(t), s.Client(t), s.Client(t)
		a.SessionAs(s, users["a"].ID)
		b.SessionAs(s, users["b"].ID)

		anon.Get("/api/calendar/locations").Expect(t, 401)
		var mine []locations.CalendarLocation
		a.Get("/api/calendar/locations").Expect(t, 200).JSON(t, &mine)
		if len(mine) != 2 {
			t.Fatalf("company a sees %d faces, want 2", len(mine))
		}
		a.Get("/api/calendar/locations?market=Seattle-Tacoma").Expect(t, 200).JSON(t, &mine)
		if len(mine) != 1 || mine[0].ID != seattle[0].ID || len(mine[0].Weeks) != 2 || mine[0].Weeks[0].Status != locations.StatusReserved {
			t.Fatalf("company a in Seattle: %+v", mine)
		}
		a.Get("/api/calendar/locations?market=Atlantis").Expect(t, 400)
		var theirs []locations.CalendarLocation
		b.Get("/api/calendar/locations?market=all").Expect(t, 200).JSON(t, &theirs)
		if len(theirs) != 1 || theirs[0].ID != seattle[1].ID {
			t.Fatalf("company b sees %+v", theirs)
		}

		// Set a week active: the owner may, another company gets 404.
		weekID := held.Spots[0].ID
		b.Put("/api/calendar/week", locations.SetWeekStatusRequest{ID: weekID, Status: "active"}).Expect(t, 404)
		a.Put("/api/calendar/week", locations.SetWeekStatusRequest{ID: weekID, Status: "reserved"}).Expect(t, 400)
		var active locations.Spot
		a.Put("/api/calendar/week", locations.SetWeekStatusRequest{ID: weekID, Status: "active"}).Expect(t, 200).JSON(t, &active)
		if active.Status != locations.StatusActive || active.ExpiresAt != nil {
			t.Fatalf("set active: %+v", active)
		}

		// Delete a week.
		b.Delete("/api/calendar/week?id="+held.Spots[1].ID).Expect(t, 404)
		a.Delete("/api/calendar/week?id="+held.Spots[1].ID).Expect(t, 200)
		a.Delete("/api/calendar/week?id="+held.Spots[1].ID).Expect(t, 404)

		// A booked week is released only by the campaigns module, which owns its charge: its owner can
		// neither delete it nor set it active here (409), nor delete its campaign (404: nothing is
		// held under it); an activated hold is booked too.
		b.Delete("/api/calendar/week?id="+booked.Spots[0].ID).Expect(t, 409)
		b.Put("/api/calendar/week", locations.SetWeekStatusRequest{ID: booked.Spots[0].ID, Status: "active"}).Expect(t, 409)
		b.Delete("/api/calendar/campaigns/campaign-b").Expect(t, 404)
		a.Delete("/api/calendar/week?id="+weekID).Expect(t, 409)

		// Delete a reserved campaign: only its reserved weeks go; another company's is 404.
		a.Delete("/api/calendar/campaigns/campaign-b").Expect(t, 404)
		b.Delete("/api/calendar/campaigns/campaign-a").Expect(t, 404)
		var del locations.DeletedResponse
		a.Delete("/api/calendar/campaigns/campaign-a").Expect(t, 200).JSON(t, &del)
		if del.Deleted != 1 {
			t.Fatalf("deleted %d reserved weeks, want 1 (the other is active)", del.Deleted)
		}
		left, _ := svc.SpotsByRefs(ctx, users["a"].Company.ID, []string{"campaign-a"})
		if len(left) != 1 || left[0].ID != weekID {
			t.Fatalf("left: %+v", left)
		}
		if spots, _ := svc.SpotsByRefs(ctx, users["b"].Company.ID, []string{"campaign-b"}); len(spots) != 1 {
			t.Fatalf("company b's booking was touched: %+v", spots)
		}
	})
}
