package locations_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"marquee/modules/locations"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// The Willis Tower, 233 S Wacker Dr, Chicago.
const wackerLat, wackerLng = 41.8788764, -87.6359149

const wacker = "233 S Wacker Dr, Chicago"

func predictions(t *testing.T, c *testkit.Client, input string) []locations.PlacePrediction {
	t.Helper()
	var out []locations.PlacePrediction
	c.Get("/api/places/predictions?input="+url.QueryEscape(input)).Expect(t, 200).JSON(t, &out)
	return out
}

// facesNear checks that a radius search around id answers faces within miles of the point.
func facesNear(t *testing.T, c *testkit.Client, id string, at locations.LatLng, miles int) int {
	t.Helper()
	var near []locations.Location
	c.Get(fmt.Sprintf("/api/od/locations/?place=%s&radius=%d", url.QueryEscape(id), miles)).Expect(t, 200).JSON(t, &near)
	for _, l := range near {
		if d := locations.DistanceMiles(at, locations.LatLng{Lat: l.Lat, Lng: l.Lng}); d > float64(miles) {
			t.Fatalf("face %s is %.1f miles away", l.ID, d)
		}
	}
	return len(near)
}

// Offline (no GEOCODER), a street address answers the gazetteer's town it names, marked
// approximate with a note, and the radius search runs around the town.
func TestStreetAddressFallsBackToItsTown(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, m := start(t, dialect)
		generate(t, m, 40, "Chicago")
		c := s.Client(t)
		for _, input := range []string{wacker, "233 S Wacker Dr, Chicago, IL 60606", "233 South Wacker Drive Chicago IL 60606", "233 S. Wacker Dr., chicago"} {
			got := predictions(t, c, input)
			if len(got) != 1 || got[0].Value != "Chicago, IL" || !got[0].Approximate ||
				got[0].Note != fmt.Sprintf(locations.NoteApproximate, "Chicago, IL") {
				t.Fatalf("%q: predictions = %+v", input, got)
			}
			var d locations.PlaceDetails
			c.Get("/api/places/details?id="+got[0].ID).Expect(t, 200).JSON(t, &d)
			if d.Name != "Chicago, IL" {
				t.Fatalf("details = %+v", d)
			}
			if facesNear(t, c, got[0].ID, d.Geometry.Location, 25) == 0 {
				t.Fatal("no faces around the town")
			}
		}
		// A town is exact, and a prefix still lists towns.
		if got := predictions(t, c, "chicago"); len(got) == 0 || got[0].Value != "Chicago, IL" || got[0].Approximate || got[0].Note != "" {
			t.Fatalf("chicago = %+v", got)
		}
		// An address in no known town answers nothing rather than a wrong town.
		if got := predictions(t, c, "12 Nowhere Lane, Qqqzzz"); len(got) != 0 {
			t.Fatalf("unknown town = %+v", got)
		}
	})
}

