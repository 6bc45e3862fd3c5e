package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// unknownAttr is the bundled morturi ruleset with `units` misspelt.
func unknownAttr(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../../rulesets/morturi.rules")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "lowest count(units)") {
		t.Fatal("morturi.rules no longer says `lowest count(units)`")
	}
	return strings.Replace(string(src), "lowest count(units)", "lowest count(unitz)", 1)
}

// unitzAt is the line:column of `unitz` in unknownAttr's text.
func unitzAt(t *testing.T) string {
	t.Helper()
	for i, line := range strings.Split(unknownAttr(t), "\n") {
		if c := strings.Index(line, "unitz"); c >= 0 {
			return fmt.Sprintf("%d:%d", i+1, c+1)
		}
	}
	t.Fatal("no unitz")
	return ""
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.rules", unknownAttr(t))
	scen := writeFile(t, dir, "scen.rules", `scenario "Jay and Rob" {
  ruleset mesbg
  side Jay
  side Rob
}

scenario "typo" {
  ruleset  mesgb
}

scenario "by path" {
  ruleset "scen.rules"
}
`)
	dup := writeFile(t, dir, "dup.rules", `ruleset r {
  phase p {
    order sides as o {
      random
    }
  }
}

ruleset r {
  phase p {
    order sides as o {
      random
    }
  }
}
`)
	warn := writeFile(t, dir, "warn.rules", `ruleset r {
  phase p {
    order sides as o {
      random
      highest roll d6
    }
  }
}
`)
	syntax := writeFile(t, dir, "syntax.rules", "ruleset r {\n  sides 2\n  phase p {\n")
	bracket := writeFile(t, dir, "bracket.rules", `ruleset r {
  sides 2
  phase p {
    order sides as o {
      highest roll d6 + (len(sides)
      tie: reroll
    }
  }
}

ruleset s {
  activation bogus by o
}
`)
	typos := writeFile(t, dir, "typos.rules", `scenario "typos" {
  ruleset mesbg
  round 1 {
    roll Jay 4, Rbo 2
    expect event rolls Jay
  }
}
`)
	setup := writeFile(t, dir, "setup.rules", `side Jay {
  unit md * 3
  unit md2
}
side none
`)
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, sub, "warn.rules", "ruleset w {\n  phase p {\n    order sides as o {\n      random\n    }\n  }\n}\n")
	writeFile(t, sub, "notes.txt", "not a rules file")

	tests := []struct {
		name string
		args []string
		want expectation
	}{
		{"bundled dir", []string{"../../rulesets"}, expectation{code: 0, stdout: []string{
			"ok  ../../rulesets/mesbg.rules (ruleset mesbg)",
			"ok  ../../rulesets/morturi.rules (ruleset morturi)",
			"ok  ../../rulesets/necromunda.rules (ruleset necromunda)",
			"ok  ../../rulesets/agi.rules (ruleset agi)",
		}}},
		{"bundled name", []string{"mesbg"}, expectation{code: 0, stdout: []string{"ok  mesbg (bundled) (ruleset mesbg)"}}},
		{"unknown attribute", []string{bad}, expectation{code: 1, stderr: []string{
			bad + ":" + unitzAt(t) + ": error: ", "unitz",
			"\n          lowest count(unitz)\n                       ^\n",
		}, notStdout: []string{"ok"}}},
		{"scenario rulesets", []string{scen}, expectation{code: 1, stderr: []string{
			scen + `:8:12: error: scenario "typo": unknown ruleset mesgb`,
			"\n      ruleset  mesgb\n               ^\n",
		}}},
		{"scenario statements", []string{typos}, expectation{code: 1, stderr: []string{
			typos + ":4:17: error: round 1: roll Rbo: no side or unit is called Rbo; did you mean Rob? (sides Jay, Rob)",
			typos + ":5:18: error: round 1: expect event rolls: there is no such kind of event (did you mean roll?)",
		}, notStdout: []string{"ok"}}},
		{"names in a file of sides", []string{setup}, expectation{code: 1, stderr: []string{
			setup + `:3:3: error: the name "md2" is used twice`,
			setup + ":5:1: error: none cannot name a side",
		}, notStdout: []string{"ok"}}},
		{"duplicate ruleset", []string{dup}, expectation{code: 1, stderr: []string{dup + ":9:1: error: ruleset r is declared twice in this file (first at line 1)"}}},
		{"warnings only", []string{warn}, expectation{code: 0,
			stdout: []string{"ok  " + warn + " (ruleset r, 1 warning)"},
			stderr: []string{warn + ":5:7: warning: `highest roll d6` comes after random and can never apply", "\n          highest roll d6\n          ^\n"}}},
		{"syntax error", []string{syntax}, expectation{code: 1, stderr: []string{syntax + ":", ": error: "}}},
		{"unclosed bracket, and more", []string{bracket}, expectation{code: 1, stderr: []string{
			bracket + `:5:25: error: this "(" is not closed`, bracket + `:12:14: error: unexpected "bogus"`},
			notStderr: []string{"EOF", "unexpected token"}}},
		{"walks directories", []string{sub}, expectation{code: 0, stdout: []string{"ok  " + filepath.Join(sub, "warn.rules") + " (ruleset w)"}, notStdout: []string{"notes.txt"}}},
		{"one bad file fails all", []string{"mesbg", bad}, expectation{code: 1, stdout: []string{"ok  mesbg"}}},
		{"no arguments", nil, expectation{code: 2, stderr: []string{"name at least one"}, oneLine: true}},
		{"missing file", []string{filepath.Join(dir, "nope.rules")}, expectation{code: 1, stderr: []string{"nope.rules: no such file or directory"}, oneLine: true}},
		{"empty dir", []string{t.TempDir()}, expectation{code: 1, stderr: []string{"no .rules files"}, oneLine: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, runCmd(t, "", append([]string{"check"}, tt.args...)...))
		})
	}
}

