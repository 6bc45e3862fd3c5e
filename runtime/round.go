package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
)

// ErrRoundOver is returned by Activate and Pass when the round under way
// has no more turns (EndRound ends it). With no round under way they
// return ErrNoRound instead.
var ErrRoundOver = errors.New("the round is over")

// PlayRound plays one whole round: its phases, then the activation loop
// with the Decider choosing units, then the end of the round.
func (b *Battle) PlayRound(ctx context.Context) (*RoundResult, error) {
	// Refused in the name of the method the host called, not StartRound.
	if err := b.ready("PlayRound"); err != nil {
		return nil, err
	}
	if err := b.AdvanceRound(ctx); err != nil {
		return nil, err
	}
	return b.Result(), nil
}

// ErrInCallback is returned by the methods that play or save rounds
// when they are called from a Go hook, a Decider or Dice, in the middle of
// the op that called it. A Go hook may change the battle (SetAttr,
// SetStatus, RemoveUnit, AddUnit, MakeReady, SetHolder), which is then part of
// the op.
var ErrInCallback = errors.New("cannot be called from a hook, a decider or dice, in the middle of a round")

func errNoRound(what string) error {
	return fmt.Errorf("%s: %w", what, ErrNoRound)
}

// ready says whether the round's methods may run now.
func (b *Battle) ready(what string) error {
	if b.prog == nil {
		return fmt.Errorf("%s: the Battle has no ruleset: make one with Program.NewBattle or Program.Restore", what)
	}
	if b.inCallback > 0 || b.running {
		return fmt.Errorf("%s: %w", what, ErrInCallback)
	}
	return nil
}

// AdvanceRound plays one whole round like PlayRound, without making a
// RoundResult, for hosts that read the battle (Holder, Order, Events)
// instead. With seeded dice, the ruleset's policies and the transcript
// off, a round that needs no expr-lang expression allocates nothing once
// the battle is warm.
func (b *Battle) AdvanceRound(ctx context.Context) error {
	if err := b.ready("AdvanceRound"); err != nil {
		return err
	}
	if b.pend == nil {
		if err := b.errLastRound("AdvanceRound"); err != nil {
			return err
		}
		if b.InRound() {
			return markErrorf(ErrRoundUnderWay, "round %d has not ended: end it with EndRound", b.round)
		}
	}
	return b.run(ctx, op{kind: opAdvance})
}

func (b *Battle) advanceRound(ctx context.Context) error {
	if err := b.startRound(ctx); err != nil {
		return err
	}
	for {
		done, err := b.step(ctx)
		if err != nil {
			return err
		}
		if done {
			break
		}
	}
	return b.endRound(ctx)
}

// InRound reports whether a round has started and not yet ended: also
// while StartRound (or AdvanceRound) waits for an input of the round's
// start, when Round is already the round's number (see Pending).
func (b *Battle) InRound() bool { return b.cur != nil && b.cur.Stage == "activation" }

// StartRound begins the next round: the start-of-round hooks, every phase
// in order, and Ready markers. Then the activation loop is open: see Next.
// If an input is left to the host (AskHost) it returns ErrPending, and
// the round starts once Answer has given every input it needs. If it
// fails (a rule, a limit, a cancelled context), the battle is as it was
// before; dice or a decider that fail leave their input pending, and
// StartRound called again asks them again.
func (b *Battle) StartRound(ctx context.Context) error {
	if err := b.ready("StartRound"); err != nil {
		return err
	}
	if b.pend == nil {
		if b.InRound() {
			return markErrorf(ErrRoundUnderWay, "round %d has not ended: end it with EndRound", b.round)
		}
		if err := b.errLastRound("StartRound"); err != nil {
			return err
		}
	}
	return b.run(ctx, op{kind: opStart})
}

func (b *Battle) startRound(ctx context.Context) error {
	b.working = true
	defer func() { b.working = false }()
	b.openRound()
	if b.transcript {
		b.emit(Event{Kind: EvRoundStart})
	}
	b.reshuffleEachRound()
	if err := b.runHooks(ctx, &hpRoundStart); err != nil {
		return err
	}
	return b.runPhases(ctx, nil)
}

// runPhases runs the round's phases in order, from the start or, with
// from, from just after from, a phase's activation loop that is over. It
// stops at the next phase's loop that has a turn to play, which is then
// the loop under way; past the last phase, the ruleset's own loop is.
func (b *Battle) runPhases(ctx context.Context, from *activation) error {
	live := ctx.Done() != nil
	i, resume := 0, []int(nil)
	if from != nil {
		i, resume = from.path[0], from.path[1:]
	}
	defer func() { b.phaseNow = nil }()
	for ; i < len(b.prog.phases); i++ {
		ph := b.prog.phases[i]
		b.phaseNow = ph
		open, err := b.runPhase(ctx, live, ph, resume)
		if err != nil || open {
			return err
		}
		resume = nil
		if b.cur.First != "" {
			// The phase is over, and with it the side it put first.
			b.cur.First, b.cur.FirstIn = "", ""
			b.changed()
		}
	}
	b.setLoop(b.prog.act)
	if b.prog.act != nil && !b.prog.readies {
		b.readyAll(nil)
	}
	if b.cur.Holder == "" {
		b.setRoundHolder()
	}
	return nil
}

// setLoop makes act the activation loop under way, from its first turn.
func (b *Battle) setLoop(act *activation) {
	id := 0
	if act != nil {
		id = act.id
	}
	if b.cur.Loop != id || b.cur.Turn != 0 || b.cur.Drawn != "" {
		b.cur.Loop, b.cur.Turn, b.cur.Drawn = id, 0, ""
		b.changed()
	}
}

