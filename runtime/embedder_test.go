package runtime_test

// Tests from an embedder's review: a game server, a bot or a virtual
// tabletop driving the public API as the docs say, including when the
// dice, the decider or the host itself fail.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// agiFailedSetAttr is an agi battle after round 1 (Aria and Bran tied on
// 5 and rolled 6 to 2; Cole has 3), with scripted dice, then a SetAttr of
// Cole to 5 that makes a new tie with no dice scripted for it.
func agiFailedSetAttr(t *testing.T) (*runtime.Battle, *runtime.ScriptedDice) {
	t.Helper()
	p := mustProgram(t, "agi")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Aria", 6)
	dice.AddRoll("Bran", 2)
	b, err := p.NewBattle(p.Example(), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := b.SetAttr(context.Background(), "Cole", "agi", 5); !errors.Is(err, runtime.ErrUnscripted) {
		t.Fatalf("SetAttr with no dice scripted for the new tie: %v; want ErrUnscripted", err)
	}
	return b, dice
}

// A SetAttr whose recomputation fails (the dice the new tie needs are not
// scripted yet, an interactive decider whose context was cancelled) has
// set the value: the standing that watches it must not be left as it was
// for the rest of the battle. Setting the value again retries the
// recomputation, and the next round makes the standing if nobody did.
func TestFailedRecomputationIsNotForgotten(t *testing.T) {
	ctx := context.Background()
	wantWatched := map[string][]any{"Aria": {5}, "Bran": {5}, "Cole": {5}}

	t.Run("retry", func(t *testing.T) {
		b, dice := agiFailedSetAttr(t)
		dice.AddRoll("Aria", 1)
		dice.AddRoll("Bran", 2)
		dice.AddRoll("Cole", 3)
		if err := b.SetAttr(ctx, "Cole", "agi", 5); err != nil {
			t.Fatalf("SetAttr again, with the dice scripted: %v", err)
		}
		if diff := cmp.Diff([]string{"Cole", "Bran", "Aria"}, b.Order()); diff != "" {
			t.Errorf("order after the retried SetAttr (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantWatched, b.Standing("turn_order").Watched); diff != "" {
			t.Errorf("watched values (-want +got):\n%s", diff)
		}
	})
	t.Run("next round", func(t *testing.T) {
		b, dice := agiFailedSetAttr(t)
		dice.AddRoll("Aria", 4)
		dice.AddRoll("Bran", 6)
		dice.AddRoll("Cole", 5)
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"Bran", "Cole", "Aria"}, res.Order); diff != "" {
			t.Errorf("round 2's order (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantWatched, b.Standing("turn_order").Watched); diff != "" {
			t.Errorf("watched values (-want +got):\n%s", diff)
		}
		if u := dice.Unused(); len(u) > 0 {
			t.Errorf("dice never used: %v", u)
		}
	})
	t.Run("remove", func(t *testing.T) {
		b, dice := agiFailedSetAttr(t)
		// Without Aria, Bran and Cole tie on 5 and must roll for it, with
		// no dice scripted: the unit is gone, the card is made next round.
		if err := b.RemoveUnit(ctx, "Aria"); !errors.Is(err, runtime.ErrUnscripted) {
			t.Fatalf("RemoveUnit with no dice scripted for the tie left: %v; want ErrUnscripted", err)
		}
		dice.AddRoll("Bran", 2)
		dice.AddRoll("Cole", 3)
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"Cole", "Bran"}, res.Order); diff != "" {
			t.Errorf("round 2's order (-want +got):\n%s", diff)
		}
	})
}

// A recomputation that fails after its dice are rolled (the roll-off's
// winner hung up, or gave an answer a ScriptedDecider refuses) is taken
// back: setting the value again rolls the same dice and asks the same
// decision, as the round's own orders do once AbortRound has undone them,
// and the transcript holds the rolls once. Otherwise a winner who answers
// badly would have the roll-off played anew.
func TestFailedRecomputationIsRetriedWithTheSameDice(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "agi")
	// After round 1 Bran drops from 5 to 3, tying Cole: a roll-off, then
	// the winner chooses before or after.
	errHungUp := errors.New("hung up")
	battle := func(t *testing.T, dice runtime.Dice, fails int) *runtime.Battle {
		t.Helper()
		b, err := p.NewBattle(p.Example(), runtime.WithDice(dice),
			runtime.WithDecider(runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
				if d.Round == 2 && fails > 0 {
					fails--
					return nil, errHungUp
				}
				return d.Default, nil
			})))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
		return b
	}
	t.Run("seeded", func(t *testing.T) {
		want := battle(t, runtime.NewSeededDice(3), 0)
		if err := want.SetAttr(ctx, "Bran", "agi", 3); err != nil {
			t.Fatal(err)
		}
		b := battle(t, runtime.NewSeededDice(3), 1)
		if err := b.SetAttr(ctx, "Bran", "agi", 3); !errors.Is(err, errHungUp) {
			t.Fatalf("SetAttr with the winner hung up: %v; want errHungUp", err)
		}
		if err := b.SetAttr(ctx, "Bran", "agi", 3); err != nil {
			t.Fatalf("SetAttr again: %v", err)
		}
		if diff := cmp.Diff(want.PendingEvents(), b.PendingEvents()); diff != "" {
			t.Errorf("events of the retried change (-as if nobody hung up +got):\n%s", diff)
		}
		if diff := cmp.Diff(want.Order(), b.Order()); diff != "" {
			t.Errorf("order (-want +got):\n%s", diff)
		}
	})
	t.Run("scripted", func(t *testing.T) {
		dice := runtime.NewScriptedDice()
		dice.AddRoll("Aria", 6)
		dice.AddRoll("Bran", 2)
		b := battle(t, dice, 1)
		dice.AddRoll("Bran", 2)
		dice.AddRoll("Cole", 6)
		if err := b.SetAttr(ctx, "Bran", "agi", 3); !errors.Is(err, errHungUp) {
			t.Fatalf("SetAttr with the winner hung up: %v; want errHungUp", err)
		}
		if diff := cmp.Diff([]string{"roll Bran 2", "roll Cole 6"}, dice.Unused()); diff != "" {
			t.Errorf("the rolls of the failed recomputation are scripted again (-want +got):\n%s", diff)
		}
		if err := b.SetAttr(ctx, "Bran", "agi", 3); err != nil {
			t.Fatalf("SetAttr again, with the same script: %v", err)
		}
		var got []string
		for _, e := range b.PendingEvents() {
			got = append(got, e.String())
		}
		want := []string{
			"agi of Bran is now 3",
			"tie between Bran and Cole on highest agi",
			"Bran rolls 2 for turn_order",
			"Cole rolls 6 for turn_order",
			"C chooses Cole to go before Bran",
			"turn_order #1: Aria, by highest agi = 5",
			"turn_order #2: Cole, by C's choice (choice before_after by winner)",
			"turn_order #3: Bran, by C's choice (choice before_after by winner)",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("transcript (-want +got):\n%s", diff)
		}
	})
}

