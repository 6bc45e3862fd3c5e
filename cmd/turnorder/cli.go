package main

import (
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
)

// Exit statuses, as for gofmt and go vet.
const (
	exitOK    = 0
	exitError = 1 // errors in the input: a bad file, a bad value, a failed round
	exitUsage = 2 // the command line itself is wrong
)

// env is what a command runs with: its arguments come separately, so
// that tests can call run with their own streams.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	cmd            string // the command running, for messages
	// errs holds every error reported through report and errorf, for a
	// --json document to list: a program reading it does not read stderr.
	errs dsl.Diagnostics
	// warns holds the warnings reported through report, for check's.
	warns dsl.Diagnostics
	// noted holds the notes printed, so that one is said once though two
	// rulesets (odds A B) read the same --setup file.
	noted map[string]bool
}

// noteOnce prints a note on stderr, once per command.
func (e *env) noteOnce(msg string) {
	if e.noted[msg] {
		return
	}
	if e.noted == nil {
		e.noted = map[string]bool{}
	}
	e.noted[msg] = true
	fmt.Fprintf(e.stderr, "%snote: %s\n", e.prefix(), msg)
}

// prefix starts a message: "turnorder run: ".
func (e *env) prefix() string { return "turnorder " + e.cmd + ": " }

// report prints diagnostics as writeDiags does (src is their file's text)
// and keeps them.
func (e *env) report(ds dsl.Diagnostics, src []byte) {
	writeDiags(e.stderr, ds, src, e.prefix())
	for _, d := range ds {
		if d.Severity == dsl.Error {
			e.errs = append(e.errs, d)
		} else {
			e.warns = append(e.warns, d)
		}
	}
}

// errorf prints an error that is at no place in a file, on one line after
// the prefix, and keeps it.
func (e *env) errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(e.stderr, "%s%s\n", e.prefix(), msg)
	e.errs = append(e.errs, dsl.Diagnostic{Severity: dsl.Error, Message: msg})
}

// command is one subcommand. Each call of commands builds fresh flag sets,
// so run can be called any number of times (as the tests do).
type command struct {
	name  string
	args  string // the synopsis after the command name
	short string // one line for the command list; the help text is help/NAME.txt
	flags *flag.FlagSet
	// run runs the command with the positional arguments, after the flags
	// have been parsed into the variables the constructor bound.
	run func(e *env, args []string) int
}

func commands() []*command {
	return []*command{
		checkCommand(),
		fmtCommand(),
		listCommand(),
		oddsCommand(),
		playCommand(),
		runCommand(),
		testCommand(),
		versionCommand(),
	}
}

func findCommand(cmds []*command, name string) *command {
	for _, c := range cmds {
		if c.name == name {
			return c
		}
	}
	return nil
}

// newFlags returns a flag set that reports nothing itself: run prints the
// errors and the help text.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// run is the whole program: main only adds os.Exit.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	cmds := commands()
	if len(args) == 0 {
		mainHelp(stderr, cmds)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if name != "help" || len(rest) == 0 {
			mainHelp(stdout, cmds)
			return exitOK
		}
		if len(rest) > 1 {
			fmt.Fprintln(stderr, "turnorder help: name one command, as in `turnorder help run`")
			return exitUsage
		}
		if rest[0] == "help" {
			mainHelp(stdout, cmds)
			return exitOK
		}
		c := findCommand(cmds, rest[0])
		if c == nil {
			fmt.Fprintf(stderr, "turnorder help: unknown command %q (commands: %s)\n", rest[0], commandNames(cmds))
			return exitUsage
		}
		commandHelp(stdout, c)
		return exitOK
	}
	c := findCommand(cmds, name)
	if c == nil {
		fmt.Fprintf(stderr, "turnorder: unknown command %q (commands: %s)\nRun 'turnorder help' for usage.\n", name, commandNames(cmds))
		return exitUsage
	}
	pos, err := parseInterspersed(c.flags, rest)
	if errors.Is(err, flag.ErrHelp) {
		commandHelp(stdout, c)
		return exitOK
	}
	if err != nil {
		if strings.HasPrefix(err.Error(), "invalid ") {
			// A flag's value is bad, not the command line's shape.
			fmt.Fprintf(stderr, "turnorder %s: %v\n", c.name, err)
			return exitError
		}
		fmt.Fprintf(stderr, "turnorder %s: %v\nRun 'turnorder help %s' for usage.\n", c.name, err, c.name)
		return exitUsage
	}
	e.cmd = c.name
	return c.run(e, pos)
}

// parseInterspersed parses flags that come before, between or after the
// positional arguments (`run mesbg --rounds 3`). After "--" every argument
// is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func commandNames(cmds []*command) string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

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

// intFlag and uintFlag are flag values whose parse errors say what is
// wanted (the flag package's own say "parse error").
type intFlag struct{ p *int }

func (f *intFlag) String() string {
	if f.p == nil {
		return "0" // the zero value, which the help shows no default for
	}
	return strconv.Itoa(*f.p)
}

func (f *intFlag) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("want a whole number")
	}
	*f.p = v
	return nil
}

type uintFlag struct{ p *uint64 }

func (f *uintFlag) String() string {
	if f.p == nil {
		return "0"
	}
	return strconv.FormatUint(*f.p, 10)
}

func (f *uintFlag) Set(s string) error {
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("want a whole number from 0 to %d", uint64(math.MaxUint64))
	}
	*f.p = v
	return nil
}

// listFlag collects every value of a flag given more than once.
type listFlag []string

func (f *listFlag) String() string { return strings.Join(*f, ",") }

func (f *listFlag) Set(s string) error {
	*f = append(*f, s)
	return nil
}

// nonEmptyFlag is a string flag that refuses an empty value: leaving the
// flag out is how to ask for its default, so `--sides ""` is a mistake
// (an empty variable in a script, say), not a quiet way to say nothing.
type nonEmptyFlag struct {
	p    *string
	want string // what to give instead, for the error
}

func (f *nonEmptyFlag) String() string {
	if f.p == nil {
		return ""
	}
	return *f.p
}

func (f *nonEmptyFlag) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New(f.want)
	}
	*f.p = s
	return nil
}

// nonEmpty defines a string flag that refuses an empty value; want says
// what to give instead.
func nonEmpty(fs *flag.FlagSet, name, usage, want string) *string {
	p := new(string)
	fs.Var(&nonEmptyFlag{p: p, want: want}, name, usage)
	return p
}

// given reports whether the flag name was set on the command line.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
