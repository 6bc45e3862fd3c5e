package main

// How play drives the battle: one loop that makes the calls a round is
// made of (StartRound, Draw, Step, EndRound, and the changes typed at the
// table), asks the players for each input the battle stops at, answers
// it, and takes answers back with undo.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/runtime"
)

// errAgain ends a prompt whose question no longer stands: undo took an
// answer back, or a change typed there waits for an input. The loop looks
// at the battle again, and asks what it waits for now.
var errAgain = errors.New("the battle has moved: ask again")

// saveError is a write of --save that failed at the end of a round, which
// stops play (a failed write elsewhere is said, and play goes on).
type saveError struct{ err error }

func (e *saveError) Error() string { return e.err.Error() }

// opKind is a call play makes of the battle.
type opKind uint8

const (
	opOther  opKind = iota // one of a save from another host (Activate, Pass...)
	opStart                // StartRound
	opDraw                 // Draw, in activation draw
	opStep                 // Step
	opEnd                  // EndRound (or, in a save, AdvanceRound)
	opChange               // SetAttr, SetStatus, RemoveUnit, AddUnit, typed at a prompt
)

// opRec is a call the battle keeps, for Undo to take back, as play knows
// it: what it is and, for a change, what play says once it is done.
type opRec struct {
	kind   opKind
	change *changeRec
	// answers are those given to it, in order: Undo takes back the last.
	answers []runtime.Answer
}

// top is the call the battle made last (whose input is pending, if one
// is), or a record of nothing.
func (t *table) top() opRec {
	if len(t.ops) == 0 {
		return opRec{}
	}
	return t.ops[len(t.ops)-1]
}

// opening reports whether the battle waits for an input of its round's
// opening (StartRound: a roll-off, say), before the round's Ready markers.
func (t *table) opening() bool {
	return t.b.Pending() != nil && t.top().kind == opStart
}

// inChange returns the change whose recomputation waits for an input, or
// nil.
func (t *table) inChange() *changeRec {
	if top := t.top(); top.kind == opChange && t.b.Pending() != nil {
		return top.change
	}
	return nil
}

// next takes the battle one step on: it asks for the input the battle
// waits for and answers it, or else makes the call that comes next:
// StartRound between rounds (the loop of playBattle asks "another round?"
// first), Draw where a die is to come out of the bag, Step while units are
// to activate, EndRound once they are done.
func (t *table) next(ctx context.Context) error {
	if p := t.b.Pending(); p != nil {
		return t.answer(ctx, p)
	}
	if !t.b.InRound() {
		if r := t.b.Round() + 1; t.headed < r {
			fmt.Fprintf(t.out, "\nRound %d\n", r)
			t.headed = r
		}
		err := t.call(ctx, opRec{kind: opStart}, t.b.StartRound)
		if err != nil && !errors.Is(err, errInputEnded) {
			// Failed, the round is not under way: it is the next one's.
			err = runtime.InRound(t.b.Round()+1, err)
		}
		return err
	}
	switch turn := t.b.Next(); {
	case turn != nil && turn.Undrawn:
		return t.call(ctx, opRec{kind: opDraw}, func(ctx context.Context) error {
			_, err := t.b.Draw(ctx)
			return err
		})
	case turn != nil:
		return t.call(ctx, opRec{kind: opStep}, func(ctx context.Context) error {
			_, err := t.b.Step(ctx)
			return err
		})
	}
	return t.call(ctx, opRec{kind: opEnd}, func(ctx context.Context) error {
		_, err := t.b.EndRound(ctx)
		return err
	})
}

// call makes a call of the battle's: done at once, or stopped at an input
// that next asks for. Either way the battle keeps it for Undo, and so
// does play. One that fails leaves the battle as it was, and is not kept.
func (t *table) call(ctx context.Context, rec opRec, f func(context.Context) error) error {
	err := f(ctx)
	switch {
	case err == nil:
		t.ops = append(t.ops, rec)
		return t.done(rec)
	case errors.Is(err, runtime.ErrPending):
		t.ops = append(t.ops, rec)
		return nil
	}
	return err
}

