package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// When the input ends before the round does, play stops cleanly.
func TestPlayInputEnded(t *testing.T) {
	r := runCmd(t, "4\n", "play", "mesbg", "--rounds", "1")
	expectation{code: 1, stderr: []string{"turnorder play: input ended in round 1"}, oneLine: true}.check(t, r)

	// Asked for another round, the end of the input just ends the battle
	// (status 0), said where the end in a round is said.
	r = runCmd(t, "4\n2\n\n", "play", "mesbg")
	expectation{code: 0, stdout: []string{"another round? [Y/n/save] \n"},
		stderr: []string{"turnorder play: input ended after round 1 (nothing was saved); to keep a battle, type save FILE at \"another round?\" before stopping, or play with --save FILE, which saves it after every round\n"}, oneLine: true,
		notStdout: []string{"input ended"}}.check(t, r)
	if !strings.HasSuffix(r.stdout, "another round? [Y/n/save] \n") {
		t.Errorf("stdout does not end at the prompt:\n%s", r.stdout)
	}

	// Where a file holds the battle as it stands, the message says how to
	// resume it, as quit in a round does; where it holds a round before,
	// it does not.
	dir := t.TempDir()
	saved, other := filepath.Join(dir, "battle.json"), filepath.Join(dir, "other.json")
	r = runCmd(t, "4\n2\n\n", "play", "mesbg", "--save", saved)
	expectation{code: 0, stderr: []string{
		"input ended after round 1 (" + saved + " holds the battle as it was after round 1); resume it with `turnorder play mesbg --resume " + saved + " --save " + saved + "`\n",
	}, oneLine: true}.check(t, r)
	r = runCmd(t, "4\n2\n\nsave "+other+"\n", "play", "mesbg")
	expectation{code: 0, stderr: []string{
		"input ended after round 1 (" + other + " holds the battle as it was after round 1); resume it with `turnorder play mesbg --resume " + other + "`\n",
	}, oneLine: true}.check(t, r)
	r = runCmd(t, "4\n2\n\nsave "+other+"\ny\n4\n2\n\n", "play", "mesbg")
	expectation{code: 0, stderr: []string{
		"input ended after round 2 (" + other + " holds the battle as it was after round 1); " + keepNextTime + "\n",
	}, oneLine: true}.check(t, r)
}

func TestPlayAnotherRound(t *testing.T) {
	// Round 2 is a tie: the choice goes to Rob, who did not choose in round 1.
	r := runCmd(t, "4\n2\nJay\nmaybe\ny\n3\n3\n2\nn\n", "play", "mesbg")
	expectation{code: 0, stdout: []string{
		"another round? [Y/n/save] maybe\n  answer y (another round), n (stop)",
		"\nRound 2\n",
		"  tie between Jay and Rob on highest roll d6\n",
		"award not previous.chooser",
		"Round 2, priority: Rob chooses who goes first:\n  1. Rob\n  2. Jay\n",
		"  → order: Jay, Rob   holder: Jay   chooser: Rob\n",
	}, notStdout: []string{"Round 3"}}.check(t, r)
}

func TestPlayActivations(t *testing.T) {
	dir := t.TempDir()
	setup := writeFile(t, dir, "schools.rules", "side A {\n  unit a1\n  unit a2\n}\nside B {\n  unit b1\n}\n")
	r := runCmd(t, "pass\n9\na2\n", "play", "morturi", "--setup", setup, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"  priority #1: B, by lowest count(units) = 1\n",
		"  Ready: a1, a2, b1\n",
		"  B activates b1\n",
		"Round 1: A activates:\n  1. a1\n  2. a2\n",
		"A activates [a1]: pass\n  A may not pass while it has a ready unit: A activates one of its own ready units (a1, a2)\n",
		`"9" is not one of the options`,
		"  B passes (no ready unit)\n",
		"  → activations: B: b1; A: a2; B passes; A: a1\n",
	}}.check(t, r)

	// A random pick is made at the table and entered by name or number.
	setup = writeFile(t, dir, "equal.rules", "side A {\n  unit a1\n}\nside B {\n  unit b1\n}\n")
	r = runCmd(t, "C\n2\n", "play", "morturi", "--setup", setup, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"pick at random who comes next",
		`"C" is not one of the options`,
		"  → order: B, A   holder: B   chooser: none\n",
	}}.check(t, r)
}

