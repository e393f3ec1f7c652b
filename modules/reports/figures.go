package reports

import (
	"math"
	"sort"

	"marquee/modules/campaigns"
	"marquee/platform/dates"
)

// The figures of a proof of performance (the DPAA and OAAA proof-of-performance reports are the
// model): planned against delivered impressions, per week and per face, with the difference and
// the delivery percentage. Planned is a face's estimated weekly impressions when it was booked
// (the week's product_ooh), delivered what an admin recorded (act_imp).

// figureSet is everything a report shows, computed once from the chosen face-weeks.
type figureSet struct {
	Totals  Figures       `json:"totals"`
	Weeks   []WeekFigures `json:"weeks"`
	Faces   []FaceFigures `json:"faces"`
	Markets []string      `json:"markets"`
}

// add counts one face-week into f.
func (f *Figures) add(w *campaigns.Week) {
	f.Planned += w.ProductOoh
	if w.ActImp != nil {
		f.Delivered += *w.ActImp
	} else {
		f.Unrecorded++
	}
	f.Spend += w.OfferPrice
}

// finish sets the derived columns.
func (f *Figures) finish() {
	f.Difference = f.Delivered - f.Planned
	f.DeliveryPct = deliveryPct(f.Delivered, f.Planned)
}

// deliveryPct is delivered / planned in percent, rounded to one decimal; 0 when nothing was planned.
func deliveryPct(delivered, planned int64) float64 {
	if planned <= 0 {
		return 0
	}
	return math.Round(float64(delivered)*1000/float64(planned)) / 10
}

// computeFigures sums the face-weeks by calendar week (oldest first) and by face (by market,
// location name and face), with the totals and the markets.
func computeFigures(weeks []campaigns.Week) figureSet {
	var out figureSet
	byWeek := map[dates.Date]*WeekFigures{}
	byFace := map[string]*FaceFigures{}
	markets := map[string]bool{}
	for i := range weeks {
		w := &weeks[i]
		out.Totals.add(w)
		wf := byWeek[w.StartAt]
		if wf == nil {
			wf = &WeekFigures{StartAt: w.StartAt, EndAt: w.EndAt}
			byWeek[w.StartAt] = wf
		}
		wf.add(w)
		wf.Faces++
		for _, c := range w.Creatives {
			if c.CreativeType == campaigns.CreativeTypeProof {
				wf.Proofs++
			}
		}
		ff := byFace[w.ProductID]
		if ff == nil {
			ff = &FaceFigures{FaceID: w.ProductID, LocationName: w.Product.LocationName, Market: w.Product.Market, City: w.Product.City, Face: w.Product.Face}
			byFace[w.ProductID] = ff
		}
		ff.add(w)
		ff.Weeks++
		if w.Product.Market != "" {
			markets[w.Product.Market] = true
		}
	}
	out.Totals.finish()
	out.Weeks = make([]WeekFigures, 0, len(byWeek))
	for _, wf := range byWeek {
		wf.finish()
		out.Weeks = append(out.Weeks, *wf)
	}
	sort.Slice(out.Weeks, func(i, j int) bool { return out.Weeks[i].StartAt.Before(out.Weeks[j].StartAt) })
	out.Faces = make([]FaceFigures, 0, len(byFace))
	for _, ff := range byFace {
		ff.finish()
		out.Faces = append(out.Faces, *ff)
	}
	sort.Slice(out.Faces, func(i, j int) bool {
		a, b := out.Faces[i], out.Faces[j]
		if a.Market != b.Market {
			return a.Market < b.Market
		}
		if a.LocationName != b.LocationName {
			return a.LocationName < b.LocationName
		}
		if a.Face != b.Face {
			return a.Face < b.Face
		}
		return a.FaceID < b.FaceID
	})
	out.Markets = make([]string, 0, len(markets))
	for m := range markets {
		out.Markets = append(out.Markets, m)
	}
	sort.Strings(out.Markets)
	return out
}

// sortWeeks orders face-weeks by week, then as the face table does (the CSV and the PDF's detail).
func sortWeeks(weeks []campaigns.Week) {
	sort.Slice(weeks, func(i, j int) bool {
		a, b := &weeks[i], &weeks[j]
		if !a.StartAt.Equal(b.StartAt) {
			return a.StartAt.Before(b.StartAt)
		}
		if a.Product.Market != b.Product.Market {
			return a.Product.Market < b.Product.Market
		}
		if a.Product.LocationName != b.Product.LocationName {
			return a.Product.LocationName < b.Product.LocationName
		}
		if a.Product.Face != b.Product.Face {
			return a.Product.Face < b.Product.Face
		}
		return a.ProductID < b.ProductID
	})
}
