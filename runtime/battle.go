package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/vm"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
)

// Side is a participant: a player, gang, school or force.
//
// A Battle hands out copies of its sides and units (Sides, Side, Units,
// Unit): a snapshot of them when asked. Changing a copy changes nothing;
// the battle changes through SetAttr, SetStatus, RemoveUnit, AddUnit and
// MakeReady, which check the values and recompute the orders that watch
// them.
//
// As JSON a side is {"name", "team", "attrs", "units"}, its units as
// Unit encodes them: the shape of a SideSpec, so that a battle's sides,
// sent to a client as they stand, can start another battle.
type Side struct {
	Name  string         `json:"name"`
	Team  string         `json:"team,omitempty"`
	Attrs map[string]any `json:"attrs,omitempty"`
	Units []*Unit        `json:"units,omitempty"`
}

// Unit is a model, fighter or gladiator belonging to a side. Like a Side,
// what a Battle hands out is a copy.
//
// As JSON a unit is {"name", "side", "attrs", "statuses", "ready"}: its
// side by name (the Side it points to holds the unit itself), and the
// statuses it has as a sorted list, as in a UnitSpec.
type Unit struct {
	Name   string
	Side   *Side
	Attrs  map[string]any
	Status map[string]bool
	Ready  bool
}

// Memory is what the battle remembers of the previous round. Values holds
// each remembered value as a snapshot saves it: nil, a bool, an int, a
// float64, a string, or lists ([]any) and maps (map[string]any) of them,
// a side or a unit being a map from its field names.
type Memory struct {
	Holder  string         `json:"holder,omitempty"`
	Chooser string         `json:"chooser,omitempty"`
	Order   []string       `json:"order,omitempty"`
	Values  map[string]any `json:"values,omitempty"`
}

// Place is one subject's position in a standing and what decided it.
type Place struct {
	Subject   string `json:"subject"`
	Criterion string `json:"criterion"`
	By        string `json:"by,omitempty"` // who chose, for a choice
	Pos       string `json:"pos,omitempty"`
	// Kept says the placement is a tie's, kept from an earlier round
	// (an order made until changed): Criterion, By and Pos are the
	// earlier placement's.
	Kept bool `json:"kept,omitempty"`
	// Value is the number Criterion placed the subject by, when it orders
	// by a value or a roll: the expression's value (lowest count(units)),
	// or the roll's total with its modifier (highest roll d6 + agi). A
	// subject tied on one criterion and separated by a later one carries
	// the later one's value, as Criterion names the later one. nil for a
	// placement by an award, a choice, random, a tie kept from an earlier
	// round, the setup order of subjects still tied, and in the analysis
	// (Odds), which records no values.
	Value *float64 `json:"value,omitempty"`
}

// Standing is the result of an order procedure: Order[0] goes first.
type Standing struct {
	Name    string   `json:"name"`
	Units   bool     `json:"units,omitempty"`
	Order   []string `json:"order"`
	Places  []Place  `json:"places"`
	Chooser string   `json:"chooser,omitempty"`
	Round   int      `json:"round"`
	// ChoiceRound is the round in which Chooser made the choice (a kept
	// tie keeps its chooser from an earlier round).
	ChoiceRound int `json:"choice_round,omitempty"`
	// Watched holds, for an until-changed standing, each subject's watched
	// values when it was placed; Groups the ties that were resolved.
	Watched map[string][]any `json:"watched,omitempty"`
	Groups  []TieGroup       `json:"groups,omitempty"`
}

// TieGroup is a tie that an until-changed standing resolved, and who chose
// its order, if anyone.
type TieGroup struct {
	Members     []string `json:"members"`
	Chooser     string   `json:"chooser,omitempty"`
	ChoiceRound int      `json:"choice_round,omitempty"`
}

// ActivationRecord is one turn of the activation loop.
type ActivationRecord struct {
	Side string `json:"side"`
	Unit string `json:"unit,omitempty"`
	Pass bool   `json:"pass,omitempty"`
	// Phase and Step name the phase (and step) whose activation loop the
	// turn was played in: both "" in the ruleset's own loop.
	Phase string `json:"phase,omitempty"`
	Step  string `json:"step,omitempty"`
}

// RoundResult is what a round produced.
type RoundResult struct {
	Round       int                `json:"round"`
	Order       []string           `json:"order"`
	Holder      string             `json:"holder"`
	Chooser     string             `json:"chooser"`
	Activations []ActivationRecord `json:"activations"`
	Events      []Event            `json:"events"`
}

// MarshalJSON writes the round as a round of `turnorder run --json`
// (docs/json.md): chooser null when nobody chose, and order, activations
// and events [] when there are none, so that a client reads one shape
// from a server and from the CLI. Chooser stays "" in Go; decoded, null
// is "" again.
func (r RoundResult) MarshalJSON() ([]byte, error) {
	doc := struct {
		Round       int                `json:"round"`
		Order       []string           `json:"order"`
		Holder      string             `json:"holder"`
		Chooser     *string            `json:"chooser"`
		Activations []ActivationRecord `json:"activations"`
		Events      []Event            `json:"events"`
	}{r.Round, r.Order, r.Holder, nil, r.Activations, r.Events}
	if r.Chooser != "" {
		doc.Chooser = &r.Chooser
	}
	if doc.Order == nil {
		doc.Order = []string{}
	}
	if doc.Activations == nil {
		doc.Activations = []ActivationRecord{}
	}
	if doc.Events == nil {
		doc.Events = []Event{}
	}
	return json.Marshal(doc)
}

// HookPoint names a point where special rules plug in: the start or end of
// the round, a phase or a step, or a named `hook` statement.
type HookPoint struct {
	Edge dsl.Edge  `json:"edge,omitempty"` // empty for a named hook
	Kind dsl.Point `json:"kind"`
	Name string    `json:"name,omitempty"` // empty for the round's own points
}

func (h HookPoint) String() string {
	switch {
	case h.Kind == dsl.PointHook:
		return "hook " + h.Name
	case h.Name == "":
		return string(h.Edge) + " of " + string(h.Kind)
	}
	return fmt.Sprintf("%s of %s %s", h.Edge, h.Kind, h.Name)
}

// HostHook is a Go callback run at every hook point, after the ruleset's
// own handlers. It may change the battle through its methods. An error it
// returns stops the round as a *RoundError naming the round and the hook
// point ("round 2: Go hook at end of round: ..."); errors.Is and errors.As
// still find the hook's own error inside.
type HostHook func(ctx context.Context, b *Battle, at HookPoint) error

// BattleOption configures a battle.
type BattleOption func(*Battle)

// WithDice sets the source of chance (default: seeded with 1). A nil
// source, or a nil pointer or function in one, means the default.
func WithDice(d Dice) BattleOption { return func(b *Battle) { b.dice = d } }

// WithDecider sets who answers decisions (default: the ruleset's
// policies). A nil decider, or a nil pointer or function in one, means the
// default.
func WithDecider(d Decider) BattleOption { return func(b *Battle) { b.decider = d } }

