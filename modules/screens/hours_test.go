package screens_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"marquee/modules/campaigns"
	"marquee/modules/locations"
	"marquee/modules/screens"
	"marquee/platform/dates"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// laFace adds the Los Angeles market to the world and books a campaign of the advertiser on one of
// its faces this week and the next (one slot a loop); it answers the face and the campaign.
func (w *world) laFace(t *testing.T) (locations.Location, string) {
	t.Helper()
	loc := testkit.ModuleOf[*locations.Module](t, w.s)
	if _, err := loc.GenerateInventory(t.Context(), locations.GenerateOptions{Markets: []string{"Los Angeles"}, FacesPerMarket: 4, Seed: 11, Weeks: w.weekStart.AddWeeks(-3).Weeks(8)}); err != nil {
		t.Fatal(err)
	}
	faces, err := loc.Service().Locations(t.Context(), locations.LocationQuery{Markets: []string{"Los Angeles"}})
	if err != nil || len(faces) == 0 {
		t.Fatalf("faces: %d %v", len(faces), err)
	}
	gen, err := w.campaignsMod.GenerateCampaigns(t.Context(), campaigns.GenerateOptions{CompanyID: w.advAcc.CompanyID, UserID: w.advAcc.UserID,
		Campaigns: 1, Weeks: 2, FacesPer: 1, Faces: faces[:1], Start: w.weekStart, NamePrefix: "Pacific campaign", CreativeID: w.creative,
		ChargedBefore: w.weekStart.AddWeeks(2)})
	if err != nil {
		t.Fatal(err)
	}
	return faces[0], gen[0]
}

func (w *world) setHours(t *testing.T, face string, h locations.FaceHoursUpdate) locations.Location {
	t.Helper()
	var out locations.Location
	w.admin.Put("/api/admin/faces/"+face+"/hours", h).Expect(t, 200).JSON(t, &out)
	return out
}

// A Los Angeles face's schedule is in America/Los_Angeles with the face's hours, and follows an
// admin's change of them; If-None-Match answers 304, as the OpenAPI document says.
func TestScheduleHasTheFacesZoneAndHours(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		face, _ := w.laFace(t)
		if face.Hours == nil || face.Hours.Timezone != "America/Los_Angeles" || face.Hours.Open != "06:00" || face.Hours.Close != "24:00" {
			t.Fatalf("a Los Angeles face's default hours: %+v", face.Hours)
		}
		p := newPlayer(t, w)
		p.pair(t, w.code(t, face.ID)).Expect(t, 201)
		var sch screens.Schedule
		res := p.signedCall(t, w.s, "GET", "/api/device/schedule?weeks=2", nil).Expect(t, 200)
		res.JSON(t, &sch)
		if sch.Timezone != "America/Los_Angeles" || sch.Hours.Open != "06:00" || sch.Hours.Close != "24:00" {
			t.Fatalf("schedule zone %q hours %+v", sch.Timezone, sch.Hours)
		}
		// The testkit client checks the 304 against the document: it is declared, with the ETag.
		tag := res.Header.Get("ETag")
		p.signedCallWith(t, w.s, "GET", "/api/device/schedule?weeks=2", nil, http.Header{"If-None-Match": {tag}}).Expect(t, 304)

		w.setHours(t, face.ID, locations.FaceHoursUpdate{Timezone: "America/Phoenix", Open: "08:30", Close: "20:00"})
		res = p.signedCallWith(t, w.s, "GET", "/api/device/schedule?weeks=2", nil, http.Header{"If-None-Match": {tag}}).Expect(t, 200)
		res.JSON(t, &sch)
		if sch.Timezone != "America/Phoenix" || sch.Hours.Open != "08:30" || sch.Hours.Close != "20:00" || res.Header.Get("ETag") == tag {
			t.Fatalf("after the edit: zone %q hours %+v etag %s", sch.Timezone, sch.Hours, res.Header.Get("ETag"))
		}
	})
}

