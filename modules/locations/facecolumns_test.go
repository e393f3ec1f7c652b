package locations_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/hex"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"

	"marquee/modules/locations"
	"marquee/platform/money"
	"marquee/platform/testkit"
)

// decodeColumns is the web app's decoder (features/locations/shared/faceColumns.ts) in Go: it turns
// the columns, with the ids of ?format=ids, back into the faces they encode, with the fields the
// columns carry.
func decodeColumns(t *testing.T, c locations.LocationColumns, idsAnswer locations.LocationIDs) []locations.Location {
	t.Helper()
	if c.Format != locations.LocationColumnsFormat || idsAnswer.Format != locations.LocationColumnsFormat {
		t.Fatalf("format %d, ids format %d", c.Format, idsAnswer.Format)
	}
	if c.Order == "" || c.Order != idsAnswer.Order {
		t.Fatalf("the columns' order %q, the ids' %q", c.Order, idsAnswer.Order)
	}
	n := len(c.Name)
	ids := idsAnswer.ID
	if idsAnswer.UUIDs != "" {
		raw, err := base64.StdEncoding.DecodeString(idsAnswer.UUIDs)
		if err != nil || len(raw) != 16*n {
			t.Fatalf("uuids: %d bytes for %d faces, %v", len(raw), n, err)
		}
		ids = make([]string, n)
		for i := range ids {
			ids[i] = uuid.UUID(raw[16*i : 16*i+16]).String()
		}
	}
	keys := faceKeys(t, c)
	for i := range ids {
		if keys[i] != faceKey(ids[i], c.KeyBytes) {
			t.Fatalf("face %d: key %q, id %q", i, keys[i], ids[i])
		}
	}
	out := make([]locations.Location, n)
	var name int
	var lat, lng int64
	for i := range out {
		name, lat, lng = name+c.Name[i], lat+c.Lat[i], lng+c.Lng[i]
		out[i] = locations.Location{
			ID: ids[i], LocationName: c.Names[name], Market: c.Markets[c.Market[i]], City: c.Cities[c.City[i]], Face: c.Faces[c.Face[i]],
			Lat: float64(lat) / 1e5, Lng: float64(lng) / 1e5, NewLocationSnapshot: c.Snapshots[c.Snapshot[i]],
			Value: money.Cents(c.Value[i]), Ooh: c.Ooh[i], Likely: c.Flags[i]&locations.FlagLikely != 0,
			ExcludeMaximizeBudget: c.Flags[i]&locations.FlagExcludeMaximizeBudget != 0,
			Location:              locations.LocationSettings{AdRotationFrequency: c.Frequency[i], AdSpotDuration: c.Duration[i]},
		}
		if c.Distance != nil {
			d := float64(c.Distance[i]) / 100
			out[i].Distance = &d
		}
	}
	return out
}

// faceKey is a face id's key as the web app finds it for an available spot: the first 2*keyBytes
// hex digits of the UUID, or the id itself when the keys are the ids (keyBytes 0).
func faceKey(id string, keyBytes int) string {
	if keyBytes == 0 {
		return id
	}
	return strings.ReplaceAll(id, "-", "")[:2*keyBytes]
}

// faceKeys are the columns' keys as the web app writes them: the hex of each key's bytes, or the
// ids when they are not UUIDs.
func faceKeys(t *testing.T, c locations.LocationColumns) []string {
	t.Helper()
	n := len(c.Name)
	if c.Keys == "" {
		if len(c.Key) != n {
			t.Fatalf("%d keys for %d faces", len(c.Key), n)
		}
		return c.Key
	}
	raw, err := base64.StdEncoding.DecodeString(c.Keys)
	if err != nil || c.KeyBytes < 4 || len(raw) != c.KeyBytes*n {
		t.Fatalf("keys: %d bytes of %d for %d faces, %v", len(raw), c.KeyBytes, n, err)
	}
	keys := make([]string, n)
	for i := range keys {
		keys[i] = hex.EncodeToString(raw[c.KeyBytes*i : c.KeyBytes*(i+1)])
	}
	return keys
}

