package main

// --decide NAME=VALUE|random|each, for odds: how the decisions of the
// ruleset's `decide` statements are answered, besides their default.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// eachAnswer is the --decide value that tabulates every answer apart.
const eachAnswer = "each"

// decidePlan is what --decide says: fixed answers (or random) by
// decision, and the decision whose every answer is tabulated apart.
type decidePlan struct {
	given []string // as typed, for titles
	fixed map[string]string
	each  string
}

// parseDecides reads the --decide flags; it returns a message for one
// that is not NAME=VALUE, or names a decision twice, or asks each for
// two decisions.
func parseDecides(ss []string) (decidePlan, string) {
	plan := decidePlan{given: ss, fixed: map[string]string{}}
	for _, s := range ss {
		name, val, ok := strings.Cut(s, "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		_, twice := plan.fixed[name]
		switch {
		case !ok || name == "" || val == "":
			return plan, fmt.Sprintf("--decide %q: write NAME=VALUE, NAME=random or NAME=each, NAME a decision of the ruleset (decide NAME ...)", s)
		case twice || plan.each == name:
			return plan, fmt.Sprintf("--decide %q: %s is given twice", s, name)
		case val == eachAnswer && plan.each != "":
			return plan, fmt.Sprintf("--decide %q: each is already given for %s: tabulate one decision's answers at a time", s, plan.each)
		case val == eachAnswer:
			plan.each = name
		default:
			plan.fixed[name] = val
		}
	}
	return plan, ""
}

// check checks the plan against p's decisions, and writes its fixed
// answers as p keeps them ("true" is "yes").
func (plan decidePlan) check(p *runtime.Program) (decidePlan, string) {
	decls := p.Decides()
	find := func(name string) (runtime.DecisionDecl, string) {
		i := slices.IndexFunc(decls, func(d runtime.DecisionDecl) bool { return d.Name == name })
		if i < 0 {
			var names []string
			for _, d := range decls {
				names = append(names, d.Name)
			}
			known := "it decides nothing"
			if len(names) > 0 {
				known = "its decisions: " + strings.Join(names, ", ")
			}
			if m := dsl.Suggest(name, names); m != "" {
				known += "; did you mean " + m + "?"
			}
			return runtime.DecisionDecl{}, fmt.Sprintf("--decide %s: %s has no decision %s (%s)", name, p.Name(), name, known)
		}
		return decls[i], ""
	}
	out := decidePlan{given: plan.given, fixed: map[string]string{}, each: plan.each}
	for name, val := range plan.fixed {
		d, msg := find(name)
		if msg != "" {
			return out, msg
		}
		if val == runtime.RandomAnswer {
			out.fixed[name] = val
			continue
		}
		c, ok := d.Canonical(val)
		if !ok {
			return out, fmt.Sprintf("--decide %s=%s: %s is no answer to %s (answers: %s; or random, or each)", name, val, val, name, strings.Join(d.Answers, ", "))
		}
		out.fixed[name] = c
	}
	if plan.each != "" {
		if _, msg := find(plan.each); msg != "" {
			return out, msg
		}
	}
	return out, ""
}

// runs are the analyses the plan asks of p: one, or one for each answer
// of the decision tabulated apart, each with its decider and what its
// title adds.
func (plan decidePlan) runs(p *runtime.Program, base runtime.Decider) []decideRun {
	decider := func(extra string, ans string) runtime.Decider {
		if len(plan.fixed) == 0 && extra == "" {
			return base
		}
		by := map[string]string{}
		for k, v := range plan.fixed {
			by[k] = v
		}
		if extra != "" {
			by[extra] = ans
		}
		return runtime.Answers{ByName: by, Else: base}
	}
	if plan.each == "" {
		return []decideRun{{decider: decider("", "")}}
	}
	var out []decideRun
	for _, d := range p.Decides() {
		if d.Name != plan.each {
			continue
		}
		for _, ans := range d.Answers {
			out = append(out, decideRun{decider: decider(d.Name, ans), decision: d.Name, answer: ans})
		}
	}
	return out
}

type decideRun struct {
	decider          runtime.Decider
	decision, answer string // the answer tabulated, with each
}
