package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/internal/wording"
)

// RequestKind is the kind of input a battle waits for.
type RequestKind string

const (
	// RollInput is a roll: every subject of Request.Roll rolls its dice.
	RollInput RequestKind = "roll"
	// PickInput is a uniformly random pick of one of Request.Pick's
	// options (a `random` criterion, or the draw of activation draw).
	PickInput RequestKind = "pick"
	// DecisionInput is a player's decision, Request.Decision: who goes
	// first, an order, before or after, or which unit to activate.
	DecisionInput RequestKind = "decision"
)

// Request is the one input a battle waits for (see Battle.Pending). Its
// Kind says which of Roll, Pick and Decision is set.
//
// As JSON it is {"kind", and "roll", "pick" or "decision"}, each as its
// own type encodes it, for a host that asks its players over the network.
type Request struct {
	Kind     RequestKind  `json:"kind"`
	Roll     *RollRequest `json:"roll,omitempty"`
	Pick     *PickRequest `json:"pick,omitempty"`
	Decision *Decision    `json:"decision,omitempty"`
}

// By is who answers: the side or team that makes a decision, or "" for
// dice and random picks, which anyone at the table may read off.
func (r *Request) By() string {
	if r.Decision != nil {
		return r.Decision.By
	}
	return ""
}

func (r *Request) round() int {
	switch {
	case r.Roll != nil:
		return r.Roll.Round
	case r.Pick != nil:
		return r.Pick.Round
	case r.Decision != nil:
		return r.Decision.Round
	}
	return 0
}

// String says what is asked, in a line: "roll 1d6 for Jay and Rob (order
// priority)", "pick one of Jay, Rob at random (order initiative)", or the
// decision as Decision.String says it.
func (r *Request) String() string {
	switch {
	case r.Roll != nil && r.Roll.Drawn():
		s := fmt.Sprintf("draw from %s for %s (left: %s)", r.Roll.DeckName(), strings.Join(r.Roll.Subjects, ", "), contents(r.Roll.Labels))
		if r.Roll.Attempt > 0 {
			s = "re" + s
		}
		return s + ofOrder(r.Roll.Standing)
	case r.Roll != nil && r.Roll.Labels != nil:
		s := fmt.Sprintf("roll die %s for %s (faces: %s)", r.Roll.Randomizer, strings.Join(r.Roll.Subjects, ", "), contents(r.Roll.Labels))
		if r.Roll.Attempt > 0 {
			s = "re" + s
		}
		return s + ofOrder(r.Roll.Standing)
	case r.Roll != nil:
		s := fmt.Sprintf("roll %s for %s", diceName(r.Roll.Count, r.Roll.Faces), strings.Join(r.Roll.Subjects, ", "))
		if r.Roll.Attempt > 0 {
			s = "re" + s
		}
		return s + ofOrder(r.Roll.Standing)
	case r.Pick != nil && r.Pick.Draw:
		return fmt.Sprintf("draw a die from the bag (%s)", strings.Join(r.Pick.Options, ", "))
	case r.Pick != nil && r.Pick.Decision != "":
		return fmt.Sprintf("pick %s answer to %s at random (one of %s)", wording.Possessive(r.Pick.By), r.Pick.Decision, strings.Join(r.Pick.Options, ", "))
	case r.Pick != nil:
		return fmt.Sprintf("pick one of %s at random%s", strings.Join(r.Pick.Options, ", "), ofOrder(r.Pick.Standing))
	case r.Decision != nil:
		return r.Decision.String()
	}
	return "nothing"
}

func ofOrder(standing string) string {
	if standing == "" {
		return ""
	}
	return " (order " + standing + ")"
}

