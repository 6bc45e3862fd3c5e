package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gangsSetup writes two Necromunda gangs: A with three fighters, B with two.
func gangsSetup(t *testing.T, dir string) string {
	t.Helper()
	return writeFile(t, dir, "gangs.rules", "side A {\n  unit a1\n  unit a2\n  unit a3\n}\nside B {\n  unit b1\n  unit b2\n}\n")
}

// savedReady returns, from a saved battle, its round, whether it was saved
// in mid-round, and the units with a Ready marker.
func savedReady(t *testing.T, path string) (round int, inRound bool, ready []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Round   int             `json:"round"`
		Current json.RawMessage `json:"current"`
		Sides   []struct {
			Units []struct {
				Name  string `json:"name"`
				Ready bool   `json:"ready"`
			} `json:"units"`
		} `json:"sides"`
	}
	if err := json.Unmarshal(data, &snap); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, s := range snap.Sides {
		for _, u := range s.Units {
			if u.Ready {
				ready = append(ready, u.Name)
			}
		}
	}
	return snap.Round, len(snap.Current) > 0 && string(snap.Current) != "null", ready
}

// withoutSaves drops the "saved to FILE" lines, which name each session's
// own file.
func withoutSaves(s string) string {
	var out []string
	for _, line := range strings.SplitAfter(s, "\n") {
		if !strings.HasPrefix(line, "  saved to ") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}

// Necromunda's activation loop is the whole game turn: "save" at the prompt
// that asks which fighter activates saves the battle there, and --resume
// continues the round exactly where it stopped, with the same prompt and
// Ready markers, to the same end as a battle played without a break.
func TestPlaySaveInMidRound(t *testing.T) {
	dir := t.TempDir()
	setup := gangsSetup(t, dir)
	const before = "4\n2\na2\nb2\na1\ny\n3\n5\nb1\n" // round 1, and round 2 up to A's turn
	const after = "a3\na1\ny\n6\n1\na1\nb1\na2\nn\n" // the rest of round 2, and round 3
	whole := filepath.Join(dir, "whole.json")
	w := runCmd(t, before+after, "play", "necromunda", "--setup", setup, "--save", whole)
	expectation{code: 0, stdout: []string{"\nRound 3\n"}}.check(t, w)

	// Saved at A's turn in round 2, with FILE; then the players stop: the
	// end of the input right after a save is a clean stop.
	part := filepath.Join(dir, "part.json")
	r := runCmd(t, before+"save "+part+"\n", "play", "necromunda", "--setup", setup)
	expectation{code: 0, stdout: []string{
		"Round 2: A activates:\n  1. a1\n  2. a2\n  3. a3\nA activates [a1]: save " + part + "\n  saved to " + part + "\nA activates [a1]: \n",
	}, stderr: []string{
		"input ended in round 2, at A's activation, where the battle was saved: " + part + " holds it as it stands; resume it with `turnorder play necromunda --resume " + part + "`\n",
	}, oneLine: true}.check(t, r)
	// What was played up to the save is the whole battle's.
	upTo, _, _ := strings.Cut(r.stdout, "save "+part+"\n")
	if !strings.HasPrefix(withoutSaves(w.stdout), upTo) {
		t.Errorf("the session that saved differs from the whole battle before the save:\n--- whole\n%s--- saved\n%s", w.stdout, upTo)
	}
	if round, in, ready := savedReady(t, part); round != 2 || !in || strings.Join(ready, ",") != "a1,a2,a3,b2" {
		t.Errorf("saved: round %d, in mid-round %v, Ready %v; want round 2 in mid-round, Ready a1, a2, a3, b2", round, in, ready)
	}

	// Resumed, the round goes on at the same prompt, and the rest of the
	// battle is the unbroken one's.
	res := runCmd(t, after, "play", "necromunda", "--resume", part, "--save", part)
	expectation{code: 0, stdout: []string{
		"resumed from " + part + " in round 2, at A's activation\n  Ready: a1, a2, a3, b2\n  order: B, A   holder: B   chooser: none\n  activations so far: B: b1\nEnter each die",
		"  → activations: B: b1; A: a3; B: b2; A: a1; B passes; A: a2\n",
	}, notStdout: []string{"\nRound 2\n", "Round 2, priority", "Round 2: B activates"}}.check(t, res)
	if res.stderr != "" {
		t.Errorf("stderr: %s", res.stderr)
	}
	const prompt = "Round 2: A activates:\n"
	_, wantRest, _ := strings.Cut(w.stdout, "  B activates b1\n"+prompt)
	_, gotRest, ok := strings.Cut(res.stdout, prompt)
	if !ok || withoutSaves(gotRest) != withoutSaves(wantRest) {
		t.Errorf("the resumed battle differs from the unbroken one (from A's activation in round 2):\n--- unbroken\n%s--- resumed\n%s", wantRest, gotRest)
	}
	// And it ends as the same battle.
	a, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(part)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("the resumed battle's save differs from the unbroken one's:\n--- unbroken\n%s--- resumed\n%s", a, b)
	}

	// A bare "save" writes to the --save file, and the pass prompt saves
	// too: Rob may pass here (fewer-may-pass), and "save" is not a pass.
	const rules = "../../examples/procedures/fewer-may-pass.rules"
	bare := filepath.Join(dir, "bare.json")
	r = runCmd(t, "1\n6\nsave\n", "play", rules, "--save", bare)
	expectation{code: 0, stdout: []string{
		"Round 1: Rob activates:\n  1. r1\n  2. r2\n  3. pass\nRob activates [r1]: save\n  saved to " + bare + "\n",
	}, stderr: []string{": " + bare + " holds it as it stands; resume it with `turnorder play "}}.check(t, r)
	res = runCmd(t, "pass\n1\n1\n1\n", "play", rules, "--resume", bare, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"resumed from " + bare + " in round 1, at Rob's activation\n",
		"Round 1: Rob activates:\n  1. r1\n  2. r2\n  3. pass\nRob activates [r1]: pass\n  Rob passes (chose to pass)\n",
		"  → activations: Rob passes; Jay: j1; Rob: r1; Jay: j2; Rob: r2; Jay: j3\n",
	}}.check(t, res)

	// Without --save, a bare "save" writes to the --resume file.
	res = runCmd(t, "save\n", "play", rules, "--resume", bare)
	expectation{code: 0, stdout: []string{"Rob activates [r1]: save\n  saved to " + bare + "\n"}, notStdout: []string{"which file"}}.check(t, res)
}

