package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/rulesets"
)

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

// Saving after round 1 and resuming plays round 2 exactly as an unbroken
// battle does: the memory of who chose comes back with the battle.
func TestPlaySaveResume(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "battle.json")
	r := runCmd(t, "4\n2\nJay\n", "play", "mesbg", "--rounds", "1", "--save", saved)
	expectation{code: 0, stdout: []string{"saved to " + saved}}.check(t, r)

	var snap struct {
		Ruleset string `json:"ruleset"`
		Round   int    `json:"round"`
	}
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &snap); err != nil || snap.Ruleset != "mesbg" || snap.Round != 1 {
		t.Fatalf("snapshot: %+v, %v\n%s", snap, err, data)
	}

	resumed := runCmd(t, "3\n3\nJay\n", "play", "mesbg", "--resume", saved, "--rounds", "1", "--save", saved)
	expectation{code: 0, stdout: []string{
		"resumed from " + saved + " after round 1\n",
		"\nRound 2\n",
		"Round 2, priority: Rob chooses who goes first:",
		"  → order: Jay, Rob   holder: Jay   chooser: Rob\n",
	}, notStdout: []string{"\nRound 1\n"}}.check(t, resumed)

	whole := runCmd(t, "4\n2\nJay\n3\n3\nJay\n", "play", "mesbg", "--rounds", "2")
	expectation{code: 0}.check(t, whole)
	_, round2, _ := strings.Cut(whole.stdout, "\nRound 2\n")
	_, resumed2, _ := strings.Cut(resumed.stdout, "\nRound 2\n")
	// The rounds' transcripts, without what each session ends with: where
	// the battle is saved, or that it is not.
	resumed2, _, _ = strings.Cut(resumed2, "  saved to")
	round2, _, _ = strings.Cut(round2, "  the battle after round 2 is not saved")
	if round2 != resumed2 {
		t.Errorf("resumed round 2 differs from the unbroken battle's:\n--- unbroken\n%s--- resumed\n%s", round2, resumed2)
	}

	// The save after round 2 holds round 2.
	data, _ = os.ReadFile(saved)
	if err := json.Unmarshal(data, &snap); err != nil || snap.Round != 2 {
		t.Errorf("after resuming, the save holds round %d, want 2 (%v)", snap.Round, err)
	}

	// "save" at the prompt, to a file named there.
	other := filepath.Join(dir, "other.json")
	r = runCmd(t, "4\n2\nJay\nsave "+other+"\nn\n", "play", "mesbg")
	expectation{code: 0, stdout: []string{"  saved to " + other + "\n"}}.check(t, r)
	if _, err := os.Stat(other); err != nil {
		t.Error(err)
	}
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

func TestParseArrangement(t *testing.T) {
	opts := []string{"Aria", "Cole", "Malleus Deus"}
	tests := []struct {
		in   string
		want []string
		bad  string
	}{
		{"3, 1, 2", []string{"Malleus Deus", "Aria", "Cole"}, ""},
		{"3 1 2", []string{"Malleus Deus", "Aria", "Cole"}, ""},
		{"Malleus Deus, cole", []string{"Malleus Deus", "Cole", "Aria"}, ""}, // the last may be left out
		{"2,1", []string{"Cole", "Aria", "Malleus Deus"}, ""},
		{"Cole", nil, "arrange all 3"},
		{"1, 1, 2", nil, "named twice"},
		{"1, 4, 2", nil, `"4" is not one of the options`},
	}
	for _, tt := range tests {
		got, why := parseArrangement(tt.in, opts)
		if !slices.Equal(got, tt.want) || !strings.Contains(why, tt.bad) || (tt.bad == "") != (why == "") {
			t.Errorf("parseArrangement(%q) = %q, %q; want %q, %q", tt.in, got, why, tt.want, tt.bad)
		}
	}
}

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

// savedUnits returns the units in a saved battle, each with its attributes.
func savedUnits(t *testing.T, path string) map[string]map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Sides []struct {
			Units []struct {
				Name  string         `json:"name"`
				Attrs map[string]any `json:"attrs"`
			} `json:"units"`
		} `json:"sides"`
	}
	if err := json.Unmarshal(data, &snap); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	units := map[string]map[string]any{}
	for _, s := range snap.Sides {
		for _, u := range s.Units {
			units[u.Name] = u.Attrs
		}
	}
	return units
}

