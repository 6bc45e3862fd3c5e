package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// CheckSides finds, without a ruleset, the names NewBattle refuses
// whatever the ruleset.
func TestCheckSides(t *testing.T) {
	at := func(line int) dsl.Pos { return dsl.Pos{Filename: "s.rules", Line: line, Column: 1} }
	unit := func(name string, line int) runtime.UnitSpec { return runtime.UnitSpec{Name: name, Pos: at(line)} }
	tests := []struct {
		name  string
		sides []runtime.SideSpec
		want  []string
	}{
		{"fine", []runtime.SideSpec{{Name: "A", Pos: at(1), Units: []runtime.UnitSpec{unit("a1", 2)}}, {Name: "B", Pos: at(3)}}, nil},
		{"no name", []runtime.SideSpec{{Pos: at(1), Units: []runtime.UnitSpec{unit("", 2)}}},
			[]string{"1: the 1st side needs a name", "2: the 1st unit of the 1st side needs a name"}},
		{"repeats", []runtime.SideSpec{{Name: "A", Pos: at(1), Units: []runtime.UnitSpec{unit("A", 2)}}, {Name: "A", Pos: at(3)}},
			[]string{`2: the name "A" is used twice (sides and units need names of their own)`, `3: the name "A" is used twice (sides and units need names of their own)`}},
		// `unit a * 2` is a1 and a2 at one position: each clash with a
		// unit before it is one error there, naming the first.
		{"one position, one error", []runtime.SideSpec{
			{Name: "A", Pos: at(1), Units: []runtime.UnitSpec{unit("a1", 2), unit("a2", 2)}},
			{Name: "B", Pos: at(3), Units: []runtime.UnitSpec{unit("a1", 4), unit("a2", 4), unit("a3", 4), unit("A", 5)}}},
			[]string{`4: the name "a1" is used twice (sides and units need names of their own)`, `5: the name "A" is used twice (sides and units need names of their own)`}},
		// A position that is not known (specs built in Go) is no reason to
		// take different names for the same mistake.
		{"no position", []runtime.SideSpec{{Name: "A", Units: []runtime.UnitSpec{{Name: "A"}, {Name: "B"}}}, {Name: "B"}},
			[]string{`0: the name "A" is used twice (sides and units need names of their own)`, `0: the name "B" is used twice (sides and units need names of their own)`}},
		{"reserved", []runtime.SideSpec{{Name: "none", Pos: at(1)}, {Name: "B", Team: "none", Pos: at(2), Units: []runtime.UnitSpec{unit("none", 3)}}},
			[]string{
				"1: none cannot name a side: it means nobody, as in `expect chooser none`",
				"2: side B: none cannot name a team: it means nobody, as in `expect chooser none`",
				"3: none cannot name a unit: it means nobody, as in `expect chooser none`",
			}},
		{"pass", []runtime.SideSpec{{Name: "pass", Pos: at(1)}, {Name: "B", Pos: at(2), Units: []runtime.UnitSpec{unit("pass", 3)}}},
			[]string{
				"1: pass cannot name a side: it is the answer of a side that passes instead of activating",
				"3: pass cannot name a unit: it is the answer of a side that passes instead of activating",
			}},
	}
	// NewBattle, with any ruleset, refuses at least as much.
	p := compileInline(t, "ruleset x {\n  phase p {\n    order sides as o {\n      random\n    }\n  }\n}\n")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range runtime.CheckSides(tt.sides) {
				got = append(got, fmt.Sprintf("%d: %s", d.Pos.Line, d.Message))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CheckSides (-want +got):\n%s", diff)
			}
			_, err := p.NewBattle(tt.sides)
			ds, _ := err.(dsl.Diagnostics)
			if tt.want == nil {
				if err != nil {
					t.Errorf("NewBattle: %v", err)
				}
				return
			}
			var all []string
			for _, d := range ds {
				all = append(all, fmt.Sprintf("%d: %s", d.Pos.Line, d.Message))
			}
			for _, w := range tt.want {
				if !slices.Contains(all, w) {
					t.Errorf("NewBattle does not say %q; it says:\n%s", w, strings.Join(all, "\n"))
				}
			}
		})
	}
}

