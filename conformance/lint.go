package conformance

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/runtime"
)

// Lint checks the scenarios of f without playing them: each must name a
// ruleset that compiles and sides it accepts, describe its rounds from 1
// in order, and name only sides, units and kinds of event that exist.
// These are mistakes in the scenario rather than in the ruleset; Run
// reports the same ones, before it plays anything.
func Lint(f *dsl.File, opts Options) dsl.Diagnostics {
	var out dsl.Diagnostics
	for _, d := range f.Decls {
		if sc, ok := d.(*dsl.Scenario); ok {
			for _, m := range prepare(f, sc, opts).mistakes {
				out = append(out, dsl.Errorf(m.Pos, "%s", m.message()))
			}
		}
	}
	return out
}

// message is the failure's text without its position.
func (f Failure) message() string {
	loc := fmt.Sprintf("%s:%d:%d: ", f.Pos.Filename, f.Pos.Line, f.Pos.Column)
	return strings.TrimPrefix(f.String(), loc)
}

// setup is how a scenario plays: its ruleset, sides and fallbacks, and the
// mistakes in its statements. A scenario with mistakes is not played.
type setup struct {
	prog     *runtime.Program
	sides    []runtime.SideSpec
	seed     *int
	policy   bool
	mistakes []Failure
}

func (s *setup) mistake(round int, pos dsl.Pos, format string, args ...any) {
	s.mistakes = append(s.mistakes, Failure{Round: round, Field: "error", Pos: pos, Diff: fmt.Sprintf(format, args...)})
}

func prepare(f *dsl.File, sc *dsl.Scenario, opts Options) *setup {
	s := &setup{}
	for _, d := range f.Decls {
		if d == dsl.Decl(sc) {
			break
		}
		if o, ok := d.(*dsl.Scenario); ok && o.Title == sc.Title {
			// Results are told apart by title: two alike read as one.
			s.mistake(0, sc.Pos(), "scenario %q is declared twice in this file (first at line %d): give each a title of its own", sc.Title, o.Pos().Line)
			return s
		}
	}
	use, own := RulesetOf(f, sc)
	var firstUse *dsl.UseRuleset
	var firstSeed *dsl.SeedStmt
	rounds := 0
	for _, st := range sc.Body {
		switch x := st.(type) {
		case *dsl.UseRuleset:
			if firstUse != nil {
				s.mistake(0, x.Pos(), "scenario %q names a second ruleset (the first at line %d): keep one `ruleset` statement", sc.Title, firstUse.Pos().Line)
				return s
			}
			firstUse = x
		case *dsl.SideSetup:
			s.sides = append(s.sides, runtime.SideFromDSL(x))
		case *dsl.SeedStmt:
			if firstSeed != nil {
				s.mistake(0, x.Pos(), "scenario %q has a second seed (the first at line %d): keep one `seed` statement", sc.Title, firstSeed.Pos().Line)
				return s
			}
			firstSeed = x
			s.seed = &x.Seed
		case *dsl.PolicyStmt:
			s.policy = true
		case *dsl.RoundBlock:
			rounds++
		}
	}
	if use == nil {
		s.mistake(0, sc.Pos(), "scenario %q names no ruleset (add `ruleset NAME`)", sc.Title)
		return s
	}
	prog, err := load(f, use, own, opts)
	var ds dsl.Diagnostics
	switch {
	case errors.As(err, &ds):
		s.mistake(0, use.Name.Pos(), "ruleset %s does not compile: %s", use.Name, firstError(ds))
		return s
	case err != nil:
		s.mistake(0, use.Name.Pos(), "%v", err)
		return s
	}
	s.prog = prog
	if len(s.sides) == 0 {
		s.sides = prog.Example()
	}
	// A battle that is never played knows the names the scenario may use.
	b, err := prog.NewBattle(s.sides)
	if err != nil {
		// Each at the side it is about, where it has one.
		var ds dsl.Diagnostics
		if !errors.As(err, &ds) {
			ds = dsl.Diagnostics{dsl.Errorf(dsl.Pos{}, "%v", err)}
		}
		for _, d := range ds {
			if d.Pos.Line == 0 {
				d.Pos = sc.Pos()
			}
			s.mistake(0, d.Pos, "%s", d.Text())
		}
		return s
	}
	if rounds == 0 {
		s.mistake(0, sc.Pos(), "scenario %q has no round, so it checks nothing: add `round 1 { ... }`", sc.Title)
		return s
	}
	l := &linter{setup: s, b: b}
	for _, st := range sc.Body {
		rb, ok := st.(*dsl.RoundBlock)
		switch {
		case !ok:
		case l.ended > 0:
			l.mistake(0, rb.Pos(), "round %d is never played: round %d ends the scenario (`expect error`)", rb.Number, l.ended)
			return s
		case !l.roundBlock(rb) && l.ended == 0:
			return s
		}
	}
	return s
}

