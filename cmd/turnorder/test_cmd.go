package main

import (
	"context"
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
	"github.com/turnorder/turnorder/runtime"
)

func testCommand() *command {
	c := &command{
		name:  "test",
		args:  "[-run REGEXP] [-v] [-json] [-with FILE] [FILE|DIR|NAME]...",
		short: "run scenarios (worked examples) and report which pass",
		long: `
Test runs scenarios: worked examples written in the .rules language, which
script the dice and the players' decisions and say what must happen (who
holds priority, who chose, the play order, the activations, the events).

With no arguments test runs the bundled conformance suite, which checks the
bundled rulesets against the worked examples and rule clauses of their
source texts. Otherwise each argument is a .rules file, or a directory
standing for every *.rules file under it, or the name of a bundled ruleset
(such as mesbg), standing for that ruleset's scenarios in the bundled suite.

A scenario's "ruleset NAME" names a ruleset declared in the same file, a
.rules file relative to the scenario's file, or a bundled ruleset. So a
house-rule author can keep a variant and its scenarios in one file.

With -with FILE, the rulesets declared in FILE stand in for the rulesets of
the same names wherever a scenario names one that its own file does not
declare. A house rule is usually a copy of a bundled ruleset with a line
changed, and keeps its name: "turnorder test mesbg -with house.rules" plays
the bundled worked examples of mesbg with the house rule, and the failures
show what the change does to them. -with NAME=FILE plays the one ruleset
of FILE, whatever it is called, wherever a scenario names NAME (write
./FILE for a file whose name holds "="). It is an error if no scenario that
runs takes a ruleset from FILE.

Test prints one line per scenario, PASS or FAIL with the file and the
scenario's title. Under a failure it prints each unmet expectation: where it
is written, the round, the field (order, holder, chooser, activations,
ready, event, or error) and a (-want +got) diff. The last line is
"N passed, M failed". With -json it prints one JSON document instead (see
docs/json.md), for a CI system or an editor to read.

The exit status is 0 when every scenario passes, 1 when any fails, when a
file does not parse (its errors are printed with the source line), when a
file with no scenario holds a ruleset that does not compile, or when there
is no scenario to run, and 2 when the command line is wrong.`,
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
	with := c.flags.String("with", "", "play the scenarios with the rulesets of `FILE` in place of those of the same names (NAME=FILE: FILE's ruleset for NAME)")
	c.run = func(e *env, args []string) int {
		var filter *regexp.Regexp
		if *run != "" {
			re, err := regexp.Compile(*run)
			if err != nil {
				fmt.Fprintf(e.stderr, "turnorder test: -run: %v\n", err)
				return exitUsage
			}
			filter = re
		}
		files, err := testFiles(args)
		if err != nil {
			fmt.Fprintf(e.stderr, "turnorder test: %s\n", pathError(err))
			return exitError
		}
		t := &tester{e: e, filter: filter, verbose: *verbose, json: *asJSON,
			doc: testDoc{Scenarios: []scenarioDoc{}, Errors: []string{}}}
		if *with != "" {
			if t.with = withRulesets(e, *with); t.with == nil {
				return exitError
			}
			t.withUsed = map[string]bool{}
		}
		for _, f := range files {
			t.file(context.Background(), f)
		}
		// A -with file no scenario took a ruleset from is surely a mistake
		// (a misspelt name, or scenarios that declare their own ruleset).
		var unused string
		if t.with != nil && len(t.withUsed) == 0 && t.passed+t.failed > 0 {
			unused = fmt.Sprintf("-with %s: no scenario that ran takes %s from it (a ruleset declared in a scenario's own file comes first)",
				*with, strings.Join(slices.Sorted(maps.Keys(t.with)), " or "))
			t.doc.Errors = append(t.doc.Errors, unused)
		}
		if t.json {
			t.doc.Passed, t.doc.Failed = t.passed, t.failed
			if err := writeJSON(e.stdout, t.doc); err != nil {
				fmt.Fprintf(e.stderr, "turnorder test: %v\n", err)
				return exitError
			}
		} else {
			fmt.Fprintf(e.stdout, "%d passed, %d failed\n", t.passed, t.failed)
		}
		if unused != "" {
			fmt.Fprintf(e.stderr, "turnorder test: %s\n", unused)
			return exitError
		}
		switch {
		case t.failed > 0 || t.broken > 0:
			return exitError
		case t.passed == 0 && filter != nil:
			fmt.Fprintf(e.stderr, "turnorder test: no scenario title matches -run %q\n", *run)
			return exitError
		case t.passed == 0:
			fmt.Fprintf(e.stderr, "turnorder test: no scenarios in %s\n", describeArgs(args))
			return exitError
		}
		return exitOK
	}
	return c
}

// scenarioFile is one file to run: the name it is shown and parsed under,
// and its text.
type scenarioFile struct {
	name string
	src  []byte
	err  error // reading it failed
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
	err := fs.WalkDir(conformance.Suite, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rules") || !keep(p) {
			return err
		}
		src, err := fs.ReadFile(conformance.Suite, p)
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

// withRulesets compiles every ruleset of the -with file, by name, or for
// NAME=FILE its one ruleset as NAME. When it cannot, it prints why and
// returns nil.
func withRulesets(e *env, arg string) map[string]*runtime.Program {
	path, as := arg, ""
	if name, file, ok := strings.Cut(arg, "="); ok && identRE.MatchString(name) {
		path, as = file, name
	}
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s-with: %s\n", e.prefix(), pathError(err))
		return nil
	}
	f, diags := dsl.Parse(path, src)
	if f == nil || diags.HasErrors() {
		writeDiags(e.stderr, diags, src, e.prefix())
		return nil
	}
	out, errs := compileRulesets(e, f, src)
	switch {
	case errs.HasErrors():
		return nil
	case len(out) == 0:
		fmt.Fprintf(e.stderr, "%s-with: %s declares no ruleset\n", e.prefix(), path)
		return nil
	case as != "" && len(out) > 1:
		fmt.Fprintf(e.stderr, "%s-with %s: %s declares %d rulesets (%s); name one file with one ruleset\n",
			e.prefix(), arg, path, len(out), strings.Join(slices.Sorted(maps.Keys(out)), ", "))
		return nil
	case as != "":
		for _, p := range out {
			return map[string]*runtime.Program{as: p}
		}
	}
	return out
}

// tester runs files and keeps the count.
type tester struct {
	e        *env
	filter   *regexp.Regexp
	verbose  bool
	with     map[string]*runtime.Program // -with: rulesets by name
	withUsed map[string]bool             // the names of with that a scenario used
	json     bool                        // results go into doc, printed at the end
	doc      testDoc

	passed, failed int
	broken         int // files that could not be read or parsed
}

func (t *tester) file(ctx context.Context, sf scenarioFile) {
	if sf.err != nil {
		fmt.Fprintf(t.e.stderr, "turnorder test: %s\n", pathError(sf.err))
		t.broken++
		t.doc.Errors = append(t.doc.Errors, pathError(sf.err))
		return
	}
	f, diags := dsl.Parse(sf.name, sf.src)
	if f == nil || diags.HasErrors() {
		writeDiags(t.e.stderr, diags, sf.src, t.e.prefix())
		fmt.Fprintf(t.e.stderr, "turnorder test: %s does not parse (%s); its scenarios were not run\n", sf.name, plural(countErrorsOnly(diags), "error"))
		t.broken++
		t.noteErrors(diags)
		return
	}
	if !slices.ContainsFunc(f.Decls, func(d dsl.Decl) bool { _, ok := d.(*dsl.Scenario); return ok }) {
		t.rulesetsOnly(f, sf)
		return
	}
	for _, d := range f.Decls {
		sc, ok := d.(*dsl.Scenario)
		if !ok || (t.filter != nil && !t.filter.MatchString(string(sc.Title))) {
			continue
		}
		res := conformance.Run(ctx, f, sc, conformance.Options{Load: t.load})
		status := "PASS"
		if res.Passed() {
			t.passed++
		} else {
			status = "FAIL"
			t.failed++
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

// rulesetsOnly reports the compile errors of a file that has rulesets but
// no scenario: nothing else would show them, and "no scenarios" alone
// hides a broken ruleset.
func (t *tester) rulesetsOnly(f *dsl.File, sf scenarioFile) {
	if _, errs := compileRulesets(t.e, f, sf.src); errs.HasErrors() {
		t.broken++
		t.noteErrors(errs)
	}
}

// noteErrors lists the errors of ds in the JSON document.
func (t *tester) noteErrors(ds dsl.Diagnostics) {
	for _, d := range ds {
		if d.Severity == dsl.Error {
			t.doc.Errors = append(t.doc.Errors, d.String())
		}
	}
}

// compileRulesets compiles every ruleset of f, by name, and prints the
// diagnostics of those that do not compile with their source lines (src
// is f's text), returning them too.
func compileRulesets(e *env, f *dsl.File, src []byte) (map[string]*runtime.Program, dsl.Diagnostics) {
	progs := map[string]*runtime.Program{}
	var all dsl.Diagnostics
	for _, r := range f.Rulesets() {
		p, err := runtime.CompileRuleset(f, r)
		if err != nil {
			ds, ok := asDiags(err)
			if !ok {
				ds = dsl.Diagnostics{dsl.Errorf(r.Pos, "%v", err)}
			}
			writeDiags(e.stderr, ds, src, e.prefix())
			all = append(all, ds...)
			continue
		}
		progs[p.Name] = p
	}
	return progs, all
}

// load finds a ruleset a scenario names outside its own file: one of the
// -with file's, or else where the scenario says.
func (t *tester) load(name, fromFile string) (*runtime.Program, error) {
	if p, ok := t.with[name]; ok {
		t.withUsed[name] = true
		return p, nil
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
