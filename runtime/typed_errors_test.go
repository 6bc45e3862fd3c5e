package runtime_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// A script that runs out is ErrUnscripted, which a host that replays a log
// of dice and answers (and then hands over to the players) can test for,
// apart from a rule that fails or a limit. The messages are unchanged.
func TestErrUnscripted(t *testing.T) {
	ctx := context.Background()
	random := compileInline(t, `ruleset r "Random" {
  sides 2
  phase p {
    order sides as p {
      random
    }
  }
}
`)
	tests := []struct {
		name    string
		prog    *runtime.Program
		sides   []runtime.SideSpec
		opts    []runtime.BattleOption
		wantMsg string
	}{
		{"roll", compileBundled("mesbg"), runtime.Sides("Jay", "Rob"),
			[]runtime.BattleOption{runtime.WithDice(runtime.NewScriptedDice())},
			"round 1, order priority: a d6 roll is needed for Jay, Rob, but none is scripted"},
		{"pick", random, runtime.Sides("A", "B"),
			[]runtime.BattleOption{runtime.WithDice(runtime.NewScriptedDice())},
			"round 1, order p: a random pick among A, B is needed, but none is scripted"},
		{"decision", compileBundled("mesbg"), runtime.Sides("Jay", "Rob"),
			[]runtime.BattleOption{runtime.WithDice(runtime.NewSeededDice(7)), runtime.WithDecider(runtime.NewScriptedDecider())},
			"round 1: unscripted decision: Jay chooses who goes first among Jay, Rob (script it with `Jay chooses ...`)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.prog.NewBattle(tt.sides, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = b.PlayRound(ctx)
			if !errors.Is(err, runtime.ErrUnscripted) {
				t.Errorf("PlayRound: %v; want an error wrapping ErrUnscripted", err)
			}
			if err == nil {
				return
			}
			if diff := cmp.Diff(tt.wantMsg, err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			if errors.Is(err, runtime.ErrLimit) {
				t.Errorf("PlayRound: %v is ErrLimit too", err)
			}
		})
	}
	// A scripted result that is impossible is a ScriptError, not a missing one.
	d := runtime.NewScriptedDice()
	d.AddRoll("Jay", 9)
	d.AddRoll("Rob", 1)
	b, err := compileBundled("mesbg").NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(d))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err == nil || errors.Is(err, runtime.ErrUnscripted) {
		t.Errorf("an impossible scripted roll: %v; want an error that is not ErrUnscripted", err)
	}
}

// A move the turn does not allow is ErrNotAllowed, so that a host taking
// moves from players (a bot's command, a click) can tell a player's
// mistake, to be asked again, from a failure. The battle is unchanged.
func TestErrNotAllowed(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("morturi")
	b, err := p.NewBattle([]runtime.SideSpec{school("Ludi Aeternum", "la", 4), school("Malleus Deus", "md", 4, 4)},
		runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	// Ludi Aeternum has fewer gladiators: it goes first.
	tests := []struct {
		name    string
		move    func() error
		wantMsg string
	}{
		{"another side's unit", func() error { return b.Activate(ctx, "md1") },
			"Ludi Aeternum cannot activate md1 now (ready: la1)"},
		{"no such unit", func() error { return b.Activate(ctx, "nobody") },
			"Ludi Aeternum cannot activate nobody now (ready: la1)"},
		{"pass with a ready unit", func() error { return b.Pass(ctx) },
			"Ludi Aeternum may not pass while it has ready units (la1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			err = tt.move()
			if !errors.Is(err, runtime.ErrNotAllowed) {
				t.Errorf("%v; want an error wrapping ErrNotAllowed", err)
			}
			if err != nil {
				if diff := cmp.Diff(tt.wantMsg, err.Error()); diff != "" {
					t.Errorf("message (-want +got):\n%s", diff)
				}
			}
			after, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(before), string(after)); diff != "" {
				t.Errorf("the battle changed (-before +after):\n%s", diff)
			}
		})
	}
	// Ludi Aeternum activates its only gladiator; Malleus Deus activates
	// one; now Ludi Aeternum has none and must pass.
	for _, u := range []string{"la1", "md1"} {
		if err := b.Activate(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	err = b.Activate(ctx, "la1")
	if !errors.Is(err, runtime.ErrNotAllowed) {
		t.Errorf("Activate when the side must pass: %v; want ErrNotAllowed", err)
	}
	if err := b.Pass(ctx); err != nil {
		t.Fatalf("Pass when the side must: %v", err)
	}
}

// Starting a round while one is under way is ErrRoundUnderWay, the
// counterpart of ErrNoRound, for a host that receives "next round" from a
// player before the round's turns are played. The round is untouched.
func TestErrRoundUnderWay(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("necromunda")
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	before, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		call func() error
	}{
		{"StartRound", func() error { return b.StartRound(ctx) }},
		{"PlayRound", func() error { _, err := b.PlayRound(ctx); return err }},
		{"AdvanceRound", func() error { return b.AdvanceRound(ctx) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, runtime.ErrRoundUnderWay) {
				t.Errorf("%v; want an error wrapping ErrRoundUnderWay", err)
			}
			if err != nil {
				want := "round 1 has not ended: end it with EndRound, or undo it with AbortRound"
				if diff := cmp.Diff(want, err.Error()); diff != "" {
					t.Errorf("message (-want +got):\n%s", diff)
				}
			}
			after, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(before), string(after)); diff != "" {
				t.Errorf("the battle changed (-before +after):\n%s", diff)
			}
		})
	}
}
