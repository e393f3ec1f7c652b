package main

import (
	"io/fs"
	"net/http"
	"path"
	"strings"
	"testing"

	"marquee/platform/testkit"
	"marquee/webapp"
)

// No text file of the embedded build (webapp/dist, as `make build` made it) goes raw to a
// browser that accepts gzip, and every answer names the encoding it varies on. Without a build the
// binary's "not built" page is checked, which must be gzip'd too.
func TestEmbeddedWebAppIsSentCompressed(t *testing.T) {
	s := testkit.Start(t, testkit.Dialects()[0], buildModules, testkit.WithWeb(webapp.Dist()))
	text := map[string]bool{".html": true, ".js": true, ".css": true, ".svg": true, ".json": true}
	urls := []string{"/", "/login", "/dashboard"}
	err := fs.WalkDir(webapp.Dist(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if text[path.Ext(name)] && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "prerendered/") && name != "index.html" {
			urls = append(urls, "/"+name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{DisableCompression: true}
	for _, url := range urls {
		for _, accept := range []string{"gzip", "gzip, deflate, br, zstd"} {
			req, _ := http.NewRequest(http.MethodGet, s.URL+url, nil)
			req.Header.Set("Accept-Encoding", accept)
			res, err := tr.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = res.Body.Close()
			enc := res.Header.Get("Content-Encoding")
			if res.StatusCode != http.StatusOK || (enc != "gzip" && enc != "br") || res.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("%s (Accept-Encoding: %s): %d, Content-Encoding %q, Vary %q", url, accept, res.StatusCode, enc, res.Header.Get("Vary"))
			}
		}
	}
	t.Logf("%d paths checked", len(urls))
}
