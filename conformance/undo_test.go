package conformance_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/internal/longtest"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// undoRounds is how many rounds a battle plays before it is undone.
const undoRounds = 3

// undoSeeds is how many seeds each ruleset is played with.
func undoSeeds() uint64 { return longtest.Seeds(4, 200) }

// Undo goes back through the battle one step at a time: after each
// Undo the battle saves as it did before the answer or the call it takes
// back, in reverse order, down to the battle as it was made, where one
// more Undo has nothing to undo. Played again from there with the same
// answers, the battle ends where it ended before.
func TestUndoRetracesEverySaveToTheStart(t *testing.T) {
	ctx := context.Background()
	for _, c := range resumeCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for seed := range undoSeeds() {
				t.Run(fmt.Sprint(seed), func(t *testing.T) {
					for _, mode := range resumeModes {
						t.Run(mode.name, func(t *testing.T) {
							undoAll(ctx, t, c, mode, seed)
						})
					}
				})
			}
		})
	}
}

func undoAll(ctx context.Context, t *testing.T, c resumeCase, mode resumeMode, seed uint64) {
	var dice runtime.Dice = runtime.AskHost{}
	if mode.dice != nil {
		dice = mode.dice(seed)
	}
	hooks := hookCounter{}
	b, err := c.prog.NewBattle(c.prog.Example(), runtime.WithUndo(), runtime.WithDice(dice),
		runtime.WithDecider(runtime.AskHost{}), runtime.WithHook(hooks.hook))
	if err != nil {
		t.Fatal(err)
	}
	var saves []string
	pl := &player{p: c.prog, b: b, rng: rand.New(rand.NewPCG(seed, 0x7e5)), saves: &saves, advance: seed%2 == 1}
	if err := pl.playRounds(ctx, undoRounds); err != nil {
		t.Fatal(err)
	}
	final := pl.save()
	where := pl.where // where[i] is what was played from saves[i]
	for i := len(saves) - 1; i >= 0; i-- {
		if err := b.Undo(); err != nil {
			t.Fatalf("Undo number %d, of %q: %v", len(saves)-i, where[i], err)
		}
		if diff := cmp.Diff(saves[i], pl.save()); diff != "" {
			t.Fatalf("Undo number %d, of %q, of %d: the save (-before it was played +after Undo):\n%s",
				len(saves)-i, where[i], len(saves), diff)
		}
	}
	if err := b.Undo(); !errors.Is(err, runtime.ErrNothingToUndo) {
		t.Fatalf("Undo at the start of the battle: %v, want ErrNothingToUndo", err)
	}
	again := &player{p: c.prog, b: b, rng: rand.New(rand.NewPCG(seed, 0x7e5)), advance: seed%2 == 1}
	if err := again.playRounds(ctx, undoRounds); err != nil {
		t.Fatalf("played again after Undo to the start: %v", err)
	}
	if diff := cmp.Diff(final, again.save()); diff != "" {
		t.Errorf("played again after Undo to the start, the battle ends (-first +again):\n%s", diff)
	}
}

// The smallest battle that shows an earlier round's standing after Undo
// (see TestUndoRetracesEverySaveToTheStart): three rounds of mesbg, each
// stopped at the roll-off winner's choice and answered; undone back into
// round 2's choice, the battle must hold round 1's priority standing, as
// it did when that choice was first asked.
func TestUndoIntoAnEarlierRoundKeepsItsStanding(t *testing.T) {
	ctx := context.Background()
	p, err := rulesets.Load("mesbg")
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.NewBattle(p.Example(), runtime.WithUndo(), runtime.WithDice(runtime.NewSeededDice(1)),
		runtime.WithDecider(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	var waiting []string // the save waiting for each round's choice
	for round := 1; round <= 3; round++ {
		if err := b.AdvanceRound(ctx); !errors.Is(err, runtime.ErrPending) {
			t.Fatalf("round %d: AdvanceRound: %v, want ErrPending", round, err)
		}
		data, err := b.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		waiting = append(waiting, string(data))
		if err := b.Answer(ctx, runtime.ChoiceAnswer(b.Pending().Decision.Options[0])); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	for range 3 { // round 3's answer, round 3's AdvanceRound, round 2's answer
		if err := b.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(waiting[1], string(data)); diff != "" {
		t.Errorf("undone back to round 2's choice, the save (-as first asked +after Undo):\n%s", diff)
	}
}
