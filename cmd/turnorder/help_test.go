package main

// Tests of the help texts in help/*.txt, and of docs/cli.md, which shows
// each as `turnorder help` prints it.

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite docs/cli.md's help blocks from help/*.txt")

// Every command has a help file, with examples, and every help file is a
// command's.
func TestHelpFiles(t *testing.T) {
	files, err := fs.Glob(helpFiles, "help/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
		body, example := helpText(c.name)
		if strings.TrimSpace(body) == "" || strings.TrimSpace(example) == "" {
			t.Errorf("help/%s.txt has no text or no \"Example:\" after it", c.name)
		}
		if !strings.HasSuffix(example, "\n") || strings.HasSuffix(example, "\n\n") {
			t.Errorf("help/%s.txt does not end with one newline", c.name)
		}
	}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "help/"), ".txt")
		if !slices.Contains(names, name) {
			t.Errorf("%s is the help of no command", f)
		}
	}
}

// helpBlock is how docs/cli.md shows what `turnorder help NAME` prints,
// at the end of the command's section.
func helpBlock(c *command) string {
	var help bytes.Buffer
	commandHelp(&help, c)
	return fmt.Sprintf("%s\n<details><summary><code>turnorder help %s</code> prints</summary>\n\n```\n%s```\n\n</details>\n%s\n",
		helpStart(c.name), c.name, help.String(), helpEnd(c.name))
}

// helpStart and helpEnd are the comments around a help block, by which
// -update finds it to replace it.
func helpStart(name string) string {
	return "<!-- `turnorder help " + name + "`, written by `go test ./cmd/turnorder -run TestCLIDocHelp -update`: edit cmd/turnorder/help/" + name + ".txt (and the flags in the code), not this block -->"
}

func helpEnd(name string) string { return "<!-- end of turnorder help " + name + " -->" }

// docs/cli.md shows, in each command's section, its whole help as
// `turnorder help` prints it. With -update the test writes the blocks
// instead of comparing them.
func TestCLIDocHelp(t *testing.T) {
	const file = "../../docs/cli.md"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, c := range commands() {
		want := helpBlock(c)
		if strings.Count(want, "```") != 2 {
			t.Fatalf("help/%s.txt holds a code fence, which would end docs/cli.md's block early", c.name)
		}
		heading := "\n## " + c.name + "\n"
		at := strings.Index(doc, heading)
		if at < 0 {
			t.Errorf("docs/cli.md has no section %q", strings.TrimSpace(heading))
			continue
		}
		// The section runs to the next heading of its level, or the end.
		end := len(doc)
		if next := strings.Index(doc[at+len(heading):], "\n## "); next >= 0 {
			end = at + len(heading) + next + 1
		}
		section := doc[at:end]
		var got string
		start := strings.Index(section, helpStart(c.name))
		stop := strings.Index(section, helpEnd(c.name)+"\n")
		if start >= 0 && stop > start {
			got = section[start : stop+len(helpEnd(c.name))+1]
		}
		if *update {
			if got != "" {
				section = strings.Replace(section, got, want, 1)
			} else {
				section = strings.TrimRight(section, "\n") + "\n\n" + want
				if end < len(doc) {
					section += "\n"
				}
			}
			doc = doc[:at] + section + doc[end:]
			continue
		}
		if got == "" {
			t.Errorf("docs/cli.md's section %q does not show `turnorder help %s`: run go test ./cmd/turnorder -run TestCLIDocHelp -update", strings.TrimSpace(heading), c.name)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("docs/cli.md shows `turnorder help %s` otherwise than it prints (-help +doc); run go test ./cmd/turnorder -run TestCLIDocHelp -update:\n%s", c.name, diff)
		}
	}
	if *update && doc != string(data) {
		if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
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