// WithTranscript turns the event transcript on or off (default on).
func WithTranscript(on bool) BattleOption { return func(b *Battle) { b.transcript = on } }

// WithHook adds a Go hook.
func WithHook(h HostHook) BattleOption {
	return func(b *Battle) {
		if h != nil {
			b.hooks = append(b.hooks, h)
		}
	}
}

// WithoutHooks drops the Go hooks given before it. For Battle.Clone it
// makes a copy that runs none of the original's hooks, as a bot's
// lookahead must when the hooks talk to players or a table.
func WithoutHooks() BattleOption {
	return func(b *Battle) { b.hooks = []HostHook{} } // not nil: Clone copies the original's into a nil list
}

// Battle is one game played with a Program. Make one with
// Program.NewBattle or Program.Restore (or Battle.Clone); the zero Battle
// has no ruleset and cannot be played: its methods that play or save
// return an error, and its accessors report nothing. It is not safe for concurrent use;
// give each goroutine its own Battle.
//
// In alternate activation the turn passes from each side to the next in
// the order, and from the last back to the first. When a change in
// mid-round (SetAttr or SetStatus on what an until-changed order watches,
// or SetHolder) reorders the activation's standing, the side whose turn
// it is keeps it, and the turns go on from its place in the new order; a
// side that moved ahead of it waits for the turns to come round. So no
// side has two turns in a row, or loses one, because another moved. Only
// before any side has had a turn in the round does the turn go with
// priority, to the first in the new order. In sequential activation the
// side under way likewise finishes its units first.
type Battle struct {
	prog       *Program
	round      int
	sides      []*Side
	units      []*Unit
	sideByNm   map[string]*Side
	unitByNm   map[string]*Unit
	removed    map[string]string // a unit RemoveUnit took out: its side
	standings  []*Standing       // by order id; nil until computed
	memory     Memory
	done       []bool // by phase id: the phases and steps that have run
	cur        *roundState
	pending    []Event     // events between rounds
	prevRound  *roundState // the round before the one under way: its memory is the next round's to reuse
	inCallback int         // hooks, deciders or dice running: the round that called them is half played
	working    bool        // StartRound or EndRound is running: a clone made now holds half a round
	ending     bool        // the hooks at the end of the round are running (see playing)
	phaseNow   *phase      // the phase runPhases is running, whose loops a `first =` orders
	spare      []*Standing // by order id: a standing to fill next time (see computeOrder)
	// decks holds what is left of each deck or bag drawn from since it was
	// last whole (see randomizer.go). It is replaced, never changed in
	// place: copies share it.
	decks map[deckKey][]string

	// The op under way, and how far it has got (see engine.go).
	op          op
	base        *Battle  // the battle as op found it
	journal     []entry  // op's inputs and Go hooks' changes so far
	replayed    int      // how much of journal the op has played again
	pend        *Request // the input op waits for
	running     bool     // op's code is running
	noAsk       bool     // op is going back to an input: none is asked for, all wait
	hookLog     *[]op    // where the Go hooks, dice or decider running write their changes
	inHook      bool     // a Go hook is running
	hookWait    error    // the HookWaitError of a change a Go hook made, at the hook point under way
	hookOps     []op     // where the Go hooks of a point write their changes, reused
	asking      *Request // what the dice or decider running are asked
	askedAt     int      // the journal's length when they were asked
	hookEntries int      // Go hooks' entries in journal
	stepDone    bool     // what op's Step found: the activations are over
	undo        *undoLog // with WithUndo: the ops played, to take back

	dice       Dice
	seeded     *SeededDice // dice, when they are ours: they keep nothing, and can be rewound
	keptDice   []byte      // the dice's state Restore found, which Snapshot saves when the dice have none
	keptPCG    rand.PCG    // the original's seeded state, for a clone given dice that keep none (see Clone)
	keptSeed   bool        // keptPCG is set, and saved in keptDice's place
	decider    Decider
	transcript bool
	eventsHint int                // how many events the last round had
	actsHint   int                // how many activations and passes it had
	spareActs  []ActivationRecord // a record of activations no longer used, for the next round's (see record)
	actsView   []ActivationRecord // what Activations hands out in the round under way
	turnBuf    Turn               // what turn returns
	bagBuf     []string           // the dice in the bag, for seeded dice (see drawSide)
	intSlab    []int              // numbers events point to (see intp)
	hooks      []HostHook
	// changedRules lets Restore take a save of other rules of the same
	// name (see AcceptChangedRules).
	changedRules bool

	version int // bumped by every change that expressions can see
	view    *view
	names   [2][]string // side names, unit names (see subjectNames)
	orders  [2]interned // orders of sides, of units (see internOrder)
	scr     scratch
	genv    [2]reflect.Value // group environments, reused (sides, units)
	vm      vm.VM            // runs every expression; reused, as a battle is used by one goroutine

	placeVals []placeVals // by order id: what its standings' values point to (see valsFor)
	floatSlab []float64   // values placements' events point to (see floatp)
}

// roundState is the progress of the round under way.
type roundState struct {
	Round       int                `json:"round"`
	Stage       string             `json:"stage"` // "activation" or "ended"
	Holder      string             `json:"holder"`
	Chooser     string             `json:"chooser"`
	Activations []ActivationRecord `json:"activations"`
	Events      []Event            `json:"events"`
	Turn        int                `json:"turn"`
	Steps       int                `json:"steps"`
	// Loop is the activation loop under way: a phase's (its id, from 1),
	// or 0 for the ruleset's own, after the phases.
	Loop int `json:"loop,omitempty"`
	// First is the side a rule put first (`first =`) in the activation
	// loops of phase FirstIn, the phase under way, and of no other.
	First    string   `json:"first,omitempty"`
	FirstIn  string   `json:"first_in,omitempty"`
	Done     []string `json:"done,omitempty"`     // "once" phases first run this round
	Override string   `json:"override,omitempty"` // the holder a special rule set
	// Readied lists the units given a Ready marker in this round other
	// than by its ready rules (MakeReady, a rule's ready), once each
	// time, and Kept those that kept theirs through a status given them
	// since, once: what lets a unit activate more than once, or be ready
	// with a status the ready rule refuses markers for, which Restore
	// checks.
	Readied []string `json:"readied,omitempty"`
	Kept    []string `json:"kept,omitempty"`
	// Drawn is the side drawn from the bag in activation draw, whose turn
	// it is; "" until the next draw (a snapshot from before the mode has
	// none either: the next Step, Activate or Pass draws).
	Drawn string `json:"drawn,omitempty"`
	// Decided holds the decisions of `decide` statements made in the
	// round, in the order they were revealed.
	Decided []Decided `json:"decided,omitempty"`

	// gen counts the times the round's lists were written over, not just
	// added to (see copyFrom); from and fromGen say what a copy was last
	// made from, and when.
	gen     int
	from    *roundState
	fromGen int
}

