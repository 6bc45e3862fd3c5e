package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// asked is a battle whose dice and decider leave every input to the host,
// played to an input it waits for.
type asked struct {
	name string
	prog *runtime.Program
	// to plays the battle to the input the test answers.
	to func(t *testing.T, b *runtime.Battle)
}

// answerWith answers the pending input, failing the test if it is refused.
func answerWith(t *testing.T, b *runtime.Battle, a runtime.Answer) {
	t.Helper()
	if err := b.Answer(context.Background(), a); err != nil {
		t.Fatalf("answer %+v to %v: %v", a, b.Pending(), err)
	}
}

// pendingFrom checks that a call stopped at an input.
func pendingFrom(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, runtime.ErrPending) {
		t.Fatalf("the call ended with %v, want it to wait for an input (ErrPending)", err)
	}
}

var (
	// necromunda's roll-off of three gangs, its first roll asked.
	rollOff = asked{"necromunda roll-off", nil, func(t *testing.T, b *runtime.Battle) {
		pendingFrom(t, b.StartRound(context.Background()))
	}}
	// mesbg's roll-off won by Jay, who chooses who goes first.
	firstChoice = asked{"mesbg choice", nil, func(t *testing.T, b *runtime.Battle) {
		pendingFrom(t, b.StartRound(context.Background()))
		answerWith(t, b, runtime.RollAnswer(5, 2))
	}}
	// necromunda's activations: Goliaths won the roll-off and activated
	// Krug; it is their turn again.
	secondTurn = asked{"necromunda activation", nil, func(t *testing.T, b *runtime.Battle) {
		ctx := context.Background()
		pendingFrom(t, b.StartRound(ctx))
		answerWith(t, b, runtime.RollAnswer(6, 2, 1))
		for _, unit := range []string{"Krug", "Mira", "Ash"} {
			if _, err := b.Step(ctx); !errors.Is(err, runtime.ErrPending) {
				t.Fatalf("Step: %v, want it to wait for the activation", err)
			}
			answerWith(t, b, runtime.ChoiceAnswer(unit))
		}
		if _, err := b.Step(ctx); !errors.Is(err, runtime.ErrPending) {
			t.Fatalf("Step: %v, want it to wait for the activation", err)
		}
	}}
	// a random order of two sides, drawn as a pick.
	randomPick = asked{"random order", nil, func(t *testing.T, b *runtime.Battle) {
		pendingFrom(t, b.StartRound(context.Background()))
	}}
)

func (a asked) battle(t *testing.T) *runtime.Battle {
	t.Helper()
	var sides []runtime.SideSpec
	p := a.prog
	switch a.name {
	case rollOff.name, secondTurn.name:
		p = mustProgram(t, "necromunda")
		sides = []runtime.SideSpec{
			{Name: "Goliaths", Units: []runtime.UnitSpec{{Name: "Krug"}, {Name: "Grath"}, {Name: "Volk"}}},
			{Name: "Eschers", Units: []runtime.UnitSpec{{Name: "Mira"}, {Name: "Sable"}}},
			{Name: "Cawdor", Units: []runtime.UnitSpec{{Name: "Ash"}, {Name: "Brand"}}},
		}
	case firstChoice.name:
		p, sides = mustProgram(t, "mesbg"), runtime.Sides("Jay", "Rob")
	case randomPick.name:
		p = compileInline(t, `ruleset coin {
  sides 2
  phase p each round {
    order sides as priority {
      random
    }
  }
}
`)
		sides = runtime.Sides("Jay", "Rob")
	}
	b, err := p.NewBattle(sides, runtime.WithDice(runtime.AskHost{}), runtime.WithDecider(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	a.to(t, b)
	if b.Pending() == nil {
		t.Fatal("the battle waits for nothing")
	}
	return b
}

// An answer the pending request does not allow is refused at once, with
// an error that says why and that errors.Is tells apart, and the battle
// is exactly as it was: its save is the same to the byte, and it waits for
// the same input, which a good answer then gives.
func TestAnswerRefused(t *testing.T) {
	pick := func(i int) *int { return &i }
	tests := []struct {
		name  string
		at    asked
		give  runtime.Answer
		is    error
		says  string
		valid runtime.Answer
	}{
		{"a die off its faces", rollOff, runtime.RollAnswer(7, 4, 2), runtime.ErrInvalidAnswer,
			"the dice rolled 7 for Goliaths, which is impossible on d6", runtime.RollAnswer(6, 4, 2)},
		{"a die of none", rollOff, runtime.RollAnswer(0, 4, 2), runtime.ErrInvalidAnswer,
			"impossible on d6", runtime.RollAnswer(6, 4, 2)},
		{"a roll for too few", rollOff, runtime.RollAnswer(4, 2), runtime.ErrInvalidAnswer,
			"2 results for 3 subjects", runtime.RollAnswer(6, 4, 2)},
		{"a choice for a roll", rollOff, runtime.ChoiceAnswer("Goliaths"), runtime.ErrInvalidAnswer,
			"answer with rolls (a total for each of Goliaths, Eschers, Cawdor)", runtime.RollAnswer(6, 4, 2)},
		{"a roll by one who does not roll", rollOff, runtime.Answer{Rolls: []int{6, 4, 2}, By: "Orks"}, runtime.ErrWrongPlayer,
			"Orks does not roll in it", runtime.Answer{Rolls: []int{6, 4, 2}, By: "Eschers"}},
		{"an option not offered", firstChoice, runtime.ChoiceAnswer("Orks"), runtime.ErrInvalidAnswer,
			`"Orks"`, runtime.ChoiceAnswer("Rob")},
		{"an answer by the wrong player", firstChoice, runtime.Answer{Choice: []string{"Rob"}, By: "Rob"}, runtime.ErrWrongPlayer,
			"Rob answered, but it is Jay's", runtime.Answer{Choice: []string{"Rob"}, By: "Jay"}},
		{"a unit that is not ready", secondTurn, runtime.ChoiceAnswer("Krug"), runtime.ErrInvalidAnswer,
			"Krug", runtime.ChoiceAnswer("Grath")},
		{"another gang's unit", secondTurn, runtime.ChoiceAnswer("Sable"), runtime.ErrInvalidAnswer,
			"Sable", runtime.ChoiceAnswer("Grath")},
		{"an activation by another gang", secondTurn, runtime.Answer{Choice: []string{"Grath"}, By: "Eschers"}, runtime.ErrWrongPlayer,
			"Eschers answered, but it is Goliaths'", runtime.Answer{Choice: []string{"Grath"}, By: "Goliaths"}},
		{"a pick out of range", randomPick, runtime.PickAnswer(2), runtime.ErrInvalidAnswer,
			"pick", runtime.PickAnswer(1)},
		{"a negative pick", randomPick, runtime.Answer{Pick: pick(-1)}, runtime.ErrInvalidAnswer,
			"pick", runtime.PickAnswer(0)},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.at.battle(t)
			before, want := snapshot(t, b), b.Pending()
			err := b.Answer(ctx, tt.give)
			switch {
			case err == nil:
				t.Fatalf("the answer %+v to %v was accepted", tt.give, want)
			case !errors.Is(err, tt.is):
				t.Errorf("Answer: %v, want errors.Is %v", err, tt.is)
			case !strings.Contains(err.Error(), tt.says) || strings.Contains(err.Error(), "\n"):
				t.Errorf("Answer: %q, want one line saying %q", err, tt.says)
			}
			if diff := cmp.Diff(before, snapshot(t, b)); diff != "" {
				t.Errorf("the save after the refused answer (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(want, b.Pending()); diff != "" {
				t.Errorf("what the battle waits for (-before +after):\n%s", diff)
			}
			answerWith(t, b, tt.valid)
			if after := snapshot(t, b); after == before {
				t.Errorf("the good answer %+v changed nothing", tt.valid)
			}
		})
	}
}

// With nothing pending, Answer, Continue and Cancel say so, and change
// nothing.
func TestAnswerWithNothingPending(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, b)
	for name, call := range map[string]func() error{
		"Answer":   func() error { return b.Answer(ctx, runtime.RollAnswer(4, 2)) },
		"Continue": func() error { return b.Continue(ctx) },
		"Cancel":   b.Cancel,
	} {
		if err := call(); !errors.Is(err, runtime.ErrNothingPending) {
			t.Errorf("%s: %v, want ErrNothingPending", name, err)
		}
	}
	if diff := cmp.Diff(before, snapshot(t, b)); diff != "" {
		t.Errorf("the battle after (-before +after):\n%s", diff)
	}
}