// With --save, a change made at the "another round?" prompt is saved at
// once: stopping right after it, or an input that ends in the next round,
// loses nothing, and play says truthfully what the file holds.
func TestPlaySavesChangesAtPrompt(t *testing.T) {
	dir := t.TempDir()
	setup := writeFile(t, dir, "schools.rules", "side A {\n  unit a1\n  unit a2\n  unit a3\n}\nside B {\n  unit b1\n}\n")
	saved := filepath.Join(dir, "battle.json")

	// Remove, then stop.
	r := runCmd(t, "a1\na2\nremove a1\nn\n", "play", "morturi", "--setup", setup, "--save", saved)
	expectation{code: 0, stdout: []string{"  a1 is removed from the battle\n  saved to " + saved + "\nanother round?"}}.check(t, r)
	if units := savedUnits(t, saved); len(units) != 3 || units["a1"] != nil {
		t.Errorf("saved units %v: want a2, a3 and b1, not a1", units)
	}
	// Resumed, the fallen model stays out.
	r = runCmd(t, "a3\n", "play", "morturi", "--resume", saved, "--rounds", "1")
	expectation{code: 0, stdout: []string{"  → activations: B: b1; A: a3; B passes; A: a2\n"}, notStdout: []string{"A activates a1"}}.check(t, r)

	// Remove, then the input ends in the next round, at its first
	// activation: --save wrote the battle there, with the change, and play
	// stops cleanly.
	os.Remove(saved)
	three := writeFile(t, dir, "three.rules", "side A {\n  unit a1\n  unit a2\n}\nside B {\n  unit b1\n  unit b2\n  unit b3\n}\n")
	r = runCmd(t, "a1\nb1\nb2\nremove b1\ny\n", "play", "morturi", "--setup", three, "--save", saved)
	expectation{code: 0, stderr: []string{
		"input ended in round 2, at A's activation, where the battle was saved: " + saved + " holds it as it stands; resume it with `turnorder play morturi --resume " + saved + " --save " + saved + "`\n",
	}, oneLine: true}.check(t, r)
	if units := savedUnits(t, saved); len(units) != 4 || units["b1"] != nil {
		t.Errorf("saved units %v: b1 was removed", units)
	}
	// Or before it, in the next round's roll-off: the file holds the round
	// before and the change.
	os.Remove(saved)
	gangs := writeFile(t, dir, "gangs.rules", "side A {\n  unit a1\n  unit a2\n  unit a3\n}\nside B {\n  unit b1\n  unit b2\n}\n")
	r = runCmd(t, "4\n2\na2\nb2\na1\nremove b1\ny\n3\n", "play", "necromunda", "--setup", gangs, "--save", saved)
	expectation{code: 1, stderr: []string{
		"input ended in round 2, before the round was over (" + saved + " holds the battle as it was after round 1 and the changes made after it)\n",
	}, oneLine: true}.check(t, r)
	if units := savedUnits(t, saved); len(units) != 4 || units["b1"] != nil {
		t.Errorf("saved units %v: b1 was removed", units)
	}
	// Or after one: b1, B's only unit, activates by itself, and --save
	// writes the battle after every activation, with the change.
	os.Remove(saved)
	r = runCmd(t, "a1\na2\nremove a1\ny\n", "play", "morturi", "--setup", setup, "--save", saved)
	expectation{code: 0, stderr: []string{
		"input ended in round 2, at A's activation, where the battle was saved: " + saved + " holds it as it stands; resume it with `turnorder play morturi --resume " + saved + " --save " + saved + "`\n",
	}, oneLine: true}.check(t, r)
	if units := savedUnits(t, saved); len(units) != 3 || units["a1"] != nil {
		t.Errorf("saved units %v: a1 was removed", units)
	}

	// An attribute set, then stop.
	agi := filepath.Join(dir, "agi.json")
	r = runCmd(t, "5\n5\n4\n2\nafter\nset agi of Cole = 6\nn\n", "play", "agi", "--save", agi)
	expectation{code: 0, stdout: []string{"  agi of Cole is now 6; the order is now Cole, Bran, Aria\n", "  turn_order #3: Aria, by A's choice (choice before_after by winner)\n  saved to " + agi + "\n"}}.check(t, r)
	if got := savedUnits(t, agi)["Cole"]["agi"]; got != 6.0 {
		t.Errorf("the save has Cole's agi %v, want 6", got)
	}

	// The input ends while a set is still asking for the dice it needs:
	// the change is not saved, and play says so.
	os.Remove(agi)
	r = runCmd(t, "5\n5\n4\n2\nafter\nset agi of Cole = 5\n1\n", "play", "agi", "--save", agi)
	expectation{code: 1, stderr: []string{
		"input ended during set agi of Cole = 5, before it was done: the change is not saved (" + agi + " holds the battle as it was after round 1)\n",
	}, oneLine: true}.check(t, r)
	if got := savedUnits(t, agi)["Cole"]["agi"]; got != 3.0 {
		t.Errorf("the save has Cole's agi %v, want 3, as before the change", got)
	}
}

