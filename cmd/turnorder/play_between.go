package main

// The prompts between two turns and between rounds, where the players
// can save the battle, stop, or make a change at the table; and what
// every other prompt says to those words.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/runtime"
)

// betweenTurns asks a question that Step asks between two turns of the
// activation loop, before anything of the turn is played: which unit
// activates, or, in activation draw, which colour came out of the bag.
// There the battle can be saved (save), play can stop once it is in a file
// (quit), and the changes of "another round?" can be made: they leave
// Step (see pendingChange), which then asks again. An input that ends
// there, where quit would stop, stops as quit does. help says first, what
// can be typed there, and extra; then the options and the changes.
func (t *table) betweenTurns(ctx context.Context, options []string, def, prompt string, refuse func(string) string, first, extra string) (string, error) {
	command := func(ans string) (bool, error) {
		p, isChange := t.unitStatus(ans) // before save and quit, for a unit called save
		switch {
		case isChange:
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
	note := "save [FILE]: save the battle as it stands, to resume it here with --resume (" + t.bareSave() + ")" +
		"\n  quit: stop here, once the battle as it stands is saved (play says how to resume it)"
	if first != "" {
		note = first + "\n  " + note
	}
	note += extra
	more := "or make a change at the table (then this question is asked again):"
	for _, c := range t.changeCommands() {
		more += fmt.Sprintf("\n  %-25s %s", c[0], c[1])
	}
	ans, err := t.choose(ctx, options, def, prompt, command, refuse, note, more)
	if file, at := t.holder(); errors.Is(err, errInputEnded) && file != "" {
		// The input ended where quit would stop: a file holds the
		// battle as it stands (a save typed here, --save's own write,
		// or the --resume file before anything is played), so the
		// players who closed it lose nothing.
		err = &stopError{eof: true, file: file, at: at}
	}
	return ans, err
}

// isQuit reports whether an answer is "quit".
func isQuit(ans string) bool { return strings.EqualFold(ans, "quit") }

// isSave reports whether an answer is "save" or "save FILE".
func isSave(ans string) bool {
	w, _, _ := strings.Cut(ans, " ")
	return strings.EqualFold(w, "save")
}

// noSaveIn returns the command of a prompt where the battle cannot be
// saved (the runtime saves no roll, draw or order's choice half made):
// save there says why not, and when it can.
func (t *table) noSaveIn(where string) func(string) (bool, error) {
	return func(ans string) (bool, error) {
		switch {
		case isSave(ans):
			t.cannotSave(where)
		case isQuit(ans):
			t.cannotStop(where)
		case looksLikeChange(ans):
			t.cannotChange(where)
		default:
			return false, nil
		}
		return true, nil
	}
}

// activates reports whether the ruleset has an activation loop: where
// it has none (mesbg) there is no prompt that asks which unit activates
// to point the players to.
func (t *table) activates() bool {
	return slices.Contains(t.b.Program().Decisions(), runtime.ChooseActivation)
}

// cannotStop says why play cannot stop where the players typed quit, and
// where it can.
func (t *table) cannotStop(where string) {
	if t.changing && !t.b.InRound() {
		t.say("play cannot stop %s: it can stop once the change is done, at \"another round?\"", where)
		return
	}
	if !t.activates() {
		t.say("play cannot stop %s: it can stop once the round is over, at \"another round?\"", where)
		return
	}
	if t.changing {
		t.say("play cannot stop %s: it can stop once the change is done, when a unit is to be activated and the battle is saved there", where)
		return
	}
	t.say("play cannot stop %s: it can stop when a unit is to be activated, once the battle is saved there, or at \"another round?\"", where)
}

// cannotSave says why the battle cannot be saved where the players typed
// save, and when it can.
func (t *table) cannotSave(where string) {
	// A change is asking for what its recomputation needs.
	if t.changing && !t.b.InRound() {
		t.say("the battle cannot be saved %s: it can be saved once the change is done, at \"another round?\"", where)
		return
	}
	if !t.activates() {
		t.say("the battle cannot be saved %s: it can be saved between rounds, at \"another round?\"", where)
		return
	}
	if t.changing {
		t.say("the battle cannot be saved %s: it can be saved once the change is done, when a unit is to be activated", where)
		return
	}
	t.say("the battle cannot be saved %s: a battle can be saved between rounds, or when a unit is to be activated", where)
}

// cannotChange says why no change can be made where the players typed
// one, and where it can. The question is the runtime's, asked while it
// makes an order (a roll, a random pick, a choice): a unit removed or a
// value set then would change what that order is made of half way
// through. A change's own recomputation is such an order too.
func (t *table) cannotChange(where string) {
	switch {
	case t.changing:
		t.say("no other change can be made %s: this one is not done until its order is made again (make the next one after it)", where)
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
		default:
			p, isChange = t.parseChange(ans)
		}
		if !isChange {
			t.say("answer y (another round), n (stop), quit, save [FILE], set ATTRIBUTE of NAME = VALUE, UNIT is [not] STATUS, remove UNIT, or help")
			continue
		}
		if p == nil {
			continue // refused, saying why
		}
		if err := t.change(ctx, p); err != nil {
			return false, err
		}
	}
}
