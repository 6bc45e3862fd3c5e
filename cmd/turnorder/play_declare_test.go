package main

// Tests of the decisions of `decide` statements as play asks for them.

import (
	"os"
	"path/filepath"
	"testing"
)

// A secret number: each side is asked in turn, told the others look
// away; an answer out of the range is refused and asked again; the
// answers are revealed together once the last is given.
func TestPlaySecretNumber(t *testing.T) {
	const rules = "../../examples/procedures/secret-bids.rules"
	r := runCmd(t, "5\n9\nsix\n2\n", "play", rules, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1: Jay decides pips in secret: the other players look away. Every side's answer is revealed together once the last is given.\n" +
			"Jay decides pips (a number from 1 to 6) [random]: 5\n" +
			"  Jay has answered; the answer stays secret until every side has answered\n" +
			"Round 1: Rob decides pips in secret: the other players look away.",
		"Rob decides pips (a number from 1 to 6) [random]: 9\n  9 is out of range: answer a number from 1 to 6\n",
		"Rob decides pips (a number from 1 to 6) [random]: six\n  \"six\" is not a number: answer a number from 1 to 6\n",
		"Rob decides pips (a number from 1 to 6) [random]: 2\n  Jay decides pips: 5\n  Rob decides pips: 2\n",
		"  → order: Rob, Jay   holder: Rob   chooser: none\n",
	}, notStdout: []string{"Rob has answered"}}.check(t, r)

	// Undone, a secret answer is not said to the table.
	r = runCmd(t, "5\nundo\n3\n2\n", "play", rules, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Rob decides pips (a number from 1 to 6) [random]: undo\n  undone: Jay's secret answer to pips\nRound 1: Jay decides pips in secret",
		"  Jay decides pips: 3\n  Rob decides pips: 2\n",
	}, notStdout: []string{"5\n  undone", "choice, 5"}}.check(t, r)
}

// A secret answer left to the dice is hidden once they have picked it,
// as one typed is, and an undo of it does not say what it was.
func TestPlaySecretRandom(t *testing.T) {
	const rules = "../../examples/procedures/secret-bids.rules"
	r := runCmd(t, "random\n5\nundo\n4\n2\n", "play", rules, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Jay decides pips (a number from 1 to 6) [random]: random\nRound 1: pick Jay's answer to pips at random",
		"random pick: 5\n  Jay has answered; its answer, picked at random, stays secret until every side has answered\n" +
			"Round 1: Rob decides pips in secret",
		"Rob decides pips (a number from 1 to 6) [random]: undo\n  undone: Jay's secret answer to pips, picked at random\n",
		"  Jay decides pips: 4\n  Rob decides pips: 2\n",
	}, notStdout: []string{"random\n  Jay has answered", "5, picked at random"}}.check(t, r)
}

// A yes/no decision: Enter takes the default, and an answer that is not
// yes or no is refused.
func TestPlayYesNo(t *testing.T) {
	const rules = "../../examples/procedures/heroic-declaration.rules"
	r := runCmd(t, "4\n2\nmaybe\ny\n", "play", rules, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1: Rob decides heroic:\nRob decides heroic (yes or no) [no]: maybe\n  \"maybe\" is not one of the options: answer yes or no\n",
		"Rob decides heroic (yes or no) [no]: y\n",
		"  Rob holds priority (set by a special rule)\n",
	}}.check(t, r)
}

// An attribute's range holds at the table too: a value out of it is
// refused, and the battle goes on as it was.
func TestPlayAttributeRange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pips.rules")
	const rules = `ruleset pips {
  sides 2
  side attribute pips int 1..6 = 3
  phase p {
    order sides as priority {
      highest pips
      tie: random
    }
  }
  example {
    side Jay
    side Rob pips = 5
  }
}
`
	if err := os.WriteFile(path, []byte(rules), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCmd(t, "set pips of Jay = 9\nset pips of Jay = 6\nn\n\n", "play", path)
	expectation{code: 0, stdout: []string{
		"another round? [Y/n/save] set pips of Jay = 9\n  set pips of Jay: 9 is out of the range of pips, 1..6\n",
		"another round? [Y/n/save] set pips of Jay = 6\n  pips of Jay is now 6",
	}}.check(t, r)
}
