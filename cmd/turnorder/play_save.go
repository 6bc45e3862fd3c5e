package main

// When play saves the battle, and which file holds it as it stands.

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/turnorder/turnorder/internal/wording"
)

// write saves the battle to path and notes what the file now holds.
func (t *table) write(path string) error {
	data, err := t.snapshot()
	if err != nil {
		return err
	}
	if err := saveBattle(data, t.with, path); err != nil {
		return err
	}
	t.writtenData = data
	// In a round, the file holds the changes made before it as the round
	// itself does.
	t.written, t.writtenAt, t.writtenChanges, t.lost = path, t.position(), t.changed && !t.b.InRound(), false
	return nil
}

// madeChange notes a change made at the prompt and, with --save, saves it
// at once: stopping, or an input that ends in the next round, loses
// nothing.
func (t *table) madeChange() {
	t.changed, t.lost = true, true
	if t.saveTo == "" {
		return
	}
	if err := t.write(t.saveTo); err != nil {
		t.say("not saved: %v", err)
		return
	}
	t.say("saved to %s", t.saveTo)
}

// activated saves, with --save, the battle in a round whose activations
// are not over (begun, or after an activation): quietly, as the round's
// end says it saved. A failed save is said, and the round goes on.
func (t *table) activated() {
	if t.saveTo == "" || t.b.Next() == nil {
		return
	}
	if err := t.write(t.saveTo); err != nil {
		t.say("not saved: %v", err)
	}
}

// atActivationPrompt saves, with --save, the battle at the prompt that
// asks which unit activates, when it has changed since the last save:
// in activation draw a die has come out of the bag since the activation
// before, and the file is to hold it, for quit to stop here and the
// battle to resume with the same die drawn. Elsewhere the file already
// holds the battle as it stands here (see activated), and is not written
// again.
func (t *table) atActivationPrompt() {
	if t.saveTo == "" {
		return
	}
	if data, err := t.snapshot(); err == nil && bytes.Equal(data, t.writtenData) {
		return
	}
	if err := t.write(t.saveTo); err != nil {
		t.say("not saved: %v", err)
	}
}

// roundEnded notes a round played to its end and, with --save, saves it.
func (t *table) roundEnded() error {
	t.changed = false
	if t.saveTo == "" {
		return nil
	}
	if err := t.write(t.saveTo); err != nil {
		return err
	}
	t.say("saved to %s", t.saveTo)
	return nil
}

// whereSaved says which file holds the battle, and as it was when, for the
// message play stops with.
func (t *table) whereSaved() string {
	if t.written == "" {
		if t.resumed != "" {
			return fmt.Sprintf("nothing was saved; %s still holds the battle as it was %s", t.resumed, t.resumedAt)
		}
		return "nothing was saved"
	}
	s := fmt.Sprintf("%s holds the battle as it was %s", t.written, t.writtenAt)
	if t.writtenChanges {
		s += " and the changes made after it"
	}
	if t.lost {
		s += ", without the changes made since"
	}
	return s
}

// keepChanges saves, as play stops, the changes made at the prompt that
// --save could not save when they were made. It returns why it could not.
func (t *table) keepChanges() string {
	if t.saveTo == "" || !t.lost {
		return ""
	}
	if err := t.write(t.saveTo); err != nil {
		return fmt.Sprintf("--save: %v (%s)", err, t.whereSaved())
	}
	t.say("saved to %s", t.saveTo)
	return ""
}

// snapshot is the battle as it stands, as a save writes it (see drawing).
func (t *table) snapshot() ([]byte, error) {
	if t.drawing {
		return t.undrawn, t.undrawnErr
	}
	return t.b.Snapshot()
}

// holder returns the file that holds the battle as it stands, and where it
// stands: the file written last in this session, or else the --resume
// file; or "" when neither does.
func (t *table) holder() (file, at string) {
	if t.lost {
		return "", ""
	}
	data, err := t.snapshot()
	switch {
	case err != nil:
	case t.written != "":
		if bytes.Equal(data, t.writtenData) {
			return t.written, t.writtenAt
		}
	case t.resumed != "" && t.resumedData != nil:
		if bytes.Equal(data, t.resumedData) {
			return t.resumed, t.resumedAt
		}
	}
	return "", ""
}

// bareSave says where a save without FILE writes.
func (t *table) bareSave() string {
	switch {
	case t.saveTo != "":
		return "without FILE, to " + t.saveTo
	case t.resumed != "":
		return "without FILE, to " + t.resumed
	}
	return "without FILE, play asks for one"
}

// saveAt saves the battle where the players typed save [FILE]: to path,
// or else to the --save file, or else to the --resume file, or else to the
// file it asks for. It says what it did; the error is only that of the
// input, which ended at "save to which file?".
func (t *table) saveAt(path string) error {
	path = strings.TrimSpace(path)
	if path == "" {
		path = t.saveTo
	}
	if path == "" {
		path = t.resumed
	}
	if path == "" {
		var err error
		for {
			path, err = t.ask("save to which file? ", func() {
				t.say("type the name of a file to save the battle to, such as battle.json; Enter saves nothing")
			})
			if err != nil {
				return err
			}
			// "save battle.json" here, as at the other prompt, names
			// battle.json.
			if w, p, _ := strings.Cut(path, " "); strings.EqualFold(w, "save") {
				path = strings.TrimSpace(p) // a bare "save" names no file
			}
			// A player who changed their mind, or said yes, has not named
			// a file called n or y.
			if isOneOf(path, "n", "no", "q", "quit") {
				path = ""
			}
			if !isOneOf(path, "y", "yes") {
				break
			}
			t.say("type the name of the file, such as battle.json (or Enter to save nothing)")
		}
	}
	if path == "" {
		t.say("not saved: name a file, as in: save battle.json")
		return nil
	}
	if err := t.write(path); err != nil {
		t.say("not saved: %v", err)
		return nil
	}
	t.say("saved to %s", path)
	return nil
}

// position says where the battle stands, for a save: "after round 2"
// between rounds, or in a round's activation loop "in round 3, at Jay's
// activation" (or "at the next draw from the bag", in activation draw).
func (t *table) position() string {
	b := t.b
	if !b.InRound() {
		return fmt.Sprintf("after round %d", b.Round())
	}
	switch turn := b.Next(); {
	case turn == nil:
		return fmt.Sprintf("in round %d, after its activations", b.Round())
	case turn.Undrawn:
		return fmt.Sprintf("in round %d, at the next draw from the bag", b.Round())
	default:
		return fmt.Sprintf("in round %d, at %s activation", b.Round(), wording.Possessive(turn.Side))
	}
}
