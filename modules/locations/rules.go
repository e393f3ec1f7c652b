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

// budgetStep is one row of the budget table of B §9.
type budgetStep struct {
	minBudget   money.Cents
	impressions int64
}

// budgetTable is B §9 "Impressions by minimum weekly budget", ascending.
var budgetTable = []budgetStep{
	{money.Dollars(0), 0},
	{money.Dollars(500), 75_659},
	{money.Dollars(750), 121_321},
	{money.Dollars(1000), 198_899},
	{money.Dollars(1250), 259_311},
	{money.Dollars(1500), 302_677},
	{money.Dollars(1750), 372_677},
	{money.Dollars(2000), 431_890},
	{money.Dollars(2250), 489_113},
	{money.Dollars(2500), 505_911},
	{money.Dollars(2750), 597_780},
	{money.Dollars(3000), 687_525},
}

// ImpressionsForBudget is the weekly impression estimate of a weekly budget (B §9): the step at or
// below the budget; a negative budget gives 0.
func ImpressionsForBudget(budget money.Cents) int64 {
	i := sort.Search(len(budgetTable), func(i int) bool { return budgetTable[i].minBudget > budget })
	if i == 0 {
		return 0
	}
	return budgetTable[i-1].impressions
}

// EstimatedImpressions multiplies weekly impressions by the duration in weeks (B §9).
func EstimatedImpressions(weekly int64, durationWeeks int) int64 {
	if durationWeeks < 1 {
		return 0
	}
	return weekly * int64(durationWeeks)
}

// MinDailyBudget is the least daily budget of maximum-budget mode (B §9).
var MinDailyBudget = money.Dollars(20)

// SuggestedDailyBudget is maximum-budget mode's suggested daily budget (B §9): the number of selected
// locations divided by 10, rounded up, times $20; at least $20 once anything is selected, and 0 when
// nothing is.
func SuggestedDailyBudget(selected int) money.Cents {
	if selected <= 0 {
		return 0
	}
	tens := (selected + 9) / 10
	return money.Max(money.Dollars(int64(tens)*20), MinDailyBudget)
}

// ValidRadius says whether r is one of RadiusOptions.
func ValidRadius(r int) bool {
	for _, o := range RadiusOptions {
		if o == r {
			return true
		}
	}
	return false
}

// RadiusZoom is the map zoom for a radius in miles (B §9): 12 minus radius/5, plus 1 at 20 miles
// and plus 2 at 25 miles.
func RadiusZoom(radius int) int {
	z := 12 - radius/5
	switch radius {
	case 20:
		z++
	case 25:
		z += 2
	}
	return z
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

// IsLeftFace says whether a face of a double-faced sign is drawn as the left marker: North and West
// faces are the left one, the others the right one (B §3).
func IsLeftFace(face string) bool { return face == FaceNorth || face == FaceWest }
