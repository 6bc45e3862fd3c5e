package main

// Tests of the changes made at the table: remove, set and is, between
// rounds, and what they do to the order.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A model that falls between rounds is removed at the table.
func TestPlayRemove(t *testing.T) {
	dir := t.TempDir()
	setup := writeFile(t, dir, "schools.rules", "side A {\n  unit a1\n  unit a2\n}\nside B {\n  unit b1\n}\n")
	// Round 1: B activates b1, A picks a1, B passes, A activates a2. Then
	// a1 falls, and round 2 has one activation for each school.
	r := runCmd(t, "a1\nremove zed\nremove a1\ny\nn\n", "play", "morturi", "--setup", setup)
	expectation{code: 0, stdout: []string{
		"no unit is called zed",
		"a1 is removed from the battle",
		"  → activations: B: b1; A: a2\n",
	}}.check(t, r)
	// Said once, at the prompt, not again under the next round's header.
	if n := strings.Count(r.stdout, "a1 is removed from the battle"); n != 1 {
		t.Errorf("the removal is said %d times, want 1:\n%s", n, r.stdout)
	}
}

// A unit's status is given or taken away at the prompt, in the words
// scenarios use ("a1 is out_of_action", "a1 is not out_of_action") or with
// set ... = true or false, and the next round's Ready markers follow it.
func TestPlayStatus(t *testing.T) {
	dir := t.TempDir()
	setup := writeFile(t, dir, "gangs.rules", "side A {\n  unit a1\n  unit a2\n}\nside B {\n  unit b1\n}\n")
	saved := filepath.Join(dir, "gangs.json")
	in := "4\n2\na1\n" +
		"set pinned of a1 = true\n" +
		"set out_of_action of a1 = yes\n" +
		"set out_of_action of a1 = true\n" +
		"a1 is out_of_action\n" +
		"a2 is seriously_injured\n" +
		"a2 is not seriously_injured\n" +
		"A is out_of_action\n" +
		"zed is out_of_action\n" +
		"b1 is pinned\n" +
		"y\n5\n2\nn\n"
	r := runCmd(t, in, "play", "necromunda", "--setup", setup, "--save", saved)
	expectation{code: 0, stdout: []string{
		"  a1 has no attribute pinned (unit attributes: none; unit statuses: out_of_action, seriously_injured, not_on_battlefield)\n",
		"  out_of_action is a status: set it to true or false, or write: a1 is out_of_action, a1 is not out_of_action\n",
		"set out_of_action of a1 = true\n  a1 is now out_of_action\n  saved to " + saved + "\n",
		"  a1 is already out_of_action\n",
		"  a2 is now seriously_injured\n",
		"  a2 is no longer seriously_injured\n",
		"  A is a side: statuses are units'\n",
		"  no unit is called zed\n",
		"  pinned is not a status (unit statuses: out_of_action, seriously_injured, not_on_battlefield)\n",
		"  a1 gets no Ready marker (out_of_action)\n  Ready: a2, b1\n",
		"  → activations: A: a2; B: b1\n",
	}, notStdout: []string{"declared: none"}}.check(t, r)
	// Said at the prompt, each change is not said again in the next round,
	// though it is one of its events.
	for _, s := range []string{"a1 is now out_of_action", "a2 is now seriously_injured", "a2 is no longer seriously_injured"} {
		if n := strings.Count(r.stdout, s); n != 1 {
			t.Errorf("%q is said %d times, want once", s, n)
		}
	}

	// The status is saved with the battle.
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Sides []struct {
			Units []struct {
				Name   string   `json:"name"`
				Status []string `json:"status"`
			} `json:"units"`
		} `json:"sides"`
	}
	if err := json.Unmarshal(data, &snap); err != nil {
		t.Fatal(err)
	}
	status := map[string][]string{}
	for _, s := range snap.Sides {
		for _, u := range s.Units {
			status[u.Name] = u.Status
		}
	}
	if !slices.Equal(status["a1"], []string{"out_of_action"}) || len(status["a2"]) != 0 || len(status["b1"]) != 0 {
		t.Errorf("saved statuses %v: want a1 out_of_action only", status)
	}
}

