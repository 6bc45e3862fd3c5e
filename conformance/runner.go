// Package conformance runs worked examples ("scenarios") against rulesets.
//
// A scenario is written in the .rules language next to, or apart from, the
// ruleset it checks:
//
//	scenario "Jay and Rob" {
//	  ruleset mesbg
//	  quote "Jay rolls a 4 whilst Rob rolls a 2 ... he chooses himself."
//	  side Jay
//	  side Rob
//	  round 1 {
//	    roll Jay 4, Rob 2
//	    Jay chooses Jay
//	    expect holder Jay
//	  }
//	}
//
// Statements in a round run in order. `roll`, `random` and `chooses` queue
// scripted dice, random picks and answers; the runtime takes them as it
// needs them. The round's phases run at the first `expect` or `activate`
// (or at the end of the block), so `set` and status changes written before
// them happen before the round. `expect activations` plays the round's
// activations to the end. At the end of the block the round ends, and
// anything scripted but never used is a failure: a scenario says exactly
// what happened.
//
// The bundled suite (one scenario file per bundled ruleset, checking every
// worked example and rule clause of the source texts) is embedded: see
// Suite.
package conformance

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

//go:embed scenarios/*.rules
var suite embed.FS

// Suite returns the bundled conformance suite, read-only.
func Suite() fs.FS { return suite }

// Result is the outcome of one scenario.
type Result struct {
	File     string
	Title    string
	Pos      dsl.Pos
	Failures []Failure
}

// Passed reports whether the scenario met every expectation.
func (r Result) Passed() bool { return len(r.Failures) == 0 }

