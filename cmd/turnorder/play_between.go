package main

// The prompts between two turns and between rounds, where the players
// can save the battle, stop, or make a change at the table; and what
// every other prompt says to those words.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/runtime"
)

// betweenTurns asks a question that comes between two turns of the
// activation loop, before anything of the turn is played: which unit
// activates, or, in activation draw, which colour came out of the bag.
// Besides the words of every prompt (see command), the changes of
// "another round?" can be made there: they give up the call that asks
// (see answer), which then asks again. help says first, what can be typed
// there, and extra; then the options and the changes.
func (t *table) betweenTurns(ctx context.Context, options []string, def, prompt string, refuse func(string) string, first, extra string) (string, error) {
	// Only the call that asks plays the turn: a change gives it up.
	changes := t.top().kind == opStep || t.top().kind == opDraw
	command := func(ans string) (bool, error) {
		return t.command(ans, options, changes, "")
	}
	note := t.promptCommands()
	if first != "" {
		note = first + "\n  " + note
	}
	note += extra
	more := ""
	if changes {
		more = "or make a change at the table (then this question is asked again):"
		for _, c := range t.changeCommands() {
			more += fmt.Sprintf("\n  %-25s %s", c[0], c[1])
		}
	}
	return t.choose(ctx, options, def, prompt, command, refuse, note, more)
}

// promptWords are the words every prompt of a battle takes besides its
// answers (see command).
var promptWords = []string{"save", "quit", "undo"}

// promptCommands says, for a prompt's help, what its words do.
func (t *table) promptCommands() string {
	return "save [FILE]: save the battle as it stands, to resume it here with --resume (" + t.bareSave() + ")" +
		"\n  quit: stop here, once the battle as it stands is saved (play says how to resume it)" +
		"\n  undo: take back the last answer (or change), and ask it again; undo again goes further back, to the start of the battle"
}

// command takes the words every prompt of a battle takes besides its
// answers: undo, save [FILE] and quit, and, where changes (the prompts
// between two turns), the changes of "another round?", which it returns
// as a *pendingChange for answer to make. Elsewhere a change is refused,
// saying why (where names the question). It reports whether ans was one
// of these; its error ends the question: errAgain once undo has moved the
// battle, a *stopError for quit, the change, or the end of the input (at
// "save to which file?").
func (t *table) command(ans string, options []string, changes bool, where string) (bool, error) {
	var p *pendingChange
	isChange := false
	if changes {
		p, isChange = t.unitStatus(ans) // before save and quit, for a unit called save
	}
	switch {
	case isChange:
	case isUndo(ans):
		if t.undo() {
			return false, errAgain
		}
		return true, nil
	case isSave(ans):
		_, path, _ := strings.Cut(ans, " ")
		err := t.saveAt(path) // the input ended at "save to which file?"
		return err == nil, err
	case isQuit(ans):
		file, at := t.holder()
		if file == "" {
			t.say("the battle is not saved as it stands: type save FILE first, then quit (or end the input to stop without saving it)")
			return true, nil
		}
		return false, &stopError{file: file, at: at}
	case !changes:
		if !looksLikeChange(ans) {
			return false, nil
		}
		t.cannotChange(where)
		return true, nil
	default:
		if _, ok := resolveOption(ans, options); ok && !strings.Contains(ans, " ") {
			return false, nil // a start of a name: "set" for settler
		}
		p, isChange = t.parseChange(ans)
	}
	switch {
	case !isChange:
		return false, nil
	case p == nil:
		return true, nil // refused, saying why
	}
	return false, p
}

// isQuit reports whether an answer is "quit".
func isQuit(ans string) bool { return strings.EqualFold(ans, "quit") }

// isUndo reports whether an answer is "undo".
func isUndo(ans string) bool { return strings.EqualFold(ans, "undo") }

// isSave reports whether an answer is "save" or "save FILE".
func isSave(ans string) bool {
	w, _, _ := strings.Cut(ans, " ")
	return strings.EqualFold(w, "save")
}

// activates reports whether the ruleset has an activation loop: where
// it has none (mesbg) there is no prompt that asks which unit activates
// to point the players to.
func (t *table) activates() bool {
	return slices.Contains(t.b.Program().Decisions(), runtime.ChooseActivation)
}

// cannotChange says why no change can be made where the players typed
// one, and where it can. The question is the runtime's, asked while it
// makes an order (a roll, a random pick, a choice): a unit removed or a
// value set then would change what that order is made of half way
// through. A change's own recomputation is such an order too.
func (t *table) cannotChange(where string) {
	switch {
	case t.inChange() != nil:
		t.say("no other change can be made %s: this one is not done until its order is made again (make the next one after it, or undo it)", where)
	case !t.activates():
		t.say("no change can be made %s: an order is being made, and a change would alter what it is made of half way through; make it at \"another round?\"", where)
	default:
		t.say("no change can be made %s: an order is being made, and a change would alter what it is made of half way through; make it when a unit is to be activated, or at \"another round?\"", where)
	}
}

// betweenHelp says what can be typed at "another round?".
func (t *table) betweenHelp() {
	save := "to FILE (" + t.bareSave() + ")"
	t.say("y, or Enter               play another round")
	t.say("n                         stop (where the battle is not saved as it stands, play asks for a file first)")
	t.say("quit                      stop, once the battle as it stands is saved (play says how to resume it)")
	t.say("save [FILE]               save the battle %s", save)
	t.say("undo                      take back the last answer or change (again and again, back to the start of the battle)")
	for _, c := range t.changeCommands() {
		t.say("%-25s %s", c[0], c[1])
	}
}

// between asks whether to play another round, handling save and the
// changes on the way. It returns false when the players are done.
func (t *table) between(ctx context.Context) (bool, error) {
	for {
		ans, err := t.ask("another round? [Y/n/save] ", t.betweenHelp)
		if err != nil {
			return false, err
		}
		// "UNIT is STATUS" first, for a unit called y, n or save.
		p, isChange := t.unitStatus(ans)
		word, rest, _ := strings.Cut(ans, " ")
		switch w := strings.ToLower(word); {
		case isChange:
		case rest == "" && slices.Contains([]string{"", "y", "yes"}, w):
			t.headed = t.b.Round() // the next round's heading is shown, again after an undo
			return true, nil
		case rest == "" && slices.Contains([]string{"n", "no"}, w):
			return false, nil
		case rest == "" && slices.Contains([]string{"q", "quit"}, w):
			// As at the prompt that asks which unit activates: quit
			// stops once the battle is in a file, and says how to resume
			// it; n stops all the same.
			file, at := t.holder()
			if file == "" {
				t.say("the battle is not saved as it stands: type save FILE first, then quit (or n, to stop with or without saving it)")
				continue
			}
			return false, &stopError{file: file, at: at}
		case w == "save":
			if err := t.saveAt(rest); err != nil {
				return false, err
			}
			continue
		case rest == "" && w == "undo":
			if t.undo() {
				return false, errAgain
			}
			continue
		default:
			p, isChange = t.parseChange(ans)
		}
		if !isChange {
			t.say("answer y (another round), n (stop), quit, save [FILE], undo, set ATTRIBUTE of NAME = VALUE, UNIT is [not] STATUS, remove UNIT, add unit NAME to SIDE, or help")
			continue
		}
		if p == nil {
			continue // refused, saying why
		}
		if err := t.change(ctx, p); err != nil {
			return false, err
		}
		if t.b.Pending() != nil {
			return false, errAgain // the loop asks what the change needs
		}
	}
}
