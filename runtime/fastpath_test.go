package runtime_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// choiceRuleset is three sides ordered by a d6 roll, then a choice of the
// given kind and policy by the roll's winner.
func choiceRuleset(t testing.TB, choice string) *runtime.Program {
	t.Helper()
	return compileInline(t, fmt.Sprintf(`ruleset c "choices" {
  sides 3
  phase p each round {
    order sides as priority {
      highest roll d6
      tie: reroll
      %s
    }
  }
}
`, choice))
}

// TestChoicePolicies plays each declared policy with the ruleset's own
// decider, with and without a transcript (the battle answers its own
// policy without building the decision when nobody records it).
func TestChoicePolicies(t *testing.T) {
	tests := []struct {
		choice string
		rolls  [3]int // A, B, C
		want   []string
	}{
		{"choice first by winner default self", [3]int{2, 6, 4}, []string{"B", "C", "A"}},
		{"choice first by winner default other", [3]int{2, 6, 4}, []string{"C", "B", "A"}},
		{"choice first by winner default other", [3]int{6, 2, 4}, []string{"C", "A", "B"}},
		{"choice first by loser default self", [3]int{6, 2, 4}, []string{"B", "A", "C"}},
		{"choice first by winner default keep", [3]int{2, 6, 4}, []string{"B", "C", "A"}},
		{"choice before_after by winner default before", [3]int{2, 6, 4}, []string{"B", "C", "A"}},
		{"choice before_after by winner default after", [3]int{2, 6, 4}, []string{"C", "A", "B"}},
		{"choice before_after by loser default before", [3]int{2, 6, 4}, []string{"A", "B", "C"}},
		{"choice order by winner default keep", [3]int{2, 6, 4}, []string{"B", "C", "A"}},
		{"choice order by winner default reverse", [3]int{2, 6, 4}, []string{"A", "C", "B"}},
	}
	for _, tt := range tests {
		for _, transcript := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/%v/transcript=%v", tt.choice, tt.rolls, transcript), func(t *testing.T) {
				p := choiceRuleset(t, tt.choice)
				dice := runtime.NewScriptedDice()
				for i, who := range []string{"A", "B", "C"} {
					dice.AddRoll(who, tt.rolls[i])
				}
				b, err := p.NewBattle(runtime.Sides("A", "B", "C"), runtime.WithDice(dice), runtime.WithTranscript(transcript))
				if err != nil {
					t.Fatal(err)
				}
				res, err := b.PlayRound(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, res.Order); diff != "" {
					t.Errorf("order (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestTranscriptDoesNotChangePlay plays every bundled ruleset, and every
// choice policy, with the transcript on and off from the same seed: the
// rounds must come out the same.
func TestTranscriptDoesNotChangePlay(t *testing.T) {
	type round struct {
		Order           []string
		Holder, Chooser string
		Activations     []runtime.ActivationRecord
	}
	play := func(t *testing.T, p *runtime.Program, sides []runtime.SideSpec, transcript bool) []round {
		b, err := p.NewBattle(sides, runtime.WithDice(runtime.NewSeededDice(11)), runtime.WithTranscript(transcript))
		if err != nil {
			t.Fatal(err)
		}
		var out []round
		for range 200 {
			res, err := b.PlayRound(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, round{res.Order, res.Holder, res.Chooser, res.Activations})
		}
		return out
	}
	check := func(t *testing.T, p *runtime.Program, sides []runtime.SideSpec) {
		if diff := cmp.Diff(play(t, p, sides, true), play(t, p, sides, false)); diff != "" {
			t.Errorf("with the transcript off (-on +off):\n%s", diff)
		}
	}
	for _, name := range rulesets.Names() {
		t.Run(name, func(t *testing.T) {
			p := mustProgram(t, name)
			check(t, p, p.Example())
		})
	}
	for _, c := range []string{"choice first by winner default other", "choice before_after by winner default after",
		"choice order by loser default reverse"} {
		t.Run(c, func(t *testing.T) { check(t, choiceRuleset(t, c), runtime.Sides("A", "B", "C")) })
	}
}

// TestSteadyRoundsAllocateNothing guards the allocation-free path that
// BenchmarkMESBGRound and BenchmarkNecromunda4 measure. A round with an
// activation loop reuses the record of activations of the round before
// last, which nobody was given (Activations copies it).
func TestSteadyRoundsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, tt := range []struct {
		name   string
		sides  []runtime.SideSpec // nil: the ruleset's example, units and all
		allocs float64
	}{
		{"mesbg", runtime.Sides("Jay", "Rob"), 0},
		{"necromunda", runtime.Sides("A", "B", "C", "D"), 0},
		{"necromunda", nil, 0},
		{"morturi", nil, 0},
		{"agi", nil, 0},
	} {
		p := mustProgram(t, tt.name)
		if tt.sides == nil {
			tt.sides = p.Example()
		}
		b, err := p.NewBattle(tt.sides, runtime.WithTranscript(false))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		play := func(rounds int) {
			for range rounds {
				if err := b.AdvanceRound(ctx); err != nil {
					t.Fatal(err)
				}
			}
		}
		// Warm: every order the battle makes is kept once made.
		play(300)
		// Counted in hundreds of rounds: AllocsPerRun rounds its average
		// down, which would hide a rare allocation, as on a reroll.
		allocs := testing.AllocsPerRun(20, func() { play(100) }) / 100
		if allocs != tt.allocs {
			t.Errorf("%s with %d sides: %v allocations per round, want %v", tt.name, len(tt.sides), allocs, tt.allocs)
		}
	}
}

// TestReturnedSlicesAreCopies changes everything the battle hands out and
// wants the battle to play on exactly as an untouched twin.
func TestReturnedSlicesAreCopies(t *testing.T) {
	p := mustProgram(t, "necromunda")
	sides := runtime.Sides("A", "B", "C", "D")
	newBattle := func() *runtime.Battle {
		b, err := p.NewBattle(sides, runtime.WithDice(runtime.NewSeededDice(5)), runtime.WithTranscript(false))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	vandal, twin := newBattle(), newBattle()
	for range 100 {
		res := playTwins(t, twin, vandal, "(-twin +vandalised)")
		for _, s := range [][]string{res.Order, vandal.Order(), vandal.Memory().Order, vandal.Standing("priority").Order} {
			for i := range s {
				s[i] = "X"
			}
		}
	}
}

// TestDeciderChangesAttributesMidChoice: a decider that changes a watched
// attribute while the sides are being ordered makes the battle order its
// units again inside that computation; both must come out whole.
func TestDeciderChangesAttributesMidChoice(t *testing.T) {
	p := compileInline(t, `ruleset nest "nested" {
  sides 2..
  unit attribute agi int
  phase p each round {
    order sides as priority {
      highest roll d6
      tie: reroll
      choice order by winner default reverse
    }
    order units as initiative until changed agi {
      highest agi
      tie: random
    }
  }
}`)
	var sides []runtime.SideSpec
	var units []string
	for _, s := range []string{"A", "B", "C"} {
		spec := runtime.SideSpec{Name: s}
		for k := range 4 {
			name := fmt.Sprintf("%s%d", s, k)
			spec.Units = append(spec.Units, runtime.UnitSpec{Name: name})
			units = append(units, name)
		}
		sides = append(sides, spec)
	}
	var b *runtime.Battle
	calls := 0
	decider := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		calls++
		if err := b.SetAttr(ctx, units[calls%len(units)], "agi", calls%3); err != nil {
			return nil, err
		}
		return d.Default, nil
	})
	b, err := p.NewBattle(sides, runtime.WithDecider(decider), runtime.WithDice(runtime.NewSeededDice(3)))
	if err != nil {
		t.Fatal(err)
	}
	sorted := cmpopts.SortSlices(func(a, b string) bool { return a < b })
	for range 20 {
		res, err := b.PlayRound(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"A", "B", "C"}, res.Order, sorted); diff != "" {
			t.Fatalf("round %d: the sides' order is not every side once (-sides +order):\n%s", res.Round, diff)
		}
		if diff := cmp.Diff(units, b.Standing("initiative").Order, sorted); diff != "" {
			t.Fatalf("round %d: the units' order is not every unit once (-units +order):\n%s", res.Round, diff)
		}
	}
	if calls < 2 {
		t.Fatalf("the decider was asked %d times", calls)
	}
}

// TestDeciderRemovesUnitMidChoice: a casualty removed while the units are
// being ordered. The order made keeps the units it started with, and
// nothing breaks.
func TestDeciderRemovesUnitMidChoice(t *testing.T) {
	p := compileInline(t, `ruleset r "x" {
  sides 2
  unit attribute agi int
  phase p each round {
    order units as o {
      highest agi
      tie: choice order by team default keep
    }
  }
}
`)
	sides := []runtime.SideSpec{
		{Name: "A", Team: "T", Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}}},
		{Name: "B", Team: "T", Units: []runtime.UnitSpec{{Name: "b1"}}},
	}
	var b *runtime.Battle
	decider := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		if b.Unit("b1") != nil {
			if err := b.RemoveUnit(ctx, "b1"); err != nil {
				return nil, err
			}
		}
		return d.Default, nil
	})
	b, err := p.NewBattle(sides, runtime.WithDecider(decider))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	st := b.Standing("o")
	var placed []string
	for _, pl := range st.Places {
		placed = append(placed, pl.Subject)
	}
	if diff := cmp.Diff([]string{"a1", "a2", "b1"}, st.Order); diff != "" {
		t.Errorf("the order made during the removal (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(st.Order, placed); diff != "" {
		t.Errorf("places do not follow the order (-order +places):\n%s", diff)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a1", "a2"}, b.Standing("o").Order); diff != "" {
		t.Errorf("the next round's order (-want +got):\n%s", diff)
	}
}

