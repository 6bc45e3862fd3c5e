package main

// The decisions of `decide` statements, as play asks for them: yes or
// no, a number in a range, one of named options; of one side, or of each
// side in turn, in secret.

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/runtime"
)

// askDeclared asks a player a decision of a `decide` statement. An answer
// out of the range, or not among the options, is refused with what is
// wanted, and asked again; Enter takes the ruleset's default (random: the
// dice pick).
func (t *table) askDeclared(ctx context.Context, d runtime.Decision) (runtime.Answer, error) {
	def := ""
	if len(d.Default) == 1 {
		def = d.Default[0]
	}
	want := wanted(d)
	if d.Secret {
		fmt.Fprintf(t.out, "Round %d: %s decides %s in secret: the other players look away. Every side's answer is revealed together once the last is given.\n", d.Round, d.By, d.Name)
	} else {
		fmt.Fprintf(t.out, "Round %d: %s decides %s:\n", d.Round, d.By, d.Name)
	}
	if d.Kind == runtime.ChooseOption {
		opts := append(slices.Clone(d.Options), runtime.RandomAnswer)
		if slices.Contains(d.Options, runtime.RandomAnswer) {
			opts = d.Options
		}
		ans, err := t.choose(ctx, opts, def, d.By+" decides "+d.Name+": ", func(ans string) (bool, error) {
			return t.command(ans, d.Options, false, "while "+d.By+" decides "+d.Name)
		}, nil, "", t.promptCommands())
		if err != nil {
			return runtime.Answer{}, err
		}
		return t.secretly(d, runtime.ChoiceAnswer(ans)), nil
	}
	prompt := fmt.Sprintf("%s decides %s (%s)", d.By, d.Name, want)
	if def != "" {
		prompt += " [" + def + "]"
	}
	prompt += ": "
	help := func() {
		t.say("type %s, or random to let the dice pick", want)
		if def != "" {
			t.say("Enter takes %s", def)
		}
		t.say("%s", t.promptCommands())
	}
	for {
		ans, err := t.askIn(ctx, prompt, help)
		if err != nil {
			return runtime.Answer{}, err
		}
		if ans == "" && def != "" {
			ans = def
		}
		if why := refusedAnswer(d, ans); why == "" {
			a := strings.ToLower(strings.TrimSpace(ans))
			switch a {
			case "y":
				a = "yes"
			case "n":
				a = "no"
			}
			return t.secretly(d, runtime.ChoiceAnswer(a)), nil
		} else if took, err := t.command(ans, nil, false, "while "+d.By+" decides "+d.Name); err != nil {
			return runtime.Answer{}, err
		} else if !took {
			t.say("%s", why)
		}
	}
}

// secretly says, after a secret answer, that it is kept until every side
// has answered.
// At a terminal, where the answer typed shows on the screen, the screen
// is cleared for the next side.
func (t *table) secretly(d runtime.Decision, a runtime.Answer) runtime.Answer {
	if d.Secret && !slices.Equal(a.Choice, []string{"random"}) {
		// An answer of random is hidden once the dice have picked it.
		t.hideSecret(d.By, "the answer")
	}
	return a
}

// hideSecret clears the screen of a secret answer by, at a terminal, and
// says that what (the answer) stays secret, unless by is the last side
// to answer, whose answer is revealed with the others' at once.
func (t *table) hideSecret(by, what string) {
	if sides := t.b.Sides(); len(sides) == 0 || sides[len(sides)-1].Name == by {
		return
	}
	if f, ok := t.out.(*os.File); ok && !t.echo && isTerminal(f) {
		fmt.Fprint(t.out, "\033[H\033[2J") // ANSI: cursor home, clear the screen
	}
	t.say("%s has answered; %s stays secret until every side has answered", by, what)
}

// secretPick reports whether req picks at random a side's answer to a
// secret decision.
func (t *table) secretPick(req runtime.PickRequest) bool {
	return req.Decision != "" && slices.ContainsFunc(t.b.Program().Decides(), func(d runtime.DecisionDecl) bool { return d.Secret && d.Name == req.Decision })
}

// wanted says what a decision wants, for a prompt.
func wanted(d runtime.Decision) string {
	switch d.Kind {
	case runtime.ChooseYesNo:
		return "yes or no"
	case runtime.ChooseNumber:
		if d.Min != nil && d.Max != nil {
			return fmt.Sprintf("a number from %d to %d", *d.Min, *d.Max)
		}
	}
	return "one of " + strings.Join(d.Options, ", ")
}

// refusedAnswer says why ans does not answer d, or returns "".
func refusedAnswer(d runtime.Decision, ans string) string {
	a := strings.ToLower(strings.TrimSpace(ans))
	if a == runtime.RandomAnswer {
		return ""
	}
	switch d.Kind {
	case runtime.ChooseYesNo:
		if isOneOf(a, "yes", "no", "true", "false", "y", "n") {
			return ""
		}
		return fmt.Sprintf("%s: answer yes or no", notAnOption(ans))
	case runtime.ChooseNumber:
		n, err := strconv.Atoi(a)
		switch {
		case err != nil:
			return fmt.Sprintf("%q is not a number: answer %s", ans, wanted(d))
		case d.Min != nil && d.Max != nil && (n < *d.Min || n > *d.Max):
			return fmt.Sprintf("%d is out of range: answer %s", n, wanted(d))
		}
		return ""
	}
	if slices.Contains(d.Options, ans) {
		return ""
	}
	return fmt.Sprintf("%s: answer %s", notAnOption(ans), wanted(d))
}

// secretDecision reports whether ev is the answer to a secret decision,
// which play reveals once every side has answered.
func (t *table) secretDecision(ev runtime.Event) bool {
	switch runtime.DecisionKind(ev.Detail) {
	case runtime.ChooseYesNo, runtime.ChooseNumber, runtime.ChooseOption:
		return slices.ContainsFunc(t.b.Program().Decides(), func(d runtime.DecisionDecl) bool { return d.Secret && d.Name == ev.Subject })
	}
	return false
}
