package creatives

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

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
	limit := m.deps.MaxJSONBytes
	return server.RouteTable{
		server.POST("/upload_creative", authz.Member, m.uploadCreativeHandler).Params(SizedQuery{}, nil).Doc("Upload a creative image (jpeg or tif, 10 MB)", server.Upload{Field: "file"}, UploadedFile{}).V1("/creatives/uploads"),
		server.POST("/upload_creative_library", authz.Member, m.uploadHandler(kindCreativeLibrary)).Doc("Upload images to the creative library", server.Upload{Field: "files", Many: true}, []UploadedFile{}).Params(CompanyQuery{}, nil),
		server.POST("/upload_temp", authz.Member, m.uploadHandler(kindTemp)).Doc("Upload temporary files", server.Upload{Field: "files", Many: true}, []UploadedFile{}).Params(CompanyQuery{}, nil),
		server.POST("/upload_file", authz.Admin, m.uploadContentHandler).Doc("Upload a content file (admin)", server.Upload{Field: "file"}, UploadedFile{}).Params(ContentUploadQuery{}, nil),
		server.POST("/upload_creative_image", authz.Member, m.uploadHandler(kindCreativeImage)).Doc("Upload a creative image", server.Upload{Field: "file"}, UploadedFile{}).Params(CompanyQuery{}, nil),
		server.POST("/upload_report", authz.Admin, m.uploadHandler(kindReport)).Doc("Upload a report file (admin)", server.Upload{Field: "file"}, UploadedFile{}).Params(CompanyQuery{}, nil),
		server.GET("/creative/image", authz.Member, m.fileHandler(false)).Doc("A stored image of the company", nil, server.File{Types: storedTypes}).Params(FileQuery{}, nil),
		server.GET("/proof/image", authz.Member, m.fileHandler(true)).Doc("A stored proof image", nil, server.File{Types: storedTypes}).Params(FileQuery{}, nil),

		server.GET("/api/contents/", authz.Member, m.listContentsHandler).Doc("The help contents", nil, pagination.Page[*Content]{}).Params(nil, &contentListSpec),
		server.POST("/api/contents/", authz.Admin, httpx.CallBody(limit, m.svc.createContent)).Doc("Add a help content (admin, 201)", CreateContentRequest{}, Content{}).Answers(http.StatusCreated),
		server.PUT("/api/contents/:id", authz.Admin, httpx.CallIDBody(limit, m.svc.updateContent)).Doc("Update a help content (admin)", UpdateContentRequest{}, Content{}),
		server.DELETE("/api/contents/:id", authz.Admin, httpx.CallID(m.svc.deleteContent)).Doc("Delete a help content (admin)", nil, SuccessResponse{}),
		server.PUT("/api/contents/:id/relevant", authz.Admin, httpx.CallID(m.svc.markRelevant)).Doc("Toggle a content as relevant (admin)", nil, Content{}),

		server.GET("/api/creatives/", authz.Member, m.listCreativesHandler).Params(CompanyQuery{}, &creativeListSpec).Doc("List the company's creatives", nil, pagination.Page[*Creative]{}).V1("/creatives"),
		server.GET("/api/creatives/size", authz.Member, m.sizeHandler).Doc("The creatives of an ad size", nil, []*Creative{}).Params(SizedQuery{}, nil),
		server.GET("/api/creatives/default", authz.Member, m.defaultHandler).Doc("The company's default creative, or null", nil, (*Creative)(nil)).Params(CompanyQuery{}, nil),
		server.PUT("/api/creatives/:id/default", authz.Member, httpx.CallID(m.svc.setDefault)).Doc("Make a creative the default", nil, Creative{}),
		server.POST("/api/creatives/", authz.Member, httpx.CallBody(limit, m.svc.createCreative)).Answers(http.StatusCreated).Doc("Make a creative of an uploaded image", CreateCreativeRequest{}, Creative{}).V1("/creatives"),
		server.DELETE("/api/creatives/:id", authz.Member, httpx.CallID(m.svc.deleteCreative)).Doc("Delete a creative", nil, SuccessResponse{}),
		server.POST("/api/creatives/preflight", authz.Member, m.preflightHandler).Params(PreflightUploadQuery{}, nil).
			Doc("Pre-flight a creative on faces: JSON {creative_id, face_ids}, or a multipart image in field file with ?face_ids=", server.Upload{Field: "file", JSON: PreflightRequest{}}, PreflightReport{}).V1Read("/creatives/preflight"),
		server.GET("/api/creatives/:id/preview", authz.Member, m.previewHandler).Params(PreviewQuery{}, nil).
			Doc("The creative on a face's photo, by day or night, or as a driver sees it (PNG)", nil, server.File{Types: []string{"image/png"}}).V1("/creatives/:id/preview"),

		server.POST("/users/creative", authz.Member, httpx.CallBody(limit, m.svc.requestCreative)).Doc("Ask for a creative to be designed", CreativeRequest{}, MessageResponse{}),
	}
}

