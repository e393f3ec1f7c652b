package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

type found struct {
	req, resp, query, spec, other map[string]bool
}

func main() {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedFiles, Tests: false}
	pkgs, err := packages.Load(cfg, "marquee/modules/...", "marquee/platform/server")
	if err != nil {
		panic(err)
	}
	decls := map[*types.Func]*ast.FuncDecl{}
	info := map[*types.Func]*packages.Package{}
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if obj, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						decls[obj] = fd
						info[obj] = p
					}
				}
			}
		}
	}
	for _, p := range pkgs {
		qual := func(pk *types.Package) string {
			if pk == p.Types {
				return ""
			}
			return pk.Name()
		}
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				id, ok := sel.X.(*ast.Ident)
				if !ok || id.Name != "server" || len(call.Args) != 3 {
					return true
				}
				switch sel.Sel.Name {
				case "GET", "POST", "PUT", "DELETE":
				default:
					return true
				}
				path := strings.Trim(exprString(call.Args[0]), "\"")
				fd := found{map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}}
				seen := map[*types.Func]bool{}
				var visit func(e ast.Node, pk *packages.Package, depth int)
				visit = func(e ast.Node, pk *packages.Package, depth int) {
					if depth > 4 {
						return
					}
					q := func(pkx *types.Package) string {
						if pkx == p.Types {
							return ""
						}
						return pkx.Name()
					}
					ast.Inspect(e, func(n ast.Node) bool {
						c, ok := n.(*ast.CallExpr)
						if !ok {
							return true
						}
						var fn *types.Func
						switch fe := c.Fun.(type) {
						case *ast.SelectorExpr:
							fn, _ = pk.TypesInfo.Uses[fe.Sel].(*types.Func)
						case *ast.Ident:
							fn, _ = pk.TypesInfo.Uses[fe].(*types.Func)
						case *ast.IndexExpr:
							if s, ok := fe.X.(*ast.SelectorExpr); ok {
								fn, _ = pk.TypesInfo.Uses[s.Sel].(*types.Func)
							}
						}
						if fn == nil {
							return true
						}
						name := fn.Name()
						full := fn.FullName()
						tstr := func(a ast.Expr) string {
							t := pk.TypesInfo.TypeOf(a)
							if t == nil {
								return "?"
							}
							return types.TypeString(t, q)
						}
						switch {
						case full == "marquee/platform/httpx.OK" && len(c.Args) == 2:
							fd.resp[tstr(c.Args[1])] = true
						case full == "marquee/platform/httpx.JSON" && len(c.Args) == 3:
							fd.resp[exprString(c.Args[1])+" "+tstr(c.Args[2])] = true
						case strings.HasSuffix(full, "gin.Context).JSON") || strings.HasSuffix(full, "gin.Context).AbortWithStatusJSON"):
							fd.resp[exprString(c.Args[0])+" "+tstr(c.Args[1])] = true
						case strings.HasSuffix(full, "gin.Context).Data") || strings.HasSuffix(full, "gin.Context).DataFromReader") || strings.HasSuffix(full, "gin.Context).File") || strings.HasSuffix(full, "gin.Context).FileAttachment") || strings.HasSuffix(full, "gin.Context).Status") || strings.HasSuffix(full, "gin.Context).Redirect"):
							fd.other[name+"("+exprString(c.Args[0])+")"] = true
						case strings.HasSuffix(full, "gin.Context).Query") || strings.HasSuffix(full, "gin.Context).DefaultQuery") || strings.HasSuffix(full, "gin.Context).GetQuery") || strings.HasSuffix(full, "gin.Context).QueryArray"):
							fd.query[exprString(c.Args[0])] = true
						case strings.HasSuffix(full, "gin.Context).FormFile") || strings.HasSuffix(full, "gin.Context).MultipartForm") || strings.HasSuffix(full, "gin.Context).PostForm"):
							fd.other["multipart:"+name+"("+func() string {
								if len(c.Args) > 0 {
									return exprString(c.Args[0])
								}
								return ""
							}()+")"] = true
						case strings.Contains(strings.ToLower(name), "bind"):
							for _, a := range c.Args {
								if u, ok := a.(*ast.UnaryExpr); ok && u.Op == token.AND {
									fd.req[tstr(u.X)] = true
								}
							}
						case full == "marquee/platform/pagination.Parse" || name == "listParams":
							fd.spec[exprString(c.Args[len(c.Args)-1])] = true
						}
						// follow same-module funcs taking a context
						if d, ok := decls[fn]; ok && !seen[fn] && d.Body != nil && strings.HasPrefix(full, "") {
							takesCtx := false
							for _, a := range c.Args {
								if t := pk.TypesInfo.TypeOf(a); t != nil && strings.Contains(t.String(), "gin.Context") {
									takesCtx = true
								}
							}
							if takesCtx {
								seen[fn] = true
								visit(d.Body, info[fn], depth+1)
							}
						}
						return true
					})
				}
				h := call.Args[2]
				visit(h, p, 0)
				// find the handler function itself
				var hfn *types.Func
				ast.Inspect(h, func(n ast.Node) bool {
					if s, ok := n.(*ast.SelectorExpr); ok {
						if f, ok := p.TypesInfo.Uses[s.Sel].(*types.Func); ok {
							if _, ok := decls[f]; ok && hfn == nil {
								hfn = f
							}
						}
					}
					return true
				})
				if hfn != nil && !seen[hfn] {
					seen[hfn] = true
					d := decls[hfn]
					visit(d.Body, info[hfn], 1)
				}
				_ = qual
				pos := p.Fset.Position(call.Pos())
				fmt.Printf("%s:%d\t%s %s\tREQ=%s\tRESP=%s\tQ=%s\tSPEC=%s\tOTHER=%s\n", strings.TrimPrefix(pos.Filename, "/work/wt/openapi/"), pos.Line, sel.Sel.Name, path, strings.Join(keys(fd.req), "|"), strings.Join(keys(fd.resp), "|"), strings.Join(keys(fd.query), "|"), strings.Join(keys(fd.spec), "|"), strings.Join(keys(fd.other), "|"))
				return true
			})
		}
	}
	_ = os.Stdout
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func exprString(e ast.Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e ast.Expr) {
	switch x := e.(type) {
	case *ast.BasicLit:
		b.WriteString(x.Value)
	case *ast.Ident:
		b.WriteString(x.Name)
	case *ast.SelectorExpr:
		writeExpr(b, x.X)
		b.WriteString("." + x.Sel.Name)
	default:
		fmt.Fprintf(b, "%T", e)
	}
}
