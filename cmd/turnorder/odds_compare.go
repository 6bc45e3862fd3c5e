package main

// Two rulesets compared by odds: the sides both play, the values only
// one of them reads, and what each is called when both have one name.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// labelVariants tells apart two rulesets of one name, as when a house rule
// is a copy of a bundled ruleset: each is called by the argument that named
// it (the bundled name, or the file).
func labelVariants(vs []variant, args []string) {
	if len(vs) == 2 && vs[0].name == vs[1].name && args[0] != args[1] {
		vs[0].label, vs[1].label = args[0], args[1]
	}
}

// withoutOthers returns specs without the attributes and statuses that p
// does not declare and other does, saying on standard error which it
// leaves out: p's rules cannot read them, so its odds are as they would
// be without them. A name neither declares stays, for p to refuse.
func withoutOthers(e *env, specs []runtime.SideSpec, p, other *runtime.Program, arg string) []runtime.SideSpec {
	names := func(attrs []runtime.Attr, more ...string) []string {
		for _, a := range attrs {
			more = append(more, a.Name)
		}
		return more
	}
	sideHas, unitHas := names(p.SideAttrs()), names(p.UnitAttrs(), p.Statuses()...)
	otherSide, otherUnit := names(other.SideAttrs()), names(other.UnitAttrs(), other.Statuses()...)
	var dropped []string
	drop := func(n string) {
		if !slices.Contains(dropped, n) {
			dropped = append(dropped, n)
		}
	}
	keep := func(attrs map[string]any, has, otherHas []string) map[string]any {
		var out map[string]any
		for k, v := range attrs {
			if !slices.Contains(has, k) && slices.Contains(otherHas, k) {
				drop(k)
				continue
			}
			if out == nil {
				out = map[string]any{}
			}
			out[k] = v
		}
		return out
	}
	out := make([]runtime.SideSpec, len(specs))
	for i, sp := range specs {
		sp.Attrs = keep(sp.Attrs, sideHas, otherSide)
		units := make([]runtime.UnitSpec, len(sp.Units))
		for j, u := range sp.Units {
			u.Attrs = keep(u.Attrs, unitHas, otherUnit)
			var statuses []string
			for _, st := range u.Statuses {
				if !slices.Contains(unitHas, st) && slices.Contains(otherUnit, st) {
					drop(st)
					continue
				}
				statuses = append(statuses, st)
			}
			u.Statuses = statuses
			units[j] = u
		}
		if sp.Units == nil {
			units = nil
		}
		sp.Units = units
		out[i] = sp
	}
	if len(dropped) > 0 {
		name := p.Name()
		if name == other.Name() {
			name = arg
		}
		slices.Sort(dropped)
		fmt.Fprintf(e.stderr, "%snote: %s does not declare %s, which only the other ruleset reads: %s plays without it\n",
			e.prefix(), name, wording.AndList(dropped), name)
	}
	return out
}

// sharedExample loads two rulesets to compare, with neither --sides nor
// --setup: both play the example sides of the first (or of the second,
// when the first has none), as a comparison of each with its own forces
// would measure the forces as much as the rules. A note says so when the
// other's own example differs, and how to compare over it instead.
func sharedExample(e *env, args []string, whose func(int)) ([]setup, bool) {
	setups := make([]setup, 2)
	for i, arg := range args {
		prog, rs, msg := loadProgram(e, arg)
		if prog == nil {
			if msg != "" {
				e.errorf("%s", msg)
			}
			whose(i)
			return nil, false
		}
		setups[i] = setup{prog: prog, rs: rs}
	}
	from := 0
	if len(setups[0].prog.Example()) == 0 && len(setups[1].prog.Example()) > 0 {
		from = 1
	}
	specs := setups[from].prog.Example()
	if len(specs) == 0 {
		e.errorf("neither %s nor %s has example sides; name the sides both play with --sides A,B or --setup FILE", args[0], args[1])
		return nil, false
	}
	for i := range setups {
		setups[i].specs, setups[i].from = specs, sidesFrom{src: setups[from].rs.src}
	}
	other := 1 - from
	if own := setups[other].prog.Example(); len(own) > 0 && !sameSides(own, specs) {
		msg := fmt.Sprintf("both rulesets play the example sides of %s (%s); %s's own example differs", args[from], sidesSummary(specs), args[other])
		switch {
		case !isBundled(args[other]) || rulesets.IsPath(args[other]):
			msg += fmt.Sprintf(": to compare over it, add --setup %s", shellWord(args[other]))
		case plainSides(own):
			msg += fmt.Sprintf(": to compare over it, add --sides %s", shellWord(strings.Join(sidesNames(own), ",")))
		default:
			msg += ": to compare over other forces, name them with --setup FILE"
		}
		e.noteOnce(msg)
	}
	return setups, true
}
