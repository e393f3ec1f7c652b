package locations

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"marquee/modules/locations/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/ratelimit"
)

// service implements Service, and the calls of the module's handlers. It holds the caches of the
// answers the map asks for again and again, and the place search.
type service struct {
	deps      Deps
	store     *store.Store
	catalogue catalogue
	answers   answers     // POST /api/available-spots/'s encoded answers
	faces     faceAnswers // GET /api/od/locations/'s encoded answers
	places    *placeSearch
	tiles     *tileProbe
	photos    photoCache        // the uploaded face photos last decoded (face_photo.go)
	photoRate ratelimit.Counter // FacePhotosPerMinute
}

var _ Service = (*service)(nil)

func (s *service) now() time.Time { return s.deps.Clock.Now() }

// Markets implements Service.
func (s *service) Markets(ctx context.Context) ([]Market, error) {
	ms, err := s.store.Markets(ctx)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	if len(ms) == 0 {
		return nil, apperr.New(apperr.EUNAVAILABLE, MsgMarketsUnavailable)
	}
	cs, err := s.store.Cities(ctx)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	cities := map[string][]string{}
	for _, c := range cs {
		cities[c.MarketID] = append(cities[c.MarketID], c.Name)
	}
	out := make([]Market, 0, len(ms))
	for _, m := range ms {
		names := cities[m.ID]
		if names == nil {
			names = []string{}
		}
		sort.Strings(names)
		out = append(out, Market{ID: m.ID, Market: m.Name, Cities: names, Center: LatLng{m.CenterLat, m.CenterLng}, Zoom: m.Zoom, Fixed: m.Fixed})
	}
	return out, nil
}

// checkMarkets refuses unknown market names (field markets or market) and answers the known ones.
func (s *service) checkMarkets(ctx context.Context, names []string, field string) ([]string, error) {
	ms, err := s.store.Markets(ctx)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	known := map[string]bool{}
	for _, m := range ms {
		known[m.Name] = true
	}
	var out []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !known[n] {
			return nil, apperr.Field(field, MsgUnknownMarket)
		}
		out = append(out, n)
	}
	return out, nil
}

// checkCities refuses a city that is not in one of the markets (field cities) and answers the set.
func (s *service) checkCities(ctx context.Context, markets, names []string) (map[string]bool, error) {
	ms, err := s.Markets(ctx)
	if err != nil {
		return nil, err
	}
	inMarkets := map[string]bool{}
	for _, m := range ms {
		if slices.Contains(markets, m.Market) {
			for _, c := range m.Cities {
				inMarkets[c] = true
			}
		}
	}
	out := map[string]bool{}
	for _, n := range names {
		if !inMarkets[n] {
			return nil, apperr.Field("cities", MsgUnknownCity)
		}
		out[n] = true
	}
	return out, nil
}

// Locations implements Service.
func (s *service) Locations(ctx context.Context, q LocationQuery) ([]Location, error) {
	if q.PlaceID != "" {
		return s.locationsNear(ctx, q.PlaceID, q.Radius)
	}
	markets, err := s.marketFilter(ctx, q.Markets)
	if err != nil {
		return nil, err
	}
	fs, err := s.store.Faces(ctx, store.FacesQuery{Markets: markets})
	return toLocations(fs, err)
}

// marketFilter reads the market query parameter: names, none or "all" for every market (nil);
// an unknown name is a 400 naming the field market.
func (s *service) marketFilter(ctx context.Context, names []string) ([]string, error) {
	for _, m := range names {
		if strings.EqualFold(strings.TrimSpace(m), "all") {
			return nil, nil
		}
	}
	return s.checkMarkets(ctx, names, "market")
}

func toLocations(fs []store.Face, err error) ([]Location, error) {
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]Location, len(fs))
	for i := range fs {
		out[i] = toLocation(&fs[i])
	}
	return out, nil
}

