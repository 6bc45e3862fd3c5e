package main

// The .rules files and bundled rulesets the arguments of the commands
// name, and what is said when one cannot be had.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

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

// rulesetFile is a .rules file that a scenario names by path, compiled as
// rulesets.Compile compiles it (its first ruleset), so that check and test
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
	src, err := rulesets.Read(path)
	if err != nil {
		return &rulesetFile{path: path, unread: err}
	}
	p, _, err := rulesets.Compile(src)
	rf := &rulesetFile{path: path, src: src.Text, prog: p}
	if err != nil {
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