type linter struct {
	*setup
	b     *runtime.Battle
	round int
	ended int // the round that ends the scenario with `expect error`
	// acted: the round block has played activations so far (`activate`,
	// `expect activations`); before that, it has no activate or pass
	// event to see.
	acted bool
	// joining: the units an `add unit` of the round block brings in,
	// which the rolls scripted above it, for the tie it makes, name.
	joining map[string]bool
}

// diceRE reads the dice of a roll criterion, as the grammar lexes them.
var diceRE = regexp.MustCompile(`^(\d*)[dD](\d+)$`)

// rollValue reports a scripted roll that none of the ruleset's rolls can
// show, as play would refuse it: a 9 where every roll is a d6, or a 2D6's
// 11 for a ruleset that rolls a d6 (the house rule's scenario run against
// the original).
func (l *linter) rollValue(ni *dsl.NameInt) {
	f := l.prog.File()
	if f == nil || ni.Face != nil {
		// A named face: the die's to know (play says which it has).
		return
	}
	var dice []string
	lo, hi := 0, 0 // the least and the most any roll can show
	for _, d := range f.Decls {
		rs, ok := d.(*dsl.Ruleset)
		if !ok || string(rs.Name) != l.prog.Name() {
			continue
		}
		dsl.Walk(rs, func(n dsl.Node) {
			rc, ok := n.(*dsl.RollCrit)
			if !ok {
				return
			}
			m := diceRE.FindStringSubmatch(rc.Dice)
			if m == nil {
				return
			}
			count, _ := strconv.Atoi(m[1])
			if m[1] == "" {
				count = 1
			}
			faces, _ := strconv.Atoi(m[2])
			name := strings.ToLower(rc.Dice)
			if count == 1 {
				name = strings.TrimPrefix(name, "1")
			}
			if !slices.Contains(dice, name) {
				dice = append(dice, name)
			}
			if len(dice) == 1 || count < lo {
				lo = count
			}
			hi = max(hi, count*faces)
		})
		break
	}
	if len(dice) == 0 || (ni.Value >= lo && ni.Value <= hi) {
		return // no roll to script (a host's), or one may show it
	}
	// In play's words, which the runner would give when the roll comes.
	l.mistake(l.round, ni.Pos(), "scripted roll %d for %s is impossible on %s (%d-%d)", ni.Value, ni.Name, strings.Join(dice, " or "), lo, hi)
}