// locationsNear answers the faces within radius miles of a place, nearest first (B §3 "Distance
// filter", B §9).
func (s *service) locationsNear(ctx context.Context, placeID string, radius int) ([]Location, error) {
	if radius == 0 {
		radius = DefaultRadius
	}
	if !ValidRadius(radius) {
		return nil, apperr.Field("radius", MsgRadiusInvalid)
	}
	g, err := loadGazetteer()
	if err != nil {
		return nil, apperr.Internal(err)
	}
	centre, err := placeCentre(g, placeID)
	if err != nil {
		return nil, err
	}
	// A box around the circle narrows the rows the index reads; the distance decides.
	dLat := float64(radius) / (EarthRadiusMiles * math.Pi / 180)
	dLng := dLat / math.Max(0.01, math.Cos(centre.Lat*math.Pi/180))
	fs, err := s.store.Faces(ctx, store.FacesQuery{Box: &store.Box{MinLat: centre.Lat - dLat, MaxLat: centre.Lat + dLat, MinLng: centre.Lng - dLng, MaxLng: centre.Lng + dLng}})
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := []Location{}
	for i := range fs {
		d := DistanceMiles(centre, LatLng{fs[i].Lat, fs[i].Lng})
		if d > float64(radius) {
			continue
		}
		l := toLocation(&fs[i])
		d = math.Round(d*100) / 100
		l.Distance = &d
		out = append(out, l)
	}
	sort.SliceStable(out, func(i, j int) bool { return *out[i].Distance < *out[j].Distance })
	return out, nil
}

func toLocation(f *store.Face) Location {
	return Location{
		ID: f.ID, LocationName: f.LocationName, Market: f.Market, City: f.City, Lat: f.Lat, Lng: f.Lng,
		Face: f.Face, DoubleFaced: f.OtherFaceID != "", OtherFace: f.OtherFaceID, Likely: f.Likely,
		Location:            LocationSettings{AdRotationFrequency: f.AdRotationFrequency, AdSpotDuration: f.AdSpotDuration},
		NewLocationSnapshot: f.NewSnapshot, LocationSnapshot: f.Snapshot, ExcludeMaximizeBudget: f.ExcludeMaximizeBudget,
		Value: SpotPrice(f.BasePrice), Ooh: f.BaseOoh, Geometry: new(toGeometry(f.FaceGeometry)),
		Hours: new(toHours(f.FaceHours)),
	}
}

// FindFacesByIDs implements Service.
func (s *service) FindFacesByIDs(ctx context.Context, faceIDs []string) ([]Location, error) {
	return toLocations(s.store.FacesByIDs(ctx, faceIDs))
}

// parseMonday reads a week's Monday, naming the field in its errors.
func parseMonday(field, s string) (dates.Date, error) {
	if strings.TrimSpace(s) == "" {
		return dates.Date{}, apperr.Field(field, MsgStartAtInvalid)
	}
	d, err := dates.Parse(s)
	if err != nil {
		return dates.Date{}, apperr.Field(field, MsgStartAtInvalid)
	}
	if !d.IsMonday() {
		return dates.Date{}, apperr.Field(field, MsgStartAtNotMonday)
	}
	return d, nil
}

// splitList splits a comma list, trimming and dropping empty parts.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// AvailableSpots implements Service (A §7).
func (s *service) AvailableSpots(ctx context.Context, req AvailableSpotsRequest) ([]AvailableSpot, error) {
	q, err := s.weekSpots(ctx, req)
	if err != nil {
		return nil, err
	}
	return q.spots(), nil
}

// weekSpotsQuery is a week's faces of some markets (narrowed to cities) with their live spot counts.
type weekSpotsQuery struct {
	key    string // catalogue version, week, markets and cities: what else the answer depends on
	faces  []*store.FaceBase
	inv    []*store.Inventory // nil where the week has no row
	counts []int32            // live spots, in the order of faces
}

// weekSpots validates the request and reads the week: faces and inventory rows from the catalogue
// cache, spot counts from the database.
func (s *service) weekSpots(ctx context.Context, req AvailableSpotsRequest) (*weekSpotsQuery, error) {
	week, err := parseMonday("start_at", req.StartAt)
	if err != nil {
		return nil, err
	}
	markets, err := s.checkMarkets(ctx, req.Markets, "markets")
	if err != nil {
		return nil, err
	}
	if len(markets) == 0 {
		return nil, apperr.Field("markets", MsgMarketsRequired)
	}
	cities := map[string]bool{}
	if names := splitList(req.Cities); len(names) > 0 {
		if cities, err = s.checkCities(ctx, markets, names); err != nil {
			return nil, err
		}
	}
	version, data, err := s.catalogue.snapshot(ctx, s.store, markets, week)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	used, err := s.store.UsedSpots(ctx, week, markets, s.now())
	if err != nil {
		return nil, apperr.Internal(err)
	}
	sortedMarkets, sortedCities := slices.Sorted(slices.Values(markets)), slices.Sorted(maps.Keys(cities))
	q := &weekSpotsQuery{key: fmt.Sprintf("%d|%s|%q|%q", version, week, sortedMarkets, sortedCities)}
	for _, d := range data {
		for i := range d.faces {
			f := &d.faces[i]
			if len(cities) > 0 && !cities[f.City] {
				continue
			}
			var inv *store.Inventory
			if r, ok := d.inv[f.ID]; ok {
				inv = &r
			}
			q.faces, q.inv, q.counts = append(q.faces, f), append(q.inv, inv), append(q.counts, int32(used[f.ID])) // #nosec G115 -- spots sold in one week of one face: at most the face's slots
		}
	}
	return q, nil
}

