package runtime_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// A removed unit leaves its side, the activation loop and the snapshot;
// an order made once for the battle stays.
func TestRemoveUnit(t *testing.T) {
	p := mustProgram(t, "morturi")
	ctx := context.Background()
	b, err := p.NewBattle(p.Example()) // 6 against 8
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"la1", "la2", "la3", "la4", "la5", "la6"} {
		if err := b.RemoveUnit(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.RemoveUnit(ctx, "la1"); err == nil {
		t.Error("removing a unit twice should fail")
	}
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := p.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, battle := range []*runtime.Battle{b, restored} {
		res, err := battle.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"Malleus Deus", "Ludi Aeternum"}
		if diff := cmp.Diff(want, res.Order); diff != "" {
			t.Errorf("order after the losses (-want +got):\n%s", diff)
		}
		acts := activated(res.Activations)
		wantActs := []string{"md1", "la7", "md2", "la8", "md3", "pass Ludi Aeternum", "md4", "pass Ludi Aeternum", "md5", "pass Ludi Aeternum", "md6"}
		if diff := cmp.Diff(wantActs, acts); diff != "" {
			t.Errorf("activations (-want +got):\n%s", diff)
		}
	}
}

// Removing a unit from an until-changed order of units makes the order
// again without it.
func TestRemoveUnitFromTurnOrder(t *testing.T) {
	p := mustProgram(t, "agi")
	ctx := context.Background()
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Aria", 5)
	dice.AddRoll("Bran", 2)
	b, err := p.NewBattle(p.Example(), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.RemoveUnit(ctx, "Aria"); err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Bran", "Cole"}, res.Order); diff != "" {
		t.Errorf("turn order without Aria (-want +got):\n%s", diff)
	}
}

// Units returns the caller's slice: a loop over it can remove every unit.
func TestRemoveEveryUnitWhileIterating(t *testing.T) {
	p := mustProgram(t, "morturi")
	ctx := context.Background()
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	for _, u := range b.Units() {
		if err := b.RemoveUnit(ctx, u.Name); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(b.Units()); n != 0 {
		t.Errorf("%d units left, want none", n)
	}
	b.Events()[0].Kind = "changed by the caller"
	if b.Events()[0].Kind == "changed by the caller" {
		t.Error("Events returns the battle's own transcript")
	}
}
