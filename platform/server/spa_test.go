package server_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"marquee/platform/auth"
	"marquee/platform/testkit"
)

// get sends a GET with the headers, without Go's transparent gzip, and returns the response with
// its body as sent.
func get(t *testing.T, url string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	r, err := gzip.NewReader(strings.NewReader(string(b)))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// The build's brotli and gzip copies are chosen by Accept-Encoding, with Vary; a text file
// without a copy is gzip'd at start; the prerendered pages go to a browser without a session only.
func TestAssetsAreSentCompressed(t *testing.T) {
	web := fstest.MapFS{
		"index.html":                  {Data: []byte("<!doctype html><div id=root></div>")},
		"assets/app-3f9a1c.js":        {Data: []byte(strings.Repeat("console.log('app');", 50))},
		"assets/app-3f9a1c.js.gz":     {Data: []byte("gzip copy")},
		"assets/app-3f9a1c.js.br":     {Data: []byte("brotli copy")},
		"assets/font-1.woff2":         {Data: []byte("wOF2")},
		"favicon.svg":                 {Data: []byte("<svg/>")},
		"prerendered/index.html":      {Data: []byte("<!doctype html><div id=root><h1>Landing</h1></div>")},
		"prerendered/login.html":      {Data: []byte("<!doctype html><div id=root><h1>Login</h1></div>")},
		".vite/manifest.json":         {Data: []byte("{}")},
		"prerendered/index.html.gz":   {Data: gz("<!doctype html><div id=root><h1>Landing</h1></div>")},
		"prerendered/index.html.br":   {Data: []byte("brotli landing")},
		"assets/app-3f9a1c.css":       {Data: []byte("body{}")},
		"assets/app-3f9a1c.css.gz":    {Data: gz("body{}")},
		"assets/app-3f9a1c.css.br":    {Data: []byte("brotli css")},
		"assets/chunk-3f9a1c.js":      {Data: []byte("export{}")},
		"assets/chunk-3f9a1c.js.gz":   {Data: gz("export{}")},
		"assets/chunk-3f9a1c.js.br":   {Data: []byte("brotli chunk")},
		"assets/manifest-3f9a1c.json": {Data: []byte(`{"a":1}`)},
	}
	s := testkit.Start(t, testkit.Dialects()[0], noModules, testkit.WithWeb(web))

	res, body := get(t, s.URL+"/assets/app-3f9a1c.js", map[string]string{"Accept-Encoding": "gzip, deflate, br"})
	if res.Header.Get("Content-Encoding") != "br" || string(body) != "brotli copy" || res.Header.Get("Vary") != "Accept-Encoding" ||
		!strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") || !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
		t.Fatalf("br: %v %q", res.Header, body)
	}
	res, body = get(t, s.URL+"/assets/app-3f9a1c.js", map[string]string{"Accept-Encoding": "gzip;q=1, br;q=0"})
	if res.Header.Get("Content-Encoding") != "gzip" || string(body) != "gzip copy" {
		t.Fatalf("gzip: %v %q", res.Header, body)
	}
	res, body = get(t, s.URL+"/assets/app-3f9a1c.js", nil)
	if res.Header.Get("Content-Encoding") != "" || !strings.HasPrefix(string(body), "console.log") || res.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("identity: %v %q", res.Header, body)
	}
	// Without a copy in the build: gzip'd at start. A font is compressed already: sent as it is.
	res, body = get(t, s.URL+"/favicon.svg", map[string]string{"Accept-Encoding": "gzip"})
	if res.Header.Get("Content-Encoding") != "gzip" || gunzip(t, body) != "<svg/>" || res.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("svg: %v", res.Header)
	}
	if res, _ := get(t, s.URL+"/assets/font-1.woff2", map[string]string{"Accept-Encoding": "gzip"}); res.Header.Get("Content-Encoding") != "" {
		t.Fatalf("woff2: %v", res.Header)
	}
	// The build's manifests are not served: the app answers.
	if res, body := get(t, s.URL+"/.vite/manifest.json", nil); res.StatusCode != 200 || !strings.Contains(string(body), "id=root") {
		t.Fatalf("manifest: %d %s", res.StatusCode, body)
	}

	// The landing page: prerendered for a visitor without a session, the app shell with one.
	res, body = get(t, s.URL+"/", map[string]string{"Accept-Encoding": "gzip"})
	if res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(gunzip(t, body), "<h1>Landing</h1>") || res.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("landing: %v", res.Header)
	}
	res, body = get(t, s.URL+"/", map[string]string{"Accept-Encoding": "gzip", "Cookie": auth.CookieName + "=x"})
	if text := gunzip(t, body); strings.Contains(text, "Landing") || !strings.Contains(text, "id=root") {
		t.Fatalf("signed-in landing: %s", text)
	}
	res, body = get(t, s.URL+"/login?next=%2Fcampaigns", map[string]string{"Accept-Encoding": "gzip"})
	if !strings.Contains(gunzip(t, body), "<h1>Login</h1>") {
		t.Fatalf("login: %v", res.Header)
	}
	if _, body = get(t, s.URL+"/login", map[string]string{"Accept-Encoding": "gzip", "Cookie": "marquee_flash=x"}); strings.Contains(gunzip(t, body), "Login") {
		t.Fatal("a flash message needs the whole app")
	}
	// Revalidation: the same ETag answers 304.
	res, _ = get(t, s.URL+"/", map[string]string{"Accept-Encoding": "gzip"})
	if res304, _ := get(t, s.URL+"/", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": res.Header.Get("ETag")}); res304.StatusCode != http.StatusNotModified {
		t.Fatalf("If-None-Match: %d", res304.StatusCode)
	}
}

func gz(s string) []byte {
	var b strings.Builder
	w := gzip.NewWriter(&b)
	_, _ = w.Write([]byte(s))
	_ = w.Close()
	return []byte(b.String())
}
