package main

// The sides a battle is played with: from --sides, from a --setup file or
// from the ruleset's example; and how messages name, compare and
// summarise them.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// sameSides reports whether a and b are the same sides, wherever each was
// written (a copied ruleset's example is the original's).
func sameSides(a, b []runtime.SideSpec) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// sidesSummary names sides and counts their units: "Jay (3 units), Rob".
func sidesSummary(specs []runtime.SideSpec) string {
	parts := make([]string, len(specs))
	for i, s := range specs {
		parts[i] = s.Name
		if len(s.Units) > 0 {
			parts[i] += " (" + plural(len(s.Units), "unit") + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// sidesNames lists the names of sides, in their order.
func sidesNames(specs []runtime.SideSpec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

// plainSides reports whether specs are sides --sides can name: no team,
// value or unit.
func plainSides(specs []runtime.SideSpec) bool {
	for _, s := range specs {
		if s.Team != "" || len(s.Attrs) > 0 || len(s.Units) > 0 || strings.Contains(s.Name, ",") {
			return false
		}
	}
	return true
}

// setup is a ruleset with the sides of a battle, ready to play.
type setup struct {
	prog  *runtime.Program
	rs    source
	specs []runtime.SideSpec
	from  sidesFrom
}

// loadSetup loads the ruleset arg and the battle's sides, reporting any
// problem itself; ok is false then.
func loadSetup(e *env, arg string, o runOptions) (s setup, ok bool) {
	var msg string
	s.prog, s.rs, msg = loadProgram(e, arg)
	if s.prog != nil {
		s.specs, s.from, msg = battleSides(e, s.prog, s.rs, o)
		if s.specs != nil {
			return s, true
		}
	}
	if msg != "" {
		e.errorf("%s", msg)
	}
	return s, false
}

// battle starts the battle, reporting a bad setup itself.
func (s setup) battle(e *env, opts ...runtime.BattleOption) (*runtime.Battle, bool) {
	b, err := s.prog.NewBattle(s.specs, opts...)
	if err != nil {
		s.report(e, err)
		return nil, false
	}
	return b, true
}

// report prints an error from setting up or playing the battle the way a
// compiler would: diagnostics about the sides, and an error a rule caused,
// each with its source line and a caret. Any other error is one line.
func (s setup) report(e *env, err error) {
	if ds, ok := asDiags(err); ok {
		e.report(ds, s.from.src)
		return
	}
	if d, ok := ruleDiag(err); ok {
		e.report(dsl.Diagnostics{d}, s.rs.src)
		return
	}
	e.errorf("%v", err)
}

// sidesFrom says where the battle's sides were written, to render
// NewBattle's diagnostics against the right file.
type sidesFrom struct {
	src []byte
}

// battleSides returns the sides for the battle: the ruleset's example,
// --sides, --setup, or sides picked from --setup by --sides. On failure it
// returns nil and a message, or "" when it has printed diagnostics.
func battleSides(e *env, p *runtime.Program, rs source, o runOptions) ([]runtime.SideSpec, sidesFrom, string) {
	var names []string
	if o.sides != "" {
		for _, n := range strings.Split(o.sides, ",") {
			n = strings.TrimSpace(n)
			if n == "" {
				return nil, sidesFrom{}, fmt.Sprintf("--sides %q has an empty name; write names separated by commas, as in --sides Jay,Rob", o.sides)
			}
			names = append(names, n)
		}
	}
	if o.setup == "" {
		if names != nil && p.OrdersUnits() {
			msg := fmt.Sprintf("ruleset %s orders units, and --sides names sides without any: give them units with --setup FILE (sides written as `side A { unit a1 }`)", p.Name())
			if len(p.Example()) > 0 {
				msg += ", or leave out --sides to play its example"
			}
			return nil, sidesFrom{}, msg
		}
		if names != nil {
			return runtime.Sides(names...), sidesFrom{}, ""
		}
		if len(p.Example()) == 0 {
			return nil, sidesFrom{}, fmt.Sprintf("ruleset %s has no example sides; name some with --sides A,B or --setup FILE", p.Name())
		}
		return p.Example(), sidesFrom{src: rs.src}, ""
	}

	blocks, from, msg := readSetup(e, o.setup)
	if blocks == nil {
		return nil, from, msg
	}
	if names == nil {
		noteSetupBlocks(e, o.setup, blocks)
		return blocks[0].specs, from, ""
	}
	// --sides picks and orders sides of the first block that has them
	// all: the example's, or a scenario's.
	for _, b := range blocks {
		if picked := b.pick(names); picked != nil {
			return picked, from, ""
		}
	}
	for _, n := range names {
		if !slices.ContainsFunc(blocks, func(b setupBlock) bool { return b.pick([]string{n}) != nil }) {
			have := make([]string, len(blocks))
			for i, b := range blocks {
				have[i] = strings.Join(b.names(), ", ")
				if len(blocks) > 1 {
					have[i] += " (" + b.what + ")"
				}
			}
			return nil, from, fmt.Sprintf("unknown side %q: --setup %s has the sides %s", n, o.setup, strings.Join(have, "; "))
		}
	}
	whats := make([]string, len(blocks))
	for i, b := range blocks {
		whats[i] = b.what
	}
	return nil, from, fmt.Sprintf("no block of sides in --setup %s has all of %s: each of %s is a battle of its own", o.setup, strings.Join(names, ", "), wording.AndList(whats))
}

// noteSetupBlocks says which block of sides a --setup file gave, when it
// has others: a house rule's file has its example and its scenarios, and
// nothing else would say which sides were read, nor how to play the
// others. A file whose blocks are all the same sides needs no note.
func noteSetupBlocks(e *env, path string, blocks []setupBlock) {
	if len(blocks) < 2 {
		return
	}
	b := blocks[0]
	msg := fmt.Sprintf("--setup %s: the sides are those of %s (%s:%d), the first in the file", path, b.what, path, b.pos.Line)
	if b.bare {
		msg = fmt.Sprintf("--setup %s: the sides are those of %s (%s:%d)", path, b.what, path, b.pos.Line)
	}
	var pickable, named *setupBlock // another block --sides can pick; one it cannot
	for i := range blocks[1:] {
		other := &blocks[1+i]
		first := slices.IndexFunc(blocks, func(b setupBlock) bool { return b.pick(other.names()) != nil })
		switch {
		case first == 1+i:
			pickable = cmp.Or(pickable, other)
		case !sameSides(b.specs, other.specs):
			named = cmp.Or(named, other)
		}
	}
	switch {
	case pickable != nil:
		// Quoted for the shell, as play's resume command is: a name
		// may hold a space, a quote or a $.
		arg := shellWord(strings.Join(pickable.names(), ","))
		e.noteOnce(fmt.Sprintf("%s; to play the sides of %s instead, name them: --sides %s", msg, pickable.what, arg))
	case named != nil:
		e.noteOnce(fmt.Sprintf("%s; %s has other sides of the same names, which --sides cannot pick: to play them, copy its `side` statements into a file of their own", msg, named.what))
	}
}

// setupBlock is a block of sides in a --setup file: its bare `side`
// statements, a scenario's, or a ruleset's example.
type setupBlock struct {
	what  string // `scenario "Five gangs"`, `the example of ruleset house`
	pos   dsl.Pos
	specs []runtime.SideSpec
	bare  bool // the file's top-level sides, first whatever their place
}

func (b setupBlock) names() []string { return sidesNames(b.specs) }

// pick returns the sides named, in that order, or nil if one is missing.
func (b setupBlock) pick(names []string) []runtime.SideSpec {
	var picked []runtime.SideSpec
	for _, n := range names {
		i := slices.IndexFunc(b.specs, func(s runtime.SideSpec) bool { return s.Name == n })
		if i < 0 {
			return nil
		}
		picked = append(picked, b.specs[i])
	}
	return picked
}

// readSetup reads the blocks of sides of a --setup file: its top-level
// `side` statements, if any, then each scenario and ruleset example that
// has some, in the order of the file.
func readSetup(e *env, path string) ([]setupBlock, sidesFrom, string) {
	rs, err := rulesets.ReadFile(path)
	if err != nil {
		return nil, sidesFrom{}, "--setup: " + pathError(err)
	}
	src := rs.Text
	from := sidesFrom{src: src}
	f, diags := dsl.Parse(path, src)
	if diags.HasErrors() || f == nil {
		e.report(diags, src)
		return nil, from, ""
	}
	var bare []dsl.SetupStmt
	var blocks []setupBlock
	for _, d := range f.Decls {
		if s, ok := d.(*dsl.SideSetup); ok {
			bare = append(bare, s)
		}
	}
	if len(bare) > 0 {
		// The file's own sides come first, wherever they are written;
		// its scenarios and examples stay there for --sides to pick.
		blocks = append(blocks, setupBlock{what: "the `side` statements outside any block", pos: bare[0].(*dsl.SideSetup).Pos(), specs: runtime.SetupFromDSL(bare), bare: true})
	}
	for _, d := range f.Decls {
		switch x := d.(type) {
		case *dsl.Scenario:
			var sides []dsl.SetupStmt
			for _, st := range x.Body {
				if s, ok := st.(*dsl.SideSetup); ok {
					sides = append(sides, s)
				}
			}
			if len(sides) > 0 {
				blocks = append(blocks, setupBlock{what: fmt.Sprintf("scenario %q", string(x.Title)), pos: x.Pos(), specs: runtime.SetupFromDSL(sides)})
			}
		case *dsl.Ruleset:
			for _, st := range x.Body {
				if ex, ok := st.(*dsl.ExampleStmt); ok && len(ex.Setup) > 0 {
					blocks = append(blocks, setupBlock{what: "the example of ruleset " + string(x.Name), pos: ex.Pos(), specs: runtime.SetupFromDSL(ex.Setup)})
				}
			}
		}
	}
	if len(blocks) == 0 {
		return nil, from, fmt.Sprintf("--setup %s names no sides: write `side NAME` statements, one a line", path)
	}
	return blocks, from, ""
}
