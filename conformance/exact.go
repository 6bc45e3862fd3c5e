package conformance

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/linediff"
	"github.com/turnorder/turnorder/runtime"
)

// `expect events exactly { ... }`: the round's events so far, every one of
// them (round_start and the hook points reached too), in order, each line
// naming exactly whom its event is about.

// expectEvents checks the round's events against the lines of e, and on
// a mismatch fails with the two lists as a diff. An event that meets its
// line is shown as the line is written; one that meets none, as a line
// that would meet it.
func (r *run) expectEvents(e *dsl.Expect) {
	lines := e.Events.Lines
	want := make([]string, len(lines))
	for i, l := range lines {
		want[i] = lineText(l.Event())
	}
	evs := r.b.Events()
	got := make([]string, len(evs))
	next := 0 // lines are met in order: the first that may meet the next event
	for j, ev := range evs {
		got[j] = eventLine(ev)
		for i := next; i < len(lines); i++ {
			if exactly(ev, lines[i].Event()) {
				got[j], next = want[i], i+1
				break
			}
		}
	}
	if slices.Equal(want, got) {
		return
	}
	w := sayEvents(want, got)
	r.res.Failures = append(r.res.Failures, Failure{Round: r.round, Field: "events", Pos: e.Pos(),
		Diff: strings.Join(w.list, "\n"), Want: emptyList(want), Got: emptyList(got), say: w})
}

// sayEvents words an unmet `expect events exactly` as a diff of the lines
// expected and the events the round had, line by line, as
// sayActivations does turns.
func sayEvents(want, got []string) *words {
	cut := func(n int) string { return fmt.Sprintf("  ... %d events as expected", n) }
	return &words{head: "events not as expected (- expected, + got):", list: linediff.Listing(want, got, diffContext, cut)}
}

// exactly reports whether ev is the event of line e: of its kind, with
// exactly the subjects e names, in order (see subjects), and with its
// numbers, its value and its by as `expect event` matches them. e may also
// name the event's standing, which says nothing of whom it is about.
func exactly(ev runtime.Event, e *dsl.EventExpect) bool {
	if string(ev.Kind) != string(e.Kind) || !placedBy(ev, e.Value) || (e.By != nil && ev.By != e.By.String()) {
		return false
	}
	want, nums := subjects(ev), eventNumbers(ev)
	var got []string
	for _, a := range names(e.Args) {
		if !slices.Contains(want, a) && (slices.Contains(nums, a) || a == ev.Standing) {
			continue
		}
		got = append(got, a)
	}
	return slices.Equal(got, want)
}

// subjects returns whom an event is about, in order, as a line of `expect
// events exactly` names them: a tie's, a reroll's or a kept event's group;
// a decision's answer (after the unit it was made for, when a side chose
// for one of its units); an award not's subjects it put first; the side
// that passes; no one for a round's start and end; else its subject.
func subjects(ev runtime.Event) []string {
	switch ev.Kind {
	case runtime.EvRoundStart, runtime.EvRoundEnd:
		return nil
	case runtime.EvTie, runtime.EvReroll, runtime.EvKept:
		return ev.Subjects
	case runtime.EvDecision:
		if ev.Subject != "" && ev.Subject != ev.By {
			return append([]string{ev.Subject}, ev.Choice...)
		}
		return ev.Choice
	case runtime.EvPass:
		return []string{ev.By}
	case runtime.EvAward:
		if before := awardedBefore(ev); before != nil {
			return before
		}
	}
	if ev.Subject == "" {
		return nil
	}
	return []string{ev.Subject}
}

// eventLine writes ev as a line of `expect events exactly` that it meets:
// its kind, its subjects, a roll's natural total or a placement's place,
// a placement's value, and its by where a line may name it.
func eventLine(ev runtime.Event) string {
	args := subjects(ev)
	switch {
	case ev.Kind == runtime.EvRoll && ev.Value != nil:
		args = append(args, strconv.Itoa(*ev.Value))
	case ev.Kind == runtime.EvPlacement && ev.Place > 0:
		args = append(args, strconv.Itoa(ev.Place))
	}
	l := &dsl.EventExpect{Kind: dsl.Name(ev.Kind)}
	for _, a := range args {
		l.Args = append(l.Args, dsl.Name(a))
	}
	if ev.Kind == runtime.EvPlacement && ev.Key != nil && ev.By == "" {
		l.Value = &dsl.EventValue{Number: strconv.FormatFloat(*ev.Key, 'f', -1, 64)}
	}
	if ev.By != "" && ev.Kind != runtime.EvPass && slices.Contains(byKinds, string(ev.Kind)) {
		l.By = &dsl.NameAt{Name: dsl.Name(ev.By)}
	}
	return lineText(l)
}

// lineText is an event expectation as a line of `expect events exactly`
// writes it: as fmt writes it after `expect event`.
func lineText(e *dsl.EventExpect) string {
	e = &dsl.EventExpect{Kind: e.Kind, Args: e.Args, Value: e.Value, By: e.By}
	return strings.TrimPrefix(dsl.FormatExpect(&dsl.Expect{Event: e}), "expect event ")
}
