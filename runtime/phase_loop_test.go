package runtime_test

// Tests of activation loops written inside phases and steps: each runs
// where it is written, the round goes on past it once it is over, its
// turns say which loop they belong to, saves in the middle of one resume
// in it, and `first =` orders the loops of one phase only.

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

const phaseLoopsSrc = `
ruleset loops {
  sides 2
  phase Priority {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
  phase Movement {
    activation alternate by priority
  }
  phase Shooting {
    step Roll {
      order sides as shooting {
        highest roll d6
        tie: reroll
      }
    }
    step Fire {
      activation alternate by shooting
    }
  }
  phase Fight {
    activation sequential
  }
  on start of phase Fight {
    first = "Rob"
  }
}
`

func phaseLoopSides() []runtime.SideSpec {
	return []runtime.SideSpec{
		{Name: "Jay", Units: []runtime.UnitSpec{{Name: "j1"}, {Name: "j2"}}},
		{Name: "Rob", Units: []runtime.UnitSpec{{Name: "r1"}}},
	}
}

// turnText says whose turn it is and in which loop.
func turnText(t *runtime.Turn) string {
	if t == nil {
		return "over"
	}
	where := t.Phase
	if t.Step != "" {
		where += "/" + t.Step
	}
	return t.Side + " in " + where
}

func TestPhaseLoopsRunWhereWritten(t *testing.T) {
	p := compileInline(t, phaseLoopsSrc)
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 5) // priority: Jay
	dice.AddRoll("Rob", 2)
	dice.AddRoll("Jay", 1) // shooting: Rob
	dice.AddRoll("Rob", 6)
	b, err := p.NewBattle(phaseLoopSides(), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	var turns []string
	for {
		turns = append(turns, turnText(b.Next()))
		done, err := b.Step(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			break
		}
	}
	want := []string{
		"Jay in Movement", "Rob in Movement", "Jay in Movement",
		"Rob in Shooting/Fire", "Jay in Shooting/Fire", "Rob in Shooting/Fire", "Jay in Shooting/Fire",
		"Rob in Fight", "Jay in Fight", "Jay in Fight",
		"over",
	}
	if diff := cmp.Diff(want, turns); diff != "" {
		t.Errorf("turns (-want +got):\n%s", diff)
	}
	var got []string
	for _, a := range b.Activations() {
		s := a.Phase + ":" + a.Unit
		if a.Pass {
			s = a.Phase + ":pass " + a.Side
		}
		if a.Step != "" {
			s = a.Phase + "/" + a.Step + ":" + strings.TrimPrefix(s, a.Phase+":")
		}
		got = append(got, s)
	}
	wantActs := []string{
		"Movement:j1", "Movement:r1", "Movement:j2",
		"Shooting/Fire:r1", "Shooting/Fire:j1", "Shooting/Fire:pass Rob", "Shooting/Fire:j2",
		"Fight:r1", "Fight:j1", "Fight:j2",
	}
	if diff := cmp.Diff(wantActs, got); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}
	if h := b.Holder(); h != "Jay" {
		t.Errorf("holder %q, want Jay: `first =` and the phases' own orders leave it as it is", h)
	}
	res, err := b.EndRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var firsts []string
	for _, e := range res.Events {
		if e.Kind == runtime.EvFirst {
			firsts = append(firsts, e.String())
		}
	}
	if diff := cmp.Diff([]string{`Rob goes first in Fight (first = "Rob")`}, firsts); diff != "" {
		t.Errorf("first events (-want +got):\n%s", diff)
	}
}

