package campaigns

import (
	"testing"
	"time"

	"marquee/platform/testkit"
)

// What the detail page reads about weeks agrees with the campaign. A pending
// campaign's weeks say pending, a paused one's paused, an ended week completed; a partly recorded
// week says how many of its faces were reported; each proof names its face and its week.
func TestWeeksReadLikeTheirCampaign(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := startManage(t, dialect)
		type page struct {
			Items []Week `json:"items"`
		}
		statuses := func(name string) map[string]int {
			var p page
			f.adv.Get("/api/campaigns/"+f.ids[name]+"/weeks?page_size=0").Expect(t, 200).JSON(t, &p)
			out := map[string]int{}
			for _, w := range p.Items {
				out[w.Status]++
			}
			return out
		}
		if got := statuses("Spring Launch"); len(got) != 1 || got[StatusPending] == 0 {
			t.Errorf("pending campaign's weeks = %v, want all pending", got)
		}
		if got := statuses("Weekend Brunch"); got[WeekActive] != 0 || got[StatusPaused] == 0 || got[StatusCompleted] == 0 {
			t.Errorf("paused campaign's weeks = %v, want paused and (ended) completed", got)
		}
		if got := statuses("Holiday Coffee Push"); got[StatusCompleted] == 0 || got[WeekActive] == 0 || got[StatusPending] != 0 {
			t.Errorf("active campaign's weeks = %v", got)
		}

		// Record one face of the first (ended) week of a 3-face campaign: 1 of 3 reported.
		id := f.ids["Holiday Coffee Push"]
		var p page
		f.adv.Get("/api/campaigns/"+id+"/weeks?page_size=0&sort=start_at").Expect(t, 200).JSON(t, &p)
		first := p.Items[0].StartAt
		var ofFirst []Week
		for _, w := range p.Items {
			if w.StartAt == first {
				ofFirst = append(ofFirst, w)
			}
		}
		if len(ofFirst) != 3 {
			t.Fatalf("first week has %d faces", len(ofFirst))
		}
		var d CampaignDetail
		f.adv.Get("/api/campaigns/"+id).Expect(t, 200).JSON(t, &d)
		if len(d.Chart.Faces) != len(d.Chart.Labels) || len(d.Chart.Reported) != len(d.Chart.Labels) || d.Chart.Faces[0] != 3 {
			t.Fatalf("chart counts = %+v", d.Chart)
		}
		if d.Chart.Reported[0] != 3 {
			t.Fatalf("the demo's ended week is fully reported: %+v", d.Chart)
		}
		// Two faces' delivery not recorded yet: the week reads 1 of 3 faces reported.
		if err := f.m.svc.store.UpdateWeeks(t.Context(), []string{ofFirst[1].ID, ofFirst[2].ID}, map[string]any{"act_imp": nil}); err != nil {
			t.Fatal(err)
		}
		f.adv.Get("/api/campaigns/"+id).Expect(t, 200).JSON(t, &d)
		if d.Chart.Reported[0] != 1 || d.Chart.Faces[0] != 3 || d.Chart.Actual[0] == nil {
			t.Fatalf("after one face: reported %v of %v", d.Chart.Reported, d.Chart.Faces)
		}

		// Proofs carry their face and week.
		if len(d.Proofs) == 0 {
			t.Fatal("no proofs")
		}
		for _, pr := range d.Proofs {
			if pr.LocationName == "" || pr.Face == "" || pr.StartAt.IsZero() || pr.EndAt != pr.StartAt.AddDays(6) {
				t.Fatalf("proof without its face and week: %+v", pr)
			}
		}
	})
}

func TestBuildChartCountsReportedFaces(t *testing.T) {
	now := testkit.StartTime
	ch := buildChart(nil, 1, now, time.UTC)
	if ch.Reported == nil || ch.Faces == nil {
		t.Fatalf("empty chart counts must be lists: %+v", ch)
	}
}
