package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"marquee/platform/server"
	"marquee/platform/testkit"
)

// TestOpenAPIContract runs the document's public calls against a real server holding the demo data,
// with the demo key that `make run` prints: every call answers what the document says, a 2xx
// matching the operation's response schema or an error matching the envelope's. The response
// schemas are reflected from the DTOs on the route rows, so a handler that answers something else
// than its row declares fails here.
func TestOpenAPIContract(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		t.Parallel()
		s := testkit.Start(t, dialect, buildModules)
		if err := seedDemo(t.Context(), &application{modules: s.Modules}, io.Discard); err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		s.Client(t).Get("/api/openapi.json").Expect(t, http.StatusOK).JSON(t, &doc)
		v := &validator{doc: doc}
		api := keyClient(s, t, "mq_live_demo0advertiser0key0for0local0use0only")

		// Path parameters come from the API's own lists, as a client would find them.
		first := func(path string) string {
			var page struct{ Items []struct{ ID string } }
			api.Get(path).Expect(t, http.StatusOK).JSON(t, &page)
			if len(page.Items) == 0 {
				t.Fatalf("%s is empty in the demo data", path)
			}
			return page.Items[0].ID
		}
		params := map[string]string{"id": first("/api/v1/campaigns")}
		reportID := first("/api/v1/reports")
		faceID := ""

		// The calls that change something run last, pause before resume before stop; the spots
		// before the quote and the creation, which book one of them ({face_id} in their examples).
		order := []string{"get", "post", "put"}
		actions := map[string]int{"pause": 0, "resume": 1, "stop": 2}
		type call struct{ method, path string }
		var calls []call
		paths := doc["paths"].(map[string]any)
		for _, m := range order {
			var puts []call
			for p, ops := range paths {
				if !strings.HasPrefix(p, server.V1Prefix+"/") {
					continue
				}
				if _, ok := ops.(map[string]any)[m]; ok {
					if m == "put" {
						puts = append(puts, call{m, p})
					} else {
						calls = append(calls, call{m, p})
					}
				}
			}
			sort.SliceStable(calls, func(i, j int) bool {
				return calls[i].method == calls[j].method && strings.HasSuffix(calls[i].path, "/available-spots") && !strings.HasSuffix(calls[j].path, "/available-spots")
			})
			for i := 0; i < len(puts); i++ {
				for j := i + 1; j < len(puts); j++ {
					if actions[puts[j].path[strings.LastIndex(puts[j].path, "/")+1:]] < actions[puts[i].path[strings.LastIndex(puts[i].path, "/")+1:]] {
						puts[i], puts[j] = puts[j], puts[i]
					}
				}
			}
			calls = append(calls, puts...)
		}
		mustSucceed := regexp.MustCompile(`^get /api/v1/(markets|campaigns|campaigns/\{id\}|campaigns/\{id\}/weeks|creatives|reports|reports/\{id\}/file)$|^put /api/v1/campaigns/\{id\}/(pause|resume)$|^post /api/v1/(available-spots|quotes|campaigns)$`)
		succeeded := 0
		for _, c := range calls {
			op := paths[c.path].(map[string]any)[c.method].(map[string]any)
			url := c.path
			if strings.HasPrefix(c.path, "/api/v1/reports/") {
				url = strings.ReplaceAll(url, "{id}", reportID)
			}
			url = regexp.MustCompile(`\{(\w+)\}`).ReplaceAllStringFunc(url, func(m string) string { return params[m[1:len(m)-1]] })
			var body any
			if rb, ok := op["requestBody"].(map[string]any); ok {
				media, isJSON := rb["content"].(map[string]any)["application/json"].(map[string]any)
				if !isJSON {
					continue // the upload is exercised by TestAPIKeys
				}
				ex, ok := media["example"]
				if !ok {
					ex = map[string]any{}
				}
				raw, _ := json.Marshal(ex)
				body = strings.ReplaceAll(string(raw), "{face_id}", faceID)
			}
			api.Header = http.Header{}
			ps, _ := op["parameters"].([]any)
			for _, p := range ps {
				if p := p.(map[string]any); p["in"] == "header" && p["required"] == true {
					api.Header.Set(p["name"].(string), "contract-"+c.path)
				}
			}
			res := api.Do(strings.ToUpper(c.method), url, body)
			if len(api.Header) > 0 && res.Status < 300 {
				// Idempotent: the same key answers the same campaign, and creates nothing more.
				again := api.Do(strings.ToUpper(c.method), url, body)
				if again.Status != res.Status || string(again.Body) != string(res.Body) {
					t.Errorf("%s repeated with its Idempotency-Key: %d %s, first %d %s", c.path, again.Status, again.Body, res.Status, res.Body)
				}
			}
			key := c.method + " " + c.path
			t.Logf("%s -> %d %.200s", key, res.Status, res.Body)
			responses := op["responses"].(map[string]any)
			if res.Status >= 200 && res.Status < 300 {
				succeeded++
				if strings.HasSuffix(c.path, "/available-spots") {
					var spots []struct {
						Xxx       string
						Available bool
					}
					res.JSON(t, &spots)
					for _, sp := range spots {
						if sp.Available && faceID == "" {
							faceID = sp.Xxx
						}
					}
				}
				content, ok := responses["2XX"].(map[string]any)["content"].(map[string]any)
				if !ok {
					continue // a file download
				}
				v.check(t, key, content["application/json"].(map[string]any)["schema"], res.Body)
				continue
			}
			if mustSucceed.MatchString(key) {
				t.Errorf("%s: %d %s", key, res.Status, res.Body)
				continue
			}
			if res.Status < 400 || res.Status >= 500 {
				t.Errorf("%s: %d %s", key, res.Status, res.Body)
				continue
			}
			// A refusal the rules make (a conflict, a missing field): the documented envelope.
			schema := responses["default"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"]
			if res.Status == http.StatusConflict && strings.HasSuffix(c.path, "/campaigns") {
				continue // the conflict draft, documented in the operation's summary
			}
			v.check(t, key, schema, res.Body)
		}
		if succeeded < 10 {
			t.Fatalf("only %d calls succeeded", succeeded)
		}
	})
}

