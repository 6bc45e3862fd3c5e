package main

// How play puts a question to the players and reads the answer: the
// numbered options, names in any case or by their start, arrangements,
// and help at every prompt.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/runtime"
)

// errInputEnded is what every question returns once the input has ended.
var errInputEnded = errors.New("input ended")

// isTerminal reports whether r is a terminal (a character device), where
// the player's typing already shows their answers.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// ask prints a prompt and reads one line, trimmed. "help" (or "?") calls
// help, which says what can be typed there, and asks again.
func (t *table) ask(prompt string, help func()) (string, error) {
	for {
		if t.eof {
			return "", errInputEnded
		}
		fmt.Fprint(t.out, t.style.Bold(prompt))
		line, err := t.in.ReadString('\n')
		if err != nil && line == "" {
			t.eof = true
			fmt.Fprintln(t.out)
			return "", errInputEnded
		}
		line = strings.TrimSpace(line)
		if t.echo {
			fmt.Fprintln(t.out, line)
		}
		if help != nil && isHelp(line) {
			help()
			continue
		}
		return line, nil
	}
}

// askIn is ask, unless ctx is done.
func (t *table) askIn(ctx context.Context, prompt string, help func()) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return t.ask(prompt, help)
}

func isHelp(ans string) bool { return strings.EqualFold(ans, "help") || ans == "?" }

// say prints a line of the dialogue, such as why an answer was refused.
func (t *table) say(format string, args ...any) {
	fmt.Fprintf(t.out, "  "+format+"\n", args...)
}

// choose lists options numbered and asks for one, by number or name. An
// empty answer takes def, if there is one. command, if set, may take an
// answer that is not an option's name (such as save) as a command of the
// prompt, and reports whether it did; then the question is asked again,
// unless it returns an error (quit), which choose returns. Only an
// option's whole name, in any case, wins over a command: "save" is the
// command, not the start of saveguard. refuse, if set, may explain why an
// answer that is not an option is refused. help says note before the
// options, and more after them.
func (t *table) choose(ctx context.Context, options []string, def, prompt string, command func(string) (bool, error), refuse func(string) string, note, more string) (string, error) {
	list := func() {
		for i, o := range options {
			fmt.Fprintf(t.out, "  %d. %s\n", i+1, o)
		}
	}
	list()
	if def != "" {
		prompt = strings.TrimSuffix(prompt, ": ") + " [" + def + "]: "
	}
	help := func() {
		if note != "" {
			t.say("%s", note)
		}
		t.say("type the number or the name of one of these:")
		list()
		if def != "" {
			t.say("Enter takes %s", def)
		}
		if more != "" {
			t.say("%s", more)
		}
	}
	if slices.ContainsFunc(options, isHelp) {
		help = nil // "help" is an option's name
	}
	for {
		ans, err := t.askIn(ctx, prompt, help)
		if err != nil {
			return "", err
		}
		if ans == "" && def != "" {
			return def, nil
		}
		named := slices.ContainsFunc(options, func(o string) bool { return strings.EqualFold(o, ans) })
		if command != nil && !named {
			took, err := command(ans)
			if err != nil {
				return "", err
			}
			if took {
				continue
			}
		}
		if o, ok := resolveOption(ans, options); ok {
			return o, nil
		}
		if refuse != nil {
			if why := refuse(ans); why != "" {
				t.say("%s", why)
				continue
			}
		}
		if m := matching(ans, options); len(m) > 1 {
			t.say("%q may be %s: type more of the name, or its number", ans, strings.Join(m, " or "))
			continue
		}
		t.say("%s: enter a number from 1 to %d, or a name", notAnOption(ans), len(options))
	}
}

func notAnOption(ans string) string {
	if ans == "" {
		return "no answer"
	}
	return fmt.Sprintf("%q is not one of the options", ans)
}

// resolveOption reads an answer as an option's number or name: exactly,
// or else case-insensitively, or else as the start of one name only
// ("ludi" for "Ludi Aeternum"), whichever is unambiguous first.
func resolveOption(ans string, options []string) (string, bool) {
	if n, err := strconv.Atoi(ans); err == nil {
		if n >= 1 && n <= len(options) {
			return options[n-1], true
		}
		if !slices.Contains(options, ans) {
			return "", false
		}
	}
	if m := matching(ans, options); len(m) == 1 {
		return m[0], true
	}
	return "", false
}

// matching returns the options a name answer may mean: the one it is, or
// else those it is in another case, or else those it is the start of.
func matching(ans string, options []string) []string {
	if slices.Contains(options, ans) {
		return []string{ans}
	}
	for _, match := range []func(o string) bool{
		func(o string) bool { return strings.EqualFold(o, ans) },
		func(o string) bool { return ans != "" && strings.HasPrefix(strings.ToLower(o), strings.ToLower(ans)) },
	} {
		var found []string
		for _, o := range options {
			if match(o) {
				found = append(found, o)
			}
		}
		if len(found) > 0 {
			return found
		}
	}
	return nil
}

// parseArrangement reads an arrangement of every option, first to last:
// names or numbers separated by commas (or by spaces, when no name has
// one). The last option may be left out.
func parseArrangement(ans string, options []string) ([]string, string) {
	var parts []string
	switch {
	case strings.Contains(ans, ","):
		parts = strings.Split(ans, ",")
	default:
		if _, ok := resolveOption(ans, options); ok {
			parts = []string{ans}
		} else {
			parts = strings.Fields(ans)
		}
	}
	var out []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		o, ok := resolveOption(p, options)
		if !ok {
			return nil, fmt.Sprintf("%s: name them by number or name, first to last, separated by commas", notAnOption(p))
		}
		if slices.Contains(out, o) {
			return nil, fmt.Sprintf("%s is named twice", o)
		}
		out = append(out, o)
	}
	if len(out) == len(options)-1 {
		for _, o := range options {
			if !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	if len(out) != len(options) {
		return nil, fmt.Sprintf("arrange all %d, first to last, separated by commas (such as 2, 1)", len(options))
	}
	return out, ""
}

// unitNamed returns the unit an answer names, in any case, or nil.
func (t *table) unitNamed(ans string) *runtime.Unit {
	if t.b == nil || ans == "" {
		return nil
	}
	if u := t.b.Unit(ans); u != nil {
		return u
	}
	for _, u := range t.b.Units() {
		if strings.EqualFold(u.Name, ans) {
			return u
		}
	}
	return nil
}

func unitNames(units []*runtime.Unit) []string {
	names := make([]string, len(units))
	for i, u := range units {
		names[i] = u.Name
	}
	return names
}

// named returns the name of the unit or side an answer at "another round?"
// names: as typed, or else the one unit or side whose name it is in
// another case, as the prompts in a round take names ("mira" for Mira).
// Anything else is returned as typed, for the change to refuse.
func (t *table) named(name string) string {
	if t.b.Unit(name) != nil || t.b.Side(name) != nil {
		return name
	}
	var found []string
	for _, u := range t.b.Units() {
		if strings.EqualFold(u.Name, name) {
			found = append(found, u.Name)
		}
	}
	for _, s := range t.b.Sides() {
		if strings.EqualFold(s.Name, name) {
			found = append(found, s.Name)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return name
}

// question notes a question asked.
func (t *table) question() { t.asked++ }

// isOneOf reports whether an answer is one of words, in any case.
func isOneOf(ans string, words ...string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.EqualFold(ans, w) })
}
