package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"marquee/platform/authz"
	"marquee/platform/dates"
	"marquee/platform/httpx"
	"marquee/platform/money"
)

// The OpenAPI 3.1 document of the public API (docs/api.md), built from the route rows the kernel
// registered: every route's method, path, role and, from the row, its summary, request and answer
// DTOs (the types tygo reads), query parameters and success status. A hand-written reflector turns
// the DTOs into JSON Schema: the DTOs are plain structs with json tags and three value types of our
// own (money.Cents, dates.Date, time.Time), which a library would need taught anyway, so a
// dependency would not earn its place. kin-openapi checks every call of the tests against the
// result (platform/testkit/openapi.go), Redocly and Spectral lint it (make lint-openapi), and
// oapi-codegen makes a client of it (cmd/marquee/apiclient_test.go).

// AnyOf is a Response of a route that answers one of several DTOs, chosen by a parameter (the
// faces as an array, or in columns with ?format=columns).
type AnyOf []any

// Upload is a Request of a multipart upload: Field names the file part; Many when it takes several.
type Upload struct {
	Field string
	Many  bool
	JSON  any // the DTO of a JSON body the route takes instead, or nil
}

// File is a Response that is a file, not JSON: its media types.
type File struct{ Types []string }

// Example sets the request body's example (the document shows it, and the contract test sends it).
// A func(today dates.Date) any is called when the document is served, so that dates in the example
// are bookable on the day, and a client that copies an example is not refused.
func (r Route) Example(v any) Route {
	r.example = v
	return r
}

type docRoute struct {
	Route
	module string
}

var ginParam = regexp.MustCompile(`[:*]([A-Za-z_][A-Za-z0-9_]*)`)

// OpenAPIPath turns a gin pattern into an OpenAPI path: /api/users/:id -> /api/users/{id}.
func OpenAPIPath(p string) string { return ginParam.ReplaceAllString(p, "{$1}") }

type schemaKey struct {
	t  reflect.Type
	in bool
}

type schemas struct {
	defs  map[string]any
	names map[schemaKey]string
	taken map[string]bool
}

var (
	timeType  = reflect.TypeOf(time.Time{})
	dateType  = reflect.TypeOf(dates.Date{})
	centsType = reflect.TypeOf(money.Cents(0))
	rawType   = reflect.TypeOf(json.RawMessage{})
	genericRE = regexp.MustCompile(`[A-Za-z0-9_./]*\.`)
	nonWordRE = regexp.MustCompile(`[^A-Za-z0-9]+`)
)

// MoneySchema is the schema of an amount of money: dollars with at most two decimals, a double so
// that a generated client never holds it in a float32 (1234567.89 would read 1234567.88).
func MoneySchema() map[string]any {
	return map[string]any{"type": "number", "format": "double", "multipleOf": 0.01, "description": "US dollars, at most two decimals"}
}

// name is the component name of t: a request-side schema (in) is named …Input unless its name
// says it is one already, since it differs from the answer's (nothing is required, more is allowed).
func (s *schemas) name(t reflect.Type, in bool) string {
	k := schemaKey{t, in}
	if n, ok := s.names[k]; ok {
		return n
	}
	base := t.Name()
	if strings.Contains(base, "[") { // a generic: Page[marquee/modules/x.Campaign] -> PageCampaign
		base = nonWordRE.ReplaceAllString(genericRE.ReplaceAllString(base, ""), "")
	}
	if in && !strings.HasSuffix(base, "Request") && !strings.HasSuffix(base, "Input") {
		base += "Input"
	}
	n := base
	if s.taken[n] {
		pkg := t.PkgPath()
		last := pkg[strings.LastIndex(pkg, "/")+1:]
		n = strings.ToUpper(last[:1]) + last[1:] + base
		for i := 2; s.taken[n]; i++ {
			n = fmt.Sprintf("%s%s%d", strings.ToUpper(last[:1]), last[1:]+base, i)
		}
	}
	s.taken[n] = true
	s.names[k] = n
	return n
}

// anyValue is the schema of any JSON value (an empty schema, spelled out: kin-openapi reads {} as
// not nullable).
func anyValue() map[string]any {
	return map[string]any{"type": []any{"object", "array", "string", "number", "boolean", "null"}, "items": map[string]any{}}
}

