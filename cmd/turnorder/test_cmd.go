package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

func testCommand() *command {
	c := &command{
		name:  "test",
		args:  "[-run REGEXP] [-v] [-json] [-with FILE]... [FILE|DIR|NAME]...",
		short: "run scenarios (worked examples) and report which pass",
		long: `
Test runs scenarios: worked examples written in the .rules language, which
script the dice and the players' decisions and say what must happen (who
holds priority, who chose, the play order, the activations, the events).

With no arguments test runs the bundled conformance suite, which checks the
bundled rulesets against the worked examples and rule clauses of their
source texts. Otherwise each argument is a .rules file, or a directory
standing for every *.rules file under it (except in directories named
testdata or starting with "." below it), or the name of a bundled ruleset
(such as mesbg), standing for that ruleset's scenarios in the bundled suite.

A scenario's "ruleset NAME" names a ruleset declared in the same file, a
.rules file relative to the scenario's file (or by an absolute path), or a
bundled ruleset. So a house-rule author can keep a variant and its
scenarios in one file.

With -with FILE, the rulesets declared in FILE stand in for the rulesets of
the same names wherever a scenario names one that its own file does not
declare. A house rule is usually a copy of a bundled ruleset with a line
changed, and keeps its name: "turnorder test mesbg -with house.rules" plays
the bundled worked examples of mesbg with the house rule, and the failures
show what the change does to them. -with NAME=FILE plays the one ruleset
of FILE, whatever it is called, wherever a scenario names NAME (write
./FILE for a file whose name holds "="). Repeat -with for several files;
a ruleset that two of them give is an error. It is an error, found before
any scenario runs, if no scenario to run takes a ruleset from a FILE.

Test prints one line per scenario, PASS or FAIL with the file and the
scenario's title. Under a failure it prints each unmet expectation: where it
is written, the round, and what was expected against what the round had,
with the names as a .rules file writes them:

    s.rules:8:5: round 1: expected order Jay, Rob
                          but got        Rob, Jay
    s.rules:9:5: round 1: expected holder Jay, but Rob holds priority

Activations that differ are shown as a diff, turn by turn, "- " marking a
turn expected and not taken and "+ " one taken and not expected; an event
that did not happen, with the round's events of its kind; an error, with
its message.

A scenario whose ruleset does not compile, or cannot be found, fails at
its "ruleset" line (at the name, as check reports it), and the ruleset's
errors are printed once, in their own file, as check prints them. The last
line is always "N passed, M failed", even when nothing could run. With
-json it prints one JSON document instead (see docs/json.md), for a CI
system or an editor to read, where each failure has its "message", what
test prints after the position, besides the (-want +got) "diff" it has
always had.

The exit status is 0 when every scenario passes, 1 when any fails, when a
file does not parse (its errors are printed with the source line), when a
file with no scenario holds a ruleset that does not compile, when the
-with FILE cannot be used, when -run is not a regular expression, or when
there is no scenario to run, and 2 when the command line is wrong (an
unknown flag). Given a bundled ruleset's file (or a copy of
it), which holds no scenarios, test says how to run the bundled ones.`,
		example: `
turnorder test                            # the bundled conformance suite
turnorder test examples/house-rules       # a house-rule author's scenarios
turnorder test -run 'Jay and Rob' -v      # matching scenarios, with their quotes
turnorder test mesbg                      # the bundled scenarios of mesbg
turnorder test mesbg -with house.rules    # the same, played with a house rule`,
		flags: newFlags("test"),
	}
	run := c.flags.String("run", "", "run only the scenarios whose title matches the regular expression `REGEXP`")
	verbose := c.flags.Bool("v", false, "print each scenario's quotes (the rulebook text it checks) under its result")
	asJSON := c.flags.Bool("json", false, "print the results as one JSON document (docs/json.md)")
	var with listFlag
	c.flags.Var(&with, "with", "play the scenarios with the rulesets of `FILE` in place of those of the same names (NAME=FILE: FILE's ruleset for NAME); repeat it for several files")
	c.run = func(e *env, args []string) int {
		t := &tester{e: e, verbose: *verbose, json: *asJSON,
			doc:   testDoc{Scenarios: []scenarioDoc{}},
			shown: map[string]bool{}}
		// Past the command line, every way out goes through finish, so that
		// the last line is always the summary (or the JSON document). A bad
		// -run is a bad flag value, as --rounds -1 is for run.
		if *run != "" {
			re, err := regexp.Compile(*run)
			if err != nil {
				t.fail(fmt.Sprintf("-run: %v", err))
				return t.finish(args)
			}
			t.filter = re
		}
		files, err := testFiles(args)
		if err != nil {
			t.fail(pathError(err))
			return t.finish(args)
		}
		for i := range files {
			files[i].parse()
		}
		if len(with) > 0 {
			t.with = map[string]*runtime.Program{}
			from := map[string]string{} // the -with argument each ruleset came from
			for _, arg := range with {
				progs := t.loadWith(arg)
				if progs == nil {
					return t.finish(args)
				}
				for _, name := range slices.Sorted(maps.Keys(progs)) {
					if prev, dup := from[name]; dup {
						t.fail(fmt.Sprintf("-with %s: %s is already taken from -with %s; give each ruleset once", arg, name, prev))
						return t.finish(args)
					}
					from[name], t.with[name] = arg, progs[name]
				}
			}
			// A -with file no scenario would take a ruleset from is surely
			// a mistake (a misspelt or renamed ruleset, or scenarios that
			// declare their own): say so before running them all without it.
			for _, arg := range with {
				var names []string
				for name, a := range from {
					if a == arg {
						names = append(names, name)
					}
				}
				if msg := t.withUnused(arg, names, files); msg != "" {
					t.fail(msg)
					return t.finish(args)
				}
			}
		}
		for _, f := range files {
			t.file(context.Background(), f)
		}
		return t.finish(args)
	}
	return c
}