// Failure is one unmet expectation, or an error that stopped the scenario.
type Failure struct {
	Round int
	Field string // order, holder, chooser, activations, ready, standing NAME, event, or error
	Pos   dsl.Pos
	// Diff is, for an unmet order, holder, chooser, activations, ready or
	// standing, go-cmp's (-want +got) diff of Want and Got, kept for the
	// programs that read it (turnorder test -json's "diff"); Message says
	// the same in turnorder's words. For an event it is what was wanted
	// and the round's events of that kind, and for an error the error's
	// message.
	Diff string
	// Want and Got are what an expectation wanted and what the round
	// had: a name, or a list of names, or nil for nobody (`expect chooser
	// none`); for an `event`, the event wanted, as written after `expect
	// event`, and the round's events of that kind. Both are nil for an
	// error.
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
	case f.Field == "activations":
		return sayActivations(quote(f.Want), quote(f.Got))
	case f.Field == "ready":
		return sayReady(quote(f.Want), quote(f.Got))
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
// "+ ", and long runs of turns as expected are cut short.
func sayActivations(want, got []string) *words {
	return &words{head: "activations not as expected (- expected, + got):", list: lineDiff(want, got)}
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

// diffContext is how many turns as expected lineDiff shows on either side
// of a difference.
const diffContext = 3

// lineDiff returns the lines of a diff of want and got, each marked "  "
// (in both), "- " (only in want) or "+ " (only in got); the turns of a
// block that differs are listed expected first. A run of more than
// 2*diffContext+1 lines in both is cut to diffContext lines either side, the
// rest said as "  ... N turns as expected".
func lineDiff(want, got []string) []string {
	// lcs[i][j] is the longest common subsequence of want[i:] and
	// got[j:]: its length and, of those as long, the most turns kept in
	// their places (a swap of two turns then reads as two turns
	// replaced, the others in place, not as one turn moved); step[i][j]
	// is its first step.
	type score struct{ n, inPlace int }
	better := func(a, b score) bool { return a.n > b.n || (a.n == b.n && a.inPlace > b.inPlace) }
	const (
		both     = iota // want[i] is got[j]
		onlyWant        // want[i] is not in got
		onlyGot         // got[j] is not in want
	)
	lcs := make([][]score, len(want)+1)
	step := make([][]int, len(want)+1)
	for i := range lcs {
		lcs[i] = make([]score, len(got)+1)
		step[i] = make([]int, len(got)+1)
	}
	for i := len(want); i >= 0; i-- {
		for j := len(got); j >= 0; j-- {
			switch {
			case i == len(want):
				step[i][j] = onlyGot
				continue
			case j == len(got):
				step[i][j] = onlyWant
				continue
			}
			best, by := lcs[i+1][j], onlyWant
			if better(lcs[i][j+1], best) {
				best, by = lcs[i][j+1], onlyGot
			}
			if want[i] == got[j] {
				keep := score{lcs[i+1][j+1].n + 1, lcs[i+1][j+1].inPlace}
				if i == j {
					keep.inPlace++
				}
				if !better(best, keep) {
					best, by = keep, both
				}
			}
			lcs[i][j], step[i][j] = best, by
		}
	}
	type line struct {
		mark, text string
	}
	var lines []line
	var dels, adds []line
	flush := func() {
		lines = append(append(lines, dels...), adds...)
		dels, adds = nil, nil
	}
	for i, j := 0, 0; i < len(want) || j < len(got); {
		switch step[i][j] {
		case both:
			flush()
			lines = append(lines, line{"  ", want[i]})
			i, j = i+1, j+1
		case onlyWant:
			dels = append(dels, line{"- ", want[i]})
			i++
		default:
			adds = append(adds, line{"+ ", got[j]})
			j++
		}
	}
	flush()
	var out []string
	for k := 0; k < len(lines); {
		if lines[k].mark != "  " {
			out = append(out, lines[k].mark+lines[k].text)
			k++
			continue
		}
		end := k
		for end < len(lines) && lines[end].mark == "  " {
			end++
		}
		keepBefore, keepAfter := diffContext, diffContext
		if k == 0 {
			keepBefore = 0 // the turns before the first difference
		}
		if end == len(lines) {
			keepAfter = 0 // the turns after the last
		}
		if n := end - k; n > keepBefore+keepAfter+1 {
			for _, l := range lines[k : k+keepBefore] {
				out = append(out, l.mark+l.text)
			}
			out = append(out, fmt.Sprintf("  ... %d turns as expected", n-keepBefore-keepAfter))
			for _, l := range lines[end-keepAfter : end] {
				out = append(out, l.mark+l.text)
			}
		} else {
			for _, l := range lines[k:end] {
				out = append(out, l.mark+l.text)
			}
		}
		k = end
	}
	return out
}

// Options changes how scenarios run.
type Options struct {
	// Load finds the ruleset a scenario names that is not in its own file.
	// The default loads a path relative to the scenario's file, or a
	// bundled ruleset by name.
	Load func(name, fromFile string) (*runtime.Program, error)
	// Compile options for every ruleset (host functions, limits).
	Compile []runtime.Option
}

// RunFS runs every scenario in every .rules file of fsys (recursively).
// Unless opts.Load is set, a scenario's `ruleset "FILE"` is read from
// fsys too, relative to the scenario's file (an absolute path is read from
// the disk, as by Load).
func RunFS(ctx context.Context, fsys fs.FS, opts Options) ([]Result, error) {
	if opts.Load == nil {
		compile := opts.Compile
		opts.Load = func(name, fromFile string) (*runtime.Program, error) {
			return loadFS(fsys, name, fromFile, compile...)
		}
	}
	var out []Result
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return readError(err)
		}
		if d.IsDir() || !strings.HasSuffix(path, ".rules") {
			return nil
		}
		src, err := fs.ReadFile(fsys, path)
		if err != nil {
			return readError(err)
		}
		rs, err := RunSource(ctx, path, src, opts)
		out = append(out, rs...)
		return err
	})
	return out, err
}

// RunSource parses one file and runs its scenarios. A file that does not
// parse, or whose rulesets do not compile, is an error.
func RunSource(ctx context.Context, filename string, src []byte, opts Options) ([]Result, error) {
	f, diags := dsl.Parse(filename, src)
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s", diags.Render(string(src)))
	}
	return RunFile(ctx, f, opts), nil
}

// RunFile runs the scenarios of a parsed file.
func RunFile(ctx context.Context, f *dsl.File, opts Options) []Result {
	var out []Result
	for _, d := range f.Decls {
		if sc, ok := d.(*dsl.Scenario); ok {
			out = append(out, Run(ctx, f, sc, opts))
		}
	}
	return out
}

