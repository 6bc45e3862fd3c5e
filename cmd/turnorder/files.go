package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// rulesFiles expands the arguments of check, fmt and test: a file stands
// for itself, a directory for every *.rules file under it (sorted), except
// under directories named testdata or starting with "." (below the one
// named: naming one checks it). An argument that does not exist is passed
// to missing, which may supply a replacement (check accepts bundled names)
// or an error. A file named twice (itself and in its directory, say)
// comes once.
func rulesFiles(args []string, missing func(arg string, err error) error) ([]string, error) {
	var out []string
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err != nil {
			if err := missing(arg, err); err != nil {
				return nil, err
			}
			out = append(out, arg)
			continue
		}
		if !info.IsDir() {
			out = append(out, arg)
			continue
		}
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			// .git and friends; and, as the go command does, testdata, which
			// holds test inputs (conformance/testdata/wrong.rules fails on
			// purpose).
			if d.IsDir() && path != arg && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".rules") {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	return slices.DeleteFunc(out, func(f string) bool {
		dup := seen[filepath.Clean(f)]
		seen[filepath.Clean(f)] = true
		return dup
	}), nil
}

// orBundled is the missing function of rulesFiles for commands that take
// a bundled ruleset's name where a file is missing (and - for standard
// input).
func orBundled(arg string, err error) error {
	if isBundled(arg) || arg == "-" {
		return nil
	}
	suggest := ""
	if s := dsl.Suggest(arg, rulesets.Names()); s != "" {
		suggest = "; did you mean " + s + "?"
	}
	return fmt.Errorf("%s (and no bundled ruleset has that name; bundled: %s%s)", pathError(err), bundledList(), suggest)
}

// didYouMean is " (did you mean NAME?)" for the bundled ruleset that name
// is likely a typo of, or "".
func didYouMean(name string) string {
	if s := dsl.Suggest(name, rulesets.Names()); s != "" {
		return " (did you mean " + s + "?)"
	}
	return ""
}

// isBundled reports whether name is a bundled ruleset's name.
func isBundled(name string) bool { return slices.Contains(rulesets.Names(), name) }

func bundledList() string { return strings.Join(rulesets.Names(), ", ") }

// pathError rewrites an os error as one plain line: "open x: no such file
// or directory" becomes "x: no such file or directory".
func pathError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: %v", pe.Path, pe.Err)
	}
	return err.Error()
}

// writeDiags prints diagnostics the way a compiler does, sorted by
// position, each with its source line and a caret. A diagnostic with no
// position (such as a side count from --sides) is printed after prefix, or
// after its file name if it has one.
func writeDiags(w io.Writer, ds dsl.Diagnostics, src []byte, prefix string) {
	ds = slices.Clone(ds)
	ds.Sort()
	// Each run of diagnostics with positions is rendered at once: Render
	// finds each one's line from the one before, where one at a time it
	// would look from the start of the file for each.
	text := string(src)
	run := 0
	for i, d := range ds {
		if d.Pos.Line != 0 {
			continue
		}
		io.WriteString(w, ds[run:i].Render(text))
		run = i + 1
		if d.Pos.Filename != "" {
			fmt.Fprintf(w, "%s: %s: %s\n", d.Pos.Filename, d.Severity, d.Text())
		} else {
			fmt.Fprintf(w, "%s%s\n", prefix, d.Text())
		}
	}
	io.WriteString(w, ds[run:].Render(text))
}

// ruleDiag returns err as a diagnostic at the rule that caused it, if a
// rule did. What err says around the rule's error (such as "round 3: ")
// leads the message, so nothing is lost; an error that adds words after
// it is not rewritten.
func ruleDiag(err error) (dsl.Diagnostic, bool) {
	var re *runtime.RuleError
	if !errors.As(err, &re) || re.Pos.Line == 0 {
		return dsl.Diagnostic{}, false
	}
	outer, ok := strings.CutSuffix(err.Error(), re.Error())
	if !ok {
		return dsl.Diagnostic{}, false
	}
	d := re.Diagnostic()
	d.Message = outer + d.Message
	return d, true
}

// asDiags returns err's diagnostics, if it is a dsl.Diagnostics.
func asDiags(err error) (dsl.Diagnostics, bool) {
	var ds dsl.Diagnostics
	if errors.As(err, &ds) {
		return ds, true
	}
	return nil, false
}

func countErrors(ds dsl.Diagnostics) (errs, warns int) {
	for _, d := range ds {
		if d.Severity == dsl.Error {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
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

// rulesetFile is a .rules file that a scenario names by path, compiled as
// conformance.Load compiles it (its first ruleset), so that check and test
// can show why it does not compile in its own file, with its own source.
// A file that cannot be read has neither prog nor errs, but unread: the
// scenario reports it, at its `ruleset` statement.
type rulesetFile struct {
	path   string
	src    []byte
	prog   *runtime.Program
	errs   dsl.Diagnostics // why it does not parse or compile
	unread error
}

func loadRulesetFile(path string) *rulesetFile {
	p, src, err := conformance.LoadFile(path)
	rf := &rulesetFile{path: path, src: src, prog: p}
	if _, unread := errors.AsType[*fs.PathError](err); unread {
		rf.unread = err
	} else if err != nil {
		rf.errs = errorsOnly(diagsOf(err, dsl.Pos{Filename: path}))
	}
	return rf
}

// unusableRuleset says why the ruleset file a scenario names as name,
// looked for at path, cannot be read (err), in the same words for check
// and test, and as run says it of a file it is given: the path and why.
func unusableRuleset(name, path string, err error) string {
	why := pathError(err)
	if info, serr := os.Stat(path); serr == nil && info.IsDir() {
		why = path + " is a directory; name a .rules file"
	}
	if filepath.Clean(name) == filepath.Clean(path) {
		return "ruleset " + why
	}
	return "ruleset " + name + ": " + why
}

// unknownRuleset says that a scenario's `ruleset NAME` names nothing: no
// ruleset of its file, no bundled ruleset (and NAME is no path).
func unknownRuleset(name string) string {
	return fmt.Sprintf("unknown ruleset %s%s: no ruleset of this file has that name, nor any bundled ruleset (%s)",
		name, didYouMean(name), bundledList())
}

// diagsOf returns err's diagnostics, or err as one error at pos if it is
// not a dsl.Diagnostics.
func diagsOf(err error, pos dsl.Pos) dsl.Diagnostics {
	if ds, ok := asDiags(err); ok {
		return ds
	}
	return dsl.Diagnostics{dsl.Errorf(pos, "%v", err)}
}

func errorsOnly(ds dsl.Diagnostics) dsl.Diagnostics {
	var out dsl.Diagnostics
	for _, d := range ds {
		if d.Severity == dsl.Error {
			out = append(out, d)
		}
	}
	return out
}

// writeNote prints a note the way writeDiags prints a diagnostic, with the
// source line (src is the text of pos's file) and a caret.
func writeNote(w io.Writer, pos dsl.Pos, src []byte, msg string) {
	rendered := dsl.Diagnostics{{Pos: pos}}.Render(string(src))
	_, snippet, _ := strings.Cut(rendered, "\n")
	fmt.Fprintf(w, "%s:%d:%d: note: %s\n%s", pos.Filename, pos.Line, pos.Column, msg, snippet)
}
