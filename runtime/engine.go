package runtime

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
)

// The engine. Every method that plays (StartRound, Step, Activate, Pass,
// Draw, EndRound, AdvanceRound, and the changes SetAttr, SetStatus,
// RemoveUnit, AddUnit, MakeReady and SetHolder) runs as one operation, an op. An
// op starts from a copy of the battle as it found it, its base, and
// writes down in its journal every input it is given (each roll, pick and
// decision that dice and deciders answered, other than the battle's own
// seeded dice, which roll the same again from the base's state) and what
// the Go hooks it ran changed. The battle as it stands is therefore always
// the base played on with the journal, and that is how an op stops and
// goes on:
//
//   - An op that needs an input its dice or decider leave to the host
//     (AskHost) stops there, with the input pending (Pending). Answer
//     checks the answer, adds it to the journal and plays the op again
//     from its base: the journal answers every input it answered before,
//     and takes the place of the Go hooks that ran before, so nothing is
//     asked or run twice.
//   - An op that fails (a rule, a limit, a cancelled context) leaves the
//     battle as it was before the call: back at its base, or, for an
//     Answer, at the input it answered.
//   - A snapshot taken while an input is pending saves the base, the op
//     and the journal; Restore plays the op again from them, in another
//     process, to the same pending input.
//   - Undo (with WithUndo) plays an op again with one answer fewer.

// opKind is what an op does.
type opKind uint8

const (
	opNone opKind = iota
	opStart
	opStep
	opAdvance
	opEnd
	opActivate
	opPass
	opDraw
	opSetAttr
	opSetStatus
	opRemove
	opReady
	opHolder
	opAdd
)

var opNames = [...]string{opNone: "", opStart: "start_round", opStep: "step", opAdvance: "advance_round",
	opEnd: "end_round", opActivate: "activate", opPass: "pass", opDraw: "draw", opSetAttr: "set_attr",
	opSetStatus: "set_status", opRemove: "remove_unit", opReady: "make_ready", opHolder: "set_holder",
	opAdd: "add_unit"}

// op is one call of a method that plays: its kind and arguments.
type op struct {
	kind  opKind
	who   string // the unit or side
	key   string // the attribute or status
	value any    // the attribute's value
	on    bool   // the status is given (not taken away)
}

// entryKind is what a journal entry holds.
type entryKind uint8

const (
	entryRoll entryKind = iota + 1
	entryPick
	entryDecision
	entryHook   // what the Go hooks at a hook point changed
	entryChange // what dice or a decider changed before they answered
)

// entry is one input an op was given, or what the Go hooks at one hook
// point changed.
type entry struct {
	kind    entryKind
	rolls   []int    // entryRoll: each subject's natural total
	pick    int      // entryPick
	choice  []string // entryDecision
	changes []op     // entryHook, entryChange: the changes, as ops, in the order made
	host    bool     // given with Answer: what Undo takes back
	seeded  bool     // rolled or picked by the battle's own seeded dice,
	pcg     rand.PCG // whose state before it was this
}

// errWaiting unwinds an op that stopped at an input its dice or decider
// leave to the host. It never reaches a host: the op returns ErrPending.
var errWaiting = errors.New("waiting for an input")

// ErrPending is returned by a method that plays when the battle stops at
// an input its dice or decider leave to the host (AskHost), and by the
// methods that cannot run while an input is pending: Pending says what
// it is, and Answer gives it. The battle is whole: it may be saved, and
// restored in another process, where Pending asks the same.
var ErrPending = errors.New("waiting for an input")

// ErrNothingPending is returned by Answer when the battle waits for no
// input.
var ErrNothingPending = errors.New("no input is pending")

// run plays o as an op. Called from a Go hook while an op runs, o is part
// of that op: it is played at once, and written down for the op's replay.
func (b *Battle) run(ctx context.Context, o op) error {
	if b.running {
		if b.hookLog != nil {
			*b.hookLog = append(*b.hookLog, o)
		}
		return b.exec(ctx, o)
	}
	if b.pend != nil {
		if b.op.same(o) {
			// The same call again: ask the dice or decider again for
			// the input they failed to give.
			return b.goOn(ctx, -1)
		}
		return b.pendingError()
	}
	b.begin(o)
	err := b.play(ctx)
	switch {
	case err == nil || b.pend != nil:
	case errors.Is(err, ErrNotAllowed):
		// A move the turn does not allow, refused once the side whose
		// turn it is was drawn from the bag: the draw stands, as at the
		// table, and the op ends there.
		b.keepHistory()
		b.op = op{}
	default:
		b.revert()
	}
	return err
}

