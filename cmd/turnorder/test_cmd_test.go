package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lastLine returns the last line of out.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return lines[len(lines)-1]
}

var summaryRE = regexp.MustCompile(`^(\d+) passed, (\d+) failed$`)

// summary parses the last line of test's output.
func summary(t *testing.T, out string) (passed, failed int) {
	t.Helper()
	m := summaryRE.FindStringSubmatch(lastLine(out))
	if m == nil {
		t.Fatalf("the last line is not `N passed, M failed`:\n%s", out)
	}
	passed, _ = strconv.Atoi(m[1])
	failed, _ = strconv.Atoi(m[2])
	return passed, failed
}

// With no argument, test runs the bundled suite: one PASS line per
// scenario, all passing.
func TestTestBundledSuite(t *testing.T) {
	r := runCmd(t, "", "test")
	expectation{code: 0}.check(t, r)
	passed, failed := summary(t, r.stdout)
	if passed < 30 || failed != 0 {
		t.Errorf("%d passed, %d failed; want at least 30 passed and none failed", passed, failed)
	}
	lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	if len(lines) != passed+1 {
		t.Errorf("%d lines for %d scenarios; want one line per scenario and the summary", len(lines), passed)
	}
	for _, line := range lines[:len(lines)-1] {
		if !strings.HasPrefix(line, "PASS  conformance/scenarios/") || !strings.Contains(line, ".rules: ") {
			t.Errorf("want `PASS  conformance/scenarios/FILE.rules: TITLE`, got %q", line)
		}
	}
	if r.stderr != "" {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

// A scenario with a wrong expectation fails with a readable diff that names
// the round and the field, and test exits 1.
func TestTestWrongExpectation(t *testing.T) {
	const file = "../../conformance/testdata/wrong.rules"
	r := runCmd(t, "", "test", file)
	expectation{code: 1, stdout: []string{
		"FAIL  " + file + ": Jay and Rob, with the tie given to the wrong player\n",
		"    " + file + ":19:5: round 2: expected holder Jay, but Rob holds priority\n",
		"    " + file + ":20:5: round 2: expected order Jay, Rob\n" +
			"    " + strings.Repeat(" ", len(file+":20:5: round 2: ")) + "but got        Rob, Jay\n",
	}}.check(t, r)
	if got := lastLine(r.stdout); got != "0 passed, 1 failed" {
		t.Errorf("last line %q, want %q", got, "0 passed, 1 failed")
	}
}

// -json prints the same results as one document, for a program to read.
func TestTestJSON(t *testing.T) {
	const file = "../../conformance/testdata/wrong.rules"
	broken := writeFile(t, t.TempDir(), "broken.rules", "scenario \"x\" {\n  ruleset mesbg\n")
	r := runCmd(t, "", "test", "-json", file, broken)
	if r.code != 1 {
		t.Errorf("exit status %d, want 1", r.code)
	}
	var got testDoc
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, r.stdout)
	}
	for _, sc := range got.Scenarios {
		for i, f := range sc.Failures {
			// The diff is go-cmp's, whose layout is not promised.
			if !strings.Contains(f.Diff, `"Jay"`) || !strings.Contains(f.Diff, `"Rob"`) {
				t.Errorf("failure %d: diff %q does not show both players", i, f.Diff)
			}
			if strings.Contains(f.Diff, "\u00a0") {
				t.Errorf("failure %d: diff %q has a non-breaking space", i, f.Diff)
			}
			sc.Failures[i].Diff = ""
		}
	}
	want := testDoc{
		Passed: 0, Failed: 1,
		Scenarios: []scenarioDoc{{
			File: file, Line: 3, Title: "Jay and Rob, with the tie given to the wrong player", Passed: false,
			Quotes: []string{"As Jay made the choice of who had Priority in the previous turn, the choice of who has Priority in this turn will go to Rob."},
			Failures: []failureDoc{
				{File: file, Line: 19, Column: 5, Round: 2, Field: "holder", Want: "Jay", Got: "Rob",
					Message: "round 2: expected holder Jay, but Rob holds priority"},
				{File: file, Line: 20, Column: 5, Round: 2, Field: "order", Want: []any{"Jay", "Rob"}, Got: []any{"Rob", "Jay"},
					Message: "round 2: expected order Jay, Rob\n         but got        Rob, Jay"},
			},
		}},
		ErrorsDoc: ErrorsDoc{
			Errors: []string{broken + `:3:1: error: unexpected end of file (expected "}"): is the "}" of scenario "x" (line 1) missing?`},
			Diagnostics: []diagDoc{{File: broken, Line: 3, Column: 1,
				Message: `unexpected end of file (expected "}"): is the "}" of scenario "x" (line 1) missing?`,
				Hint:    `is the "}" of scenario "x" (line 1) missing?`}},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}

	// With nothing to report, the lists are empty, not null.
	r = runCmd(t, "", "test", "-json", "-run", "Jay and Rob", "mesbg")
	expectation{code: 0, stdout: []string{`"passed": 1,`, `"failures": []`, `"errors": []`}}.check(t, r)
}

// docs/json.md shows the whole output of one test -json; keep it true.
func TestTestJSONDocExample(t *testing.T) {
	checkJSONDocExample(t, "TestTestJSONDocExample", "test", "-json", "-run", "Jay and Rob", "mesbg")
}

// A house-rule author's directories: rulesets and their scenarios in one
// file. Every scenario written there must run and pass, so the count is
// that of the `scenario` blocks in the files.
func TestTestHouseRules(t *testing.T) {
	for _, dir := range []string{"../../examples/house-rules", "../../examples/procedures"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			files, err := filepath.Glob(filepath.Join(dir, "*.rules"))
			if err != nil || len(files) == 0 {
				t.Fatalf("no .rules files in %s (%v)", dir, err)
			}
			want := 0
			for _, f := range files {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				want += len(scenarioRE.FindAll(src, -1))
			}
			r := runCmd(t, "", "test", dir)
			expectation{code: 0, stdout: []string{"PASS  " + dir + "/"}}.check(t, r)
			if passed, failed := summary(t, r.stdout); passed != want || failed != 0 {
				t.Errorf("%d passed, %d failed; want all %d scenarios of %s to pass", passed, failed, want, dir)
			}
		})
	}
}

