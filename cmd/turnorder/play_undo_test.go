package main

// Tests of undo, which every prompt of a battle takes: it takes back the
// last answer (a die, a pick, a choice, an activation) or change, and asks
// for it again, back to the start of the battle.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// speedRules is a ruleset whose order is kept until a side's speed
// changes: a change in a round asks for the dice of a roll-off.
const speedRules = `ruleset speed "Speed" {
  sides 2
  side attribute speed int
  phase p each round {
    order sides as o until changed speed {
      highest speed
      highest roll d6
      tie: reroll
    }
  }
  activation alternate by o
  example {
    side A speed = 2 {
      unit a1
      unit a2
    }
    side B speed = 1 {
      unit b1
      unit b2
    }
  }
}
`

// undo at each kind of prompt takes back the answer before it, says
// which, and asks for it again; the battle then goes on with the answer
// given instead.
func TestPlayUndoAtEveryPrompt(t *testing.T) {
	dir := t.TempDir()
	gangs := gangsSetup(t, dir)
	equal := writeFile(t, dir, "equal.rules", "side A {\n  unit a1\n}\nside B {\n  unit b1\n}\n")
	team := writeFile(t, dir, "team.rules", "side A team Red {\n  unit Aria agi = 5\n}\nside B team Blue {\n  unit Bran agi = 3\n}\nside C team Red {\n  unit Cole agi = 5\n}\n")
	speed := writeFile(t, dir, "speed.rules", speedRules)
	const bag = "../../examples/procedures/dice-bag.rules"
	tests := []struct {
		name, in string
		args     []string
		want     []string
	}{
		{"a die: the die before it", "4\nundo\n5\n2\n1\n", []string{"mesbg", "--rounds", "1"}, []string{
			"Round 1, priority: Rob rolls d6: undo\n  undone: Jay's 4\nRound 1, priority: Jay rolls d6: 5\nRound 1, priority: Rob rolls d6: 2\n",
		}},
		{"the choice of who goes first: the last die", "4\n2\nundo\n5\n\n", []string{"mesbg", "--rounds", "1"}, []string{
			"Jay chooses [Jay]: undo\n  undone: Rob's 2\nRound 1, priority: Rob rolls d6: 5\n",
			"Round 1, priority: Rob chooses who goes first:\n",
			"  → order: Rob, Jay   holder: Rob   chooser: Rob\n",
		}},
		{"before or after", "5\n5\n4\n2\nundo\n3\nafter\n", []string{"agi", "--rounds", "1"}, []string{
			"A chooses [before]: undo\n  undone: Bran's 2\nRound 1, turn_order: Bran rolls d6 again: 3\n",
			"  → order: Bran, Aria, Cole   holder: Bran   chooser: A\n",
		}},
		{"an arrangement, and the die after it", "2, 1\nundo\n\n", []string{"agi", "--setup", team}, []string{
			"another round? [Y/n/save] undo\n  undone: Red's arrangement, Cole, Aria\nRound 1, turn_order: Red arranges Aria and Cole, first to last:\n",
			"  → order: Aria, Cole, Bran ",
		}},
		{"a random pick, the first question", "undo\n2\n", []string{"morturi", "--setup", equal, "--rounds", "1"}, []string{
			"random pick: undo\n  nothing to undo: the battle is at its start\nRound 1, priority: pick at random who comes next (roll off, or draw lots):\n  1. A\n  2. B\nrandom pick: 2\n",
		}},
		{"a round's first die: back to another round?", "4\n2\n1\ny\nundo\ny\n3\n5\n\nn\n\n", []string{"mesbg"}, []string{
			"Round 2, priority: Jay rolls d6: undo\n  undone: the battle is back after round 1\nanother round? [Y/n/save] y\n\nRound 2\nRound 2, priority: Jay rolls d6: 3\n",
		}},
		{"another round?: the pick", "1\nundo\n2\nn\n\n", []string{"morturi", "--setup", equal}, []string{
			"another round? [Y/n/save] undo\n  undone: A, picked at random\nRound 1, priority: pick at random who comes next (roll off, or draw lots):\n  1. A\n  2. B\nrandom pick: 2\n",
			"  → order: B, A   holder: B   chooser: none\n",
		}},
		{"an activation", "4\n2\na2\nundo\na1\nb1\na2\n", []string{"necromunda", "--setup", gangs, "--rounds", "1"}, []string{
			"B activates [b1]: undo\n  undone: A activates a2\nRound 1: A activates:\n  1. a1\n  2. a2\n  3. a3\nA activates [a1]: a1\n",
			"  → activations: A: a1; B: b1; A: a2; B: b2; A: a3\n",
		}},
		{"the draw from the bag", "2\n1\nundo\nundo\n1\n1\n1\n1\nJay\n1\nRob\n", []string{bag, "--rounds", "1"}, []string{
			"drawn: undo\n  undone: Rob activates r1\nRound 1: Rob activates:\n  1. r1\n  2. r2\nRob activates [r1]: undo\n  undone: Rob's die, drawn from the bag\n" +
				"Round 1: draw a die from the bag (Jay 3, Rob 2): whose colour is it?\n  1. Jay\n  2. Rob\ndrawn: 1\n",
			"  → activations: Jay: j1; Jay: j2; Jay: j3; Rob: r1; Rob: r2\n",
		}},
		{"a change at the activation prompt", "4\n2\nremove a1\nundo\na1\nb1\na2\n", []string{"necromunda", "--setup", gangs, "--rounds", "1"}, []string{
			"A activates [a2]: undo\n  undone: remove a1\nRound 1: A activates:\n  1. a1\n  2. a2\n  3. a3\nA activates [a1]: a1\n",
			"  → activations: A: a1; B: b1; A: a2; B: b2; A: a3\n",
		}},
		{"a change at another round?, then the round's last answer", "4\n2\na1\nb1\na2\nremove a1\nundo\nundo\na3\nn\n\n", []string{"necromunda", "--setup", gangs}, []string{
			"another round? [Y/n/save] remove a1\n  a1 is removed from the battle\nanother round? [Y/n/save] undo\n  undone: remove a1\nanother round? [Y/n/save] undo\n  undone: A activates a2\nRound 1: A activates:\n  1. a2\n  2. a3\nA activates [a2]: a3\n",
			"  → activations: A: a1; B: b1; A: a3; B: b2; A: a2\n",
		}},
		{"a die of a change's recomputation, and the change", "set speed of B = 2\n3\nundo\nundo\nundo\na2\nb1\n", []string{"play-rules", "--rounds", "1"}, []string{
			"A activates [a1]: set speed of B = 2\n  tie between A and B on highest speed\nRound 1, o: A rolls d6: 3\n" +
				"Round 1, o: B rolls d6: undo\n  undone: A's 3\nRound 1, o: A rolls d6: undo\n  undone: set speed of B = 2\nRound 1: A activates:\n  1. a1\n  2. a2\nA activates [a1]: undo\n  nothing to undo: the battle is at its start\n",
			"  → order: A, B   holder: A   chooser: none\n  → activations: A: a2; B: b1; A: a1; B: b2\n",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"play"}, tt.args...)
			if args[1] == "play-rules" {
				args[1] = speed
			}
			r := runCmd(t, tt.in, args...)
			expectation{stdout: tt.want, notStdout: []string{"is not a number", "is not one of the options", "cannot undo"}}.check(t, r)
			if r.code != 0 {
				t.Errorf("exit status %d:\n%s", r.code, r.stderr)
			}
		})
	}
}