// A save in the middle of the first phase's loop, with the roll of a
// later phase waiting for the host, plays on from there after Restore.
func TestPhaseLoopSnapshotResumes(t *testing.T) {
	p := compileInline(t, phaseLoopsSrc)
	ctx := context.Background()
	b, err := p.NewBattle(phaseLoopSides(), runtime.WithDice(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); !errors.Is(err, runtime.ErrPending) {
		t.Fatalf("StartRound: %v, want the priority roll pending", err)
	}
	if err := b.Answer(ctx, runtime.RollAnswer(5, 2)); err != nil {
		t.Fatal(err)
	}
	if err := b.Activate(ctx, "j1"); err != nil {
		t.Fatal(err)
	}
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Restore(data, runtime.WithDice(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	if got := turnText(r.Next()); got != "Rob in Movement" {
		t.Fatalf("restored in the Movement loop, Next = %s, want Rob in Movement", got)
	}
	if err := r.Activate(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	// The last unit of Movement: the round goes on into Shooting, whose
	// roll-off waits for the host. A save now holds the op half played.
	if err := r.Activate(ctx, "j2"); !errors.Is(err, runtime.ErrPending) {
		t.Fatalf("the last activation of Movement: %v, want the Shooting roll pending", err)
	}
	data, err = r.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r2, err := p.Restore(data, runtime.WithDice(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	if req := r2.Pending(); req == nil || req.Roll == nil || req.Roll.Standing != "shooting" {
		t.Fatalf("restored pending %+v, want the shooting roll", req)
	}
	if err := r2.Answer(ctx, runtime.RollAnswer(1, 6)); err != nil {
		t.Fatal(err)
	}
	if got := turnText(r2.Next()); got != "Rob in Shooting/Fire" {
		t.Errorf("after the roll-off Next = %s, want Rob in Shooting/Fire", got)
	}
}

// A round ended in the middle of a phase's loop ends there: the phases
// after it do not run, and its save restores between rounds.
func TestEndRoundInPhaseLoop(t *testing.T) {
	p := compileInline(t, phaseLoopsSrc)
	ctx := context.Background()
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 5)
	dice.AddRoll("Rob", 2)
	b, err := p.NewBattle(phaseLoopSides(), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Activate(ctx, "j1"); err != nil {
		t.Fatal(err)
	}
	res, err := b.EndRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Activations) != 1 || b.Next() != nil {
		t.Errorf("after EndRound: %d activations, Next %v; want 1 and nil", len(res.Activations), b.Next())
	}
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Restore(data); err != nil {
		t.Errorf("Restore after a round ended in a phase's loop: %v", err)
	}
}

func TestRestoreRefusesLoopState(t *testing.T) {
	p := compileInline(t, phaseLoopsSrc)
	ctx := context.Background()
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 5)
	dice.AddRoll("Rob", 2)
	b, err := p.NewBattle(phaseLoopSides(), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"loop": 1`) {
		t.Fatalf("the save does not say the Movement loop is under way:\n%s", data)
	}
	for _, tt := range []struct{ from, to, want string }{
		{`"loop": 1`, `"loop": 9`, "current.loop: 9 is no activation loop"},
		{`"loop": 1`, `"loop": 1,"first":"Bob","first_in":"Movement"`, `current.first: "Bob" is put first`},
		{`"loop": 1`, `"loop": 1,"first":"Rob","first_in":"Nowhere"`, `current.first_in: Rob is put first in "Nowhere"`},
		{`"loop": 1`, `"loop": 1,"first_in":"Movement"`, "current.first_in: phase Movement has a side put first"},
	} {
		bad := strings.Replace(string(data), tt.from, tt.to, 1)
		_, err := p.Restore([]byte(bad))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Restore with %s: %v, want an error containing %q", tt.to, err, tt.want)
		}
	}
}

func TestNoOrderOfSides(t *testing.T) {
	p := compileInline(t, `
ruleset bag {
  phase Orders {
    activation draw
  }
}
`)
	if p.HasHolder() {
		t.Error("HasHolder: true for a ruleset with no order")
	}
	sides := phaseLoopSides()
	if _, err := p.Odds(context.Background(), sides, runtime.OddsOptions{Rounds: 1}); !errors.Is(err, runtime.ErrNoOrder) {
		t.Errorf("Odds: %v, want ErrNoOrder", err)
	}
	b, err := p.NewBattle(sides)
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Holder != "" || len(res.Order) != 0 || len(res.Activations) != 3 {
		t.Errorf("round: holder %q, order %q, %d activations; want no holder, no order and 3", res.Holder, res.Order, len(res.Activations))
	}
	b2, err := p.NewBattle(sides)
	if err != nil {
		t.Fatal(err)
	}
	if err := b2.StartRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := b2.SetHolder("Jay"); !errors.Is(err, runtime.ErrNoOrder) {
		t.Errorf("SetHolder: %v, want ErrNoOrder", err)
	}
}

// `first =` puts a side first in each mode that follows an order: its
// units first, in unit_order, each in its place among them.
func TestFirstInEachMode(t *testing.T) {
	for _, tt := range []struct {
		mode string
		want []string
	}{
		{"alternate", []string{"b1", "a1", "pass B", "a2"}},
		{"sequential", []string{"b1", "a1", "a2"}},
		{"unit_order", []string{"b1", "a1", "a2"}},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			p := compileInline(t, `
ruleset f {
  phase Fight {
    activation `+tt.mode+`
  }
  on start of phase Fight {
    first = "B"
  }
}
`)
			b, err := p.NewBattle([]runtime.SideSpec{
				{Name: "A", Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}}},
				{Name: "B", Units: []runtime.UnitSpec{{Name: "b1"}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			res, err := b.PlayRound(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range res.Activations {
				if a.Pass {
					got = append(got, "pass "+a.Side)
				} else {
					got = append(got, a.Unit)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("activations (-want +got):\n%s", diff)
			}
		})
	}
}
