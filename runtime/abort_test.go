package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/turnorder/turnorder/runtime"
)

// A round that fails part-way can be abandoned and played again.
func TestAbortRound(t *testing.T) {
	p := mustProgram(t, "mesbg")
	dice := runtime.NewScriptedDice()
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// Round 1 needs a roll nobody scripted: it fails part-way.
	if _, err := b.PlayRound(ctx); err == nil {
		t.Fatal("round 1 played without scripted dice")
	}
	if !b.InRound() {
		t.Fatal("the failed round should still be under way")
	}
	if _, err := b.PlayRound(ctx); err == nil {
		t.Fatal("a new round started while the failed one was under way")
	}
	if err := b.AbortRound(); err != nil {
		t.Fatal(err)
	}
	if b.Round() != 0 || b.InRound() {
		t.Fatalf("after AbortRound: round %d, in round %v; want 0, false", b.Round(), b.InRound())
	}
	dice.AddRoll("Jay", 2)
	dice.AddRoll("Rob", 5)
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Round != 1 || res.Holder != "Rob" {
		t.Errorf("replayed round %d held by %s; want round 1 held by Rob", res.Round, res.Holder)
	}
	if err := b.AbortRound(); err == nil {
		t.Error("AbortRound with no round under way should fail")
	}

	// A cancelled context mid-round, then the same.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.PlayRound(cctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if err := b.AbortRound(); err != nil {
		t.Fatal(err)
	}
	dice.AddRoll("Jay", 6)
	dice.AddRoll("Rob", 1)
	if res, err := b.PlayRound(ctx); err != nil || res.Round != 2 || res.Holder != "Jay" {
		t.Fatalf("round after abort: %+v, %v", res, err)
	}
}

// Scripted dice script again what an aborted round used, ahead of what
// was added meanwhile; a seeded fallback is rewound too.
func TestAbortRoundRewindsScriptedDice(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	errBoom := errors.New("boom")
	fail := true
	decider := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		if fail {
			return nil, errBoom
		}
		return d.Default, nil
	})
	dice := runtime.NewScriptedDice()
	dice.Fallback = runtime.NewSeededDice(7)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(decider))
	if err != nil {
		t.Fatal(err)
	}
	// Round 1 rolls 3 and 3 (a first-round tie, rerolled), then 5 and 2;
	// the winner's choice fails.
	for _, r := range [][2]int{{3, 3}, {5, 2}} {
		dice.AddRoll("Jay", r[0])
		dice.AddRoll("Rob", r[1])
	}
	if _, err := b.PlayRound(ctx); !errors.Is(err, errBoom) {
		t.Fatalf("round 1: err = %v, want the planted failure", err)
	}
	dice.AddRoll("Jay", 1) // added while the round was failing: it stays last
	if err := b.AbortRound(); err != nil {
		t.Fatal(err)
	}
	want := []string{"roll Jay 1", "roll Jay 3", "roll Jay 5", "roll Rob 2", "roll Rob 3"}
	if diff := cmp.Diff(want, dice.Unused()); diff != "" {
		t.Errorf("script after the abort (-want +got):\n%s", diff)
	}
	fail = false
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Holder != "Jay" || res.Chooser != "Jay" {
		t.Errorf("replayed round 1: holder %q, chooser %q; want Jay, Jay", res.Holder, res.Chooser)
	}
	if diff := cmp.Diff([]string{"roll Jay 1"}, dice.Unused()); diff != "" {
		t.Errorf("script after the replay (-want +got):\n%s", diff)
	}

	// A battle with nothing scripted rolls from the seeded fallback, whose
	// state the abort rewinds: the replay rolls what a seeded twin does.
	twin, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(7)))
	if err != nil {
		t.Fatal(err)
	}
	fail = true
	script := runtime.NewScriptedDice()
	script.Fallback = runtime.NewSeededDice(7)
	b2, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(script), runtime.WithDecider(decider))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b2.PlayRound(ctx); !errors.Is(err, errBoom) {
		t.Fatalf("fallback round: err = %v, want the planted failure", err)
	}
	if err := b2.AbortRound(); err != nil {
		t.Fatal(err)
	}
	fail = false
	playTwins(t, twin, b2, "(-seeded +scripted with a rewound fallback)")
}

