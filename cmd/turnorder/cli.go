package main

// The program: its commands, what each runs with, and how a command
// line is dispatched to one.

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/colour"
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
	// style is the colour and emphasis of what goes to stdout, as --color,
	// NO_COLOR and whether stdout is a terminal decide.
	style colour.Style
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
	// common holds -h, --help and --color, which every command has.
	common *commonFlags
}

func commands() []*command {
	cmds := []*command{
		checkCommand(),
		completionCommand(),
		fmtCommand(),
		listCommand(),
		lspCommand(),
		oddsCommand(),
		playCommand(),
		runCommand(),
		testCommand(),
		versionCommand(),
	}
	for _, c := range cmds {
		c.common = addCommonFlags(c.flags)
	}
	return cmds
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
	mode, args, code, done := globalFlags(args, stdout, stderr, cmds)
	if done {
		return code
	}
	if len(args) == 0 {
		mainHelp(stderr, cmds)
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help":
		if len(rest) == 0 || rest[0] == "help" && len(rest) == 1 {
			mainHelp(stdout, cmds)
			return exitOK
		}
		if len(rest) > 1 {
			fmt.Fprintln(stderr, "turnorder help: name one command, as in `turnorder help run`")
			return exitUsage
		}
		c := findCommand(cmds, rest[0])
		if c == nil {
			fmt.Fprintf(stderr, "turnorder help: %s\n", unknownCommand(rest[0], cmds))
			return exitUsage
		}
		commandHelp(stdout, c)
		return exitOK
	case completeCommand:
		return complete(stdout, cmds, rest)
	}
	c := findCommand(cmds, name)
	if c == nil {
		fmt.Fprintf(stderr, "turnorder: %s\nRun 'turnorder help' for usage.\n", unknownCommand(name, cmds))
		return exitUsage
	}
	c.common.colour = mode
	pos, err := parseInterspersed(c.flags, rest)
	if err != nil {
		err = flagError(c.flags, err)
		if strings.HasPrefix(err.Error(), "invalid ") {
			// A flag's value is bad, not the command line's shape.
			fmt.Fprintf(stderr, "turnorder %s: %v\n", c.name, err)
			return exitError
		}
		fmt.Fprintf(stderr, "turnorder %s: %v\nRun 'turnorder %s -h' for usage.\n", c.name, err, c.name)
		return exitUsage
	}
	switch {
	case c.common.long:
		commandHelp(stdout, c)
		return exitOK
	case c.common.short:
		shortHelp(stdout, c)
		return exitOK
	}
	e.cmd = c.name
	e.setColour(c.common.colour)
	return c.run(e, pos)
}

// globalFlags reads the flags that may come before the command:
// --version, -h and --help, which print and end the program (done), and
// --color, whose mode it returns for the command to start from.
func globalFlags(args []string, stdout, stderr io.Writer, cmds []*command) (mode colour.Mode, rest []string, code int, done bool) {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[0], "-"), "=")
		args = args[1:]
		switch name {
		case "version":
			fmt.Fprintln(stdout, versionString(debug.ReadBuildInfo()))
			return mode, nil, exitOK, true
		case "h", "help":
			mainHelp(stdout, cmds)
			return mode, nil, exitOK, true
		case "color":
			if !hasValue {
				if len(args) == 0 {
					fmt.Fprintf(stderr, "turnorder: --color needs a value\nRun 'turnorder help' for usage.\n")
					return mode, nil, exitUsage, true
				}
				value, args = args[0], args[1:]
			}
			m, err := colour.ParseMode(value)
			if err != nil {
				fmt.Fprintf(stderr, "turnorder: invalid value %q for --color: %v\n", value, err)
				return mode, nil, exitError, true
			}
			mode = m
		default:
			err := &errUnknownFlag{name: name, suggest: dsl.Suggest(name, []string{"version", "help", "color"})}
			fmt.Fprintf(stderr, "turnorder: %v\nRun 'turnorder help' for usage.\n", err)
			return mode, nil, exitUsage, true
		}
	}
	return mode, args, exitOK, false
}

func commandNames(cmds []*command) string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}