// Answer is the answer to a Request: Rolls for a roll, Pick for a random
// pick, Choice for a decision. By, if set, is who gives it, and must be
// who the request asks (Request.By).
type Answer struct {
	// Rolls are each subject's natural total (the sum of its dice, before
	// modifiers), in the order of RollRequest.Subjects.
	Rolls []int `json:"rolls,omitempty"`
	// Pick is an index into PickRequest.Options.
	Pick *int `json:"pick,omitempty"`
	// Choice is the option chosen, or for ChooseOrder every option in
	// the order chosen; a unit or "pass" for ChooseActivation.
	Choice []string `json:"choice,omitempty"`
	By     string   `json:"by,omitempty"`
}

// RollAnswer answers a roll with each subject's natural total.
func RollAnswer(totals ...int) Answer { return Answer{Rolls: totals} }

// PickAnswer answers a random pick with the index of the option drawn.
func PickAnswer(i int) Answer { return Answer{Pick: &i} }

// ChoiceAnswer answers a decision.
func ChoiceAnswer(options ...string) Answer { return Answer{Choice: options} }

// ErrWrongPlayer is returned by Answer for an answer given by a player
// other than the one the request asks.
var ErrWrongPlayer = errors.New("not this player's to answer")

// AskHost is the dice and the decider that leave every input to the host:
// with WithDice(AskHost{}) or WithDecider(AskHost{}), a battle stops at
// each roll and random pick, or each decision, with it pending (see
// Pending and Answer), instead of asking for it in a call.
type AskHost struct{}

// Roll is never called: the battle stops at the roll instead.
func (AskHost) Roll(context.Context, RollRequest) ([]int, error) { return nil, errWaiting }

// Pick is never called: the battle stops at the pick instead.
func (AskHost) Pick(context.Context, PickRequest) (int, error) { return 0, errWaiting }

// Decide is never called: the battle stops at the decision instead.
func (AskHost) Decide(context.Context, Decision) ([]string, error) { return nil, errWaiting }

// Pending returns the input the battle waits for, or nil when it waits
// for none: no round is under way, or the round is between two calls of
// the host's (StartRound, Step, Activate...), or an op ended. A battle
// stops at an input when its dice or decider leave it to the host
// (AskHost), and when they fail to give it (an error, or an answer that
// cannot be used): calling the same method again asks them again.
// The request is the caller's.
func (b *Battle) Pending() *Request {
	if b.pend == nil {
		return nil
	}
	r := *b.pend
	switch {
	case r.Roll != nil:
		r.Roll = ownRoll(*r.Roll)
	case r.Pick != nil:
		c := *r.Pick
		c.Options = slices.Clone(c.Options)
		r.Pick = &c
	case r.Decision != nil:
		c := *r.Decision
		c.Options, c.Default, c.Others = slices.Clone(c.Options), slices.Clone(c.Default), slices.Clone(c.Others)
		r.Decision = &c
	}
	return &r
}

// Answer gives the pending input and plays on: until the battle needs
// another input that its dice or decider leave to the host (Pending says
// which), or until what the host last called (StartRound, Step,
// AdvanceRound...) is done.
//
// An answer that cannot be used is refused before anything changes: a
// total the dice cannot show, a pick out of range, an option the decision
// does not offer, a unit that is not ready (ErrInvalidAnswer), one given
// by another player (ErrWrongPlayer), or with nothing pending
// (ErrNothingPending). If the rules fail after the answer (a rule's
// expression, a limit), the error is returned and the battle is as it was
// before the answer, still waiting for it.
func (b *Battle) Answer(ctx context.Context, a Answer) error {
	if err := b.ready("Answer"); err != nil {
		return err
	}
	if b.pend == nil {
		return fmt.Errorf("answer: %w", ErrNothingPending)
	}
	e, err := b.checkHostAnswer(b.pend, a)
	if err != nil {
		return err
	}
	keep := len(b.journal)
	b.journal = append(b.journal, e)
	if err := b.goOn(ctx, keep); !errors.Is(err, ErrPending) {
		return err
	}
	return nil // taken: the next input is pending
}

