package runtime_test

// TestGeneratedRulesets plays hundreds of generated rulesets (and the
// bundled ones) in four ways: with the transcript on, with it off, with a
// host's dice, decider and hooks, and through snapshots and clones between
// rounds. Every way must play the same rounds, and nothing may panic.
// It plays a sample of them, a larger one with the long tests.
//
// It is also a differential check for changes to the engine: with $DIFFDUMP
// set it plays every ruleset and writes everything observable to that
// file, one fact a line, in a stable order. Produce a dump before and after
// a change and compare them:
//
//	DIFFDUMP=/tmp/before.txt go test ./runtime -run TestGeneratedRulesets -count=1
//
// It uses only the package's exported API, so it runs unchanged against a
// rewritten engine.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/longtest"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

const (
	ddRulesets = 440 // generated rulesets
	ddSeeds    = 6   // seeds 1..ddSeeds per ruleset and setup
	ddRounds   = 8
	// Without a dump, a sample. Each ruleset comes from its index alone,
	// so a sample plays a part of what the dump plays.
	ddSampleRulesets, ddSampleSeeds = 150, 3 // with the long tests
	ddShortRulesets, ddShortSeeds   = 40, 2  // by default
)

// ---------------------------------------------------------------------------
// The generator.

type ddGen struct {
	r *rand.Rand
}

