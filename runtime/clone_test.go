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
