package main

// The transcript of a battle, as run prints it and play shows it: the
// header, each round's events and result, and a round that failed.

import (
	"fmt"
	"io"
	"strings"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/runtime"
)

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
	fmt.Fprintf(w, "  → %s\n", standing(res))
}

// keptStandings says, for each order that round did not make again (a
// `once` order, or an `until changed` one whose values have not changed),
// that it was kept: the round's transcript has no placement for it, and
// without this line the players would not know why.
func keptStandings(b *runtime.Battle, round int) []string {
	var sts []*runtime.Standing
	for _, name := range b.Program().Standings() {
		if st := b.Standing(name); st != nil {
			sts = append(sts, st)
		}
	}
	return keptOf(sts, round)
}

// keptOf is keptStandings for the standings of a battle after a round (a
// scenario's, which test -v prints).
func keptOf(sts []*runtime.Standing, round int) []string {
	var out []string
	for _, st := range sts {
		if st.Round >= round {
			continue
		}
		line := fmt.Sprintf("%s: kept from round %d", st.Name, st.Round)
		if st.Watched != nil {
			line += " (nothing it watches has changed)"
		}
		out = append(out, line)
	}
	return out
}

// printScenarioRounds prints what a scenario's rounds did, as run prints a
// battle's, indented under the scenario's result (test -v).
func printScenarioRounds(w io.Writer, rounds []conformance.PlayedRound) {
	var b strings.Builder
	for _, r := range rounds {
		if r.Stopped {
			printFailedRound(&b, r.Round, r.Events)
			continue
		}
		printRound(&b, r.RoundResult, keptOf(r.Standings, r.Round))
	}
	if b.Len() == 0 {
		return
	}
	for _, line := range strings.Split(strings.Trim(b.String(), "\n"), "\n") {
		if line != "" {
			line = "    " + line
		}
		fmt.Fprintln(w, line)
	}
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