// openLoop starts a phase's activation loop, readying every unit first
// when the ruleset places no Ready markers itself, and reports whether it
// has a turn to play: if not, the round goes on past it.
func (b *Battle) openLoop(act *activation) (bool, error) {
	b.setLoop(act)
	if !b.prog.readies {
		if err := b.readyAll(nil); err != nil {
			return false, err
		}
	}
	return b.turn() != nil, nil
}

// loop is the activation loop under way: a phase's, or else the
// ruleset's own (nil if it has none).
func (b *Battle) loop() *activation {
	if b.cur != nil && b.cur.Loop > 0 && b.cur.Loop <= len(b.prog.loops) {
		return b.prog.loops[b.cur.Loop-1]
	}
	return b.prog.act
}

// moveOn goes on with the round once the phase's activation loop under
// way is over: the rest of its phase and the phases after it run, to the
// next loop with a turn to play. Every op that plays in a round ends
// with it, so that Next never says a round's activations are over while
// a later phase has some.
func (b *Battle) moveOn(ctx context.Context) error {
	if !b.InRound() || b.ending || b.cur.Loop == 0 || b.turn() != nil {
		return nil
	}
	b.working = true
	defer func() { b.working = false }()
	return b.runPhases(ctx, b.loop())
}

// loopOrder is the order act's turns go in: its standing as the round
// plays it, or the setup order, with the side a rule put first in the
// phase under way first.
func (b *Battle) loopOrder(act *activation) []string {
	var order []string
	if act.by == nil {
		order = b.subjectNames(act.mode == dsl.UnitOrder)
	} else {
		order = b.roundOrder(b.standings[act.by.id])
	}
	if b.cur.First == "" || act.top == nil || act.top.name != b.cur.FirstIn || len(order) == 0 {
		return order
	}
	first := b.cur.First
	out := make([]string, 0, len(order))
	if act.mode == dsl.UnitOrder {
		// Its units first, each where it was among them.
		for _, n := range order {
			if u := b.unitByNm[n]; u != nil && u.Side.Name == first {
				out = append(out, n)
			}
		}
		for _, n := range order {
			if u := b.unitByNm[n]; u == nil || u.Side.Name != first {
				out = append(out, n)
			}
		}
		return out
	}
	out = append(out, first)
	for _, n := range order {
		if n != first {
			out = append(out, n)
		}
	}
	return out
}

// openRound makes the round after b.round the one under way, with
// nothing played in it yet.
func (b *Battle) openRound() {
	b.round++
	// The round before the previous one is no longer needed: reuse it.
	next := b.prevRound
	if next == nil || next == b.cur {
		next = &roundState{}
	}
	events := next.Events[:0]
	if cap(next.Activations) > cap(b.spareActs) {
		b.spareActs = next.Activations[:0]
	}
	*next = roundState{Round: b.round, Stage: "activation", gen: next.gen + 1}
	b.actsView = nil // the host's, for the round before
	if b.transcript {
		// The old round's transcript was never handed out (Events and
		// Result copy it), so its array is free to reuse. Rounds tend to
		// say as much as the last one did: grow it once, not each time it
		// outgrows itself.
		clear(events[:cap(events)])
		next.Events = slices.Grow(events, len(b.pending)+max(8, b.eventsHint))
	}
	if b.pending != nil {
		next.Events = append(next.Events, b.takePending()...)
	}
	b.prevRound, b.cur = b.cur, next
	b.changed()
}

// The hook points of the round itself.
var (
	hpRoundStart = HookPoint{Edge: dsl.EdgeStart, Kind: dsl.PointRound}
	hpRoundEnd   = HookPoint{Edge: dsl.EdgeEnd, Kind: dsl.PointRound}
)

// takePending returns the events that happened between rounds (such as a
// recomputation after an attribute change), which open the new round's
// transcript.
func (b *Battle) takePending() []Event {
	p := b.pending
	b.pending = nil
	return p
}

// playing says the round's order still decides who acts in it: a round
// under way, before the special rules at its end, whose changes are the
// next round's.
func (b *Battle) playing() bool { return b.InRound() && !b.ending }

func (b *Battle) setRoundHolder() {
	st := b.mainStanding()
	if st == nil || len(st.Order) == 0 {
		return
	}
	b.cur.Holder = b.roundOrder(st)[0]
	b.cur.Chooser = ""
	if st.ChoiceRound == b.round {
		b.cur.Chooser = st.Chooser
	}
}

// runPhase runs a phase or step; live says ctx can be cancelled. It
// stops at an activation loop with a turn to play (open). With resume,
// the path of such a loop inside ph, it goes on from just after it.
func (b *Battle) runPhase(ctx context.Context, live bool, ph *phase, resume []int) (open bool, err error) {
	i := 0
	if resume == nil {
		if ph.once && b.done[ph.id] {
			return false, nil
		}
		if err := b.runHooks(ctx, ph.start); err != nil {
			return false, err
		}
	} else {
		i = resume[0]
		if len(resume) > 1 {
			// The loop is in the step at i: the rest of the step first.
			if open, err := b.runPhase(ctx, live, ph.items[i].(*phase), resume[1:]); err != nil || open {
				return open, err
			}
		}
		i++
	}
	for ; i < len(ph.items); i++ {
		if live {
			if err := ctx.Err(); err != nil {
				return false, err
			}
		}
		switch x := ph.items[i].(type) {
		case *phase:
			if open, err := b.runPhase(ctx, live, x, nil); err != nil || open {
				return open, err
			}
		case *order:
			if err := b.runOrder(ctx, x); err != nil {
				return false, err
			}
			if x == b.prog.main {
				b.setRoundHolder()
			}
		case *readyRule:
			if err := b.readyAll(x); err != nil {
				return false, err
			}
		case *hookPoint:
			if err := b.runHooks(ctx, x.at); err != nil {
				return false, err
			}
		case *activation:
			if open, err := b.openLoop(x); err != nil || open {
				return open, err
			}
		case *decisionDef:
			if err := b.runDecide(ctx, x); err != nil {
				return false, err
			}
		}
	}
	if !b.done[ph.id] {
		b.done[ph.id] = true
		b.cur.Done = append(b.cur.Done, ph.key)
	}
	return false, b.runHooks(ctx, ph.end)
}