// same says o is the call p again.
func (p op) same(o op) bool {
	return p.kind == o.kind && p.who == o.who && p.key == o.key && p.on == o.on && reflect.DeepEqual(p.value, o.value)
}

// begin starts op o from the battle as it is.
func (b *Battle) begin(o op) {
	b.recordHistory()
	if b.base == nil {
		b.base = &Battle{}
	}
	b.base.copyState(b)
	b.op = o
	b.journal = b.journal[:0]
	b.hookEntries = 0
}

// play runs the op from wherever the battle stands (its base, with the
// journal to replay): to its end, or until it needs an input. An op that
// ends is over; one that stops keeps its input pending.
func (b *Battle) play(ctx context.Context) error {
	b.pend = nil
	b.replayed = 0
	b.running = true
	err := b.exec(ctx, b.op)
	if err == nil {
		err = b.moveOn(ctx)
	}
	b.running = false
	b.inCallback, b.working, b.ending = 0, false, false
	b.scr.depth = 0
	if b.replayed < len(b.journal) && err == nil {
		err = b.journalError(b.replayed, "the call (%s) ended before this input was asked for", b.op.kind)
	}
	switch {
	case err == nil:
		b.keepHistory()
		b.op = op{}
		return nil
	case errors.Is(err, errWaiting):
		b.keepHistory()
		return b.pendingError()
	case b.pend != nil:
		b.keepHistory()
	default:
		b.failedInRound(err)
	}
	return err
}

// failedInRound notes on a rule's error in the middle of a round that
// round, which the battle, put back as it was, may no longer be in, and
// what the round did up to it.
func (b *Battle) failedInRound(err error) {
	re, ok := errors.AsType[*RuleError](err)
	if !ok || re.Round != 0 || b.cur == nil || b.cur.Stage == "ended" {
		return
	}
	re.Round = b.round
	if b.transcript {
		re.Events = slices.Clone(b.cur.Events)
	}
}

// goOn plays the op again from its base, after Answer added an entry to
// the journal (keep is the journal's length before it; -1 for none added,
// to ask the dice or decider again for the input pending): on a failure
// that is not an input's, the battle goes back to where it was.
func (b *Battle) goOn(ctx context.Context, keep int) error {
	b.reset()
	err := b.play(ctx)
	if err == nil || b.pend != nil {
		return err
	}
	if keep < 0 {
		b.revert()
		return err
	}
	// Back to the input answered: what the op did before it again,
	// without asking anything or running a Go hook.
	b.truncate(keep)
	b.reset()
	b.noAsk = true
	b.play(context.WithoutCancel(ctx))
	b.noAsk = false
	if b.pend == nil {
		// Not reached: the same journal led to the input before.
		b.revert()
	}
	return err
}

// reset puts the battle back at the op's base, keeping the op and its
// journal, to play it again. The seeded dice stay as they are: the
// journal holds what they rolled.
func (b *Battle) reset() {
	var pcg rand.PCG
	if b.seeded != nil {
		pcg = *b.seeded.pcg
	}
	b.copyState(b.base)
	if b.seeded != nil {
		*b.seeded.pcg = pcg
	}
}

// truncate cuts the journal to its first n entries, and rewinds the
// seeded dice to before the first of those cut that they rolled.
func (b *Battle) truncate(n int) {
	for _, e := range b.journal[n:] {
		if e.seeded && b.seeded != nil {
			*b.seeded.pcg = e.pcg
			break
		}
	}
	b.journal = b.journal[:n]
}

// revert gives the op up: the battle is its base again.
func (b *Battle) revert() {
	b.copyState(b.base)
	b.dropHistory()
	b.op, b.pend = op{}, nil
	b.journal = b.journal[:0]
	b.hookEntries = 0
}

// pendingError says what the battle waits for.
func (b *Battle) pendingError() error {
	if b.pend == nil {
		return ErrPending
	}
	return fmt.Errorf("round %d: %s: %w", b.pend.round(), b.pend, ErrPending)
}

