package main

// The flags every command shares (-h, --help, --color), the flag listing
// of a command's help, written with two dashes as the docs write flags,
// and the wording of a command line's mistakes, with a suggestion.

import (
	"flag"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/colour"
)

// commonFlags are the flags run adds to every command.
type commonFlags struct {
	short, long bool // -h, --help
	colour      colour.Mode
}

// helpFlags are the names of -h and --help, which the listing leaves out:
// the short help says how to get the long one.
var helpFlags = []string{"h", "help"}

// addCommonFlags defines -h and --help as flags of their own, so that run
// can tell them apart (the flag package takes both for flag.ErrHelp), and
// --color.
func addCommonFlags(fs *flag.FlagSet) *commonFlags {
	cf := &commonFlags{}
	fs.BoolVar(&cf.short, "h", false, "print a short help")
	fs.BoolVar(&cf.long, "help", false, "print the whole help")
	fs.Var((*colourFlag)(&cf.colour), "color", "colour errors, warnings and prompts: `WHEN` is auto (on a terminal, unless NO_COLOR is set), always or never")
	return cf
}

// colourFlag is --color's value.
type colourFlag colour.Mode

func (f *colourFlag) String() string {
	if f == nil {
		return colour.Auto.String()
	}
	return colour.Mode(*f).String()
}

func (f *colourFlag) Set(s string) error {
	m, err := colour.ParseMode(s)
	*f = colourFlag(m)
	return err
}

// dashes writes a flag as the help and the docs write it: a name of one
// letter with one dash (-l, -v, as for gofmt), a word with two (--json).
// Either is accepted with one dash or two.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// writeFlags lists the flags of fs in the flag package's layout, but as
// --name: the package writes -name, where the docs and the examples write
// --name, as users of other tools type it.
func writeFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		if slices.Contains(helpFlags, f.Name) {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		line := "  " + dashes(f.Name)
		if name != "" {
			line += " " + name
		}
		fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
		if !isZeroValue(f) {
			fmt.Fprintf(w, " (default %v)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

// isZeroValue reports whether a flag's default is its type's zero value,
// which the listing does not show, as the flag package decides it.
func isZeroValue(f *flag.Flag) bool {
	typ := reflect.TypeOf(f.Value)
	var z reflect.Value
	if typ.Kind() == reflect.Pointer {
		z = reflect.New(typ.Elem())
	} else {
		z = reflect.Zero(typ)
	}
	v, ok := z.Interface().(flag.Value)
	return ok && f.DefValue == v.String()
}

// hasFlags reports whether fs lists any flag.
func hasFlags(fs *flag.FlagSet) bool {
	has := false
	fs.VisitAll(func(f *flag.Flag) { has = has || !slices.Contains(helpFlags, f.Name) })
	return has
}

// flagNames returns the names of the flags of fs, as --name.
func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name != "h" {
			names = append(names, dashes(f.Name))
		}
	})
	return names
}

// errUnknownFlag is an unknown flag, with the suggestion if there is one.
type errUnknownFlag struct{ name, suggest string }

func (e *errUnknownFlag) Error() string {
	if e.suggest != "" {
		return fmt.Sprintf("unknown flag %s; did you mean %s?", dashes(e.name), dashes(e.suggest))
	}
	return "unknown flag " + dashes(e.name)
}

// flagError rewrites a parse error of fs in the command's own words: the
// flag package says "flag provided but not defined: -bogus", and writes
// every flag with one dash. Its wordings are matched by their start,
// which the package has kept since Go 1.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		name = strings.TrimLeft(name, "-")
		var names []string
		fs.VisitAll(func(f *flag.Flag) {
			if !slices.Contains(helpFlags, f.Name) {
				names = append(names, f.Name)
			}
		})
		return &errUnknownFlag{name: name, suggest: dsl.Suggest(name, names)}
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fmt.Errorf("%s needs a value", dashes(strings.TrimLeft(name, "-")))
	}
	// "invalid value %q for flag -%s: %v", "invalid boolean value %q for -%s: %v"
	for _, from := range []string{" for flag -", " for -"} {
		if before, after, ok := strings.Cut(msg, from); ok && strings.HasPrefix(msg, "invalid ") {
			name, why, _ := strings.Cut(after, ": ")
			return fmt.Errorf("%s for %s: %s", before, dashes(name), why)
		}
	}
	return err
}

// unknownCommand says that name is no command, and which it may mean.
func unknownCommand(name string, cmds []*command) string {
	msg := fmt.Sprintf("unknown command %q", name)
	if s := dsl.Suggest(name, commandWords(cmds)); s != "" {
		return msg + "; did you mean " + s + "?"
	}
	return msg + " (commands: " + commandNames(cmds) + ")"
}

// commandWords are the words that may follow turnorder: the commands and
// help.
func commandWords(cmds []*command) []string {
	words := []string{"help"}
	for _, c := range cmds {
		words = append(words, c.name)
	}
	return words
}
