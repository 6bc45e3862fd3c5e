package runtime

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
)

// DecisionKind says what kind of answer a decision wants.
type DecisionKind string

const (
	// ChooseFirst: pick the option that goes first (who has priority).
	ChooseFirst DecisionKind = "first"
	// ChooseBeforeAfter: answer "before" or "after" the others.
	ChooseBeforeAfter DecisionKind = "before_after"
	// ChooseOrder: arrange all the options.
	ChooseOrder DecisionKind = "order"
	// ChooseActivation: pick a ready unit to activate, or "pass" when
	// passing is allowed.
	ChooseActivation DecisionKind = "activate"
)

// Decision is a point where a player chooses.
//
// As JSON, for a server that asks its players over the network, a
// decision has the keys below, with pos as "file:line:col" as in an
// Event.
type Decision struct {
	Kind    DecisionKind `json:"kind"`
	By      string       `json:"by"`             // the side or team deciding
	Options []string     `json:"options"`        // the subjects, units, "before"/"after", or the answers to a decide statement
	Default []string     `json:"default"`        // the ruleset's declared policy's answer
	Self    string       `json:"self,omitempty"` // the subject the decider speaks for (the roll's winner), if any
	// Others, for ChooseBeforeAfter, are the subjects Self goes before or
	// after, in their order: for a host to say before whom.
	Others   []string `json:"others,omitempty"`
	Round    int      `json:"round"`
	Standing string   `json:"standing,omitempty"`
	Pos      dsl.Pos  `json:"-"` // as "pos": see marshalAt
	// PassWhen, for ChooseActivation, is the ruleset's condition on
	// passing (`pass allowed when ...`) when it is false for By, which
	// therefore may not pass: for a host to say why "pass" is not an
	// option.
	PassWhen string `json:"pass_when,omitempty"`
	// Drawn, for ChooseActivation, says that By was drawn from the bag
	// of `activation draw`, and so may not pass: for a host to say so.
	Drawn bool `json:"drawn,omitempty"`
	// Phase and Step, for ChooseActivation, name the phase (and step)
	// whose activation loop the turn is in: "" in the ruleset's own.
	Phase string `json:"phase,omitempty"`
	Step  string `json:"step,omitempty"`
	// Name is the decision of a `decide` statement (ChooseYesNo,
	// ChooseNumber, ChooseOption); Min and Max the range of a number;
	// Secret says that each side answers without seeing the others'
	// answers, which are revealed once all have answered (none is in
	// the Decision).
	Name   string `json:"name,omitempty"`
	Min    *int   `json:"min,omitempty"`
	Max    *int   `json:"max,omitempty"`
	Secret bool   `json:"secret,omitempty"`
}

// String says the decision in words, as errors name it: "Rob chooses to
// go before or after Jay", "Red arranges A1, B1".
func (d Decision) String() string {
	if d.named() {
		return d.namedString()
	}
	switch d.Kind {
	case ChooseFirst:
		return fmt.Sprintf("%s chooses who goes first among %s", d.By, strings.Join(d.Options, ", "))
	case ChooseBeforeAfter:
		// Before or after whom, and who goes where a side chooses for
		// its unit; a Decision a host made itself may not say whom.
		switch {
		case len(d.Others) == 0:
			return fmt.Sprintf("%s chooses to go before or after the others it is tied with", d.By)
		case d.Self == "" || d.Self == d.By:
			return fmt.Sprintf("%s chooses to go before or after %s", d.By, wording.AndList(d.Others))
		}
		return fmt.Sprintf("%s chooses whether %s goes before or after %s", d.By, d.Self, wording.AndList(d.Others))
	case ChooseOrder:
		return fmt.Sprintf("%s arranges %s", d.By, strings.Join(d.Options, ", "))
	}
	return fmt.Sprintf("%s chooses a unit to activate among %s", d.By, strings.Join(d.Options, ", "))
}

// order is the order a choice is made in, for its RoundError: "" for a
// choice of the unit to activate, which is the activation loop's.
func (d Decision) order() string {
	if d.Kind == ChooseActivation {
		return ""
	}
	return d.Standing
}

// Decider answers decisions. For ChooseOrder the answer is every option in
// the chosen order; otherwise it is a single option. The Decision's slices
// are the decider's own, and the answer is checked against the options it
// was offered: one they do not hold is an error wrapping ErrInvalidAnswer,
// and the battle waits for the decision (Battle.Pending): the same call
// again asks the decider again, and Battle.Answer gives the answer in its
// place. A decider that leaves decisions to the host is AskHost.
type Decider interface {
	Decide(ctx context.Context, d Decision) ([]string, error)
}