// scenarioFile is one file to run: the name it is shown and parsed under,
// and its text.
type scenarioFile struct {
	name string
	src  []byte
	err  error // reading it failed

	// Set by parse, before any scenario runs, so that -with can be checked
	// against the rulesets the scenarios take.
	f     *dsl.File
	diags dsl.Diagnostics
}

// parse parses the file, if it could be read.
func (sf *scenarioFile) parse() {
	if sf.err == nil {
		sf.f, sf.diags = dsl.Parse(sf.name, sf.src)
	}
}

// suiteDir is how the bundled suite's files are named in the output, so
// that a failure's position points at the file in the repository.
const suiteDir = "conformance"

// testFiles expands test's arguments. No argument is the bundled suite; a
// bundled ruleset's name that is not a file is its scenarios in the suite.
func testFiles(args []string) ([]scenarioFile, error) {
	if len(args) == 0 {
		return suiteFiles(func(string) bool { return true })
	}
	var out []scenarioFile
	for _, arg := range args {
		if _, err := os.Stat(arg); err != nil && isBundled(arg) {
			bundled, err := suiteFiles(func(p string) bool { return path.Base(p) == arg+".rules" })
			if err != nil {
				return nil, err
			}
			if len(bundled) == 0 {
				return nil, fmt.Errorf("the bundled suite has no scenarios for %s", arg)
			}
			out = append(out, bundled...)
			continue
		}
		names, err := rulesFiles([]string{arg}, func(arg string, err error) error {
			return fmt.Errorf("%s (and no bundled ruleset has that name; bundled: %s)", pathError(err), bundledList())
		})
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			src, err := os.ReadFile(name)
			out = append(out, scenarioFile{name: name, src: src, err: err})
		}
	}
	// A file named twice (test mesbg mesbg, or a file and its folder) runs once.
	seen := map[string]bool{}
	return slices.DeleteFunc(out, func(f scenarioFile) bool {
		dup := seen[f.name]
		seen[f.name] = true
		return dup
	}), nil
}

func suiteFiles(keep func(string) bool) ([]scenarioFile, error) {
	var out []scenarioFile
	err := fs.WalkDir(conformance.Suite(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rules") || !keep(p) {
			return err
		}
		src, err := fs.ReadFile(conformance.Suite(), p)
		out = append(out, scenarioFile{name: path.Join(suiteDir, p), src: src, err: err})
		return nil
	})
	return out, err
}

func describeArgs(args []string) string {
	if len(args) == 0 {
		return "the bundled suite"
	}
	return strings.Join(args, ", ")
}

