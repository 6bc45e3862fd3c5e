package runtime

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
)

// checkpoint is what a round can change, kept so that AbortRound can put
// the battle back exactly as the round found it. Keeping it costs next to
// nothing in a round that goes well: the seeded dice's state and the Ready
// markers are copied when the round starts; a standing is saved only when
// the round replaces it (standings are never changed in place: see
// computeOrder); attribute and status changes and removals are logged as
// they happen; the phases first run in the round are in its record.
type checkpoint struct {
	round     int         // the round it is for; 0 when there is none
	standings []*Standing // by order id: the standing before the round replaced it
	saved     []int       // by order id: the round standings[id] was saved for
	ready     []bool      // by unit, in b.units order
	pending   []Event     // events from between rounds, which open the round's transcript
	pcg       rand.PCG    // the state of seeded dice (ours, or a script's fallback)
	script    *ScriptedDice
	fallback  *SeededDice      // the script's fallback, if it is seeded
	decisions *ScriptedDecider // scripted answers, to script again
	rewind    bool             // the seeded state in pcg is b.seeded's (the battle's own dice)
	undo      []undoEntry      // newest last
}

// undoEntry is one change a round made to a side or unit, kept so that
// AbortRound can take it back. It names what it changed rather than
// holding the map it changed, so that a clone, whose maps are its own, can
// take it back too.
type undoEntry struct {
	who, key string // the side or unit, and the attribute or status
	status   bool   // key is a status, which the unit had if had
	old      any    // the attribute's value, if had
	had      bool
	removed  *Unit // a unit RemoveUnit took out of its side at sideAt and of the battle at unitAt
	sideAt   int
	unitAt   int
}

// undo takes the change back. Changes are taken back newest first, so a
// removed unit is back before its earlier changes are.
func (e *undoEntry) undo(b *Battle) {
	switch {
	case e.removed != nil:
		b.unremove(e.removed, e.sideAt, e.unitAt)
	case e.status:
		if u := b.unitByNm[e.who]; e.had {
			u.Status[e.key] = true
		} else {
			delete(u.Status, e.key)
		}
	default:
		var attrs map[string]any
		if s := b.sideByNm[e.who]; s != nil {
			attrs = s.Attrs
		} else {
			attrs = b.unitByNm[e.who].Attrs
		}
		if e.had {
			attrs[e.key] = e.old
		} else {
			delete(attrs, e.key)
		}
	}
}

// save starts the checkpoint of the round about to start.
func (c *checkpoint) save(b *Battle) {
	c.round = b.round + 1
	if c.saved == nil {
		c.standings = make([]*Standing, len(b.standings))
		c.saved = make([]int, len(b.standings))
	}
	c.ready = c.ready[:0]
	for _, u := range b.units {
		c.ready = append(c.ready, u.Ready)
	}
	c.pending = b.pending
	if len(c.undo) > 0 {
		clear(c.undo)
		c.undo = c.undo[:0]
	}
	c.script, c.fallback, c.decisions, c.rewind = nil, nil, nil, false
	if s, ok := b.decider.(*ScriptedDecider); ok {
		s.forget()
		s.owner, c.decisions = c, s
	}
	switch d := b.dice.(type) {
	case *SeededDice:
		d.init()
		c.pcg, c.rewind = *d.pcg, true
	case *ScriptedDice:
		d.forget()
		d.owner, c.script = c, d
		if f, ok := d.Fallback.(*SeededDice); ok && f != nil {
			f.init()
			c.fallback, c.pcg = f, *f.pcg
		}
	}
}

// useScript notes that b is about to roll or pick from its dice. A
// ScriptedDice that a clone shares remembers a round's use only while no
// other battle has used it since the round started.
func (b *Battle) useScript() {
	if s, ok := b.dice.(*ScriptedDice); ok && s.owner != &b.check {
		s.owner = nil
	}
}

func (c *checkpoint) valid(b *Battle) bool { return c.round != 0 && c.round == b.round && b.InRound() }

