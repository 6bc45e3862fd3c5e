package runtime_test

// Tests that a rule which can never resolve, a context that is cancelled
// and a host that keeps readying units all end with an error, never a hang.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// foreverRules rerolls every tie; with dice that always tie it can never
// resolve.
const foreverRules = `
ruleset forever "Always reroll" {
  sides 2..
  phase priority {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
}
`

// loopRules has an activation loop a host can keep going by readying units.
const loopRules = `
ruleset loop "Alternate activations" {
  sides 2
  phase priority {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
  activation alternate by priority
}
`

// alwaysTie rolls 3 for everyone and counts the rolls.
type alwaysTie struct{ rolls atomic.Int64 }

func (d *alwaysTie) Roll(ctx context.Context, req runtime.RollRequest) ([]int, error) {
	d.rolls.Add(1)
	out := make([]int, len(req.Subjects))
	for i := range out {
		out[i] = 3
	}
	return out, nil
}

func (d *alwaysTie) Pick(ctx context.Context, req runtime.PickRequest) (int, error) { return 0, nil }

func TestLimitEndlessReroll(t *testing.T) {
	tests := []struct {
		name      string
		opts      []runtime.Option
		sides     []string
		wantRolls int64
	}{
		{"default limits", nil, []string{"Jay", "Rob"}, int64(runtime.DefaultLimits().MaxRerolls) + 1},
		{"four sides", nil, []string{"A", "B", "C", "D"}, int64(runtime.DefaultLimits().MaxRerolls) + 1},
		{"WithLimits lowers the bound", []runtime.Option{runtime.WithLimits(runtime.Limits{MaxRerolls: 5, MaxSteps: 10})},
			[]string{"Jay", "Rob"}, 6},
		{"no rerolls at all", []runtime.Option{runtime.WithLimits(runtime.Limits{MaxRerolls: -1, MaxSteps: 10})},
			[]string{"Jay", "Rob"}, 1},
		// Each reroll of the tie goes a level deeper: the most allowed
		// must still end in the limit's error, not a stack overflow.
		{"the most allowed", []runtime.Option{runtime.WithLimits(runtime.Limits{MaxRerolls: runtime.MaxRerollsAllowed})},
			[]string{"Jay", "Rob"}, runtime.MaxRerollsAllowed + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := compileInline(t, foreverRules, tt.opts...)
			dice := &alwaysTie{}
			b, err := p.NewBattle(runtime.Sides(tt.sides...), runtime.WithDice(dice))
			if err != nil {
				t.Fatal(err)
			}
			err = finishWithin(t, func(ctx context.Context) error {
				_, err := b.PlayRound(ctx)
				return err
			})
			if !errors.Is(err, runtime.ErrLimit) {
				t.Fatalf("PlayRound error = %v, want one wrapping runtime.ErrLimit", err)
			}
			if !strings.Contains(err.Error(), "still tied") {
				t.Errorf("error %q does not say the subjects are still tied", err)
			}
			if diff := cmp.Diff(tt.wantRolls, dice.rolls.Load()); diff != "" {
				t.Errorf("rolls made (-want +got):\n%s", diff)
			}
		})
	}
}

// A criterion whose value is NaN (here 0 / 0, as expr-lang divides in
// floating point) is an error that names it. It used to hang the order.
func TestNaNCriterionIsAnError(t *testing.T) {
	p := compileInline(t, `ruleset nan {
  sides 3
  side attribute agi int = 0
  phase p each round {
    order sides as priority {
      highest agi / 0
    }
  }
}
`)
	b, err := p.NewBattle(runtime.Sides("A", "B", "C"))
	if err != nil {
		t.Fatal(err)
	}
	err = finishWithin(t, func(ctx context.Context) error {
		_, err := b.PlayRound(ctx)
		return err
	})
	want := "inline.rules:6:15: `agi / 0` for A is NaN (such as 0 / 0), which cannot be compared"
	if err == nil || err.Error() != want {
		t.Errorf("PlayRound error = %v, want %s", err, want)
	}
}

// The reroll limit is per order computation, not per battle: a battle
// whose ties resolve after a few rerolls can play many rounds.
func TestLimitRerollsPerRound(t *testing.T) {
	p := compileInline(t, foreverRules, runtime.WithLimits(runtime.Limits{MaxRerolls: 3, MaxSteps: 10}))
	dice := runtime.NewScriptedDice()
	for range 10 {
		// Two ties, then a result: two rerolls each round.
		for _, v := range []int{2, 2, 6} {
			dice.AddRoll("Jay", v)
		}
		for _, v := range []int{2, 2, 1} {
			dice.AddRoll("Rob", v)
		}
	}
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 10; round++ {
		res, err := b.PlayRound(context.Background())
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if res.Holder != "Jay" {
			t.Errorf("round %d: holder %q, want Jay", round, res.Holder)
		}
	}
}

