package runtime

import (
	"errors"
	"fmt"
	"regexp"
	"slices"

	"github.com/expr-lang/expr/file"
	"github.com/turnorder/turnorder/dsl"
)

// ErrNoRound is returned, wrapped, by the methods that need a round under
// way (Step, Activate, Pass, EndRound, SetHolder) when there is
// none: before StartRound, or after EndRound. A round under way whose
// activations are over is another case: Activate and Pass return
// ErrRoundOver, and Step reports done.
var ErrNoRound = errors.New("no round is under way")

// ErrRoundUnderWay is returned, wrapped, by StartRound, PlayRound and
// AdvanceRound when a round is under way (started and not yet ended):
// EndRound ends it. It is the counterpart of ErrNoRound.
var ErrRoundUnderWay = errors.New("a round is under way")

// ErrUnscripted is wrapped by the errors of ScriptedDice and
// ScriptedDecider asked for a roll, a random pick or a decision that
// nothing was scripted for (and that has no Fallback): a host replaying a
// record of a battle can tell that its record has run out from a rule
// that failed, and errors.As finds an *UnscriptedError saying what was
// asked.
var ErrUnscripted = errors.New("nothing is scripted")

// UnscriptedError is the error (inside a RoundError) of ScriptedDice or a
// ScriptedDecider asked for what nothing was scripted for. errors.Is finds
// it as ErrUnscripted, and errors.As gives what was asked (as
// Battle.Pending does too: the battle waits for that input), so that a
// host replaying a record can tell where its record ran out. One of Roll,
// Pick and Decision is set; the requests and the decision are copies,
// the error's.
//
// As JSON it is
// {"roll", "missing", "pick", "decision"}, with only the one set (and
// missing, with a roll), each as the RollRequest, PickRequest or Decision
// encodes.
type UnscriptedError struct {
	// Roll is the roll asked for, and Missing the subjects of it that
	// had no scripted result: those to ask. The others' scripted results
	// are left in the script, unused: the group rolls as one.
	Roll    *RollRequest `json:"roll,omitempty"`
	Missing []string     `json:"missing,omitempty"`
	// Pick is the random pick asked for (in activation draw, the die
	// drawn from the bag: Pick.Draw).
	Pick *PickRequest `json:"pick,omitempty"`
	// Decision is the decision asked for.
	Decision *Decision `json:"decision,omitempty"`
	msg      string
}

func (e *UnscriptedError) Error() string { return e.msg }

// Is reports the error as ErrUnscripted.
func (e *UnscriptedError) Is(target error) bool { return target == ErrUnscripted }

// ErrNotAllowed is wrapped by the errors of Activate and Pass for a move
// the turn does not allow: a unit that is not among Next().Options, a
// unit when the side must pass, or a pass the ruleset does not allow.
// The battle is left as it was, so a host taking moves from the players
// can tell them and ask again.
var ErrNotAllowed = errors.New("not allowed now")

// ErrInvalidChange is wrapped by the errors of SetAttr, SetStatus,
// RemoveUnit, AddUnit, MakeReady and SetHolder for a change the battle cannot make:
// a side, unit, attribute or status it does not have, a value the
// attribute cannot hold, or a holder who is not in the order. Nothing is
// changed, so a host taking changes from players can tell them and ask
// again.
var ErrInvalidChange = errors.New("invalid change")

// ErrInvalidAnswer is wrapped by the error of an answer the battle cannot
// use: given with Battle.Answer, or by a Decider or Dice. A decision's
// answer that the decision does not offer: a side or unit not among
// Decision.Options (one that is not tied, not ready, or not there at
// all), "before" or "after" misspelled, "pass" where passing is not
// allowed, or an arrangement that is not every option once. A ScriptedDecider's
// own refusal of such an answer (a ScriptError) is one too, and so is a
// result that dice cannot show: a total off the dice (7 on a D6) or a
// pick out of range, a die misread at the table, or one ScriptedDice
// refuse (a ScriptError). A host taking answers from players can tell
// their mistake from a decider that failed, a script that ran out
// (ErrUnscripted) or a cancelled context, and ask again: nothing was
// changed, and the battle waits for the same input (Battle.Pending).
var ErrInvalidAnswer = errors.New("invalid answer")

