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
		// A bag holds tokens, a deck cards; a side's own says whose.
		{runtime.Event{Kind: runtime.EvReshuffle, From: "chaos", Subject: "Jay", Value: new(8), Detail: "each round", Rule: "bag chaos"},
			"Jay's chaos is reshuffled for the new round (8 tokens)"},
		{runtime.Event{Kind: runtime.EvReshuffle, From: "cards", Value: new(13), Detail: "when empty", Rule: "deck cards"},
			"cards is empty: it is reshuffled (13 cards)"},
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

func placementsOf(evs []runtime.Event) []placement {
	var out []placement
	for _, e := range evs {
		if e.Kind == runtime.EvPlacement {
			rule := e.Rule
			if e.By != "" {
				rule += " (" + e.By + " chose)"
			}
			out = append(out, placement{Place: e.Place, Subject: e.Subject, Rule: rule, Pos: e.Pos})
		}
	}
	return out
}

func whyOf(evs []runtime.Event, kinds ...runtime.EventKind) []why {
	var out []why
	for _, e := range evs {
		if e.Kind == runtime.EvDecision && e.Detail == string(runtime.ChooseActivation) {
			continue
		}
		for _, k := range kinds {
			if e.Kind == k {
				out = append(out, why{Kind: e.Kind, Subject: e.Subject, Rule: e.Rule, Pos: e.Pos})
			}
		}
	}
	return out
}

// scriptedRound is one round's scripted dice and decisions, and what the
// round must give.
type scriptedRound struct {
	rolls   []roll
	picks   []string
	answers []answer

	order      []string
	holder     string
	chooser    string
	events     []string    // briefEvents of the round
	placements []placement // nil: not checked
	why        []why       // whyOf(events, award, reroll, random, tie); nil: not checked
}

// playScripted plays rounds with scripted dice and decisions (dec may add
// a fallback for activations) and checks each round.
func playScripted(t *testing.T, p *runtime.Program, sides []runtime.SideSpec, dec runtime.Decider, rounds []scriptedRound) *runtime.Battle {
	t.Helper()
	dice := runtime.NewScriptedDice()
	decider := runtime.NewScriptedDecider()
	decider.Fallback = dec
	b, err := p.NewBattle(sides, runtime.WithDice(dice), runtime.WithDecider(decider))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i, r := range rounds {
		for _, x := range r.rolls {
			dice.AddRoll(x.who, x.v)
		}
		for _, x := range r.picks {
			dice.AddPick(x)
		}
		for _, x := range r.answers {
			decider.Add(x.who, x.ans...)
		}
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatalf("round %d: %v", i+1, err)
		}
		if res.Round != i+1 {
			t.Errorf("round %d: result says round %d", i+1, res.Round)
		}
		if diff := cmp.Diff(r.order, res.Order); diff != "" {
			t.Errorf("round %d: order (-want +got):\n%s", i+1, diff)
		}
		if diff := cmp.Diff(r.holder, res.Holder); diff != "" {
			t.Errorf("round %d: holder (-want +got):\n%s", i+1, diff)
		}
		if diff := cmp.Diff(r.chooser, res.Chooser); diff != "" {
			t.Errorf("round %d: chooser (-want +got):\n%s", i+1, diff)
		}
		if diff := cmp.Diff(r.events, briefEvents(res.Events)); diff != "" {
			t.Errorf("round %d: events (-want +got):\n%s", i+1, diff)
		}
		if r.placements != nil {
			if diff := cmp.Diff(r.placements, placementsOf(res.Events)); diff != "" {
				t.Errorf("round %d: placements (-want +got):\n%s", i+1, diff)
			}
		}
		if r.why != nil {
			got := whyOf(res.Events, runtime.EvTie, runtime.EvReroll, runtime.EvAward, runtime.EvRandom, runtime.EvDecision)
			if diff := cmp.Diff(r.why, got); diff != "" {
				t.Errorf("round %d: rules of ties, rerolls, awards and decisions (-want +got):\n%s", i+1, diff)
			}
		}
		// The battle's accessors agree with the result.
		if diff := cmp.Diff(res.Order, b.Order()); diff != "" {
			t.Errorf("round %d: b.Order() differs from the result (-result +b.Order):\n%s", i+1, diff)
		}
		if b.Holder() != res.Holder || b.Chooser() != res.Chooser {
			t.Errorf("round %d: b.Holder()/b.Chooser() = %q/%q, result %q/%q", i+1, b.Holder(), b.Chooser(), res.Holder, res.Chooser)
		}
	}
	if u := dice.Unused(); len(u) > 0 {
		t.Errorf("scripted dice never used: %v", u)
	}
	if u := decider.Unused(); len(u) > 0 {
		t.Errorf("scripted decisions never used: %v", u)
	}
	return b
}