func nullable(inner map[string]any) map[string]any {
	if typ, ok := inner["type"].(string); ok {
		out := map[string]any{}
		for k, v := range inner {
			out[k] = v
		}
		out["type"] = []any{typ, "null"}
		return out
	}
	if _, ok := inner["type"].([]any); ok {
		return inner
	}
	return map[string]any{"anyOf": []any{inner, map[string]any{"type": "null"}}}
}

// of returns the schema of t: a $ref for a named struct (defined once in components). in is the
// request side.
func (s *schemas) of(t reflect.Type, in bool) map[string]any {
	switch t {
	case timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case dateType:
		return map[string]any{"type": []any{"string", "null"}, "format": "date"}
	case centsType:
		return MoneySchema()
	case rawType:
		return anyValue()
	}
	switch t.Kind() {
	case reflect.Pointer:
		return nullable(s.of(t.Elem(), in))
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return map[string]any{"type": "integer", "format": "int32"}
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64:
		return map[string]any{"type": "integer", "format": "int64"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number", "format": "double"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "contentEncoding": "base64"}
		}
		return map[string]any{"type": []any{"array", "null"}, "items": s.of(t.Elem(), in)}
	case reflect.Map:
		return map[string]any{"type": []any{"object", "null"}, "additionalProperties": s.of(t.Elem(), in)}
	case reflect.Interface:
		return anyValue()
	case reflect.Struct:
		if t.Name() == "" {
			return s.object(t, in)
		}
		n := s.name(t, in)
		if _, done := s.defs[n]; !done {
			s.defs[n] = nil // a recursive type refers to itself
			s.defs[n] = s.object(t, in)
		}
		return map[string]any{"$ref": "#/components/schemas/" + n}
	}
	return map[string]any{}
}

// object is a struct's schema: its json fields (embedded structs' fields inline). On the answer's
// side, a field without omitempty is required, as encoding/json always writes it, and no other
// field may appear (so a handler that answers more than its DTO fails the tests); on the request
// side a field is required when its validate tag says so, and unknown fields are allowed, as
// httpx.BindJSON ignores them.
func (s *schemas) object(t reflect.Type, in bool) map[string]any {
	props := map[string]any{}
	var required []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" || (!f.IsExported() && !f.Anonymous) {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft)
					continue
				}
			}
			if name == "" {
				name = f.Name
			}
			schema := s.of(f.Type, in)
			rules := f.Tag.Get("validate")
			if in {
				schema = withRules(schema, f.Type, rules)
			}
			if d := f.Tag.Get("doc"); d != "" {
				schema = withDescription(schema, d)
			}
			props[name] = schema
			omit := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
			if (!in && !omit) || (in && hasRule(rules, "required")) {
				required = append(required, name)
			}
		}
	}
	walk(t)
	out := map[string]any{"type": "object", "properties": props}
	if !in {
		out["additionalProperties"] = false
	}
	if len(required) > 0 {
		sort.Strings(required)
		out["required"] = required
	}
	return out
}

func withDescription(schema map[string]any, d string) map[string]any {
	out := map[string]any{}
	for k, v := range schema {
		out[k] = v
	}
	if _, ref := out["$ref"]; ref {
		return map[string]any{"allOf": []any{schema}, "description": d}
	}
	out["description"] = d
	return out
}

func hasRule(rules, name string) bool {
	for _, r := range strings.Split(rules, ",") {
		if r == name {
			return true
		}
	}
	return false
}

