package runtime

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/turnorder/turnorder/dsl"
)

// Limits bound the work one battle may do, so that a rule which can never
// resolve ends with an error instead of a hang.
type Limits struct {
	// MaxRerolls is the most rerolls one order procedure may make. A
	// reroll of the group the reroll before it left tied again repeats
	// it, and is not counted when the dice are SeededDice and the roll can
	// break the tie: fair dice break it sooner or later, and Odds
	// conditions such a loop away without playing it. So Odds, Simulate
	// and seeded play fail alike, where a result needs more rerolls than
	// the limit, not on an unlucky run of ties. A host's dice are counted
	// at every reroll: nothing says they ever break a tie.
	// It may be at most MaxRerollsAllowed: each reroll of a tie that
	// will not break goes a level deeper into the order's computation.
	MaxRerolls int
	// MaxSteps is the most activations and passes one round may have.
	MaxSteps int
}

// MaxRerollsAllowed is the highest MaxRerolls that Compile accepts. Ten
// thousand rerolls of a tie that never breaks take a few tens of
// megabytes of stack; some hundreds of thousands would overflow it, which
// no error could report.
const MaxRerollsAllowed = 10000

// DefaultLimits returns the limits a Program has unless WithLimits says
// otherwise: generous for any real game.
func DefaultLimits() Limits { return Limits{MaxRerolls: 1000, MaxSteps: 100000} }

// Option configures Compile.
type Option func(*Program)

// WithFunction makes a Go function callable from the ruleset's
// expressions. types are optional signatures, as for expr.Function.
// A nil fn is a compile error, as is a name the expressions could not
// call it by.
//
// fn gets the values the expression gives it (threat(name) a string,
// threat(count(units)) an int), with a side or a unit, and a list of them,
// as Memory gives them: a map from its field names ("name", "side",
// "team", "ready", "units" and its attributes and statuses), and a list
// of such maps; an order (threat(priority)) as a map of its fields
// ("first", "last", "holder", "chooser", "order", "place", "by"), or nil
// before it is made. (Expressions see them as struct types made for the
// ruleset, which Go code cannot name.)
func WithFunction(name string, fn func(params ...any) (any, error), types ...any) Option {
	return func(p *Program) {
		fn, types := fn, types // the option is applied more than once
		if fn == nil {
			// expr-lang would report it at each call, as an expression
			// that cannot compile, and not at all where none calls it.
			p.badSigs = append(p.badSigs, fmt.Sprintf("WithFunction(%q): the function is nil", name))
			fn = func(...any) (any, error) { return nil, fmt.Errorf("%s: the function is nil", name) }
		}
		call := fn
		fn = func(params ...any) (any, error) { return call(p.plainArgs(params)...) }
		for _, t := range types {
			rt := reflect.TypeOf(t)
			if rt != nil && rt.Kind() == reflect.Pointer {
				rt = rt.Elem()
			}
			if rt == nil || rt.Kind() != reflect.Func {
				// expr-lang would panic on it: Compile reports it instead.
				p.badSigs = append(p.badSigs, fmt.Sprintf("WithFunction(%q): signature %v (%T) is not a function type: give one as new(func(string) int)", name, t, t))
				types = nil
				break
			}
		}
		p.funcs = append(p.funcs, expr.Function(name, fn, types...))
		p.hostFuncs = append(p.hostFuncs, name)
	}
}

// plainArgs gives a host function the sides and units among its
// arguments (and lists of them) as maps from their field names, as Memory
// gives them, in place of the struct types the Program builds for
// expressions. Other values, the host's own too, are left as they are.
func (p *Program) plainArgs(params []any) []any {
	var out []any
	for i, v := range params {
		if !p.types.built(v) {
			continue
		}
		pv, err := plain(v)
		if err != nil {
			continue // such as a remembered value that holds itself: as it is
		}
		if out == nil {
			out = slices.Clone(params)
		}
		out[i] = pv
	}
	if out == nil {
		return params
	}
	return out
}

// built reports whether v is, or is a list of, a value of a type the
// Program built for a side, a unit, previous or an order: not a host's struct,
// even one whose type has no name either.
func (t *envTypes) built(v any) bool {
	if t == nil {
		return false
	}
	rt := reflect.TypeOf(v)
	for rt != nil && (rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Array) {
		rt = rt.Elem()
	}
	return rt != nil && (rt == t.unit || rt == t.side || rt == t.memory || rt == t.orderVal)
}

// WithLimits replaces DefaultLimits. A zero field keeps its default; a
// negative one allows none (MaxRerolls: -1 forbids rerolls).
func WithLimits(l Limits) Option {
	return func(p *Program) {
		if l.MaxRerolls != 0 {
			p.limits.MaxRerolls = max(l.MaxRerolls, 0)
		}
		if l.MaxSteps != 0 {
			p.limits.MaxSteps = max(l.MaxSteps, 0)
		}
	}
}

