package runtime

import (
	"context"
	"encoding"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
)

// RollRequest asks for one roll of a group: every subject rolls Count dice
// of Faces sides. Attempt is 0 for the first roll and n for the nth reroll
// of the same still-tied group.
//
// As JSON it has the keys below, with pos as "file:line:col", as an
// Event's.
type RollRequest struct {
	Round    int      `json:"round"`
	Standing string   `json:"standing,omitempty"`
	Subjects []string `json:"subjects"`
	Count    int      `json:"count"`
	Faces    int      `json:"faces"`
	Attempt  int      `json:"attempt"`
	// Modifiers are added to each subject's natural total (d20 + dex);
	// dice sources do not apply them, but the odds analyser needs them to
	// know which results tie.
	Modifiers []int   `json:"modifiers,omitempty"`
	Pos       dsl.Pos `json:"-"` // as "pos": see marshalAt
	// A roll of a declared die, or a draw from a deck or bag, names it
	// (Randomizer) and its kind ("die", "deck" or "bag"), and labels
	// each result: a result n (from 1 to Faces) is the face or card
	// Labels[n-1], of value Values[n-1]. A die is rolled once for each
	// subject, all at once; a deck is drawn from by one subject a
	// request, and Labels are then the cards left, of Side's own deck
	// for a deck per side.
	Randomizer string   `json:"randomizer,omitempty"`
	Kind       string   `json:"kind,omitempty"`
	Side       string   `json:"side,omitempty"`
	Labels     []string `json:"labels,omitempty"`
	Values     []int    `json:"values,omitempty"`
}

// Drawn reports whether the request is a draw from a deck or bag.
func (r RollRequest) Drawn() bool { return r.Kind == "deck" || r.Kind == "bag" }

// LabelText lists the faces of a declared die, or the cards left for a
// draw, each once, with how many there are: "blank (3), shield (2), crown".
func (r RollRequest) LabelText() string { return contents(r.Labels) }

// DeckName names the deck or bag a draw is from: "deck cards", "Jay's
// deck cards".
func (r RollRequest) DeckName() string {
	if r.Side != "" {
		return wording.Possessive(r.Side) + " " + r.Kind + " " + r.Randomizer
	}
	return r.Kind + " " + r.Randomizer
}

// valueOf returns what a natural result n counts for: the value of a
// labelled face or card, or n itself.
func (r RollRequest) valueOf(n int) int {
	if r.Values != nil && n >= 1 && n <= len(r.Values) {
		return r.Values[n-1]
	}
	return n
}

// PickRequest asks for a uniformly random pick of one option (a random
// criterion orders a group by repeated picks).
//
// As JSON it has the keys below, with pos as "file:line:col", as an
// Event's.
type PickRequest struct {
	Round    int      `json:"round"`
	Standing string   `json:"standing,omitempty"`
	Options  []string `json:"options"`
	Pos      dsl.Pos  `json:"-"` // as "pos": see marshalAt
	// Draw marks the draw of activation draw: a die drawn from a bag
	// that holds one die per ready unit, in its side's colour. Options
	// names the side of each die (Jay, Jay, Jay, Rob, Rob), so a side
	// comes up as often as it has dice; Standing is the activation's.
	Draw bool `json:"draw,omitempty"`
	// Decision, with By, names a decision answered random (its policy's
	// `default random`, or a player's answer): the pick is By's answer to
	// it, among Options, its answers.
	Decision string `json:"decision,omitempty"`
	By       string `json:"by,omitempty"`
}

// order is the order the pick is made for, for its RoundError: "" for the
// draw of activation draw, which is the activation loop's.
func (r PickRequest) order() string {
	if r.Draw {
		return ""
	}
	return r.Standing
}

// Bag returns, for a draw, the sides with dice in the bag, in the order of
// their first die in Options, and how many dice each has.
func (r PickRequest) Bag() (sides []string, dice []int) { return bag(r.Options) }