// Policy follows the ruleset's declared defaults, for automated play.
type Policy struct{}

// Decide returns the declared default.
func (Policy) Decide(ctx context.Context, d Decision) ([]string, error) { return d.Default, nil }

// Override answers decisions of the given kinds by another policy than the
// ruleset's (for "what if the winner always gave priority away?"), and
// the others by the ruleset's. Policies: self, other, keep for first;
// before, after; keep, reverse for order; first, last for activate.
type Override map[DecisionKind]string

// Policies returns the policies a kind of decision accepts, the ruleset's
// usual default first; nil for an unknown kind.
func Policies(kind DecisionKind) []string {
	var out []string
	for _, p := range policies[kind] {
		out = append(out, string(p))
	}
	return out
}

var policies = map[DecisionKind][]dsl.Policy{
	ChooseFirst:       {dsl.PolicySelf, dsl.PolicyOther, dsl.PolicyKeep},
	ChooseBeforeAfter: {dsl.PolicyBefore, dsl.PolicyAfter},
	ChooseOrder:       {dsl.PolicyKeep, dsl.PolicyReverse},
	ChooseActivation:  {dsl.PolicyFirst, dsl.PolicyLast},
}

// Decide applies the override for d's kind, if any.
func (o Override) Decide(ctx context.Context, d Decision) ([]string, error) {
	word, ok := o[d.Kind]
	pol := dsl.Policy(word)
	if !ok {
		return d.Default, nil
	}
	if !slices.Contains(policies[d.Kind], pol) {
		return nil, fmt.Errorf("policy %s does not apply to %s decisions (use %s)", pol, d.Kind, strings.Join(Policies(d.Kind), ", "))
	}
	opts := slices.Clone(d.Options)
	if d.Kind == ChooseActivation {
		// A policy picks a unit: passing is the side's own call.
		opts = slices.DeleteFunc(opts, func(s string) bool { return s == "pass" })
	}
	if len(opts) == 0 {
		return d.Default, nil
	}
	switch pol {
	case dsl.PolicySelf:
		if slices.Contains(opts, d.Self) {
			return []string{d.Self}, nil
		}
		return opts[:1], nil
	case dsl.PolicyOther:
		for _, x := range opts {
			if x != d.Self {
				return []string{x}, nil
			}
		}
		return opts[:1], nil
	case dsl.PolicyBefore, dsl.PolicyAfter:
		return []string{word}, nil
	case dsl.PolicyKeep:
		if d.Kind == ChooseOrder {
			return opts, nil
		}
		return opts[:1], nil
	case dsl.PolicyReverse:
		slices.Reverse(opts)
		return opts, nil
	case dsl.PolicyLast:
		return opts[len(opts)-1:], nil
	}
	return opts[:1], nil
}

// DeciderFunc adapts a function, such as a prompt at the table.
type DeciderFunc func(ctx context.Context, d Decision) ([]string, error)

// Decide calls f.
func (f DeciderFunc) Decide(ctx context.Context, d Decision) ([]string, error) { return f(ctx, d) }

// ScriptedDecider plays back answers per participant: "Jay chooses Jay".
// A decision with no scripted answer is an error naming the decision,
// unless Fallback is set. An answer the decision refuses is used up: it
// is a ScriptError (ErrInvalidAnswer), and the decision, asked again,
// gets the next answer scripted for its player, such as one a host adds
// once its player has answered again. An answer given is the battle's:
// its journal holds it, so a battle that plays an op again (after a
// refused answer, or to go back with Undo) never asks for it twice.
type ScriptedDecider struct {
	answers  map[string][]scriptedAnswer // not yet asked for, per participant
	added    map[string]int              // answers added so far, per participant (see ScriptError)
	Fallback Decider
}

// scriptedAnswer is one answer of a ScriptedDecider's script.
type scriptedAnswer struct {
	who    string
	answer []string
	index  int // which of who's answers it is, counted from 0 as added
}

// NewScriptedDecider returns an empty script, as the zero ScriptedDecider
// is.
func NewScriptedDecider() *ScriptedDecider { return &ScriptedDecider{} }

// Add queues who's next answer. An answer added empty is an error when
// it is asked for: a script names what the player chose.
func (s *ScriptedDecider) Add(who string, answer ...string) {
	if s.answers == nil {
		s.answers, s.added = map[string][]scriptedAnswer{}, map[string]int{}
	}
	// The script's own copy: the caller may build answers in one slice.
	s.answers[who] = append(s.answers[who], scriptedAnswer{who: who, answer: slices.Clone(answer), index: s.added[who]})
	s.added[who]++
}

