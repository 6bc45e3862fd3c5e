package main

// Tests of the prompts between rounds and between two turns, of what they
// take besides the answer (save, quit, the changes), and of what the other
// prompts say to those words.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

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

// save and quit work at every prompt of a battle: a die, the choice of
// who goes first, a random pick, before or after, an arrangement, which
// unit activates, the draw from the bag. The battle saved there resumes
// at the same question, and ends as the battle played without a break.
func TestPlaySaveAndQuitAtEveryPrompt(t *testing.T) {
	dir := t.TempDir()
	equal := writeFile(t, dir, "equal.rules", "side A {\n  unit a1\n}\nside B {\n  unit b1\n}\n")
	team := writeFile(t, dir, "team.rules", "side A team Red {\n  unit Aria agi = 5\n}\nside B team Blue {\n  unit Bran agi = 3\n}\nside C team Red {\n  unit Cole agi = 5\n}\n")
	bag, err := filepath.Abs("../../examples/procedures/dice-bag.rules")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		args          []string
		before, after string // the answers before the prompt, and from it on
		prompt, where string
	}{
		{"roll", []string{"mesbg"}, "", "4\n2\n1\n", "Round 1, priority: Jay rolls d6: ", "in round 1, at Jay's roll for priority"},
		{"the second die of a roll-off", []string{"mesbg"}, "4\n", "2\n1\n", "Round 1, priority: Rob rolls d6: ", "in round 1, at Rob's roll for priority"},
		{"choice of who goes first", []string{"mesbg"}, "4\n2\n", "1\n", "Jay chooses [Jay]: ", "in round 1, where Jay chooses who goes first in priority"},
		{"random pick", []string{"morturi", "--setup", equal}, "", "2\n", "random pick: ", "in round 1, at the random pick for priority"},
		{"before or after", []string{"agi"}, "5\n5\n4\n2\n", "after\n", "A chooses [before]: ", "in round 1, where A chooses before or after in turn_order"},
		{"arrangement", []string{"agi", "--setup", team}, "", "2, 1\n", "Red arranges [Aria, Cole]: ", "in round 1, where Red arranges turn_order"},
		{"activation", []string{"necromunda", "--setup", gangsSetup(t, dir)}, "4\n2\n", "a2\nb2\na1\n", "A activates [a1]: ", "in round 1, at A's activation"},
		{"draw", []string{bag}, "2\n1\n", "1\n1\nJay\n1\nRob\n", "drawn: ", "in round 1, at the next draw from the bag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "b.json")
			args := append([]string{"play"}, tt.args...)
			rounds := append(slices.Clone(args), "--rounds", "1")
			straight := runCmd(t, tt.before+tt.after, rounds...)
			expectation{code: 0}.check(t, straight)

			r := runCmd(t, tt.before+"save "+file+"\nquit\n", args...)
			expectation{code: 0, stdout: []string{
				tt.prompt + "save " + file + "\n  saved to " + file + "\n" + tt.prompt + "quit\n",
			}, stderr: []string{
				"stopped " + tt.where + ": " + file + " holds the battle as it stands; resume it with `turnorder play ",
			}, oneLine: true, notStdout: []string{"cannot be saved", "is not a number", "is not one of the options"}}.check(t, r)

			res := runCmd(t, tt.after, "play", tt.args[0], "--resume", file, "--rounds", "1")
			expectation{code: 0, stdout: []string{"resumed from " + file + " " + tt.where + "\n", tt.prompt}}.check(t, res)
			if got, want := lastRound(res.stdout), lastRound(straight.stdout); got != want {
				t.Errorf("the resumed battle ends otherwise than the unbroken one:\n--- unbroken\n%s--- resumed\n%s", want, got)
			}
		})
	}
}

// lastRound returns what play said of the last round's end: its order and
// activations (without the "saved to FILE" of --save).
func lastRound(stdout string) string {
	i := strings.LastIndex(stdout, "  → order: ")
	if i < 0 {
		return ""
	}
	end, _, _ := strings.Cut(stdout[i:], "  the battle after")
	return withoutSaves(end)
}

// "help" at the activation prompt says that the battle can be saved there.
func TestPlayActivationHelpSays(t *testing.T) {
	dir := t.TempDir()
	r := runCmd(t, "4\n2\nhelp\na1\nb1\na2\n", "play", "necromunda", "--setup", gangsSetup(t, dir), "--save", filepath.Join(dir, "s.json"), "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"A activates [a1]: help\n  save [FILE]: save the battle as it stands, to resume it here with --resume (without FILE, to " + filepath.Join(dir, "s.json") + ")\n  quit: stop here, once the battle as it stands is saved (play says how to resume it)\n" +
			"  undo: take back the last answer (or change), and ask it again; undo again goes further back, to the start of the battle\n  type the number or the name of one of these:\n",
	}}.check(t, r)

	help := runCmd(t, "", "help", "play")
	expectation{code: 0, stdout: []string{
		"At every prompt of a battle (a die, a random pick, a choice, the unit to\nactivate",
		"  undo                      take back the last answer (or the last change)\n",
		"even\nin the middle of a roll-off",
		"after every round and after every\nactivation",
	}}.check(t, help)
}

