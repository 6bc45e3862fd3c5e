package main

// Tests of how play stops, and of the command it gives to resume.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

// Players who save at the prompt that asks which unit activates, and leave,
// stop cleanly: "quit" there, once the battle as it stands is in a file
// (saved there, or by --save), or the end of the input there, ends with
// status 0, saying which file holds the battle and the command that
// resumes it. Without a save, "quit" is refused, and the end of the input
// is an error as before: the players lose what is not saved.
func TestPlayQuitInMidRound(t *testing.T) {
	dir := t.TempDir()
	setup := gangsSetup(t, dir)
	part := filepath.Join(dir, "part.json")

	// save, then quit.
	r := runCmd(t, "4\n2\na2\nsave "+part+"\nquit\n", "play", "necromunda", "--setup", setup)
	expectation{code: 0, stdout: []string{"B activates [b1]: quit\n"}, stderr: []string{
		"stopped in round 1, at B's activation: " + part + " holds the battle as it stands; resume it with `turnorder play necromunda --resume " + part + "`\n",
	}, oneLine: true}.check(t, r)
	res := runCmd(t, "b2\na1\n", "play", "necromunda", "--resume", part, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"resumed from " + part + " in round 1, at B's activation\n",
		"  → activations: A: a2; B: b2; A: a1; B: b1; A: a3\n",
	}}.check(t, res)

	// Resumed, the --resume file holds the battle as it stands until it
	// moves on: quit stops at once.
	r = runCmd(t, "quit\n", "play", "necromunda", "--resume", part)
	expectation{code: 0, stderr: []string{
		"stopped in round 1, at B's activation: " + part + " holds the battle as it stands; resume it with `turnorder play necromunda --resume " + part + "`\n",
	}, oneLine: true}.check(t, r)
	r = runCmd(t, "b2\nquit\n", "play", "necromunda", "--resume", part)
	expectation{code: 1, stdout: []string{"A activates [a1]: quit\n  the battle is not saved as it stands"}, stderr: []string{
		"input ended in round 1, before the round was over (nothing was saved; " + part + " still holds the battle as it was in round 1, at B's activation)\n",
	}, oneLine: true}.check(t, r)

	// The end of the input right after the save (help changes nothing).
	os.Remove(part)
	r = runCmd(t, "4\n2\na2\nsave "+part+"\nhelp\n", "play", "necromunda", "--setup", setup)
	expectation{code: 0, stderr: []string{
		"input ended in round 1, at B's activation, where the battle was saved: " + part + " holds it as it stands; resume it with `turnorder play necromunda --resume " + part + "`\n",
	}, oneLine: true}.check(t, r)

	// With --save, the file holds the battle at every activation prompt:
	// quit stops there, and the command resumes with --save too.
	saved := filepath.Join(dir, "saved.json")
	r = runCmd(t, "4\n2\na2\nquit\n", "play", "necromunda", "--setup", setup, "--save", saved)
	expectation{code: 0, stderr: []string{
		"stopped in round 1, at B's activation: " + saved + " holds the battle as it stands; resume it with `turnorder play necromunda --resume " + saved + " --save " + saved + "`\n",
	}, oneLine: true}.check(t, r)
	if round, in, ready := savedReady(t, saved); round != 1 || !in || strings.Join(ready, ",") != "a1,a3,b1,b2" {
		t.Errorf("saved: round %d, in mid-round %v, Ready %v; want round 1 in mid-round, Ready a1, a3, b1, b2", round, in, ready)
	}

	// Without a save, quit says what to do, and the battle goes on.
	r = runCmd(t, "4\n2\nquit\na2\nsave "+part+"\nquit\n", "play", "necromunda", "--setup", setup)
	expectation{code: 0, stdout: []string{
		"A activates [a1]: quit\n  the battle is not saved as it stands: type save FILE first, then quit (or end the input to stop without saving it)\nA activates [a1]: a2\n",
	}}.check(t, r)
	// A save made before the last activation is not the battle as it stands.
	r = runCmd(t, "4\n2\nsave "+part+"\na2\nquit\n", "play", "necromunda", "--setup", setup)
	expectation{code: 1, stdout: []string{"B activates [b1]: quit\n  the battle is not saved as it stands: type save FILE first"}, stderr: []string{
		"input ended in round 1, before the round was over (" + part + " holds the battle as it was in round 1, at A's activation)\n",
	}, oneLine: true}.check(t, r)
	// With --save, the file written after the activation holds it: the
	// end of the input there is clean, as quit would be.
	r = runCmd(t, "4\n2\nsave\na2\n", "play", "necromunda", "--setup", setup, "--save", saved)
	expectation{code: 0, stderr: []string{
		"input ended in round 1, at B's activation, where the battle was saved: " + saved + " holds it as it stands; resume it with `turnorder play necromunda --resume " + saved + " --save " + saved + "`\n",
	}, oneLine: true}.check(t, r)
	// The end of the input with no save at all is the error it was.
	r = runCmd(t, "4\n2\n", "play", "necromunda", "--setup", setup)
	expectation{code: 1, stderr: []string{"input ended in round 1, before the round was over (nothing was saved)\n"}, oneLine: true}.check(t, r)

	// At a die too, quit stops once a file holds the battle as it
	// stands, and says so until one does.
	r = runCmd(t, "quit\n4\nsave "+part+"\nquit\n", "play", "necromunda", "--setup", setup, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1, priority: A rolls d6: quit\n  the battle is not saved as it stands: type save FILE first, then quit (or end the input to stop without saving it)\n",
		"Round 1, priority: B rolls d6: save " + part + "\n  saved to " + part + "\nRound 1, priority: B rolls d6: quit\n",
	}, stderr: []string{
		"stopped in round 1, at B's roll for priority: " + part + " holds the battle as it stands; resume it with `turnorder play necromunda --resume " + part + " --rounds 1` (the rounds left of --rounds 1: the rest of round 1)\n",
	}, oneLine: true, notStdout: []string{"is not a number"}}.check(t, r)

	// help at the activation prompt lists quit.
	r = runCmd(t, "4\n2\nhelp\na1\nb1\na2\n", "play", "necromunda", "--setup", setup, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"\n  quit: stop here, once the battle as it stands is saved (play says how to resume it)\n",
	}}.check(t, r)
	help := runCmd(t, "", "help", "play")
	expectation{code: 0, stdout: []string{`"quit" there stops`}}.check(t, help)
}

