package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/flash"
	"marquee/platform/httpx"
)

// spa serves the embedded web build (DESIGN.md §3): hashed assets with long-lived caching, the
// prerendered public pages to a browser without a session, and index.html for every other GET path
// so the client router can take it. Every file is read once at start, with its brotli and gzip
// copies (made by webapp/scripts/compress.mjs; gzip'd here when the build has none), and sent in
// the smallest encoding the browser accepts (docs/performance.md "First visit").
type spa struct {
	files map[string]*asset // by path in the build, "assets/index-3f9a1c.js"
	index *asset
	// pages are the prerendered public pages by URL path ("/", "/login"): dist/prerendered/*.html.
	pages map[string]*asset
}

// asset is one file of the build in each encoding it has.
type asset struct {
	raw, gz, br []byte
	ctype       string
	etag        string // of the raw bytes; the encoding is appended
}

// compressible are the extensions that are text: they never go over the wire raw to a browser that
// accepts gzip. Keep in step with webapp/scripts/compress.mjs.
var compressible = map[string]bool{".html": true, ".js": true, ".mjs": true, ".css": true, ".svg": true, ".json": true,
	".txt": true, ".xml": true, ".webmanifest": true, ".map": true, ".ico": true}

// prerenderedDir holds the prerendered pages (webapp/scripts/prerender.mjs).
const prerenderedDir = "prerendered/"

const notBuilt = `<!doctype html><html><head><meta charset="utf-8"><title>Marquee</title></head><body>
<h1>Marquee</h1><p>The web app is not built into this binary. Run <code>make build</code> (or <code>make run</code>).</p></body></html>`

// newSPA serves web; without a built index.html every page says how to build it.
func newSPA(web fs.FS) (*spa, error) {
	s := &spa{files: map[string]*asset{}, pages: map[string]*asset{}}
	if web != nil {
		err := fs.WalkDir(web, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				if name == "." && errors.Is(err, fs.ErrNotExist) {
					return fs.SkipAll // no build at all
				}
				return err
			}
			if d.IsDir() {
				if strings.HasPrefix(d.Name(), ".") && name != "." {
					return fs.SkipDir // .vite: the build's manifests
				}
				return nil
			}
			if strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".br") || strings.HasPrefix(d.Name(), ".") {
				return nil
			}
			a, err := loadAsset(web, name)
			if err != nil {
				return err
			}
			if page, ok := strings.CutPrefix(name, prerenderedDir); ok {
				page = "/" + strings.TrimSuffix(page, ".html")
				if page == "/index" {
					page = "/"
				}
				s.pages[page] = a
				return nil
			}
			s.files[name] = a
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	s.index = s.files["index.html"]
	delete(s.files, "index.html")
	if s.index == nil {
		s.index = newAsset([]byte(notBuilt), nil, nil, ".html")
	}
	return s, nil
}

func loadAsset(web fs.FS, name string) (*asset, error) {
	raw, err := fs.ReadFile(web, name)
	if err != nil {
		return nil, err
	}
	ext := path.Ext(name)
	var gz, br []byte
	if compressible[ext] {
		gz, _ = fs.ReadFile(web, name+".gz")
		br, _ = fs.ReadFile(web, name+".br")
	}
	return newAsset(raw, gz, br, ext), nil
}

func newAsset(raw, gz, br []byte, ext string) *asset {
	if gz == nil && compressible[ext] {
		// A build without compressed copies (a development build, a test's files).
		var b bytes.Buffer
		w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		_, _ = w.Write(raw)
		_ = w.Close()
		gz = b.Bytes()
	}
	ctype := mime.TypeByExtension(ext)
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	sum := sha256.Sum256(raw)
	return &asset{raw: raw, gz: gz, br: br, ctype: ctype, etag: hex.EncodeToString(sum[:8])}
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
	if a := s.files[name]; a != nil {
		if strings.HasPrefix(name, "assets/") {
			// Vite names assets by content hash: a changed file gets a new name.
			c.Header("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			c.Header("Cache-Control", "public, max-age=3600")
		}
		a.send(c)
		return
	}
	if strings.HasPrefix(name, "assets/") {
		// A missing hashed asset is an old tab after a deploy: a 404, not the app.
		httpx.Fail(c, apperr.ENOTFOUND, MsgNotFound)
		return
	}
	c.Header("Cache-Control", "no-cache")
	if page := s.pages[p]; page != nil && anonymous(c) {
		page.send(c)
		return
	}
	s.index.send(c)
}

// anonymous reports whether the request carries neither a session nor a flash message: the
// prerendered pages are what such a visitor sees. With a session the app decides where to go (a
// signed-in user leaves the public pages); a flash message is shown by the whole app.
func anonymous(c *gin.Context) bool {
	for _, name := range []string{auth.CookieName, flash.CookieName} {
		if _, err := c.Request.Cookie(name); err == nil {
			return false
		}
	}
	return true
}

// send writes the asset in the best encoding the request accepts (HEAD, ranges and If-None-Match
// included, by http.ServeContent).
func (a *asset) send(c *gin.Context) {
	h := c.Writer.Header()
	body, encoding := a.raw, ""
	if a.gz != nil {
		h.Add("Vary", "Accept-Encoding")
		switch accepted := c.GetHeader("Accept-Encoding"); {
		case a.br != nil && accepts(accepted, "br"):
			body, encoding = a.br, "br"
		case accepts(accepted, "gzip"):
			body, encoding = a.gz, "gzip"
		}
	}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	h.Set("Content-Type", a.ctype)
	h.Set("ETag", strconv.Quote(a.etag+encoding))
	http.ServeContent(c.Writer, c.Request, "", time.Time{}, bytes.NewReader(body))
}

// accepts reports whether an Accept-Encoding header accepts coding (by name or "*", q above 0).
func accepts(header, coding string) bool {
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.TrimSpace(name)
		if !strings.EqualFold(name, coding) && name != "*" {
			continue
		}
		if q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q="); ok {
			if v, err := strconv.ParseFloat(q, 64); err == nil && v == 0 {
				continue
			}
		}
		return true
	}
	return false
}
