package locations_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"marquee/modules/locations"
	"marquee/platform/apperr"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/ids"
	"marquee/platform/money"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// week0 is the Monday after testkit's start (Sunday 2026-11-22).
var week0 = dates.MustParse("2026-11-23")

func start(t *testing.T, dialect string) (*testkit.Server, *locations.Module) {
	t.Helper()
	// .invalid never resolves (RFC 2606): the map config's tile check stays off the internet.
	s := testkit.Start(t, dialect, server.Compose(locations.Component), testkit.WithEnv("TILE_URL", "https://tiles.invalid/{z}/{x}/{y}.png"))
	return s, s.Modules[0].(*locations.Module)
}

// generate fills markets with faces and explicit rows for the first weeks.
func generate(t testing.TB, m *locations.Module, perMarket int, markets ...string) {
	t.Helper()
	if _, err := m.GenerateInventory(context.Background(), locations.GenerateOptions{Markets: markets, FacesPerMarket: perMarket, Seed: 7, Weeks: week0.Weeks(2)}); err != nil {
		t.Fatal(err)
	}
}

// expectField checks a 400 that names the field.
func expectField(t *testing.T, res *testkit.Response, field string) {
	t.Helper()
	res.Expect(t, 400)
	body := res.Map(t)
	errs, _ := body["errors"].(map[string]any)
	if errs[field] == nil {
		t.Fatalf("errors = %v, want field %q", body, field)
	}
}