func (b *Battle) runOrder(ctx context.Context, o *order) error {
	switch o.scope.kind {
	case dsl.Once:
		if b.standings[o.id] != nil {
			return nil
		}
	case dsl.UntilChanged:
		// Recomputed by rewatch the moment a watched value changes, unless
		// that failed.
		if st := b.standings[o.id]; st != nil && !b.outdated(o, st) {
			return nil
		}
	}
	return b.computeOrder(ctx, o)
}

// rewatch recomputes, at once, every computed until-changed standing that
// watches attr and no longer matches it.
func (b *Battle) rewatch(ctx context.Context, attr string) error {
	for _, ph := range b.prog.phases {
		for _, o := range ordersIn(ph) {
			if o.scope.kind != dsl.UntilChanged || !slices.Contains(o.scope.watched, attr) || b.standings[o.id] == nil ||
				!b.outdated(o, b.standings[o.id]) {
				continue
			}
			if err := b.recompute(ctx, o); err != nil {
				return err
			}
			if o == b.prog.main && b.playing() {
				b.setRoundHolder()
			}
		}
	}
	return nil
}

// recompute makes o's standing again after a change.
func (b *Battle) recompute(ctx context.Context, o *order) error {
	due := b.dueSide(o)
	if err := b.computeOrder(ctx, o); err != nil {
		return err
	}
	b.keepTurn(due)
	return nil
}

// dueSide is the side whose turn it is when o is the order of an
// alternate or sequential activation under way, for keepTurn once o
// changes; "" otherwise. The phases at the start of a round, and the
// special rules at its end, make the order the round's activations start
// from: no turn is due in them.
func (b *Battle) dueSide(o *order) string {
	act := b.loop()
	if o == nil || act == nil || act.by != o || act.mode != dsl.Alternate && act.mode != dsl.Sequential || !b.InRound() || b.working {
		return ""
	}
	order := b.loopOrder(act)
	if len(order) == 0 {
		return ""
	}
	if act.mode == dsl.Sequential {
		// The counter may rest on a side with no ready unit, which the
		// turn passes over (see turn): the turn is the next one's.
		for k := range order {
			if side := order[(b.cur.Turn+k)%len(order)]; b.hasReady(side) {
				return side
			}
		}
	}
	return order[b.cur.Turn%len(order)]
}

// keepTurn points the turn counter at due in the activation's order as it
// now stands, for the turns to go on from there. The counter alone is a
// place in the order, so a new order would hand due's turn to whoever
// took that place: the side that has just acted could go again, and due
// lose its turn. Before any side has had a turn in the loop, though, the
// turn is the holder's, and goes to the new first.
func (b *Battle) keepTurn(due string) {
	if due == "" {
		return
	}
	order := b.loopOrder(b.loop())
	i := 0
	if b.loopPlayed() {
		if i = slices.Index(order, due); i < 0 {
			return
		}
	}
	if i != b.cur.Turn%len(order) {
		b.cur.Turn = i
	}
}

// loopPlayed says whether a side has had a turn in the activation loop
// under way: a loop's turns are the last of the round's.
func (b *Battle) loopPlayed() bool {
	n := len(b.cur.Activations)
	if n == 0 {
		return false
	}
	last := b.cur.Activations[n-1]
	act := b.loop()
	return act == nil || last.Phase == act.phase && last.Step == act.step
}

func ordersIn(ph *phase) []*order {
	var out []*order
	for _, it := range ph.items {
		switch x := it.(type) {
		case *order:
			out = append(out, x)
		case *phase:
			out = append(out, ordersIn(x)...)
		}
	}
	return out
}

// readyAll places Ready markers on every unit the rule allows (rr nil:
// every unit).
func (b *Battle) readyAll(rr *readyRule) error {
	for i, u := range b.units {
		if rr != nil && rr.cond != nil {
			out, err := b.evalSubject(rr.cond, true, i)
			if err != nil {
				return b.evalError(rr.cond, quoteSrc(rr.cond.src)+" for "+u.Name, err)
			}
			ok, isBool := out.(bool)
			if !isBool {
				// As a tie rule's guard: taken as false, the rule would
				// silently never apply.
				return ruleErrorf(rr.cond.pos, "%s for %s is %s, not true or false", quoteSrc(rr.cond.src), u.Name, describeValue(out))
			}
			if ok == rr.unless {
				if u.Ready {
					u.Ready = false
					b.changed()
				}
				if b.transcript {
					b.emit(Event{Kind: EvNotReady, Subject: u.Name, By: u.Side.Name, Detail: b.notReadyWhy(rr, i), Pos: posString(rr.pos)})
				}
				continue
			}
		}
		if !u.Ready {
			u.Ready = true
			b.changed()
		}
		switch {
		case !b.transcript:
		case rr != nil:
			b.emit(Event{Kind: EvReady, Subject: u.Name, By: u.Side.Name, Pos: posString(rr.pos)})
		default:
			b.emit(Event{Kind: EvReady, Subject: u.Name, By: u.Side.Name})
		}
	}
	return nil
}

