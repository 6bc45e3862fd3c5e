package runtime_test

// `pass allowed when COND`: a condition on passing, worked out for the
// side whose turn it is.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// fewerMayPass is the condition of games where only the side with fewer
// units left to activate may pass.
const fewerMayPass = "count(units, .ready) < max(map(sides, count(.units, .ready)))"

func startFewer(t *testing.T, cond string, opts ...runtime.BattleOption) *runtime.Battle {
	t.Helper()
	p := compileInline(t, fmt.Sprintf(passRules, "pass allowed when "+cond))
	opts = append([]runtime.BattleOption{runtime.WithDice(runtime.NewScriptedDice())}, opts...)
	b, err := p.NewBattle(fewerSides(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	return b
}

// Each turn offers a pass only while the side has fewer units left than
// the side with the most; a pass the condition forbids is refused, saying
// the condition, and changes nothing.
func TestPassAllowedWhen(t *testing.T) {
	ctx := context.Background()
	b := startFewer(t, fewerMayPass)
	refused := "B may not pass now: it may pass only when `" + fewerMayPass + "`, and that is false for it (ready: b1, b2, b3)"
	steps := []struct {
		side    string
		canPass bool
		do      string // a unit to activate, or pass
		refused string // the error the pass gets, if it is refused
	}{
		{"A", true, "pass", ""}, // 2 left against 3
		{"B", false, "pass", refused},
		{"B", false, "b1", ""},
		{"A", false, "a1", ""}, // 2 against 2
		{"B", false, "b2", ""}, // 2 against 1
		{"A", false, "a2", ""}, // 1 against 1
		{"B", false, "b3", ""},
	}
	for i, s := range steps {
		turn := b.Next()
		if turn == nil || turn.Side != s.side || turn.CanPass != s.canPass || turn.MustPass {
			t.Fatalf("step %d: Next() = %+v, want %s with CanPass %v", i, turn, s.side, s.canPass)
		}
		var err error
		if s.do == "pass" {
			err = b.Pass(ctx)
		} else {
			err = b.Activate(ctx, s.do)
		}
		switch {
		case s.refused == "" && err != nil:
			t.Fatalf("step %d: %s %s: %v", i, s.side, s.do, err)
		case s.refused != "" && (err == nil || err.Error() != s.refused || !errors.Is(err, runtime.ErrNotAllowed)):
			t.Fatalf("step %d: %s passes: %v, want ErrNotAllowed: %s", i, s.side, err, s.refused)
		}
	}
	if turn := b.Next(); turn != nil {
		t.Errorf("after every unit: Next() = %+v", turn)
	}
	want := []runtime.ActivationRecord{
		pass("A"), act("B", "b1"), act("A", "a1"), act("B", "b2"), act("A", "a2"), act("B", "b3"),
	}
	if diff := cmp.Diff(want, b.Activations()); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}
}

// A decider is offered pass only where the condition holds, and told the
// condition where it does not; a side that may not pass is asked nothing
// about its last unit. Answering pass where it is not offered is refused,
// with the condition.
func TestPassAllowedWhenDecisions(t *testing.T) {
	ctx := context.Background()
	dec := runtime.NewScriptedDecider()
	dec.Add("A", "pass")
	dec.Add("B", "b1")
	dec.Add("A", "a1")
	dec.Add("B", "b2")
	log := &decisionLog{next: dec}
	b := startFewer(t, fewerMayPass, runtime.WithDecider(log))
	playLoop(t, ctx, b)

	type asked struct {
		By       string
		Options  []string
		PassWhen string
	}
	var got []asked
	for _, d := range log.asked {
		got = append(got, asked{d.By, d.Options, d.PassWhen})
	}
	want := []asked{
		{"A", []string{"a1", "a2", "pass"}, ""},
		{"B", []string{"b1", "b2", "b3"}, fewerMayPass},
		{"A", []string{"a1", "a2"}, fewerMayPass},
		{"B", []string{"b2", "b3"}, fewerMayPass},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decisions (-want +got):\n%s", diff)
	}
	wantActs := []runtime.ActivationRecord{
		pass("A"), act("B", "b1"), act("A", "a1"), act("B", "b2"), act("A", "a2"), act("B", "b3"),
	}
	if diff := cmp.Diff(wantActs, b.Activations()); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}

	tail := `: B may pass only when ` + "`" + fewerMayPass + "`" + `, and that is false for it now`
	for _, tc := range []struct {
		name    string
		decider runtime.Decider
		want    string
	}{
		{"scripted", func() runtime.Decider {
			s := runtime.NewScriptedDecider()
			s.Add("A", "pass")
			s.Add("B", "pass")
			return s
		}(), `B chooses a unit to activate among b1, b2, b3: answer "pass" is not valid (options: b1, b2, b3)` + tail},
		{"decider", runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
			return []string{"pass"}, nil
		}), `round 1: B chooses a unit to activate among b1, b2, b3: answer "pass" is not valid (options: b1, b2, b3)` + tail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := startFewer(t, fewerMayPass, runtime.WithDecider(tc.decider))
			if _, err := b.Step(ctx); err != nil {
				t.Fatalf("A passes: %v", err)
			}
			_, err := b.Step(ctx)
			if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
				t.Fatalf("B passes: %v\nwant an error ending %s", err, tc.want)
			}
			if diff := cmp.Diff([]runtime.ActivationRecord{pass("A")}, b.Activations()); diff != "" {
				t.Errorf("activations (-want +got):\n%s", diff)
			}
		})
	}
}

// A condition that fails in play, or gives no bool, is an error of its
// rule from Step and Pass, not a panic and not a pass silently refused.
// Next, which returns no error, offers no pass; an activation, which needs
// no answer to it, goes on.
func TestPassAllowedWhenFails(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		cond, want string
	}{
		{"units[2].ready", "inline.rules:11:59: pass allowed when `units[2].ready` for A: index out of range: 2 (array length is 2)"},
		{"get(units, 5)?.ready", "inline.rules:11:54: pass allowed when `get(units, 5)?.ready` for A is nil, not true or false"},
	} {
		t.Run(tc.cond, func(t *testing.T) {
			b := startFewer(t, tc.cond)
			turn := b.Next()
			if turn == nil || turn.Side != "A" || turn.CanPass {
				t.Fatalf("Next() = %+v, want A's turn without a pass", turn)
			}
			for what, play := range map[string]func() error{
				"Step": func() error { _, err := b.Step(ctx); return err },
				"Pass": func() error { return b.Pass(ctx) },
			} {
				err := play()
				var re *runtime.RuleError
				if !errors.As(err, &re) || err.Error() != tc.want {
					t.Errorf("%s: %v\nwant the RuleError %s", what, err, tc.want)
				}
			}
			if len(b.Activations()) != 0 {
				t.Errorf("activations after the errors: %v", b.Activations())
			}
			if err := b.Activate(ctx, "a1"); err != nil {
				t.Errorf("Activate a1: %v", err)
			}
		})
	}
}

// The condition is worked out when the turn is asked about, so a change
// the host makes between turns counts at once.
func TestPassAllowedWhenReadsTheBattleNow(t *testing.T) {
	ctx := context.Background()
	b := startFewer(t, "rank < 2 && round == 1")
	var got []bool
	for _, rank := range []int{1, 5, 1} {
		if err := b.SetAttr(ctx, "A", "rank", rank); err != nil {
			t.Fatal(err)
		}
		got = append(got, b.Next().CanPass)
	}
	if diff := cmp.Diff([]bool{true, false, true}, got); diff != "" {
		t.Errorf("A's CanPass with rank 1, 5, 1 (-want +got):\n%s", diff)
	}
}