func TestMarketsLocationsAndPlaces(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, m := start(t, dialect)
		c := s.Client(t)

		var markets []locations.Market
		c.Get("/api/markets/").Expect(t, 200).JSON(t, &markets)
		if len(markets) < 20 {
			t.Fatalf("%d markets, want at least 20", len(markets))
		}
		if !sort.SliceIsSorted(markets, func(i, j int) bool { return markets[i].Market < markets[j].Market }) {
			t.Error("markets are not sorted by name")
		}
		var sf *locations.Market
		for i := range markets {
			if markets[i].Market == "SF Bay Area" {
				sf = &markets[i]
			} else if markets[i].Fixed || markets[i].Center.Lat == 0 {
				t.Errorf("market %s: fixed=%v centre %v", markets[i].Market, markets[i].Fixed, markets[i].Center)
			}
		}
		if sf == nil || !sf.Fixed || sf.Zoom != 8 || !contains(sf.Cities, "San Francisco") || !contains(sf.Cities, "Oakland") {
			t.Fatalf("SF Bay Area = %+v", sf)
		}

		generate(t, m, 40, "SF Bay Area", "Chicago")
		var bay []locations.Location
		c.Get("/api/od/locations/?market="+url.QueryEscape("SF Bay Area")).Expect(t, 200).JSON(t, &bay)
		if len(bay) != 40 {
			t.Fatalf("%d SF faces, want 40", len(bay))
		}
		byID := map[string]locations.Location{}
		for _, l := range bay {
			byID[l.ID] = l
			if l.Market != "SF Bay Area" || !contains(sf.Cities, l.City) || l.Value < money.Dollars(100) || l.Value > money.Dollars(2500) || l.Ooh <= 0 || l.Location.AdSpotDuration == 0 || l.LocationSnapshot == "" {
				t.Errorf("face %+v", l)
			}
		}
		// The two faces of a sign are drawn as a left marker (North or West) and a right one (B §3).
		isLeft := func(face string) bool { return face == locations.FaceNorth || face == locations.FaceWest }
		pairs := 0
		for _, l := range bay {
			if !l.DoubleFaced {
				continue
			}
			pairs++
			o := byID[l.OtherFace]
			if o.OtherFace != l.ID || o.LocationName != l.LocationName || isLeft(o.Face) == isLeft(l.Face) {
				t.Errorf("pair %+v / %+v", l, o)
			}
		}
		if pairs == 0 {
			t.Error("no double-faced pair among 40 faces")
		}
		var all []locations.Location
		c.Get("/api/od/locations/?market=all").Expect(t, 200).JSON(t, &all)
		var two []locations.Location
		c.Get("/api/od/locations/?market=Chicago,SF%20Bay%20Area").Expect(t, 200).JSON(t, &two)
		if len(all) != 80 || len(two) != 80 {
			t.Errorf("all = %d, two markets = %d, want 80", len(all), len(two))
		}
		expectField(t, c.Get("/api/od/locations/?market=Atlantis"), "market")

		// Place search.
		var preds []locations.PlacePrediction
		c.Get("/api/places/predictions?input=san%20fr").Expect(t, 200).JSON(t, &preds)
		if len(preds) == 0 || preds[0].Value != "San Francisco, CA" {
			t.Fatalf("predictions = %v", preds)
		}
		c.Get("/api/places/predictions?input=spring").Expect(t, 200).JSON(t, &preds)
		if len(preds) != locations.MaxPredictions {
			t.Errorf("%d predictions for 'spring', want %d", len(preds), locations.MaxPredictions)
		}
		c.Get("/api/places/predictions?input=oakland,%20c").Expect(t, 200).JSON(t, &preds)
		if len(preds) != 1 || preds[0].Value != "Oakland, CA" {
			t.Errorf("predictions for 'oakland, c' = %v", preds)
		}
		c.Get("/api/places/predictions?input=").Expect(t, 200).JSON(t, &preds)
		if len(preds) != 0 {
			t.Errorf("empty input gave %v", preds)
		}
		var sfPlace locations.PlaceDetails
		c.Get("/api/places/predictions?input=san%20francisco").Expect(t, 200).JSON(t, &preds)
		c.Get("/api/places/details?id="+preds[0].ID).Expect(t, 200).JSON(t, &sfPlace)
		if sfPlace.Name != "San Francisco, CA" || sfPlace.Geometry.Location.Lat < 37.7 || sfPlace.Geometry.Location.Lat > 37.8 {
			t.Fatalf("details = %+v", sfPlace)
		}
		expectField(t, c.Get("/api/places/details?id=999999999"), "place")
		expectField(t, c.Get("/api/places/details"), "place")

		// Faces around a place, nearest first and within the radius.
		var near []locations.Location
		c.Get("/api/od/locations/?place="+sfPlace.ID+"&radius=10").Expect(t, 200).JSON(t, &near)
		if len(near) == 0 {
			t.Fatal("no face within 10 miles of San Francisco")
		}
		for i, l := range near {
			d := locations.DistanceMiles(sfPlace.Geometry.Location, locations.LatLng{Lat: l.Lat, Lng: l.Lng})
			if l.Distance == nil || *l.Distance > 10 || d > 10.01 || (i > 0 && *near[i-1].Distance > *l.Distance) {
				t.Fatalf("face %d at %v miles (computed %.2f)", i, l.Distance, d)
			}
		}
		want := 0
		for _, l := range bay {
			if locations.DistanceMiles(sfPlace.Geometry.Location, locations.LatLng{Lat: l.Lat, Lng: l.Lng}) <= 10 {
				want++
			}
		}
		if len(near) != want {
			t.Errorf("%d faces within 10 miles, computed %d", len(near), want)
		}
		var near5 []locations.Location
		c.Get("/api/od/locations/?place="+sfPlace.ID).Expect(t, 200).JSON(t, &near5) // default radius 5
		if len(near5) > len(near) {
			t.Errorf("5 miles found %d, 10 miles %d", len(near5), len(near))
		}
		for _, bad := range []string{"7", "0", "x", "300"} {
			expectField(t, c.Get("/api/od/locations/?place="+sfPlace.ID+"&radius="+bad), "radius")
		}
		expectField(t, c.Get("/api/od/locations/?place=nowhere&radius=5"), "place")

		var cfg locations.MapConfig
		c.Get("/api/map/config").Expect(t, 200).JSON(t, &cfg)
		if !strings.Contains(cfg.TileURL, "{z}") || !strings.Contains(cfg.Attribution, "OpenStreetMap") || !cfg.Offline {
			t.Errorf("map config = %+v", cfg)
		}
		snap := c.Get(bay[0].LocationSnapshot).Expect(t, 200)
		if snap.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(snap.Body), "<svg") {
			t.Errorf("snapshot: %s %s", snap.Header.Get("Content-Type"), snap.Body)
		}
		c.Get("/api/od/snapshots/billboard-99.svg").Expect(t, 404)
	})
}

