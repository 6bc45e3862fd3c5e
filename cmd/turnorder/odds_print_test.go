package main

// Tests of the tables odds prints.

import "testing"

// A house rule that leaves each round's odds as they were can still
// change the battle: with every tie rerolled, priority is no longer passed
// back and forth. The comparison says which, not a table of zeros alone.
func TestOddsCompareSameOdds(t *testing.T) {
	house := writeFile(t, t.TempDir(), "house.rules", `ruleset house {
  sides 2
  phase priority {
    order sides as priority {
      highest roll d6
      tie: reroll
      choice first by winner default self
    }
  }
  example {
    side Jay
    side Rob
  }
}
`)
	const same = "\nEach side holds priority exactly as often, round by round"
	r := runCmd(t, "", "odds", "mesbg", house, "--rounds", "2")
	expectation{code: 0, stdout: []string{"2      Rob   1/2  50.00%  1/2  50.00%  +0.00 pp\n" + same +
		", but who holds it from one round to the next changes: see \"Who holds priority, round by round\" above.\n"}}.check(t, r)
	r = runCmd(t, "", "odds", "mesbg", house, "--rounds", "1")
	expectation{code: 0, stdout: []string{"1      Rob   1/2  50.00%  1/2  50.00%  +0.00 pp\n" + same + ".\n"}}.check(t, r)
	// Odds that change say nothing more.
	r = runCmd(t, "", "odds", "mesbg", "../../examples/house-rules/fewer-models.rules", "--setup", "../../examples/setups/armies.rules")
	expectation{code: 0, notStdout: []string{same}}.check(t, r)
}
