package runtime_test

import (
	"context"
	"errors"
	"testing"

	"github.com/turnorder/turnorder/runtime"
)

// With no round under way, before StartRound or after EndRound, the
// methods that need one return ErrNoRound, which a host can test for:
// Step does too, rather than report a round it never played as done. A
// round under way whose turns are over is ErrRoundOver for Activate and
// Pass, and done for Step.
func TestErrNoRound(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("morturi")
	b, err := p.NewBattle([]runtime.SideSpec{school("Ludi Aeternum", "la", 3), school("Malleus Deus", "md", 5)},
		runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	noRound := func(when string) {
		t.Helper()
		if done, err := b.Step(ctx); done || !errors.Is(err, runtime.ErrNoRound) {
			t.Errorf("%s: Step = %v, %v; want ErrNoRound", when, done, err)
		}
		if err := b.Activate(ctx, "la1"); !errors.Is(err, runtime.ErrNoRound) {
			t.Errorf("%s: Activate: %v; want ErrNoRound", when, err)
		}
		if err := b.Pass(ctx); !errors.Is(err, runtime.ErrNoRound) {
			t.Errorf("%s: Pass: %v; want ErrNoRound", when, err)
		}
		if _, err := b.EndRound(ctx); !errors.Is(err, runtime.ErrNoRound) {
			t.Errorf("%s: EndRound: %v; want ErrNoRound", when, err)
		}
		if err := b.SetHolder("Ludi Aeternum"); !errors.Is(err, runtime.ErrNoRound) {
			t.Errorf("%s: SetHolder: %v; want ErrNoRound", when, err)
		}
		if err := b.AbortRound(); !errors.Is(err, runtime.ErrNoRound) {
			t.Errorf("%s: AbortRound: %v; want ErrNoRound", when, err)
		}
	}
	noRound("before StartRound")
	if b.Round() != 0 {
		t.Fatalf("round %d was played by calls that should have refused", b.Round())
	}

	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	for {
		done, err := b.Step(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			break
		}
	}
	// The round is under way, its turns over.
	if done, err := b.Step(ctx); !done || err != nil {
		t.Errorf("Step after the last turn = %v, %v; want done", done, err)
	}
	if err := b.Pass(ctx); !errors.Is(err, runtime.ErrRoundOver) {
		t.Errorf("Pass after the last turn: %v; want ErrRoundOver", err)
	}
	if err := b.Activate(ctx, "la1"); !errors.Is(err, runtime.ErrRoundOver) {
		t.Errorf("Activate after the last turn: %v; want ErrRoundOver", err)
	}
	if _, err := b.EndRound(ctx); err != nil {
		t.Fatal(err)
	}
	noRound("after EndRound")

	// The message still says what was called.
	if _, err := b.Step(ctx); err == nil || err.Error() != "Step: no round is under way" {
		t.Errorf("Step: %v", err)
	}
}