// replacing notes the standing the round is about to replace, the first
// time it does.
func (c *checkpoint) replacing(b *Battle, id int) {
	if c.valid(b) && c.saved[id] != c.round {
		c.standings[id], c.saved[id] = b.standings[id], c.round
	}
}

// holds reports whether the checkpoint holds st, which must then not be
// reused.
func (c *checkpoint) holds(id int, st *Standing) bool {
	return c.saved != nil && c.saved[id] == c.round && c.standings[id] == st
}

// logUndo notes how to take back a change made during a round.
func (b *Battle) logUndo(e undoEntry) {
	if b.check.valid(b) {
		b.check.undo = append(b.check.undo, e)
	}
}

// restore puts the battle back as the round found it, newest change first.
func (c *checkpoint) restore(b *Battle) {
	for i := len(c.undo) - 1; i >= 0; i-- {
		c.undo[i].undo(b)
	}
	for id, r := range c.saved {
		if r == c.round {
			b.standings[id] = c.standings[id]
			c.standings[id], c.saved[id] = nil, 0
		}
	}
	for _, k := range b.cur.Done {
		if i := slices.Index(b.prog.phaseKeys, k); i >= 0 {
			b.done[i] = false
		}
	}
	for i, u := range b.units {
		u.Ready = c.ready[i]
	}
	b.pending = c.pending
	switch {
	case c.rewind:
		*b.seeded.pcg = c.pcg
	case c.script != nil:
		c.script.rewind()
		if c.fallback != nil {
			*c.fallback.pcg = c.pcg
		}
	}
	if c.decisions != nil && c.decisions.owner == c {
		c.decisions.rewind()
	}
	clear(c.undo)
	c.undo = c.undo[:0]
	c.round = 0
}

// recomputation is where a recomputation that a change starts (SetAttr,
// SetStatus, RemoveUnit, a rule's set) began, so that one that fails can be
// taken back as far as it can be: its events, the seeded dice's state and
// what scripted dice and a ScriptedDecider gave it. The standing it was
// making is not stored until it is made (see computeOrder), so setting the
// value again makes it as if for the first time: the same rolls, and the
// same decision asked again, not a roll-off played anew because its
// winner's answer could not be used. Dice and deciders of the host's own,
// such as the players at the table, cannot be taken back.
type recomputation struct {
	events  int // len of the transcript it adds to
	seeded  *SeededDice
	pcg     rand.PCG
	script  *ScriptedDice
	used    int // len(script.used)
	answers *ScriptedDecider
	given   int // len(answers.used)
}

func (b *Battle) startRecomputation() recomputation {
	var m recomputation
	if b.InRound() {
		m.events = len(b.cur.Events)
	} else {
		m.events = len(b.pending)
	}
	switch d := b.dice.(type) {
	case *SeededDice:
		m.seeded = d
	case *ScriptedDice:
		m.script, m.used = d, len(d.used)
		if f, ok := d.Fallback.(*SeededDice); ok && f != nil {
			m.seeded = f
		}
	}
	if m.seeded != nil {
		m.seeded.init()
		m.pcg = *m.seeded.pcg
	}
	if s, ok := b.decider.(*ScriptedDecider); ok && s != nil {
		m.answers, m.given = s, len(s.used)
	}
	return m
}

// undo takes back what the failed recomputation did.
func (m *recomputation) undo(b *Battle) {
	if b.InRound() {
		if m.events <= len(b.cur.Events) {
			clear(b.cur.Events[m.events:])
			b.cur.Events = b.cur.Events[:m.events]
		}
	} else if m.events <= len(b.pending) {
		clear(b.pending[m.events:])
		b.pending = b.pending[:m.events]
	}
	if m.seeded != nil {
		*m.seeded.pcg = m.pcg
	}
	if m.script != nil {
		m.script.rewindTo(m.used)
	}
	if m.answers != nil {
		m.answers.rewindTo(m.given)
	}
}

