package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

func checkCommand() *command {
	c := &command{
		name:  "check",
		args:  "(FILE|DIR|NAME|-)... [--json]",
		short: "parse and compile .rules files, reporting every error",
		flags: newFlags("check"),
	}
	asJSON := c.flags.Bool("json", false, "print one JSON document (see docs/json.md) instead of the summary lines")
	c.run = func(e *env, args []string) int {
		if len(args) == 0 {
			fmt.Fprintln(e.stderr, "turnorder check: name at least one file, directory or bundled ruleset, as in `turnorder check rulesets`")
			return exitUsage
		}
		doc := &checkDoc{Files: []checkedDoc{}, Problems: []problemDoc{}}
		status := func() int {
			files, err := rulesFiles(args, orBundled)
			if err != nil {
				e.errorf("%s", pathError(err))
				return exitError
			}
			if len(files) == 0 {
				e.errorf("no .rules files in %s", strings.Join(args, ", "))
				return exitError
			}
			status := exitOK
			shown := map[string]bool{}
			for _, file := range files {
				f := checkFile(e, file, shown, !*asJSON, &doc.Problems)
				doc.Files = append(doc.Files, f)
				if !f.OK {
					status = exitError
				}
			}
			return status
		}()
		if !*asJSON {
			return status
		}
		doc.Warnings = diagsJSON(e.warns)
		doc.ErrorsDoc = errorsJSON(e.errs)
		// Errors at no place in a file (one that cannot be read) were not
		// reported with a source: they end the list.
		for _, d := range e.errs {
			if d.Pos.Filename == "" && d.Pos.Line == 0 {
				doc.Problems = append(doc.Problems, problemJSON(d, nil))
			}
		}
		return e.finishJSON(doc, status)
	}
	return c
}

// checkFile checks one file, or a bundled ruleset if no such file exists,
// and says whether it is free of errors, printing its summary line if it
// is and summary is set. shown holds the diagnostics printed so far: a
// ruleset file that several scenarios (or the command line) name has its
// errors printed once. Each diagnostic printed is added to problems too.
func checkFile(e *env, arg string, shown map[string]bool, summaryLine bool, problems *[]problemDoc) checkedDoc {
	filename, display, dir := arg, arg, filepath.Dir(arg)
	var src []byte
	var err error
	if arg == "-" {
		filename, display, dir = "<standard input>", "<standard input>", "."
		if src, err = io.ReadAll(io.LimitReader(e.stdin, dsl.MaxSourceBytes+1)); err != nil {
			err = fmt.Errorf("reading standard input: %w", err)
		}
	} else {
		var rs rulesets.Source
		rs, err = rulesets.Read(arg)
		filename, src = rs.Filename, rs.Text
		if rs.Bundled {
			display, dir = arg+" (bundled)", ""
		}
	}
	if err != nil {
		e.errorf("%s", pathError(err))
		return checkedDoc{File: display}
	}
	report := func(ds dsl.Diagnostics, src []byte) {
		e.report(ds, src)
		for _, d := range ds {
			*problems = append(*problems, problemJSON(d, src))
		}
	}
	diags, broken, summary := checkSource(filename, src, dir)
	// Whether the file is clean is decided on all its diagnostics; those
	// already shown (the file was named twice, or a scenario named it) are
	// left out only of what is printed.
	clean := !diags.HasErrors() && len(broken) == 0
	// In the file's order: the errors of a scenario's ruleset file, and a
	// note at its `ruleset` line, come where that line is.
	diags = unshown(diags, shown)
	diags.Sort()
	for _, b := range broken {
		i := 0
		for i < len(diags) && before(diags[i].Pos, b.at) {
			i++
		}
		report(diags[:i], src)
		diags = diags[i:]
		report(unshown(b.rf.errs, shown), b.rf.src)
		writeNote(e.stderr, b.at, src, fmt.Sprintf("%s is used by scenario %q here", b.name, b.scenario))
	}
	report(diags, src)
	if !clean {
		return checkedDoc{File: display}
	}
	if summaryLine {
		fmt.Fprintf(e.stdout, "ok  %s (%s)\n", display, summary)
	}
	return checkedDoc{File: display, OK: true, Summary: summary}
}