var scenarioRE = regexp.MustCompile(`(?m)^scenario "`)

// The house rule's README shows its diff against the bundled ruleset: a new
// name and one added line. Keep that true when mesbg.rules changes.
func TestHouseRuleIsOneLine(t *testing.T) {
	bundled, err := os.ReadFile("../../rulesets/mesbg.rules")
	if err != nil {
		t.Fatal(err)
	}
	house, err := os.ReadFile("../../examples/house-rules/fewer-models.rules")
	if err != nil {
		t.Fatal(err)
	}
	// The rulesets, from their header line to the line closing them.
	ruleset := func(src []byte) []string {
		lines := strings.Split(string(src), "\n")
		start, end := -1, -1
		for i, l := range lines {
			if start < 0 && strings.HasPrefix(l, "ruleset ") {
				start = i
			}
			if start >= 0 && l == "}" {
				end = i
				break
			}
		}
		if start < 0 || end < 0 {
			t.Fatal("no ruleset found")
		}
		return lines[start : end+1]
	}
	b, h := ruleset(bundled), ruleset(house)
	const added = "        lowest count(units) # house rule: a tied roll goes to the side with fewer models"
	var rest []string
	for i, l := range h {
		if l == added {
			rest = append(append(rest, h[:i]...), h[i+1:]...)
			break
		}
	}
	if rest == nil {
		t.Fatalf("the house rule lacks the line %q", added)
	}
	if len(rest) != len(b) {
		t.Fatalf("the house rule has %d lines besides the added one, the bundled ruleset %d: update examples/house-rules (and its README's diff)", len(rest), len(b))
	}
	for i := range b {
		if i == 0 {
			if !strings.HasPrefix(rest[0], "ruleset fewer_models ") {
				t.Errorf("header %q", rest[0])
			}
			continue
		}
		if rest[i] != b[i] {
			t.Errorf("line %d of the ruleset differs from rulesets/mesbg.rules:\n  bundled: %s\n  house:   %s\nupdate examples/house-rules (and its README's diff)", i+1, b[i], rest[i])
		}
	}
}

