package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"marquee/modules/identity"
	"marquee/platform/auth"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// The request-body fuzz (docs/operations.md "Security settings", bad input): every route of the
// route table is called with hostile bodies (or, for a GET, hostile query strings), signed in as
// the roles that may call it, on a server with the demo data. No answer may be a 5xx, and every
// non-2xx answer must be the error envelope {"success": false, "message": ...} (httpx.ErrorBody). A
// new route is fuzzed by default.

// routeFuzzNotJSON are the routes whose successful answer is by design not JSON. They are fuzzed all
// the same: a 2xx answer is never inspected, and their failures must still be the envelope. The list
// is kept here so that the reason of each exception is written down.
var routeFuzzNotJSON = map[string]string{
	"GET /creative/image":                     "serves the image file of a creative",
	"GET /proof/image":                        "serves the image file of a proof",
	"GET /api/reports/:id/file":               "downloads a report's file",
	"GET /api/reports/:id/csv":                "downloads a report as CSV",
	"GET /api/v1/reports/:id/file":            "downloads a report's file",
	"GET /api/v1/reports/:id/csv":             "downloads a report as CSV",
	"GET /.well-known/marquee-proof-key":      "the proof key as PEM",
	"GET /api/od/snapshots/:name":             "a map snapshot (SVG)",
	"GET /api/openapi.json":                   "a static document",
	"GET /.well-known/marquee-proof-key.json": "a static document",
}

// routeFuzzLast are routes that can end the fuzzing principal's session or account (a hostile body
// may still be a valid call): they run after every other route.
var routeFuzzLast = regexp.MustCompile(`/disable$|/upgrade/|^GET /users/logout$|^PUT /users/password$|^POST /moderate-sign(in|out)$|^DELETE `)

// fuzzAtoms are hostile JSON values: wrong types, limits of numbers, control and bidi characters,
// SQL and path injection, impossible dates, empty containers.
var fuzzAtoms = []string{
	`null`, `true`, `0`, `-1`, `-0.01`, `0.001`, `1e400`, `-1e400`, `9223372036854775808`,
	`-9223372036854775809`, `123456789012345678901234567890`, `1.7976931348623157e308`, `""`,
	`"\u0000\u0007\u001b\u202e\ufeff\u2028"`, `"\ud800"`, `"' OR '1'='1'; DROP TABLE users; --"`,
	`"../../../../etc/passwd%00"`, `"2026-02-30"`, `"0001-01-01"`, `"-1"`, `"NaN"`, `"1e400"`, `[]`,
	`{}`, `[null]`, `{"$gt": ""}`, `"<script>alert(1)</script>"`, `"` + strings.Repeat("x", 10_000) + `"`,
}

// fuzzQueryValues are hostile query-string values.
var fuzzQueryValues = []string{
	"", "-1", "0", "99999999999999999999", "1e400", "NaN", "' OR 1=1--", "\x00\u202e", "2026-02-30",
	"[]", "null", "-created_at,name,;drop", strings.Repeat("y", 10_000), "0190a000-0000-7000-8000-000000000000",
}

// missingID is well formed and names nothing.
const missingID = "0190a000-0000-7000-8000-000000000000"

var jsonTagRE = regexp.MustCompile("json:\"([A-Za-z][A-Za-z0-9_]*)")
var queryKeyRE = regexp.MustCompile(`(?:form:"|Query\("|queryList\(c, ")([A-Za-z][A-Za-z0-9_]*)`)