// roundBlock checks one round block; it reports false when the rounds that
// follow are not checked: they cannot be numbered, or the round is to fail
// (`expect error`), which ends the scenario.
func (l *linter) roundBlock(rb *dsl.RoundBlock) bool {
	if rb.Number != l.round+1 {
		if l.round == 0 {
			l.mistake(0, rb.Pos(), "the first round is round %d: describe every round from round 1, in order", rb.Number)
		} else {
			l.mistake(0, rb.Pos(), "round %d follows round %d: describe every round, in order", rb.Number, l.round)
		}
		return false
	}
	l.round = rb.Number
	l.acted = false
	l.joining = map[string]bool{}
	for _, st := range rb.Body {
		if a, ok := st.(*dsl.AddScript); ok {
			l.joining[string(a.Name)] = true
		}
	}
	for _, st := range rb.Body {
		if e, ok := st.(*dsl.Expect); ok && e.Error != nil {
			// What follows may be the mistake the round is expected to
			// refuse (`remove Zed`): the runner plays it to see.
			l.expect(e)
			l.ended = l.round
			return false
		}
		switch s := st.(type) {
		case *dsl.RollScript:
			for _, ni := range s.Rolls {
				if l.name(ni.Pos(), "roll", string(ni.Name), side|unit) {
					l.rollValue(ni)
					if ni.Face != nil {
						l.scriptedFace(ni, false)
					}
				}
			}
		case *dsl.DrawScript:
			for _, ni := range s.Draws {
				if l.name(ni.Pos(), "draw", string(ni.Name), side|unit) {
					l.scriptedFace(ni, true)
				}
			}
		case *dsl.RandomScript:
			kinds := l.drawn()
			for _, p := range s.Picks {
				switch n := string(p); {
				case kinds == unit && l.b.Side(n) != nil:
					l.mistake(l.round, s.Pos(), "random %s: %s is a side, but the ruleset draws only units at random", n, n)
				case kinds == side && l.b.Unit(n) != nil:
					l.mistake(l.round, s.Pos(), "random %s: %s is a unit, but the ruleset draws only sides at random", n, n)
				default:
					l.name(s.Pos(), "random", n, kinds)
				}
			}
		case *dsl.ChooseScript:
			if u := l.b.Unit(string(s.Who)); u != nil && l.b.Side(u.Name) == nil {
				// Sides and teams decide, for their units too.
				l.mistake(l.round, s.Pos(), "%s chooses: %s is a unit, and its side decides for it: write `%s chooses ...`", s.Who, s.Who, u.Side.Name)
			} else {
				l.name(s.Pos(), "chooses", string(s.Who), side|team)
			}
			for _, o := range s.Options {
				l.option(s, string(o))
			}
		case *dsl.SetScript:
			if slices.Contains(l.prog.Statuses(), string(s.Attr)) {
				// As play takes it: `set pinned of Krug = true`.
				if _, ok := statusValue(s); !ok {
					l.mistake(l.round, s.Pos(), "set %s of %s: %s is a status: set it to true or false, or write `%s is %s`", s.Attr, s.Target, s.Attr, s.Target, s.Attr)
				}
				l.name(s.Pos(), "set", string(s.Target), unit)
			} else if l.name(s.Pos(), "set", string(s.Target), side|unit) {
				l.attr(s)
			}
		case *dsl.StatusScript:
			if l.name(s.Pos(), "status", string(s.Unit), unit) && !slices.Contains(l.prog.Statuses(), string(s.Status)) {
				l.mistake(l.round, s.Pos(), "status %s: unknown status (declared: %s)", s.Status, wording.OrNone(l.prog.Statuses()))
			}
		case *dsl.RemoveScript:
			l.name(s.Pos(), "remove", string(s.Unit), unit)
		case *dsl.AddScript:
			l.addUnit(s)
		case *dsl.ReadyScript:
			l.name(s.Pos(), "ready", string(s.Unit), unit)
		case *dsl.ActivateScript:
			if s.Count != nil && *s.Count < 1 {
				l.mistake(l.round, s.Pos(), "activate %d plays nothing: the count is 1 or more", *s.Count)
			}
			l.acted = true
		case *dsl.Expect:
			l.expect(s)
			if s.Activations != nil {
				l.acted = true
			}
		}
	}
	return true
}

// drawn returns what the ruleset draws at random, its `random` criteria
// and the bag of `activation draw` (whose picks name sides): sides, units
// or both (or, with none, either, for the runner to report the pick left
// over).
func (l *linter) drawn() nameKind {
	sides, units := l.prog.DrawsAtRandom()
	switch {
	case sides && !units:
		return side
	case units && !sides:
		return unit
	}
	return side | unit
}