func TestAvailableSpots(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, m := start(t, dialect)
		c := s.Client(t)
		generate(t, m, 120, "Chicago", "Denver")
		svc := m.Service()

		var spots []locations.AvailableSpot
		c.Post("/api/available-spots/", locations.AvailableSpotsRequest{StartAt: week0.String(), Markets: []string{"Chicago"}}).Expect(t, 200).JSON(t, &spots)
		if len(spots) != 120 {
			t.Fatalf("%d spots, want 120", len(spots))
		}
		faces, _ := svc.Locations(t.Context(), locations.LocationQuery{Markets: []string{"Chicago"}})
		faceIDs := make([]string, len(faces))
		for i, f := range faces {
			faceIDs[i] = f.ID
		}
		quotes, err := svc.Quote(t.Context(), locations.QuoteRequest{FaceIDs: faceIDs, Weeks: []dates.Date{week0}})
		if err != nil {
			t.Fatal(err)
		}
		quoteOf := map[string]locations.Quote{}
		for _, q := range quotes {
			quoteOf[q.FaceID] = q
		}
		for i, sp := range spots {
			if i > 0 && spots[i-1].MinValue > sp.MinValue {
				t.Fatalf("not sorted ascending by min_value at %d", i)
			}
			q := quoteOf[sp.Xxx]
			if sp.UsedSpots != q.UsedSpots || sp.AvailableSpots != q.AvailableSpots || sp.Available != (sp.UsedSpots < sp.AvailableSpots) || sp.OldValue != q.MinValue || sp.Price != q.Price {
				t.Errorf("spot %+v, quote %+v", sp, q)
			}
			if sp.VendorTier == 2 {
				avg := (sp.OldValue + sp.MinValue2 + 1) / 2
				if sp.MinValue != avg.CeilTo(money.Dollars(10)) || sp.MinValue%money.Dollars(10) != 0 {
					t.Errorf("tier 2: min %v, min2 %v, old %v", sp.MinValue, sp.MinValue2, sp.OldValue)
				}
			} else if sp.MinValue != sp.OldValue {
				t.Errorf("tier 1 changed its price: %+v", sp)
			}
		}
		expectDemoMix(t, spots)

		// The answer follows a booking at once (the encoded answer is reused only for the same
		// spot counts), and two markets (a gzip'd answer) hold both markets' faces.
		target := spots[len(spots)-1]
		if !target.Available {
			for _, sp := range spots {
				if sp.Available {
					target = sp
				}
			}
		}
		if _, err := svc.Book(t.Context(), locations.ReserveRequest{Key: "k", CompanyID: ids.New(), Items: []locations.FaceWeek{{FaceID: target.Xxx, Week: week0}}}); err != nil {
			t.Fatal(err)
		}
		var again []locations.AvailableSpot
		c.Post("/api/available-spots/", locations.AvailableSpotsRequest{StartAt: week0.String(), Markets: []string{"Chicago"}}).Expect(t, 200).JSON(t, &again)
		for _, sp := range again {
			if sp.Xxx == target.Xxx && sp.UsedSpots != target.UsedSpots+1 {
				t.Errorf("the same request after a booking: used %d, was %d", sp.UsedSpots, target.UsedSpots)
			}
		}
		var both []locations.AvailableSpot
		c.Post("/api/available-spots/", locations.AvailableSpotsRequest{StartAt: week0.String(), Markets: []string{"Denver", "Chicago"}}).Expect(t, 200).JSON(t, &both)
		if len(both) != 240 {
			t.Fatalf("two markets: %d spots", len(both))
		}
		for i, sp := range both {
			if i > 0 && both[i-1].MinValue > sp.MinValue {
				t.Fatalf("two markets not sorted at %d", i)
			}
			// B §9: the price is the location minimum value (min_value plus $10) rounded up to $10.
			if want := (sp.MinValue + money.Dollars(10)).CeilTo(money.Dollars(10)); sp.Price != want {
				t.Fatalf("spot %s: price %v for min_value %v, want %v", sp.Xxx, sp.Price, sp.MinValue, want)
			}
			if sp.Xxx == target.Xxx && sp.UsedSpots != target.UsedSpots+1 {
				t.Errorf("after a booking: used %d, was %d", sp.UsedSpots, target.UsedSpots)
			}
		}

		// Cities narrow the markets; a week without explicit rows takes the faces' base values.
		var cityOnly []locations.AvailableSpot
		c.Post("/api/available-spots/", locations.AvailableSpotsRequest{StartAt: week0.String(), Markets: []string{"Chicago", "Denver"}, Cities: "Chicago, Boulder"}).Expect(t, 200).JSON(t, &cityOnly)
		inCities := 0
		for _, f := range faces {
			if f.City == "Chicago" {
				inCities++
			}
		}
		denver, _ := svc.Locations(t.Context(), locations.LocationQuery{Markets: []string{"Denver"}})
		for _, f := range denver {
			if f.City == "Boulder" {
				inCities++
			}
		}
		if len(cityOnly) != inCities || inCities == 0 {
			t.Errorf("cities gave %d spots, want %d", len(cityOnly), inCities)
		}
		var later []locations.AvailableSpot
		c.Post("/api/available-spots/", locations.AvailableSpotsRequest{StartAt: week0.AddWeeks(10).String(), Markets: []string{"Denver"}}).Expect(t, 200).JSON(t, &later)
		baseOf := map[string]locations.Location{}
		for _, f := range denver {
			baseOf[f.ID] = f
		}
		for _, sp := range later {
			if sp.UsedSpots != 0 || sp.VendorTier != 1 || sp.Price != baseOf[sp.Xxx].Value || sp.Price != locations.SpotPrice(sp.OldValue) || sp.Ooh != baseOf[sp.Xxx].Ooh || !sp.Available {
				t.Fatalf("lazy week: %+v, face %+v", sp, baseOf[sp.Xxx])
			}
		}

		// New faces change the catalogue version: the cached faces of the market are read again.
		if _, err := m.GenerateInventory(t.Context(), locations.GenerateOptions{Markets: []string{"Denver"}, FacesPerMarket: 10, Seed: 8, Weeks: week0.Weeks(1)}); err != nil {
			t.Fatal(err)
		}
		c.Post("/api/available-spots/", locations.AvailableSpotsRequest{StartAt: week0.AddWeeks(10).String(), Markets: []string{"Denver"}}).Expect(t, 200).JSON(t, &later)
		if len(later) != 130 {
			t.Errorf("after adding 10 faces, Denver has %d spots, want 130", len(later))
		}

		// Bad input: each a 400 naming the field.
		for _, tc := range []struct {
			body  locations.AvailableSpotsRequest
			field string
		}{
			{locations.AvailableSpotsRequest{StartAt: week0.String(), Markets: []string{"Atlantis"}}, "markets"},
			{locations.AvailableSpotsRequest{StartAt: week0.AddDays(1).String(), Markets: []string{"Chicago"}}, "start_at"},
			{locations.AvailableSpotsRequest{StartAt: "11/23/2026", Markets: []string{"Chicago"}}, "start_at"},
			{locations.AvailableSpotsRequest{StartAt: "2026-02-30", Markets: []string{"Chicago"}}, "start_at"},
			{locations.AvailableSpotsRequest{Markets: []string{"Chicago"}}, "start_at"},
			{locations.AvailableSpotsRequest{StartAt: week0.String(), Markets: []string{}}, "markets"},
			{locations.AvailableSpotsRequest{StartAt: week0.String()}, "markets"},
			{locations.AvailableSpotsRequest{StartAt: week0.String(), Markets: []string{"Chicago"}, Cities: "Chicago,Boulder"}, "cities"},
		} {
			expectField(t, c.Post("/api/available-spots/", tc.body), tc.field)
		}
		expectField(t, c.Post("/api/available-spots/", map[string]any{"start_at": week0.String(), "markets": "Chicago"}), "markets")
	})
}