// NewBattle starts a battle between the given sides, before round 1. When
// the main standing orders units (the ruleset's holder is a unit), at
// least one side must have one; otherwise sides may have none.
func (p *Program) NewBattle(sides []SideSpec, opts ...BattleOption) (*Battle, error) {
	if err := p.compiled(); err != nil {
		return nil, err
	}
	return p.newBattle(sides, true, opts...)
}

// compiled refuses a Program that Compile did not make (a zero Program),
// whose battles would have no order to play.
func (p *Program) compiled() error {
	if p == nil || len(p.phases) == 0 {
		return errors.New("the Program was not compiled: make one with Compile")
	}
	return nil
}

// settle puts dice and decider in place of a missing dice source or
// decider: WithDice(nil), or WithDecider(DeciderFunc(nil)), would
// otherwise panic at the first roll or decision.
func (b *Battle) settle(dice Dice, decider Decider) {
	if isNil(b.dice) {
		b.dice = dice
	}
	if b.seeded, _ = b.dice.(*SeededDice); b.seeded != nil {
		b.seeded.init()
	}
	if isNil(b.decider) {
		b.decider = decider
	}
}

// isNil reports whether v is nil, or a nil pointer, function, map, slice
// or channel in an interface.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Map, reflect.Slice, reflect.Chan:
		return rv.IsNil()
	}
	return false
}

// newBattle is NewBattle. A battle that has begun (one Restore brings
// back) may have lost every unit, so only a fresh one must have a unit
// to order.
func (p *Program) newBattle(sides []SideSpec, fresh bool, opts ...BattleOption) (*Battle, error) {
	b := &Battle{
		prog:       p,
		sideByNm:   map[string]*Side{},
		unitByNm:   map[string]*Unit{},
		standings:  make([]*Standing, len(p.orderList)),
		done:       make([]bool, len(p.phaseKeys)),
		transcript: true,
	}
	for _, o := range opts {
		if o != nil {
			o(b)
		}
	}
	b.settle(NewSeededDice(1), Policy{})
	var errs setupErrors
	fail := errs.failf
	n := len(sides)
	if n < p.minSides || (p.maxSides > 0 && n > p.maxSides) {
		want := fmt.Sprint(p.minSides)
		switch {
		case p.maxSides == 0:
			want += " or more"
		case p.maxSides != p.minSides:
			want = fmt.Sprintf("%d to %d", p.minSides, p.maxSides)
		}
		pos := dsl.Pos{}
		if n > 0 {
			pos = sides[0].Pos
		}
		fail(pos, "ruleset %s needs %s sides, got %d", p.name, want, n)
	}
	// A side or unit with a bad name is checked all the same, so that every
	// mistake is reported at once (as CheckSides does), but it is not
	// registered: the battle is refused anyway.
	for i, ss := range sides {
		side := sideWho(i, ss)
		badName := errs.name(ss.Pos, "side", side, ss.Name, b.taken)
		if ss.Team == reservedName {
			fail(ss.Pos, "%s: %s", side, reservedMsg("team"))
		}
		s := &Side{Name: ss.Name, Team: ss.Team, Attrs: map[string]any{}}
		b.fillAttrs(s.Attrs, p.sideAttrs, ss.Attrs, side, ss.Pos, fail)
		if !badName {
			b.sides = append(b.sides, s)
			b.sideByNm[s.Name] = s
		}
		for j, us := range ss.Units {
			unit := unitWho(j, side, us)
			badName := errs.name(us.Pos, "unit", unit, us.Name, b.taken)
			u := b.unitOf(s, us, unit, fail)
			if badName {
				continue
			}
			s.Units = append(s.Units, u)
			b.units = append(b.units, u)
			b.unitByNm[u.Name] = u
		}
	}
	if fresh && p.main != nil && p.main.units && len(b.units) == 0 && len(b.sides) > 0 {
		// The order would be empty, and every round's holder nobody.
		fail(sides[0].Pos, "ruleset %s orders units (order %s decides who holds priority), but no side has a unit: give the sides their units",
			p.name, p.main.name)
	}
	if len(errs.diags) > 0 {
		return nil, errs.diags
	}
	return b, nil
}

// unitOf makes the unit us describes, of side s, reporting with fail
// what is wrong with its attributes and statuses: a unit of the setup and
// one that joins the battle later (AddUnit) are checked alike.
func (b *Battle) unitOf(s *Side, us UnitSpec, who string, fail func(dsl.Pos, string, ...any)) *Unit {
	p := b.prog
	u := &Unit{Name: us.Name, Side: s, Attrs: map[string]any{}, Status: map[string]bool{}}
	b.fillAttrs(u.Attrs, p.unitAttrs, us.Attrs, who, us.Pos, fail)
	for k, st := range us.Statuses {
		if !slices.Contains(p.statuses, st) {
			pos := us.Pos
			if k < len(us.StatusPos) && us.StatusPos[k].Line > 0 {
				pos = us.StatusPos[k]
			}
			fail(pos, "%s: unknown status %s (declared: %s)", who, st, wording.OrNone(p.statuses))
			continue
		}
		u.Status[st] = true
	}
	return u
}

func (b *Battle) taken(name string) bool {
	return b.sideByNm[name] != nil || b.unitByNm[name] != nil
}

func (b *Battle) fillAttrs(dst map[string]any, decl []Attr, given map[string]any, who string, pos dsl.Pos, fail func(dsl.Pos, string, ...any)) {
	for _, a := range decl {
		dst[a.Name] = a.Default
	}
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		i := slices.IndexFunc(decl, func(a Attr) bool { return a.Name == k })
		if i < 0 {
			fail(pos, "%s: unknown attribute %s (declared: %s)", who, k, wording.OrNone(attrNames(decl)))
			continue
		}
		v, err := decl[i].convert(given[k])
		if err != nil {
			if l, ok := given[k].(*dsl.Literal); ok {
				pos = l.Pos()
			}
			fail(pos, "%s: attribute %s: %v", who, k, err)
			continue
		}
		dst[k] = v
	}
}

func attrNames(as []Attr) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	return out
}

// maxExact is the largest whole number that orders exactly: criteria
// compare values as float64.
const maxExact = 1 << 53

func exactInt(x int64) (any, error) {
	if x > maxExact || x < -maxExact {
		return nil, outOfRange(strconv.FormatInt(x, 10))
	}
	return int(x), nil
}

// outOfRange is the error for a whole number an int attribute cannot
// hold, written as it was given (9007199254740993, 1e300): it is a whole
// number, only too large (or too far below zero), so "want a whole
// number" would puzzle whoever sent it.
func outOfRange(number string) error {
	return fmt.Errorf("%s is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly", number)
}

// underflows reports whether the number n, which a float64 reads as 0,
// is not 0: a digit of its mantissa is not 0 (1e-400, 0.5e-330).
func underflows(n string) bool {
	mantissa, _, _ := strings.Cut(strings.ToLower(n), "e")
	return strings.ContainsAny(mantissa, "123456789")
}

