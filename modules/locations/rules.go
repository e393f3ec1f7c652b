package locations

import (
	"math"
	"sort"

	"marquee/platform/money"
)

// The price and impression rules of A §7 and B §9, as pure functions.

// priceStep is the step prices are rounded up to (B §9: "rounded up to a multiple of 10").
var priceStep = money.Dollars(10)

// SpotPrice is the price shown and charged for a spot or a location: its location minimum value
// (the server value plus $10, B §9 LocationMinimum) rounded up to a multiple of $10 (B §9, A §9).
// Both rules are in steps of $10, so the order does not matter: ceil10(v + 10) = ceil10(v) + 10.
// Every price the API shows (available-spots price, /api/od/locations value, calendar spots) and
// every price a booking charges comes from here (docs/inventory.md).
func SpotPrice(v money.Cents) money.Cents { return LocationMinimum(v).CeilTo(priceStep) }

// TierPrice is the spot's min_value after the vendor-tier rule of A §7: for vendor tier 2 the average
// of min_value and min_value_2 rounded up to the next 10; otherwise min_value unchanged.
func TierPrice(minValue, minValue2 money.Cents, vendorTier int) money.Cents {
	if vendorTier != 2 {
		return minValue
	}
	sum := minValue + minValue2
	avg := sum / 2
	if sum%2 != 0 {
		avg++ // half a cent up: the rounding goes up anyway
	}
	return avg.CeilTo(priceStep)
}

// LocationMinimum is a location's minimum value: the server value plus $10 (B §9).
func LocationMinimum(v money.Cents) money.Cents { return v + priceStep }

// IsAvailable says whether a face can still be sold in a week: its used spots are below its
// available spots (B §3 "Price data per face").
func IsAvailable(used, available int) bool { return used < available }

// ValidRadius says whether r is one of RadiusOptions.
func ValidRadius(r int) bool {
	for _, o := range RadiusOptions {
		if o == r {
			return true
		}
	}
	return false
}

// DistanceMiles is the great-circle distance between two points on a sphere of EarthRadiusMiles
// (B §9), by the haversine formula.
func DistanceMiles(a, b LatLng) float64 {
	const rad = math.Pi / 180
	dLat := (b.Lat - a.Lat) * rad
	dLng := (b.Lng - a.Lng) * rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(a.Lat*rad)*math.Cos(b.Lat*rad)*math.Sin(dLng/2)*math.Sin(dLng/2)
	return 2 * EarthRadiusMiles * math.Asin(math.Min(1, math.Sqrt(h)))
}

// pairable is what the double-faced rule needs of a face.
type pairable struct {
	ID, LocationName, Face string
}

// PairFaces applies the double-faced rule (B §3): faces with the same location name pair up as one
// sign. It answers each paired face's partner. A name shared by more than two faces pairs the
// first two by id; the rest stay single.
func PairFaces(faces []pairable) map[string]string {
	byName := map[string][]pairable{}
	for _, f := range faces {
		if f.LocationName != "" {
			byName[f.LocationName] = append(byName[f.LocationName], f)
		}
	}
	out := map[string]string{}
	for _, group := range byName {
		if len(group) < 2 {
			continue
		}
		sort.Slice(group, func(i, j int) bool { return group[i].ID < group[j].ID })
		a, b := group[0], group[1]
		out[a.ID], out[b.ID] = b.ID, a.ID
	}
	return out
}

// DistanceClass is a viewing distance class's typical reading distance and speed.
type DistanceClass struct {
	DistanceFt float64
	SpeedMph   float64
}

// DistanceClasses are the typical viewing distance and traffic speed of each class. The speeds are
// the usual US limits of each road type (FHWA "Speed Limit Basics": 55-70 mph on freeways, 30-45 on
// arterials, 25 on local streets). The distance is where reading must start for a driver to read
// the face before passing it: speed x the USSC Foundation's viewer reaction time (about 5 s at
// freeway speed, 4 s on arterials, 3 s on streets; "Sign Legibility Rules of Thumb"), rounded:
// 95 ft/s x 5 s ~ 500 ft, 59 ft/s x 4 s ~ 250 ft, 37 ft/s x 3 s ~ 100 ft.
var DistanceClasses = map[string]DistanceClass{
	ClassFreeway:  {DistanceFt: 500, SpeedMph: 65},
	ClassArterial: {DistanceFt: 250, SpeedMph: 40},
	ClassStreet:   {DistanceFt: 100, SpeedMph: 25},
}

// ValidCorners says whether four points are a convex quad inside a photo of w x h pixels, given
// clockwise on screen (y down) from the top-left: every turn is to the same side (a crossed or
// dented quad turns both ways) and no three points are in line.
func ValidCorners(pts []Point, w, h int) bool {
	if len(pts) != 4 || w <= 0 || h <= 0 {
		return false
	}
	for _, p := range pts {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || p.X < 0 || p.Y < 0 || p.X > float64(w) || p.Y > float64(h) {
			return false
		}
	}
	for i := range 4 {
		a, b, c := pts[i], pts[(i+1)%4], pts[(i+2)%4]
		if (b.X-a.X)*(c.Y-b.Y)-(b.Y-a.Y)*(c.X-b.X) <= 0 {
			return false
		}
	}
	// Clockwise from the top-left: the first point is the one nearest the photo's top-left corner.
	first := pts[0].X + pts[0].Y
	for _, p := range pts[1:] {
		if p.X+p.Y < first {
			return false
		}
	}
	return true
}