// In activation draw, a battle saved when the side drawn is to choose its
// unit holds the die drawn: resumed, that side chooses, and nothing is
// drawn again.
func TestPlaySaveInMidRoundDraw(t *testing.T) {
	dir := t.TempDir()
	const rules = "../../examples/procedures/dice-bag.rules"
	whole := runCmd(t, "2\n1\n1\n1\nJay\n1\nRob\n", "play", rules, "--rounds", "1")
	saved := filepath.Join(dir, "bag.json")
	r := runCmd(t, "2\n1\n1\nsave "+saved+"\n", "play", rules, "--rounds", "1")
	expectation{code: 0, stdout: []string{"Jay activates [j1]: save " + saved + "\n  saved to " + saved + "\n"}}.check(t, r)
	res := runCmd(t, "1\nJay\n1\nRob\n", "play", rules, "--resume", saved, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"resumed from " + saved + " in round 1, at Jay's activation\n",
		"  → activations: Rob: r1; Jay: j1; Jay: j2; Rob: r2; Jay: j3\n",
	}}.check(t, res)
	const prompt = "Round 1: Jay activates:\n"
	_, wantRest, _ := strings.Cut(whole.stdout, "drawn: 1\n"+prompt)
	_, gotRest, ok := strings.Cut(res.stdout, prompt)
	// The rounds' transcripts, without the sessions' last words, that the
	// battle is not saved, which name the --resume file in one of them.
	wantRest, _, _ = strings.Cut(wantRest, "  the battle after round 1 is not saved")
	gotRest, _, _ = strings.Cut(gotRest, "  the battle after round 1 is not saved")
	if !ok || gotRest != wantRest {
		t.Errorf("the resumed round differs from the unbroken one:\n--- unbroken\n%s--- resumed\n%s", wantRest, gotRest)
	}
	if strings.Contains(res.stdout, "whose colour is it?\n  1. Jay\n  2. Rob\ndrawn: 1\nRound 1: Jay activates") {
		t.Errorf("the die drawn before the save is drawn again:\n%s", res.stdout)
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

// With --save, play writes the battle after every activation: an input
// that ends in mid-round loses at most the activation under way, and the
// file resumes there.
func TestPlaySaveAfterEachActivation(t *testing.T) {
	dir := t.TempDir()
	setup := gangsSetup(t, dir)
	saved := filepath.Join(dir, "battle.json")

	// Before the round reaches its first activation (in the roll-off),
	// nothing is saved yet.
	r := runCmd(t, "4\n", "play", "necromunda", "--setup", setup, "--save", saved)
	expectation{code: 1, stderr: []string{"input ended in round 1, before the round was over (nothing was saved)\n"}, oneLine: true}.check(t, r)
	if _, err := os.Stat(saved); err == nil {
		t.Errorf("%s was written in the roll-off", saved)
	}

	var ready []string
	// Every activation played leaves the file at the next one: the input
	// that ends there loses nothing, and play stops cleanly.
	for _, tt := range []struct {
		in, at, ready string
	}{
		{"4\n2\na2\n", "at B's activation", "a1,a3,b1,b2"},
		{"4\n2\na2\nb2\n", "at A's activation", "a1,a3,b1"},
	} {
		os.Remove(saved)
		r := runCmd(t, tt.in, "play", "necromunda", "--setup", setup, "--save", saved)
		expectation{code: 0, stderr: []string{
			"input ended in round 1, " + tt.at + ", where the battle was saved: " + saved + " holds it as it stands; resume it with `turnorder play necromunda --resume " + saved + " --save " + saved + "`\n",
		}, oneLine: true, notStdout: []string{"saved to"}}.check(t, r)
		var round int
		var in bool
		round, in, ready = savedReady(t, saved)
		if round != 1 || !in || strings.Join(ready, ",") != tt.ready {
			t.Errorf("after %q: saved round %d, in mid-round %v, Ready %v; want round 1 in mid-round, Ready %s", tt.in, round, in, ready, tt.ready)
		}
	}
	// In activation draw, the file waits for the next die from the bag,
	// and the input that ends there, where quit stops too, loses nothing.
	bag := filepath.Join(dir, "bag.json")
	r = runCmd(t, "2\n1\n", "play", "../../examples/procedures/dice-bag.rules", "--save", bag)
	expectation{code: 0, stderr: []string{"input ended in round 1, at the next draw from the bag, where the battle was saved: " + bag + " holds it as it stands; resume it with `turnorder play "}, oneLine: true}.check(t, r)
	r = runCmd(t, "1\n1\nJay\n1\nRob\n", "play", "../../examples/procedures/dice-bag.rules", "--resume", bag, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"resumed from " + bag + " in round 1, at the next draw from the bag\n  Ready: j1, j2, j3, r2\n",
		"  → activations: Rob: r1; Jay: j1; Jay: j2; Rob: r2; Jay: j3\n",
	}}.check(t, r)

	// Resumed, no die is asked again.
	res := runCmd(t, "a1\n", "play", "necromunda", "--resume", saved, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"resumed from " + saved + " in round 1, at A's activation\n  Ready: a1, a3, b1\n",
		"  → activations: A: a2; B: b2; A: a1; B: b1; A: a3\n",
	}, notStdout: []string{"rolls d6"}}.check(t, res)

	// A resumed session that has not saved: where nothing is played since,
	// the --resume file holds the battle as it stands, and the input that
	// ends at the activation prompt is a clean stop (TestPlayQuitInMidRound
	// has the one that ends after an activation).
	res = runCmd(t, "", "play", "necromunda", "--resume", saved)
	expectation{code: 0, stderr: []string{
		"input ended in round 1, at A's activation, where the battle was saved: " + saved + " holds it as it stands; resume it with `turnorder play necromunda --resume " + saved + "`\n",
	}, oneLine: true}.check(t, res)
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

