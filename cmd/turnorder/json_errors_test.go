package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// errorsRead is what every --json document says of the errors that made
// the command fail (docs/json.md).
type errorsRead struct {
	Errors      []string `json:"errors"`
	Diagnostics []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Column  int    `json:"column"`
		Message string `json:"message"`
	} `json:"diagnostics"`
}

// A program reading --json gets a JSON document however the command
// fails, with each error's place and message, and a non-zero exit status;
// the errors still go to standard error, with their source lines, as
// without --json.
func TestJSONErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.rules", "ruleset x \"X\" {\n  sides 2\n  phase p { order sides as o { highest agl } }\n}\n")
	nan := writeFile(t, dir, "nan.rules", "ruleset nan {\n  sides 2\n  side attribute agi int\n"+
		"  phase p each round {\n    order sides as o {\n      highest agi / 0\n      random\n    }\n  }\n"+
		"  example {\n    side A agi = 0\n    side B agi = 0\n  }\n}\n")
	uses := writeFile(t, dir, "uses.rules", "scenario \"s\" {\n  ruleset \"bad.rules\"\n  side A\n  side B\n}\n")
	type diag = struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Column  int    `json:"column"`
		Message string `json:"message"`
	}
	agl := diag{bad, 3, 40, "unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)"}
	nanMsg := "round 1: `agi / 0` for A is NaN (such as 0 / 0), which cannot be compared"
	missing := filepath.Join(dir, "nope.rules") + ": no such file or directory (and no bundled ruleset has that name; bundled: agi, mesbg, morturi, necromunda)"
	unknown := `unknown ruleset "nosuch": the bundled rulesets are agi, mesbg, morturi, necromunda (or give the path of a .rules file)`
	tests := []struct {
		name   string
		args   []string
		errors []string
		diags  []diag
	}{
		{"run, a ruleset that does not compile", []string{"run", bad, "--json"},
			[]string{bad + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)"}, []diag{agl}},
		{"odds, a ruleset that does not compile", []string{"odds", bad, "--json"},
			[]string{bad + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)"}, []diag{agl}},
		{"odds, two rulesets", []string{"odds", "mesbg", bad, "--json"},
			[]string{bad + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)", "this is for " + bad + ", the second of the two rulesets compared"},
			[]diag{agl, {Message: "this is for " + bad + ", the second of the two rulesets compared"}}},
		{"run, an unknown ruleset", []string{"run", "nosuch", "--json"}, []string{unknown}, []diag{{Message: unknown}}},
		{"odds, an unknown ruleset", []string{"odds", "nosuch", "--json"}, []string{unknown}, []diag{{Message: unknown}}},
		{"run, a bad flag value", []string{"run", "mesbg", "--rounds", "0", "--json"},
			[]string{"--rounds must be between 1 and 10000 (got 0)"}, []diag{{Message: "--rounds must be between 1 and 10000 (got 0)"}}},
		{"odds, a bad flag value", []string{"odds", "mesbg", "--policy", "first=none", "--json"},
			[]string{`--policy "first=none": first decisions take self, other, keep`}, []diag{{Message: `--policy "first=none": first decisions take self, other, keep`}}},
		{"run, a rule that fails", []string{"run", nan, "--json"},
			[]string{nan + ":6:15: error: " + nanMsg}, []diag{{nan, 6, 15, nanMsg}}},
		{"odds, a rule that fails", []string{"odds", nan, "--json"},
			[]string{nan + ":6:15: error: " + nanMsg}, []diag{{nan, 6, 15, nanMsg}}},
		{"test, a ruleset that does not compile", []string{"test", "-json", uses},
			[]string{bad + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)"}, []diag{agl}},
		{"check, a ruleset that does not compile", []string{"check", "--json", bad},
			[]string{bad + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)"}, []diag{agl}},
		{"check, a scenario whose ruleset does not compile", []string{"check", "--json", uses},
			[]string{bad + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)"}, []diag{agl}},
		{"check, a missing file", []string{"check", "--json", filepath.Join(dir, "nope.rules")},
			[]string{missing}, []diag{{Message: missing}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", tt.args...)
			if r.code != exitError {
				t.Errorf("exit status %d, want %d", r.code, exitError)
			}
			var doc errorsRead
			if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
				t.Fatalf("stdout is no JSON document: %v\n%s", err, r.stdout)
			}
			if diff := cmp.Diff(tt.errors, doc.Errors); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			var got []diag
			for _, d := range doc.Diagnostics {
				got = append(got, diag(d))
			}
			if diff := cmp.Diff(tt.diags, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			for _, e := range tt.errors {
				if _, msg, _ := strings.Cut(e, ": error: "); !strings.Contains(r.stderr, msg) {
					t.Errorf("stderr lacks %q:\n%s", msg, r.stderr)
				}
			}
		})
	}
}

// A document that succeeds says so: no errors, as test's has always said.
func TestJSONNoErrors(t *testing.T) {
	for _, args := range [][]string{
		{"run", "mesbg", "--rounds", "1", "--json"},
		{"odds", "mesbg", "--json"},
		{"odds", "mesbg", "mesbg", "--json"},
		{"odds", "mesbg", "--sim", "10", "--json"},
		{"test", "-json", "mesbg"},
		{"check", "--json", "mesbg"},
	} {
		r := runCmd(t, "", args...)
		var doc map[string]json.RawMessage
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != exitOK {
			t.Fatalf("%s: exit status %d, %v\n%s", strings.Join(args, " "), r.code, err, r.stdout)
		}
		got := []string{string(doc["errors"]), string(doc["diagnostics"])}
		if diff := cmp.Diff([]string{"[]", "[]"}, got); diff != "" {
			t.Errorf("%s: errors, diagnostics (-want +got):\n%s", strings.Join(args, " "), diff)
		}
	}
}

// check --json lists every file it read and every warning, for an editor
// to mark; a clean file's summary is the line check prints without --json.
func TestCheckJSON(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.rules", "ruleset x \"X\" {\n  sides 2\n  phase p { order sides as o { highest agl } }\n}\n")
	tied := writeFile(t, dir, "tied.rules", "ruleset tied {\n  sides 2\n  phase p { order sides as o { highest 1 } }\n}\n")
	r := runCmd(t, "", "check", "--json", bad, tied, "mesbg")
	if r.code != exitError {
		t.Errorf("exit status %d, want %d", r.code, exitError)
	}
	var doc struct {
		Files    []checkedDoc `json:"files"`
		Problems []problemDoc `json:"problems"`
		Warnings []diagDoc    `json:"warnings"`
		Errors   []string     `json:"errors"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is no JSON document: %v\n%s", err, r.stdout)
	}
	wantFiles := []checkedDoc{
		{File: bad},
		{File: tied, OK: true, Summary: "ruleset tied, 1 warning"},
		{File: "mesbg (bundled)", OK: true, Summary: "ruleset mesbg"},
	}
	if diff := cmp.Diff(wantFiles, doc.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	// Problems is errors and warnings in one list, in the order checked,
	// each with both ends: the end of the word where the diagnostic has
	// none of its own.
	wantProblems := []problemDoc{
		{File: bad, Severity: "error", Start: spotDoc{3, 40}, End: spotDoc{3, 43},
			Message: "unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)"},
		{File: tied, Severity: "warning", Start: spotDoc{3, 13}, End: spotDoc{3, 18},
			Message: "order o can end with subjects still tied after `highest 1`: add `tie: reroll`, `random` or a choice"},
	}
	if diff := cmp.Diff(wantProblems, doc.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	wantWarnings := []diagDoc{{File: tied, Line: 3, Column: 13,
		Message: "order o can end with subjects still tied after `highest 1`: add `tie: reroll`, `random` or a choice"}}
	if diff := cmp.Diff(wantWarnings, doc.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{bad + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)"}, doc.Errors); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if !strings.Contains(r.stderr, "warning: order o can end") {
		t.Errorf("stderr lacks the warning:\n%s", r.stderr)
	}

	// An error at no place in a file is a problem too, at line 0.
	r = runCmd(t, "", "check", "--json", filepath.Join(dir, "missing.rules"))
	doc.Problems = nil
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is no JSON document: %v\n%s", err, r.stdout)
	}
	if len(doc.Problems) != 1 || doc.Problems[0].Severity != "error" || doc.Problems[0].Start != (spotDoc{}) ||
		!strings.Contains(doc.Problems[0].Message, "missing.rules") {
		t.Errorf("problems of a missing file: %+v", doc.Problems)
	}
}
