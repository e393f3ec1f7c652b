package creatives

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/httpx"
	"marquee/platform/pagination"
	"marquee/platform/server"
)

// routes lists every route of the module with the role that may call it: one table for Routes and
// Policy. Content management is admin-only (A §6); everything else is for any signed-in user, and
// the services scope it to the caller's company.
func (m *Module) routes() server.RouteTable {
	return server.RouteTable{
		server.POST("/upload_creative", authz.Member, m.uploadCreative).Params(SizedQuery{}, nil).Doc("Upload a creative image (jpeg or tif, 10 MB)", server.Upload{Field: "file"}, UploadedFile{}).V1("/creatives/uploads"),
		server.POST("/upload_creative_library", authz.Member, m.uploadWith(kindCreativeLibrary)).Doc("Upload images to the creative library", server.Upload{Field: "files", Many: true}, []UploadedFile{}).Params(CompanyQuery{}, nil),
		server.POST("/upload_temp", authz.Member, m.uploadWith(kindTemp)).Doc("Upload temporary files", server.Upload{Field: "files", Many: true}, []UploadedFile{}).Params(CompanyQuery{}, nil),
		server.POST("/upload_file", authz.Admin, m.uploadContent).Doc("Upload a content file (admin)", server.Upload{Field: "file"}, UploadedFile{}).Params(ContentUploadQuery{}, nil),
		server.POST("/upload_creative_image", authz.Member, m.uploadWith(kindCreativeImage)).Doc("Upload a creative image", server.Upload{Field: "file"}, UploadedFile{}).Params(CompanyQuery{}, nil),
		server.POST("/upload_report", authz.Admin, m.uploadWith(kindReport)).Doc("Upload a report file (admin)", server.Upload{Field: "file"}, UploadedFile{}).Params(CompanyQuery{}, nil),
		server.GET("/creative/image", authz.Member, func(c *gin.Context) error { return m.serveFile(c, false) }).Doc("A stored image of the company", nil, server.File{Types: storedTypes}).Params(FileQuery{}, nil),
		server.GET("/proof/image", authz.Member, func(c *gin.Context) error { return m.serveFile(c, true) }).Doc("A stored proof image", nil, server.File{Types: storedTypes}).Params(FileQuery{}, nil),

		server.GET("/api/contents/", authz.Member, m.listContentsHandler).Doc("The help contents", nil, pagination.Page[*Content]{}).Params(nil, &contentListSpec),
		server.POST("/api/contents/", authz.Admin, m.createContentHandler).Doc("Add a help content (admin, 201)", CreateContentRequest{}, Content{}).Answers(http.StatusCreated),
		server.PUT("/api/contents/:id", authz.Admin, m.updateContentHandler).Doc("Update a help content (admin)", UpdateContentRequest{}, Content{}),
		server.DELETE("/api/contents/:id", authz.Admin, m.deleteContentHandler).Doc("Delete a help content (admin)", nil, SuccessResponse{}),
		server.PUT("/api/contents/:id/relevant", authz.Admin, m.relevantHandler).Doc("Toggle a content as relevant (admin)", nil, Content{}),

		server.GET("/api/creatives/", authz.Member, m.listCreativesHandler).Params(CompanyQuery{}, &creativeListSpec).Doc("List the company's creatives", nil, pagination.Page[*Creative]{}).V1("/creatives"),
		server.GET("/api/creatives/size", authz.Member, m.sizeHandler).Doc("The creatives of an ad size", nil, []*Creative{}).Params(SizedQuery{}, nil),
		server.GET("/api/creatives/default", authz.Member, m.defaultHandler).Doc("The company's default creative, or null", nil, (*Creative)(nil)).Params(CompanyQuery{}, nil),
		server.PUT("/api/creatives/:id/default", authz.Member, m.setDefaultHandler).Doc("Make a creative the default", nil, Creative{}),
		server.POST("/api/creatives/", authz.Member, m.createCreativeHandler).Answers(http.StatusCreated).Doc("Make a creative of an uploaded image", CreateCreativeRequest{}, Creative{}).V1("/creatives"),
		server.DELETE("/api/creatives/:id", authz.Member, m.deleteCreativeHandler).Doc("Delete a creative", nil, SuccessResponse{}),

		server.POST("/users/creative", authz.Member, m.creativeRequestHandler).Doc("Ask for a creative to be designed", CreativeRequest{}, MessageResponse{}),
	}
}

func (m *Module) bind(c *gin.Context, v any) error { return httpx.BindJSON(c, v, m.deps.MaxJSONBytes) }

// uploadCreative is the creative dropzone (A §5): width and height, when given, are the face's ad
// size and the image must have it; an admin may upload for another company (B §2).
func (m *Module) uploadCreative(c *gin.Context) error {
	k := kindCreative
	w, h := c.Query("width"), c.Query("height")
	if w != "" || h != "" {
		wi, errW := strconv.Atoi(w)
		hi, errH := strconv.Atoi(h)
		if errW != nil || errH != nil || wi < 1 || hi < 1 || wi > MaxImageSide || hi > MaxImageSide {
			return apperr.Field("width", MsgBadSize)
		}
		k.wantW, k.wantH, k.sizeMsg = wi, hi, MsgCreativeSize
	}
	return m.upload(c, k)
}