// Run runs one scenario of file f.
func Run(ctx context.Context, f *dsl.File, sc *dsl.Scenario, opts Options) Result {
	r := &run{res: Result{File: sc.Pos().Filename, Title: string(sc.Title), Pos: sc.Pos()}, opts: opts}
	r.play(ctx, f, sc)
	return r.res
}

type run struct {
	res     Result
	opts    Options
	b       *runtime.Battle
	dice    *runtime.ScriptedDice
	decider *runtime.ScriptedDecider
	round   int
	started bool
	// scripted holds where each scripted roll was written, per subject
	// ("" for random picks), in the order the dice take them.
	scripted map[string][]dsl.Pos
	// chosen holds where each scripted answer was written, per side.
	chosen map[string][]dsl.Pos
	// wantErr is an `expect error` waiting for the error it expects.
	wantErr *dsl.Expect
	errRE   *regexp.Regexp
	gotErr  bool
	// below holds the statements of the round after the one being run.
	below []dsl.RoundStmt
}

func (r *run) fail(round int, field string, pos dsl.Pos, diff string) {
	r.res.Failures = append(r.res.Failures, Failure{Round: round, Field: field, Pos: pos, Diff: diff})
}

func (r *run) errorf(pos dsl.Pos, format string, args ...any) {
	r.error(pos, fmt.Errorf(format, args...))
}

// error fails the scenario with err at pos, unless it is the error the
// scenario expects.
func (r *run) error(pos dsl.Pos, err error) {
	msg := err.Error()
	if r.wantErr != nil && r.errRE.MatchString(msg) {
		r.gotErr = true // the refusal the scenario expected
		return
	}
	f := Failure{Round: r.round, Field: "error", Pos: pos, Diff: msg}
	if re, ok := err.(*runtime.RoundError); ok && re.Round == r.round {
		f.detail = re.Detail()
	}
	if r.wantErr != nil {
		const another = "expected an error matching %q, but the round failed with another: %s"
		f.Diff = fmt.Sprintf(another, r.errRE, msg)
		if f.detail != "" {
			f.detail = fmt.Sprintf(another, r.errRE, strings.TrimPrefix(strings.TrimPrefix(f.detail, ", "), ": "))
		}
		r.gotErr = true // an error came, if the wrong one: said once, here
	}
	r.res.Failures = append(r.res.Failures, f)
}

// playErr reports an error from play at pos, or, for a scripted result the
// dice could not use, at the script that wrote it.
func (r *run) playErr(pos dsl.Pos, err error) {
	err = r.scriptedBelow(err)
	if se, ok := errors.AsType[*runtime.ScriptError](err); ok {
		who, at := se.Who, r.scripted
		switch {
		case se.Pick:
			who = ""
		case se.Answer:
			at = r.chosen
		}
		if ps := at[who]; se.Index < len(ps) {
			pos = ps[se.Index]
		}
	}
	r.error(pos, err)
}

// scriptedBelow returns err with a hint when it is a roll, pick or
// decision nobody scripted that a line below the statement being run
// scripts: an author who writes `expect holder Jay` above `Jay chooses
// Jay` has scripted the choice, too late, and is told where.
func (r *run) scriptedBelow(err error) error {
	ue, ok := errors.AsType[*runtime.UnscriptedError](err)
	re, isRound := errors.AsType[*runtime.RoundError](err)
	if !ok || !isRound || re.Err != error(ue) {
		return err
	}
	for _, st := range r.below {
		var what string
		var at dsl.Pos
		switch s := st.(type) {
		case *dsl.RollScript:
			if ue.Roll == nil {
				continue
			}
			for _, ni := range s.Rolls {
				if slices.Contains(ue.Missing, string(ni.Name)) {
					what, at = "a roll for "+quotedOne(string(ni.Name)), s.Pos()
					break
				}
			}
		case *dsl.RandomScript:
			if ue.Pick != nil {
				what, at = "a random pick", s.Pos()
			}
		case *dsl.ChooseScript:
			if ue.Decision != nil && string(s.Who) == ue.Decision.By {
				what, at = "`"+quotedOne(string(s.Who))+" chooses`", s.Pos()
			}
		}
		if what != "" {
			hinted := *re
			hinted.Err = fmt.Errorf("%w; %s is written below, at line %d: the round is played up to this line with the rolls and choices written above it", ue, what, at.Line)
			return &hinted
		}
	}
	return err
}