func TestTestCommandLine(t *testing.T) {
	dir := t.TempDir()
	// A variant in its own file, and scenarios naming it by path.
	writeFile(t, dir, "variant.rules", `ruleset variant {
  sides 2
  phase priority {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
}
`)
	byPath := writeFile(t, dir, "by-path.rules", `scenario "The higher roll goes first" {
  ruleset "variant.rules"
  quote "The higher roll goes first."
  side A
  side B
  round 1 {
    roll A 2, B 5
    expect order B, A
  }
}

scenario "A tie is rolled again" {
  ruleset "variant.rules"
  side A
  side B
  round 1 {
    roll A 3, B 3
    roll A 6, B 1
    expect order A, B
  }
}
`)
	syntax := writeFile(t, dir, "syntax.rules", "scenario \"broken\" {\n  ruleset mesbg\n  round 1 {\n")
	empty := writeFile(t, filepath.Join(t.TempDir()), "empty.rules", "ruleset r {\n  phase p {\n    order sides as o {\n      random\n    }\n  }\n}\n")
	// House rules copied from the bundled mesbg, which keep its name.
	mesbg, err := os.ReadFile("../../rulesets/mesbg.rules")
	if err != nil {
		t.Fatal(err)
	}
	copied := writeFile(t, dir, "copy.rules", string(mesbg))
	agi, err := os.ReadFile("../../rulesets/agi.rules")
	if err != nil {
		t.Fatal(err)
	}
	agiCopy := writeFile(t, dir, "agi-copy.rules", string(agi))
	houseSrc := strings.Replace(string(mesbg), "award not previous.chooser", "award previous.holder", 1)
	house := writeFile(t, dir, "house.rules", houseSrc)
	broken := writeFile(t, dir, "broken.rules", strings.Replace(string(mesbg), "highest roll d6", "highest roll d6 + agi", 1))
	renamedSrc := strings.Replace(houseSrc, "ruleset mesbg ", "ruleset previous_holder ", 1)
	renamed := writeFile(t, dir, "renamed.rules", renamedSrc)
	several := writeFile(t, dir, "several.rules", houseSrc+renamedSrc)
	mesbgSummary := lastLine(runCmd(t, "", "test", "mesbg").stdout) // all pass

	tests := []struct {
		name string
		args []string
		want expectation
		last string
	}{
		{"by path", []string{"test", byPath}, expectation{code: 0, stdout: []string{
			"PASS  " + byPath + ": The higher roll goes first\n", "PASS  " + byPath + ": A tie is rolled again\n",
		}}, "2 passed, 0 failed"},
		{"a file named twice runs once", []string{"test", byPath, byPath}, expectation{code: 0}, "2 passed, 0 failed"},
		{"-run", []string{"test", "-run", "tie", byPath}, expectation{code: 0, stdout: []string{"A tie is rolled again"},
			notStdout: []string{"The higher roll"}}, "1 passed, 0 failed"},
		{"-run after the file, two dashes", []string{"test", byPath, "--run", "^The"}, expectation{code: 0, stdout: []string{"The higher roll"},
			notStdout: []string{"A tie"}}, "1 passed, 0 failed"},
		{"-v lists the quotes and the transcript", []string{"test", "-v", byPath}, expectation{code: 0, stdout: []string{
			"PASS  " + byPath + ": The higher roll goes first\n    \"The higher roll goes first.\"\n" +
				"    Round 1\n      A rolls 2 for priority\n      B rolls 5 for priority\n" +
				"      priority #1: B, by highest roll d6 = 5\n      priority #2: A, by highest roll d6 = 2\n" +
				"      → order: B, A   holder: B   chooser: none\nPASS",
		}}, "2 passed, 0 failed"},
		{"a bundled name", []string{"test", "-run", "Jay and Rob", "mesbg"}, expectation{code: 0, stdout: []string{
			"PASS  conformance/scenarios/mesbg.rules: Jay and Rob: the worked example",
		}}, "1 passed, 0 failed"},
		{"-run matches nothing", []string{"test", "-run", "no such title", byPath}, expectation{code: 1, stderr: []string{"no scenario title matches"}},
			"0 passed, 0 failed"},
		// A ruleset with no scenario is still compiled: its errors are not hidden.
		{"a broken ruleset and no scenario", []string{"test", broken}, expectation{code: 1, stderr: []string{broken + ":", "agi", "^\n"},
			notStderr: []string{"no scenarios"}}, "0 passed, 0 failed"},
		{"no scenarios", []string{"test", empty}, expectation{code: 1, stderr: []string{"no scenarios in"}}, "0 passed, 0 failed"},
		{"syntax error", []string{"test", syntax, byPath}, expectation{code: 1, stderr: []string{
			syntax + ":", "does not parse",
		}, stdout: []string{"PASS  " + byPath}}, "2 passed, 0 failed"},
		{"missing file", []string{"test", filepath.Join(dir, "nope.rules")}, expectation{code: 1, stderr: []string{"nope.rules", "no such file"}, oneLine: true},
			"0 passed, 0 failed"},
		// A bad flag value, as --rounds -1 is for run: status 1, and the
		// summary (or with -json the document) as for any other error.
		{"bad regexp", []string{"test", "-run", "(", byPath}, expectation{code: 1, stderr: []string{
			"turnorder test: --run: error parsing regexp: missing closing ): `(`\n",
		}, oneLine: true, notStdout: []string{"PASS"}}, "0 passed, 0 failed"},
		{"bad regexp, JSON", []string{"test", "-json", "-run", "(", byPath}, expectation{code: 1, stdout: []string{
			`"scenarios": []`, `"errors": [` + "\n    \"--run: error parsing regexp: missing closing ): `(`\"",
		}, oneLine: true}, ""},
		{"bad flag", []string{"test", "-x"}, expectation{code: 2, stderr: []string{"-x"}}, ""},
		{"-with an unchanged copy", []string{"test", "-with", copied, "mesbg"}, expectation{code: 0}, mesbgSummary},
		// Jay chose in round 1 and holds priority; the house rule gives him
		// the round 2 tie the text gives Rob.
		{"-with a house rule", []string{"test", "-with", house, "-run", "Jay and Rob", "mesbg"}, expectation{code: 1, stdout: []string{
			"FAIL  conformance/scenarios/mesbg.rules: Jay and Rob: the worked example\n" +
				"    conformance/scenarios/mesbg.rules:35:5: round 2: order priority: unscripted decision: Jay chooses who goes first among Jay, Rob (script it with `Jay chooses ...`; the answers scripted and not yet used are for Rob, who does not decide here)\n",
		}}, "0 passed, 1 failed"},
		{"-with NAME=FILE", []string{"test", "-with", "mesbg=" + renamed, "-run", "Jay and Rob", "mesbg"}, expectation{code: 1, stdout: []string{
			"round 2: order priority: unscripted decision: Jay chooses who goes first",
		}}, "0 passed, 1 failed"},
		{"-with NAME=FILE of several rulesets", []string{"test", "-with", "mesbg=" + several, "mesbg"}, expectation{code: 1, stderr: []string{
			"declares 2 rulesets (mesbg, previous_holder)",
		}, oneLine: true}, "0 passed, 0 failed"},
		// A path before the = is not a ruleset's name: the whole is taken
		// for a file's name, which the message explains.
		{"-with PATH=FILE", []string{"test", "-with", "variant.rules=" + house, byPath}, expectation{code: 1, stderr: []string{
			"no such file or directory (in NAME=FILE, NAME is a ruleset's name, and variant.rules is not one; a ruleset a scenario names by its path cannot be replaced)\n",
		}, oneLine: true}, "0 passed, 0 failed"},
		{"-with a file of no ruleset", []string{"test", "-with", byPath, "mesbg"}, expectation{code: 1, stderr: []string{
			"declares no ruleset",
		}, oneLine: true}, "0 passed, 0 failed"},
		// Found before any scenario runs.
		{"-with a ruleset no scenario names", []string{"test", "-with", house, "agi"}, expectation{code: 1, stderr: []string{
			"turnorder test: --with " + house + ": no scenario to run takes mesbg from it (they take agi)\n",
		}, notStdout: []string{"PASS", "FAIL"}, oneLine: true}, "0 passed, 0 failed"},
		// A house rule renamed needs -with NAME=FILE, and the message says so.
		{"-with a ruleset of another name", []string{"test", "-with", renamed, "mesbg"}, expectation{code: 1, stderr: []string{
			"turnorder test: --with " + renamed + ": no scenario to run takes previous_holder from it (they take mesbg; --with mesbg=" + renamed + " plays it as mesbg)\n",
		}, notStdout: []string{"PASS", "FAIL"}, oneLine: true}, "0 passed, 0 failed"},
		// These scenarios name their ruleset by its path, not by a name.
		{"-with a ruleset the scenarios name by path", []string{"test", "-with", "variant=" + house, byPath}, expectation{code: 1, stderr: []string{
			"no scenario to run takes variant from it (their rulesets are declared in their own files or named by path)",
		}, notStdout: []string{"PASS"}, oneLine: true}, "0 passed, 0 failed"},
		{"-with and -run matching nothing", []string{"test", "-with", house, "-run", "no such title", "mesbg"}, expectation{code: 1, stderr: []string{
			"no scenario title matches",
		}, oneLine: true}, "0 passed, 0 failed"},
		{"-with unused, JSON", []string{"test", "-json", "-with", house, "-run", "worked example", "agi"}, expectation{code: 1, stdout: []string{
			`"errors": [` + "\n    \"--with " + house + ": no scenario to run takes mesbg from it",
			`"scenarios": []`,
		}}, ""},
		{"-with a file with errors", []string{"test", "-with", broken, "mesbg"}, expectation{code: 1, stderr: []string{
			broken + ":", "agi", "^\n", "-with " + broken + " does not compile (1 error); no scenario was run\n",
		}, notStdout: []string{"PASS"}}, "0 passed, 0 failed"},
		{"-with a file with errors, JSON", []string{"test", "-json", "-with", broken, "mesbg"}, expectation{code: 1, stdout: []string{
			`"scenarios": []`, `"errors": [` + "\n    \"" + broken + ":", "unknown name agi",
		}}, ""},
		{"-with a file that does not parse", []string{"test", "-with", syntax, "mesbg"}, expectation{code: 1, stderr: []string{
			syntax + ":", "-with " + syntax + " does not parse (1 error); no scenario was run\n",
		}, notStdout: []string{"PASS"}}, "0 passed, 0 failed"},
		// -with repeats, like --policy: each file gives its rulesets, and a
		// ruleset two of them give is an error, not the last one winning.
		{"-with twice", []string{"test", "-with", house, "-with", agiCopy, "-run", "Jay and Rob|worked example", "mesbg", "agi"}, expectation{code: 1, stdout: []string{
			"FAIL  conformance/scenarios/mesbg.rules: Jay and Rob: the worked example\n",
			"PASS  conformance/scenarios/agi.rules: Players A, B and C roll 1, 2 and 3: the worked example\n",
		}}, ""},
		{"-with the same ruleset twice", []string{"test", "-with", house, "-with", copied, "mesbg"}, expectation{code: 1, stderr: []string{
			"turnorder test: --with " + copied + ": mesbg is already taken from --with " + house + "; give each ruleset once\n",
		}, notStdout: []string{"PASS", "FAIL"}, oneLine: true}, "0 passed, 0 failed"},
		{"-with twice, one of no use", []string{"test", "-with", house, "-with", renamed, "mesbg"}, expectation{code: 1, stderr: []string{
			"-with " + renamed + ": no scenario to run takes previous_holder from it",
		}, notStdout: []string{"PASS", "FAIL"}, oneLine: true}, "0 passed, 0 failed"},
		{"-with a missing file", []string{"test", "-with", filepath.Join(dir, "nope.rules"), "mesbg"}, expectation{code: 1, stderr: []string{
			"-with: ", "no such file",
		}, oneLine: true}, "0 passed, 0 failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", tt.args...)
			tt.want.check(t, r)
			if tt.last != "" && lastLine(r.stdout) != tt.last {
				t.Errorf("last line %q, want %q\n%s", lastLine(r.stdout), tt.last, r.stdout)
			}
		})
	}
}