func (l *linter) expect(e *dsl.Expect) {
	switch {
	case e.Order != nil:
		for _, n := range e.Order {
			if l.name(n.Pos(), "expect order", n.String(), side|unit) {
				l.mainKind(n.Pos(), "expect order", n.String())
			}
		}
	case e.Standing != nil:
		name := string(e.Standing.Name)
		if !slices.Contains(l.prog.Standings(), name) {
			hint := ""
			if s := dsl.Suggest(name, l.prog.Standings()); s != "" {
				hint = "; did you mean " + s + "?"
			}
			l.mistake(l.round, e.Standing.Pos(), "expect standing %s: the ruleset has no order called %s%s (orders: %s)", name, name, hint, strings.Join(l.prog.Standings(), ", "))
			break
		}
		for _, n := range e.Standing.Order {
			l.name(n.Pos(), "expect standing "+name, n.String(), side|unit)
		}
	case e.Holder != nil && e.Holder.Name == "none":
		if l.prog.HasHolder() {
			l.mistake(l.round, e.Holder.Pos(), "expect holder none: ruleset %s orders sides, and a side holds priority every round", l.prog.Name())
		}
	case e.Holder != nil:
		if l.name(e.Holder.Pos(), "expect holder", e.Holder.String(), side|unit) {
			l.mainKind(e.Holder.Pos(), "expect holder", e.Holder.String())
		}
	case e.Chooser != nil && e.Chooser.Name != "none":
		l.name(e.Chooser.Pos(), "expect chooser", e.Chooser.String(), side|unit|team)
	case e.Activations != nil && !noActivations(e.Activations):
		if in := e.ActivationsIn; in != nil && !slices.Contains(l.prog.ActivationPhases(), in.String()) {
			meant := ""
			if m := dsl.Suggest(in.String(), l.prog.ActivationPhases()); m != "" {
				meant = fmt.Sprintf("; did you mean %s?", m)
			}
			l.mistake(l.round, in.Pos(), "expect activations in %s: no phase or step of ruleset %s called %s has an activation loop (%s)%s",
				in, l.prog.Name(), in, wording.OrNone(l.prog.ActivationPhases()), meant)
		}
		for _, a := range e.Activations {
			if a.Pass {
				l.name(a.Pos(), "expect activations: pass", string(a.Name), side)
			} else if l.b.Side(string(a.Name)) != nil && l.b.Unit(string(a.Name)) == nil {
				l.mistake(l.round, a.Pos(), "expect activations %s: %s is a side: to say that it passes, write `pass %s`; to say it activates, name the unit (%s)", a.Name, a.Name, a.Name, wording.OrNone(unitsOf(l.b.Side(string(a.Name)))))
			} else {
				l.name(a.Pos(), "expect activations", string(a.Name), unit)
			}
		}
	case e.Ready != nil:
		if !slices.Equal(names(dsl.Names(e.Ready.Units)), []string{"none"}) {
			for _, n := range e.Ready.Units {
				l.name(n.Pos(), "expect ready", n.String(), unit)
			}
		}
	case e.Error != nil:
		if _, err := regexp.Compile(string(*e.Error)); err != nil {
			l.mistake(l.round, e.Pos(), "expect error: bad regexp: %v", err)
		}
	case e.Events != nil:
		for _, line := range e.Events.Lines {
			l.eventExpect(line.Event())
		}
	case e.Event != nil:
		l.eventExpect(e.Event)
	}
}

