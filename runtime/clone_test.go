package runtime_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/turnorder/turnorder/runtime"
)

// A clone made without dice of its own rolls on from the original's seeded
// dice, independently: both play the same rounds, whichever goes first.
func TestCloneCopiesSeededDice(t *testing.T) {
	p := mustProgram(t, "necromunda")
	b, err := p.NewBattle(runtime.Sides("A", "B", "C", "D"), runtime.WithDice(runtime.NewSeededDice(9)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	c := b.Clone()
	for range 5 { // the clone first: it must not use up the original's rolls
		if _, err := c.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for range 5 {
		if _, err := b.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(snapshot(t, b), snapshot(t, c)); diff != "" {
		t.Errorf("the clone and the original differ after the same five rounds (-original +clone):\n%s", diff)
	}
}

// Hooks given to Clone replace the original's, as its doc says of every
// option (and as Restore takes its hooks from its options alone); a clone
// given none keeps the original's. Clones given hooks of their own do not
// share them through the original's slice.
func TestCloneHooks(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	var calls []string
	hook := func(name string) runtime.BattleOption {
		return runtime.WithHook(func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
			if at.Kind == "round" && at.Edge == "start" {
				calls = append(calls, name)
			}
			return nil
		})
	}
	// Three hooks: the slice that holds them has room for a fourth.
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(1)),
		hook("a"), hook("b"), hook("c"))
	if err != nil {
		t.Fatal(err)
	}
	one := b.Clone(hook("one"))
	two := b.Clone(hook("two"))
	same := b.Clone()
	none := b.Clone(runtime.WithoutHooks())
	fresh := b.Clone(runtime.WithoutHooks(), hook("fresh"))
	dropped, err := p.NewBattle(runtime.Sides("Jay", "Rob"), hook("a"), runtime.WithoutHooks())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		b    *runtime.Battle
		want []string
	}{
		{"original", b, []string{"a", "b", "c"}},
		{"clone with hook one", one, []string{"one"}},
		{"clone with hook two", two, []string{"two"}},
		{"clone without hooks given", same, []string{"a", "b", "c"}},
		{"clone WithoutHooks", none, nil},
		{"clone WithoutHooks, then hook fresh", fresh, []string{"fresh"}},
		{"battle given hook a, then WithoutHooks", dropped, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls = nil
			if _, err := tt.b.PlayRound(ctx); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, calls); diff != "" {
				t.Errorf("hooks run at the start of the round (-want +got):\n%s", diff)
			}
		})
	}
}

// unitsRules has a bit of everything a round can change and a failed
// round must put back: side and unit attributes, statuses, an order kept until
// a value changes, a decision, hooks and activations.
const unitsRules = `ruleset units {
  sides 2
  side attribute threat int
  unit attribute agi int
  unit status pinned
  phase p each round {
    hook start
    order sides as priority {
      lowest threat
      highest roll d6
      choice first by winner default self
    }
    hook mid
    order units as initiative until changed agi {
      highest agi
      tie: random
    }
    ready units unless pinned
  }
  activation alternate by priority
}`

var unitsSides = []runtime.SideSpec{
	{Name: "A", Attrs: map[string]any{"threat": 1}, Units: []runtime.UnitSpec{{Name: "a1", Attrs: map[string]any{"agi": 3}}, {Name: "a2"}}},
	{Name: "B", Attrs: map[string]any{"threat": 1}, Units: []runtime.UnitSpec{{Name: "b1"}, {Name: "b2", Statuses: []string{"pinned"}}}},
}