func (g *ddGen) n(k int) int              { return g.r.IntN(k) }
func (g *ddGen) p(x float64) bool         { return g.r.Float64() < x }
func (g *ddGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// ddPassConds are conditions on passing for generated rulesets.
var ddPassConds = []string{
	"count(units, .ready) < max(map(sides, count(.units, .ready)))",
	"round % 2 == 1",
	"len(units) > 1 && name != sides[0].name",
}

// ddCase is one generated (or bundled) ruleset with the sides it is played with.
type ddCase struct {
	name   string
	src    string
	setups [][]runtime.SideSpec
	limits *runtime.Limits
}

type ddOrd struct {
	name  string
	units bool
	// main: the order is the main standing (so holder is set after it).
	main bool
}

// ddRS holds the state of one ruleset being generated.
type ddRS struct {
	g        *ddGen
	allTeam  bool // every side on one team
	hasUnits bool
	streak   bool // remember streak is declared
	orders   []ddOrd
	done     []ddOrd // orders written so far (for ORDER.first roles)
	mainDone bool    // the main order is written before the current one
}

var (
	ddSideNames = []string{"Ann", "Bob", "Cid", "Dee", "Eve"}
	ddSideVals  = []string{"morale", "bid", "len(units)", "count(units)", "sum(units, .agi)", "sum(units, .mv)",
		"morale + bid", "(round % 2 == 0 ? morale : bid)", "count(units, .ready)", "count(units, .pinned)",
		"-morale", "len(name)", "(team == \"Red\" ? 1 : 0)", "min(morale, 2)"}
	ddUnitVals = []string{"agi", "agi", "mv", "agi + mv", "(pinned ? 0 : 1)", "-agi", "(ready ? 1 : 0)",
		"agi * 2 - mv", "len(side)", "(round > 2 ? agi : mv)", "(team == \"Blue\" ? agi : 0)"}
	ddSideMods = []string{" + morale", " - bid", " + len(units)", " + len(sides)", " + round % 2"}
	ddUnitMods = []string{" + agi", " - mv", " + round % 2", " + (pinned ? 0 : 1)"}
	ddDice     = []string{"d6", "d6", "d6", "d6", "d3", "d2", "2d6", "d4", "d8", "d20"}
)

func (s *ddRS) sides(nSides int) []runtime.SideSpec {
	g := s.g
	teamMode := g.n(4)
	s.allTeam = teamMode == 2
	var out []runtime.SideSpec
	for i := 0; i < nSides; i++ {
		sp := runtime.SideSpec{Name: ddSideNames[i]}
		switch teamMode {
		case 1:
			sp.Team = []string{"Red", "Blue"}[i%2]
		case 2:
			sp.Team = "Red"
		case 3:
			sp.Team = g.pick("", "Red", "Blue")
		}
		attrs := map[string]any{}
		if g.p(0.7) {
			attrs["morale"] = 1 + g.n(3)
		}
		if g.p(0.5) {
			attrs["bid"] = g.n(3)
		}
		if len(attrs) > 0 {
			sp.Attrs = attrs
		}
		nu := []int{0, 1, 1, 1, 2, 2, 2, 2, 3, 3}[g.n(10)]
		for k := 1; k <= nu; k++ {
			u := runtime.UnitSpec{Name: fmt.Sprintf("%s%d", strings.ToLower(sp.Name), k)}
			ua := map[string]any{}
			if g.p(0.85) {
				ua["agi"] = 1 + g.n(4)
			}
			if g.p(0.5) {
				ua["mv"] = 2 + g.n(4)
			}
			if len(ua) > 0 {
				u.Attrs = ua
			}
			if g.p(0.15) {
				u.Statuses = []string{"pinned"}
			}
			sp.Units = append(sp.Units, u)
			s.hasUnits = true
		}
		out = append(out, sp)
	}
	return out
}

func (s *ddRS) value(units bool) string {
	if units {
		return s.g.pick(ddUnitVals...)
	}
	return s.g.pick(ddSideVals...)
}

func (s *ddRS) roll(units bool) string {
	g := s.g
	dir := "highest"
	if g.p(0.25) {
		dir = "lowest"
	}
	r := dir + " roll " + g.pick(ddDice...)
	if g.p(0.3) {
		if units {
			r += g.pick(ddUnitMods...)
		} else {
			r += g.pick(ddSideMods...)
		}
	}
	return r
}

func (s *ddRS) primary(units bool) (string, bool) {
	g := s.g
	switch k := g.n(100); {
	case k < 45:
		return g.pick("highest ", "lowest ") + s.value(units), false
	default:
		return s.roll(units), true
	}
}

// plainGuard is a guard that is always safe to evaluate.
func (s *ddRS) plainGuard() string {
	pool := []string{"round == 1", "round > 1", "round % 2 == 0", "len(tied) == 2", "len(tied) >= 3",
		"len(sides) == 2", "len(sides) > 2", "same_team(tied)", "previous.holder != \"\"",
		"round == 1 and len(tied) == 2", "any(tied, .name == previous.holder)", "len(units) > 3",
		"not same_team(tied)"}
	if s.streak {
		pool = append(pool, "(previous.streak ?? 0) >= 2")
	}
	return s.g.pick(pool...)
}

// choice returns a choice criterion and, when it needs one, a guard that
// makes it safe inside a tie rule ("" if none is needed). top: the choice
// is at the top of an order's chain (no guard possible).
func (s *ddRS) choice(o ddOrd, top, resolved bool) (string, string) {
	g := s.g
	kinds := []string{"first", "before_after", "order", ""}
	kind := g.pick(kinds...)
	var roles []string
	if resolved {
		roles = append(roles, "winner", "winner", "winner", "loser")
	}
	if !top {
		roles = append(roles, "team", "previous.holder", "previous.chooser", "holder", "chooser")
	}
	if s.allTeam {
		roles = append(roles, "team")
	}
	if s.mainDone {
		roles = append(roles, "holder")
	}
	for _, d := range s.done {
		roles = append(roles, d.name+"."+g.pick("first", "last"))
	}
	if len(roles) == 0 || g.p(0.04) {
		roles = append(roles, "winner", "previous.holder", "chooser") // sometimes an error in play
	}
	role := g.pick(roles...)
	if role == "team" && kind == "before_after" {
		kind = "order" // a team has no place of its own: a compile error
	}
	var def string
	switch kind {
	case "first":
		def = g.pick("", "self", "other", "keep")
	case "before_after":
		def = g.pick("", "before", "after")
	default:
		def = g.pick("", "keep", "reverse")
	}
	c := "choice "
	if kind != "" {
		c += kind + " "
	}
	c += "by " + role
	if def != "" {
		c += " default " + def
	}
	guard := ""
	switch role {
	case "team":
		guard = "same_team(tied)"
	case "previous.holder", "previous.chooser", "holder", "chooser":
		if kind == "before_after" {
			guard = role + " in map(tied, .name)"
		} else {
			guard = role + " != \"\""
		}
	}
	return c, guard
}

// award returns an award criterion and the guard that makes it safe.
func (s *ddRS) award() (string, string) {
	g := s.g
	not := ""
	if g.p(0.5) {
		not = "not "
	}
	switch g.n(9) {
	case 0, 6:
		return "award " + not + "tied[0].name", ""
	case 1, 7:
		return "award " + not + "tied[len(tied)-1].name", ""
	case 8:
		return "award " + not + "(round % 2 == 0 ? tied[0].name : tied[len(tied)-1].name)", ""
	case 2:
		return "award " + not + "previous.holder", "previous.holder in map(tied, .name)"
	case 3:
		return "award " + not + "previous.chooser", "previous.chooser in map(tied, .name)"
	case 4:
		return "award " + not + "holder", "holder in map(tied, .name)"
	}
	return "award " + not + "chooser", "chooser in map(tied, .name)"
}

// tieSet writes a set of tie rules. rolled: a roll comes before it in this
// chain or an enclosing one. mustResolve: the last rule is unguarded and
// resolves every tie.
func (s *ddRS) tieSet(w *ddWriter, o ddOrd, depth int, rolled, mustResolve bool) {
	g := s.g
	n := 1 + g.n(3)
	for k := 0; k < n; k++ {
		last := k == n-1
		action, need := s.tieAction(w, o, depth, rolled, last && mustResolve)
		guard := need
		if guard == "" && !(last && (mustResolve || g.p(0.6))) {
			guard = s.plainGuard()
		} else if guard != "" && g.p(0.5) {
			guard = "(" + guard + ") and (" + s.plainGuard() + ")"
		}
		if need != "" && g.p(0.06) {
			guard = s.plainGuard() // unsafe on purpose: errors in play are behaviour too
		}
		if last && mustResolve {
			guard = ""
		}
		head := "tie"
		if guard != "" {
			head += " when " + guard
		}
		if action.block == nil {
			w.line(head + ": " + action.crit)
			continue
		}
		w.line(head + " {")
		w.in++
		action.block(w)
		w.in--
		w.line("}")
	}
}

type ddAction struct {
	crit  string
	block func(w *ddWriter)
}

func (s *ddRS) tieAction(w *ddWriter, o ddOrd, depth int, rolled, resolve bool) (ddAction, string) {
	g := s.g
	if resolve {
		if rolled && g.p(0.75) {
			return ddAction{crit: "reroll"}, ""
		}
		if depth < 2 && g.p(0.5) {
			return ddAction{block: func(w *ddWriter) { s.block(w, o, depth+1, true) }}, ""
		}
		return ddAction{crit: "random"}, ""
	}
	for {
		switch k := g.n(18); {
		case k < 4:
			if rolled {
				return ddAction{crit: "reroll"}, ""
			}
		case k < 9:
			c, guard := s.award()
			return ddAction{crit: c}, guard
		case k < 11:
			return ddAction{crit: "random"}, ""
		case k < 13:
			c, guard := s.choice(o, false, false)
			return ddAction{crit: c}, guard
		case k < 14:
			c, _ := s.primary(o.units)
			return ddAction{crit: c}, ""
		default:
			if depth < 3 {
				return ddAction{block: func(w *ddWriter) { s.block(w, o, depth+1, g.p(0.7)) }}, ""
			}
		}
	}
}

// block writes the criteria of a tie rule's block.
func (s *ddRS) block(w *ddWriter, o ddOrd, depth int, resolve bool) {
	g := s.g
	rolled := false
	n := 1 + g.n(2)
	for k := 0; k < n; k++ {
		var c string
		var r bool
		if k == 0 && g.p(0.7) {
			c, r = s.roll(o.units), true
		} else {
			c, r = s.primary(o.units)
		}
		rolled = rolled || r
		w.line(c)
	}
	if g.p(0.85) {
		s.tieSet(w, o, depth, rolled, resolve)
	} else {
		resolve = false
	}
	if g.p(0.35) {
		c, guard := s.choice(o, true, resolve)
		if guard == "" {
			w.line(c)
		}
	}
}

// chain writes an order's criteria.
func (s *ddRS) chain(w *ddWriter, o ddOrd) {
	g := s.g
	n := 1 + g.n(3)
	if g.p(0.1) {
		n = 0 // only tie rules and choices, or random
	}
	rolled := false
	random := false
	for k := 0; k < n; k++ {
		if k == n-1 && g.p(0.08) {
			w.line("random")
			random = true
			break
		}
		c, r := s.primary(o.units)
		rolled = rolled || r
		w.line(c)
		if g.p(0.05) {
			c, guard := s.award()
			if guard == "" {
				w.line(c)
			}
		}
	}
	if n == 0 && g.p(0.3) {
		w.line("random")
		random = true
	}
	wantChoice := g.p(0.35)
	resolve := wantChoice || g.p(0.6)
	if !random && g.p(0.9) {
		s.tieSet(w, o, 0, rolled, resolve)
	} else if !random {
		resolve = false
	}
	if random {
		resolve = true
	}
	if wantChoice {
		c, guard := s.choice(o, true, resolve)
		if guard == "" {
			w.line(c)
		}
	}
	if g.p(0.03) {
		w.line("quote \"a rule\"")
	}
}

type ddWriter struct {
	b  strings.Builder
	in int
}

func (w *ddWriter) line(s string) {
	w.b.WriteString(strings.Repeat("  ", w.in))
	w.b.WriteString(s)
	w.b.WriteString("\n")
}

func (s *ddRS) scope(units bool) string {
	g := s.g
	k := g.n(100)
	if units {
		switch {
		case k < 35:
			return ""
		case k < 40:
			return " each round"
		case k < 50:
			return " once"
		case k < 80:
			return " until changed agi"
		case k < 90:
			return " until changed agi, mv"
		default:
			return " until changed agi, pinned"
		}
	}
	switch {
	case k < 45:
		return ""
	case k < 55:
		return " each round"
	case k < 65:
		return " once"
	case k < 80:
		return " until changed morale"
	case k < 88:
		return " until changed morale, bid"
	case k < 94:
		return " until changed agi"
	default:
		return " until changed bid"
	}
}

func ddGenerate(idx int) ddCase {
	g := &ddGen{r: rand.New(rand.NewPCG(0x7a11ed, uint64(idx)))}
	s := &ddRS{g: g}
	nSides := []int{2, 2, 2, 3, 3, 3, 4, 4, 5}[g.n(9)]
	sides := s.sides(nSides)
	s.streak = g.p(0.15)

	nOrders := []int{1, 1, 1, 2, 2, 2, 3, 3}[g.n(8)]
	for k := 1; k <= nOrders; k++ {
		s.orders = append(s.orders, ddOrd{name: fmt.Sprintf("o%d", k), units: s.hasUnits && g.p(0.4)})
	}
	// Activation, and so the main standing.
	activation := ""
	mainIdx := 0
	if s.hasUnits && g.p(0.5) {
		var sideOrds, unitOrds []int
		for i, o := range s.orders {
			if o.units {
				unitOrds = append(unitOrds, i)
			} else {
				sideOrds = append(sideOrds, i)
			}
		}
		switch {
		case len(unitOrds) > 0 && (len(sideOrds) == 0 || g.p(0.4)):
			mainIdx = unitOrds[g.n(len(unitOrds))]
			activation = "activation unit_order by " + s.orders[mainIdx].name
		case len(sideOrds) > 0:
			mainIdx = sideOrds[g.n(len(sideOrds))]
			activation = "activation " + g.pick("alternate", "alternate", "sequential") + " by " + s.orders[mainIdx].name
			pass, def := g.p(0.3), ""
			if g.p(0.3) {
				def = " default " + g.pick("first", "last")
			}
			// Some passes have a condition, chosen by idx, not drawn, so
			// that every other ruleset stays as it was.
			switch {
			case pass && idx%3 == 1:
				activation += def + " pass allowed when " + ddPassConds[idx/3%len(ddPassConds)]
			case pass:
				activation += " pass allowed" + def
			case idx%5 == 2:
				// Some that do not pass draw their sides from a bag
				// instead, chosen by idx too.
				activation = "activation draw by " + s.orders[mainIdx].name + def
			default:
				activation += def
			}
		}
	}
	s.orders[mainIdx].main = true

	w := &ddWriter{}
	w.line(fmt.Sprintf("ruleset g%03d \"generated %d\" {", idx, idx))
	w.in++
	switch g.n(3) {
	case 0:
		w.line("sides 2..")
	case 1:
		w.line("sides 2..5")
	default:
		if nSides == 2 {
			w.line("sides 2")
		} else {
			w.line("sides 2..")
		}
	}
	w.line("side attribute morale int = 2")
	w.line("side attribute bid int")
	w.line("unit attribute agi int = 3")
	w.line("unit attribute mv int = 4")
	w.line("unit status pinned")
	if s.streak {
		w.line("remember streak = (holder == previous.holder ? (previous.streak ?? 1) + 1 : 1)")
	}
	nPhases := 1
	if nOrders > 1 && g.p(0.5) {
		nPhases = 2
	}
	hooks := map[string]bool{}
	steps := []string{}
	phases := []string{}
	oi := 0
	for ph := 1; ph <= nPhases; ph++ {
		name := fmt.Sprintf("p%d", ph)
		phases = append(phases, name)
		sc := ""
		switch k := g.n(100); {
		case k < 15:
			sc = " each round"
		case k < 27:
			sc = " once"
		}
		w.line("phase " + name + sc + " {")
		w.in++
		if g.p(0.3) {
			w.line("hook start")
			hooks["start"] = true
		}
		// this phase's orders
		var mine []ddOrd
		if ph == nPhases {
			mine = s.orders[oi:]
		} else {
			mine = s.orders[oi : oi+1]
		}
		oi += len(mine)
		for _, o := range mine {
			inStep := g.p(0.3)
			if inStep {
				st := fmt.Sprintf("s%d", len(steps)+1)
				steps = append(steps, st)
				ssc := ""
				if g.p(0.2) {
					ssc = g.pick(" each round", " once")
				}
				w.line(fmt.Sprintf("step %q%s {", st, ssc))
				w.in++
			}
			subj := "sides"
			if o.units {
				subj = "units"
			}
			w.line(fmt.Sprintf("order %s as %s%s {", subj, o.name, s.scope(o.units)))
			w.in++
			s.chain(w, o)
			w.in--
			w.line("}")
			if inStep {
				if g.p(0.3) {
					w.line("hook mid")
					hooks["mid"] = true
				}
				w.in--
				w.line("}")
			}
			s.done = append(s.done, o)
			if o.main {
				s.mainDone = true
			}
		}
		if activation != "" && g.p(0.5) {
			w.line(g.pick("ready units unless pinned", "ready units where agi > 1", "ready units", "ready units unless pinned or mv > 4"))
		}
		if g.p(0.15) {
			w.line("hook tail")
			hooks["tail"] = true
		}
		w.in--
		w.line("}")
	}
	if activation != "" {
		w.line(activation)
	}
	// Special rules.
	if g.p(0.35) {
		handlers := []string{
			"on end of phase p1 when round % 3 == 2 and len(units) > 0 { set agi of units[0].name = round % 4 }",
			"on start of round when round == 3 { set morale of sides[len(sides)-1].name = 5 }",
			"on end of round when round % 2 == 1 { set bid of sides[0].name = round % 3 }",
			"on end of phase p1 { ready map(filter(units, .pinned), .name) }",
			"on start of phase p1 when round == 4 and len(units) > 1 { set agi of units[len(units)-1].name = 9 }",
		}
		if hooks["start"] {
			handlers = append(handlers, "on hook start when len(previous.order) > 0 and round % 2 == 0 { holder = previous.order[len(previous.order)-1] }")
		}
		if hooks["mid"] {
			handlers = append(handlers, "on hook mid when len(units) > 0 { set mv of units[0].name = round }")
		}
		if hooks["tail"] {
			handlers = append(handlers, "on hook tail when round == 2 { set morale of sides[0].name = 1 }")
		}
		if len(steps) > 0 {
			handlers = append(handlers, fmt.Sprintf("on end of step %q when round == 2 and len(units) > 0 { set agi of units[0].name = 2 }", steps[0]))
		}
		if len(phases) > 1 {
			handlers = append(handlers, "on start of phase p2 when round > 1 { set morale of sides[0].name = round % 3 }")
		}
		n := 1 + g.n(2)
		for k := 0; k < n; k++ {
			w.line(handlers[g.n(len(handlers))])
		}
	}
	w.in--
	w.line("}")
	c := ddCase{name: fmt.Sprintf("g%03d", idx), src: w.b.String(), setups: [][]runtime.SideSpec{sides}}
	if g.p(0.05) {
		c.limits = &runtime.Limits{MaxRerolls: 3 + g.n(5), MaxSteps: 10 + g.n(20)}
	}
	return c
}

// ---------------------------------------------------------------------------
// Declarations read back from a parsed ruleset.

type ddDecl struct {
	sideInts, unitInts, statuses, orders []string
}

func ddDecls(f *dsl.File) ddDecl {
	var d ddDecl
	var walk func(items []dsl.PhaseItem)
	walk = func(items []dsl.PhaseItem) {
		for _, it := range items {
			switch x := it.(type) {
			case *dsl.OrderStmt:
				d.orders = append(d.orders, string(x.Name))
			case *dsl.StepStmt:
				walk(x.Body)
			}
		}
	}
	for _, decl := range f.Decls {
		rs, ok := decl.(*dsl.Ruleset)
		if !ok {
			continue
		}
		for _, st := range rs.Body {
			switch x := st.(type) {
			case *dsl.AttrDecl:
				if x.Type.Name == "int" {
					if x.Of == "side" {
						d.sideInts = append(d.sideInts, string(x.Name))
					} else {
						d.unitInts = append(d.unitInts, string(x.Name))
					}
				}
			case *dsl.StatusDecl:
				for _, n := range x.Names {
					d.statuses = append(d.statuses, string(n))
				}
			case *dsl.PhaseStmt:
				walk(x.Body)
			}
		}
		break
	}
	return d
}

// ---------------------------------------------------------------------------
// Playing.

// ddChange is a change made by the host: an attribute, a status, or a
// casualty. Targets are picked by index among the battle's current sides
// or units when the change is made.
type ddChange struct {
	kind  string // "side", "unit", "status", "remove"
	attr  string
	pick  int
	value int
}

type ddPlan struct {
	split bool // StartRound, mid-round changes, Step..., EndRound
	mid   []ddChange
	after []ddChange
}

func ddPlans(d ddDecl, caseIdx, seed int) []ddPlan {
	r := rand.New(rand.NewPCG(uint64(seed)*0x9e37+1, uint64(caseIdx)*7919+13))
	change := func() (ddChange, bool) {
		switch k := r.IntN(100); {
		case k < 45 && len(d.unitInts) > 0:
			return ddChange{kind: "unit", attr: d.unitInts[r.IntN(len(d.unitInts))], pick: r.IntN(16), value: 1 + r.IntN(4)}, true
		case k < 70 && len(d.sideInts) > 0:
			return ddChange{kind: "side", attr: d.sideInts[r.IntN(len(d.sideInts))], pick: r.IntN(16), value: r.IntN(4)}, true
		case k < 85 && len(d.statuses) > 0:
			return ddChange{kind: "status", attr: d.statuses[r.IntN(len(d.statuses))], pick: r.IntN(16), value: r.IntN(2)}, true
		case k < 93:
			return ddChange{kind: "remove", pick: r.IntN(16)}, true
		}
		return ddChange{}, false
	}
	plans := make([]ddPlan, ddRounds)
	for i := range plans {
		p := &plans[i]
		if r.IntN(100) < 25 {
			p.split = true
			for n := r.IntN(3); n > 0; n-- {
				if c, ok := change(); ok {
					p.mid = append(p.mid, c)
				}
			}
		}
		if r.IntN(100) < 55 {
			for n := 1 + r.IntN(2); n > 0; n-- {
				if c, ok := change(); ok {
					p.after = append(p.after, c)
				}
			}
		}
	}
	return plans
}

func ddApply(ctx context.Context, b *runtime.Battle, c ddChange) (string, error) {
	var names []string // whom the change may pick
	if c.kind == "side" {
		for _, s := range b.Sides() {
			names = append(names, s.Name)
		}
	} else {
		for _, u := range b.Units() {
			names = append(names, u.Name)
		}
	}
	if len(names) == 0 || c.kind == "remove" && len(names) < 2 {
		return c.kind + ": too few to pick from", nil
	}
	who := names[c.pick%len(names)]
	switch c.kind {
	case "side", "unit":
		return fmt.Sprintf("set %s of %s = %d", c.attr, who, c.value), b.SetAttr(ctx, who, c.attr, c.value)
	case "status":
		return fmt.Sprintf("status %s of %s = %v", c.attr, who, c.value == 1), b.SetStatus(ctx, who, c.attr, c.value == 1)
	case "remove":
		return "remove " + who, b.RemoveUnit(ctx, who)
	}
	return "", fmt.Errorf("unknown change %q", c.kind)
}

type ddVariant int

const (
	ddFull  ddVariant = iota // transcript on, seeded dice, the ruleset's policy
	ddQuiet                  // transcript off, seeded dice, the ruleset's policy
	ddHost                   // host dice and a decider that answers otherwise, a Go hook, a cancellable context; transcript on for odd seeds
	// ddReload is ddFull with the battle snapshotted and restored (odd
	// rounds) or cloned (even rounds) after every round; it must play as
	// ddFull does. Only whether it does is dumped.
	ddReload
)

func (v ddVariant) String() string { return [...]string{"full", "quiet", "host", "reload"}[v] }

// ddOut collects a dump.
type ddOut struct {
	w *bufio.Writer
}

func (o *ddOut) f(format string, args ...any) {
	fmt.Fprintf(o.w, format, args...)
	o.w.WriteByte('\n')
}

func ddJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return "JSON ERROR: " + err.Error()
	}
	return string(data)
}