// eventExpect checks an event expectation: `expect [no] event`, or a line
// of `expect events exactly`.
func (l *linter) eventExpect(ev *dsl.EventExpect) {
	expect := "expect event "
	switch {
	case ev.No:
		expect = "expect no event "
	case ev.InList:
		expect = "expect events exactly: "
	}
	if all := runtime.EventKinds(); !slices.Contains(all, runtime.EventKind(ev.Kind)) {
		kinds := make([]string, len(all))
		for i, k := range all {
			kinds[i] = string(k)
		}
		meant := ""
		if k := dsl.Suggest(string(ev.Kind), kinds); k != "" {
			meant = fmt.Sprintf(" (did you mean %s?)", k)
		}
		l.mistake(l.round, ev.KindAt(), "%s%s: there is no such kind of event%s (kinds: %s)", expect, ev.Kind, meant, strings.Join(kinds, ", "))
	}
	if by := ev.By; by != nil {
		if l.name(by.Pos(), expect+string(ev.Kind)+" by", by.String(), side|unit|team) {
			l.byKind(ev)
		}
	}
	for i, a := range ev.Args {
		l.eventArg(ev, i, string(a))
	}
	l.numberKind(ev)
	l.answerKind(ev)
	l.valueKind(ev)
	if k := runtime.EventKind(ev.Kind); (k == runtime.EvActivate || k == runtime.EvPass) && !l.acted {
		// As for round_end: `expect no event pass Rob` here would
		// pass whatever the round's activations do.
		l.mistake(l.round, ev.Pos(), "%s: the round's activations are played at `activate` or `expect activations` (or at the end of its block), and none is above this line, so it sees no %s event yet", written(ev), k)
	}
	if ev.Kind == dsl.Name(runtime.EvRoundEnd) {
		l.mistake(l.round, ev.Pos(), "%s: the round ends after the last statement of its block, so no expectation in it sees its round_end event", written(ev))
	}
	if k := runtime.EventKind(ev.Kind); (k == runtime.EvDraw || k == runtime.EvReshuffle) && !slices.ContainsFunc(l.prog.Randomizers(), func(rz runtime.Randomizer) bool { return rz.Kind != "die" }) {
		// No card is ever drawn: `expect no event draw` would pass
		// whatever the round did.
		l.mistake(l.round, ev.KindAt(), "%s: ruleset %s has no deck or bag, so it never has a %s event", written(ev), l.prog.Name(), k)
	}
}

// addUnit checks an `add unit` as AddUnit will, and adds the unit to the
// linter's battle, so that the statements below may name it.
func (l *linter) addUnit(s *dsl.AddScript) {
	if !l.name(s.Side.Pos(), fmt.Sprintf("add unit %s to", dsl.FormatName(s.Name)), s.Side.String(), side) {
		return
	}
	if err := l.b.AddUnit(context.Background(), s.Side.String(), runtime.UnitFromDSL(s)); err != nil {
		l.mistake(l.round, s.Pos(), "%v", err)
	}
}

// firstError is the first error of ds, with a count of the others: the
// host shows them all in their own file, with its text.
func firstError(ds dsl.Diagnostics) string {
	errs := 0
	var first dsl.Diagnostic
	for _, d := range ds {
		if d.Severity == dsl.Error {
			if errs == 0 {
				first = d
			}
			errs++
		}
	}
	if errs > 1 {
		return fmt.Sprintf("%s (and %d more)", first, errs-1)
	}
	return first.String()
}

// noActivations reports whether acts is `none`: no activation at all.
func noActivations(acts []*dsl.Activation) bool {
	return len(acts) == 1 && !acts[0].Pass && acts[0].Name == "none"
}

// What a name in a statement may be.
type nameKind int

const (
	side nameKind = 1 << iota
	unit
	team
)

// attr reports a `set` that Battle.SetAttr would refuse when the round is
// played, in its words, as test reports it and as a setup's wrong value
// is reported (an attribute of the other kind, a unit's set of a side,
// says where to set it).
func (l *linter) attr(s *dsl.SetScript) {
	if err := l.b.CheckSetAttr(string(s.Target), string(s.Attr), s.Value); err != nil {
		l.mistake(l.round, setPos(l.b, s), "%v", err)
	}
}

// setPos is where a `set` that SetAttr refuses is wrong: at its value
// when the attribute is one its target has (the value is of the wrong
// type, or out of range), as a setup's `side Jay might = "x"` is, and at
// the statement otherwise.
func setPos(b *runtime.Battle, s *dsl.SetScript) dsl.Pos {
	var decl []runtime.Attr
	switch {
	case b.Side(string(s.Target)) != nil:
		decl = b.Program().SideAttrs()
	case b.Unit(string(s.Target)) != nil:
		decl = b.Program().UnitAttrs()
	}
	if s.Value != nil && s.Value.Pos().Line > 0 && slices.ContainsFunc(decl, func(a runtime.Attr) bool { return a.Name == string(s.Attr) }) {
		return s.Value.Pos()
	}
	return s.Pos()
}