// gotValue describes a value an attribute cannot hold. A string that
// reads as the value wanted ("3", "true": a form's field sent as it is) is
// quoted and called a string, or "want a whole number, got 3" would leave
// a client none the wiser.
func gotValue(v any) string {
	if s, ok := v.(string); ok {
		if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil || s == "true" || s == "false" {
			return fmt.Sprintf("the string %q", s)
		}
	}
	return fmt.Sprint(v)
}

// convertAttr converts a value from a setup (a literal) or from Go (or
// from JSON, where numbers are float64) to the attribute's type.
func convertAttr(v any, t AttrType) (any, error) {
	if l, ok := v.(*dsl.Literal); ok {
		return literalValue(l, t)
	}
	switch t {
	case IntAttr:
		rv := reflect.ValueOf(v)
		shown := "" // the number as given, for outOfRange
		if n, ok := v.(json.Number); ok {
			// A host's JSON decoded with UseNumber, as Restore's is.
			if i, err := n.Int64(); err == nil {
				return exactInt(i)
			}
			shown = n.String()
			f, err := n.Float64()
			switch {
			case err == nil && f == 0 && underflows(shown):
				// 1e-400: a fraction that a float64 rounds to 0.
				return nil, fmt.Errorf("want a whole number, got %s, a fraction too close to 0 for a float64 to hold, not 0", shown)
			case err == nil:
				rv = reflect.ValueOf(f)
			case errors.Is(err, strconv.ErrRange) && math.IsInf(f, 0):
				return nil, outOfRange(shown) // 1e400: beyond even a float64
			}
		}
		switch {
		case rv.CanInt():
			return exactInt(rv.Int())
		case rv.CanUint():
			if u := rv.Uint(); u > maxExact {
				return nil, outOfRange(strconv.FormatUint(u, 10))
			}
			return exactInt(int64(rv.Uint()))
		case rv.CanFloat():
			// JSON's numbers are float64s: 1e300 is a whole number, only
			// not one an attribute holds.
			x := rv.Float()
			switch {
			case x != math.Trunc(x): // a fraction, or NaN
			case math.Abs(x) <= maxExact:
				return int(x), nil
			case shown != "":
				return nil, outOfRange(shown)
			case math.Abs(x) < 1e21:
				return nil, outOfRange(strconv.FormatFloat(x, 'f', -1, 64)) // in digits, as JSON would write it
			default:
				return nil, outOfRange(strconv.FormatFloat(x, 'g', -1, 64)) // 1e+300, not 301 digits
			}
		}
		return nil, fmt.Errorf("want a whole number, got %s", gotValue(v))
	case BoolAttr:
		if x, ok := v.(bool); ok {
			return x, nil
		}
		return nil, fmt.Errorf("want true or false, got %s", gotValue(v))
	default:
		if x, ok := v.(string); ok {
			return x, nil
		}
		return nil, fmt.Errorf("want a string, got %v", v)
	}
}

// Program returns the battle's ruleset.
func (b *Battle) Program() *Program { return b.prog }

// Round returns the current round number (0 before the first round).
func (b *Battle) Round() int { return b.round }

// Sides returns copies of the sides in setup order, with their units: the
// slice, the sides, their units and their maps are the caller's, so that
// nothing done to them changes the battle (change it through SetAttr,
// SetStatus, RemoveUnit, AddUnit and MakeReady, which check the change and
// recompute the orders that watch it).
func (b *Battle) Sides() []*Side {
	out := make([]*Side, len(b.sides))
	for i, s := range b.sides {
		out[i] = s.copy()
	}
	return out
}

// Units returns copies of every unit in setup order, each with a copy of
// its side, as Sides does. A loop over them may remove units.
func (b *Battle) Units() []*Unit {
	out := make([]*Unit, 0, len(b.units))
	for _, s := range b.Sides() {
		out = append(out, s.Units...)
	}
	return out
}

// Side returns a copy of the named side, with its units, or nil: as for
// Sides, the copy is the caller's.
func (b *Battle) Side(name string) *Side {
	if s := b.sideByNm[name]; s != nil {
		return s.copy()
	}
	return nil
}

// Unit returns a copy of the named unit, or nil. Its Side is a copy of its
// side, whose Units hold the copy itself, as Sides would give them.
func (b *Battle) Unit(name string) *Unit {
	u := b.unitByNm[name]
	if u == nil {
		return nil
	}
	return u.Side.copy().Units[slices.Index(u.Side.Units, u)]
}

// copy copies a side and its units, down to their maps. The battle itself
// never needs one: it reads its own sides.
func (s *Side) copy() *Side {
	c := &Side{Name: s.Name, Team: s.Team, Attrs: maps.Clone(s.Attrs)}
	if len(s.Units) > 0 {
		c.Units = make([]*Unit, len(s.Units))
		for i, u := range s.Units {
			c.Units[i] = u.copyTo(c)
		}
	}
	return c
}

// copyTo copies a unit, down to its maps, as a unit of side.
func (u *Unit) copyTo(side *Side) *Unit {
	return &Unit{Name: u.Name, Side: side, Attrs: maps.Clone(u.Attrs), Status: maps.Clone(u.Status), Ready: u.Ready}
}

// Memory returns a copy of what is remembered of the previous round: the
// lists and maps in its values are copies too.
func (b *Battle) Memory() Memory {
	m := b.memory
	m.Order = slices.Clone(m.Order)
	if m.Values != nil {
		m.Values = make(map[string]any, len(b.memory.Values))
		for k, v := range b.memory.Values {
			m.Values[k] = deepCopy(v)
		}
	}
	return m
}

// deepCopy copies the lists and maps in a value an expression produced
// (a remembered value), so that a host editing its copy edits only that.
func deepCopy(v any) any {
	switch x := v.(type) {
	case nil, bool, int, int64, float64, string:
		return v
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice:
		if rv.IsNil() {
			return v
		}
		out := reflect.MakeSlice(rv.Type(), rv.Len(), rv.Len())
		for i := range rv.Len() {
			if e := deepCopy(rv.Index(i).Interface()); e != nil {
				out.Index(i).Set(reflect.ValueOf(e))
			}
		}
		return out.Interface()
	case reflect.Map:
		if rv.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(rv.Type(), rv.Len())
		for it := rv.MapRange(); it.Next(); {
			if e := deepCopy(it.Value().Interface()); e != nil {
				out.SetMapIndex(it.Key(), reflect.ValueOf(e))
			} else {
				out.SetMapIndex(it.Key(), reflect.Zero(rv.Type().Elem()))
			}
		}
		return out.Interface()
	}
	return v
}

// plain returns v as a snapshot brings it back: nil, a bool, an int, a
// float64, a string, or lists and maps of those, with a side or a unit as
// a map from its field names. A remembered value is kept plain, so that
// the round after a Restore reads what the saved battle would have read.
// NaN and the infinities are refused: JSON cannot hold them.
func plain(v any) (any, error) { return plainAt(v, 0) }