// README.md's "Writing a scenario" section: its scenario passes, and with a
// wrong expectation fails, printing exactly what the README shows.
func TestREADMEWritingAScenario(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Writing a scenario\n")
	if !ok {
		t.Fatal(`README.md has no "## Writing a scenario" section`)
	}
	block := func(fence string) string {
		t.Helper()
		_, rest, ok := strings.Cut(section, fence+"\n")
		if !ok {
			t.Fatalf("the section has no %s block", fence)
		}
		body, rest, ok := strings.Cut(rest, "```\n")
		if !ok {
			t.Fatalf("the section's %s block is not closed", fence)
		}
		section = rest
		return body
	}
	scenario := block("```rules")
	passing := block("```sh")
	failing := block("```")

	if n := strings.Count(scenario, "\n"); n > 12 {
		t.Errorf("the README's scenario has %d lines; keep it to 12", n)
	}
	t.Chdir(t.TempDir())
	writeFile(t, ".", "my-scenarios.rules", scenario)
	r := runCmd(t, "", "test", "my-scenarios.rules")
	expectation{code: 0}.check(t, r)
	if want := strings.TrimPrefix(passing, "$ turnorder test my-scenarios.rules\n"); r.stdout != want {
		t.Errorf("the README shows\n%s\nbut test prints\n%s", want, r.stdout)
	}

	wrong := strings.Replace(scenario, "expect chooser Rob", "expect chooser Jay", 1)
	writeFile(t, ".", "my-scenarios.rules", wrong)
	r = runCmd(t, "", "test", "my-scenarios.rules")
	expectation{code: 1}.check(t, r)
	// go-cmp randomly writes its diffs with non-breaking spaces, so that
	// nobody relies on their exact text.
	if strings.ReplaceAll(r.stdout, "\u00a0", " ") != failing {
		t.Errorf("the README shows\n%s\nbut test prints\n%s", failing, r.stdout)
	}
}

