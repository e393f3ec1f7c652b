package marquee_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The one module shape of docs/architecture.md ("The shape of a module"), as far as a parser can
// check it. Every module under modules/ is held to it, so a new module copies the shape and not a
// dialect.

// maxMethodsPerReceiver is the most methods one type may have: a receiver past it is a namespace,
// not a type, and wants an area of its own (campaigns' delivery assurance has its receiver).
const maxMethodsPerReceiver = 80

// moduleFile is one parsed non-test Go file of a module's root package.
type moduleFile struct {
	name string // the base name, "handlers.go"
	file *ast.File
}

// shapeProblems returns what in one module's root package breaks the shape. files are its non-test
// Go files; dirs the names of its sub-folders; modules the import paths of every module's root
// package (a Deps field of one of their Service types is a foreign Service).
func shapeProblems(module string, files []moduleFile, dirs []string, modules map[string]bool) []string {
	var problems []string
	has := map[string]bool{}
	for _, f := range files {
		has[f.name] = true
	}
	for _, want := range []string{"module.go", "handlers.go", "service.go"} {
		if !has[want] {
			problems = append(problems, module+": has no "+want)
		}
	}
	hasStore := false
	for _, d := range dirs {
		hasStore = hasStore || d == "internal/store"
	}
	if !hasStore {
		problems = append(problems, module+": has no internal/store package (its rows, queries and migrations)")
	}

	methods := map[string]int{}
	for _, f := range files {
		imports := map[string]string{} // local name -> path
		for _, spec := range f.file.Imports {
			path, _ := strconv.Unquote(spec.Path.Value)
			name := path[strings.LastIndex(path, "/")+1:]
			if spec.Name != nil {
				name = spec.Name.Name
			}
			imports[name] = path
			// module.go takes the connection (Deps.DB) to build the store; no other root file
			// touches gorm: the queries are the store's.
			if path == "gorm.io/gorm" && f.name != "module.go" {
				problems = append(problems, module+"/"+f.name+": imports gorm; queries belong in internal/store")
			}
		}
		for _, decl := range f.file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					continue
				}
				recv := receiverType(d.Recv.List[0].Type)
				methods[recv]++
				if recv == "Module" && isGinHandler(d.Type, imports) {
					if f.name != "handlers.go" {
						problems = append(problems, fmt.Sprintf("%s/%s: handler %s belongs in handlers.go", module, f.name, d.Name.Name))
					}
					if !strings.HasSuffix(d.Name.Name, "Handler") {
						problems = append(problems, fmt.Sprintf("%s/%s: handler %s: a handler's name ends in Handler", module, f.name, d.Name.Name))
					}
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok || ts.Name.Name != "Deps" {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, field := range st.Fields.List {
						sel, ok := field.Type.(*ast.SelectorExpr)
						if !ok || sel.Sel.Name != "Service" {
							continue
						}
						if pkg, ok := sel.X.(*ast.Ident); ok && modules[imports[pkg.Name]] {
							problems = append(problems, fmt.Sprintf("%s/%s: Deps holds %s.Service; declare the few methods it calls as an interface of its own", module, f.name, pkg.Name))
						}
					}
				}
			}
		}
	}
	for recv, n := range methods {
		if n > maxMethodsPerReceiver {
			problems = append(problems, fmt.Sprintf("%s: %s has %d methods (at most %d)", module, recv, n, maxMethodsPerReceiver))
		}
	}
	return problems
}

// receiverType is the type name of a receiver expression: "Module" for (m *Module).
func receiverType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return receiverType(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr: // a generic receiver
		return receiverType(t.X)
	}
	return ""
}

// isGinHandler reports whether fn is func(c *gin.Context) error: an HTTP handler of the module.
func isGinHandler(fn *ast.FuncType, imports map[string]string) bool {
	if fn.Params == nil || len(fn.Params.List) != 1 || len(fn.Params.List[0].Names) > 1 {
		return false
	}
	if fn.Results == nil || len(fn.Results.List) != 1 || exprName(fn.Results.List[0].Type) != "error" {
		return false // a helper that takes the context (writes a cookie, say), not a handler
	}
	star, ok := fn.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Context" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && imports[pkg.Name] == "github.com/gin-gonic/gin"
}

