package runtime_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

func TestBundledRulesetsPlay(t *testing.T) {
	for _, name := range rulesets.Names() {
		t.Run(name, func(t *testing.T) {
			p := mustProgram(t, name)
			// A bundled ruleset is the model house rules are copied from.
			for _, w := range p.Warnings() {
				t.Errorf("warning: %s", w)
			}
			b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(7)))
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				res, err := b.PlayRound(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("round %d order %v holder %s chooser %s acts %v", res.Round, res.Order, res.Holder, res.Chooser, res.Activations)
				for _, e := range res.Events {
					t.Logf("  %s", e)
				}
			}
		})
	}
}

// Decisions lists the kinds of decision a ruleset can ask for.
func TestDecisions(t *testing.T) {
	want := map[string][]runtime.DecisionKind{
		"mesbg":      {runtime.ChooseFirst},
		"agi":        {runtime.ChooseBeforeAfter, runtime.ChooseOrder},
		"necromunda": {runtime.ChooseActivation},
	}
	for name, w := range want {
		if diff := cmp.Diff(w, mustProgram(t, name).Decisions()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// A hook named as start or end is, or a name that a rule uses, or one
// further from them, is the author's own: no warning.
func TestHookNameWarnings(t *testing.T) {
	for _, tt := range []struct {
		hooks, rules string
		warn         bool
	}{
		{"hook start\n    hook end", "on hook start {}\n  on hook end {}", false},
		{"hook start\n    hook end", "", false},
		{"hook stat", "on hook stat {}", false},
		{"hook stop\n    hook finish", "", false},
		{"hook restart", "", false},
		{"hook Start", "", true},
		{"hook ed", "", true},
	} {
		p := compileInline(t, `ruleset m {
  sides 2
  phase p {
    `+tt.hooks+`
    order sides as priority {
      random
    }
  }
  `+tt.rules+`
}`)
		if got := len(p.Warnings()) > 0; got != tt.warn {
			t.Errorf("%q with %q: warnings %v, want some: %v", tt.hooks, tt.rules, p.Warnings(), tt.warn)
		}
	}
}

// The warning about a `once` phase's `ready units` is not given of an
// `until changed` one, rightly: such a phase runs every round (its orders
// are kept until a watched value changes), and so its `ready units` gives
// Ready markers every round, and round 2 activates every unit again.
func TestReadyInUntilChangedPhaseEveryRound(t *testing.T) {
	for _, scope := range []string{"until changed agi", "once"} {
		p := compileInline(t, `ruleset m {
  sides 2
  side attribute agi int
  phase p `+scope+` {
    order sides as o {
      highest agi
      tie: random
    }
    ready units
  }
  activation alternate by o
  example {
    side Jay agi = 3 {
      unit a
    }
    side Rob agi = 2 {
      unit b
    }
  }
}`)
		once := scope == "once"
		if warned := len(p.Warnings()) > 0; warned != once {
			t.Errorf("phase p %s: warnings %v, want some: %v", scope, p.Warnings(), once)
		}
		b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(1)))
		if err != nil {
			t.Fatal(err)
		}
		for round := 1; round <= 2; round++ {
			res, err := b.PlayRound(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			want := 2
			if once && round == 2 {
				want = 0 // what the warning is about
			}
			if len(res.Activations) != want {
				t.Errorf("phase p %s, round %d: activations %v, want %d", scope, round, res.Activations, want)
			}
		}
	}
}

// The mend the award warning gives (mesbg for three sides) compiles
// without it: a guarded award is kept to ties of two on purpose.
func TestGuardedAwardBeforeWinnerIsNoWarning(t *testing.T) {
	for _, tt := range []struct {
		ties string
		warn bool
	}{
		{"tie: award not previous.chooser", true},
		{"tie when len(sides) == 2: award not previous.chooser\n      tie: reroll", false},
	} {
		p := compileInline(t, `ruleset m {
  sides 3
  phase p {
    order sides as priority {
      highest roll d6
      tie when round == 1: reroll
      `+tt.ties+`
      choice first by winner default self
    }
  }
}`)
		if got := len(p.Warnings()) > 0; got != tt.warn {
			t.Errorf("%s: warnings %v, want some: %v", tt.ties, p.Warnings(), tt.warn)
		}
	}
}

// A signature given to WithFunction that is not a function type (a value
// where new(func(string) int) was meant) is a compile error, not a panic
// inside expr-lang; a signature given as a function value still works.
func TestWithFunctionSignatures(t *testing.T) {
	f, diags := dsl.Parse("x.rules", []byte(`ruleset a "a" {
  sides 2
  phase p {
    order sides as p {
      lowest threat(name)
      random
    }
  }
}
`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	fn := func(...any) (any, error) { return 1, nil }
	for _, tt := range []struct {
		name  string
		types []any
		want  string // "" for none
	}{
		{"an int", []any{42}, `x.rules:1:1: error: WithFunction("threat"): signature 42 (int) is not a function type: give one as new(func(string) int)`},
		{"nil", []any{nil}, `x.rules:1:1: error: WithFunction("threat"): signature <nil> (<nil>) is not a function type: give one as new(func(string) int)`},
		{"a pointer", []any{new(func(string) int)}, ""},
		{"a function value", []any{func(string) int { return 0 }}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("Compile panicked: %v", r)
				}
			}()
			_, err := runtime.Compile(f, runtime.WithFunction("threat", fn, tt.types...))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Compile: %q\nwant: %q", got, tt.want)
			}
		})
	}
}

