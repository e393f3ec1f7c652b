package locations

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

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
		server.GET("/api/markets/", authz.Anonymous, m.marketsHandler).Doc("List the markets with their cities", nil, []Market{}).V1("/markets"),
		server.GET("/api/od/locations/", authz.Anonymous, m.locationsHandler).Revalidates().Doc("The faces, by market or around a place", nil, server.AnyOf{[]Location{}, LocationColumns{}, LocationIDs{}}).Params(LocationsQuery{}, nil),
		server.GET("/api/od/snapshots/:name", authz.Anonymous, m.snapshotHandler).Doc("A face's placeholder picture", nil, server.File{Types: []string{"image/svg+xml"}}),
		server.GET("/api/od/photos/:name", authz.Anonymous, m.photoHandler).Doc("A face photo: a demo one (PNG) or one an admin uploaded (JPEG)", nil, server.File{Types: []string{"image/png", "image/jpeg"}}),
		server.GET("/api/admin/faces/:id", authz.Admin, httpx.CallID(m.svc.adminFace)).Doc("A face with its geometry, for the face editor (admin)", nil, Location{}),
		server.POST("/api/admin/faces/:id/photo", authz.Admin, m.facePhotoHandler).Doc("Give a face a photo (admin): an image in part file; its corners are cleared", server.Upload{Field: "file"}, Location{}),
		server.PUT("/api/admin/faces/:id/geometry", authz.Admin, httpx.CallIDBody(m.deps.MaxJSONBytes, m.svc.updateFaceGeometry)).Doc("Set a face's size, resolution, viewing distance class and photo corners (admin)", FaceGeometryUpdate{}, Location{}),
		server.PUT("/api/admin/faces/:id/hours", authz.Admin, httpx.CallIDBody(m.deps.MaxJSONBytes, m.svc.updateFaceHours)).Doc("Set a face's time zone and operating hours (admin)", FaceHoursUpdate{}, Location{}),
		server.POST("/api/available-spots/", authz.Anonymous, m.availableSpotsHandler).Doc("A week's available spots (faces) in some markets", AvailableSpotsRequest{}, []AvailableSpot{}).
			Example(availableSpotsExample).V1Read("/available-spots"),
		server.GET("/api/places/predictions", authz.Anonymous, m.placePredictionsHandler).Doc("Place predictions for a search box", nil, []PlacePrediction{}).Params(PredictionsQuery{}, nil),
		server.GET("/api/places/details", authz.Anonymous, m.placeDetailsHandler).Doc("A predicted place's details", nil, PlaceDetails{}).Params(PlaceQuery{}, nil),
		server.GET("/api/map/config", authz.Anonymous, httpx.Call(m.svc.mapConfig)).Doc("The map's settings", nil, MapConfig{}),
		server.GET("/api/calendar/locations", authz.User, m.calendarLocationsHandler).Doc("The company's calendar faces", nil, []CalendarLocation{}).Params(MarketsQuery{}, nil),
		server.PUT("/api/calendar/week", authz.User, httpx.CallBody(m.deps.MaxJSONBytes, m.svc.setWeekActive)).Doc("Set a calendar week's status", SetWeekStatusRequest{}, Spot{}),
		server.DELETE("/api/calendar/week", authz.User, m.calendarDeleteWeekHandler).Doc("Delete a calendar week", nil, DeletedResponse{}).Params(WeekQuery{}, nil),
		server.DELETE("/api/calendar/campaigns/:ref", authz.User, m.calendarDeleteCampaignHandler).Doc("Release a campaign's calendar weeks", nil, DeletedResponse{}),
	}
}