// A remembered value is what the next round reads as previous.NAME, so a
// battle saved and restored must read the same: a side or a unit, a list
// of them, a whole number worked out as a float. Memory, the restored
// battle's Memory and the rounds that follow all agree.
func TestRememberedValuesSurviveSnapshot(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset r "r" {
  sides 2
  unit attribute speed int
  remember first = (previous.first == nil ? sides[0] : previous.first)
  remember fast = filter(units, .speed > 3)
  remember names = previous.order
  remember half = len(sides) / 2
  phase p {
    order sides as p {
      highest roll d6
      tie when previous.first.name == "A" and len(previous.fast) == 1 and previous.half == 1: award "B"
      tie: award "A"
    }
  }
}
`)
	sides := []runtime.SideSpec{
		{Name: "A", Units: []runtime.UnitSpec{{Name: "a1", Attrs: map[string]any{"speed": 5}}}},
		{Name: "B", Units: []runtime.UnitSpec{{Name: "b1", Attrs: map[string]any{"speed": 2}}}},
	}
	b, data := playedOneRound(t, p, sides, runtime.WithDice(runtime.NewSeededDice(3)))
	restored, err := p.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(b.Memory(), restored.Memory()); diff != "" {
		t.Errorf("Memory after Restore (-saved +restored):\n%s", diff)
	}
	for range 30 {
		want, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := restored.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round %d (-saved +restored):\n%s", want.Round, diff)
		}
	}
}

// A remembered value that JSON cannot hold (NaN, an infinity) would make
// every later Snapshot fail: it is the remember rule's error, at its line,
// as a NaN criterion is.
func TestRememberedNaNIsARuleError(t *testing.T) {
	ctx := context.Background()
	for _, expr := range []string{"0.0 / 0.0", "1 / 0", "[1, -1 / 0]"} {
		t.Run(expr, func(t *testing.T) {
			p := compileInline(t, `ruleset r "r" {
  sides 2
  remember x = `+expr+`
  phase p {
    order sides as p {
      highest roll d6
      tie: reroll
    }
  }
}
`)
			b, err := p.NewBattle(runtime.Sides("A", "B"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = b.PlayRound(ctx)
			re, ok := errors.AsType[*runtime.RuleError](err)
			if !ok {
				t.Fatalf("PlayRound: %v; want a RuleError", err)
			}
			if re.Pos.Line != 3 {
				t.Errorf("the error is at %v, want line 3 (the remember rule)", re.Pos)
			}
			if err := b.AbortRound(); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Snapshot(); err != nil {
				t.Errorf("Snapshot after AbortRound: %v", err)
			}
		})
	}
}

// A saved standing that leaves out a side (or a unit) the battle has is
// refused by Restore when it would be played as it is: in the round under
// way, or made once for the battle. The side would never get a turn, and
// every round would end in the activation loop's limit, blamed on the
// ruleset. Between rounds, a standing made again each round (or when its
// values change) may leave out a side or a unit the host has added to the
// saved battle: the next round places it.
func TestRestoreStandingMissingASubject(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		ruleset string
		inRound bool
		added   bool // add a side or unit, instead of dropping one from the standings
		refused bool
	}{
		{"morturi", true, false, true},
		{"morturi", false, false, true},
		{"necromunda", true, false, true},
		{"necromunda", false, false, false},
		{"necromunda", false, true, false},
		{"agi", true, false, true},
		{"agi", false, true, false},
	} {
		name := fmt.Sprintf("%s/in round %v/added %v", tt.ruleset, tt.inRound, tt.added)
		t.Run(name, func(t *testing.T) {
			p := mustProgram(t, tt.ruleset)
			b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(3)))
			if err != nil {
				t.Fatal(err)
			}
			if err := b.AdvanceRound(ctx); err != nil {
				t.Fatal(err)
			}
			if tt.inRound {
				if err := b.StartRound(ctx); err != nil {
					t.Fatal(err)
				}
			}
			data, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if tt.added {
				sides := doc["sides"].([]any)
				if p.OrdersUnits() {
					side := sides[0].(map[string]any)
					side["units"] = append(side["units"].([]any), map[string]any{"name": "Newcomer", "attrs": map[string]any{"agi": 9}})
				} else {
					sides = append(sides, map[string]any{"name": "Newcomer", "units": []any{map[string]any{"name": "n1"}}})
					doc["sides"] = sides
				}
			} else {
				for _, st := range doc["standings"].(map[string]any) {
					st := st.(map[string]any)
					st["order"] = st["order"].([]any)[1:]
					st["places"] = st["places"].([]any)[1:]
				}
			}
			if data, err = json.Marshal(doc); err != nil {
				t.Fatal(err)
			}
			r, err := p.Restore(data)
			if tt.refused {
				if err == nil {
					t.Errorf("Restore: no error")
				}
				return
			}
			if err != nil {
				t.Fatalf("Restore: %v", err)
			}
			res, err := r.PlayRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want := len(r.Sides())
			if p.OrdersUnits() {
				want = len(r.Units())
			}
			if len(res.Order) != want {
				t.Errorf("the next round's order %v does not hold all %d subjects", res.Order, want)
			}
			if tt.added && !slices.Contains(res.Order, "Newcomer") && r.Holder() != "Newcomer" {
				t.Errorf("the next round's order %v leaves out the newcomer", res.Order)
			}
		})
	}
}

// A change the host asks for that the battle cannot make (a name it does
// not have, a value the attribute cannot hold) is ErrInvalidChange, so that
// a bot taking "!set agi Arai 7" from a player can tell a typo, to be told
// to the player, from a recomputation that failed. Nothing is changed, and
// the messages are as they were.
func TestErrInvalidChange(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "necromunda")
	agi := mustProgram(t, "agi")
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	a, err := agi.NewBattle(agi.Example())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	before, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		err  error
		msg  string
	}{
		{"SetAttr who", a.SetAttr(ctx, "Arai", "agi", 7), "set agi of Arai: no side or unit is called Arai"},
		{"SetAttr attr", a.SetAttr(ctx, "Aria", "agl", 7), "set agl of Aria: Aria has no attribute agl (declared: agi)"},
		{"SetAttr of a side, a unit's attr", a.SetAttr(ctx, "A", "agi", 7), "set agi of A: A is a side, and agi is a unit attribute: set it of one of its units (Aria)"},
		{"SetAttr value", a.SetAttr(ctx, "Aria", "agi", "x"), "set agi of Aria: want a whole number, got x"},
		{"SetStatus unit", b.SetStatus(ctx, "Krugg", "out_of_action", true), "status out_of_action: no unit is called Krugg"},
		{"SetStatus status", b.SetStatus(ctx, "Krug", "asleep", true),
			"status asleep: unknown status (declared: out_of_action, seriously_injured, not_on_battlefield)"},
		{"RemoveUnit", b.RemoveUnit(ctx, "Krugg"), "remove Krugg: no unit is called Krugg"},
		{"MakeReady", b.MakeReady("Krugg"), "ready Krugg: no unit is called Krugg"},
		{"SetHolder", b.SetHolder("Krug"), "holder Krug: Krug is not in order priority (Goliaths, Eschers)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !errors.Is(tt.err, runtime.ErrInvalidChange) {
				t.Errorf("%v; want an error wrapping ErrInvalidChange", tt.err)
			}
			if tt.err == nil {
				return
			}
			if diff := cmp.Diff(tt.msg, tt.err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
	after, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(before), string(after)); diff != "" {
		t.Errorf("the refused changes changed the battle (-before +after):\n%s", diff)
	}
	// A rule's own set of a name that is not there is the rule's error,
	// not the host's.
	r := compileInline(t, `ruleset r "r" {
  sides 2
  side attribute x int
  phase p {
    order sides as p {
      highest roll d6
      tie: reroll
    }
  }
  on start of round { set x of "Nobody" = 1 }
}
`)
	rb, err := r.NewBattle(runtime.Sides("A", "B"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = rb.PlayRound(ctx)
	if _, ok := errors.AsType[*runtime.RuleError](err); !ok || errors.Is(err, runtime.ErrInvalidChange) {
		t.Errorf("a rule's set of nobody: %v; want a RuleError that is not ErrInvalidChange", err)
	}
}

// ScriptedDecider.Add keeps its own copy of the answer, so a host that
// builds answers in one slice does not rewrite those already queued; and
// an answer added empty (Add("Jay")) is said to be empty when it is asked
// for, not reported as the answer "" the options do not hold.
func TestScriptedDeciderAdd(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	newBattle := func(dec runtime.Decider) *runtime.Battle {
		dice := runtime.NewScriptedDice()
		dice.AddRoll("Jay", 4)
		dice.AddRoll("Rob", 2)
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(dec))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	dec := runtime.NewScriptedDecider()
	answer := []string{"Rob"}
	dec.Add("Jay", answer...)
	answer[0] = "Nobody"
	res, err := newBattle(dec).PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Holder != "Rob" {
		t.Errorf("holder %s, want Rob, whom the script named when it was added", res.Holder)
	}

	dec = runtime.NewScriptedDecider()
	dec.Add("Jay")
	if diff := cmp.Diff([]string{"Jay chooses nothing"}, dec.Unused()); diff != "" {
		t.Errorf("Unused (-want +got):\n%s", diff)
	}
	_, err = newBattle(dec).PlayRound(ctx)
	want := "round 1, order priority: Jay chooses who goes first among Jay, Rob: the scripted answer is empty (Add was given no answer)"
	if err == nil || err.Error() != want {
		t.Errorf("an empty scripted answer: %v\nwant: %s", err, want)
	}
}

// Dice and a Decider are asked in the middle of making an order, and may
// change the battle there (a casualty at the table): the order made keeps
// the units and values it started with, and the next round makes it from
// what they are now. An until-changed order whose unit was removed there
// panicked, and one whose value was set kept the old order as if made from
// the new value, for the rest of the battle.
func TestChangesFromDiceOrDecider(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "agi")
	changes := []struct {
		name   string
		change func(b *runtime.Battle) error
		next   []string // the next round's order
	}{
		{"SetAttr", func(b *runtime.Battle) error { return b.SetAttr(ctx, "Cole", "agi", 9) }, []string{"Cole", "Aria", "Bran"}},
		{"RemoveUnit", func(b *runtime.Battle) error { return b.RemoveUnit(ctx, "Bran") }, []string{"Aria", "Cole"}},
		{"MakeReady", func(b *runtime.Battle) error { return b.MakeReady("Cole") }, []string{"Aria", "Bran", "Cole"}},
	}
	for _, c := range changes {
		for _, from := range []string{"dice", "decider"} {
			t.Run(c.name+" from "+from, func(t *testing.T) {
				var b *runtime.Battle
				asked := false
				change := func() {
					if !asked {
						asked = true
						if err := c.change(b); err != nil {
							t.Errorf("%s from the %s: %v", c.name, from, err)
						}
					}
				}
				dice := runtime.FuncDice{Die: func(ctx context.Context, req runtime.RollRequest, subject string) (int, error) {
					if from == "dice" {
						change()
					}
					return map[string]int{"Aria": 6, "Bran": 2, "Cole": 1}[subject], nil
				}}
				dec := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
					if from == "decider" {
						change()
					}
					return d.Default, nil
				})
				var err error
				b, err = p.NewBattle(p.Example(), runtime.WithDice(dice), runtime.WithDecider(dec))
				if err != nil {
					t.Fatal(err)
				}
				res, err := b.PlayRound(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if !asked {
					t.Fatalf("the %s was never asked", from)
				}
				if diff := cmp.Diff([]string{"Aria", "Bran", "Cole"}, res.Order); diff != "" {
					t.Errorf("the order made during the change (-want +got):\n%s", diff)
				}
				if res, err = b.PlayRound(ctx); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(c.next, res.Order); diff != "" {
					t.Errorf("the next round's order (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// InRound of no error is no error, so that a host may wrap whatever a
// round returned, as with fmt.Errorf's %w it could not.
func TestInRoundOfNil(t *testing.T) {
	if err := runtime.InRound(2, nil); err != nil {
		t.Errorf("InRound(2, nil) = %v, want nil", err)
	}
}

// ExampleInRound reports the error of a round a host played, naming the
// round, and reports nothing for a round that went well.
func ExampleInRound() {
	prog := compileBundled("mesbg")
	b, _ := prog.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewScriptedDice()))
	for range 2 {
		err := runtime.InRound(b.Round()+1, b.AdvanceRound(context.Background()))
		fmt.Println(err)
		_ = b.AbortRound()
	}
	b, _ = prog.NewBattle(runtime.Sides("Jay", "Rob"))
	fmt.Println(runtime.InRound(b.Round()+1, b.AdvanceRound(context.Background())))
	// Output:
	// round 1, order priority: a d6 roll is needed for Jay, Rob, but none is scripted
	// round 1, order priority: a d6 roll is needed for Jay, Rob, but none is scripted
	// <nil>
}

// rollAll is a Dice of the host's own that rolls the same totals for
// every roll: right or wrong.
type rollAll []int

func (d rollAll) Roll(ctx context.Context, req runtime.RollRequest) ([]int, error) {
	return d[:len(req.Subjects)], nil
}

func (d rollAll) Pick(ctx context.Context, req runtime.PickRequest) (int, error) { return 0, nil }

// A host's own Dice that returns a total its dice cannot show (a 0-based
// die, a d20 for a d6) is an error, as it is for FuncDice and ScriptedDice:
// the battle does not play on with a roll of 0 or 99 on a D6.
func TestImpossibleRollFromHostDice(t *testing.T) {
	p := mustProgram(t, "mesbg")
	for _, tt := range []struct {
		rolls rollAll
		want  string
	}{
		{rollAll{0, 5}, "round 1, order priority: the dice rolled 0 for Jay, which is impossible on d6 (1-6)"},
		{rollAll{4, 99}, "round 1, order priority: the dice rolled 99 for Rob, which is impossible on d6 (1-6)"},
		{rollAll{-1, 2}, "round 1, order priority: the dice rolled -1 for Jay, which is impossible on d6 (1-6)"},
	} {
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(tt.rolls))
		if err != nil {
			t.Fatal(err)
		}
		_, err = b.PlayRound(context.Background())
		if err == nil || err.Error() != tt.want {
			t.Errorf("rolls %v: %v\nwant: %s", tt.rolls, err, tt.want)
		}
		if re, ok := errors.AsType[*runtime.RoundError](err); !ok || re.Round != 1 || re.Order != "priority" {
			t.Errorf("rolls %v: %#v, want a RoundError of round 1, order priority", tt.rolls, err)
		}
	}
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(rollAll{6, 1}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(context.Background()); err != nil {
		t.Errorf("rolls 6 and 1: %v", err)
	}
}

// AbortRound plays the round again as if for the first time: scripted
// decisions the round used are scripted again, as scripted dice are, so
// a host replaying a script can fix what failed (here a Go hook) and play
// the round again.
func TestAbortRoundScriptsDecisionsAgain(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	dec := runtime.NewScriptedDecider()
	dec.Add("Jay", "Rob")
	dec.Add("Rob", "Jay") // not asked in round 1: stays where it is
	fail := true
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(dec),
		runtime.WithHook(func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
			if fail && at == (runtime.HookPoint{Kind: "hook", Name: "end"}) {
				return errors.New("the table was knocked over")
			}
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err == nil {
		t.Fatal("the failing hook did not fail the round")
	}
	if err := b.AbortRound(); err != nil {
		t.Fatal(err)
	}
	if got := dec.Pending("Jay"); got != 1 {
		t.Errorf("after AbortRound, %d answers pending for Jay, want 1", got)
	}
	fail = false
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatalf("the round played again: %v", err)
	}
	if res.Holder != "Rob" {
		t.Errorf("holder %s, want Rob (Jay's scripted choice)", res.Holder)
	}
	if diff := cmp.Diff([]string{"Rob chooses Jay"}, dec.Unused()); diff != "" {
		t.Errorf("Unused (-want +got):\n%s", diff)
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

// A host that decodes its JSON with UseNumber (as Restore does) hands
// attributes over as json.Number: a whole number is a whole number.
func TestSetAttrJSONNumber(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "agi")
	specs := p.Example()
	specs[0].Units[0].Attrs["agi"] = json.Number("7")
	b, err := p.NewBattle(specs)
	if err != nil {
		t.Fatalf("NewBattle with agi = json.Number(7): %v", err)
	}
	if err := b.SetAttr(ctx, "Bran", "agi", json.Number("6")); err != nil {
		t.Fatalf("SetAttr json.Number(6): %v", err)
	}
	if err := b.SetAttr(ctx, "Cole", "agi", json.Number("2.0")); err != nil {
		t.Fatalf("SetAttr json.Number(2.0): %v", err)
	}
	got := map[string]any{}
	for _, u := range b.Units() {
		got[u.Name] = u.Attrs["agi"]
	}
	if diff := cmp.Diff(map[string]any{"Aria": 7, "Bran": 6, "Cole": 2}, got); diff != "" {
		t.Errorf("agi (-want +got):\n%s", diff)
	}
	// 0 written as a float64 too small still is 0.
	for _, zero := range []json.Number{"0e-400", "-0.000e-999", "0.0"} {
		if err := b.SetAttr(ctx, "Bran", "agi", zero); err != nil || b.Unit("Bran").Attrs["agi"] != 0 {
			t.Errorf("SetAttr json.Number(%s): %v, agi %v; want 0", zero, err, b.Unit("Bran").Attrs["agi"])
		}
	}
	for _, tt := range []struct {
		value any
		want  string
	}{
		{json.Number("2.5"), "set agi of Cole: want a whole number, got 2.5"},
		// Whole numbers, only too large: out of range, as given.
		{json.Number("1e300"), "set agi of Cole: 1e300 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly"},
		{json.Number("-1e400"), "set agi of Cole: -1e400 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly"},
		{json.Number("99999999999999999999"), "set agi of Cole: 99999999999999999999 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly"},
		{1e300, "set agi of Cole: 1e+300 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly"},
		{int64(1<<53 + 1), "set agi of Cole: 9007199254740993 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly"},
		{math.NaN(), "set agi of Cole: want a whole number, got NaN"},
		// A fraction a float64 reads as 0 is not 0: it used to set agi 0.
		{json.Number("1e-400"), "set agi of Cole: want a whole number, got 1e-400, a fraction too close to 0 for a float64 to hold, not 0"},
		{json.Number("-0.5E-330"), "set agi of Cole: want a whole number, got -0.5E-330, a fraction too close to 0 for a float64 to hold, not 0"},
	} {
		if err := b.SetAttr(ctx, "Cole", "agi", tt.value); err == nil || err.Error() != tt.want {
			t.Errorf("SetAttr %#v: %v\nwant: %s", tt.value, err, tt.want)
		}
	}
}

// CheckSetAttr says what SetAttr would refuse, in its words, and changes
// nothing, not even a change it finds fine.
func TestCheckSetAttr(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "agi")
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	before := b.Units()
	for _, tt := range []struct {
		who, attr string
		value     any
	}{
		{"Aria", "agi", 1e300},
		{"Aria", "agi", "x"},
		{"A", "agi", 3},
		{"Aria", "pluck", 3},
		{"Zed", "agi", 3},
	} {
		check := b.CheckSetAttr(tt.who, tt.attr, tt.value)
		set := b.SetAttr(ctx, tt.who, tt.attr, tt.value)
		if check == nil || set == nil || check.Error() != set.Error() || !errors.Is(check, runtime.ErrInvalidChange) {
			t.Errorf("set %s of %s = %v: CheckSetAttr %v, SetAttr %v", tt.attr, tt.who, tt.value, check, set)
		}
	}
	if err := b.CheckSetAttr("Aria", "agi", 1); err != nil {
		t.Errorf("CheckSetAttr agi of Aria = 1: %v", err)
	}
	if diff := cmp.Diff(before, b.Units()); diff != "" {
		t.Errorf("CheckSetAttr changed the units (-before +after):\n%s", diff)
	}
}

// Sides sent as JSON with an int attribute of 1e300 are told it is out of
// range, not that it is not a whole number. A SideSpec decodes the number
// as written (1e300), which NewBattle quotes; a float64 a host decoded
// itself is shown as Go writes it (1e+300).
func TestNewBattleJSONOutOfRange(t *testing.T) {
	p := mustProgram(t, "agi")
	var specs []runtime.SideSpec
	if err := json.Unmarshal([]byte(`[{"name": "A", "team": "Red", "units": [{"name": "Aria", "attrs": {"agi": 1e300}}]},
  {"name": "B", "team": "Blue", "units": [{"name": "Bran", "attrs": {"agi": -9007199254740994}}, {"name": "Cole", "attrs": {"agi": 2.5}}]}]`), &specs); err != nil {
		t.Fatal(err)
	}
	_, err := p.NewBattle(specs)
	var got []string
	if ds, ok := err.(dsl.Diagnostics); ok {
		for _, d := range ds {
			got = append(got, d.Message)
		}
	}
	want := "unit Aria: attribute agi: 1e300 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly\n" +
		"unit Bran: attribute agi: -9007199254740994 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly\n" +
		"unit Cole: attribute agi: want a whole number, got 2.5"
	if strings.Join(got, "\n") != want {
		t.Errorf("NewBattle: %v\nwant:\n%s", err, want)
	}

	var attrs map[string]any // a host's own decoding, into float64s
	if err := json.Unmarshal([]byte(`{"agi": 1e300}`), &attrs); err != nil {
		t.Fatal(err)
	}
	specs[0].Units[0].Attrs = attrs
	_, err = p.NewBattle(specs)
	if want := "unit Aria: attribute agi: 1e+300 is out of range"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("NewBattle with a float64 1e300: %v, want %q", err, want)
	}
}

// A handler's when, and a ready rule's condition, that give something
// other than true or false (a host function without a signature returning
// the wrong type) are the rule's error, as a tie rule's guard is: they
// were taken as false, and the special rule silently never ran.
func TestConditionNotABool(t *testing.T) {
	for _, tt := range []struct {
		name, rule, want string
	}{
		{"on when", `on start of round when flag() { set x of "A" = 1 }`, "inline.rules:11:26: `flag()` is 1, not true or false"},
		{"ready unless", `phase q { ready units unless flag() }`, "inline.rules:11:32: `flag()` for a1 is 1, not true or false"},
		{"tie when", "phase q {\n    order sides as q {\n      highest 1\n      tie when flag(): random\n      tie: random\n    }\n  }",
			"inline.rules:14:16: `flag()` is 1, not true or false"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := compileInline(t, `ruleset a "a" {
  sides 2
  side attribute x int
  phase p {
    order sides as p {
      highest roll d6
      tie: reroll
    }
  }
  activation alternate by p
  `+tt.rule+`
}
`, runtime.WithFunction("flag", func(...any) (any, error) { return 1, nil }))
			b, err := p.NewBattle([]runtime.SideSpec{{Name: "A", Units: []runtime.UnitSpec{{Name: "a1"}}}, {Name: "B"}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = b.PlayRound(context.Background())
			if _, ok := errors.AsType[*runtime.RuleError](err); !ok || err.Error() != tt.want {
				t.Errorf("PlayRound: %v\nwant the RuleError %s", err, tt.want)
			}
		})
	}
}

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

// A die misread at the table (a 7 on a D6) is the player's mistake, as an
// answer the decision does not offer is: ErrInvalidAnswer, so that a host
// reading physical dice asks again, here once AbortRound has undone the
// start of the round. Host Dice and random picks out of range are alike.
func TestMisreadDieIsInvalidAnswer(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	table := map[string][]int{"Jay": {7, 4}, "Rob": {2}}
	dice := runtime.FuncDice{Die: func(ctx context.Context, req runtime.RollRequest, who string) (int, error) {
		v := table[who][0]
		table[who] = table[who][1:]
		return v, nil
	}}
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	err = b.StartRound(ctx)
	if !errors.Is(err, runtime.ErrInvalidAnswer) {
		t.Fatalf("Jay's 7 on a D6: %v, want ErrInvalidAnswer", err)
	}
	if err := b.AbortRound(); err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatalf("asked again: %v", err)
	}
	if b.Holder() != "Jay" {
		t.Errorf("holder %q, want Jay", b.Holder())
	}

	for _, d := range []runtime.Dice{
		rollAll{4, 99},
		runtime.FuncDice{
			Die:     func(ctx context.Context, req runtime.RollRequest, who string) (int, error) { return 3, nil },
			PickOne: func(ctx context.Context, req runtime.PickRequest) (int, error) { return len(req.Options), nil },
		},
		pickAt(-1),
	} {
		p := compileInline(t, `ruleset r "Random" {
  sides 2
  phase p {
    order sides as priority {
      highest roll d6
      random
    }
  }
}`)
		if _, ok := d.(rollAll); ok {
			p = mustProgram(t, "mesbg")
		}
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(d))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.PlayRound(ctx); !errors.Is(err, runtime.ErrInvalidAnswer) {
			t.Errorf("dice %#v: %v, want ErrInvalidAnswer", d, err)
		}
	}
}

// pickAt rolls 3 for everyone and always picks index i.
type pickAt int

func (d pickAt) Roll(ctx context.Context, req runtime.RollRequest) ([]int, error) {
	out := make([]int, len(req.Subjects))
	for i := range out {
		out[i] = 3
	}
	return out, nil
}

func (d pickAt) Pick(ctx context.Context, req runtime.PickRequest) (int, error) { return int(d), nil }

// A stateless server keeps the battle as it was when the round began and
// what its players have given since, and on each request plays the round
// again with them through ScriptedDice and a ScriptedDecider. What the
// round needs next is an UnscriptedError: errors.As says who must roll
// which dice, or decide what, without reading the message.
func TestUnscriptedErrorSaysWhatIsNeeded(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset r "Roll, reroll, choose" {
  sides 3
  phase p {
    order sides as priority {
      highest roll 2d6
      tie when round == 1: reroll
      choice first by winner default self
    }
  }
}`)
	b, err := p.NewBattle(runtime.Sides("Jay Smith", "Rób 🐗", "Ann"))
	if err != nil {
		t.Fatal(err)
	}
	start, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	// The table: Jay and Rob tie on 7, and again on 5; then Jay wins, and
	// lets Rob go first.
	table := map[string][]int{"Jay Smith": {7, 5, 9}, "Rób 🐗": {7, 5, 3}, "Ann": {2}}
	var rolls []struct {
		who   string
		total int
	}
	var answers [][]string
	var asked []string
	for range 20 {
		dice, dec := runtime.NewScriptedDice(), runtime.NewScriptedDecider()
		for _, r := range rolls {
			dice.AddRoll(r.who, r.total)
		}
		for _, a := range answers {
			dec.Add(a[0], a[1:]...)
		}
		b, err := p.Restore(start, runtime.WithDice(dice), runtime.WithDecider(dec))
		if err != nil {
			t.Fatal(err)
		}
		err = b.StartRound(ctx)
		if err == nil {
			if got, want := b.Order(), []string{"Rób 🐗", "Jay Smith", "Ann"}; !slices.Equal(got, want) {
				t.Errorf("order %q, want %q", got, want)
			}
			want := []string{"roll 2d6 attempt 0 for Jay Smith, Rób 🐗, Ann", "roll 2d6 attempt 1 for Jay Smith, Rób 🐗",
				"roll 2d6 attempt 2 for Jay Smith, Rób 🐗", "Jay Smith decides first among Jay Smith, Rób 🐗, Ann (default Jay Smith)"}
			if diff := cmp.Diff(want, asked); diff != "" {
				t.Errorf("asked (-want +got):\n%s", diff)
			}
			return
		}
		if !errors.Is(err, runtime.ErrUnscripted) {
			t.Fatal(err)
		}
		ue, ok := errors.AsType[*runtime.UnscriptedError](err)
		if !ok {
			t.Fatalf("%v: no UnscriptedError", err)
		}
		switch {
		case ue.Roll != nil:
			asked = append(asked, fmt.Sprintf("roll %dd%d attempt %d for %s", ue.Roll.Count, ue.Roll.Faces, ue.Roll.Attempt, strings.Join(ue.Missing, ", ")))
			for _, who := range ue.Missing {
				rolls = append(rolls, struct {
					who   string
					total int
				}{who, table[who][0]})
				table[who] = table[who][1:]
			}
		case ue.Decision != nil:
			d := ue.Decision
			asked = append(asked, fmt.Sprintf("%s decides %s among %s (default %s)", d.By, d.Kind, strings.Join(d.Options, ", "), strings.Join(d.Default, ", ")))
			answers = append(answers, []string{d.By, "Rób 🐗"})
		default:
			t.Fatalf("%v: nothing asked", err)
		}
	}
	t.Fatal("the round never started")
}