func (r *run) play(ctx context.Context, f *dsl.File, sc *dsl.Scenario) {
	s := prepare(f, sc, r.opts)
	if len(s.mistakes) > 0 {
		r.res.Failures = s.mistakes
		return
	}
	r.dice = runtime.NewScriptedDice()
	r.scripted, r.chosen = map[string][]dsl.Pos{}, map[string][]dsl.Pos{}
	if s.seed != nil {
		r.dice.Fallback = runtime.NewSeededDice(uint64(*s.seed))
	}
	r.decider = runtime.NewScriptedDecider()
	if s.policy {
		r.decider.Fallback = runtime.Policy{}
	}
	var err error
	r.b, err = s.prog.NewBattle(s.sides, runtime.WithDice(r.dice), runtime.WithDecider(r.decider))
	if err != nil {
		r.playErr(sc.Pos(), err)
		return
	}
	for _, st := range sc.Body {
		rb, ok := st.(*dsl.RoundBlock)
		if !ok {
			continue
		}
		r.round = rb.Number
		played := r.playRound(ctx, rb)
		switch {
		case r.wantErr != nil && !r.gotErr:
			r.fail(r.round, "error", r.wantErr.Pos(), fmt.Sprintf("expected an error matching %q, but the round went on without one", r.errRE))
			return
		case r.wantErr != nil:
			return // the round failed as expected: the scenario ends there
		case !played:
			return
		}
	}
}

// RulesetOf returns the `ruleset` statement of sc that counts (the last;
// nil if there is none) and, if the ruleset it names is declared in f,
// that declaration, which comes before any other ruleset of that name.
func RulesetOf(f *dsl.File, sc *dsl.Scenario) (use *dsl.UseRuleset, own *dsl.Ruleset) {
	for _, st := range sc.Body {
		if u, ok := st.(*dsl.UseRuleset); ok {
			use = u
		}
	}
	if use == nil {
		return nil, nil
	}
	for _, rs := range f.Rulesets() {
		if rs.Name == use.Name.Name {
			return use, rs
		}
	}
	return use, nil
}

func load(f *dsl.File, use *dsl.UseRuleset, own *dsl.Ruleset, opts Options) (*runtime.Program, error) {
	if own != nil {
		return runtime.CompileRuleset(f, own, opts.Compile...)
	}
	if opts.Load != nil {
		return opts.Load(use.Name.String(), use.Pos().Filename)
	}
	return Load(use.Name.String(), use.Pos().Filename, opts.Compile...)
}

// Load finds a ruleset by path (relative to fromFile) or bundled name.
func Load(name, fromFile string, opts ...runtime.Option) (*runtime.Program, error) {
	if path := RulesetPath(name, fromFile); path != "" {
		p, _, err := LoadFile(path, opts...)
		if _, unread := errors.AsType[*fs.PathError](err); unread {
			err = fmt.Errorf("ruleset %s: %w", name, err)
		}
		return p, err
	}
	if len(opts) == 0 {
		if p, ok := bundled.Load(name); ok {
			return p.(*runtime.Program), nil
		}
	}
	f, err := rulesets.Parse(name)
	if err != nil {
		return nil, err
	}
	p, err := runtime.Compile(f, opts...)
	if err == nil && len(opts) == 0 {
		bundled.Store(name, p)
	}
	return p, err
}

// loadFS is Load for a scenario in fsys: a relative path is read from
// fsys, relative to fromFile's directory there.
func loadFS(fsys fs.FS, name, fromFile string, opts ...runtime.Option) (*runtime.Program, error) {
	if RulesetPath(name, fromFile) == "" || filepath.IsAbs(name) {
		return Load(name, fromFile, opts...)
	}
	p := path.Join(path.Dir(fromFile), name)
	src, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, fmt.Errorf("ruleset %s: %w", name, readError(err))
	}
	f, diags := dsl.Parse(p, src)
	if err := diags.Err(); err != nil {
		return nil, err
	}
	return runtime.Compile(f, opts...)
}