// notReadyWhy says what kept unit i from its Ready marker: the terms of
// `unless A or B` that hold, or the factors of `where A and B` that do not
// (negated), or else the whole condition.
func (b *Battle) notReadyWhy(rr *readyRule, i int) string {
	var held []string
	for _, part := range rr.parts {
		out, err := b.evalSubject(part, true, i)
		if v, ok := out.(bool); err == nil && ok && v == rr.unless {
			held = append(held, part.src)
		}
	}
	if len(held) == 0 {
		held = []string{rr.cond.src}
	}
	if !rr.unless {
		for k, h := range held {
			held[k] = negated(h)
		}
	}
	return strings.Join(held, " and ")
}

// negated words the failure of a `where` condition for the transcript: a
// player reads "pinned", not "not not pinned", and "not (agi < 3)", not
// "not agi < 3", which reads as (not agi) < 3.
func negated(cond string) string {
	bare := func(s string) bool {
		for i, r := range s {
			if r != '_' && r != '.' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
				return false
			}
		}
		return s != ""
	}
	for _, not := range []string{"not ", "!"} {
		if rest, ok := strings.CutPrefix(cond, not); ok && bare(strings.TrimSpace(rest)) {
			return strings.TrimSpace(rest)
		}
	}
	if bare(cond) {
		return "not " + cond
	}
	return "not (" + cond + ")"
}

// runHooks runs the ruleset's handlers for at, in declared order, then the
// Go hooks.
func (b *Battle) runHooks(ctx context.Context, at *HookPoint) error {
	if len(b.prog.handlers) == 0 && len(b.hooks) == 0 && b.hookEntries == 0 && !b.transcript {
		return nil // nothing would happen or be recorded: the usual case, kept cheap
	}
	return b.runHooksAt(ctx, *at)
}

func (b *Battle) runHooksAt(ctx context.Context, at HookPoint) error {
	// A named hook point is told before what its handlers do.
	if at.Kind == dsl.PointHook && b.transcript {
		b.emit(Event{Kind: EvHook, Subject: at.Name, Detail: at.String()})
	}
	for _, h := range b.prog.handlers {
		if h.point != at {
			continue
		}
		if h.when != nil {
			out, err := b.evalGroup(h.when, false, nil)
			if err != nil {
				return b.evalError(h.when, quoteSrc(h.when.src), err)
			}
			ok, isBool := out.(bool)
			if !isBool {
				return ruleErrorf(h.when.pos, "%s is %s, not true or false", quoteSrc(h.when.src), describeValue(out))
			}
			if !ok {
				continue
			}
		}
		if b.transcript {
			b.emit(Event{Kind: EvHook, Subject: at.Name, Detail: "on " + at.String(), Pos: posString(h.pos)})
		}
		for _, a := range h.body {
			if err := b.runAction(ctx, a); err != nil {
				return err
			}
		}
	}
	return b.hookPoint(ctx, at)
}

func (b *Battle) runAction(ctx context.Context, a action) error {
	eval := func(c *compiled) (any, error) {
		out, err := b.evalGroup(c, false, nil)
		if err != nil {
			return nil, b.evalError(c, quoteSrc(c.src), err)
		}
		return out, nil
	}
	wrap := func(pos dsl.Pos, err error) error {
		if err == nil {
			return nil
		}
		if errors.Is(err, ErrInvalidChange) {
			// The rule named what is not there, not the host.
			err = errors.New(err.Error())
		}
		return &RuleError{Pos: pos, Err: err}
	}
	switch x := a.(type) {
	case *setAction:
		who, err := eval(x.target)
		if err != nil {
			return err
		}
		v, err := eval(x.value)
		if err != nil {
			return err
		}
		if f, ok := v.(float64); ok && f == float64(int(f)) {
			v = int(f)
		}
		name, _ := who.(string)
		if name == "" {
			return ruleErrorf(x.pos, "set %s of %s: %s names nobody here%s", x.attr, x.target.src, quoteSrc(x.target.src), b.previousInHandler(x.target.src))
		}
		// The set is this rule's doing; what the recomputation it causes
		// does is not (a failing order reports its own rule).
		changed, err := b.setAttr(name, x.attr, v)
		if err != nil || !changed {
			return wrap(x.pos, err)
		}
		return b.rewatch(ctx, x.attr)
	case *readyAction:
		v, err := eval(x.e)
		if err != nil {
			return err
		}
		// Compile refuses what is surely not a name or a list of names;
		// what only play can tell (the elements of a list) is checked here.
		var names []string
		switch t := v.(type) {
		case string:
			names = []string{t}
		case []string:
			names = t
		case []any:
			for _, e := range t {
				s, ok := e.(string)
				if !ok {
					return ruleErrorf(x.e.pos, "ready: %s holds %s, which is not a name", quoteSrc(x.e.src), describeValue(e))
				}
				names = append(names, s)
			}
		default:
			return ruleErrorf(x.e.pos, "ready: %s is %s, not a name or a list of names", quoteSrc(x.e.src), describeValue(v))
		}
		for _, n := range names {
			if n == "" {
				return ruleErrorf(x.e.pos, "ready: %s names nobody here%s", quoteSrc(x.e.src), b.previousInHandler(x.e.src))
			}
		}
		for _, n := range names {
			if err := b.makeReady(n); err != nil {
				return wrap(x.pos, err)
			}
		}
	case *holderAction:
		v, err := eval(x.e)
		if err != nil {
			return err
		}
		name, _ := v.(string)
		if name == "" && b.InRound() && b.mainStanding() != nil {
			return ruleErrorf(x.e.pos, "holder = %s: %s names nobody here%s", x.e.src, quoteSrc(x.e.src), b.previousInHandler(x.e.src))
		}
		return wrap(x.pos, b.setHolder(name))
	case *firstAction:
		return b.setFirst(x)
	case *reshuffleAction:
		b.reshuffle(x.rz, nil, "rule")
	}
	return nil
}

