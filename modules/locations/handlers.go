package locations

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"
	// klauspost's gzip writes the same format as the standard library's, in about half the CPU: the
	// available spots are compressed again after every booking (issue 30).
	"github.com/klauspost/compress/gzip"

	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/httpx"
	"marquee/platform/server"
)

// routes lists every route of the module with the role that may call it: one table for Routes and
// Policy. The read calls are public because the public /locations page uses them; the calendar
// operations (B §7, DESIGN.md §1.1) are a regular user's, scoped to their company.
func (m *Module) routes() server.RouteTable {
	return server.RouteTable{
		server.GET("/api/markets/", authz.Anonymous, m.markets).Doc("List the markets with their cities", nil, []Market{}).V1("/markets"),
		server.GET("/api/od/locations/", authz.Anonymous, m.locations).Doc("The faces, by market or around a place", nil, server.AnyOf{[]Location{}, LocationColumns{}}).Params(LocationsQuery{}, nil),
		server.GET("/api/od/snapshots/:name", authz.Anonymous, m.snapshot).Doc("A face's placeholder picture", nil, server.File{Types: []string{"image/svg+xml"}}),
		server.POST("/api/available-spots/", authz.Anonymous, m.availableSpots).Doc("A week's available spots (faces) in some markets", AvailableSpotsRequest{}, []AvailableSpot{}).
			Example(availableSpotsExample).V1Read("/available-spots"),
		server.GET("/api/places/predictions", authz.Anonymous, m.placePredictions).Doc("Place predictions for a search box", nil, []PlacePrediction{}).Params(PredictionsQuery{}, nil),
		server.GET("/api/places/details", authz.Anonymous, m.placeDetails).Doc("A predicted place's details", nil, PlaceDetails{}).Params(PlaceQuery{}, nil),
		server.GET("/api/map/config", authz.Anonymous, m.mapConfig).Doc("The map's settings", nil, MapConfig{}),
		server.GET("/api/calendar/locations", authz.User, m.calendarLocations).Doc("The company's calendar faces", nil, []CalendarLocation{}).Params(MarketsQuery{}, nil),
		server.PUT("/api/calendar/week", authz.User, m.calendarSetWeek).Doc("Set a calendar week's status", SetWeekStatusRequest{}, Spot{}),
		server.DELETE("/api/calendar/week", authz.User, m.calendarDeleteWeek).Doc("Delete a calendar week", nil, DeletedResponse{}).Params(WeekQuery{}, nil),
		server.DELETE("/api/calendar/campaigns/:ref", authz.User, m.calendarDeleteCampaign).Doc("Release a campaign's calendar weeks", nil, DeletedResponse{}),
	}
}

// gzipAbove is the size above which a JSON answer is compressed for a client that accepts gzip: the
// face list of a whole country is megabytes of JSON and compresses about tenfold.
const gzipAbove = 32 << 10

func acceptsGzip(c *gin.Context) bool {
	return strings.Contains(c.GetHeader("Accept-Encoding"), "gzip")
}

// gzipped compresses body with a pooled writer.
func gzipped(body []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(body) / 4)
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
	_, _ = zw.Write(body) // writing to memory does not fail
	_ = zw.Close()
	return buf.Bytes()
}

// gzipWriters are reused: a compressor's state is hundreds of kilobytes to allocate.
var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return zw
}}

func (m *Module) markets(c *gin.Context) error {
	ms, err := m.inventory.Markets(c)
	if err != nil {
		return err
	}
	httpx.OK(c, ms)
	return nil
}

// queryList reads a repeatable query parameter whose values may also be comma lists.
func queryList(c *gin.Context, name string) []string {
	var out []string
	for _, v := range c.QueryArray(name) {
		out = append(out, splitList(v)...)
	}
	return out
}

func (m *Module) locations(c *gin.Context) error {
	q := LocationQuery{Markets: queryList(c, "market"), PlaceID: strings.TrimSpace(c.Query("place"))}
	if r := strings.TrimSpace(c.Query("radius")); r != "" {
		n, err := strconv.Atoi(r)
		if err != nil || !ValidRadius(n) {
			return apperr.Field("radius", MsgRadiusInvalid)
		}
		q.Radius = n
	}
	if c.Request.URL.Query().Has("place") && q.PlaceID == "" {
		return apperr.Field("place", MsgPlaceRequired)
	}
	// ?format=columns is the web app's compact form (LocationColumns, issue 30); without it, the
	// faces as the spec's Location marker data (A §3).
	columns := c.Query("format") == "columns"
	version, err := m.inventory.store.CatalogueVersion(c)
	if err != nil {
		return apperr.Internal(err)
	}
	a, err := m.faces.answer(faceAnswerKey(columns, q), version, func() (any, error) {
		ls, err := m.inventory.Locations(c, q)
		if err != nil || !columns {
			return ls, err
		}
		return toColumns(ls), nil
	})
	if err != nil {
		return err
	}
	a.send(c)
	return nil
}

func (m *Module) availableSpots(c *gin.Context) error {
	var req AvailableSpotsRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	q, err := m.inventory.weekSpots(c, req)
	if err != nil {
		return err
	}
	a := m.inventory.answers.answer(q)
	c.Header("Vary", "Accept-Encoding")
	if a.gz != nil && acceptsGzip(c) {
		c.Header("Content-Encoding", "gzip")
		c.Data(http.StatusOK, "application/json; charset=utf-8", a.gz)
		return nil
	}
	c.Data(http.StatusOK, "application/json; charset=utf-8", a.body)
	return nil
}

