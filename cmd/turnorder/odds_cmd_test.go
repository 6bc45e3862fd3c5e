package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/internal/longtest"
)

func TestOddsCommand(t *testing.T) {
	dir := t.TempDir()
	// A house rule made from a copy of a bundled ruleset keeps its name.
	src, err := os.ReadFile("../../rulesets/mesbg.rules")
	if err != nil {
		t.Fatal(err)
	}
	house := writeFile(t, dir, "house.rules", strings.Replace(string(src), "award not previous.chooser", "award previous.holder", 1))
	// A second order of sides, ties kept in setup order: A is first when
	// it rolls higher (15/36) or the same (6/36), 7/12 of the time.
	bidding := writeFile(t, dir, "bidding.rules", `ruleset bidding {
  sides 2
  phase priority each round {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
  phase bids each round {
    order sides as bidding {
      highest roll d6
    }
  }
  example {
    side A
    side B
  }
}
`)
	tests := []struct {
		name string
		args []string
		want expectation
	}{
		{"--order", []string{"odds", bidding, "--order", "bidding", "--rounds", "2"},
			expectation{code: 0, stdout: []string{"bidding: exact odds over 2 rounds, P(first in bidding):\n", "1      7/12  58.33%  5/12  41.67%\n2      7/12"},
				notStdout: []string{"holds priority"}}},
		{"--order of units", []string{"odds", "agi", "--order", "turn_order"},
			expectation{code: 0, stdout: []string{"P(first in turn_order)", "round  Aria         Bran         Cole\n"}}},
		{"--order unknown", []string{"odds", bidding, "--order", "biding"},
			expectation{code: 1, stderr: []string{"turnorder odds: --order biding: ruleset bidding has no order biding (its orders: priority, bidding); did you mean bidding?\n"}}},
		// A ruleset with no order at all still refuses an order it lacks,
		// rather than printing that it has no holder.
		{"--order unknown, no order at all", []string{"odds", "../../examples/procedures/no-priority.rules", "--order", "orders"},
			expectation{code: 1, stderr: []string{"turnorder odds: --order orders: ruleset order_dice has no order orders (it has no order)\n"},
				notStdout: []string{"no holder"}, oneLine: true}},
		{"--order with --sim", []string{"odds", bidding, "--order", "bidding", "--sim", "10"},
			expectation{code: 1, stderr: []string{"--order gives the exact odds of one ruleset"}, oneLine: true}},
		{"every order in JSON", []string{"odds", bidding, "--json"},
			expectation{code: 0, stdout: []string{"\"first\": {\n        \"bidding\": {\n          \"A\": \"7/12\",\n          \"B\": \"5/12\"\n        },\n        \"priority\": {\n          \"A\": \"1/2\","}}},
		// The table says what its numbers are, as the simulation's does.
		{"exact table", []string{"odds", "mesbg", "--rounds", "2"},
			expectation{code: 0, stdout: []string{"mesbg: exact odds over 2 rounds, P(holds priority):\n", "Jay → Jay  5/24"}}},
		// The winner always gives priority away: a tie in round 2 still
		// goes to the side that did not choose, so sequences change. The
		// odds are not the ruleset's own, and the output says so.
		{"policy override", []string{"odds", "mesbg", "--rounds", "2", "--policy", "first=other"},
			expectation{code: 0, stdout: []string{"1/2", "mesbg, with --policy first=other: exact odds over 2 rounds"}}},
		{"policy override, simulated", []string{"odds", "mesbg", "--sim", "100", "--policy", "first=other"},
			expectation{code: 0, stdout: []string{"mesbg, with --policy first=other: 100 simulated battles"}}},
		// An expected count of rounds reads as a number of rounds, not
		// only as a fraction.
		{"expected rounds", []string{"odds", "agi", "--rounds", "3"},
			expectation{code: 0, stdout: []string{"  A  3/2 (1.50) of 3 rounds", "  C  0 of 3 rounds"}}},
		{"compare", []string{"odds", "mesbg", "necromunda", "--sides", "A,B", "--rounds", "2"},
			expectation{code: 0, stdout: []string{"mesbg vs necromunda"}}},
		// Over three rounds, Jay → Rob → Jay is 49/288 under the text's tie
		// rule and 25/288 when the previous holder wins ties.
		{"compare a house rule of the same name", []string{"odds", "mesbg", house, "--rounds", "3"},
			expectation{code: 0, stdout: []string{"mesbg: exact", house + ": exact", "mesbg vs " + house + ",",
				"Jay → Rob → Jay  49/288", "Jay → Rob → Jay  25/288"}}},
		{"compare a house rule of the same name, JSON", []string{"odds", "mesbg", house, "--rounds", "1", "--json"},
			expectation{code: 0, stdout: []string{`"ruleset": "mesbg",` + "\n      \"label\": \"mesbg\",", `"label": "` + house + `"`}}},
		{"simulation", []string{"odds", "mesbg", "--sim", "2000", "--rounds", "2", "--seed", "3"},
			expectation{code: 0, stdout: []string{"2000 simulated battles (seed 3)", "round  Jay ", "\n2      ", "/2000  ", "% ± ", " pp  "}}},
		// Two overrides both apply: with the winner giving priority away
		// (first=other) the side with fewer models holds it 5/12, not 7/12.
		{"two policies", []string{"odds", "../../examples/house-rules/fewer-models.rules", "--setup", "../../examples/setups/armies.rules",
			"--rounds", "1", "--policy", "first=other", "--policy", "order=keep"},
			expectation{code: 0, stdout: []string{"1      5/12  41.67%  7/12  58.33%"}}},
		{"contradictory policies", []string{"odds", "mesbg", "--policy", "first=other", "--policy", "first=self"},
			expectation{code: 1, stderr: []string{`--policy "first=self": first decisions already follow other`}, oneLine: true}},
		// Two rulesets compared face the same forces: the first's example.
		{"compare different examples", []string{"odds", "mesbg", "necromunda", "--rounds", "1"},
			expectation{code: 0, stdout: []string{"mesbg vs necromunda", "1      Jay   1/2  50.00%  1/2  50.00%  +0.00 pp\n"}, oneLine: true,
				stderr: []string{"turnorder odds: note: both rulesets play the example sides of mesbg (Jay, Rob); necromunda's own example differs: to compare over other forces, name them with --setup FILE\n"}}},
		{"bad policy", []string{"odds", "mesbg", "--policy", "first=sometimes"},
			expectation{code: 1, stderr: []string{"first decisions take self, other, keep"}, oneLine: true}},
		{"bad rounds", []string{"odds", "mesbg", "--rounds", "0"},
			expectation{code: 1, stderr: []string{"--rounds must be between 1"}, oneLine: true}},
		{"no simulated battles", []string{"odds", "mesbg", "--sim", "0"},
			expectation{code: 1, stderr: []string{"--sim must be a positive number of battles (got 0); leave it out for exact odds"}, oneLine: true}},
		{"unknown ruleset", []string{"odds", "chess"},
			expectation{code: 1, stderr: []string{`unknown ruleset "chess"`}, oneLine: true}},
		{"no ruleset", []string{"odds"}, expectation{code: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, runCmd(t, "", tt.args...))
		})
	}
}

