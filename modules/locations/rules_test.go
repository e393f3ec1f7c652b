package locations

import (
	"math"
	"testing"

	"marquee/platform/money"
)

// TestSpotPriceIsTheLocationMinimumRoundedUpToTen: the price of a spot is the server value plus $10
// (B §9 "the location minimum value is the server value plus 10") rounded up to a multiple of $10
// (B §9).
func TestSpotPriceIsTheLocationMinimumRoundedUpToTen(t *testing.T) {
	for _, tc := range []struct{ in, want money.Cents }{
		{0, money.Dollars(10)},
		{money.Dollars(100), money.Dollars(110)},
		{money.Dollars(101), money.Dollars(120)},
		{money.Dollars(109), money.Dollars(120)},
		{money.Dollars(347), money.Dollars(360)},
		{34701, money.Dollars(360)}, // $347.01
		{1, money.Dollars(20)},
	} {
		if got := SpotPrice(tc.in); got != tc.want {
			t.Errorf("SpotPrice(%v) = %v, want %v", tc.in, got, tc.want)
		}
		if got, want := SpotPrice(tc.in), SpotPrice(tc.in.CeilTo(priceStep)); got != want {
			t.Errorf("SpotPrice(%v) = %v, but rounding first gives %v", tc.in, got, want)
		}
	}
}

func TestTierPriceAveragesVendorTierTwo(t *testing.T) {
	for _, tc := range []struct {
		min, min2 money.Cents
		tier      int
		want      money.Cents
	}{
		{money.Dollars(347), money.Dollars(500), 1, money.Dollars(347)}, // tier 1 keeps min_value as it is
		{money.Dollars(300), money.Dollars(500), 2, money.Dollars(400)},
		{money.Dollars(301), money.Dollars(500), 2, money.Dollars(410)}, // 400.50 -> 410
		{money.Dollars(345), money.Dollars(350), 2, money.Dollars(350)}, // 347.50 -> 350
		{money.Dollars(100), 1, 2, money.Dollars(60)},                   // 50.005 -> 60
		{money.Dollars(200), money.Dollars(200), 0, money.Dollars(200)},
	} {
		if got := TierPrice(tc.min, tc.min2, tc.tier); got != tc.want {
			t.Errorf("TierPrice(%v, %v, %d) = %v, want %v", tc.min, tc.min2, tc.tier, got, tc.want)
		}
	}
}

func TestLocationMinimumAddsTen(t *testing.T) {
	for _, tc := range []struct{ in, want money.Cents }{
		{0, money.Dollars(10)},
		{money.Dollars(350), money.Dollars(360)},
		{34750, 35750},
	} {
		if got := LocationMinimum(tc.in); got != tc.want {
			t.Errorf("LocationMinimum(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestIsAvailable(t *testing.T) {
	for _, tc := range []struct {
		used, available int
		want            bool
	}{{0, 8, true}, {7, 8, true}, {8, 8, false}, {9, 8, false}, {0, 0, false}} {
		if got := IsAvailable(tc.used, tc.available); got != tc.want {
			t.Errorf("IsAvailable(%d, %d) = %v", tc.used, tc.available, got)
		}
	}
}

func TestRadiusRules(t *testing.T) {
	for _, tc := range []struct {
		radius int
		valid  bool
	}{{5, true}, {10, true}, {15, true}, {20, true}, {25, true}, {50, true}, {100, true}, {250, true}, {0, false}, {30, false}} {
		if got := ValidRadius(tc.radius); got != tc.valid {
			t.Errorf("ValidRadius(%d) = %v", tc.radius, got)
		}
	}
}

func TestDistanceMilesUsesTheSpecEarthRadius(t *testing.T) {
	sf := LatLng{37.77493, -122.41942}
	oak := LatLng{37.80437, -122.27080}
	la := LatLng{34.05223, -118.24368}
	for _, tc := range []struct {
		a, b LatLng
		want float64
	}{{sf, sf, 0}, {sf, oak, 8.35}, {sf, la, 347.1}} {
		if got := DistanceMiles(tc.a, tc.b); math.Abs(got-tc.want) > 0.1 {
			t.Errorf("DistanceMiles(%v, %v) = %.2f, want %.2f", tc.a, tc.b, got, tc.want)
		}
	}
	// One degree of latitude is 3956·π/180 miles.
	if got, want := DistanceMiles(LatLng{0, 0}, LatLng{1, 0}), 3956*math.Pi/180; math.Abs(got-want) > 1e-9 {
		t.Errorf("one degree = %v, want %v", got, want)
	}
}

func TestPairFacesPairsSameNames(t *testing.T) {
	pairs := PairFaces([]pairable{
		{"a", "Main St & 1st", FaceNorth}, {"b", "Main St & 1st", FaceSouth},
		{"c", "Lone Sign", FaceEast},
		{"d", "Triple", FaceWest}, {"e", "Triple", FaceEast}, {"f", "Triple", FaceNorth},
		{"g", "", FaceNorth}, {"h", "", FaceSouth},
	})
	want := map[string]string{"a": "b", "b": "a", "d": "e", "e": "d"}
	if len(pairs) != len(want) {
		t.Fatalf("pairs = %v, want %v", pairs, want)
	}
	for k, v := range want {
		if pairs[k] != v {
			t.Errorf("pair of %s = %q, want %q", k, pairs[k], v)
		}
	}
}

func TestValidCorners(t *testing.T) {
	ok := []Point{{X: 10, Y: 20}, {X: 900, Y: 40}, {X: 880, Y: 500}, {X: 20, Y: 480}}
	if !ValidCorners(ok, 960, 600) {
		t.Fatal("a convex clockwise quad is refused")
	}
	for name, pts := range map[string][]Point{
		"three":           ok[:3],
		"crossed":         {ok[0], ok[2], ok[1], ok[3]},
		"dented":          {ok[0], {300, 300}, ok[2], ok[3]},
		"anticlockwise":   {ok[0], ok[3], ok[2], ok[1]},
		"not top-left":    {ok[1], ok[2], ok[3], ok[0]},
		"outside":         {ok[0], {961, 40}, ok[2], ok[3]},
		"negative":        {{-1, 20}, ok[1], ok[2], ok[3]},
		"three in a line": {{10, 10}, {500, 10}, {900, 10}, {20, 480}},
	} {
		if ValidCorners(pts, 960, 600) {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Every class has a distance and a speed, farther and faster from street to freeway.
func TestDistanceClasses(t *testing.T) {
	s, a, f := DistanceClasses[ClassStreet], DistanceClasses[ClassArterial], DistanceClasses[ClassFreeway]
	if len(DistanceClasses) != 3 || !(s.DistanceFt < a.DistanceFt && a.DistanceFt < f.DistanceFt && s.SpeedMph < a.SpeedMph && a.SpeedMph < f.SpeedMph) {
		t.Fatalf("%+v", DistanceClasses)
	}
}
