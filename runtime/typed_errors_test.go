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
			before := snapshot(t, b)
			refused(t, tt.move(), runtime.ErrNotAllowed, tt.wantMsg)
			unchanged(t, b, before)
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
	before := snapshot(t, b)
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
			refused(t, tt.call(), runtime.ErrRoundUnderWay, "round 1 has not ended: end it with EndRound, or undo it with AbortRound")
			unchanged(t, b, before)
		})
	}
}

// A round AbortRound cannot undo is ErrCannotAbort, so that a host can
// tell it from a battle with no round under way (ErrNoRound) and go on
// with the round as it is. The messages are unchanged, and nothing is.
func TestErrCannotAbort(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("mesbg")
	tests := []struct {
		name    string
		battle  func(t *testing.T) *runtime.Battle
		wantMsg string
	}{
		{"restored in mid-round", func(t *testing.T) *runtime.Battle {
			_, _, data := midRound(t, "mesbg", 1)
			r, err := p.Restore(data)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}, "round 1 cannot be aborted: the battle was restored after it started"},
		{"a clone used the scripted dice", func(t *testing.T) *runtime.Battle {
			dice := runtime.NewScriptedDice()
			for range 2 {
				dice.AddRoll("Jay", 5)
				dice.AddRoll("Rob", 2)
			}
			b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
			if err != nil {
				t.Fatal(err)
			}
			c := b.Clone()
			if err := b.StartRound(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := c.PlayRound(ctx); err != nil {
				t.Fatal(err)
			}
			return b
		}, "round 1 cannot be aborted: another battle has used the same scripted dice since it started"},
		{"a clone used the scripted decider", func(t *testing.T) *runtime.Battle {
			dec := runtime.NewScriptedDecider()
			dec.Add("Jay", "Jay")
			dec.Add("Jay", "Rob")
			b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(7)), runtime.WithDecider(dec))
			if err != nil {
				t.Fatal(err)
			}
			c := b.Clone()
			if err := b.StartRound(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := c.PlayRound(ctx); err != nil {
				t.Fatal(err)
			}
			return b
		}, "round 1 cannot be aborted: another battle has used the same scripted decider since it started"},
		{"a clone made in the round, sharing the scripted dice", func(t *testing.T) *runtime.Battle {
			dice := runtime.NewScriptedDice()
			dice.AddRoll("Jay", 5)
			dice.AddRoll("Rob", 2)
			b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
			if err != nil {
				t.Fatal(err)
			}
			if err := b.StartRound(ctx); err != nil {
				t.Fatal(err)
			}
			// The script's record of the round is b's: the clone cannot
			// script the round again with it.
			return b.Clone()
		}, "round 1 cannot be aborted: another battle has used the same scripted dice since it started"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.battle(t)
			before := snapshot(t, b)
			err := b.AbortRound()
			refused(t, err, runtime.ErrCannotAbort, tt.wantMsg)
			if errors.Is(err, runtime.ErrNoRound) {
				t.Errorf("AbortRound: %v is ErrNoRound too", err)
			}
			unchanged(t, b, before)
		})
	}
}

// SetHolder before the main order was ever made (a special rule at the
// start of round 1) is ErrNoOrder, apart from a holder who is not in the
// order (ErrInvalidChange) and no round at all (ErrNoRound). At the start
// of round 2 last round's order is there to put the holder first in.
func TestErrNoOrder(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("mesbg")
	var got []error
	hook := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
		if at == (runtime.HookPoint{Edge: "start", Kind: "round"}) {
			got = append(got, b.SetHolder("Rob"))
		}
		return nil
	}
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(7)), runtime.WithHook(hook))
	if err != nil {
		t.Fatal(err)
	}
	errNoRound := b.SetHolder("Rob")
	for range 2 {
		if _, err := b.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 2 {
		t.Fatalf("the hook ran %d times, want 2", len(got))
	}
	tests := []struct {
		name    string
		err     error
		want    error // nil: no error
		wantMsg string
	}{
		{"before round 1", errNoRound, runtime.ErrNoRound, "holder Rob: no round is under way"},
		{"start of round 1", got[0], runtime.ErrNoOrder,
			"holder Rob: order priority is not made yet (set the holder once it is, such as at the end of its step)"},
		{"start of round 2", got[1], nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == nil {
				if tt.err != nil {
					t.Fatalf("SetHolder: %v", tt.err)
				}
				return
			}
			refused(t, tt.err, tt.want, tt.wantMsg)
			for _, other := range []error{runtime.ErrNoRound, runtime.ErrNoOrder, runtime.ErrInvalidChange} {
				if other != tt.want && errors.Is(tt.err, other) {
					t.Errorf("SetHolder: %v is %v too", tt.err, other)
				}
			}
		})
	}
	if errors.Is(b.SetHolder("Nobody"), runtime.ErrNoOrder) {
		t.Error("SetHolder of nobody after the round: ErrNoOrder")
	}
}

// refused checks that err wraps want, with the message wantMsg.
func refused(t *testing.T, err, want error, wantMsg string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%v; want an error wrapping %v", err, want)
	}
	if err != nil {
		if diff := cmp.Diff(wantMsg, err.Error()); diff != "" {
			t.Errorf("message (-want +got):\n%s", diff)
		}
	}
}

// unchanged checks that b's snapshot is still before.
func unchanged(t *testing.T, b *runtime.Battle, before string) {
	t.Helper()
	if diff := cmp.Diff(before, snapshot(t, b)); diff != "" {
		t.Errorf("the battle changed (-before +after):\n%s", diff)
	}
}