func TestPlayBadInput(t *testing.T) {
	dir := t.TempDir()
	wrong := filepath.Join(dir, "necro.json")
	expectation{code: 0}.check(t, runCmd(t, "4\n2\n", "play", "necromunda", "--sides", "A,B", "--rounds", "1", "--save", wrong))
	// Files that are not saved battles at all.
	notJSON := writeFile(t, dir, "notes.txt", "garbage\n")
	otherJSON := writeFile(t, dir, "other.json", `{"x":1}`+"\n")
	array := writeFile(t, dir, "array.json", "[1, 2]\n")
	tests := []struct {
		args []string
		want expectation
	}{
		{[]string{"play"}, expectation{code: 2, stderr: []string{"name a ruleset"}}},
		{[]string{"play", "nosuch"}, expectation{code: 1, stderr: []string{`unknown ruleset "nosuch"`}, oneLine: true}},
		{[]string{"play", "mesbg", "--rounds", "-1"}, expectation{code: 1, stderr: []string{"--rounds must be between 0 and"}, oneLine: true}},
		{[]string{"play", "mesbg", "--resume", filepath.Join(dir, "none.json")}, expectation{code: 1, stderr: []string{"no such file"}, oneLine: true}},
		{[]string{"play", "mesbg", "--resume", wrong}, expectation{code: 1, stderr: []string{
			"turnorder play: " + wrong + " is a battle of ruleset necromunda, not of mesbg: " +
				"it was saved with the bundled ruleset necromunda; resume it with `turnorder play necromunda --resume " + wrong + "`\n",
		}, oneLine: true}},
		{[]string{"play", "mesbg", "--resume", notJSON}, expectation{code: 1, stderr: []string{
			"turnorder play: " + notJSON + " is not a saved battle (it is not JSON: invalid character 'g' looking for beginning of value)\n",
		}, oneLine: true}},
		{[]string{"play", "mesbg", "--resume", otherJSON}, expectation{code: 1, stderr: []string{
			"turnorder play: " + otherJSON + " is not a saved battle (it names no ruleset)\n",
		}, oneLine: true}},
		{[]string{"play", "mesbg", "--resume", array}, expectation{code: 1, stderr: []string{
			"turnorder play: " + array + " is not a saved battle (it is JSON, but not an object)\n",
		}, oneLine: true}},
		{[]string{"play", "mesbg", "--resume", wrong, "--sides", "A,B"}, expectation{code: 2, stderr: []string{"leave out --sides"}}},
		{[]string{"play", "mesbg", "--sides", "A,B,C"}, expectation{code: 1, stderr: []string{"needs 2 sides, got 3"}}},
		// Refused before a round is played for nothing, naming the file
		// asked for (not the temporary one it is written through).
		{[]string{"play", "mesbg", "--save", filepath.Join(dir, "no", "x.json")}, expectation{code: 1,
			stderr: []string{"turnorder play: --save: cannot write " + filepath.Join(dir, "no", "x.json") + ": no such file or directory"}, oneLine: true}},
		{[]string{"play", "mesbg", "--save", dir}, expectation{code: 1, stderr: []string{"is a directory"}, oneLine: true}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := runCmd(t, "", tt.args...)
			tt.want.check(t, r)
			if tt.want.code != 0 && strings.Contains(r.stdout, "Round 1") {
				t.Errorf("a round was played before the refusal:\n%s", r.stdout)
			}
		})
	}
}