// uploadCreativeHandler is the creative dropzone (A §5): width and height, when given, are the
// face's ad size and the image must have it; an admin may upload for another company (B §2).
func (m *Module) uploadCreativeHandler(c *gin.Context) error {
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
	return m.uploadHandler(k)(c)
}

// uploadContentHandler is /upload_file?type=image|video|document: the chosen type narrows what is
// taken.
func (m *Module) uploadContentHandler(c *gin.Context) error {
	family := c.Query("type")
	if family == ContentLegacyDoc {
		family = ContentDocument
	}
	if family != "" && family != ContentImage && family != ContentVideo && family != ContentDocument {
		return apperr.Field("type", "type is image, video or document.")
	}
	return m.uploadHandler(contentKind(family))(c)
}

// uploadHandler is the upload of one kind of file. It reads the multipart body part by part (never
// parsed into memory), with the whole body capped too, then stores and registers the files.
// One-file kinds answer an UploadedFile, the others a list.
func (m *Module) uploadHandler(k uploadKind) httpx.HandlerFunc {
	return func(c *gin.Context) error {
		p := auth.Current(c)
		o := owner{companyID: p.CompanyID, uploaderID: p.UserID}
		if company := c.Query("company"); company != "" && p.IsAdmin() && k.kind != KindContent && k.kind != KindReport {
			id, err := m.svc.companyScope(c, p, company)
			if err != nil {
				return err
			}
			o.companyID = id
		}
		uploads := m.svc.uploads
		// A company whose storage is full is refused before its body is read; save checks again with
		// the files' sizes.
		if err := uploads.checkQuota(c, k, o, 1); err != nil {
			return err
		}
		// The parts' headers and boundaries add a little to the files themselves.
		bodyMax := min(int64(k.maxFiles)*k.maxBytes, m.deps.Limits.RequestMaxBytes) + (1 << 20)
		c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, bodyMax)
		mr, err := c.Request.MultipartReader()
		if err != nil {
			return apperr.New(apperr.EINVALID, MsgNoFile)
		}
		files, err := uploads.readParts(c, k, o, mr)
		if err != nil {
			return err
		}
		defer func() {
			for _, s := range files {
				s.close()
			}
		}()
		rows, err := uploads.save(c, k, o, files)
		if err != nil {
			return err
		}
		if k.maxFiles == 1 {
			out := uploadedDTO(rows[0])
			if k.analyse {
				out.Preflight = fileReport(rows[0])
			}
			httpx.Answer(c, out)
			return nil
		}
		out := make([]UploadedFile, 0, len(rows))
		for _, r := range rows {
			out = append(out, uploadedDTO(r))
		}
		httpx.Answer(c, out)
		return nil
	}
}

// fileHandler streams a stored file (or its thumbnail, thumb=1, or a TIFF's original, original=1)
// to a caller allowed to see it (fileToServe); proofs serves the proofs' route.
func (m *Module) fileHandler(proofs bool) httpx.HandlerFunc {
	return func(c *gin.Context) error {
		f, objectKey, err := m.svc.fileToServe(c, auth.Current(c), c.Query("image"), proofs, c.Query("thumb") == "1", c.Query("original") == "1")
		if err != nil {
			return err
		}
		rc, obj, err := m.deps.Storage.Get(c, objectKey)
		if err != nil {
			return err
		}
		defer rc.Close()
		h := c.Writer.Header()
		h.Set("Content-Type", obj.ContentType)
		h.Set("X-Content-Type-Options", "nosniff")
		// Keys are never rewritten, so a browser may keep the bytes; "private" keeps shared caches
		// out because access depends on the session.
		h.Set("Cache-Control", "private, max-age=86400")
		h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
		disposition := "inline"
		if !strings.HasPrefix(obj.ContentType, "image/") && !strings.HasPrefix(obj.ContentType, "video/") && obj.ContentType != "application/pdf" {
			disposition = "attachment"
		}
		name := f.OriginalName
		if name == "" {
			name = path.Base(f.Key)
		}
		h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": name}))
		if rs, ok := rc.(io.ReadSeeker); ok {
			// Ranges, for video players.
			http.ServeContent(c.Writer, c.Request, "", obj.ModTime, rs)
			return nil
		}
		h.Set("Content-Length", fmt.Sprint(obj.Size))
		c.Status(http.StatusOK)
		if _, err := io.Copy(c.Writer, rc); err != nil {
			httpx.Logger(c).Warn("creatives: serve file", "key", objectKey, "err", err)
		}
		return nil
	}
}