// statusValue is the value of `set STATUS of UNIT = true|false`.
func statusValue(s *dsl.SetScript) (on, ok bool) {
	if w := s.Value.Word; w != nil && !s.Value.Neg && (*w == "true" || *w == "false") {
		return *w == "true", true
	}
	return false, false
}

// name reports a name that is none of the kinds it may be, and whether it
// is one.
// mainKind reports a name of the wrong kind in the main standing, which
// is of units or of sides, never both: `expect order A, B` (the sides)
// where the AGI card orders units would only fail in play, with a diff.
func (l *linter) mainKind(pos dsl.Pos, what, n string) {
	if len(l.prog.Standings()) == 0 || l.b.Side(n) != nil && l.b.Unit(n) != nil {
		return
	}
	switch units := l.prog.OrdersUnits(); {
	case units && l.b.Side(n) != nil:
		us, noun := unitsOf(l.b.Side(n)), "units"
		if len(us) == 1 {
			noun = "unit"
		}
		l.mistake(l.round, pos, "%s %s: %s is a side, but the ruleset puts units in order: name its %s (%s)", what, n, n, noun, strings.Join(us, ", "))
	case !units && l.b.Unit(n) != nil:
		l.mistake(l.round, pos, "%s %s: %s is a unit, but the ruleset puts sides in order: name its side (%s)", what, n, n, l.b.Unit(n).Side.Name)
	}
}

func unitsOf(s *runtime.Side) []string {
	var out []string
	for _, u := range s.Units {
		out = append(out, u.Name)
	}
	return out
}

func (l *linter) name(pos dsl.Pos, what, n string, kinds nameKind) bool {
	isTeam := slices.ContainsFunc(l.b.Sides(), func(s *runtime.Side) bool { return s.Team == n })
	if kinds&side != 0 && l.b.Side(n) != nil || kinds&unit != 0 && (l.b.Unit(n) != nil || l.joining[n]) || kinds&team != 0 && isTeam {
		return true
	}
	var nouns []string
	for _, k := range []struct {
		kind nameKind
		noun string
	}{{side, "side"}, {unit, "unit"}, {team, "team"}} {
		if kinds&k.kind != 0 {
			nouns = append(nouns, k.noun)
		}
	}
	switch {
	case kinds&unit != 0 && kinds&side == 0 && l.b.Side(n) != nil:
		l.mistake(l.round, pos, "%s %s: %s is a side, and only a unit can be named here (its units: %s)", what, n, n, wording.OrNone(unitsOf(l.b.Side(n))))
		return false
	case kinds&side != 0 && kinds&unit == 0 && l.b.Unit(n) != nil:
		l.mistake(l.round, pos, "%s %s: %s is a unit, and only a side can be named here (its side: %s)", what, n, n, l.b.Unit(n).Side.Name)
		return false
	}
	noun := nouns[len(nouns)-1]
	if len(nouns) > 1 {
		noun = strings.Join(nouns[:len(nouns)-1], ", ") + " or " + noun
	}
	l.mistake(l.round, pos, "%s %s: no %s is called %s%s (%s)", what, n, noun, n, l.otherCase(n), l.known())
	return false
}

// otherCase says which name n is in other capitals, or a typo of, if any: a scenario's
// names are written as the sides and units are named (`turnorder play`
// takes answers in any case, which makes `jay` an easy slip here).
func (l *linter) otherCase(n string) string {
	var names []string
	for _, s := range l.b.Sides() {
		names = append(names, s.Name, s.Team)
	}
	for _, u := range l.b.Units() {
		names = append(names, u.Name)
	}
	for _, m := range names {
		if m != "" && m != n && strings.EqualFold(m, n) {
			return fmt.Sprintf("; did you mean %s?", quotedOne(m))
		}
	}
	// Else a typo of one (`Jya` for Jay).
	names = slices.DeleteFunc(names, func(m string) bool { return m == "" })
	if m := dsl.Suggest(n, names); m != "" {
		return fmt.Sprintf("; did you mean %s?", quotedOne(m))
	}
	return ""
}