// A change whose recomputation fails is undone: the battle is as it was.
func TestPlayFailedChangeIsUndone(t *testing.T) {
	rules := writeFile(t, t.TempDir(), "nan.rules", `ruleset nan "NaN" {
  unit attribute agi int
  phase p {
    order units as o until changed agi {
      highest (agi - agi) / agi
      highest agi
      random
    }
  }
  example {
    side A { unit u1 agi = 1 }
    side B { unit u2 agi = 2 }
  }
}
`)
	r := runCmd(t, "set agi of u1 = 0\nset agi of u1 = 1\nn\n", "play", rules)
	expectation{code: 0, stdout: []string{
		"is NaN (such as 0 / 0), which cannot be compared: the change is undone\n",
		"  agi of u1 is already 1\n",
	}}.check(t, r)

	// A change refused before anything changed is not said to be undone.
	r = runCmd(t, "set agi of u1 = x\nremove Zed\nn\n", "play", rules)
	expectation{code: 0, stdout: []string{
		"  set agi of u1: want a whole number, got x\n",
		"  remove Zed: no unit is called Zed\n",
	}, notStdout: []string{"undone"}}.check(t, r)

	// The battle played on after a refused change is the one the message
	// play stops with speaks of: after round 2, not round 1 (the battle as
	// it was before the change).
	r = runCmd(t, "5\n5\n4\n2\nafter\nset agi of Cole = x\ny\n", "play", "agi")
	expectation{code: 0, stderr: []string{"input ended after round 2 (nothing was saved); " + keepNextTime + "\n"}, oneLine: true}.check(t, r)
	schools := writeFile(t, t.TempDir(), "schools.rules", "side A {\n  unit a1\n  unit a2\n  unit a3\n}\nside B {\n  unit b1\n}\n")
	r = runCmd(t, "a1\na2\nset movement of a1 = x\ny\n", "play", "morturi", "--setup", schools)
	expectation{code: 1, stderr: []string{"input ended in round 2, before the round was over (nothing was saved)\n"}, oneLine: true}.check(t, r)
	// A number that is not an int is said to be a number, not a string:
	// not whole, or out of range.
	r = runCmd(t, "set agi of u1 = 2.5\nset agi of u1 = 1e300\nset agi of u1 = 99999999999999999999\nn\n", "play", rules)
	expectation{code: 0, stdout: []string{
		"  set agi of u1: want a whole number, got 2.5\n",
		"  set agi of u1: 1e300 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly\n",
		"  set agi of u1: 99999999999999999999 is out of range for a whole-number attribute",
	}, notStdout: []string{"undone", "the string"}}.check(t, r)
}

// A change made at the prompt between rounds is said there, with what its
// recomputation did and why, and the next round does not say it again.
func TestPlayChangeSaidOnce(t *testing.T) {
	r := runCmd(t, "5\n5\n4\n2\nafter\nset agi of Cole = 6\nset agi of Aria = 3\ny\nn\n", "play", "agi")
	expectation{code: 0, stdout: []string{
		"another round? [Y/n/save] set agi of Cole = 6\n" +
			"  agi of Cole is now 6; the order is now Cole, Bran, Aria\n" +
			"  tie between Aria and Bran on highest agi\n" +
			"  Bran and Aria keep their places: their values have not changed since the tie was resolved\n" +
			"  turn_order #1: Cole, by highest agi = 6\n",
		"another round? [Y/n/save] set agi of Aria = 3\n" +
			"  agi of Aria is now 3\n" +
			"  turn_order #1: Cole, by highest agi = 6\n" +
			"  turn_order #2: Bran, by highest agi = 5\n" +
			"  turn_order #3: Aria, by highest agi = 3\n" +
			"another round? [Y/n/save] y\n\nRound 2\n  Ready: Aria, Bran, Cole\n",
	}}.check(t, r)
	for _, s := range []string{"agi of Cole is now 6", "agi of Aria is now 3", "Bran and Aria keep their places"} {
		if n := strings.Count(r.stdout, s); n != 1 {
			t.Errorf("%q is said %d times, want once:\n%s", s, n, r.stdout)
		}
	}
}