// TestPackageListsAreCopies: what the package and a Program hand out can
// be changed without changing what the next caller, or a battle, sees.
func TestPackageListsAreCopies(t *testing.T) {
	kinds := runtime.EventKinds()
	kinds[0] = "vandal"
	if got := runtime.EventKinds()[0]; got != runtime.EvRoundStart {
		t.Errorf("EventKinds()[0] = %q after changing a copy", got)
	}
	pols := runtime.Policies(runtime.ChooseFirst)
	pols[0] = "vandal"
	if diff := cmp.Diff([]string{"self", "other", "keep"}, runtime.Policies(runtime.ChooseFirst)); diff != "" {
		t.Errorf("Policies(first) after changing a copy (-want +got):\n%s", diff)
	}
	if _, err := (runtime.Override{runtime.ChooseFirst: "vandal"}).Decide(context.Background(), runtime.Decision{Kind: runtime.ChooseFirst}); err == nil {
		t.Error("Override accepted a policy that only a changed copy lists")
	}
	p := mustProgram(t, "agi")
	ex := p.Example()
	ex[0].Name = "vandal"
	if p.Example()[0].Name == "vandal" {
		t.Errorf("changing Example() changed the Program: %v", p.Example())
	}
	stillTied := compileInline(t, "ruleset x {\n phase p { order sides as o { highest roll d6 } }\n}\n")
	warns := stillTied.Warnings()
	if len(warns) == 0 {
		t.Fatal("no warning about an order that can end still tied")
	}
	warns[0].Message = "vandal"
	if stillTied.Warnings()[0].Message == "vandal" {
		t.Error("changing Warnings() changed the Program")
	}
}

