package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"marquee/platform/httpx"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// DESIGN.md §1.14: every single-line text field of every request DTO refuses control characters and
// line separators, through the one validator tag httpx.TagSingleLine. This walks the request DTO
// of every registered route row and fails on a string field that has neither the tag nor the
// explicit `text:"multiline"` of a field meant to hold several lines (notes, descriptions,
// messages), or `text:"secret"` (see exempt). A row's declared DTO could differ from what its
// handler binds, so the DTOs the handlers bind (the variables passed to BindJSON, and the request
// parameters of the service methods given to httpx.CallBody and CallIDBody) are found in the
// source and walked too.
func TestSingleLineFields(t *testing.T) {
	s := testkit.Start(t, "sqlite", buildModules)
	var missing []string
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type, path string)
	walk = func(t reflect.Type, path string) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			at := t.Name() + "." + f.Name + " (" + path + name + ")"
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			tags := strings.Split(f.Tag.Get("validate"), ",")
			switch {
			case f.Anonymous && ft.Kind() == reflect.Struct:
				walk(ft, path)
			case ft.Kind() == reflect.String:
				if !hasTag(tags, httpx.TagSingleLine) && !exempt(f.Tag.Get("text")) {
					missing = append(missing, at)
				}
			case (ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array) && ft.Elem().Kind() == reflect.String:
				if !(hasTag(tags, "dive") && hasTag(tags, httpx.TagSingleLine)) && !exempt(f.Tag.Get("text")) {
					missing = append(missing, at+" ([]string: dive,singleline)")
				}
			case ft.Kind() == reflect.Map && (ft.Key().Kind() == reflect.String || ft.Elem().Kind() == reflect.String):
				missing = append(missing, at+" (a map of strings: no tag reaches its keys)")
			case ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array:
				// The validator enters a slice's elements only through dive.
				if !hasTag(tags, "dive") {
					missing = append(missing, at+" (a slice of structs: validate:\"dive\")")
				}
				walk(ft.Elem(), path+name+".N.")
			case ft.Kind() == reflect.Struct:
				walk(ft, path+name+".")
			}
		}
	}
	rows := 0
	for _, r := range s.Kernel.RouteRows() {
		if _, upload := r.Request.(server.Upload); r.Request != nil && !upload {
			rows++
			walk(reflect.TypeOf(r.Request), "")
		}
	}
	if rows == 0 {
		t.Fatal("no route row declares its request DTO")
	}
	bound := boundDTOFields(t)
	if len(bound) < 30 {
		t.Fatalf("found only %d bound DTO types in the source: the handlers' binding changed?", len(bound))
	}
	for _, m := range bound {
		if !strings.HasSuffix(m, " ok") {
			missing = append(missing, m)
		}
	}
	missing = dedupe(missing)
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("%s: a request DTO's text field without validate:%q or text:\"multiline\"", m, httpx.TagSingleLine)
	}
}

// exempt reports whether a field's text tag takes it out of the rule: "multiline" for text of
// several lines (notes, descriptions, messages), "secret" for a password compared with a stored
// hash, which refusing could lock out of an account made before the rule.
func exempt(text string) bool { return text == "multiline" || text == "secret" }