// An attribute set of the wrong kind, a unit's of a side, says where to set
// it instead.
func TestPlaySetOtherKindsAttr(t *testing.T) {
	r := runCmd(t, "4\n2\n\n\nset agi of A = 3\nn\n", "play", "agi")
	expectation{code: 0, stdout: []string{
		"another round? [Y/n/save] set agi of A = 3\n  set agi of A: A is a side, and agi is a unit attribute: set it of one of its units (Aria)\n",
	}}.check(t, r)
}

// At "another round?", names are taken in any case, as the prompts in a
// round take them; remove says what it takes when it is given a side, or
// nothing.
func TestPlayChangeNamesInAnyCase(t *testing.T) {
	setup := writeFile(t, t.TempDir(), "gangs.rules", "side A {\n  unit a1\n  unit a2\n  unit a3\n}\nside B {\n  unit b1\n  unit b2\n}\n")
	r := runCmd(t, "4\n2\na1\nb1\na2\nA1 is out_of_action\nset out_of_action of A1 = false\nremove\nremove a\nremove B2\nn\n", "play", "necromunda", "--setup", setup)
	expectation{code: 0, stdout: []string{
		"another round? [Y/n/save] A1 is out_of_action\n  a1 is now out_of_action\n",
		"another round? [Y/n/save] set out_of_action of A1 = false\n  a1 is no longer out_of_action\n",
		"another round? [Y/n/save] remove\n  write: remove UNIT (the battle's units: a1, a2, a3, b1, b2)\n",
		"another round? [Y/n/save] remove a\n  A is a side: remove takes a unit (A's units: a1, a2, a3)\n",
		"another round? [Y/n/save] remove B2\n  b2 is removed from the battle\n",
	}}.check(t, r)

	// An attribute too.
	r = runCmd(t, "5\n5\n4\n2\nafter\nset agi of cole = 2\nn\n", "play", "agi")
	expectation{code: 0, stdout: []string{"  agi of Cole is now 2\n"}}.check(t, r)
}

// set's example names one of the ruleset's own attributes (or statuses),
// of one of the battle's units or sides, not an attribute it may not have.
func TestPlaySetExampleIsTheRulesets(t *testing.T) {
	for _, tt := range []struct {
		in, ruleset, want string
	}{
		{"5\n5\n4\n2\nafter\nset x\nn\n", "agi", "  write: set ATTRIBUTE of NAME = VALUE (as in: set agi of Aria = 6)\n"},
		{"4\n2\n1\nset x\nn\n", "mesbg", "  write: set ATTRIBUTE of NAME = VALUE (this ruleset declares no attributes)\n"},
	} {
		t.Run(tt.ruleset, func(t *testing.T) {
			expectation{code: 0, stdout: []string{tt.want}}.check(t, runCmd(t, tt.in, "play", tt.ruleset))
		})
	}
}