// nominatimServer answers GET /search as Nominatim's jsonv2 format does, counting the calls.
func nominatimServer(t *testing.T, calls *atomic.Int32, status int) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		q := r.URL.Query()
		if r.URL.Path != "/search" || q.Get("format") != "jsonv2" || q.Get("countrycodes") != "us" || q.Get("q") != wacker ||
			!strings.HasPrefix(r.Header.Get("User-Agent"), "Marquee") {
			t.Errorf("nominatim request %s %v", r.URL, r.Header)
		}
		if status != 200 {
			http.Error(w, "busy", status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `[{"place_id":308216420,"licence":"Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright","osm_type":"way","osm_id":52574815,
"lat":"%.7f","lon":"%.7f","category":"building","type":"commercial","place_rank":30,"importance":0.52,"addresstype":"building",
"name":"Willis Tower","display_name":"Willis Tower, 233, South Wacker Drive, Loop, Chicago, Cook County, Illinois, 60606, United States",
"boundingbox":["41.8784","41.8793","-87.6364","-87.6354"]}]`, wackerLat, wackerLng)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// photonServer answers GET /api as Photon's GeoJSON does: one US answer and one abroad.
func photonServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api" || r.URL.Query().Get("q") != wacker {
			t.Errorf("photon request %s", r.URL)
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"type": "FeatureCollection", "features": []any{
			map[string]any{"type": "Feature", "geometry": map[string]any{"type": "Point", "coordinates": []float64{wackerLng, wackerLat}},
				"properties": map[string]any{"osm_id": 52574815, "osm_type": "W", "osm_key": "building", "osm_value": "commercial",
					"name": "Willis Tower", "housenumber": "233", "street": "South Wacker Drive", "city": "Chicago", "state": "Illinois",
					"postcode": "60606", "country": "United States", "countrycode": "US", "type": "house"}},
			map[string]any{"type": "Feature", "geometry": map[string]any{"type": "Point", "coordinates": []float64{13.38, 52.51}},
				"properties": map[string]any{"name": "Wacker", "city": "Berlin", "country": "Germany", "countrycode": "DE", "type": "street"}},
		}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// With GEOCODER=nominatim or photon, a street address is looked up and answered exactly: a geo id
// that the details and the radius search resolve to the address's coordinates.
func TestStreetAddressThroughTheGeocoder(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		var calls atomic.Int32
		for provider, srv := range map[string]*httptest.Server{"nominatim": nominatimServer(t, &calls, 200), "photon": photonServer(t)} {
			t.Run(provider, func(t *testing.T) {
				s := testkit.Start(t, dialect, server.Compose(locations.Component),
					testkit.WithEnv("GEOCODER", provider), testkit.WithEnv("GEOCODER_URL", srv.URL))
				generate(t, s.Modules[0].(*locations.Module), 40, "Chicago")
				c := s.Client(t)
				got := predictions(t, c, wacker)
				want := map[string]string{
					"nominatim": "Willis Tower, 233, South Wacker Drive, Loop, Chicago, Cook County, Illinois, 60606",
					"photon":    "Willis Tower, 233 South Wacker Drive, Chicago, Illinois 60606",
				}[provider]
				if len(got) != 1 || got[0].Value != want || got[0].Approximate || !strings.HasPrefix(got[0].ID, "geo:") {
					t.Fatalf("predictions = %+v", got)
				}
				var d locations.PlaceDetails
				c.Get("/api/places/details?id="+url.QueryEscape(got[0].ID)).Expect(t, 200).JSON(t, &d)
				at := locations.LatLng{Lat: wackerLat, Lng: wackerLng}
				if d.Name != want || locations.DistanceMiles(d.Geometry.Location, at) > 0.01 {
					t.Fatalf("details = %+v", d)
				}
				if facesNear(t, c, got[0].ID, at, 25) == 0 {
					t.Fatal("no faces around the address")
				}
				// A town is still the gazetteer's, without a geocoder call.
				before := calls.Load()
				if p := predictions(t, c, "chicago"); len(p) == 0 || p[0].Value != "Chicago, IL" {
					t.Fatalf("chicago = %+v", p)
				}
				if calls.Load() != before {
					t.Fatal("a town name called the geocoder")
				}
			})
		}
		// A bad geo id is refused like an unknown place.
		s, _ := start(t, dialect)
		expectField(t, s.Client(t).Get("/api/od/locations/?place=geo:91,0&radius=5"), "place")
		expectField(t, s.Client(t).Get("/api/places/details?id=geo:abc"), "place")
	})
}

// When the geocoder fails, the search answers the town, approximate, as offline.
func TestGeocoderFailureFallsBackToTheTown(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		var calls atomic.Int32
		srv := nominatimServer(t, &calls, http.StatusServiceUnavailable)
		s := testkit.Start(t, dialect, server.Compose(locations.Component),
			testkit.WithEnv("GEOCODER", "nominatim"), testkit.WithEnv("GEOCODER_URL", srv.URL))
		got := predictions(t, s.Client(t), wacker)
		if calls.Load() != 1 || len(got) != 1 || got[0].Value != "Chicago, IL" || !got[0].Approximate {
			t.Fatalf("calls %d, predictions %+v", calls.Load(), got)
		}
	})
}

// Inputs that start like an address but name nothing answer nothing, and never fail.
func TestAddressLikeNoise(t *testing.T) {
	s, _ := start(t, testkit.Dialects()[0])
	c := s.Client(t)
	for _, input := range []string{"12345 67890", "1 ,", "1 2 3", "99999-1234 x", strings.Repeat("9 ", 200)} {
		c.Get("/api/places/predictions?input="+url.QueryEscape(input)).Expect(t, 200)
	}
}

// The place search is public and each address reaches the geocoder: one client address causes at
// most GeocodesPerMinute calls a minute, then gets the town, as offline.
func TestGeocoderCallsAreLimitedPerClient(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		var calls atomic.Int32
		srv := nominatimServer(t, &calls, 200)
		s := testkit.Start(t, dialect, server.Compose(locations.Component),
			testkit.WithEnv("GEOCODER", "nominatim"), testkit.WithEnv("GEOCODER_URL", srv.URL))
		c := s.Client(t)
		for range locations.GeocodesPerMinute {
			if got := predictions(t, c, wacker); len(got) != 1 || got[0].Approximate {
				t.Fatalf("predictions = %+v", got)
			}
		}
		if got := predictions(t, c, wacker); len(got) != 1 || !got[0].Approximate || got[0].Value != "Chicago, IL" {
			t.Fatalf("over the limit: %+v", got)
		}
		if calls.Load() != locations.GeocodesPerMinute {
			t.Fatalf("%d geocoder calls", calls.Load())
		}
		s.Clock.Advance(time.Minute)
		if got := predictions(t, c, wacker); len(got) != 1 || got[0].Approximate {
			t.Fatalf("after a minute: %+v", got)
		}
	})
}