// Pending counts who's answers not yet asked for: the last Pending(who)
// answers added for who.
func (s *ScriptedDecider) Pending(who string) int { return len(s.answers[who]) }

// Unused lists answers never asked for.
func (s *ScriptedDecider) Unused() []string {
	var out []string
	for who, q := range s.answers {
		for _, a := range q {
			if len(a.answer) == 0 {
				out = append(out, who+" chooses nothing")
				continue
			}
			out = append(out, who+" chooses "+strings.Join(a.answer, ", "))
		}
	}
	slices.Sort(out)
	return out
}

// Decide pops who's next answer.
func (s *ScriptedDecider) Decide(ctx context.Context, d Decision) ([]string, error) {
	q := s.answers[d.By]
	if len(q) == 0 {
		if !isNil(s.Fallback) { // a nil pointer or function is none, as for WithDecider
			return s.Fallback.Decide(ctx, d)
		}
		// Answers waiting for others are most often meant for this one:
		// the wrong player named as the roll-off's winner, say.
		var others []string
		for who, q := range s.answers {
			if len(q) > 0 {
				others = append(others, who)
			}
		}
		slices.Sort(others)
		var hint string
		if len(others) > 0 {
			hint = fmt.Sprintf("; the answers scripted and not yet used are for %s, who does not decide here", strings.Join(others, ", "))
			if len(others) > 1 {
				hint = fmt.Sprintf("; the answers scripted and not yet used are for %s, who do not decide here", strings.Join(others, ", "))
			}
		}
		asked := d
		asked.Options, asked.Default, asked.Others = slices.Clone(d.Options), slices.Clone(d.Default), slices.Clone(d.Others)
		return nil, &RoundError{Round: d.Round, Order: d.order(), Err: &UnscriptedError{Decision: &asked,
			msg: fmt.Sprintf("unscripted decision: %s (script it with `%s chooses ...`%s)", d, quoteName(d.By), hint)}}
	}
	a := q[0]
	s.answers[d.By] = q[1:]
	msg := answerProblem(d, a.answer)
	if len(a.answer) == 0 {
		msg = fmt.Sprintf("%s: the scripted answer is empty (Add was given no answer)", d)
	}
	if msg != "" {
		// Used up: the decision asked again gets the answer a host adds
		// in its place. Which of the script's answers it was, for a host
		// to point at its line.
		return nil, &RoundError{Round: d.Round, Order: d.order(), Err: &ScriptError{Round: d.Round, Who: d.By, Answer: true, Index: a.index, msg: msg, answer: a.answer}}
	}
	return a.answer, nil
}

func quoteName(s string) string {
	if identRE.MatchString(s) {
		return s
	}
	return fmt.Sprintf("%q", s)
}

// policyDecides reports whether the ruleset's own policy answers every
// decision, which is then its default and needs no asking.
func (b *Battle) policyDecides() bool {
	_, ok := b.decider.(Policy)
	return ok
}

// decide asks the battle's decider and checks the answer. The ruleset's
// policy answers with the default, which is valid by construction; it is
// written down as any answer is, for a battle saved or restored with
// another decider to replay.
func (b *Battle) decide(ctx context.Context, d Decision) ([]string, error) {
	if b.policyDecides() && !b.noAsk && !b.replaying() {
		e := b.writeOwn()
		*e = entry{kind: entryDecision, choice: append(e.choice[:0], d.Default...)}
		return d.Default, nil
	}
	return b.decideInput(ctx, d)
}

// notOffered says why a unit of the battle answered to a choice of the
// unit to activate is not among the options (see WhyNotActivate). It
// returns "" for any other answer.
func (b *Battle) notOffered(d Decision, ans []string) string {
	if d.Kind != ChooseActivation || len(ans) != 1 || slices.Contains(d.Options, ans[0]) {
		return ""
	}
	return b.whyNotActivate(d.By, ans[0], false)
}

// whyNotActivate is WhyNotActivate as an error's tail: ": ..." or "".
// Activate's refusal also names a unit the battle never had (a host's
// click on a stale board); a decider's answer that names none is plain
// enough without. A unit of another side also says what side may do
// instead, which the options before it do not make plain.
func (b *Battle) whyNotActivate(side, unit string, missing bool) string {
	why := b.WhyNotActivate(side, unit)
	u := b.unitByNm[unit]
	switch {
	case why == "" && u == nil && missing:
		return ": " + b.noUnit(unit)
	case why == "":
		return ""
	case u != nil && u.Side.Name != side:
		return fmt.Sprintf(": %s, and %s activates one of its own ready units", why, side)
	}
	return ": " + why
}