func TestCancelledContext(t *testing.T) {
	tests := []struct {
		name string
		// dice makes the battle's dice; cancel cancels the context the
		// round is played with.
		dice func(cancel context.CancelFunc) runtime.Dice
		// cancelFirst cancels before PlayRound is called.
		cancelFirst bool
	}{
		{
			name:        "cancelled before the round",
			dice:        func(context.CancelFunc) runtime.Dice { return &alwaysTie{} },
			cancelFirst: true,
		},
		{
			name: "cancelled in the middle of endless rerolls",
			dice: func(cancel context.CancelFunc) runtime.Dice {
				n := 0
				return runtime.FuncDice{Die: func(ctx context.Context, req runtime.RollRequest, subject string) (int, error) {
					n++
					if n == 20 {
						cancel()
					}
					return 4, nil
				}}
			},
		},
		{
			name: "dice waiting for a player who never answers",
			dice: func(cancel context.CancelFunc) runtime.Dice {
				return runtime.FuncDice{Die: func(ctx context.Context, req runtime.RollRequest, subject string) (int, error) {
					go cancel() // the player walks away from the table
					<-ctx.Done()
					return 0, ctx.Err()
				}}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := compileInline(t, foreverRules)
			err := finishWithin(t, func(deadline context.Context) error {
				ctx, cancel := context.WithCancel(deadline)
				defer cancel()
				b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(tt.dice(cancel)))
				if err != nil {
					return err
				}
				if tt.cancelFirst {
					cancel()
				}
				_, err = b.PlayRound(ctx)
				return err
			})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("PlayRound error = %v, want context.Canceled", err)
			}
		})
	}
}

// A decider that is waiting for a player is stopped by cancellation too.
func TestCancelledDecision(t *testing.T) {
	p := mustProgram(t, "mesbg")
	err := finishWithin(t, func(deadline context.Context) error {
		ctx, cancel := context.WithCancel(deadline)
		defer cancel()
		dec := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
			go cancel()
			<-ctx.Done()
			return nil, ctx.Err()
		})
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(3)), runtime.WithDecider(dec))
		if err != nil {
			return err
		}
		_, err = b.PlayRound(ctx)
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("PlayRound error = %v, want context.Canceled", err)
	}
}

// A unit made Ready again after every activation (a skill gone wrong) hits
// the activation step limit.
func TestLimitActivationSteps(t *testing.T) {
	const maxSteps = 50
	sides := []runtime.SideSpec{
		{Name: "Jay", Units: []runtime.UnitSpec{{Name: "Aragorn"}, {Name: "Boromir"}}},
		{Name: "Rob", Units: []runtime.UnitSpec{{Name: "Lurtz"}, {Name: "Ugluk"}}},
	}
	tests := []struct {
		name string
		// play plays one round in which every activation readies its unit
		// again.
		play func(ctx context.Context, b *runtime.Battle) error
		// decider, if set, is the battle's decider; it gets the battle.
		decider func(b **runtime.Battle) runtime.Decider
		// whole says the round is one call, which the limit fails: the
		// battle is as before it.
		whole bool
	}{
		{
			// There is no hook point inside the activation loop, so the
			// decider, which is asked before every activation with a
			// choice, plays the part of a skill gone wrong.
			name: "a Go decider re-readies every unit inside PlayRound",
			decider: func(b **runtime.Battle) runtime.Decider {
				return runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
					for _, u := range (*b).Units() {
						if err := (*b).MakeReady(u.Name); err != nil {
							return nil, err
						}
					}
					return d.Default, nil
				})
			},
			play: func(ctx context.Context, b *runtime.Battle) error {
				_, err := b.PlayRound(ctx)
				return err
			},
			whole: true,
		},
		{
			name: "the host readies the activated unit again after each Step",
			play: func(ctx context.Context, b *runtime.Battle) error {
				if err := b.StartRound(ctx); err != nil {
					return err
				}
				for {
					done, err := b.Step(ctx)
					if err != nil {
						return err
					}
					if done {
						_, err := b.EndRound(ctx)
						return err
					}
					acts := b.Activations()
					if err := b.MakeReady(acts[len(acts)-1].Unit); err != nil {
						return err
					}
				}
			},
		},
		{
			name: "the host calls Activate and readies the unit again",
			play: func(ctx context.Context, b *runtime.Battle) error {
				if err := b.StartRound(ctx); err != nil {
					return err
				}
				for {
					turn := b.Next()
					if turn == nil {
						_, err := b.EndRound(ctx)
						return err
					}
					u := turn.Options[0]
					if err := b.Activate(ctx, u); err != nil {
						return err
					}
					if err := b.MakeReady(u); err != nil {
						return err
					}
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := compileInline(t, loopRules, runtime.WithLimits(runtime.Limits{MaxRerolls: 10, MaxSteps: maxSteps}))
			var b *runtime.Battle
			opts := []runtime.BattleOption{runtime.WithDice(runtime.NewSeededDice(1))}
			if tt.decider != nil {
				opts = append(opts, runtime.WithDecider(tt.decider(&b)))
			}
			var err error
			b, err = p.NewBattle(sides, opts...)
			if err != nil {
				t.Fatal(err)
			}
			err = finishWithin(t, func(ctx context.Context) error { return tt.play(ctx, b) })
			if !errors.Is(err, runtime.ErrLimit) {
				t.Fatalf("error = %v, want one wrapping runtime.ErrLimit", err)
			}
			want := maxSteps
			if tt.whole {
				want = 0
			}
			if diff := cmp.Diff(want, len(b.Activations())); diff != "" {
				t.Errorf("activations after the limit (-want +got):\n%s", diff)
			}
		})
	}
}

