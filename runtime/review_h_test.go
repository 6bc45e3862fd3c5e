package runtime_test

// Tests from review h.

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// After round 1 has ended, what the previous round left is remembered: a
// recomputation between rounds 1 and 2 that fails on a previous value must
// not say that every previous value is empty, as it is only in round 1.
func TestPreviousHintBetweenRounds(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, rule, want string
	}{
		{"award", `tie: award not previous.chooser`,
			"inline.rules:9:12: `award not previous.chooser` names nobody, so it cannot break the tie between a1, a2, b1: " +
				"put a tie rule for that case above this one, as in `tie when previous.chooser == \"\": reroll`"},
		{"guard", `tie when previous.order[5] == "a1": random`,
			"inline.rules:9:30: `previous.order[5] == \"a1\"`: index out of range: 5 (array length is 3)"},
		{"remembered", `tie when previous.holder != "" and previous.x + 1 > 0: random`,
			"inline.rules:9:53: `previous.holder != \"\" and previous.x + 1 > 0`: invalid operation: <nil> + int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := compileInline(t, `ruleset x {
  sides 2
  side attribute agi int
  remember x = previous.x
  phase p each round {
    order units as o until changed agi {
      lowest 0
      tie when previous.holder == "": award tied[0].name
      `+tt.rule+`
      tie: random
    }
  }
}
`)
			sides := []runtime.SideSpec{{Name: "A", Attrs: map[string]any{"agi": 1}, Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}}},
				{Name: "B", Attrs: map[string]any{"agi": 1}, Units: []runtime.UnitSpec{{Name: "b1"}}}}
			b, err := p.NewBattle(sides)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.PlayRound(ctx); err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := b.SetAttr(ctx, "A", "agi", 2); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SetAttr between rounds 1 and 2 (-want +got):\n%s", diff)
			}
		})
	}
}

// A Fallback that is a nil pointer or function is no fallback, as a nil
// source given to WithDice is none: the battle says what is unscripted,
// and does not panic.
func TestScriptedNilFallback(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset x {
  sides 2
  phase p each round {
    order sides as o {
      highest roll d6
      tie: reroll
      choice first by winner
    }
  }
}
`)
	for _, tt := range []struct {
		name string
		opts func() []runtime.BattleOption
	}{
		{"seeded dice", func() []runtime.BattleOption {
			return []runtime.BattleOption{runtime.WithDice(&runtime.ScriptedDice{Fallback: (*runtime.SeededDice)(nil)})}
		}},
		{"func dice", func() []runtime.BattleOption {
			return []runtime.BattleOption{runtime.WithDice(&runtime.ScriptedDice{Fallback: (*runtime.FuncDice)(nil)})}
		}},
		{"decider", func() []runtime.BattleOption {
			dice := runtime.NewScriptedDice()
			dice.AddRoll("A", 6)
			dice.AddRoll("B", 1)
			return []runtime.BattleOption{runtime.WithDice(dice), runtime.WithDecider(&runtime.ScriptedDecider{Fallback: runtime.DeciderFunc(nil)})}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := p.NewBattle(runtime.Sides("A", "B"), tt.opts()...)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			func() {
				defer func() {
					if r := recover(); r != nil {
						got = fmt.Sprint("panic: ", r)
					}
				}()
				_, err = b.PlayRound(ctx)
				got = fmt.Sprint(errors.Is(err, runtime.ErrUnscripted))
			}()
			if diff := cmp.Diff("true", got); diff != "" {
				t.Errorf("PlayRound with nothing scripted, errors.Is(err, ErrUnscripted) (-want +got):\n%s", diff)
			}
		})
	}
}

// cyclic is a host function's value that holds itself.
type cyclic struct{ Next *cyclic }

// A remembered value is kept as a snapshot saves it; one that holds itself
// cannot be, and the round fails with a rule error, as for NaN, instead of
// recursing until the process dies.
func TestRememberCyclicValue(t *testing.T) {
	loop := &cyclic{}
	loop.Next = loop
	p := compileInline(t, `ruleset x {
  sides 2
  remember x = loop()
  phase p each round {
    order sides as o {
      highest roll d6
      tie: reroll
    }
  }
}
`, runtime.WithFunction("loop", func(...any) (any, error) { return loop, nil }))
	b, err := p.NewBattle(runtime.Sides("A", "B"))
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	if _, err := b.PlayRound(context.Background()); err != nil {
		got = err.Error()
	}
	want := "inline.rules:3:16: remember x: a value nested more than 100 deep cannot be saved (does it hold itself?)"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PlayRound (-want +got):\n%s", diff)
	}
}

// A clone that shares a ScriptedDecider and takes answers from it while the
// other battle's round is under way leaves that round unable to script its
// answers again: AbortRound refuses, as it does for shared scripted dice,
// instead of reporting success and replaying the round with other answers.
func TestAbortRoundAfterACloneDecided(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	dec := runtime.NewScriptedDecider()
	dec.Add("Jay", "Rob")
	dec.Add("Jay", "Jay")
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(dec),
		runtime.WithHook(func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
			if at == (runtime.HookPoint{Kind: "hook", Name: "end"}) {
				return errors.New("the table was knocked over")
			}
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	cdice := runtime.NewScriptedDice()
	cdice.AddRoll("Jay", 4)
	cdice.AddRoll("Rob", 2)
	c := b.Clone(runtime.WithoutHooks(), runtime.WithDice(cdice))
	if _, err := b.PlayRound(ctx); err == nil {
		t.Fatal("the failing hook did not fail the round")
	}
	// The clone's round takes Jay's second answer from the shared script.
	if _, err := c.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	got := "nil"
	if err := b.AbortRound(); err != nil {
		got = err.Error()
	}
	want := "round 1 cannot be aborted: another battle has used the same scripted decider since it started"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AbortRound (-want +got):\n%s", diff)
	}
}
