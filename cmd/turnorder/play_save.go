package main

// When play saves the battle, and which file holds it as it stands.

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/runtime"
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

// atPrompt saves, with --save, the battle at a prompt between two turns
// (which unit activates, which colour came out of the bag) when it has
// changed since the last save: quietly, as the round's end says it saved.
// So the file holds the battle at each such prompt, with the round's
// opening dice and decisions, every activation and every die drawn, for
// quit to stop there, and the battle to resume there. A failed save is
// said, and the round goes on.
func (t *table) atPrompt() {
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

// snapshot is the battle as it stands, as a save writes it: the battle's
// snapshot, and play's own part (see savedPlay), the dice typed so far of
// the roll it waits for, and the change under way.
func (t *table) snapshot() ([]byte, error) {
	data, err := t.b.Snapshot()
	if err != nil {
		return nil, err
	}
	var own savedPlay
	if t.b.Pending() != nil {
		own.Rolled = t.rolled
		own.Change = t.inChange()
	}
	if own.Rolled == nil && own.Change == nil {
		return data, nil
	}
	return addField(data, "play", own)
}

// holder returns the file that holds the battle as it stands, and where it
// stands: the file written last in this session, or else the --resume
// file; or "" when neither does.
func (t *table) holder() (file, at string) {
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
// between rounds, or in a round "in round 3, at Jay's activation" (or "at
// the next draw from the bag", in activation draw), or, where it waits for
// a die or a choice, which: "in round 1, at B's roll for priority".
func (t *table) position() string {
	b := t.b
	where := fmt.Sprintf("after round %d", b.Round())
	if b.InRound() {
		where = fmt.Sprintf("in round %d", b.Round())
	}
	p := b.Pending()
	switch {
	case p == nil && !b.InRound():
		return where
	case p == nil:
		switch turn := b.Next(); {
		case turn == nil:
			return where + ", after its activations"
		case turn.Undrawn:
			return where + ", at the next draw from the bag"
		default:
			return where + ", at " + wording.Possessive(turn.Side) + " activation"
		}
	case p.Roll != nil:
		subject := "the"
		if i := len(t.rolled); i < len(p.Roll.Subjects) {
			subject = wording.Possessive(p.Roll.Subjects[i])
		}
		what := " roll for "
		if p.Roll.Drawn() {
			what = " draw for "
		}
		return where + ", at " + subject + what + p.Roll.Standing
	case p.Pick != nil && p.Pick.Draw:
		return where + ", at the next draw from the bag"
	case p.Pick != nil:
		return where + ", at the random pick for " + p.Pick.Standing
	}
	d := p.Decision
	switch d.Kind {
	case runtime.ChooseActivation:
		return where + ", at " + wording.Possessive(d.By) + " activation"
	case runtime.ChooseFirst:
		return where + ", where " + d.By + " chooses who goes first in " + d.Standing
	case runtime.ChooseBeforeAfter:
		return where + ", where " + d.By + " chooses before or after in " + d.Standing
	}
	return where + ", where " + d.By + " arranges " + d.Standing
}