// Continue asks the battle's dice and decider again for the pending input
// (after they failed to give it, or in a battle restored while it was
// pending) and plays on, as Answer does. With dice or a decider that
// leave it to the host, it returns ErrPending again.
func (b *Battle) Continue(ctx context.Context) error {
	if err := b.ready("Continue"); err != nil {
		return err
	}
	if b.pend == nil {
		return fmt.Errorf("continue: %w", ErrNothingPending)
	}
	return b.goOn(ctx, -1)
}

// checkHostAnswer checks a host's answer to req and returns it as a
// journal entry.
func (b *Battle) checkHostAnswer(req *Request, a Answer) (entry, error) {
	e := entry{host: true}
	if a.By != "" {
		if by := req.By(); by != "" && a.By != by {
			return e, fmt.Errorf("round %d: %s: %s answered, but it is %s: %w", req.round(), req, a.By, wordingTurn(by), ErrWrongPlayer)
		}
		if req.Roll != nil && !slices.Contains(req.Roll.Subjects, a.By) && !b.sideRolls(req.Roll, a.By) {
			return e, fmt.Errorf("round %d: %s: %s does not roll in it: %w", req.round(), req, a.By, ErrWrongPlayer)
		}
	}
	wrongKind := func(want string) error {
		return fmt.Errorf("round %d: %s: answer with %s: %w", req.round(), req, want, ErrInvalidAnswer)
	}
	switch {
	case req.Roll != nil && req.Roll.Labels != nil && a.Choice != nil && a.Rolls == nil && a.Pick == nil:
		// A face or card named: the first of the labels that names it.
		rolls, err := labelled(*req.Roll, a.Choice)
		if err != nil {
			return e, err
		}
		e.kind, e.rolls = entryRoll, rolls
	case req.Roll != nil:
		if a.Rolls == nil || a.Pick != nil || a.Choice != nil {
			return e, wrongKind("rolls (a total for each of " + strings.Join(req.Roll.Subjects, ", ") + ")")
		}
		if err := checkRoll(*req.Roll, a.Rolls); err != nil {
			return e, err
		}
		e.kind, e.rolls = entryRoll, slices.Clone(a.Rolls)
	case req.Pick != nil:
		if a.Pick == nil || a.Rolls != nil || a.Choice != nil {
			return e, wrongKind("a pick (an index into the options)")
		}
		if err := checkPick(*req.Pick, *a.Pick); err != nil {
			return e, err
		}
		e.kind, e.pick = entryPick, *a.Pick
	case req.Decision != nil:
		if a.Choice == nil || a.Rolls != nil || a.Pick != nil {
			return e, wrongKind("a choice (one of " + strings.Join(req.Decision.Options, ", ") + ")")
		}
		if err := b.checkAnswer(*req.Decision, a.Choice); err != nil {
			return e, err
		}
		e.kind, e.choice = entryDecision, slices.Clone(a.Choice)
	}
	return e, nil
}

// sideRolls says that side is the side of a unit that rolls in req: a
// side's player rolls for its units.
func (b *Battle) sideRolls(req *RollRequest, side string) bool {
	for _, s := range req.Subjects {
		if u := b.unitByNm[s]; u != nil && u.Side.Name == side {
			return true
		}
	}
	return false
}

func wordingTurn(by string) string { return by + "'s to answer" }

// checkRoll checks a roll's totals against what its dice can show.
func checkRoll(req RollRequest, nat []int) error {
	if len(nat) != len(req.Subjects) {
		return badDice(req.Round, req.Standing, "%d results for %d subjects (%s)", len(nat), len(req.Subjects), strings.Join(req.Subjects, ", "))
	}
	for k, v := range nat {
		if v < req.Count || v > req.Count*req.Faces {
			return badDice(req.Round, req.Standing, "the dice rolled %d for %s, which is impossible on %s", v, req.Subjects[k], diceShows(req.Count, req.Faces))
		}
	}
	return nil
}

