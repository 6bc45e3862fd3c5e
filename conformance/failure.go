package conformance

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/linediff"
	"github.com/turnorder/turnorder/internal/wording"
)

// A scenario's result, and how an unmet expectation is worded: in
// turnorder's words, with long lists of names wrapped and turns diffed.

// Result is the outcome of one scenario.
type Result struct {
	File     string
	Title    string
	Pos      dsl.Pos
	Failures []Failure
	// Rounds is what the scenario's rounds did, in order, for a
	// transcript: each round played to its end, then the one an error
	// stopped, if one did.
	Rounds []PlayedRound
}

// Passed reports whether the scenario met every expectation.
func (r Result) Passed() bool { return len(r.Failures) == 0 }

// Failure is one unmet expectation, or an error that stopped the scenario.
type Failure struct {
	Round int
	Field string // order, holder, chooser, activations, ready, standing NAME, event, events, or error
	Pos   dsl.Pos
	// Diff is, for an unmet order, holder, chooser, activations, ready or
	// standing, go-cmp's (-want +got) diff of Want and Got, kept for the
	// programs that read it (turnorder test --json's "diff"); Message says
	// the same in turnorder's words. For an event it is what was wanted
	// and the round's events of that kind, for events the diff of the
	// lines expected and the events had (Message's list), and for an
	// error the error's message.
	Diff string
	// Want and Got are what an expectation wanted and what the round
	// had: a name, or a list of names, or nil for nobody (`expect chooser
	// none`); for an `event`, the event wanted, as written after `expect
	// event`, and the round's events of that kind; for `events`, the
	// lines of `expect events exactly` and the round's events as such
	// lines (an event that met its line, as the line is written). Both
	// are nil for an error.
	Want, Got any
	// detail is the error's message after its round, for an error that
	// names the round it failed in (a runtime.RoundError).
	detail string
	// say is how Message words an unmet expectation, with the names as a
	// .rules file writes them; nil for an error, and for a Failure made
	// by hand, whose words Message finds in Want and Got.
	say *words
}

// words is an unmet expectation in turnorder's words: the line that says
// what was expected (after the round), lines aligned under it ("but got
// ..."), and a list under the failure, each item with its two-character
// mark ("  ", "- " or "+ ").
type words struct {
	head  string
	under []string
	list  []string
	// names is, for the two lines of an unmet list (head and under[0]),
	// the column where the names begin, under each other; 0 for none.
	// String wraps a long line of names there, between two names, and
	// the lines under[1:] (the ready units' line) between two words.
	names int
}

// String returns the failure as turnorder test prints it: where it is
// written, then its Message, with the lines that continue the first
// aligned under its words. A long list of names (an order, the ready
// units) is wrapped between names to wrapWidth columns, the names of
// each line under those of the first.
func (f Failure) String() string {
	return f.render(fmt.Sprintf("%s:%d:%d: ", f.Pos.Filename, f.Pos.Line, f.Pos.Column), true)
}

// Message returns the failure in turnorder's words, without where it is
// written: "round 1: expected holder Jay, but Rob holds priority", or
// what was expected and what the round had on two lines
// ("round 1: expected order Jay, Rob" over "         but got        Rob,
// Jay"), or a list of lines under the first (the activations, marked
// "- " where expected and "+ " where got; the round's events); for an
// error, its message after its round. A long list of names stays on its
// line: only String wraps it, for a terminal.
func (f Failure) Message() string { return f.render("", false) }

func (f Failure) render(lead string, wrap bool) string {
	if f.Field == "error" {
		if f.Round > 0 {
			// Errors about a round (an unscripted decision, a roll nobody
			// scripted) often name it themselves: "round 2: ..." or
			// "round 2, order priority: ...".
			msg := f.Diff
			if f.detail != "" {
				msg = strings.TrimPrefix(strings.TrimPrefix(f.detail, ", "), ": ")
			}
			return fmt.Sprintf("%sround %d: %s", lead, f.Round, msg)
		}
		return lead + f.Diff
	}
	w := f.say
	if w == nil {
		w = f.wordsOfWantGot()
	}
	lead += fmt.Sprintf("round %d: ", f.Round)
	col := utf8.RuneCountInString(lead)
	lines := append([]string{w.head}, w.under...)
	if wrap && w.names > 0 {
		lines = append(wrapLines(lines[:2], col, w.names, true), wrapLines(lines[2:], col, 0, false)...)
	}
	var b strings.Builder
	b.WriteString(lead + lines[0])
	pad := strings.Repeat(" ", col)
	for _, l := range lines[1:] {
		b.WriteString("\n" + pad + l)
	}
	for _, l := range w.list {
		b.WriteString("\n  " + l)
	}
	return b.String()
}

