package main

// The dice rolled at the table, as play asks for them: a roll's result,
// a random pick made by rolling off or drawing lots, and the die drawn
// from the bag in activation draw.

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/runtime"
)

func diceText(count, faces int) string {
	if count == 1 {
		return fmt.Sprintf("d%d", faces)
	}
	return fmt.Sprintf("%dd%d", count, faces)
}

// askRoll asks for a roll: the natural total of each subject's dice, one
// subject at a time (t.rolled holds those typed so far). A result the
// dice cannot show is refused at once; undo takes back the die typed
// last, and, before any, the answer before the roll.
func (t *table) askRoll(ctx context.Context, req runtime.RollRequest) (runtime.Answer, error) {
	if req.Labels != nil {
		return t.askFace(ctx, req)
	}
	t.flush()
	dice := diceText(req.Count, req.Faces)
	lo, hi := req.Count, req.Count*req.Faces
	return t.askEachSubject(ctx, req, func(i int) (string, func()) {
		what := dice
		if req.Attempt > 0 {
			what += " again"
		}
		if i < len(req.Modifiers) && req.Modifiers[i] != 0 {
			what += fmt.Sprintf(" (%+d is added)", req.Modifiers[i])
		}
		return fmt.Sprintf("Round %d, %s: %s rolls %s: ", req.Round, req.Standing, req.Subjects[i], what), func() {
			if req.Count == 1 {
				t.say("type the result the %s shows, %d to %d", dice, lo, hi)
			} else {
				t.say("type the total the %s show, %d to %d", dice, lo, hi)
			}
			if strings.Contains(what, "is added") {
				t.say("type the dice as rolled: play adds the modifier")
			}
			t.say("%s", t.promptCommands())
		}
	}, func(ans string) (int, string) {
		v, err := strconv.Atoi(ans)
		switch {
		case ans == "":
			return 0, fmt.Sprintf("enter the result of %s (%d-%d)", dice, lo, hi)
		case err != nil:
			return 0, fmt.Sprintf("%q is not a number: enter the result of %s (%d-%d)", ans, dice, lo, hi)
		case v < lo || v > hi:
			return 0, fmt.Sprintf("%d is not a result of %s (%d-%d)", v, dice, lo, hi)
		}
		return v, ""
	})
}

// askEachSubject asks, one subject of req at a time (t.rolled holds the
// results typed so far), what its dice or card show: prompt is the
// question for subject i with its help, and parse the result an answer
// gives, or why it is refused, which is said before asking again. undo
// takes back the result typed last, and, before any, the answer before
// the roll.
func (t *table) askEachSubject(ctx context.Context, req runtime.RollRequest, prompt func(i int) (string, func()), parse func(ans string) (int, string)) (runtime.Answer, error) {
	for len(t.rolled) < len(req.Subjects) {
		t.question()
		p, help := prompt(len(t.rolled))
		for asked := false; !asked; {
			ans, err := t.askIn(ctx, p, help)
			if err != nil {
				return runtime.Answer{}, err
			}
			if isUndo(ans) && len(t.rolled) > 0 {
				// The result typed last, which the battle has not been
				// given yet.
				last := len(t.rolled) - 1
				t.say("undone: %s %s", wording.Possessive(req.Subjects[last]), rolledText(req, t.rolled[last]))
				t.rolled = t.rolled[:last]
				break
			}
			if took, err := t.command(ans, nil, false, "in the middle of a roll"); err != nil || took {
				if err != nil {
					return runtime.Answer{}, err
				}
				continue
			}
			v, why := parse(ans)
			if why != "" {
				t.say("%s", why)
				continue
			}
			t.rolled = append(t.rolled, v)
			asked = true
		}
	}
	return runtime.RollAnswer(slices.Clone(t.rolled)...), nil
}