func hasTag(tags []string, tag string) bool {
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// srcPackage is one parsed package directory of the source.
type srcPackage struct {
	types   map[string]*ast.StructType
	imports map[string]map[string]string // file -> import name -> path
}

// boundDTOFields finds, in modules/ and platform/, every variable a handler binds a JSON body
// into (BindJSON(c, &v, ...)) and the request parameter of every service method a route gives to
// httpx.CallBody or CallIDBody, resolves its struct type, and walks
// its string fields as TestSingleLineFields does. It returns one line per field: the field, then
// " ok" when it has the tag or the multi-line mark.
func boundDTOFields(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs := map[string]*srcPackage{} // import path -> package
	type binding struct{ pkg, file, typ string }
	var bindings []binding
	// A route row that names a service method through httpx.CallBody or CallIDBody binds the
	// method's request parameter: found by the method's name in the same package, then resolved
	// like a bound variable.
	type adapterCall struct {
		pkg, file, method string
		param             int // the request's index among the method's parameters
	}
	var adapterCalls []adapterCall
	type method struct {
		file   string
		params []ast.Expr // one per parameter name
	}
	methods := map[string]map[string][]method{} // package -> name -> declarations
	for _, root := range []string{"../../modules", "../../platform"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel("../..", filepath.Dir(path))
			ip := "marquee/" + filepath.ToSlash(rel)
			p := pkgs[ip]
			if p == nil {
				p = &srcPackage{types: map[string]*ast.StructType{}, imports: map[string]map[string]string{}}
				pkgs[ip] = p
			}
			imports := map[string]string{}
			for _, im := range f.Imports {
				v, _ := strconv.Unquote(im.Path.Value)
				name := v[strings.LastIndex(v, "/")+1:]
				if im.Name != nil {
					name = im.Name.Name
				}
				imports[name] = v
			}
			p.imports[path] = imports
			ast.Inspect(f, func(n ast.Node) bool {
				if ts, ok := n.(*ast.TypeSpec); ok {
					if st, ok := ts.Type.(*ast.StructType); ok {
						p.types[ts.Name.Name] = st
					}
				}
				if call, ok := n.(*ast.CallExpr); ok {
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok && exprString(sel.X) == "httpx" && len(call.Args) == 2 {
						param := map[string]int{"CallBody": 2, "CallIDBody": 3}[sel.Sel.Name]
						target := call.Args[1]
						if s, ok := target.(*ast.SelectorExpr); ok {
							target = s.Sel
						}
						if id, ok := target.(*ast.Ident); ok && param > 0 {
							adapterCalls = append(adapterCalls, adapterCall{ip, path, id.Name, param})
						} else if param > 0 {
							t.Errorf("%s: httpx.%s on an expression the test cannot follow (name a method)", path, sel.Sel.Name)
						}
					}
				}
				fn, ok := n.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					return true
				}
				if methods[ip] == nil {
					methods[ip] = map[string][]method{}
				}
				var params []ast.Expr
				for _, f := range fn.Type.Params.List {
					for range max(1, len(f.Names)) {
						params = append(params, f.Type)
					}
				}
				methods[ip][fn.Name.Name] = append(methods[ip][fn.Name.Name], method{path, params})
				vars := map[string]ast.Expr{} // the function's var declarations: name -> type
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					if vs, ok := n.(*ast.ValueSpec); ok && vs.Type != nil {
						for _, id := range vs.Names {
							vars[id.Name] = vs.Type
						}
					}
					return true
				})
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok || len(call.Args) < 2 {
						return true
					}
					name := ""
					switch fun := call.Fun.(type) {
					case *ast.SelectorExpr:
						name = fun.Sel.Name
					case *ast.Ident:
						name = fun.Name
					}
					if !strings.HasPrefix(strings.ToLower(name), "bind") {
						return true
					}
					u, ok := call.Args[1].(*ast.UnaryExpr)
					if !ok || u.Op != token.AND {
						return true
					}
					id, ok := u.X.(*ast.Ident)
					if !ok {
						return true
					}
					if typ, ok := vars[id.Name]; ok {
						bindings = append(bindings, binding{ip, path, exprString(typ)})
					} else {
						t.Errorf("%s: %s binds %s, whose type the test cannot read (declare it with var)", path, fn.Name.Name, id.Name)
					}
					return true
				})
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	for _, a := range adapterCalls {
		found := false
		for _, m := range methods[a.pkg][a.method] {
			if len(m.params) > a.param {
				bindings = append(bindings, binding{a.pkg, m.file, exprString(m.params[a.param])})
				found = true
			}
		}
		if !found {
			t.Errorf("%s: the request type of the method %s given to an httpx adapter was not found in its package", a.file, a.method)
		}
	}

	var out []string
	seen := map[string]bool{}
	var walk func(pkg, file, typ, path string)
	walk = func(pkg, file, typ, path string) {
		typ = strings.TrimLeft(typ, "*")
		if q, name, ok := strings.Cut(typ, "."); ok {
			ip := pkgs[pkg].imports[file][q]
			if pkgs[ip] == nil {
				return // outside the source (time.Time, json.RawMessage...)
			}
			pkg, typ = ip, name
			file = ""
		}
		p := pkgs[pkg]
		st := p.types[typ]
		if st == nil || seen[pkg+"."+typ] {
			return
		}
		seen[pkg+"."+typ] = true
		if file == "" { // a type of another package: any of its files resolves its imports
			for f := range p.imports {
				if _, ok := p.types[typ]; ok {
					file = f
					break
				}
			}
		}
		for _, f := range st.Fields.List {
			tag := reflect.StructTag("")
			if f.Tag != nil {
				v, _ := strconv.Unquote(f.Tag.Value)
				tag = reflect.StructTag(v)
			}
			jname, _, _ := strings.Cut(tag.Get("json"), ",")
			if jname == "-" {
				continue
			}
			ft := exprString(f.Type)
			base := strings.TrimLeft(ft, "*")
			tags := strings.Split(tag.Get("validate"), ",")
			multiline := exempt(tag.Get("text"))
			if len(f.Names) == 0 { // embedded
				walk(pkg, file, base, path)
				continue
			}
			for _, n := range f.Names {
				if !n.IsExported() {
					continue
				}
				name := jname
				if name == "" {
					name = n.Name
				}
				at := pkg + "." + typ + "." + n.Name + " (" + path + name + ")"
				switch {
				case base == "string":
					out = append(out, at+okIf(hasTag(tags, httpx.TagSingleLine) || multiline))
				case base == "[]string":
					out = append(out, at+" ([]string: dive,singleline)"+okIf((hasTag(tags, "dive") && hasTag(tags, httpx.TagSingleLine)) || multiline))
				case strings.HasPrefix(base, "map[string]") || strings.HasSuffix(base, "]string"):
					out = append(out, at+" (a map of strings: no tag reaches its keys)")
				case strings.HasPrefix(base, "[]"):
					// The validator enters a slice's elements only through dive.
					out = append(out, at+" (a slice of structs: validate:\"dive\")"+okIf(hasTag(tags, "dive")))
					walk(pkg, file, strings.TrimPrefix(base, "[]"), path+name+".N.")
				default:
					walk(pkg, file, base, path+name+".")
				}
			}
		}
	}
	types := map[string]bool{}
	for _, b := range bindings {
		types[b.pkg+"."+b.typ] = true
		walk(b.pkg, b.file, b.typ, "")
	}
	if len(types) < 30 {
		return nil
	}
	return out
}

func okIf(ok bool) string {
	if ok {
		return " ok"
	}
	return ""
}

// exprString renders a type expression: string, *T, []T, pkg.T, map[K]V.
func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.StarExpr:
		return "*" + exprString(x.X)
	case *ast.ArrayType:
		return "[]" + exprString(x.Elt)
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.MapType:
		return "map[" + exprString(x.Key) + "]" + exprString(x.Value)
	default:
		return "?"
	}
}
