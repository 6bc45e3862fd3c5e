package main

// The help: the list of commands, and each command's help, whose text is
// in help/NAME.txt.

import (
	"embed"
	"flag"
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
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.short)
	}
	fmt.Fprint(w, `
Run 'turnorder help COMMAND' (or 'turnorder COMMAND -h') for a command's
flags and an example. Flags may be written with one dash or two (-json,
--json), and before or after the other arguments.

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

// commandHelp prints the synopsis, the help text, and the flags between
// the text and its examples.
func commandHelp(w io.Writer, c *command) {
	body, example := helpText(c.name)
	fmt.Fprintf(w, "usage: %s\n\n", strings.TrimSpace("turnorder "+c.name+" "+c.args))
	fmt.Fprintln(w, body)
	hasFlags := false
	c.flags.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprint(w, "\nFlags:\n")
		c.flags.SetOutput(w)
		c.flags.PrintDefaults()
		c.flags.SetOutput(io.Discard)
	}
	fmt.Fprint(w, "\nExample:\n\n", example)
}
