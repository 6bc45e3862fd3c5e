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

// askDecision asks a player for a decision.
func (t *table) askDecision(ctx context.Context, d runtime.Decision) (runtime.Answer, error) {
	t.flush()
	t.question()
	def := ""
	if len(d.Default) == 1 {
		def = d.Default[0]
	}
	one := func(ans string, err error) (runtime.Answer, error) {
		if err != nil {
			return runtime.Answer{}, err
		}
		return runtime.ChoiceAnswer(ans), nil
	}
	command := func(where string) func(string) (bool, error) {
		return func(ans string) (bool, error) { return t.command(ans, d.Options, false, where) }
	}
	switch d.Kind {
	case runtime.ChooseYesNo, runtime.ChooseNumber, runtime.ChooseOption:
		return t.askDeclared(ctx, d)
	case runtime.ChooseFirst:
		fmt.Fprintf(t.out, "Round %d, %s: %s chooses who goes first:\n", d.Round, d.Standing, d.By)
		return one(t.choose(ctx, d.Options, def, d.By+" chooses: ", command("while "+d.By+" chooses who goes first"), nil, "", t.promptCommands()))
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
		return one(t.choose(ctx, d.Options, def, d.By+" chooses: ", command("while "+d.By+" chooses before or after"), nil, "", t.promptCommands()))
	case runtime.ChooseActivation:
		where := ""
		if d.Phase != "" {
			where = ", " + d.Phase
			if d.Step != "" {
				where += "/" + d.Step
			}
		}
		fmt.Fprintf(t.out, "Round %d%s: %s activates:\n", d.Round, where, d.By)
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
		// Nothing of the turn is played yet: with --save, the file holds
		// the battle here.
		t.atPrompt()
		extra := ""
		// A unit's whole name wins over the prompt's words; its start
		// does not.
		if slices.ContainsFunc(d.Options, func(o string) bool {
			o = strings.ToLower(o)
			return slices.ContainsFunc(promptWords, func(w string) bool { return o != w && strings.HasPrefix(o, w) })
		}) {
			extra += "\n  a unit whose name starts with save, quit or undo: type its whole name, or its number (save, quit and undo alone are the prompt's)"
		}
		for _, o := range d.Options {
			switch strings.ToLower(o) {
			case "save":
				extra += "\n  save alone picks the unit " + o + " here: type save FILE to save the battle"
			case "quit":
				extra += "\n  quit picks the unit " + o + " here: play can stop at the next prompt that asks which unit activates"
			case "undo":
				extra += "\n  undo picks the unit " + o + " here: to take back the answer before, type undo at the next prompt"
			}
		}
		return one(t.betweenTurns(ctx, d.Options, def, d.By+" activates: ", refuse, "", extra))
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
			t.say("%s", t.promptCommands())
		}
		if slices.ContainsFunc(d.Options, isHelp) {
			help = nil
		}
		for {
			ans, err := t.askIn(ctx, prompt, help)
			if err != nil {
				return runtime.Answer{}, err
			}
			if ans == "" && len(d.Default) > 0 {
				return runtime.ChoiceAnswer(d.Default...), nil
			}
			order, why := parseArrangement(ans, d.Options)
			if why == "" {
				return runtime.ChoiceAnswer(order...), nil
			}
			took, err := t.command(ans, d.Options, false, "while "+d.By+" arranges them")
			if err != nil {
				return runtime.Answer{}, err
			}
			if !took {
				t.say("%s", why)
			}
		}
	}
	return runtime.Answer{}, &runtime.RoundError{Round: d.Round, Err: fmt.Errorf("a decision of an unknown kind %q: %s", d.Kind, d)}
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
