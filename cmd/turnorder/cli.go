package main

// The program: its commands, what each runs with, and how a command
// line is dispatched to one.

import (
	"errors"
	"flag"
	"fmt"
	"io"
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

func commandNames(cmds []*command) string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}
