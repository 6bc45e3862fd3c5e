package main

// The odds command: the exact odds (or a simulation's estimates) of who
// holds priority, for one ruleset or two compared.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

func oddsCommand() *command {
	c := &command{
		name:  "odds",
		args:  "RULESET [RULESET] [--sides A,B,...] [--setup FILE] [--rounds N] [--json] [--sim N] [--seed N] [--svg FILE] [--policy KIND=POLICY]... [--order NAME] [--decide NAME=VALUE|random|each]...",
		short: "exact odds of who holds priority, round by round",
		flags: newFlags("odds"),
	}
	fs := c.flags
	sides, setup := sideFlags(fs)
	rounds := 1
	fs.Var(&intFlag{&rounds}, "rounds", fmt.Sprintf("analyse `N` rounds, from 1 to %d", maxOddsRounds))
	asJSON := fs.Bool("json", false, "print one JSON document with exact fractions (see docs/json.md) instead of the tables")
	sim := 0
	fs.Var(&intFlag{&sim}, "sim", "simulate `N` battles instead of enumerating")
	seed := uint64(1)
	fs.Var(&uintFlag{&seed}, "seed", "seed the dice of --sim with `N`")
	svg := nonEmpty(fs, "svg", "write a chart of P(holder) per round to `FILE` (SVG; - for standard output)", "name a file")
	var policies listFlag
	fs.Var(&policies, "policy", "override a decision policy, as `KIND=POLICY` (first=other); repeat it for several kinds")
	order := nonEmpty(fs, "order", "give the odds of who is first in the order `NAME` (order ... as NAME) rather than of who holds priority", "name an order")
	var decides listFlag
	fs.Var(&decides, "decide", "answer a decide statement's decision, as `NAME=VALUE`, NAME=random (the dice pick) or NAME=each (each answer tabulated apart); repeat it for several")
	c.run = func(e *env, args []string) int {
		if !rulesetArgs(e, args, 2) {
			return exitUsage
		}
		var doc oddsTop
		status := func() int {
			if rounds < 1 || rounds > maxOddsRounds {
				e.errorf("--rounds must be between 1 and %d (got %d)", maxOddsRounds, rounds)
				return exitError
			}
			if sim < 0 || (sim == 0 && given(fs, "sim")) {
				// 0 would quietly mean exact odds, which leaving --sim out asks for.
				e.errorf("--sim must be a positive number of battles (got %d); leave it out for exact odds", sim)
				return exitError
			}
			if *svg == "-" && *asJSON {
				e.errorf("--svg - and --json both write to standard output: write the chart to a file")
				return exitError
			}
			dec, msg := parsePolicies(policies)
			if msg != "" {
				e.errorf("%s", msg)
				return exitError
			}
			plan, msg := parseDecides(decides)
			if msg != "" {
				e.errorf("%s", msg)
				return exitError
			}
			if plan.each != "" && len(args) > 1 {
				e.errorf("--decide %s=each tabulates one ruleset's answers: give one ruleset", plan.each)
				return exitError
			}
			if sim == 0 && given(fs, "seed") {
				// Like a --policy the ruleset never asks for: harmless, but
				// surely not what was meant.
				fmt.Fprintf(e.stderr, "turnorder odds: warning: --seed %d changes nothing: exact odds roll no dice (it seeds --sim N)\n", seed)
			}
			if *order != "" && (sim > 0 || len(args) == 2 || *svg != "") {
				// Simulations, comparisons and charts count who holds
				// priority only.
				e.errorf("--order gives the exact odds of one ruleset, without --sim, --svg or a second ruleset to compare")
				return exitError
			}
			o := oddsOptions{rounds: rounds, sim: sim, seed: seed, json: *asJSON, svg: *svg, decider: dec, policies: policies,
				order: *order, decide: plan, run: runOptions{sides: *sides, setup: *setup}}
			return runOdds(e, args, o, &doc)
		}()
		if !*asJSON {
			return status
		}
		// A failure is a document too, holding only the errors.
		doc.ErrorsDoc = errorsJSON(e.errs)
		return e.finishJSON(doc, status)
	}
	return c
}

const maxOddsRounds = 200

type oddsOptions struct {
	rounds, sim int
	seed        uint64
	json        bool
	svg         string
	decider     runtime.Decider
	policies    []string // as given, for the titles
	order       string   // --order: the order whose first place the tables give
	decide      decidePlan
	run         runOptions
}

// title is what the output calls v: odds under overridden policies are
// not the ruleset's own, and a reader must not take them for them.
func (o oddsOptions) title(v variant) string {
	t := v.label
	if len(o.policies) > 0 {
		t += ", with --policy " + strings.Join(o.policies, " --policy ")
	}
	var fixed []string
	for _, d := range o.decide.given {
		if name, val, _ := strings.Cut(d, "="); val != eachAnswer && name != "" {
			fixed = append(fixed, d)
		}
	}
	if len(fixed) > 0 {
		t += ", with --decide " + strings.Join(fixed, " --decide ")
	}
	if v.decision != "" {
		t += fmt.Sprintf(", where %s is %s", v.decision, v.answer)
	}
	return t
}

// variant is one ruleset's analysis.
type variant struct {
	name  string // the ruleset's
	label string // what the output calls it: see labelVariants
	sides []string
	exact *runtime.OddsReport
	sim   *runtime.SimReport
	draw  bool     // its activation is a draw from a bag, which the odds leave out
	units []string // the units of its sides, in setup order: the subjects of an order of units
	// decision and answer, with --decide NAME=each, are the answer this
	// variant's battles always give.
	decision, answer string
}