// spots answers the week's spots, sorted ascending by min_value (A §7).
func (q *weekSpotsQuery) spots() []AvailableSpot {
	spots, _ := q.sortedSpots(nil)
	return spots
}

// sortedSpots answers the week's spots in order, an order of q.faces (indices) that an earlier
// answer of the same key made, or sorted when order is nil; it returns the order it used. The order
// depends only on the key (the prices come from the faces and the week's rows), not on the spot
// counts, so an answer made again after a booking skips the sort.
func (q *weekSpotsQuery) sortedSpots(order []int32) ([]AvailableSpot, []int32) {
	all := make([]AvailableSpot, len(q.faces))
	for i, f := range q.faces {
		sp := AvailableSpot{Xxx: f.ID, UsedSpots: int(q.counts[i]), AvailableSpots: f.Spots, MinValue: f.Price, OldValue: f.Price, VendorTier: 1, Ooh: f.Ooh}
		if r := q.inv[i]; r != nil {
			sp.AvailableSpots, sp.OldValue, sp.MinValue2, sp.VendorTier, sp.Ooh = r.AvailableSpots, r.MinValue, r.MinValue2, r.VendorTier, r.Ooh
			sp.MinValue = TierPrice(r.MinValue, r.MinValue2, r.VendorTier)
		}
		sp.Available = IsAvailable(sp.UsedSpots, sp.AvailableSpots)
		sp.Price = SpotPrice(sp.MinValue)
		all[i] = sp
	}
	if len(order) != len(all) {
		order = make([]int32, len(all))
		for i := range order {
			order[i] = int32(i) // #nosec G115 -- an index of the faces of a few markets
		}
		slices.SortFunc(order, func(a, b int32) int {
			if all[a].MinValue != all[b].MinValue {
				return cmp.Compare(all[a].MinValue, all[b].MinValue)
			}
			return strings.Compare(all[a].Xxx, all[b].Xxx)
		})
	}
	out := make([]AvailableSpot, len(all))
	for i, j := range order {
		out[i] = all[j]
	}
	return out, order
}

// weekGrid holds the values and live spots of some faces over a range of weeks.
type weekGrid struct {
	faces map[string]*store.Face
	inv   map[FaceWeek]store.Inventory
	used  map[FaceWeek]map[int]bool // taken slot numbers
}

func (s *service) loadGrid(ctx context.Context, faceIDs []string, from, to dates.Date) (*weekGrid, error) {
	fs, err := s.store.FacesByIDs(ctx, faceIDs)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	g := &weekGrid{faces: map[string]*store.Face{}, inv: map[FaceWeek]store.Inventory{}, used: map[FaceWeek]map[int]bool{}}
	for i := range fs {
		g.faces[fs[i].ID] = &fs[i]
	}
	for _, id := range faceIDs {
		if g.faces[id] == nil {
			return nil, apperr.NotFound(MsgFaceNotFound)
		}
	}
	rows, err := s.store.InventoryOf(ctx, faceIDs, from, to)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	for _, r := range rows {
		g.inv[FaceWeek{r.FaceID, r.Week}] = r
	}
	spots, err := s.store.LiveSpotsOf(ctx, faceIDs, from, to, s.now())
	if err != nil {
		return nil, apperr.Internal(err)
	}
	for _, sp := range spots {
		k := FaceWeek{sp.FaceID, sp.Week}
		if g.used[k] == nil {
			g.used[k] = map[int]bool{}
		}
		g.used[k][sp.Slot] = true
	}
	return g, nil
}