// A nil function given to WithFunction is a compile error that names the
// option, whether an expression calls the function or not, as a bad
// signature is, not "function is nil" at each expression that calls it.
func TestWithFunctionNil(t *testing.T) {
	for _, tt := range []struct {
		name, criterion string
	}{
		{"called", "lowest threat(name)"},
		{"not called", "lowest len(name)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := fmt.Sprintf("ruleset a \"a\" {\n  sides 2\n  phase p {\n    order sides as p {\n      %s\n      random\n    }\n  }\n}\n", tt.criterion)
			f, diags := dsl.Parse("x.rules", []byte(src))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			_, err := runtime.Compile(f, runtime.WithFunction("threat", nil))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(`x.rules:1:1: error: WithFunction("threat"): the function is nil`, got); diff != "" {
				t.Errorf("Compile (-want +got):\n%s", diff)
			}
		})
	}
}

// CompileRuleset with no ruleset is an error, as Compile with no file is.
func TestCompileRulesetNil(t *testing.T) {
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("CompileRuleset(f, nil) panicked: %v", r)
		}
	}()
	if _, err := runtime.CompileRuleset(&dsl.File{}, nil); err == nil {
		t.Error("CompileRuleset(f, nil): no error")
	}
}

// DrawsAtRandom says what a script of random picks may name: sides for a
// random criterion of an order of sides (in a tie rule too) and for the bag
// of activation draw, units for one of an order of units.
func TestDrawsAtRandom(t *testing.T) {
	for _, tt := range []struct {
		name, body   string
		sides, units bool
	}{
		{"none", "phase p { order sides as o { highest 1 } }", false, false},
		{"sides", "phase p { order sides as o { highest 1\n tie: random } }", true, false},
		{"units", "unit attribute agi int\n phase p { order units as o { random } }", false, true},
		{"both", "phase p { order sides as o { random }\n order units as u { random } }", true, true},
		{"bag", "phase p { order sides as o { highest 1\n tie: award tied[0].name } }\n activation draw by o", true, false},
	} {
		p := compileInline(t, "ruleset r {\n sides 2\n "+tt.body+"\n}\n")
		if sides, units := p.DrawsAtRandom(); sides != tt.sides || units != tt.units {
			t.Errorf("%s: DrawsAtRandom() = %v, %v, want %v, %v", tt.name, sides, units, tt.sides, tt.units)
		}
	}
}

// A host function given a side, a unit or a list of them gets them as
// Memory gives them, maps from their field names, which Go code can read,
// not the struct types the Program builds for expressions.
// A host's own value passed from one of its functions to another is left
// as it is, even a struct whose type has no name, as the Program's own
// types have none.
func TestWithFunctionGetsTheHostsStructsAsTheyAre(t *testing.T) {
	type point = struct{ X int }
	var got any
	p := compileInline(t, "ruleset a {\n sides 2\n phase p {\n  order sides as p {\n   lowest f(g())\n   random\n  }\n }\n}\n",
		runtime.WithFunction("g", func(params ...any) (any, error) { return point{X: 3}, nil }),
		runtime.WithFunction("f", func(params ...any) (any, error) {
			got = params[0]
			return 1, nil
		}))
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(any(point{X: 3}), got); diff != "" {
		t.Errorf("f's argument (-want +got):\n%s", diff)
	}
}

func TestWithFunctionGetsSidesAndUnitsAsMaps(t *testing.T) {
	var got []any
	p := compileInline(t, `ruleset a "a" {
  sides 2
  side attribute banner string = "none"
  unit attribute agi int = 2
  unit status pinned
  phase p {
    order sides as p {
      lowest f(units, sides[0], name)
      random
    }
  }
}
`, runtime.WithFunction("f", func(params ...any) (any, error) {
		if got == nil {
			got = params
		}
		return 1, nil
	}))
	b, err := p.NewBattle([]runtime.SideSpec{
		{Name: "Jay", Units: []runtime.UnitSpec{{Name: "j1", Statuses: []string{"pinned"}}}},
		{Name: "Rob", Units: []runtime.UnitSpec{{Name: "r1", Attrs: map[string]any{"agi": 4}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	j1 := map[string]any{"name": "j1", "side": "Jay", "team": "", "ready": false, "agi": 2, "pinned": true}
	want := []any{
		[]any{j1},
		map[string]any{"name": "Jay", "team": "", "banner": "none", "units": []any{j1}},
		"Jay",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("f's arguments for Jay (-want +got):\n%s", diff)
	}
}

// An award of `lowest(...)` is explained as a criterion only when it does
// not compile: a host's function called lowest can still name a subject.
func TestAwardOfHostFunctionCalledLowest(t *testing.T) {
	src := `ruleset x {
  sides 2
  phase p {
    order sides as o {
      highest roll d6
      tie: award lowest(tied)
    }
  }
}
`
	f, diags := dsl.Parse("x.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags)
	}
	first := func(params ...any) (any, error) { return "A", nil }
	if _, err := runtime.Compile(f, runtime.WithFunction("lowest", first, new(func(any) string))); err != nil {
		t.Fatalf("a host function called lowest cannot be awarded: %v", err)
	}
	if _, err := runtime.Compile(f); err == nil {
		t.Fatal("without the host function, the award compiled")
	}
}
