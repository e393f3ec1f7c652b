package server

import (
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"marquee/platform/config"
)

// The Content-Security-Policy of every answer (docs/operations.md "Security settings").
// Scripts run only from our own files and from the inline scripts the build wrote into its HTML
// (the prerendered pages' hydration data and stylesheet loader), each allowed by its SHA-256, so
// no 'unsafe-inline' script and no eval: an injected <script> or inline handler does not run.
// Styles allow inline ones (React's style attributes, Leaflet's positioned tiles, ApexCharts'
// injected sheets), which cannot run code. Images also come from the map's tile server; Stripe's
// script, frames and API are allowed only when the Stripe gateway is on. frame-ancestors 'none'
// keeps every page out of other sites' frames (clickjacking). The one frame of our own is a
// report's PDF (/reports/{id}, shown in the page): frame-src names only the report file routes of our own
// origin (ReportFramePath), and those answers alone allow a frame-ancestor of 'self'.
func contentSecurityPolicy(cfg *config.Config, inlineScripts []string) string {
	scripts := []string{"'self'"}
	for _, h := range inlineScripts {
		scripts = append(scripts, "'sha256-"+h+"'")
	}
	images := []string{"'self'", "data:", "blob:"}
	if tiles := tileOrigin(cfg.TileURL); tiles != "" {
		images = append(images, tiles)
	}
	connect := []string{"'self'"}
	frames := []string{reportFrameSource(cfg.BaseURL)}
	if cfg.PaymentGateway == "stripe" {
		scripts = append(scripts, "https://js.stripe.com")
		connect = append(connect, "https://api.stripe.com")
		frames = append(frames, "https://js.stripe.com", "https://hooks.stripe.com")
	}
	return strings.Join([]string{
		"default-src 'self'",
		"script-src " + strings.Join(scripts, " "),
		"style-src 'self' 'unsafe-inline'",
		"img-src " + strings.Join(images, " "),
		"font-src 'self' data:",
		"connect-src " + strings.Join(connect, " "),
		"frame-src " + strings.Join(frames, " "),
		"worker-src 'self' blob:",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// ReportFramePath is the prefix of the routes whose answers the app shows in a frame: a report's
// PDF (GET /api/reports/{id}/file).
const ReportFramePath = "/api/reports/"

// reportFrameSource is the frame-src source of the report files: our origin (BASE_URL's) and the
// report routes' path, so the app frames nothing else, not even its own pages. When BASE_URL has
// no usable origin, 'self' (any page of ours, each of which refuses framing but the report files).
func reportFrameSource(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "'self'"
	}
	return u.Scheme + "://" + u.Host + ReportFramePath
}

// tileOrigin is the origin of the map's tile URL template ("https://{s}.tile.example/{z}/{x}/{y}.png"
// gives "https://*.tile.example"), or "" when the tiles are our own or the template is unreadable.
func tileOrigin(template string) string {
	t := strings.ReplaceAll(template, "{s}", "subdomain")
	u, err := url.Parse(t)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	host := u.Host
	if strings.Contains(template, "{s}") {
		host = strings.Replace(host, "subdomain", "*", 1)
	}
	return u.Scheme + "://" + host
}

// inlineScript matches a <script> element without a src attribute, and its text.
var inlineScript = regexp.MustCompile(`(?is)<script((?:\s[^>]*)?)>(.*?)</script>`)

// inlineScriptHashes are the base64 SHA-256 of every inline script in the HTML pages, for
// script-src: the exact text between the tags, as the browser hashes it.
func inlineScriptHashes(pages ...[]byte) []string {
	var out []string
	for _, page := range pages {
		for _, m := range inlineScript.FindAllSubmatch(page, -1) {
			if strings.Contains(strings.ToLower(string(m[1])), "src=") || len(m[2]) == 0 {
				continue
			}
			sum := sha256.Sum256(m[2])
			h := base64.StdEncoding.EncodeToString(sum[:])
			if !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	slices.Sort(out)
	return out
}

// htmlPages are the build's HTML answers: index.html and the prerendered pages.
func (s *spa) htmlPages() [][]byte {
	pages := [][]byte{s.index.raw}
	for _, p := range s.pages {
		pages = append(pages, p.raw)
	}
	return pages
}