// RulesetPath returns the file that a scenario in fromFile names with
// `ruleset NAME`: NAME relative to fromFile's directory, or NAME itself if
// it is absolute. It returns "" if NAME is not a path (it does not end in
// .rules), which is a bundled ruleset's name.
func RulesetPath(name, fromFile string) string {
	if !strings.HasSuffix(name, ".rules") {
		return ""
	}
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(filepath.Dir(fromFile), name)
}

// LoadFile reads, parses and compiles the ruleset file at path, as Load
// does for a scenario's `ruleset FILE`. src is the file's text, for
// showing its diagnostics. err wraps an *fs.PathError if the file cannot
// be read (errors.As finds it; the message is turnorder's: "x.rules: no
// such file or directory"), or is the dsl.Diagnostics of why it does not
// parse or compile.
func LoadFile(path string, opts ...runtime.Option) (p *runtime.Program, src []byte, err error) {
	src, err = os.ReadFile(path)
	if err != nil {
		return nil, nil, readError(err)
	}
	f, diags := dsl.Parse(path, src)
	if err := diags.Err(); err != nil {
		return nil, src, err
	}
	p, err = runtime.Compile(f, opts...)
	return p, src, err
}

// fileError is an error reading a file, in the words turnorder uses for
// one: "x.rules: no such file or directory", not Go's "open x.rules: ...".
// It wraps the *fs.PathError.
type fileError struct{ pe *fs.PathError }

func (e *fileError) Error() string {
	why := e.pe.Err.Error()
	if errors.Is(e.pe.Err, fs.ErrNotExist) {
		why = "no such file or directory" // as the disk says it, for any fs.FS
	}
	return e.pe.Path + ": " + why
}

func (e *fileError) Unwrap() error { return e.pe }

// readError words err, from reading a file, as a fileError.
func readError(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return &fileError{pe}
	}
	return err
}

// bundled holds the bundled rulesets compiled without options: a Program
// is immutable, and a suite loads the same few for every scenario.
var bundled sync.Map

// start runs the round's phases once.
func (r *run) start(ctx context.Context, pos dsl.Pos) bool {
	if r.started {
		return true
	}
	r.started = true
	if err := r.b.StartRound(ctx); err != nil {
		r.playErr(pos, err)
		return false
	}
	return true
}

// finish plays the round's remaining activations.
func (r *run) finish(ctx context.Context, pos dsl.Pos) bool {
	if !r.start(ctx, pos) {
		return false
	}
	for {
		done, err := r.b.Step(ctx)
		if err != nil {
			r.playErr(pos, err)
			return false
		}
		if done {
			return true
		}
	}
}

// closingBrace is the position of a block's "}", given the block's
// EndPos, which participle puts just past it.
func closingBrace(end dsl.Pos) dsl.Pos {
	if end.Column > 1 && end.Offset > 0 {
		end.Column--
		end.Offset--
	}
	return end
}

func (r *run) playRound(ctx context.Context, rb *dsl.RoundBlock) bool {
	r.started = false
	for i, st := range rb.Body {
		r.below = rb.Body[i+1:]
		if !r.stmt(ctx, st) {
			return false
		}
	}
	r.below = nil
	end := closingBrace(rb.End())
	if !r.finish(ctx, end) {
		return false
	}
	if _, err := r.b.EndRound(ctx); err != nil {
		r.playErr(end, err)
		return false
	}
	unused := append(r.dice.Unused(), r.decider.Unused()...)
	if len(unused) > 0 {
		hint := ""
		if drawsFromBag(r.b.Program()) && slices.ContainsFunc(unused, func(u string) bool { return strings.HasPrefix(u, "random ") }) {
			hint = " (in activation draw, the dice of the last side left in the bag come out without a draw: script only the draws made among two colours or more)"
		}
		r.errorf(r.firstUnused(rb.Pos()), "scripted but never used: %s%s", strings.Join(unused, "; "), hint)
		return false
	}
	return true
}

