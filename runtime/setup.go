package runtime

import (
	"fmt"
	"slices"

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

// reservedName means nobody where a scenario expects a name (`expect
// chooser none`, `expect ready none`), so nothing may be called that.
const reservedName = "none"

func reservedMsg(what string) string {
	return fmt.Sprintf("%s cannot name a %s: it means nobody, as in `expect chooser %s`", reservedName, what, reservedName)
}

// nameProblem says what is wrong with name as the name of a side or unit
// (what), given the names taken before it, or "" if nothing is.
func nameProblem(what, name string, taken func(string) bool) string {
	switch {
	case name == "":
		return fmt.Sprintf("a %s needs a name", what)
	case name == reservedName:
		return reservedMsg(what)
	case taken(name):
		return fmt.Sprintf("the name %q is used twice (sides and units need names of their own)", name)
	}
	return ""
}

// CheckSides reports what NewBattle would refuse in sides whatever the
// ruleset: a missing, reserved or repeated name. It is for a file of sides
// checked on its own, before a ruleset is chosen.
func CheckSides(sides []SideSpec) dsl.Diagnostics {
	var diags dsl.Diagnostics
	seen := map[string]bool{}
	taken := func(n string) bool { return seen[n] }
	check := func(pos dsl.Pos, what, name string) {
		if msg := nameProblem(what, name, taken); msg != "" {
			// `unit a * 3` is three units with one position: one error.
			if d := dsl.Errorf(pos, "%s", msg); !slices.Contains(diags, d) {
				diags = append(diags, d)
			}
		}
		seen[name] = true
	}
	for _, s := range sides {
		check(s.Pos, "side", s.Name)
		if s.Team == reservedName {
			diags = append(diags, dsl.Errorf(s.Pos, "side %s: %s", s.Name, reservedMsg("team")))
		}
		for _, u := range s.Units {
			check(u.Pos, "unit", u.Name)
		}
	}
	return diags
}
