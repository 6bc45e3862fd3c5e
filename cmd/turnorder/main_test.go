package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// result is what one call of run produced.
type result struct {
	code           int
	stdout, stderr string
}

func runCmd(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

// writeFile writes a file under dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// expectation is a table test's check of one result.
type expectation struct {
	code      int
	stdout    []string // substrings of stdout
	stderr    []string // substrings of stderr
	notStdout []string
	notStderr []string
	oneLine   bool // stderr is a single line
}

func (x expectation) check(t *testing.T, r result) {
	t.Helper()
	if r.code != x.code {
		t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, x.code, r.stdout, r.stderr)
	}
	for _, s := range x.stdout {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
		}
	}
	for _, s := range x.notStdout {
		if strings.Contains(r.stdout, s) {
			t.Errorf("stdout has %q:\n%s", s, r.stdout)
		}
	}
	for _, s := range x.stderr {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
		}
	}
	for _, s := range x.notStderr {
		if strings.Contains(r.stderr, s) {
			t.Errorf("stderr has %q:\n%s", s, r.stderr)
		}
	}
	if x.oneLine && strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr is not one line:\n%s", r.stderr)
	}
	for _, s := range []string{"panic", "goroutine"} {
		if strings.Contains(r.stdout+r.stderr, s) {
			t.Errorf("output mentions %q:\nstdout:\n%s\nstderr:\n%s", s, r.stdout, r.stderr)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			want := expectation{code: 0, stdout: []string{"usage: turnorder " + c.name, "Example:\n\n  "}}
			help := runCmd(t, "", "help", c.name)
			want.check(t, help)
			for _, long := range []string{"--help", "-help"} {
				dashHelp := runCmd(t, "", c.name, long)
				if help.stdout != dashHelp.stdout {
					t.Errorf("`help %s` and `%s %s` differ", c.name, c.name, long)
				}
			}
			// -h is short: the synopsis, the flags and two examples, and
			// where the whole help is.
			short := runCmd(t, "", c.name, "-h")
			want.stdout = append(want.stdout, "Run 'turnorder help "+c.name+"' for the whole help.")
			if hasFlags(c.flags) {
				want.stdout = append(want.stdout, "\nFlags:\n  --color WHEN\n")
			}
			want.check(t, short)
			_, examples, _ := strings.Cut(short.stdout, "Example:\n\n")
			examples, _, _ = strings.Cut(examples, "\n\n")
			if n := strings.Count(strings.TrimSpace(examples), "\n") + 1; examples == "" || n > 2 {
				t.Errorf("`%s -h` shows not one or two examples but:\n%s", c.name, examples)
			}
			if lines := strings.Count(short.stdout, "\n"); lines > 40 {
				t.Errorf("`%s -h` is %d lines long:\n%s", c.name, lines, short.stdout)
			}
		})
	}
	tests := []struct {
		args []string
		want expectation
	}{
		{nil, expectation{code: 2, stderr: []string{"Commands:", "check", "run"}}},
		{[]string{"help"}, expectation{code: 0, stdout: []string{"Commands:", "fmt", "version"}}},
		{[]string{"--help"}, expectation{code: 0, stdout: []string{"Commands:"}}},
		{[]string{"frob"}, expectation{code: 2, stderr: []string{`unknown command "frob"`}}},
		{[]string{"help", "frob"}, expectation{code: 2, stderr: []string{`unknown command "frob"`}}},
		{[]string{"help", "help"}, expectation{code: 0, stdout: []string{"Commands:", "turnorder help COMMAND"}}},
		{[]string{"run", "mesbg", "--bogus"}, expectation{code: 2, stderr: []string{"unknown flag --bogus\n", "turnorder run -h"}, notStderr: []string{"flag provided but not defined", "did you mean"}}},
		{[]string{"check", "-x", "../../rulesets"}, expectation{code: 2, stderr: []string{"-x"}}},
		{[]string{"list", "extra"}, expectation{code: 2, stderr: []string{"no arguments"}}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			tt.want.check(t, runCmd(t, "", tt.args...))
		})
	}
}