func TestBookHoldConfirmRelease(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, m := start(t, dialect)
		generate(t, m, 30, "Boston")
		svc := m.Service()
		ctx := t.Context()
		faces, _ := svc.Locations(ctx, locations.LocationQuery{Markets: []string{"Boston"}})
		weeks := week0.AddWeeks(4).Weeks(3) // weeks without demo sales
		f1, f2 := faces[0], faces[1]
		companyA, companyB := ids.New(), ids.New()

		// Fill f1's second week but one spot, from company B.
		q, err := svc.Quote(ctx, locations.QuoteRequest{FaceIDs: []string{f1.ID}, Weeks: weeks})
		if err != nil || len(q) != 3 || q[0].AvailableSpots < 6 || q[0].Price != f1.Value {
			t.Fatalf("quote = %+v, %v", q, err)
		}
		capacity := q[1].AvailableSpots
		for i := 0; i < capacity; i++ {
			if _, err := svc.Book(ctx, locations.ReserveRequest{Key: fmt.Sprintf("b-%d", i), CompanyID: companyB, Ref: "camp-b", Items: []locations.FaceWeek{{FaceID: f1.ID, Week: weeks[1]}}}); err != nil {
				t.Fatal(err)
			}
		}
		// f1 week 1 is now full: the booking of all three weeks reserves nothing and suggests the
		// nearest later free week that was not asked for.
		items := []locations.FaceWeek{{FaceID: f1.ID, Week: weeks[0]}, {FaceID: f1.ID, Week: weeks[1]}, {FaceID: f1.ID, Week: weeks[2]}, {FaceID: f2.ID, Week: weeks[0]}}
		res, err := svc.Book(ctx, locations.ReserveRequest{Key: "a-1", CompanyID: companyA, Ref: "camp-a", Items: items})
		if apperr.CodeOf(err) != apperr.ECONFLICT || apperr.As(err).Message != locations.MsgSpotTaken {
			t.Fatalf("full week: %v", err)
		}
		if len(res.Conflicts) != 1 || res.Conflicts[0].FaceID != f1.ID || len(res.Conflicts[0].Taken) != 1 || !res.Conflicts[0].Taken[0].Equal(weeks[1]) ||
			len(res.Conflicts[0].Suggested) != 1 || !res.Conflicts[0].Suggested[0].Equal(weeks[2].AddWeeks(1)) {
			t.Fatalf("conflicts = %+v", res.Conflicts)
		}
		if spots, _ := svc.SpotsByRefs(ctx, companyA, []string{"camp-a"}); len(spots) != 0 {
			t.Fatalf("a failed booking left %d spots", len(spots))
		}

		// Without the full week it books, and the same key answers the same spots.
		items = []locations.FaceWeek{{FaceID: f1.ID, Week: weeks[0]}, {FaceID: f1.ID, Week: weeks[2]}, {FaceID: f2.ID, Week: weeks[0]}}
		res, err = svc.Book(ctx, locations.ReserveRequest{Key: "a-2", CompanyID: companyA, Ref: "camp-a", Items: items})
		if err != nil || len(res.Spots) != 3 {
			t.Fatalf("book: %+v %v", res, err)
		}
		again, err := svc.Book(ctx, locations.ReserveRequest{Key: "a-2", CompanyID: companyA, Ref: "camp-a", Items: items})
		if err != nil || !sameSpots(res.Spots, again.Spots) {
			t.Fatalf("repeat: %+v %v", again, err)
		}
		_, err = svc.Book(ctx, locations.ReserveRequest{Key: "a-2", CompanyID: companyA, Ref: "camp-a", Items: items[:1]})
		if apperr.CodeOf(err) != apperr.ECONFLICT || apperr.As(err).Message != locations.MsgKeyReused {
			t.Fatalf("key reused: %v", err)
		}
		for _, sp := range res.Spots {
			if sp.Status != locations.StatusActive || sp.ExpiresAt != nil || sp.Price%money.Dollars(10) != 0 {
				t.Errorf("booked spot %+v", sp)
			}
		}
		q, _ = svc.Quote(ctx, locations.QuoteRequest{FaceIDs: []string{f2.ID}, Weeks: weeks[:1]})
		if q[0].UsedSpots != 1 {
			t.Errorf("used after booking = %d", q[0].UsedSpots)
		}

		// Bad requests.
		for _, bad := range []locations.ReserveRequest{
			{Key: "", CompanyID: companyA, Items: items},
			{Key: "x", CompanyID: companyA},
			{Key: "x", CompanyID: companyA, Items: []locations.FaceWeek{{FaceID: f1.ID, Week: weeks[0].AddDays(2)}}},
		} {
			if _, err := svc.Book(ctx, bad); apperr.CodeOf(err) != apperr.EINVALID {
				t.Errorf("%+v: %v", bad, err)
			}
		}
		if _, err := svc.Book(ctx, locations.ReserveRequest{Key: "x", CompanyID: companyA, Items: []locations.FaceWeek{{FaceID: ids.New(), Week: weeks[0]}}}); apperr.CodeOf(err) != apperr.ENOTFOUND {
			t.Errorf("unknown face: %v", err)
		}

		// A hold is reserved until it expires; confirming makes it active, once.
		hold, err := svc.Hold(ctx, locations.ReserveRequest{Key: "h-1", CompanyID: companyA, Ref: "camp-h", Items: []locations.FaceWeek{{FaceID: f2.ID, Week: weeks[1]}}})
		if err != nil || len(hold.Spots) != 1 || hold.Spots[0].Status != locations.StatusReserved || hold.Spots[0].ExpiresAt == nil || !hold.Spots[0].ExpiresAt.Equal(s.Clock.Now().Add(30*time.Minute)) {
			t.Fatalf("hold: %+v %v", hold, err)
		}
		if _, err := svc.ConfirmHold(ctx, locations.KeyRequest{Key: "h-1", CompanyID: companyB}); apperr.CodeOf(err) != apperr.ENOTFOUND {
			t.Errorf("another company confirmed: %v", err)
		}
		if _, err := svc.ConfirmHold(ctx, locations.KeyRequest{Key: "a-2", CompanyID: companyA}); apperr.CodeOf(err) != apperr.ENOTFOUND {
			t.Errorf("a booking confirmed as a hold: %v", err)
		}
		confirmed, err := svc.ConfirmHold(ctx, locations.KeyRequest{Key: "h-1", CompanyID: companyA})
		if err != nil || len(confirmed) != 1 || confirmed[0].Status != locations.StatusActive || confirmed[0].ExpiresAt != nil || confirmed[0].ID != hold.Spots[0].ID {
			t.Fatalf("confirm: %+v %v", confirmed, err)
		}
		if again, err := svc.ConfirmHold(ctx, locations.KeyRequest{Key: "h-1", CompanyID: companyA}); err != nil || !sameSpots(confirmed, again) {
			t.Fatalf("confirm again: %+v %v", again, err)
		}

		// Release frees the key's spots, once.
		if n, err := svc.Release(ctx, locations.KeyRequest{Key: "a-2", CompanyID: companyB}); err != nil || n != 0 {
			t.Errorf("another company released %d, %v", n, err)
		}
		if n, err := svc.Release(ctx, locations.KeyRequest{Key: "a-2", CompanyID: companyA}); err != nil || n != 3 {
			t.Errorf("release = %d, %v", n, err)
		}
		if n, err := svc.Release(ctx, locations.KeyRequest{Key: "a-2", CompanyID: companyA}); err != nil || n != 0 {
			t.Errorf("release again = %d, %v", n, err)
		}
		q, _ = svc.Quote(ctx, locations.QuoteRequest{FaceIDs: []string{f2.ID}, Weeks: weeks[:1]})
		if q[0].UsedSpots != 0 {
			t.Errorf("used after release = %d", q[0].UsedSpots)
		}
	})
}

