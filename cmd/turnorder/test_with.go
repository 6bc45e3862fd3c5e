package main

// test --with FILE: the rulesets a house rule puts in place of those of
// the same names, and why a --with file is of no use to the scenarios.

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// identRE matches a ruleset name as a scenario writes it (an identifier).
var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// loadWith compiles every ruleset of a --with file, by name, or for
// NAME=FILE its one ruleset as NAME. When it cannot, it reports why and
// returns nil.
func (t *tester) loadWith(arg string) map[string]*runtime.Program {
	path, as := withPath(arg)
	rs, err := rulesets.ReadFile(path)
	src := rs.Text
	if err != nil {
		msg := "--with: " + pathError(err)
		if name, _, ok := strings.Cut(arg, "="); ok && as == "" && errors.Is(err, fs.ErrNotExist) {
			msg += fmt.Sprintf(" (in NAME=FILE, NAME is a ruleset's name, and %s is not one; a ruleset a scenario names by its path cannot be replaced)", name)
		}
		t.fail(msg)
		return nil
	}
	f, diags := dsl.Parse(path, src)
	if f == nil || diags.HasErrors() {
		t.broken++
		t.report(diags, src)
		fmt.Fprintf(t.e.stderr, "turnorder test: --with %s does not parse (%s); no scenario was run\n", path, plural(countErrorsOnly(diags), "error"))
		return nil
	}
	out, errs := compileRulesets(f)
	switch {
	case errs.HasErrors():
		t.broken++
		t.report(errs, src)
		fmt.Fprintf(t.e.stderr, "turnorder test: --with %s does not compile (%s); no scenario was run\n", path, plural(countErrorsOnly(errs), "error"))
		return nil
	case len(out) == 0:
		t.fail(fmt.Sprintf("--with: %s declares no ruleset", path))
		return nil
	case as != "" && len(out) > 1:
		t.fail(fmt.Sprintf("--with %s: %s declares %d rulesets (%s); name one file with one ruleset",
			arg, path, len(out), strings.Join(slices.Sorted(maps.Keys(out)), ", ")))
		return nil
	case as != "":
		for _, p := range out { // its one ruleset
			return map[string]*runtime.Program{as: p}
		}
	}
	return out
}

// withPath splits a --with argument into the file and, for NAME=FILE, the
// name its ruleset stands in for.
func withPath(arg string) (path, as string) {
	if name, file, ok := strings.Cut(arg, "="); ok && identRE.MatchString(name) {
		return file, name
	}
	return arg, ""
}

// withUnused returns why the --with file arg, which gives the rulesets
// names, is of no use to the scenarios that are to run, or "" when one of
// them takes a ruleset from it (or none is to run, which finish reports).
// It looks ahead exactly as the scenarios load their rulesets: a ruleset
// of the scenario's own file comes first, then --with, by the name the
// scenario writes.
func (t *tester) withUnused(arg string, names []string, files []scenarioFile) string {
	taken := map[string]bool{} // the rulesets the scenarios take from outside their files
	running := false
	for _, sf := range files {
		if sf.f == nil || sf.diags.HasErrors() {
			continue // reported when it is run
		}
		for _, d := range sf.f.Decls {
			sc, ok := d.(*dsl.Scenario)
			if !ok || (t.filter != nil && !t.filter.MatchString(string(sc.Title))) {
				continue
			}
			running = true
			if use, own := conformance.RulesetOf(sf.f, sc); use != nil && own == nil {
				taken[use.Name.String()] = true
			}
		}
	}
	if !running {
		return ""
	}
	for _, name := range names {
		if taken[name] {
			return ""
		}
	}
	slices.Sort(names)
	msg := fmt.Sprintf("--with %s: no scenario to run takes %s from it", arg, strings.Join(names, " or "))
	// The rulesets the scenarios take by name, which --with NAME=FILE can
	// replace (a path is not a NAME).
	var named []string
	for n := range taken {
		if identRE.MatchString(n) {
			named = append(named, n)
		}
	}
	slices.Sort(named)
	path, _ := withPath(arg)
	// --with NAME=FILE puts a house rule of another name in place of NAME;
	// a bundled ruleset in the file means other scenarios were meant.
	rename := len(names) == 1 && !isBundled(names[0])
	switch {
	case len(named) == 1 && rename:
		return msg + fmt.Sprintf(" (they take %s; --with %s=%s plays it as %s)", named[0], named[0], path, named[0])
	case len(named) > 1 && rename:
		return msg + fmt.Sprintf(" (they take %s; --with NAME=%s plays it as NAME)", strings.Join(named, ", "), path)
	case len(named) > 0:
		return msg + fmt.Sprintf(" (they take %s)", strings.Join(named, ", "))
	}
	return msg + " (their rulesets are declared in their own files or named by path)"
}
