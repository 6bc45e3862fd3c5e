package main

// Tests of the help texts in help/*.txt, and of docs/cli.md, which shows
// each as `turnorder help` prints it.

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
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