func exprName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// TestModuleShape holds every module to the one shape.
func TestModuleShape(t *testing.T) {
	entries, err := os.ReadDir("modules")
	if err != nil {
		t.Fatal(err)
	}
	modules := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() {
			modules[modulePath+"/modules/"+e.Name()] = true
		}
	}
	if len(modules) < 8 {
		t.Fatalf("found %d modules; is the test running from the repository root?", len(modules))
	}
	fset := token.NewFileSet()
	var problems []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		root := filepath.Join("modules", e.Name())
		var files []moduleFile
		var dirs []string
		items, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			name := it.Name()
			if it.IsDir() {
				sub, _ := os.ReadDir(filepath.Join(root, name))
				for _, s := range sub {
					if s.IsDir() {
						dirs = append(dirs, name+"/"+s.Name())
					}
				}
				dirs = append(dirs, name)
				continue
			}
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(root, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, moduleFile{name: name, file: f})
		}
		problems = append(problems, shapeProblems(root, files, dirs, modules)...)
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
}

// The shape checker itself must catch each kind of departure.
func TestShapeRulesCatchDepartures(t *testing.T) {
	modules := map[string]bool{"marquee/modules/billing": true}
	parse := func(name, src string) moduleFile {
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		return moduleFile{name: name, file: f}
	}
	good := []moduleFile{
		parse("module.go", `package x
import "marquee/modules/billing"
type Charger interface{ Charge() }
type Deps struct{ Billing Charger }
type Module struct{}
var _ = billing.Currency`),
		parse("handlers.go", `package x
import "github.com/gin-gonic/gin"
func (m *Module) addCardHandler(c *gin.Context) error { return nil }`),
		parse("service.go", `package x
type Service interface{}`),
	}
	if p := shapeProblems("modules/x", good, []string{"internal", "internal/store"}, modules); len(p) != 0 {
		t.Fatalf("a module of the shape was refused: %v", p)
	}
	methods := "package x\n"
	for i := range maxMethodsPerReceiver + 1 {
		methods += fmt.Sprintf("func (s *service) m%d() {}\n", i)
	}
	for _, tc := range []struct {
		name    string
		files   []moduleFile
		dirs    []string
		problem string
	}{
		{"no handlers.go", []moduleFile{good[0], good[2]}, []string{"internal/store"}, "has no handlers.go"},
		{"no store", good, []string{"internal"}, "has no internal/store"},
		{"gorm in the root", append(append([]moduleFile{}, good...), parse("queries.go", `package x
import "gorm.io/gorm"
var _ *gorm.DB`)), []string{"internal/store"}, "imports gorm"},
		{"a foreign Service in Deps", []moduleFile{parse("module.go", `package x
import "marquee/modules/billing"
type Deps struct{ Billing billing.Service }`), good[1], good[2]}, []string{"internal/store"}, "Deps holds billing.Service"},
		{"a handler outside handlers.go", append(append([]moduleFile{}, good...), parse("cards.go", `package x
import "github.com/gin-gonic/gin"
func (m *Module) cardHandler(c *gin.Context) error { return nil }`)), []string{"internal/store"}, "belongs in handlers.go"},
		{"a handler named otherwise", []moduleFile{good[0], parse("handlers.go", `package x
import g "github.com/gin-gonic/gin"
func (m *Module) addCard(c *g.Context) error { return nil }`), good[2]}, []string{"internal/store"}, "ends in Handler"},
		{"a namespace receiver", append(append([]moduleFile{}, good...), parse("big.go", methods)), []string{"internal/store"}, "service has 81 methods"},
	} {
		found := false
		for _, p := range shapeProblems("modules/x", tc.files, tc.dirs, modules) {
			found = found || strings.Contains(p, tc.problem)
		}
		if !found {
			t.Errorf("%s: not caught (want a problem saying %q)", tc.name, tc.problem)
		}
	}
}
