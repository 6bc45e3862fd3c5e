package runtime

import (
	"fmt"

	"github.com/turnorder/turnorder/dsl"
)

// SideSpec describes a side for a new battle.
type SideSpec struct {
	Name  string
	Team  string         `json:",omitempty"`
	Attrs map[string]any `json:",omitempty"`
	Units []UnitSpec     `json:",omitempty"`
	Pos   dsl.Pos        `json:"-"` // where it was written, for errors
}

// UnitSpec describes a unit for a new battle.
type UnitSpec struct {
	Name     string
	Attrs    map[string]any `json:",omitempty"`
	Statuses []string       `json:",omitempty"`
	Pos      dsl.Pos        `json:"-"`
}

// Sides is a convenience: plain sides with no units or attributes.
func Sides(names ...string) []SideSpec {
	out := make([]SideSpec, len(names))
	for i, n := range names {
		out[i] = SideSpec{Name: n}
	}
	return out
}

// SetupFromDSL converts `side` statements (from an example block, a
// scenario or a setup file) into specs. Attribute values keep the literal's
// own type; NewBattle checks them against the ruleset.
func SetupFromDSL(stmts []dsl.SetupStmt) []SideSpec {
	var out []SideSpec
	for _, st := range stmts {
		if s, ok := st.(*dsl.SideSetup); ok {
			out = append(out, SideFromDSL(s))
		}
	}
	return out
}

// SideFromDSL converts one `side` statement.
func SideFromDSL(s *dsl.SideSetup) SideSpec {
	sp := SideSpec{Name: string(s.Name), Pos: s.Pos}
	if s.Team != nil {
		sp.Team = string(*s.Team)
	}
	add := func(a *dsl.Assign) {
		if sp.Attrs == nil {
			sp.Attrs = map[string]any{}
		}
		sp.Attrs[string(a.Name)] = a.Value
	}
	for _, a := range s.Attrs {
		add(a)
	}
	for _, it := range s.Body {
		switch x := it.(type) {
		case *dsl.Assign:
			add(x)
		case *dsl.UnitSetup:
			n := 1
			if x.Count != nil {
				n = *x.Count
			}
			for i := 1; i <= n && i <= dsl.MaxUnitCount; i++ { // Parse reports a count out of range
				u := UnitSpec{Name: string(x.Name), Pos: x.Pos}
				if x.Count != nil {
					u.Name = fmt.Sprintf("%s%d", x.Name, i)
				}
				for _, a := range x.Attrs {
					if u.Attrs == nil {
						u.Attrs = map[string]any{}
					}
					u.Attrs[string(a.Name)] = a.Value
				}
				for _, st := range x.Status {
					u.Statuses = append(u.Statuses, string(st))
				}
				sp.Units = append(sp.Units, u)
			}
		}
	}
	return sp
}