// Sides sent as JSON have no position to point to: a side or unit without
// a name, and any other mistake in it, is said by which one it is (its
// place, its team, its units), not only "a side needs a name".
func TestUnnamedSideFromJSON(t *testing.T) {
	p := compileInline(t, "ruleset x {\n  sides 2..\n  unit attribute agi int\n  phase p {\n    order units as o {\n      highest agi\n      random\n    }\n  }\n}\n")
	const sides = `[
  {"name": "A", "units": [{"name": "a1"}]},
  {"team": "Red", "units": [{"name": "r1"}, {"name": "r2"}]},
  {"units": [{"name": "b1"}, {"name": "b2"}, {"name": "b3"}, {"name": "b4"}, {"attrs": {"agi": "x"}}]},
  {"name": "C", "units": [{"name": "c1"}, {"statuses": ["pinned"]}]},
  {"team": "none"}
]`
	var specs []runtime.SideSpec
	if err := json.Unmarshal([]byte(sides), &specs); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"the 2nd side (in team Red, with units r1 and r2) needs a name",
		"the 3rd side (with units b1, b2, b3 and 1 more) needs a name",
		"the 5th unit of the 3rd side (with units b1, b2, b3 and 1 more) needs a name",
		"the 5th unit of the 3rd side (with units b1, b2, b3 and 1 more): attribute agi: want a whole number, got x",
		"the 2nd unit of side C needs a name",
		"the 2nd unit of side C: unknown status pinned (declared: none)",
		"the 5th side (in team none) needs a name",
		"the 5th side (in team none): none cannot name a team: it means nobody, as in `expect chooser none`",
	}
	_, err := p.NewBattle(specs)
	ds, _ := err.(dsl.Diagnostics)
	var got []string
	for _, d := range ds {
		got = append(got, d.Message)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NewBattle (-want +got):\n%s", diff)
	}
	// CheckSides names them alike.
	got = nil
	for _, d := range runtime.CheckSides(specs) {
		got = append(got, d.Message)
	}
	if diff := cmp.Diff([]string{want[0], want[1], want[2], want[4], want[6], want[7]}, got); diff != "" {
		t.Errorf("CheckSides (-want +got):\n%s", diff)
	}
}

// What the language writes: two sides each with `unit a * 2` are four
// units (a1, a2 twice) at two positions. The clash of the second side's
// copies is one error at its position, and NewBattle says the same as
// CheckSides.
func TestCheckSidesCopies(t *testing.T) {
	const src = `side A {
  unit a * 2
}
side B {
  unit a * 2
  unit b * 3 bogus = 1
}
`
	f, diags := dsl.Parse("s.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("parse:\n%s", diags.Render(src))
	}
	var sides []runtime.SideSpec
	for _, d := range f.Decls {
		if s, ok := d.(*dsl.SideSetup); ok {
			sides = append(sides, runtime.SideFromDSL(s))
		}
	}
	if n := len(sides[1].Units); n != 5 {
		t.Fatalf("side B has %d units, want 5 (a1, a2, b1, b2, b3)", n)
	}
	show := func(ds dsl.Diagnostics) []string {
		var out []string
		for _, d := range ds {
			out = append(out, fmt.Sprintf("%d:%d: %s", d.Pos.Line, d.Pos.Column, d.Message))
		}
		return out
	}
	want := []string{`5:3: the name "a1" is used twice (sides and units need names of their own)`}
	if diff := cmp.Diff(want, show(runtime.CheckSides(sides))); diff != "" {
		t.Errorf("CheckSides (-want +got):\n%s", diff)
	}

	p := compileInline(t, "ruleset x {\n  phase p {\n    order sides as o {\n      random\n    }\n  }\n}\n")
	_, err := p.NewBattle(sides)
	ds, ok := err.(dsl.Diagnostics)
	if !ok {
		t.Fatalf("NewBattle error is %T, not dsl.Diagnostics: %v", err, err)
	}
	want = append(want, "6:3: unit b1: unknown attribute bogus (declared: none)")
	if diff := cmp.Diff(want, show(ds)); diff != "" {
		t.Errorf("NewBattle (-want +got):\n%s", diff)
	}
}