func (m *Module) marketsHandler(c *gin.Context) error {
	ms, err := m.svc.Markets(c)
	if err != nil {
		return err
	}
	httpx.Answer(c, ms)
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

// acceptsGzip says whether the client takes a gzip'd answer.
func acceptsGzip(c *gin.Context) bool {
	return strings.Contains(c.GetHeader("Accept-Encoding"), "gzip")
}

// locationsHandler answers the faces, as the spec's Location marker data (A §3) or, with
// ?format=columns, in the web app's compact form (LocationColumns), or with ?format=ids their ids
// (LocationIDs); each with an ETag, and 304
// when the browser has it (faceAnswer.send).
func (m *Module) locationsHandler(c *gin.Context) error {
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
	form := c.Query("format")
	if form != formJSON && form != formColumns && form != formIDs {
		return apperr.Field("format", MsgFormatInvalid)
	}
	a, err := m.svc.locationsAnswer(c, q, form)
	if err != nil {
		return err
	}
	a.send(c)
	return nil
}

// availableSpotsHandler answers the week's spots already encoded (appendSpots), gzip'd for a client
// that takes it.
func (m *Module) availableSpotsHandler(c *gin.Context) error {
	var req AvailableSpotsRequest
	if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
		return err
	}
	a, err := m.svc.availableSpotsAnswer(c, req)
	if err != nil {
		return err
	}
	c.Header("Vary", "Accept-Encoding")
	if a.gz != nil && acceptsGzip(c) {
		c.Header("Content-Encoding", "gzip")
		c.Data(http.StatusOK, "application/json; charset=utf-8", a.gz)
		return nil
	}
	c.Data(http.StatusOK, "application/json; charset=utf-8", a.body)
	return nil
}

func (m *Module) placePredictionsHandler(c *gin.Context) error {
	httpx.Answer(c, m.svc.places.predictions(c, c.Query("input"), c.ClientIP()))
	return nil
}

func (m *Module) placeDetailsHandler(c *gin.Context) error {
	id := strings.TrimSpace(c.Query("id"))
	if id == "" {
		return apperr.Field("place", MsgPlaceRequired)
	}
	d, err := m.svc.places.details(id)
	if err != nil {
		return err
	}
	httpx.Answer(c, d)
	return nil
}

// snapshotColours are the sky colours of the placeholder snapshots, one per variant.
var snapshotColours = []string{"#7fb3d5", "#f5b041", "#85c1e9", "#d98880", "#a9cce3", "#f8c471", "#76d7c4", "#bb8fce"}

// snapshotHandler serves a face's placeholder photo: an SVG billboard drawn here, so the demo needs
// no image host. Names are billboard-<n>.svg.
func (m *Module) snapshotHandler(c *gin.Context) error {
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

func (m *Module) calendarLocationsHandler(c *gin.Context) error {
	ls, err := m.svc.calendarLocations(c, auth.Current(c), queryList(c, "market"))
	if err != nil {
		return err
	}
	httpx.Answer(c, ls)
	return nil
}

func (m *Module) calendarDeleteWeekHandler(c *gin.Context) error {
	out, err := m.svc.deleteWeek(c, auth.Current(c), strings.TrimSpace(c.Query("id")))
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

func (m *Module) calendarDeleteCampaignHandler(c *gin.Context) error {
	out, err := m.svc.deleteReservedCampaign(c, auth.Current(c), c.Param("ref"))
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

// photoHandler serves a face photo: a demo one (PNG) or an uploaded one (face_photo.go).
func (m *Module) photoHandler(c *gin.Context) error {
	n, ok := demoPhotoVariant(c.Param("name"))
	if !ok {
		// An uploaded photo: a new photo has a new name, so it may be cached for good.
		rc, size, err := m.svc.openUploadedPhoto(c, c.Param("name"))
		if err != nil {
			return err
		}
		defer rc.Close()
		c.Header("Cache-Control", "public, max-age=31536000, immutable")
		c.DataFromReader(http.StatusOK, size, "image/jpeg", rc, nil)
		return nil
	}
	c.Header("Cache-Control", "public, max-age=86400")
	c.Data(http.StatusOK, "image/png", demoPhoto(n).png)
	return nil
}

// facePhotoHandler is POST /api/admin/faces/{id}/photo (face_photo.go): the image in part "file",
// read as it streams (the body is capped, never parsed into memory). An unknown face answers
// before a byte of the body is read.
func (m *Module) facePhotoHandler(c *gin.Context) error {
	id := c.Param("id")
	if _, err := m.svc.adminFace(c, nil, id); err != nil {
		return err
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, MaxFacePhotoBytes+(1<<20))
	mr, err := c.Request.MultipartReader()
	if err != nil {
		return apperr.New(apperr.EINVALID, MsgFacePhotoMissing)
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return apperr.New(apperr.EINVALID, MsgFacePhotoMissing)
		}
		if err != nil {
			return photoReadError(err)
		}
		if part.FormName() != "file" || part.FileName() == "" {
			_ = part.Close()
			continue
		}
		out, err := m.svc.uploadFacePhoto(c, auth.Current(c), id, part)
		_ = part.Close()
		if err != nil {
			return err
		}
		httpx.Answer(c, out)
		return nil
	}
}
