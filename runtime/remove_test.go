package runtime_test

import (
	"context"
	"errors"
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

// A removed unit is remembered with its side: HolderSide still names the
// side of a holder removed since it took priority, and a host that uses a
// casualty's name is told it was removed. Snapshots and clones keep that;
// an aborted round forgets a removal it undoes.
func TestRemovedUnitIsRemembered(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset r {
  sides 2
  unit attribute speed int
  phase p once {
    order units as o { highest speed }
  }
  example {
    side A {
      unit a1 speed = 5
      unit a2 speed = 1
    }
    side B {
      unit b1 speed = 2
    }
  }
}`)
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.RemoveUnit(ctx, "a1"); err != nil {
		t.Fatal(err)
	}
	snap, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := p.Restore(snap)
	if err != nil {
		t.Fatal(err)
	}
	for name, bb := range map[string]*runtime.Battle{"battle": b, "restored": restored, "clone": b.Clone()} {
		t.Run(name, func(t *testing.T) {
			if got := bb.HolderSide(); got != "A" {
				t.Errorf("HolderSide = %q, want A (a1, removed, was A's)", got)
			}
			for _, tt := range []struct {
				name string
				err  error
				want string
			}{
				{"MakeReady", bb.MakeReady("a1"), "ready a1: a1 (of A) was removed from the battle"},
				{"RemoveUnit", bb.RemoveUnit(ctx, "a1"), "remove a1: a1 (of A) was removed from the battle"},
				{"SetAttr", bb.SetAttr(ctx, "a1", "speed", 3), "set speed of a1: a1 (of A) was removed from the battle"},
				{"SetStatus", bb.SetStatus(ctx, "a1", "x", true), "status x: a1 (of A) was removed from the battle"},
				{"never there", bb.MakeReady("zz"), "ready zz: no unit is called zz"},
			} {
				if tt.err == nil || tt.err.Error() != tt.want || !errors.Is(tt.err, runtime.ErrInvalidChange) {
					t.Errorf("%s: %v, want %s (ErrInvalidChange)", tt.name, tt.err, tt.want)
				}
			}
		})
	}
	// A removal in a round that is aborted is undone, and forgotten.
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.RemoveUnit(ctx, "a2"); err != nil {
		t.Fatal(err)
	}
	if err := b.AbortRound(); err != nil {
		t.Fatal(err)
	}
	if err := b.MakeReady("a2"); err != nil {
		t.Errorf("MakeReady(a2) after the round that removed it was aborted: %v", err)
	}
}