// Override answers each kind of decision from its options: only an
// activation's "pass" is left to the side, a decision with nothing else
// to pick gets the ruleset's default, and the decision is not changed.
func TestOverrideAnswers(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		o    runtime.Override
		d    runtime.Decision
		want []string
	}{
		{"activate last skips pass", runtime.Override{runtime.ChooseActivation: "last"},
			runtime.Decision{Kind: runtime.ChooseActivation, Options: []string{"a1", "a2", "pass"}, Default: []string{"a1"}}, []string{"a2"}},
		{"only pass: the default", runtime.Override{runtime.ChooseActivation: "last"},
			runtime.Decision{Kind: runtime.ChooseActivation, Options: []string{"pass"}, Default: []string{"pass"}}, []string{"pass"}},
		{"reverse", runtime.Override{runtime.ChooseOrder: "reverse"},
			runtime.Decision{Kind: runtime.ChooseOrder, Options: []string{"A", "B", "C"}}, []string{"C", "B", "A"}},
		{"other", runtime.Override{runtime.ChooseFirst: "other"},
			runtime.Decision{Kind: runtime.ChooseFirst, Self: "A", Options: []string{"A", "B"}}, []string{"B"}},
		{"no options", runtime.Override{runtime.ChooseFirst: "self"},
			runtime.Decision{Kind: runtime.ChooseFirst, Self: "A", Default: []string{"A"}}, []string{"A"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := slices.Clone(tt.d.Options)
			got, err := tt.o.Decide(ctx, tt.d)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Decide (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(opts, tt.d.Options); diff != "" {
				t.Errorf("Decide changed the decision's options (-before +after):\n%s", diff)
			}
		})
	}
}

// A Program lists what its ruleset declares, as copies.
func TestProgramDeclarations(t *testing.T) {
	p := mustProgram(t, "necromunda")
	names := func(as []runtime.Attr) []string {
		var out []string
		for _, a := range as {
			out = append(out, a.Name)
		}
		return out
	}
	got := [][]string{names(p.SideAttrs()), names(p.UnitAttrs()), p.Statuses()}
	want := [][]string{nil, nil, {"out_of_action", "seriously_injured", "not_on_battlefield"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("declarations (-want +got):\n%s", diff)
	}
	st := p.Statuses()
	st[0] = "vandal"
	if p.Statuses()[0] != "out_of_action" {
		t.Error("Statuses hands out the program's own list")
	}
	agi := mustProgram(t, "agi")
	if diff := cmp.Diff([]string{"agi"}, names(agi.UnitAttrs())); diff != "" {
		t.Errorf("agi's unit attributes (-want +got):\n%s", diff)
	}
}