// exec does what o says, as part of the op under way.
func (b *Battle) exec(ctx context.Context, o op) error {
	switch o.kind {
	case opStart:
		return b.startRound(ctx)
	case opStep:
		done, err := b.step(ctx)
		b.stepDone = done
		return err
	case opAdvance:
		return b.advanceRound(ctx)
	case opEnd:
		return b.endRound(ctx)
	case opActivate:
		return b.activate(ctx, o.who)
	case opPass:
		return b.pass(ctx)
	case opDraw:
		return b.drawSide(ctx)
	case opSetAttr:
		return b.setAttrOp(ctx, o.who, o.key, o.value)
	case opSetStatus:
		return b.setStatus(ctx, o.who, o.key, o.on)
	case opRemove:
		return b.removeUnit(ctx, o.who)
	case opReady:
		return b.makeReady(o.who)
	case opHolder:
		return b.setHolder(o.who)
	case opAdd:
		return b.addUnit(ctx, o)
	}
	return fmt.Errorf("unknown operation %d", o.kind)
}

// replaying says the op under way is playing its journal again.
func (b *Battle) replaying() bool { return b.running && b.replayed < len(b.journal) }

// next returns the journal's next entry, which must be of kind k, while
// the op replays it; nil once it is played through.
func (b *Battle) next(k entryKind) (*entry, error) {
	if !b.replaying() {
		return nil, nil
	}
	e := &b.journal[b.replayed]
	if e.kind != k {
		return nil, b.journalError(b.replayed, "the rules ask for %s here, not %s", k, e.kind)
	}
	b.replayed++
	return e, nil
}

func (k entryKind) String() string {
	switch k {
	case entryRoll:
		return "a roll"
	case entryPick:
		return "a random pick"
	case entryDecision:
		return "a decision"
	case entryHook:
		return "a Go hook's changes"
	case entryChange:
		return "the changes dice or a decider made"
	}
	return "nothing"
}

// journalError is an entry of a journal that does not fit the rules: only
// a save edited by hand (or of other rules) has one.
func (b *Battle) journalError(i int, format string, args ...any) error {
	return fmt.Errorf("journal[%d]: %s", i, fmt.Sprintf(format, args...))
}

// ask stops the op at req, an input for the host, or records that the
// battle's dice or decider failed to give it: either way req is pending.
func (b *Battle) ask(req Request, err error) error {
	if b.inHook {
		// A Go hook cannot be resumed from the middle of its code: the
		// change it made fails, and so does the hook's point.
		werr := &HookWaitError{Input: req, Err: err}
		if errors.Is(err, errWaiting) {
			werr.Err = nil
		}
		if b.hookWait == nil {
			b.hookWait = werr
		}
		return werr
	}
	b.pend = &req
	return err
}

// write adds an input the battle's dice or decider gave to the journal.
func (b *Battle) write(e entry) {
	b.journal = append(b.journal, e)
	b.replayed = len(b.journal)
}

// callback runs f, a call of the battle's dice or decider for req, which
// may change the battle (a casualty at the table): the changes are
// written down before the input f gives, for the op's replay to make
// them again. A change may play rules that ask inputs of their own, in
// callbacks of their own; back in this one, the battle asks req again.
func (b *Battle) callback(req *Request, f func()) {
	var changes []op
	log, asking, askedAt, at := b.hookLog, b.asking, b.askedAt, len(b.journal)
	b.hookLog, b.asking, b.askedAt = &changes, req, at
	b.inCallback++
	f()
	b.inCallback--
	b.hookLog, b.asking, b.askedAt = log, asking, askedAt
	if len(changes) > 0 {
		b.writeAt(at, entry{kind: entryChange, changes: changes})
	}
}

// writeAt adds e to the journal at i, before the inputs that the changes
// it holds asked for, as a replay meets them: the changes first, then
// what the rules they played asked.
func (b *Battle) writeAt(i int, e entry) {
	b.journal = slices.Insert(b.journal, i, e)
	b.replayed = len(b.journal)
}

// replayChanges makes again, while the op replays, the changes dice or a
// decider made before the input asked for now.
func (b *Battle) replayChanges(ctx context.Context) error {
	if !b.replaying() || b.journal[b.replayed].kind != entryChange {
		return nil
	}
	e, _ := b.next(entryChange)
	for _, c := range e.changes {
		if err := b.exec(ctx, c); err != nil {
			return fmt.Errorf("a change made by dice or a decider, played again: %w", err)
		}
	}
	return nil
}