// identRE matches a ruleset name as a scenario writes it (an identifier).
var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// loadWith compiles every ruleset of a -with file, by name, or for
// NAME=FILE its one ruleset as NAME. When it cannot, it reports why and
// returns nil.
func (t *tester) loadWith(arg string) map[string]*runtime.Program {
	path, as := withPath(arg)
	src, err := os.ReadFile(path)
	if err != nil {
		msg := "-with: " + pathError(err)
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
		fmt.Fprintf(t.e.stderr, "turnorder test: -with %s does not parse (%s); no scenario was run\n", path, plural(countErrorsOnly(diags), "error"))
		return nil
	}
	out, errs := compileRulesets(f)
	switch {
	case errs.HasErrors():
		t.broken++
		t.report(errs, src)
		fmt.Fprintf(t.e.stderr, "turnorder test: -with %s does not compile (%s); no scenario was run\n", path, plural(countErrorsOnly(errs), "error"))
		return nil
	case len(out) == 0:
		t.fail(fmt.Sprintf("-with: %s declares no ruleset", path))
		return nil
	case as != "" && len(out) > 1:
		t.fail(fmt.Sprintf("-with %s: %s declares %d rulesets (%s); name one file with one ruleset",
			arg, path, len(out), strings.Join(slices.Sorted(maps.Keys(out)), ", ")))
		return nil
	case as != "":
		for _, p := range out { // its one ruleset
			return map[string]*runtime.Program{as: p}
		}
	}
	return out
}

// withPath splits a -with argument into the file and, for NAME=FILE, the
// name its ruleset stands in for.
func withPath(arg string) (path, as string) {
	if name, file, ok := strings.Cut(arg, "="); ok && identRE.MatchString(name) {
		return file, name
	}
	return arg, ""
}

// withUnused returns why the -with file arg, which gives the rulesets
// names, is of no use to the scenarios that are to run, or "" when one of
// them takes a ruleset from it (or none is to run, which finish reports).
// It looks ahead exactly as the scenarios load their rulesets: a ruleset
// of the scenario's own file comes first, then -with, by the name the
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
	msg := fmt.Sprintf("-with %s: no scenario to run takes %s from it", arg, strings.Join(names, " or "))
	// The rulesets the scenarios take by name, which -with NAME=FILE can
	// replace (a path is not a NAME).
	var named []string
	for n := range taken {
		if identRE.MatchString(n) {
			named = append(named, n)
		}
	}
	slices.Sort(named)
	path, _ := withPath(arg)
	// -with NAME=FILE puts a house rule of another name in place of NAME;
	// a bundled ruleset in the file means other scenarios were meant.
	rename := len(names) == 1 && !isBundled(names[0])
	switch {
	case len(named) == 1 && rename:
		return msg + fmt.Sprintf(" (they take %s; -with %s=%s plays it as %s)", named[0], named[0], path, named[0])
	case len(named) > 1 && rename:
		return msg + fmt.Sprintf(" (they take %s; -with NAME=%s plays it as NAME)", strings.Join(named, ", "), path)
	case len(named) > 0:
		return msg + fmt.Sprintf(" (they take %s)", strings.Join(named, ", "))
	}
	return msg + " (their rulesets are declared in their own files or named by path)"
}

// tester runs files and keeps the count.
type tester struct {
	e       *env
	filter  *regexp.Regexp
	verbose bool
	with    map[string]*runtime.Program // -with: rulesets by name
	json    bool                        // results go into doc, printed at the end
	doc     testDoc

	passed, failed int
	broken         int // files that could not be read or parsed, and other errors that stop scenarios

	hints []string                // said when there is no scenario to run
	files map[string]*rulesetFile // ruleset files the scenarios name by path
	shown map[string]bool         // the diagnostics printed, so that each is printed once
}

// fail reports a problem that keeps scenarios from running, on stderr and
// in the JSON document.
func (t *tester) fail(msg string) {
	t.e.errorf("%s", msg)
	t.broken++
}

// finish prints the summary line (or the JSON document), which ends every
// run however it went, and returns the exit status.
func (t *tester) finish(args []string) int {
	if t.json {
		t.doc.Passed, t.doc.Failed = t.passed, t.failed
		t.doc.ErrorsDoc = errorsJSON(t.e.errs)
		if t.e.finishJSON(t.doc, 0) != 0 {
			return exitError
		}
	} else {
		fmt.Fprintf(t.e.stdout, "%d passed, %d failed\n", t.passed, t.failed)
	}
	switch {
	case t.failed > 0 || t.broken > 0:
		return exitError
	case t.passed == 0 && t.filter != nil:
		fmt.Fprintf(t.e.stderr, "turnorder test: no scenario title matches -run %q\n", t.filter.String())
		return exitError
	case t.passed == 0:
		fmt.Fprintf(t.e.stderr, "turnorder test: no scenarios in %s\n", describeArgs(args))
		for _, h := range t.hints {
			fmt.Fprintf(t.e.stderr, "turnorder test: hint: %s\n", h)
		}
		return exitError
	}
	return exitOK
}