// A directory stands for its .rules files except those under testdata
// (test inputs, some broken on purpose) and dot-directories; named
// itself, such a directory is walked.
func TestWalkSkipsTestdata(t *testing.T) {
	r := runCmd(t, "", "test", "../../conformance")
	expectation{code: 0, notStdout: []string{"wrong.rules", "FAIL"}}.check(t, r)
	r = runCmd(t, "", "check", "../../dsl")
	expectation{code: 1, stderr: []string{"no .rules files in ../../dsl"}, notStderr: []string{"testdata"}}.check(t, r)
	r = runCmd(t, "", "test", "../../conformance/testdata")
	expectation{code: 1, stdout: []string{"FAIL  ../../conformance/testdata/wrong.rules"}}.check(t, r)

	dir := t.TempDir()
	for _, sub := range []string{"testdata", ".hidden", "kept"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, sub), "r.rules", "ruleset r {\n  phase p {\n    order sides as o {\n      highest agl\n    }\n  }\n}\n")
	}
	r = runCmd(t, "", "check", dir)
	expectation{code: 1, stderr: []string{filepath.Join(dir, "kept", "r.rules")}, notStderr: []string{"testdata", ".hidden"}}.check(t, r)
}

// A ruleset file given to test has no scenarios; when the bundled suite
// has some for its ruleset, test says how to run them.
func TestTestHintsBundledScenarios(t *testing.T) {
	r := runCmd(t, "", "test", "../../rulesets/mesbg.rules")
	expectation{code: 1, stderr: []string{
		"turnorder test: no scenarios in ../../rulesets/mesbg.rules\n",
		"turnorder test: hint: ../../rulesets/mesbg.rules is the bundled ruleset mesbg; its scenarios run with `turnorder test mesbg`\n",
	}}.check(t, r)

	src, err := os.ReadFile("../../rulesets/mesbg.rules")
	if err != nil {
		t.Fatal(err)
	}
	house := writeFile(t, t.TempDir(), "house.rules", strings.Replace(string(src), "award not previous.chooser", "award previous.holder", 1))
	r = runCmd(t, "", "test", house)
	expectation{code: 1, stderr: []string{"`turnorder test mesbg --with " + house + "`"}}.check(t, r)
	// A path with a space is quoted for the shell, to paste as one argument.
	spaced := writeFile(t, t.TempDir(), "my house.rules", strings.Replace(string(src), "award not previous.chooser", "award previous.holder", 1))
	r = runCmd(t, "", "test", spaced)
	expectation{code: 1, stderr: []string{"`turnorder test mesbg --with '" + spaced + "'`"}}.check(t, r)

	// A ruleset of its own name has no bundled scenarios: no hint.
	own := writeFile(t, t.TempDir(), "own.rules", "ruleset own {\n  phase p {\n    order sides as o {\n      random\n    }\n  }\n}\n")
	r = runCmd(t, "", "test", own)
	expectation{code: 1, stderr: []string{"no scenarios in"}, notStderr: []string{"hint"}, oneLine: true}.check(t, r)
}