// With --save, play writes the battle also when a round reaches its first
// activation prompt: an input that ends there loses none of the round's
// opening dice and decisions (the priority roll-off), and the file resumes
// at that prompt without asking them again. An input that ends before,
// in the roll-off, still loses it.
func TestPlaySaveAtRoundsFirstActivation(t *testing.T) {
	dir := t.TempDir()
	setup := gangsSetup(t, dir)
	saved := filepath.Join(dir, "battle.json")

	// Round 1: the roll-off, then the input ends at A's first activation,
	// where the file holds it all: a clean stop.
	r := runCmd(t, "4\n2\n", "play", "necromunda", "--setup", setup, "--save", saved)
	expectation{code: 0, stderr: []string{
		"input ended in round 1, at A's activation, where the battle was saved: " + saved + " holds it as it stands; resume it with `turnorder play necromunda --resume " + saved + " --save " + saved + "`\n",
	}, oneLine: true, notStdout: []string{"saved to"}}.check(t, r)
	if round, in, ready := savedReady(t, saved); round != 1 || !in || strings.Join(ready, ",") != "a1,a2,a3,b1,b2" {
		t.Errorf("saved: round %d, in mid-round %v, Ready %v; want round 1 in mid-round, every unit Ready", round, in, ready)
	}
	res := runCmd(t, "a2\nb2\na1\n", "play", "necromunda", "--resume", saved, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"resumed from " + saved + " in round 1, at A's activation\n  Ready: a1, a2, a3, b1, b2\n",
		"  → activations: A: a2; B: b2; A: a1; B: b1; A: a3\n",
	}, notStdout: []string{"rolls d6"}}.check(t, res)

	// Round 2 too: the file is no longer the one written after round 1.
	os.Remove(saved)
	r = runCmd(t, "4\n2\na2\nb2\na1\ny\n3\n5\n", "play", "necromunda", "--setup", setup, "--save", saved)
	expectation{code: 0, stderr: []string{
		"input ended in round 2, at B's activation, where the battle was saved: " + saved + " holds it as it stands; resume it with `turnorder play necromunda --resume " + saved + " --save " + saved + "`\n",
	}, oneLine: true}.check(t, r)
	if round, in, _ := savedReady(t, saved); round != 2 || !in {
		t.Errorf("saved: round %d, in mid-round %v; want round 2 in mid-round", round, in)
	}

	// The input ends in the roll-off: nothing of the round is saved.
	os.Remove(saved)
	r = runCmd(t, "4\n", "play", "necromunda", "--setup", setup, "--save", saved)
	expectation{code: 1, stderr: []string{"input ended in round 1, before the round was over (nothing was saved)\n"}, oneLine: true}.check(t, r)
	if _, err := os.Stat(saved); err == nil {
		t.Errorf("%s was written in the roll-off", saved)
	}
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

	// Where play cannot stop in a round, quit says where it can.
	r = runCmd(t, "quit\n4\n2\na1\nb1\na2\n", "play", "necromunda", "--setup", setup, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Round 1, priority: A rolls d6: quit\n  play cannot stop in the middle of a roll: it can stop when a unit is to be activated, once the battle is saved there, or at \"another round?\"\n",
	}, notStdout: []string{"is not a number"}}.check(t, r)

	// help at the activation prompt lists quit.
	r = runCmd(t, "4\n2\nhelp\na1\nb1\na2\n", "play", "necromunda", "--setup", setup, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"\n  quit: stop here, once the battle as it stands is saved (play says how to resume it)\n",
	}}.check(t, r)
	help := runCmd(t, "", "help", "play")
	expectation{code: 0, stdout: []string{`"quit" there stops`}}.check(t, help)
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