func TestCheckCaretUnderUnknownName(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.rules", unknownAttr(t))
	r := runCmd(t, "", "check", bad)
	lines := strings.Split(r.stderr, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, bad+":") && strings.Contains(l, "unitz") && i+2 < len(lines) {
			col := strings.Index(lines[i+1], "unitz")
			caret := strings.Index(lines[i+2], "^")
			if col < 0 || caret != col {
				t.Errorf("caret at %d, unitz at %d:\n%s", caret, col, r.stderr)
			}
			return
		}
	}
	t.Errorf("no diagnostic about unitz:\n%s", r.stderr)
}

// A file named twice, or named and found in its directory, is checked once.
func TestCheckFileNamedTwice(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "r.rules", "ruleset w {\n  phase p {\n    order sides as o {\n      random\n    }\n  }\n}\n")
	r := runCmd(t, "", "check", file, dir, filepath.Join(dir, ".", "r.rules"))
	expectation{code: 0}.check(t, r)
	if n := strings.Count(r.stdout, "ok  "); n != 1 {
		t.Errorf("%d ok lines, want 1:\n%s", n, r.stdout)
	}
}

// `check -` checks standard input, as an editor would send an unsaved file.
func TestCheckStdin(t *testing.T) {
	r := runCmd(t, "ruleset x {\n  sidez 2\n}\n", "check", "-")
	expectation{code: 1, stderr: []string{"<standard input>:2:3: error: unknown statement \"sidez\"", "\n      sidez 2\n      ^\n"}}.check(t, r)

	r = runCmd(t, "ruleset x {\n  phase p {\n    order sides as o {\n      random\n    }\n  }\n}\n", "check", "-")
	expectation{code: 0, stdout: []string{"ok  <standard input> (ruleset x)\n"}}.check(t, r)
}

// A scenario whose ruleset cannot be found, or does not compile, does not
// hide the mistakes of the other scenarios of its file: each is reported
// once, the ruleset at the scenario's `ruleset` line.
func TestCheckScenariosBesideABrokenRuleset(t *testing.T) {
	file := writeFile(t, t.TempDir(), "s.rules", `scenario "a side's name mistyped" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Bob 2
  }
}
scenario "a ruleset's name mistyped" {
  ruleset mesgb
  round 1 {
    roll Jay 4, Bob 2
  }
}
ruleset broken {
  phase p { order sides as o { highest agl } }
}
scenario "a ruleset that does not compile" {
  ruleset broken
  round 1 {
    roll Jay 4, Bob 2
  }
}
`)
	r := runCmd(t, "", "check", file)
	want := file + ":6:17: error: round 1: roll Bob: no side or unit is called Bob; did you mean Rob? (sides Jay, Rob)\n" +
		"        roll Jay 4, Bob 2\n                    ^\n" +
		file + ":10:11: error: scenario \"a ruleset's name mistyped\": unknown ruleset mesgb (did you mean mesbg?)"
	expectation{code: 1, stderr: []string{want, file + ":16:40: error: unknown name agl (to use it, declare it in the ruleset: `side attribute agl int`)\n"}}.check(t, r)
	if n := strings.Count(r.stderr, "error:"); n != 3 {
		t.Errorf("%d errors, want 3:\n%s", n, r.stderr)
	}
}
