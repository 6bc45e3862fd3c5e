package main

// The decisions the rules give a player, as play asks for them: who
// goes first, before or after, an arrangement, which unit activates.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/runtime"
)

// decide asks a player for a decision.
func (t *table) decide(ctx context.Context, d runtime.Decision) ([]string, error) {
	t.flush()
	t.question()
	def := ""
	if len(d.Default) == 1 {
		def = d.Default[0]
	}
	switch d.Kind {
	case runtime.ChooseFirst:
		fmt.Fprintf(t.out, "Round %d, %s: %s chooses who goes first:\n", d.Round, d.Standing, d.By)
		ans, err := t.choose(ctx, d.Options, def, d.By+" chooses: ", t.noSaveIn("while "+d.By+" chooses who goes first"), nil, "", "")
		return []string{ans}, err
	case runtime.ChooseBeforeAfter:
		// Before or after whom, and who goes, where a side chooses for
		// its unit.
		what := fmt.Sprintf("%s chooses to go before or after the others it is tied with", d.By)
		switch {
		case len(d.Others) > 0 && d.Self == d.By:
			what = fmt.Sprintf("%s chooses to go before or after %s", d.By, wording.AndList(d.Others))
		case len(d.Others) > 0:
			what = fmt.Sprintf("%s chooses whether %s goes before or after %s", d.By, d.Self, wording.AndList(d.Others))
		}
		fmt.Fprintf(t.out, "Round %d, %s: %s:\n", d.Round, d.Standing, what)
		ans, err := t.choose(ctx, d.Options, def, d.By+" chooses: ", t.noSaveIn("while "+d.By+" chooses before or after"), nil, "", "")
		return []string{ans}, err
	case runtime.ChooseActivation:
		fmt.Fprintf(t.out, "Round %d: %s activates:\n", d.Round, d.By)
		// Every refusal says why, then what to type instead, in one
		// wording whatever the reason.
		own := slices.DeleteFunc(slices.Clone(d.Options), func(o string) bool { return o == "pass" })
		instead := fmt.Sprintf("%s activates one of its own ready units (%s)", d.By, strings.Join(own, ", "))
		refuse := func(ans string) string {
			// A unit that is not to be had here, in the words the
			// runtime refuses it in.
			name := ans
			if u := t.unitNamed(ans); u != nil {
				name = u.Name
			} else if removed := t.removedThisRound(ans); removed != "" {
				name = removed
			}
			if why := t.b.WhyNotActivate(d.By, name); why != "" && !slices.Contains(d.Options, name) {
				return why + ": " + instead
			}
			switch {
			case !strings.EqualFold(ans, "pass"):
			case d.Drawn:
				return fmt.Sprintf("%s may not pass, as it was drawn from the bag: %s", d.By, instead)
			case d.PassWhen != "":
				return fmt.Sprintf("%s may not pass now: it may pass only when `%s`, and that is false for it; %s", d.By, d.PassWhen, instead)
			default:
				return fmt.Sprintf("%s may not pass while it has a ready unit: %s", d.By, instead)
			}
			return ""
		}
		// The battle can be saved here: Step has played nothing of the
		// turn yet, and the battle restored from the save asks it again.
		// And play can stop here, once it is saved.
		t.atActivationPrompt()
		extra := ""
		// A unit's whole name wins over save and quit; its start does not.
		if slices.ContainsFunc(d.Options, func(o string) bool {
			o = strings.ToLower(o)
			return o != "save" && o != "quit" && (strings.HasPrefix(o, "save") || strings.HasPrefix(o, "quit"))
		}) {
			extra += "\n  a unit whose name starts with save or quit: type its whole name, or its number (save and quit alone are the prompt's)"
		}
		for _, o := range d.Options {
			switch strings.ToLower(o) {
			case "save":
				extra += "\n  save alone picks the unit " + o + " here: type save FILE to save the battle"
			case "quit":
				extra += "\n  quit picks the unit " + o + " here: play can stop at the next prompt that asks which unit activates"
			}
		}
		ans, err := t.betweenTurns(ctx, d.Options, def, d.By+" activates: ", refuse, "", extra)
		return []string{ans}, err
	case runtime.ChooseOrder:
		fmt.Fprintf(t.out, "Round %d, %s: %s arranges %s, first to last:\n", d.Round, d.Standing, d.By, wording.AndList(d.Options))
		for i, o := range d.Options {
			fmt.Fprintf(t.out, "  %d. %s\n", i+1, o)
		}
		prompt := d.By + " arranges: "
		if len(d.Default) > 0 {
			prompt = fmt.Sprintf("%s arranges [%s]: ", d.By, strings.Join(d.Default, ", "))
		}
		help := func() {
			t.say("type all %d, first to last, by number or name, separated by commas (such as 2, 1); the last one can be left out", len(d.Options))
			for i, o := range d.Options {
				fmt.Fprintf(t.out, "  %d. %s\n", i+1, o)
			}
			if len(d.Default) > 0 {
				t.say("Enter takes %s", strings.Join(d.Default, ", "))
			}
		}
		if slices.ContainsFunc(d.Options, isHelp) {
			help = nil
		}
		for {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			ans, err := t.ask(prompt, help)
			if err != nil {
				return nil, err
			}
			if ans == "" && len(d.Default) > 0 {
				return d.Default, nil
			}
			order, why := parseArrangement(ans, d.Options)
			if why == "" {
				return order, nil
			}
			if isSave(ans) {
				t.cannotSave("while " + d.By + " arranges them")
				continue
			}
			if isQuit(ans) {
				t.cannotStop("while " + d.By + " arranges them")
				continue
			}
			if looksLikeChange(ans) {
				t.cannotChange("while " + d.By + " arranges them")
				continue
			}
			t.say("%s", why)
		}
	}
	return nil, &runtime.RoundError{Round: d.Round, Err: fmt.Errorf("a decision of an unknown kind %q: %s", d.Kind, d)}
}

// removedThisRound returns the name of the unit ans names, in any case,
// if it was removed from the battle in the round under way: the battle
// no longer has the unit to match the answer's case against, but the
// round's events name it.
func (t *table) removedThisRound(ans string) string {
	if !t.b.InRound() || t.unitNamed(ans) != nil {
		return ""
	}
	for _, ev := range t.b.Events() {
		if ev.Kind == runtime.EvRemoved && strings.EqualFold(ev.Subject, ans) {
			return ev.Subject
		}
	}
	return ""
}
