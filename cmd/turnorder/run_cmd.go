package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// maxRounds bounds --rounds, so that a typo cannot run for hours.
const maxRounds = 10000

func runCommand() *command {
	c := &command{
		name:  "run",
		args:  "RULESET [--sides A,B,...] [--setup FILE] [--seed N] [--rounds N] [--json] [--policy KIND=POLICY]...",
		short: "play rounds of a ruleset with seeded dice and print the transcript",
		long: `
Run plays a battle with a ruleset and prints what happened in each round:
every roll, tie, reroll, award, decision and placement, each with the rule
that caused it, then the round's order, who holds priority and who chose.
An order the round did not make again (a once order, or an until changed
order whose values have not changed) is said to be kept from its round.

RULESET is a bundled ruleset (see turnorder list) or the path of a .rules
file; if the file holds several rulesets, the first is played. Its
warnings are printed to standard error, as check prints them.

The sides are the ruleset's own example sides unless --sides or --setup
names others. --sides names plain sides, with no units or attributes
(an empty name, or none, is an error: leave --sides out for the example).
--setup reads sides, teams and units from a .rules file: either bare side
statements,

    side Jay
    side Rob { unit Aragorn; unit Legolas }

or, failing those, the sides of a scenario (scenario "setup" { side Jay
... }) or of a ruleset's example block: the first in the file, which a
note names when there are others. With both flags, --sides picks and
orders sides from the setup file, from the first block (bare sides, a
scenario, an example) that has all it names: in a house rule's file,
--sides with a scenario's sides plays that scenario's sides.

Dice are seeded (math/rand/v2 PCG): the same seed always gives the same
battle. Every decision follows the ruleset's declared policies, unless
--policy KIND=POLICY answers one kind otherwise, as for odds:
first=self|other|keep, before_after=before|after, order=keep|reverse,
activate=first|last (repeat it for several kinds). A kind the ruleset
never asks for is warned about, as it changes nothing.

With --json, run prints one JSON document instead of the transcript; its
shape is described in docs/json.md and is kept stable. When run fails, the
document still comes, with the rounds played, the events of the round that
failed up to the error (failed_round), and the errors (file, line, column
and message).

Bad input (an unknown ruleset, a missing file, a bad flag value, an unknown
side or attribute in the setup) is reported in one message, and the exit
status is 1.`,
		example: `
turnorder run mesbg
turnorder run mesbg --seed 7 --rounds 5 --json
turnorder run necromunda --sides Goliaths,Eschers,Cawdor
turnorder run morturi --setup my-schools.rules --rounds 1
turnorder run ./house-rules.rules --seed 42`,
		flags: newFlags("run"),
	}
	fs := c.flags
	sides, setup := sideFlags(fs)
	seed := uint64(1)
	rounds := 3
	fs.Var(&uintFlag{&seed}, "seed", "seed the dice with `N` (the same seed gives the same battle)")
	fs.Var(&intFlag{&rounds}, "rounds", fmt.Sprintf("play `N` rounds, from 1 to %d", maxRounds))
	asJSON := fs.Bool("json", false, "print one JSON document (see docs/json.md) instead of the transcript")
	var policies listFlag
	fs.Var(&policies, "policy", "answer one kind of decision by `KIND=POLICY` (first=other) instead of the ruleset's policy; repeat it for several kinds")
	c.run = func(e *env, args []string) int {
		if !rulesetArgs(e, args, 1) {
			return exitUsage
		}
		doc := &runDoc{Seed: seed, Rounds: []*runtime.RoundResult{}}
		status := func() int {
			if rounds < 1 || rounds > maxRounds {
				e.errorf("--rounds must be between 1 and %d (got %d)", maxRounds, rounds)
				return exitError
			}
			dec, msg := parsePolicies(policies)
			if msg != "" {
				e.errorf("%s", msg)
				return exitError
			}
			o := runOptions{ruleset: args[0], sides: *sides, setup: *setup, seed: seed, rounds: rounds, json: *asJSON, decider: dec}
			return runBattle(e, o, doc)
		}()
		if !*asJSON {
			return status
		}
		// However the battle went, a program reading the document gets
		// one, with the rounds played and the errors that stopped it.
		doc.ErrorsDoc = errorsJSON(e.errs)
		return e.finishJSON(doc, status)
	}
	return c
}

type runOptions struct {
	ruleset, sides, setup string
	seed                  uint64
	rounds                int
	json                  bool
	decider               runtime.Decider // the ruleset's policies, perhaps overridden
}