func TestExpiredHoldsAreReleasedByTheJob(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, m := start(t, dialect)
		generate(t, m, 10, "Denver")
		svc := m.Service()
		ctx := t.Context()
		faces, _ := svc.Locations(ctx, locations.LocationQuery{Markets: []string{"Denver"}})
		week := week0.AddWeeks(6)
		q, _ := svc.Quote(ctx, locations.QuoteRequest{FaceIDs: []string{faces[0].ID}, Weeks: []dates.Date{week}})
		capacity := q[0].AvailableSpots
		company := ids.New()
		for i := 0; i < capacity; i++ {
			if _, err := svc.Hold(ctx, locations.ReserveRequest{Key: fmt.Sprintf("h-%d", i), CompanyID: company, Items: []locations.FaceWeek{{FaceID: faces[0].ID, Week: week}}}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := svc.Hold(ctx, locations.ReserveRequest{Key: "one-more", CompanyID: company, Items: []locations.FaceWeek{{FaceID: faces[0].ID, Week: week}}}); apperr.CodeOf(err) != apperr.ECONFLICT {
			t.Fatalf("hold beyond capacity: %v", err)
		}
		var job func(context.Context) error
		for _, j := range m.Jobs() {
			if j.Name == locations.JobReleaseHolds {
				job = j.Run
			}
		}
		s.Clock.Advance(29 * time.Minute)
		if err := job(ctx); err != nil {
			t.Fatal(err)
		}
		if q, _ = svc.Quote(ctx, locations.QuoteRequest{FaceIDs: []string{faces[0].ID}, Weeks: []dates.Date{week}}); q[0].UsedSpots != capacity {
			t.Fatalf("holds gone before their time: used %d", q[0].UsedSpots)
		}
		s.Clock.Advance(time.Minute)
		if _, err := svc.ConfirmHold(ctx, locations.KeyRequest{Key: "h-0", CompanyID: company}); apperr.CodeOf(err) != apperr.ECONFLICT || apperr.As(err).Message != locations.MsgHoldExpired {
			t.Fatalf("confirm after expiry: %v", err)
		}
		if err := job(ctx); err != nil {
			t.Fatal(err)
		}
		var left int64
		if err := db.Conn(ctx, s.Kernel.DB).Table("locations_spots").Where("company_id = ?", company).Count(&left).Error; err != nil || left != 0 {
			t.Fatalf("%d spots left after the job, %v", left, err)
		}
		if _, err := svc.ConfirmHold(ctx, locations.KeyRequest{Key: "h-0", CompanyID: company}); apperr.CodeOf(err) != apperr.ENOTFOUND {
			t.Fatalf("confirm after release: %v", err)
		}
		if res, err := svc.Book(ctx, locations.ReserveRequest{Key: "b", CompanyID: company, Items: []locations.FaceWeek{{FaceID: faces[0].ID, Week: week}}}); err != nil || res.Spots[0].Slot != 0 {
			t.Fatalf("book after release: %+v %v", res, err)
		}
	})
}

