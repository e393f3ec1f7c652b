package marquee_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "marquee"

// moduleDeps is the module graph of DESIGN.md §2: which modules each module may use. It is
// acyclic; a reaction that would point upward goes through platform/events.
var moduleDeps = map[string][]string{
	"identity":  {},
	"locations": {},
	"creatives": {"identity", "locations"},
	"billing":   {"identity"},
	"campaigns": {"identity", "locations", "creatives", "billing"},
	"partners":  {"identity", "locations", "creatives", "billing", "campaigns"},
	"reports":   {"identity", "locations", "creatives", "billing", "campaigns"},
	"webhooks":  {"identity", "locations", "creatives", "billing", "campaigns", "reports"},
}

// violation returns why the package at pkg (a path inside the repository, such as
// "modules/campaigns/internal/store") may not import imp, or "" when it may.
func violation(pkg, imp string) string {
	if !strings.HasPrefix(imp, modulePath+"/") {
		return ""
	}
	target := strings.TrimPrefix(imp, modulePath+"/")
	if strings.HasPrefix(target, "cmd/") && !strings.HasPrefix(pkg, "cmd/") {
		return "only cmd imports cmd"
	}
	if strings.HasPrefix(pkg, "platform/") && strings.HasPrefix(target, "modules/") {
		return "the platform imports no module"
	}
	if strings.HasPrefix(pkg, "webapp") && strings.HasPrefix(target, "modules/") {
		return "the web app package imports no module"
	}
	if !strings.HasPrefix(pkg, "modules/") || !strings.HasPrefix(target, "modules/") {
		return ""
	}
	from := strings.SplitN(strings.TrimPrefix(pkg, "modules/"), "/", 2)[0]
	parts := strings.SplitN(strings.TrimPrefix(target, "modules/"), "/", 2)
	to := parts[0]
	if from == to {
		return ""
	}
	if len(parts) > 1 {
		return "a module imports only another module's root package (its Service and DTOs), not " + target
	}
	deps, known := moduleDeps[from]
	if !known {
		return "module " + from + " is not in the module graph of architecture_test.go (DESIGN.md §2)"
	}
	for _, d := range deps {
		if d == to {
			return ""
		}
	}
	return "module " + from + " may not depend on " + to + " (DESIGN.md §2: the module graph is acyclic)"
}

// TestModuleBoundaries reads every Go file's imports (tests included) and checks them against the
// boundary rules of DESIGN.md §2.
func TestModuleBoundaries(t *testing.T) {
	fset := token.NewFileSet()
	var problems []string
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".git", "var", "bin", "dist":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			if why := violation(pkg, imp); why != "" {
				problems = append(problems, path+" imports "+imp+": "+why)
			}
		}
		checked++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("only %d Go files were checked; is the test running from the repository root?", checked)
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

// The checker itself must catch each kind of crossing.
func TestBoundaryRulesCatchViolations(t *testing.T) {
	for _, tc := range []struct {
		pkg, imp string
		bad      bool
	}{
		{"modules/campaigns", "marquee/modules/identity", false},
		{"modules/campaigns/internal/store", "marquee/platform/db", false},
		{"modules/campaigns", "marquee/modules/identity/internal/store", true},
		{"modules/identity", "marquee/modules/campaigns", true},
		{"modules/billing", "marquee/modules/locations", true},
		{"modules/newthing", "marquee/modules/identity", true},
		{"modules/identity", "marquee/cmd/marquee", true},
		{"platform/server", "marquee/modules/identity", true},
		{"platform/testkit", "marquee/cmd/marquee", true},
		{"cmd/marquee", "marquee/modules/identity", false},
		{"modules/identity", "github.com/gin-gonic/gin", false},
	} {
		if got := violation(tc.pkg, tc.imp) != ""; got != tc.bad {
			t.Errorf("%s importing %s: violation = %v, want %v", tc.pkg, tc.imp, got, tc.bad)
		}
	}
}