// done says what a call did once it is done, and saves the round with
// --save once it is over.
func (t *table) done(rec opRec) error {
	switch rec.kind {
	case opStart:
		// As run says them: before the round's transcript, where the
		// order would have been made.
		for _, line := range keptStandings(t.b, t.b.Round()) {
			if !t.hush {
				fmt.Fprintf(t.out, "  %s\n", line)
			}
		}
		t.flush()
	case opEnd:
		t.flush()
		if res := t.b.Result(); res != nil {
			t.showResult(res)
		}
		if err := t.roundEnded(); err != nil {
			return &saveError{err}
		}
	case opChange:
		t.changeDone(rec.change)
	default:
		t.flush()
	}
	return nil
}

// answer asks the players for the input the battle waits for, and gives
// it. An answer the battle refuses is said, and asked again (by the loop,
// as the battle still waits for it). A change typed between two turns
// (where a unit is to activate, or a die to come out of the bag) gives up
// the call that asks, which has played nothing of the turn yet, and is
// made in its place: the loop then asks again, of the battle as the
// change left it.
func (t *table) answer(ctx context.Context, p *runtime.Request) error {
	t.hush = false
	var a runtime.Answer
	var err error
	switch {
	case p.Roll != nil:
		a, err = t.askRoll(ctx, *p.Roll)
	case p.Pick != nil && p.Pick.Draw:
		a, err = t.askDraw(ctx, *p.Pick)
	case p.Pick != nil:
		a, err = t.askPick(ctx, *p.Pick)
	case p.Decision != nil:
		a, err = t.askDecision(ctx, *p.Decision)
	default:
		return fmt.Errorf("the battle waits for an input play does not know: %s", p)
	}
	if change, ok := errors.AsType[*pendingChange](err); ok {
		if err := t.b.Cancel(); err != nil {
			return err
		}
		t.ops = t.ops[:len(t.ops)-1]
		return t.change(ctx, change)
	}
	switch {
	case errors.Is(err, errAgain):
		return nil
	case errors.Is(err, errInputEnded):
		if file, at := t.holder(); file != "" {
			// The input ended where quit would stop: a file holds the
			// battle as it stands (a save typed here, --save's own
			// write, or the --resume file before anything is played),
			// so the players who closed it lose nothing.
			return &stopError{eof: true, file: file, at: at}
		}
		if c := t.inChange(); c != nil {
			return &cutError{c.Typed}
		}
		return err
	case err != nil:
		return err
	}
	err = t.b.Answer(ctx, a)
	if err == nil && len(t.ops) > 0 {
		top := &t.ops[len(t.ops)-1]
		top.answers = append(top.answers, a)
	}
	return t.answered(err)
}

// answered goes on after an answer was given: once the call that asked
// for it is done, play says what it did.
func (t *table) answered(err error) error {
	t.rolled = nil
	switch {
	case err == nil:
		if t.b.Pending() == nil {
			return t.done(t.top())
		}
		return nil
	case errors.Is(err, runtime.ErrInvalidAnswer) || errors.Is(err, runtime.ErrWrongPlayer):
		// Refused, and nothing changed: the battle waits for the input
		// still, and the loop asks for it again.
		t.say("%v", err)
		return nil
	}
	// A rule failed after the answer: the battle is as it was before it.
	// A change's recomputation is given up with the change; a round's
	// rule that fails stops play, as it stops run.
	if c := t.inChange(); c != nil {
		if err := t.b.Cancel(); err != nil {
			return err
		}
		t.ops = t.ops[:len(t.ops)-1]
		t.markShown()
		t.say("%v: the change is undone", err)
		return nil
	}
	return runtime.InRound(t.b.Round(), err)
}