// AbortRound abandons the round under way, for a round that failed
// part-way (a cancelled context, a limit, a decider's error; after a
// failure in StartRound or EndRound the round's other methods refuse
// until it is aborted, as the round is half played), and puts the
// battle back exactly as it was before the round started: the round
// number, standings, Ready markers, attributes and statuses changed by
// hooks or the host, units removed, and the state of seeded dice, so the
// round plays again as if for the first time. Scripted dice and a
// ScriptedDecider script again what the round used (and a seeded fallback
// is rewound), but not a result or answer the round refused
// (ErrInvalidAnswer), which is used up: the round asks for it again, as
// it asks the players at the table, whose dice and deciders cannot be
// rewound. A battle restored in mid-round has no record of its start and
// cannot abort the round: a snapshot saves the battle as it is, so to
// play a round again, keep the snapshot saved before its StartRound and
// restore that. (A clone takes the original's record, and can: see
// Clone.) Nor can one whose scripted dice or ScriptedDecider another
// battle has used since abort: it returns ErrCannotAbort then. With no
// round under way there is nothing to abort: it returns ErrNoRound.
func (b *Battle) AbortRound() error {
	if b.inCallback > 0 {
		return fmt.Errorf("AbortRound: %w", ErrInCallback)
	}
	if !b.InRound() {
		return errNoRound("AbortRound")
	}
	if err := b.abortable(); err != nil {
		return err
	}
	b.rewindRound()
	return nil
}

// rewindRound puts the battle back as the round under way found it.
func (b *Battle) rewindRound() {
	b.check.restore(b)
	b.failed = nil
	b.round--
	b.cur, b.prevRound = b.prevRound, nil
	b.actsView = nil // of the round undone
	b.changed()
}

// undoRound takes back the round b has just ended, as AbortRound takes
// back one under way, given b's memory from before the round: for odds,
// which plays the paths of a round one after another on one battle. The
// checkpoint still holds what the round changed, its end-of-round rules'
// changes too (they ran in it), and the memory is all the end of the
// round changes besides.
func (b *Battle) undoRound(mem Memory) error {
	if b.cur == nil || b.cur.Stage != "ended" || b.check.round != b.round {
		return errNoRound("undoRound")
	}
	b.memory = mem
	b.cur.Stage = "activation"
	return b.AbortRound()
}

// abortable says why the round under way cannot be aborted, if it cannot.
func (b *Battle) abortable() error {
	if !b.check.valid(b) {
		// A snapshot saves the battle as it is, not as it was: the
		// round's start (standings replaced, Ready markers, changes, the
		// dice's state) is not in it.
		return markErrorf(ErrCannotAbort, "round %d cannot be aborted: the battle was restored from a snapshot saved during the round, which holds no record of the battle before it; play the round on, or restore a snapshot saved before StartRound to play it again", b.round)
	}
	if s := b.check.script; s != nil && s.owner != &b.check {
		return markErrorf(ErrCannotAbort, "round %d cannot be aborted: another battle has used the same scripted dice since it started", b.round)
	}
	if s := b.check.decisions; s != nil && s.owner != &b.check {
		// Its answers would not be scripted again: the round would replay
		// with other answers, though AbortRound said it was undone.
		return markErrorf(ErrCannotAbort, "round %d cannot be aborted: another battle has used the same scripted decider since it started", b.round)
	}
	return nil
}

// unremove puts back a unit that RemoveUnit took out, where it was.
func (b *Battle) unremove(u *Unit, sideAt, unitAt int) {
	u.Side.Units = slices.Insert(u.Side.Units, sideAt, u)
	b.units = slices.Insert(b.units, unitAt, u)
	b.unitByNm[u.Name] = u
	delete(b.removed, u.Name)
	b.unitsChanged()
}

// unitsChanged forgets what was worked out from the list of units.
func (b *Battle) unitsChanged() {
	b.names = [2][]string{}
	b.orders[1] = interned{}
	b.genv = [2]reflect.Value{}
	b.changed()
}
