package server

import (
	"context"
	"fmt"

	"marquee/platform/auth"
)

// Component says how one module is built on the kernel from the modules it needs. Each module
// declares its own (modules/<m>/module.go); Compose walks the Needs, so the wiring of a module is
// written once and cmd/marquee and every module's tests build the same graph.
type Component struct {
	Name  string
	Needs []*Component
	// Build makes the module; built holds every module of Needs, and everything below them.
	Build func(k *Kernel, built Built) (Module, error)
}

// Built are the modules made so far, in dependency order.
type Built []Module

// BuildFunc makes the application's modules on the kernel and names the principal loader.
type BuildFunc func(k *Kernel) ([]Module, auth.PrincipalLoader, error)

// PrincipalSource is the module that loads the signed-in user of a session (identity).
type PrincipalSource interface {
	Principals() auth.PrincipalLoader
}

// Get returns the built module of type T; it panics when T was not built, which is a wiring
// mistake in a Component's Needs, found by the first test that builds it.
func Get[T Module](built Built) T {
	for _, m := range built {
		if t, ok := m.(T); ok {
			return t
		}
	}
	var zero T
	panic(fmt.Sprintf("server: module %T is not built; add it to the component's Needs", zero))
}

// Compose builds the roots and everything they need, each module once, dependencies first.
// cmd/marquee composes the top of the graph; a module's tests compose that module.
func Compose(roots ...*Component) BuildFunc {
	return func(k *Kernel) ([]Module, auth.PrincipalLoader, error) {
		var order []*Component
		state := map[*Component]int{} // 1 visiting, 2 done
		var visit func(c *Component) error
		visit = func(c *Component) error {
			switch state[c] {
			case 1:
				return fmt.Errorf("server: module graph has a cycle at %s", c.Name)
			case 2:
				return nil
			}
			state[c] = 1
			for _, n := range c.Needs {
				if err := visit(n); err != nil {
					return err
				}
			}
			state[c] = 2
			order = append(order, c)
			return nil
		}
		for _, r := range roots {
			if err := visit(r); err != nil {
				return nil, nil, err
			}
		}
		built := make(Built, 0, len(order))
		var principals auth.PrincipalLoader
		for _, c := range order {
			m, err := c.Build(k, built)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", c.Name, err)
			}
			built = append(built, m)
			if p, ok := m.(PrincipalSource); ok {
				principals = p.Principals()
			}
		}
		if principals == nil {
			// A graph without identity (locations alone) has no users: every caller is anonymous.
			principals = nobody{}
		}
		return built, principals, nil
	}
}

type nobody struct{}

func (nobody) LoadPrincipal(context.Context, string) (*auth.Principal, error) { return nil, nil }
