package main

// Tests of two rulesets compared by odds: the sides both play, and the
// notes that say so.

import (
	"os"
	"strings"
	"testing"
)

// Comparing two rulesets, an error that stops one of them says which: a
// setup that gives an attribute a value of the wrong type is refused by
// the house rule that declares it, and not by the bundled ruleset, which
// plays without it; the setup file's positions do not show which.
func TestOddsCompareSaysWhichRulesetFailed(t *testing.T) {
	dir := t.TempDir()
	house := writeFile(t, dir, "might.rules", `ruleset mesbg "House" {
  sides 2
  side attribute might int
  phase p {
    order sides as priority {
      highest might
      highest roll d6
      tie: reroll
    }
  }
}
`)
	setup := writeFile(t, dir, "sides.rules", "side Jay might = strong\nside Rob might = 1\n")
	expectation{code: 1, stderr: []string{
		setup + ":1:18: error: side Jay: attribute might: want a whole number, got strong",
		"turnorder odds: this is for " + house + ", the first of the two rulesets compared; mesbg was not analysed\n",
	}}.check(t, runCmd(t, "", "odds", house, "mesbg", "--setup", setup))
	// The second ruleset's failure names it too.
	expectation{code: 1, stderr: []string{
		"turnorder odds: this is for " + house + ", the second of the two rulesets compared\n",
	}}.check(t, runCmd(t, "", "odds", "mesbg", house, "--setup", setup))
	// One ruleset alone needs no such note.
	expectation{code: 1, notStderr: []string{"rulesets compared"}}.check(t, runCmd(t, "", "odds", "mesbg", "--setup", setup))
}

// Comparing a house rule that reads a new value with the ruleset it was
// copied from, over sides that give that value: the one that does not
// declare it plays without it, and says so, rather than refusing the
// sides the house rule needs. A name neither declares is still refused.
func TestOddsCompareLeavesOutWhatOnlyTheOtherDeclares(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../rulesets/mesbg.rules")
	if err != nil {
		t.Fatal(err)
	}
	hero := strings.Replace(strings.Replace(string(src), "ruleset mesbg ", "ruleset hero ", 1),
		"highest roll d6\n", "highest roll d6 + (any(units, .hero) ? 1 : 0)\n", 1)
	hero = strings.Replace(hero, "  sides 2\n", "  sides 2\n  unit attribute hero bool\n  unit status wounded\n", 1)
	house := writeFile(t, dir, "hero.rules", hero)
	setup := writeFile(t, dir, "sides.rules", "side Jay {\n  unit Aragorn hero = true status wounded\n  unit w * 5\n}\nside Rob {\n  unit o * 8\n}\n")
	r := runCmd(t, "", "odds", "mesbg", house, "--setup", setup)
	expectation{code: 0, stdout: []string{
		"1      Jay   1/2  50.00%  21/31  67.74%  +17.74 pp\n",
	}, stderr: []string{
		"turnorder odds: note: mesbg does not declare hero and wounded, which only the other ruleset reads: mesbg plays without it\n",
	}, notStderr: []string{"note: hero"}}.check(t, r)

	typo := writeFile(t, dir, "typo.rules", "side Jay {\n  unit Aragorn heroo = true\n}\nside Rob\n")
	expectation{code: 1, stderr: []string{"unit Aragorn: unknown attribute heroo"}}.check(t, runCmd(t, "", "odds", "mesbg", house, "--setup", typo))
}

// Without --sides or --setup, a house rule compared with its original
// plays the first one's example sides, not its own: a comparison over two
// different forces would measure the forces as much as the rule. A note
// says which forces, and how to compare over the other's.
func TestOddsCompareSharesTheFirstExample(t *testing.T) {
	dir := t.TempDir()
	house := writeFile(t, dir, "house.rules", `ruleset house {
  sides 2
  phase priority each round {
    order sides as priority {
      highest roll d6 + (count(units) < 3 ? 1 : 0)
      tie: reroll
    }
  }
  example {
    side Jay { unit j * 2 }
    side Rob { unit r * 4 }
  }
}
`)
	copied := writeFile(t, dir, "copy.rules", mustRead(t, house))
	bare := writeFile(t, dir, "bare.rules", strings.Replace(mustRead(t, house), "  example {\n    side Jay { unit j * 2 }\n    side Rob { unit r * 4 }\n  }\n", "", 1))
	for _, tt := range []struct {
		name string
		args []string
		want expectation
	}{
		// Jay's two models would give him a +1 over mesbg's plain Jay and
		// Rob, who have none: both have fewer than three, so no change.
		{"the first's example", []string{"mesbg", house}, expectation{code: 0,
			stdout: []string{"  +0.00 pp\n"}, notStdout: []string{"21/31"},
			stderr: []string{"turnorder odds: note: both rulesets play the example sides of mesbg (Jay, Rob); " + house + "'s own example differs: to compare over it, add --setup " + house + "\n"}}},
		{"the house rule's example, named first", []string{house, "mesbg"}, expectation{code: 0,
			stdout: []string{"1      21/31  67.74%  10/31  32.26%\n", "  -17.74 pp\n"},
			stderr: []string{"turnorder odds: note: both rulesets play the example sides of " + house + " (Jay (2 units), Rob (4 units)); mesbg's own example differs: to compare over it, add --sides Jay,Rob\n"}}},
		{"the --setup named", []string{"mesbg", house, "--setup", house}, expectation{code: 0,
			stdout: []string{"  +17.74 pp\n"}, notStderr: []string{"note"}}},
		{"the second's, when the first has none", []string{bare, house}, expectation{code: 0,
			stdout: []string{"1      21/31  67.74%  10/31  32.26%\n", "  +0.00 pp\n"}, notStdout: []string{"1/2  50.00%"}, notStderr: []string{"note"}}},
		// A copy's example is the original's, though written elsewhere.
		{"the same example", []string{house, copied}, expectation{code: 0,
			stdout: []string{"  +0.00 pp\n"}, notStderr: []string{"note"}}},
		{"neither has one", []string{bare, bare}, expectation{code: 1, oneLine: true,
			stderr: []string{"turnorder odds: neither " + bare + " nor " + bare + " has example sides; name the sides both play with --sides A,B or --setup FILE\n"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, runCmd(t, "", append(append([]string{"odds"}, tt.args...), "--rounds", "1")...))
		})
	}
}

// The note's --setup is the other's path quoted for the shell, so that
// one with a space (a house rule saved as "my house.rules") pastes whole.
func TestOddsCompareNoteQuotesThePath(t *testing.T) {
	house := writeFile(t, t.TempDir(), "my house.rules", "ruleset house {\n  sides 2\n  phase p each round {\n    order sides as priority {\n      highest roll d6\n      tie: reroll\n    }\n  }\n  example {\n    side Ann\n    side Bo\n  }\n}\n")
	expectation{code: 0, stderr: []string{"'s own example differs: to compare over it, add --setup '" + house + "'\n"}}.check(t,
		runCmd(t, "", "odds", "mesbg", house, "--rounds", "1"))
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
