package locations

import (
	"encoding/json"
	"testing"
)

// appendSpots must write what encoding/json writes.
func TestAppendSpotsMatchesEncodingJSON(t *testing.T) {
	for _, spots := range [][]AvailableSpot{
		{},
		{{Xxx: "a\"b<\u2028", UsedSpots: 3, AvailableSpots: 8, MinValue: 35000, MinValue2: 40050, VendorTier: 2, OldValue: 34701, Ooh: 123456, Available: true}},
		{{Xxx: "x"}, {Xxx: "y", MinValue: -1999, MinValue2: 5, OldValue: 100, Available: false, Ooh: -3}},
	} {
		want, err := json.Marshal(spots)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendSpots(nil, spots); string(got) != string(want) {
			t.Errorf("appendSpots\n got %s\nwant %s", got, want)
		}
	}
}