// quote is the face's values in the week.
func (g *weekGrid) quote(k FaceWeek) Quote {
	f := g.faces[k.FaceID]
	r, ok := g.inv[k]
	if !ok {
		r = store.Inventory{AvailableSpots: f.BaseSpots, MinValue: f.BasePrice, VendorTier: 1, Ooh: f.BaseOoh}
	}
	used := len(g.used[k])
	return Quote{
		FaceID: k.FaceID, Week: k.Week, AvailableSpots: r.AvailableSpots, UsedSpots: used,
		Available: IsAvailable(used, r.AvailableSpots),
		Price:     SpotPrice(TierPrice(r.MinValue, r.MinValue2, r.VendorTier)),
		MinValue:  r.MinValue, MinValue2: r.MinValue2, VendorTier: r.VendorTier, Ooh: r.Ooh,
	}
}

// checkItems validates face × week items and answers them without repeats, with their week range.
func checkItems(items []FaceWeek) ([]FaceWeek, []string, dates.Date, dates.Date, error) {
	if len(items) == 0 {
		return nil, nil, dates.Date{}, dates.Date{}, apperr.Field("items", MsgItemsRequired)
	}
	if len(items) > MaxItems {
		return nil, nil, dates.Date{}, dates.Date{}, apperr.Field("items", MsgTooManyItems)
	}
	seen := map[FaceWeek]bool{}
	faceSeen := map[string]bool{}
	var out []FaceWeek
	var faceIDs []string
	var from, to dates.Date
	for _, it := range items {
		if !it.Week.IsMonday() {
			return nil, nil, from, to, apperr.Field("weeks", MsgWeekNotMonday)
		}
		if seen[it] {
			continue
		}
		seen[it] = true
		out = append(out, it)
		if !faceSeen[it.FaceID] {
			faceSeen[it.FaceID] = true
			faceIDs = append(faceIDs, it.FaceID)
		}
		if from.IsZero() || it.Week.Before(from) {
			from = it.Week
		}
		if to.IsZero() || it.Week.After(to) {
			to = it.Week
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].FaceID != out[j].FaceID {
			return out[i].FaceID < out[j].FaceID
		}
		return out[i].Week.Before(out[j].Week)
	})
	return out, faceIDs, from, to, nil
}

// Quote implements Service.
func (s *service) Quote(ctx context.Context, req QuoteRequest) ([]Quote, error) {
	var items []FaceWeek
	for _, f := range req.FaceIDs {
		for _, w := range req.Weeks {
			items = append(items, FaceWeek{f, w})
		}
	}
	items, faceIDs, from, to, err := checkItems(items)
	if err != nil {
		return nil, err
	}
	g, err := s.loadGrid(ctx, faceIDs, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]Quote, len(items))
	for i, it := range items {
		out[i] = g.quote(it)
	}
	return out, nil
}

// Book implements Service.
func (s *service) Book(ctx context.Context, req ReserveRequest) (ReserveResult, error) {
	return s.reserve(ctx, req, store.KindBook)
}

// Hold implements Service.
func (s *service) Hold(ctx context.Context, req ReserveRequest) (ReserveResult, error) {
	return s.reserve(ctx, req, store.KindHold)
}

// suggestHorizon is how far after a taken week a free one is looked for.
const suggestHorizon = 52

// errSpotsTaken rolls back a reservation that found a full week.
var errSpotsTaken = errors.New("spots taken")

