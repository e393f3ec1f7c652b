package locations

import (
	"fmt"
	"sort"

	"github.com/google/uuid"

	"marquee/modules/locations/internal/store"
)

// referenceMarkets are the DMA markets we sell in and their cities ("Name|ST", as the gazetteer
// spells them). Their coordinates come from the gazetteer. The list is reference data, inserted by
// the migration locations-0002; a change needs a new migration.
var referenceMarkets = []struct {
	name   string
	cities []string
}{
	{"Atlanta", []string{"Atlanta|GA", "Sandy Springs|GA", "Marietta|GA", "Decatur|GA", "Alpharetta|GA", "Roswell|GA"}},
	{"Austin", []string{"Austin|TX", "Round Rock|TX", "Cedar Park|TX", "San Marcos|TX", "Georgetown|TX"}},
	{"Boston", []string{"Boston|MA", "Cambridge|MA", "Quincy|MA", "Newton|MA", "Somerville|MA", "Lowell|MA"}},
	{"Charlotte", []string{"Charlotte|NC", "Concord|NC", "Gastonia|NC", "Rock Hill|SC", "Huntersville|NC"}},
	{"Chicago", []string{"Chicago|IL", "Evanston|IL", "Naperville|IL", "Aurora|IL", "Joliet|IL", "Schaumburg|IL"}},
	{"Cleveland", []string{"Cleveland|OH", "Akron|OH", "Lakewood|OH", "Parma|OH", "Canton|OH", "Elyria|OH"}},
	{"Dallas-Ft. Worth", []string{"Dallas|TX", "Fort Worth|TX", "Arlington|TX", "Plano|TX", "Irving|TX", "Garland|TX"}},
	{"Denver", []string{"Denver|CO", "Aurora|CO", "Lakewood|CO", "Boulder|CO", "Littleton|CO", "Thornton|CO"}},
	{"Detroit", []string{"Detroit|MI", "Dearborn|MI", "Warren|MI", "Livonia|MI", "Troy|MI", "Ann Arbor|MI"}},
	{"Houston", []string{"Houston|TX", "Pasadena|TX", "Sugar Land|TX", "The Woodlands|TX", "Pearland|TX", "Baytown|TX"}},
	{"Las Vegas", []string{"Las Vegas|NV", "Henderson|NV", "North Las Vegas|NV", "Paradise|NV", "Spring Valley|NV"}},
	{"Los Angeles", []string{"Los Angeles|CA", "Long Beach|CA", "Santa Monica|CA", "Pasadena|CA", "Glendale|CA", "Burbank|CA", "Anaheim|CA"}},
	{"Miami-Ft. Lauderdale", []string{"Miami|FL", "Fort Lauderdale|FL", "Hialeah|FL", "Hollywood|FL", "Miami Beach|FL", "Pompano Beach|FL"}},
	{"Minneapolis-St. Paul", []string{"Minneapolis|MN", "Saint Paul|MN", "Bloomington|MN", "Plymouth|MN", "Eagan|MN"}},
	{"New York", []string{"New York City|NY", "Brooklyn|NY", "Newark|NJ", "Jersey City|NJ", "Yonkers|NY", "Hoboken|NJ", "White Plains|NY"}},
	{"Orlando", []string{"Orlando|FL", "Kissimmee|FL", "Winter Park|FL", "Sanford|FL", "Altamonte Springs|FL", "Daytona Beach|FL"}},
	{"Philadelphia", []string{"Philadelphia|PA", "Camden|NJ", "Wilmington|DE", "Chester|PA", "Norristown|PA", "Trenton|NJ"}},
	{"Phoenix", []string{"Phoenix|AZ", "Scottsdale|AZ", "Mesa|AZ", "Tempe|AZ", "Chandler|AZ", "Glendale|AZ"}},
	{"Portland", []string{"Portland|OR", "Beaverton|OR", "Gresham|OR", "Hillsboro|OR", "Vancouver|WA", "Lake Oswego|OR"}},
	{"Sacramento", []string{"Sacramento|CA", "Roseville|CA", "Elk Grove|CA", "Folsom|CA", "Davis|CA", "Stockton|CA"}},
	{"San Diego", []string{"San Diego|CA", "Chula Vista|CA", "Oceanside|CA", "Escondido|CA", "Carlsbad|CA", "El Cajon|CA"}},
	{"SF Bay Area", []string{"San Francisco|CA", "Oakland|CA", "San Jose|CA", "Berkeley|CA", "Palo Alto|CA", "Fremont|CA", "Santa Clara|CA", "Daly City|CA"}},
	{"Seattle-Tacoma", []string{"Seattle|WA", "Tacoma|WA", "Bellevue|WA", "Everett|WA", "Redmond|WA", "Kent|WA"}},
	{"Tampa-St. Petersburg", []string{"Tampa|FL", "St. Petersburg|FL", "Clearwater|FL", "Brandon|FL", "Largo|FL", "Lakeland|FL"}},
	{"Washington DC", []string{"Washington D.C.|DC", "Arlington|VA", "Alexandria|VA", "Bethesda|MD", "Silver Spring|MD", "Rockville|MD"}},
}

// sfBayCentre is the fixed centre of the SF Bay Area market (B §9).
var sfBayCentre = LatLng{Lat: 37.6, Lng: -122.2}

// marketZoom is the map zoom of a market without a fixed centre: a metro area.
const marketZoom = 10

// idNamespace makes the stable ids of reference and demo rows (UUIDv5), so the same seed gives the
// same rows.
var idNamespace = uuid.MustParse("6d1f6f0e-4b8a-4a8e-9a53-6c6f636174e1")

func stableID(kind, name string) string {
	return uuid.NewSHA1(idNamespace, []byte(kind+":"+name)).String()
}

// referenceRows builds the market and city rows from referenceMarkets and the gazetteer.
func referenceRows() ([]store.Market, []store.City, error) {
	g, err := loadGazetteer()
	if err != nil {
		return nil, nil, err
	}
	var ms []store.Market
	var cs []store.City
	for _, rm := range referenceMarkets {
		m := store.Market{ID: stableID("market", rm.name), Name: rm.name, Zoom: marketZoom}
		for _, c := range rm.cities {
			name, state := splitCity(c)
			p, ok := g.find(name, state)
			if !ok {
				return nil, nil, fmt.Errorf("locations: city %s of %s is not in the gazetteer", c, rm.name)
			}
			cs = append(cs, store.City{ID: stableID("city", rm.name+"/"+name), MarketID: m.ID, Name: p.name, State: p.state, Lat: p.at.Lat, Lng: p.at.Lng, Population: p.population})
			m.CenterLat += p.at.Lat / float64(len(rm.cities))
			m.CenterLng += p.at.Lng / float64(len(rm.cities))
		}
		if rm.name == FixedCentreMarket {
			m.CenterLat, m.CenterLng, m.Zoom, m.Fixed = sfBayCentre.Lat, sfBayCentre.Lng, FixedCentreZoom, true
		}
		ms = append(ms, m)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	return ms, cs, nil
}

func splitCity(c string) (name, state string) {
	for i := len(c) - 1; i >= 0; i-- {
		if c[i] == '|' {
			return c[:i], c[i+1:]
		}
	}
	return c, ""
}