func bag(options []string) (sides []string, dice []int) {
	for _, side := range options {
		if i := slices.Index(sides, side); i >= 0 {
			dice[i]++
		} else {
			sides, dice = append(sides, side), append(dice, 1)
		}
	}
	return sides, dice
}

// Dice is every source of chance. Roll returns each subject's natural total
// (the sum of its dice, before modifiers), in the order of req.Subjects.
// Pick returns an index into req.Options.
type Dice interface {
	Roll(ctx context.Context, req RollRequest) ([]int, error)
	Pick(ctx context.Context, req PickRequest) (int, error)
}

// SeededDice is a reproducible source: the same seed always gives the same
// battle. Its state is saved in snapshots.
type SeededDice struct {
	pcg *rand.PCG
}

// NewSeededDice returns dice seeded with seed (math/rand/v2 PCG). The zero
// SeededDice is seeded with 0.
func NewSeededDice(seed uint64) *SeededDice {
	return &SeededDice{pcg: rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)}
}

// init makes the zero SeededDice usable: it is seeded with 0.
func (d *SeededDice) init() {
	if d.pcg == nil {
		*d = *NewSeededDice(0)
	}
}

// copy returns dice in the same state as d that roll on independently.
func (d *SeededDice) copy() *SeededDice {
	d.init()
	pcg := *d.pcg
	return &SeededDice{pcg: &pcg}
}

// Reseed restarts the dice on one of many independent streams of a seed
// (simulations give each run its own stream).
func (d *SeededDice) Reseed(seed, stream uint64) {
	d.init()
	d.pcg.Seed(seed, stream*0x9e3779b97f4a7c15+1)
}

// Roll rolls the dice. A request for fewer than one die, or dice of fewer
// than one face, is an error.
func (d *SeededDice) Roll(ctx context.Context, req RollRequest) ([]int, error) {
	if req.Count < 1 || req.Faces < 1 {
		return nil, fmt.Errorf("cannot roll %d dice of %d faces: a roll needs at least one die of at least one face", req.Count, req.Faces)
	}
	out := make([]int, len(req.Subjects))
	d.RollInto(out, req.Count, req.Faces)
	return out, nil
}

// RollInto fills out with totals of count dice of faces sides each.
// faces must be at least 1 when count is (as for math/rand's IntN, it
// panics otherwise): Roll checks the request.
func (d *SeededDice) RollInto(out []int, count, faces int) {
	d.init()
	if count == 1 { // most rolls: one die each
		for i := range out {
			out[i] = d.intN(faces) + 1
		}
		return
	}
	for i := range out {
		t := 0
		for range count {
			t += d.intN(faces) + 1
		}
		out[i] = t
	}
}

// Pick picks uniformly. A pick among no options is an error.
func (d *SeededDice) Pick(ctx context.Context, req PickRequest) (int, error) {
	if len(req.Options) == 0 {
		return 0, fmt.Errorf("cannot pick among no options")
	}
	d.init()
	return d.intN(len(req.Options)), nil
}

// intN returns a uniform number in [0, n) as math/rand/v2's Rand.IntN
// does on a 64-bit platform (Lemire's multiply-and-reject), reading the
// PCG directly: the call through Rand's Source interface cost a seeded
// priority round a fifth of its time. Drawing it here also keeps the
// stream the same on every platform and Go release (Rand.IntN draws
// differently on 32-bit platforms), as "the same seed always gives the
// same battle" promises.
func (d *SeededDice) intN(n int) int {
	if n <= 0 {
		panic("invalid argument to IntN")
	}
	un := uint64(n)
	if un&(un-1) == 0 {
		return int(d.pcg.Uint64() & (un - 1))
	}
	hi, lo := bits.Mul64(d.pcg.Uint64(), un)
	if lo < un {
		// Reject the few products that would make the low numbers
		// likelier: 2^64 mod n of them.
		for thresh := -un % un; lo < thresh; {
			hi, lo = bits.Mul64(d.pcg.Uint64(), un)
		}
	}
	return int(hi)
}

