package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// A Decider is given the decision's options and default as its own: one
// that writes over them (labels for a menu, a sort for display) changes
// nothing in the battle, and the answer is checked against the real
// options, so one that answers with what it wrote there is refused with
// an error instead of reaching the battle (where it panicked).
func TestDeciderOwnsItsDecision(t *testing.T) {
	ctx := context.Background()
	scrawl := func(d runtime.Decision) {
		for i := range d.Options {
			d.Options[i] = "Zed"
		}
		for i := range d.Default {
			d.Default[i] = "Zed"
		}
	}
	for _, name := range rulesets.Names() {
		t.Run(name, func(t *testing.T) {
			p := mustProgram(t, name)
			play := func(dec runtime.Decider) ([]*runtime.RoundResult, error) {
				b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(4)), runtime.WithDecider(dec))
				if err != nil {
					t.Fatal(err)
				}
				var out []*runtime.RoundResult
				for range 3 {
					r, err := b.PlayRound(ctx)
					if err != nil {
						return out, err
					}
					out = append(out, r)
				}
				return out, nil
			}
			want, err := play(runtime.Policy{})
			if err != nil {
				t.Fatal(err)
			}
			asked := 0
			labels := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
				asked++
				ans := slices.Clone(d.Default)
				scrawl(d)
				return ans, nil
			})
			got, err := play(labels)
			if err != nil {
				t.Fatalf("a decider that writes over its options after choosing: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("rounds with a decider that writes over its options (-policy +got):\n%s", diff)
			}
			if asked == 0 {
				return // nothing to decide in this ruleset's example
			}
			zed := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) (ans []string, err error) {
				scrawl(d)
				if d.Kind == runtime.ChooseOrder {
					return d.Options, nil
				}
				return []string{"Zed"}, nil
			})
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("a decider answering with what it wrote over its options: panic %v", r)
					}
				}()
				if _, err := play(zed); err == nil {
					t.Errorf("a decider answering Zed, which is no option: no error")
				} else if want := `answer "Zed`; !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %s", err, want)
				}
			}()
		})
	}
}

// A Decider may answer from a buffer it reuses: the transcript keeps each
// answer as it was given.
func TestDeciderMayReuseItsAnswer(t *testing.T) {
	ctx := context.Background()
	for _, name := range rulesets.Names() {
		t.Run(name, func(t *testing.T) {
			p := mustProgram(t, name)
			var buf []string
			var answered [][]string
			d := runtime.DeciderFunc(func(_ context.Context, d runtime.Decision) ([]string, error) {
				buf = append(buf[:0], d.Default...)
				answered = append(answered, slices.Clone(buf))
				return buf, nil
			})
			b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(5)), runtime.WithDecider(d))
			if err != nil {
				t.Fatal(err)
			}
			var got [][]string
			for range 4 {
				res, err := b.PlayRound(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range res.Events {
					if e.Kind == runtime.EvDecision {
						got = append(got, e.Choice)
					}
				}
			}
			if diff := cmp.Diff(answered, got); diff != "" {
				t.Errorf("the decision events' choices (-answered +recorded):\n%s", diff)
			}
		})
	}
}

// A nil dice source or decider, or a nil pointer or function in one, is
// the default (seeded dice, the ruleset's policies), for a new battle, a
// restored one and a clone (where the default is the original's): it
// used to panic at the first roll or decision.
func TestNilDiceAndDeciderMeanTheDefault(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "necromunda")
	play := func(t *testing.T, b *runtime.Battle) []string {
		t.Helper()
		var out []string
		for range 3 {
			res, err := b.PlayRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, strings.Join(res.Order, ","))
			for _, a := range res.Activations {
				out = append(out, a.Unit)
			}
		}
		return out
	}
	def, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	want := play(t, def)
	for _, tt := range []struct {
		name string
		opt  runtime.BattleOption
	}{
		{"WithDice(nil)", runtime.WithDice(nil)},
		{"nil *SeededDice", runtime.WithDice((*runtime.SeededDice)(nil))},
		{"nil *ScriptedDice", runtime.WithDice((*runtime.ScriptedDice)(nil))},
		{"WithDecider(nil)", runtime.WithDecider(nil)},
		{"nil DeciderFunc", runtime.WithDecider(runtime.DeciderFunc(nil))},
		{"nil *ScriptedDecider", runtime.WithDecider((*runtime.ScriptedDecider)(nil))},
		{"nil Override", runtime.WithDecider(runtime.Override(nil))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := p.NewBattle(p.Example(), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, play(t, b)); diff != "" {
				t.Errorf("new battle (-default +got):\n%s", diff)
			}
			fresh, err := p.NewBattle(p.Example())
			if err != nil {
				t.Fatal(err)
			}
			snap, err := fresh.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			r, err := p.Restore(snap, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, play(t, r)); diff != "" {
				t.Errorf("restored battle (-default +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, play(t, fresh.Clone(tt.opt))); diff != "" {
				t.Errorf("clone (-original's +got):\n%s", diff)
			}
		})
	}
}

