package conformance

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// Checking a scenario's expectations against what the round did.

// check fails the expectation at pos unless want and got are equal; say
// words it, for Message.
func (r *run) check(field string, pos dsl.Pos, want, got any, say func() *words) {
	// No names is an empty list, which a diff shows as one ("+ nil" reads
	// as if something went wrong).
	if diff := cmp.Diff(emptyList(want), emptyList(got)); diff != "" {
		// go-cmp writes some of its spaces as non-breaking spaces, at
		// random, so that nobody relies on its output; a diff printed for
		// a reader (and compared by a CI system) is plain text.
		diff = strings.ReplaceAll(diff, "\u00a0", " ")
		r.res.Failures = append(r.res.Failures, Failure{Round: r.round, Field: field, Pos: pos, Diff: diff,
			Want: orNobody(want), Got: orNobody(got), say: say()})
	}
}

// quoted returns names as a .rules file writes them.
func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = dsl.FormatName(dsl.Name(n))
	}
	return out
}

// quotedOne is quoted for one name, or "" for nobody.
// quotedOne returns a name as a .rules file writes it, and "" (nobody)
// as it is.
func quotedOne(name string) string {
	if name == "" {
		return ""
	}
	return dsl.FormatName(dsl.Name(name))
}

// emptyList is v, or an empty list for a nil one.
func emptyList(v any) any {
	if l, ok := v.([]string); ok && l == nil {
		return []string{}
	}
	return v
}

// orNobody is v, or nil for the empty name (nobody), or an empty list
// for no names.
func orNobody(v any) any {
	switch v := v.(type) {
	case string:
		if v == "" {
			return nil
		}
	case []string:
		if v == nil {
			return []string{}
		}
	}
	return v
}

func (r *run) expect(ctx context.Context, e *dsl.Expect) bool {
	if e.Error != nil {
		return r.expectError(e)
	}
	if !r.start(ctx, e.Pos()) {
		return false
	}
	switch {
	case e.Order != nil:
		want, got := names(dsl.Names(e.Order)), r.b.Order()
		r.check("order", e.Pos(), want, got, func() *words { return sayList("order", quoted(want), quoted(got)) })
	case e.Standing != nil:
		var got []string
		if st := r.b.Standing(string(e.Standing.Name)); st != nil {
			got = st.Order
		}
		field, want := "standing "+string(e.Standing.Name), names(dsl.Names(e.Standing.Order))
		r.check(field, e.Pos(), want, got, func() *words { return sayList(field, quoted(want), quoted(got)) })
	case e.Holder != nil:
		want, got := e.Holder.String(), r.b.Holder()
		if want == "none" {
			want = "" // a ruleset that orders no sides
		}
		r.check("holder", e.Pos(), want, got, func() *words { return sayOne("holder", quotedOne(want), quotedOne(got)) })
	case e.Chooser != nil:
		want, got := e.Chooser.String(), r.b.Chooser()
		if want == "none" {
			want = ""
		}
		r.check("chooser", e.Pos(), want, got, func() *words { return sayOne("chooser", quotedOne(want), quotedOne(got)) })
	case e.Activations != nil:
		if !r.finish(ctx, e.Pos()) {
			return false
		}
		var want, got, wantText, gotText []string
		for _, a := range e.Activations {
			if !noActivations(e.Activations) {
				want = append(want, activationText(a.Pass, string(a.Name)))
				wantText = append(wantText, activationText(a.Pass, dsl.FormatName(a.Name)))
			}
		}
		field := "activations"
		if e.ActivationsIn != nil {
			field += " in " + e.ActivationsIn.String()
		}
		for _, a := range r.b.Activations() {
			if in := e.ActivationsIn; in != nil && a.Phase != in.String() && a.Step != in.String() {
				continue
			}
			if a.Pass {
				got = append(got, activationText(true, a.Side))
				gotText = append(gotText, activationText(true, quotedOne(a.Side)))
			} else {
				got = append(got, activationText(false, a.Unit))
				gotText = append(gotText, activationText(false, quotedOne(a.Unit)))
			}
		}
		r.check(field, e.Pos(), want, got, func() *words { return sayActivations(field, wantText, gotText) })
	case e.Ready != nil:
		want := names(dsl.Names(e.Ready.Units))
		if slices.Equal(want, []string{"none"}) {
			want = nil
		}
		got := r.b.ReadyUnits()
		slices.Sort(want)
		slices.Sort(got)
		r.check("ready", e.Pos(), want, got, func() *words { return sayReady(quoted(want), quoted(got)) })
	case e.Events != nil:
		r.expectEvents(e)
	case e.Event != nil:
		r.expectEvent(e.Event)
	}
	return true
}

// expectError arms `expect error`: the round must fail, from here on, with
// a matching error, and the scenario ends with that round.
func (r *run) expectError(e *dsl.Expect) bool {
	r.wantErr, r.errRE = e, regexp.MustCompile(string(*e.Error)) // prepare checked it
	return true
}