// The commands the examples' READMEs give run from the repository's root,
// and do what they are shown for: each succeeds, and a `--setup FILE` of
// `run` or `odds` gives other sides than the ruleset's own example, or
// the flag would show a reader nothing.
func TestExampleREADMECommands(t *testing.T) {
	readmes, err := filepath.Glob("../../examples/*/README.md")
	if err != nil || len(readmes) == 0 {
		t.Fatalf("no READMEs under examples (%v)", err)
	}
	cmdRE := regexp.MustCompile(`(?m)^go run \./cmd/turnorder (.+)$`)
	sidesOf := func(out string) string {
		for l := range strings.SplitSeq(out, "\n") {
			if strings.HasPrefix(l, "sides: ") {
				return l
			}
		}
		return ""
	}
	n := 0
	for _, readme := range readmes {
		src, err := os.ReadFile(readme)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cmdRE.FindAllStringSubmatch(string(src), -1) {
			n++
			args := strings.Fields(m[1])
			for i, a := range args {
				if strings.HasPrefix(a, "examples/") || strings.Contains(a, "=examples/") {
					args[i] = strings.Replace(a, "examples/", "../../examples/", 1)
				}
			}
			r := runCmd(t, "", args...)
			if r.code != 0 {
				t.Errorf("%s: `turnorder %s`: exit status %d\nstdout:\n%s\nstderr:\n%s", readme, m[1], r.code, r.stdout, r.stderr)
				continue
			}
			i := slices.Index(args, "--setup")
			if i < 0 || args[0] != "run" {
				continue
			}
			without := runCmd(t, "", slices.Delete(slices.Clone(args), i, i+2)...)
			if got := sidesOf(r.stdout); got == sidesOf(without.stdout) {
				t.Errorf("%s: `turnorder %s`: --setup changes nothing, the ruleset's example has the same %q", readme, m[1], got)
			}
		}
	}
	if n == 0 {
		t.Fatal("no `go run ./cmd/turnorder` commands in the examples' READMEs")
	}
}