// A Fallback that is a nil pointer or function is no fallback, as a nil
// source given to WithDice is none: the battle says what is unscripted,
// and does not panic.
func TestScriptedNilFallback(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset x {
  sides 2
  phase p each round {
    order sides as o {
      highest roll d6
      tie: reroll
      choice first by winner
    }
  }
}
`)
	for _, tt := range []struct {
		name string
		opts func() []runtime.BattleOption
	}{
		{"seeded dice", func() []runtime.BattleOption {
			return []runtime.BattleOption{runtime.WithDice(&runtime.ScriptedDice{Fallback: (*runtime.SeededDice)(nil)})}
		}},
		{"func dice", func() []runtime.BattleOption {
			return []runtime.BattleOption{runtime.WithDice(&runtime.ScriptedDice{Fallback: (*runtime.FuncDice)(nil)})}
		}},
		{"decider", func() []runtime.BattleOption {
			dice := runtime.NewScriptedDice()
			dice.AddRoll("A", 6)
			dice.AddRoll("B", 1)
			return []runtime.BattleOption{runtime.WithDice(dice), runtime.WithDecider(&runtime.ScriptedDecider{Fallback: runtime.DeciderFunc(nil)})}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := p.NewBattle(runtime.Sides("A", "B"), tt.opts()...)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			func() {
				defer func() {
					if r := recover(); r != nil {
						got = fmt.Sprint("panic: ", r)
					}
				}()
				_, err = b.PlayRound(ctx)
				got = fmt.Sprint(errors.Is(err, runtime.ErrUnscripted))
			}()
			if diff := cmp.Diff("true", got); diff != "" {
				t.Errorf("PlayRound with nothing scripted, errors.Is(err, ErrUnscripted) (-want +got):\n%s", diff)
			}
		})
	}
}

// cyclic is a host function's value that holds itself.
type cyclic struct{ Next *cyclic }

// A scripted answer the decision does not offer is a ScriptError that
// says whose answer it is and which of theirs, counted from 0 in the
// order added. It is used up: AbortRound does not script it again, so
// that a server replaying its players' answers through the script adds
// the answer asked again, and the round plays with it (it used to come
// back ahead of it, and the round failed the same way for ever).
func TestScriptedDeciderRefusedAnswer(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	dice := runtime.NewScriptedDice()
	dec := runtime.NewScriptedDecider()
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(dec))
	if err != nil {
		t.Fatal(err)
	}
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	dec.Add("Jay", "Jay")
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	// Round 2: Jay wins again and answers "before", his second answer,
	// then, asked again, "after", his third.
	dice.AddRoll("Jay", 5)
	dice.AddRoll("Rob", 1)
	dec.Add("Jay", "before")
	for i, ans := range []string{"before", "after"} {
		if i > 0 {
			dec.Add("Jay", ans)
		}
		_, err = b.PlayRound(ctx)
		se, ok := errors.AsType[*runtime.ScriptError](err)
		if !ok || !se.Answer || se.Who != "Jay" || se.Index != i+1 || se.Round != 2 {
			t.Fatalf("err = %#v, want a ScriptError for Jay's answer %d in round 2", err, i+1)
		}
		if want := `Jay chooses who goes first among Jay, Rob: answer "` + ans + `" is not valid (options: Jay, Rob)`; se.Error() != want {
			t.Errorf("message %q, want %q", se.Error(), want)
		}
		// The choice is the order's, which the round's error names.
		if re, ok := errors.AsType[*runtime.RoundError](err); !ok || re.Order != "priority" {
			t.Errorf("err = %#v, want a RoundError of order priority", err)
		}
		if n := dec.Pending("Jay"); n != 0 {
			t.Errorf("%d answers pending for Jay, want 0: the refused %q is used up", n, ans)
		}
		// The rolls are the battle's: the round, played again, asks for
		// the decision alone.
		if got := dice.Pending("Jay") + dice.Pending("Rob"); got != 0 {
			t.Errorf("%d rolls pending, want 0", got)
		}
		if q := b.Pending(); q == nil || q.Decision == nil || q.Decision.By != "Jay" {
			t.Errorf("pending %v, want Jay's decision", q)
		}
	}
	dec.Add("Jay", "Rob")
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatalf("round 2 with Jay's answer added again: %v", err)
	}
	if res.Holder != "Rob" || res.Chooser != "Jay" {
		t.Errorf("holder %s, chooser %s; want Rob, chosen by Jay", res.Holder, res.Chooser)
	}
}

// A decision, as errors name it, says before or after whom, and who goes
// when a side chooses for its unit.
func TestDecisionStringSaysBeforeWhom(t *testing.T) {
	tests := []struct {
		d    runtime.Decision
		want string
	}{
		{runtime.Decision{Kind: runtime.ChooseBeforeAfter, By: "Rob", Self: "Rob", Others: []string{"Jay"}},
			"Rob chooses to go before or after Jay"},
		{runtime.Decision{Kind: runtime.ChooseBeforeAfter, By: "Rob", Self: "Rob", Others: []string{"Jay", "Al", "Cy"}},
			"Rob chooses to go before or after Jay, Al and Cy"},
		{runtime.Decision{Kind: runtime.ChooseBeforeAfter, By: "Red", Self: "A1", Others: []string{"B1"}},
			"Red chooses whether A1 goes before or after B1"},
		// A Decision a host made itself may not say whom.
		{runtime.Decision{Kind: runtime.ChooseBeforeAfter, By: "Rob"},
			"Rob chooses to go before or after the others it is tied with"},
	}
	for _, tt := range tests {
		if got := tt.d.String(); got != tt.want {
			t.Errorf("%+v: String() = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// ScriptedDecider.Add keeps its own copy of the answer, so a host that
// builds answers in one slice does not rewrite those already queued; and
// an answer added empty (Add("Jay")) is said to be empty when it is asked
// for, not reported as the answer "" the options do not hold.
func TestScriptedDeciderAdd(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	newBattle := func(dec runtime.Decider) *runtime.Battle {
		dice := runtime.NewScriptedDice()
		dice.AddRoll("Jay", 4)
		dice.AddRoll("Rob", 2)
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(dec))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	dec := runtime.NewScriptedDecider()
	answer := []string{"Rob"}
	dec.Add("Jay", answer...)
	answer[0] = "Nobody"
	res, err := newBattle(dec).PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Holder != "Rob" {
		t.Errorf("holder %s, want Rob, whom the script named when it was added", res.Holder)
	}

	dec = runtime.NewScriptedDecider()
	dec.Add("Jay")
	if diff := cmp.Diff([]string{"Jay chooses nothing"}, dec.Unused()); diff != "" {
		t.Errorf("Unused (-want +got):\n%s", diff)
	}
	_, err = newBattle(dec).PlayRound(ctx)
	want := "round 1, order priority: Jay chooses who goes first among Jay, Rob: the scripted answer is empty (Add was given no answer)"
	if err == nil || err.Error() != want {
		t.Errorf("an empty scripted answer: %v\nwant: %s", err, want)
	}
}

// The decision asked of the roll-off's winner names him, offers both
// sides, and declares the ruleset's default (self).
func TestDecisionAskedOfTheWinner(t *testing.T) {
	p := mustProgram(t, "mesbg")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	var asked []runtime.Decision
	dec := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		asked = append(asked, d)
		return d.Default, nil
	})
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(dec))
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	type decision struct {
		Kind     runtime.DecisionKind
		By       string
		Options  []string
		Default  []string
		Round    int
		Standing string
		Line     int
	}
	var got []decision
	for _, d := range asked {
		got = append(got, decision{d.Kind, d.By, d.Options, d.Default, d.Round, d.Standing, d.Pos.Line})
	}
	pos := rulePos(t, "mesbg", "choice first by winner", 0)
	var line int
	fmt.Sscanf(pos[strings.Index(pos, ":")+1:], "%d", &line)
	want := []decision{{runtime.ChooseFirst, "Jay", []string{"Jay", "Rob"}, []string{"Jay"}, 1, "priority", line}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decisions asked (-want +got):\n%s", diff)
	}
	if res.Holder != "Jay" || res.Chooser != "Jay" {
		t.Errorf("holder/chooser = %s/%s, want Jay/Jay", res.Holder, res.Chooser)
	}
}

// A scripted run that reaches an unscripted decision fails and names it.
func TestUnscriptedDecisionIsNamed(t *testing.T) {
	p := mustProgram(t, "mesbg")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(runtime.NewScriptedDecider()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.PlayRound(context.Background())
	if err == nil {
		t.Fatal("PlayRound succeeded; want an error naming the unscripted decision")
	}
	for _, want := range []string{"unscripted decision", "Jay chooses"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}