// setFirst puts the side x names first in the activation loops of the
// phase under way.
func (b *Battle) setFirst(x *firstAction) error {
	v, err := b.evalGroup(x.e, false, nil)
	if err != nil {
		return b.evalError(x.e, quoteSrc(x.e.src), err)
	}
	name, _ := v.(string)
	ph := b.phaseNow
	switch {
	case ph == nil:
		// Compile refuses it in the round's own rules; not reached.
		return ruleErrorf(x.pos, "first = %s: no phase is under way", x.e.src)
	case name == "":
		return ruleErrorf(x.e.pos, "first = %s: %s names nobody here%s", x.e.src, quoteSrc(x.e.src), b.previousInHandler(x.e.src))
	case b.sideByNm[name] == nil:
		return ruleErrorf(x.e.pos, "first = %s: %s is not a side (sides: %s)", x.e.src, strconv.Quote(name), strings.Join(b.subjectNames(false), ", "))
	}
	if b.cur.First != name || b.cur.FirstIn != ph.name {
		b.cur.First, b.cur.FirstIn = name, ph.name
		b.changed()
	}
	if b.transcript {
		b.emit(Event{Kind: EvFirst, Subject: name, Phase: ph.name, Detail: "first = " + x.e.src, Pos: posString(x.pos)})
	}
	return nil
}

// previousInHandler says, for a special rule's expression that names
// nobody in round 1 and reads a previous value, why and what to do.
func (b *Battle) previousInHandler(src string) string {
	if b.now() > 1 || !strings.Contains(src, "previous.") {
		return ""
	}
	return ": in round 1 every previous value is empty; give the rule a condition that is false then, as in `when round > 1`"
}

// Turn says who acts now in the activation loop, and with what choices.
type Turn struct {
	Side     string   `json:"side"`
	Options  []string `json:"options"`             // ready units the side may activate
	CanPass  bool     `json:"can_pass,omitempty"`  // the side may pass although it has ready units
	MustPass bool     `json:"must_pass,omitempty"` // the side has no ready unit and must pass
	// Undrawn says, in activation draw, that the next die is still in
	// the bag: Side and Options are empty until Draw, Step or Activate
	// draws it.
	Undrawn bool `json:"undrawn,omitempty"`
	// Phase and Step name the phase (and step) whose activation loop the
	// turn is in: both "" in the ruleset's own loop, after the phases.
	Phase string `json:"phase,omitempty"`
	Step  string `json:"step,omitempty"`
}

// Next returns whose turn it is, or nil when the round's activations are
// over (no unit is ready, or the ruleset has no activation) and when no
// round is under way (before StartRound, or after EndRound, even with
// units still Ready from a round cut short: InRound tells these apart). In
// activation draw, a turn whose die is not drawn yet is Turn.Undrawn. When the
// ruleset's condition on passing (`pass allowed when ...`) cannot be
// worked out, CanPass is false: Step and Pass return the error.
func (b *Battle) Next() *Turn {
	if b.prog == nil {
		return nil
	}
	t, _ := b.playTurn()
	if t == nil {
		return nil
	}
	c := *t
	c.Options = slices.Clone(t.Options)
	return &c
}

// playTurn is turn with CanPass worked out: the ruleset's condition on
// passing, if it has one, for the side whose turn it is. The condition may
// fail, which turn could not say; Activate, which needs no answer to it,
// takes turn alone. On an error the turn is returned too, without a pass.
func (b *Battle) playTurn() (*Turn, error) {
	t := b.turn()
	if t == nil || !t.CanPass || b.loop().passWhen == nil {
		return t, nil
	}
	ok, err := b.mayPass(t.Side)
	t.CanPass = ok
	return t, err
}

// mayPass evaluates the condition on passing for side.
func (b *Battle) mayPass(side string) (bool, error) {
	c := b.loop().passWhen
	i := slices.IndexFunc(b.sides, func(s *Side) bool { return s.Name == side })
	out, err := b.evalSubject(c, false, i)
	if err != nil {
		return false, b.evalError(c, "pass allowed when "+quoteSrc(c.src)+" for "+side, err)
	}
	ok, isBool := out.(bool)
	if !isBool {
		// Taken as false, passing would silently never be allowed.
		return false, ruleErrorf(c.pos, "pass allowed when %s for %s is %s, not true or false", quoteSrc(c.src), side, describeValue(out))
	}
	return ok, nil
}

// turn is Next in the battle's own memory, for its own use: the turn and
// its options are good until the next call. CanPass says only that the
// ruleset lets the side pass if its condition on passing holds: playTurn
// works that out.
func (b *Battle) turn() *Turn {
	act := b.loop()
	if !b.InRound() || act == nil || !b.anyReady() {
		return nil
	}
	if act.by != nil {
		if st := b.standings[act.by.id]; st == nil || len(st.Order) == 0 {
			return nil
		}
	}
	t := &b.turnBuf
	if act.mode == dsl.Draw {
		// The bag needs no order to draw from.
		if b.cur.Drawn == "" || !b.hasReady(b.cur.Drawn) {
			*t = Turn{Undrawn: true, Phase: act.phase, Step: act.step} // rare: the buffer can go
			return t
		}
		*t = Turn{Side: b.cur.Drawn, Options: b.readyOf(b.cur.Drawn, t.Options[:0]), Phase: act.phase, Step: act.step}
		return t
	}
	order := b.loopOrder(act)
	if len(order) == 0 {
		return nil
	}
	switch act.mode {
	case dsl.UnitOrder:
		for _, n := range order {
			if u := b.unitByNm[n]; u != nil && u.Ready {
				*t = Turn{Side: u.Side.Name, Options: append(t.Options[:0], u.Name), Phase: act.phase, Step: act.step}
				return t
			}
		}
		return nil
	case dsl.Sequential:
		for k := 0; k < len(order); k++ {
			side := order[(b.cur.Turn+k)%len(order)]
			if ready := b.readyOf(side, t.Options[:0]); len(ready) > 0 {
				*t = Turn{Side: side, Options: ready, CanPass: act.passAllowed, Phase: act.phase, Step: act.step}
				return t
			}
		}
		return nil
	}
	side := order[b.cur.Turn%len(order)]
	ready := b.readyOf(side, t.Options[:0])
	*t = Turn{Side: side, Options: ready, MustPass: len(ready) == 0, CanPass: act.passAllowed && len(ready) > 0, Phase: act.phase, Step: act.step}
	return t
}