// The message play stops with names only a file written in this session,
// or else the file the battle was resumed from.
func TestPlayInputEndedNamesWrittenFile(t *testing.T) {
	dir := t.TempDir()
	b, c := filepath.Join(dir, "b.json"), filepath.Join(dir, "c.json")
	expectation{code: 0}.check(t, runCmd(t, "4\n2\nJay\n", "play", "mesbg", "--rounds", "1", "--save", b))
	r := runCmd(t, "y\n1\n", "play", "mesbg", "--resume", b, "--save", c)
	expectation{code: 1, stderr: []string{
		"input ended in round 2, before the round was over (nothing was saved; " + b + " still holds the battle as it was after round 1)\n",
	}, oneLine: true}.check(t, r)
	if _, err := os.Stat(c); err == nil {
		t.Errorf("%s was written", c)
	}

	// Without --save or --resume, nothing was saved.
	r = runCmd(t, "4\n2\nJay\n\n1\n", "play", "mesbg")
	expectation{code: 1, stderr: []string{"input ended in round 2, before the round was over (nothing was saved)\n"}, oneLine: true}.check(t, r)

	// A file saved at the prompt is named, as of when it was saved.
	other := filepath.Join(dir, "other.json")
	r = runCmd(t, "4\n2\nJay\nsave "+other+"\n\n3\n5\n\n\n1\n", "play", "mesbg")
	expectation{code: 1, stderr: []string{
		"input ended in round 3, before the round was over (" + other + " holds the battle as it was after round 1)\n",
	}, oneLine: true}.check(t, r)
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

// "help" works at every prompt: it says what can be typed there and asks
// again.
func TestPlayHelp(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "s2.json")
	r := runCmd(t, "help\n4\n?\n2\nhelp\nJay\nhelp\nsave\nhelp\nsave "+saved+"\nn\n", "play", "mesbg")
	expectation{code: 0, stdout: []string{
		"Round 1, priority: Jay rolls d6: help\n  type the result the d6 shows, 1 to 6\nRound 1, priority: Jay rolls d6: 4\n",
		"Round 1, priority: Rob rolls d6: ?\n  type the result the d6 shows, 1 to 6\nRound 1, priority: Rob rolls d6: 2\n",
		"Jay chooses [Jay]: help\n  type the number or the name of one of these:\n  1. Jay\n  2. Rob\n  Enter takes Jay\nJay chooses [Jay]: Jay\n",
		"another round? [Y/n/save] help\n  y, or Enter ",
		"  save [FILE]               save the battle to FILE (without FILE, play asks for one)\n",
		"  UNIT is [not] STATUS      give a unit a status, or take it away (statuses: this ruleset declares none)\n",
		"save to which file? help\n  type the name of a file",
		// "save FILE" at "save to which file?" names FILE.
		"save to which file? save " + saved + "\n  saved to " + saved + "\n",
	}, notStdout: []string{"is not a number", "is not one of the options"}}.check(t, r)
	if _, err := os.Stat(saved); err != nil {
		t.Error(err)
	}

	// The help of "another round?" names the --save file a bare save
	// writes, and the ruleset's statuses.
	setup := writeFile(t, dir, "gangs.rules", "side A {\n  unit a1\n}\nside B {\n  unit b1\n}\n")
	r = runCmd(t, "4\n2\nhelp\nn\n", "play", "necromunda", "--setup", setup, "--save", filepath.Join(dir, "g.json"))
	expectation{code: 0, stdout: []string{
		"save the battle to FILE (without FILE, to " + filepath.Join(dir, "g.json") + ")\n",
		"(statuses: out_of_action, seriously_injured, not_on_battlefield)\n",
	}}.check(t, r)

	// An arrangement, and a random pick.
	team := writeFile(t, dir, "team.rules", "side A team Red {\n  unit Aria agi = 5\n}\nside B team Blue {\n  unit Bran agi = 3\n}\nside C team Red {\n  unit Cole agi = 5\n}\n")
	r = runCmd(t, "help\n2, 1\n", "play", "agi", "--setup", team, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Red arranges [Aria, Cole]: help\n  type all 2, first to last, by number or name, separated by commas (such as 2, 1); the last one can be left out\n  1. Aria\n  2. Cole\n  Enter takes Aria, Cole\n",
		"  → order: Cole, Aria, Bran ",
	}}.check(t, r)
	r = runCmd(t, "help\n2\n", "play", "morturi", "--setup", setup, "--rounds", "1") // equal schools: a random pick
	expectation{code: 0, stdout: []string{
		"random pick: help\n  pick at random at the table (roll off, or draw lots), then type who was picked\n  type the number or the name of one of these:\n  1. A\n  2. B\nrandom pick: 2\n",
		"  → order: B, A ",
	}}.check(t, r)
}