// drawsFromBag reports whether p's activation is `activation draw`.
func drawsFromBag(p *runtime.Program) bool {
	if p == nil || p.File() == nil {
		return false
	}
	for _, d := range p.File().Decls {
		if rs, ok := d.(*dsl.Ruleset); ok && string(rs.Name) == p.Name() {
			for _, st := range rs.Body {
				if a, ok := st.(*dsl.ActivationStmt); ok && a.Mode == dsl.Draw {
					return true
				}
			}
		}
	}
	return false
}

// firstUnused returns where the first script statement that was not used
// up is written (or, if none is known, at): the unused results of a
// subject are the last ones scripted for it.
func (r *run) firstUnused(at dsl.Pos) dsl.Pos {
	var first *dsl.Pos
	consider := func(ps []dsl.Pos, pending int) {
		if pending == 0 || pending > len(ps) {
			return
		}
		if p := ps[len(ps)-pending]; first == nil || p.Offset < first.Offset {
			first = &p
		}
	}
	for who, ps := range r.scripted {
		consider(ps, r.dice.Pending(who))
	}
	for who, ps := range r.chosen {
		consider(ps, r.decider.Pending(who))
	}
	if first == nil {
		return at
	}
	return *first
}

func (r *run) stmt(ctx context.Context, st dsl.RoundStmt) bool {
	switch s := st.(type) {
	case *dsl.RollScript:
		for _, ni := range s.Rolls {
			r.dice.AddRoll(string(ni.Name), ni.Value)
			r.scripted[string(ni.Name)] = append(r.scripted[string(ni.Name)], ni.Pos())
		}
	case *dsl.RandomScript:
		for _, p := range s.Picks {
			r.dice.AddPick(string(p))
			r.scripted[""] = append(r.scripted[""], s.Pos())
		}
	case *dsl.ChooseScript:
		r.decider.Add(string(s.Who), names(s.Options)...)
		r.chosen[string(s.Who)] = append(r.chosen[string(s.Who)], s.Pos())
	case *dsl.SetScript:
		if on, ok := statusValue(s); ok && slices.Contains(r.b.Program().Statuses(), string(s.Attr)) {
			if err := r.b.SetStatus(ctx, string(s.Target), string(s.Attr), on); err != nil {
				r.playErr(s.Pos(), err)
				return false
			}
			break
		}
		if err := r.b.SetAttr(ctx, string(s.Target), string(s.Attr), s.Value); err != nil {
			r.playErr(setPos(r.b, s), err)
			return false
		}
	case *dsl.StatusScript:
		if err := r.b.SetStatus(ctx, string(s.Unit), string(s.Status), !s.Not); err != nil {
			r.playErr(s.Pos(), err)
			return false
		}
	case *dsl.RemoveScript:
		if err := r.b.RemoveUnit(ctx, string(s.Unit)); err != nil {
			r.playErr(s.Pos(), err)
			return false
		}
	case *dsl.ReadyScript:
		if err := r.b.MakeReady(string(s.Unit)); err != nil {
			r.playErr(s.Pos(), err)
			return false
		}
	case *dsl.ActivateScript:
		if !r.start(ctx, s.Pos()) {
			return false
		}
		n := 1
		if s.Count != nil {
			n = *s.Count
		}
		for range n {
			done, err := r.b.Step(ctx)
			if err != nil {
				r.playErr(s.Pos(), err)
				return false
			}
			if done {
				r.errorf(s.Pos(), "activate: the round's activations are already over")
				return false
			}
		}
	case *dsl.Expect:
		return r.expect(ctx, s)
	}
	return true
}

func names(ns []dsl.Name) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = string(n)
	}
	return out
}

// check fails the expectation at pos unless want and got are equal; say
// words it, for Message.
func (r *run) check(field string, pos dsl.Pos, want, got any, say func() *words) {
	// No names is an empty list, which a diff shows as one ("+ nil" reads
	// as if something went wrong).
	if diff := cmp.Diff(emptyList(want), emptyList(got)); diff != "" {
		// go-cmp writes some of its spaces as non-breaking spaces, at
		// random, so that nobody relies on its output; a diff printed for
		// a reader (and compared by a CI system) is plain text.
		diff = strings.ReplaceAll(diff, "\u00a0", " ")
		r.res.Failures = append(r.res.Failures, Failure{Round: r.round, Field: field, Pos: pos, Diff: diff,
			Want: orNobody(want), Got: orNobody(got), say: say()})
	}
}