func (m *Module) placePredictions(c *gin.Context) error {
	httpx.OK(c, m.places.predictions(c, c.Query("input"), c.ClientIP()))
	return nil
}

func (m *Module) placeDetails(c *gin.Context) error {
	id := strings.TrimSpace(c.Query("id"))
	if id == "" {
		return apperr.Field("place", MsgPlaceRequired)
	}
	d, err := m.places.details(id)
	if err != nil {
		return err
	}
	httpx.OK(c, d)
	return nil
}

func (m *Module) mapConfig(c *gin.Context) error {
	httpx.OK(c, MapConfig{TileURL: m.deps.TileURL, Attribution: m.deps.TileAttribution, Offline: !m.tiles.reachable(c)})
	return nil
}

// snapshotColours are the sky colours of the placeholder snapshots, one per variant.
var snapshotColours = []string{"#7fb3d5", "#f5b041", "#85c1e9", "#d98880", "#a9cce3", "#f8c471", "#76d7c4", "#bb8fce"}

// snapshot serves a face's placeholder photo: an SVG billboard drawn here, so the demo needs no
// image host. Names are billboard-<n>.svg.
func (m *Module) snapshot(c *gin.Context) error {
	var n int
	if _, err := fmt.Sscanf(c.Param("name"), "billboard-%d.svg", &n); err != nil || n < 0 || n >= len(snapshotColours) || c.Param("name") != fmt.Sprintf("billboard-%d.svg", n) {
		return apperr.NotFound("Not found.")
	}
	svg := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 200" role="img" aria-label="Billboard">`+
		`<rect width="320" height="200" fill="%s"/><rect y="150" width="320" height="50" fill="#5d6d7e"/>`+
		`<rect x="150" y="95" width="20" height="80" fill="#424949"/><rect x="60" y="30" width="200" height="80" fill="#1b2631"/>`+
		`<rect x="66" y="36" width="188" height="68" fill="#f4f6f7"/><text x="160" y="78" font-family="sans-serif" font-size="20" text-anchor="middle" fill="#1b2631">Your ad here</text></svg>`,
		snapshotColours[n])
	c.Header("Cache-Control", "public, max-age=86400")
	c.Data(http.StatusOK, "image/svg+xml", []byte(svg))
	return nil
}

func (m *Module) calendarLocations(c *gin.Context) error {
	ls, err := m.inventory.calendarLocations(c, auth.Current(c).CompanyID, queryList(c, "market"))
	if err != nil {
		return err
	}
	httpx.OK(c, ls)
	return nil
}

func (m *Module) calendarSetWeek(c *gin.Context) error {
	var req SetWeekStatusRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	sp, err := m.inventory.setWeekActive(c, auth.Current(c).CompanyID, req)
	if err != nil {
		return err
	}
	httpx.OK(c, sp)
	return nil
}

func (m *Module) calendarDeleteWeek(c *gin.Context) error {
	if err := m.inventory.deleteWeek(c, auth.Current(c).CompanyID, strings.TrimSpace(c.Query("id"))); err != nil {
		return err
	}
	httpx.OK(c, DeletedResponse{Success: true, Deleted: 1})
	return nil
}

func (m *Module) calendarDeleteCampaign(c *gin.Context) error {
	n, err := m.inventory.deleteReservedCampaign(c, auth.Current(c).CompanyID, c.Param("ref"))
	if err != nil {
		return err
	}
	httpx.OK(c, DeletedResponse{Success: true, Deleted: n})
	return nil
}

// appendSpots writes spots as encoding/json would (a test checks they agree), about five times
// faster: POST /api/available-spots/ answers thousands of them, and its time budget is 50 ms.
func appendSpots(b []byte, spots []AvailableSpot) []byte {
	b = append(b, '[')
	for i := range spots {
		s := &spots[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"xxx":`...)
		b = appendString(b, s.Xxx)
		b = append(b, `,"used_spots":`...)
		b = strconv.AppendInt(b, int64(s.UsedSpots), 10)
		b = append(b, `,"available_spots":`...)
		b = strconv.AppendInt(b, int64(s.AvailableSpots), 10)
		b = append(b, `,"min_value":`...)
		b = appendDollars(b, int64(s.MinValue))
		b = append(b, `,"min_value_2":`...)
		b = appendDollars(b, int64(s.MinValue2))
		b = append(b, `,"vendor_tier":`...)
		b = strconv.AppendInt(b, int64(s.VendorTier), 10)
		b = append(b, `,"old_value":`...)
		b = appendDollars(b, int64(s.OldValue))
		b = append(b, `,"ooh":`...)
		b = strconv.AppendInt(b, s.Ooh, 10)
		b = append(b, `,"available":`...)
		b = strconv.AppendBool(b, s.Available)
		b = append(b, `,"price":`...)
		b = appendDollars(b, int64(s.Price))
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendDollars writes cents as money.Cents's JSON does: dollars, with two decimals only when there
// are cents.
func appendDollars(b []byte, cents int64) []byte {
	if cents < 0 {
		b = append(b, '-')
		cents = -cents
	}
	b = strconv.AppendInt(b, cents/100, 10)
	if c := cents % 100; c != 0 {
		b = append(b, '.', byte('0'+c/10), byte('0'+c%10))
	}
	return b
}

// appendString writes a JSON string: plain ASCII as it is (face ids are UUIDs), anything else
// through encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