// The command a stop prints to resume the battle can be pasted into a
// shell: a path with spaces or quotes is quoted.
func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"necromunda":           "necromunda",
		"/tmp/a-b/battle.json": "/tmp/a-b/battle.json",
		"my battle.json":       "'my battle.json'",
		"Jay's.json":           `'Jay'\''s.json'`,
		"":                     "''",
	} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %s, want %s", in, got, want)
		}
	}
	// As the stop says it.
	dir := t.TempDir()
	part := filepath.Join(dir, "my battle.json")
	r := runCmd(t, "4\n2\nsave "+part+"\nquit\n", "play", "necromunda", "--setup", gangsSetup(t, dir))
	expectation{code: 0, stderr: []string{"resume it with `turnorder play necromunda --resume '" + part + "'`\n"}}.check(t, r)
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
		"In a round, remove, set and is can be typed too, between two turns",
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
// follow the new order, and while it asks, the battle cannot be saved nor
// play stop nor another change be made. An input that ends then loses
// the change, and says so.
func TestPlayChangeInMidRoundRecomputes(t *testing.T) {
	dir := t.TempDir()
	rules := writeFile(t, dir, "speed.rules", `ruleset speed "Speed" {
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
`)
	saved := filepath.Join(dir, "s.json")
	r := runCmd(t, "set speed of B = 2\nsave\nquit\nremove a1\n3\n5\nb2\na2\n", "play", rules, "--save", saved, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"A activates [a1]: set speed of B = 2\n" +
			"  tie between A and B on highest speed\n" +
			"Round 1, o: A rolls d6: save\n" +
			"  the battle cannot be saved in the middle of a roll: it can be saved once the change is done, when a unit is to be activated\n" +
			"Round 1, o: A rolls d6: quit\n" +
			"  play cannot stop in the middle of a roll: it can stop once the change is done, when a unit is to be activated and the battle is saved there\n" +
			"Round 1, o: A rolls d6: remove a1\n" +
			"  no other change can be made in the middle of a roll: this one is not done until its order is made again (make the next one after it)\n" +
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