// A status change is an event of the round it is made for, as a set is.
func TestSetStatusIsAnEvent(t *testing.T) {
	p := mustProgram(t, "necromunda")
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	unit := b.Units()[0].Name
	if err := b.SetStatus(ctx, unit, "out_of_action", true); err != nil {
		t.Fatal(err)
	}
	if err := b.SetStatus(ctx, unit, "out_of_action", true); err != nil { // no change: no event
		t.Fatal(err)
	}
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range res.Events {
		if e.Kind == runtime.EvSet {
			got = append(got, e.Subject+": "+e.Detail)
		}
	}
	if diff := cmp.Diff([]string{unit + ": " + unit + " is now out_of_action"}, got); diff != "" {
		t.Errorf("set events (-want +got):\n%s", diff)
	}
}

// TestExampleJSONRoundTrip: the sides of a ruleset's example block are
// plain values, as a host would write them, so that a host can save them
// as JSON (SideSpec has JSON tags) and start a battle from what it loads.
func TestExampleJSONRoundTrip(t *testing.T) {
	const src = `ruleset ex "Example values" {
  sides 2
  side attribute heroic bool
  side attribute banner string
  unit attribute movement int = 4
  unit attribute title string
  unit status pinned
  phase p {
    order sides as p {
      lowest sum(units, .movement)
      highest roll d6
      tie: reroll
    }
  }
  example {
    side Good team Free heroic = true banner = "White Tree" {
      unit Aragorn movement = -6 title = king status pinned
      unit man * 2
    }
    side Evil banner = Eye {
      unit Lurtz title = "true"
    }
  }
}
`
	p := compileInline(t, src)
	want := []runtime.SideSpec{
		{Name: "Good", Team: "Free", Attrs: map[string]any{"heroic": true, "banner": "White Tree"}, Units: []runtime.UnitSpec{
			{Name: "Aragorn", Attrs: map[string]any{"movement": -6, "title": "king"}, Statuses: []string{"pinned"}},
			{Name: "man1"},
			{Name: "man2"},
		}},
		{Name: "Evil", Attrs: map[string]any{"banner": "Eye"}, Units: []runtime.UnitSpec{
			{Name: "Lurtz", Attrs: map[string]any{"title": "true"}},
		}},
	}
	ignorePos := cmpopts.IgnoreFields(runtime.SideSpec{}, "Pos")
	ignoreUnitPos := cmpopts.IgnoreFields(runtime.UnitSpec{}, "Pos", "StatusPos")
	if diff := cmp.Diff(want, p.Example(), ignorePos, ignoreUnitPos); diff != "" {
		t.Fatalf("Example() (-want +got):\n%s", diff)
	}
	data, err := json.Marshal(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	var loaded []runtime.SideSpec
	if err := json.Unmarshal(data, &loaded); err != nil {
		t.Fatal(err)
	}
	fromJSON, err := p.NewBattle(loaded)
	if err != nil {
		t.Fatalf("NewBattle with the example saved as JSON: %v", err)
	}
	direct, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range direct.Units() {
		got := fromJSON.Unit(u.Name)
		if diff := cmp.Diff(u.Attrs, got.Attrs); diff != "" {
			t.Errorf("unit %s attributes from JSON (-want +got):\n%s", u.Name, diff)
		}
	}
	for _, s := range direct.Sides() {
		if diff := cmp.Diff(s.Attrs, fromJSON.Side(s.Name).Attrs); diff != "" {
			t.Errorf("side %s attributes from JSON (-want +got):\n%s", s.Name, diff)
		}
	}
}

// A Program that did not come from Compile (a zero Program, declared by
// mistake) refuses to start or restore a battle, rather than start one
// that panics in its first round.
func TestZeroProgramRefuses(t *testing.T) {
	ctx := context.Background()
	var p runtime.Program
	snap := func() []byte {
		b, err := compileBundled("mesbg").NewBattle(runtime.Sides("Jay", "Rob"))
		if err != nil {
			t.Fatal(err)
		}
		data, err := b.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		return data
	}()
	tests := []struct {
		name string
		call func() error
	}{
		{"NewBattle", func() error { _, err := p.NewBattle(runtime.Sides("Jay", "Rob")); return err }},
		{"Restore", func() error { _, err := p.Restore(snap); return err }},
		{"Odds", func() error {
			_, err := p.Odds(ctx, runtime.Sides("Jay", "Rob"), runtime.OddsOptions{Rounds: 1})
			return err
		}},
		{"Simulate", func() error {
			_, err := p.Simulate(ctx, runtime.Sides("Jay", "Rob"), runtime.SimOptions{Runs: 1, Rounds: 1})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			if err := tt.call(); err == nil {
				t.Errorf("%s on a zero Program: no error", tt.name)
			}
		})
	}
}

// A Battle that did not come from NewBattle or Restore (a zero Battle, a
// struct field never set) refuses to play or save, and its accessors say
// it has nothing, rather than panic in a server's handler.
func TestZeroBattleRefuses(t *testing.T) {
	ctx := context.Background()
	var b runtime.Battle
	calls := []struct {
		name string
		call func() error
	}{
		{"StartRound", func() error { return b.StartRound(ctx) }},
		{"PlayRound", func() error { _, err := b.PlayRound(ctx); return err }},
		{"AdvanceRound", func() error { return b.AdvanceRound(ctx) }},
		{"Step", func() error { _, err := b.Step(ctx); return err }},
		{"EndRound", func() error { _, err := b.EndRound(ctx); return err }},
		{"Snapshot", func() error { _, err := b.Snapshot(); return err }},
		{"Odds", func() error { _, err := b.Odds(ctx, runtime.OddsOptions{Rounds: 1}); return err }},
		{"SetHolder", func() error { return b.SetHolder("Jay") }},
		{"Activate", func() error { return b.Activate(ctx, "Krug") }},
		{"Pass", func() error { return b.Pass(ctx) }},
		{"Draw", func() error { _, err := b.Draw(ctx); return err }},
	}
	for _, tt := range calls {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			if err := tt.call(); err == nil {
				t.Errorf("%s on a zero Battle: no error", tt.name)
			}
		})
	}
	t.Run("accessors", func(t *testing.T) {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("panic: %v", r)
			}
		}()
		if b.Next() != nil || b.Order() != nil || b.HolderSide() != "" || b.Standing("priority") != nil {
			t.Errorf("a zero Battle has a turn, an order, a holder or a standing")
		}
	})
}

// OrdersUnits tells a host whether the sides of a battle need units.
func TestOrdersUnits(t *testing.T) {
	for name, want := range map[string]bool{"mesbg": false, "necromunda": false, "agi": true, "morturi": false} {
		p := mustProgram(t, name)
		if got := p.OrdersUnits(); got != want {
			t.Errorf("%s: OrdersUnits() = %v, want %v", name, got, want)
		}
		_, err := p.NewBattle(runtime.Sides("A", "B"))
		if refused := err != nil; refused != want {
			t.Errorf("%s: NewBattle with sides without units: err = %v; OrdersUnits() = %v", name, err, want)
		}
	}
}