func TestParseInterspersed(t *testing.T) {
	tests := []struct {
		args      []string
		pos       string
		rounds    int
		json      bool
		wantError bool
	}{
		{[]string{"mesbg"}, "mesbg", 3, false, false},
		{[]string{"mesbg", "--rounds", "5", "--json"}, "mesbg", 5, true, false},
		{[]string{"--json", "mesbg", "-rounds=2"}, "mesbg", 2, true, false},
		{[]string{"--rounds", "2", "a", "b"}, "a b", 2, false, false},
		{[]string{"--", "--json"}, "--json", 3, false, false},
		{[]string{"a", "--", "-b", "--rounds", "4"}, "a -b --rounds 4", 3, false, false},
		{[]string{"a", "--nope"}, "", 3, false, true},
	}
	for _, tt := range tests {
		fs := newFlags("t")
		rounds := fs.Int("rounds", 3, "")
		js := fs.Bool("json", false, "")
		pos, err := parseInterspersed(fs, tt.args)
		if (err != nil) != tt.wantError {
			t.Errorf("%q: err = %v", tt.args, err)
			continue
		}
		if err != nil {
			continue
		}
		if got := strings.Join(pos, " "); got != tt.pos || *rounds != tt.rounds || *js != tt.json {
			t.Errorf("%q: got %q rounds=%d json=%v; want %q %d %v", tt.args, got, *rounds, *js, tt.pos, tt.rounds, tt.json)
		}
	}
}

func TestVersion(t *testing.T) {
	r := runCmd(t, "", "version")
	expectation{code: 0, stdout: []string{"turnorder ", " (go"}}.check(t, r)
	if strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("version is not one line: %q", r.stdout)
	}
}

func TestList(t *testing.T) {
	expectation{code: 0, stdout: []string{
		"NAME", "TITLE", "SOURCE",
		"mesbg", "Middle-earth SBG: Priority Phase",
		"morturi", "necromunda", "agi",
	}}.check(t, runCmd(t, "", "list"))
}

// Each command's help gives the bounds of --rounds that the command
// enforces, so that a reader of the help is not surprised by the error.
func TestHelpRoundsBounds(t *testing.T) {
	for _, tt := range []struct {
		cmd, help, max, tooMany string
	}{
		{"run", "rounds, from 1 to 10000", "10000", "10001"},
		{"odds", "rounds, from 1 to 200", "200", "201"},
		{"play", "from 0 to 10000", "10000", "10001"},
	} {
		t.Run(tt.cmd, func(t *testing.T) {
			expectation{code: 0, stdout: []string{tt.help}}.check(t, runCmd(t, "", "help", tt.cmd))
			expectation{code: 1, stderr: []string{"--rounds must be between", " and " + tt.max + " "}}.
				check(t, runCmd(t, "", tt.cmd, "mesbg", "--rounds", tt.tooMany))
		})
	}
}

// Each command's synopsis and its list of flags agree: the same flags,
// with the same placeholder for the value (--setup FILE in both, not FILE
// in one and file in the other), and no default is shown that is no
// default a user could give (--sim's 0, which is refused).
func TestHelpFlagsMatchSynopsis(t *testing.T) {
	synopsisFlag := regexp.MustCompile(`\[-{1,2}([a-z]+)(?: ([^\]|]+))?[\]|]`)
	listedFlag := regexp.MustCompile(`(?m)^  -{1,2}([a-z]+)(?: ([^\t\n]+))?`)
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			want := map[string]string{}
			for _, m := range synopsisFlag.FindAllStringSubmatch(c.args, -1) {
				want[m[1]] = strings.TrimSpace(m[2])
			}
			help := runCmd(t, "", "help", c.name).stdout
			_, flags, _ := strings.Cut(help, "\nFlags:\n")
			flags, _, _ = strings.Cut(flags, "\nExample:")
			got := map[string]string{}
			for _, m := range listedFlag.FindAllStringSubmatch(flags, -1) {
				// Every command has --color: the synopses leave it out, as
				// they leave out -h, and the main help says it.
				if m[1] != "color" {
					got[m[1]] = strings.TrimSpace(m[2])
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("flags and their values, (-synopsis +flag list):\n%s", diff)
			}
			if strings.Contains(flags, "(default 0)") {
				t.Errorf("the flag list shows a default of 0:\n%s", flags)
			}
		})
	}
}

// list's help and docs/cli.md say where its names can be given: every
// command that takes a bundled ruleset's name for a file.
func TestListSaysWhereNamesGo(t *testing.T) {
	help := runCmd(t, "", "help", "list").stdout
	doc := docSection(t, "../../docs/cli.md", "Lists the bundled rulesets")
	for _, cmd := range []string{"check", "fmt", "odds", "play", "run", "test"} {
		if !strings.Contains(help, cmd) {
			t.Errorf("list's help does not name %s:\n%s", cmd, help)
		}
		if !strings.Contains(doc, "`"+cmd+"`") {
			t.Errorf("docs/cli.md's list does not name %s:\n%s", cmd, doc)
		}
	}
}
