package locations

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"marquee/modules/locations/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/clock"
	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/money"
	"marquee/platform/server"
)

// Demo inventory (marquee seed --demo): faces near the real cities of every market, with prices,
// impressions, spot counts, rotation and snapshots, and for the coming demo weeks some faces partly
// sold, some sold out and some on vendor tier 2. A fixed seed makes the same rows every time; the
// demo weeks start on the Monday after the day of seeding.
const (
	demoSeed           = 2026
	demoFacesPerMarket = 130
	demoWeeks          = 8
)

// demoBuyersCompany owns the spots the demo shows as sold to other advertisers.
var demoBuyersCompany = stableID("company", "demo-other-buyers")

// SeedDemo implements server.DemoSeeder. It does nothing when faces exist.
func (m *Module) SeedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	n, err := m.svc.store.CountFaces(ctx)
	if err != nil {
		return "", err
	}
	if n > 0 {
		return fmt.Sprintf("locations: %d faces already there", n), nil
	}
	weeks := dates.Today(m.deps.Clock).NextMonday().Weeks(demoWeeks)
	faces, err := m.GenerateInventory(ctx, GenerateOptions{FacesPerMarket: demoFacesPerMarket, Seed: demoSeed, Weeks: weeks})
	if err != nil {
		return "", err
	}
	if err := m.clearDemoPhoto(ctx); err != nil {
		return "", err
	}
	booked := 0
	if adv, ok := demo["advertiser"]; ok {
		if booked, err = m.seedAdvertiserWeeks(ctx, adv.CompanyID, weeks); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("locations: %d faces in %d markets, %d demo weeks from %s, %d weeks booked for the advertiser", faces, len(referenceMarkets), len(weeks), weeks[0], booked), nil
}

// seedAdvertiserWeeks books the first two demo weeks on a few SF Bay Area faces for the demo
// advertiser, so the calendar has something to show.
func (m *Module) seedAdvertiserWeeks(ctx context.Context, companyID string, weeks []dates.Date) (int, error) {
	fs, err := m.svc.store.Faces(ctx, store.FacesQuery{Markets: []string{FixedCentreMarket}})
	if err != nil {
		return 0, err
	}
	var items []FaceWeek
	for _, f := range fs {
		if len(items) >= 10 {
			break
		}
		q := []FaceWeek{{f.ID, weeks[0]}, {f.ID, weeks[1]}}
		quotes, err := m.svc.Quote(ctx, QuoteRequest{FaceIDs: []string{f.ID}, Weeks: weeks[:2]})
		if err != nil {
			return 0, err
		}
		if quotes[0].Available && quotes[1].Available {
			items = append(items, q...)
		}
	}
	res, err := m.svc.Book(ctx, ReserveRequest{Key: "demo-campaign", CompanyID: companyID, Ref: "demo-campaign", Items: items})
	if err != nil {
		return 0, err
	}
	return len(res.Spots), nil
}

// GenerateOptions says what GenerateInventory makes.
type GenerateOptions struct {
	// Markets to fill (by name); empty means every reference market.
	Markets        []string
	FacesPerMarket int
	Seed           uint64
	// Weeks get explicit inventory rows and sold spots.
	Weeks []dates.Date
}

// GenerateInventory inserts FacesPerMarket faces in each market, near its cities (weighted by
// population), with their demo weeks: the demo seed and the benchmarks use it. The same options make
// the same rows. It answers the number of faces.
func (m *Module) GenerateInventory(ctx context.Context, o GenerateOptions) (int, error) {
	ms, err := m.svc.store.Markets(ctx)
	if err != nil {
		return 0, err
	}
	cs, err := m.svc.store.Cities(ctx)
	if err != nil {
		return 0, err
	}
	want := map[string]bool{}
	for _, n := range o.Markets {
		want[n] = true
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x6c6f636174696f6e)) // #nosec G404 -- demo data must be the same on every run, so the generator is seeded
	var faces []store.Face
	var inv []store.Inventory
	var spots []store.Spot
	for _, mk := range ms {
		if len(want) > 0 && !want[mk.Name] {
			continue
		}
		var cities []store.City
		for _, c := range cs {
			if c.MarketID == mk.ID {
				cities = append(cities, c)
			}
		}
		if len(cities) == 0 {
			return 0, fmt.Errorf("locations: market %s has no cities", mk.Name)
		}
		f := generateMarket(rng, o.Seed, mk, cities, o.FacesPerMarket, m.deps.Clock.Now())
		hours := store.FaceHours{Timezone: MarketTimezone(mk.Name, clock.Location(m.deps.Clock)), OpenMinute: DefaultOpenMinute, CloseMinute: DefaultCloseMinute}
		for j := range f {
			f[j].FaceHours = hours
		}
		i, s := generateWeeks(rng, f, o.Weeks, m.deps.Clock.Now())
		faces, inv, spots = append(faces, f...), append(inv, i...), append(spots, s...)
	}
	if len(want) > 0 && len(faces) == 0 {
		return 0, apperr.Field("markets", MsgUnknownMarket)
	}
	err = db.Transact(ctx, m.deps.DB, func(ctx context.Context) error {
		return m.svc.store.InsertFaces(ctx, faces, inv, spots)
	})
	return len(faces), err
}