// source is a .rules file's name and text, kept to render diagnostics.
type source struct {
	filename string
	src      []byte
}

// setup is a ruleset with the sides of a battle, ready to play.
type setup struct {
	prog  *runtime.Program
	rs    source
	specs []runtime.SideSpec
	from  sidesFrom
}

// loadSetup loads the ruleset arg and the battle's sides, reporting any
// problem itself; ok is false then.
func loadSetup(e *env, arg string, o runOptions) (s setup, ok bool) {
	var msg string
	s.prog, s.rs, msg = loadProgram(e, arg)
	if s.prog != nil {
		s.specs, s.from, msg = battleSides(e, s.prog, s.rs, o)
		if s.specs != nil {
			return s, true
		}
	}
	if msg != "" {
		e.errorf("%s", msg)
	}
	return s, false
}

// battle starts the battle, reporting a bad setup itself.
func (s setup) battle(e *env, opts ...runtime.BattleOption) (*runtime.Battle, bool) {
	b, err := s.prog.NewBattle(s.specs, opts...)
	if err != nil {
		s.report(e, err)
		return nil, false
	}
	return b, true
}

// report prints an error from setting up or playing the battle the way a
// compiler would: diagnostics about the sides, and an error a rule caused,
// each with its source line and a caret. Any other error is one line.
func (s setup) report(e *env, err error) {
	if ds, ok := asDiags(err); ok {
		e.report(ds, s.from.src)
		return
	}
	if d, ok := ruleDiag(err); ok {
		e.report(dsl.Diagnostics{d}, s.rs.src)
		return
	}
	e.errorf("%v", err)
}

// runBattle plays the battle, printing the transcript or, with --json,
// filling in doc for the caller to print.
func runBattle(e *env, o runOptions, doc *runDoc) int {
	s, ok := loadSetup(e, o.ruleset, o)
	if !ok {
		return exitError
	}
	prog := s.prog
	doc.Ruleset = prog.Name()
	warnUnusedPolicies(e, prog, o.decider)
	b, ok := s.battle(e, runtime.WithDice(runtime.NewSeededDice(o.seed)), runtime.WithDecider(o.decider))
	if !ok {
		return exitError
	}

	ctx := context.Background()
	if !o.json {
		printHeader(e.stdout, prog, b)
		fmt.Fprintf(e.stdout, "seed: %d\n", o.seed)
	}
	for range o.rounds {
		res, err := b.PlayRound(ctx)
		if err != nil {
			// The transcript, and the document's failed_round, show
			// what the failing round did up to the error, so the
			// players (or a program) see what led to it.
			if o.json {
				doc.FailedRound = &failedRoundDoc{Round: b.Round(), Events: append([]runtime.Event{}, b.Events()...)}
			} else {
				printFailedRound(e.stdout, b.Round(), b.Events())
			}
			s.report(e, runtime.InRound(b.Round(), err))
			return exitError
		}
		if o.json {
			doc.Rounds = append(doc.Rounds, res)
		} else {
			printRound(e.stdout, res, keptStandings(b, res.Round))
		}
	}
	return exitOK
}

// loadProgram compiles the first ruleset of a file, or a bundled ruleset,
// and prints its warnings. On failure it returns a nil program and either a one-line message or ""
// when it has already printed the diagnostics.
func loadProgram(e *env, arg string) (*runtime.Program, source, string) {
	var rs source
	info, statErr := os.Stat(arg)
	switch {
	case statErr == nil && info.IsDir():
		return nil, rs, fmt.Sprintf("%s is a directory; name a .rules file or a bundled ruleset (%s)", arg, bundledList())
	case statErr == nil:
		src, err := os.ReadFile(arg)
		if err != nil {
			return nil, rs, pathError(err)
		}
		rs = source{arg, src}
	case isBundled(arg):
		filename, src, err := rulesets.Source(arg)
		if err != nil {
			return nil, rs, err.Error()
		}
		rs = source{filename, src}
	case looksLikePath(arg):
		return nil, rs, pathError(statErr)
	default:
		return nil, rs, fmt.Sprintf("unknown ruleset %q%s: the bundled rulesets are %s (or give the path of a .rules file)", arg, didYouMean(arg), bundledList())
	}

	f, diags := dsl.Parse(rs.filename, rs.src)
	if diags.HasErrors() || f == nil {
		e.report(diags, rs.src)
		return nil, rs, ""
	}
	all := f.Rulesets()
	if len(all) == 0 {
		return nil, rs, fmt.Sprintf("%s has no ruleset (only scenarios)", rs.filename)
	}
	p, err := runtime.CompileRuleset(f, all[0])
	if err != nil {
		if ds, ok := asDiags(err); ok {
			e.report(ds, rs.src)
			return nil, rs, ""
		}
		return nil, rs, err.Error()
	}
	// Warnings (a tie chain that can end still tied, say) matter as much
	// when the ruleset is played as when it is checked; stdout is left to
	// the transcript or the JSON.
	writeDiags(e.stderr, p.Warnings(), rs.src, e.prefix())
	return p, rs, ""
}