// With --resume, --rounds N plays N more rounds; a bare save writes to the
// --resume file when there is no --save. The help says both.
func TestPlayResumeRoundsAndBareSave(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "battle.json")
	expectation{code: 0}.check(t, runCmd(t, "4\n2\nJay\n", "play", "mesbg", "--rounds", "1", "--save", saved))
	r := runCmd(t, "3\n5\n\n6\n1\n\n", "play", "mesbg", "--resume", saved, "--rounds", "2")
	expectation{code: 0, stdout: []string{"\nRound 2\n", "\nRound 3\n"}, notStdout: []string{"Round 4"}}.check(t, r)

	// Resumed without --save, "save" alone writes to the --resume file.
	r = runCmd(t, "y\n3\n5\n\nsave\nn\n", "play", "mesbg", "--resume", saved)
	expectation{code: 0, stdout: []string{"another round? [Y/n/save] save\n  saved to " + saved + "\n"}, notStdout: []string{"save to which file?"}}.check(t, r)
	var snap struct {
		Round int `json:"round"`
	}
	data, _ := os.ReadFile(saved)
	if err := json.Unmarshal(data, &snap); err != nil || snap.Round != 2 {
		t.Errorf("the resume file holds round %d, want 2 (%v)", snap.Round, err)
	}

	help := runCmd(t, "", "help", "play")
	expectation{code: 0, stdout: []string{
		"that\nis N more rounds, not up to round N",
		`"save" alone saves to
                            the --save file, or else to the --resume file`,
		"UNIT is STATUS",
		"UNIT is not STATUS",
		`"help" at any
prompt says what can be typed there`,
		`With
"activation draw" (a dice bag), play asks each turn whose colour came out
of the bag`,
	}}.check(t, help)
}