var (
	streetNames = []string{"Main St", "Broadway", "Market St", "Mission Blvd", "Oak Ave", "Pine St", "Elm St", "Washington Ave", "Lincoln Way", "Park Ave", "Sunset Blvd", "Central Ave", "Harbor Dr", "Lake Shore Dr", "Grand Ave", "University Ave", "Highland Ave", "Colorado Blvd", "Maple Ave", "Jefferson St", "Franklin St", "Madison Ave", "5th Ave", "1st St", "2nd St", "3rd St", "Ocean Ave", "Valley Rd", "Airport Blvd", "Commerce St"}
	highways    = []string{"I-5", "I-10", "I-35", "I-45", "I-75", "I-80", "I-90", "I-95", "US-101", "I-405", "I-285", "I-694", "I-25", "I-70", "SR-99", "I-4"}
	faceDirs    = []string{FaceNorth, FaceSouth, FaceEast, FaceWest}
	spotLengths = []int{8, 8, 8, 10, 15}
)

// generateMarket makes n faces near the market's cities. About a third of the signs are double-faced:
// two faces with the same location name, facing opposite ways (B §3).
func generateMarket(rng *rand.Rand, seed uint64, mk store.Market, cities []store.City, n int, now time.Time) []store.Face {
	weights := make([]float64, len(cities))
	total := 0.0
	for i, c := range cities {
		weights[i] = math.Sqrt(float64(c.Population))
		total += weights[i]
	}
	pick := func() store.City {
		x := rng.Float64() * total
		for i, w := range weights {
			if x < w {
				return cities[i]
			}
			x -= w
		}
		return cities[len(cities)-1]
	}
	// Bigger markets cost more: a factor from the market's population.
	var pop int64
	for _, c := range cities {
		pop += c.Population
	}
	priceFactor := math.Min(1.6, math.Max(0.7, math.Log10(float64(pop))/6.2))
	var out []store.Face
	for seq := 0; len(out) < n; seq++ {
		c := pick()
		// Within about 4 miles of the city centre.
		lat := c.Lat + (rng.Float64()*2-1)*0.055
		lng := c.Lng + (rng.Float64()*2-1)*0.055/math.Cos(c.Lat*math.Pi/180)
		var name string
		if rng.IntN(4) == 0 {
			name = fmt.Sprintf("%s Exit %d, %s", highways[rng.IntN(len(highways))], 1+rng.IntN(180), c.Name)
		} else {
			a, b := streetNames[rng.IntN(len(streetNames))], streetNames[rng.IntN(len(streetNames))]
			if a == b {
				b = streetNames[(rng.IntN(len(streetNames)-1)+1+indexOf(streetNames, a))%len(streetNames)]
			}
			name = fmt.Sprintf("%s & %s, %s", a, b, c.Name)
		}
		name = fmt.Sprintf("%s #%d", name, seq+1) // location names are unique per sign
		base := face(rng, seed, mk, c, name, lat, lng, priceFactor, seq, 0)
		if rng.IntN(3) == 0 && len(out)+2 <= n {
			dir := rng.IntN(2) * 2 // North/South or East/West
			base.Face = faceDirs[dir]
			other := face(rng, seed, mk, c, name, lat+0.00005, lng+0.00005, priceFactor, seq, 1)
			other.Face = faceDirs[dir+1]
			base.OtherFaceID, other.OtherFaceID = other.ID, base.ID
			out = append(out, base, other)
			continue
		}
		out = append(out, base)
	}
	// The pairing stored is the double-faced rule's own answer.
	ps := make([]pairable, len(out))
	for i, f := range out {
		ps[i] = pairable{ID: f.ID, LocationName: f.LocationName, Face: f.Face}
	}
	pairs := PairFaces(ps)
	for i := range out {
		out[i].OtherFaceID = pairs[out[i].ID]
		out[i].CreatedAt = now
	}
	return out
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return 0
}