// A screen silent at 07:00 in New York is silent at 04:00 in Los Angeles, before its face opens:
// no email until the face's own 06:00, then one.
func TestSilentScreenIsReportedInItsFacesHours(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		face, _ := w.laFace(t)
		p := newPlayer(t, w)
		p.pair(t, w.code(t, face.ID)).Expect(t, 201)
		check := func() int {
			n, err := w.m.CheckHealth(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		la, _ := time.LoadLocation("America/Los_Angeles")
		if h := w.s.Clock.Now().In(la).Hour(); h != 4 {
			t.Fatalf("the test starts at %d:00 in Los Angeles, want 4:00", h)
		}
		w.s.Clock.Advance(115 * time.Minute) // 05:55 in Los Angeles (08:55 in New York): silent, closed
		if n := check(); n != 0 {
			t.Fatalf("%d emails before the face opens", n)
		}
		w.s.Clock.Advance(5 * time.Minute) // 06:00 in Los Angeles
		if n := check(); n != 1 {
			t.Fatalf("%d emails at the face's opening", n)
		}
		if mails := strings.Join(w.s.DeliverMail(t), "\n"); !strings.Contains(mails, "Screen silent: "+p.screenID) {
			t.Fatalf("mails: %s", mails)
		}
	})
}

// The delivered figure prices a play with the face's own operating day; a play outside the face's
// hours is stored, flagged outside_hours, not counted; a play's week is the face's local week.
func TestImpressionsFollowTheFacesHours(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		face, campaign := w.laFace(t)
		la, _ := time.LoadLocation("America/Los_Angeles")
		// Monday 02:00 in Los Angeles (10:00 UTC, 05:00 in New York).
		monday := w.weekStart.AddWeeks(1)
		w.s.Clock.Set(time.Date(monday.Time().Year(), monday.Time().Month(), monday.Time().Day(), 2, 0, 0, 0, la))
		w.admin.SessionAs(w.s, w.adminID) // a day later: a fresh session
		w.setHours(t, face.ID, locations.FaceHoursUpdate{Timezone: "America/Los_Angeles", Open: "08:00", Close: "20:00"})
		p := newPlayer(t, w)
		p.pair(t, w.code(t, face.ID)).Expect(t, 201)
		sunday := func(hh int) time.Time { // the day before, in Los Angeles
			return time.Date(monday.Time().Year(), monday.Time().Month(), monday.Time().Day()-1, hh, 0, 0, 0, la).UTC()
		}
		var out screens.PlaysResult
		p.signedCall(t, w.s, "POST", "/api/device/plays", playsBody(t, []screens.PlayIn{
			{Seq: 1, CampaignID: campaign, CreativeID: w.creative, StartedAt: sunday(10), DurationMs: 8000},
			// 21:00 in Los Angeles is Monday 00:00 in New York: the face's week is still last week's.
			{Seq: 2, CampaignID: campaign, CreativeID: w.creative, StartedAt: sunday(19), DurationMs: 8000},
			{Seq: 3, CampaignID: campaign, CreativeID: w.creative, StartedAt: sunday(21), DurationMs: 8000},
			{Seq: 4, CampaignID: campaign, CreativeID: w.creative, StartedAt: sunday(7), DurationMs: 8000},
		})).Expect(t, 200).JSON(t, &out)
		if out.Accepted != 2 || len(out.Flagged) != 2 || out.Flagged[0].Reason != screens.FlagOutsideHours || out.Flagged[1].Reason != screens.FlagOutsideHours {
			t.Fatalf("plays = %+v", out)
		}
		wk := w.weekOfCampaign(t, campaign, face.ID, w.weekStart)
		_, loop := screens.Loop(face.Location.AdSpotDuration, face.Location.AdRotationFrequency)
		want := screens.Impressions(2, wk.ProductOoh, loop, screens.OpenSecondsPerDay(8*60, 20*60))
		if wk.ActImp == nil || *wk.ActImp != want || want == screens.Impressions(2, wk.ProductOoh, loop, screens.OpenSecondsPerDay(6*60, 24*60)) {
			t.Fatalf("delivered %v, want %d (2 plays of a 12-hour day)", wk.ActImp, want)
		}
		if next := w.weekOfCampaign(t, campaign, face.ID, monday); next.ActImp != nil {
			t.Fatalf("a Sunday evening play counted in the next week: %d", *next.ActImp)
		}

		// Open all day: a play at 02:00 counts, and a play is priced with 24 hours.
		w.setHours(t, face.ID, locations.FaceHoursUpdate{Timezone: "America/Los_Angeles", Open: "00:00", Close: "24:00"})
		p.signedCall(t, w.s, "POST", "/api/device/plays", playsBody(t, []screens.PlayIn{
			{Seq: 5, CampaignID: campaign, CreativeID: w.creative, StartedAt: w.s.Clock.Now().UTC().Add(-time.Minute), DurationMs: 8000},
		})).Expect(t, 200).JSON(t, &out)
		next := w.weekOfCampaign(t, campaign, face.ID, monday)
		if out.Accepted != 1 || next.ActImp == nil || *next.ActImp != screens.Impressions(1, next.ProductOoh, loop, 24*3600) {
			t.Fatalf("a 24-hour face: %+v, delivered %v", out, next.ActImp)
		}
	})
}