// ddHostDice is seeded dice seen through the Dice interface only (so the
// battle takes its general path) that records every request.
type ddHostDice struct {
	sd  *runtime.SeededDice
	log func(string)
}

func (d *ddHostDice) Roll(ctx context.Context, req runtime.RollRequest) ([]int, error) {
	out, err := d.sd.Roll(ctx, req)
	d.log(fmt.Sprintf("  dice roll r%d %s %v %dd%d attempt=%d mods=%v pos=%d:%d -> %v %v", req.Round, req.Standing, req.Subjects,
		req.Count, req.Faces, req.Attempt, req.Modifiers, req.Pos.Line, req.Pos.Column, out, err))
	return out, err
}

func (d *ddHostDice) Pick(ctx context.Context, req runtime.PickRequest) (int, error) {
	out, err := d.sd.Pick(ctx, req)
	d.log(fmt.Sprintf("  dice pick r%d %s %v pos=%d:%d -> %d %v", req.Round, req.Standing, req.Options, req.Pos.Line, req.Pos.Column, out, err))
	return out, err
}

func (d *ddHostDice) MarshalBinary() ([]byte, error) { return d.sd.MarshalBinary() }

// ddStats counts what the dump saw.
type ddStats struct {
	kinds      map[runtime.EventKind]int
	battles    int
	rounds     int
	errs       int
	panics     []string
	mismatches []string
	reloads    []string
}