// A house rule renamed from its copy, whose scenario still names the
// bundled original, tests the original: when it fails, a hint says so,
// once a file. One that passes, or names the file's own, says nothing.
func TestTestHintsARenamedRuleset(t *testing.T) {
	src, err := os.ReadFile("../../rulesets/morturi.rules")
	if err != nil {
		t.Fatal(err)
	}
	house := strings.Replace(string(src), "ruleset morturi ", "ruleset house ", 1)
	const scenario = "\nscenario %q {\n  ruleset %s\n  decide by policy\n  side A { unit a * 3 movement = 3 }\n  side B { unit b * 2 movement = 3 }\n  round 1 {\n    expect holder %s\n  }\n}\n"
	dir := t.TempDir()
	failing := writeFile(t, dir, "failing.rules", house+fmt.Sprintf(scenario, "one", "morturi", "A")+fmt.Sprintf(scenario, "two", "morturi", "A"))
	hint := "turnorder test: hint: scenario \"one\" tests the bundled ruleset morturi, which " + failing +
		" does not declare (it declares house): to test the file's, write `ruleset house` in the scenario\n"
	r := runCmd(t, "", "test", failing)
	expectation{code: 1, stderr: []string{hint}, notStderr: []string{`scenario "two" tests`}}.check(t, r)

	passing := writeFile(t, dir, "passing.rules", house+fmt.Sprintf(scenario, "one", "morturi", "B"))
	expectation{code: 0, notStderr: []string{"hint"}}.check(t, runCmd(t, "", "test", passing))
	own := writeFile(t, dir, "own.rules", house+fmt.Sprintf(scenario, "one", "house", "A"))
	expectation{code: 1, notStderr: []string{"hint"}}.check(t, runCmd(t, "", "test", own))
}