// reserve books or holds one spot per item, all or nothing. Each spot takes the first slot number
// that is free; the unique index on (face, week, slot) decides between concurrent callers, so there
// is no read-then-write race: a caller that loses a slot tries the next, and one that runs out of
// slots reports the week as taken.
func (s *service) reserve(ctx context.Context, req ReserveRequest, kind string) (ReserveResult, error) {
	req.Key = strings.TrimSpace(req.Key)
	if req.Key == "" || len(req.Key) > 100 {
		return ReserveResult{}, apperr.Field("key", MsgKeyRequired)
	}
	if req.CompanyID == "" {
		return ReserveResult{}, apperr.Internal(errors.New("locations: reserve without a company"))
	}
	if len(req.Ref) > 100 {
		return ReserveResult{}, apperr.Field("ref", "Too long (at most 100).")
	}
	items, faceIDs, from, to, err := checkItems(req.Items)
	if err != nil {
		return ReserveResult{}, err
	}
	fingerprint := reservationFingerprint(kind, req.Ref, items)
	var result ReserveResult
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		now := s.now()
		inserted, err := s.store.TryInsertReservation(ctx, &store.Reservation{CompanyID: req.CompanyID, Key: req.Key, Kind: kind, Fingerprint: fingerprint, CreatedAt: now})
		if err != nil {
			return apperr.Internal(err)
		}
		if !inserted {
			earlier, err := s.store.Reservation(ctx, req.CompanyID, req.Key)
			if err != nil {
				return apperr.Internal(err)
			}
			if earlier.Fingerprint != fingerprint {
				return apperr.New(apperr.ECONFLICT, MsgKeyReused)
			}
			spots, err := s.store.SpotsByKey(ctx, req.CompanyID, req.Key)
			if err != nil {
				return apperr.Internal(err)
			}
			result.Spots = toSpots(spots)
			return nil
		}
		if _, err := s.store.DeleteExpiredHolds(ctx, faceIDs, now); err != nil {
			return apperr.Internal(err)
		}
		g, err := s.loadGrid(ctx, faceIDs, from, to)
		if err != nil {
			return err
		}
		var expires *time.Time
		status := StatusActive
		if kind == store.KindHold {
			status = StatusReserved
			t := now.Add(s.deps.HoldTTL)
			expires = &t
		}
		// Each spot takes the first slot the grid shows free. A week the grid shows full is taken;
		// otherwise the spots go in as batches, and a slot lost to a concurrent caller since the
		// read is looked for again one by one (takeSlot).
		spots := make([]store.Spot, 0, len(items))
		capacity := make([]int, 0, len(items))
		taken := map[string][]dates.Date{}
		for _, it := range items {
			q := g.quote(it)
			slot := g.firstFreeSlot(it, q.AvailableSpots)
			if slot < 0 {
				taken[it.FaceID] = append(taken[it.FaceID], it.Week)
				continue
			}
			spots = append(spots, store.Spot{ID: ids.New(), FaceID: it.FaceID, Week: it.Week, Slot: slot, Market: g.faces[it.FaceID].Market, Status: status, CompanyID: req.CompanyID, Ref: req.Ref, Key: req.Key, ExpiresAt: expires, Price: q.Price, Ooh: q.Ooh, CreatedAt: now})
			capacity = append(capacity, q.AvailableSpots)
		}
		if len(taken) == 0 {
			lost, err := s.store.InsertSpots(ctx, spots)
			if err != nil {
				return apperr.Internal(err)
			}
			for i := range spots {
				if !lost[spots[i].ID] {
					continue
				}
				it := FaceWeek{spots[i].FaceID, spots[i].Week}
				g.markUsed(it, spots[i].Slot)
				spots[i].ID = ids.New()
				ok, err := s.takeSlot(ctx, g, it, capacity[i], &spots[i])
				if err != nil {
					return err
				}
				if !ok {
					taken[it.FaceID] = append(taken[it.FaceID], it.Week)
				}
			}
		}
		if len(taken) > 0 {
			result.Conflicts, err = s.suggest(ctx, taken, items)
			if err != nil {
				return err
			}
			return errSpotsTaken
		}
		result.Spots = toSpots(spots)
		return nil
	})
	if errors.Is(err, errSpotsTaken) {
		return result, apperr.New(apperr.ECONFLICT, MsgSpotTaken)
	}
	if err != nil {
		return ReserveResult{}, err
	}
	return result, nil
}

// firstFreeSlot is the first slot below capacity the grid shows free, or -1.
func (g *weekGrid) firstFreeSlot(k FaceWeek, capacity int) int {
	used := g.used[k]
	for slot := 0; slot < capacity; slot++ {
		if !used[slot] {
			return slot
		}
	}
	return -1
}

// markUsed records a slot as taken in the grid.
func (g *weekGrid) markUsed(k FaceWeek, slot int) {
	if g.used[k] == nil {
		g.used[k] = map[int]bool{}
	}
	g.used[k][slot] = true
}