// Clones share scripted dice unless given their own, and the script
// remembers one round's use: once another battle has started a round with
// it, an earlier round can no longer be aborted (its rolls would be
// mixed up with the other battle's).
func TestAbortRoundWithSharedScriptedDice(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	errBoom := errors.New("boom")
	decider := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		if d.Round == 1 {
			return nil, errBoom
		}
		return d.Default, nil
	})
	dice := runtime.NewScriptedDice()
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(decider))
	if err != nil {
		t.Fatal(err)
	}
	c := b.Clone(runtime.WithDecider(runtime.Policy{}))
	for range 2 {
		dice.AddRoll("Jay", 5)
		dice.AddRoll("Rob", 2)
	}
	if _, err := b.PlayRound(ctx); !errors.Is(err, errBoom) {
		t.Fatalf("b, round 1: err = %v, want the planted failure", err)
	}
	if _, err := c.PlayRound(ctx); err != nil {
		t.Fatalf("the clone, round 1: %v", err)
	}
	if err := b.AbortRound(); err == nil || !strings.Contains(err.Error(), "another battle") {
		t.Fatalf("b.AbortRound() = %v, want an error naming another battle", err)
	}
	if got := dice.Unused(); len(got) != 0 {
		t.Errorf("the refused abort changed the script: %v", got)
	}
}

