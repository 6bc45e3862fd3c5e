package conformance_test

import (
	"context"
	"slices"
	"testing"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// The bundled mesbg has no special rule of its own, so a scenario of the
// suite cannot see where one is resolved. This test adds one, the way a
// house-rule author would, at the point the ruleset gives for it:
//
//	"After Priority has been determined, any special rules that come into
//	play during the Priority Phase are resolved here."
//
// The rule runs after the roll-off and the choice, before the end of the
// Priority Phase, and what it does (here: Rob takes Priority) stands.
const afterPriority = `  on end of step "Roll For Priority" {
    holder = "Rob"
  }

  example {`

const afterPriorityScenario = `
scenario "A special rule resolved after Priority has been determined" {
  ruleset mesbg
  quote "After Priority has been determined, any special rules that come into play during the Priority Phase are resolved here."
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 2
    Jay chooses Jay
    expect chooser Jay
    expect holder Rob
    expect event hook "Roll For Priority"
    expect event hook end
  }
}
`

func TestMESBGSpecialRulesAfterPriority(t *testing.T) {
	p := mutant(t, "mesbg", "  example {", afterPriority)

	// As a scenario.
	f, diags := dsl.Parse("after-priority.rules", []byte(afterPriorityScenario))
	if diags.HasErrors() {
		t.Fatal(diags.Render(afterPriorityScenario))
	}
	load := func(name, from string) (*runtime.Program, error) { return p, nil }
	results := conformance.RunFile(context.Background(), f, conformance.Options{Load: load})
	if len(results) != 1 {
		t.Fatalf("%d results, want 1", len(results))
	}
	for _, r := range results {
		for _, fl := range r.Failures {
			t.Error(fl)
		}
	}

	// And in the order of the transcript: the roll-off and the choice, then
	// the special rule, then the end of the phase.
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	decider := runtime.NewScriptedDecider()
	decider.Add("Jay", "Jay")
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(decider))
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range res.Events {
		switch {
		case e.Kind == runtime.EvHook:
			kinds = append(kinds, "hook "+e.Subject)
		case e.Kind == runtime.EvRoll, e.Kind == runtime.EvDecision, e.Kind == runtime.EvPlacement:
			kinds = append(kinds, string(e.Kind))
		}
	}
	want := []string{"hook start", "roll", "roll", "decision", "placement", "placement", "hook Roll For Priority", "hook end"}
	if !slices.Equal(kinds, want) {
		t.Errorf("events %q, want %q", kinds, want)
	}
	if res.Holder != "Rob" || res.Chooser != "Jay" {
		t.Errorf("holder %s, chooser %s; want Rob (the special rule), Jay (the roll-off)", res.Holder, res.Chooser)
	}
}