// While an input is pending, other calls that play are refused with
// ErrPending, naming what the battle waits for; the call that waits may be
// made again, which asks its dice or decider again.
func TestCallsWaitForThePendingInput(t *testing.T) {
	ctx := context.Background()
	b := firstChoice.battle(t)
	before := snapshot(t, b)
	calls := map[string]func() error{
		"Step":      func() error { _, err := b.Step(ctx); return err },
		"EndRound":  func() error { _, err := b.EndRound(ctx); return err },
		"SetHolder": func() error { return b.SetHolder("Rob") },
	}
	for name, call := range calls {
		err := call()
		if !errors.Is(err, runtime.ErrPending) || !strings.Contains(err.Error(), "Jay chooses who goes first") {
			t.Errorf("%s while a choice is pending: %v, want ErrPending naming the choice", name, err)
		}
	}
	if err := b.StartRound(ctx); !errors.Is(err, runtime.ErrPending) {
		t.Errorf("StartRound again, with the host still to answer: %v, want ErrPending", err)
	}
	if diff := cmp.Diff(before, snapshot(t, b)); diff != "" {
		t.Errorf("the battle after (-before +after):\n%s", diff)
	}
}

// Requests and answers are JSON for hosts in other languages: each kind of
// request says its kind and carries what it asks, and an answer reads
// back as it was written.
func TestRequestAndAnswerJSON(t *testing.T) {
	for _, tt := range []struct {
		at   asked
		want string
	}{
		{rollOff, `{"kind":"roll","roll":{"round":1,"standing":"priority","subjects":["Goliaths","Eschers","Cawdor"],"count":1,"faces":6,"attempt":0,"pos":"rulesets/necromunda.rules:23:9"}}`},
		{randomPick, `{"kind":"pick","pick":{"round":1,"standing":"priority","options":["Jay","Rob"],"pos":"inline.rules:5:7"}}`},
	} {
		t.Run(tt.at.name, func(t *testing.T) {
			got, err := json.Marshal(tt.at.battle(t).Pending())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("the request as JSON (-want +got):\n%s", diff)
			}
		})
	}
	req, err := json.Marshal(firstChoice.battle(t).Pending())
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{`"kind":"decision"`, `"decision":{"kind":"first","by":"Jay","options":["Jay","Rob"]`} {
		if !strings.Contains(string(req), part) {
			t.Errorf("the decision as JSON lacks %s:\n%s", part, req)
		}
	}
	for _, a := range []runtime.Answer{runtime.RollAnswer(6, 4, 2), runtime.PickAnswer(0), runtime.ChoiceAnswer("Rob"), {Choice: []string{"Krug"}, By: "Goliaths"}} {
		data, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var back runtime.Answer
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(a, back); diff != "" {
			t.Errorf("%s read back (-want +got):\n%s", data, diff)
		}
	}
}