// At "another round?", a unit called y or n can be given a status, a set
// that changes nothing says so (and is not saved as a change), and a bare
// "save" at "save to which file?" names no file.
func TestPlayPromptWords(t *testing.T) {
	dir := t.TempDir()
	setup := writeFile(t, dir, "yn.rules", "side A {\n  unit y\n  unit n\n}\nside B {\n  unit b1\n}\n")
	r := runCmd(t, "4\n2\n1\ny is out_of_action\nn is out_of_action\ny\n5\n2\nn\n", "play", "necromunda", "--setup", setup)
	expectation{code: 0, stdout: []string{
		"  y is now out_of_action\n",
		"  n is now out_of_action\n",
		"Round 2\n",
		"  y gets no Ready marker",
	}}.check(t, r)

	r = runCmd(t, "5\n5\n4\n2\nafter\nset agi of Cole = 3\nsave\nsave\nn\n", "play", "agi")
	expectation{code: 0, stdout: []string{
		"  agi of Cole is already 3\n",
		"save to which file? save\n  not saved: name a file",
	}, notStdout: []string{"agi of Cole is now 3"}}.check(t, r)
	if _, err := os.Stat("save"); err == nil {
		t.Error("a bare save at \"save to which file?\" wrote a file called save")
	}

	// Nor do y (asked for the name) and n (saves nothing) name files.
	r = runCmd(t, "4\n2\n1\nsave\ny\nn\nn\n\n", "play", "mesbg")
	expectation{code: 0, stdout: []string{
		"save to which file? y\n  type the name of the file, such as battle.json (or Enter to save nothing)\nsave to which file? n\n  not saved: name a file",
	}}.check(t, r)
	for _, name := range []string{"y", "n"} {
		if _, err := os.Stat(name); err == nil {
			os.Remove(name)
			t.Errorf("an answer at \"save to which file?\" wrote a file called %s", name)
		}
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

// play says an order a round keeps as run does, before the round's
// transcript; one made again after a change between rounds is not kept.
func TestPlaySaysKeptOrders(t *testing.T) {
	r := runCmd(t, "5\n5\n4\n2\nafter\ny\nset agi of Cole = 6\ny\nn\n", "play", "agi")
	expectation{code: 0, stdout: []string{
		"another round? [Y/n/save] y\n\nRound 2\n  turn_order: kept from round 1 (nothing it watches has changed)\n  Ready: Aria, Bran, Cole\n",
		"another round? [Y/n/save] y\n\nRound 3\n  Ready: Aria, Bran, Cole\n",
	}}.check(t, r)
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

// An answer at the table is an option's number or name, in any case, or
// the start of one name only: "ludi" for "Ludi Aeternum".
func TestResolveOption(t *testing.T) {
	options := []string{"Ludi Aeternum", "Legio Mortis", "Vi Et Armis", "pass"}
	for _, tt := range []struct {
		ans, want string
		ok        bool
	}{
		{"2", "Legio Mortis", true},
		{"Vi Et Armis", "Vi Et Armis", true},
		{"vi et armis", "Vi Et Armis", true},
		{"ludi", "Ludi Aeternum", true},
		{"Vi", "Vi Et Armis", true},
		{"p", "pass", true},
		{"L", "", false}, // Ludi or Legio
		{"5", "", false},
		{"Zed", "", false},
		{"", "", false},
	} {
		got, ok := resolveOption(tt.ans, options)
		if got != tt.want && ok || ok != tt.ok {
			t.Errorf("resolveOption(%q) = %q, %v; want %q, %v", tt.ans, got, ok, tt.want, tt.ok)
		}
	}
	// An exact name wins over a longer one it starts.
	if got, ok := resolveOption("Ann", []string{"Anna", "Ann"}); got != "Ann" || !ok {
		t.Errorf(`resolveOption("Ann") = %q, %v; want "Ann", true`, got, ok)
	}
}

// The start of two names is asked again, saying which it may be.
func TestPlayAmbiguousName(t *testing.T) {
	r := runCmd(t, "4\n2\nJ\nJa\n", "play", "mesbg", "--sides", "Jay,Jo", "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Jay chooses [Jay]: J\n  \"J\" may be Jay or Jo: type more of the name, or its number\nJay chooses [Jay]: Ja\n",
		"  → order: Jay, Jo   holder: Jay   chooser: Jay\n",
	}}.check(t, r)
}

// The command that resumes a battle of another ruleset quotes its paths
// for the shell, as the one play stops with does: a file named with a
// space pastes as one argument.
func TestPlayResumeAnotherRulesetQuotesPaths(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "my battle.json")
	expectation{code: 0}.check(t, runCmd(t, "4\n2\n1\n", "play", "mesbg", "--rounds", "1", "--save", saved))
	house := writeFile(t, dir, "my house.rules", "ruleset mesbg {\n  sides 2\n  phase p { order sides as o { random } }\n}\n")
	expectation{code: 1, oneLine: true, stderr: []string{
		"whose text differs: resume it with `turnorder play mesbg --resume '" + saved + "'`",
	}}.check(t, runCmd(t, "", "play", house, "--resume", saved))
	housed := filepath.Join(dir, "house battle.json")
	expectation{code: 0}.check(t, runCmd(t, "A\n", "play", house, "--sides", "A,B", "--rounds", "1", "--save", housed))
	expectation{code: 1, oneLine: true, stderr: []string{
		"resume it with `turnorder play '" + house + "' --resume '" + housed + "'`",
	}}.check(t, runCmd(t, "", "play", "necromunda", "--resume", housed))
}

// A saved battle is resumed with the ruleset it was saved with. Another
// file that declares a ruleset of the same name (a house rule copied from
// a bundled one) is refused, saying which the battle was saved with; a
// file with the same text is the same rules; the same file edited since
// plays on, with a warning (a house rule mended mid-campaign, or a bundled
// ruleset mended by a newer turnorder, must not strand a battle).
func TestPlayResumeWithAnotherRulesetFile(t *testing.T) {
	dir := t.TempDir()
	source, err := rulesets.Read("mesbg")
	if err != nil {
		t.Fatal(err)
	}
	src := source.Text
	other := strings.Replace(string(src), "default self", "default other", 1)
	house := writeFile(t, dir, "house.rules", other)
	same := writeFile(t, dir, "copy.rules", string(src))
	saved := filepath.Join(dir, "battle.json")
	expectation{code: 0}.check(t, runCmd(t, "4\n2\n1\n", "play", "mesbg", "--rounds", "1", "--save", saved))
	housed := filepath.Join(dir, "house.json")
	expectation{code: 0}.check(t, runCmd(t, "4\n2\n1\n", "play", house, "--rounds", "1", "--save", housed))
	// A battle saved before saves named their ruleset's file.
	var doc map[string]any
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "played_with")
	old, _ := json.Marshal(doc)
	unstamped := writeFile(t, dir, "old.json", string(old))

	tests := []struct {
		name string
		args []string
		want expectation
	}{
		{"another file", []string{"play", house, "--resume", saved}, expectation{code: 1, stderr: []string{
			"turnorder play: " + saved + " was saved with the bundled ruleset mesbg, not with " + house +
				", whose text differs: resume it with `turnorder play mesbg --resume " + saved + "`" +
				" (or, to play it on with " + house + " all the same, delete \"played_with\" from " + saved + ")\n",
		}, oneLine: true, notStdout: []string{"Round 2"}}},
		{"the bundled one, for a file", []string{"play", "mesbg", "--resume", housed}, expectation{code: 1, stderr: []string{
			"turnorder play: " + housed + " was saved with " + house + ", not with the bundled ruleset mesbg, whose text differs: " +
				"resume it with `turnorder play " + house + " --resume " + housed + "`",
		}, oneLine: true}},
		{"the same text", []string{"play", same, "--resume", saved}, expectation{code: 0, stdout: []string{"Round 2"}}},
		{"the same ruleset", []string{"play", "mesbg", "--resume", saved}, expectation{code: 0, stdout: []string{"Round 2"}}},
		{"an older save", []string{"play", house, "--resume", unstamped}, expectation{code: 0, stdout: []string{"Round 2"}}},
		{"a file of another ruleset", []string{"play", writeFile(t, dir, "duel.rules", "ruleset duel {\n  sides 2\n  phase p { order sides as o { random } }\n}\n"), "--resume", saved}, expectation{code: 1, stderr: []string{
			"turnorder play: " + saved + " is a battle of ruleset mesbg, not of duel (the ruleset " + filepath.Join(dir, "duel.rules") + " declares): " +
				"it was saved with the bundled ruleset mesbg; resume it with `turnorder play mesbg --resume " + saved + "`\n",
		}, oneLine: true}},
		{"an older save, of another ruleset", []string{"play", "necromunda", "--resume", unstamped}, expectation{code: 1, stderr: []string{
			"turnorder play: " + unstamped + " is a battle of ruleset mesbg, not of necromunda\n",
		}, oneLine: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "4\n2\n1\n", append(tt.args, "--rounds", "1")...)
			tt.want.check(t, r)
			if tt.want.code == 0 && r.stderr != "" {
				t.Errorf("stderr: %s", r.stderr)
			}
		})
	}

	// The file it was saved with, changed since: played on, and said.
	writeFile(t, dir, "house.rules", strings.Replace(other, "default other", "default self", 1))
	expectation{code: 0, stdout: []string{"Round 2"}, stderr: []string{
		"turnorder play: warning: " + house + " has changed since " + housed + " was saved; the battle plays on with its rules as they are now\n",
	}, oneLine: true}.check(t, runCmd(t, "4\n2\n1\n", "play", house, "--resume", housed, "--rounds", "1"))
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