// MarshalBinary saves the generator's state.
func (d *SeededDice) MarshalBinary() ([]byte, error) {
	d.init()
	return d.pcg.MarshalBinary()
}

// UnmarshalBinary restores the generator's state.
func (d *SeededDice) UnmarshalBinary(b []byte) error {
	d.init()
	return d.pcg.UnmarshalBinary(b)
}

// ScriptedDice plays back results written in advance, per participant:
// "Jay rolls 4, Rob rolls 2". A roll nobody scripted is an error, as is a
// result no die can show: that result is used up, and is a ScriptError
// (ErrInvalidAnswer), as a misread die from FuncDice is, so that a host
// replaying its players' rolls adds the roll read again. A result given
// is the battle's: its journal holds it, so a battle that plays an op
// again never asks for it twice.
type ScriptedDice struct {
	rolls map[string][]scriptUse // not yet used, per subject
	picks []scriptUse
	// added counts the results added so far, per subject ("" for
	// picks): a ScriptError says which of the script's results it is.
	added map[string]int
	// Fallback, if set, answers what the script does not.
	Fallback Dice
}

// MarshalBinary saves the state of the Fallback, if it has one to save
// (seeded dice do), so that a snapshot of a battle that plays scripted
// dice over seeded ones goes on with the same rolls once restored. The
// script itself is the host's, which a restored battle is given again.
func (s *ScriptedDice) MarshalBinary() ([]byte, error) {
	if m, ok := s.Fallback.(encoding.BinaryMarshaler); ok && !isNil(s.Fallback) {
		return m.MarshalBinary()
	}
	return nil, nil
}

// UnmarshalBinary restores the state of the Fallback, as MarshalBinary
// saved it (or as seeded dice saved theirs).
func (s *ScriptedDice) UnmarshalBinary(data []byte) error {
	if u, ok := s.Fallback.(encoding.BinaryUnmarshaler); ok && !isNil(s.Fallback) {
		return u.UnmarshalBinary(data)
	}
	return nil
}

// scriptUse is one result of a ScriptedDice's script: a roll for who, or
// a pick of who.
type scriptUse struct {
	who   string
	v     int
	face  string // a named face or card, for a declared die, deck or bag
	draw  bool   // scripted as a draw
	pick  bool
	index int // which of who's rolls (or of the picks) it is, counted from 0 as added
}

// NewScriptedDice returns an empty script, as the zero ScriptedDice is.
func NewScriptedDice() *ScriptedDice { return &ScriptedDice{} }

// A ScriptError is a scripted result that a roll, pick or decision cannot
// use: a total the dice cannot show, a pick that is not among the options,
// or an answer (of a ScriptedDecider) that the decision does not offer.
// errors.Is finds each as ErrInvalidAnswer, as it does the same result
// from FuncDice or a Decider: a host replaying its players' rolls and
// answers through a script asks them again.
type ScriptError struct {
	Round  int
	Who    string // whom the roll is for, the pick itself, or who answers
	Pick   bool
	Answer bool // a ScriptedDecider's answer
	// Index says which of Who's scripted rolls or answers (or which of all
	// scripted picks) it is, counted from 0 in the order they were added,
	// so that a host can point at the line of its script.
	Index int
	msg   string
	// answer is a refused scripted answer, for the battle to say why its
	// decision does not offer it (see Battle.decide).
	answer []string
}

func (e *ScriptError) Error() string { return e.msg }

// Is reports a refused result as ErrInvalidAnswer, as the battle reports
// any decider's answer, and a host's dice's result, that it cannot use: a
// host need not tell a script's mistake from a player's.
func (e *ScriptError) Is(target error) bool { return target == ErrInvalidAnswer }