func (t *tester) file(ctx context.Context, sf scenarioFile) {
	if sf.err != nil {
		t.fail(pathError(sf.err))
		return
	}
	f, diags := sf.f, sf.diags
	if f == nil || diags.HasErrors() {
		t.report(diags, sf.src)
		fmt.Fprintf(t.e.stderr, "turnorder test: %s does not parse (%s); its scenarios were not run\n", sf.name, plural(countErrorsOnly(diags), "error"))
		t.broken++
		return
	}
	if !slices.ContainsFunc(f.Decls, func(d dsl.Decl) bool { _, ok := d.(*dsl.Scenario); return ok }) {
		t.rulesetsOnly(f, sf)
		return
	}
	own := map[*dsl.Ruleset]dsl.Diagnostics{} // the errors of the file's rulesets, compiled once
	hinted := false                           // otherRulesetHint is said once a file
	for _, d := range f.Decls {
		sc, ok := d.(*dsl.Scenario)
		if !ok || (t.filter != nil && !t.filter.MatchString(string(sc.Title))) {
			continue
		}
		res, ok := t.brokenRuleset(f, sf, sc, own)
		if !ok {
			res = conformance.Run(ctx, f, sc, conformance.Options{Load: t.load})
		}
		status := "PASS"
		if res.Passed() {
			t.passed++
		} else {
			status = "FAIL"
			t.failed++
			if h := t.otherRulesetHint(f, sf, sc); h != "" && !hinted {
				hinted = true
				fmt.Fprintf(t.e.stderr, "turnorder test: hint: %s\n", h)
			}
		}
		if t.json {
			t.doc.Scenarios = append(t.doc.Scenarios, scenarioJSON(sf.name, sc, res))
			continue
		}
		fmt.Fprintf(t.e.stdout, "%s  %s: %s\n", status, sf.name, sc.Title)
		if t.verbose {
			for _, st := range sc.Body {
				if q, ok := st.(*dsl.QuoteStmt); ok {
					fmt.Fprintf(t.e.stdout, "    \"%s\"\n", q.Text)
				}
			}
		}
		for _, fl := range res.Failures {
			writeIndented(t.e.stdout, fl.String(), "    ")
		}
	}
}

// otherRulesetHint returns, for a scenario that names a bundled ruleset in
// a file that declares rulesets of other names, that it tested the bundled
// one: a house rule's author who renamed the copied ruleset, and not its
// scenarios' `ruleset` lines, sees the original fail, and would not know
// why.
func (t *tester) otherRulesetHint(f *dsl.File, sf scenarioFile, sc *dsl.Scenario) string {
	use, decl := conformance.RulesetOf(f, sc)
	name := ""
	if use != nil {
		name = use.Name.String()
	}
	if decl != nil || !isBundled(name) || t.with[name] != nil || len(f.Rulesets()) == 0 {
		return ""
	}
	var own []string
	for _, r := range f.Rulesets() {
		own = append(own, string(r.Name))
	}
	return fmt.Sprintf("scenario %q tests the bundled ruleset %s, which %s does not declare (it declares %s): to test the file's, write `ruleset %s` in the scenario",
		string(sc.Title), name, sf.name, strings.Join(own, ", "), own[0])
}

// brokenRuleset fails a scenario whose ruleset, in its own file or in a
// file it names, does not compile. The ruleset's errors are printed once,
// in their own file with their source lines, however many scenarios use
// it; the scenario's failure points at its `ruleset` line. It reports
// false when the ruleset compiles (or cannot be found: the scenario says
// so when it runs).
func (t *tester) brokenRuleset(f *dsl.File, sf scenarioFile, sc *dsl.Scenario, own map[*dsl.Ruleset]dsl.Diagnostics) (conformance.Result, bool) {
	use, decl := conformance.RulesetOf(f, sc)
	if use == nil {
		return conformance.Result{}, false
	}
	var errs dsl.Diagnostics
	var src []byte
	switch path := conformance.RulesetPath(use.Name.String(), sf.name); {
	case decl != nil:
		var seen bool
		if errs, seen = own[decl]; !seen {
			_, errs = compileRuleset(f, decl)
			own[decl] = errorsOnly(errs)
		}
		errs, src = own[decl], sf.src
	case t.with[use.Name.String()] != nil || path == "":
		return conformance.Result{}, false
	default:
		rf := t.rulesetFile(path)
		errs, src = rf.errs, rf.src
	}
	if len(errs) == 0 {
		return conformance.Result{}, false
	}
	t.report(errs, src)
	return conformance.Result{File: sc.Pos().Filename, Title: string(sc.Title), Pos: sc.Pos(), Failures: []conformance.Failure{{
		Field: "error",
		Pos:   use.Name.Pos(),
		Diff:  fmt.Sprintf("ruleset %s does not compile (%s)", use.Name, plural(len(errs), "error")),
	}}}, true
}

