// Package runtime compiles parsed .rules files and plays battles with them.
//
// # The model
//
// A [Program] is a compiled ruleset: immutable and safe for concurrent use.
// A [Battle] is one game played with it: sides and their units, the round
// number, Ready markers, the standings computed so far, and a memory of the
// previous round (previous.holder, previous.chooser, previous.order and any
// value the ruleset says to remember). A Battle is not safe for concurrent
// use.
//
// Each round runs the ruleset's phases in order. A phase holds steps, order
// procedures, Ready placements, hook points and at most one activation
// loop, which runs where it is written until no unit is Ready; the
// ruleset's own loop runs after the phases. [Turn] and [ActivationRecord]
// name the phase (and step) of their loop, and the call that ends one
// phase's loop plays the round on to the next loop with a turn. An order
// procedure turns a set of subjects (sides or units) into a [Standing]: an
// ordering whose first subject holds priority, with a note of who chose and
// of the criterion that decided each place. A ruleset may order no sides
// at all (`activation draw` alone): nobody then holds priority.
//
// An order procedure is a chain of criteria. Each criterion splits the
// groups that are still tied and leaves the others alone:
//
//	lowest count(units)           order by a value
//	highest roll d6               every tied subject rolls; highest first
//	tie when round == 1: reroll   how a still-tied group is resolved
//	tie: award not previous.chooser
//	random                        a uniformly random order of the group
//	choice first by winner        a participant arranges the group
//
// Tie rules are tried in order; the first whose guard holds resolves the
// group. A reroll rolls only the still-tied subjects again and then applies
// the same tie rules, so "5, 4, 4, 2" rerolls just the two 4s.
//
// # Inputs: the request/answer loop
//
// A host drives a battle with calls that play: [Battle.StartRound],
// [Battle.Step], [Battle.AdvanceRound], [Battle.Activate], a change such
// as [Battle.SetAttr]. Each plays until it is done or until the battle
// needs one input: a roll, a random pick, or a decision (an order to
// arrange, a tie to award, a unit to activate, or the answer to a `decide`
// statement: yes or no, a number in a range, one of named options, asked
// of each side in turn and, when secret, revealed together). Every roll goes through a
// [Dice] source and every decision through a [Decider]: seeded dice
// ([SeededDice]), scripted ones ([ScriptedDice], [ScriptedDecider]), a
// policy, the odds analyser's enumeration, or a function of the host's
// ([FuncDice], [DeciderFunc]) give it at once. [AskHost] leaves it to the
// host: the call returns an error wrapping [ErrPending], and
// [Battle.Pending] says what the battle waits for, as a [Request] that
// marshals to JSON. [Battle.Answer] gives it, and the battle plays on to
// its next input or to the end of the call:
//
//	err := b.AdvanceRound(ctx)
//	for req := b.Pending(); req != nil; req = b.Pending() {
//		err = b.Answer(ctx, ask(req)) // ErrInvalidAnswer: ask again
//	}
//
// A change a Go hook ([WithHook]) makes cannot wait for the host: a hook
// is Go code, which cannot be resumed from the middle once the host
// answers, nor saved there, and running it again would run it twice.
// A hook's change that needs an input the dice or decider leave to the
// host (or fail to give) fails at once with a [*HookWaitError]
// ([ErrHookCannotWait]), and so does the call that reached the hook
// point, whether the hook passes the error on or not, leaving the battle
// as it was before the call. A hook that may make a tie (a change an
// order watches, `until changed`) needs dice and a decider that answer;
// or the host makes the change itself, outside the hook, where it may
// wait like any call.
//
// An answer is checked before anything changes: a total the dice cannot
// show, an option the decision does not offer, a unit that is not ready
// ([ErrInvalidAnswer]) or an answer by another player ([ErrWrongPlayer])
// leaves the battle exactly as it was, waiting for the same input. Dice or
// a decider that fail (a script that ran out, [ErrUnscripted]; a
// cancelled context) leave the input pending too: the same call again
// asks them again, Answer answers in their place, and [Battle.Cancel]
// gives the call up. There is one engine: every source of inputs is an
// adapter over the same journal of what the call was given, which is what
// saves and undo use.
//
// # Saves and undo
//
// [Battle.Snapshot] saves the battle as JSON, and [Program.Restore] brings
// it back in another process with nothing lost: between rounds, between
// turns, and at any pending input, in the middle of a roll-off or a
// reroll (also from inside the Dice or Decider being asked). The restored
// battle waits for the same request. A save holds the call under way and
// its journal, not a copy of the rules' half-done work: the journal is
// played again on restore, Go hooks' changes are taken from it, and no Go
// hook runs twice for one point. A save says its format and carries the
// ruleset's [Program.Fingerprint]; Restore refuses one of other rules of
// the same name ([ErrChangedRules]), one of a newer format, and one edited
// into a state play could not have reached (sides, units, holders and
// orders, Ready markers, statuses and attributes, turn and round counters,
// the journal and the request it leads to), with one error naming the
// field. [WithUndo] keeps what the battle plays, so that [Battle.Undo]
// takes back the last answer (the battle waits for that input again),
// and again, back to the start of the battle or to where it was restored.
//
// # Performance
//
// Expressions are type-checked by expr-lang against the ruleset's declared
// attributes. Those in the small subset most rules use (round,
// previous.holder, len(sides), attributes and statuses, comparisons, and/or,
// integer arithmetic) then run as Go closures over the battle; the others
// run on expr-lang's VM. Order computations borrow their working memory
// from the battle, and a standing's order is an immutable slice shared with
// the memory, so [Battle.AdvanceRound] with seeded dice, the ruleset's
// policies and the transcript off allocates nothing once a battle is warm.
// What the battle hands out (sides, units, standings, orders, events,
// activations, memory) is a copy, so that nothing a host does to it
// changes the battle; the battle itself never asks for one.
// The transcript ([WithTranscript]) and the per-round record
// ([Battle.PlayRound]) cost more; docs/benchmarks.md has the numbers.
//
// # Limits
//
// Rerolls and steps are bounded ([Limits]) and every entry point takes a
// context.Context, so a rule that can never resolve ends with an error, not
// a hang. Nothing in this package panics on user input or does I/O.
//
// # Errors
//
// [Compile] reports every problem it finds at once, as [dsl.Diagnostics].
// In play, an error that a rule causes (an expression that fails, a NaN
// criterion, a tie rule that names nobody, a limit reached) is a
// [*RuleError] that carries the rule's position in its file, so a host can
// show the source line and a caret as it would for a compile error.
// errors.Is still finds [ErrLimit], or a host function's own error, inside.
// Scripted dice and deciders that run out, answers and dice that cannot
// be used, a [FuncDice] without the function a roll or pick needs, and a
// Go hook's error give a [*RoundError] naming the round (and the order)
// that needed them; [InRound] makes one of any error of a
// round a host played.
//
// A host's own mistakes are plain errors that errors.Is can tell apart: a
// move the turn does not allow ([ErrNotAllowed], to ask the player again),
// an answer that the request does not allow ([ErrInvalidAnswer]) or given
// by another player ([ErrWrongPlayer]), likewise; a change naming what the
// battle does not have or a value an attribute cannot hold
// ([ErrInvalidChange], likewise), a script that has run out
// ([ErrUnscripted]), a call while another waits for an input
// ([ErrPending]), an answer or Cancel with none pending
// ([ErrNothingPending]), nothing to undo ([ErrNothingToUndo]), a method
// called with no round under way ([ErrNoRound]) or with one under way
// ([ErrRoundUnderWay]), from a Go hook or another callback
// ([ErrInCallback]), and a holder set before there is an order
// ([ErrNoOrder]).
package runtime