// checkSource parses and compiles one file's text. dir is where relative
// ruleset paths in scenarios are looked up ("" for a bundled file). It
// returns every diagnostic in the file, the scenarios whose ruleset file
// does not compile, and, for the summary line, what the file holds.
func checkSource(filename string, src []byte, dir string) (dsl.Diagnostics, []brokenUse, string) {
	f, diags := dsl.Parse(filename, src)
	if f == nil {
		return diags, nil, ""
	}
	syntaxErrs := diags.HasErrors()

	var names []string
	declared := map[string]dsl.Pos{}
	scenarios, sides := 0, 0
	var specs []runtime.SideSpec // the file's own sides, as --setup reads them
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *dsl.Ruleset:
			name := string(d.Name)
			if first, dup := declared[name]; dup {
				diags = append(diags, dsl.Errorf(d.Pos(), "ruleset %s is declared twice in this file (first at line %d)", name, first.Line))
			} else {
				declared[name] = d.Pos()
				names = append(names, name)
			}
			p, ds := compileRuleset(f, d)
			if p == nil {
				diags = append(diags, ds...)
				continue
			}
			diags = append(diags, p.Warnings()...)
		case *dsl.Scenario:
			scenarios++
		case *dsl.SideSetup:
			sides++
			specs = append(specs, runtime.SideFromDSL(d))
		}
	}
	diags = append(diags, runtime.CheckSides(specs)...)
	// After a syntax error the broken declaration is missing from f, so a
	// scenario naming it would be reported twice over; skip the check.
	var broken []brokenUse
	if !syntaxErrs {
		var ds dsl.Diagnostics
		ds, broken = checkScenarioRulesets(f, declared, dir)
		diags = append(diags, ds...)
	}
	// The scenarios' own statements are checked against their rulesets
	// (names of sides and units, event kinds). Where a ruleset cannot be
	// found or does not compile, that is reported above, at the scenario's
	// `ruleset` line, and its scenarios are not checked; the others still
	// are, so that one mistyped ruleset name does not hide the rest.
	if !syntaxErrs && scenarios > 0 {
		lint := conformance.Lint(f, conformance.Options{})
		if diags.HasErrors() || len(broken) > 0 {
			uses := map[dsl.Pos]bool{}
			for _, d := range f.Decls {
				if sc, ok := d.(*dsl.Scenario); ok {
					for _, st := range sc.Body {
						if use, ok := st.(*dsl.UseRuleset); ok {
							uses[use.Name.Pos()] = true
						}
					}
				}
			}
			lint = slices.DeleteFunc(lint, func(d dsl.Diagnostic) bool { return uses[d.Pos] })
		}
		diags = append(diags, lint...)
	}

	var parts []string
	switch len(names) {
	case 0:
	case 1:
		parts = append(parts, "ruleset "+names[0])
	default:
		parts = append(parts, "rulesets "+strings.Join(names, ", "))
	}
	if scenarios > 0 {
		parts = append(parts, plural(scenarios, "scenario"))
	}
	if sides > 0 {
		parts = append(parts, plural(sides, "side"))
	}
	if _, warns := countErrors(diags); warns > 0 {
		parts = append(parts, plural(warns, "warning"))
	}
	return diags, broken, strings.Join(parts, ", ")
}

// brokenUse is a scenario's `ruleset FILE` naming a file that does not
// compile. Its errors belong to that file, and are shown there.
type brokenUse struct {
	scenario string
	name     string  // the file, as the scenario names it
	at       dsl.Pos // the name in the scenario's `ruleset` line
	rf       *rulesetFile
}

// before reports whether a comes before b in the same file.
func before(a, b dsl.Pos) bool {
	return a.Filename == b.Filename && (a.Line < b.Line || a.Line == b.Line && a.Column < b.Column)
}

// unshown returns the diagnostics of ds not yet in shown, and adds them.
func unshown(ds dsl.Diagnostics, shown map[string]bool) dsl.Diagnostics {
	var out dsl.Diagnostics
	for _, d := range ds {
		if k := d.String(); !shown[k] {
			shown[k] = true
			out = append(out, d)
		}
	}
	return out
}

// checkScenarioRulesets reports each scenario's `ruleset NAME` that names
// neither a ruleset of the file, nor a bundled ruleset, nor a file
// relative to dir, and returns those naming a file that does not compile.
// Each file is compiled once, however many scenarios name it.
func checkScenarioRulesets(f *dsl.File, declared map[string]dsl.Pos, dir string) (dsl.Diagnostics, []brokenUse) {
	var diags dsl.Diagnostics
	var broken []brokenUse
	files := map[string]*rulesetFile{}
	for _, d := range f.Decls {
		sc, ok := d.(*dsl.Scenario)
		if !ok {
			continue
		}
		for _, st := range sc.Body {
			use, ok := st.(*dsl.UseRuleset)
			if !ok {
				continue
			}
			name := use.Name.String()
			if _, ok := declared[name]; ok || isBundled(name) {
				continue
			}
			// A file is found as test finds it (conformance.RulesetPath).
			path := ""
			if dir != "" {
				path = conformance.RulesetPath(name, use.Pos().Filename)
			}
			if path == "" {
				diags = append(diags, dsl.Errorf(use.Name.Pos(), "scenario %q: %s", string(sc.Title), unknownRuleset(name)))
				continue
			}
			rf := files[path]
			if rf == nil {
				rf = loadRulesetFile(path)
				files[path] = rf
			}
			switch {
			case len(rf.errs) > 0:
				broken = append(broken, brokenUse{scenario: string(sc.Title), name: name, at: use.Name.Pos(), rf: rf})
			case rf.unread != nil:
				diags = append(diags, dsl.Errorf(use.Name.Pos(), "scenario %q: %s", string(sc.Title), unusableRuleset(name, path, rf.unread)))
			}
		}
	}
	return diags, broken
}
