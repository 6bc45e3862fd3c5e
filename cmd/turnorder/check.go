package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

func checkCommand() *command {
	c := &command{
		name:  "check",
		args:  "FILE|DIR|NAME...",
		short: "parse and compile .rules files, reporting every error",
		long: `
Check parses each .rules file and compiles every ruleset in it, type-checking
the expressions against the declared attributes. It reports every error and
warning the way a compiler does: file:line:col, the message, the source line
and a caret under the column.

A directory stands for every *.rules file under it. A name that is not a
file, such as mesbg, checks the bundled ruleset of that name.

Scenarios are checked too: a scenario's "ruleset NAME" must name a ruleset in
the same file, a bundled ruleset, or a file relative to the scenario's file,
and its rounds may name only the sides and units it plays with and kinds of
event that exist. Check does not play them: turnorder test does.

For each clean file, check prints a summary line to standard output; errors
and warnings go to standard error. The exit status is 0 when there are no
errors (warnings allowed), 1 when any file has errors, and 2 when the command
line is wrong.`,
		example: `
turnorder check rulesets
turnorder check my-house-rules.rules
turnorder check mesbg            # the bundled ruleset`,
		flags: newFlags("check"),
	}
	c.run = func(e *env, args []string) int {
		if len(args) == 0 {
			fmt.Fprintln(e.stderr, "turnorder check: name at least one file, directory or bundled ruleset, as in `turnorder check rulesets`")
			return exitUsage
		}
		files, err := rulesFiles(args, func(arg string, err error) error {
			if isBundled(arg) {
				return nil
			}
			return fmt.Errorf("%s (and no bundled ruleset has that name; bundled: %s)", pathError(err), bundledList())
		})
		if err != nil {
			fmt.Fprintf(e.stderr, "turnorder check: %s\n", pathError(err))
			return exitError
		}
		if len(files) == 0 {
			fmt.Fprintf(e.stderr, "turnorder check: no .rules files in %s\n", strings.Join(args, ", "))
			return exitError
		}
		status := exitOK
		for _, file := range files {
			if !checkFile(e, file) {
				status = exitError
			}
		}
		return status
	}
	return c
}

// checkFile checks one file, or a bundled ruleset if no such file exists.
// It reports whether the file is free of errors.
func checkFile(e *env, arg string) bool {
	filename, display, dir := arg, arg, filepath.Dir(arg)
	src, err := os.ReadFile(arg)
	if os.IsNotExist(err) && isBundled(arg) {
		filename, src, err = rulesets.Source(arg)
		display, dir = arg+" (bundled)", ""
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "turnorder check: %s\n", pathError(err))
		return false
	}
	diags, summary := checkSource(filename, src, dir)
	writeDiags(e.stderr, diags, src, e.prefix())
	if diags.HasErrors() {
		return false
	}
	fmt.Fprintf(e.stdout, "ok  %s (%s)\n", display, summary)
	return true
}

// checkSource parses and compiles one file's text. dir is where relative
// ruleset paths in scenarios are looked up ("" for a bundled file). It
// returns every diagnostic and, for the summary line, what the file holds.
func checkSource(filename string, src []byte, dir string) (dsl.Diagnostics, string) {
	f, diags := dsl.Parse(filename, src)
	if f == nil {
		return diags, ""
	}
	syntaxErrs := diags.HasErrors()

	var names []string
	declared := map[string]dsl.Pos{}
	scenarios, sides := 0, 0
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *dsl.Ruleset:
			name := string(d.Name)
			if first, dup := declared[name]; dup {
				diags = append(diags, dsl.Errorf(d.Pos, "ruleset %s is declared twice in this file (first at line %d)", name, first.Line))
			} else {
				declared[name] = d.Pos
				names = append(names, name)
			}
			p, err := runtime.CompileRuleset(f, d)
			if err != nil {
				if ds, ok := asDiags(err); ok {
					diags = append(diags, ds...)
				} else {
					diags = append(diags, dsl.Errorf(d.Pos, "ruleset %s: %v", name, err))
				}
				continue
			}
			diags = append(diags, p.Warnings()...)
		case *dsl.Scenario:
			scenarios++
		case *dsl.SideSetup:
			sides++
		}
	}
	// After a syntax error the broken declaration is missing from f, so a
	// scenario naming it would be reported twice over; skip the check.
	if !syntaxErrs {
		diags = append(diags, checkScenarioRulesets(f, declared, dir)...)
	}
	// With every ruleset found and compiled, the scenarios' own statements
	// can be checked against them (names of sides and units, event kinds).
	if !diags.HasErrors() && scenarios > 0 {
		diags = append(diags, conformance.Lint(f, conformance.Options{})...)
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
	return diags, strings.Join(parts, ", ")
}

// checkScenarioRulesets reports each scenario's `ruleset NAME` that names
// neither a ruleset of the file, nor a bundled ruleset, nor a file
// relative to dir.
func checkScenarioRulesets(f *dsl.File, declared map[string]dsl.Pos, dir string) dsl.Diagnostics {
	var diags dsl.Diagnostics
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
			name := string(use.Name)
			if _, ok := declared[name]; ok || isBundled(name) {
				continue
			}
			if dir != "" {
				if info, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name))); err == nil && !info.IsDir() {
					continue
				}
			}
			msg := fmt.Sprintf("scenario %q: unknown ruleset %s: no ruleset of this file has that name, nor any bundled ruleset (%s)",
				string(sc.Title), name, bundledList())
			if dir != "" {
				msg += ", and there is no such file next to this one"
			}
			diags = append(diags, dsl.Errorf(afterKeyword(f.Source, use.Pos), "%s", msg))
		}
	}
	return diags
}

// afterKeyword returns the position of the word after the keyword at pos
// (the name in `ruleset NAME`), so that the caret points at the name.
func afterKeyword(src string, pos dsl.Pos) dsl.Pos {
	i := pos.Offset
	if i < 0 || i >= len(src) {
		return pos
	}
	j := i
	for j < len(src) && (isWordByte(src[j])) {
		j++
	}
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	if j >= len(src) || src[j] == '\n' || strings.ContainsRune(src[i:j], '\n') {
		return pos
	}
	pos.Column += j - i
	pos.Offset = j
	return pos
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}