// takeSlot inserts the spot in the first free slot below capacity; false when every slot is taken.
func (s *service) takeSlot(ctx context.Context, g *weekGrid, it FaceWeek, capacity int, sp *store.Spot) (bool, error) {
	used := g.used[it]
	for slot := 0; slot < capacity; slot++ {
		if used[slot] {
			continue
		}
		sp.Slot = slot
		ok, err := s.store.TryInsertSpot(ctx, sp)
		if err != nil {
			return false, apperr.Internal(err)
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// suggest answers, for each face with taken weeks, the nearest later weeks that are free and not
// requested: one per taken week, within suggestHorizon weeks.
func (s *service) suggest(ctx context.Context, taken map[string][]dates.Date, items []FaceWeek) ([]Conflict, error) {
	requested := map[FaceWeek]bool{}
	for _, it := range items {
		requested[it] = true
	}
	faceIDs := make([]string, 0, len(taken))
	var from, to dates.Date
	for id, weeks := range taken {
		faceIDs = append(faceIDs, id)
		for _, w := range weeks {
			if from.IsZero() || w.Before(from) {
				from = w
			}
			if end := w.AddWeeks(suggestHorizon); to.IsZero() || end.After(to) {
				to = end
			}
		}
	}
	sort.Strings(faceIDs)
	g, err := s.loadGrid(ctx, faceIDs, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]Conflict, 0, len(faceIDs))
	for _, id := range faceIDs {
		c := Conflict{FaceID: id, Taken: taken[id], Suggested: []dates.Date{}}
		chosen := map[dates.Date]bool{}
		for _, w := range taken[id] {
			for n := 1; n <= suggestHorizon; n++ {
				cand := w.AddWeeks(n)
				k := FaceWeek{id, cand}
				if requested[k] || chosen[cand] || !g.quote(k).Available {
					continue
				}
				chosen[cand] = true
				c.Suggested = append(c.Suggested, cand)
				break
			}
		}
		sort.Slice(c.Suggested, func(i, j int) bool { return c.Suggested[i].Before(c.Suggested[j]) })
		out = append(out, c)
	}
	return out, nil
}

func reservationFingerprint(kind, ref string, items []FaceWeek) string {
	h := sha256.New()
	h.Write([]byte(kind + "\x00" + ref))
	for _, it := range items {
		h.Write([]byte("\x00" + it.FaceID + "@" + it.Week.String()))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func toSpot(sp *store.Spot) Spot {
	return Spot{
		ID: sp.ID, FaceID: sp.FaceID, Week: sp.Week, EndAt: sp.Week.WeekEnd(), Slot: sp.Slot, Status: sp.Status,
		CompanyID: sp.CompanyID, Ref: sp.Ref, Key: sp.Key, ExpiresAt: sp.ExpiresAt, Price: sp.Price, Ooh: sp.Ooh,
	}
}

func toSpots(sps []store.Spot) []Spot {
	out := make([]Spot, len(sps))
	for i := range sps {
		out[i] = toSpot(&sps[i])
	}
	return out
}

// ConfirmHold implements Service.
func (s *service) ConfirmHold(ctx context.Context, req KeyRequest) ([]Spot, error) {
	var out []Spot
	err := db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		r, err := s.store.Reservation(ctx, req.CompanyID, strings.TrimSpace(req.Key))
		if err != nil || r.Kind != store.KindHold {
			if err == nil || db.IsNotFound(err) {
				return apperr.NotFound(MsgHoldNotFound)
			}
			return apperr.Internal(err)
		}
		spots, err := s.store.SpotsByKey(ctx, r.CompanyID, r.Key)
		if err != nil {
			return apperr.Internal(err)
		}
		if len(spots) == 0 {
			return apperr.NotFound(MsgHoldNotFound)
		}
		now := s.now()
		for _, sp := range spots {
			if sp.Status == StatusReserved && sp.ExpiresAt != nil && !sp.ExpiresAt.After(now) {
				return apperr.New(apperr.ECONFLICT, MsgHoldExpired)
			}
		}
		if err := s.store.ActivateKey(ctx, r.CompanyID, r.Key); err != nil {
			return apperr.Internal(err)
		}
		if spots, err = s.store.SpotsByKey(ctx, r.CompanyID, r.Key); err != nil {
			return apperr.Internal(err)
		}
		out = toSpots(spots)
		return nil
	})
	return out, err
}

// Release implements Service.
func (s *service) Release(ctx context.Context, req KeyRequest) (int, error) {
	n, err := s.store.DeleteByKey(ctx, req.CompanyID, strings.TrimSpace(req.Key))
	if err != nil {
		return 0, apperr.Internal(err)
	}
	return int(n), nil
}

// SpotsByRefs implements Service.
func (s *service) SpotsByRefs(ctx context.Context, companyID string, refs []string) ([]Spot, error) {
	if len(refs) == 0 {
		return []Spot{}, nil
	}
	spots, err := s.store.LiveSpotsByRefs(ctx, companyID, refs, s.now())
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return toSpots(spots), nil
}

// releaseExpiredHolds is the job of DESIGN.md §5: it deletes the holds whose time is up.
func (s *service) releaseExpiredHolds(ctx context.Context) error {
	_, err := s.store.DeleteExpiredHolds(ctx, nil, s.now())
	return err
}