// Attr is a declared side or unit attribute. As JSON (for a client that
// builds a form of a side's or unit's attributes) it is {"name", "type",
// "default", "pos"}, pos as "file:line:col".
type Attr struct {
	Name    string   `json:"name"`
	Type    AttrType `json:"type"`
	Default any      `json:"default"`
	// Min and Max are the range of an int attribute declared with one
	// (`int 1..6`), both included; nil for any other.
	Min *int    `json:"min,omitempty"`
	Max *int    `json:"max,omitempty"`
	Pos dsl.Pos `json:"-"` // as "pos": see marshalAt
}

// Program is a compiled ruleset. It is immutable and safe for concurrent
// use by any number of battles.
type Program struct {
	name, title, source string
	fingerprint         string // see Fingerprint
	minSides, maxSides  int    // maxSides 0: no upper bound

	file      *dsl.File
	sideAttrs []Attr
	unitAttrs []Attr
	statuses  []string
	remember  []*rememberDef
	decisions []*decisionDef // `decide` statements, in the order they are written
	phases    []*phase
	phaseKeys []string // by phase id
	orders    map[string]*order
	orderList []*order      // by order id
	main      *order        // the order whose first holds the round's priority; nil when the ruleset orders no sides
	act       *activation   // the ruleset's own loop, after the phases
	loops     []*activation // the phases' and steps' loops, by id-1
	handlers  []*handler
	hookNames map[string]bool
	readies   bool // whether a phase places Ready markers itself
	example   []SideSpec
	// The dice, decks and bags declared, by name and in order.
	randomizers    map[string]*randomizer
	randomizerList []*randomizer

	types     *envTypes
	funcs     []expr.Option
	hostFuncs []string // the names given to WithFunction, checked by Compile
	badSigs   []string // WithFunction's nil functions and signatures that are not function types
	asks      []DecisionKind
	// readsOrders says an expression reads an order: a battle then makes
	// the values orders read as (see orderValue).
	readsOrders bool
	limits      Limits
	warnings    dsl.Diagnostics
	diags       dsl.Diagnostics
}

type rememberDef struct {
	name string
	e    *compiled
	// decision, for previous.NAME of a decision, is what is remembered
	// in place of e: the decision's answer in the round.
	decision *decisionDef
}

type scope struct {
	kind    dsl.ScopeKind
	watched []string
}

type phase struct {
	id    int // index in Program.phaseKeys, and in a battle's record of what ran
	name  string
	key   string // "phase NAME" or "step NAME", for the battle's record of what ran
	once  bool   // its scope is once per battle
	scope scope
	items []phaseItem
	pos   dsl.Pos
	// Its start and end, made once: a round passes them to every hook.
	start, end *HookPoint
}

// phaseItem is what a phase runs, in order: a step (a *phase), an
// *order, a *readyRule or a *hookPoint. The set is closed, so a switch on
// one needs no default.
type phaseItem interface{ phaseItem() }

func (*phase) phaseItem()      {}
func (*order) phaseItem()      {}
func (*readyRule) phaseItem()  {}
func (*hookPoint) phaseItem()  {}
func (*activation) phaseItem() {}

type hookPoint struct {
	at  *HookPoint
	pos dsl.Pos
}

type readyRule struct {
	unless bool
	cond   *compiled
	// parts are the terms of `unless A or B` (the factors of `where A and
	// B`), for the transcript to name those that kept a marker off.
	parts []*compiled
	pos   dsl.Pos
}

type order struct {
	id    int // index in Program.orderList, and in a battle's standings; also its place in a round's run of orders
	name  string
	units bool
	scope scope
	chain []link
	pos   dsl.Pos
	where string // "phase NAME" or "step NAME"
}

type activation struct {
	mode dsl.ActivationMode
	draw bool   // mode draw: each turn's side is drawn from a bag of dice (see Battle.drawSide)
	by   *order // nil: the sides (or units) in setup order
	// id is the loop's place in Program.loops, from 1, and 0 for the
	// ruleset's own loop, which runs after the phases: what a round
	// records of the loop under way (roundState.Loop).
	id int
	// A phase's loop is at path in the round: the index of its phase,
	// then of each item down to the loop itself, for the round to go on
	// from there once the loop is over. phase and step name where it is
	// (step "" directly in its phase), and top is its phase, whose
	// `first =` it follows.
	path        []int
	phase, step string
	top         *phase
	passAllowed bool
	// passWhen, if any, is the condition on passing, an expression of the
	// side whose turn it is: when false, that side may not pass.
	passWhen *compiled
	policy   dsl.Policy
	pos      dsl.Pos
}