// maxPlainDepth bounds how deep plain follows a value: a host function's
// value may hold itself, and following it for ever kills the process.
const maxPlainDepth = 100

func plainAt(v any, depth int) (any, error) {
	if depth > maxPlainDepth {
		return nil, fmt.Errorf("a value nested more than %d deep cannot be saved (does it hold itself?)", maxPlainDepth)
	}
	switch v.(type) {
	case nil, bool, int, string:
		return v, nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.String:
		return rv.String(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if u := rv.Uint(); u <= math.MaxInt64 {
			return int(u), nil
		}
		return float64(rv.Uint()), nil
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			return nil, fmt.Errorf("%v cannot be saved: a remembered number must be finite", f)
		case f == math.Trunc(f) && math.Abs(f) < math.MaxInt64:
			return int(f), nil
		}
		return f, nil
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, nil
		}
		return plainAt(rv.Elem().Interface(), depth+1)
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return nil, nil
		}
		out := make([]any, rv.Len())
		for i := range out {
			e, err := plainAt(rv.Index(i).Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case reflect.Map:
		if rv.IsNil() {
			return nil, nil
		}
		out := make(map[string]any, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			k, err := plainAt(it.Key().Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			e, err := plainAt(it.Value().Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			switch k := k.(type) {
			case string:
				out[k] = e
			case int:
				out[strconv.Itoa(k)] = e
			default:
				return nil, fmt.Errorf("a map with %s keys cannot be saved", it.Key().Type())
			}
		}
		return out, nil
	case reflect.Struct:
		t := rv.Type()
		out := make(map[string]any, t.NumField())
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := f.Name
			if tag := f.Tag.Get("expr"); tag != "" {
				name = tag
			}
			e, err := plainAt(rv.Field(i).Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			out[name] = e
		}
		return out, nil
	}
	return nil, fmt.Errorf("a %s cannot be saved", rv.Type())
}

// Standing returns a copy of the named standing, or nil if it has not been
// computed.
func (b *Battle) Standing(name string) *Standing {
	s := b.standingOf(name)
	if s == nil {
		return nil
	}
	return s.clone()
}

// standingOf returns the named standing itself, or nil.
func (b *Battle) standingOf(name string) *Standing {
	if b.prog == nil {
		return nil
	}
	if o := b.prog.orders[name]; o != nil {
		return b.standings[o.id]
	}
	return nil
}

// Order returns the main standing's order (the one activation follows, or
// the ruleset's first), first holding priority.
func (b *Battle) Order() []string {
	if b.prog == nil {
		return nil
	}
	if s := b.mainStanding(); s != nil {
		return slices.Clone(b.roundOrder(s))
	}
	return nil
}

// mainStanding is the standing of the order whose first holds priority:
// nil until it is made, and in a ruleset that orders no sides.
func (b *Battle) mainStanding() *Standing {
	if b.prog.main == nil {
		return nil
	}
	return b.standings[b.prog.main.id]
}

// Holder returns who holds priority this round.
func (b *Battle) Holder() string {
	if b.cur != nil {
		return b.cur.Holder
	}
	return ""
}

// HolderSide returns the side that holds priority this round: the holder
// itself, or the holder's side when the main order ranks units.
func (b *Battle) HolderSide() string {
	h := b.Holder()
	if b.prog == nil {
		return h
	}
	if m := b.prog.main; m != nil && m.units {
		if u := b.unitByNm[h]; u != nil {
			return u.Side.Name
		}
		if side, gone := b.removed[h]; gone { // removed since it took priority
			return side
		}
	}
	return h
}

// Chooser returns who chose this round's priority, if anyone.
func (b *Battle) Chooser() string {
	if b.cur != nil {
		return b.cur.Chooser
	}
	return ""
}

// Events returns the transcript of the round under way (or just ended).
// What happens between rounds (an attribute set after EndRound, and the
// recomputation it starts) opens the next round's transcript, numbered as
// that round. The slice and its events are a copy, the caller's.
func (b *Battle) Events() []Event {
	if b.cur == nil {
		return nil
	}
	return cloneEvents(b.cur.Events)
}

// cloneEvents copies events down to their values and lists, which the
// battle's transcript keeps.
func cloneEvents(evs []Event) []Event {
	out := slices.Clone(evs)
	for i := range out {
		e := &out[i]
		if e.Value != nil {
			v := *e.Value
			e.Value = &v
		}
		if e.Total != nil {
			v := *e.Total
			e.Total = &v
		}
		if e.Key != nil {
			v := *e.Key
			e.Key = &v
		}
		e.Subjects = slices.Clone(e.Subjects)
		e.Choice = slices.Clone(e.Choice)
	}
	return out
}

// PendingEvents returns the events of what happened since the last round
// ended: changes made between rounds and the recomputations they caused.
// The next round's transcript (Events) opens with them.
func (b *Battle) PendingEvents() []Event { return cloneEvents(b.pending) }

// Activations returns the activations of the round under way (or just
// ended). So that a host reading the latest turn after every Step does
// not copy the whole round each time, the slices it returns in a round
// share an array that grows as the round goes on. That array is not the
// battle's record: writing to it changes nothing in the battle, its
// snapshot or Result, though later calls in the round return what was
// written.
func (b *Battle) Activations() []ActivationRecord {
	if b.cur == nil {
		return nil
	}
	if rec := b.cur.Activations; len(b.actsView) < len(rec) {
		b.actsView = append(b.actsView, rec[len(b.actsView):]...)
	}
	return slices.Clip(b.actsView)
}

// ReadyUnits returns the names of units with a Ready marker.
func (b *Battle) ReadyUnits() []string {
	var out []string
	for _, u := range b.units {
		if u.Ready {
			out = append(out, u.Name)
		}
	}
	return out
}

func (b *Battle) emit(e Event) {
	if !b.transcript {
		return
	}
	e.Round = b.now()
	if !b.InRound() {
		b.pending = append(b.pending, e)
		return
	}
	b.cur.Events = append(b.cur.Events, e)
}

func (b *Battle) changed() { b.version++ }

// now is the round that what happens belongs to: the round under way, or,
// between rounds, the next one.
func (b *Battle) now() int {
	if b.InRound() {
		return b.round
	}
	return b.round + 1
}

// SetAttr sets a side's or unit's attribute. Standings that watch the
// attribute are recomputed at once, which may roll dice and ask decisions
// (and, while sides take turns, leave the turn with the side whose turn
// it is: see Battle). The change is one op (see Pending): if the
// recomputation stops at an input the host is to give, the change waits
// for it; if it fails, the battle is as it was before the call.
func (b *Battle) SetAttr(ctx context.Context, who, attr string, value any) error {
	o := op{kind: opSetAttr, who: who, key: attr, value: value}
	if err := b.changing("SetAttr", o); err != nil {
		return err
	}
	if _, _, err := b.checkSetAttr(who, attr, value); err != nil {
		return err
	}
	return b.run(ctx, o)
}

// changing says whether a change may be made now: from the host between
// its calls, or from a Go hook, dice or a decider in one (see run).
func (b *Battle) changing(what string, o op) error {
	if b.prog == nil {
		return fmt.Errorf("%s: the Battle has no ruleset: make one with Program.NewBattle or Program.Restore", what)
	}
	if b.running && b.hookLog == nil {
		return fmt.Errorf("%s: %w", what, ErrInCallback)
	}
	if !b.running && b.pend != nil && !b.op.same(o) {
		return fmt.Errorf("%s: %w", what, b.pendingError())
	}
	return nil
}

func (b *Battle) setAttrOp(ctx context.Context, who, attr string, value any) error {
	if _, err := b.setAttr(who, attr, value); err != nil {
		return err
	}
	return b.rewatch(ctx, attr)
}

// CheckSetAttr returns the error SetAttr would return for the change, or
// nil, without making it: for a change checked before it is played (a
// scenario's `set`, which turnorder check reports in SetAttr's words, or
// a form's field).
func (b *Battle) CheckSetAttr(who, attr string, value any) error {
	_, _, err := b.checkSetAttr(who, attr, value)
	return err
}

// setAttr is SetAttr without the recomputation: it checks the change,
// makes it and reports whether the value changed.
func (b *Battle) setAttr(who, attr string, value any) (changed bool, err error) {
	dst, v, err := b.checkSetAttr(who, attr, value)
	if err != nil {
		return false, err
	}
	if old, had := dst[attr]; had && old == v {
		return false, nil
	}
	dst[attr] = v
	b.changed()
	b.emit(Event{Kind: EvSet, Subject: who, Detail: fmt.Sprintf("%s of %s is now %v", attr, who, v)})
	return true, nil
}

// checkSetAttr checks a change of an attribute: it returns the attributes
// of who, which the change is to, and the value converted to the
// attribute's type.
func (b *Battle) checkSetAttr(who, attr string, value any) (dst map[string]any, v any, err error) {
	var decl []Attr
	if s := b.sideByNm[who]; s != nil {
		dst, decl = s.Attrs, b.prog.sideAttrs
	} else if u := b.unitByNm[who]; u != nil {
		dst, decl = u.Attrs, b.prog.unitAttrs
	} else {
		if _, gone := b.removed[who]; gone {
			return nil, nil, markErrorf(ErrInvalidChange, "set %s of %s: %s", attr, who, b.noUnit(who))
		}
		return nil, nil, markErrorf(ErrInvalidChange, "set %s of %s: no side or unit is called %s", attr, who, who)
	}
	i := slices.IndexFunc(decl, func(a Attr) bool { return a.Name == attr })
	if i < 0 {
		if hint := b.otherKindsAttr(who, attr); hint != "" {
			return nil, nil, markErrorf(ErrInvalidChange, "set %s of %s: %s", attr, who, hint)
		}
		return nil, nil, markErrorf(ErrInvalidChange, "set %s of %s: %s has no attribute %s (declared: %s)", attr, who, who, attr, wording.OrNone(attrNames(decl)))
	}
	v, err = decl[i].convert(value)
	if err != nil {
		return nil, nil, markErrorf(ErrInvalidChange, "set %s of %s: %v", attr, who, err)
	}
	return dst, v, nil
}

// SetStatus gives a unit a status or takes it away. Standings that watch
// the status are recomputed at once, as for SetAttr.
func (b *Battle) SetStatus(ctx context.Context, unit, status string, on bool) error {
	o := op{kind: opSetStatus, who: unit, key: status, on: on}
	if err := b.changing("SetStatus", o); err != nil {
		return err
	}
	if b.unitByNm[unit] == nil {
		return markErrorf(ErrInvalidChange, "status %s: %s", status, b.noUnit(unit))
	}
	if !slices.Contains(b.prog.statuses, status) {
		return markErrorf(ErrInvalidChange, "status %s: unknown status (declared: %s)", status, wording.OrNone(b.prog.statuses))
	}
	return b.run(ctx, o)
}

func (b *Battle) setStatus(ctx context.Context, unit, status string, on bool) error {
	u := b.unitByNm[unit]
	if u == nil {
		return markErrorf(ErrInvalidChange, "status %s: %s", status, b.noUnit(unit))
	}
	if u.Status[status] == on {
		return b.rewatch(ctx, status)
	}
	detail := fmt.Sprintf("%s is now %s", unit, status)
	if on {
		u.Status[status] = true
		if u.Ready && b.InRound() && !slices.Contains(b.cur.Kept, unit) {
			b.cur.Kept = append(b.cur.Kept, unit)
		}
	} else {
		delete(u.Status, status)
		detail = fmt.Sprintf("%s is no longer %s", unit, status)
	}
	b.changed()
	b.emit(Event{Kind: EvSet, Subject: unit, Detail: detail})
	return b.rewatch(ctx, status)
}

// RemoveUnit takes a unit out of the battle, as a casualty: it no longer
// counts in its side's units, holds no Ready marker and never activates
// again. Standings made once for the battle stay as they were; standings
// of units that watch values are made again without it (if that fails, the
// unit is gone all the same, and the next round makes them).
func (b *Battle) RemoveUnit(ctx context.Context, unit string) error {
	o := op{kind: opRemove, who: unit}
	if err := b.changing("RemoveUnit", o); err != nil {
		return err
	}
	if b.unitByNm[unit] == nil {
		return markErrorf(ErrInvalidChange, "remove %s: %s", unit, b.noUnit(unit))
	}
	return b.run(ctx, o)
}

func (b *Battle) removeUnit(ctx context.Context, unit string) error {
	u := b.unitByNm[unit]
	if u == nil {
		return markErrorf(ErrInvalidChange, "remove %s: %s", unit, b.noUnit(unit))
	}
	sideAt, unitAt := slices.Index(u.Side.Units, u), slices.Index(b.units, u)
	u.Side.Units = slices.Delete(u.Side.Units, sideAt, sideAt+1)
	b.units = slices.Delete(b.units, unitAt, unitAt+1)
	delete(b.unitByNm, unit)
	if b.removed == nil {
		b.removed = map[string]string{}
	}
	b.removed[unit] = u.Side.Name
	b.unitsChanged()
	b.emit(Event{Kind: EvRemoved, Subject: unit, By: u.Side.Name})
	return b.unitsRewatched(ctx)
}

// unitsRewatched makes again, after a unit left or joined the battle, the
// standings of units that watch values (`until changed`), which place
// every unit; standings made once stay as they were.
func (b *Battle) unitsRewatched(ctx context.Context) error {
	for _, ph := range b.prog.phases {
		for _, o := range ordersIn(ph) {
			if o.units && o.scope.kind == dsl.UntilChanged && b.standings[o.id] != nil {
				if err := b.recompute(ctx, o); err != nil {
					return err
				}
			}
		}
	}
	if b.playing() {
		b.setRoundHolder()
	}
	return nil
}

// unitsChanged forgets what was worked out from the list of units.
func (b *Battle) unitsChanged() {
	b.names = [2][]string{}
	b.orders[1] = interned{}
	b.genv = [2]reflect.Value{}
	b.changed()
}

// otherKindsAttr says, when attr is not who's but is declared for the
// other kind (a unit's attribute set of a side, or a side's of a unit),
// where to set it instead; "" otherwise.
func (b *Battle) otherKindsAttr(who, attr string) string {
	has := func(decl []Attr) bool { return slices.ContainsFunc(decl, func(a Attr) bool { return a.Name == attr }) }
	if s := b.sideByNm[who]; s != nil && has(b.prog.unitAttrs) {
		names := make([]string, len(s.Units))
		for i, u := range s.Units {
			names[i] = u.Name
		}
		return fmt.Sprintf("%s is a side, and %s is a unit attribute: set it of one of its units (%s)", who, attr, wording.OrNone(names))
	}
	if u := b.unitByNm[who]; u != nil && has(b.prog.sideAttrs) {
		return fmt.Sprintf("%s is a unit, and %s is a side attribute: set it of its side (%s)", who, attr, u.Side.Name)
	}
	return ""
}

// noUnit says that no unit is called name, or that it was removed, for a
// host that holds on to a casualty's name.
func (b *Battle) noUnit(name string) string {
	if side, gone := b.removed[name]; gone {
		return fmt.Sprintf("%s (of %s) was removed from the battle", name, side)
	}
	return "no unit is called " + name
}

// MakeReady puts a Ready marker on a unit, such as when a skill lets a model
// activate again.
func (b *Battle) MakeReady(unit string) error {
	o := op{kind: opReady, who: unit}
	if err := b.changing("MakeReady", o); err != nil {
		return err
	}
	if b.unitByNm[unit] == nil {
		return markErrorf(ErrInvalidChange, "ready %s: %s", unit, b.noUnit(unit))
	}
	return b.run(context.Background(), o)
}

func (b *Battle) makeReady(unit string) error {
	u := b.unitByNm[unit]
	if u == nil {
		return markErrorf(ErrInvalidChange, "ready %s: %s", unit, b.noUnit(unit))
	}
	if !u.Ready {
		u.Ready = true
		if b.InRound() {
			b.cur.Readied = append(b.cur.Readied, u.Name)
		}
		b.changed()
		b.emit(Event{Kind: EvReady, Subject: u.Name, By: u.Side.Name})
	}
	return nil
}

// SetHolder gives priority to a side (or, for a standing of units, a unit)
// for the round under way: it goes first in this round's order. The
// standing itself is left alone, so the override lasts one round even when
// the order is kept for the whole battle. Set once sides have begun to
// take turns, it leaves the turn with the side whose turn it is (see
// Battle). Before the order is first made it returns ErrNoOrder, and with
// no round under way ErrNoRound.
func (b *Battle) SetHolder(name string) error {
	o := op{kind: opHolder, who: name}
	if err := b.changing("SetHolder", o); err != nil {
		return err
	}
	if err := b.holderRefusal(name); err != nil {
		return err
	}
	return b.run(context.Background(), o)
}

// holderRefusal returns SetHolder's refusal of name, or nil.
func (b *Battle) holderRefusal(name string) error {
	if !b.InRound() {
		return fmt.Errorf("holder %s: %w", name, ErrNoRound)
	}
	if b.prog.main == nil {
		return markErrorf(ErrNoOrder, "holder %s: ruleset %s has no order of sides, so no side holds priority", name, b.prog.name)
	}
	st := b.mainStanding()
	if st == nil {
		return markErrorf(ErrNoOrder, "holder %s: order %s is not made yet (set the holder once it is, such as at the end of its step)", name, b.prog.main.name)
	}
	if !slices.Contains(st.Order, name) {
		return markErrorf(ErrInvalidChange, "holder %s: %s is not in order %s (%s)", name, name, st.Name, strings.Join(st.Order, ", "))
	}
	return nil
}

func (b *Battle) setHolder(name string) error {
	if err := b.holderRefusal(name); err != nil {
		return err
	}
	due := b.dueSide(b.prog.main)
	b.cur.Holder, b.cur.Override = name, name
	b.keepTurn(due)
	b.changed()
	b.emit(Event{Kind: EvHolder, Subject: name, Detail: "set by a special rule"})
	return nil
}

// roundOrder is this round's order of a standing: the standing, with a
// holder set by a special rule moved to the front.
func (b *Battle) roundOrder(st *Standing) []string {
	if st == nil {
		return nil
	}
	if b.prog.main == nil || st.Name != b.prog.main.name {
		return st.Order
	}
	return b.overridden(st.Order)
}

// overridden returns the main order with the holder SetHolder chose for
// the round under way first.
func (b *Battle) overridden(order []string) []string {
	if b.cur == nil || b.cur.Override == "" || b.cur.Round != b.round || len(order) > 0 && order[0] == b.cur.Override {
		return order
	}
	out := make([]string, 0, len(order))
	out = append(out, b.cur.Override)
	for _, n := range order {
		if n != b.cur.Override {
			out = append(out, n)
		}
	}
	return out
}

// view caches the values expressions read, rebuilt after changes.
type view struct {
	version int
	units   []reflect.Value // unit structs, in b.units order
	sides   []reflect.Value // side structs, in b.sides order
	allU    reflect.Value   // []unit
	allS    reflect.Value   // []side
	mem     reflect.Value
	sideEnv []reflect.Value // per side, its subject environment
	unitEnv []reflect.Value
	orders  []reflect.Value // by order id: what it reads as (see orderValue)
}

func (b *Battle) currentView() *view {
	if b.view != nil && b.view.version == b.version {
		return b.view
	}
	t := b.prog.types
	v := &view{version: b.version}
	v.allU = reflect.MakeSlice(reflect.SliceOf(t.unit), len(b.units), len(b.units))
	for i, u := range b.units {
		uv := v.allU.Index(i)
		b.fillUnit(uv, u)
		v.units = append(v.units, uv)
	}
	v.allS = reflect.MakeSlice(reflect.SliceOf(t.side), len(b.sides), len(b.sides))
	ui := 0
	for i, s := range b.sides {
		sv := v.allS.Index(i)
		sv.Field(t.sideIdx["name"]).SetString(s.Name)
		sv.Field(t.sideIdx["team"]).SetString(s.Team)
		sv.Field(t.sideIdx["units"]).Set(v.allU.Slice(ui, ui+len(s.Units)))
		ui += len(s.Units)
		for _, a := range b.prog.sideAttrs {
			sv.Field(t.sideIdx[a.Name]).Set(reflect.ValueOf(s.Attrs[a.Name]))
		}
		b.fillSideDecisions(sv, s.Name)
		v.sides = append(v.sides, sv)
	}
	v.mem = reflect.New(t.memory).Elem()
	v.mem.Field(t.memIdx["holder"]).SetString(b.memory.Holder)
	v.mem.Field(t.memIdx["chooser"]).SetString(b.memory.Chooser)
	v.mem.Field(t.memIdx["order"]).Set(reflect.ValueOf(slices.Clone(b.memory.Order)))
	for _, r := range b.prog.remember {
		if x, ok := b.memory.Values[r.name]; ok && x != nil {
			v.mem.Field(t.memIdx[r.name]).Set(reflect.ValueOf(x))
		}
	}
	for _, o := range b.prog.orderList {
		v.orders = append(v.orders, b.orderValue(o))
	}
	for i := range b.sides {
		e := reflect.New(t.sideEnv).Elem()
		copyFields(e, v.sides[i])
		b.fillCommon(e, t.sideEnvIdx, v)
		v.sideEnv = append(v.sideEnv, e)
	}
	sideOf := make(map[*Side]int, len(b.sides))
	for i, s := range b.sides {
		sideOf[s] = i
	}
	for i, u := range b.units {
		e := reflect.New(t.unitEnv).Elem()
		copyFields(e, v.units[i])
		b.fillCommon(e, t.unitEnvIdx, v)
		e.Field(t.unitEnvIdx[mySide]).Set(v.sides[sideOf[u.Side]])
		v.unitEnv = append(v.unitEnv, e)
	}
	b.view = v
	return v
}

// units are laid out in side order, so a side's units are a subslice; the
// battle keeps b.units in that order (NewBattle appends side by side).
func (b *Battle) fillUnit(uv reflect.Value, u *Unit) {
	t := b.prog.types
	uv.Field(t.unitIdx["name"]).SetString(u.Name)
	uv.Field(t.unitIdx["side"]).SetString(u.Side.Name)
	uv.Field(t.unitIdx["team"]).SetString(u.Side.Team)
	uv.Field(t.unitIdx["ready"]).SetBool(u.Ready)
	for _, a := range b.prog.unitAttrs {
		uv.Field(t.unitIdx[a.Name]).Set(reflect.ValueOf(u.Attrs[a.Name]))
	}
	for _, s := range b.prog.statuses {
		uv.Field(t.unitIdx[s]).SetBool(u.Status[s])
	}
}

// copyFields copies src's fields into the leading fields of dst (subject
// environments start with the subject's own fields).
func copyFields(dst, src reflect.Value) {
	for i := 0; i < src.NumField(); i++ {
		dst.Field(i).Set(src.Field(i))
	}
}

func (b *Battle) fillCommon(e reflect.Value, idx map[string]int, v *view) {
	e.Field(idx["round"]).SetInt(int64(b.round))
	e.Field(idx["previous"]).Set(v.mem)
	e.Field(idx["sides"]).Set(v.allS)
	for i, o := range b.prog.orderList {
		// An order named as another field is a compile error, but the
		// example's battle is made all the same.
		if k, ok := idx[o.name]; ok && e.Field(k).Type() == v.orders[i].Type() {
			e.Field(k).Set(v.orders[i])
		}
	}
	b.fillCommonDecisions(e, idx)
}

// groupEnv is the environment of tie guards, awards and handlers.
func (b *Battle) groupEnv(units bool, tied []int) reflect.Value {
	t := b.prog.types
	v := b.currentView()
	k, typ, src := 0, t.groupSides, v.sides
	if units {
		k, typ, src = 1, t.groupUnits, v.units
	}
	e := b.genv[k]
	if !e.IsValid() {
		e = reflect.New(typ).Elem()
		b.genv[k] = e
	}
	// A fresh slice each time: expressions may keep what they are given.
	tf := e.Field(t.groupIdx["tied"])
	ts := reflect.MakeSlice(tf.Type(), len(tied), len(tied))
	for i, j := range tied {
		ts.Index(i).Set(src[j])
	}
	tf.Set(ts)
	holder, chooser := "", ""
	if b.cur != nil {
		holder, chooser = b.cur.Holder, b.cur.Chooser
	}
	e.Field(t.groupIdx["holder"]).SetString(holder)
	e.Field(t.groupIdx["chooser"]).SetString(chooser)
	e.Field(t.groupIdx["units"]).Set(v.allU)
	b.fillCommon(e, t.groupIdx, v)
	return e
}

// eval runs a compiled expression in env.
func (b *Battle) eval(c *compiled, env reflect.Value) (any, error) {
	return b.vm.Run(c.prog, env.Interface())
}

// evalGroup runs an expression of the group environment (tie guards,
// awards, handlers) with tied as the group.
func (b *Battle) evalGroup(c *compiled, units bool, tied []int) (any, error) {
	if c.decisions != nil {
		if err := b.checkReadsDecided(c); err != nil {
			return nil, err
		}
	}
	if c.fast != nil {
		return c.fast.value(fenv{b: b, tied: tied}), nil
	}
	return b.eval(c, b.groupEnv(units, tied))
}

// groupString runs a group expression that names someone, without boxing
// the name when it runs natively.
func (b *Battle) groupString(c *compiled, units bool, tied []int) (string, error) {
	if c.fast != nil && c.fast.s != nil {
		return c.fast.s(fenv{b: b, tied: tied}), nil
	}
	out, err := b.evalGroup(c, units, tied)
	if err != nil || out == nil {
		return "", err
	}
	s, ok := out.(string)
	if !ok {
		// Only a type the compiler could not know gets here, as a
		// side where its name is wanted: `first(filter(tied, ...))`.
		got := b.prog.types.friendly(reflect.TypeOf(out).String())
		if got == "side" || got == "unit" {
			src := c.src
			if !postfixExpr.MatchString(src) {
				src = "(" + src + ")"
			}
			return "", fmt.Errorf("it is a %s, not a name: write %s for its name", got, quoteSrc(src+".name"))
		}
		return "", fmt.Errorf("it is %v (%s), not a name", out, got)
	}
	return s, nil
}

// evalSubject runs an expression of subject i, a side or a unit.
func (b *Battle) evalSubject(c *compiled, units bool, i int) (any, error) {
	if c.decisions != nil {
		if err := b.checkReadsDecided(c); err != nil {
			return nil, err
		}
	}
	if c.fast != nil {
		return c.fast.value(fenv{b: b, subj: i}), nil
	}
	v := b.currentView()
	var e reflect.Value
	idx := b.prog.types.sideEnvIdx
	if units {
		e, idx = v.unitEnv[i], b.prog.types.unitEnvIdx
	} else {
		e = v.sideEnv[i]
	}
	// Set at each run, as a group's are: the view is not made again when
	// the round's holder is decided.
	e.Field(idx["holder"]).SetString(b.Holder())
	e.Field(idx["chooser"]).SetString(b.Chooser())
	return b.eval(c, e)
}