// The odds examples/procedures/README.md gives for its procedures.
func TestOddsProcedures(t *testing.T) {
	const dir = "../../examples/procedures/"
	for _, tt := range []struct {
		name string
		args []string
		want []string
	}{
		// A tie always moves the initiative: it stays 5 times in 12.
		{"initiative, a tie to the other", []string{dir + "initiative-tie-to-other.rules", "--rounds", "3"},
			[]string{"3      1/2  50.00%  1/2  50.00%", "Jay → Rob → Jay  49/288", "Jay → Jay → Jay  25/288"}},
		// Rolled for once: whoever goes first in round 1 does every round.
		{"first or second", []string{dir + "first-or-second.rules", "--rounds", "3"},
			[]string{"Jay → Jay → Jay  1/2", "Rob → Rob → Rob  1/2"}},
		// The draws are made in the activation loop, which odds plays
		// but does not report: Jay, the larger side, heads the muster.
		// It says so under the table, for the player who came for the bag.
		{"dice bag", []string{dir + "dice-bag.rules"},
			[]string{"1      1 100.00%  0   0.00%\n(dice_bag draws from a bag who activates each turn, which is not in these odds: they are of who holds priority; `turnorder run` shows each draw)\n"}},
		{"dice bag, simulated", []string{dir + "dice-bag.rules", "--sim", "10"},
			[]string{"(dice_bag draws from a bag who activates each turn"}},
		// A bag and no order of sides: nobody ever holds priority.
		{"dice bag, no priority", []string{dir + "no-priority.rules"},
			[]string{"order_dice has no order of sides: nobody holds priority, so there is no holder to tabulate"}},
		{"dice bag, no priority, simulated", []string{dir + "no-priority.rules", "--sim", "10"},
			[]string{"order_dice has no order of sides"}},
		// The Shooting roll-off is a phase's own: priority is the round's.
		{"a phase's roll-off", []string{dir + "phase-rolloff.rules", "--rounds", "2"},
			[]string{"2      1/2  50.00%  1/2  50.00%"}},
		// A heroic move, always declared or never, leaves a fair roll
		// fair; so do secret bids at random.
		{"heroic declaration, each answer", []string{dir + "heroic-declaration.rules", "--decide", "heroic=each"},
			[]string{"heroic_declaration, where heroic is yes: exact odds over 1 round, P(holds priority):\nround  Jay          Rob\n1      1/2  50.00%  1/2  50.00%\n",
				"heroic_declaration, where heroic is no: exact odds over 1 round, P(holds priority):\nround  Jay          Rob\n1      1/2  50.00%  1/2  50.00%\n"}},
		// With --order, each answer has its table too, not the first alone.
		{"heroic declaration, each answer, one order", []string{dir + "heroic-declaration.rules", "--decide", "heroic=each", "--order", "priority"},
			[]string{"heroic_declaration, where heroic is yes: exact odds over 1 round, P(first in priority):\n",
				"\n\nheroic_declaration, where heroic is no: exact odds over 1 round, P(first in priority):\n"}},
		{"secret bids", []string{dir + "secret-bids.rules"},
			[]string{"1      1/2  50.00%  1/2  50.00%"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", append([]string{"odds"}, tt.args...)...)
			expectation{code: 0, stdout: tt.want}.check(t, r)
			if !strings.Contains(tt.name, "dice bag") && strings.Contains(r.stdout, "draws from a bag") {
				t.Errorf("a ruleset without activation draw has the note of one:\n%s", r.stdout)
			}
		})
	}
}