type handler struct {
	point HookPoint
	when  *compiled
	body  []action
	pos   dsl.Pos
}

// action is a statement of a handler's body: a *setAction, *readyAction,
// *holderAction, *firstAction or *reshuffleAction.
type action interface{ action() }

func (*setAction) action()    {}
func (*readyAction) action()  {}
func (*holderAction) action() {}
func (*firstAction) action()  {}

// firstAction is `first = EXPR`: the side goes first in the activation
// loops of the phase under way.
type firstAction struct {
	e   *compiled
	pos dsl.Pos
}

// canBreak says a roll of l can break a tie: its dice show more than one
// total (a declared die, more than one value). A draw always can: the deck
// changes.
func (l *rollLink) canBreak() bool {
	if l.rz != nil {
		return l.rz.drawn() || l.rz.distinct > 1
	}
	return l.count > 0 && l.faces > 1
}

type setAction struct {
	attr          string
	units         bool // the attribute is a unit attribute
	target, value *compiled
	pos           dsl.Pos
}

type readyAction struct {
	e   *compiled
	pos dsl.Pos
}

type holderAction struct {
	e   *compiled
	pos dsl.Pos
}

// Links of an order chain.
type (
	link interface {
		describe() string
		info() *meta
	}

	// meta is what events and placements say about a link, worked out
	// once at compile time.
	meta struct {
		pos  dsl.Pos
		at   string // "file:line:col"
		desc string // the rule as written
		// keyed says the link places a subject by a number (a value, or a
		// roll's total), which its placement then carries (Place.Value).
		keyed bool
	}

	valueLink struct {
		meta
		dir int // +1 highest first, -1 lowest first
		e   *compiled
	}
	rollLink struct {
		meta
		dir          int
		count, faces int
		dice         string
		mod          *compiled
		// rz is the declared die, deck or bag rolled or drawn from, or
		// nil for NdS dice; dice is then its name.
		rz *randomizer
	}
	randomLink struct{ meta }
	rerollLink struct{ meta }
	awardLink  struct {
		meta
		not bool
		e   *compiled
	}
	choiceLink struct {
		meta
		kind   dsl.ChoiceKind // never "": a choice that names none orders
		role   string
		policy dsl.Policy
	}
	tieSet struct {
		meta
		rules []*tieRule
	}
	tieRule struct {
		when  *compiled
		chain []link
		pos   dsl.Pos
	}
)

func (m *meta) info() *meta { return m }

// done fills in what events say about l.
func done[L link](l L, pos dsl.Pos) L {
	m := l.info()
	m.pos, m.at = pos, posString(pos)
	m.desc = l.describe()
	switch any(l).(type) {
	case *valueLink, *rollLink:
		m.keyed = true
	}
	return l
}

func dirWord(d int) string {
	if d > 0 {
		return string(dsl.Highest)
	}
	return string(dsl.Lowest)
}

func (l *valueLink) describe() string  { return dirWord(l.dir) + " " + l.e.String() }
func (l *randomLink) describe() string { return "random" }
func (l *rerollLink) describe() string { return "reroll" }
func (l *tieSet) describe() string     { return "tie" }
func (l *choiceLink) describe() string {
	return strings.TrimSpace("choice " + string(l.kind) + " by " + l.role)
}
func (l *awardLink) describe() string {
	if l.not {
		return "award not " + l.e.String()
	}
	return "award " + l.e.String()
}
func (l *rollLink) describe() string {
	verb := " roll "
	if l.rz != nil && l.rz.drawn() {
		verb = " draw "
	}
	s := dirWord(l.dir) + verb + l.dice
	if l.mod != nil {
		s += " " + l.mod.String()
	}
	return s
}

// Name is the ruleset's name, which snapshots record (Restore refuses a
// battle saved under another ruleset).
func (p *Program) Name() string { return p.name }

// Title is the ruleset's quoted title, or "".
func (p *Program) Title() string { return p.title }

// Source is the ruleset's `source` statement: the text it follows.
func (p *Program) Source() string { return p.source }

// MinSides is the fewest sides a battle may have (the `sides` statement).
func (p *Program) MinSides() int { return p.minSides }

// MaxSides is the most sides a battle may have, or 0 for no upper bound.
func (p *Program) MaxSides() int { return p.maxSides }

// Warnings returns the compiler's warnings: rules that can never apply, and
// tie chains that can end still tied.
func (p *Program) Warnings() dsl.Diagnostics { return slices.Clone(p.warnings) }