// randomRuleset orders two sides by a random pick alone.
const randomRuleset = `ruleset r "Random" {
  sides 2
  phase p {
    order sides as priority {
      random
    }
  }
}`

// A random pick nothing scripted says its options.
func TestUnscriptedErrorOfAPick(t *testing.T) {
	p := compileInline(t, randomRuleset)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewScriptedDice()))
	if err != nil {
		t.Fatal(err)
	}
	err = b.StartRound(context.Background())
	ue, ok := errors.AsType[*runtime.UnscriptedError](err)
	if !ok || ue.Pick == nil || !slices.Equal(ue.Pick.Options, []string{"Jay", "Rob"}) || ue.Pick.Standing != "priority" {
		t.Fatalf("%v: want an UnscriptedError of a pick among Jay, Rob in priority, got %+v", err, ue)
	}
	if !errors.Is(err, runtime.ErrUnscripted) {
		t.Errorf("%v: not ErrUnscripted", err)
	}
}

// A server that replays its players' rolls through ScriptedDice hears of
// a misread die as one read through FuncDice: ErrInvalidAnswer, with the
// ScriptError saying which of the player's rolls it is. A pick that is
// not among the options is one too.
func TestScriptedMisreadIsInvalidAnswer(t *testing.T) {
	ctx := context.Background()
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 7)
	b, err := mustProgram(t, "mesbg").NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	err = b.StartRound(ctx)
	if !errors.Is(err, runtime.ErrInvalidAnswer) {
		t.Errorf("Rob's scripted 7 on a D6: %v, want ErrInvalidAnswer", err)
	}
	if se, ok := errors.AsType[*runtime.ScriptError](err); !ok || se.Who != "Rob" || se.Index != 0 {
		t.Errorf("%v: want the ScriptError of Rob's roll 0", err)
	}

	p := compileInline(t, randomRuleset)
	dice = runtime.NewScriptedDice()
	dice.AddPick("Zed")
	b, err = p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); !errors.Is(err, runtime.ErrInvalidAnswer) {
		t.Errorf("a scripted pick of Zed among Jay and Rob: %v, want ErrInvalidAnswer", err)
	}
}