// A clone that rolls from the shared script between its rounds (an
// attribute change recomputes its until-changed order) has used the script
// too: the round under way in the other battle can no longer be aborted.
func TestAbortRoundAfterACloneRolled(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset x {
  sides 2
  side attribute agi int
  phase p each round {
    order sides as o until changed agi {
      highest agi
      highest roll d6
      tie: reroll
    }
  }
}
`)
	errBoom := errors.New("boom")
	failIn2 := runtime.WithHook(func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
		if b.Round() == 2 && at == (runtime.HookPoint{Edge: "end", Kind: "round"}) {
			return errBoom
		}
		return nil
	})
	dice := runtime.NewScriptedDice()
	sides := []runtime.SideSpec{{Name: "A", Attrs: map[string]any{"agi": 1}}, {Name: "B", Attrs: map[string]any{"agi": 2}}}
	b, err := p.NewBattle(sides, runtime.WithDice(dice), failIn2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	c := b.Clone()
	if _, err := b.PlayRound(ctx); !errors.Is(err, errBoom) {
		t.Fatalf("b, round 2: err = %v, want the planted failure", err)
	}
	dice.AddRoll("A", 4)
	dice.AddRoll("B", 3)
	if err := c.SetAttr(ctx, "A", "agi", 2); err != nil { // A and B now tie on agi: they roll
		t.Fatal(err)
	}
	if got := c.Order(); !slices.Equal(got, []string{"A", "B"}) {
		t.Fatalf("the clone's order after the roll: %v, want A, B", got)
	}
	if err := b.AbortRound(); err == nil || !strings.Contains(err.Error(), "another battle") {
		t.Fatalf("b.AbortRound() = %v, want an error naming another battle", err)
	}
	if got := dice.Unused(); len(got) != 0 {
		t.Errorf("the clone's rolls were scripted again: %v", got)
	}
}

// TestAbortRoundPutsEverythingBack fails rounds at many points (a hook
// after attributes, statuses and units have changed; a decider in the
// middle of the activations), aborts them and plays them again. The
// battle must then be indistinguishable, snapshot for snapshot and round
// for round, from a twin whose rounds never failed.
func TestAbortRoundPutsEverythingBack(t *testing.T) {
	ctx := context.Background()
	errBoom := errors.New("boom")
	for _, name := range []string{"agi", "necromunda", "morturi"} {
		p := mustProgram(t, name)
		for seed := uint64(1); seed <= 12; seed++ {
			failRound := 1 + int(seed%6)
			// change is what a special rule or the host changes.
			change := func(ctx context.Context, b *runtime.Battle, unit string, n int) error {
				switch name {
				case "agi":
					return b.SetAttr(ctx, unit, "agi", 1+n%4)
				case "necromunda":
					return b.SetStatus(ctx, unit, "seriously_injured", n%2 == 0)
				}
				return b.SetAttr(ctx, unit, "movement", 3+n%3)
			}
			var failing bool        // the next attempt at failRound fails
			var decisions int       // decisions asked in the failing round
			failAt := int(seed % 3) // ...at this decision, or, if there is none, in the end hook
			// changes is what a special rule does at the start of every
			// round, the same in both battles.
			changes := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
				units := b.Units()
				if at != (runtime.HookPoint{Edge: "start", Kind: "round"}) || len(units) < 2 {
					return nil
				}
				r, u := b.Round(), units[b.Round()%len(units)].Name
				if err := change(ctx, b, u, r); err != nil {
					return err
				}
				if r == 4 {
					return b.RemoveUnit(ctx, units[0].Name)
				}
				return nil
			}
			boom := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
				if failing && b.Round() == failRound && at == (runtime.HookPoint{Edge: "end", Kind: "round"}) {
					return errBoom
				}
				return nil
			}
			decider := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
				if failing && d.Round == failRound {
					if decisions == failAt {
						return nil, errBoom
					}
					decisions++
				}
				return d.Default, nil
			})
			newBattle := func(opts ...runtime.BattleOption) *runtime.Battle {
				opts = append(opts, runtime.WithDice(runtime.NewSeededDice(seed)), runtime.WithHook(changes))
				b, err := p.NewBattle(p.Example(), opts...)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
			b := newBattle(runtime.WithDecider(decider), runtime.WithHook(boom))
			twin := newBattle()
			for round := 1; round <= 8; round++ {
				if round == failRound {
					// A change between rounds, whose events open the round.
					for _, x := range []*runtime.Battle{b, twin} {
						if err := change(ctx, x, x.Units()[1].Name, round+1); err != nil {
							t.Fatal(err)
						}
					}
					before := snapshot(t, b)
					for attempt := range 2 { // fail, abort, and fail again
						failing, decisions = true, attempt
						if _, err := b.PlayRound(ctx); !errors.Is(err, errBoom) {
							t.Fatalf("%s seed %d: round %d: err = %v, want the planted failure", name, seed, round, err)
						}
						if err := b.AbortRound(); err != nil {
							t.Fatal(err)
						}
						if diff := cmp.Diff(before, snapshot(t, b)); diff != "" {
							t.Fatalf("%s seed %d: after aborting round %d (-before the round +after the abort):\n%s", name, seed, round, diff)
						}
					}
					failing = false
				}
				playTwins(t, twin, b, fmt.Sprintf("%s seed %d (-never failed +aborted and replayed)", name, seed))
				if diff := cmp.Diff(snapshot(t, twin), snapshot(t, b)); diff != "" {
					t.Fatalf("%s seed %d: after round %d (-never failed +aborted and replayed):\n%s", name, seed, round, diff)
				}
			}
		}
	}
}

// A battle restored in mid-round does not know how the round began, so it
// refuses to abort rather than guess.
func TestAbortRoundAfterRestore(t *testing.T) {
	p, b, data := midRound(t, "mesbg", 1)
	r, err := p.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.AbortRound(); err == nil {
		t.Error("a restored battle aborted a round it did not see start")
	}
	if err := b.AbortRound(); err != nil {
		t.Errorf("the original battle: %v", err)
	}
}

// A ScriptError says which scripted result it is, counting from the first
// one added for its subject. The refused result is used up: an aborted
// round scripts again the rolls it used, not the one it refused, so the
// roll added in its place (read again from the table) is the next.
func TestScriptErrorIndex(t *testing.T) {
	ctx := context.Background()
	b, dice := scriptedMESBG(t)
	// Round 1 ties (3, 3) and rerolls; Rob's second roll cannot be, nor
	// can the one added in its place.
	for _, r := range [][2]int{{3, 3}, {4, 9}} {
		dice.AddRoll("Jay", r[0])
		dice.AddRoll("Rob", r[1])
	}
	for i, v := range []int{9, 7} {
		if i > 0 {
			dice.AddRoll("Rob", v)
		}
		_, err := b.PlayRound(ctx)
		se, ok := errors.AsType[*runtime.ScriptError](err)
		if !ok {
			t.Fatalf("err = %v, want a ScriptError", err)
		}
		want := &runtime.ScriptError{Round: 1, Who: "Rob", Index: i + 1}
		if diff := cmp.Diff(want, se, cmpopts.IgnoreUnexported(runtime.ScriptError{})); diff != "" {
			t.Errorf("ScriptError (-want +got):\n%s", diff)
		}
		if w := fmt.Sprintf("scripted roll %d for Rob is impossible on d6", v); !strings.Contains(err.Error(), w) {
			t.Errorf("err = %v, want it to say %s", err, w)
		}
		if err := b.AbortRound(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"roll Jay 3", "roll Jay 4", "roll Rob 3"}, dice.Unused()); diff != "" {
			t.Errorf("scripted after AbortRound (-want +got):\n%s", diff)
		}
	}
	dice.AddRoll("Rob", 2)
	if res, err := b.PlayRound(ctx); err != nil || res.Holder != "Jay" {
		t.Fatalf("round 1 with Rob's roll added again: %v, want Jay holding priority", err)
	}

	// Picks count among all the picks.
	p := compileInline(t, "ruleset r {\n sides 3\n phase p each round { order sides as o { random } }\n}\n")
	dice = runtime.NewScriptedDice()
	b, err := p.NewBattle(runtime.Sides("A", "B", "C"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	dice.AddPick("B")
	dice.AddPick("Z")
	_, err = b.PlayRound(ctx)
	se, ok := errors.AsType[*runtime.ScriptError](err)
	if !ok || !se.Pick || se.Who != "Z" || se.Index != 1 {
		t.Fatalf("err = %v (%+v), want a ScriptError for the second pick, Z", err, se)
	}
}

// A round that failed half way cannot be ended, stepped, saved or
// followed by another: only AbortRound, after which it plays again.
func TestFailedRoundMustBeAborted(t *testing.T) {
	ctx := context.Background()
	b, dice := scriptedMESBG(t)
	dice.AddRoll("Jay", 6) // and nothing for Rob
	if err := b.StartRound(ctx); err == nil {
		t.Fatal("StartRound with Rob's die missing: no error")
	}
	refused := map[string]error{}
	_, refused["EndRound"] = b.EndRound(ctx)
	_, refused["Step"] = b.Step(ctx)
	_, refused["PlayRound"] = b.PlayRound(ctx)
	_, refused["Snapshot"] = b.Snapshot()
	refused["Activate"] = b.Activate(ctx, "x")
	refused["Pass"] = b.Pass(ctx)
	for name, err := range refused {
		if !errors.Is(err, runtime.ErrRoundFailed) || !strings.Contains(err.Error(), "a d6 roll is needed for Rob") {
			t.Errorf("%s after the failure: err = %v, want ErrRoundFailed naming the failure", name, err)
		}
	}
	if b.Next() != nil {
		t.Error("Next offers a turn in a failed round")
	}
	if err := b.AbortRound(); err != nil {
		t.Fatal(err)
	}
	dice.AddRoll("Rob", 2)
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Round != 1 || res.Holder != "Jay" {
		t.Errorf("replayed round %d, holder %q; want round 1, Jay", res.Round, res.Holder)
	}
}

// A round that failed where it cannot be aborted (the battle was restored
// in mid-round) is not refused for ever: it goes on as it is.
func TestFailedRoundThatCannotBeAbortedGoesOn(t *testing.T) {
	ctx := context.Background()
	p, _, data := midRound(t, "necromunda", 3)
	fail := true
	hook := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
		if at.Kind == "round" && at.Edge == "end" && fail {
			fail = false
			return errors.New("boom")
		}
		return nil
	}
	r, err := p.Restore(data, runtime.WithHook(hook))
	if err != nil {
		t.Fatal(err)
	}
	// Ended early, with its activations still to play, the round fails.
	if _, err := r.EndRound(ctx); err == nil {
		t.Fatal("EndRound: the planted failure did not happen")
	}
	if err := r.AbortRound(); err == nil {
		t.Fatal("AbortRound of a restored round: no error")
	}
	if r.Next() == nil {
		t.Fatal("Next offers no turn in a round that goes on")
	}
	steps := 0
	for {
		done, err := r.Step(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			break
		}
		steps++
	}
	if steps == 0 {
		t.Error("the round that went on played no activation")
	}
	if _, err := r.EndRound(ctx); err != nil {
		t.Fatalf("EndRound again: %v", err)
	}
	if _, err := r.PlayRound(ctx); err != nil {
		t.Fatalf("the next round: %v", err)
	}
}

// Deciders and dice are host code run in the middle of a round: they
// cannot play or undo rounds either.
func TestDeciderCannotPlayRounds(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	var b *runtime.Battle
	var got error
	decider := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		_, got = b.EndRound(ctx)
		return d.Default, nil
	})
	b, err := p.NewBattle(p.Example(), runtime.WithDecider(decider))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(got, runtime.ErrInCallback) {
		t.Errorf("EndRound from a decider: %v, want ErrInCallback", got)
	}
}

// What follows a reroll in a tie rule runs once, where the reroll broke
// the tie: one choice, however many rerolls tied again.
func TestChoiceAfterRerollsIsAskedOnce(t *testing.T) {
	p := compileInline(t, `ruleset loser {
  sides 2
  phase p {
    order sides as priority {
      highest roll d6
      tie {
        reroll
        choice first by loser
      }
    }
  }
}`)
	dice := runtime.NewScriptedDice()
	for _, r := range [][2]int{{3, 3}, {4, 4}, {2, 2}, {5, 1}} {
		dice.AddRoll("A", r[0])
		dice.AddRoll("B", r[1])
	}
	decider := runtime.NewScriptedDecider()
	decider.Add("B", "B")
	b, err := p.NewBattle(runtime.Sides("A", "B"), runtime.WithDice(dice), runtime.WithDecider(decider))
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"B", "A"}, res.Order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if u := decider.Unused(); len(u) > 0 {
		t.Errorf("unused answers: %v", u)
	}
}

// scriptedMESBG is a battle of mesbg with scripted dice and the policies.
func scriptedMESBG(t *testing.T) (*runtime.Battle, *runtime.ScriptedDice) {
	t.Helper()
	dice := runtime.NewScriptedDice()
	b, err := mustProgram(t, "mesbg").NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(runtime.Policy{}))
	if err != nil {
		t.Fatal(err)
	}
	return b, dice
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