// ErrNoOrder is wrapped by the error of SetHolder called in a round before
// the order that decides who holds priority has ever been made (such as
// from a hook at the start of round 1): there is no order to put the
// holder first in. Set the holder once the order is made, such as at the
// end of its step.
var ErrNoOrder = errors.New("the order is not made yet")

// markedError is an error with its own message that errors.Is finds as
// mark, for the sentinels above: the message is unchanged by the mark.
type markedError struct {
	msg  string
	mark error
}

func (e *markedError) Error() string        { return e.msg }
func (e *markedError) Is(target error) bool { return target == e.mark }

// markErrorf returns an error with the formatted message that wraps mark.
func markErrorf(mark error, format string, args ...any) error {
	return &markedError{msg: fmt.Sprintf(format, args...), mark: mark}
}

// RuleError is a play-time error in a rule of the ruleset: an expression
// that fails or gives a value of the wrong kind, a tie rule that names
// nobody among the tied, a limit reached by an order's rerolls or by an
// activation loop's turns (however the host answered them). Pos is where
// the rule is in its .rules file, so that a host can show the source line
// and a caret, as it would for a compile error (see Diagnostic).
//
// Other errors (a host calling a method at the wrong time, dice or a
// decider that fail) are plain errors.
type RuleError struct {
	Pos dsl.Pos
	Err error // what went wrong; it may wrap ErrLimit or a host's error
	// Hint, if not "", says what the rule's author most likely meant or
	// should write; Error gives it after what went wrong, and Diagnostic
	// as the diagnostic's hint.
	Hint string
	// Round is the round the rule failed in, or 0 for none (a change
	// between rounds), and Events what that round did up to the error,
	// with the transcript on: the battle itself is put back as it was
	// before the call that failed.
	Round  int
	Events []Event
}

func (e *RuleError) Error() string {
	if p := posString(e.Pos); p != "" {
		return p + ": " + e.message()
	}
	return e.message()
}

func (e *RuleError) message() string {
	if e.Hint == "" {
		return e.what()
	}
	return e.what() + ": " + e.Hint
}

// what is the message without its hint.
func (e *RuleError) what() string {
	if e.Err == nil { // a zero RuleError
		return "a rule failed"
	}
	return e.Err.Error()
}

// addHint adds hint to e's, after any it has.
func (e *RuleError) addHint(hint string) {
	if e.Hint != "" {
		hint = e.Hint + ": " + hint
	}
	e.Hint = hint
}

func (e *RuleError) Unwrap() error { return e.Err }

// Diagnostic returns the error as the diagnostic a compiler would print.
func (e *RuleError) Diagnostic() dsl.Diagnostic {
	d := dsl.Errorf(e.Pos, "%s", e.what())
	d.Hint = e.Hint
	return d
}

// evalError is the RuleError for a failed run of c, at the token
// expr-lang blames when it names one. Its message is expr-lang's alone:
// the snippet it adds would repeat the line and caret a host shows from
// Pos. prefix says what was being evaluated.
func (b *Battle) evalError(c *compiled, prefix string, err error) error {
	pos := c.pos
	hint := ""
	if fe, ok := err.(*file.Error); ok {
		pos = offsetPos(c.pos, c.src, fe.From)
		bare := *fe
		bare.Snippet, bare.Message = "", b.prog.types.friendly(fe.Message)
		hint = b.unremembered(c.src, fe.Message)
		err = &bare
		if unmade := b.unmadeRead(fe.Message); unmade != nil {
			err = unmade
		}
	}
	return &RuleError{Pos: pos, Err: fmt.Errorf("%s: %w", prefix, err), Hint: hint}
}

var previousField = regexp.MustCompile(`\bprevious\.(\w+)`)