func activationText(pass bool, name string) string {
	if pass {
		return "pass " + name
	}
	return name
}

func (r *run) expectEvent(e *dsl.EventExpect) {
	args := names(e.Args)
	var seen, matched []string
	for _, ev := range r.b.Events() {
		if string(ev.Kind) != string(e.Kind) {
			continue
		}
		seen = append(seen, ev.String())
		if eventHas(ev, args) && placedBy(ev, e.Value) && (e.By == nil || ev.By == e.By.String()) {
			matched = append(matched, ev.String())
		}
	}
	found := len(matched) > 0
	want := strings.TrimSpace(string(e.Kind) + " " + strings.Join(args, " "))
	if e.Value != nil {
		want += " = " + e.Value.Number
	}
	if e.By != nil {
		want += " by " + e.By.String()
	}
	// The event as the file writes it, after `event`.
	written := dsl.FormatExpect(&dsl.Expect{Event: &dsl.EventExpect{Kind: e.Kind, Args: e.Args, Value: e.Value, By: e.By}})
	written = strings.TrimPrefix(written, "expect event ")
	switch {
	case e.No && found:
		r.res.Failures = append(r.res.Failures, Failure{Round: r.round, Field: "event", Pos: e.Pos(),
			Diff: fmt.Sprintf("want no event %s, but the round has:\n  %s", want, strings.Join(matched, "\n  ")),
			Want: "no " + want, Got: matched, say: sayEvent(written, true, string(e.Kind), matched)})
	case !e.No && !found:
		got := " none"
		if len(seen) > 0 {
			got = "\n  " + strings.Join(seen, "\n  ")
		}
		if seen == nil {
			seen = []string{}
		}
		r.res.Failures = append(r.res.Failures, Failure{Round: r.round, Field: "event", Pos: e.Pos(),
			Diff: fmt.Sprintf("want an event %s; the round's %s events:%s", want, e.Kind, got),
			Want: want, Got: seen, say: sayEvent(written, false, string(e.Kind), seen)})
	}
}

// eventHas reports whether every arg names something in the event. An
// event's group (Subjects) and its By count only when they are what the
// event is about, as the tied subjects of a tie, those rolling again, or
// the side that passes: when the event has a subject or a choice, the
// group is only who could have been concerned (a decision's options, a
// random pick's candidates, the tied group an award settles) and By who
// decided or owns it, which `by NAME` asks for. So `expect event decision
// Rob by Jay` says that Jay chose Rob, not that Rob was an option, and
// `expect event placement Rob 1` is not met by Jay's first place that Rob
// chose.
func eventHas(ev runtime.Event, args []string) bool {
	have := []string{ev.Subject, ev.Standing}
	have = append(have, awardedBefore(ev)...)
	if ev.Subject == "" && len(ev.Choice) == 0 {
		have = append(have, ev.By)
		have = append(have, ev.Subjects...)
	}
	have = append(have, ev.Choice...)
	have = append(have, eventNumbers(ev)...)
	if ev.Face != "" { // a face rolled or a card drawn, and the die or deck
		have = append(have, ev.Face, ev.From)
	} else if ev.From != "" {
		have = append(have, ev.From)
	}
	for _, a := range args {
		if !slices.Contains(have, a) {
			return false
		}
	}
	return true
}

// eventNumbers returns the numbers an event holds, as an expectation
// writes them: a roll's natural total and its total, a placement's place
// (`priority #1: Jay`).
func eventNumbers(ev runtime.Event) []string {
	var out []string
	if ev.Value != nil {
		out = append(out, strconv.Itoa(*ev.Value))
	}
	if ev.Total != nil {
		out = append(out, strconv.Itoa(*ev.Total))
	}
	if ev.Place > 0 {
		out = append(out, strconv.Itoa(ev.Place))
	}
	return out
}

// awardedBefore returns, for an `award not` of three or more, all those
// it put before the one it names: its line says "B and C go before A",
// and `expect event award C` must match it as `expect event award B`
// does (the event's subject is only the first of them). The one named is
// the tied subject the line ends with.
func awardedBefore(ev runtime.Event) []string {
	if ev.Kind != runtime.EvAward || !strings.HasPrefix(ev.Rule, "award not ") {
		return nil
	}
	for _, last := range ev.Subjects {
		if strings.HasSuffix(ev.Detail, " before "+last) {
			return slices.DeleteFunc(slices.Clone(ev.Subjects), func(s string) bool { return s == last })
		}
	}
	return nil
}

// placedBy reports whether the event was placed by the value of `= V`
// (or there is none to check): a placement's Key, which the transcript
// writes in as few digits as tell it apart, so the number written as it
// shows (`= 6`, `= 2.5`) is the very same float.
func placedBy(ev runtime.Event, v *dsl.EventValue) bool {
	if v == nil {
		return true
	}
	want, err := strconv.ParseFloat(v.Number, 64)
	return err == nil && ev.Key != nil && *ev.Key == want
}
