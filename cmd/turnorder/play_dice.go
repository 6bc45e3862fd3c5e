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

	"github.com/turnorder/turnorder/runtime"
)

func diceText(count, faces int) string {
	if count == 1 {
		return fmt.Sprintf("d%d", faces)
	}
	return fmt.Sprintf("%dd%d", count, faces)
}

// die asks for one subject's roll: the natural total of its dice.
func (t *table) die(ctx context.Context, req runtime.RollRequest, subject string) (int, error) {
	t.flush()
	t.question()
	dice := diceText(req.Count, req.Faces)
	lo, hi := req.Count, req.Count*req.Faces
	what := dice
	if req.Attempt > 0 {
		what += " again"
	}
	if i := slices.Index(req.Subjects, subject); i >= 0 && i < len(req.Modifiers) && req.Modifiers[i] != 0 {
		what += fmt.Sprintf(" (%+d is added)", req.Modifiers[i])
	}
	prompt := fmt.Sprintf("Round %d, %s: %s rolls %s: ", req.Round, req.Standing, subject, what)
	help := func() {
		if req.Count == 1 {
			t.say("type the result the %s shows, %d to %d", dice, lo, hi)
		} else {
			t.say("type the total the %s show, %d to %d", dice, lo, hi)
		}
		if strings.Contains(what, "is added") {
			t.say("type the dice as rolled: play adds the modifier")
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		ans, err := t.ask(prompt, help)
		if err != nil {
			return 0, err
		}
		v, err := strconv.Atoi(ans)
		switch {
		case isSave(ans):
			t.cannotSave("in the middle of a roll")
		case isQuit(ans):
			t.cannotStop("in the middle of a roll")
		case looksLikeChange(ans):
			t.cannotChange("in the middle of a roll")
		case ans == "":
			t.say("enter the result of %s (%d-%d)", dice, lo, hi)
		case err != nil:
			t.say("%q is not a number: enter the result of %s (%d-%d)", ans, dice, lo, hi)
		case v < lo || v > hi:
			t.say("%d is not a result of %s (%d-%d)", v, dice, lo, hi)
		default:
			return v, nil
		}
	}
}

// pickRandom asks the players to make a random pick at the table.
func (t *table) pickRandom(ctx context.Context, req runtime.PickRequest) (int, error) {
	t.flush()
	t.question()
	if req.Draw {
		return t.drawDie(ctx, req)
	}
	fmt.Fprintf(t.out, "Round %d, %s: pick at random who comes next (roll off, or draw lots):\n", req.Round, req.Standing)
	ans, err := t.choose(ctx, req.Options, "", "random pick: ", t.noSaveIn("in the middle of a random pick"), nil, "pick at random at the table (roll off, or draw lots), then type who was picked", "")
	if err != nil {
		return 0, err
	}
	return slices.Index(req.Options, ans), nil
}

// drawDie asks which colour came out of the bag of activation draw: the
// options name one side per die, and the players answer with the side.
func (t *table) drawDie(ctx context.Context, req runtime.PickRequest) (int, error) {
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
	// Nothing of the turn is played before the die is drawn: the battle
	// stands as it did before Step (see drawing), and is saved so.
	t.drawing = true
	defer func() { t.drawing = false }()
	ans, err := t.betweenTurns(ctx, sides, "", "drawn: ", refuse, "draw a die from the bag at the table, then type whose it is", "")
	if err != nil {
		return 0, err
	}
	return slices.Index(req.Options, ans), nil
}