// ddFirstDiff describes the first line where a and b differ, or returns "".
func ddFirstDiff(a, b []string) string {
	if slices.Equal(a, b) {
		return ""
	}
	k := 0
	for k < len(a) && k < len(b) && a[k] == b[k] {
		k++
	}
	msg := fmt.Sprintf("at line %d", k)
	if k < len(a) {
		msg += "\n  want: " + a[k]
	}
	if k < len(b) {
		msg += "\n  got:  " + b[k]
	}
	return msg
}

type ddBattle struct {
	p      *runtime.Program
	c      ddCase
	caseIx int
	setup  int
	sides  []runtime.SideSpec
	decl   ddDecl
	seed   int
	v      ddVariant
}

// ddResult is what the variants are compared by: lines, what every
// variant with the policy decider must agree on; evs, the transcript.
type ddResult struct {
	lines []string
	evs   []string
}

func (bt *ddBattle) play(out *ddOut, st *ddStats) (res ddResult) {
	label := fmt.Sprintf("%s setup %d seed %d %s", bt.c.name, bt.setup, bt.seed, bt.v)
	out.f("--- %s", label)
	defer func() {
		if r := recover(); r != nil {
			out.f("PANIC: %v", r)
			st.panics = append(st.panics, fmt.Sprintf("%s: %v\n%s\n%s", label, r, bt.c.src, debug.Stack()))
		}
	}()
	hang := time.AfterFunc(60*time.Second, func() {
		panic(fmt.Sprintf("TestGeneratedRulesets: %s has run for 60s (a hang?)\n%s", label, bt.c.src))
	})
	defer hang.Stop()

	ctx := context.Background()
	var hostLog []string
	logf := func(s string) { hostLog = append(hostLog, s) }
	flush := func() {
		for _, l := range hostLog {
			out.f("%s", l)
		}
		hostLog = hostLog[:0]
	}
	// The host variant plays with the transcript off for even seeds.
	transcript := bt.v != ddQuiet && !(bt.v == ddHost && bt.seed%2 == 0)
	opts := []runtime.BattleOption{runtime.WithTranscript(transcript)}
	switch bt.v {
	case ddFull, ddQuiet, ddReload:
		opts = append(opts, runtime.WithDice(runtime.NewSeededDice(uint64(bt.seed))))
	case ddHost:
		c, cancel := context.WithCancel(ctx)
		defer cancel()
		ctx = c
		n := 0
		opts = append(opts,
			runtime.WithDice(&ddHostDice{sd: runtime.NewSeededDice(uint64(bt.seed)), log: logf}),
			runtime.WithDecider(runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
				n++
				h := (bt.seed*7 + n*13 + bt.caseIx) % 9
				var ans []string
				switch {
				case h < 3:
					ans = d.Default
				case d.Kind == runtime.ChooseOrder:
					k := h % len(d.Options)
					ans = append(slices.Clone(d.Options[k:]), d.Options[:k]...)
					if h%2 == 0 {
						slices.Reverse(ans)
					}
				default:
					ans = []string{d.Options[h%len(d.Options)]}
				}
				logf(fmt.Sprintf("  decide %s by=%s self=%s r%d %s opts=%v default=%v pos=%d:%d -> %v", d.Kind, d.By, d.Self, d.Round,
					d.Standing, d.Options, d.Default, d.Pos.Line, d.Pos.Column, ans))
				return ans, nil
			})),
			runtime.WithHook(func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
				logf(fmt.Sprintf("  hook %s order=%v holder=%s chooser=%s", at, b.Order(), b.Holder(), b.Chooser()))
				return nil
			}))
	}
	b, err := bt.p.NewBattle(bt.sides, opts...)
	if err != nil {
		out.f("new battle: %v", err)
		res.lines = append(res.lines, "new battle error")
		return res
	}
	st.battles++
	fail := func(what string, err error) {
		flush()
		st.errs++
		out.f("ERROR %s: %v", what, err)
		res.lines = append(res.lines, "error "+what)
		out.f("after the error: round=%d inround=%v pending=%v order=%v holder=%q", b.Round(), b.InRound(), b.Pending() != nil, b.Order(), b.Holder())
	}
	plans := ddPlans(bt.decl, bt.caseIx*10+bt.setup, bt.seed)
	ok := true
	for round := 1; round <= ddRounds && ok; round++ {
		plan := plans[round-1]
		var rr *runtime.RoundResult
		var err error
		if plan.split {
			if err = b.StartRound(ctx); err != nil {
				fail(fmt.Sprintf("round %d start", round), err)
				break
			}
			flush()
			out.f("r%d started: order=%v holder=%q chooser=%q ready=%v", round, b.Order(), b.Holder(), b.Chooser(), b.ReadyUnits())
			for _, c := range plan.mid {
				what, err := ddApply(ctx, b, c)
				flush()
				out.f("r%d mid %s: %v", round, what, err)
				res.lines = append(res.lines, fmt.Sprintf("mid %s %v", what, err != nil))
				if err != nil {
					fail(fmt.Sprintf("round %d mid change", round), err)
					ok = false
					break
				}
				out.f("r%d now: order=%v holder=%q chooser=%q", round, b.Order(), b.Holder(), b.Chooser())
			}
			if !ok {
				break
			}
			for {
				done, err2 := b.Step(ctx)
				if err2 != nil {
					err = err2
					break
				}
				if done {
					break
				}
			}
			if err == nil {
				rr, err = b.EndRound(ctx)
			}
		} else {
			rr, err = b.PlayRound(ctx)
		}
		flush()
		if err != nil {
			fail(fmt.Sprintf("round %d", round), err)
			break
		}
		st.rounds++
		short := fmt.Sprintf("r%d order=%v holder=%q chooser=%q acts=%s", rr.Round, rr.Order, rr.Holder, rr.Chooser, ddJSON(rr.Activations))
		res.lines = append(res.lines, short)
		out.f("%s", short)
		if transcript {
			for _, e := range rr.Events {
				st.kinds[e.Kind]++
				line := fmt.Sprintf("  ev %s | %s", ddJSON(e), e.String())
				out.f("%s", line)
				res.evs = append(res.evs, line)
			}
		}
		for _, name := range bt.decl.orders {
			s := b.Standing(name)
			line := fmt.Sprintf("  standing %s %s", name, ddJSON(s))
			out.f("%s", line)
			res.lines = append(res.lines, line)
		}
		mem := b.Memory()
		out.f("  memory %s ready=%v", ddJSON(mem), b.ReadyUnits())
		res.lines = append(res.lines, ddJSON(mem))
		for _, c := range plan.after {
			what, err := ddApply(ctx, b, c)
			flush()
			out.f("r%d after %s: %v", round, what, err)
			res.lines = append(res.lines, fmt.Sprintf("after %s %v", what, err != nil))
			if err != nil {
				fail(fmt.Sprintf("after round %d", round), err)
				ok = false
				break
			}
			if transcript {
				// Between rounds the events are pending, and open the
				// next round's transcript: they are dumped with it.
				out.f("  order=%v", b.Order())
			}
		}
		if ok && bt.v == ddReload {
			if round%2 == 1 {
				data, err := b.Snapshot()
				if err != nil {
					fail("reload snapshot", err)
					break
				}
				nb, err := bt.p.Restore(data, runtime.WithDice(runtime.NewSeededDice(0)))
				if err != nil {
					fail("reload restore", err)
					break
				}
				b = nb
			} else {
				b = b.Clone()
			}
		}
	}
	flush()
	snap, err := b.Snapshot()
	if err != nil {
		out.f("snapshot error: %v", err)
		return res
	}
	out.f("snapshot:")
	out.w.Write(snap)
	out.w.WriteByte('\n')
	res.lines = append(res.lines, "snap "+ddStripEvents(snap))
	return res
}