// sameFaces compares the JSON's faces with the decoded columns', field by field.
func sameFaces(t *testing.T, want, got []locations.Location) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d faces in the columns, %d in the JSON", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		snapshot := w.NewLocationSnapshot
		if snapshot == "" {
			snapshot = w.LocationSnapshot
		}
		if g.ID != w.ID || g.LocationName != w.LocationName || g.Market != w.Market || g.City != w.City || g.Face != w.Face ||
			g.NewLocationSnapshot != snapshot || g.Value != w.Value || g.Ooh != w.Ooh || g.Likely != w.Likely ||
			g.ExcludeMaximizeBudget != w.ExcludeMaximizeBudget || g.Location != w.Location ||
			math.Abs(g.Lat-w.Lat) > 0.6e-5 || math.Abs(g.Lng-w.Lng) > 0.6e-5 {
			t.Fatalf("face %d: columns %+v, JSON %+v", i, g, w)
		}
		if (w.Distance == nil) != (g.Distance == nil) || (w.Distance != nil && math.Abs(*g.Distance-*w.Distance) > 0.006) {
			t.Fatalf("face %d: distance %v, JSON %v", i, g.Distance, w.Distance)
		}
	}
}

// gzipSize is the size of body as the server would send it to a browser.
func gzipSize(t *testing.T, s *testkit.Server, path string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.URL+path, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("%s: %d, %q", path, res.StatusCode, res.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, zr); err != nil {
		t.Fatal(err)
	}
	return len(body)
}

// ?format=columns answers the same faces as the JSON in a fraction of the bytes, with no
// field the web app does not read.
func TestFacesInColumns(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, m := start(t, dialect)
		c := s.Client(t)
		generate(t, m, 600, "SF Bay Area", "Chicago")

		for _, q := range []string{"", "?market=" + url.QueryEscape("SF Bay Area"), "?market=Chicago&market=" + url.QueryEscape("SF Bay Area")} {
			var want []locations.Location
			c.Get("/api/od/locations/"+q).Expect(t, 200).JSON(t, &want)
			sep := "?"
			if q != "" {
				sep = "&"
			}
			res := c.Get("/api/od/locations/"+q+sep+"format=columns").Expect(t, 200)
			var cols locations.LocationColumns
			res.JSON(t, &cols)
			if cols.Keys == "" || cols.Key != nil {
				t.Fatalf("%s: the keys are not sent as UUID bytes", q)
			}
			var ids locations.LocationIDs
			c.Get("/api/od/locations/"+q+sep+"format=ids").Expect(t, 200).JSON(t, &ids)
			if ids.UUIDs == "" || ids.ID != nil {
				t.Fatalf("%s: the ids are not sent as UUID bytes", q)
			}
			sameFaces(t, want, decodeColumns(t, cols, ids))
			for _, unused := range []string{`"double_faced"`, `"other_face"`, `"location_snapshot"`, `"distance"`, `"uuids"`, `"id"`} {
				if bytes.Contains(res.Body, []byte(unused)) {
					t.Errorf("%s: the columns carry %s", q, unused)
				}
			}
		}

		// Around a place: the distances, nearest first as in the JSON.
		var preds []locations.PlacePrediction
		c.Get("/api/places/predictions?input=san%20francisco").Expect(t, 200).JSON(t, &preds)
		near := "/api/od/locations/?place=" + url.QueryEscape(preds[0].ID) + "&radius=25"
		var want []locations.Location
		c.Get(near).Expect(t, 200).JSON(t, &want)
		var cols locations.LocationColumns
		c.Get(near+"&format=columns").Expect(t, 200).JSON(t, &cols)
		if len(want) == 0 || cols.Distance == nil {
			t.Fatalf("%d faces near San Francisco, distances %v", len(want), cols.Distance)
		}
		var ids locations.LocationIDs
		c.Get(near+"&format=ids").Expect(t, 200).JSON(t, &ids)
		sameFaces(t, want, decodeColumns(t, cols, ids))

		// Every face of the catalogue has a key of its own, so an available spot's face id names
		// at most one face of any answer.
		var all []locations.Location
		c.Get("/api/od/locations/").Expect(t, 200).JSON(t, &all)
		c.Get("/api/od/locations/?format=columns").Expect(t, 200).JSON(t, &cols)
		seen := map[string]bool{}
		for _, l := range all {
			key := faceKey(l.ID, cols.KeyBytes)
			if seen[key] {
				t.Fatalf("two faces have the key %q (%d bytes)", key, cols.KeyBytes)
			}
			seen[key] = true
		}

		// A format the answer has none of is refused.
		c.Get("/api/od/locations/?format=xml").Expect(t, 400)

		// The bytes a browser receives for the map, the ids apart: under two fifths of the JSON's
		// compressed for these generated faces (37%; the demo's are under a third of what its JSON
		// was, docs/performance.md "The map at the speed of the landing page").
		jsonSize, colsSize := gzipSize(t, s, "/api/od/locations/"), gzipSize(t, s, "/api/od/locations/?format=columns")
		idsSize := len(c.Get("/api/od/locations/?format=ids").Expect(t, 200).Body) // under gzipAbove: sent as it is
		if colsSize*5 > jsonSize*2 {
			t.Errorf("columns %d bytes gzip'd, JSON %d: want under two fifths", colsSize, jsonSize)
		}
		t.Logf("1,200 faces: JSON %d bytes gzip'd, columns %d (%.0f%%), their ids %d", jsonSize, colsSize, 100*float64(colsSize)/float64(jsonSize), idsSize)
	})
}

