package runtime_test

import (
	"context"
	"errors"
	"testing"

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