// quoted returns names as a .rules file writes them.
func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = dsl.FormatName(dsl.Name(n))
	}
	return out
}

// quotedOne is quoted for one name, or "" for nobody.
// quotedOne returns a name as a .rules file writes it, and "" (nobody)
// as it is.
func quotedOne(name string) string {
	if name == "" {
		return ""
	}
	return dsl.FormatName(dsl.Name(name))
}

// emptyList is v, or an empty list for a nil one.
func emptyList(v any) any {
	if l, ok := v.([]string); ok && l == nil {
		return []string{}
	}
	return v
}

// orNobody is v, or nil for the empty name (nobody), or an empty list
// for no names.
func orNobody(v any) any {
	switch v := v.(type) {
	case string:
		if v == "" {
			return nil
		}
	case []string:
		if v == nil {
			return []string{}
		}
	}
	return v
}

func (r *run) expect(ctx context.Context, e *dsl.Expect) bool {
	if e.Error != nil {
		return r.expectError(e)
	}
	if !r.start(ctx, e.Pos()) {
		return false
	}
	switch {
	case e.Order != nil:
		want, got := names(dsl.Names(e.Order)), r.b.Order()
		r.check("order", e.Pos(), want, got, func() *words { return sayList("order", quoted(want), quoted(got)) })
	case e.Standing != nil:
		var got []string
		if st := r.b.Standing(string(e.Standing.Name)); st != nil {
			got = st.Order
		}
		field, want := "standing "+string(e.Standing.Name), names(dsl.Names(e.Standing.Order))
		r.check(field, e.Pos(), want, got, func() *words { return sayList(field, quoted(want), quoted(got)) })
	case e.Holder != nil:
		want, got := e.Holder.String(), r.b.Holder()
		r.check("holder", e.Pos(), want, got, func() *words { return sayOne("holder", quotedOne(want), quotedOne(got)) })
	case e.Chooser != nil:
		want, got := e.Chooser.String(), r.b.Chooser()
		if want == "none" {
			want = ""
		}
		r.check("chooser", e.Pos(), want, got, func() *words { return sayOne("chooser", quotedOne(want), quotedOne(got)) })
	case e.Activations != nil:
		if !r.finish(ctx, e.Pos()) {
			return false
		}
		var want, got, wantText, gotText []string
		for _, a := range e.Activations {
			if !noActivations(e.Activations) {
				want = append(want, activationText(a.Pass, string(a.Name)))
				wantText = append(wantText, activationText(a.Pass, dsl.FormatName(a.Name)))
			}
		}
		for _, a := range r.b.Activations() {
			if a.Pass {
				got = append(got, activationText(true, a.Side))
				gotText = append(gotText, activationText(true, quotedOne(a.Side)))
			} else {
				got = append(got, activationText(false, a.Unit))
				gotText = append(gotText, activationText(false, quotedOne(a.Unit)))
			}
		}
		r.check("activations", e.Pos(), want, got, func() *words { return sayActivations(wantText, gotText) })
	case e.Ready != nil:
		want := names(dsl.Names(e.Ready.Units))
		if slices.Equal(want, []string{"none"}) {
			want = nil
		}
		got := r.b.ReadyUnits()
		slices.Sort(want)
		slices.Sort(got)
		r.check("ready", e.Pos(), want, got, func() *words { return sayReady(quoted(want), quoted(got)) })
	case e.Event != nil:
		r.expectEvent(e.Event)
	}
	return true
}

// expectError arms `expect error`: the round must fail, from here on, with
// a matching error, and the scenario ends with that round.
func (r *run) expectError(e *dsl.Expect) bool {
	r.wantErr, r.errRE = e, regexp.MustCompile(string(*e.Error)) // prepare checked it
	return true
}

func activationText(pass bool, name string) string {
	if pass {
		return "pass " + name
	}
	return name
}