// The faces are cached by ETag until they change: the same answer is a 304 with no body,
// a booking (which changes no face) keeps it, new faces make a new one.
func TestFacesETag(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, m := start(t, dialect)
		c := s.Client(t)
		generate(t, m, 30, "SF Bay Area")

		for _, path := range []string{"/api/od/locations/?format=columns", "/api/od/locations/?format=ids", "/api/od/locations/", "/api/od/locations/?market=" + url.QueryEscape("SF Bay Area")} {
			first := c.Get(path).Expect(t, 200)
			etag := first.Header.Get("ETag")
			if !strings.HasPrefix(etag, `"`) || first.Header.Get("Cache-Control") != "no-cache" {
				t.Fatalf("%s: ETag %q, Cache-Control %q", path, etag, first.Header.Get("Cache-Control"))
			}
			c.Header = http.Header{"If-None-Match": {etag}}
			again := c.Get(path).Expect(t, 304)
			if len(again.Body) != 0 || again.Header.Get("ETag") != etag {
				t.Fatalf("%s: 304 with %d bytes, ETag %q", path, len(again.Body), again.Header.Get("ETag"))
			}
			c.Header = http.Header{"If-None-Match": {`"other", W/` + etag}}
			c.Get(path).Expect(t, 304)
			c.Header = http.Header{"If-None-Match": {`"other"`}}
			if res := c.Get(path).Expect(t, 200); !bytes.Equal(res.Body, first.Body) {
				t.Fatalf("%s: another ETag got another body", path)
			}
			c.Header = nil
		}
		// The JSON and the columns are different answers, with different tags.
		if a, b := c.Get("/api/od/locations/").Header.Get("ETag"), c.Get("/api/od/locations/?format=columns").Header.Get("ETag"); a == b {
			t.Fatalf("the JSON and the columns share the ETag %q", a)
		}

		if a, b := c.Get("/api/od/locations/?format=ids").Header.Get("ETag"), c.Get("/api/od/locations/?format=columns").Header.Get("ETag"); a == b {
			t.Fatalf("the ids and the columns share the ETag %q", a)
		}

		path := "/api/od/locations/?format=columns"
		etag := c.Get(path).Expect(t, 200).Header.Get("ETag")
		var faces []locations.Location
		c.Get("/api/od/locations/").Expect(t, 200).JSON(t, &faces)
		if _, err := m.Service().Book(t.Context(), locations.ReserveRequest{Key: "etag", CompanyID: "c1", Items: []locations.FaceWeek{{FaceID: faces[0].ID, Week: week0}}}); err != nil {
			t.Fatal(err)
		}
		c.Header = http.Header{"If-None-Match": {etag}}
		c.Get(path).Expect(t, 304)

		// New faces: the tag changes and the answer has them.
		generate(t, m, 20, "Chicago")
		res := c.Get(path).Expect(t, 200)
		if res.Header.Get("ETag") == etag {
			t.Fatal("the ETag did not change with the faces")
		}
		var cols locations.LocationColumns
		res.JSON(t, &cols)
		if len(cols.Name) != 50 {
			t.Fatalf("%d faces after adding 20 to 30, want 50", len(cols.Name))
		}
		c.Header = http.Header{"If-None-Match": {res.Header.Get("ETag")}}
		c.Get(path).Expect(t, 304)
	})
}
