package runtime

import (
	"context"
	"errors"
	"fmt"
)

// ErrNothingToUndo is returned by Undo when nothing was played since the
// battle was made or restored (or without WithUndo).
var ErrNothingToUndo = errors.New("nothing to undo")

// WithUndo keeps what the battle plays, so that Undo can take it back:
// every op from the base it started from. It costs a copy of the battle's
// state for each call that plays; a battle without it keeps none.
func WithUndo() BattleOption {
	return func(b *Battle) {
		if b.undo == nil {
			b.undo = &undoLog{}
		}
	}
}

// undoLog is what Undo takes back: the ops played, oldest first, each
// with its own copy of its base and its journal as it stands.
type undoLog struct {
	ops []played
}

type played struct {
	base    *Battle
	op      op
	journal []entry
}

// Undo takes back the last answer given with Answer, and the battle waits
// for that input again (Pending); or, where the last thing the host did
// was a call that needed no answer (StartRound with seeded dice, a change
// such as SetAttr), it takes back that call, and the battle is as it was
// before it. Called again, it goes back further, to the start of the
// battle (or to where it was restored). It needs WithUndo; without it,
// or with nothing to take back, it returns ErrNothingToUndo.
func (b *Battle) Undo() error {
	if err := b.ready("Undo"); err != nil {
		return err
	}
	h := b.undo
	if h == nil || len(h.ops) == 0 {
		return fmt.Errorf("undo: %w", ErrNothingToUndo)
	}
	last := &h.ops[len(h.ops)-1]
	cut := -1
	for i, e := range last.journal {
		if e.host {
			cut = i
		}
	}
	b.base = last.base
	if cut < 0 {
		// The whole op, which the host gave no answer.
		h.ops = h.ops[:len(h.ops)-1]
		b.copyState(b.base)
		b.op, b.pend, b.journal, b.hookEntries = op{}, nil, b.journal[:0], 0
		return nil
	}
	// Back to the input answered last: played again up to it, asking
	// nothing and running no Go hook.
	b.op = last.op
	b.journal = append(b.journal[:0], last.journal...)
	b.truncate(cut)
	last.journal = last.journal[:cut]
	b.hookEntries = 0
	for _, e := range b.journal {
		if e.kind == entryHook {
			b.hookEntries++
		}
	}
	b.reset()
	b.noAsk = true
	err := b.play(context.Background())
	b.noAsk = false
	if b.pend == nil {
		return fmt.Errorf("undo: the call (%s) did not stop at the answer again: %v", b.op.kind, err)
	}
	return nil
}

// recordHistory starts the record of an op about to begin, whose base it
// gives the op its own copy of.
func (b *Battle) recordHistory() {
	if b.undo == nil {
		return
	}
	b.base = nil // the last op's base is the history's now
}

// keepHistory writes the op under way into the history, as far as it got.
func (b *Battle) keepHistory() {
	h := b.undo
	if h == nil || b.base == nil {
		return
	}
	if n := len(h.ops); n > 0 && h.ops[n-1].base == b.base {
		h.ops[n-1].journal = cloneJournal(b.journal)
		return
	}
	h.ops = append(h.ops, played{base: b.base, op: b.op, journal: cloneJournal(b.journal)})
}

// dropHistory forgets the op under way, which left nothing to take back.
func (b *Battle) dropHistory() {
	h := b.undo
	if h == nil {
		return
	}
	if n := len(h.ops); n > 0 && h.ops[n-1].base == b.base {
		h.ops = h.ops[:n-1]
	}
}