// Cancel gives up the call that waits for an input (see Pending): the
// battle is as it was before the call. It returns ErrNothingPending when
// no input is pending.
func (b *Battle) Cancel() error {
	if err := b.ready("Cancel"); err != nil {
		return err
	}
	if b.pend == nil {
		return fmt.Errorf("cancel: %w", ErrNothingPending)
	}
	b.revert()
	return nil
}

// hookPoint plays the Go hooks of one hook point: while the op replays,
// what they changed the first time, from the journal, instead of running
// them again.
func (b *Battle) hookPoint(ctx context.Context, at HookPoint) error {
	if b.replaying() {
		if b.journal[b.replayed].kind != entryHook {
			return nil // the point passed when the battle had no Go hooks
		}
		e, _ := b.next(entryHook)
		for _, c := range e.changes {
			if err := b.exec(ctx, c); err != nil {
				return fmt.Errorf("a Go hook's change at %s, played again: %w", at, err)
			}
		}
		return nil
	}
	if len(b.hooks) == 0 {
		return nil
	}
	log, inHook, wait, start := b.hookLog, b.inHook, b.hookWait, len(b.journal)
	// The hooks' changes go to the battle's own list, which a warm battle
	// reuses, unless a hook's change plays a hook point of its own.
	changes := &b.hookOps
	if inHook {
		changes = new([]op)
	}
	*changes = (*changes)[:0]
	b.hookLog, b.inHook, b.hookWait = changes, true, nil
	b.inCallback++
	err := b.callHooks(ctx, at)
	b.inCallback--
	if werr := b.hookWait; werr != nil && !errors.Is(err, ErrHookCannotWait) {
		// The hook went on after its change failed: the point fails all
		// the same, the battle being half way through the change.
		//lint:ignore ST1005 "Go" is the language's name, capitalised.
		err = InRound(b.round, fmt.Errorf("Go hook at %s: %w", at, werr))
	}
	b.hookLog, b.inHook, b.hookWait = log, inHook, wait
	if err != nil {
		return err
	}
	e := b.writeOwn()
	*e = entry{kind: entryHook, changes: append(e.changes[:0], *changes...)}
	if start < len(b.journal)-1 {
		// Before the inputs its changes asked for, as a replay meets them.
		hook := *e
		copy(b.journal[start+1:], b.journal[start:len(b.journal)-1])
		b.journal[start] = hook
	}
	b.hookEntries++
	return nil
}

func (b *Battle) callHooks(ctx context.Context, at HookPoint) error {
	for _, h := range b.hooks {
		if err := h(ctx, b, at); err != nil {
			// Named for its round as every error of a round is; a hook
			// that passes on such an error (a script's) names it already.
			//lint:ignore ST1005 "Go" is the language's name, capitalised.
			return InRound(b.round, fmt.Errorf("Go hook at %s: %w", at, err))
		}
	}
	return nil
}

// copyState makes b's state src's: everything a snapshot saves, and what
// the round under way has done. b's own memory is reused where it can be,
// so that starting an op allocates nothing once the battle is warm.
// Standings are shared: they are never changed once made (see
// blankStanding).
func (b *Battle) copyState(src *Battle) {
	b.prog = src.prog
	b.round = src.round
	if !b.sameUnits(src) {
		b.sides, b.units = b.sides[:0], b.units[:0]
		b.sideByNm, b.unitByNm = make(map[string]*Side, len(src.sides)), make(map[string]*Unit, len(src.units))
		for _, s := range src.sides {
			ns := s.copy()
			b.sides = append(b.sides, ns)
			b.sideByNm[ns.Name] = ns
			for _, u := range ns.Units {
				b.units = append(b.units, u)
				b.unitByNm[u.Name] = u
			}
		}
		b.unitsChanged()
	} else {
		for i, s := range src.sides {
			copyMap(&b.sides[i].Attrs, s.Attrs)
		}
		for i, u := range src.units {
			d := b.units[i]
			copyMap(&d.Attrs, u.Attrs)
			copyMap(&d.Status, u.Status)
			d.Ready = u.Ready
		}
	}
	copyMap(&b.removed, src.removed)
	b.standings = append(b.standings[:0], src.standings...)
	b.memory = src.memory // replaced, never changed in place (see closeRound)
	b.decks = src.decks   // replaced, never changed in place (see setDeck)
	b.done = append(b.done[:0], src.done...)
	b.pending = append(b.pending[:0], src.pending...)
	if src.cur == nil {
		b.cur = nil
	} else {
		if b.cur == nil || b.cur == src.cur {
			b.cur = &roundState{}
		}
		b.cur.copyFrom(src.cur)
	}
	b.actsView = nil
	if src.seeded != nil {
		if b.seeded == nil {
			b.seeded = &SeededDice{pcg: new(rand.PCG)}
		}
		*b.seeded.pcg = *src.seeded.pcg
	}
	b.eventsHint, b.actsHint = src.eventsHint, src.actsHint
	b.changed()
}

