package main

// Tests of the saved battle's file: resumed only with the ruleset file
// it was played with.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/rulesets"
)

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
	delete(doc, "format") // nor had a format, or a fingerprint of their rules
	delete(doc, "fingerprint")
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
				" (or, to play it on with " + house + " all the same, delete \"played_with\" and \"fingerprint\" from " + saved + ")\n",
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