// AddRoll queues the next natural total for who.
func (d *ScriptedDice) AddRoll(who string, total int) {
	d.init()
	d.rolls[who] = append(d.rolls[who], scriptUse{who: who, v: total, index: d.added[who]})
	d.added[who]++
}

// AddFace queues the next face rolled on a declared die (or, with draw,
// the next card drawn from a deck or bag) for who, by its name. A number
// scripted with AddRoll names the face or card of that number there.
func (d *ScriptedDice) AddFace(who, face string, draw bool) {
	d.init()
	d.rolls[who] = append(d.rolls[who], scriptUse{who: who, face: face, draw: draw, index: d.added[who]})
	d.added[who]++
}

// init makes the zero ScriptedDice usable.
func (d *ScriptedDice) init() {
	if d.rolls == nil {
		d.rolls, d.added = map[string][]scriptUse{}, map[string]int{}
	}
}

// AddPick queues the next random pick.
func (d *ScriptedDice) AddPick(name string) {
	d.init()
	d.picks = append(d.picks, scriptUse{who: name, pick: true, index: d.added[""]})
	d.added[""]++
}

// Pending counts the results scripted for who and not yet used: the last
// Pending(who) rolls added for who. Pending("") counts the picks.
func (d *ScriptedDice) Pending(who string) int {
	if who == "" {
		return len(d.picks)
	}
	return len(d.rolls[who])
}

// Unused lists what was scripted but never asked for.
func (d *ScriptedDice) Unused() []string {
	var out []string
	for who, q := range d.rolls {
		for _, u := range q {
			switch {
			case u.draw:
				out = append(out, fmt.Sprintf("draw %s %s", who, u.face))
			case u.face != "":
				out = append(out, fmt.Sprintf("roll %s %s", who, u.face))
			default:
				out = append(out, fmt.Sprintf("roll %s %d", who, u.v))
			}
		}
	}
	for _, u := range d.picks {
		out = append(out, "random "+u.who)
	}
	slices.Sort(out)
	return out
}

// Roll pops one scripted total per subject.
func (d *ScriptedDice) Roll(ctx context.Context, req RollRequest) ([]int, error) {
	d.init()
	var missing []string
	var fromFallback []int // where in req.Subjects the missing are
	for i, s := range req.Subjects {
		if len(d.rolls[s]) == 0 {
			missing = append(missing, s)
			fromFallback = append(fromFallback, i)
		}
	}
	// A nil pointer or function is no fallback, as for WithDice.
	if len(missing) > 0 && isNil(d.Fallback) {
		what := "roll"
		if req.Attempt > 0 {
			what = "reroll"
		}
		// Rolls waiting for others, who do not roll here, are most often
		// meant for these: a side's name where its units roll, say.
		var others []string
		for who, q := range d.rolls {
			if len(q) > 0 && !slices.Contains(req.Subjects, who) {
				others = append(others, who)
			}
		}
		slices.Sort(others)
		var hint string
		switch {
		case len(others) == 1:
			hint = fmt.Sprintf(" (the rolls scripted and not yet used are for %s, who does not roll here)", others[0])
		case len(others) > 1:
			hint = fmt.Sprintf(" (the rolls scripted and not yet used are for %s, who do not roll here)", strings.Join(others, ", "))
		}
		asked := *ownRoll(req)
		msg := fmt.Sprintf("a %s %s is needed for %s, but none is scripted%s", diceName(req.Count, req.Faces), what, strings.Join(missing, ", "), hint)
		switch {
		case req.Drawn():
			msg = fmt.Sprintf("a draw from %s is needed for %s, but none is scripted (script it with `draw %s CARD`; left: %s)%s",
				req.DeckName(), strings.Join(missing, ", "), missing[0], contents(req.Labels), hint)
		case req.Labels != nil:
			msg = fmt.Sprintf("a %s of die %s is needed for %s, but none is scripted (script it with `roll %s FACE`; faces: %s)%s",
				what, req.Randomizer, strings.Join(missing, ", "), missing[0], contents(req.Labels), hint)
		}
		return nil, &RoundError{Round: req.Round, Order: req.Standing, Err: &UnscriptedError{Roll: &asked, Missing: missing, msg: msg}}
	}
	out := make([]int, len(req.Subjects))
	for i, s := range req.Subjects {
		if len(d.rolls[s]) == 0 {
			continue // the fallback's
		}
		u := d.rolls[s][0]
		d.rolls[s] = d.rolls[s][1:]
		if req.Labels != nil || u.face != "" {
			v, err := scriptedFace(req, u)
			if err != nil {
				return nil, err
			}
			out[i] = v
			continue
		}
		if v := u.v; v < req.Count || v > req.Count*req.Faces {
			// Used up: a result read again is added in its place.
			return nil, &RoundError{Round: req.Round, Order: req.Standing, Err: &ScriptError{Round: req.Round, Who: s, Index: u.index,
				msg: fmt.Sprintf("scripted roll %d for %s is impossible on %s", v, s, diceShows(req.Count, req.Faces))}}
		}
		out[i] = u.v
	}
	if len(missing) == 0 {
		return out, nil
	}
	// Only now, with the script's results known to be possible: dice at
	// the table cannot take a roll back.
	sub := req
	sub.Subjects, sub.Modifiers = missing, nil
	for _, i := range fromFallback {
		if i < len(req.Modifiers) {
			sub.Modifiers = append(sub.Modifiers, req.Modifiers[i])
		}
	}
	fallen, err := d.Fallback.Roll(ctx, sub)
	if err != nil {
		return nil, err
	}
	if len(fallen) != len(missing) {
		return nil, fmt.Errorf("the fallback dice rolled %d totals for %d subjects", len(fallen), len(missing))
	}
	for k, i := range fromFallback {
		out[i] = fallen[k]
	}
	return out, nil
}