// A client's form sends numbers and booleans as strings: the error says
// that what it got is a string, not "want a whole number, got 3".
func TestAttrStringThatReadsAsAValue(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset r "Attributes" {
  sides 2
  side attribute bold bool
  unit attribute agi int
  phase p {
    order sides as priority {
      random
    }
  }
}`)
	b, err := p.NewBattle([]runtime.SideSpec{{Name: "A", Units: []runtime.UnitSpec{{Name: "a1"}}}, {Name: "B"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		err  error
		want string
	}{
		{b.SetAttr(ctx, "a1", "agi", "3"), `set agi of a1: want a whole number, got the string "3"`},
		{b.SetAttr(ctx, "A", "bold", "true"), `set bold of A: want true or false, got the string "true"`},
		{b.SetAttr(ctx, "a1", "agi", "x"), `set agi of a1: want a whole number, got x`},
	} {
		if tt.err == nil || tt.err.Error() != tt.want || !errors.Is(tt.err, runtime.ErrInvalidChange) {
			t.Errorf("%v\nwant %s (ErrInvalidChange)", tt.err, tt.want)
		}
	}
	_, err = p.NewBattle([]runtime.SideSpec{{Name: "A", Units: []runtime.UnitSpec{{Name: "a1", Attrs: map[string]any{"agi": "4"}}}}, {Name: "B"}})
	if want := `unit a1: attribute agi: want a whole number, got the string "4"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("NewBattle: %v\nwant %s", err, want)
	}
}

