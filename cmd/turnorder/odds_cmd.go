package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"os"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/runtime"
)

func oddsCommand() *command {
	c := &command{
		name:  "odds",
		args:  "RULESET [RULESET] [--sides A,B,...] [--setup FILE] [--rounds N] [--json] [--sim N] [--seed N] [--svg FILE] [--policy KIND=POLICY]...",
		short: "exact odds of who holds priority, round by round",
		long: `
Odds computes, as exact fractions, how likely each side is to hold priority
in each round, how likely each order is, and (for battles of up to six
rounds) how likely each sequence of holders is. It plays every face of every
die through the ruleset: rerolls are handled exactly (a tie that is rerolled
until someone wins counts as its limit, not as a cut-off), and battles are
merged by state after each round, so many rounds stay cheap.

Decisions follow the ruleset's declared policies; --policy overrides one
kind of decision, as in --policy first=other (the roll-off winner always
gives priority away). Kinds and policies: first=self|other|keep,
before_after=before|after, order=keep|reverse, activate=first|last. A
kind the ruleset never asks for is warned about, as it changes nothing.

With two rulesets (a bundled one and a house rule, say), odds shows them
side by side, and the change in each side's chance round by round; when
there is none, it says whether who holds priority from one round to the
next changes all the same. A --setup value that only one of them declares
(a house rule's new attribute) is left out of the other's battle, with a
note.

Exact enumeration has limits: a round with more than 1,000,000 paths from
one state, or a battle that can be in more than 20,000 states after a
round, is refused. A tied group's reroll is worked out once and reused
wherever the same group ties, and paths that reach the same state are
followed once. Players rolling off a D6, only the still-tied rolling
again, take about 5,400 paths for five (a tenth of a second), 55,000 for
six (under half a second) and 611,000 for seven (a few seconds and about
400 MB of memory); eight are refused, after about five seconds, most of
them spent playing the round path by path up to the bound, so that a
rule that fails on some path is reported rather than the bound. Each
later round starts from every state the one before can end in, however
many sequences of holders led to it; an order that reads only the sides
and the round is worked out once for them all, but the round is still
replayed from each: six players take about 3 seconds for two rounds and
as long again for every further one. Use --sim for such games.

--sim N instead plays N seeded battles over every core and reports each
probability with its 95% interval; a progress bar is shown on a terminal.
--seed seeds them; without --sim it changes nothing and is warned about.
--svg FILE draws P(holder) per round for each side as a chart.

With --json, odds prints one JSON document (see docs/json.md). When odds
fails, the document holds only the errors (file, line, column and
message).

The sides are chosen as for turnorder run. Two rulesets compared play the
same sides: with neither --sides nor --setup, the example sides of the
first (or of the second, if the first has none), so that a house rule and
its original face the same forces; a note says so when the other's own
example differs, and how to compare over it (--setup FILE). A ruleset's
warnings are printed to standard error, as check prints them.`,
		example: `
turnorder odds mesbg --rounds 3
turnorder odds necromunda --sides A,B,C,D --rounds 1 --json
turnorder odds mesbg examples/house-rules/fewer-models.rules --rounds 5
turnorder odds mesbg --rounds 10 --sim 1000000 --seed 7
turnorder odds mesbg --rounds 6 --svg mesbg.svg
turnorder odds mesbg --policy first=other`,
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
	svg := nonEmpty(fs, "svg", "write a chart of P(holder) per round to `FILE` (SVG)", "name a file")
	var policies listFlag
	fs.Var(&policies, "policy", "override a decision policy, as `KIND=POLICY` (first=other); repeat it for several kinds")
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
			dec, msg := parsePolicies(policies)
			if msg != "" {
				e.errorf("%s", msg)
				return exitError
			}
			if sim == 0 && given(fs, "seed") {
				// Like a --policy the ruleset never asks for: harmless, but
				// surely not what was meant.
				fmt.Fprintf(e.stderr, "turnorder odds: warning: --seed %d changes nothing: exact odds roll no dice (it seeds --sim N)\n", seed)
			}
			o := oddsOptions{rounds: rounds, sim: sim, seed: seed, json: *asJSON, svg: *svg, decider: dec, policies: policies,
				run: runOptions{sides: *sides, setup: *setup}}
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
	run         runOptions
}

// title is what the output calls v: odds under overridden policies are
// not the ruleset's own, and a reader must not take them for them.
func (o oddsOptions) title(v variant) string {
	if len(o.policies) == 0 {
		return v.label
	}
	return v.label + ", with --policy " + strings.Join(o.policies, " --policy ")
}

func parsePolicies(ss []string) (runtime.Decider, string) {
	if len(ss) == 0 {
		return runtime.Policy{}, ""
	}
	over := runtime.Override{}
	for _, s := range ss {
		kind, pol, ok := strings.Cut(s, "=")
		pols := runtime.Policies(runtime.DecisionKind(kind))
		known := pols != nil
		switch {
		case !ok || !known:
			return nil, fmt.Sprintf("--policy %q: write KIND=POLICY with KIND one of first, before_after, order, activate", s)
		case !slices.Contains(pols, pol):
			return nil, fmt.Sprintf("--policy %q: %s decisions take %s", s, kind, strings.Join(pols, ", "))
		case over[runtime.DecisionKind(kind)] != "" && over[runtime.DecisionKind(kind)] != pol:
			return nil, fmt.Sprintf("--policy %q: %s decisions already follow %s", s, kind, over[runtime.DecisionKind(kind)])
		}
		over[runtime.DecisionKind(kind)] = pol
	}
	return over, ""
}

// warnUnusedPolicies warns, for each --policy in dec, when the ruleset never
// asks for that kind of decision: the flag then changes nothing, which is
// surely not what was meant (a kind taken from another ruleset, say).
func warnUnusedPolicies(e *env, p *runtime.Program, dec runtime.Decider) {
	over, ok := dec.(runtime.Override)
	if !ok {
		return
	}
	asks := p.Decisions()
	for _, kind := range slices.Sorted(maps.Keys(over)) {
		if !slices.Contains(asks, kind) {
			fmt.Fprintf(e.stderr, "%swarning: --policy %s=%s changes nothing: %s never asks for %s decisions\n",
				e.prefix(), kind, over[kind], p.Name(), kind)
		}
	}
}

// labelVariants tells apart two rulesets of one name, as when a house rule
// is a copy of a bundled ruleset: each is called by the argument that named
// it (the bundled name, or the file).
func labelVariants(vs []variant, args []string) {
	if len(vs) == 2 && vs[0].name == vs[1].name && args[0] != args[1] {
		vs[0].label, vs[1].label = args[0], args[1]
	}
}

// variant is one ruleset's analysis.
type variant struct {
	name  string // the ruleset's
	label string // what the output calls it: see labelVariants
	sides []string
	exact *runtime.OddsReport
	sim   *runtime.SimReport
	draw  bool // its activation is a draw from a bag, which the odds leave out
}

// drawsFromBag reports whether p's activation is `activation draw`.
func drawsFromBag(p *runtime.Program) bool {
	f := p.File()
	if f == nil {
		return false
	}
	for _, d := range f.Decls {
		r, ok := d.(*dsl.Ruleset)
		if !ok || string(r.Name) != p.Name() {
			continue
		}
		for _, st := range r.Body {
			if a, ok := st.(*dsl.ActivationStmt); ok && a.Mode == dsl.Draw {
				return true
			}
		}
	}
	return false
}

// drawNote says, under a ruleset's table of P(holds priority), that the
// draws of its bag are not in it: a player asks the odds of a dice bag
// game for the bag.
func drawNote(w io.Writer, v variant) {
	if v.draw {
		fmt.Fprintf(w, "(%s draws from a bag who activates each turn, which is not in these odds: they are of who holds priority; `turnorder run` shows each draw)\n", v.label)
	}
}

// withoutOthers returns specs without the attributes and statuses that p
// does not declare and other does, saying on standard error which it
// leaves out: p's rules cannot read them, so its odds are as they would
// be without them. A name neither declares stays, for p to refuse.
func withoutOthers(e *env, specs []runtime.SideSpec, p, other *runtime.Program, arg string) []runtime.SideSpec {
	names := func(attrs []runtime.Attr, more ...string) []string {
		for _, a := range attrs {
			more = append(more, a.Name)
		}
		return more
	}
	sideHas, unitHas := names(p.SideAttrs()), names(p.UnitAttrs(), p.Statuses()...)
	otherSide, otherUnit := names(other.SideAttrs()), names(other.UnitAttrs(), other.Statuses()...)
	var dropped []string
	drop := func(n string) {
		if !slices.Contains(dropped, n) {
			dropped = append(dropped, n)
		}
	}
	keep := func(attrs map[string]any, has, otherHas []string) map[string]any {
		var out map[string]any
		for k, v := range attrs {
			if !slices.Contains(has, k) && slices.Contains(otherHas, k) {
				drop(k)
				continue
			}
			if out == nil {
				out = map[string]any{}
			}
			out[k] = v
		}
		return out
	}
	out := make([]runtime.SideSpec, len(specs))
	for i, sp := range specs {
		sp.Attrs = keep(sp.Attrs, sideHas, otherSide)
		units := make([]runtime.UnitSpec, len(sp.Units))
		for j, u := range sp.Units {
			u.Attrs = keep(u.Attrs, unitHas, otherUnit)
			var statuses []string
			for _, st := range u.Statuses {
				if !slices.Contains(unitHas, st) && slices.Contains(otherUnit, st) {
					drop(st)
					continue
				}
				statuses = append(statuses, st)
			}
			u.Statuses = statuses
			units[j] = u
		}
		if sp.Units == nil {
			units = nil
		}
		sp.Units = units
		out[i] = sp
	}
	if len(dropped) > 0 {
		name := p.Name()
		if name == other.Name() {
			name = arg
		}
		slices.Sort(dropped)
		fmt.Fprintf(e.stderr, "%snote: %s does not declare %s, which only the other ruleset reads: %s plays without it\n",
			e.prefix(), name, wording.AndList(dropped), name)
	}
	return out
}

// sharedExample loads two rulesets to compare, with neither --sides nor
// --setup: both play the example sides of the first (or of the second,
// when the first has none), as a comparison of each with its own forces
// would measure the forces as much as the rules. A note says so when the
// other's own example differs, and how to compare over it instead.
func sharedExample(e *env, args []string, whose func(int)) ([]setup, bool) {
	setups := make([]setup, 2)
	for i, arg := range args {
		prog, rs, msg := loadProgram(e, arg)
		if prog == nil {
			if msg != "" {
				e.errorf("%s", msg)
			}
			whose(i)
			return nil, false
		}
		setups[i] = setup{prog: prog, rs: rs}
	}
	from := 0
	if len(setups[0].prog.Example()) == 0 && len(setups[1].prog.Example()) > 0 {
		from = 1
	}
	specs := setups[from].prog.Example()
	if len(specs) == 0 {
		e.errorf("neither %s nor %s has example sides; name the sides both play with --sides A,B or --setup FILE", args[0], args[1])
		return nil, false
	}
	for i := range setups {
		setups[i].specs, setups[i].from = specs, sidesFrom{src: setups[from].rs.src}
	}
	other := 1 - from
	if own := setups[other].prog.Example(); len(own) > 0 && !sameSides(own, specs) {
		msg := fmt.Sprintf("both rulesets play the example sides of %s (%s); %s's own example differs", args[from], sidesSummary(specs), args[other])
		switch {
		case !isBundled(args[other]) || looksLikePath(args[other]):
			msg += fmt.Sprintf(": to compare over it, add --setup %s", shellWord(args[other]))
		case plainSides(own):
			msg += fmt.Sprintf(": to compare over it, add --sides %s", shellWord(strings.Join(sidesNames(own), ",")))
		default:
			msg += ": to compare over other forces, name them with --setup FILE"
		}
		e.noteOnce(msg)
	}
	return setups, true
}

// sameSides reports whether a and b are the same sides, wherever each was
// written (a copied ruleset's example is the original's).
func sameSides(a, b []runtime.SideSpec) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// sidesSummary names sides and counts their units: "Jay (3 units), Rob".
func sidesSummary(specs []runtime.SideSpec) string {
	parts := make([]string, len(specs))
	for i, s := range specs {
		parts[i] = s.Name
		if len(s.Units) > 0 {
			parts[i] += " (" + plural(len(s.Units), "unit") + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// sidesNames lists the names of sides, in their order.
func sidesNames(specs []runtime.SideSpec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

// plainSides reports whether specs are sides --sides can name: no team,
// value or unit.
func plainSides(specs []runtime.SideSpec) bool {
	for _, s := range specs {
		if s.Team != "" || len(s.Attrs) > 0 || len(s.Units) > 0 || strings.Contains(s.Name, ",") {
			return false
		}
	}
	return true
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
		v := variant{name: p.Name(), label: p.Name(), draw: drawsFromBag(p)}
		for _, s := range specs {
			v.sides = append(v.sides, s.Name)
		}
		var err error
		if o.sim > 0 {
			bar := newProgress(e.stderr, o.sim)
			v.sim, err = p.Simulate(ctx, specs, runtime.SimOptions{Runs: o.sim, Rounds: o.rounds, Seed: o.seed,
				Decider: o.decider, Progress: bar.set})
			bar.done()
		} else {
			v.exact, err = p.Odds(ctx, specs, runtime.OddsOptions{Rounds: o.rounds, Decider: o.decider})
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
	if len(vs) == 2 && !slices.Equal(vs[0].sides, vs[1].sides) {
		e.errorf("%s plays %s, but %s plays %s: compare two rulesets over the same sides (--sides or --setup)",
			vs[0].name, strings.Join(vs[0].sides, ", "), vs[1].name, strings.Join(vs[1].sides, ", "))
		return exitError
	}
	labelVariants(vs, args)
	if o.svg != "" {
		if err := os.WriteFile(o.svg, []byte(chartSVG(vs, o.rounds)), 0o644); err != nil {
			e.errorf("--svg: %s", pathError(err))
			return exitError
		}
	}
	if o.json {
		*doc = oddsJSON(vs, o)
		return exitOK
	}
	for i, v := range vs {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		printVariant(e.stdout, v, o)
	}
	if len(vs) == 2 {
		printComparison(e.stdout, vs, o.rounds)
	}
	return exitOK
}

// nobody names an empty order or holder: a battle with nothing to order.
func nobody(s string) string {
	if s == "" {
		return "(nobody)"
	}
	return s
}

func pct(r *big.Rat) string {
	f, _ := r.Float64()
	return fmt.Sprintf("%6.2f%%", 100*f)
}

func printVariant(w io.Writer, v variant, o oddsOptions) {
	if v.sim != nil {
		fmt.Fprintf(w, "%s: %d simulated battles (seed %d), P(holds priority) with 95%% intervals\n", o.title(v), v.sim.Runs, o.seed)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "round\t%s\n", strings.Join(v.sides, "\t"))
		for r := 1; r <= o.rounds; r++ {
			cells := []string{fmt.Sprint(r)}
			for _, s := range v.sides {
				p, hw := v.sim.Estimate(r, s)
				cells = append(cells, fmt.Sprintf("%.4f ± %.4f", p, hw))
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		tw.Flush()
		drawNote(w, v)
		return
	}
	rep := v.exact
	fmt.Fprintf(w, "%s: exact odds over %d round%s, P(holds priority):\n", o.title(v), o.rounds, map[bool]string{true: "", false: "s"}[o.rounds == 1])
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "round\t%s\n", strings.Join(v.sides, "\t"))
	for _, r := range rep.Rounds {
		cells := []string{fmt.Sprint(r.Round)}
		for _, s := range v.sides {
			p := r.Holder[s]
			if p == nil {
				p = new(big.Rat)
			}
			cells = append(cells, fmt.Sprintf("%s %s", p.RatString(), pct(p)))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	drawNote(w, v)

	fmt.Fprintf(w, "\nExpected rounds holding priority (first-player advantage):\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range v.sides {
		e := rep.Expected[s]
		share := new(big.Rat).Quo(e, big.NewRat(int64(o.rounds), 1))
		n := e.RatString()
		if !e.IsInt() {
			// 3451/6541 of a round reads as a number only with one beside it.
			n += " (" + e.FloatString(2) + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s of %d round%s\t%s\n", s, n, o.rounds, map[bool]string{true: "", false: "s"}[o.rounds == 1], pct(share))
	}
	tw.Flush()

	fmt.Fprintf(w, "\nOrders in round 1:\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, pr := range rep.Rounds[0].Orders {
		if i == 10 {
			fmt.Fprintf(tw, "  ... %d more\n", len(rep.Rounds[0].Orders)-10)
			break
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", nobody(strings.Join(pr.Outcome, ", ")), pr.P.RatString(), pct(pr.P))
	}
	tw.Flush()

	if rep.Sequences != nil && o.rounds > 1 {
		fmt.Fprintf(w, "\nWho holds priority, round by round:\n")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for i, pr := range rep.Sequences {
			if i == 12 {
				fmt.Fprintf(tw, "  ... %d more\n", len(rep.Sequences)-12)
				break
			}
			holders := make([]string, len(pr.Outcome))
			for i, h := range pr.Outcome {
				holders[i] = nobody(h)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", strings.Join(holders, " → "), pr.P.RatString(), pct(pr.P))
		}
		tw.Flush()
	}
}

// printComparison shows how the second variant changes each side's chance
// of holding priority.
func printComparison(w io.Writer, vs []variant, rounds int) {
	fmt.Fprintf(w, "\n%s vs %s, P(holds priority):\n", vs[0].label, vs[1].label)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "round\tside\t%s\t%s\tchange\n", vs[0].label, vs[1].label)
	for r := 1; r <= rounds; r++ {
		for _, s := range vs[0].sides {
			a, b := probAt(vs[0], r, s), probAt(vs[1], r, s)
			fmt.Fprintf(tw, "%d\t%s\t%.4f\t%.4f\t%+.4f\n", r, s, a, b, b-a)
		}
	}
	tw.Flush()
	// A house rule can leave every round's odds as they were and still
	// change the battle (every tie rerolled: no more priority passed
	// back and forth); a table of zeros alone would say it changes nothing.
	if sameHolderOdds(vs, rounds) {
		if seqs := [2][]runtime.Prob{vs[0].exact.Sequences, vs[1].exact.Sequences}; rounds > 1 && seqs[0] != nil && seqs[1] != nil && !sameProbs(seqs[0], seqs[1]) {
			fmt.Fprintf(w, "\nEach side holds priority exactly as often, round by round, but who holds it from one round to the next changes: see \"Who holds priority, round by round\" above.\n")
		} else {
			fmt.Fprintf(w, "\nEach side holds priority exactly as often, round by round.\n")
		}
	}
}

// sameHolderOdds reports whether two exact reports give every side the
// same chance of holding priority in every round.
func sameHolderOdds(vs []variant, rounds int) bool {
	if vs[0].exact == nil || vs[1].exact == nil || !slices.Equal(vs[0].sides, vs[1].sides) {
		return false
	}
	for r := range rounds {
		a, b := vs[0].exact.Rounds[r].Holder, vs[1].exact.Rounds[r].Holder
		for _, s := range vs[0].sides {
			pa, pb := a[s], b[s]
			if (pa == nil || pa.Sign() == 0) != (pb == nil || pb.Sign() == 0) || pa != nil && pb != nil && pa.Cmp(pb) != 0 {
				return false
			}
		}
	}
	return true
}

// sameProbs reports whether two distributions are the same, outcome by
// outcome.
func sameProbs(a, b []runtime.Prob) bool {
	p := func(ps []runtime.Prob) map[string]*big.Rat {
		m := map[string]*big.Rat{}
		for _, pr := range ps {
			m[strings.Join(pr.Outcome, "\x00")] = pr.P
		}
		return m
	}
	ma, mb := p(a), p(b)
	if len(ma) != len(mb) {
		return false
	}
	for k, v := range ma {
		if w, ok := mb[k]; !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

func probAt(v variant, round int, side string) float64 {
	if v.sim != nil {
		p, _ := v.sim.Estimate(round, side)
		return p
	}
	if p := v.exact.Rounds[round-1].Holder[side]; p != nil {
		f, _ := p.Float64()
		return f
	}
	return 0
}

// The JSON document: fractions as strings, with a float beside each.
type (
	oddsDoc struct {
		Ruleset   string            `json:"ruleset"`
		Label     string            `json:"label"` // see labelVariants
		Sides     []string          `json:"sides"`
		Runs      int               `json:"runs,omitempty"`
		Seed      *uint64           `json:"seed,omitempty"`
		Rounds    []oddsRound       `json:"rounds"`
		Sequences []seqJSON         `json:"sequences,omitempty"`
		Expected  map[string]string `json:"expected_rounds_holding,omitempty"`
	}
	oddsRound struct {
		Round       int                   `json:"round"`
		Holder      map[string]string     `json:"holder,omitempty"`
		HolderFloat map[string]float64    `json:"holder_float"`
		CI95        map[string][2]float64 `json:"ci95,omitempty"`
		Order       []orderJSON           `json:"order,omitempty"`
	}
	orderJSON struct {
		Order []string `json:"order"`
		P     string   `json:"p"`
		F     float64  `json:"p_float"`
	}
	seqJSON struct {
		Holders []string `json:"holders"`
		P       string   `json:"p"`
		F       float64  `json:"p_float"`
	}
)

func toDoc(v variant, o oddsOptions) oddsDoc {
	d := oddsDoc{Ruleset: v.name, Label: v.label, Sides: v.sides}
	if v.sim != nil {
		d.Runs, d.Seed = v.sim.Runs, &o.seed
		for r := 1; r <= o.rounds; r++ {
			or := oddsRound{Round: r, HolderFloat: map[string]float64{}, CI95: map[string][2]float64{}}
			for _, s := range v.sides {
				p, _ := v.sim.Estimate(r, s)
				lo, hi := v.sim.Interval(r, s)
				or.HolderFloat[s] = p
				or.CI95[s] = [2]float64{lo, hi}
			}
			d.Rounds = append(d.Rounds, or)
		}
		return d
	}
	for _, r := range v.exact.Rounds {
		or := oddsRound{Round: r.Round, Holder: map[string]string{}, HolderFloat: map[string]float64{}}
		for _, s := range v.sides {
			p := r.Holder[s]
			if p == nil {
				p = new(big.Rat)
			}
			or.Holder[s] = p.RatString()
			or.HolderFloat[s], _ = p.Float64()
		}
		for _, pr := range r.Orders {
			f, _ := pr.P.Float64()
			or.Order = append(or.Order, orderJSON{Order: append([]string{}, pr.Outcome...), P: pr.P.RatString(), F: f})
		}
		d.Rounds = append(d.Rounds, or)
	}
	for _, pr := range v.exact.Sequences {
		f, _ := pr.P.Float64()
		d.Sequences = append(d.Sequences, seqJSON{Holders: pr.Outcome, P: pr.P.RatString(), F: f})
	}
	d.Expected = map[string]string{}
	for s, e := range v.exact.Expected {
		d.Expected[s] = e.RatString()
	}
	return d
}

// oddsTop is the document of odds --json: one ruleset's, or two under
// "compare", or, when odds fails, only the errors.
type oddsTop struct {
	*oddsDoc
	Compare []oddsDoc `json:"compare,omitempty"`
	ErrorsDoc
}

func oddsJSON(vs []variant, o oddsOptions) oddsTop {
	if len(vs) == 1 {
		d := toDoc(vs[0], o)
		return oddsTop{oddsDoc: &d}
	}
	docs := make([]oddsDoc, len(vs))
	for i, v := range vs {
		docs[i] = toDoc(v, o)
	}
	return oddsTop{Compare: docs}
}

// progress draws a bar on a terminal, and nothing elsewhere.
type progress struct {
	w     io.Writer
	total int
	on    bool
	last  int
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: total}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *progress) set(done int) {
	if !p.on {
		return
	}
	pctDone := done * 100 / p.total
	if pctDone == p.last {
		return
	}
	p.last = pctDone
	const width = 40
	n := pctDone * width / 100
	fmt.Fprintf(p.w, "\r[%s%s] %3d%% %d/%d", strings.Repeat("=", n), strings.Repeat(" ", width-n), pctDone, done, p.total)
}

func (p *progress) done() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// chartSVG draws P(holder) per round, one line per side (dashed for the
// second variant).
func chartSVG(vs []variant, rounds int) string {
	const w, h, left, right, top, bottom = 780, 400, 60, 200, 30, 50
	pw, ph := float64(w-left-right), float64(h-top-bottom)
	x := func(r int) float64 {
		if rounds == 1 {
			return left + pw/2
		}
		return left + pw*float64(r-1)/float64(rounds-1)
	}
	y := func(p float64) float64 { return top + ph*(1-p) }
	colors := []string{"#1b6ca8", "#d1495b", "#edae49", "#00798c", "#66a182", "#8d5a97", "#30343f", "#e4572e"}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", w, h)
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.label
	}
	fmt.Fprintf(&b, `<text x="%d" y="18" font-size="14">P(holds priority) by round: %s</text>`+"\n", left, xmlEscape(strings.Join(names, " vs ")))
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line x1="%d" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, left+pw, y(t), y(t))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%.0f%%</text>`+"\n", left-6, y(t)+4, t*100)
	}
	step := max(1, rounds/10)
	for r := 1; r <= rounds; r += step {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(r), h-bottom+18, r)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">round</text>`+"\n", left+pw/2, h-12)
	legend := 0
	for vi, v := range vs {
		sides := slices.Clone(v.sides)
		sort.Strings(sides)
		for si, s := range v.sides {
			color := colors[si%len(colors)]
			var pts []string
			for r := 1; r <= rounds; r++ {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(r), y(probAt(v, r, s))))
			}
			dash := ""
			if vi > 0 {
				dash = ` stroke-dasharray="6 4"`
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", color, dash, strings.Join(pts, " "))
			for _, pt := range pts {
				xy := strings.Split(pt, ",")
				fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3" fill="%s"/>`+"\n", xy[0], xy[1], color)
			}
			ly := top + 10 + 18*legend
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`+"\n", left+pw+12, left+pw+36, ly, ly, color, dash)
			label := s
			if len(vs) > 1 {
				label = s + " (" + v.label + ")"
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%d">%s</text>`+"\n", left+pw+42, ly+4, xmlEscape(label))
			legend++
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
