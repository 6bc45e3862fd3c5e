package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// brokenRulesetFiles writes a ruleset that does not compile (agl is no
// attribute), a file of scenarios that use a copy of it declared in the
// same file, and one whose scenarios name it by path: p the broken file, q
// a file that does not exist, r the broken file again.
func brokenRulesetFiles(t *testing.T) (dir, own, bad, byPath string) {
	dir = t.TempDir()
	const ruleset = "ruleset x \"X\" {\n  sides 2\n  phase p { order sides as o { highest agl } }\n}\n"
	const sides = "  side A\n  side B\n  round 1 { expect holder A }\n}\n"
	own = writeFile(t, dir, "own.rules", ruleset+"scenario \"s\" {\n  ruleset x\n"+sides+"scenario \"t\" {\n  ruleset x\n"+sides)
	bad = writeFile(t, dir, "bad.rules", ruleset)
	byPath = writeFile(t, dir, "sc.rules", "scenario \"p\" { ruleset \"bad.rules\"\n"+sides+
		"scenario \"q\" {\n  ruleset \"nonexist.rules\"\n"+sides+
		"scenario \"r\" {\n  ruleset \"bad.rules\"\n"+sides)
	return dir, own, bad, byPath
}

// The errors of a ruleset that does not compile are shown once, in their
// own file with the source line and a caret, however many scenarios use
// it; each scenario fails at its `ruleset` line.
func TestTestBrokenRuleset(t *testing.T) {
	dir, own, bad, byPath := brokenRulesetFiles(t)
	agl := func(file string) string {
		return file + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)\n      phase p { order sides as o { highest agl } }\n                                           ^\n"
	}

	r := runCmd(t, "", "test", own)
	expectation{code: 1, stdout: []string{
		"FAIL  " + own + ": s\n    " + own + ":6:11: ruleset x does not compile (1 error)\n",
		"FAIL  " + own + ": t\n    " + own + ":12:11: ruleset x does not compile (1 error)\n",
	}}.check(t, r)
	if r.stderr != agl(own) {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, agl(own))
	}

	// The directory holds bad.rules too: tested itself and named by sc.rules,
	// its error is still shown once.
	r = runCmd(t, "", "test", dir)
	expectation{code: 1, stdout: []string{
		"FAIL  " + byPath + ": p\n    " + byPath + ":1:24: ruleset bad.rules does not compile (1 error)\n",
		"FAIL  " + byPath + ": q\n    " + byPath + ":7:11: ruleset nonexist.rules: ",
		"FAIL  " + byPath + ": r\n    " + byPath + ":13:11: ruleset bad.rules does not compile (1 error)\n",
	}, notStdout: []string{"error: unknown name"}}.check(t, r)
	if got := strings.Count(r.stderr, agl(bad)); got != 1 {
		t.Errorf("bad.rules's error is shown %d times, want once:\n%s", got, r.stderr)
	}

	// JSON: the failure points at the scenario; the error, at its place, is
	// in "errors" once.
	r = runCmd(t, "", "test", "-json", byPath)
	var doc testDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if want := []string{bad + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)"}; !slices.Equal(doc.Errors, want) {
		t.Errorf("errors %q, want %q", doc.Errors, want)
	}
	if len(doc.Scenarios) != 3 || len(doc.Scenarios[0].Failures) != 1 {
		t.Fatalf("scenarios: %+v", doc.Scenarios)
	}
	if f := doc.Scenarios[0].Failures[0]; f.Line != 1 || f.Column != 24 || f.Diff != "ruleset bad.rules does not compile (1 error)" {
		t.Errorf("failure %+v", f)
	}
}

// check shows a scenario's broken ruleset file in that file, with a note at
// the scenario's `ruleset` line, and does not let another scenario's
// unknown ruleset hide it.
func TestCheckBrokenRulesetFile(t *testing.T) {
	_, _, bad, byPath := brokenRulesetFiles(t)
	r := runCmd(t, "", "check", byPath)
	want := bad + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)\n" +
		"      phase p { order sides as o { highest agl } }\n" +
		"                                           ^\n" +
		byPath + ":1:24: note: bad.rules is used by scenario \"p\" here\n" +
		"    scenario \"p\" { ruleset \"bad.rules\"\n" +
		"                           ^\n" +
		byPath + ":7:11: error: scenario \"q\": ruleset nonexist.rules: " + filepath.Join(filepath.Dir(byPath), "nonexist.rules") + ": no such file or directory\n"
	expectation{code: 1, stderr: []string{want,
		byPath + ":13:11: note: bad.rules is used by scenario \"r\" here\n",
	}, notStdout: []string{"ok"}}.check(t, r)
	if got := strings.Count(r.stderr, "unknown name agl"); got != 1 {
		t.Errorf("the error is shown %d times, want once:\n%s", got, r.stderr)
	}

	// Checked with the file it names, the error is still shown once, and
	// the file, whose errors came before, is not ok.
	r = runCmd(t, "", "check", byPath, bad)
	expectation{code: 1, notStdout: []string{"ok"}}.check(t, r)
	if got := strings.Count(r.stderr, "unknown name agl"); got != 1 {
		t.Errorf("the error is shown %d times, want once:\n%s", got, r.stderr)
	}
}

