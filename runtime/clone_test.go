package runtime_test

import (
	"context"
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