// A roll that lacks one subject's result names that subject alone, and
// leaves the others' in the script: the group rolls as one.
func TestUnscriptedErrorOfPartOfAGroup(t *testing.T) {
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	b, err := mustProgram(t, "mesbg").NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	err = b.StartRound(context.Background())
	ue, ok := errors.AsType[*runtime.UnscriptedError](err)
	if !ok || ue.Roll == nil || !slices.Equal(ue.Missing, []string{"Rob"}) || !slices.Equal(ue.Roll.Subjects, []string{"Jay", "Rob"}) {
		t.Fatalf("%v: want an UnscriptedError of the roll of Jay and Rob, missing Rob's; got %+v", err, ue)
	}
	if n := dice.Pending("Jay"); n != 1 {
		t.Errorf("Jay's scripted rolls left: %d, want 1", n)
	}
}

// The hint of a roll nobody scripted says "does" of one name, "do" of
// several, as the hint of an unscripted decision does.
func TestUnscriptedRollHintAgrees(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	for _, tc := range []struct {
		others []string
		want   string
	}{
		{[]string{"Rbo"}, "(the rolls scripted and not yet used are for Rbo, who does not roll here)"},
		{[]string{"Rbo", "Bob"}, "(the rolls scripted and not yet used are for Bob, Rbo, who do not roll here)"},
	} {
		dice := runtime.NewScriptedDice()
		dice.AddRoll("Jay", 4)
		for _, o := range tc.others {
			dice.AddRoll(o, 2)
		}
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
		if err != nil {
			t.Fatal(err)
		}
		_, err = b.PlayRound(ctx)
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("rolls scripted for %v: %v, want it to end %q", tc.others, err, tc.want)
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

// A snapshot edited by hand, or written by another program, with a
// whole-number attribute of 1e-400 is refused in words, as SetAttr
// refuses it: it used to be restored as 0.
func TestRestoreAttrUnderflow(t *testing.T) {
	p := mustProgram(t, "agi")
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	edited := regexp.MustCompile(`"agi": \d+`).ReplaceAll(data, []byte(`"agi": 1e-400`))
	if bytes.Equal(edited, data) {
		t.Fatal("the snapshot holds no agi to edit")
	}
	_, err = p.Restore(edited)
	if want := "want a whole number, got 1e-400, a fraction too close to 0 for a float64 to hold, not 0"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Restore with agi 1e-400: %v\nwant an error saying: %s", err, want)
	}
}

// Sides decoded with UseNumber, as SideSpec's doc says to, have their
// numbers checked as written: 1e-400 is no whole number, where a float64
// would have made it 0.
func TestNewBattleSpecsUseNumber(t *testing.T) {
	p := mustProgram(t, "agi")
	dec := json.NewDecoder(strings.NewReader(`[{"name": "A", "team": "Red", "units": [{"name": "Aria", "attrs": {"agi": 1e-400}}]},
  {"name": "B", "team": "Blue", "units": [{"name": "Bran", "attrs": {"agi": 4}}]}]`))
	dec.UseNumber()
	var specs []runtime.SideSpec
	if err := dec.Decode(&specs); err != nil {
		t.Fatal(err)
	}
	_, err := p.NewBattle(specs)
	if want := "unit Aria: attribute agi: want a whole number, got 1e-400, a fraction too close to 0 for a float64 to hold, not 0"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("NewBattle: %v\nwant an error saying: %s", err, want)
	}
}