// wordsOfWantGot words a Failure made by hand (not by Run) from its Want
// and Got.
func (f Failure) wordsOfWantGot() *words {
	quote := func(v any) []string {
		var names []string
		switch v := v.(type) {
		case string:
			names = []string{v}
		case []string:
			names = v
		}
		if f.Field != "activations" {
			return quoted(names)
		}
		q := make([]string, len(names))
		for i, n := range names {
			side, pass := strings.CutPrefix(n, "pass ")
			q[i] = activationText(pass, quotedOne(side))
		}
		return q
	}
	one := func(v any) string {
		s, _ := v.(string)
		return quotedOne(s)
	}
	switch {
	case f.Field == "holder" || f.Field == "chooser":
		return sayOne(f.Field, one(f.Want), one(f.Got))
	case f.Field == "activations" || strings.HasPrefix(f.Field, "activations in "):
		return sayActivations(f.Field, quote(f.Want), quote(f.Got))
	case f.Field == "ready":
		return sayReady(quote(f.Want), quote(f.Got))
	case f.Field == "events":
		want, _ := f.Want.([]string)
		got, _ := f.Got.([]string)
		return sayEvents(want, got)
	case f.Field == "event":
		want, _ := f.Want.(string)
		got, _ := f.Got.([]string)
		want, no := strings.CutPrefix(want, "no ")
		kind, _, _ := strings.Cut(want, " ")
		return sayEvent(want, no, kind, got)
	}
	return sayList(f.Field, quote(f.Want), quote(f.Got))
}

// wrapWidth is the width String wraps a long list of names to (turnorder
// test prints it 4 columns in: 100 in all), unless that leaves fewer than
// minWrap columns after where the names begin (a long file name): then it
// leaves minWrap.
const (
	wrapWidth = 96
	minWrap   = 40
)

// wrapLines wraps lines, printed from column col, to wrapWidth: between two
// names (after the comma that follows a name) if names, else between two
// words, never inside a quoted name. The lines that continue one begin
// with at spaces, under where its names or words begin. Lines of names
// that have as many names each (an order expected and the order got) are
// wrapped at the same names, so that each line of one shows the same
// places as the line under it of the other.
func wrapLines(lines []string, col, at int, names bool) []string {
	width := max(wrapWidth, col+at+minWrap)
	long := false
	split := make([][]string, len(lines))
	for i, l := range lines {
		long = long || col+utf8.RuneCountInString(l) > width
		split[i] = breaks(l, at, names)
	}
	if !long {
		return lines
	}
	same := true
	for _, p := range split {
		same = same && len(p) == len(split[0])
	}
	if !same {
		var out []string
		for _, p := range split {
			out = append(out, fill([][]string{p}, col, width, at)[0]...)
		}
		return out
	}
	var out []string
	for _, ls := range fill(split, col, width, at) {
		out = append(out, ls...)
	}
	return out
}

// breaks splits line where it may break: the text before at (which stays
// on the first line), then each name with its comma, or each word.
func breaks(line string, at int, names bool) []string {
	pieces := []string{string([]rune(line)[:at])}
	rest := string([]rune(line)[at:])
	start, quoted := 0, false
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == ' ' && !quoted && (!names || i > 0 && rest[i-1] == ','):
			pieces = append(pieces, rest[start:i])
			start = i + 1
		}
	}
	return append(pieces, rest[start:])
}