// With the default limits (100000 activations) the same runaway loop also
// stops; this takes a while under the race detector, hence the longer
// deadline.
func TestLimitActivationStepsDefault(t *testing.T) {
	p := compileInline(t, loopRules)
	sides := []runtime.SideSpec{
		{Name: "Jay", Units: []runtime.UnitSpec{{Name: "Aragorn"}}},
		{Name: "Rob", Units: []runtime.UnitSpec{{Name: "Lurtz"}}},
	}
	b, err := p.NewBattle(sides, runtime.WithDice(runtime.NewSeededDice(1)), runtime.WithTranscript(false))
	if err != nil {
		t.Fatal(err)
	}
	err = finishWithinD(t, 20*time.Second, func(ctx context.Context) error {
		if err := b.StartRound(ctx); err != nil {
			return err
		}
		for {
			done, err := b.Step(ctx)
			if err != nil {
				return err
			}
			if done {
				return nil
			}
			acts := b.Activations()
			if err := b.MakeReady(acts[len(acts)-1].Unit); err != nil {
				return err
			}
		}
	})
	if !errors.Is(err, runtime.ErrLimit) {
		t.Fatalf("error = %v, want one wrapping runtime.ErrLimit", err)
	}
}

// Whole numbers from Go, of any integer type, are accepted up to 2^53,
// past which criteria could not tell them apart.
func TestSetAttrWholeNumbers(t *testing.T) {
	p := compileInline(t, "ruleset x {\n sides 2\n side attribute points int\n phase p { order sides as o { highest points\n random } }\n}\n")
	b, err := p.NewBattle(runtime.Sides("A", "B"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, v := range []any{int8(3), uint16(4), int64(1 << 53), float64(-7), uint64(9)} {
		if err := b.SetAttr(ctx, "A", "points", v); err != nil {
			t.Errorf("SetAttr(%T %v): %v", v, v, err)
		}
	}
	for _, v := range []any{int64(1<<53 + 1), uint64(1<<63 + 5), 2.5, float64(1 << 60)} {
		err := b.SetAttr(ctx, "A", "points", v)
		if err == nil {
			t.Errorf("SetAttr(%T %v): no error", v, v)
		} else if _, isInt := v.(float64); !isInt && !strings.Contains(err.Error(), fmt.Sprint(v)) {
			t.Errorf("SetAttr(%T %v): %v, which does not name the value", v, v, err)
		}
	}
}

// TestLimitMaxRerollsAllowed refuses a reroll limit the engine could not
// play to its end: a tie that never breaks would overflow the stack.
func TestLimitMaxRerollsAllowed(t *testing.T) {
	f, diags := dsl.Parse("forever.rules", []byte(foreverRules))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, err := runtime.Compile(f, runtime.WithLimits(runtime.Limits{MaxRerolls: runtime.MaxRerollsAllowed + 1}))
	want := fmt.Sprintf("WithLimits: MaxRerolls is %d, more than the %d an order can be played with", runtime.MaxRerollsAllowed+1, runtime.MaxRerollsAllowed)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Compile error = %v, want one saying %q", err, want)
	}
}
