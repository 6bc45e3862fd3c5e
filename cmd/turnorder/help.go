package main

// The help: the list of commands, and each command's help, whose text is
// in help/NAME.txt.

import (
	"embed"
	"fmt"
	"io"
	"strings"
)

func mainHelp(w io.Writer, cmds []*command) {
	fmt.Fprint(w, `turnorder checks, formats and runs .rules files: the rules that decide
who acts first in a tabletop game, and the activation loops that follow.

Usage:

  turnorder COMMAND [ARGUMENTS]

Commands:

`)
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.short)
	}
	fmt.Fprint(w, `
Run 'turnorder COMMAND -h' for a command's flags and examples, and
'turnorder help COMMAND' (or 'turnorder COMMAND --help') for all of its
help. Flags may come before or after the other arguments, and be written
with two dashes or one (--json, -json). 'turnorder --version' prints the
version; '--color=never' (or NO_COLOR=1) turns colour off.

Example:

  turnorder check rulesets
  turnorder run mesbg --seed 7 --rounds 3
`)
}

// helpFiles holds each command's help text, help/NAME.txt: what the
// command does, then "Example:" and its examples. They are text files so
// that docs/cli.md can show them as they are (see TestCLIDocHelp).
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpText returns the help text of the command name, split before the
// line "Example:", where the flags go.
func helpText(name string) (body, example string) {
	text, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("turnorder " + name + " has no help text: " + err.Error())
	}
	body, example, _ = strings.Cut(string(text), "\n\nExample:\n\n")
	return body, example
}

// commandHelp prints the whole help: the synopsis, the help text, and the
// flags between the text and its examples.
func commandHelp(w io.Writer, c *command) {
	body, example := helpText(c.name)
	fmt.Fprintf(w, "usage: %s\n\n", synopsis(c))
	fmt.Fprintln(w, body)
	if hasFlags(c.flags) {
		fmt.Fprint(w, "\nFlags:\n")
		writeFlags(w, c.flags)
	}
	fmt.Fprint(w, "\nExample:\n\n", example)
}

// shortHelp is -h: the synopsis, what the command does in a line, its
// flags and two examples, with the way to the whole help. play's whole
// help is over a hundred lines, too many to find a flag in.
func shortHelp(w io.Writer, c *command) {
	_, example := helpText(c.name)
	fmt.Fprintf(w, "usage: %s\n\n%s%s.\n", synopsis(c), strings.ToUpper(c.short[:1]), c.short[1:])
	if hasFlags(c.flags) {
		fmt.Fprint(w, "\nFlags:\n")
		writeFlags(w, c.flags)
	}
	lines := strings.SplitAfter(example, "\n")
	fmt.Fprint(w, "\nExample:\n\n", strings.Join(lines[:min(2, len(lines))], ""))
	fmt.Fprintf(w, "\nRun 'turnorder help %s' for the whole help.\n", c.name)
}

func synopsis(c *command) string { return strings.TrimSpace("turnorder " + c.name + " " + c.args) }
