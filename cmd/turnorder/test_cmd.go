package main

// The test command: scenarios run and their results printed, with a
// summary line that ends every run.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

func testCommand() *command {
	c := &command{
		name:  "test",
		args:  "[--run REGEXP] [-v] [--json] [--with FILE]... [FILE|DIR|NAME]...",
		short: "run scenarios (worked examples) and report which pass",
		flags: newFlags("test"),
	}
	run := c.flags.String("run", "", "run only the scenarios whose title matches the regular expression `REGEXP`")
	verbose := c.flags.Bool("v", false, "print each scenario's quotes (the rulebook text it checks) and its transcript under its result")
	asJSON := c.flags.Bool("json", false, "print the results as one JSON document (docs/json.md)")
	var with listFlag
	c.flags.Var(&with, "with", "play the scenarios with the rulesets of `FILE` in place of those of the same names (NAME=FILE: FILE's ruleset for NAME); repeat it for several files")
	c.run = func(e *env, args []string) int {
		t := &tester{e: e, verbose: *verbose, json: *asJSON,
			doc:   testDoc{Scenarios: []scenarioDoc{}},
			shown: map[string]bool{}}
		// Past the command line, every way out goes through finish, so that
		// the last line is always the summary (or the JSON document). A bad
		// --run is a bad flag value, as --rounds -1 is for run.
		if *run != "" {
			re, err := regexp.Compile(*run)
			if err != nil {
				t.fail(fmt.Sprintf("--run: %v", err))
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
			from := map[string]string{} // the --with argument each ruleset came from
			for _, arg := range with {
				progs := t.loadWith(arg)
				if progs == nil {
					return t.finish(args)
				}
				for _, name := range slices.Sorted(maps.Keys(progs)) {
					if prev, dup := from[name]; dup {
						t.fail(fmt.Sprintf("--with %s: %s is already taken from --with %s; give each ruleset once", arg, name, prev))
						return t.finish(args)
					}
					from[name], t.with[name] = arg, progs[name]
				}
			}
			// A --with file no scenario would take a ruleset from is surely
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

func describeArgs(args []string) string {
	if len(args) == 0 {
		return "the bundled suite"
	}
	return strings.Join(args, ", ")
}

// tester runs files and keeps the count.
type tester struct {
	e       *env
	filter  *regexp.Regexp
	verbose bool
	with    map[string]*runtime.Program // --with: rulesets by name
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
		fmt.Fprintf(t.e.stderr, "turnorder test: no scenario title matches --run %q\n", t.filter.String())
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
			printScenarioRounds(t.e.stdout, res.Rounds)
		}
		for _, fl := range res.Failures {
			writeIndented(t.e.stdout, fl.String(), "    ")
		}
	}
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
		if _, seen := own[decl]; !seen {
			_, ds := compileRuleset(f, decl)
			own[decl] = errorsOnly(ds)
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
// --with file's, or else where the scenario says.
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

// writeIndented writes text with every line indented.
func writeIndented(w io.Writer, text, indent string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(w, "%s%s\n", indent, line)
	}
}
