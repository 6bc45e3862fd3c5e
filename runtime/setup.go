package runtime

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
)

// SideSpec describes a side for a new battle. As JSON it has the keys of
// a Side (and a UnitSpec those of a Unit): name, team, attrs and units;
// name, attrs and statuses. Decoding matches keys whatever their case,
// as encoding/json does, so specs saved with the Go field names load too.
// The numbers of attrs decode as float64s, as encoding/json makes them,
// except one a float64 would change (9007199254740993 would be ...992,
// 1e-400 would be 0): that stays a json.Number as written, which NewBattle
// reports as a number no attribute holds instead of playing with another.
type SideSpec struct {
	Name  string         `json:"name"`
	Team  string         `json:"team,omitempty"`
	Attrs map[string]any `json:"attrs,omitempty"`
	Units []UnitSpec     `json:"units,omitempty"`
	Pos   dsl.Pos        `json:"-"` // where it was written, for errors
}

// UnitSpec describes a unit for a new battle.
type UnitSpec struct {
	Name     string         `json:"name"`
	Attrs    map[string]any `json:"attrs,omitempty"`
	Statuses []string       `json:"statuses,omitempty"`
	Pos      dsl.Pos        `json:"-"`
	// StatusPos is where each of Statuses was written, for an error
	// that points at the status rather than at the unit.
	StatusPos []dsl.Pos `json:"-"`
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
	sp := SideSpec{Name: string(s.Name), Pos: s.Pos()}
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
				name := string(x.Name)
				if x.Count != nil {
					name = fmt.Sprintf("%s%d", x.Name, i)
				}
				sp.Units = append(sp.Units, unitSpec(name, x.Pos(), x.Attrs, x.Status))
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
// (what; who says which it is, as sideWho and unitWho do), given the
// names taken before it: the kind of problem and the message, or "" and
// "" if nothing is.
func nameProblem(what, who, name string, taken func(string) bool) (kind, msg string) {
	switch {
	case name == "":
		return "no name", who + " needs a name"
	case name == reservedName:
		return "reserved", reservedMsg(what)
	case name == "pass":
		// An activation's options are the side's units and "pass".
		return "reserved", fmt.Sprintf("pass cannot name a %s: it is the answer of a side that passes instead of activating", what)
	case taken(name):
		return "used twice", fmt.Sprintf("the name %q is used twice (sides and units need names of their own)", name)
	}
	return "", ""
}

// sideWho names the i-th side (from 0) in a message: "side Jay", or, for
// a side without a name (JSON that left it out, where no position points
// to it), which one it is: "the 2nd side (in team Red, with units a1 and
// a2)".
func sideWho(i int, s SideSpec) string {
	if s.Name != "" {
		return "side " + s.Name
	}
	var about, units []string
	if s.Team != "" {
		about = append(about, "in team "+s.Team)
	}
	for _, u := range s.Units {
		if u.Name != "" {
			units = append(units, u.Name)
		}
	}
	const shown = 3 // enough to recognise a side by
	switch {
	case len(units) == 1:
		about = append(about, "with unit "+units[0])
	case len(units) > shown:
		about = append(about, fmt.Sprintf("with units %s and %d more", strings.Join(units[:shown], ", "), len(units)-shown))
	case len(units) > 1:
		about = append(about, "with units "+wording.AndList(units))
	}
	who := "the " + ordinal(i+1) + " side"
	if len(about) > 0 {
		who += " (" + strings.Join(about, ", ") + ")"
	}
	return who
}

// unitWho names the j-th unit (from 0) of a side (as sideWho names it) in
// a message: "unit a1", or "the 3rd unit of side A" for one without a
// name.
func unitWho(j int, side string, u UnitSpec) string {
	if u.Name != "" {
		return "unit " + u.Name
	}
	return "the " + ordinal(j+1) + " unit of " + side
}

// ordinal writes n as "1st", "2nd", "3rd", "4th", "11th", "21st".
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// setupErrors collects what is wrong with sides, for NewBattle and
// CheckSides. A unit written `unit a * 3` is three units (a1, a2, a3) at
// one position, and the same mistake in each would say the same thing three
// times over: so a kind of problem at a known position is reported once,
// for the first unit it is found in (`the name "a1" is used twice`, when
// two sides each have `unit a * 2`).
type setupErrors struct {
	diags dsl.Diagnostics
	kinds []string // kinds[i] is the kind of problem of diags[i]
}

// add reports a problem of the given kind at pos, unless one of that kind
// is reported there already. Where the position is unknown (specs built in
// Go), only the very same message is left out.
func (e *setupErrors) add(pos dsl.Pos, kind, msg string) {
	for i, d := range e.diags {
		if d.Pos == pos && e.kinds[i] == kind && (pos.Line > 0 || d.Message == msg) {
			return
		}
	}
	e.diags = append(e.diags, dsl.Errorf(pos, "%s", msg))
	e.kinds = append(e.kinds, kind)
}

// failf reports a problem whose message first says whom it is about
// ("unit a2: unknown attribute x"); the rest of it is its kind.
func (e *setupErrors) failf(pos dsl.Pos, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	e.add(pos, problem(msg), msg)
}

// name reports what nameProblem finds wrong with name, and whether
// anything is.
func (e *setupErrors) name(pos dsl.Pos, what, who, name string, taken func(string) bool) bool {
	kind, msg := nameProblem(what, who, name, taken)
	if msg == "" {
		return false
	}
	e.add(pos, kind, msg)
	return true
}

// problem is a setup message without the "unit a2: " naming whom it is
// about.
func problem(msg string) string {
	if _, what, ok := strings.Cut(msg, ": "); ok {
		return what
	}
	return msg
}

// CheckSides reports what NewBattle would refuse in sides whatever the
// ruleset: a missing, reserved or repeated name, and a reserved team. It is
// for a file of sides checked on its own, before a ruleset is chosen.
func CheckSides(sides []SideSpec) dsl.Diagnostics {
	var errs setupErrors
	seen := map[string]bool{}
	taken := func(n string) bool { return seen[n] }
	for i, s := range sides {
		side := sideWho(i, s)
		errs.name(s.Pos, "side", side, s.Name, taken)
		seen[s.Name] = true
		if s.Team == reservedName {
			errs.failf(s.Pos, "%s: %s", side, reservedMsg("team"))
		}
		for j, u := range s.Units {
			errs.name(u.Pos, "unit", unitWho(j, side, u), u.Name, taken)
			seen[u.Name] = true
		}
	}
	return errs.diags
}
