package locations_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
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

// decodeColumns is the web app's decoder (platform/map/faceColumns.ts) in Go: it turns the
// columns back into the faces they encode, with the fields the columns carry.
func decodeColumns(t *testing.T, c locations.LocationColumns) []locations.Location {
	t.Helper()
	if c.Format != locations.LocationColumnsFormat {
		t.Fatalf("format %d", c.Format)
	}
	n := len(c.Name)
	ids := c.ID
	if c.UUIDs != "" {
		raw, err := base64.StdEncoding.DecodeString(c.UUIDs)
		if err != nil || len(raw) != 16*n {
			t.Fatalf("uuids: %d bytes for %d faces, %v", len(raw), n, err)
		}
		ids = make([]string, n)
		for i := range ids {
			ids[i] = uuid.UUID(raw[16*i : 16*i+16]).String()
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
			if cols.UUIDs == "" || cols.ID != nil {
				t.Fatalf("%s: the ids are not sent as UUID bytes", q)
			}
			sameFaces(t, want, decodeColumns(t, cols))
			for _, unused := range []string{`"double_faced"`, `"other_face"`, `"location_snapshot"`, `"distance"`} {
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
		sameFaces(t, want, decodeColumns(t, cols))

		// The bytes a browser receives: under two thirds of the JSON's compressed as well (64% for
		// these generated faces; 44% of what the demo's JSON alone was, docs/performance.md).
		jsonSize, colsSize := gzipSize(t, s, "/api/od/locations/"), gzipSize(t, s, "/api/od/locations/?format=columns")
		if colsSize*3 > jsonSize*2 {
			t.Errorf("columns %d bytes gzip'd, JSON %d: want under two thirds", colsSize, jsonSize)
		}
		t.Logf("1,200 faces: JSON %d bytes gzip'd, columns %d (%.0f%%)", jsonSize, colsSize, 100*float64(colsSize)/float64(jsonSize))
	})
}

// The faces are cached by ETag until they change: the same answer is a 304 with no body,
// a booking (which changes no face) keeps it, new faces make a new one.
func TestFacesETag(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, m := start(t, dialect)
		c := s.Client(t)
		generate(t, m, 30, "SF Bay Area")

		for _, path := range []string{"/api/od/locations/?format=columns", "/api/od/locations/", "/api/od/locations/?market=" + url.QueryEscape("SF Bay Area")} {
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
