package server

import (
	"bytes"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/httpx"
)

// spa serves the embedded web build: hashed assets with long-lived caching, and index.html for
// every other GET path so the client router can take it (DESIGN.md §3).
type spa struct {
	files fs.FS
	index []byte
}

const notBuilt = `<!doctype html><html><head><meta charset="utf-8"><title>Marquee</title></head><body>
<h1>Marquee</h1><p>The web app is not built into this binary. Run <code>make build</code> (or <code>make run</code>).</p></body></html>`

// newSPA serves web; without a built index.html every page says how to build it.
func newSPA(web fs.FS) *spa {
	s := &spa{files: web, index: []byte(notBuilt)}
	if web == nil {
		return s
	}
	if b, err := fs.ReadFile(web, "index.html"); err == nil {
		s.index = b
	}
	return s
}

// MsgNotFound answers an unknown API path.
const MsgNotFound = "Not found."

func (s *spa) serve(c *gin.Context) {
	p := c.Request.URL.Path
	if (c.Request.Method != http.MethodGet && c.Request.Method != http.MethodHead) || strings.HasPrefix(p, "/api/") {
		httpx.Fail(c, apperr.ENOTFOUND, MsgNotFound)
		return
	}
	name := strings.TrimPrefix(path.Clean(p), "/")
	if name != "" && name != "index.html" && s.files != nil {
		if f, err := s.files.Open(name); err == nil {
			info, statErr := f.Stat()
			_ = f.Close()
			if statErr == nil && !info.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					// Vite names assets by content hash: a changed file gets a new name.
					c.Header("Cache-Control", "public, max-age=31536000, immutable")
				} else {
					c.Header("Cache-Control", "public, max-age=3600")
				}
				c.FileFromFS(name, http.FS(s.files))
				return
			}
		}
		if strings.HasPrefix(name, "assets/") {
			// A missing hashed asset is an old tab after a deploy: a 404, not the app.
			httpx.Fail(c, apperr.ENOTFOUND, MsgNotFound)
			return
		}
	}
	c.Header("Cache-Control", "no-cache")
	http.ServeContent(c.Writer, c.Request, "index.html", time.Time{}, bytes.NewReader(s.index))
}