// Example returns a copy of the sides the ruleset declares in its example
// block. Attribute values are plain Go values of the declared types (int,
// bool, string), as a host would write them, so the sides can be saved as
// JSON and loaded again for NewBattle.
func (p *Program) Example() []SideSpec {
	out := make([]SideSpec, len(p.example))
	for i, s := range p.example {
		out[i] = s
		out[i].Attrs = maps.Clone(s.Attrs)
		out[i].Units = slices.Clone(s.Units)
		for j := range out[i].Units {
			out[i].Units[j].Attrs = maps.Clone(s.Units[j].Attrs)
			out[i].Units[j].Statuses = slices.Clone(s.Units[j].Statuses)
			out[i].Units[j].StatusPos = slices.Clone(s.Units[j].StatusPos)
		}
	}
	return out
}

// Decisions returns the kinds of decision the ruleset can ask a Decider,
// sorted: a policy for any other kind changes nothing.
func (p *Program) Decisions() []DecisionKind {
	return slices.Compact(slices.Sorted(slices.Values(p.asks)))
}

// File returns the parsed file the program was compiled from, for tools
// that show its source. The Program never reads it again, so changing it
// changes nothing that runs.
func (p *Program) File() *dsl.File { return p.file }

// SideAttrs returns the side attributes the ruleset declares, in order.
func (p *Program) SideAttrs() []Attr { return slices.Clone(p.sideAttrs) }

// UnitAttrs returns the unit attributes the ruleset declares, in order.
func (p *Program) UnitAttrs() []Attr { return slices.Clone(p.unitAttrs) }

// Statuses returns the unit statuses the ruleset declares, in order.
func (p *Program) Statuses() []string { return slices.Clone(p.statuses) }

// Standings returns the names of the ruleset's order procedures, in the
// order they are declared: the standings a battle can hold.
func (p *Program) Standings() []string {
	out := make([]string, len(p.orderList))
	for i, o := range p.orderList {
		out[i] = o.name
	}
	return out
}

// HookPoints returns every point a round passes where special rules plug
// in, in the order a round first reaches them: the start of the round,
// the start of each phase and step, its named hooks, their ends, and the
// end of the round. A phase played once per battle is listed all the same.
func (p *Program) HookPoints() []HookPoint {
	out := []HookPoint{hpRoundStart}
	var walk func(ph *phase)
	walk = func(ph *phase) {
		out = append(out, *ph.start)
		for _, it := range ph.items {
			switch x := it.(type) {
			case *phase:
				walk(x)
			case *hookPoint:
				out = append(out, *x.at)
			}
		}
		out = append(out, *ph.end)
	}
	for _, ph := range p.phases {
		walk(ph)
	}
	return append(out, hpRoundEnd)
}

// OrdersUnits reports whether the order that decides who holds priority
// orders units, not sides: its battles need sides with units (NewBattle
// refuses sides that have none), and the holder is a unit.
func (p *Program) OrdersUnits() bool { return p.main != nil && p.main.units }

// DrawsAtRandom reports what the battle's random picks choose among:
// sides (a `random` criterion of an order of sides, or the bag of
// activation draw) and units (one of an order of units). A script of
// picks names only those.
func (p *Program) DrawsAtRandom() (sides, units bool) {
	for _, o := range p.orderList {
		if hasRandom(o.chain) {
			sides, units = sides || !o.units, units || o.units
		}
	}
	return sides || p.DrawsFromBag(), units
}

// DrawsFromBag reports whether an activation loop of the ruleset, its own
// or a phase's, is `activation draw`: it draws sides at random.
func (p *Program) DrawsFromBag() bool {
	if p.act != nil && p.act.draw {
		return true
	}
	return slices.ContainsFunc(p.loops, func(a *activation) bool { return a.draw })
}

// HasHolder reports whether a side (or unit) holds priority in the
// ruleset's rounds: false when it orders no sides at all (`activation
// draw` with no order), where Holder is always "".
func (p *Program) HasHolder() bool { return p.main != nil }

// ActivationPhases returns the names of the phases and steps that have an
// activation loop of their own, in the order a round reaches them: the
// names `expect activations in NAME` and ActivationRecord.Phase and Step
// take.
func (p *Program) ActivationPhases() []string {
	var out []string
	for _, a := range p.loops {
		for _, n := range []string{a.phase, a.step} {
			if n != "" && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// byName names the order a loop follows, for its events and requests:
// "setup" when it follows none.
func (a *activation) byName() string {
	if a.by == nil {
		return "setup"
	}
	return a.by.name
}

// where names the phase (and step) the loop runs in, as a transcript says
// it: "" for the ruleset's own loop.
func (a *activation) where() string { return wherePlace(a.phase, a.step) }

// hasRandom reports whether chain, or a tie rule in it, draws at random.
func hasRandom(chain []link) bool {
	for _, l := range chain {
		switch x := l.(type) {
		case *randomLink:
			return true
		case *tieSet:
			for _, r := range x.rules {
				if hasRandom(r.chain) {
					return true
				}
			}
		}
	}
	return false
}