// Every event that explains an order names the rule that made it and
// where that rule is written: a placement its criterion or choice (with
// who chose), a tie its criterion, a reroll, an award and a decision their
// rule. The rounds are MESBG's, played with scripted dice and decisions,
// and each round's brief events and the battle's accessors are checked
// on the way.
func TestEventsNameTheirRule(t *testing.T) {
	p := mustProgram(t, "mesbg")
	const file = "mesbg"
	rollPos := rulePos(t, file, "highest roll d6", 0)
	rerollPos := rulePos(t, file, "reroll", 0)
	awardPos := rulePos(t, file, "award not previous.chooser", 0)
	choicePos := rulePos(t, file, "choice first by winner", 0)
	chose := func(who string) string { return "choice first by winner (" + who + " chose)" }

	tests := []struct {
		name   string
		rounds []scriptedRound
	}{
		{
			name: "Jay and Rob: Jay wins and takes priority, then a tie gives Rob the choice",
			rounds: []scriptedRound{
				{
					rolls:   []roll{{"Jay", 4}, {"Rob", 2}},
					answers: []answer{{"Jay", []string{"Jay"}}},
					order:   []string{"Jay", "Rob"}, holder: "Jay", chooser: "Jay",
					events: []string{
						"hook hook start",
						"roll Jay=4", "roll Rob=2",
						"decision Jay:Jay",
						"placement Jay", "placement Rob",
						"hook hook end",
					},
					placements: []placement{
						{1, "Jay", chose("Jay"), choicePos},
						{2, "Rob", chose("Jay"), choicePos},
					},
					why: []why{{runtime.EvDecision, "", "choice first by winner", choicePos}},
				},
				{
					// A later tie is awarded to Rob, who did not choose last turn.
					rolls:   []roll{{"Jay", 3}, {"Rob", 3}},
					answers: []answer{{"Rob", []string{"Rob"}}},
					order:   []string{"Rob", "Jay"}, holder: "Rob", chooser: "Rob",
					events: []string{
						"hook hook start",
						"roll Jay=3", "roll Rob=3",
						"tie Jay/Rob",
						"award Rob",
						"decision Rob:Rob",
						"placement Rob", "placement Jay",
						"hook hook end",
					},
					placements: []placement{
						{1, "Rob", chose("Rob"), choicePos},
						{2, "Jay", chose("Rob"), choicePos},
					},
					why: []why{
						{runtime.EvTie, "", "highest roll d6", rollPos},
						{runtime.EvAward, "Rob", "award not previous.chooser", awardPos},
						{runtime.EvDecision, "", "choice first by winner", choicePos},
					},
				},
			},
		},
		{
			name: "a tie in the first turn is rerolled",
			rounds: []scriptedRound{
				{
					rolls:   []roll{{"Jay", 3}, {"Rob", 3}, {"Jay", 5}, {"Rob", 2}},
					answers: []answer{{"Jay", []string{"Rob"}}},
					order:   []string{"Rob", "Jay"}, holder: "Rob", chooser: "Jay",
					events: []string{
						"hook hook start",
						"roll Jay=3", "roll Rob=3",
						"tie Jay/Rob",
						"reroll Jay/Rob",
						"roll Jay=5", "roll Rob=2",
						"decision Jay:Rob",
						"placement Rob", "placement Jay",
						"hook hook end",
					},
					why: []why{
						{runtime.EvTie, "", "highest roll d6", rollPos},
						{runtime.EvReroll, "", "highest roll d6", rerollPos},
						{runtime.EvDecision, "", "choice first by winner", choicePos},
					},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			playScripted(t, p, runtime.Sides("Jay", "Rob"), nil, tt.rounds)
		})
	}
}
