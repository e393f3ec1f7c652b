package screens

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/authz"
	"marquee/platform/dates"
	"marquee/platform/httpx"
	"marquee/platform/server"
)

// routes is the module's route table: the admin calls (session, admin role) and the device API
// (docs/screens.md), which the kernel mounts in its own group: no session, no CSRF header, no API
// key; every call but the pairing is signed by the screen's key.
func (m *Module) routes() server.RouteTable {
	limit := m.deps.MaxJSONBytes
	return server.RouteTable{
		server.POST("/api/admin/screens/pairing-codes", authz.Admin, httpx.CallBody(limit, m.svc.CreatePairingCode)).
			Doc("Make a single-use pairing code for a face (shown once, valid 24 h)", PairingCodeRequest{}, PairingCode{}).Answers(http.StatusCreated),
		server.GET("/api/admin/screens", authz.Admin, httpx.Call(m.svc.ListScreens)).
			Doc("Every paired screen: health, last seen, plays today against expected", nil, ScreenList{}),
		server.POST("/api/admin/screens/:id/revoke", authz.Admin, httpx.CallID(m.svc.RevokeScreen)).
			Doc("Revoke a screen: its calls answer 401 from now on", nil, Screen{}),

		server.POST("/api/admin/screens/imports", authz.Admin, m.importHandler).
			Params(ImportParams{}, nil).
			Doc("Import a CMS's proof-of-play export (multipart part file); the same file again answers its first report", server.Upload{Field: "file"}, ImportReport{}),
		server.GET("/api/admin/screens/imports", authz.Admin, httpx.Call(m.svc.ListImports)).
			Doc("The latest 50 imports, newest first", nil, ImportList{}),
		server.GET("/api/admin/screens/mappings", authz.Admin, httpx.Call(m.svc.ImportMappings)).
			Doc("The import mappings: CMS display to face, CMS media to campaign and creative", nil, Mappings{}),
		server.PUT("/api/admin/screens/mappings", authz.Admin, httpx.CallBody(limit, m.svc.SetImportMappings)).
			Doc("Set import mappings (an empty face_id or creative_id removes one)", Mappings{}, Mappings{}),

		server.POST("/api/device/pair", server.DeviceRole, m.pairHandler).DeviceOpen().
			Doc("Pair a player with a face: the single-use code and the player's Ed25519 public key", PairRequest{}, PairResult{}).Answers(http.StatusCreated),
		server.GET("/api/device/schedule", server.DeviceRole, m.scheduleHandler).Device().Params(ScheduleParams{}, nil).Revalidates().
			Doc("The face's schedule for a range of weeks (ETag / If-None-Match)", nil, Schedule{}),
		server.POST("/api/device/plays", server.DeviceRole, m.playsHandler).Device().
			Doc("A signed batch of at most 1,000 plays (idempotent by screen and seq)", PlaysBatch{}, PlaysResult{}),
		server.POST("/api/device/heartbeat", server.DeviceRole, m.heartbeatHandler).Device().
			Doc("A screen's heartbeat (204)", Heartbeat{}, nil).Answers(http.StatusNoContent),
		server.GET("/api/device/files/:token", server.DeviceRole, m.fileHandler).DeviceOpen().
			Doc("Download a scheduled creative (the schedule's short-lived URL)", nil, server.File{Types: []string{"image/jpeg", "image/png", "image/tiff", "image/webp", "application/octet-stream"}}),
	}
}

// pairHandler pairs a player. The code is the credential, so attempts are limited per IP.
func (m *Module) pairHandler(c *gin.Context) error {
	ok, _, _, err := m.deps.PairLimit.Take(c, c.ClientIP())
	if err != nil {
		return apperr.Internal(err)
	}
	if !ok {
		return apperr.New(apperr.ERATELIMIT, MsgPairRateLimit)
	}
	var req PairRequest
	if err := httpx.BindJSON(c, &req, 4<<10); err != nil {
		return err
	}
	out, err := m.svc.Pair(c, req)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

// scheduleHandler answers the schedule with a strong ETag of its body; a matching If-None-Match
// answers 304 without one.
func (m *Module) scheduleHandler(c *gin.Context) error {
	var from dates.Date
	if v := c.Query("from"); v != "" {
		d, err := dates.Parse(v)
		if err != nil {
			return apperr.Field("from", "Use YYYY-MM-DD.")
		}
		from = d
	}
	weeks := 2
	if v := c.Query("weeks"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 8 {
			return apperr.Field("weeks", "Weeks must be 1 to 8.")
		}
		weeks = n
	}
	out, err := m.svc.ScheduleOf(c, deviceOf(c), from, weeks)
	if err != nil {
		return err
	}
	body, err := json.Marshal(out)
	if err != nil {
		return apperr.Internal(err)
	}
	sum := sha256.Sum256(body)
	tag := `"` + hex.EncodeToString(sum[:16]) + `"`
	c.Header("ETag", tag)
	if c.GetHeader("If-None-Match") == tag {
		c.Status(http.StatusNotModified)
		return nil
	}
	c.Data(http.StatusOK, "application/json; charset=utf-8", body)
	return nil
}

func (m *Module) playsHandler(c *gin.Context) error {
	var req PlaysBatch
	if err := httpx.BindJSON(c, &req, MaxBodyBytes); err != nil {
		return err
	}
	out, err := m.svc.RecordPlays(c, deviceOf(c), req)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

func (m *Module) heartbeatHandler(c *gin.Context) error {
	var req Heartbeat
	if err := httpx.BindJSON(c, &req, 4<<10); err != nil {
		return err
	}
	if err := m.svc.RecordHeartbeat(c, deviceOf(c), req); err != nil {
		return err
	}
	httpx.Answer(c, nil)
	return nil
}

// fileHandler streams a scheduled creative to the player that holds a valid download token.
func (m *Module) fileHandler(c *gin.Context) error {
	rc, contentType, err := m.svc.openDownload(c, c.Param("token"))
	if err != nil {
		return err
	}
	defer rc.Close()
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	c.Header("Content-Type", contentType)
	c.Status(http.StatusOK)
	_, err = io.Copy(c.Writer, rc)
	return err
}

// importHandler streams an upload's file part to ImportFile (imports_upload.go reads the parts).
func (m *Module) importHandler(c *gin.Context) error {
	out, err := m.svc.importRequest(c)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}