// Pick pops the next scripted pick, which must be one of the options.
func (d *ScriptedDice) Pick(ctx context.Context, req PickRequest) (int, error) {
	d.init()
	if len(d.picks) == 0 {
		if !isNil(d.Fallback) {
			return d.Fallback.Pick(ctx, req)
		}
		asked := req
		asked.Options = slices.Clone(req.Options)
		if req.Draw {
			// The bag is the activation's, not an order's: say so, and
			// how a scenario scripts it.
			return 0, &RoundError{Round: req.Round, Err: &UnscriptedError{Pick: &asked, msg: fmt.Sprintf(
				"activation draw: a die must be drawn from the bag (%s), but no draw is scripted (script it with `random SIDE`, naming the side whose die comes out)",
				bagCounts(req.Options))}}
		}
		return 0, &RoundError{Round: req.Round, Order: req.order(), Err: &UnscriptedError{Pick: &asked,
			msg: fmt.Sprintf("a random pick among %s is needed, but none is scripted", strings.Join(req.Options, ", "))}}
	}
	u := d.picks[0]
	d.picks = d.picks[1:]
	p := u.who
	i := slices.Index(req.Options, p)
	if i < 0 {
		// Used up: a pick read again is added in its place.
		msg := fmt.Sprintf("scripted random pick %s is not among %s", p, strings.Join(req.Options, ", "))
		if req.Draw {
			msg = fmt.Sprintf("activation draw: scripted random %s is not a side with a die in the bag (%s): name the side whose die comes out", p, bagCounts(req.Options))
		}
		return 0, &RoundError{Round: req.Round, Order: req.order(), Err: &ScriptError{Round: req.Round, Who: p, Pick: true, Index: u.index, msg: msg}}
	}
	return i, nil
}