// withRules adds a validate tag's limits to a schema: required, max and min (a length for text and
// lists, a bound for numbers), oneof (an enum), email. A rule after dive is the elements'.
func withRules(schema map[string]any, t reflect.Type, rules string) map[string]any {
	if rules == "" || schema["$ref"] != nil {
		return schema
	}
	out := map[string]any{}
	for k, v := range schema {
		out[k] = v
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, r := range strings.Split(rules, ",") {
		name, arg, _ := strings.Cut(r, "=")
		if name == "dive" {
			break
		}
		n, numErr := strconv.ParseFloat(arg, 64)
		switch {
		case name == "oneof":
			var enum []any
			for _, v := range strings.Fields(arg) {
				enum = append(enum, v)
			}
			if _, null := out["type"].([]any); null {
				enum = append(enum, nil)
			}
			out["enum"] = enum
		case name == "email":
			out["format"] = "email"
		case (name == "max" || name == "min") && numErr == nil:
			key := map[reflect.Kind]string{reflect.String: "Length", reflect.Slice: "Items", reflect.Map: "Properties"}[t.Kind()]
			switch {
			case key != "":
				out[name+key] = int(n)
			case t == centsType:
				// dollars: the tag counts cents? No: Cents' tags are not used; keep the bound as given.
				out[map[string]string{"max": "maximum", "min": "minimum"}[name]] = n
			default:
				out[map[string]string{"max": "maximum", "min": "minimum"}[name]] = n
			}
		}
	}
	return out
}

// queryParams are the parameters of a struct's `query:"name"` fields.
func (s *schemas) queryParams(q any) []any {
	var out []any
	if q == nil {
		return nil
	}
	t := reflect.TypeOf(q)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("query")
		if name == "" {
			continue
		}
		schema := withRules(s.of(f.Type, true), f.Type, f.Tag.Get("validate"))
		if _, isList := schema["items"]; isList {
			schema["type"] = "array"
		}
		if typ, ok := schema["type"].([]any); ok {
			schema["type"] = typ[0]
			if e, ok := schema["enum"].([]any); ok && len(e) > 0 && e[len(e)-1] == nil {
				schema["enum"] = e[:len(e)-1]
			}
		}
		p := map[string]any{"name": name, "in": "query", "schema": schema}
		if d := f.Tag.Get("doc"); d != "" {
			p["description"] = d
		}
		if hasRule(f.Tag.Get("validate"), "required") {
			p["required"] = true
		}
		if schema["type"] == "array" {
			p["style"], p["explode"] = "form", true
		}
		out = append(out, p)
	}
	return out
}

// listParams are a list's page, page_size, sort and q (platform/pagination).
func listParams(route Route) []any {
	spec := route.List
	sizes := make([]any, 0, len(spec.PageSizes))
	for _, n := range spec.PageSizes {
		sizes = append(sizes, n)
	}
	var sorts []string
	for f := range spec.Sortable {
		sorts = append(sorts, f, "-"+f)
	}
	sort.Strings(sorts)
	maxQ := spec.MaxQ
	if maxQ == 0 {
		maxQ = 100
	}
	out := []any{
		map[string]any{"name": "page", "in": "query", "description": "The page, from 1.", "schema": map[string]any{"type": "integer", "minimum": 1, "default": 1}},
		map[string]any{"name": "page_size", "in": "query", "description": "Items a page (0: all, where listed).", "schema": map[string]any{"type": "integer", "enum": sizes, "default": spec.DefaultSize}},
	}
	if len(sorts) > 0 {
		sortSchema := map[string]any{"type": "string", "enum": sorts}
		if spec.DefaultSort != "" {
			sortSchema["default"] = spec.DefaultSort
		}
		out = append(out, map[string]any{"name": "sort", "in": "query", "description": "A field to sort by; a leading - sorts descending.", "schema": sortSchema})
	}
	return append(out, map[string]any{"name": "q", "in": "query", "description": "Search text.", "schema": map[string]any{"type": "string", "maxLength": maxQ}})
}

// openAPIDescription is the document's front matter.
const openAPIDescription = "Marquee's HTTP API. The public API lives under /api/v1 and takes an API key " +
	"(`Authorization: Bearer <key>`, made in Settings → API), limited per key per minute (the `RateLimit` and " +
	"`RateLimit-Policy` headers say how many calls are left; a 429 says when to retry in `Retry-After`). The other " +
	"routes serve the web app with a session cookie and, on unsafe methods, the header `X-Requested-With: XMLHttpRequest`. " +
	"Every error answers the one envelope (`Error`). The guide: /developers and docs/api.md."

// errorResponses are the shared error answers (components.responses).
var errorResponses = map[string]string{
	"400":     "The request is not valid: the message says why, and errors names the fields.",
	"401":     "Not signed in (a cookie route), or no valid API key (/api/v1).",
	"403":     "Not allowed: the role or the key's scope does not reach it, or the CSRF header is missing.",
	"404":     "Not found, or another company's.",
	"429":     "Too many calls: wait Retry-After seconds.",
	"default": "An error, in the one envelope (docs/api.md \"Errors\").",
}

var errorResponseNames = map[string]string{"400": "BadRequest", "401": "Unauthorized", "403": "Forbidden", "404": "NotFound",
	"429": "TooManyRequests", "default": "Error"}