// A broken file whose errors were already shown is still broken: it is
// not "ok" when a scenario named it first, or when it is named twice.
func TestCheckShownErrorsAreNotOK(t *testing.T) {
	dir := t.TempDir()
	const ruleset = "ruleset b \"X\" {\n  sides 2\n  phase p { order sides as o { highest agl } }\n}\n"
	writeFile(t, dir, "a.rules", "scenario \"b\" {\n  ruleset \"zbroken.rules\"\n  side A\n  side B\n  round 1 { expect holder A }\n}\n")
	broken := writeFile(t, dir, "zbroken.rules", ruleset)
	for _, args := range [][]string{{dir}, {broken, broken}} {
		r := runCmd(t, "", append([]string{"check"}, args...)...)
		expectation{code: 1, stderr: []string{broken + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)\n"},
			notStdout: []string{"ok"}}.check(t, r)
		if got := strings.Count(r.stderr, "unknown name agl"); got != 1 {
			t.Errorf("check %s: the error is shown %d times, want once:\n%s", strings.Join(args, " "), got, r.stderr)
		}
	}
}

// A byte order mark at the start of a scenario file moves neither the
// note at its `ruleset` line nor the caret under the name.
func TestCheckBrokenRulesetFileBOM(t *testing.T) {
	dir, _, bad, byPath := brokenRulesetFiles(t)
	src, err := os.ReadFile(byPath)
	if err != nil {
		t.Fatal(err)
	}
	bom := writeFile(t, dir, "bom.rules", "\uFEFF"+string(src))
	for _, file := range []string{byPath, bom} {
		r := runCmd(t, "", "check", file)
		expectation{code: 1, stderr: []string{
			bad + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)\n",
			file + ":1:24: note: bad.rules is used by scenario \"p\" here\n" +
				"    scenario \"p\" { ruleset \"bad.rules\"\n" +
				"                           ^\n",
			file + ":13:11: note: bad.rules is used by scenario \"r\" here\n" +
				"      ruleset \"bad.rules\"\n" +
				"              ^\n",
		}, notStdout: []string{"ok"}}.check(t, r)
	}
}

// A ruleset file that does not parse, tested itself and named by a
// scenario, has its errors shown once, and listed once in -json's errors.
func TestTestUnparsedRulesetFileOnce(t *testing.T) {
	dir := t.TempDir()
	broken := writeFile(t, dir, "zbroken.rules", "ruleset b \"X\" {\n  sides 2\n  frob\n}\n")
	scen := writeFile(t, dir, "a.rules", "scenario \"b\" {\n  ruleset \"zbroken.rules\"\n  side A\n  side B\n  round 1 { expect holder A }\n}\n")
	const frob = `unknown statement "frob"`

	r := runCmd(t, "", "test", broken, scen)
	expectation{code: 1, stdout: []string{"FAIL  " + scen + ": b\n", "0 passed, 1 failed\n"},
		stderr: []string{broken + ":3:3: error: " + frob,
			"turnorder test: " + broken + " does not parse (1 error); its scenarios were not run\n"}}.check(t, r)
	if got := strings.Count(r.stderr, frob); got != 1 {
		t.Errorf("the error is shown %d times, want once:\n%s", got, r.stderr)
	}

	// -json, and -with a file that does not parse (which stops the run):
	// listed once.
	for _, args := range [][]string{{broken, scen}, {"-with", broken, scen}} {
		r = runCmd(t, "", append([]string{"test", "-json"}, args...)...)
		var doc testDoc
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, r.stdout)
		}
		if len(doc.Errors) != 1 || !strings.HasPrefix(doc.Errors[0], broken+":3:3: error: "+frob) {
			t.Errorf("test -json %s: errors %q, want the one error of %s", strings.Join(args, " "), doc.Errors, broken)
		}
		if got := strings.Count(r.stderr, frob); got != 1 {
			t.Errorf("test -json %s: the error is shown %d times, want once:\n%s", strings.Join(args, " "), got, r.stderr)
		}
	}
	// The last run is the -with one.
	expectation{code: 1, stderr: []string{"turnorder test: --with " + broken + " does not parse (1 error); no scenario was run\n"}}.check(t, r)
}

