package runtime

// What Restore checks of a save before it trusts it: a save is a file a
// player can edit, and the rest of the package relies on the invariants
// that play keeps. Each error names the field at fault, as a path into
// the save's JSON (sides[1].units[0].ready), and what is wrong with it.

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
)

// maxRound is the last round a battle can reach: StartRound and
// AdvanceRound refuse to go past it rather than let the counter wrap. It
// is far beyond any game, and the same on every platform.
const maxRound = math.MaxInt32

// errLastRound refuses to start a round after maxRound.
func (b *Battle) errLastRound(what string) error {
	if b.round < maxRound {
		return nil
	}
	return fmt.Errorf("%s: round %d is the last a battle can play: %w", what, b.round, ErrLimit)
}

// checkSavedSides checks the sides and units of a save made with these
// rules, before the battle is built from them.
func (p *Program) checkSavedSides(s *snapshot) error {
	seen := map[string]string{} // name: where it is first
	name := func(at, what, n string) error {
		if first, ok := seen[n]; ok {
			return fmt.Errorf("%s: the name %q is already %s (sides and units need names of their own)", at, n, first)
		}
		who := what + " " + n
		if n == "" {
			who = "a " + what
		}
		if _, msg := nameProblem(what, who, n, func(string) bool { return false }); msg != "" {
			return fmt.Errorf("%s: %s", at, msg)
		}
		seen[n] = "that of " + at
		return nil
	}
	for i, sd := range s.Sides {
		at := fmt.Sprintf("sides[%d]", i)
		if err := name(at+".name", "side", sd.Name); err != nil {
			return err
		}
		if err := p.checkSavedAttrs(at+".attrs", sd.Attrs, p.sideAttrs); err != nil {
			return err
		}
		for j, u := range sd.Units {
			at := fmt.Sprintf("%s.units[%d]", at, j)
			if err := name(at+".name", "unit", u.Name); err != nil {
				return err
			}
			if err := p.checkSavedAttrs(at+".attrs", u.Attrs, p.unitAttrs); err != nil {
				return err
			}
			for k, st := range u.Status {
				switch {
				case !slices.Contains(p.statuses, st):
					return fmt.Errorf("%s.status[%d]: %s is not a status of ruleset %s (declared: %s)", at, k, st, p.name, wording.OrNone(p.statuses))
				case slices.Contains(u.Status[:k], st):
					return fmt.Errorf("%s.status[%d]: %s is listed twice", at, k, st)
				}
			}
		}
	}
	return nil
}