// TestBookingRace: 50 concurrent bookings of one face-week with K free spots give exactly K
// successes; the others are told the spot is taken (DESIGN.md §7). PostgreSQL runs them truly
// concurrently (CI sets TEST_DATABASE_URL); SQLite serialises its writers.
func TestBookingRace(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) { bookingRace(t, dialect) })
}

func bookingRace(t *testing.T, dialect string) {
	_, m := start(t, dialect)
	generate(t, m, 5, "Atlanta")
	svc := m.Service()
	ctx := t.Context()
	faces, _ := svc.Locations(ctx, locations.LocationQuery{Markets: []string{"Atlanta"}})
	week := week0.AddWeeks(5)
	face := faces[0].ID
	q, _ := svc.Quote(ctx, locations.QuoteRequest{FaceIDs: []string{face}, Weeks: []dates.Date{week}})
	// Take two spots first, so K is less than the capacity.
	for i := 0; i < 2; i++ {
		if _, err := svc.Book(ctx, locations.ReserveRequest{Key: fmt.Sprintf("pre-%d", i), CompanyID: ids.New(), Items: []locations.FaceWeek{{FaceID: face, Week: week}}}); err != nil {
			t.Fatal(err)
		}
	}
	k := q[0].AvailableSpots - 2
	const callers = 50
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, taken := 0, 0
	var others []error
	gate := make(chan struct{})
	for i := 0; i < callers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-gate
			_, err := svc.Book(ctx, locations.ReserveRequest{Key: fmt.Sprintf("race-%d", i), CompanyID: ids.New(), Ref: "race", Items: []locations.FaceWeek{{FaceID: face, Week: week}}})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case apperr.CodeOf(err) == apperr.ECONFLICT && apperr.As(err).Message == locations.MsgSpotTaken:
				taken++
			default:
				others = append(others, err)
			}
		}(i)
	}
	close(gate)
	wg.Wait()
	if ok != k || taken != callers-k || len(others) != 0 {
		t.Fatalf("K=%d: %d booked, %d told taken, other errors %v", k, ok, taken, others)
	}
	q, _ = svc.Quote(ctx, locations.QuoteRequest{FaceIDs: []string{face}, Weeks: []dates.Date{week}})
	if q[0].UsedSpots != q[0].AvailableSpots || q[0].Available {
		t.Fatalf("after the race: %+v", q[0])
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func sameSpots(a, b []locations.Spot) bool {
	if len(a) != len(b) {
		return false
	}
	ids := map[string]bool{}
	for _, s := range a {
		ids[s.ID] = true
	}
	for _, s := range b {
		if !ids[s.ID] {
			return false
		}
	}
	return true
}

// TestDemoSeed: marquee seed --demo's inventory: at least 3,000 faces in every market, the demo weeks
// partly sold, sold out and on vendor tier 2, the same rows from the same seed, and nothing new on a
// second run.
func TestDemoSeed(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		var runs [2][]locations.Location
		for i := range runs {
			s, m := start(t, dialect)
			advertiser := ids.New()
			summary, err := m.SeedDemo(t.Context(), server.DemoAccounts{"advertiser": {UserID: ids.New(), CompanyID: advertiser}})
			if err != nil {
				t.Fatal(err)
			}
			var all []locations.Location
			s.Client(t).Get("/api/od/locations/").Expect(t, 200).JSON(t, &all)
			runs[i] = all
			if i > 0 {
				continue
			}
			if len(all) < 3000 {
				t.Fatalf("%d demo faces, want at least 3000 (%s)", len(all), summary)
			}
			markets, _ := m.Service().Markets(t.Context())
			perMarket := map[string]int{}
			for _, l := range all {
				perMarket[l.Market]++
			}
			for _, mk := range markets {
				if perMarket[mk.Market] < 100 {
					t.Errorf("market %s has %d faces", mk.Market, perMarket[mk.Market])
				}
			}
			var spots []locations.AvailableSpot
			s.Client(t).Post("/api/available-spots/", locations.AvailableSpotsRequest{StartAt: week0.String(), Markets: []string{"New York", "SF Bay Area"}}).Expect(t, 200).JSON(t, &spots)
			expectDemoMix(t, spots)
			if mine, _ := m.Service().SpotsByRefs(t.Context(), advertiser, []string{"demo-campaign"}); len(mine) == 0 {
				t.Error("the demo advertiser has no booked weeks")
			}
			again, err := m.SeedDemo(t.Context(), server.DemoAccounts{"advertiser": {CompanyID: advertiser}})
			var after []locations.Location
			s.Client(t).Get("/api/od/locations/").Expect(t, 200).JSON(t, &after)
			if err != nil || len(after) != len(all) || !strings.Contains(again, "already there") {
				t.Errorf("second seed: %q, %v, %d faces", again, err, len(after))
			}
		}
		// As JSON: a face's geometry is a pointer, which fmt would print as an address.
		first, _ := json.Marshal(runs[0])
		second, _ := json.Marshal(runs[1])
		if !bytes.Equal(first, second) {
			t.Error("two seeds on fresh databases gave different faces")
		}
	})
}

// expectDemoMix checks that a demo week has faces on vendor tier 2, sold out and partly sold.
func expectDemoMix(t *testing.T, spots []locations.AvailableSpot) {
	t.Helper()
	tier2, soldOut, partly := 0, 0, 0
	for _, sp := range spots {
		if sp.VendorTier == 2 {
			tier2++
		}
		switch {
		case sp.UsedSpots >= sp.AvailableSpots:
			soldOut++
		case sp.UsedSpots > 0:
			partly++
		}
	}
	if tier2 == 0 || soldOut == 0 || partly == 0 {
		t.Errorf("demo week of %d faces: %d tier 2, %d sold out, %d partly sold", len(spots), tier2, soldOut, partly)
	}
}