// fuzzKeys harvests the JSON field names and the query keys used by the modules and the platform, so
// that hostile values land on the fields the handlers actually read.
func fuzzKeys(t *testing.T) (jsonKeys, queryKeys []string) {
	js, qs := map[string]bool{}, map[string]bool{}
	for _, dir := range []string{"../../modules", "../../platform"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range jsonTagRE.FindAllSubmatch(src, -1) {
				js[string(m[1])] = true
			}
			for _, m := range queryKeyRE.FindAllSubmatch(src, -1) {
				qs[string(m[1])] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for k := range js {
		jsonKeys = append(jsonKeys, k)
	}
	for k := range qs {
		queryKeys = append(queryKeys, k)
	}
	sort.Strings(jsonKeys)
	sort.Strings(queryKeys)
	if len(jsonKeys) < 50 || len(queryKeys) < 5 {
		t.Fatalf("harvested too few keys (%d JSON, %d query): the source layout changed?", len(jsonKeys), len(queryKeys))
	}
	return jsonKeys, queryKeys
}

// fuzzBodies are the bodies sent to every route that takes one.
func fuzzBodies(jsonKeys []string) []string {
	deepArrays := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	deepObjects := strings.Repeat(`{"a":`, 20_000) + "1" + strings.Repeat("}", 20_000)
	bodies := []string{
		"", "{", "}", "not json", "null", "[]", "[{}]", "123", `"text"`, "true", "{}",
		`{"a":1} {"b":2}`, `{"a":1}garbage`, "\x00\x01\x02", "\xff\xfe{}", deepArrays, deepObjects,
		`"` + strings.Repeat("z", 1<<20) + `"`,
		`{"` + jsonKeys[0] + `":"` + strings.Repeat("z", 1<<20) + `"}`,
	}
	allKeys := func(v string) string {
		var b strings.Builder
		b.WriteByte('{')
		for i, k := range jsonKeys {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q:%s", k, v)
		}
		b.WriteByte('}')
		return b.String()
	}
	for _, a := range fuzzAtoms {
		bodies = append(bodies, allKeys(a))
	}
	return append(bodies, "["+allKeys(`"x"`)+"]")
}

// randomValue is a random JSON value of at most depth levels, its keys taken from keys.
func randomValue(r *rand.Rand, keys []string, depth int) string {
	n := 9
	if depth <= 0 {
		n = 7
	}
	switch r.Intn(n) {
	case 0:
		return fuzzAtoms[r.Intn(len(fuzzAtoms))]
	case 1:
		return fmt.Sprint(r.Int63() - r.Int63())
	case 2:
		return fmt.Sprintf("%g", r.NormFloat64()*1e6)
	case 3:
		runes := make([]rune, r.Intn(40))
		for i := range runes {
			runes[i] = rune(r.Intn(0x3000))
		}
		s, _ := json.Marshal(string(runes))
		return string(s)
	case 4:
		return missingID
	case 5, 6:
		return `"` + strings.Repeat("a", r.Intn(300)) + `"`
	case 7:
		parts := make([]string, r.Intn(5))
		for i := range parts {
			parts[i] = randomValue(r, keys, depth-1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		parts := make([]string, r.Intn(12))
		for i := range parts {
			parts[i] = fmt.Sprintf("%q:%s", keys[r.Intn(len(keys))], randomValue(r, keys, depth-1))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
}

// fuzzQueries are the query strings sent to every GET route.
func fuzzQueries(queryKeys []string) []string {
	out := []string{"page=%zz&limit=%", "sort=&order=&page=&limit="}
	for _, v := range fuzzQueryValues {
		q := url.Values{}
		for _, k := range queryKeys {
			q.Set(k, v)
		}
		out = append(out, q.Encode())
	}
	return out
}

// isEnvelope reports whether body is the error envelope.
func isEnvelope(body []byte) bool {
	var e struct {
		Success *bool   `json:"success"`
		Message *string `json:"message"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		return false
	}
	return e.Success != nil && !*e.Success && e.Message != nil && *e.Message != ""
}

// harvestIDs walks a JSON answer for the first "id" values, to call routes on things that exist.
func harvestIDs(body []byte) []string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return nil
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		if len(out) >= 3 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			if id, ok := x["id"].(string); ok && id != "" {
				out = append(out, id)
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

var routeParamRE = regexp.MustCompile(`:[A-Za-z_]+|\*[A-Za-z_]+`)

// fuzzPrincipal is one signed-in caller of the fuzz.
type fuzzPrincipal struct {
	subject, userID, apiKey string
	ids                     map[string]string // GET list path (no params, no trailing /) -> an id it answered
}

func TestRouteBodyFuzz(t *testing.T) {
	jsonKeys, queryKeys := fuzzKeys(t)
	bodies := fuzzBodies(jsonKeys)
	queries := fuzzQueries(queryKeys)
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		started := time.Now()
		s := testkit.Start(t, dialect, buildModules, testkit.WithEnv("API_KEY_RATE_LIMIT", "1000000"))
		if err := seedDemo(t.Context(), &application{modules: s.Modules}, io.Discard); err != nil {
			t.Fatal(err)
		}
		principals := map[string]*fuzzPrincipal{}
		for _, role := range []string{"advertiser", "super_admin", "ambassador", "certified"} {
			u, err := identityService(s.Modules).FindUserByEmail(t.Context(), demoUsers[role].Email)
			if err != nil {
				t.Fatal(err)
			}
			subject := map[string]string{"advertiser": auth.SubjectUser, "super_admin": auth.SubjectSuperAdmin,
				"ambassador": auth.SubjectAmbassador, "certified": auth.SubjectCertified}[role]
			principals[subject] = &fuzzPrincipal{subject: subject, userID: u.ID, ids: map[string]string{}}
		}
		// The public API is called with a read-write key of the advertiser.
		user := principals[auth.SubjectUser]
		c := s.Client(t)
		c.SessionAs(s, user.userID)
		var made identity.CreatedAPIKey
		c.Post("/api/api-keys/", map[string]string{"name": "fuzz", "scope": "read-write"}).Expect(t, http.StatusCreated).JSON(t, &made)
		user.apiKey = made.Secret

		// Big bodies go with Expect: 100-continue, so that a handler that answers without reading
		// them (a refusal, or a route that takes no body) does not break the connection mid-write.
		transport := &http.Transport{ExpectContinueTimeout: 2 * time.Second, MaxIdleConnsPerHost: 4}
		t.Cleanup(transport.CloseIdleConnections)
		client := func(p *fuzzPrincipal, path string) *testkit.Client {
			c := s.Client(t)
			c.HTTP.Transport = transport
			if strings.HasPrefix(path, server.V1Prefix+"/") {
				c.Bearer = p.apiKey
			} else {
				c.SessionAs(s, p.userID)
			}
			return c
		}
		// callers are the principals that may call the route: the advertiser and the super admin
		// when the policy lets them, else the partner roles it admits.
		callers := func(method, path string) []*fuzzPrincipal {
			var out []*fuzzPrincipal
			// The device API has no policy rule (no user subject may call it): the advertiser's
			// session is ignored there, so its calls are anonymous ones. The pairing reads every
			// hostile body; the signed rows refuse them unsigned (their bodies are fuzzed in
			// modules/screens with a paired key).
			if strings.HasPrefix(path, server.DevicePrefix) {
				return []*fuzzPrincipal{principals[auth.SubjectUser]}
			}
			for _, sub := range []string{auth.SubjectUser, auth.SubjectSuperAdmin} {
				if s.Enforcer.Allowed(sub, method, path) && (sub == auth.SubjectUser || !strings.HasPrefix(path, server.V1Prefix+"/")) {
					out = append(out, principals[sub])
				}
			}
			if len(out) == 0 {
				for _, sub := range []string{auth.SubjectAmbassador, auth.SubjectCertified} {
					if s.Enforcer.Allowed(sub, method, path) {
						out = append(out, principals[sub])
					}
				}
			}
			return out
		}

		// Existing ids: what the parameterless GET routes answer each principal.
		var routes []string
		for _, r := range s.Routes {
			routes = append(routes, r.Method+" "+r.Path)
		}
		sort.Strings(routes)
		for key := range routeFuzzNotJSON {
			if !slices.Contains(routes, key) {
				t.Errorf("routeFuzzNotJSON lists %s, which is not registered", key)
			}
		}
		for _, key := range routes {
			method, path, _ := cut(key)
			if method != http.MethodGet || strings.ContainsAny(path, ":*") || path == "/users/logout" {
				continue
			}
			for _, p := range callers(method, path) {
				res := client(p, path).Get(path)
				if got := harvestIDs(res.Body); res.Status == http.StatusOK && len(got) > 0 {
					p.ids[strings.TrimSuffix(path, "/")] = got[0]
				}
			}
		}
		// existingID is the id the closest list route answered p, for a route under prefix.
		existingID := func(p *fuzzPrincipal, path string) string {
			at := strings.IndexAny(path, ":*")
			if at < 0 {
				return ""
			}
			prefix := strings.TrimSuffix(path[:at], "/")
			best, id := -1, ""
			for list, v := range p.ids {
				if (prefix == list || strings.HasPrefix(prefix, list+"/")) && len(list) > best {
					best, id = len(list), v
				}
			}
			if id == "" {
				if strings.Contains(path, "user") {
					return p.userID
				}
				return missingID
			}
			return id
		}

		sort.SliceStable(routes, func(i, j int) bool {
			return !routeFuzzLast.MatchString(routes[i]) && routeFuzzLast.MatchString(routes[j])
		})
		rng := rand.New(rand.NewSource(19))
		type finding struct{ route, request, answer string }
		seen := map[string]bool{}
		var findings []finding
		requests := 0
		// send is Client.Do for hostile input: a transport error is a finding, not the test's end.
		send := func(c *testkit.Client, method, target string, body *string) *testkit.Response {
			var rd io.Reader
			if body != nil {
				rd = strings.NewReader(*body)
			}
			req, err := http.NewRequest(method, s.URL+target, rd)
			if err != nil {
				return &testkit.Response{Status: -1, Body: []byte(err.Error())}
			}
			if body != nil {
				req.Header.Set("Content-Type", "application/json")
				if len(*body) > 64<<10 {
					req.Header.Set("Expect", "100-continue")
				}
			}
			req.Header.Set("X-Requested-With", "XMLHttpRequest")
			if c.Bearer != "" {
				req.Header.Set("Authorization", "Bearer "+c.Bearer)
			}
			res, err := c.HTTP.Do(req)
			if err != nil {
				return &testkit.Response{Status: -1, Body: []byte(err.Error())}
			}
			defer res.Body.Close()
			raw, err := io.ReadAll(res.Body)
			if err != nil {
				return &testkit.Response{Status: -1, Body: []byte(err.Error())}
			}
			return &testkit.Response{Status: res.StatusCode, Header: res.Header, Body: raw}
		}
		check := func(key, desc string, res *testkit.Response) {
			requests++
			bad := ""
			switch {
			case res.Status < 0:
				bad = "no answer"
			case res.Status >= 500:
				bad = "a 5xx"
			case res.Status >= 300 && !isEnvelope(res.Body):
				bad = "not the error envelope"
			case routeFuzzNotJSON[key] == "" && len(res.Body) > 0 && !json.Valid(res.Body):
				bad = "a success that is not JSON"
			}
			if bad == "" {
				return
			}
			id := fmt.Sprintf("%s %d", key, res.Status)
			if seen[id] {
				return
			}
			seen[id] = true
			if len(desc) > 200 {
				desc = desc[:200] + "…"
			}
			body := string(res.Body)
			if len(body) > 300 {
				body = body[:300] + "…"
			}
			findings = append(findings, finding{key, desc, fmt.Sprintf("%s: %d %s", bad, res.Status, body)})
		}
		fuzzed := 0
		for _, key := range routes {
			method, path, _ := cut(key)
			ps := callers(method, path)
			if len(ps) == 0 {
				t.Errorf("%s: no fuzz principal may call it (add one for its role)", key)
				continue
			}
			fuzzed++
			for _, p := range ps {
				c := client(p, path)
				fill := func(id string) string {
					return routeParamRE.ReplaceAllStringFunc(path, func(string) string { return url.PathEscape(id) })
				}
				existing := fill(existingID(p, path))
				if method == http.MethodGet || method == http.MethodHead {
					for _, q := range queries {
						check(key, existing+"?"+q, send(c, method, existing+"?"+q, nil))
					}
					if existing != path {
						for _, id := range []string{missingID, "' OR 1=1--", "-1", "a\x00b"} {
							u := fill(id)
							check(key, u, send(c, method, u, nil))
						}
					}
					continue
				}
				for _, b := range bodies {
					check(key, existing+" "+b, send(c, method, existing, &b))
				}
				for range 4 {
					b := randomValue(rng, jsonKeys, 4)
					check(key, existing+" "+b, send(c, method, existing, &b))
				}
				if existing != path {
					for _, id := range []string{missingID, "' OR 1=1--", "-1", "a\x00b"} {
						u := fill(id)
						for _, b := range []string{"{}", "{", bodies[len(bodies)-2]} {
							check(key, u+" "+b, send(c, method, u, &b))
						}
					}
				}
			}
		}
		for _, f := range findings {
			t.Errorf("%s\n  request: %s\n  answer:  %s", f.route, f.request, f.answer)
		}
		if fuzzed < 100 {
			t.Errorf("only %d routes fuzzed", fuzzed)
		}
		t.Logf("%s: %d routes, %d requests in %s", dialect, fuzzed, requests, time.Since(started).Round(time.Millisecond))
	})
}