// ddStripEvents removes the transcript from a snapshot, so that a battle
// played with the transcript off can be compared with one played with it on.
func ddStripEvents(snap []byte) string {
	var m map[string]any
	if err := json.Unmarshal(snap, &m); err != nil {
		return "bad snapshot: " + err.Error()
	}
	delete(m, "pending")
	if cur, ok := m["current"].(map[string]any); ok {
		delete(cur, "events")
	}
	return ddJSON(m)
}

func TestGeneratedRulesets(t *testing.T) {
	t.Parallel()
	generated, seeds := ddRulesets, ddSeeds
	var dump io.Writer = io.Discard
	if path := os.Getenv("DIFFDUMP"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		dump = f
	} else if !longtest.Enabled() {
		generated, seeds = ddShortRulesets, ddShortSeeds
	} else {
		generated, seeds = ddSampleRulesets, ddSampleSeeds
	}
	out := &ddOut{w: bufio.NewWriterSize(dump, 1<<20)}
	st := &ddStats{kinds: map[runtime.EventKind]int{}}

	var cases []ddCase
	for _, name := range rulesets.Names() {
		source, err := rulesets.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		src := source.Text
		c := ddCase{name: "bundled " + name, src: string(src)}
		var withUnits []runtime.SideSpec
		for _, n := range []string{"A", "B", "C"} {
			withUnits = append(withUnits, runtime.SideSpec{Name: n, Units: []runtime.UnitSpec{{Name: n + "1"}, {Name: n + "2"}}})
		}
		c.setups = [][]runtime.SideSpec{nil, // the example
			runtime.Sides("A", "B"), runtime.Sides("A", "B", "C"), runtime.Sides("A", "B", "C", "D"),
			withUnits[:2], withUnits}
		cases = append(cases, c)
	}
	for i := range generated {
		cases = append(cases, ddGenerate(i))
	}

	compiled, skipped := 0, 0
	var skippedWhy []string
	for ci, c := range cases {
		out.f("=== case %d %s", ci, c.name)
		for _, l := range strings.Split(strings.TrimRight(c.src, "\n"), "\n") {
			out.f("src| %s", l)
		}
		file, diags := dsl.Parse(c.name+".rules", []byte(c.src))
		if diags.HasErrors() {
			skipped++
			out.f("parse error: %v", diags)
			skippedWhy = append(skippedWhy, fmt.Sprintf("%s: parse: %v", c.name, diags))
			continue
		}
		var copts []runtime.Option
		if c.limits != nil {
			copts = append(copts, runtime.WithLimits(*c.limits))
			out.f("limits %+v", *c.limits)
		}
		p, err := runtime.Compile(file, copts...)
		if err != nil {
			skipped++
			out.f("compile error: %v", err)
			skippedWhy = append(skippedWhy, fmt.Sprintf("%s: compile: %v", c.name, err))
			continue
		}
		compiled++
		for _, w := range p.Warnings() {
			out.f("warning: %v", w)
		}
		decl := ddDecls(file)
		for si, sides := range c.setups {
			if sides == nil {
				sides = p.Example()
			}
			out.f("setup %d %s", si, ddJSON(sides))
			for seed := 1; seed <= seeds; seed++ {
				var got [4]ddResult
				for _, v := range []ddVariant{ddFull, ddQuiet, ddHost, ddReload} {
					bt := &ddBattle{p: p, c: c, caseIx: ci, setup: si, sides: sides, decl: decl, seed: seed, v: v}
					if v == ddReload {
						tmp := &ddStats{kinds: map[runtime.EventKind]int{}}
						got[v] = bt.play(&ddOut{w: bufio.NewWriter(io.Discard)}, tmp)
						st.panics = append(st.panics, tmp.panics...)
						continue
					}
					got[v] = bt.play(out, st)
				}
				if diff := ddFirstDiff(append(got[ddFull].lines, got[ddFull].evs...), append(got[ddReload].lines, got[ddReload].evs...)); diff != "" {
					msg := fmt.Sprintf("%s setup %d seed %d: snapshot/restore and clone change play: %s", c.name, si, seed, diff)
					out.f("RELOAD MISMATCH %s", msg)
					st.reloads = append(st.reloads, msg+"\n"+c.src)
				} else {
					out.f("reload: plays as full")
				}
				if !slices.Equal(got[ddFull].lines, got[ddQuiet].lines) {
					a, b := got[ddFull].lines, got[ddQuiet].lines
					k := 0
					for k < len(a) && k < len(b) && a[k] == b[k] {
						k++
					}
					msg := fmt.Sprintf("%s setup %d seed %d: transcript on and off differ at line %d", c.name, si, seed, k)
					if k < len(a) {
						msg += "\n  on:  " + a[k]
					}
					if k < len(b) {
						msg += "\n  off: " + b[k]
					}
					out.f("MISMATCH %s", msg)
					st.mismatches = append(st.mismatches, msg+"\n"+c.src)
				}
			}
		}
	}
	if err := out.w.Flush(); err != nil {
		t.Fatal(err)
	}
	t.Logf("rulesets: %d compiled, %d skipped (of %d; %d generated + %d bundled)", compiled, skipped, len(cases), generated, len(cases)-generated)
	for i, w := range skippedWhy {
		if i == 10 {
			t.Logf("  ... and %d more skipped", len(skippedWhy)-10)
			break
		}
		t.Logf("  skipped %s", w)
	}
	t.Logf("battles: %d, rounds played: %d, battles ended by an error: %d", st.battles, st.rounds, st.errs)
	var kinds []string
	for k := range st.kinds {
		kinds = append(kinds, string(k))
	}
	slices.Sort(kinds)
	var buf bytes.Buffer
	for _, k := range kinds {
		fmt.Fprintf(&buf, " %s=%d", k, st.kinds[runtime.EventKind(k)])
	}
	t.Logf("events by kind:%s", buf.String())
	reportFirst(t, "transcript on/off mismatch", st.mismatches)
	reportFirst(t, "snapshot/restore/clone mismatch", st.reloads)
	reportFirst(t, "panic", st.panics)
}

// reportFirst fails t with the first few of problems, and their count.
func reportFirst(t *testing.T, what string, problems []string) {
	t.Helper()
	for _, p := range problems[:min(5, len(problems))] {
		t.Errorf("%s: %s", what, p)
	}
	if len(problems) > 0 {
		t.Errorf("%d in all: %s", len(problems), what)
	}
}