// rateLimitHeaders are the headers of every answer of /api/v1 past the key check.
func rateLimitHeaders() map[string]any {
	return map[string]any{
		"RateLimit-Policy": map[string]any{"description": "The key's limit: `\"per-key\";q=<calls>;w=<seconds>`.", "required": true, "schema": map[string]any{"type": "string"}},
		"RateLimit":        map[string]any{"description": "What is left: `\"per-key\";r=<remaining>;t=<seconds to reset>`.", "required": true, "schema": map[string]any{"type": "string"}},
	}
}

// buildOpenAPI makes the document of routes on the day today (the examples' dates).
func buildOpenAPI(routes []docRoute, today dates.Date) ([]byte, error) {
	s := &schemas{defs: map[string]any{}, names: map[schemaKey]string{}, taken: map[string]bool{}}
	errorRef := s.of(reflect.TypeOf(httpx.ErrorBody{}), false)
	paths := map[string]map[string]any{}
	opIDs := map[string]bool{}
	tags := map[string]bool{}
	for _, r := range routes {
		p := OpenAPIPath(r.Path)
		if paths[p] == nil {
			paths[p] = map[string]any{}
		}
		v1 := strings.HasPrefix(r.Path, V1Prefix+"/")
		op := map[string]any{}
		summary := r.Summary
		if summary == "" {
			summary = r.Method + " " + p
		}
		op["summary"] = summary
		opID := operationID(r.Method, p)
		for opIDs[opID] {
			opID += "Again"
		}
		opIDs[opID] = true
		op["operationId"] = opID
		unsafe := r.Method != "GET" || r.unsafeGET
		tag := "Public API (v1)"
		switch {
		case v1:
			op["security"] = []any{map[string]any{"apiKey": []string{}}}
			op["x-scope"] = r.V1Scope
		case r.device:
			tag = "Device: " + r.module
			op["security"] = []any{}
			if r.deviceSigned {
				op["security"] = []any{map[string]any{"deviceSignature": []string{}}}
			}
		default:
			tag = "Web: " + r.module
			switch {
			case r.Role == authz.Anonymous && !unsafe:
				op["security"] = []any{}
			case r.Role == authz.Anonymous:
				op["security"] = []any{map[string]any{"csrf": []string{}}}
			case !unsafe:
				op["security"] = []any{map[string]any{"session": []string{}}}
			default:
				op["security"] = []any{map[string]any{"session": []string{}, "csrf": []string{}}}
			}
		}
		tags[tag] = true
		op["tags"] = []string{tag}
		op["x-role"] = r.Role
		var params []any
		for _, m := range ginParam.FindAllStringSubmatch(r.Path, -1) {
			params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": "string", "maxLength": 200}})
		}
		params = append(params, s.queryParams(r.Query)...)
		if r.List != nil {
			params = append(params, listParams(r.Route)...)
		}
		if r.Method == "POST" && r.Path == V1Prefix+"/campaigns" {
			params = append(params, map[string]any{"name": "Idempotency-Key", "in": "header", "required": true,
				"description": "Makes the creation safe to retry: a repeat with the same key answers the first call's result instead of creating again.",
				"schema":      map[string]any{"type": "string", "maxLength": 100}})
		}
		if r.etag {
			params = append(params, map[string]any{"name": "If-None-Match", "in": "header", "required": false,
				"description": "The ETag of the answer the client holds: when it is still current the answer is 304, without a body.",
				"schema":      map[string]any{"type": "string", "maxLength": 200}})
		}
		if params != nil {
			op["parameters"] = params
		}
		var example any
		switch req := r.Request.(type) {
		case nil:
		case Upload:
			file := map[string]any{"type": "string", "format": "binary", "contentMediaType": "application/octet-stream"}
			var prop any = file
			if req.Many {
				prop = map[string]any{"type": "array", "items": file}
			}
			// The uploads read every part named file or files (creatives.readParts), Field first.
			content := map[string]any{"multipart/form-data": map[string]any{
				"schema": map[string]any{"type": "object", "minProperties": 1, "properties": map[string]any{"file": prop, "files": prop}}}}
			if req.JSON != nil {
				content["application/json"] = map[string]any{"schema": s.of(reflect.TypeOf(req.JSON), true)}
			}
			op["requestBody"] = map[string]any{"required": true, "content": content}
		default:
			media := map[string]any{"schema": s.of(reflect.TypeOf(req), true)}
			example = r.example
			if f, ok := example.(func(dates.Date) any); ok {
				example = f(today)
			}
			if example != nil {
				media["example"] = example
			}
			op["requestBody"] = map[string]any{"required": true, "content": map[string]any{"application/json": media}}
		}
		status := r.Success
		if status == 0 {
			status = http.StatusOK
		}
		ok := map[string]any{"description": http.StatusText(status)}
		switch res := r.Response.(type) {
		case nil:
			if status != http.StatusNoContent {
				// A row without a DTO answers a JSON value the document does not describe: only
				// the kernel's own documents (this one, the health checks) are left so.
				ok["content"] = map[string]any{"application/json": map[string]any{"schema": map[string]any{}}}
			}
		case AnyOf:
			alts := make([]any, 0, len(res))
			for _, v := range res {
				alts = append(alts, s.of(reflect.TypeOf(v), false))
			}
			ok["content"] = map[string]any{"application/json": map[string]any{"schema": map[string]any{"anyOf": alts}}}
		case File:
			content := map[string]any{}
			for _, t := range res.Types {
				content[t] = map[string]any{"schema": map[string]any{"type": "string", "format": "binary"}}
			}
			ok["content"] = content
		default:
			t := reflect.TypeOf(res)
			var schema map[string]any
			if t.Kind() == reflect.Pointer && reflect.ValueOf(res).IsNil() {
				schema = nullable(s.of(t.Elem(), false)) // the row says the answer may be null
			} else {
				for t.Kind() == reflect.Pointer {
					t = t.Elem()
				}
				schema = s.of(t, false)
			}
			ok["content"] = map[string]any{"application/json": map[string]any{"schema": schema}}
		}
		if v1 {
			ok["headers"] = rateLimitHeaders()
		}
		responses := map[string]any{strconv.Itoa(status): ok, "default": errRef("default"), "400": errRef("400")}
		if r.etag {
			etag := map[string]any{"description": "A strong validator of the answer, for If-None-Match.", "required": true, "schema": map[string]any{"type": "string"}}
			if ok["headers"] == nil {
				ok["headers"] = map[string]any{}
			}
			ok["headers"].(map[string]any)["ETag"] = etag
			responses["304"] = map[string]any{"description": "Not Modified: If-None-Match names the current ETag; no body.",
				"headers": map[string]any{"ETag": etag}}
		}
		if r.Role != authz.Anonymous || v1 {
			responses["401"] = errRef("401")
		}
		if r.Role != authz.Anonymous || unsafe || v1 {
			responses["403"] = errRef("403")
		}
		if len(ginParam.FindAllString(r.Path, -1)) > 0 {
			responses["404"] = errRef("404")
		}
		if v1 {
			responses["429"] = errRef("429")
		}
		if r.conflict != nil {
			responses["409"] = map[string]any{"description": "A conflict: this body, or the envelope when the conflict is of another kind.",
				"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"anyOf": []any{s.of(reflect.TypeOf(r.conflict), false), errorRef}}}}}
			if v1 {
				responses["409"].(map[string]any)["headers"] = rateLimitHeaders()
			}
		}
		op["responses"] = responses
		var d strings.Builder
		if v1 {
			fmt.Fprintf(&d, "Needs a key with the **%s** scope.\n\n", r.V1Scope)
			samples := codeSamples(r.Method, p, example, r.Request)
			op["x-codeSamples"] = samples
			// The same examples in the description, for viewers that do not read x-codeSamples.
			for _, smp := range samples {
				m := smp.(map[string]any)
				fence := map[string]string{"curl": "bash", "TypeScript": "ts"}[m["lang"].(string)]
				fmt.Fprintf(&d, "%s:\n\n```%s\n%s\n```\n\n", m["label"], fence, m["source"])
			}
		} else {
			fmt.Fprintf(&d, "Role: %s.", r.Role)
		}
		op["description"] = strings.TrimSpace(d.String())
		paths[p][strings.ToLower(r.Method)] = op
	}
	components := map[string]any{}
	for code, desc := range errorResponses {
		resp := map[string]any{"description": desc, "content": map[string]any{"application/json": map[string]any{"schema": errorRef}}}
		if code == "429" {
			h := rateLimitHeaders()
			h["Retry-After"] = map[string]any{"description": "Seconds to wait.", "required": true, "schema": map[string]any{"type": "integer"}}
			resp["headers"] = h
		}
		components[errorResponseNames[code]] = resp
	}
	tagList := []any{map[string]any{"name": "Public API (v1)", "description": "Called with an API key; versioned: a change that breaks a client gets /api/v2."}}
	var names []string
	for t := range tags {
		if t != "Public API (v1)" {
			names = append(names, t)
		}
	}
	sort.Strings(names)
	for _, t := range names {
		desc := "The web app's calls of the " + strings.TrimPrefix(t, "Web: ") + " module (session cookie)."
		if m, ok := strings.CutPrefix(t, "Device: "); ok {
			desc = "The calls of paired players (the " + m + " module): signed with the screen's Ed25519 key, never a session or an API key."
		}
		tagList = append(tagList, map[string]any{"name": t, "description": desc})
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "Marquee API", "version": "1.0.0", "description": openAPIDescription,
			"license": map[string]any{"name": "Proprietary", "identifier": "LicenseRef-Marquee"}, "contact": map[string]any{"name": "Marquee", "url": "https://marquee.example/developers"}},
		"servers": []any{map[string]any{"url": "/", "description": "This server"}},
		"tags":    tagList,
		"paths":   paths,
		"components": map[string]any{
			"schemas":   s.defs,
			"responses": components,
			"securitySchemes": map[string]any{
				"apiKey":  map[string]any{"type": "http", "scheme": "bearer", "description": "An API key (mq_live_…) from Settings → API. /api/v1 only."},
				"session": map[string]any{"type": "apiKey", "in": "cookie", "name": "marquee_session", "description": "The web app's session cookie."},
				"csrf":    map[string]any{"type": "apiKey", "in": "header", "name": "X-Requested-With", "description": "XMLHttpRequest, on unsafe methods of session routes."},
				"deviceSignature": map[string]any{"type": "apiKey", "in": "header", "name": "X-Screen-Signature",
					"description": "A paired screen's Ed25519 signature, with X-Screen-Id and X-Screen-Timestamp (docs/screens.md). /api/device only."},
			},
		},
	}
	return json.Marshal(doc)
}