// eventArg reports an argument of `expect [no] event` that no event can
// mention, which would make `expect no event` pass whatever the round did:
// events name sides, units, teams, orders and hook points, and hold
// numbers (a roll, a total, a place) and answers (before, after, pass).
func (l *linter) eventArg(e *dsl.EventExpect, i int, a string) {
	if _, err := strconv.Atoi(a); err == nil || a == "before" || a == "after" || a == "pass" ||
		l.b.Side(a) != nil || l.b.Unit(a) != nil || slices.ContainsFunc(l.b.Sides(), func(s *runtime.Side) bool { return s.Team == a }) ||
		slices.Contains(l.prog.Standings(), a) || slices.Contains(l.hookNames(), a) || l.decisionWord(a) || l.randomizerNames(a) {
		return
	}
	l.mistake(l.round, e.ArgAt(i), "%s: no side, unit, team, order or hook point is called %s (%s; orders %s; hook points %s; or a number, before, after or pass)",
		written(e), a, l.known(), strings.Join(l.prog.Standings(), ", "), wording.OrNone(l.hookNames()))
}

// scriptedFace reports a scripted card where the ruleset has no deck or
// bag, or a named face where it has no die. A card or face that its decks
// or dice do not hold, play refuses, saying which they hold (a scenario
// may show that refusal with `expect error`).
func (l *linter) scriptedFace(ni *dsl.NameInt, draw bool) {
	for _, rz := range l.prog.Randomizers() {
		if (rz.Kind != "die") == draw {
			return
		}
	}
	what, verb := "die of named faces", "roll"
	if draw {
		what, verb = "deck or bag", "draw"
	}
	l.mistake(l.round, ni.Pos(), "%s %s %s: ruleset %s has no %s", verb, ni.Name, ni.Label(), l.prog.Name(), what)
}

// randomizerNames reports whether a names a declared die, deck or bag, or
// one of their faces or cards, which roll, draw and reshuffle events hold.
func (l *linter) randomizerNames(a string) bool {
	for _, rz := range l.prog.Randomizers() {
		if rz.Name == a || slices.Contains(rz.Faces, a) {
			return true
		}
	}
	return false
}

// written is an event expectation as the scenario wrote it, without by.
func written(e *dsl.EventExpect) string {
	what := "expect event"
	switch {
	case e.No:
		what = "expect no event"
	case e.InList:
		what = "expect events exactly:"
	}
	w := strings.Join(append([]string{what, string(e.Kind)}, names(e.Args)...), " ")
	if e.Value != nil {
		w += " = " + e.Value.Number
	}
	return w
}

// byKinds are the kinds of event whose `by` names someone (json.md): on
// any other kind, `by NAME` never matches, and `expect no event` with it
// would pass whatever the round did.
var byKinds = []string{"decision", "placement", "ready", "not_ready", "removed", "added", "activate", "pass"}

func (l *linter) byKind(e *dsl.EventExpect) {
	if slices.Contains(byKinds, string(e.Kind)) || !slices.Contains(runtime.EventKinds(), runtime.EventKind(e.Kind)) {
		return
	}
	l.mistake(l.round, e.By.Pos(), "%s by %s: a %s event names no one by `by` (only %s do); drop `by %s`",
		written(e), e.By, e.Kind, strings.Join(byKinds, ", "), e.By)
}

// numberKinds are the kinds of event that hold a number (json.md): a
// roll's value and total, a placement's place.
var numberKinds = []string{"roll", "placement", "draw", "reshuffle"}

