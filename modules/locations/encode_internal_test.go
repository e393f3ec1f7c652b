package locations

import (
	"encoding/json"
	"fmt"
	"strings"
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

// A face id that is not a UUID in its canonical form is sent as it is, and so are all the others;
// UUIDs are sent as their first bytes (the key) or all of them (the ids).
func TestColumnsKeepIDsThatAreNotUUIDs(t *testing.T) {
	ls := []Location{{ID: "6ef4bc0d-f051-5c9a-b6ff-6da8341baeec"}, {ID: "face-2"}}
	c := toColumns(ls, uniquePrefixBytes(ls))
	if c.Keys != "" || c.KeyBytes != 0 || len(c.Key) != 2 || c.Key[0] != ls[0].ID || c.Key[1] != "face-2" {
		t.Fatalf("keys %q (%d bytes), key %q", c.Keys, c.KeyBytes, c.Key)
	}
	// Upper case is a UUID, but not as the decoder writes it back.
	if uuids, _ := encodeIDs([]Location{{ID: "6EF4BC0D-F051-5C9A-B6FF-6DA8341BAEEC"}}, uuidBytes); uuids != "" {
		t.Fatalf("an upper-case id went as bytes: %q", uuids)
	}
	if uuids, ids := encodeIDs(ls[:1], uuidBytes); uuids != "bvS8DfBRXJq2/22oNBuu7A==" || ids != nil {
		t.Fatalf("uuids %q, ids %q", uuids, ids)
	}
	if c := toColumns(ls[:1], 4); c.Keys != "bvS8DQ==" || c.KeyBytes != 4 || c.Key != nil {
		t.Fatalf("keys %q (%d bytes), key %q", c.Keys, c.KeyBytes, c.Key)
	}
}

// The key length is the fewest first bytes no two faces share, at least minKeyBytes.
func TestUniquePrefixBytes(t *testing.T) {
	for _, tc := range []struct {
		ids  []string
		want int
	}{
		{nil, minKeyBytes},
		{[]string{"6ef4bc0d-f051-5c9a-b6ff-6da8341baeec"}, minKeyBytes},
		{[]string{"6ef4bc0d-f051-5c9a-b6ff-6da8341baeec", "6ef4bc0e-f051-5c9a-b6ff-6da8341baeec"}, minKeyBytes},
		// The same first five bytes: six tell them apart, whatever their order.
		{[]string{"6ef4bc0d-f0ff-5c9a-b6ff-6da8341baeec", "00000000-0000-4000-8000-000000000000", "6ef4bc0d-f051-5c9a-b6ff-6da8341baeec"}, 6},
		{[]string{"6ef4bc0d-f051-5c9a-b6ff-6da8341baeec", "face-2"}, uuidBytes},
	} {
		ls := make([]Location, len(tc.ids))
		for i, id := range tc.ids {
			ls[i].ID = id
		}
		if got := uniquePrefixBytes(ls); got != tc.want {
			t.Errorf("%q: %d bytes, want %d", tc.ids, got, tc.want)
		}
	}
}

// The kept answers of the face list stay under their byte bound, however many combinations of
// markets are asked for.
func TestFaceAnswersAreBoundedInBytes(t *testing.T) {
	var a faceAnswers
	big := strings.Repeat("a", 12<<20)
	for i := 0; i < 4; i++ {
		if _, err := a.answer(fmt.Sprint("key", i), 1, func() (any, error) { return big, nil }); err != nil {
			t.Fatal(err)
		}
		if a.bytes > maxFaceAnswerBytes || len(a.m) == 0 {
			t.Fatalf("after %d answers: %d bytes kept in %d answers", i+1, a.bytes, len(a.m))
		}
	}
	// The same key again replaces its answer instead of counting it twice.
	before := a.bytes
	if _, err := a.answer("key3", 2, func() (any, error) { return big, nil }); err != nil {
		t.Fatal(err)
	}
	if a.bytes != before {
		t.Fatalf("%d bytes kept after replacing an answer, %d before", a.bytes, before)
	}
}