// quit at "another round?" is the quit of the activation prompt: it stops
// once a file holds the battle as it stands, saying how to resume it, and
// is refused otherwise; n stops all the same.
func TestPlayQuitBetweenRounds(t *testing.T) {
	dir := t.TempDir()
	saved, other := filepath.Join(dir, "battle.json"), filepath.Join(dir, "other.json")

	r := runCmd(t, "4\n2\n\nquit\nsave "+other+"\nquit\n", "play", "mesbg")
	expectation{code: 0, stdout: []string{
		"another round? [Y/n/save] quit\n  the battle is not saved as it stands: type save FILE first, then quit (or n, to stop with or without saving it)\nanother round? [Y/n/save] save " + other + "\n",
	}, stderr: []string{
		"stopped after round 1: " + other + " holds the battle as it stands; resume it with `turnorder play mesbg --resume " + other + "`\n",
	}, oneLine: true}.check(t, r)

	// With --save, at once; and the command given resumes it.
	r = runCmd(t, "4\n2\n\nq\n", "play", "mesbg", "--save", saved)
	expectation{code: 0, stderr: []string{
		"stopped after round 1: " + saved + " holds the battle as it stands; resume it with `turnorder play mesbg --resume " + saved + " --save " + saved + "`\n",
	}, oneLine: true}.check(t, r)
	r = runCmd(t, "y\n4\n2\n\nquit\n", "play", "mesbg", "--resume", saved, "--save", saved)
	expectation{code: 0, stdout: []string{"\nRound 2\n"}, stderr: []string{"stopped after round 2: " + saved}}.check(t, r)

	// Resumed without --save, the round played since is not in the file:
	// quit is refused, and n stops without it, once asked.
	r = runCmd(t, "y\n4\n2\n\nquit\nn\n\n", "play", "mesbg", "--resume", saved)
	expectation{code: 0, stdout: []string{"another round? [Y/n/save] quit\n  the battle is not saved as it stands"}}.check(t, r)
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}

	// help lists both.
	r = runCmd(t, "4\n2\n\nhelp\nn\n", "play", "mesbg")
	expectation{code: 0, stdout: []string{
		"  n                         stop (where the battle is not saved as it stands, play asks for a file first)\n  quit                      stop, once the battle as it stands is saved (play says how to resume it)\n",
	}}.check(t, r)
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

