package runtime_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// A transcript line reads as a sentence about the battle: what happened
// (who chose, who goes first), then the rule, rather than the rule first
// as it is written.
func TestEventStringSaysWhatThenTheRule(t *testing.T) {
	for _, tt := range []struct {
		ev   runtime.Event
		want string
	}{
		{runtime.Event{Kind: runtime.EvDecision, By: "Jay", Choice: []string{"Jay"}, Detail: string(runtime.ChooseFirst)},
			"Jay chooses to go first"},
		{runtime.Event{Kind: runtime.EvDecision, By: "Jay", Choice: []string{"Rob"}, Detail: string(runtime.ChooseFirst)},
			"Jay chooses Rob to go first"},
		// Before or after whom: the others of the group, where the one who
		// chose is the one who goes (sides); a side choosing for its unit
		// names the unit (the event's Subject) and the others. An event
		// saved before it named the unit says only what the side chose.
		{runtime.Event{Kind: runtime.EvDecision, By: "Jay", Choice: []string{"before"}, Subjects: []string{"Jay", "Rob"}, Detail: string(runtime.ChooseBeforeAfter)},
			"Jay chooses to go before Rob"},
		{runtime.Event{Kind: runtime.EvDecision, By: "Cy", Choice: []string{"after"}, Subjects: []string{"Al", "Bo", "Cy"}, Detail: string(runtime.ChooseBeforeAfter)},
			"Cy chooses to go after Al and Bo"},
		{runtime.Event{Kind: runtime.EvDecision, By: "C", Choice: []string{"before"}, Subjects: []string{"Bran", "Cole"}, Detail: string(runtime.ChooseBeforeAfter)},
			"C chooses to go before"},
		{runtime.Event{Kind: runtime.EvDecision, By: "C", Subject: "Cole", Choice: []string{"before"}, Subjects: []string{"Bran", "Cole"}, Detail: string(runtime.ChooseBeforeAfter)},
			"C chooses Cole to go before Bran"},
		{runtime.Event{Kind: runtime.EvDecision, By: "C", Subject: "Cole", Choice: []string{"after"}, Subjects: []string{"Aria", "Bran", "Cole"}, Detail: string(runtime.ChooseBeforeAfter)},
			"C chooses Cole to go after Aria and Bran"},
		{runtime.Event{Kind: runtime.EvDecision, By: "Jay", Subject: "Jay", Choice: []string{"after"}, Subjects: []string{"Jay", "Rob"}, Detail: string(runtime.ChooseBeforeAfter)},
			"Jay chooses to go after Rob"},
		{runtime.Event{Kind: runtime.EvPlacement, Standing: "priority", Place: 2, Subject: "Rob", By: "Jay", Rule: "choice first by winner"},
			"priority #2: Rob, by Jay's choice (choice first by winner)"},
		{runtime.Event{Kind: runtime.EvPlacement, Standing: "turn_order", Place: 1, Subject: "Aria", By: "Eschers", Rule: "choice order by team"},
			"turn_order #1: Aria, by Eschers' choice (choice order by team)"},
		{runtime.Event{Kind: runtime.EvAward, Standing: "priority", Subject: "Jay", Rule: "award not previous.chooser", Detail: "Jay goes before Rob"},
			"Jay goes before Rob (award not previous.chooser)"},
	} {
		if diff := cmp.Diff(tt.want, tt.ev.String()); diff != "" {
			t.Errorf("%+v: (-want +got)\n%s", tt.ev, diff)
		}
	}
}

// A choice to go before or after says before whom: the decider is given
// the others of the group (for the prompt or the player's screen), and the
// transcript names them where the one who chose is the one who goes.
func TestBeforeAfterNamesTheOthers(t *testing.T) {
	p := compileInline(t, `ruleset ba "" {
  sides 3
  phase p {
    order sides as o {
      highest roll d6
      tie: reroll
      choice before_after by winner default before
    }
  }
}`)
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Al", 2)
	dice.AddRoll("Bo", 5)
	dice.AddRoll("Cy", 3)
	var asked []runtime.Decision
	b, err := p.NewBattle(runtime.Sides("Al", "Bo", "Cy"), runtime.WithDice(dice),
		runtime.WithDecider(runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
			asked = append(asked, d)
			return []string{"after"}, nil
		})))
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || asked[0].Self != "Bo" || !slices.Equal(asked[0].Others, []string{"Cy", "Al"}) {
		t.Fatalf("asked %+v, want Bo's choice, before or after Cy and Al", asked)
	}
	var said []string
	for _, e := range res.Events {
		if e.Kind == runtime.EvDecision {
			said = append(said, e.String())
		}
	}
	if diff := cmp.Diff([]string{"Bo chooses to go after Cy and Al"}, said); diff != "" {
		t.Errorf("transcript (-want +got):\n%s", diff)
	}
}
