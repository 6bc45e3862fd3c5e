package main

// How play stops: cleanly where a file holds the battle, offering to
// save it where none does, and saying how to resume it.

import (
	"fmt"
	"strconv"
	"strings"
)

// stopError stops play cleanly where a file holds the battle as it
// stands: the players typed quit at the prompt that asks which unit
// activates, or at "another round?", or the input ended at the first.
type stopError struct {
	eof      bool   // the input ended
	file, at string // the file that holds the battle, and where it stands
}

func (e *stopError) Error() string { return "stopped" }

// stopped is the message play stops with after a stopError. The command
// it gives continues the battle as the session would have: with its --save
// file, and, after --rounds N, with the rounds left of the N (with
// --resume, --rounds counts the round resumed in its middle as the first).
func (t *table) stopped(e *stopError, saveTo string, rounds, left int) string {
	resume := t.resumeWith(e.file, saveTo, left)
	if left > 0 {
		resume += fmt.Sprintf(" (the rounds left of --rounds %d: %s)", rounds, roundsLeft(t.b.Round(), left))
	}
	if e.eof {
		return fmt.Sprintf("input ended %s, where the battle was saved: %s holds it as it stands; %s", e.at, e.file, resume)
	}
	return fmt.Sprintf("stopped %s: %s holds the battle as it stands; %s", e.at, e.file, resume)
}

// resumeWith says how to resume the battle file holds: "resume it with
// `turnorder play RULESET --resume FILE`", with --save saveTo, and
// --rounds left when it is not 0.
func (t *table) resumeWith(file, saveTo string, left int) string {
	resume := "turnorder play " + shellWord(t.with.arg()) + " --resume " + shellWord(file)
	if saveTo != "" {
		resume += " --save " + shellWord(saveTo)
	}
	if left > 0 {
		resume += " --rounds " + strconv.Itoa(left)
	}
	return "resume it with `" + resume + "`"
}

// roundsLeft names the rounds left to play from the middle of round r,
// left of them in all, r included: "the rest of round 2, and round 3".
func roundsLeft(r, left int) string {
	switch left {
	case 1:
		return fmt.Sprintf("the rest of round %d", r)
	case 2:
		return fmt.Sprintf("the rest of round %d, and round %d", r, r+1)
	case 3:
		return fmt.Sprintf("the rest of round %d, and rounds %d and %d", r, r+1, r+2)
	}
	return fmt.Sprintf("the rest of round %d, and rounds %d to %d", r, r+1, r+left-1)
}

// endedBetween is the message play stops with when the input ends between
// rounds: which file holds the battle, and how to resume it, or, where none
// holds it as it stands, how to keep a battle next time.
func (t *table) endedBetween(saveTo string) string {
	msg := fmt.Sprintf("input ended after round %d (%s)", t.b.Round(), t.whereSaved())
	if file, _ := t.holder(); file != "" {
		return msg + "; " + t.resumeWith(file, saveTo, 0)
	}
	return msg + "; " + keepNextTime
}

// endRounds ends the rounds of --rounds. With --save, the last round has
// said "saved to FILE"; where no file holds the battle as they left it,
// play says so in its place, and how to keep one, as the end of the input
// between rounds does (but without "another round?", which --rounds does
// not ask).
func (t *table) endRounds() {
	if file, _ := t.holder(); file != "" {
		return
	}
	t.say("%s; to keep a battle, %s", t.notSaved(), keepWithSave)
}

// keepNextTime says how not to lose a battle, where one was.
const keepNextTime = `to keep a battle, type save FILE at "another round?" before stopping, or ` + keepWithSave

// keepWithSave is the way to keep a battle that every session has.
const keepWithSave = "play with --save FILE, which saves it after every round"

// notSaved says that no file holds the battle as it stands, and which
// holds it as it was, if one does.
func (t *table) notSaved() string {
	// Where the battle is, after the sentence: inside it, whereSaved's
	// "nothing was saved; ..." read as the battle's subject.
	what := fmt.Sprintf("the battle after round %d is not saved as it stands", t.b.Round())
	if t.written != "" || t.resumed != "" {
		what += " (" + t.whereSaved() + ")"
	}
	return what
}

// offerSave asks, as play stops at n, whether to save the battle that no
// file holds as it stands. A file named there is saved, and the stopError
// says how to resume it; Enter (or n) stops without it, saying so. The
// error is only that of the input, which ended there.
func (t *table) offerSave() (*stopError, error) {
	t.say("%s", t.notSaved())
	prompt := "save it to which file? (Enter: stop without saving) "
	if t.resumed != "" && t.saveTo == "" {
		prompt = fmt.Sprintf("save it to which file? (save: to %s; Enter: stop without saving) ", t.resumed)
	}
	help := func() {
		t.say("type a file to save the battle to, such as battle.json, to resume it later with --resume")
		if t.resumed != "" {
			t.say("save                      save it to %s, the file it was resumed from", t.resumed)
		}
		t.say("Enter, n or quit          stop without saving it")
	}
	for {
		ans, err := t.ask(prompt, help)
		if err != nil {
			return nil, err
		}
		w, rest, _ := strings.Cut(ans, " ")
		switch {
		case ans == "" || isOneOf(ans, "n", "no", "q", "quit"):
			t.say("not saved; %s", keepNextTime)
			return nil, nil
		case isOneOf(ans, "y", "yes"):
			// Not a file called y: the answer to "save it?".
			t.say("type the name of the file to save it to, such as battle.json (or Enter to stop without saving)")
			continue
		case strings.EqualFold(w, "save"):
			ans = strings.TrimSpace(rest)
			if ans == "" && t.resumed == "" {
				t.say("name a file, as in: save battle.json (or Enter to stop without saving)")
				continue
			}
			if ans == "" {
				ans = t.resumed
			}
		}
		if err := t.write(ans); err != nil {
			t.say("not saved: %v", err)
			continue
		}
		t.say("saved to %s", ans)
		return &stopError{file: ans, at: t.writtenAt}, nil
	}
}
