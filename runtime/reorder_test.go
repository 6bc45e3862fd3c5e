package runtime_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// reorderRules orders sides by agi until it changes, for an activation
// whose mode is %s.
const reorderRules = `ruleset re {
  sides 2..
  side attribute agi int
  phase p each round {
    order sides as priority until changed agi {
      highest agi
    }
  }
  activation %s by priority
}`

// A change that reorders the activation's standing mid-round leaves the
// turn with the side whose turn it is, and the turns go on from its place
// in the new order: the counter's place in the new order would give one
// side two turns in a row and skip another. Before anyone has had a turn,
// the new first, who holds priority now, goes first.
func TestReorderMidRoundKeepsTheTurn(t *testing.T) {
	sides := func() []runtime.SideSpec {
		return []runtime.SideSpec{
			{Name: "A", Attrs: map[string]any{"agi": 3}, Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}}},
			{Name: "B", Attrs: map[string]any{"agi": 2}, Units: []runtime.UnitSpec{{Name: "b1"}, {Name: "b2"}}},
			{Name: "C", Attrs: map[string]any{"agi": 1}, Units: []runtime.UnitSpec{{Name: "c1"}, {Name: "c2"}}},
		}
	}
	tests := []struct {
		name, mode string
		before     []string // the units activated before the change
		change     func(ctx context.Context, b *runtime.Battle) error
		want       []runtime.ActivationRecord
	}{{
		// A has acted, B is next; C overtakes everyone: C, A, B. B keeps
		// its turn; A does not go again.
		name: "alternate", mode: "alternate", before: []string{"a1"},
		change: func(ctx context.Context, b *runtime.Battle) error { return b.SetAttr(ctx, "C", "agi", 9) },
		want: []runtime.ActivationRecord{
			act("A", "a1"), act("B", "b1"), act("C", "c1"), act("A", "a2"), act("B", "b2"), act("C", "c2"),
		},
	}, {
		// B, which is next, drops to last: A, C, B. B keeps its turn,
		// and A follows it.
		name: "alternate next side drops", mode: "alternate", before: []string{"a1"},
		change: func(ctx context.Context, b *runtime.Battle) error { return b.SetAttr(ctx, "B", "agi", 0) },
		want: []runtime.ActivationRecord{
			act("A", "a1"), act("B", "b1"), act("A", "a2"), act("C", "c1"), act("B", "b2"), pass("A"), act("C", "c2"),
		},
	}, {
		// B, which has just acted, moves to the front: B, A, C. C, whose
		// turn it is, keeps it, and A waits for the turns to come round.
		name: "alternate side that acted moves up", mode: "alternate", before: []string{"a1", "b1"},
		change: func(ctx context.Context, b *runtime.Battle) error { return b.SetAttr(ctx, "B", "agi", 9) },
		want: []runtime.ActivationRecord{
			act("A", "a1"), act("B", "b1"), act("C", "c1"), act("B", "b2"), act("A", "a2"), act("C", "c2"),
		},
	}, {
		// Before anyone has acted, the new first, who holds priority now,
		// goes first.
		name: "alternate before any turn", mode: "alternate",
		change: func(ctx context.Context, b *runtime.Battle) error { return b.SetAttr(ctx, "C", "agi", 9) },
		want: []runtime.ActivationRecord{
			act("C", "c1"), act("A", "a1"), act("B", "b1"), act("C", "c2"), act("A", "a2"), act("B", "b2"),
		},
	}, {
		// A special rule's holder moves C to the front: B keeps its turn.
		name: "alternate holder set", mode: "alternate", before: []string{"a1"},
		change: func(ctx context.Context, b *runtime.Battle) error { return b.SetHolder("C") },
		want: []runtime.ActivationRecord{
			act("A", "a1"), act("B", "b1"), act("C", "c1"), act("A", "a2"), act("B", "b2"), act("C", "c2"),
		},
	}, {
		// A is half way through its units when it drops to last: it
		// finishes them, then B and C go.
		name: "sequential", mode: "sequential", before: []string{"a1"},
		change: func(ctx context.Context, b *runtime.Battle) error { return b.SetAttr(ctx, "A", "agi", 0) },
		want: []runtime.ActivationRecord{
			act("A", "a1"), act("A", "a2"), act("B", "b1"), act("B", "b2"), act("C", "c1"), act("C", "c2"),
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := compileInline(t, fmt.Sprintf(reorderRules, tt.mode))
			ctx := context.Background()
			b, err := p.NewBattle(sides(), runtime.WithDice(runtime.NewScriptedDice()))
			if err != nil {
				t.Fatal(err)
			}
			if err := b.StartRound(ctx); err != nil {
				t.Fatal(err)
			}
			for _, u := range tt.before {
				if err := b.Activate(ctx, u); err != nil {
					t.Fatal(err)
				}
			}
			if err := tt.change(ctx, b); err != nil {
				t.Fatal(err)
			}
			// The restored battle plays on exactly as the battle itself.
			snap, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			r, err := p.Restore(snap, runtime.WithDice(runtime.NewScriptedDice()))
			if err != nil {
				t.Fatal(err)
			}
			for name, b := range map[string]*runtime.Battle{"battle": b, "restored": r} {
				for n := b.Next(); n != nil; n = b.Next() {
					var err error
					if n.MustPass {
						err = b.Pass(ctx)
					} else {
						err = b.Activate(ctx, n.Options[0])
					}
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
				if diff := cmp.Diff(tt.want, b.Activations()); diff != "" {
					t.Errorf("%s: activations (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

// In sequential activation the counter can rest on a side with no ready
// unit, which the turn passes over: the side whose turn it is is the next
// with one, and it keeps the turn when the order changes. Here B has lost
// its units, so after A it is C's turn; C drops below D: C still goes
// next, not D, which took the place after B.
func TestReorderMidRoundSequentialSkipsSideWithoutUnits(t *testing.T) {
	p := compileInline(t, fmt.Sprintf(reorderRules, "sequential"))
	ctx := context.Background()
	var specs []runtime.SideSpec
	for i, s := range []string{"A", "B", "C", "D"} {
		specs = append(specs, runtime.SideSpec{Name: s, Attrs: map[string]any{"agi": 4 - i},
			Units: []runtime.UnitSpec{{Name: strings.ToLower(s) + "1"}, {Name: strings.ToLower(s) + "2"}}})
	}
	b, err := p.NewBattle(specs, runtime.WithDice(runtime.NewScriptedDice()))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"a1", "a2"} {
		if err := b.Activate(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range []string{"b1", "b2"} {
		if err := b.RemoveUnit(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if n := b.Next(); n == nil || n.Side != "C" {
		t.Fatalf("before the change, Next = %+v, want C's turn", n)
	}
	if err := b.SetAttr(ctx, "C", "agi", 0); err != nil {
		t.Fatal(err)
	}
	if n := b.Next(); n == nil || n.Side != "C" {
		t.Fatalf("after the change, Next = %+v, want C's turn still", n)
	}
	for n := b.Next(); n != nil; n = b.Next() {
		if err := b.Activate(ctx, n.Options[0]); err != nil {
			t.Fatal(err)
		}
	}
	want := []runtime.ActivationRecord{act("A", "a1"), act("A", "a2"), act("C", "c1"), act("C", "c2"), act("D", "d1"), act("D", "d2")}
	if diff := cmp.Diff(want, b.Activations()); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}
}