func (m *Module) listContentsHandler(c *gin.Context) error {
	params, err := pagination.Parse(c, contentListSpec)
	if err != nil {
		return err
	}
	page, err := m.svc.listContents(c, auth.Current(c), params)
	if err != nil {
		return err
	}
	httpx.Answer(c, page)
	return nil
}

func (m *Module) listCreativesHandler(c *gin.Context) error {
	params, err := pagination.Parse(c, creativeListSpec)
	if err != nil {
		return err
	}
	page, err := m.svc.listCreatives(c, auth.Current(c), c.Query("company"), params)
	if err != nil {
		return err
	}
	httpx.Answer(c, page)
	return nil
}

func (m *Module) sizeHandler(c *gin.Context) error {
	w, errW := strconv.Atoi(c.Query("width"))
	h, errH := strconv.Atoi(c.Query("height"))
	if errW != nil || errH != nil || w < 1 || h < 1 {
		return apperr.Field("width", MsgBadSize)
	}
	out, err := m.svc.creativesOfSize(c, auth.Current(c), c.Query("company"), w, h)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

// defaultHandler answers the company's default creative, or null when it has none (not an error:
// the selector then simply offers no default).
func (m *Module) defaultHandler(c *gin.Context) error {
	out, err := m.svc.defaultCreative(c, auth.Current(c), c.Query("company"))
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

// preflightHandler is POST /api/creatives/preflight: a JSON body names a creative; a multipart
// body carries an image, checked like a creative upload (types, 10 MB, the decode budget, the
// upload rate) and not kept.
func (m *Module) preflightHandler(c *gin.Context) error {
	p := auth.Current(c)
	if !strings.HasPrefix(c.ContentType(), "multipart/") {
		var req PreflightRequest
		if err := httpx.BindJSON(c, &req, m.deps.MaxJSONBytes); err != nil {
			return err
		}
		out, err := m.svc.preflightCreative(c, p, req)
		if err != nil {
			return err
		}
		httpx.Answer(c, out)
		return nil
	}
	var faceIDs []string
	for _, id := range strings.Split(c.Query("face_ids"), ",") {
		if id = strings.TrimSpace(id); id != "" {
			faceIDs = append(faceIDs, id)
		}
	}
	if len(faceIDs) > MaxPreflightFaces {
		return apperr.Field("face_ids", MsgTooManyFaces)
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, MaxCreativeBytes+(1<<20))
	mr, err := c.Request.MultipartReader()
	if err != nil {
		return apperr.New(apperr.EINVALID, MsgNoFile)
	}
	files, err := m.svc.uploads.readParts(c, kindPreflight, owner{companyID: p.CompanyID, uploaderID: p.UserID}, mr)
	if err != nil {
		return err
	}
	defer func() {
		for _, s := range files {
			s.close()
		}
	}()
	out, err := m.svc.preflightUpload(c, files[0], faceIDs)
	if err != nil {
		return err
	}
	httpx.Answer(c, out)
	return nil
}

// previewHandler is GET /api/creatives/{id}/preview: a PNG of the creative on the face's photo.
func (m *Module) previewHandler(c *gin.Context) error {
	light, view := c.DefaultQuery("light", LightDay), c.DefaultQuery("view", ViewPhoto)
	b, err := m.svc.preview(c, auth.Current(c), c.Param("id"), strings.TrimSpace(c.Query("face")), light, view)
	if err != nil {
		return err
	}
	h := c.Writer.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "private, max-age=3600")
	c.Data(http.StatusOK, "image/png", b)
	return nil
}