// The changes of "another round?" can be made where a unit is to be
// activated, in the middle of a round: a fighter taken Out of Action is
// removed and does not activate later in the round. The prompt says what
// the change did and asks again; --save's file holds the change at once,
// so that quit there stops with it, and the battle resumed from the file
// goes on without the fighter.
func TestPlayRemoveAtActivationPrompt(t *testing.T) {
	dir := t.TempDir()
	setup := gangsSetup(t, dir)
	saved := filepath.Join(dir, "s.json")
	r := runCmd(t, "4\n2\nremove a1\nquit\n", "play", "necromunda", "--setup", setup, "--save", saved)
	expectation{code: 0, stdout: []string{
		"A activates [a1]: remove a1\n" +
			"  a1 is removed from the battle; it was Ready, and no longer activates this round\n" +
			"  saved to " + saved + "\n" +
			"Round 1: A activates:\n  1. a2\n  2. a3\nA activates [a2]: quit\n",
	}, stderr: []string{
		"stopped in round 1, at A's activation: " + saved + " holds the battle as it stands; resume it with `turnorder play necromunda --resume " + saved + " --save " + saved + "`\n",
	}, oneLine: true}.check(t, r)
	round, in, ready := savedReady(t, saved)
	if diff := cmp.Diff([]any{1, true, []string{"a2", "a3", "b1", "b2"}}, []any{round, in, ready}); diff != "" {
		t.Errorf("saved round, in mid-round, Ready (-want +got):\n%s", diff)
	}
	res := runCmd(t, "a2\nb2\n", "play", "necromunda", "--resume", saved, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"resumed from " + saved + " in round 1, at A's activation\n  Ready: a2, a3, b1, b2\n",
		"  → activations: A: a2; B: b2; A: a3; B: b1\n",
	}}.check(t, res)

	// Without --save, the change is not in a file: quit says so, and a
	// save made before the change no longer holds the battle.
	part := filepath.Join(dir, "part.json")
	r = runCmd(t, "4\n2\nsave "+part+"\nremove a1\nquit\n", "play", "necromunda", "--setup", setup)
	expectation{code: 1, stdout: []string{
		"A activates [a2]: quit\n  the battle is not saved as it stands: type save FILE first",
	}, stderr: []string{
		"input ended in round 1, before the round was over (" + part + " holds the battle as it was in round 1, at A's activation, without the changes made since)\n",
	}, oneLine: true}.check(t, r)
}

// At the activation prompt the changes are read, checked and refused in
// the words of "another round?"; what cannot be changed leaves the prompt
// as it was, and the help lists the changes.
func TestPlayChangesAtActivationPrompt(t *testing.T) {
	dir := t.TempDir()
	setup := gangsSetup(t, dir)
	tests := []struct {
		name, in string
		want     []string
		not      []string
	}{
		{"a status", "b1 is out_of_action\n", []string{
			"A activates [a1]: b1 is out_of_action\n  b1 is now out_of_action, and keeps its Ready marker this round (statuses count when a round places Ready markers); if b1 is out of the battle, type: remove b1\n",
		}, nil},
		{"a status set", "set seriously_injured of a3 = true\na3 is not seriously_injured\n", []string{
			"  a3 is now seriously_injured, and keeps its Ready marker",
			"  a3 is no longer seriously_injured\nRound 1: A activates:\n",
		}, nil},
		{"a side's status", "A is out_of_action\n", []string{"A activates [a1]: A is out_of_action\n  A is a side: statuses are units'\nA activates [a1]: "}, []string{"saved"}},
		{"a side removed", "remove B\n", []string{"A activates [a1]: remove B\n  B is a side: remove takes a unit (B's units: b1, b2)\nA activates [a1]: "}, nil},
		{"no such attribute", "set agi of a1 = 3\n", []string{"  a1 has no attribute agi (unit attributes: none; unit statuses: out_of_action, seriously_injured, not_on_battlefield)\nA activates [a1]: "}, nil},
		{"a status written wrong", "set out_of_action of a1 = yes\n", []string{"  out_of_action is a status: set it to true or false, or write: a1 is out_of_action, a1 is not out_of_action\n"}, nil},
		{"removed twice", "remove b2\nremove b2\n", []string{"  b2 is removed from the battle; it was Ready", "A activates [a1]: remove b2\n  remove b2: b2 (of B) was removed from the battle\n"}, nil},
		{"in any case", "remove A1\n", []string{"  a1 is removed from the battle"}, []string{"no unit"}},
		{"usage", "remove\nset\n", []string{"  write: remove UNIT (the battle's units: a1, a2, a3, b1, b2)\n", "  write: set ATTRIBUTE of NAME = VALUE (as in: set out_of_action of a1 = true)\n"}, []string{"is not one of the options"}},
		{"help", "help\n", []string{
			"  Enter takes a1\n  or make a change at the table (then this question is asked again):\n" +
				"  set ATTR of NAME = VALUE  change an attribute of a side or unit (as in: set out_of_action of a1 = true)\n" +
				"  UNIT is [not] STATUS      give a unit a status, or take it away (statuses: out_of_action, seriously_injured, not_on_battlefield)\n" +
				"  remove UNIT               take a fallen model out of the battle\n",
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "4\n2\n"+tt.in, "play", "necromunda", "--setup", setup)
			expectation{code: 1, stdout: tt.want, notStdout: tt.not}.check(t, r)
		})
	}

	// A unit whose name starts with a change's word: the word alone is
	// the start of its name, as it is for any option.
	settler := writeFile(t, dir, "settler.rules", "side A {\n  unit settler\n  unit a2\n}\nside B {\n  unit b1\n}\n")
	r := runCmd(t, "4\n2\nset\n", "play", "necromunda", "--setup", settler, "--rounds", "1")
	expectation{code: 0, stdout: []string{"A activates [settler]: set\n  A activates settler\n"}}.check(t, r)

	// Where an order is being made (the roll-off), no change can be made.
	r = runCmd(t, "remove a1\n4\n2\na1\nb1\na2\n", "play", "necromunda", "--setup", setup, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1, priority: A rolls d6: remove a1\n  no change can be made in the middle of a roll: an order is being made, and a change would alter what it is made of half way through; make it when a unit is to be activated, or at \"another round?\"\n",
	}, notStdout: []string{"is not a number", "is removed"}}.check(t, r)

	// The help and docs/cli.md say so.
	help := runCmd(t, "", "help", "play")
	expectation{code: 0, stdout: []string{
		"In a round, remove, add, set and is can be typed too, between two turns",
		"every activation and every change\n",
	}, notStdout: []string{"every change between rounds"}}.check(t, help)
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "- The same changes can be made in a round, between two turns") {
		t.Error("docs/cli.md does not say that the changes can be made in a round")
	}
}