// weekOfCampaign returns a campaign's week on a face.
func (w *world) weekOfCampaign(t *testing.T, campaign, face string, start dates.Date) campaigns.Week {
	t.Helper()
	weeks, err := w.campaignsMod.Service().FindWeeks(t.Context(), campaign)
	if err != nil {
		t.Fatal(err)
	}
	for _, wk := range weeks {
		if wk.ProductID == face && wk.StartAt == start {
			return wk
		}
	}
	t.Fatalf("no week %s of face %s", start, face)
	return campaigns.Week{}
}

// An admin sets a face's zone and hours through the admin face API: IANA names only, HH:MM, open
// before close; the change is audited in its transaction; a user may not; a missing face is 404.
func TestAdminSetsFaceHours(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		path := "/api/admin/faces/" + w.face + "/hours"
		audited := func() int64 {
			var n int64
			if err := w.s.Kernel.DB.Table("audit_entries").Where("action = ? AND object_id = ?", locations.AuditFaceHours, w.face).Count(&n).Error; err != nil {
				t.Fatal(err)
			}
			return n
		}
		got := w.setHours(t, w.face, locations.FaceHoursUpdate{Timezone: "America/Denver", Open: "05:30", Close: "23:00"})
		if got.Hours == nil || *got.Hours != (locations.FaceHours{Timezone: "America/Denver", Open: "05:30", Close: "23:00"}) {
			t.Fatalf("answer %+v", got.Hours)
		}
		if n := audited(); n != 1 {
			t.Fatalf("%d audit entries", n)
		}
		var entry struct{ Before, After string }
		w.s.Kernel.DB.Table("audit_entries").Select("before, after").Where("action = ?", locations.AuditFaceHours).Scan(&entry)
		var before, after locations.FaceHours
		if json.Unmarshal([]byte(entry.Before), &before) != nil || json.Unmarshal([]byte(entry.After), &after) != nil ||
			before.Timezone != "America/New_York" || before.Open != "06:00" || after.Timezone != "America/Denver" || after.Close != "23:00" {
			t.Fatalf("audit entry %+v", entry)
		}
		bad := func(h locations.FaceHoursUpdate, field, msg string) {
			t.Helper()
			res := w.admin.Put(path, h).Expect(t, 400)
			body := res.Map(t)
			if errs, _ := body["errors"].(map[string]any); body["message"] != msg || errs[field] == nil {
				t.Fatalf("%+v: %s", h, res.Body)
			}
		}
		bad(locations.FaceHoursUpdate{Timezone: "Mars/Olympus_Mons", Open: "06:00", Close: "24:00"}, "timezone", locations.MsgTimezone)
		bad(locations.FaceHoursUpdate{Timezone: "", Open: "06:00", Close: "24:00"}, "timezone", locations.MsgTimezone)
		bad(locations.FaceHoursUpdate{Timezone: "Local", Open: "06:00", Close: "24:00"}, "timezone", locations.MsgTimezone)
		bad(locations.FaceHoursUpdate{Timezone: "../../etc/passwd", Open: "06:00", Close: "24:00"}, "timezone", locations.MsgTimezone)
		bad(locations.FaceHoursUpdate{Timezone: "America/Chicago", Open: "6:00", Close: "24:00"}, "open", locations.MsgClock)
		bad(locations.FaceHoursUpdate{Timezone: "America/Chicago", Open: "06:00", Close: "24:30"}, "close", locations.MsgClock)
		bad(locations.FaceHoursUpdate{Timezone: "America/Chicago", Open: "06:00", Close: "06:00"}, "close", locations.MsgHoursOrder)
		bad(locations.FaceHoursUpdate{Timezone: "America/Chicago", Open: "18:00", Close: "02:00"}, "close", locations.MsgHoursOrder)
		w.admin.Put(path, locations.FaceHoursUpdate{Timezone: "America/Chicago\n", Open: "06:00", Close: "24:00"}).Expect(t, 400)
		if n := audited(); n != 1 {
			t.Fatalf("%d audit entries after refused edits", n)
		}
		// All day is 00:00 to 24:00.
		if h := w.setHours(t, w.face, locations.FaceHoursUpdate{Timezone: "America/Chicago", Open: "00:00", Close: "24:00"}).Hours; h.Open != "00:00" || h.Close != "24:00" {
			t.Fatalf("all day: %+v", h)
		}
		w.adv.Put(path, locations.FaceHoursUpdate{Timezone: "America/Chicago", Open: "07:00", Close: "24:00"}).Expect(t, 403)
		w.s.Client(t).Put(path, locations.FaceHoursUpdate{Timezone: "America/Chicago", Open: "07:00", Close: "24:00"}).Expect(t, 401)
		w.admin.Put("/api/admin/faces/nope/hours", locations.FaceHoursUpdate{Timezone: "America/Chicago", Open: "07:00", Close: "24:00"}).Expect(t, 404)
		var read locations.Location
		w.admin.Get("/api/admin/faces/"+w.face).Expect(t, 200).JSON(t, &read)
		if read.Hours == nil || read.Hours.Timezone != "America/Chicago" || read.Hours.Open != "00:00" {
			t.Fatalf("admin read: %+v", read.Hours)
		}
	})
}

