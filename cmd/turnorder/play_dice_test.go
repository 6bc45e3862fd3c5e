package main

// Tests of the dice typed at the table: results refused and asked again,
// and the draw from the bag.

import "testing"

// A die result no D6 can show is refused, the question is asked again, and
// the round finishes with the answers given.
func TestPlayRejectsBadDie(t *testing.T) {
	r := runCmd(t, "4\n7\n2\n1\n", "play", "mesbg", "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1, priority: Jay rolls d6: 4\n",
		"Round 1, priority: Rob rolls d6: 7\n  7 is not a result of d6 (1-6)\nRound 1, priority: Rob rolls d6: 2\n",
		"Round 1, priority: Jay chooses who goes first:\n  1. Jay\n  2. Rob\nJay chooses [Jay]: 1\n",
		"  → order: Jay, Rob   holder: Jay   chooser: Jay\n",
	}, notStdout: []string{"another round?", "Round 2"}}.check(t, r)
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
}

func TestPlayRefusesGarbage(t *testing.T) {
	r := runCmd(t, "six\n\n-1\n6\n0\n3\n5\nRob\n", "play", "mesbg", "--rounds", "1")
	expectation{code: 0, stdout: []string{
		`"six" is not a number: enter the result of d6 (1-6)`,
		"  enter the result of d6 (1-6)\n",
		"-1 is not a result of d6 (1-6)",
		"0 is not a result of d6 (1-6)",
		`"5" is not one of the options: enter a number from 1 to 2, or a name`,
		"Jay chooses [Jay]: Rob\n",
		"holder: Rob   chooser: Jay",
	}}.check(t, r)
}

// In activation draw the players say whose die came out of the bag, by
// number or name, and the side drawn chooses its unit; the last side's
// dice need no draw, nor a side's last unit a choice.
func TestPlayDraw(t *testing.T) {
	const rules = "../../examples/procedures/dice-bag.rules"
	r := runCmd(t, "2\n1\n1\n1\nJay\n1\nRob\n", "play", rules, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1: draw a die from the bag (Jay 3, Rob 2): whose colour is it?\n  1. Jay\n  2. Rob\ndrawn: 2\nRound 1: Rob activates:\n  1. r1\n  2. r2\n",
		"Round 1: draw a die from the bag (Jay 3, Rob 1): whose colour is it?\n",
		"Round 1: draw a die from the bag (Jay 1, Rob 1): whose colour is it?\n  1. Jay\n  2. Rob\ndrawn: Rob\n  Rob activates r2\n  Jay activates j3 (no draw: only Jay's dice are left in the bag)\n",
		"  → activations: Rob: r1; Jay: j1; Jay: j2; Rob: r2; Jay: j3\n",
	}, notStdout: []string{"pick at random"}}.check(t, r)
}

// A unit's name where a side is drawn, a unit of another side, or one that
// has activated: each is refused saying what to type instead.
func TestPlayDrawWrongNames(t *testing.T) {
	const rules = "../../examples/procedures/dice-bag.rules"
	r := runCmd(t, "r1\n2\nj1\npass\n1\n1\nR1\n1\n1\nj1\n1\nRob\n", "play", rules, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"drawn: r1\n  r1 is a unit: type the side whose colour came out of the bag (Jay or Rob); it then chooses which unit activates\ndrawn: 2\n",
		"Rob activates [r1]: j1\n  j1 is Jay's unit: Rob activates one of its own ready units (r1, r2)\n" +
			"Rob activates [r1]: pass\n  Rob may not pass, as it was drawn from the bag: Rob activates one of its own ready units (r1, r2)\n",
		"Jay activates [j1]: R1\n  r1 is Rob's unit: Jay activates one of its own ready units (j1, j2, j3)\n",
		"Jay activates [j2]: j1\n  j1 has activated this round: Jay activates one of its own ready units (j2, j3)\n",
		"  → activations: Rob: r1; Jay: j1; Jay: j2; Rob: r2; Jay: j3\n",
	}}.check(t, r)
}

// A declared die is rolled by naming its face, in any case; a face it does
// not have is refused, saying which it has.
func TestPlayFaces(t *testing.T) {
	const rules = "../../examples/procedures/custom-dice.rules"
	r := runCmd(t, "sword\nShield\nshield\nblank\ncrown\n", "play", rules, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1, priority: Jay rolls die priority (faces: blank (3), shield (2), crown): sword\n" +
			"  sword is not a face of die priority (faces: blank (3), shield (2), crown)\n",
		"Round 1, priority: Rob rolls die priority (faces: blank (3), shield (2), crown): shield\n",
		"Round 1, priority: Jay rolls die priority (faces: blank (3), shield (2), crown), again: blank\n",
		"  → order: Rob, Jay   holder: Rob   chooser: none\n",
	}}.check(t, r)
}

// A card is drawn by naming it, among the cards left in the deck: a card
// dealt already is refused, saying which are left; a reshuffle is shown.
func TestPlayDeck(t *testing.T) {
	const rules = "../../examples/procedures/initiative-deck.rules"
	r := runCmd(t, "4\njoker\n4\n2\n3\n1\n5\n3\njoker\n", "play", rules, "--rounds", "4")
	expectation{code: 0, stdout: []string{
		"Round 1, initiative: Rob draws from deck initiative (left: 1, 2, 3, 5, joker): joker\n",
		"Round 2, initiative: Jay draws from deck initiative (left: 1, 2, 3, 5): 4\n" +
			"  4 is not left in deck initiative (left: 1, 2, 3, 5)\n",
		"Round 3, initiative: Rob draws from deck initiative (left: 5): 5\n",
		"Round 4\n  initiative is empty: it is reshuffled (6 cards)\n" +
			"Round 4, initiative: Jay draws from deck initiative (left: 1, 2, 3, 4, 5, joker): 3\n",
		"  → order: Rob, Jay   holder: Rob   chooser: none\n",
	}, notStdout: []string{"draws 4 from"}}.check(t, r)
}