// A change made in a round recomputes the orders kept until it changes,
// as between rounds: the dice it needs are asked, the activations left
// follow the new order, and while it asks no other change can be made
// (the battle can be saved, and play stop, as at any prompt). An input
// that ends then, where no file holds the battle, loses the change, and
// says so.
func TestPlayChangeInMidRoundRecomputes(t *testing.T) {
	dir := t.TempDir()
	rules := writeFile(t, dir, "speed.rules", speedRules)
	saved := filepath.Join(dir, "s.json")
	r := runCmd(t, "set speed of B = 2\nremove a1\n3\n5\nb2\na2\n", "play", rules, "--save", saved, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"A activates [a1]: set speed of B = 2\n" +
			"  tie between A and B on highest speed\n" +
			"Round 1, o: A rolls d6: remove a1\n" +
			"  no other change can be made in the middle of a roll: this one is not done until its order is made again (make the next one after it, or undo it)\n" +
			"Round 1, o: A rolls d6: 3\n" +
			"Round 1, o: B rolls d6: 5\n" +
			"  speed of B is now 2; the order is now B, A\n" +
			"  o #1: B, by highest roll d6 = 5\n" +
			"  o #2: A, by highest roll d6 = 3\n" +
			"  it is B's turn now, not A's: the turn stays at #1 in the order, which is B's place now\n" +
			"  saved to " + saved + "\n" +
			"Round 1: B activates:\n",
		"  → order: B, A   holder: B   chooser: none\n  → activations: B: b2; A: a2; B: b1; A: a1\n",
	}, notStdout: []string{"is not a number"}}.check(t, r)
	// The dice a change asks for are asked as any others: the battle can
	// be saved there, and play stop; resumed, the change is asked the rest
	// of its dice, and says what it did, as the unbroken battle does.
	mid := filepath.Join(dir, "mid.json")
	stop := runCmd(t, "set speed of B = 2\n3\nsave "+mid+"\nquit\n", "play", rules, "--save", saved)
	expectation{code: 0, stdout: []string{
		"Round 1, o: B rolls d6: save " + mid + "\n  saved to " + mid + "\nRound 1, o: B rolls d6: quit\n",
	}, stderr: []string{
		"stopped in round 1, at B's roll for o: " + mid + " holds the battle as it stands; resume it with `turnorder play " + rules + " --resume " + mid + " --save " + saved + "`\n",
	}, oneLine: true}.check(t, stop)
	res := runCmd(t, "5\nb2\na2\n", "play", rules, "--resume", mid, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"resumed from " + mid + " in round 1, at B's roll for o\n  Ready: a1, a2, b1, b2\n  order: A, B   holder: A   chooser: none\n" +
			"  the change under way: set speed of B = 2\n  rolled so far: A 3\n",
		"Round 1, o: B rolls d6: 5\n" +
			"  speed of B is now 2; the order is now B, A\n" +
			"  o #1: B, by highest roll d6 = 5\n" +
			"  o #2: A, by highest roll d6 = 3\n" +
			"  it is B's turn now, not A's: the turn stays at #1 in the order, which is B's place now\n" +
			"Round 1: B activates:\n",
	}}.check(t, res)
	if got, want := lastRound(res.stdout), lastRound(r.stdout); got != want {
		t.Errorf("the resumed battle ends otherwise than the unbroken one:\n--- unbroken\n%s--- resumed\n%s", want, got)
	}
	if n := strings.Count(r.stdout, "o #1: B, by highest roll d6 = 5"); n != 1 {
		t.Errorf("the recomputation is said %d times, want once:\n%s", n, r.stdout)
	}

	// Made at B's turn, once A has had one, a change that puts B first
	// leaves the turn with B (A, who has just moved, does not go twice in
	// a row), and play says nothing of the turn; nor does a change that
	// leaves the order as it was.
	r = runCmd(t, "a1\nset speed of B = 3\nremove b3\n", "play", rules, "--setup",
		writeFile(t, dir, "three.rules", "side A speed = 2 {\n  unit a1\n  unit a2\n  unit a3\n}\nside B speed = 1 {\n  unit b1\n  unit b2\n  unit b3\n}\n"))
	expectation{code: 1, stdout: []string{
		"B activates [b1]: set speed of B = 3\n  speed of B is now 3; the order is now B, A\n" +
			"  o #1: B, by highest speed = 3\n  o #2: A, by highest speed = 2\n" +
			"Round 1: B activates:\n  1. b1\n",
		"B activates [b1]: remove b3\n  b3 is removed from the battle; it was Ready, and no longer activates this round\nRound 1: B activates:\n",
	}, notStdout: []string{"turn now"}}.check(t, r)

	// The input ends during the change: the file holds the battle as it
	// was before it.
	os.Remove(saved)
	r = runCmd(t, "set speed of B = 2\n3\n", "play", rules, "--save", saved)
	expectation{code: 1, stderr: []string{
		"input ended during set speed of B = 2, in round 1, before it was done: the change is not saved (" + saved + " holds the battle as it was in round 1, at A's activation)\n",
	}, oneLine: true}.check(t, r)
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"speed": 1`) {
		t.Errorf("the save has the change that was not done:\n%s", data)
	}
}

// A unit joins between rounds with add unit, written as a scenario writes
// it: it takes its place in the order of units at once, and one that
// cannot join is refused, saying why.
func TestPlayAddUnit(t *testing.T) {
	rules := writeFile(t, t.TempDir(), "speed.rules", `ruleset speed {
  unit attribute agi int
  phase p {
    order units as o until changed agi {
      highest agi
    }
  }
  example {
    side A { unit u1 agi = 1 }
    side B { unit u2 agi = 2 }
  }
}
`)
	r := runCmd(t, "add unit\nadd unit u2 to A\nadd unit knight to C\nadd unit knight to A speed = 3\nadd unit \"Sir Knight\" to a agi = 3\ny\nn\n", "play", rules)
	expectation{code: 0, stdout: []string{
		"  write: add unit NAME to SIDE [ATTR = VALUE ...] [status STATUS, ...] (sides: A, B)\n",
		`  add u2 to A: the name "u2" is used twice (sides and units need names of their own)` + "\n",
		"  add knight to C: no side is called C (sides: A, B)\n",
		"  add knight to A: unit knight: unknown attribute speed (declared: agi)\n",
		"  Sir Knight joins the battle for A",
		"→ order: Sir Knight, u2, u1",
	}}.check(t, r)
}
