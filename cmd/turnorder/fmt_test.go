package main

import (
	"os"
	"strings"
	"testing"
)

const uglyRules = `ruleset x   "T" {
   sides 2
  phase p { order sides as o {
 random } }
}
`

const neatRules = `ruleset x "T" {
  sides 2
  phase p {
    order sides as o {
      random
    }
  }
}
`

func TestFmt(t *testing.T) {
	dir := t.TempDir()
	ugly := writeFile(t, dir, "ugly.rules", uglyRules)
	neat := writeFile(t, dir, "neat.rules", neatRules)
	broken := writeFile(t, dir, "broken.rules", "ruleset {\n")
	empty := t.TempDir()

	tests := []struct {
		name  string
		stdin string
		args  []string
		want  expectation
	}{
		{"stdin", uglyRules, nil, expectation{code: 0, stdout: []string{neatRules}}},
		{"file to stdout", "", []string{ugly}, expectation{code: 0, stdout: []string{neatRules}}},
		{"list", "", []string{"-l", dir}, expectation{code: 1, stdout: []string{ugly + "\n"}, notStdout: []string{neat, "ruleset"},
			stderr: []string{broken + ":1:9: error:"}}},
		{"list clean", "", []string{"-l", neat}, expectation{code: 0, notStdout: []string{"neat"}}},
		{"diff", "", []string{"-d", ugly}, expectation{code: 0, stdout: []string{
			"diff " + ugly + ".orig " + ugly + "\n",
			"--- " + ugly + ".orig\n+++ " + ugly + "\n",
			"@@ -1,5 +1,8 @@\n",
			"-ruleset x   \"T\" {\n",
			"+ruleset x \"T\" {\n",
			"+      random\n",
			" }\n",
		}}},
		{"diff clean", "", []string{"-d", neat}, expectation{code: 0, notStdout: []string{"diff"}}},
		{"syntax error", "", []string{broken}, expectation{code: 1, stderr: []string{broken + ":1:9: error:", "    ruleset {\n            ^\n"}}},
		{"stdin syntax error", "ruleset {\n", nil, expectation{code: 1, stderr: []string{"<standard input>:1:9: error:"}}},
		{"-w with stdin", uglyRules, []string{"-w"}, expectation{code: 2, stderr: []string{"cannot use -w with standard input"}, oneLine: true}},
		// "-" is standard input, as for check, for an editor that formats
		// what it has not saved.
		{"dash", uglyRules, []string{"-"}, expectation{code: 0, stdout: []string{neatRules}}},
		{"dash list", uglyRules, []string{"-l", "-"}, expectation{code: 0, stdout: []string{"<standard input>\n"}}},
		{"dash and a file", uglyRules, []string{"-", neat}, expectation{code: 0, stdout: []string{neatRules + neatRules}}},
		{"dash syntax error", "ruleset {\n", []string{"-"}, expectation{code: 1, stderr: []string{"<standard input>:1:9: error:"}}},
		{"-w with dash", uglyRules, []string{"-w", "-"}, expectation{code: 2, stderr: []string{"cannot use -w with standard input"}, oneLine: true}},
		{"missing file", "", []string{dir + "/nope.rules"}, expectation{code: 1, stderr: []string{"no such file"}, oneLine: true}},
		// Nothing to format is said, and fails, as check says and fails.
		{"empty dir", "", []string{empty}, expectation{code: 1, stderr: []string{"turnorder fmt: no .rules files in " + empty + "\n"}, oneLine: true}},
		{"empty dir, listed", "", []string{"-l", empty}, expectation{code: 1, stderr: []string{"turnorder fmt: no .rules files in " + empty + "\n"}, oneLine: true}},
		// A bundled ruleset's name is its source, as for check: a house
		// rule starts from `turnorder fmt mesbg > house.rules`.
		{"bundled name", "", []string{"mesbg"}, expectation{code: 0, stdout: []string{"ruleset mesbg \"Middle-earth SBG: Priority Phase\" {\n"}}},
		{"bundled name listed", "", []string{"-l", "mesbg"}, expectation{code: 0, notStdout: []string{"mesbg"}}},
		{"-w with a bundled name", "", []string{"-w", "mesbg"}, expectation{code: 2,
			stderr: []string{"mesbg is a bundled ruleset, which -w cannot write: start a house rule with `turnorder fmt mesbg > house.rules`"}, oneLine: true}},
		{"missing name", "", []string{"mesbgg"}, expectation{code: 1,
			stderr: []string{"mesbgg: no such file or directory (and no bundled ruleset has that name; bundled: agi, mesbg, morturi, necromunda; did you mean mesbg?)"}, oneLine: true}},
		{"missing name, nothing like it", "", []string{"zzz"}, expectation{code: 1,
			stderr: []string{"zzz: no such file or directory (and no bundled ruleset has that name; bundled: agi, mesbg, morturi, necromunda)\n"}, oneLine: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, runCmd(t, tt.stdin, append([]string{"fmt"}, tt.args...)...))
		})
	}
}

func TestFmtWrite(t *testing.T) {
	dir := t.TempDir()
	ugly := writeFile(t, dir, "ugly.rules", uglyRules)
	expectation{code: 0, stdout: []string{ugly + "\n"}}.check(t, runCmd(t, "", "fmt", "-w", "-l", ugly))
	got, err := os.ReadFile(ugly)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != neatRules {
		t.Errorf("after fmt -w:\n%s\nwant:\n%s", got, neatRules)
	}
	r := runCmd(t, "", "fmt", "-l", ugly)
	if r.code != 0 || r.stdout != "" {
		t.Errorf("fmt -l after fmt -w: status %d, output %q", r.code, r.stdout)
	}
}

// The bundled rulesets are formatted, and formatting them is idempotent.
func TestFmtBundledIdempotent(t *testing.T) {
	r := runCmd(t, "", "fmt", "-l", "../../rulesets")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "" {
		t.Errorf("fmt -l ../../rulesets: status %d, lists:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// -w refuses a bundled name before it writes anything, as it refuses
// standard input and a missing file: the files named before it are left
// as they were.
func TestFmtWriteWithABundledNameWritesNothing(t *testing.T) {
	dir := t.TempDir()
	ugly := writeFile(t, dir, "ugly.rules", uglyRules)
	expectation{code: 2, stderr: []string{"mesbg is a bundled ruleset, which -w cannot write"}, oneLine: true}.check(t, runCmd(t, "", "fmt", "-w", ugly, "mesbg"))
	got, err := os.ReadFile(ugly)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != uglyRules {
		t.Errorf("fmt -w %s mesbg rewrote %s:\n%s", ugly, ugly, got)
	}
}

// Standard input named twice is read and formatted once.
func TestFmtDashTwice(t *testing.T) {
	r := runCmd(t, uglyRules, "fmt", "-", "-")
	if r.code != 0 || r.stdout != neatRules {
		t.Errorf("fmt - -: status %d, stdout:\n%s\nstderr:\n%s\nwant status 0 and the formatted text once", r.code, r.stdout, r.stderr)
	}
}