// Each reference market's faces take its zone; Phoenix keeps no DST; a market the table does not
// know takes the business zone.
func TestMarketTimezones(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	for market, want := range map[string]string{"Los Angeles": "America/Los_Angeles", "Chicago": "America/Chicago", "Denver": "America/Denver",
		"Phoenix": "America/Phoenix", "New York": "America/New_York", "SF Bay Area": "America/Los_Angeles", "Atlantis": "America/New_York"} {
		if got := locations.MarketTimezone(market, ny); got != want {
			t.Errorf("%s: %s, want %s", market, got, want)
		}
	}
	phoenix, _ := time.LoadLocation(locations.MarketTimezone("Phoenix", ny))
	jan, jul := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC), time.Date(2026, 7, 15, 12, 0, 0, 0, time.UTC)
	if _, a := jan.In(phoenix).Zone(); a != -7*3600 {
		t.Errorf("Phoenix in January: %d", a)
	}
	if _, b := jul.In(phoenix).Zone(); b != -7*3600 {
		t.Errorf("Phoenix in July: %d (no DST)", b)
	}
}

// The demo face runs all day, so that `make run`'s player has counted plays whatever the hour:
// the seed sets its hours (keeping its zone), audited as the system, and stays idempotent.
func TestDemoFaceRunsAllDay(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		face := ""
		for range 2 {
			summary, err := w.m.SeedDemo(t.Context(), server.DemoAccounts{"advertiser": w.advAcc})
			if err != nil || !strings.Contains(summary, screens.DemoPairingCode) {
				t.Fatalf("seed = %q, %v", summary, err)
			}
			_, after, _ := strings.Cut(summary, " for face ")
			face, _, _ = strings.Cut(after, " ")
		}
		if face != w.face && face != w.other {
			t.Fatalf("the demo face %q is not one of the running campaign's", face)
		}
		fs, err := testkit.ModuleOf[*locations.Module](t, w.s).Service().FindFacesByIDs(t.Context(), []string{face})
		if err != nil || len(fs) != 1 || fs[0].Hours == nil {
			t.Fatalf("face: %+v %v", fs, err)
		}
		if h := fs[0].Hours; h.Open != "00:00" || h.Close != "24:00" || h.Timezone != "America/New_York" {
			t.Fatalf("the demo face's hours = %+v", h)
		}
	})
}

