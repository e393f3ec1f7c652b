package server

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	"marquee/platform/authz"
	"marquee/platform/dates"
	"marquee/platform/httpx"
	"marquee/platform/money"
)

// The OpenAPI 3.1 document (issue 18), built from the route rows the kernel registered: every
// route's method, path, role and, where the row says, its summary and DTOs. A hand-written
// reflector turns the DTOs into JSON Schema: the DTOs are plain structs with json tags and three
// value types of our own (money.Cents, dates.Date, time.Time), which a library would need taught
// anyway, so a dependency would not earn its place.

// Upload is a Request of a multipart upload: Field names the file part.
type Upload struct{ Field string }

// Example sets the request body's example (the document shows it, and the contract test sends it).
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

type schemas struct {
	defs  map[string]any
	names map[reflect.Type]string
}

var (
	timeType  = reflect.TypeOf(time.Time{})
	dateType  = reflect.TypeOf(dates.Date{})
	centsType = reflect.TypeOf(money.Cents(0))
	rawType   = reflect.TypeOf(json.RawMessage{})
	genericRE = regexp.MustCompile(`[A-Za-z0-9_./]*\.`)
	nonWordRE = regexp.MustCompile(`[^A-Za-z0-9]+`)
)

func (s *schemas) name(t reflect.Type) string {
	if n, ok := s.names[t]; ok {
		return n
	}
	base := t.Name()
	if strings.Contains(base, "[") { // a generic: Page[marquee/modules/x.Campaign] -> PageCampaign
		base = nonWordRE.ReplaceAllString(genericRE.ReplaceAllString(base, ""), "")
	}
	n := base
	for i := 2; ; i++ {
		taken := false
		for _, other := range s.names {
			if other == n {
				taken = true
				break
			}
		}
		if !taken {
			break
		}
		pkg := t.PkgPath()
		n = strings.ToUpper(pkg[strings.LastIndex(pkg, "/")+1:][:1]) + pkg[strings.LastIndex(pkg, "/")+2:] + base
		if i > 2 {
			n = fmt.Sprintf("%s%d", n, i)
		}
	}
	s.names[t] = n
	return n
}

// of returns the schema of t: a $ref for a named struct (defined once in components).
func (s *schemas) of(t reflect.Type) map[string]any {
	switch t {
	case timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case dateType:
		return map[string]any{"type": []any{"string", "null"}, "format": "date"}
	case centsType:
		return map[string]any{"type": "number", "description": "US dollars, at most two decimals"}
	case rawType:
		return map[string]any{}
	}
	switch t.Kind() {
	case reflect.Pointer:
		inner := s.of(t.Elem())
		if typ, ok := inner["type"].(string); ok {
			out := map[string]any{}
			for k, v := range inner {
				out[k] = v
			}
			out["type"] = []any{typ, "null"}
			return out
		}
		return map[string]any{"anyOf": []any{inner, map[string]any{"type": "null"}}}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "contentEncoding": "base64"}
		}
		return map[string]any{"type": []any{"array", "null"}, "items": s.of(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": []any{"object", "null"}, "additionalProperties": s.of(t.Elem())}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		if t.Name() == "" {
			return s.object(t)
		}
		n := s.name(t)
		if _, done := s.defs[n]; !done {
			s.defs[n] = nil // a recursive type refers to itself
			s.defs[n] = s.object(t)
		}
		return map[string]any{"$ref": "#/components/schemas/" + n}
	}
	return map[string]any{}
}

// object is a struct's schema: its json fields (embedded structs' fields inline); a field without
// omitempty is required, as encoding/json always writes it.
func (s *schemas) object(t reflect.Type) map[string]any {
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
			props[name] = s.of(f.Type)
			if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
				required = append(required, name)
			}
		}
	}
	walk(t)
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		sort.Strings(required)
		out["required"] = required
	}
	return out
}

// OpenAPIInfo is the document's front matter.
const openAPIDescription = "Marquee's HTTP API. The public API lives under /api/v1 and takes an API key " +
	"(`Authorization: Bearer <key>`, made in Settings → API). The other routes serve the web app with a session " +
	"cookie and, on unsafe methods, the header `X-Requested-With: XMLHttpRequest`. The guide: docs/api.md."

