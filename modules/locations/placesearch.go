package locations

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"marquee/platform/clock"
	"marquee/platform/ratelimit"
)

// NoteApproximate explains an approximate prediction: the town an address names, not the address.
const NoteApproximate = "Street addresses cannot be looked up here, so this is the town: distances are measured from the centre of %s."

// GeocodesPerMinute bounds the geocoder calls one client address causes: the place search is
// public, and each call reaches another service.
const GeocodesPerMinute = 30

// maxGeoLabels bounds the labels of geocoded places kept for /api/places/details.
const maxGeoLabels = 10_000

// placeSearch answers the place search: the gazetteer's towns, street addresses through the
// geocoder when there is one, and otherwise the town an address names.
type placeSearch struct {
	towns    *gazetteer
	geocoder Geocoder // nil: offline
	limit    ratelimit.Counter
	log      *slog.Logger

	mu     sync.Mutex
	labels map[string]string // geo id -> the geocoder's label
}

func newPlaceSearch(g *gazetteer, geocoder Geocoder, limits ratelimit.Factory, clk clock.Clock, log *slog.Logger) *placeSearch {
	if log == nil {
		log = slog.Default()
	}
	if limits == nil {
		limits = ratelimit.InProcess(clk)
	}
	return &placeSearch{towns: g, geocoder: geocoder, limit: limits("geocodes", GeocodesPerMinute, time.Minute), log: log,
		labels: map[string]string{}}
}

// allowGeocode counts a geocoding call for clientIP. A count that fails (the database is down)
// allows none: the search then answers from the towns, as it does over the limit.
func (s *placeSearch) allowGeocode(ctx context.Context, clientIP string) bool {
	ok, err := s.limit.Allow(ctx, "geocode:ip:"+clientIP)
	if err != nil {
		s.log.WarnContext(ctx, "locations: cannot count a geocoding call; answering the town", "err", err)
	}
	return ok && err == nil
}

// looksLikeAddress reports whether input starts like a street address: a house number followed
// by words ("233 S Wacker Dr"), which no town name does.
func looksLikeAddress(input string) bool {
	first, _, _ := strings.Cut(input, ",")
	words := strings.Fields(first)
	return len(words) >= 2 && unicode.IsDigit([]rune(words[0])[0])
}

// predictions answers the place search for input, asked by the client at clientIP.
func (s *placeSearch) predictions(ctx context.Context, input, clientIP string) []PlacePrediction {
	if len(input) > maxPlaceInput {
		input = input[:maxPlaceInput]
	}
	towns := s.towns.predict(input)
	address := looksLikeAddress(input)
	if len(towns) > 0 && !address {
		return towns
	}
	if address && s.geocoder != nil && s.allowGeocode(ctx, clientIP) {
		ctx, cancel := context.WithTimeout(ctx, geocodeTimeout)
		found, err := s.geocoder.Geocode(ctx, input, MaxPredictions)
		cancel()
		if err != nil {
			s.log.WarnContext(ctx, "locations: geocoder failed; answering the town", "err", err)
		}
		if err == nil && len(found) > 0 {
			out := make([]PlacePrediction, 0, len(found))
			for _, f := range found {
				id := geoID(f.At)
				s.remember(id, f.Label)
				out = append(out, PlacePrediction{ID: id, Value: f.Label})
			}
			return out
		}
	}
	if address {
		if town := s.townOf(input); town != nil {
			return []PlacePrediction{{ID: town.id, Value: town.label, Approximate: true, Note: fmt.Sprintf(NoteApproximate, town.label)}}
		}
	}
	return towns
}

// townOf finds the town an address names: the parts after its first comma ("Chicago", "Chicago,
// IL 60606"), or its last words when it has no comma, longest first, matched against whole town
// names; the most populous wins.
func (s *placeSearch) townOf(input string) *place {
	var candidates []string
	parts := strings.Split(input, ",")
	for i := 1; i < len(parts); i++ {
		rest := dropPostcodes(strings.Join(parts[i:], ","))
		candidates = append(candidates, rest)
		if town := strings.TrimSpace(parts[i]); town != rest {
			candidates = append(candidates, town)
		}
	}
	if words := strings.Fields(dropPostcodes(input)); len(parts) == 1 && len(words) > 0 {
		last := words[len(words)-1]
		state := len(words) > 2 && len(last) == 2 && unicode.IsLetter(rune(last[0])) && unicode.IsLetter(rune(last[1]))
		for n := min(4, len(words)-1); n >= 1; n-- {
			if state && n >= 2 { // "... Chicago IL": the town "Chicago, IL"
				candidates = append(candidates, strings.Join(words[len(words)-n:len(words)-1], " ")+", "+last)
			}
			candidates = append(candidates, strings.Join(words[len(words)-n:], " "))
		}
	}
	for _, c := range candidates {
		k := searchKey(c)
		if k == "" || strings.HasPrefix(k, ",") {
			continue
		}
		for _, p := range s.towns.predict(c) {
			t := s.towns.byID[p.ID]
			// The whole name, not a prefix of a longer one: "Chicago" is not "Chicago Heights".
			if t != nil && (t.key == k || strings.HasPrefix(t.key, k+",")) {
				return t
			}
		}
	}
	return nil
}

// dropPostcodes removes ZIP codes ("60606", "60606-1234") from an address part.
func dropPostcodes(s string) string {
	words := strings.Fields(s)
	out := words[:0]
	for _, w := range words {
		trimmed := strings.Trim(w, ",")
		if len(trimmed) >= 5 && strings.IndexFunc(trimmed, func(r rune) bool { return !unicode.IsDigit(r) && r != '-' }) < 0 {
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

func (s *placeSearch) remember(id, label string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.labels) >= maxGeoLabels {
		clear(s.labels)
	}
	s.labels[id] = label
}

// details answers a place by id: a gazetteer town, or a geocoded place (named by the label the
// geocoder gave, or by its coordinates once that is forgotten).
func (s *placeSearch) details(id string) (PlaceDetails, error) {
	id = strings.TrimSpace(id)
	at, err := parseGeoID(id)
	if err != nil {
		return s.towns.details(id)
	}
	s.mu.Lock()
	label := s.labels[id]
	s.mu.Unlock()
	if label == "" {
		label = strconv.FormatFloat(at.Lat, 'f', 5, 64) + ", " + strconv.FormatFloat(at.Lng, 'f', 5, 64)
	}
	return PlaceDetails{ID: id, Name: label, Geometry: PlaceGeometry{Location: at}}, nil
}

// placeCentre is where a place id is: a geocoded place's coordinates, or a town's (the radius
// search, and a campaign's stored place).
func placeCentre(g *gazetteer, id string) (LatLng, error) {
	if at, err := parseGeoID(strings.TrimSpace(id)); err == nil {
		return at, nil
	}
	d, err := g.details(id)
	if err != nil {
		return LatLng{}, err
	}
	return d.Geometry.Location, nil
}