func face(rng *rand.Rand, seed uint64, mk store.Market, c store.City, name string, lat, lng, priceFactor float64, seq, side int) store.Face {
	// $100 to $2,500 a week, most of them cheap; whole dollars, so the rounding to 10 shows.
	dollars := 100 + int64(math.Pow(rng.Float64(), 2.2)*2400*priceFactor)
	dollars = min(dollars, 2500)
	spots := 6 + rng.IntN(7)
	variant := rng.IntN(len(snapshotColours))
	return store.Face{
		ID: stableID("face", fmt.Sprintf("%d/%s/%d/%d", seed, mk.Name, seq, side)), MarketID: mk.ID, Market: mk.Name, City: c.Name,
		LocationName: name, Face: faceDirs[rng.IntN(len(faceDirs))],
		Lat: math.Round(lat*1e6) / 1e6, Lng: math.Round(lng*1e6) / 1e6,
		Likely: rng.IntN(10) != 0, ExcludeMaximizeBudget: rng.IntN(12) == 0,
		AdRotationFrequency: spots, AdSpotDuration: spotLengths[rng.IntN(len(spotLengths))],
		Snapshot:    fmt.Sprintf("/api/od/snapshots/billboard-%d.svg", variant),
		NewSnapshot: fmt.Sprintf("/api/od/snapshots/billboard-%d.svg", (variant+1)%len(snapshotColours)),
		BasePrice:   money.Dollars(dollars),
		// Weekly impressions follow price: 130 to 230 per dollar.
		BaseOoh:      dollars * int64(130+rng.IntN(100)),
		BaseSpots:    spots,
		FaceGeometry: demoGeometry(name, seq, side, variant),
	}
}

// demoGeometry gives a demo face a plausible size for where it stands: a 14 x 48 ft bulletin on a
// freeway (the names with an exit), a 10 x 30 ft digital face on two arterials in three, a 10.5 x
// 22.75 ft digital poster on a street otherwise; and the demo photo of its snapshot variant with
// the screen's corners. No random draw: the other demo values stay what they were.
func demoGeometry(name string, seq, side, variant int) store.FaceGeometry {
	g := store.FaceGeometry{WidthFt: 30, HeightFt: 10, PixelWidth: 1200, PixelHeight: 400, DistanceClass: ClassArterial}
	switch {
	case strings.Contains(name, " Exit "):
		g = store.FaceGeometry{WidthFt: 48, HeightFt: 14, PixelWidth: 1400, PixelHeight: 400, DistanceClass: ClassFreeway}
	case (seq+side)%3 == 2:
		g = store.FaceGeometry{WidthFt: 22.75, HeightFt: 10.5, PixelWidth: 1200, PixelHeight: 560, DistanceClass: ClassStreet}
	}
	corners, _ := json.Marshal(DemoPhotoCorners(variant)) // points: cannot fail
	g.Photo, g.PhotoWidth, g.PhotoHeight, g.PhotoCorners = demoPhotoPath(variant), DemoPhotoWidth, DemoPhotoHeight, string(corners)
	return g
}

// generateWeeks makes the explicit inventory rows of the weeks (prices drift ±10%, 1 face-week in 10
// on vendor tier 2) and the spots already sold to other buyers: 1 in 15 sold out, 1 in 5 partly
// sold (1 to 3 spots).
func generateWeeks(rng *rand.Rand, faces []store.Face, weeks []dates.Date, now time.Time) ([]store.Inventory, []store.Spot) {
	var inv []store.Inventory
	var spots []store.Spot
	for _, f := range faces {
		for _, w := range weeks {
			price := f.BasePrice * money.Cents(90+rng.IntN(21)) / 100
			price = price / 100 * 100 // whole dollars
			row := store.Inventory{FaceID: f.ID, Week: w, Market: f.Market, AvailableSpots: f.BaseSpots, MinValue: price, VendorTier: 1, Ooh: f.BaseOoh * int64(95+rng.IntN(11)) / 100}
			if rng.IntN(10) == 0 {
				row.VendorTier = 2
				row.MinValue2 = price * money.Cents(110+rng.IntN(50)) / 100 / 100 * 100
			}
			inv = append(inv, row)
			sold := 0
			switch r := rng.IntN(15); {
			case r == 0:
				sold = row.AvailableSpots
			case r <= 3:
				sold = 1 + rng.IntN(3)
			}
			for slot := 0; slot < sold; slot++ {
				key := fmt.Sprintf("demo-sold/%s/%s/%d", f.ID, w, slot)
				spots = append(spots, store.Spot{
					ID: stableID("spot", key), FaceID: f.ID, Week: w, Market: f.Market, Slot: slot, Status: StatusActive, CompanyID: demoBuyersCompany,
					Ref: "demo-sold", Key: key, Price: SpotPrice(TierPrice(row.MinValue, row.MinValue2, row.VendorTier)), Ooh: row.Ooh, CreatedAt: now,
				})
			}
		}
	}
	sort.SliceStable(spots, func(i, j int) bool { return spots[i].ID < spots[j].ID })
	return inv, spots
}