// play says an order a round keeps as run does, before the round's
// transcript; one made again after a change between rounds is not kept.
func TestPlaySaysKeptOrders(t *testing.T) {
	r := runCmd(t, "5\n5\n4\n2\nafter\ny\nset agi of Cole = 6\ny\nn\n", "play", "agi")
	expectation{code: 0, stdout: []string{
		"another round? [Y/n/save] y\n\nRound 2\n  turn_order: kept from round 1 (nothing it watches has changed)\n  Ready: Aria, Bran, Cole\n",
		"another round? [Y/n/save] y\n\nRound 3\n  Ready: Aria, Bran, Cole\n",
	}}.check(t, r)
}

// A battle resumed between rounds shows how its last round ended, and the
// order now where a change made since has changed it, then asks before it
// rolls for the next round; with --rounds it plays on, and one resumed in
// mid-round goes on at its prompt.
func TestPlayResumeBetweenRoundsAsksFirst(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "battle.json")
	expectation{code: 0}.check(t, runCmd(t, "4\n2\nJay\n", "play", "mesbg", "--rounds", "1", "--save", saved))
	r := runCmd(t, "n\n", "play", "mesbg", "--resume", saved)
	expectation{code: 0, stdout: []string{
		"resumed from " + saved + " after round 1\n  → order: Jay, Rob   holder: Jay   chooser: Jay\n" +
			"Enter each die as it is rolled, and each decision by number or name.\nanother round? [Y/n/save] n\n",
	}, notStdout: []string{"Round 2", "rolls"}}.check(t, r)
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
	r = runCmd(t, "y\n3\n5\n\nn\n", "play", "mesbg", "--resume", saved)
	expectation{code: 0, stdout: []string{"another round? [Y/n/save] y\n\nRound 2\nRound 2, priority: Jay rolls d6: 3\n"}}.check(t, r)
	r = runCmd(t, "3\n5\n\n", "play", "mesbg", "--resume", saved, "--rounds", "1")
	expectation{code: 0, stdout: []string{"holder: Jay   chooser: Jay\nEnter each die as it is rolled, and each decision by number or name.\n\nRound 2\n"},
		notStdout: []string{"another round?"}}.check(t, r)

	// A change made after the round, saved with it, shows in the order now.
	agi := filepath.Join(dir, "agi.json")
	expectation{code: 0}.check(t, runCmd(t, "5\n2\nbefore\nset agi of Cole = 7\nn\n", "play", "agi", "--save", agi))
	r = runCmd(t, "n\n", "play", "agi", "--resume", agi)
	expectation{code: 0, stdout: []string{
		"  → order: Aria, Bran, Cole   holder: Aria   chooser: A\n  → activations: A: Aria; B: Bran; C: Cole\n" +
			"  the order is now Cole, Aria, Bran, after the changes made since\n",
	}}.check(t, r)

	// In mid-round, the prompt it was saved at, after the round so far.
	gangs := writeFile(t, dir, "gangs.rules", "side A {\n  unit a1\n  unit a2\n}\nside B {\n  unit b1\n  unit b2\n}\n")
	mid := filepath.Join(dir, "mid.json")
	expectation{code: 0}.check(t, runCmd(t, "4\n2\na1\nsave "+mid+"\nquit\n", "play", "necromunda", "--setup", gangs))
	r = runCmd(t, "quit\n", "play", "necromunda", "--resume", mid)
	expectation{code: 0, stdout: []string{
		"resumed from " + mid + " in round 1, at B's activation\n  Ready: a2, b1, b2\n" +
			"  order: A, B   holder: A   chooser: none\n  activations so far: A: a1\n" +
			"Enter each die as it is rolled, and each decision by number or name.\nRound 1: B activates:\n",
	}, notStdout: []string{"another round?", "→ order"}}.check(t, r)
}

// gangsSetup writes two Necromunda gangs: A with three fighters, B with two.
func gangsSetup(t *testing.T, dir string) string {
	t.Helper()
	return writeFile(t, dir, "gangs.rules", "side A {\n  unit a1\n  unit a2\n  unit a3\n}\nside B {\n  unit b1\n  unit b2\n}\n")
}
