package screens

import (
	"errors"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/httpx"
)

// importRequest reads an import's multipart body: optional "format" and "tz" parts (or query
// parameters), then the "file" part, which is parsed as it streams. A body whose declared length
// is over the limit is refused before a byte of it is read; one that grows past it while read is
// cut off by MaxBytesReader.
func (s *service) importRequest(c *gin.Context) (*ImportReport, error) {
	const framing = 1 << 20 // the parts' headers and boundaries
	if c.Request.ContentLength > MaxImportBytes+framing {
		return nil, apperr.New(apperr.ETOOLARGE, MsgImportTooLarge)
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, MaxImportBytes+framing)
	mr, err := c.Request.MultipartReader()
	if err != nil {
		return nil, apperr.Field("file", MsgImportNoFile)
	}
	up := ImportUpload{Format: c.Query("format"), Timezone: c.Query("tz")}
	for {
		part, err := mr.NextPart()
		switch {
		case errors.Is(err, io.EOF):
			return nil, apperr.Field("file", MsgImportNoFile)
		case err != nil && httpx.IsTooLarge(err):
			return nil, apperr.New(apperr.ETOOLARGE, MsgImportTooLarge)
		case err != nil:
			return nil, apperr.Field("file", MsgImportNoFile)
		}
		switch part.FormName() {
		case "format", "tz":
			v, err := io.ReadAll(io.LimitReader(part, 65))
			if err != nil {
				return nil, parseError(err)
			}
			if part.FormName() == "format" {
				up.Format = string(v)
			} else {
				up.Timezone = string(v)
			}
		case "file":
			up.FileName, up.Body = part.FileName(), part
			return s.ImportFile(c, auth.Current(c), up)
		}
	}
}
