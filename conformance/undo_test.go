package conformance_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/internal/longtest"
	"github.com/turnorder/turnorder/runtime"
)

// undoRounds is how many rounds a battle plays before it is undone.
const undoRounds = 3

// undoSeeds is how many seeds each ruleset is played with.
func undoSeeds() uint64 {
	if longtest.Enabled() {
		return 100
	}
	return 4
}

// Undo goes back through the battle one step at a time: after each
// Undo the battle saves as it did before the answer or the call it takes
// back, in reverse order, down to the battle as it was made, where one
// more Undo has nothing to undo. Played again from there with the same
// answers, the battle ends where it ended before.
func TestUndoRetracesEverySaveToTheStart(t *testing.T) {
	ctx := context.Background()
	for _, c := range resumeCases(t) {
		t.Run(c.name, func(t *testing.T) {
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