// check and test find a scenario's ruleset file the same way, by an
// absolute path too, and report a ruleset they cannot use at its name.
func TestCheckAndTestAgreeOnRulesetPaths(t *testing.T) {
	_, _, bad, _ := brokenRulesetFiles(t)
	good := writeFile(t, t.TempDir(), "good.rules",
		"ruleset x \"X\" {\n  sides 2\n  phase p { order sides as o { highest roll d6 } }\n}\n")
	missing := filepath.ToSlash(filepath.Join(t.TempDir(), "missing.rules"))
	dir := t.TempDir()
	fine := writeFile(t, dir, "fine.rules", "scenario \"g\" {\n  ruleset \""+filepath.ToSlash(good)+"\"\n"+
		"  side A\n  side B\n  round 1 {\n    roll A 4, B 2\n    expect order A, B\n  }\n}\n")
	sc := writeFile(t, dir, "sc.rules", "scenario \"b\" {\n  ruleset \""+filepath.ToSlash(bad)+"\"\n}\n"+
		"scenario \"m\" {\n  ruleset \""+missing+"\"\n}\n"+
		"scenario \"t\" {\n  ruleset mesgb\n}\n")

	expectation{code: 0, stdout: []string{"ok  " + fine + " (1 scenario)\n"}}.check(t, runCmd(t, "", "check", fine))
	expectation{code: 0, stdout: []string{"PASS  " + fine + ": g\n", "1 passed, 0 failed\n"}}.check(t, runCmd(t, "", "test", fine))

	// The same line:column from both: the name after `ruleset`.
	expectation{code: 1, stderr: []string{
		bad + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)\n",
		sc + ":2:11: note: ",
		sc + ":5:11: error: scenario \"m\": ruleset " + missing + ": no such file or directory\n",
		sc + ":8:11: error: scenario \"t\": unknown ruleset mesgb (did you mean mesbg?): ",
	}, notStdout: []string{"ok"}, notStderr: []string{"next to this one"}}.check(t, runCmd(t, "", "check", sc))
	expectation{code: 1, stdout: []string{
		"FAIL  " + sc + ": b\n    " + sc + ":2:11: ruleset " + filepath.ToSlash(bad) + " does not compile (1 error)\n",
		"FAIL  " + sc + ": m\n    " + sc + ":5:11: ruleset " + missing + ": no such file or directory\n",
		"FAIL  " + sc + ": t\n    " + sc + ":8:11: ",
	}, stderr: []string{bad + ":3:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)\n"}}.check(t, runCmd(t, "", "test", sc))
}

// A ruleset file that exists but cannot be read is reported, not passed
// over as if it compiled. (A directory stands in for it: tests may run as
// root, who can read any file.)
func TestUnreadableRulesetFile(t *testing.T) {
	dir := t.TempDir()
	rf := loadRulesetFile(dir)
	if rf.unread == nil || rf.prog != nil || len(rf.errs) > 0 {
		t.Errorf("loadRulesetFile(a directory) = %+v, want it unread", rf)
	}
}

// check and test word a ruleset that a scenario names but that cannot be
// used in the same words, after the same position, and a missing file as
// run, odds, play and fmt word one: the path looked for and why.
func TestCheckAndTestWordAnUnusableRulesetAlike(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.MkdirAll(filepath.Join(sub, "dir.rules"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, ruleset, want string
	}{
		{"missing file", `"missing.rules"`, "ruleset missing.rules: " + filepath.Join(sub, "missing.rules") + ": no such file or directory"},
		{"directory", `"dir.rules"`, "ruleset dir.rules: " + filepath.Join(sub, "dir.rules") + " is a directory; name a .rules file"},
		{"absolute path", `"` + filepath.ToSlash(filepath.Join(dir, "gone.rules")) + `"`,
			"ruleset " + filepath.ToSlash(filepath.Join(dir, "gone.rules")) + ": no such file or directory"},
		{"bundled name", "mesgb", "unknown ruleset mesgb (did you mean mesbg?): no ruleset of this file has that name, nor any bundled ruleset (agi, mesbg, morturi, necromunda)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := writeFile(t, sub, "sc.rules", "scenario \"s\" {\n  ruleset "+tt.ruleset+"\n  side A\n  side B\n}\n")
			at := sc + ":2:11: "
			check := runCmd(t, "", "check", sc)
			test := runCmd(t, "", "test", sc)
			got := []string{check.stderr, test.stdout}
			want := []string{
				at + "error: scenario \"s\": " + tt.want + "\n      ruleset " + tt.ruleset + "\n              ^\n",
				"FAIL  " + sc + ": s\n    " + at + tt.want + "\n0 passed, 1 failed\n",
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("check stderr, test stdout (-want +got):\n%s", diff)
			}
			if check.code != 1 || test.code != 1 {
				t.Errorf("exit status: check %d, test %d; want 1 and 1", check.code, test.code)
			}
		})
	}
	// run names the same file in the same words, without the ruleset it
	// stands for.
	missing := filepath.Join(sub, "missing.rules")
	expectation{code: 1, stderr: []string{"turnorder run: " + missing + ": no such file or directory\n"}, oneLine: true}.
		check(t, runCmd(t, "", "run", missing))
}
