package main

// Tests of the decisions as play asks for them, and of the activations
// it refuses.

import (
	"strings"
	"testing"
)

// With `pass allowed when`, pass is offered only while the condition
// holds for the side, and typed when it does not, it is refused with the
// condition.
func TestPlayPassAllowedWhen(t *testing.T) {
	const rules = "../../examples/procedures/fewer-may-pass.rules"
	const cond = "count(units, .ready) < max(map(sides, count(.units, .ready)))"
	// Jay wins the initiative with three units to Rob's two: no pass.
	r := runCmd(t, "6\n1\npass\n1\n1\n1\n", "play", rules, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1: Jay activates:\n  1. j1\n  2. j2\n  3. j3\nJay activates [j1]: pass\n",
		"  Jay may not pass now: it may pass only when `" + cond + "`, and that is false for it; Jay activates one of its own ready units (",
		"  → activations: Jay: j1; Rob: r1; Jay: j2; Rob: r2; Jay: j3\n",
	}, notStdout: []string{"3. pass"}}.check(t, r)

	// Rob wins it with two units to Jay's three: Rob may pass, and then,
	// with two units each, nobody may.
	r = runCmd(t, "1\n6\npass\n1\n1\n1\n", "play", rules, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1: Rob activates:\n  1. r1\n  2. r2\n  3. pass\n",
		"  Rob passes (chose to pass)\n",
		"Round 1: Rob activates:\n  1. r1\n  2. r2\nRob activates",
		"  → activations: Rob passes; Jay: j1; Rob: r1; Jay: j2; Rob: r2; Jay: j3\n",
	}, notStdout: []string{"may not pass"}}.check(t, r)
}

func TestPlayBeforeAfterAndSet(t *testing.T) {
	// Aria and Bran tie on AGI across teams: they roll, Aria wins and goes
	// after. Then Cole's AGI rises to theirs: the new three-way tie is
	// rolled for at once, without a choice.
	in := "5\n5\n4\n2\nafter\nset agi of Cole = 5\n1\n2\n3\ny\nn\n"
	r := runCmd(t, in, "play", "agi")
	expectation{code: 0, stdout: []string{
		"Round 1, turn_order: Aria rolls d6 again: 4\n",
		// Before or after whom, and who goes: A's unit Aria.
		"Round 1, turn_order: A chooses whether Aria goes before or after Bran:\n  1. before\n  2. after\nA chooses [before]: after\n",
		"  → order: Bran, Aria, Cole   holder: Bran   chooser: A\n",
		"Round 2, turn_order: Cole rolls d6: 3\n",
		// The order is recomputed at once, with the dice just asked for.
		"  agi of Cole is now 5; the order is now Cole, Bran, Aria\n",
		"  → order: Cole, Bran, Aria   holder: Cole   chooser: none\n",
	}, notStdout: []string{"next round"}}.check(t, r)
	// Said once, at the prompt, with the recomputation's placements; round
	// 2 does not repeat them.
	if n := strings.Count(r.stdout, "agi of Cole is now 5"); n != 1 {
		t.Errorf("the change is said %d times, want 1:\n%s", n, r.stdout)
	}
	if !strings.Contains(r.stdout, "  agi of Cole is now 5; the order is now Cole, Bran, Aria\n  turn_order #1: Cole, by highest roll d6 = 3\n") {
		t.Errorf("the change is not followed by the recomputed placements:\n%s", r.stdout)
	}
	// The tie that asks for the dice is said before them, once, as in a
	// round.
	if !strings.Contains(r.stdout, "another round? [Y/n/save] set agi of Cole = 5\n  tie between Aria, Bran and Cole on highest agi\nRound 2, turn_order: Aria rolls d6: 1\n") {
		t.Errorf("the tie is not said before the dice it asks for:\n%s", r.stdout)
	}
	if n := strings.Count(r.stdout, "tie between Aria, Bran and Cole"); n != 1 {
		t.Errorf("the tie is said %d times, want 1:\n%s", n, r.stdout)
	}
	if !strings.Contains(r.stdout, "\nRound 2\n  Ready: ") {
		t.Errorf("round 2 does not open with its own events:\n%s", r.stdout)
	}

	// An arrangement too: the tie within a team, then the question.
	r = runCmd(t, "5\n5\n4\n2\nafter\nset agi of Aria = 3\nCole\nn\n", "play", "agi")
	expectation{code: 0, stdout: []string{
		"another round? [Y/n/save] set agi of Aria = 3\n  tie between Aria and Cole on highest agi\nRound 2, turn_order: Red arranges Aria and Cole, first to last:\n",
		"Red arranges [Aria, Cole]: Cole\n  agi of Aria is now 3; the order is now Bran, Cole, Aria\n  turn_order #1: Bran, by highest agi = 5\n",
	}}.check(t, r)

	// Recomputed into the order it had: the message says so.
	in = "5\n5\n4\n2\nafter\nset agi of Cole = 5\n2\n3\n1\nn\n"
	r = runCmd(t, in, "play", "agi")
	expectation{code: 0, stdout: []string{
		"  → order: Bran, Aria, Cole   holder: Bran   chooser: A\n",
		"  agi of Cole is now 5; the order is recomputed and stays Bran, Aria, Cole\n",
	}, notStdout: []string{"next round"}}.check(t, r)

	// A change that leaves the order as it was: no order is named, but
	// what the recomputation did is shown.
	in = "5\n5\n4\n2\nafter\nset agi of Cole = 2\nn\n"
	r = runCmd(t, in, "play", "agi")
	expectation{code: 0, stdout: []string{"  agi of Cole is now 2\n  tie between Aria and Bran on highest agi\n  Bran and Aria keep their places: their values have not changed since the tie was resolved\n"}}.check(t, r)

	// A side that goes itself chooses to go before or after the others.
	r = runCmd(t, "2\n5\nafter\n", "play", "../../examples/procedures/first-or-second.rules", "--rounds", "1")
	expectation{code: 1, stdout: []string{"Round 1, turn_order: Rob chooses to go before or after Jay:\n  1. before\n  2. after\n"}}.check(t, r)
}