// A clone of a battle between two of the host's calls is the battle as it
// stands, also in the middle of a round. One made in the middle of a call
// (from a hook or a decider that PlayRound runs) is the battle as the call
// found it, as is one of a battle whose round failed (the battle itself
// is back there). Either way it plays on as the battle it is a copy of.
func TestCloneInRound(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, unitsRules)
	midHook := runtime.HookPoint{Kind: "hook", Name: "mid"}
	endHook := runtime.HookPoint{Edge: "end", Kind: "round"}
	tests := []struct {
		name string
		// round2 plays some of round 2 of b, made with opts, and returns
		// the clone.
		round2  func(t *testing.T, b *runtime.Battle) *runtime.Battle
		opts    func(clone **runtime.Battle) []runtime.BattleOption
		atStart bool // the clone is the battle before round 2
		fails   bool // round 2 fails: the battle is as before it
	}{
		{
			name: "between turns, after the host changed things",
			round2: func(t *testing.T, b *runtime.Battle) *runtime.Battle {
				if err := b.StartRound(ctx); err != nil {
					t.Fatal(err)
				}
				if _, err := b.Step(ctx); err != nil {
					t.Fatal(err)
				}
				for _, change := range []func() error{
					func() error { return b.SetAttr(ctx, "a1", "agi", 1) },
					func() error { return b.SetAttr(ctx, "A", "threat", 2) },
					func() error { return b.SetStatus(ctx, "b2", "pinned", false) },
					func() error { return b.SetAttr(ctx, "b1", "agi", 5) },
					func() error { return b.RemoveUnit(ctx, "b1") },
					func() error { return b.MakeReady("a1") },
				} {
					if err := change(); err != nil {
						t.Fatal(err)
					}
				}
				return b.Clone()
			},
		},
		{
			name: "a round that failed in EndRound",
			opts: func(**runtime.Battle) []runtime.BattleOption {
				failed := false
				return []runtime.BattleOption{runtime.WithHook(func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
					if b.Round() == 2 && at == endHook && !failed {
						failed = true
						return errors.New("the table was knocked over")
					}
					return nil
				})}
			},
			round2: func(t *testing.T, b *runtime.Battle) *runtime.Battle {
				if _, err := b.PlayRound(ctx); err == nil {
					t.Fatal("the planted failure did not happen")
				}
				return b.Clone(runtime.WithoutHooks())
			},
			atStart: true,
			fails:   true,
		},
		{
			name: "from a hook in StartRound",
			opts: func(clone **runtime.Battle) []runtime.BattleOption {
				return []runtime.BattleOption{runtime.WithHook(func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
					if b.Round() == 2 && at == midHook && *clone == nil {
						if err := b.SetAttr(ctx, "a2", "agi", 4); err != nil {
							return err
						}
						*clone = b.Clone(runtime.WithoutHooks())
					}
					return nil
				})}
			},
			round2:  playRound2,
			atStart: true,
		},
		{
			name:    "from a decider in StartRound",
			opts:    cloneAt(runtime.ChooseFirst),
			round2:  playRound2,
			atStart: true,
		},
		{
			name:    "from a decider choosing a unit to activate",
			opts:    cloneAt(runtime.ChooseActivation),
			round2:  playRound2,
			atStart: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var clone *runtime.Battle
			opts := []runtime.BattleOption{runtime.WithDice(runtime.NewSeededDice(3))}
			if tt.opts != nil {
				opts = append(opts, tt.opts(&clone)...)
			}
			b, err := p.NewBattle(unitsSides, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.PlayRound(ctx); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, b)
			if c := tt.round2(t, b); c != nil {
				clone = c
			}
			if clone == nil {
				t.Fatal("no clone was made")
			}
			original := snapshot(t, b)
			want := original
			if tt.atStart {
				want = before
			}
			if diff := cmp.Diff(want, snapshot(t, clone)); diff != "" {
				t.Errorf("the clone (-want +got):\n%s", diff)
			}
			if tt.fails && original != before {
				t.Errorf("the battle after round 2 failed is not as before it:\n%s", cmp.Diff(before, original))
			}
			// The clone plays on as the battle it is a copy of does.
			if clone.InRound() {
				playLoop(t, ctx, clone)
				if _, err := clone.EndRound(ctx); err != nil {
					t.Fatal(err)
				}
			}
			twin, err := p.Restore([]byte(want))
			if err != nil {
				t.Fatal(err)
			}
			if twin.InRound() {
				playLoop(t, ctx, twin)
				if _, err := twin.EndRound(ctx); err != nil {
					t.Fatal(err)
				}
			}
			playTwins(t, twin, clone, "(-the battle before round 2 +the clone)")
		})
	}
}

func playRound2(t *testing.T, b *runtime.Battle) *runtime.Battle {
	t.Helper()
	if _, err := b.PlayRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	return nil
}

// cloneAt returns the options of a battle whose decider, at the first
// decision of kind in round 2, clones the battle into *clone (a hook
// tells it the battle, as a host's decider would know its own).
func cloneAt(kind runtime.DecisionKind) func(clone **runtime.Battle) []runtime.BattleOption {
	return func(clone **runtime.Battle) []runtime.BattleOption {
		var b *runtime.Battle
		return []runtime.BattleOption{
			runtime.WithHook(func(ctx context.Context, hb *runtime.Battle, at runtime.HookPoint) error {
				b = hb
				return nil
			}),
			runtime.WithDecider(runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
				if d.Round == 2 && d.Kind == kind && *clone == nil {
					*clone = b.Clone(runtime.WithoutHooks(), runtime.WithDecider(runtime.Policy{}))
				}
				return d.Default, nil
			})),
		}
	}
}

// A clone given the players' dice (FuncDice), as a table that takes over
// a battle a server played on seeded dice, saves the seeded state the
// original had, as a battle restored with FuncDice does: restored from
// its snapshot with seeded dice, it rolls what the original rolls. It
// used to save no state, and the restored battle rolled from seed 0.
func TestCloneGivenFuncDiceKeepsSeededState(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	for _, dice := range []runtime.Dice{runtime.NewSeededDice(7), &runtime.ScriptedDice{Fallback: runtime.NewSeededDice(7)}} {
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
		saved, err := b.Clone(runtime.WithDice(runtime.FuncDice{})).Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Restore(saved, runtime.WithDice(runtime.NewSeededDice(0)))
		if err != nil {
			t.Fatal(err)
		}
		for range 4 {
			want, err := b.PlayRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.PlayRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%T: restored from the FuncDice clone (-original +restored):\n%s", dice, diff)
			}
		}
	}
}