// A face's week closes when it has ended on the face's own clock and the grace has passed: with a
// grace of one hour, a Los Angeles week is still open at 01:30 on Monday in New York (22:30 on
// Sunday in Los Angeles, where the week still runs and its plays still arrive), and closes, with
// its make-good, at 01:30 on Monday in Los Angeles. (The business zone's rule closed it three
// hours before its last play.)
func TestWeekClosesOnTheFacesClock(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect, testkit.WithEnv("SCREENS_WEEK_GRACE", "1h"))
		face, campaign := w.laFace(t)
		w.setHours(t, face.ID, locations.FaceHoursUpdate{Timezone: "America/Los_Angeles", Open: "00:00", Close: "24:00"})
		la, _ := time.LoadLocation("America/Los_Angeles")
		ny, _ := time.LoadLocation("America/New_York")
		at := func(d dates.Date, hour, minute int, loc *time.Location) time.Time {
			y, m, dd := d.Time().Date()
			return time.Date(y, m, dd, hour, minute, 0, 0, loc)
		}
		sunday, nextMonday := w.weekStart.AddDays(6), w.weekStart.AddDays(7)
		p := newPlayer(t, w)
		p.pair(t, w.code(t, face.ID)).Expect(t, 201)
		w.s.Clock.Set(at(sunday, 20, 0, la)) // the week's last evening in Los Angeles
		var out screens.PlaysResult
		decode(t, p.signed(t, w.s, "POST", "/api/device/plays", playsBody(t, []screens.PlayIn{
			{Seq: 1, CampaignID: campaign, CreativeID: w.creative, StartedAt: w.s.Clock.Now().UTC().Add(-time.Minute), DurationMs: 8000}}), nil), &out)
		if out.Accepted != 1 {
			t.Fatalf("plays = %+v", out)
		}
		if wk := w.weekOfCampaign(t, campaign, face.ID, w.weekStart); wk.DeliverySource != campaigns.DeliverySourceScreen {
			t.Fatalf("week = %+v", wk)
		}
		closeWeeks := func() int {
			n, err := w.m.CloseWeeks(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		// Monday 01:30 in New York: the business zone's week ended 90 minutes ago, the face's has not.
		w.s.Clock.Set(at(nextMonday, 1, 30, ny))
		if n := closeWeeks(); n != 0 {
			t.Fatalf("closed %d weeks while the face's week still ran (%s there)", n, w.s.Clock.Now().In(la).Format("Mon 15:04"))
		}
		// A play of Sunday 23:00 in Los Angeles still counts in the week.
		before := *w.weekOfCampaign(t, campaign, face.ID, w.weekStart).ActImp
		w.s.Clock.Set(at(sunday, 23, 30, la))
		decode(t, p.signed(t, w.s, "POST", "/api/device/plays", playsBody(t, []screens.PlayIn{
			{Seq: 2, CampaignID: campaign, CreativeID: w.creative, StartedAt: at(sunday, 23, 0, la), DurationMs: 8000}}), nil), &out)
		if after := *w.weekOfCampaign(t, campaign, face.ID, w.weekStart).ActImp; out.Accepted != 1 || after <= before {
			t.Fatalf("the last evening's play: %+v, %d then %d", out, before, after)
		}
		// Monday 00:59 in Los Angeles: the week has ended but the hour of grace has not passed.
		w.s.Clock.Set(at(nextMonday, 0, 59, la))
		if n := closeWeeks(); n != 0 {
			t.Fatalf("closed %d weeks within the grace", n)
		}
		if w.weekOfCampaign(t, campaign, face.ID, w.weekStart).MakeGood != nil {
			t.Fatal("a make-good before the week was closed")
		}
		// Monday 01:30 in Los Angeles: ended and past the grace on the face's clock.
		w.s.Clock.Set(at(nextMonday, 1, 30, la))
		if n := closeWeeks(); n != 1 {
			t.Fatalf("closed %d weeks after the face's grace", n)
		}
		if w.weekOfCampaign(t, campaign, face.ID, w.weekStart).MakeGood == nil {
			t.Fatal("the closed, under-delivered week has no make-good")
		}
		if n := closeWeeks(); n != 0 {
			t.Fatalf("closed %d again", n)
		}
	})
}