// labelled turns the faces or cards an answer names, one for each
// subject of req, into its results. A card not left in the deck, or a face
// the die does not have, is refused.
func labelled(req RollRequest, names []string) ([]int, error) {
	if len(names) != len(req.Subjects) {
		return nil, badDice(req.Round, req.Standing, "%d faces or cards named for %d subjects (%s)", len(names), len(req.Subjects), strings.Join(req.Subjects, ", "))
	}
	out := make([]int, len(names))
	for k, n := range names {
		i := slices.Index(req.Labels, n)
		if i < 0 {
			if req.Drawn() {
				return nil, badDice(req.Round, req.Standing, "%s is not left in %s (left: %s)", n, req.DeckName(), contents(req.Labels))
			}
			return nil, badDice(req.Round, req.Standing, "%s is not a face of die %s (faces: %s)", n, req.Randomizer, contents(req.Labels))
		}
		out[k] = i + 1
	}
	return out, nil
}

// LabelAnswer answers a roll of a declared die, or a draw from a deck or
// bag, with the face or card each subject got, by name.
func LabelAnswer(names ...string) Answer { return Answer{Choice: names} }

// checkPick checks a random pick's index.
func checkPick(req PickRequest, k int) error {
	if k >= 0 && k < len(req.Options) {
		return nil
	}
	if req.Draw {
		return badDice(req.Round, req.order(), "activation draw: random pick %d is out of range (%d dice in the bag)", k, len(req.Options))
	}
	return badDice(req.Round, req.order(), "random pick %d is out of range (%d options)", k, len(req.Options))
}

// rollInput returns the natural totals of the roll req: from the journal
// when the op plays it again, or else from the battle's dice, whose
// answer is checked and written down. Dice that leave it to the host, or
// fail, leave it pending.
func (b *Battle) rollInput(ctx context.Context, req RollRequest) ([]int, error) {
	if err := b.replayChanges(ctx); err != nil {
		return nil, err
	}
	if e, err := b.next(entryRoll); err != nil || e != nil {
		if err != nil {
			return nil, err
		}
		if err := checkRoll(req, e.rolls); err != nil {
			return nil, b.journalError(b.replayed-1, "%v", err)
		}
		return e.rolls, nil
	}
	if b.noAsk {
		return nil, b.ask(Request{Kind: RollInput, Roll: ownRoll(req)}, errWaiting)
	}
	var nat []int
	var err error
	b.callback(&Request{Kind: RollInput, Roll: ownRoll(req)}, func() { nat, err = b.dice.Roll(ctx, req) })
	if err == nil {
		err = checkRoll(req, nat)
	}
	if err != nil {
		return nil, b.ask(Request{Kind: RollInput, Roll: ownRoll(req)}, err)
	}
	b.write(entry{kind: entryRoll, rolls: slices.Clone(nat)})
	return nat, nil
}

// pickInput is rollInput for a random pick.
func (b *Battle) pickInput(ctx context.Context, req PickRequest) (int, error) {
	if err := b.replayChanges(ctx); err != nil {
		return 0, err
	}
	if e, err := b.next(entryPick); err != nil || e != nil {
		if err != nil {
			return 0, err
		}
		if err := checkPick(req, e.pick); err != nil {
			return 0, b.journalError(b.replayed-1, "%v", err)
		}
		return e.pick, nil
	}
	if b.noAsk {
		return 0, b.ask(Request{Kind: PickInput, Pick: ownPick(req)}, errWaiting)
	}
	if sd := b.seeded; sd != nil {
		pcg := *sd.pcg
		k, err := sd.Pick(ctx, req)
		if err == nil {
			b.write(entry{kind: entryPick, pick: k, seeded: true, pcg: pcg})
		}
		return k, err
	}
	var k int
	var err error
	b.callback(&Request{Kind: PickInput, Pick: ownPick(req)}, func() { k, err = b.dice.Pick(ctx, req) })
	if err == nil {
		err = checkPick(req, k)
	}
	if err != nil {
		return 0, b.ask(Request{Kind: PickInput, Pick: ownPick(req)}, err)
	}
	b.write(entry{kind: entryPick, pick: k})
	return k, nil
}

