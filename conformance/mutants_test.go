package conformance_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// The bundled scenarios catch a wrong rule: change one rule of a bundled
// ruleset and at least one scenario must fail. Each mutant below is what a
// careless edit (or a runtime bug) could do to a rule; the scenarios that
// catch it are logged.

// runWith runs the bundled suite with one ruleset replaced.
func runWith(t *testing.T, name string, p *runtime.Program) []conformance.Result {
	t.Helper()
	load := func(n, from string) (*runtime.Program, error) {
		if n == name {
			return p, nil
		}
		return conformance.Load(n, from)
	}
	results, err := conformance.RunFS(context.Background(), conformance.Suite(), conformance.Options{Load: load})
	if err != nil {
		t.Fatal(err)
	}
	return results
}

// TestScenariosCatchMutants applies each mutation alone and wants a
// scenario to fail.
func TestScenariosCatchMutants(t *testing.T) {
	mutations := []struct {
		ruleset, old, new string
		why               string
	}{
		{"mesbg", "tie: award not previous.chooser", "tie: reroll", "later ties are rerolled instead of going to the player who did not choose"},
		{"mesbg", "award not previous.chooser", "award previous.chooser", "later ties go to last turn's chooser"},
		{"mesbg", "tie when round == 1: reroll", "tie when round == 0: reroll", "a first-turn tie is not rerolled"},
		{"mesbg", "highest roll d6", "lowest roll d6", "the lower roll wins the roll-off"},
		{"mesbg", "choice first by winner", "choice first by loser", "the loser of the roll-off chooses"},

		{"necromunda", "award not previous.holder", "award previous.holder", "on a tie the holder keeps Priority"},
		{"necromunda", "len(sides) == 2 and round == 1: reroll", "len(sides) == 2 and round == 0: reroll", "a tied first roll is not rolled again"},
		{"necromunda", "tie: reroll", "tie: random", "multi-player ties are randomised instead of re-rolled"},
		{"necromunda", "highest roll d6", "lowest roll d6", "the lowest roll takes Priority"},
		{"necromunda", "unless out_of_action or seriously_injured or not_on_battlefield", "unless out_of_action or seriously_injured", "models off the battlefield get Ready markers"},
		{"necromunda", "activation alternate by priority", "activation sequential by priority", "a gang activates all its models in one go"},

		{"agi", "highest agi", "lowest agi", "the lowest AGI goes first"},
		{"agi", "turn_order until changed agi {", "turn_order each round {", "the card is rolled for again every round"},
		{"agi", "tie when same_team(tied)", "tie when !same_team(tied)", "teammates roll instead of choosing"},
		{"agi", "tie when len(tied) == 2 {", "tie when len(tied) >= 2 {", "three tied players get a before/after choice"},
		{"agi", "choice before_after by winner", "choice before_after by loser", "the loser of the AGI roll chooses"},

		{"morturi", "lowest count(units)", "highest count(units)", "the school with more gladiators goes first"},
		{"morturi", "lowest sum(units, .movement)", "highest sum(units, .movement)", "the faster school goes first"},
		{"morturi", "phase priority once", "phase priority each round", "the priority order is worked out again every battle round"},
		{"morturi", "activation alternate by priority", "activation sequential by priority", "a school activates all its gladiators in one go"},
		{"morturi", "activation alternate by priority", "activation alternate by priority pass allowed", "a school may pass while it still has gladiators to activate"},
	}
	covered := map[string]bool{}
	for _, m := range mutations {
		covered[m.ruleset] = true
		t.Run(fmt.Sprintf("%s: %s -> %s", m.ruleset, m.old, m.new), func(t *testing.T) {
			results := runWith(t, m.ruleset, mutant(t, m.ruleset, m.old, m.new))
			var failed []string
			for _, r := range results {
				if !r.Passed() {
					failed = append(failed, r.Title)
				}
			}
			if len(failed) == 0 {
				t.Fatalf("no scenario fails when %s (%q -> %q): no scenario checks that rule", m.why, m.old, m.new)
			}
			t.Logf("%d scenario(s) fail when %s: %s", len(failed), m.why, strings.Join(failed, "; "))
		})
	}
	for _, name := range rulesets.Names() {
		if !covered[name] {
			t.Errorf("no mutation of the bundled ruleset %s", name)
		}
	}
}

// The unmutated suite passes, with the same Load hook the mutants use: a
// failing mutant is the mutation's doing.
func TestScenariosPassUnmutated(t *testing.T) {
	for _, name := range rulesets.Names() {
		p, err := conformance.Load(name, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runWith(t, name, p) {
			if !r.Passed() {
				t.Errorf("%s: %s fails unmutated: %v", name, r.Title, r.Failures)
			}
		}
	}
}