func looksLikePath(s string) bool {
	return strings.ContainsAny(s, `/\`) || strings.HasSuffix(s, ".rules")
}

// sidesFrom says where the battle's sides were written, to render
// NewBattle's diagnostics against the right file.
type sidesFrom struct {
	src []byte
}

// battleSides returns the sides for the battle: the ruleset's example,
// --sides, --setup, or sides picked from --setup by --sides. On failure it
// returns nil and a message, or "" when it has printed diagnostics.
func battleSides(e *env, p *runtime.Program, rs source, o runOptions) ([]runtime.SideSpec, sidesFrom, string) {
	var names []string
	if o.sides != "" {
		for _, n := range strings.Split(o.sides, ",") {
			n = strings.TrimSpace(n)
			if n == "" {
				return nil, sidesFrom{}, fmt.Sprintf("--sides %q has an empty name; write names separated by commas, as in --sides Jay,Rob", o.sides)
			}
			names = append(names, n)
		}
	}
	if o.setup == "" {
		if names != nil && p.OrdersUnits() {
			msg := fmt.Sprintf("ruleset %s orders units, and --sides names sides without any: give them units with --setup FILE (sides written as `side A { unit a1 }`)", p.Name())
			if len(p.Example()) > 0 {
				msg += ", or leave out --sides to play its example"
			}
			return nil, sidesFrom{}, msg
		}
		if names != nil {
			return runtime.Sides(names...), sidesFrom{}, ""
		}
		if len(p.Example()) == 0 {
			return nil, sidesFrom{}, fmt.Sprintf("ruleset %s has no example sides; name some with --sides A,B or --setup FILE", p.Name())
		}
		return p.Example(), sidesFrom{src: rs.src}, ""
	}

	blocks, from, msg := readSetup(e, o.setup)
	if blocks == nil {
		return nil, from, msg
	}
	if names == nil {
		noteSetupBlocks(e, o.setup, blocks)
		return blocks[0].specs, from, ""
	}
	// --sides picks and orders sides of the first block that has them
	// all: the example's, or a scenario's.
	for _, b := range blocks {
		if picked := b.pick(names); picked != nil {
			return picked, from, ""
		}
	}
	for _, n := range names {
		if !slices.ContainsFunc(blocks, func(b setupBlock) bool { return b.pick([]string{n}) != nil }) {
			have := make([]string, len(blocks))
			for i, b := range blocks {
				have[i] = strings.Join(b.names(), ", ")
				if len(blocks) > 1 {
					have[i] += " (" + b.what + ")"
				}
			}
			return nil, from, fmt.Sprintf("unknown side %q: --setup %s has the sides %s", n, o.setup, strings.Join(have, "; "))
		}
	}
	whats := make([]string, len(blocks))
	for i, b := range blocks {
		whats[i] = b.what
	}
	return nil, from, fmt.Sprintf("no block of sides in --setup %s has all of %s: each of %s is a battle of its own", o.setup, strings.Join(names, ", "), wording.AndList(whats))
}

// noteSetupBlocks says which block of sides a --setup file gave, when it
// has others: a house rule's file has its example and its scenarios, and
// nothing else would say which sides were read, nor how to play the
// others. A file whose blocks are all the same sides needs no note.
func noteSetupBlocks(e *env, path string, blocks []setupBlock) {
	if len(blocks) < 2 {
		return
	}
	b := blocks[0]
	msg := fmt.Sprintf("--setup %s: the sides are those of %s (%s:%d), the first in the file", path, b.what, path, b.pos.Line)
	if b.bare {
		msg = fmt.Sprintf("--setup %s: the sides are those of %s (%s:%d)", path, b.what, path, b.pos.Line)
	}
	var pickable, named *setupBlock // another block --sides can pick; one it cannot
	for i := range blocks[1:] {
		other := &blocks[1+i]
		first := slices.IndexFunc(blocks, func(b setupBlock) bool { return b.pick(other.names()) != nil })
		switch {
		case first == 1+i:
			pickable = cmp.Or(pickable, other)
		case !sameSides(b.specs, other.specs):
			named = cmp.Or(named, other)
		}
	}
	switch {
	case pickable != nil:
		// Quoted for the shell, as play's resume command is: a name
		// may hold a space, a quote or a $.
		arg := shellWord(strings.Join(pickable.names(), ","))
		e.noteOnce(fmt.Sprintf("%s; to play the sides of %s instead, name them: --sides %s", msg, pickable.what, arg))
	case named != nil:
		e.noteOnce(fmt.Sprintf("%s; %s has other sides of the same names, which --sides cannot pick: to play them, copy its `side` statements into a file of their own", msg, named.what))
	}
}

// setupBlock is a block of sides in a --setup file: its bare `side`
// statements, a scenario's, or a ruleset's example.
type setupBlock struct {
	what  string // `scenario "Five gangs"`, `the example of ruleset house`
	pos   dsl.Pos
	specs []runtime.SideSpec
	bare  bool // the file's top-level sides, first whatever their place
}

func (b setupBlock) names() []string { return sidesNames(b.specs) }

// pick returns the sides named, in that order, or nil if one is missing.
func (b setupBlock) pick(names []string) []runtime.SideSpec {
	var picked []runtime.SideSpec
	for _, n := range names {
		i := slices.IndexFunc(b.specs, func(s runtime.SideSpec) bool { return s.Name == n })
		if i < 0 {
			return nil
		}
		picked = append(picked, b.specs[i])
	}
	return picked
}

// readSetup reads the blocks of sides of a --setup file: its top-level
// `side` statements, if any, then each scenario and ruleset example that
// has some, in the order of the file.
func readSetup(e *env, path string) ([]setupBlock, sidesFrom, string) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, sidesFrom{}, "--setup: " + pathError(err)
	}
	from := sidesFrom{src: src}
	f, diags := dsl.Parse(path, src)
	if diags.HasErrors() || f == nil {
		e.report(diags, src)
		return nil, from, ""
	}
	var bare []dsl.SetupStmt
	var blocks []setupBlock
	for _, d := range f.Decls {
		if s, ok := d.(*dsl.SideSetup); ok {
			bare = append(bare, s)
		}
	}
	if len(bare) > 0 {
		// The file's own sides come first, wherever they are written;
		// its scenarios and examples stay there for --sides to pick.
		blocks = append(blocks, setupBlock{what: "the `side` statements outside any block", pos: bare[0].(*dsl.SideSetup).Pos(), specs: runtime.SetupFromDSL(bare), bare: true})
	}
	for _, d := range f.Decls {
		switch x := d.(type) {
		case *dsl.Scenario:
			var sides []dsl.SetupStmt
			for _, st := range x.Body {
				if s, ok := st.(*dsl.SideSetup); ok {
					sides = append(sides, s)
				}
			}
			if len(sides) > 0 {
				blocks = append(blocks, setupBlock{what: fmt.Sprintf("scenario %q", string(x.Title)), pos: x.Pos(), specs: runtime.SetupFromDSL(sides)})
			}
		case *dsl.Ruleset:
			for _, st := range x.Body {
				if ex, ok := st.(*dsl.ExampleStmt); ok && len(ex.Setup) > 0 {
					blocks = append(blocks, setupBlock{what: "the example of ruleset " + string(x.Name), pos: ex.Pos(), specs: runtime.SetupFromDSL(ex.Setup)})
				}
			}
		}
	}
	if len(blocks) == 0 {
		return nil, from, fmt.Sprintf("--setup %s names no sides: write `side NAME` statements, one a line", path)
	}
	return blocks, from, ""
}

// printHeader names the ruleset and the battle's sides, as run and play
// begin.
func printHeader(w io.Writer, p *runtime.Program, b *runtime.Battle) {
	title := p.Name()
	if p.Title() != "" {
		title += ": " + p.Title()
	}
	fmt.Fprintln(w, title)
	parts := make([]string, len(b.Sides()))
	for i, s := range b.Sides() {
		var about []string
		if s.Team != "" {
			about = append(about, "team "+s.Team)
		}
		if len(s.Units) > 0 {
			about = append(about, plural(len(s.Units), "unit"))
		}
		parts[i] = s.Name
		if len(about) > 0 {
			parts[i] += " (" + strings.Join(about, ", ") + ")"
		}
	}
	fmt.Fprintf(w, "sides: %s\n", strings.Join(parts, ", "))
}

// printRound prints a round: the orders it kept (see keptStandings),
// its transcript, and what it settled.
func printRound(w io.Writer, res *runtime.RoundResult, kept []string) {
	fmt.Fprintf(w, "\nRound %d\n", res.Round)
	for _, line := range kept {
		fmt.Fprintf(w, "  %s\n", line)
	}
	printEvents(w, res.Events, func(i int) bool {
		ev := res.Events[i]
		// The header says the round's start and end; the activation or
		// pass after a side's choice of it says the choice.
		return ev.Kind == runtime.EvRoundStart || ev.Kind == runtime.EvRoundEnd || activationChoice(ev, res.Events[i+1:])
	})
	chooser := res.Chooser
	if chooser == "" {
		chooser = "none"
	}
	fmt.Fprintf(w, "  → order: %s   holder: %s   chooser: %s\n", strings.Join(res.Order, ", "), res.Holder, chooser)
}

// keptStandings says, for each order that round did not make again (a
// `once` order, or an `until changed` one whose values have not changed),
// that it was kept: the round's transcript has no placement for it, and
// without this line the players would not know why.
func keptStandings(b *runtime.Battle, round int) []string {
	var out []string
	for _, name := range b.Program().Standings() {
		st := b.Standing(name)
		if st == nil || st.Round >= round {
			continue
		}
		line := fmt.Sprintf("%s: kept from round %d", name, st.Round)
		if st.Watched != nil {
			line += " (nothing it watches has changed)"
		}
		out = append(out, line)
	}
	return out
}

// printFailedRound prints the events of a round that failed, up to the
// failure, and says that it stopped there; a round that failed before
// anything happened in it is not printed, the error says its number.
func printFailedRound(w io.Writer, round int, evs []runtime.Event) {
	skip := func(i int) bool {
		return evs[i].Kind == runtime.EvRoundStart || activationChoice(evs[i], evs[i+1:])
	}
	shown := false
	for i := range evs {
		shown = shown || !skip(i)
	}
	if !shown {
		return
	}
	fmt.Fprintf(w, "\nRound %d\n", round)
	// A round stopped by a limit (a thousand rerolls) would print
	// thousands of lines above its error: its start and its end say how it
	// went.
	const head, tail = 20, 12
	if len(evs) > head+tail+1 {
		printEvents(w, evs[:head], skip)
		fmt.Fprintf(w, "  … %d events left out …\n", len(evs)-head-tail)
		rest := evs[len(evs)-tail:]
		printEvents(w, rest, func(i int) bool { return skip(len(evs) - tail + i) })
	} else {
		printEvents(w, evs, skip)
	}
	fmt.Fprintf(w, "  → the round stopped with an error (see below)\n")
}

// printEvents prints events as a transcript, a line each but for a run of
// Ready markers, which is one line (a gang of a dozen models readies in
// one step); skip says which events not to print, besides the named hook
// points reached (see bareHook).
func printEvents(w io.Writer, evs []runtime.Event, skip func(i int) bool) {
	var ready []string
	flushReady := func() {
		if len(ready) > 0 {
			fmt.Fprintf(w, "  Ready: %s\n", strings.Join(ready, ", "))
			ready = nil
		}
	}
	for i, ev := range evs {
		switch {
		case skip(i) || bareHook(ev):
			continue
		case ev.Kind == runtime.EvReady:
			ready = append(ready, ev.Subject)
			continue
		}
		flushReady()
		fmt.Fprintf(w, "  %s\n", ev)
	}
	flushReady()
}

// bareHook reports whether ev only says that the round reached a named
// hook point (`hook start`): a place where special rules may plug in,
// which says nothing in a transcript unless a rule ran there, and that
// rule's own event (`on hook start`, with its position) says it.
func bareHook(ev runtime.Event) bool {
	return ev.Kind == runtime.EvHook && ev.Pos == ""
}

// activationChoice reports whether ev is a side's choice of the unit to
// activate (or to pass) that the next event, its activation or pass,
// already says.
func activationChoice(ev runtime.Event, rest []runtime.Event) bool {
	if ev.Kind != runtime.EvDecision || runtime.DecisionKind(ev.Detail) != runtime.ChooseActivation || len(rest) == 0 {
		return false
	}
	next := rest[0]
	return (next.Kind == runtime.EvActivate || next.Kind == runtime.EvPass) && next.By == ev.By
}
