package main

// The hints test gives when a scenario fails, or a file has none, for a
// reason its author would not see: a bundled ruleset tested in place of
// the file's own, or bundled scenarios run elsewhere.

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
)

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
	if src, err := rulesets.Read(name); err == nil && bytes.Equal(src.Text, sf.src) {
		return fmt.Sprintf("%s is the bundled ruleset %s; its scenarios run with `turnorder test %s`", sf.name, name, name)
	}
	// A copy of a bundled ruleset, changed or not, keeps its name.
	return fmt.Sprintf("%s declares ruleset %s; the bundled scenarios of %s run with it by `turnorder test %s --with %s`", sf.name, name, name, name, shellWord(sf.name))
}