// With --json, the note of a ruleset with no holder goes to stderr: stdout
// is the document alone.
func TestOddsJSONNoHolder(t *testing.T) {
	r := runCmd(t, "", "odds", "--json", "../../examples/procedures/no-priority.rules")
	expectation{code: 0, stderr: []string{"order_dice has no order of sides"}, notStdout: []string{"order_dice"}}.check(t, r)
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Errorf("stdout is not JSON: %v\n%s", err, r.stdout)
	}
}

// Odds too large to enumerate are refused, with a pointer to --sim.
func TestOddsTooLarge(t *testing.T) {
	src, err := os.ReadFile("../../rulesets/mesbg.rules")
	if err != nil {
		t.Fatal(err)
	}
	big := writeFile(t, t.TempDir(), "big.rules", strings.Replace(string(src), "highest roll d6", "highest roll 100d1000", 1))
	r := runCmd(t, "", "odds", big)
	expectation{code: 1, stderr: []string{
		big + ":22:9: error: round 1: 2 subjects rolling 100d1000 make too many combinations to enumerate exactly: limit reached\n",
		"turnorder odds: exact odds are out of reach here; --sim 100000 estimates them instead\n",
	}}.check(t, r)
}

// A reroll that can never break a tie is an error, not a hang.
func TestOddsNeverResolves(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "stuck.rules", `ruleset stuck {
  phase priority {
    order sides as priority {
      highest roll d1
      tie: reroll
    }
  }
}
`)
	r := runCmd(t, "", "odds", path, "--sides", "A,B")
	expectation{code: 1, stderr: []string{
		path + ":4:7: error: round 1: every roll ties again, so the reroll never ends",
		"\n          highest roll d1\n          ^\n",
	}}.check(t, r)
}

// A battle with nothing to order (a ruleset of units, and no units) is
// refused, rather than analysed as one that nobody ever holds.
func TestOddsNobody(t *testing.T) {
	r := runCmd(t, "", "odds", "agi", "--sides", "A,B", "--rounds", "2")
	expectation{code: 1, stderr: []string{
		"turnorder odds: ruleset agi orders units, and --sides names sides without any: give them units with --setup FILE",
	}, oneLine: true}.check(t, r)
	if r.stdout != "" {
		t.Errorf("stdout: %q, want nothing", r.stdout)
	}
}

// The path limit is where docs/cli.md and the help text say: five and six
// players rolling off a D6 until one wins are enumerated, eight are
// refused.
func TestOddsPathLimitRollOff(t *testing.T) {
	rolloff := writeFile(t, t.TempDir(), "rolloff.rules", `ruleset r "Roll-off" {
  sides 2..8
  phase p {
    order sides as o {
      highest roll d6
      tie: reroll
    }
  }
}
`)
	expectation{code: 0, stdout: []string{"1/5"}}.check(t, runCmd(t, "", "odds", rolloff, "--sides", "A,B,C,D,E"))
	expectation{code: 0, stdout: []string{"1/6"}}.check(t, runCmd(t, "", "odds", rolloff, "--sides", "A,B,C,D,E,F"))
	if !longtest.Enabled() {
		t.Skip("eight players take seconds to refuse: a long test")
	}
	expectation{code: 1, stderr: []string{"more than 1000000 paths", "--sim"}}.check(t, runCmd(t, "", "odds", rolloff, "--sides", "A,B,C,D,E,F,G,H"))
}

// Two players flipping from decks of thirteen cards of their own, a tie
// flipped again from what is left, have billions of paths through the
// ties: the analysis merges the states they leave, and says 1/2 for
// each.
func TestOddsFlipDecks(t *testing.T) {
	// How long it takes is BenchmarkOddsFlipDecks's to say (runtime).
	r := runCmd(t, "", "odds", "../../examples/procedures/flip-decks.rules", "--rounds", "2")
	expectation{code: 0, stdout: []string{
		"round  Jay          Rob\n1      1/2  50.00%  1/2  50.00%\n2      1/2  50.00%  1/2  50.00%\n",
		"Jay → Rob  1/4",
	}}.check(t, r)
}