// In activation draw the die comes out of the bag before the side is asked
// which unit activates: with --save, the file holds the battle with the
// die drawn at that prompt too, so that quit stops there as --save
// promises, and the battle resumes with the same die out of the bag.
func TestPlayQuitAfterADrawWithSave(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "s.json")
	rules, err := filepath.Abs("../../examples/procedures/dice-bag.rules")
	if err != nil {
		t.Fatal(err)
	}
	r := runCmd(t, "Jay\nquit\n", "play", rules, "--save", saved)
	expectation{code: 0, stderr: []string{
		"stopped in round 1, at Jay's activation: " + saved + " holds the battle as it stands; resume it with `turnorder play " + rules + " --resume " + saved + " --save " + saved + "`\n",
	}, oneLine: true}.check(t, r)
	// Resumed, Jay is asked again, with no draw.
	r = runCmd(t, "j2\n", "play", rules, "--resume", saved, "--rounds", "1")
	expectation{code: 1, stdout: []string{"Jay activates [j1]: j2\n"}}.check(t, r)
}

// A session started with --rounds N that stops in mid-round gives the
// command that plays the rounds left of the N, the one under way included
// (with --resume, --rounds counts it as the first), and says which they
// are; the battle resumed with it stops where the N rounds end.
func TestPlayStopKeepsRounds(t *testing.T) {
	dir := t.TempDir()
	setup := gangsSetup(t, dir)
	saved := filepath.Join(dir, "s.json")
	resume := "resume it with `turnorder play necromunda --resume " + saved + " --save " + saved

	// quit in round 1 of 3.
	r := runCmd(t, "4\n2\nquit\n", "play", "necromunda", "--setup", setup, "--save", saved, "--rounds", "3")
	expectation{code: 0, stderr: []string{
		"stopped in round 1, at A's activation: " + saved + " holds the battle as it stands; " + resume + " --rounds 3` (the rounds left of --rounds 3: the rest of round 1, and rounds 2 and 3)\n",
	}, oneLine: true}.check(t, r)
	// Resumed so, the input ends in round 2, at an activation prompt.
	r = runCmd(t, "a2\nb2\na1\n3\n5\n", "play", "necromunda", "--resume", saved, "--save", saved, "--rounds", "3")
	expectation{code: 0, stderr: []string{
		"input ended in round 2, at B's activation, where the battle was saved: " + saved + " holds it as it stands; " + resume + " --rounds 2` (the rounds left of --rounds 3: the rest of round 2, and round 3)\n",
	}, oneLine: true}.check(t, r)
	// And the command given plays round 2's rest and round 3, no more.
	r = runCmd(t, "b1\na3\nb2\na1\n1\n6\nb1\na1\nb2\na2\n", "play", "necromunda", "--resume", saved, "--save", saved, "--rounds", "2")
	expectation{code: 0, stdout: []string{
		"  → activations: B: b1; A: a3; B: b2; A: a1; B passes; A: a2\n",
		"\nRound 3\n",
		"  → activations: B: b1; A: a1; B: b2; A: a2; B passes; A: a3\n",
	}, notStdout: []string{"Round 4", "another round?"}}.check(t, r)
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}

	// Without --rounds, play asks after each round: the command has none.
	r = runCmd(t, "4\n2\nquit\n", "play", "necromunda", "--setup", setup, "--save", saved)
	expectation{code: 0, stderr: []string{resume + "`\n"}, notStderr: []string{"--rounds"}}.check(t, r)

	for _, tt := range []struct {
		round, left int
		want        string
	}{
		{1, 1, "the rest of round 1"},
		{2, 2, "the rest of round 2, and round 3"},
		{1, 3, "the rest of round 1, and rounds 2 and 3"},
		{3, 5, "the rest of round 3, and rounds 4 to 7"},
	} {
		if got := roundsLeft(tt.round, tt.left); got != tt.want {
			t.Errorf("roundsLeft(%d, %d) = %q, want %q", tt.round, tt.left, got, tt.want)
		}
	}
}