// undo again and again goes back to the start of the battle, answer by
// answer and die by die (across rounds, and through "another round?"),
// then says there is nothing to undo; the battle played again from there
// ends as one played without undo.
func TestPlayUndoBackToTheStart(t *testing.T) {
	setup := gangsSetup(t, t.TempDir())
	const straight = "4\n2\na2\nb2\na1\nn\n\n"
	want := runCmd(t, straight, "play", "necromunda", "--setup", setup)
	expectation{code: 0}.check(t, want)

	in := "4\n2\na2\nb2\na1\ny\n3\n" + strings.Repeat("undo\n", 9) + straight
	r := runCmd(t, in, "play", "necromunda", "--setup", setup)
	expectation{code: 0, stdout: []string{
		"Round 2, priority: B rolls d6: undo\n  undone: A's 3\n" +
			"Round 2, priority: A rolls d6: undo\n  undone: the battle is back after round 1\n" +
			"another round? [Y/n/save] undo\n  undone: A activates a1\n" +
			"Round 1: A activates:\n  1. a1\n  2. a3\nA activates [a1]: undo\n  undone: B activates b2\n" +
			"Round 1: B activates:\n  1. b1\n  2. b2\nB activates [b1]: undo\n  undone: A activates a2\n" +
			"Round 1: A activates:\n  1. a1\n  2. a2\n  3. a3\nA activates [a1]: undo\n  undone: B's 2\n" +
			"Round 1, priority: B rolls d6: undo\n  undone: A's 4\n" +
			"Round 1, priority: A rolls d6: undo\n  nothing to undo: the battle is at its start\n" +
			"Round 1, priority: A rolls d6: undo\n  nothing to undo: the battle is at its start\n" +
			"Round 1, priority: A rolls d6: 4\n",
	}}.check(t, r)
	if got, want := lastRound(r.stdout), lastRound(want.stdout); got != want {
		t.Errorf("the battle played again after undo ends otherwise than the unbroken one:\n--- unbroken\n%s--- after undo\n%s", want, got)
	}
	// Round 1 is said once more, as it was played again, and no more.
	if n := strings.Count(r.stdout, "\nRound 1\n"); n != 1 {
		t.Errorf("round 1's heading is shown %d times, want 1:\n%s", n, r.stdout)
	}
}