// n at "another round?" does not lose unasked what no file holds: play
// asks for a file, saves it there and says how to resume it, or, with
// Enter, n or the end of the input, stops without it and says how to keep
// a battle next time. Where a file holds the battle as it stands, n stops
// at once.
func TestPlayStopOffersSave(t *testing.T) {
	dir := t.TempDir()
	kept := filepath.Join(dir, "kept.json")
	r := runCmd(t, "4\n2\n\nn\nhelp\nsave\n"+filepath.Join(dir, "no", "x.json")+"\n"+kept+"\n", "play", "mesbg")
	expectation{code: 0, stdout: []string{
		"another round? [Y/n/save] n\n  the battle after round 1 is not saved as it stands\nsave it to which file? (Enter: stop without saving) help\n",
		"save it to which file? (Enter: stop without saving) save\n  name a file, as in: save battle.json (or Enter to stop without saving)\n",
		"  not saved: cannot write " + filepath.Join(dir, "no", "x.json") + ": no such file or directory\n",
		"save it to which file? (Enter: stop without saving) " + kept + "\n  saved to " + kept + "\n",
	}, stderr: []string{
		"stopped after round 1: " + kept + " holds the battle as it stands; resume it with `turnorder play mesbg --resume " + kept + "`\n",
	}, oneLine: true}.check(t, r)
	if units := savedUnits(t, kept); len(units) != 0 {
		t.Errorf("saved units %v", units)
	}

	for _, stop := range []string{"\n", "n\n", "no\n", "quit\n", "y\n\n"} {
		r = runCmd(t, "4\n2\n\nn\n"+stop, "play", "mesbg")
		expectation{code: 0, stdout: []string{"  not saved; " + keepNextTime + "\n"}}.check(t, r)
		if r.stderr != "" {
			t.Errorf("%q: stderr: %s", stop, r.stderr)
		}
	}
	// y is the answer to "save it?", not a file's name.
	r = runCmd(t, "4\n2\n\nn\ny\n\n", "play", "mesbg")
	expectation{code: 0, stdout: []string{"(Enter: stop without saving) y\n  type the name of the file to save it to, such as battle.json (or Enter to stop without saving)\n"}}.check(t, r)
	r = runCmd(t, "4\n2\n\nn\n", "play", "mesbg")
	expectation{code: 0, stderr: []string{"input ended after round 1 (nothing was saved); " + keepNextTime + "\n"}, oneLine: true}.check(t, r)

	// Resumed, a bare save writes to the file it came from; resumed and
	// stopped at once, or with --save, n asks nothing.
	r = runCmd(t, "y\n3\n5\n\nn\nsave\n", "play", "mesbg", "--resume", kept)
	expectation{code: 0, stdout: []string{
		"  the battle after round 2 is not saved as it stands (nothing was saved; " + kept + " still holds the battle as it was after round 1)\n" +
			"save it to which file? (save: to " + kept + "; Enter: stop without saving) save\n  saved to " + kept + "\n",
	}, stderr: []string{"stopped after round 2: " + kept}}.check(t, r)
	for _, tt := range []struct{ in, arg, file string }{{"n\n", "--resume", kept}, {"4\n2\n\nn\n", "--save", filepath.Join(dir, "s.json")}} {
		r = runCmd(t, tt.in, "play", "mesbg", tt.arg, tt.file)
		expectation{code: 0, notStdout: []string{"save it to which file?", "not saved"}}.check(t, r)
		if r.stderr != "" {
			t.Errorf("%s: stderr: %s", tt.arg, r.stderr)
		}
	}
}