// undo takes back the last answer typed (or the last change made), and
// reports whether the battle moved: the loop then asks what the battle
// waits for now, which is the question answered last. A call that needed
// no answer (a turn with one unit to activate, a round's end) is taken
// back on the way. Between rounds, it goes back to "another round?" (the
// answer that started the round); repeated, it goes back to the start of
// the battle, or to where it was resumed, and says when there is nothing
// more to take back.
func (t *table) undo() bool {
	moved := false
	shownRound, shown, told := t.shownRound, t.shown, t.told
	for {
		err := t.b.Undo()
		if errors.Is(err, runtime.ErrNothingToUndo) {
			if moved {
				// Only calls that needed no answer were taken back: the
				// loop makes them again, as they were, and asks the same
				// question, without showing again what they did.
				t.shownRound, t.shown, t.told = shownRound, shown, told
				t.hush = true
			}
			if t.resumed != "" {
				t.say("nothing to undo: the battle is as it was resumed from %s", t.resumed)
			} else {
				t.say("nothing to undo: the battle is at its start")
			}
			return moved
		}
		if err != nil {
			t.say("cannot undo: %v", err)
			return moved
		}
		moved = true
		t.rolled = nil
		t.markShown()
		if p := t.b.Pending(); p != nil {
			// The answer to p is taken back; of a roll, play takes back
			// the last die alone, and asks for it again.
			var a runtime.Answer
			if n := len(t.ops); n > 0 && len(t.ops[n-1].answers) > 0 {
				top := &t.ops[n-1]
				a = top.answers[len(top.answers)-1]
				top.answers = top.answers[:len(top.answers)-1]
			}
			if p.Pick != nil && t.secretPick(*p.Pick) {
				// A secret answer picked at random stays secret.
				t.say("undone: %s secret answer to %s, picked at random", wording.Possessive(p.Pick.By), p.Pick.Decision)
			} else {
				t.say("undone: %s", undone(p, a))
			}
			if p.Roll != nil && len(a.Rolls) == len(p.Roll.Subjects) {
				t.rolled = a.Rolls[:len(a.Rolls)-1]
			}
			return true
		}
		// The whole call is taken back: it needed no answer.
		rec := t.top()
		if len(t.ops) > 0 {
			t.ops = t.ops[:len(t.ops)-1]
		}
		switch {
		case rec.kind == opChange && rec.change != nil:
			t.say("undone: %s", rec.change.Typed)
			return true
		case rec.kind == opStart && t.rounds == 0 && t.b.Round() > 0:
			t.say("undone: the battle is back %s", t.position())
			return true
		}
	}
}

// undone says an answer that undo took back: "Rob's 2", "A activates a1".
func undone(p *runtime.Request, a runtime.Answer) string {
	switch {
	case p.Roll != nil && len(a.Rolls) == len(p.Roll.Subjects) && len(a.Rolls) > 0:
		last := len(a.Rolls) - 1
		return fmt.Sprintf("%s %s", wording.Possessive(p.Roll.Subjects[last]), rolledText(*p.Roll, a.Rolls[last]))
	case p.Pick != nil && a.Pick != nil && *a.Pick >= 0 && *a.Pick < len(p.Pick.Options) && p.Pick.Draw:
		return fmt.Sprintf("%s die, drawn from the bag", wording.Possessive(p.Pick.Options[*a.Pick]))
	case p.Pick != nil && a.Pick != nil && *a.Pick >= 0 && *a.Pick < len(p.Pick.Options):
		return fmt.Sprintf("%s, picked at random", p.Pick.Options[*a.Pick])
	case p.Decision != nil && p.Decision.Kind == runtime.ChooseActivation && len(a.Choice) == 1 && a.Choice[0] == "pass":
		return p.Decision.By + " passes"
	case p.Decision != nil && p.Decision.Kind == runtime.ChooseActivation && len(a.Choice) == 1:
		return p.Decision.By + " activates " + a.Choice[0]
	case p.Decision != nil && p.Decision.Kind == runtime.ChooseFirst && len(a.Choice) == 1:
		return fmt.Sprintf("%s choice of %s to go first", wording.Possessive(p.Decision.By), a.Choice[0])
	case p.Decision != nil && p.Decision.Secret:
		// Said to the table: the answer stays secret.
		return fmt.Sprintf("%s secret answer to %s", wording.Possessive(p.Decision.By), p.Decision.Name)
	case p.Decision != nil && p.Decision.Name != "" && len(a.Choice) == 1:
		return fmt.Sprintf("%s answer to %s, %s", wording.Possessive(p.Decision.By), p.Decision.Name, a.Choice[0])
	case p.Decision != nil && p.Decision.Kind == runtime.ChooseOrder && len(a.Choice) > 0:
		return fmt.Sprintf("%s arrangement, %s", wording.Possessive(p.Decision.By), strings.Join(a.Choice, ", "))
	case p.Decision != nil && len(a.Choice) > 0:
		return fmt.Sprintf("%s choice, %s", wording.Possessive(p.Decision.By), strings.Join(a.Choice, ", "))
	}
	return "the last answer"
}