func errRef(code string) map[string]any {
	return map[string]any{"$ref": "#/components/responses/" + errorResponseNames[code]}
}

// operationID is a camelCase id of the method and path: get /api/campaigns/{id} -> getApiCampaignsId.
func operationID(method, path string) string {
	words := strings.Fields(nonWordRE.ReplaceAllString(path, " "))
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, w := range words {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// Conflicts declares the body of the row's 409, when it is not the error envelope (a campaign
// creation's conflict draft, B §7).
func (r Route) Conflicts(v any) Route {
	r.conflict = v
	return r
}

// codeSamples are the curl and TypeScript examples of a public call (x-codeSamples, shown by the
// reference page).
func codeSamples(method, path string, example, request any) []any {
	url := "$MARQUEE_URL" + path
	var curl, ts strings.Builder
	fmt.Fprintf(&curl, "curl")
	if method != "GET" {
		fmt.Fprintf(&curl, " -X %s", method)
	}
	fmt.Fprintf(&curl, " %q \\\n  -H \"Authorization: Bearer $MARQUEE_API_KEY\"", url)
	tsURL := "`${process.env.MARQUEE_URL}" + path + "`"
	fmt.Fprintf(&ts, "const res = await fetch(%s, {\n  method: '%s',\n  headers: {\n    Authorization: `Bearer ${process.env.MARQUEE_API_KEY}`,\n", tsURL, method)
	switch request.(type) {
	case nil:
		ts.WriteString("  },\n")
	case Upload:
		fmt.Fprintf(&curl, " \\\n  -F \"%s=@creative.jpg\"", request.(Upload).Field)
		fmt.Fprintf(&ts, "  },\n  body: form, // a FormData with the file in %q\n", request.(Upload).Field)
	default:
		body := "{}"
		if example != nil {
			b, _ := json.Marshal(example)
			body = string(b)
		}
		fmt.Fprintf(&curl, " \\\n  -H \"Content-Type: application/json\" \\\n  -d '%s'", body)
		if path == V1Prefix+"/campaigns" && method == "POST" {
			curl.WriteString(" \\\n  -H \"Idempotency-Key: $(uuidgen)\"")
			ts.WriteString("    'Idempotency-Key': crypto.randomUUID(),\n")
		}
		fmt.Fprintf(&ts, "    'Content-Type': 'application/json',\n  },\n  body: JSON.stringify(%s),\n", body)
	}
	ts.WriteString("});\nif (!res.ok) throw new Error((await res.json()).message);\nconst data = await res.json();")
	return []any{map[string]any{"lang": "curl", "label": "curl", "source": curl.String()},
		map[string]any{"lang": "TypeScript", "label": "TypeScript", "source": ts.String()}}
}