// askPick asks the players to make a random pick at the table.
func (t *table) askPick(ctx context.Context, req runtime.PickRequest) (runtime.Answer, error) {
	t.flush()
	t.question()
	if req.Decision != "" {
		fmt.Fprintf(t.out, "Round %d: pick %s answer to %s at random (roll a die, or draw lots):\n", req.Round, wording.Possessive(req.By), req.Decision)
	} else {
		fmt.Fprintf(t.out, "Round %d, %s: pick at random who comes next (roll off, or draw lots):\n", req.Round, req.Standing)
	}
	command := func(ans string) (bool, error) {
		return t.command(ans, req.Options, false, "in the middle of a random pick")
	}
	ans, err := t.choose(ctx, req.Options, "", "random pick: ", command, nil, "pick at random at the table (roll off, or draw lots), then type who was picked", t.promptCommands())
	if err != nil {
		return runtime.Answer{}, err
	}
	if t.secretPick(req) {
		// The pick is a side's secret answer: hidden as one it typed.
		t.hideSecret(req.By, "its answer, picked at random,")
	}
	return runtime.PickAnswer(slices.Index(req.Options, ans)), nil
}

// askDraw asks which colour came out of the bag of activation draw: the
// options name one side per die, and the players answer with the side.
// Nothing of the turn is played before the die is drawn: the battle can be
// saved here, and a change made, as where a unit is to activate.
func (t *table) askDraw(ctx context.Context, req runtime.PickRequest) (runtime.Answer, error) {
	t.flush()
	t.question()
	t.atPrompt()
	sides, dice := req.Bag()
	counts := make([]string, len(sides))
	for i, side := range sides {
		counts[i] = fmt.Sprintf("%s %d", side, dice[i])
	}
	fmt.Fprintf(t.out, "Round %d: draw a die from the bag (%s): whose colour is it?\n", req.Round, strings.Join(counts, ", "))
	refuse := func(ans string) string {
		if u := t.unitNamed(ans); u != nil {
			return fmt.Sprintf("%s is a unit: type the side whose colour came out of the bag (%s); it then chooses which unit activates", u.Name, strings.Join(sides, " or "))
		}
		return ""
	}
	ans, err := t.betweenTurns(ctx, sides, "", "drawn: ", refuse, "draw a die from the bag at the table, then type whose it is", "")
	if err != nil {
		return runtime.Answer{}, err
	}
	return runtime.PickAnswer(slices.Index(req.Options, ans)), nil
}

// rolledText says a result typed for a roll: the total, or the face or
// card it names.
func rolledText(req runtime.RollRequest, v int) string {
	if v >= 1 && v <= len(req.Labels) {
		return req.Labels[v-1]
	}
	return strconv.Itoa(v)
}

// askFace asks for a roll of a declared die, or a draw from a deck or
// bag: the face each subject rolled, or the card it drew, by name, one
// subject at a time. The prompt lists the faces, or the cards left; a name
// not among them is refused at once. A draw has one subject.
func (t *table) askFace(ctx context.Context, req runtime.RollRequest) (runtime.Answer, error) {
	t.flush()
	drawn := req.Kind == "deck" || req.Kind == "bag"
	deck := req.DeckName()
	refusal := "is not a face of die " + req.Randomizer + " (faces: " + req.LabelText() + ")"
	if drawn {
		refusal = "is not left in " + deck + " (left: " + req.LabelText() + ")"
	}
	return t.askEachSubject(ctx, req, func(i int) (string, func()) {
		what := fmt.Sprintf("rolls die %s (faces: %s)", req.Randomizer, req.LabelText())
		if drawn {
			what = fmt.Sprintf("draws from %s (left: %s)", deck, req.LabelText())
		}
		if req.Attempt > 0 {
			what += ", again"
		}
		if i < len(req.Modifiers) && req.Modifiers[i] != 0 {
			what += fmt.Sprintf(" (%+d is added)", req.Modifiers[i])
		}
		return fmt.Sprintf("Round %d, %s: %s %s: ", req.Round, req.Standing, req.Subjects[i], what), func() {
			if drawn {
				t.say("draw a card at the table, then type which it is: one of %s", req.LabelText())
			} else {
				t.say("roll the die at the table, then type the face it shows: one of %s", req.LabelText())
			}
			t.say("%s", t.promptCommands())
		}
	}, func(ans string) (int, string) {
		k := slices.Index(req.Labels, ans)
		if k < 0 {
			// Names are typed in any case, as play takes them.
			k = slices.IndexFunc(req.Labels, func(l string) bool { return strings.EqualFold(l, ans) })
		}
		switch {
		case ans == "":
			return 0, "enter " + strings.TrimPrefix(refusal, "is not ")
		case k < 0:
			return 0, ans + " " + refusal
		}
		return k + 1, ""
	})
}