// WhyNotActivate says why side cannot activate unit now, naming the unit
// and the reason: "Mira is Eschers' unit", "Krug has activated this
// round", "Krug got no Ready marker this round (out_of_action)" (the
// condition of the ready rule that held, as the transcript says it),
// "Grath was removed from the battle this round". Activate's refusal,
// a Decider's refused answer and a host that asks its player again (as
// turnorder play does) all say it in these words. It returns "" where
// nothing stops side (the unit is its own and Ready) and for a name the
// battle never had. Names are matched exactly, as Activate matches them;
// any name may be asked about, and no name makes it panic.
//
// It speaks of the units alone: whose turn it is, and whether a round is
// under way, are Activate's to refuse (see [Battle.Next]). Between rounds
// "this round" is the round last played.
//
// Which ready rule kept the marker, and when a unit was removed, are known
// from the round's transcript: with the transcript off, such a unit "has
// no Ready marker this round", or "(of Goliaths) was removed from the
// battle".
func (b *Battle) WhyNotActivate(side, unit string) string {
	u := b.unitByNm[unit]
	switch {
	case u == nil:
		if _, gone := b.removed[unit]; !gone {
			return ""
		}
		// A removal in the round is what the players at the table
		// remember; one before it names the unit's side. The changes
		// made between rounds open the round's transcript, before its
		// start.
		if b.cur != nil {
			started := false
			for _, ev := range b.cur.Events {
				started = started || ev.Kind == EvRoundStart
				if started && ev.Kind == EvRemoved && ev.Subject == unit {
					return fmt.Sprintf("%s was removed from the battle this round", unit)
				}
			}
		}
		return b.noUnit(unit)
	case u.Side.Name != side:
		return fmt.Sprintf("%s is %s unit", u.Name, wording.Possessive(u.Side.Name))
	case u.Ready:
		return ""
	}
	if b.cur != nil {
		if slices.ContainsFunc(b.cur.Activations, func(a ActivationRecord) bool { return a.Unit == unit }) {
			return fmt.Sprintf("%s has activated this round", unit)
		}
		// The last word of the ready rules this round: a rule may take
		// away a marker an earlier one gave.
		for _, ev := range slices.Backward(b.cur.Events) {
			if ev.Subject != unit {
				continue
			}
			if ev.Kind == EvNotReady {
				return fmt.Sprintf("%s got no Ready marker this round (%s)", unit, ev.Detail)
			}
			if ev.Kind == EvReady {
				break
			}
		}
	}
	return fmt.Sprintf("%s has no Ready marker this round", unit)
}

// owned returns an answer decide gave as the battle's own, for what the
// battle keeps (its transcript): a policy's answer already is, but a
// decider may answer from a buffer it reuses.
func (b *Battle) owned(ans []string) []string {
	if b.policyDecides() {
		return ans
	}
	return slices.Clone(ans)
}

// checkAnswer validates a decider's answer: a refused one is
// ErrInvalidAnswer, for a host to ask its player again.
func (b *Battle) checkAnswer(d Decision, ans []string) error {
	if msg := answerProblem(d, ans); msg != "" {
		return &RoundError{Round: d.Round, Order: d.order(), Err: markErrorf(ErrInvalidAnswer, "%s%s", msg, b.notOffered(d, ans))}
	}
	return nil
}

// answerProblem says why ans cannot answer d, or returns "".
func answerProblem(d Decision, ans []string) string {
	if d.named() {
		return namedProblem(d, ans)
	}
	ok := len(ans) == 1 && slices.Contains(d.Options, ans[0])
	if d.Kind == ChooseOrder {
		ok = len(ans) == len(d.Options)
		for _, o := range d.Options {
			ok = ok && slices.Contains(ans, o)
		}
	}
	if ok {
		return ""
	}
	msg := fmt.Sprintf("%s: answer %q is not valid (options: %s)", d, strings.Join(ans, ", "), strings.Join(d.Options, ", "))
	if d.Kind == ChooseActivation && d.PassWhen != "" && slices.Equal(ans, []string{"pass"}) {
		msg += fmt.Sprintf(": %s may pass only when %s, and that is false for it now", d.By, quoteSrc(d.PassWhen))
	}
	if d.Kind == ChooseActivation && d.Drawn && slices.Equal(ans, []string{"pass"}) {
		msg += fmt.Sprintf(": %s was drawn from the bag, and activates one of its ready units (in activation draw no side may pass)", d.By)
	}
	return msg
}