// runOdds analyses the rulesets, printing the tables or, with --json,
// filling in doc for the caller to print.
func runOdds(e *env, args []string, o oddsOptions, doc *oddsTop) int {
	ctx := context.Background()
	// Comparing two, an error (at a side of the --setup file, say) may be
	// the one ruleset's and not the other's: say whose.
	whose := func(i int) {
		switch {
		case len(args) < 2:
		case i == 0:
			e.errorf("this is for %s, the first of the two rulesets compared; %s was not analysed", args[0], args[1])
		default:
			e.errorf("this is for %s, the second of the two rulesets compared", args[1])
		}
	}
	var setups []setup
	if len(args) == 2 && o.run.sides == "" && o.run.setup == "" {
		var ok bool
		if setups, ok = sharedExample(e, args, whose); !ok {
			return exitError
		}
	} else {
		setups = make([]setup, len(args))
		for i, arg := range args {
			s, ok := loadSetup(e, arg, o.run)
			if !ok {
				whose(i)
				return exitError
			}
			setups[i] = s
		}
	}
	if len(setups) == 2 {
		// A house rule that reads a new value (`unit attribute hero
		// bool`) is compared over sides that give it: the ruleset that
		// does not declare it, and so cannot read it, plays without it.
		for i := range setups {
			setups[i].specs = withoutOthers(e, setups[i].specs, setups[i].prog, setups[1-i].prog, args[i])
		}
	}
	var vs []variant
	for i, s := range setups {
		whose := func() { whose(i) }
		p, specs := s.prog, s.specs
		warnUnusedPolicies(e, p, o.decider)
		if o.order != "" && !slices.Contains(p.Standings(), o.order) {
			// Before the note of a ruleset with no holder: an order it
			// does not have is a mistake there too.
			has := "it has no order"
			if len(p.Standings()) > 0 {
				has = "its orders: " + strings.Join(p.Standings(), ", ")
			}
			meant := ""
			if m := dsl.Suggest(o.order, p.Standings()); m != "" {
				meant = fmt.Sprintf("; did you mean %s?", m)
			}
			e.errorf("--order %s: ruleset %s has no order %s (%s)%s", o.order, p.Name(), o.order, has, meant)
			return exitError
		}
		if !p.HasHolder() {
			// Not an error: the ruleset is as it should be, and its odds
			// are of nothing. With --json, stdout is the document's.
			w := e.stdout
			if o.json {
				w = e.stderr
			}
			fmt.Fprintf(w, "%s has no order of sides: nobody holds priority, so there is no holder to tabulate (`turnorder run` shows who acts in each round)\n", p.Name())
			return exitOK
		}
		plan, msg := o.decide.check(p)
		if msg != "" {
			e.errorf("%s", msg)
			whose()
			return exitError
		}
		for _, run := range plan.runs(p, o.decider) {
			v := variant{name: p.Name(), label: p.Name(), draw: p.DrawsFromBag(), decision: run.decision, answer: run.answer}
			for _, s := range specs {
				v.sides = append(v.sides, s.Name)
				for _, u := range s.Units {
					v.units = append(v.units, u.Name)
				}
			}
			var err error
			if o.sim > 0 {
				bar := newProgress(e.stderr, o.sim, "battles")
				v.sim, err = p.Simulate(ctx, specs, runtime.SimOptions{Runs: o.sim, Rounds: o.rounds, Seed: o.seed,
					Decider: run.decider, Progress: bar.set})
				bar.done()
			} else {
				bar := newProgress(e.stderr, o.rounds, "rounds")
				v.exact, err = p.Odds(ctx, specs, runtime.OddsOptions{Rounds: o.rounds, Decider: run.decider, Progress: bar.set})
				bar.done()
			}
			if err != nil {
				s.report(e, err)
				if o.sim == 0 && errors.Is(err, runtime.ErrLimit) {
					fmt.Fprintf(e.stderr, "%sexact odds are out of reach here; --sim 100000 estimates them instead\n", e.prefix())
				}
				whose()
				return exitError
			}
			vs = append(vs, v)
		}
	}
	if len(setups) == 2 && !slices.Equal(vs[0].sides, vs[1].sides) {
		e.errorf("%s plays %s, but %s plays %s: compare two rulesets over the same sides (--sides or --setup)",
			vs[0].name, strings.Join(vs[0].sides, ", "), vs[1].name, strings.Join(vs[1].sides, ", "))
		return exitError
	}
	if len(setups) == 2 {
		labelVariants(vs, args)
	}
	// The tables go to stdout, unless the chart does (--svg -): a pipe
	// then gets the SVG alone, and a terminal still shows the tables.
	out := e.stdout
	switch o.svg {
	case "":
	case "-":
		io.WriteString(e.stdout, chartSVG(vs, o))
		out = e.stderr
	default:
		if err := os.WriteFile(o.svg, []byte(chartSVG(vs, o)), 0o644); err != nil {
			e.errorf("--svg: %s", pathError(err))
			return exitError
		}
	}
	if o.json {
		*doc = oddsJSON(vs, o)
		return exitOK
	}
	if o.order != "" {
		// One ruleset, but with --decide NAME=each one table per answer.
		for i, v := range vs {
			if i > 0 {
				fmt.Fprintln(out)
			}
			printFirst(out, v, o)
		}
		return exitOK
	}
	for i, v := range vs {
		if i > 0 {
			fmt.Fprintln(out)
		}
		printVariant(out, v, o)
	}
	if len(setups) == 2 {
		printComparison(out, vs, o.rounds)
	}
	return exitOK
}
