package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/turnorder/turnorder/runtime"
)

// A host showing the odds of the battle at its table needs them from the
// battle as it stands: in mesbg a tie after round 1 goes to the player who
// did not choose, so once Jay has chosen, Rob holds priority in round 2
// on his wins and on every tie, 7/12, not the 1/2 of a fresh battle.
func TestBattleOddsFollowTheBattle(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := b.Odds(ctx, runtime.OddsOptions{Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.Odds(ctx, runtime.Sides("Jay", "Rob"), runtime.OddsOptions{Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range want.Rounds {
		got := fresh.Rounds[i]
		if got.Round != r.Round || got.Holder["Jay"].Cmp(r.Holder["Jay"]) != 0 || got.Holder["Rob"].Cmp(r.Holder["Rob"]) != 0 {
			t.Errorf("a battle before round 1: round %d: got %v, want Program.Odds's %v", r.Round, got, r)
		}
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if b.Chooser() != "Jay" {
		t.Fatalf("chooser %q, want Jay", b.Chooser())
	}
	before, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := b.Odds(ctx, runtime.OddsOptions{Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rounds) != 1 || rep.Rounds[0].Round != 2 {
		t.Fatalf("rounds %+v, want one, round 2", rep.Rounds)
	}
	if got, want := rep.Rounds[0].Holder["Rob"], big.NewRat(7, 12); got.Cmp(want) != 0 {
		t.Errorf("P(Rob holds priority in round 2) = %v, want %v", got, want)
	}
	if got, want := rep.Expected["Jay"], big.NewRat(5, 12); got.Cmp(want) != 0 {
		t.Errorf("Jay's expected rounds = %v, want %v", got, want)
	}
	after, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("Odds changed the battle:\n%s\nthen\n%s", before, after)
	}
}

// Odds are of whole rounds: in the middle of one the battle says so.
func TestBattleOddsRefusesARoundUnderWay(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "necromunda")
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Odds(ctx, runtime.OddsOptions{Rounds: 1}); !errors.Is(err, runtime.ErrRoundUnderWay) {
		t.Errorf("Odds in a round under way: %v, want ErrRoundUnderWay", err)
	}
	if _, err := b.EndRound(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Odds(ctx, runtime.OddsOptions{}); err == nil {
		t.Error("Odds of no rounds: no error")
	}
}

// A unit removed is gone from the odds too, and an attribute changed
// counts with its new value.
func TestBattleOddsSeeChanges(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset most "Most models, then morale" {
  sides 2
  side attribute morale int
  phase p {
    order sides as priority {
      highest count(units)
      highest morale
      highest roll d6
      tie: reroll
    }
  }
}`)
	b, err := p.NewBattle([]runtime.SideSpec{
		{Name: "A", Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}}},
		{Name: "B", Units: []runtime.UnitSpec{{Name: "b1"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	pA := func(want *big.Rat) {
		t.Helper()
		rep, err := b.Odds(ctx, runtime.OddsOptions{Rounds: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.Rounds[0].Holder["A"]; got.Cmp(want) != 0 {
			t.Errorf("P(A holds priority) = %v, want %v", got, want)
		}
	}
	pA(big.NewRat(1, 1))
	if err := b.RemoveUnit(ctx, "a1"); err != nil {
		t.Fatal(err)
	}
	pA(big.NewRat(1, 2))
	if err := b.SetAttr(ctx, "B", "morale", 3); err != nil {
		t.Fatal(err)
	}
	pA(new(big.Rat))
}

// A server serving the odds of its battle to a browser encodes the report
// as it is: exact fractions in strings, lowercase keys.
func TestOddsReportAsJSON(t *testing.T) {
	p := mustProgram(t, "mesbg")
	rep, err := p.Odds(context.Background(), runtime.Sides("Jay", "Rob"), runtime.OddsOptions{Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	rep.Replays = 0 // the work done, which may change
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ruleset":"mesbg","sides":["Jay","Rob"],"rounds":[{"round":1,"holder":{"Jay":"1/2","Rob":"1/2"},` +
		`"orders":[{"outcome":["Jay","Rob"],"p":"1/2"},{"outcome":["Rob","Jay"],"p":"1/2"}]}],` +
		`"sequences":[{"outcome":["Jay"],"p":"1/2"},{"outcome":["Rob"],"p":"1/2"}],"expected":{"Jay":"1/2","Rob":"1/2"},"replays":0}`
	if string(data) != want {
		t.Errorf("odds as JSON:\n%s\nwant\n%s", data, want)
	}
}