func (l *linter) numberKind(e *dsl.EventExpect) {
	if slices.Contains(numberKinds, string(e.Kind)) || !slices.Contains(runtime.EventKinds(), runtime.EventKind(e.Kind)) {
		return
	}
	if e.Kind == dsl.Name(runtime.EvDecision) && slices.ContainsFunc(l.prog.Decides(), func(d runtime.DecisionDecl) bool { return d.Kind == runtime.ChooseNumber }) {
		return // the answer to a number decided
	}
	for i, a := range e.Args {
		if _, err := strconv.Atoi(string(a)); err == nil {
			l.mistake(l.round, e.ArgAt(i), "%s: a %s event holds no number (only %s events do)", written(e), e.Kind, wording.AndList(numberKinds))
			return
		}
	}
}

// valueKind reports `= V` where no event can match it, which would make
// `expect no event` with it pass whatever the round did: only a placement
// carries a value, and not one that someone chose (`by`).
func (l *linter) valueKind(e *dsl.EventExpect) {
	switch {
	case e.Value == nil || !slices.Contains(runtime.EventKinds(), runtime.EventKind(e.Kind)):
	case e.Kind != dsl.Name(runtime.EvPlacement):
		l.mistake(l.round, e.Value.Pos(), "%s: only a placement event has a value after `=`, the number its criterion placed the subject by", written(e))
	case e.By != nil:
		l.mistake(l.round, e.Value.Pos(), "%s by %s: a placement someone chose was placed by no value: drop `= %s`, or `by %s`", written(e), e.By, e.Value.Number, e.By)
	}
}

// answerKind reports before, after or pass on a kind of event other than
// a decision, the only one that holds them (unless a side or unit has
// that name).
func (l *linter) answerKind(e *dsl.EventExpect) {
	if e.Kind == dsl.Name(runtime.EvDecision) || !slices.Contains(runtime.EventKinds(), runtime.EventKind(e.Kind)) {
		return
	}
	for i, a := range names(e.Args) {
		if (a == "before" || a == "after" || a == "pass") && l.b.Side(a) == nil && l.b.Unit(a) == nil {
			l.mistake(l.round, e.ArgAt(i), "%s: only a decision event holds before, after or pass", written(e))
			return
		}
	}
}

// hookNames are the names of the ruleset's phases, steps and named hooks,
// which its hook events mention, in the order a round reaches them.
func (l *linter) hookNames() []string {
	var out []string
	for _, at := range l.prog.HookPoints() {
		if at.Name != "" && !slices.Contains(out, at.Name) {
			out = append(out, at.Name)
		}
	}
	return out
}

// option reports an answer of s that no decision can offer: the options
// are sides or units, before or after, or pass.
func (l *linter) option(s *dsl.ChooseScript, o string) {
	if o == "before" || o == "after" || o == "pass" || l.b.Side(o) != nil || l.b.Unit(o) != nil || l.decisionAnswer(o) {
		return
	}
	l.mistake(l.round, s.Pos(), "%s chooses %s: no side or unit is called %s, and it is not before, after or pass%s (%s)", s.Who, o, o, l.otherCase(o), l.known())
}

// known lists the battle's sides and units, for a message.
func (l *linter) known() string {
	var sides, units []string
	for _, s := range l.b.Sides() {
		sides = append(sides, s.Name)
	}
	for _, u := range l.b.Units() {
		units = append(units, u.Name)
	}
	known := "sides " + strings.Join(sides, ", ")
	if len(units) > 0 {
		known += "; units " + strings.Join(units, ", ")
	}
	return known
}

// decisionWord reports whether a is the name of one of the ruleset's
// decisions or an answer to one, which its decision events hold.
func (l *linter) decisionWord(a string) bool {
	if l.prog.IsAnswer(a) {
		return true
	}
	return slices.ContainsFunc(l.prog.Decides(), func(d runtime.DecisionDecl) bool { return d.Name == a })
}

// decisionAnswer reports whether o may answer one of the ruleset's
// decisions: an answer, or any number where a number is decided (one out
// of its range is the decision's to refuse, as a scenario may show).
func (l *linter) decisionAnswer(o string) bool {
	if _, err := strconv.Atoi(o); err == nil {
		return slices.ContainsFunc(l.prog.Decides(), func(d runtime.DecisionDecl) bool { return d.Kind == runtime.ChooseNumber })
	}
	return l.prog.IsAnswer(o)
}
