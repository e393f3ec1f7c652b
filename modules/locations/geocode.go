package locations

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The place search looks up towns in the embedded gazetteer (places.go). A street address ("233 S
// Wacker Dr, Chicago") is not a town: when a geocoder is configured (GEOCODER, GEOCODER_URL) the
// address is looked up there; offline, or when the geocoder fails, the search answers the town the
// address names, marked approximate (placesearch.go), so that nobody takes distances from a town
// centre for distances from their address.

// Geocoder is the port to an address geocoder: it answers at most limit US places for a free-text
// query, best first.
type Geocoder interface {
	Geocode(ctx context.Context, query string, limit int) ([]GeocodedPlace, error)
}

// GeocodedPlace is one answer of a geocoder.
type GeocodedPlace struct {
	Label string
	At    LatLng
}

// Geocoder providers (GEOCODER).
const (
	GeocoderNone      = "none"
	GeocoderNominatim = "nominatim"
	GeocoderPhoton    = "photon"
)

// geocodeTimeout bounds one geocoder call; the search falls back to the town after it.
const geocodeTimeout = 4 * time.Second

// maxGeocodeAnswer bounds the bytes read from a geocoder.
const maxGeocodeAnswer = 1 << 20

// NewGeocoder returns the adapter of provider at baseURL, or nil for GeocoderNone. userAgent
// names the application (Nominatim's usage policy asks for it).
func NewGeocoder(provider, baseURL, userAgent string, client *http.Client) (Geocoder, error) {
	if provider == GeocoderNone || provider == "" {
		return nil, nil
	}
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("locations: GEOCODER_URL %q is not an http(s) URL", baseURL)
	}
	if client == nil {
		client = &http.Client{Timeout: geocodeTimeout}
	}
	h := httpGeocoder{base: u, userAgent: userAgent, client: client}
	switch provider {
	case GeocoderNominatim:
		return nominatim{h}, nil
	case GeocoderPhoton:
		return photon{h}, nil
	}
	return nil, fmt.Errorf("locations: unknown GEOCODER %q", provider)
}

type httpGeocoder struct {
	base      *url.URL
	userAgent string
	client    *http.Client
}

// get calls path with the query and decodes the JSON answer into v.
func (h httpGeocoder) get(ctx context.Context, path string, q url.Values, v any) error {
	u := *h.base
	u.Path = strings.TrimRight(u.Path, "/") + path
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", h.userAgent)
	res, err := h.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("geocoder: %s answered %d", u.Host, res.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(res.Body, maxGeocodeAnswer)).Decode(v)
}

// nominatim is the adapter of the Nominatim search API (GET /search?format=jsonv2).
type nominatim struct{ httpGeocoder }

func (n nominatim) Geocode(ctx context.Context, query string, limit int) ([]GeocodedPlace, error) {
	var rows []struct {
		Lat         string `json:"lat"`
		Lon         string `json:"lon"`
		DisplayName string `json:"display_name"`
	}
	q := url.Values{"q": {query}, "format": {"jsonv2"}, "countrycodes": {"us"}, "limit": {strconv.Itoa(limit)}}
	if err := n.get(ctx, "/search", q, &rows); err != nil {
		return nil, err
	}
	out := []GeocodedPlace{}
	for _, r := range rows {
		lat, err1 := strconv.ParseFloat(r.Lat, 64)
		lng, err2 := strconv.ParseFloat(r.Lon, 64)
		if err1 != nil || err2 != nil || !validLatLng(lat, lng) || r.DisplayName == "" {
			continue
		}
		out = append(out, GeocodedPlace{Label: strings.TrimSuffix(r.DisplayName, ", United States"), At: LatLng{lat, lng}})
	}
	return out, nil
}

// photon is the adapter of the Photon API (GET /api, GeoJSON), which has no country filter: other
// countries' answers are dropped.
type photon struct{ httpGeocoder }

func (p photon) Geocode(ctx context.Context, query string, limit int) ([]GeocodedPlace, error) {
	var fc struct {
		Features []struct {
			Geometry struct {
				Coordinates []float64 `json:"coordinates"` // lng, lat
			} `json:"geometry"`
			Properties struct {
				Name        string `json:"name"`
				HouseNumber string `json:"housenumber"`
				Street      string `json:"street"`
				City        string `json:"city"`
				State       string `json:"state"`
				Postcode    string `json:"postcode"`
				CountryCode string `json:"countrycode"`
			} `json:"properties"`
		} `json:"features"`
	}
	// Ask for more than limit: the answers of other countries are dropped.
	q := url.Values{"q": {query}, "limit": {strconv.Itoa(2 * limit)}, "lang": {"en"}}
	if err := p.get(ctx, "/api", q, &fc); err != nil {
		return nil, err
	}
	out := []GeocodedPlace{}
	for _, f := range fc.Features {
		pr := f.Properties
		if !strings.EqualFold(pr.CountryCode, "us") || len(f.Geometry.Coordinates) != 2 {
			continue
		}
		lng, lat := f.Geometry.Coordinates[0], f.Geometry.Coordinates[1]
		if !validLatLng(lat, lng) {
			continue
		}
		street := strings.TrimSpace(pr.HouseNumber + " " + pr.Street)
		var parts []string
		for _, s := range []string{pr.Name, street, pr.City, strings.TrimSpace(pr.State + " " + pr.Postcode)} {
			if s != "" && (len(parts) == 0 || parts[len(parts)-1] != s) {
				parts = append(parts, s)
			}
		}
		if len(parts) == 0 {
			continue
		}
		out = append(out, GeocodedPlace{Label: strings.Join(parts, ", "), At: LatLng{lat, lng}})
		if len(out) == limit {
			break
		}
	}
	return out, nil
}

func validLatLng(lat, lng float64) bool {
	return lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180 && !(lat == 0 && lng == 0)
}

// A geocoded place has no gazetteer id: its id carries its coordinates ("geo:41.87868,-87.63591",
// 5 decimals, about a metre), so /api/places/details and the radius search (and a campaign that
// stores the id) resolve it without the geocoder.
const geoIDPrefix = "geo:"

func geoID(at LatLng) string {
	return geoIDPrefix + strconv.FormatFloat(at.Lat, 'f', 5, 64) + "," + strconv.FormatFloat(at.Lng, 'f', 5, 64)
}

var errNotGeoID = errors.New("not a geo id")

// parseGeoID reads the coordinates of a geo id.
func parseGeoID(id string) (LatLng, error) {
	rest, ok := strings.CutPrefix(id, geoIDPrefix)
	if !ok || len(id) > 48 {
		return LatLng{}, errNotGeoID
	}
	a, b, ok := strings.Cut(rest, ",")
	if !ok {
		return LatLng{}, errNotGeoID
	}
	lat, err1 := strconv.ParseFloat(a, 64)
	lng, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil || !validLatLng(lat, lng) {
		return LatLng{}, errNotGeoID
	}
	return LatLng{lat, lng}, nil
}