// A battle saved in the middle of a roll-off, after the first of three
// gangs typed its die, resumes at the second gang's die, with the first
// kept; played on, it ends as the battle played without a break. Undo
// there takes back the first gang's die, and then there is nothing more
// to undo: the battle is as it was resumed.
func TestPlayResumeMidRollOff(t *testing.T) {
	dir := t.TempDir()
	three := writeFile(t, dir, "three.rules", "side A {\n  unit a1\n  unit a2\n}\nside B {\n  unit b1\n}\nside C {\n  unit c1\n}\n")
	const rest = "5\n2\na2\n\n"
	straight := runCmd(t, "4\n"+rest, "play", "necromunda", "--setup", three, "--rounds", "1")
	expectation{code: 0}.check(t, straight)

	saved := filepath.Join(dir, "rolloff.json")
	r := runCmd(t, "4\nsave "+saved+"\nquit\n", "play", "necromunda", "--setup", three)
	expectation{code: 0, stdout: []string{
		"Round 1, priority: B rolls d6: save " + saved + "\n  saved to " + saved + "\nRound 1, priority: B rolls d6: quit\n",
	}, stderr: []string{
		"stopped in round 1, at B's roll for priority: " + saved + " holds the battle as it stands; resume it with `turnorder play necromunda --resume " + saved + "`\n",
	}, oneLine: true}.check(t, r)

	res := runCmd(t, rest, "play", "necromunda", "--resume", saved, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"resumed from " + saved + " in round 1, at B's roll for priority\n  rolled so far: A 4\n" +
			"Enter each die as it is rolled, and each decision by number or name.\nRound 1, priority: B rolls d6: 5\nRound 1, priority: C rolls d6: 2\n",
	}, notStdout: []string{"A rolls d6", "Ready: none"}}.check(t, res)
	_, wantRest, _ := strings.Cut(straight.stdout, "Round 1, priority: B rolls d6: 5\n")
	_, gotRest, ok := strings.Cut(res.stdout, "Round 1, priority: B rolls d6: 5\n")
	cut := func(s string) string { s, _, _ = strings.Cut(s, "  the battle after round 1 is not saved"); return s }
	if !ok || cut(gotRest) != cut(wantRest) {
		t.Errorf("the resumed battle differs from the unbroken one:\n--- unbroken\n%s--- resumed\n%s", wantRest, gotRest)
	}

	// quit at once: the file still holds it.
	expectation{code: 0, stderr: []string{"stopped in round 1, at B's roll for priority: " + saved}}.check(t,
		runCmd(t, "quit\n", "play", "necromunda", "--resume", saved))

	// undo goes back no further than the resume.
	res = runCmd(t, "undo\nundo\n4\n"+rest, "play", "necromunda", "--resume", saved, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1, priority: B rolls d6: undo\n  undone: A's 4\nRound 1, priority: A rolls d6: undo\n  nothing to undo: the battle is as it was resumed from " + saved + "\nRound 1, priority: A rolls d6: 4\n",
	}}.check(t, res)
	if got, want := lastRound(res.stdout), lastRound(straight.stdout); got != want {
		t.Errorf("the resumed battle ends otherwise than the unbroken one:\n--- unbroken\n%s--- resumed\n%s", want, got)
	}

	// A save whose dice typed so far do not fit the roll is refused.
	raw, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	data := string(raw)
	for _, tt := range []struct{ from, to, want string }{
		{`"rolled": [
      4
    ]`, `"rolled": [7]`, "play.rolled[0]: A cannot have rolled 7 on d6 (1-6)"},
		{`"rolled": [
      4
    ]`, `"rolled": [4, 4, 4]`, "play.rolled: 3 dice typed of a roll of 3 (A, B, C)"},
	} {
		if !strings.Contains(data, tt.from) {
			t.Fatalf("the save does not hold %s:\n%s", tt.from, data)
		}
		bad := writeFile(t, dir, "bad.json", strings.Replace(data, tt.from, tt.to, 1))
		expectation{code: 1, stderr: []string{"turnorder play: cannot resume " + bad + ": " + tt.want}, oneLine: true}.check(t,
			runCmd(t, "", "play", "necromunda", "--resume", bad))
	}
}

// A change undone leaves the battle as the file saved before it holds it:
// quit stops there again.
func TestPlayUndoBackToASave(t *testing.T) {
	dir := t.TempDir()
	part := filepath.Join(dir, "part.json")
	r := runCmd(t, "4\n2\nsave "+part+"\nremove a1\nquit\nundo\nquit\n", "play", "necromunda", "--setup", gangsSetup(t, dir))
	expectation{code: 0, stdout: []string{
		"A activates [a2]: quit\n  the battle is not saved as it stands",
		"A activates [a2]: undo\n  undone: remove a1\nRound 1: A activates:\n  1. a1\n  2. a2\n  3. a3\nA activates [a1]: quit\n",
	}, stderr: []string{
		"stopped in round 1, at A's activation: " + part + " holds the battle as it stands; resume it with `turnorder play necromunda --resume " + part + "`\n",
	}, oneLine: true}.check(t, r)
}