func (r *run) expectEvent(e *dsl.EventExpect) {
	args := names(e.Args)
	var seen, matched []string
	for _, ev := range r.b.Events() {
		if string(ev.Kind) != string(e.Kind) {
			continue
		}
		seen = append(seen, ev.String())
		if eventHas(ev, args) && placedBy(ev, e.Value) && (e.By == nil || ev.By == e.By.String()) {
			matched = append(matched, ev.String())
		}
	}
	found := len(matched) > 0
	want := strings.TrimSpace(string(e.Kind) + " " + strings.Join(args, " "))
	if e.Value != nil {
		want += " = " + e.Value.Number
	}
	if e.By != nil {
		want += " by " + e.By.String()
	}
	// The event as the file writes it, after `event`.
	written := dsl.FormatExpect(&dsl.Expect{Event: &dsl.EventExpect{Kind: e.Kind, Args: e.Args, Value: e.Value, By: e.By}})
	written = strings.TrimPrefix(written, "expect event ")
	switch {
	case e.No && found:
		r.res.Failures = append(r.res.Failures, Failure{Round: r.round, Field: "event", Pos: e.Pos(),
			Diff: fmt.Sprintf("want no event %s, but the round has:\n  %s", want, strings.Join(matched, "\n  ")),
			Want: "no " + want, Got: matched, say: sayEvent(written, true, string(e.Kind), matched)})
	case !e.No && !found:
		got := " none"
		if len(seen) > 0 {
			got = "\n  " + strings.Join(seen, "\n  ")
		}
		if seen == nil {
			seen = []string{}
		}
		r.res.Failures = append(r.res.Failures, Failure{Round: r.round, Field: "event", Pos: e.Pos(),
			Diff: fmt.Sprintf("want an event %s; the round's %s events:%s", want, e.Kind, got),
			Want: want, Got: seen, say: sayEvent(written, false, string(e.Kind), seen)})
	}
}

// eventHas reports whether every arg names something in the event. An
// event's group (Subjects) and its By count only when they are what the
// event is about, as the tied subjects of a tie, those rolling again, or
// the side that passes: when the event has a subject or a choice, the
// group is only who could have been concerned (a decision's options, a
// random pick's candidates, the tied group an award settles) and By who
// decided or owns it, which `by NAME` asks for. So `expect event decision
// Rob by Jay` says that Jay chose Rob, not that Rob was an option, and
// `expect event placement Rob 1` is not met by Jay's first place that Rob
// chose.
func eventHas(ev runtime.Event, args []string) bool {
	have := []string{ev.Subject, ev.Standing}
	have = append(have, awardedBefore(ev)...)
	if ev.Subject == "" && len(ev.Choice) == 0 {
		have = append(have, ev.By)
		have = append(have, ev.Subjects...)
	}
	have = append(have, ev.Choice...)
	if ev.Value != nil {
		have = append(have, strconv.Itoa(*ev.Value))
	}
	if ev.Total != nil {
		have = append(have, strconv.Itoa(*ev.Total))
	}
	if ev.Place > 0 { // a placement's place: `priority #1: Jay`
		have = append(have, strconv.Itoa(ev.Place))
	}
	for _, a := range args {
		if !slices.Contains(have, a) {
			return false
		}
	}
	return true
}

// awardedBefore returns, for an `award not` of three or more, all those
// it put before the one it names: its line says "B and C go before A",
// and `expect event award C` must match it as `expect event award B`
// does (the event's subject is only the first of them). The one named is
// the tied subject the line ends with.
func awardedBefore(ev runtime.Event) []string {
	if ev.Kind != runtime.EvAward || !strings.HasPrefix(ev.Rule, "award not ") {
		return nil
	}
	for _, last := range ev.Subjects {
		if strings.HasSuffix(ev.Detail, " before "+last) {
			return slices.DeleteFunc(slices.Clone(ev.Subjects), func(s string) bool { return s == last })
		}
	}
	return nil
}

// placedBy reports whether the event was placed by the value of `= V`
// (or there is none to check): a placement's Key, which the transcript
// writes in as few digits as tell it apart, so the number written as it
// shows (`= 6`, `= 2.5`) is the very same float.
func placedBy(ev runtime.Event, v *dsl.EventValue) bool {
	if v == nil {
		return true
	}
	want, err := strconv.ParseFloat(v.Number, 64)
	return err == nil && ev.Key != nil && *ev.Key == want
}