// sameUnits says b has src's sides and units, in the same order: only
// their values are to copy.
func (b *Battle) sameUnits(src *Battle) bool {
	if len(b.sides) != len(src.sides) || len(b.units) != len(src.units) || b.sideByNm == nil {
		return false
	}
	for i, s := range src.sides {
		if d := b.sides[i]; d.Name != s.Name || len(d.Units) != len(s.Units) {
			return false
		}
	}
	for i, u := range src.units {
		if b.units[i].Name != u.Name {
			return false
		}
	}
	return true
}

// copyMap makes *dst a copy of src, reusing *dst.
func copyMap[K comparable, V any](dst *map[K]V, src map[K]V) {
	switch {
	case src == nil:
		*dst = nil
	case *dst == nil:
		*dst = maps.Clone(src)
	default:
		clear(*dst)
		maps.Copy(*dst, src)
	}
}

// copyFrom makes r a copy of src, reusing r's slices.
//
// A round's lists only grow as it is played, until they are written over
// (by copyFrom, or by the next round): r copied from src before, src
// since only added to, r takes just what src added. Each op copies the
// round to its base, and a round of many activations must not cost the
// square of them.
func (r *roundState) copyFrom(src *roundState) {
	acts, events, done, readied, kept, decided := r.Activations, r.Events, r.Done, r.Readied, r.Kept, r.Decided
	grown := r.from == src && r.fromGen == src.gen && r.Round == src.Round &&
		len(acts) <= len(src.Activations) && len(events) <= len(src.Events) && len(done) <= len(src.Done) &&
		len(readied) <= len(src.Readied) && len(kept) <= len(src.Kept)
	gen := r.gen
	*r = *src
	r.gen, r.from, r.fromGen = gen+1, src, src.gen
	r.Decided = copySlice(decided, src.Decided)
	if grown {
		r.Activations = copyTail(acts, src.Activations)
		r.Events = copyTail(events, src.Events)
		r.Done = copyTail(done, src.Done)
		r.Readied = copyTail(readied, src.Readied)
		r.Kept = copyTail(kept, src.Kept)
		return
	}
	r.Activations = copySlice(acts, src.Activations)
	r.Events = copySlice(events, src.Events)
	r.Done = copySlice(done, src.Done)
	r.Readied = copySlice(readied, src.Readied)
	r.Kept = copySlice(kept, src.Kept)
}

// copyTail is copySlice for dst, a copy of src's first elements: it adds
// what src has since.
func copyTail[T any](dst, src []T) []T {
	if dst == nil || src == nil {
		return copySlice(dst, src)
	}
	return append(dst, src[len(dst):]...)
}

// copySlice copies src into dst's array: nil for nil, as a snapshot
// tells them apart.
func copySlice[T any](dst, src []T) []T {
	if src == nil {
		return nil
	}
	return append(dst[:0], src...)
}

// opName names o as a save writes it.
func (k opKind) String() string {
	if int(k) < len(opNames) {
		return opNames[k]
	}
	return fmt.Sprintf("op%d", k)
}

// cloneJournal copies a journal, down to its slices.
func cloneJournal(j []entry) []entry {
	out := slices.Clone(j)
	for i := range out {
		out[i].rolls = slices.Clone(out[i].rolls)
		out[i].choice = slices.Clone(out[i].choice)
		out[i].changes = slices.Clone(out[i].changes)
	}
	return out
}