// unremembered explains an error about nil in round 1, when src uses a
// remembered value: none is remembered before round 1 ends, and
// `previous.streak + 1` is the first thing a house rule writes.
func (b *Battle) unremembered(src, msg string) string {
	if b.now() > 1 || !exprNil.MatchString(msg) {
		return ""
	}
	for _, m := range previousField.FindAllStringSubmatch(src, -1) {
		if slices.ContainsFunc(b.prog.remember, func(r *rememberDef) bool { return r.name == m[1] }) {
			return fmt.Sprintf("nothing is remembered before round 1 ends, so previous.%s is nil then; give it a value for then, as in `(previous.%s ?? 0)`", m[1], m[1])
		}
	}
	return ""
}

// ruleErrorf returns a RuleError at pos; format may use %w.
func ruleErrorf(pos dsl.Pos, format string, args ...any) error {
	return &RuleError{Pos: pos, Err: fmt.Errorf(format, args...)}
}

// RoundError is an error of play that names the round it happened in and,
// for dice or a decision an order needed, that order: "round 2: ..." or
// "round 2, order priority: ...". Order is "" for what the activation loop
// needed (which unit activates, a draw from the bag) and for a Go hook's
// error. The battle returns one for a Decider's answer or a die that it
// cannot use (ErrInvalidAnswer) and for a Go hook's error, this package's
// scripted dice and deciders when their script runs out (ErrUnscripted),
// and InRound makes one of any error.
type RoundError struct {
	Round int
	Order string // the order's name, or ""
	Err   error
}

func (e *RoundError) Error() string { return fmt.Sprintf("round %d%s", e.Round, e.Detail()) }

// Detail is the message after the round: ", order O: ..." or ": ...".
func (e *RoundError) Detail() string {
	msg := "an error"
	if e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Order != "" {
		return ", order " + e.Order + ": " + msg
	}
	return ": " + msg
}

func (e *RoundError) Unwrap() error { return e.Err }

// roundErrorf returns a RoundError of round; format may use %w.
func roundErrorf(round int, order, format string, args ...any) error {
	return &RoundError{Round: round, Order: order, Err: fmt.Errorf(format, args...)}
}

// badDice is roundErrorf for a result a host's dice gave that the dice
// cannot show: a player's mistake at the table, ErrInvalidAnswer.
func badDice(round int, order, format string, args ...any) error {
	return &RoundError{Round: round, Order: order, Err: markErrorf(ErrInvalidAnswer, format, args...)}
}

// InRound returns err as a RoundError of round, unless it names a round
// already (a RoundError, or a RuleError of a round that failed), and nil
// for nil. It is for a host that reports the error of a round it played.
func InRound(round int, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := errors.AsType[*RoundError](err); ok {
		return err
	}
	return &RoundError{Round: roundOf(round, err), Err: err}
}

// roundOf is the round err happened in: the one a rule's error names, or
// else round, the battle's.
func roundOf(round int, err error) int {
	if re, ok := errors.AsType[*RuleError](err); ok && re.Round != 0 {
		return re.Round
	}
	return round
}

// ErrHookCannotWait is what errors.Is finds in the error of a change a Go
// hook ([WithHook]) made that needs an input the battle's dice or decider
// leave to the host ([AskHost]), or fail to give: a hook's code cannot be
// resumed from the middle by [Battle.Answer] or a restore, so the change
// fails at once with a [*HookWaitError], and so does the call that reached
// the hook point, leaving the battle as it was before it.
var ErrHookCannotWait = errors.New("a Go hook's change cannot wait for the host")

// HookWaitError is the error of a change made by a Go hook that needs an
// input from the host (see [ErrHookCannotWait]).
type HookWaitError struct {
	Input Request // the input the change needed
	Err   error   // why the dice or decider did not give it, if they failed
}

func (e *HookWaitError) Error() string {
	msg := fmt.Sprintf("%s: the change needs %s, which the dice or decider leave to the host (give the battle dice and a decider that answer, or make the change outside the hook)", ErrHookCannotWait, &e.Input)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *HookWaitError) Is(target error) bool { return target == ErrHookCannotWait }

func (e *HookWaitError) Unwrap() error { return e.Err }