// buildOpenAPI makes the document of routes (extra are routes registered outside a module, the
// health checks).
func buildOpenAPI(routes []docRoute) ([]byte, error) {
	s := &schemas{defs: map[string]any{}, names: map[reflect.Type]string{}}
	errorRef := s.of(reflect.TypeOf(httpx.ErrorBody{}))
	paths := map[string]map[string]any{}
	opIDs := map[string]bool{}
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
		opID := strings.Trim(nonWordRE.ReplaceAllString(strings.ToLower(r.Method)+" "+p, "_"), "_")
		for opIDs[opID] {
			opID += "_"
		}
		opIDs[opID] = true
		op["operationId"] = opID
		switch {
		case v1:
			op["tags"] = []string{"Public API (v1)"}
			op["security"] = []any{map[string]any{"apiKey": []string{}}}
			op["x-scope"] = r.V1Scope
		default:
			op["tags"] = []string{"web: " + r.module}
			switch {
			case r.Role == authz.Anonymous:
				op["security"] = []any{map[string]any{}}
			case r.Method == "GET":
				op["security"] = []any{map[string]any{"session": []string{}}}
			default:
				op["security"] = []any{map[string]any{"session": []string{}, "csrf": []string{}}}
			}
			op["x-role"] = r.Role
		}
		if v1 {
			op["x-role"] = r.Role
		}
		var params []any
		for _, m := range ginParam.FindAllStringSubmatch(r.Path, -1) {
			params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
		if params != nil {
			op["parameters"] = params
		}
		if r.Method == "POST" && r.Path == V1Prefix+"/campaigns" {
			op["parameters"] = append(params, map[string]any{"name": "Idempotency-Key", "in": "header", "required": true,
				"description": "Makes the creation safe to retry: a repeat with the same key answers the first call's result instead of creating again.",
				"schema":      map[string]any{"type": "string", "maxLength": 100}})
		}
		var example any
		switch req := r.Request.(type) {
		case nil:
		case Upload:
			op["requestBody"] = map[string]any{"required": true, "content": map[string]any{"multipart/form-data": map[string]any{
				"schema": map[string]any{"type": "object", "required": []string{req.Field},
					"properties": map[string]any{req.Field: map[string]any{"type": "string", "contentMediaType": "application/octet-stream"}}}}}}
		default:
			media := map[string]any{"schema": s.of(reflect.TypeOf(req))}
			if r.example != nil {
				media["example"] = r.example
				example = r.example
			}
			op["requestBody"] = map[string]any{"required": true, "content": map[string]any{"application/json": media}}
		}
		ok := map[string]any{"description": "Success"}
		if r.Response != nil {
			ok["content"] = map[string]any{"application/json": map[string]any{"schema": s.of(reflect.TypeOf(r.Response))}}
		}
		errResp := map[string]any{"description": "An error, in the one envelope (docs/api.md \"Errors\")",
			"content": map[string]any{"application/json": map[string]any{"schema": errorRef}}}
		op["responses"] = map[string]any{"2XX": ok, "default": errResp}
		if v1 {
			samples := codeSamples(r.Method, p, example, r.Request)
			op["x-codeSamples"] = samples
			// The same examples in the description, for viewers that do not read x-codeSamples.
			var d strings.Builder
			fmt.Fprintf(&d, "Needs a key with the **%s** scope.\n\n", r.V1Scope)
			for _, smp := range samples {
				m := smp.(map[string]any)
				fence := map[string]string{"curl": "bash", "TypeScript": "ts"}[m["lang"].(string)]
				fmt.Fprintf(&d, "%s:\n\n```%s\n%s\n```\n\n", m["label"], fence, m["source"])
			}
			op["description"] = d.String()
		}
		paths[p][strings.ToLower(r.Method)] = op
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": "Marquee API", "version": "1.0.0", "description": openAPIDescription},
		"servers": []any{map[string]any{"url": "/"}},
		"tags":    []any{map[string]any{"name": "Public API (v1)", "description": "Called with an API key; versioned: a change that breaks a client gets /api/v2."}},
		"paths":   paths,
		"components": map[string]any{
			"schemas": s.defs,
			"securitySchemes": map[string]any{
				"apiKey":  map[string]any{"type": "http", "scheme": "bearer", "description": "An API key (mq_live_…) from Settings → API. /api/v1 only."},
				"session": map[string]any{"type": "apiKey", "in": "cookie", "name": "marquee_session", "description": "The web app's session cookie."},
				"csrf":    map[string]any{"type": "apiKey", "in": "header", "name": "X-Requested-With", "description": "XMLHttpRequest, on unsafe methods of session routes."},
			},
		},
	}
	return json.Marshal(doc)
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