// uploadContent is /upload_file?type=image|video|document: the chosen type narrows what is taken.
func (m *Module) uploadContent(c *gin.Context) error {
	family := c.Query("type")
	if family == ContentLegacyDoc {
		family = ContentDocument
	}
	if family != "" && family != ContentImage && family != ContentVideo && family != ContentDocument {
		return apperr.Field("type", "type is image, video or document.")
	}
	return m.upload(c, contentKind(family))
}

func (m *Module) uploadWith(k uploadKind) httpx.HandlerFunc {
	return func(c *gin.Context) error { return m.upload(c, k) }
}

// upload reads the multipart body part by part (never parsed into memory), with the whole body
// capped too, then stores and registers the files. One-file kinds answer an UploadedFile, the
// others a list.
func (m *Module) upload(c *gin.Context, k uploadKind) error {
	p := auth.Current(c)
	o := owner{companyID: p.CompanyID, uploaderID: p.UserID}
	if company := c.Query("company"); company != "" && p.IsAdmin() && k.kind != KindContent && k.kind != KindReport {
		id, err := m.companyScope(c, p, company)
		if err != nil {
			return err
		}
		o.companyID = id
	}
	// A company whose storage is full is refused before its body is read; save checks again with
	// the files' sizes.
	if err := m.uploads.checkQuota(c, k, o, 1); err != nil {
		return err
	}
	// The parts' headers and boundaries add a little to the files themselves.
	bodyMax := min(int64(k.maxFiles)*k.maxBytes, m.deps.Limits.RequestMaxBytes) + (1 << 20)
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, bodyMax)
	mr, err := c.Request.MultipartReader()
	if err != nil {
		return apperr.New(apperr.EINVALID, MsgNoFile)
	}
	files, err := m.uploads.readParts(c, k, o, mr)
	if err != nil {
		return err
	}
	defer func() {
		for _, s := range files {
			s.close()
		}
	}()
	rows, err := m.uploads.save(c, k, o, files)
	if err != nil {
		return err
	}
	if k.maxFiles == 1 {
		httpx.OK(c, uploadedDTO(rows[0]))
		return nil
	}
	out := make([]UploadedFile, 0, len(rows))
	for _, r := range rows {
		out = append(out, uploadedDTO(r))
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) listContentsHandler(c *gin.Context) error {
	params, err := pagination.Parse(c, contentListSpec)
	if err != nil {
		return err
	}
	page, err := m.listContents(c, auth.Current(c), params)
	if err != nil {
		return err
	}
	httpx.OK(c, page)
	return nil
}

func (m *Module) createContentHandler(c *gin.Context) error {
	var req CreateContentRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	out, err := m.createContent(c, auth.Current(c), req)
	if err != nil {
		return err
	}
	httpx.JSON(c, http.StatusCreated, out)
	return nil
}

func (m *Module) updateContentHandler(c *gin.Context) error {
	var req UpdateContentRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	if req.ID != "" && req.ID != c.Param("id") {
		return apperr.Field("id", "The id does not match the address.")
	}
	out, err := m.updateContent(c, c.Param("id"), req)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) deleteContentHandler(c *gin.Context) error {
	if err := m.deleteContent(c, c.Param("id")); err != nil {
		return err
	}
	httpx.OK(c, SuccessResponse{Success: true})
	return nil
}

func (m *Module) relevantHandler(c *gin.Context) error {
	out, err := m.markRelevant(c, c.Param("id"))
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) listCreativesHandler(c *gin.Context) error {
	params, err := pagination.Parse(c, creativeListSpec)
	if err != nil {
		return err
	}
	page, err := m.listCreatives(c, auth.Current(c), c.Query("company"), params)
	if err != nil {
		return err
	}
	httpx.OK(c, page)
	return nil
}

func (m *Module) sizeHandler(c *gin.Context) error {
	w, errW := strconv.Atoi(c.Query("width"))
	h, errH := strconv.Atoi(c.Query("height"))
	if errW != nil || errH != nil || w < 1 || h < 1 {
		return apperr.Field("width", MsgBadSize)
	}
	out, err := m.creativesOfSize(c, auth.Current(c), c.Query("company"), w, h)
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

// defaultHandler answers the company's default creative, or null when it has none (not an error:
// the selector then simply offers no default).
func (m *Module) defaultHandler(c *gin.Context) error {
	out, err := m.defaultCreative(c, auth.Current(c), c.Query("company"))
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) setDefaultHandler(c *gin.Context) error {
	out, err := m.setDefault(c, auth.Current(c), c.Param("id"))
	if err != nil {
		return err
	}
	httpx.OK(c, out)
	return nil
}

func (m *Module) createCreativeHandler(c *gin.Context) error {
	var req CreateCreativeRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	out, err := m.createCreative(c, auth.Current(c), req)
	if err != nil {
		return err
	}
	httpx.JSON(c, http.StatusCreated, out)
	return nil
}

func (m *Module) deleteCreativeHandler(c *gin.Context) error {
	if err := m.deleteCreative(c, auth.Current(c), c.Param("id")); err != nil {
		return err
	}
	httpx.OK(c, SuccessResponse{Success: true})
	return nil
}

// creativeRequestHandler sends the creative request (A §4, §8) through the outbox: one email to the
// operations team, a copy to the signed-in user. Rate limited per user.
func (m *Module) creativeRequestHandler(c *gin.Context) error {
	p := auth.Current(c)
	var req CreativeRequest
	if err := m.bind(c, &req); err != nil {
		return err
	}
	if err := m.requestCreative(c, p, req); err != nil {
		return err
	}
	httpx.OK(c, MessageResponse{Success: true, Message: MsgCreativeRequested})
	return nil
}