// validator checks a JSON value against the subset of JSON Schema the document uses.
type validator struct{ doc map[string]any }

func (v *validator) check(t *testing.T, call string, schema any, body []byte) {
	t.Helper()
	var val any
	if err := json.Unmarshal(body, &val); err != nil {
		t.Errorf("%s: not JSON: %s", call, body)
		return
	}
	if err := v.validate(schema, val, "$"); err != nil {
		t.Errorf("%s: %v", call, err)
	}
}

func (v *validator) validate(schema, val any, at string) error {
	s, _ := schema.(map[string]any)
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		return v.validate(v.doc["components"].(map[string]any)["schemas"].(map[string]any)[name], val, at)
	}
	if any_, ok := s["anyOf"].([]any); ok {
		for _, alt := range any_ {
			if v.validate(alt, val, at) == nil {
				return nil
			}
		}
		return fmt.Errorf("%s: %v matches no alternative", at, val)
	}
	var types []string
	switch ty := s["type"].(type) {
	case string:
		types = []string{ty}
	case []any:
		for _, x := range ty {
			types = append(types, x.(string))
		}
	}
	if len(types) > 0 {
		ok := false
		for _, ty := range types {
			switch x := val.(type) {
			case nil:
				ok = ok || ty == "null"
			case bool:
				ok = ok || ty == "boolean"
			case float64:
				ok = ok || ty == "number" || (ty == "integer" && x == float64(int64(x)))
			case string:
				ok = ok || ty == "string"
			case []any:
				ok = ok || ty == "array"
			case map[string]any:
				ok = ok || ty == "object"
			}
		}
		if !ok {
			return fmt.Errorf("%s: %v is not %v", at, val, types)
		}
	}
	switch x := val.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range asStrings(s["required"]) {
			if _, ok := x[r]; !ok {
				return fmt.Errorf("%s: missing %q", at, r)
			}
		}
		for k, fv := range x {
			if ps, ok := props[k]; ok {
				if err := v.validate(ps, fv, at+"."+k); err != nil {
					return err
				}
			} else if ap, ok := s["additionalProperties"]; ok {
				if err := v.validate(ap, fv, at+"."+k); err != nil {
					return err
				}
			} else if props != nil {
				return fmt.Errorf("%s: %q is not in the schema", at, k)
			}
		}
	case []any:
		for i, e := range x {
			if err := v.validate(s["items"], e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func asStrings(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		out = append(out, x.(string))
	}
	return out
}
