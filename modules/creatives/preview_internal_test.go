package creatives

import (
	"math"
	"testing"

	"marquee/modules/creatives/internal/preflight"
	"marquee/modules/locations"
)

// The homography takes the unit square's corners to the quad's, and its inverse brings them back.
func TestHomographyMapsTheSquareToTheQuad(t *testing.T) {
	for _, q := range [][]locations.Point{
		{{X: 200, Y: 110}, {X: 760, Y: 140}, {X: 770, Y: 330}, {X: 190, Y: 300}}, // a perspective quad
		{{X: 0, Y: 0}, {X: 100, Y: 0}, {X: 100, Y: 50}, {X: 0, Y: 50}},           // a rectangle (the affine case)
	} {
		h := squareToQuad(q)
		inv := h.inverse()
		for i, uv := range [][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
			x, y := h.apply(uv[0], uv[1])
			if math.Abs(x-q[i].X) > 1e-6 || math.Abs(y-q[i].Y) > 1e-6 {
				t.Errorf("corner %d: (%v, %v), want %v", i, x, y, q[i])
			}
			u, v := inv.apply(q[i].X, q[i].Y)
			if math.Abs(u-uv[0]) > 1e-9 || math.Abs(v-uv[1]) > 1e-9 {
				t.Errorf("inverse of corner %d: (%v, %v), want %v", i, u, v, uv)
			}
		}
	}
}

// The pre-flight's reference face is read from the arterial class's distance.
func TestReferenceFaceIsAnArterialBulletin(t *testing.T) {
	if preflight.ReferenceFace.ViewingDistanceFt != locations.DistanceClasses[locations.ClassArterial].DistanceFt ||
		preflight.ReferenceFace.DistanceClass != locations.ClassArterial {
		t.Fatalf("%+v", preflight.ReferenceFace)
	}
}