func (p *Program) checkSavedAttrs(at string, attrs map[string]any, decl []Attr) error {
	for _, k := range sortedKeys(attrs) {
		i := slices.IndexFunc(decl, func(a Attr) bool { return a.Name == k })
		if i < 0 {
			return fmt.Errorf("%s.%s: %s is not an attribute here (declared: %s)", at, k, k, wording.OrNone(attrNames(decl)))
		}
		if _, err := decl[i].convert(attrs[k]); err != nil {
			return fmt.Errorf("%s.%s: %v", at, k, err)
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// checkRestored checks the restored battle against what play keeps true
// of one: the save s, of the given format, is in b, its sides built and
// checked. Format 1 holds no record of the Ready markers given in a
// round, so they cannot be checked in it (see grantReady).
func (b *Battle) checkRestored(s *snapshot, format int) error {
	if b.round < 0 || b.round > maxRound {
		return fmt.Errorf("round: round %d is not a round a battle can reach (0 to %d)", b.round, maxRound)
	}
	for _, unit := range sortedKeys(b.removed) {
		side := b.removed[unit]
		switch {
		case b.unitByNm[unit] != nil:
			return fmt.Errorf("removed.%s: removed unit %s is still in the battle", unit, unit)
		case b.sideByNm[unit] != nil:
			return fmt.Errorf("removed.%s: removed unit %s: %s is a side", unit, unit, unit)
		case b.sideByNm[side] == nil:
			return fmt.Errorf("removed.%s: removed unit %s: %s is no side of it", unit, unit, side)
		}
	}
	if b.round == 0 {
		// Before the first round nothing has been played or remembered.
		switch {
		case b.cur != nil:
			return errors.New("current: a round is recorded, but round is 0 (no round has started)")
		case len(s.Done) > 0:
			return fmt.Errorf("done: %s has run, but round is 0 (no round has started)", s.Done[0])
		case b.memory.Holder != "" || b.memory.Chooser != "" || len(b.memory.Order) > 0 || len(b.memory.Values) > 0:
			return errors.New("memory: a previous round is remembered, but round is 0 (no round has started)")
		}
	}
	if err := b.checkStandings(); err != nil {
		return err
	}
	if err := b.checkMemory(); err != nil {
		return err
	}
	if b.InRound() && len(b.pending) > 0 {
		return errors.New("pending: events wait for the next round, but a round is under way (its events are current.events)")
	}
	if format < 2 {
		// Before format 2, events between rounds were of the round before
		// them; they belong to the next round now.
		for i := range b.pending {
			if b.pending[i].Round == b.round {
				b.pending[i].Round = b.round + 1
			}
		}
	}
	if err := checkEvents("pending", b.pending, b.round+1); err != nil {
		return err
	}
	if b.cur == nil {
		return nil
	}
	if err := b.checkCurrent(format); err != nil {
		return err
	}
	if err := b.checkDecided(); err != nil {
		return err
	}
	return checkEvents("current.events", b.cur.Events, b.cur.Round)
}

// known reports whether n names a side or unit of the battle, or one
// removed from it, or a team: who may hold priority, or choose.
func (b *Battle) known(n string) bool {
	if b.sideByNm[n] != nil || b.unitByNm[n] != nil {
		return true
	}
	if _, ok := b.removed[n]; ok {
		return true
	}
	return slices.ContainsFunc(b.sides, func(s *Side) bool { return s.Team != "" && s.Team == n })
}

func (b *Battle) unknownName(at, n string) error {
	return fmt.Errorf("%s: %q is no side or unit of this battle (sides: %s)", at, n, strings.Join(b.subjectNames(false), ", "))
}

func (b *Battle) checkStandings() error {
	for id, st := range b.standings {
		if st == nil {
			continue
		}
		o := b.prog.orderList[id]
		at := "standings." + o.name
		if st.Units != o.units || st.Name != o.name {
			return fmt.Errorf("%s: standing %s is not the ruleset's order %s", at, st.Name, o.name)
		}
		if len(st.Places) != len(st.Order) {
			return fmt.Errorf("%s.places: standing %s has %d places for %d in its order", at, o.name, len(st.Places), len(st.Order))
		}
		if err := checkRounds(at, st.Round, st.ChoiceRound, b.round); err != nil {
			return err
		}
		seen := map[string]bool{}
		for i, n := range st.Order {
			// A unit removed since stays in a standing made once.
			_, removed := b.removed[n]
			isSubject := b.sideByNm[n] != nil
			if o.units {
				isSubject = b.unitByNm[n] != nil || removed
			}
			if seen[n] || !isSubject {
				what := "side"
				if o.units {
					what = "unit"
				}
				return fmt.Errorf("%s.order[%d]: standing %s: %q is not a %s, or comes twice", at, i, o.name, n, what)
			}
			seen[n] = true
			if st.Places[i].Subject != n {
				return fmt.Errorf("%s.places[%d]: standing %s places %q where its order has %q", at, i, o.name, st.Places[i].Subject, n)
			}
			if by := st.Places[i].By; by != "" && !b.known(by) {
				return b.unknownName(fmt.Sprintf("%s.places[%d].by", at, i), by)
			}
			if st.Places[i].Kept && o.scope.kind != dsl.UntilChanged {
				// Only an order made until changed keeps a tie.
				return fmt.Errorf("%s.places[%d].kept: order %s is not made until changed, so it keeps no tie from an earlier round", at, i, o.name)
			}
		}
		// A side or unit left out would never have a turn in a standing
		// played as it is; one made again places it (a host may have added
		// it to the saved battle).
		if b.InRound() || !b.prog.remade(o) {
			for _, n := range b.subjectNames(o.units) {
				if !seen[n] {
					return fmt.Errorf("%s.order: standing %s leaves out %s", at, o.name, n)
				}
			}
		}
		if st.Chooser != "" && !b.known(st.Chooser) {
			return b.unknownName(at+".chooser", st.Chooser)
		}
		for k := range st.Watched {
			if !seen[k] {
				return fmt.Errorf("%s.watched.%s: standing %s watches %q, which is not in its order", at, k, o.name, k)
			}
		}
		for i, g := range st.Groups {
			for j, n := range g.Members {
				if !seen[n] {
					return fmt.Errorf("%s.groups[%d].members[%d]: standing %s: tie group member %q is not in the order", at, i, j, o.name, n)
				}
			}
			if g.Chooser != "" && !b.known(g.Chooser) {
				return b.unknownName(fmt.Sprintf("%s.groups[%d].chooser", at, i), g.Chooser)
			}
			if err := checkRounds(fmt.Sprintf("%s.groups[%d]", at, i), 0, g.ChoiceRound, b.round); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkRounds checks the rounds a standing records: made in a round
// played, or (by a change between rounds) in the next.
func checkRounds(at string, made, chosen, round int) error {
	switch {
	case made < 0 || made > round+1:
		return fmt.Errorf("%s.round: made in round %d, but the battle is in round %d", at, made, round)
	case chosen < 0 || chosen > round+1:
		return fmt.Errorf("%s.choice_round: chosen in round %d, but the battle is in round %d", at, chosen, round)
	}
	return nil
}

// checkMemory checks what the battle remembers of the round before.
func (b *Battle) checkMemory() error {
	m := b.memory
	if m.Holder != "" && !b.known(m.Holder) {
		return b.unknownName("memory.holder", m.Holder)
	}
	if m.Chooser != "" && !b.known(m.Chooser) {
		return b.unknownName("memory.chooser", m.Chooser)
	}
	for i, n := range m.Order {
		if !b.known(n) {
			return b.unknownName(fmt.Sprintf("memory.order[%d]", i), n)
		}
		if slices.Contains(m.Order[:i], n) {
			return fmt.Errorf("memory.order[%d]: %s comes twice in the order", i, n)
		}
	}
	if len(m.Order) > 0 && m.Holder != m.Order[0] {
		return fmt.Errorf("memory.holder: %s held priority, but %s was first in the order (%s)", orNobody(m.Holder), m.Order[0], strings.Join(m.Order, ", "))
	}
	for _, k := range sortedKeys(m.Values) {
		if !slices.ContainsFunc(b.prog.remember, func(r *rememberDef) bool { return r.name == k }) {
			return fmt.Errorf("memory.values.%s: ruleset %s remembers no %s", k, b.prog.name, k)
		}
	}
	return nil
}

// checkCurrent checks the round under way, or the last one played.
func (b *Battle) checkCurrent(format int) error {
	c := b.cur
	if c.Round != b.round || c.Stage != "activation" && c.Stage != "ended" {
		return fmt.Errorf("current: the round under way (round %d, stage %q, turn %d) does not fit round %d", c.Round, c.Stage, c.Turn, b.round)
	}
	// Every activation and pass is a step, and a step past the limit is
	// refused before it counts.
	switch limit := b.prog.limits.MaxSteps; {
	case c.Steps < 0 || c.Steps > limit:
		return fmt.Errorf("current.steps: %d activations and passes in a round, where there can be 0 to %d", c.Steps, limit)
	case len(c.Activations) > c.Steps:
		return fmt.Errorf("current.activations: %d activations and passes, but current.steps counts %d", len(c.Activations), c.Steps)
	}
	// The turn counter moves on one place with each activation or pass,
	// and is set back to a place in the order when that changes.
	if most := len(c.Activations) + len(b.sides) + len(b.units) + len(b.removed); c.Turn < 0 || c.Turn > most {
		return fmt.Errorf("current.turn: turn %d does not fit round %d, which has had %d activations and passes (the turn can be 0 to %d)", c.Turn, c.Round, len(c.Activations), most)
	}
	for i, k := range c.Done {
		if id := slices.Index(b.prog.phaseKeys, k); id < 0 || !b.done[id] {
			return fmt.Errorf("current.done[%d]: %s ran first in this round, but done does not say it has run", i, k)
		}
	}
	if err := b.checkLoops(); err != nil {
		return err
	}
	if c.Drawn != "" {
		switch {
		case b.loop() == nil || !b.loop().draw:
			return fmt.Errorf("current.drawn: %s is drawn from the bag, but ruleset %s does not draw sides from a bag", c.Drawn, b.prog.name)
		case b.sideByNm[c.Drawn] == nil:
			return fmt.Errorf("current.drawn: round %d: %q is drawn to activate, and is not a side", c.Round, c.Drawn)
		}
	}
	for i, a := range c.Activations {
		at := fmt.Sprintf("current.activations[%d]", i)
		if b.sideByNm[a.Side] == nil {
			return fmt.Errorf("%s.side: round %d: an activation by %q, which is not a side", at, c.Round, a.Side)
		}
		switch u := b.unitByNm[a.Unit]; {
		case a.Pass && a.Unit != "":
			return fmt.Errorf("%s: %s both passes and activates %s", at, a.Side, a.Unit)
		case a.Pass:
		case a.Unit == "":
			return fmt.Errorf("%s: %s neither activates a unit nor passes", at, a.Side)
		case u != nil && u.Side.Name != a.Side || u == nil && b.removed[a.Unit] != a.Side:
			return fmt.Errorf("%s.unit: %s activates %s, which is not a unit of %s", at, a.Side, a.Unit, a.Side)
		}
	}
	for _, list := range []struct {
		field string
		names []string
	}{{"readied", c.Readied}, {"kept", c.Kept}} {
		for i, n := range list.names {
			if _, removed := b.removed[n]; b.unitByNm[n] == nil && !removed {
				return fmt.Errorf("current.%s[%d]: %q is no unit of this battle", list.field, i, n)
			}
		}
	}
	if !b.InRound() {
		return b.checkEnded()
	}
	if format < 2 {
		b.grantReady()
	}
	if err := b.checkReady(); err != nil {
		return err
	}
	return b.checkHolder()
}

// checkReady checks the Ready markers of the round under way. A unit
// activates on its marker, which the activation takes: it has one from
// the round's ready rules, and one more each time it is given one since
// (current.readied). With activation loops in phases, the ready rules
// may give it one before each loop. A status the ready rule refuses markers for, which
// it has now, it was given since the markers were placed, keeping its
// marker (current.kept), or it was given a marker since.
func (b *Battle) checkReady() error {
	c := b.cur
	blockers := b.prog.readyBlockers()
	placed := b.loopsBegun()
	for i, sd := range b.sides {
		for j, u := range sd.Units {
			at := fmt.Sprintf("sides[%d].units[%d].ready", i, j)
			given := count(c.Readied, u.Name)
			acts := b.activated(u.Name)
			switch markers := acts + boolInt(u.Ready); {
			case markers <= placed+given:
			case !u.Ready:
				return fmt.Errorf("current.activations: %s activated %d times in round %d, with one Ready marker", u.Name, acts, c.Round)
			default:
				return fmt.Errorf("%s: %s has a Ready marker, but has already activated in round %d and was not made ready again", at, u.Name, c.Round)
			}
			if !u.Ready || given > 0 || slices.Contains(c.Kept, u.Name) {
				continue
			}
			for _, st := range blockers {
				if u.Status[st] {
					return fmt.Errorf("%s: %s has a Ready marker, but is %s, which keeps a unit from one, and was not made ready since", at, u.Name, st)
				}
			}
		}
	}
	return nil
}

// grantReady records, for a save of format 1, which holds no record of
// the Ready markers given in a round, the markers its units hold as
// given: the battle is taken as it stands, and its own saves, of format
// 2, restore as it does.
func (b *Battle) grantReady() {
	c := b.cur
	blockers := b.prog.readyBlockers()
	for _, u := range b.units {
		for extra := b.activated(u.Name) + boolInt(u.Ready) - 1 - count(c.Readied, u.Name); extra > 0; extra-- {
			c.Readied = append(c.Readied, u.Name)
		}
		if u.Ready && slices.ContainsFunc(blockers, func(st string) bool { return u.Status[st] }) && !slices.Contains(c.Kept, u.Name) {
			c.Kept = append(c.Kept, u.Name)
		}
	}
}

// readyBlockers returns the statuses that surely keep a unit from the
// Ready marker of each round: the terms of `ready units unless A or B`
// that are bare statuses, where that is the one ready rule, in a phase
// run every round. Other rules would have to be evaluated, as of the
// round's start, to tell.
func (p *Program) readyBlockers() []string {
	var rules []*readyRule
	everyRound := true
	var walk func(ph *phase, once bool)
	walk = func(ph *phase, once bool) {
		once = once || ph.once
		for _, it := range ph.items {
			switch x := it.(type) {
			case *readyRule:
				rules = append(rules, x)
				everyRound = everyRound && !once
			case *phase:
				walk(x, once)
			}
		}
	}
	for _, ph := range p.phases {
		walk(ph, false)
	}
	if len(rules) != 1 || !everyRound || !rules[0].unless || rules[0].cond == nil {
		return nil
	}
	terms := rules[0].parts
	if terms == nil {
		terms = []*compiled{rules[0].cond}
	}
	var out []string
	for _, t := range terms {
		if st := strings.TrimSpace(t.src); slices.Contains(p.statuses, st) {
			out = append(out, st)
		}
	}
	return out
}

// activated counts the unit's activations in the round under way.
func (b *Battle) activated(unit string) int {
	n := 0
	for _, a := range b.cur.Activations {
		if a.Unit == unit && !a.Pass {
			n++
		}
	}
	return n
}

// loopsBegun is how many activation loops the round under way has begun,
// at most: loops are numbered in the order a round reaches them.
func (b *Battle) loopsBegun() int {
	if b.cur.Loop > 0 {
		return b.cur.Loop
	}
	n := len(b.prog.loops)
	if b.prog.act != nil {
		n++
	}
	return max(n, 1)
}

func count(names []string, n string) int {
	k := 0
	for _, m := range names {
		if m == n {
			k++
		}
	}
	return k
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkLoops checks what the round says of its activation loops: the
// loop under way is one of the ruleset's, and a phase's only while the
// round is under way; the side put first in a phase is a side, in a phase
// of the ruleset; and each turn was played in a loop the ruleset has.
func (b *Battle) checkLoops() error {
	c := b.cur
	switch {
	case c.Loop < 0 || c.Loop > len(b.prog.loops):
		return fmt.Errorf("current.loop: %d is no activation loop of ruleset %s, which has %d in its phases (0 is its own, after the phases)", c.Loop, b.prog.name, len(b.prog.loops))
	case c.Loop > 0 && c.Stage != "activation":
		return fmt.Errorf("current.loop: round %d has ended, but the loop of %s is under way", c.Round, b.prog.loops[c.Loop-1].where())
	case c.First == "" && c.FirstIn != "":
		return fmt.Errorf("current.first_in: phase %s has a side put first, but current.first names none", c.FirstIn)
	case c.First != "" && b.sideByNm[c.First] == nil:
		return fmt.Errorf("current.first: %q is put first in phase %s, and is not a side", c.First, c.FirstIn)
	case c.First != "" && (c.Stage != "activation" || !slices.ContainsFunc(b.prog.phases, func(ph *phase) bool { return ph.name == c.FirstIn })):
		return fmt.Errorf("current.first_in: %s is put first in %q, which is not a phase under way", c.First, c.FirstIn)
	}
	for i, a := range c.Activations {
		if a.Phase == "" && a.Step == "" {
			continue
		}
		if !slices.ContainsFunc(b.prog.loops, func(l *activation) bool { return l.phase == a.Phase && l.step == a.Step }) {
			return fmt.Errorf("current.activations[%d]: %s played a turn in the activation loop of %s, which ruleset %s does not have", i, a.Side, wherePlace(a.Phase, a.Step), b.prog.name)
		}
	}
	return nil
}

// wherePlace names a phase, or a step in it, as activation.where does.
func wherePlace(phase, step string) string {
	if step != "" {
		return phase + "/" + step
	}
	return phase
}

// checkHolder checks the holder of the round under way: the first of
// the main standing, as this round plays it.
func (b *Battle) checkHolder() error {
	c := b.cur
	if b.prog.main == nil {
		if h := cmp.Or(c.Holder, c.Override, c.Chooser); h != "" {
			return fmt.Errorf("current.holder: %s holds priority (or chose it), but ruleset %s orders no sides", h, b.prog.name)
		}
		return nil
	}
	if c.Override != "" && !b.known(c.Override) {
		return b.unknownName("current.override", c.Override)
	}
	if c.Holder != "" && !b.known(c.Holder) {
		return b.unknownName("current.holder", c.Holder)
	}
	if c.Chooser != "" && !b.known(c.Chooser) {
		return b.unknownName("current.chooser", c.Chooser)
	}
	st := b.mainStanding()
	if st == nil || len(st.Order) == 0 {
		return nil
	}
	if order := b.roundOrder(st); c.Holder != order[0] {
		return fmt.Errorf("current.holder: %s holds priority, but %s is first in order %s (%s)", orNobody(c.Holder), order[0], b.prog.main.name, strings.Join(order, ", "))
	}
	return nil
}

// checkEnded checks the last round played, between rounds: what it
// ended with is what the battle remembers.
func (b *Battle) checkEnded() error {
	c, m := b.cur, b.memory
	switch {
	case c.Holder != m.Holder:
		return fmt.Errorf("current.holder: round %d ended with %s holding priority, but memory.holder says %s", c.Round, orNobody(c.Holder), orNobody(m.Holder))
	case c.Chooser != m.Chooser:
		return fmt.Errorf("current.chooser: round %d ended with %s as chooser, but memory.chooser says %s", c.Round, orNobody(c.Chooser), orNobody(m.Chooser))
	case c.Drawn != "":
		return fmt.Errorf("current.drawn: %s is drawn from the bag, but round %d is over", c.Drawn, c.Round)
	}
	return nil
}

// checkEvents checks a record of events: of known kinds and, from format
// 2 on, of the round they were emitted in.
func checkEvents(at string, evs []Event, round int) error {
	for i, e := range evs {
		if !slices.Contains(eventKinds, e.Kind) {
			return fmt.Errorf("%s[%d].kind: %q is not a kind of event", at, i, e.Kind)
		}
		if e.Round != round {
			return fmt.Errorf("%s[%d].round: an event of round %d among those of round %d", at, i, e.Round, round)
		}
	}
	return nil
}

// checkSeededState refuses a saved state of the dice that seeded dice
// could not take, which the battle would otherwise keep, and save again.
func checkSeededState(data []byte) error {
	var pcg rand.PCG
	if err := pcg.UnmarshalBinary(data); err != nil {
		return fmt.Errorf("the saved state of the dice is not one seeded dice saved (%v)", err)
	}
	return nil
}
