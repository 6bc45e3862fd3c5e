package main

// Tests of when play saves the battle, and of what it says the file holds.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