// rulesetFile loads a ruleset file that scenarios name by path, once.
func (t *tester) rulesetFile(path string) *rulesetFile {
	if rf, ok := t.files[path]; ok {
		return rf
	}
	if t.files == nil {
		t.files = map[string]*rulesetFile{}
	}
	rf := loadRulesetFile(path)
	t.files[path] = rf
	return rf
}

// rulesetsOnly reports the compile errors of a file that has rulesets but
// no scenario: nothing else would show them, and "no scenarios" alone
// hides a broken ruleset.
func (t *tester) rulesetsOnly(f *dsl.File, sf scenarioFile) {
	if _, errs := compileRulesets(f); errs.HasErrors() {
		t.broken++
		t.report(errs, sf.src)
	}
	for _, r := range f.Rulesets() {
		if hint := bundledScenariosHint(string(r.Name), sf); hint != "" {
			t.hints = append(t.hints, hint)
		}
	}
}

// bundledScenariosHint returns how to test the ruleset name of sf, a file
// with no scenarios, with the bundled scenarios for it, if there are any:
// `turnorder test rulesets/mesbg.rules` means `turnorder test mesbg`.
func bundledScenariosHint(name string, sf scenarioFile) string {
	if !isBundled(name) {
		return ""
	}
	if suite, err := suiteFiles(func(p string) bool { return path.Base(p) == name+".rules" }); err != nil || len(suite) == 0 {
		return ""
	}
	if _, src, err := rulesets.Source(name); err == nil && bytes.Equal(src, sf.src) {
		return fmt.Sprintf("%s is the bundled ruleset %s; its scenarios run with `turnorder test %s`", sf.name, name, name)
	}
	// A copy of a bundled ruleset, changed or not, keeps its name.
	return fmt.Sprintf("%s declares ruleset %s; the bundled scenarios of %s run with it by `turnorder test %s -with %s`", sf.name, name, name, name, shellWord(sf.name))
}

// report prints the diagnostics of ds with their source lines (src is
// their file's text) and lists the errors in the JSON document, leaving
// out those already reported: a broken ruleset file that is both tested
// and named by a scenario is reported once.
func (t *tester) report(ds dsl.Diagnostics, src []byte) {
	t.e.report(unshown(ds, t.shown), src)
}

// compileRulesets compiles every ruleset of f, by name, and returns the
// diagnostics of those that do not compile.
func compileRulesets(f *dsl.File) (map[string]*runtime.Program, dsl.Diagnostics) {
	progs := map[string]*runtime.Program{}
	var all dsl.Diagnostics
	for _, r := range f.Rulesets() {
		p, ds := compileRuleset(f, r)
		if p == nil {
			all = append(all, ds...)
			continue
		}
		progs[p.Name()] = p
	}
	return progs, all
}

// compileRuleset compiles r, a ruleset of f. It returns the program, or
// nil and why r does not compile.
func compileRuleset(f *dsl.File, r *dsl.Ruleset) (*runtime.Program, dsl.Diagnostics) {
	p, err := runtime.CompileRuleset(f, r)
	if err != nil {
		return nil, diagsOf(fmt.Errorf("ruleset %s: %w", r.Name, err), r.Pos())
	}
	return p, nil
}

// load finds a ruleset a scenario names outside its own file: one of the
// -with file's, or else where the scenario says.
func (t *tester) load(name, fromFile string) (*runtime.Program, error) {
	if p, ok := t.with[name]; ok {
		return p, nil
	}
	// A ruleset that cannot be had is worded as check words it.
	path := conformance.RulesetPath(name, fromFile)
	if path == "" {
		if !isBundled(name) {
			return nil, errors.New(unknownRuleset(name))
		}
		return conformance.Load(name, fromFile)
	}
	rf := t.rulesetFile(path)
	if rf.unread != nil {
		return nil, errors.New(unusableRuleset(name, path, rf.unread))
	}
	if rf.prog != nil {
		return rf.prog, nil // compiled once for all the scenarios naming it
	}
	return conformance.Load(name, fromFile)
}

func countErrorsOnly(ds dsl.Diagnostics) int {
	errs, _ := countErrors(ds)
	return errs
}

// writeIndented writes text with every line indented.
func writeIndented(w io.Writer, text, indent string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(w, "%s%s\n", indent, line)
	}
}