// --rounds N without --save does not end in silence about a battle that no
// file holds: the last round says so, where --save would say "saved to
// FILE", and how to keep one, as the end of the input between rounds does
// (but not "another round?", which --rounds does not ask).
func TestPlayRoundsSaysBattleNotKept(t *testing.T) {
	r := runCmd(t, "4\n2\n1\n", "play", "mesbg", "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"  → order: Jay, Rob   holder: Jay   chooser: Jay\n  the battle after round 1 is not saved as it stands; to keep a battle, " + keepWithSave + "\n",
	}, notStdout: []string{"another round?"}}.check(t, r)
	if !strings.HasSuffix(keepNextTime, keepWithSave) {
		t.Errorf("the end of the input and of --rounds say how to keep a battle in other words: %q, %q", keepNextTime, keepWithSave)
	}

	saved := filepath.Join(t.TempDir(), "battle.json")
	r = runCmd(t, "4\n2\n1\n", "play", "mesbg", "--rounds", "1", "--save", saved)
	expectation{code: 0, stdout: []string{"  saved to " + saved + "\n"}, notStdout: []string{"not saved", keepWithSave}}.check(t, r)

	// Resumed, it says the --resume file holds the battle as it was.
	r = runCmd(t, "3\n5\n\n", "play", "mesbg", "--rounds", "1", "--resume", saved)
	expectation{code: 0, stdout: []string{
		"  the battle after round 2 is not saved as it stands (nothing was saved; " + saved + " still holds the battle as it was after round 1); to keep a battle, " + keepWithSave + "\n",
	}}.check(t, r)
}