// fill lays out lines split by breaks (as many pieces each) to width,
// each from column col: a line is broken before its k-th piece where any
// of them would not fit, and its continuations begin with at spaces.
func fill(split [][]string, col, width, at int) [][]string {
	out := make([][]string, len(split))
	cur := make([]string, len(split))
	for i, p := range split {
		cur[i] = p[0] + p[1]
	}
	indent := strings.Repeat(" ", at)
	for k := 2; k < len(split[0]); k++ {
		fits := true
		for i, p := range split {
			fits = fits && col+utf8.RuneCountInString(cur[i])+1+utf8.RuneCountInString(p[k]) <= width
		}
		for i, p := range split {
			if fits {
				cur[i] += " " + p[k]
			} else {
				out[i] = append(out[i], cur[i])
				cur[i] = indent + p[k]
			}
		}
	}
	for i := range split {
		out[i] = append(out[i], cur[i])
	}
	return out
}

// sayList words an unmet list (order, standing NAME) on two lines, what
// was expected over what the round had, the names under each other:
//
//	expected order Jay, Rob
//	but got        Rob, Jay
func sayList(field string, want, got []string) *words {
	what := "expected " + field + " "
	if strings.HasPrefix(field, "standing ") {
		what = "expected " + field + ": "
	}
	but := "but got"
	width := max(utf8.RuneCountInString(what), len(but)+1)
	return &words{
		head:  what + strings.Repeat(" ", width-utf8.RuneCountInString(what)) + wording.OrNone(want),
		under: []string{but + strings.Repeat(" ", width-len(but)) + wording.OrNone(got)},
		names: width,
	}
}

// sayReady words unmet ready units as sayList does (both lists sorted),
// and, when both lists have units, which are ready that were not
// expected to be, and which are not that were.
func sayReady(want, got []string) *words {
	w := sayList("ready", want, got)
	if len(want) == 0 || len(got) == 0 {
		return w
	}
	var extra, missing []string
	for _, u := range got {
		if !slices.Contains(want, u) {
			extra = append(extra, u)
		}
	}
	for _, u := range want {
		if !slices.Contains(got, u) {
			missing = append(missing, u)
		}
	}
	var says []string
	if len(extra) > 0 {
		says = append(says, wording.AndList(extra)+areOrIs(extra)+" ready too")
	}
	if len(missing) > 0 {
		says = append(says, wording.AndList(missing)+areOrIs(missing)+" not ready")
	}
	w.under = append(w.under, strings.Join(says, "; "))
	return w
}

func areOrIs(names []string) string {
	if len(names) == 1 {
		return " is"
	}
	return " are"
}

// sayOne words an unmet holder or chooser; "" is nobody.
func sayOne(field, want, got string) *words {
	if want == "" {
		want = "none"
	}
	who := got
	if got == "" {
		who = "nobody"
	}
	if field == "holder" {
		return &words{head: fmt.Sprintf("expected holder %s, but %s holds priority", want, who)}
	}
	return &words{head: fmt.Sprintf("expected %s %s, but %s chose", field, want, who)}
}

// sayActivations words unmet activations as a diff, turn by turn: a turn
// expected and not taken is marked "- ", one taken and not expected
// "+ ", and long runs of turns as expected are cut short. field is
// "activations", or "activations in PHASE" for one loop's.
func sayActivations(field string, want, got []string) *words {
	cut := func(n int) string { return fmt.Sprintf("  ... %d turns as expected", n) }
	return &words{head: field + " not as expected (- expected, + got):", list: linediff.Listing(want, got, diffContext, cut)}
}

// sayEvent words an unmet `expect event` (or, for no, `expect no
// event`): want is the event as written after `event`, kind its kind, and
// got the round's events of that kind (for no, those that match).
func sayEvent(want string, no bool, kind string, got []string) *words {
	w := &words{head: "expected event " + want}
	switch {
	case no:
		w.head = "expected no event " + want + ", but the round has:"
	case len(got) == 0:
		w.head += fmt.Sprintf(", but the round has no %s event", kind)
	default:
		w.head += fmt.Sprintf(", but the round's %s events are:", kind)
	}
	for _, ev := range got {
		w.list = append(w.list, "  "+ev)
	}
	return w
}

// diffContext is how many turns as expected an activations diff shows
// on either side of a difference.
const diffContext = 3
