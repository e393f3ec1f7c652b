package campaigns

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"marquee/modules/locations"
	"marquee/platform/dates"
	"marquee/platform/testkit"
)

// TestCreationRace is the creation race (DESIGN.md §7): 20 advertisers create campaigns at once on
// the same 5 faces, which have 3 free spots each in the week. No spot is sold twice, the winners
// hold every face, and every loser gets the conflict answer (409 with a draft and its weeks).
// It runs on SQLite too, where writers take turns; the real test is PostgreSQL
// (TEST_DATABASE_URL).
func TestCreationRace(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		ctx := t.Context()
		faces := w.atlanta[:5]
		const free = 3
		for _, f := range faces {
			w.fill(t, f.ID, start0, free)
		}
		const n = 20
		advs := make([]*advertiser, n)
		for i := range advs {
			advs[i] = w.newAdvertiser(t, fmt.Sprintf("racer%d@campaigns.test", i), fmt.Sprintf("Racer %d", i), "4242424242424242")
		}
		type answer struct {
			status   int
			created  *CreateResponse
			conflict *ConflictResponse
			body     string
		}
		answers := make([]answer, n)
		gate := make(chan struct{})
		var wg sync.WaitGroup
		for i, a := range advs {
			wg.Go(func() {
				<-gate
				r := post(t, w.s, a.c, "race", w.form(a, FrequencyOneTime, 0, faces...))
				answers[i] = answer{status: r.Status, body: string(r.Body)}
				switch r.Status {
				case 201:
					answers[i].created = &CreateResponse{}
					r.JSON(t, answers[i].created)
				case 409:
					answers[i].conflict = &ConflictResponse{}
					r.JSON(t, answers[i].conflict)
				}
			})
		}
		close(gate)
		wg.Wait()

		won := 0
		for i, a := range answers {
			switch {
			case a.created != nil:
				won++
				if spots := w.spotsOf(t, advs[i], a.created.Campaign.ID); len(spots) != len(faces) {
					t.Fatalf("winner %d holds %d spots", i, len(spots))
				}
			case a.conflict != nil:
				if a.conflict.Message != MsgConflict || a.conflict.Campaign.ID == "" || a.conflict.Campaign.Status != StatusConflict || len(a.conflict.Campaign.Weeks) == 0 {
					t.Fatalf("loser %d: %s", i, a.body)
				}
				for _, wk := range a.conflict.Campaign.Weeks {
					if wk.StatusWeek == WeekReserved && !wk.StartAt.After(start0) {
						t.Fatalf("loser %d is offered a full week: %+v", i, wk)
					}
				}
			default:
				t.Fatalf("advertiser %d: %d %s", i, a.status, a.body)
			}
		}
		if won < 1 || won > free {
			t.Fatalf("%d campaigns won %d free spots", won, free)
		}
		// No spot is sold twice: every face's week holds at most its capacity, and the winners'
		// spots are active.
		q, err := w.loc.Quote(ctx, locations.QuoteRequest{FaceIDs: faceIDs(faces), Weeks: []dates.Date{start0}})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range q {
			if x.UsedSpots > x.AvailableSpots || x.Available {
				t.Fatalf("face %s: %d used of %d", x.FaceID, x.UsedSpots, x.AvailableSpots)
			}
		}
		t.Logf("%s: %d won, %d got the conflict", dialect, won, n-won)
	})
}

func faceIDs(faces []locations.Location) []string {
	out := make([]string, len(faces))
	for i, f := range faces {
		out[i] = f.ID
	}
	return out
}

// TestDraftOutlastsLostHolds: a conflict draft's holds may lose a race to other requests at every
// attempt, more often than any fixed number of attempts (the rush of TestCreationRace needed 6).
// Here, before each attempt, another company takes the next of the campaign's own weeks; the draft
// is made again each time and the loser still gets the conflict with a draft whose weeks are all
// free, never the bare "This spot has just been taken".
func TestDraftOutlastsLostHolds(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := startWorld(t, dialect)
		const duration = 8
		face := w.freeFace(t, start0, duration)
		w.fill(t, face.ID, start0, 0) // the booking finds the first week full: a draft is made
		attempts := 0
		w.m.svc.beforeDraft = func() {
			attempts++
			if attempts < duration {
				w.fill(t, face.ID, start0.AddWeeks(attempts), 0) // the week this attempt holds goes first
			}
		}
		t.Cleanup(func() { w.m.svc.beforeDraft = nil })

		var cr ConflictResponse
		post(t, w.s, w.adv.c, "lost-holds", w.form(w.adv, FrequencyWeekly, duration, face)).Expect(t, 409).JSON(t, &cr)
		if cr.Message != MsgConflict || cr.Campaign.Status != StatusConflict || len(cr.Campaign.Weeks) == 0 {
			t.Fatalf("conflict = %+v", cr)
		}
		if attempts != duration {
			t.Fatalf("%d attempts, want %d (one per lost week, then the draft)", attempts, duration)
		}
		// Every week of the campaign was taken: the draft offers only later free weeks, and holds them.
		last := start0.AddWeeks(duration - 1)
		for _, wk := range cr.Campaign.Weeks {
			if wk.StatusWeek != WeekReserved || !wk.StartAt.After(last) {
				t.Fatalf("week = %+v", wk)
			}
		}
		if n := len(w.spotsOf(t, w.adv, cr.Campaign.ID)); n != len(cr.Campaign.Weeks) {
			t.Fatalf("held spots = %d, weeks %d", n, len(cr.Campaign.Weeks))
		}
	})
}

// freeFace is an Atlanta face with a free spot in each of the weeks from start (the generated
// inventory sells some weeks out).
func (w *world) freeFace(t *testing.T, start dates.Date, weeks int) locations.Location {
	t.Helper()
	ws := make([]dates.Date, weeks)
	for i := range ws {
		ws[i] = start.AddWeeks(i)
	}
	for _, f := range w.atlanta {
		q, err := w.loc.Quote(t.Context(), locations.QuoteRequest{FaceIDs: []string{f.ID}, Weeks: ws})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(q, func(x locations.Quote) bool { return !x.Available }) {
			return f
		}
	}
	t.Fatal("no Atlanta face is free in every week")
	return locations.Location{}
}
