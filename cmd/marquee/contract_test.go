package main

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"marquee/platform/dates"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// TestOpenAPIContract runs the document's public calls against a real server holding the demo data,
// with the demo key that `make run` prints, sending the document's own examples: the test client
// checks every call against the served document (kin-openapi, platform/testkit/openapi.go), and the
// listed calls must succeed. The examples' dates are the served document's, computed from the
// server's clock: the test moves the clock to prove they are not fixed.
func TestOpenAPIContract(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		t.Parallel()
		s := testkit.Start(t, dialect, buildModules)
		if err := seedDemo(t.Context(), &application{modules: s.Modules}, io.Discard); err != nil {
			t.Fatal(err)
		}
		// Five weeks and a Thursday later (past the Wednesday cut-off): a fixed date in an example
		// would now be refused.
		s.Clock.Advance(39*24*time.Hour + 6*time.Hour)
		var doc map[string]any
		s.Client(t).Get("/api/openapi.json").Expect(t, http.StatusOK).JSON(t, &doc)
		create := doc["paths"].(map[string]any)["/api/v1/campaigns"].(map[string]any)["post"].(map[string]any)
		example := create["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["example"].(map[string]any)
		today := dates.Today(s.Kernel.Clock)
		if want := today.NextMonday().AddWeeks(1).String(); example["startDate"] != want {
			t.Fatalf("the example starts %v on %s, want the next bookable Monday %s", example["startDate"], today, want)
		}
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
			// The answer itself is checked by the client against the document (testkit: kin-openapi).
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
				continue
			}
			if mustSucceed.MatchString(key) || res.Status < 400 || res.Status >= 500 {
				t.Errorf("%s: %d %s", key, res.Status, res.Body)
			}
		}
		if succeeded < 10 {
			t.Fatalf("only %d calls succeeded", succeeded)
		}
	})
}