func (b *Battle) anyReady() bool {
	for _, u := range b.units {
		if u.Ready {
			return true
		}
	}
	return false
}

// readyOf appends the names of side's ready units to out.
func (b *Battle) readyOf(side string, out []string) []string {
	if s := b.sideByNm[side]; s != nil {
		for _, u := range s.Units {
			if u.Ready {
				out = append(out, u.Name)
			}
		}
	}
	return out
}

func (b *Battle) hasReady(side string) bool {
	s := b.sideByNm[side]
	return s != nil && slices.ContainsFunc(s.Units, func(u *Unit) bool { return u.Ready })
}

// Draw draws the next die from the bag in activation draw, unless the side
// drawn for this turn still has a ready unit, and returns the side whose
// turn it is, as Next would ("" when the round's activations are over).
// The draw is made at the start of each turn, not at the end of the one
// before, so that a unit removed between turns has taken its die out
// first: Step and Activate draw when no side is drawn, and until then Next
// shows Turn.Undrawn. Draw lets a host show the side before it chooses. A
// dice error is returned as for any random pick, and nothing is drawn.
func (b *Battle) Draw(ctx context.Context) (string, error) {
	if err := b.ready("Draw"); err != nil {
		return "", err
	}
	if !b.InRound() {
		return "", errNoRound("Draw")
	}
	if err := b.run(ctx, op{kind: opDraw}); err != nil {
		return "", err
	}
	if t := b.turn(); t != nil {
		return t.Side, nil
	}
	return "", nil
}