// decideInput is rollInput for a decision.
func (b *Battle) decideInput(ctx context.Context, d Decision) ([]string, error) {
	if err := b.replayChanges(ctx); err != nil {
		return nil, err
	}
	if e, err := b.next(entryDecision); err != nil || e != nil {
		if err != nil {
			return nil, err
		}
		if err := b.checkAnswer(d, e.choice); err != nil {
			return nil, b.journalError(b.replayed-1, "%v", err)
		}
		return e.choice, nil
	}
	own := d
	own.Options, own.Default, own.Others = slices.Clone(d.Options), slices.Clone(d.Default), slices.Clone(d.Others)
	if b.noAsk {
		return nil, b.ask(Request{Kind: DecisionInput, Decision: &own}, errWaiting)
	}
	// The decider's own copy: what it writes there must not change the
	// options its answer is checked against, nor the battle's.
	asked := own
	asked.Options, asked.Default, asked.Others = slices.Clone(d.Options), slices.Clone(d.Default), slices.Clone(d.Others)
	var ans []string
	var err error
	b.callback(&Request{Kind: DecisionInput, Decision: &own}, func() { ans, err = b.decider.Decide(ctx, asked) })
	if err != nil {
		if se, ok := errors.AsType[*ScriptError](err); ok && se.answer != nil {
			// A script's refused answer, which the script could not explain.
			se.msg += b.notOffered(d, se.answer)
			se.answer = nil
		}
	} else {
		err = b.checkAnswer(d, ans)
	}
	if err != nil {
		return nil, b.ask(Request{Kind: DecisionInput, Decision: &own}, err)
	}
	b.write(entry{kind: entryDecision, choice: slices.Clone(ans)})
	return ans, nil
}

// seededRoll rolls the battle's own seeded dice into nat (count dice of
// faces sides each), or, while the op replays, takes the roll from the
// journal. The roll is written down as any other, with the dice's state
// before it, which Undo and a failed answer rewind the dice to.
func (b *Battle) seededRoll(sd *SeededDice, nat []int, count, faces int) error {
	e, err := b.next(entryRoll)
	switch {
	case err != nil:
		return err
	case e != nil:
		if len(e.rolls) != len(nat) {
			return b.journalError(b.replayed-1, "%d results for %d subjects", len(e.rolls), len(nat))
		}
		for _, v := range e.rolls {
			if v < count || v > count*faces {
				return b.journalError(b.replayed-1, "the dice rolled %d, which is impossible on %s", v, diceShows(count, faces))
			}
		}
		copy(nat, e.rolls)
		return nil
	}
	pcg := *sd.pcg
	sd.RollInto(nat, count, faces)
	e = b.writeOwn()
	*e = entry{kind: entryRoll, rolls: append(e.rolls[:0], nat...), seeded: true, pcg: pcg}
	return nil
}

// writeOwn adds an entry to the journal for the battle's own dice or
// policy to fill in, in the memory of one an earlier op wrote there: a
// warm battle allocates nothing.
func (b *Battle) writeOwn() *entry {
	n := len(b.journal)
	if n < cap(b.journal) {
		b.journal = b.journal[:n+1]
	} else {
		b.journal = append(b.journal, entry{})
	}
	b.replayed = n + 1
	return &b.journal[n]
}

func ownRoll(r RollRequest) *RollRequest {
	r.Subjects, r.Modifiers = slices.Clone(r.Subjects), slices.Clone(r.Modifiers)
	r.Labels, r.Values = slices.Clone(r.Labels), slices.Clone(r.Values)
	return &r
}

func ownPick(r PickRequest) *PickRequest {
	r.Options = slices.Clone(r.Options)
	return &r
}