// FuncDice's pick out of range is said as the battle says a host's own
// Dice's: with the round and the order, and what the options were.
func TestFuncDicePickOutOfRangeSaysTheRound(t *testing.T) {
	p := compileInline(t, randomRuleset)
	want := "round 1, order priority: random pick 2 is out of range (2 options)"
	for _, d := range []runtime.Dice{
		runtime.FuncDice{PickOne: func(ctx context.Context, req runtime.PickRequest) (int, error) { return len(req.Options), nil }},
		pickAt(2),
	} {
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(d))
		if err != nil {
			t.Fatal(err)
		}
		_, err = b.PlayRound(context.Background())
		re, ok := errors.AsType[*runtime.RoundError](err)
		if !ok || re.Order != "priority" || err.Error() != want || !errors.Is(err, runtime.ErrInvalidAnswer) {
			t.Errorf("dice %T: %v, want %s", d, err, want)
		}
	}
}

// FuncDice without the function a round needs fails that round saying
// which round, and which order (none for a draw from the bag), as every
// other error of a round's dice does: a host that wired Die but not
// PickOne learns where its battle stopped, not only what is missing.
func TestFuncDiceMissingFunctionSaysTheRound(t *testing.T) {
	die := func(ctx context.Context, req runtime.RollRequest, subject string) (int, error) { return 1, nil }
	pick := func(ctx context.Context, req runtime.PickRequest) (int, error) { return 0, nil }
	bag := `ruleset bag "Bag" {
  sides 2
  phase p {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
  activation draw by priority
  example {
    side Jay {
      unit j1
    }
    side Rob {
      unit r1
      unit r2
    }
  }
}`
	for _, tt := range []struct {
		name, src string
		dice      runtime.FuncDice
		order     string
		want      string
	}{
		{"no PickOne", randomRuleset, runtime.FuncDice{Die: die}, "priority",
			"round 1, order priority: FuncDice has no PickOne function to pick at random among Jay, Rob"},
		{"no Die", "ruleset r \"Roll\" {\n  sides 2\n  phase p {\n    order sides as priority {\n      highest roll d6\n      tie: reroll\n    }\n  }\n}",
			runtime.FuncDice{PickOne: pick}, "priority",
			"round 1, order priority: FuncDice has no Die function to roll d6 for Jay and Rob"},
		{"no PickOne for the bag", bag, runtime.FuncDice{Die: func(ctx context.Context, req runtime.RollRequest, subject string) (int, error) {
			if subject == "Jay" {
				return 6, nil
			}
			return 1, nil
		}}, "",
			"round 1: FuncDice has no PickOne function to draw a die from the bag (Jay 1, Rob 2)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := compileInline(t, tt.src)
			sides := runtime.Sides("Jay", "Rob")
			if strings.Contains(tt.src, "example") {
				sides = p.Example()
			}
			b, err := p.NewBattle(sides, runtime.WithDice(tt.dice))
			if err != nil {
				t.Fatal(err)
			}
			_, err = b.PlayRound(context.Background())
			re, ok := errors.AsType[*runtime.RoundError](err)
			if !ok || re.Round != 1 || re.Order != tt.order || err.Error() != tt.want {
				t.Errorf("%v\nwant a RoundError of round 1, order %q: %s", err, tt.order, tt.want)
			}
		})
	}
}