// drawSide draws the side whose turn it is in activation draw, unless the
// side drawn still has a ready unit: every ready unit has a die of its
// side's colour in the bag, so a side comes out with a chance in
// proportion to its ready units. The draw is a random pick among the dice,
// one option per die named for its side (Jay, Jay, Jay, Rob, Rob), so that
// every Dice draws it as it picks for `random`; a scripted pick names the
// side. A bag of one colour needs no pick, as the last of a random order
// does not. The dice are listed in the order of the activation's standing.
func (b *Battle) drawSide(ctx context.Context) error {
	act := b.loop()
	if act == nil || !act.draw || !b.InRound() || b.cur.Drawn != "" && b.hasReady(b.cur.Drawn) {
		return nil
	}
	if b.cur.Drawn != "" {
		b.cur.Drawn = ""
		b.changed()
	}
	if act.by != nil && b.standings[act.by.id] == nil {
		return nil // no turn either: the order is not made
	}
	bag := b.bagBuf[:0]
	one := true
	for _, side := range b.loopOrder(act) {
		if s := b.sideByNm[side]; s != nil {
			for _, u := range s.Units {
				if u.Ready {
					one = one && (len(bag) == 0 || bag[0] == side)
					bag = append(bag, side)
				}
			}
		}
	}
	b.bagBuf = bag
	if len(bag) == 0 {
		return nil // the bag is empty: the round's activations are over
	}
	if one {
		b.cur.Drawn = bag[0]
		b.changed()
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	req := PickRequest{Round: b.round, Standing: act.byName(), Options: bag, Pos: act.pos, Draw: true}
	if b.seeded == nil {
		// Dice that are not ours may keep what they are given.
		req.Options = slices.Clone(bag)
	}
	k, err := b.pickInput(ctx, req)
	if err != nil {
		return err
	}
	b.cur.Drawn = bag[k]
	b.changed()
	if b.transcript {
		b.emit(Event{Kind: EvRandom, Standing: act.byName(), Subject: bag[k], Subjects: slices.Clone(bag), Rule: "activation draw", Pos: posString(act.pos),
			Phase: act.phase, Step: act.step})
	}
	return nil
}

func (b *Battle) countStep() error {
	// Refused before it counts, so that the count never passes the
	// limit: a restored battle's is checked against it.
	if b.cur.Steps >= b.prog.limits.MaxSteps {
		return ruleErrorf(b.loop().pos, "more than %d activations and passes in one round: %w", b.prog.limits.MaxSteps, ErrLimit)
	}
	b.cur.Steps++
	return nil
}

// Activate activates a ready unit of the side whose turn it is, removing
// its Ready marker. In activation draw it draws that side first if no side
// is drawn (see Draw).
func (b *Battle) Activate(ctx context.Context, unit string) error {
	if err := b.ready("Activate"); err != nil {
		return err
	}
	if !b.InRound() {
		return errNoRound("Activate")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return b.run(ctx, op{kind: opActivate, who: unit})
}

func (b *Battle) activate(ctx context.Context, unit string) error {
	if err := b.drawSide(ctx); err != nil {
		return err
	}
	t := b.turn()
	if t == nil {
		return ErrRoundOver
	}
	if !slices.Contains(t.Options, unit) {
		if t.MustPass {
			return markErrorf(ErrNotAllowed, "%s has no ready unit and must pass", t.Side)
		}
		// Why, in the words a Decider's refused answer gets: a player
		// who clicked on a board is as puzzled as one who answered.
		return markErrorf(ErrNotAllowed, "%s cannot activate %s now (ready: %s)%s", t.Side, unit, strings.Join(t.Options, ", "), b.whyNotActivate(t.Side, unit, true))
	}
	if err := b.countStep(); err != nil {
		return err
	}
	u := b.unitByNm[unit]
	u.Ready = false
	b.changed()
	act := b.loop()
	b.record(ActivationRecord{Side: t.Side, Unit: unit, Phase: act.phase, Step: act.step})
	if b.transcript {
		ev := Event{Kind: EvActivate, By: t.Side, Subject: unit, Phase: act.phase, Step: act.step}
		if act.draw && !b.drewThisTurn() {
			// The transcript has no draw to say why this side acts.
			ev.Detail = "no draw: only " + wording.Possessive(t.Side) + " dice are left in the bag"
		}
		b.emit(ev)
	}
	b.advance(t.Side)
	return nil
}

// drewThisTurn reports whether the turn under way in activation draw began
// with a draw from the bag, as its event says, rather than with a bag of
// one colour, which needs none (see drawSide).
func (b *Battle) drewThisTurn() bool {
	for i := len(b.cur.Events) - 1; i >= 0; i-- {
		switch e := &b.cur.Events[i]; {
		case e.Kind == EvRandom && e.Rule == "activation draw":
			return true
		case e.Kind == EvActivate || e.Kind == EvPass:
			return false
		}
	}
	return false
}

// Pass passes the turn of the side whose turn it is: forced when it has no
// ready unit, and otherwise only if the ruleset allows passing.
func (b *Battle) Pass(ctx context.Context) error {
	if err := b.ready("Pass"); err != nil {
		return err
	}
	if !b.InRound() {
		return errNoRound("Pass")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return b.run(ctx, op{kind: opPass})
}

func (b *Battle) pass(context.Context) error {
	t, err := b.playTurn()
	if err != nil {
		return err
	}
	if t == nil {
		return ErrRoundOver
	}
	if t.Undrawn {
		// Drawing here would only find a side that may not pass.
		return markErrorf(ErrNotAllowed, "no side may pass in activation draw: the side drawn from the bag activates one of its ready units")
	}
	if !t.MustPass && !t.CanPass {
		if c := b.loop().passWhen; c != nil && b.loop().mode != dsl.UnitOrder {
			return markErrorf(ErrNotAllowed, "%s may not pass now: it may pass only when %s, and that is false for it (ready: %s)",
				t.Side, quoteSrc(c.src), strings.Join(t.Options, ", "))
		}
		return markErrorf(ErrNotAllowed, "%s may not pass while it has ready units (%s)", t.Side, strings.Join(t.Options, ", "))
	}
	if err := b.countStep(); err != nil {
		return err
	}
	act := b.loop()
	b.record(ActivationRecord{Side: t.Side, Pass: true, Phase: act.phase, Step: act.step})
	why := "no ready unit"
	if !t.MustPass {
		why = "chose to pass"
	}
	b.emit(Event{Kind: EvPass, By: t.Side, Detail: why, Phase: act.phase, Step: act.step})
	b.cur.Turn++
	return nil
}

// record adds a to the round's record of activations. The record of the
// round before last was never handed out (Activations, Result and Clone
// copy it), so the round reuses its array; it stays nil until the first
// activation, as a snapshot of a round without any says.
func (b *Battle) record(a ActivationRecord) {
	if b.cur.Activations == nil {
		if cap(b.spareActs) > 0 {
			b.cur.Activations, b.spareActs = b.spareActs[:0], nil
		} else {
			b.cur.Activations = make([]ActivationRecord, 0, max(b.actsHint, 1))
		}
	}
	b.cur.Activations = append(b.cur.Activations, a)
}

func (b *Battle) advance(side string) {
	act := b.loop()
	switch act.mode {
	case dsl.Draw:
		b.cur.Drawn = "" // the die is spent: the next turn draws again
	case dsl.Alternate:
		b.cur.Turn++
	case dsl.Sequential:
		b.cur.Turn = slices.Index(b.loopOrder(act), side)
		if !b.hasReady(side) {
			b.cur.Turn++
		}
	}
}

// Step plays one turn of the activation loop, asking the Decider which
// unit to activate. It reports done when the round's activations are over.
// A turn without a choice is played without asking: a side with one ready
// unit that may not pass activates it, and a side with none passes (so a
// ScriptedDecider's script names only the turns with a choice).
// When the Decider fails or gives an answer the turn does not offer
// (ErrInvalidAnswer), nothing is played: calling Step again asks the same
// decision again.
// With no round under way (StartRound not called, or EndRound called) it
// returns ErrNoRound: a host loop that forgot StartRound would otherwise
// be done at once, having played nothing.
func (b *Battle) Step(ctx context.Context) (done bool, err error) {
	if err := b.ready("Step"); err != nil {
		return false, err
	}
	if b.pend == nil && !b.InRound() {
		return false, errNoRound("Step")
	}
	b.stepDone = false
	if err := b.run(ctx, op{kind: opStep}); err != nil {
		return false, err
	}
	return b.stepDone, nil
}

func (b *Battle) step(ctx context.Context) (done bool, err error) {
	if err := b.moveOn(ctx); err != nil {
		return false, err
	}
	if err := b.drawSide(ctx); err != nil {
		return false, err
	}
	t, err := b.playTurn()
	if err != nil {
		return false, err
	}
	if t == nil {
		return true, nil
	}
	if t.Undrawn {
		// drawSide has just drawn, or found the bag empty: not reached.
		// Should it be, the error is the activation loop's, of no order
		// (as a draw's others are), and names the order it draws by.
		return false, roundErrorf(b.round, "", "activation draw by %s: no side is drawn, and units are still ready (%s)", b.loop().byName(), strings.Join(b.ReadyUnits(), ", "))
	}
	act := b.loop()
	if t.MustPass {
		return false, b.pass(ctx)
	}
	if len(t.Options) == 1 && !t.CanPass {
		return false, b.activate(ctx, t.Options[0])
	}
	def := t.Options[0]
	if act.policy == dsl.PolicyLast {
		def = t.Options[len(t.Options)-1]
	}
	if b.policyDecides() && !b.transcript {
		// Nobody to ask and nothing to record: the policy's answer.
		return false, b.activate(ctx, def)
	}
	// The turn is the battle's scratch, which the decider may overwrite
	// (by calling Next); the decision and its event get their own.
	options := slices.Clone(t.Options)
	if t.CanPass {
		options = append(options, "pass")
	}
	d := Decision{Kind: ChooseActivation, By: t.Side, Options: options, Default: []string{def}, Round: b.round,
		Standing: act.byName(), Pos: act.pos, Drawn: act.draw, Phase: act.phase, Step: act.step}
	if c := act.passWhen; c != nil && !t.CanPass {
		d.PassWhen = c.src
	}
	ans, err := b.decide(ctx, d)
	if err != nil {
		return false, err
	}
	if b.transcript {
		b.emit(Event{Kind: EvDecision, By: d.By, Choice: b.owned(ans), Subjects: options, Rule: "activation " + string(act.mode),
			Detail: string(d.Kind), Pos: posString(d.Pos), Phase: act.phase, Step: act.step})
	}
	if ans[0] == "pass" {
		return false, b.pass(ctx)
	}
	return false, b.activate(ctx, ans[0])
}

// EndRound ends the round under way: its end hooks run, and the round's
// holder, chooser, order and remembered values become the memory that the
// next round reads as previous. With no round under way (called twice, or
// before StartRound) it returns ErrNoRound. Activations not yet played are not played:
// their units keep their Ready markers, as a round cut short at the table
// does (Step until done plays them first).
func (b *Battle) EndRound(ctx context.Context) (*RoundResult, error) {
	if err := b.ready("EndRound"); err != nil {
		return nil, err
	}
	if b.pend == nil && !b.InRound() {
		return nil, errNoRound("EndRound")
	}
	if err := b.run(ctx, op{kind: opEnd}); err != nil {
		return nil, err
	}
	return b.Result(), nil
}

func (b *Battle) endRound(ctx context.Context) error {
	b.working = true
	defer func() { b.working = false }()
	st := b.mainStanding()
	played := b.roundOrder(st)
	b.ending = true
	err := b.runHooks(ctx, &hpRoundEnd)
	b.ending = false
	if err != nil {
		return err
	}
	var values map[string]any
	for _, r := range b.prog.remember {
		if r.decision != nil {
			if v := b.rememberDecision(r.decision); v != nil {
				if values == nil {
					values = map[string]any{}
				}
				values[r.name] = v
			}
			continue
		}
		out, err := b.evalGroup(r.e, false, nil)
		if err != nil {
			return b.evalError(r.e, "remember "+r.name, err)
		}
		if out, err = plain(out); err != nil {
			return ruleErrorf(r.e.pos, "remember %s: %v", r.name, err)
		}
		if values == nil {
			values = map[string]any{}
		}
		values[r.name] = out
	}
	if b.transcript {
		b.emit(Event{Kind: EvRoundEnd})
	}
	// The standing's order is never changed in place, so memory can share it.
	order := b.roundOrder(b.mainStanding())
	if b.mainStanding() != st {
		// A special rule at the end of the round changed what the order
		// watches: the new order is the next round's, and this round was
		// played in the old one (with the holder a special rule may have
		// set).
		order = b.overridden(played)
	}
	b.closeRound(order, values)
	return nil
}

// closeRound ends the round under way, played in order: its holder,
// chooser, order and remembered values become the memory.
func (b *Battle) closeRound(order []string, values map[string]any) {
	m := &b.memory
	m.Holder, m.Chooser, m.Order, m.Values = b.cur.Holder, b.cur.Chooser, order, values
	b.eventsHint, b.actsHint = len(b.cur.Events), len(b.cur.Activations)
	b.cur.Stage = "ended"
	// A round ended in a phase's loop ends it, and the phase, there.
	b.cur.Loop, b.cur.First, b.cur.FirstIn = 0, "", ""
	b.changed()
}

// Result returns the record of the current (or last) round.
func (b *Battle) Result() *RoundResult {
	if b.cur == nil {
		return nil
	}
	var order []string
	if b.cur.Stage == "ended" && b.cur.Round == b.round {
		// As the round was played: a change since is the next round's.
		order = slices.Clone(b.memory.Order)
	} else {
		order = b.Order()
	}
	return &RoundResult{
		Round:       b.cur.Round,
		Order:       order,
		Holder:      b.cur.Holder,
		Chooser:     b.cur.Chooser,
		Activations: slices.Clone(b.cur.Activations),
		Events:      cloneEvents(b.cur.Events),
	}
}

// describeValue shows a value an expression produced, strings quoted so
// that "" and "3" are not mistaken for nothing and a number.
func describeValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case string:
		return strconv.Quote(x)
	}
	return fmt.Sprint(v)
}
