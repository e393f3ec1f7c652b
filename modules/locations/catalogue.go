package locations

import (
	"context"
	"slices"
	"sync"

	"marquee/modules/locations/internal/store"
	"marquee/platform/dates"
)

// catalogue caches the slow-changing half of the week reads: each market's faces with their base
// values, and each (market, week)'s explicit inventory rows. Every change to faces or inventory rows
// bumps locations_catalogue.version in its transaction, and every read first reads that version (one
// primary-key row), so a cache entry is used only while nothing has changed, whichever replica made
// the change. Spots, which change with every booking, are never cached.
type catalogue struct {
	mu      sync.Mutex
	version int64
	faces   map[string][]store.FaceBase               // by market
	weeks   map[marketWeek]map[string]store.Inventory // by market and week, then face id
}

type marketWeek struct {
	market string
	week   dates.Date
}

// maxCachedWeeks bounds the (market, week) entries; past it the week entries start again.
const maxCachedWeeks = 512

// marketWeekData is one market's faces and their explicit inventory rows of a week.
type marketWeekData struct {
	faces []store.FaceBase
	inv   map[string]store.Inventory
}

// snapshot returns each market's faces and inventory rows of the week: cached entries while the
// catalogue version is current, the others read (and kept if the version has not moved meanwhile).
func (c *catalogue) snapshot(ctx context.Context, st *store.Store, markets []string, week dates.Date) (int64, []marketWeekData, error) {
	version, err := st.CatalogueVersion(ctx)
	if err != nil {
		return 0, nil, err
	}
	out := make([]marketWeekData, len(markets))
	var missingFaces, missingWeeks []string
	c.mu.Lock()
	if c.version != version || c.faces == nil {
		c.version, c.faces, c.weeks = version, map[string][]store.FaceBase{}, map[marketWeek]map[string]store.Inventory{}
	}
	for i, m := range markets {
		var ok bool
		if out[i].faces, ok = c.faces[m]; !ok {
			missingFaces = append(missingFaces, m)
		}
		if out[i].inv, ok = c.weeks[marketWeek{m, week}]; !ok {
			missingWeeks = append(missingWeeks, m)
		}
	}
	c.mu.Unlock()
	if len(missingFaces) == 0 && len(missingWeeks) == 0 {
		return version, out, nil
	}

	faces := map[string][]store.FaceBase{}
	if len(missingFaces) > 0 {
		fs, err := st.FaceBases(ctx, missingFaces)
		if err != nil {
			return 0, nil, err
		}
		for _, m := range missingFaces {
			faces[m] = []store.FaceBase{}
		}
		for _, f := range fs {
			faces[f.Market] = append(faces[f.Market], f)
		}
	}
	weeks := map[string]map[string]store.Inventory{}
	if len(missingWeeks) > 0 {
		rows, err := st.WeekInventory(ctx, week, missingWeeks)
		if err != nil {
			return 0, nil, err
		}
		for _, m := range missingWeeks {
			weeks[m] = map[string]store.Inventory{}
		}
		for _, r := range rows {
			weeks[r.Market][r.FaceID] = r
		}
	}
	for i, m := range markets {
		if f, ok := faces[m]; ok {
			out[i].faces = f
		}
		if w, ok := weeks[m]; ok {
			out[i].inv = w
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version == version {
		for m, f := range faces {
			c.faces[m] = f
		}
		if len(c.weeks)+len(weeks) > maxCachedWeeks {
			c.weeks = map[marketWeek]map[string]store.Inventory{}
		}
		for m, w := range weeks {
			c.weeks[marketWeek{m, week}] = w
		}
	}
	return version, out, nil
}

// availableSpotsAnswer is POST /api/available-spots/'s encoded answer: the spots of AvailableSpots,
// made or reused (answers).
func (s *service) availableSpotsAnswer(ctx context.Context, req AvailableSpotsRequest) (*spotsAnswer, error) {
	q, err := s.weekSpots(ctx, req)
	if err != nil {
		return nil, err
	}
	return s.answers.answer(q), nil
}

// answers keeps the last encoded answers of POST /api/available-spots/, raw and gzip'd. An answer
// is reused only for the same catalogue version, week, markets and cities and exactly the same
// live spot counts, which are read on every request: it is the same bytes the request would make,
// without sorting, encoding and compressing 5,000 spots again.
type answers struct {
	mu sync.Mutex
	m  map[string]*spotsAnswer
}

// spotsAnswer is one encoded answer and the spot counts it was made from.
type spotsAnswer struct {
	counts   []int32
	order    []int32 // the sorted order of the query's faces, which the counts do not change
	body, gz []byte  // gz is nil below gzipAbove
}

// maxAnswers bounds the kept answers (an answer of 5,000 spots is about 1 MB with its gzip); past
// it they start again.
const maxAnswers = 16

// answer returns the encoded answer of the query, made or reused.
func (a *answers) answer(q *weekSpotsQuery) *spotsAnswer {
	a.mu.Lock()
	hit := a.m[q.key]
	a.mu.Unlock()
	if hit != nil && slices.Equal(hit.counts, q.counts) {
		return hit
	}
	var order []int32
	if hit != nil {
		order = hit.order
	}
	spots, order := q.sortedSpots(order)
	made := &spotsAnswer{counts: q.counts, order: order, body: appendSpots(make([]byte, 0, 180*len(spots)+2), spots)}
	if len(made.body) >= gzipAbove {
		made.gz = gzipped(made.body)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil || len(a.m) >= maxAnswers {
		a.m = map[string]*spotsAnswer{}
	}
	a.m[q.key] = made
	return made
}
