package campaigns

import (
	"fmt"
	"slices"
	"time"

	"marquee/modules/campaigns/internal/store"
	"marquee/platform/dates"
)

// The detail chart (A §9, B §9; brief decision 12), a pure function of the weeks and the clock.

// chartDay is how long after a week or a day ends before its actual impressions are shown: the
// spec's "over 1 day" and "over 24 hours".
const chartDay = 24 * time.Hour

// buildChart plots one 'Week n' point per campaign week: the minimum is the sum of the week's
// faces' estimated impressions (product_ooh), the actual the sum of their recorded act_imp, shown
// only once the week ended more than a day ago and something was recorded. A campaign of a single
// week plots 7 'Day n' points instead, each a seventh of the week, the actual shown for days that
// ended more than 24 hours ago. Campaigns of duration 2 or 4 show their weeks up to and including
// the current one (B §9). Each point also counts the faces booked and the faces whose delivery was
// recorded, so a partly recorded week is not read as the week's whole delivery.
func buildChart(weeks []store.Week, duration int, now time.Time, loc *time.Location) ChartSeries {
	type agg struct {
		start           dates.Date
		min, act        int64
		recorded        bool
		faces, reported int
	}
	byWeek := map[dates.Date]*agg{}
	var order []dates.Date
	for i := range weeks {
		w := &weeks[i]
		a := byWeek[w.StartAt]
		if a == nil {
			a = &agg{start: w.StartAt}
			byWeek[w.StartAt] = a
			order = append(order, w.StartAt)
		}
		a.min += w.Ooh
		a.faces++
		if w.ActImp != nil {
			a.act += *w.ActImp
			a.recorded = true
			a.reported++
		}
	}
	slices.SortFunc(order, func(a, b dates.Date) int { return a.Compare(b) })
	out := ChartSeries{Labels: []string{}, Minimum: []int64{}, Actual: []*int64{}, Reported: []int{}, Faces: []int{}}
	if len(order) == 1 {
		a := byWeek[order[0]]
		for d := 0; d < 7; d++ {
			out.Labels = append(out.Labels, fmt.Sprintf("Day %d", d+1))
			out.Minimum = append(out.Minimum, a.min/7)
			out.Faces, out.Reported = append(out.Faces, a.faces), append(out.Reported, a.reported)
			dayEnd := a.start.AddDays(d + 1).Time()
			if a.recorded && now.Sub(dayEnd) > chartDay {
				v := a.act / 7
				out.Actual = append(out.Actual, &v)
			} else {
				out.Actual = append(out.Actual, nil)
			}
		}
		return out
	}
	if duration == 2 || duration == 4 {
		today := dates.In(now, loc) // the current week in the business time zone
		shown := order[:0:0]
		for _, w := range order {
			if !w.After(today) {
				shown = append(shown, w)
			}
		}
		if len(shown) == 0 && len(order) > 0 {
			shown = order[:1]
		}
		order = shown
	}
	for i, w := range order {
		a := byWeek[w]
		out.Labels = append(out.Labels, fmt.Sprintf("Week %d", i+1))
		out.Minimum = append(out.Minimum, a.min)
		out.Faces, out.Reported = append(out.Faces, a.faces), append(out.Reported, a.reported)
		weekEnd := a.start.AddDays(7).Time()
		if a.recorded && now.Sub(weekEnd) > chartDay {
			v := a.act
			out.Actual = append(out.Actual, &v)
		} else {
			out.Actual = append(out.Actual, nil)
		}
	}
	return out
}

// withPlanFloor adds the plan band's lower edge to a chart: each point's plan × the make-good
// threshold. A week delivered under it earns a make-good once it has finished.
func withPlanFloor(ch ChartSeries, thresholdPercent int) ChartSeries {
	ch.PlanFloor = make([]int64, len(ch.Minimum))
	for i, v := range ch.Minimum {
		ch.PlanFloor[i] = v * int64(thresholdPercent) / 100
	}
	return ch
}