// scriptedFace finds the result of a scripted face or card: the first of
// the request's labels that it names. A face the die does not have, or a
// card not left in the deck, is used up, as any impossible result is.
func scriptedFace(req RollRequest, u scriptUse) (int, error) {
	face := u.face
	if face == "" {
		face = strconv.Itoa(u.v)
	}
	if i := slices.Index(req.Labels, face); i >= 0 {
		return i + 1, nil
	}
	var msg string
	switch {
	case req.Labels == nil:
		msg = fmt.Sprintf("scripted %s %s for %s, but %s rolls %s here, which has no named faces or cards: script the number rolled, as in `roll %s %d`",
			scriptVerb(u), face, u.who, u.who, diceShows(req.Count, req.Faces), u.who, req.Count)
	case req.Drawn():
		msg = fmt.Sprintf("scripted draw %s for %s is not left in %s (left: %s)", face, u.who, req.DeckName(), contents(req.Labels))
		if !u.draw {
			msg += fmt.Sprintf("; a card drawn is scripted with `draw %s CARD`", u.who)
		}
	default:
		msg = fmt.Sprintf("scripted roll %s for %s is not a face of die %s (faces: %s)", face, u.who, req.Randomizer, contents(req.Labels))
		if u.draw {
			msg += fmt.Sprintf("; a face rolled is scripted with `roll %s FACE`", u.who)
		}
	}
	return 0, &RoundError{Round: req.Round, Order: req.Standing, Err: &ScriptError{Round: req.Round, Who: u.who, Index: u.index, msg: msg}}
}

func scriptVerb(u scriptUse) string {
	if u.draw {
		return "draw"
	}
	return "roll"
}

// FuncDice asks a function for every die, such as a player reading
// physical dice at the table. A total the dice cannot show, or a pick out
// of range, is an error wrapping ErrInvalidAnswer: the roll stays pending,
// and the method called again (or Answer) asks for that roll again, not
// for the rolls before it.
type FuncDice struct {
	// Die returns the natural total of req.Count dice for one subject.
	Die func(ctx context.Context, req RollRequest, subject string) (int, error)
	// PickOne returns an index into req.Options.
	PickOne func(ctx context.Context, req PickRequest) (int, error)
}

// Roll asks for each subject in turn and checks the answer.
func (d FuncDice) Roll(ctx context.Context, req RollRequest) ([]int, error) {
	if d.Die == nil {
		// The host's wiring, not the player's die: but the round it
		// stopped, as every error of a round's dice says.
		return nil, roundErrorf(req.Round, req.Standing, "FuncDice has no Die function to roll %s for %s", diceName(req.Count, req.Faces), wording.AndList(req.Subjects))
	}
	out := make([]int, len(req.Subjects))
	for i, s := range req.Subjects {
		v, err := d.Die(ctx, req, s)
		if err != nil {
			return nil, err
		}
		if v < req.Count || v > req.Count*req.Faces {
			return nil, badDice(req.Round, req.Standing, "%s rolled %d, which is impossible on %s", s, v, diceShows(req.Count, req.Faces))
		}
		out[i] = v
	}
	return out, nil
}

// Pick asks the function. The battle checks the pick, as it checks any
// Dice's, and refuses one out of range with the round, the order and the
// number of options.
func (d FuncDice) Pick(ctx context.Context, req PickRequest) (int, error) {
	if d.PickOne == nil {
		what := "pick at random among " + strings.Join(req.Options, ", ")
		if req.Draw {
			what = "draw a die from the bag (" + bagCounts(req.Options) + ")"
		}
		return 0, roundErrorf(req.Round, req.order(), "FuncDice has no PickOne function to %s", what)
	}
	return d.PickOne(ctx, req)
}

// diceShows names dice with the results they can show, for a message
// about a result they cannot: "d6 (1-6)", "2d6 (2-12)".
func diceShows(count, faces int) string {
	return fmt.Sprintf("%s (%d-%d)", diceName(count, faces), count, count*faces)
}

func diceName(count, faces int) string {
	if count == 1 {
		return fmt.Sprintf("d%d", faces)
	}
	return fmt.Sprintf("%dd%d", count, faces)
}
