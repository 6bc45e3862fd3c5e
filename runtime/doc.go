// Package runtime compiles parsed .rules files and plays battles with them.
//
// # The model
//
// A [Program] is a compiled ruleset: immutable and safe for concurrent use.
// A [Battle] is one game played with it: sides and their units, the round
// number, Ready markers, the standings computed so far, and a memory of the
// previous round (previous.holder, previous.chooser, previous.order and any
// value the ruleset says to remember). A Battle is not safe for concurrent
// use, and it can be saved with [Battle.Snapshot] and restored with
// [Program.Restore] with nothing lost, between rounds or between turns of
// the activation loop, also from the Decider that [Battle.Step] asks which
// unit to activate (not from inside a hook, Dice or another Decider, nor in
// a round that failed until [Battle.AbortRound] undoes it). A save says
// its format and carries the ruleset's [Program.Fingerprint]; Restore
// refuses one of other rules of the same name ([ErrChangedRules]) and one
// edited into a state play could not have reached, naming the field.
//
// Each round runs the ruleset's phases in order. A phase holds steps, order
// procedures, Ready placements and hook points. An order procedure turns a
// set of subjects (sides or units) into a [Standing]: an ordering whose first
// subject holds priority, with a note of who chose and of the criterion that
// decided each place.
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
// # Dice and decisions
//
// Every roll goes through a [Dice] source and every choice through a
// [Decider], so the same Program runs with seeded dice ([SeededDice]),
// scripted dice ([ScriptedDice]), physical dice ([FuncDice]) or the odds
// analyser's enumeration, and with scripted, policy or interactive
// decisions. A scripted run that reaches a decision it has no answer for
// fails with an error that names the decision ([ErrUnscripted]); it never
// picks silently.
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
// a Decider's answer that the decision does not offer or a die read off
// the table that the dice cannot show ([ErrInvalidAnswer], likewise: Step
// asks again, and a round that StartRound failed is asked
// again once AbortRound undoes it), a change naming what the battle does
// not have or a value an attribute cannot hold ([ErrInvalidChange],
// likewise), a script that has run out ([ErrUnscripted]), a method called
// with no round under way ([ErrNoRound]) or with one under way
// ([ErrRoundUnderWay]), from a callback ([ErrInCallback]) or in a round
// that failed ([ErrRoundFailed]), a round that cannot be aborted
// ([ErrCannotAbort]), and a holder set before there is an order
// ([ErrNoOrder]).
package runtime
