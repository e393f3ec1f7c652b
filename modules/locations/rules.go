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