// A unit whose name starts with save or quit: "save" and "quit" are the
// prompt's commands, not the start of its name; its whole name (in any
// case) or its number picks it, and the prompt's help says so.
func TestPlaySaveQuitBeforeUnitPrefix(t *testing.T) {
	dir := t.TempDir()
	setup := writeFile(t, dir, "gangs.rules", "side A {\n  unit saveguard\n  unit a2\n}\nside B {\n  unit b1\n  unit quitter\n}\n")
	part := filepath.Join(dir, "part.json")
	r := runCmd(t, "4\n2\nhelp\nsave "+part+"\nsave\n\nSaveguard\nquit\nquit\nquitter\n", "play", "necromunda", "--setup", setup, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"  a unit whose name starts with save, quit or undo: type its whole name, or its number (save, quit and undo alone are the prompt's)\n",
		"A activates [saveguard]: save " + part + "\n  saved to " + part + "\n",
		"A activates [saveguard]: save\nsave to which file? \n  not saved: name a file",
		"A activates [saveguard]: Saveguard\n  A activates saveguard\n",
		"B activates [b1]: quit\n  the battle is not saved as it stands",
		"B activates [b1]: quitter\n  B activates quitter\n",
	}}.check(t, r)
	// Or a longer start of its name.
	r = runCmd(t, "4\n2\nsaveg\nquitt\n", "play", "necromunda", "--setup", setup, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"A activates [saveguard]: saveg\n  A activates saveguard\n",
		"B activates [b1]: quitt\n  B activates quitter\n",
	}}.check(t, r)
	// A unit whose whole name is save or quit wins over the command, and
	// the help says how to save there.
	exact := writeFile(t, dir, "exact.rules", "side A {\n  unit save\n  unit a2\n}\nside B {\n  unit b1\n  unit quit\n}\n")
	r = runCmd(t, "4\n2\nhelp\nsave "+part+"\nsave\nhelp\nquit\n", "play", "necromunda", "--setup", exact, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"  save alone picks the unit save here: type save FILE to save the battle\n",
		"A activates [save]: save " + part + "\n  saved to " + part + "\nA activates [save]: save\n  A activates save\n",
		"  quit picks the unit quit here: play can stop at the next prompt that asks which unit activates\n",
		"B activates [b1]: quit\n  B activates quit\n",
	}, notStdout: []string{"a unit whose name starts with"}}.check(t, r)

	// Without such a unit, the help does not say it.
	r = runCmd(t, "4\n2\nhelp\na1\nb1\na2\n", "play", "necromunda", "--setup", gangsSetup(t, dir), "--rounds", "1")
	expectation{code: 0, notStdout: []string{"a unit whose name starts with"}}.check(t, r)
}

// In activation draw, the prompt that asks which colour came out of the
// bag is between two turns too: nothing of the turn is played before the
// die is drawn. There the battle can be saved, play stops with quit once
// it is in a file, and a unit removed takes its die out of the bag.
func TestPlayDrawPromptSavesAndStops(t *testing.T) {
	dir := t.TempDir()
	rules, err := filepath.Abs("../../examples/procedures/dice-bag.rules")
	if err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, "part.json")
	r := runCmd(t, "2\n1\nquit\nhelp\nremove j1\nsave "+part+"\nquit\n", "play", rules)
	expectation{code: 0, stdout: []string{
		"drawn: quit\n  the battle is not saved as it stands: type save FILE first, then quit (or end the input to stop without saving it)\n",
		"drawn: help\n  draw a die from the bag at the table, then type whose it is\n  save [FILE]: save the battle as it stands",
		"  remove UNIT               take a fallen model out of the battle\n",
		"drawn: remove j1\n  j1 is removed from the battle; it was Ready, and no longer activates this round\n" +
			"Round 1: draw a die from the bag (Jay 2, Rob 1): whose colour is it?\n  1. Jay\n  2. Rob\n" +
			"drawn: save " + part + "\n  saved to " + part + "\ndrawn: quit\n",
	}, stderr: []string{
		"stopped in round 1, at the next draw from the bag: " + part + " holds the battle as it stands; resume it with `turnorder play " + rules + " --resume " + part + "`\n",
	}, oneLine: true, notStdout: []string{"cannot be saved"}}.check(t, r)
	round, in, ready := savedReady(t, part)
	if diff := cmp.Diff([]any{1, true, []string{"j2", "j3", "r2"}}, []any{round, in, ready}); diff != "" {
		t.Errorf("saved round, in mid-round, Ready (-want +got):\n%s", diff)
	}

	// Resumed, the draw is asked again, from the bag as it was saved.
	res := runCmd(t, "quit\n1\n1\n", "play", rules, "--resume", part, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"resumed from " + part + " in round 1, at the next draw from the bag\n  Ready: j2, j3, r2\n",
		"Round 1: draw a die from the bag (Jay 2, Rob 1): whose colour is it?\n",
	}, stderr: []string{"stopped in round 1, at the next draw from the bag: " + part + " holds the battle as it stands"}}.check(t, res)
	res = runCmd(t, "1\n1\n1\n", "play", rules, "--resume", part, "--rounds", "1")
	expectation{code: 0, stdout: []string{"  → activations: Rob: r1; Jay: j2; Jay: j3; Rob: r2\n"}}.check(t, res)
}

// A ruleset with no activation loop (mesbg) has no prompt that asks which
// unit activates: a change in the middle of its roll-off points the
// players to "another round?" alone; quit there stops once the battle is
// saved, as at every prompt.
func TestPlayRefusalsWithoutActivations(t *testing.T) {
	r := runCmd(t, "quit\nremove Jay\n4\n2\n1\n", "play", "mesbg", "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1, priority: Jay rolls d6: quit\n  the battle is not saved as it stands: type save FILE first, then quit (or end the input to stop without saving it)\n",
		"Round 1, priority: Jay rolls d6: remove Jay\n  no change can be made in the middle of a roll: an order is being made, and a change would alter what it is made of half way through; make it at \"another round?\"\n",
	}, notStdout: []string{"activated"}}.check(t, r)
}