// A gang's name ending in s takes an apostrophe alone: "Eschers' unit".
func TestPlayOtherGangsUnit(t *testing.T) {
	r := runCmd(t, "4\n2\nMira\n1\n\n\n\n\n\n", "play", "necromunda", "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Goliaths activates [Krug]: Mira\n  Mira is Eschers' unit: Goliaths activates one of its own ready units (Krug, Grath, Volk)\n",
	}}.check(t, r)

	// A unit of its own that cannot activate is refused in the same
	// words, saying why: it has activated, or the round gave it no Ready
	// marker (and why, as the round said it).
	r = runCmd(t, "4\n2\n\n\n\n\nKrug is out_of_action\ny\n4\n2\nKrug\nGrath\nMira\nMira\nGrath\n1\nn\n\n", "play", "necromunda")
	expectation{code: 0, stdout: []string{
		"Goliaths activates [Grath]: Krug\n  Krug got no Ready marker this round (out_of_action): Goliaths activates one of its own ready units (Grath, Volk)\n",
		"Eschers activates [Sable]: Mira\n  Mira has activated this round: Eschers activates one of its own ready units (Sable, Vex)\n",
		"Eschers activates [Sable]: Grath\n  Grath is Goliaths' unit: Eschers activates one of its own ready units (Sable, Vex)\n",
	}, notStdout: []string{"has no Ready marker"}}.check(t, r)

	// A unit removed in the round is said to be, not "not one of the
	// options".
	r = runCmd(t, "4\n2\nremove grath\ngrath\n\n\n\n", "play", "necromunda", "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Goliaths activates [Krug]: grath\n  Grath was removed from the battle this round: Goliaths activates one of its own ready units (Krug, Volk)\n",
	}, notStdout: []string{"not one of the options"}}.check(t, r)
}

// A unit removed in an earlier round, typed at the activation prompt, is
// said to be removed, in the words the runtime refuses it in (naming its
// side, as the round's transcript no longer does), not "not one of the
// options".
func TestPlayUnitRemovedBeforeTheRound(t *testing.T) {
	r := runCmd(t, "4\n2\n\n\n\n\nremove Grath\ny\n4\n2\nGrath\n\n\n\nn\n\n", "play", "necromunda")
	expectation{code: 0, stdout: []string{
		"Goliaths activates [Krug]: Grath\n  Grath (of Goliaths) was removed from the battle: Goliaths activates one of its own ready units (Krug, Volk)\n",
	}, notStdout: []string{"not one of the options"}}.check(t, r)
}

// Each phase's activation loop is asked in its phase's name, and the
// round's activations say where each loop begins.
func TestPlayPhaseLoops(t *testing.T) {
	r := runCmd(t, "6\n2\n1\n1\n3\n5\n1\n1\n1\n1\n", "play", "../../examples/procedures/phase-rolloff.rules", "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1, Movement: Jay activates:\n",
		"Round 1, Shooting: Rob activates:\n",
		"  Rob goes first in Fight (first = find(sides, .name != holder).name)\n",
		"  → activations: (Movement) Jay: j1; Rob: r1; Jay: j2; Rob: r2; (Shooting) Rob: r1; Jay: j1; Rob: r2; Jay: j2; (Fight) Rob: r1; Jay: j1; Rob: r2; Jay: j2\n",
	}}.check(t, r)
}