// test -v prints each scenario's transcript, passing or failing, as run
// prints a battle's: a round that failed an expectation whole, and one an
// error stopped up to the error.
func TestTestVerboseTranscript(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "failing.rules", `ruleset once_rolled {
  sides 2
  phase setup once {
    order sides as initiative {
      highest roll d6
      tie: reroll
    }
  }
}

scenario "The wrong order is expected" {
  ruleset once_rolled
  side A
  side B
  round 1 {
    roll A 2, B 5
    expect order A, B
  }
  round 2 {
  }
}

scenario "A reroll nobody scripted stops the round" {
  ruleset once_rolled
  side A
  side B
  round 1 {
    roll A 4, B 4
  }
}
`)
	r := runCmd(t, "", "test", "-v", file)
	for _, want := range []string{"FAIL  " + file + `: The wrong order is expected
    Round 1
      A rolls 2 for initiative
      B rolls 5 for initiative
      initiative #1: B, by highest roll d6 = 5
      initiative #2: A, by highest roll d6 = 2
      → order: B, A   holder: B   chooser: none

    Round 2
      initiative: kept from round 1
      → order: B, A   holder: B   chooser: none
    ` + file + `:17:5: round 1: expected order A, B
`, "FAIL  " + file + `: A reroll nobody scripted stops the round
    Round 1
      A rolls 4 for initiative
      B rolls 4 for initiative
      tie between A and B on highest roll d6
      A and B roll again (highest roll d6)
      → the round stopped with an error (see below)
    ` + file + `:29:3: round 1: order initiative: a d6 reroll is needed for A, B, but none is scripted
`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("test -v printed\n%s\nwant it to hold\n%s", r.stdout, want)
		}
	}
}
