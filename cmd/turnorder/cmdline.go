package main

// Reading the command line: flags before, between or after the other
// arguments, flag values whose errors say what is wanted, and the
// ruleset arguments of run, play and odds.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// newFlags returns a flag set that reports nothing itself: run prints the
// errors and the help text.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
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

// sideFlags adds --sides and --setup, which run, play and odds share.
func sideFlags(fs *flag.FlagSet) (sides, setup *string) {
	sides = nonEmpty(fs, "sides", "plain sides, their names separated by commas: `A,B,...` (default: the ruleset's example)",
		"name the sides, separated by commas, as in --sides Jay,Rob (leave --sides out for the ruleset's example)")
	setup = nonEmpty(fs, "setup", "read sides, teams and units from the .rules `FILE`", "name a .rules file")
	return sides, setup
}

// rulesetArgs checks that args name one ruleset (or up to most). It
// reports a bad command line and returns false.
func rulesetArgs(e *env, args []string, most int) bool {
	switch {
	case len(args) == 0:
		fmt.Fprintf(e.stderr, "%sname a ruleset: one of %s, or the path of a .rules file\n", e.prefix(), bundledList())
		return false
	case len(args) > most && most == 1:
		fmt.Fprintf(e.stderr, "%sone ruleset at a time (got %s)\n", e.prefix(), strings.Join(args, ", "))
		return false
	case len(args) > most:
		fmt.Fprintf(e.stderr, "%scompare at most %d rulesets (got %d)\n", e.prefix(), most, len(args))
		return false
	}
	return true
}
