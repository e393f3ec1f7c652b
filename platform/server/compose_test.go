package server

import (
	"context"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"marquee/platform/auth"
	"marquee/platform/authz"
	"marquee/platform/db"
	"marquee/platform/jobs"
)

type fakeModule struct{ name string }

func (f *fakeModule) Name() string                { return f.name }
func (f *fakeModule) Migrations() []*db.Migration { return nil }
func (f *fakeModule) Routes(gin.IRouter)          {}
func (f *fakeModule) Policy() []authz.Rule        { return nil }
func (f *fakeModule) Jobs() []jobs.Job            { return nil }

type identityFake struct{ fakeModule }

func (identityFake) Principals() auth.PrincipalLoader { return nobody{} }

// Compose builds each module once, after what it needs, whatever order the roots are given in.
func TestComposeBuildsEachModuleOnceInDependencyOrder(t *testing.T) {
	calls := map[string]int{}
	mk := func(name string, needs ...*Component) *Component {
		return &Component{Name: name, Needs: needs, Build: func(_ *Kernel, b Built) (Module, error) {
			calls[name]++
			for _, n := range needs {
				found := false
				for _, m := range b {
					found = found || m.Name() == n.Name
				}
				if !found {
					t.Errorf("%s built before its need %s", name, n.Name)
				}
			}
			if name == "identity" {
				return &identityFake{fakeModule{name}}, nil
			}
			return &fakeModule{name: name}, nil
		}}
	}
	id := mk("identity")
	loc := mk("locations")
	bill := mk("billing", id)
	camp := mk("campaigns", id, loc, bill)
	reports := mk("reports", camp, id)
	mods, principals, err := Compose(reports, camp, bill)(nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range mods {
		names = append(names, m.Name())
	}
	if got := strings.Join(names, ","); got != "identity,locations,billing,campaigns,reports" {
		t.Fatalf("order %s", got)
	}
	for n, c := range calls {
		if c != 1 {
			t.Errorf("%s built %d times", n, c)
		}
	}
	if principals == nil {
		t.Fatal("no principal loader")
	}
	if p, _ := principals.LoadPrincipal(context.Background(), "u"); p != nil {
		t.Fatal("the fake loader knows nobody")
	}
	if Get[*identityFake](mods).Name() != "identity" {
		t.Fatal("Get found the wrong module")
	}
}

func TestComposeRefusesACycle(t *testing.T) {
	a := &Component{Name: "a"}
	b := &Component{Name: "b", Needs: []*Component{a}}
	a.Needs = []*Component{b}
	if _, _, err := Compose(a)(nil); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("err = %v, want a cycle", err)
	}
}
