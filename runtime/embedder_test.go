package runtime_test

// Tests from an embedder's review: a game server, a bot or a virtual
// tabletop driving the public API as the docs say, including when the
// dice, the decider or the host itself fail.

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// agiBetweenRounds is an agi battle after round 1 (Aria and Bran tied on
// 5 and rolled 6 to 2; Cole has 3), with scripted dice.
func agiBetweenRounds(t *testing.T) (*runtime.Battle, *runtime.ScriptedDice) {
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
		b, dice := agiBetweenRounds(t)
		if err := b.SetAttr(ctx, "Cole", "agi", 5); !errors.Is(err, runtime.ErrUnscripted) {
			t.Fatalf("SetAttr with no dice scripted for the new tie: %v; want ErrUnscripted", err)
		}
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
		b, dice := agiBetweenRounds(t)
		if err := b.SetAttr(ctx, "Cole", "agi", 5); !errors.Is(err, runtime.ErrUnscripted) {
			t.Fatalf("SetAttr with no dice scripted for the new tie: %v; want ErrUnscripted", err)
		}
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
}
