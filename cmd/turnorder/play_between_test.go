package main

// Tests of the prompts between rounds and between two turns, of what they
// take besides the answer (save, quit, the changes), and of what the other
// prompts say to those words.

import (
	"fmt"
	"os"
	"path/filepath"
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

// Where the runtime cannot save (a roll, a random pick, the choice of an
// order), "save" says why not, and when it can: between rounds, or, in a
// ruleset whose sides choose which unit activates (morturi), at that
// prompt. (The draw from the bag can be saved:
// TestPlayDrawPromptSavesAndStops.)
func TestPlaySaveRefusedWhereItCannot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "b.json")
	const why = "  the battle cannot be saved %s: it can be saved between rounds, at \"another round?\"\n"
	const whyActivation = "  the battle cannot be saved %s: a battle can be saved between rounds, or when a unit is to be activated\n"
	tests := []struct {
		name, in string
		args     []string
		want     string
	}{
		{"roll", "save\nsave " + file + "\n4\n2\n1\n", []string{"mesbg"}, "Round 1, priority: Jay rolls d6: save\n" + fmt.Sprintf(why, "in the middle of a roll") +
			"Round 1, priority: Jay rolls d6: save " + file + "\n" + fmt.Sprintf(why, "in the middle of a roll")},
		{"choice of who goes first", "4\n2\nsave\n1\n", []string{"mesbg"}, "Jay chooses [Jay]: save\n" + fmt.Sprintf(why, "while Jay chooses who goes first")},
		{"random pick", "save\n2\n", []string{"morturi", "--setup", writeFile(t, dir, "equal.rules", "side A {\n  unit a1\n}\nside B {\n  unit b1\n}\n")},
			"random pick: save\n" + fmt.Sprintf(whyActivation, "in the middle of a random pick")},
		{"before or after", "5\n5\n4\n2\nsave\nafter\n", []string{"agi"}, "A chooses [before]: save\n" + fmt.Sprintf(why, "while A chooses before or after")},
		{"arrangement", "save\n2, 1\n", []string{"agi", "--setup", writeFile(t, dir, "team.rules", "side A team Red {\n  unit Aria agi = 5\n}\nside B team Blue {\n  unit Bran agi = 3\n}\nside C team Red {\n  unit Cole agi = 5\n}\n")},
			"Red arranges [Aria, Cole]: save\n" + fmt.Sprintf(why, "while Red arranges them")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, tt.in, append(append([]string{"play"}, tt.args...), "--rounds", "1")...)
			expectation{code: 0, stdout: []string{tt.want}, notStdout: []string{"is not a number", "is not one of the options", "saved to"}}.check(t, r)
			if _, err := os.Stat(file); err == nil {
				t.Errorf("%s was written", file)
			}
		})
	}

	// While a change made between rounds asks for dice, it can be saved
	// once the change is done.
	r := runCmd(t, "5\n5\n4\n2\nafter\nset agi of Cole = 5\nsave\n1\n2\n3\nn\n", "play", "agi")
	expectation{code: 0, stdout: []string{
		"Aria rolls d6: save\n  the battle cannot be saved in the middle of a roll: it can be saved once the change is done, at \"another round?\"\n",
	}}.check(t, r)
}

// "help" at the activation prompt says that the battle can be saved there.
func TestPlayActivationHelpSays(t *testing.T) {
	dir := t.TempDir()
	r := runCmd(t, "4\n2\nhelp\na1\nb1\na2\n", "play", "necromunda", "--setup", gangsSetup(t, dir), "--save", filepath.Join(dir, "s.json"), "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"A activates [a1]: help\n  save [FILE]: save the battle as it stands, to resume it here with --resume (without FILE, to " + filepath.Join(dir, "s.json") + ")\n  quit: stop here, once the battle as it stands is saved (play says how to resume it)\n  type the number or the name of one of these:\n",
	}}.check(t, r)

	help := runCmd(t, "", "help", "play")
	expectation{code: 0, stdout: []string{
		`"save" or "save FILE"
at the prompt that asks which unit activates`,
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
		"  a unit whose name starts with save or quit: type its whole name, or its number (save and quit alone are the prompt's)\n",
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
// unit activates: quit and changes in the middle of its roll-off point
// the players to "another round?" alone.
func TestPlayRefusalsWithoutActivations(t *testing.T) {
	r := runCmd(t, "quit\nremove Jay\n4\n2\n1\n", "play", "mesbg", "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1, priority: Jay rolls d6: quit\n  play cannot stop in the middle of a roll: it can stop once the round is over, at \"another round?\"\n",
		"Round 1, priority: Jay rolls d6: remove Jay\n  no change can be made in the middle of a roll: an order is being made, and a change would alter what it is made of half way through; make it at \"another round?\"\n",
	}, notStdout: []string{"activated"}}.check(t, r)
}
