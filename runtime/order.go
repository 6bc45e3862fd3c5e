package runtime

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
)

// ErrLimit is wrapped by errors from going over a Limits bound.
var ErrLimit = errors.New("limit reached")

// orderRun is one computation of an order procedure. It refines one
// permutation of the subjects (indices into the battle's sides or units)
// in place: perm holds them in their current order, and cut marks where a
// block of subjects that are still tied with each other ends. Every link
// of the chain splits the tied blocks further, and a block is always a
// range of positions, so no computation builds lists of blocks.
type orderRun struct {
	b       *Battle
	o       *order
	ctx     context.Context
	live    bool // ctx can be cancelled (asked once: the chain checks at every link)
	names   []string
	perm    []int     // by position: the subject there
	cut     []bool    // by position: a block ends there
	keys    []float64 // by position: the sort keys of the link being applied
	reason  []why     // by subject
	chooser string
	choseIn int // the round chooser chose in
	rerolls int
	peak    int // the most rerolls counted, for forked parts (see fork.go)
	depth   int // run and reroll calls under way
	cpAt    int // the depth of the forked part's own frame, where it checkpoints
	// lastLink says the link being applied is its chain's last, so that
	// whether a reroll handed a tie on changes nothing.
	lastLink   bool
	handedDead bool // lastLink, for the reroll being forked
	// handedOn says the reroll just applied left a tie, which it handed to
	// the tie rules again: they ran the rest of the chain for it.
	handedOn bool
	groups   []TieGroup
	// For an until-changed recomputation: the previous standing, and which
	// subjects' watched values changed since it was made.
	prev    *Standing
	changed []bool
	// nested counts the tie rules being run; drawn says a link other than
	// a value has been applied in the order's own chain. A tied block keeps
	// its earlier places only while it is tied on values alone: not when
	// dice (or a draw, or an award) tied it again, inside a tie rule or
	// after a reroll, as in a new instance of a tie that must be rolled.
	nested int
	drawn  bool
	// rerolled holds, on our own dice, the subjects of the last roll when
	// a reroll made it, by position (see reroll).
	rerolled []int
	// drawSeen holds, in the exact odds' replay, the decks each block drew
	// from, and where on the path (see drawLoop).
	drawSeen []drawMark
	// canon holds, in a forked computation, the decks whose sub-problems
	// are keyed by their values' ranks (see canonDecks).
	canon map[string]bool
}

// why is what placed a subject, noted cheaply during a computation and
// made into a Place at its end.
type why struct {
	m    *meta   // the link that placed it; nil if none did
	by   string  // who chose, for a choice
	kept *Place  // for a kept tie, the earlier placement
	key  float64 // the number m compared, when m is keyed
}

// fill writes the placement of subject into p, field by field (building
// a Place and copying it in costs more). slot is where its value is kept
// (see valsFor), nil when it has none: in the analysis, which records
// none, and when its link is not keyed.
func (w *why) fill(p *Place, subject string, slot *float64) {
	switch {
	case w.kept != nil:
		// The value of a kept tie's placement was compared in an earlier
		// round: the placement now carries none.
		*p = *w.kept
		p.Value, p.Kept = nil, true
	case w.m == nil:
		p.Criterion, p.By, p.Pos, p.Value = "setup order (still tied)", "", "", nil
	default:
		p.Criterion, p.By, p.Pos, p.Value = w.m.desc, w.by, w.m.at, nil
		if slot != nil {
			*slot = w.key + 0 // +0, not -0, which would say "-0"
			p.Value = slot
		}
	}
	p.Subject = subject
}

// subjectNames returns the names of the sides or of the units, in setup
// order. The slice is shared: do not change it.
func (b *Battle) subjectNames(units bool) []string {
	if b.names[0] == nil {
		for _, s := range b.sides {
			b.names[0] = append(b.names[0], s.Name)
		}
		for _, u := range b.units {
			b.names[1] = append(b.names[1], u.Name)
		}
		if b.names[1] == nil {
			b.names[1] = []string{}
		}
	}
	if units {
		return b.names[1]
	}
	return b.names[0]
}

// computeOrder runs o and stores the standing.
func (b *Battle) computeOrder(ctx context.Context, o *order) error {
	b.scr.begin()
	defer b.scr.end()
	r := &orderRun{b: b, o: o, ctx: ctx, names: b.subjectNames(o.units), live: ctx.Done() != nil, cpAt: -1}
	n := len(r.names)
	r.reason = take(&b.scr.whys, n)
	clear(r.reason)
	// The values the order is made from: dice or a decider may change them
	// (or remove a unit) before it is made, and the next round sees that
	// the standing no longer matches them (see outdated).
	var watched [][]any
	if o.scope.kind == dsl.UntilChanged {
		watched = make([][]any, n)
		for i := range n {
			watched[i] = b.watchedValues(o, i)
		}
		if prev := b.standings[o.id]; prev != nil {
			r.prev = prev
			r.changed = make([]bool, n)
			for i, name := range r.names {
				r.changed[i] = !slices.Equal(prev.Watched[name], watched[i])
			}
		}
	}
	r.perm, r.cut, r.keys = take(&b.scr.ints, n), take(&b.scr.cuts, n), take(&b.scr.keys, n)
	for i := range n {
		r.perm[i], r.cut[i] = i, i == n-1
	}
	if err := r.forkOrder(n); err != nil {
		return err
	}
	st := b.newStanding(o, r.names, r.perm, r.reason, r.chooser, r.choseIn)
	if b.transcript {
		for s := 0; s < n; {
			e := r.end(s)
			if e-s > 1 {
				b.emit(Event{Kind: EvTie, Standing: o.name, Subjects: r.namesOf(s, e), Rule: "the end of the order",
					Detail: "still tied; they keep their setup order", Pos: posString(o.pos)})
			}
			for k := s; k < e; k++ {
				pl := &st.Places[k]
				ev := Event{Kind: EvPlacement, Standing: o.name, Subject: pl.Subject, Place: k + 1, Rule: pl.Criterion, By: pl.By, Pos: pl.Pos}
				if pl.Value != nil {
					ev.Key = b.floatp(*pl.Value)
				}
				b.emit(ev)
			}
			s = e
		}
	}
	if o.scope.kind == dsl.UntilChanged {
		st.Watched = make(map[string][]any, n)
		for i, name := range r.names {
			st.Watched[name] = watched[i]
		}
		st.Groups = r.groups
	}
	b.storeStanding(o, st)
	return nil
}

// newStanding makes o's standing from a finished computation: the
// subjects (names) in the order perm puts them, each placed for its
// reason, by subject.
func (b *Battle) newStanding(o *order, names []string, perm []int, reason []why, chooser string, choseIn int) *Standing {
	n := len(perm)
	st := b.blankStanding(o, n, b.now(), chooser, choseIn)
	// The analysis records no values: states that differ only in the
	// numbers compared (5 against 3, or 6 against 2) play on alike, and a
	// value would split them (see stateKey and outKey).
	_, analysis := b.dice.(*enumDice)
	var vals []float64 // taken when a place needs one
	for k, i := range perm {
		w := &reason[i]
		var slot *float64
		if w.kept == nil && w.m != nil && w.m.keyed && !analysis {
			if vals == nil {
				vals = b.valsFor(o.id, st, n)
			}
			slot = &vals[k]
		}
		w.fill(&st.Places[k], names[i], slot)
	}
	st.Order = b.internOrder(o.units, names, perm)
	return st
}

// blankStanding returns a standing of o, made in round, to fill with n
// places.
func (b *Battle) blankStanding(o *order, n, round int, chooser string, choseIn int) *Standing {
	// A standing is never changed once made (the op's base may hold it):
	// fill the spare, unless the battle went back to its base, which put
	// it back, or keeps every base it had for Undo.
	if b.spare == nil {
		b.spare = make([]*Standing, len(b.standings))
	}
	st := b.spare[o.id]
	if st == nil || st == b.standings[o.id] || o.scope.kind == dsl.UntilChanged || b.undo != nil ||
		b.base != nil && b.base.standings[o.id] == st {
		st = &Standing{}
	}
	st.Name, st.Units, st.Round, st.Chooser, st.ChoiceRound = o.name, o.units, round, chooser, choseIn
	st.Places = slices.Grow(st.Places[:0], n)[:n]
	return st
}

// storeStanding makes st the standing of o.
func (b *Battle) storeStanding(o *order, st *Standing) {
	if o.scope.kind != dsl.UntilChanged {
		b.spare[o.id] = b.standings[o.id]
	}
	b.standings[o.id] = st
	b.changed()
}

// placeVals holds what the values of an order's last two standings (the
// one in use and the spare) point to, so that a standing filled again
// allocates none. A Standing has no field for them: a host compares
// standings with go-cmp, which cannot see unexported fields.
type placeVals struct {
	st   [2]*Standing
	vals [2][]float64
}

// valsFor returns n values for st's places to point to: the ones they
// pointed to when st was filled before, or new ones. The slot given up
// is not the standing in use's; its values are not reused, for whoever
// may still hold that standing (a checkpoint, say).
func (b *Battle) valsFor(id int, st *Standing, n int) []float64 {
	if id < len(b.placeVals) {
		pv := &b.placeVals[id]
		j := 0
		if pv.st[1] == st {
			j = 1
		}
		if v := pv.vals[j]; pv.st[j] == st && len(v) >= n {
			return v[:n]
		}
	}
	return b.newVals(id, st, n)
}

// newVals is valsFor when st has none to reuse.
func (b *Battle) newVals(id int, st *Standing, n int) []float64 {
	if len(b.placeVals) <= id {
		b.placeVals = append(b.placeVals, make([]placeVals, id+1-len(b.placeVals))...)
	}
	pv := &b.placeVals[id]
	j := 0
	if pv.st[0] == b.standings[id] {
		j = 1
	}
	pv.st[j], pv.vals[j] = st, make([]float64, n)
	return pv.vals[j]
}

func (b *Battle) watchedValues(o *order, i int) []any {
	out := make([]any, len(o.scope.watched))
	for k, w := range o.scope.watched {
		out[k] = b.watchedValue(o, i, w)
	}
	return out
}

func (b *Battle) watchedValue(o *order, i int, w string) any {
	if !o.units {
		return b.sides[i].Attrs[w]
	}
	u := b.units[i]
	if v, ok := u.Attrs[w]; ok {
		return v
	}
	if v, ok := u.Side.Attrs[w]; ok {
		return v
	}
	return u.Status[w]
}

// outdated reports whether an until-changed standing no longer matches
// the values it watches: a change whose recomputation failed (dice or a
// decider that failed, a cancelled context) left it as it was.
func (b *Battle) outdated(o *order, st *Standing) bool {
	names := b.subjectNames(o.units)
	if len(st.Watched) != len(names) {
		return true
	}
	for i, name := range names {
		was, ok := st.Watched[name]
		if !ok || len(was) != len(o.scope.watched) {
			return true
		}
		for k, w := range o.scope.watched {
			if was[k] != b.watchedValue(o, i, w) {
				return true
			}
		}
	}
	return false
}

// end returns the position just past the block that starts at s.
func (r *orderRun) end(s int) int {
	for !r.cut[s] {
		s++
	}
	return s + 1
}

// namesOf returns the names of the subjects at positions s..e-1 in a new
// slice, for what outlives the computation.
func (r *orderRun) namesOf(s, e int) []string {
	out := make([]string, e-s)
	for k, i := range r.perm[s:e] {
		out[k] = r.names[i]
	}
	return out
}

// scratchNames is namesOf in scratch memory, for the battle's own use.
func (r *orderRun) scratchNames(s, e int) []string {
	out := take(&r.b.scr.names, e-s)
	for k, i := range r.perm[s:e] {
		out[k] = r.names[i]
	}
	return out
}

// run applies a chain to the block at positions lo..hi-1. roll is the
// latest roll (for reroll), ties the tie rules a reroll re-applies,
// attempt the reroll count of this block.
func (r *orderRun) run(chain []link, lo, hi int, roll *rollLink, ties *tieSet, attempt int) error {
	r.depth++
	defer func() { r.depth-- }()
	root := r.depth == r.cpAt // a forked part's own chain: see checkpoint
	for li, l := range chain {
		if r.cpAt >= 0 {
			r.watch(l)
		}
		if r.live {
			if err := r.ctx.Err(); err != nil {
				return err
			}
		}
		switch x := l.(type) {
		case *choiceLink:
			if err := r.choice(x, lo, hi); err != nil {
				return err
			}
			continue
		case *rollLink:
			roll = x
		}
		// A link changes positions only inside the block it is given, so
		// the blocks after it are where they were.
		handedOn := false
		for s := lo; s < hi; {
			e := r.end(s)
			if e-s > 1 {
				if root {
					if err := r.checkpoint(li, s, handedOn); err != nil {
						return err
					}
				}
				r.handedOn = false
				r.lastLink = li == len(chain)-1
				if err := r.apply(l, s, e, roll, ties, attempt); err != nil {
					return err
				}
				_, isReroll := l.(*rerollLink)
				handedOn = handedOn || isReroll && r.handedOn
			}
			s = e
		}
		switch l.(type) {
		case *valueLink, *tieSet:
		default:
			if r.nested == 0 {
				r.drawn = true
			}
		}
		if handedOn {
			// What follows a reroll (a choice, say) runs once, where the
			// reroll broke the tie, not again at every reroll that tied.
			return nil
		}
	}
	return nil
}

// apply resolves the tied block at positions s..e-1 with one link.
func (r *orderRun) apply(l link, s, e int, roll *rollLink, ties *tieSet, attempt int) error {
	switch x := l.(type) {
	case *valueLink:
		return r.byValue(x, s, e)
	case *rollLink:
		return r.byRoll(x, s, e, 0)
	case *randomLink:
		return r.random(x, s, e)
	case *tieSet:
		return r.tie(x, s, e, roll, 0)
	case *rerollLink:
		return r.forkReroll(x, s, e, roll, ties, attempt)
	case *awardLink:
		return r.award(x, s, e)
	}
	return nil
}

// split orders the block at s..e-1 by r.keys (descending when dir > 0),
// stably, cuts it where the keys differ, and notes l as the reason for
// every subject it separated from the rest.
func (r *orderRun) split(s, e, dir int, l link) {
	perm, keys := r.perm, r.keys
	// Insertion sort: stable, and blocks are small.
	for i := s + 1; i < e; i++ {
		for j := i; j > s && (dir > 0 && keys[j] > keys[j-1] || dir <= 0 && keys[j] < keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
			perm[j], perm[j-1] = perm[j-1], perm[j]
		}
	}
	for k := s; k < e-1; k++ {
		if keys[k] != keys[k+1] {
			r.cut[k] = true
		}
	}
	r.placeAlone(s, e, l.info())
}

// placeAlone notes m as the reason for every subject in s..e-1 that is
// now a block of its own, with the key it was placed by (r.keys), which a
// keyed link's placement carries: a subject tied on one criterion and
// separated by a later one carries the later one's value, the one that
// decided its place.
func (r *orderRun) placeAlone(s, e int, m *meta) {
	for k := s; k < e; k++ {
		if r.cut[k] && (k == s || r.cut[k-1]) {
			// The key is noted whatever the link (a roll's total, an
			// award's stale key): fill reads it only for a keyed link, and
			// a branch here costs more than the store.
			r.reason[r.perm[k]] = why{m: m, key: r.keys[k]}
		}
	}
}

func (r *orderRun) number(c *compiled, i int) (float64, error) {
	if c.fast != nil && c.fast.i != nil {
		return float64(c.fast.i(fenv{b: r.b, subj: i})), nil
	}
	out, err := r.b.evalSubject(c, r.o.units, i)
	if err != nil {
		return 0, r.b.evalError(c, quoteSrc(c.src)+" for "+r.names[i], err)
	}
	f, ok := toFloat(out)
	if !ok {
		return 0, ruleErrorf(c.pos, "%s for %s is %v, not a number", quoteSrc(c.src), r.names[i], out)
	}
	if math.IsNaN(f) { // neither higher, lower nor equal: nothing can be placed by it
		return 0, ruleErrorf(c.pos, "%s for %s is NaN (such as 0 / 0), which cannot be compared", quoteSrc(c.src), r.names[i])
	}
	if math.IsInf(f, 0) { // a division by zero, which the rulebook never means
		return 0, ruleErrorf(c.pos, "%s for %s is infinite (a division by zero?)", quoteSrc(c.src), r.names[i])
	}
	return f, nil
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case int32:
		return float64(x), true
	case float32:
		return float64(x), true
	case uint:
		return float64(x), true
	}
	return 0, false
}

func (r *orderRun) byValue(l *valueLink, s, e int) error {
	for k := s; k < e; k++ {
		v, err := r.number(l.e, r.perm[k])
		if err != nil {
			return err
		}
		r.keys[k] = v
	}
	r.split(s, e, l.dir, l)
	r.announceTies(s, e, &l.meta)
	return nil
}

func (r *orderRun) byRoll(l *rollLink, s, e, attempt int) error {
	if l.rz != nil && l.rz.drawn() {
		return r.byDraw(l, s, e, attempt)
	}
	b := r.b
	n := e - s
	var mods []int
	if l.mod != nil {
		mods = take(&b.scr.ints, n)
		for k, i := range r.perm[s:e] {
			m, err := r.number(l.mod, i)
			if err != nil {
				return err
			}
			if m != math.Trunc(m) || math.Abs(m) > maxExact {
				// Dice totals are whole: a half would decide ties the
				// rulebook never meant, so say how to round it.
				return ruleErrorf(l.mod.pos, "the modifier %s for %s is %v: a roll's modifier must be a whole number (round it with floor or ceil)",
					quoteSrc(strings.TrimSpace(l.mod.src)), r.names[i], m)
			}
			mods[k] = int(m)
		}
	}
	var nat []int
	if sd := b.seeded; sd != nil && !(b.noAsk && b.replayed == len(b.journal)) {
		// (A battle that replays its journal up to an input waits there
		// for it, as rollInput says, even one its seeded dice would roll.)
		// The subjects of a reroll's roll, for the next reroll's loop
		// check (see reroll).
		r.rerolled = r.rerolled[:0]
		if attempt > 0 {
			r.rerolled = append(take(&b.scr.ints, e-s)[:0], r.perm[s:e]...)
		}
		// Our own dice keep nothing they are given: roll into scratch.
		nat = take(&b.scr.ints, n)
		if err := b.seededRoll(sd, nat, l.count, l.faces); err != nil {
			return err
		}
	} else {
		req := RollRequest{Round: b.now(), Standing: r.o.name, Count: l.count, Faces: l.faces,
			Attempt: attempt, Modifiers: slices.Clone(mods), Pos: l.pos}
		if l.rz != nil {
			req.Randomizer, req.Kind, req.Labels, req.Values = l.rz.name, string(l.rz.kind), l.rz.labels, l.rz.values
		}
		if _, ok := b.dice.(*enumDice); ok {
			// They keep a copy of what they keep: the analysis rolls
			// millions of times.
			req.Subjects = r.scratchNames(s, e)
		} else {
			req.Subjects = r.namesOf(s, e)
		}
		var err error
		if nat, err = b.rollInput(r.ctx, req); err != nil {
			return err
		}
	}
	for k := range n {
		v, face := nat[k], ""
		if l.rz != nil {
			v, face = l.rz.values[v-1], l.rz.labels[v-1]
		}
		total := v
		if mods != nil {
			total += mods[k]
		}
		r.keys[s+k] = float64(total)
		if b.transcript {
			ev := Event{Kind: EvRoll, Standing: r.o.name, Subject: r.names[r.perm[s+k]], Value: b.intp(v), Total: b.intp(total),
				Rule: l.desc, Pos: l.at}
			if l.rz != nil {
				ev.Face, ev.From = face, l.rz.name
			}
			b.emit(ev)
		}
	}
	r.split(s, e, l.dir, l)
	r.announceTies(s, e, &l.meta)
	return nil
}

// announceTies records, in the transcript, the groups that a criterion
// applied to s..e-1 left tied: what the tie rules are asked to resolve.
func (r *orderRun) announceTies(s, e int, m *meta) {
	if !r.b.transcript {
		return
	}
	for p := s; p < e; {
		q := r.end(p)
		if q-p > 1 {
			r.b.emit(Event{Kind: EvTie, Standing: r.o.name, Subjects: r.namesOf(p, q), Rule: m.desc, Pos: m.at})
		}
		p = q
	}
}

// random draws the block's subjects one at a time: each draw goes next.
func (r *orderRun) random(l *randomLink, s, e int) error {
	b := r.b
	for p := s; e-p > 1; p++ {
		req := PickRequest{Round: b.now(), Standing: r.o.name, Pos: l.pos}
		if _, ok := b.dice.(*enumDice); ok || b.seeded != nil {
			req.Options = r.scratchNames(p, e)
		} else {
			req.Options = r.namesOf(p, e)
		}
		r.rerolled = r.rerolled[:0]
		k, err := b.pickInput(r.ctx, req)
		if err != nil {
			return err
		}
		rest := r.perm[p:e]
		if b.transcript {
			b.emit(Event{Kind: EvRandom, Standing: r.o.name, Subject: r.names[rest[k]], Subjects: r.namesOf(p, e), Rule: "random", Pos: l.at})
		}
		drawn := rest[k]
		copy(rest[1:k+1], rest[:k])
		rest[0] = drawn
		r.cut[p] = true
	}
	for k := s; k < e; k++ {
		r.reason[r.perm[k]] = why{m: &l.meta}
	}
	return nil
}

// tie resolves a tied block with the first tie rule whose guard holds.
func (r *orderRun) tie(ts *tieSet, s, e int, roll *rollLink, attempt int) error {
	if r.prev != nil && r.nested == 0 && attempt == 0 && !r.drawn && r.keep(s, e) {
		return nil
	}
	for _, rule := range ts.rules {
		if rule.when != nil {
			if r.cpAt >= 0 {
				r.watch(rule.when)
			}
			ok, err := r.guard(rule.when, s, e)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
		}
		var members []string
		if r.o.scope.kind == dsl.UntilChanged {
			members = r.namesOf(s, e)
		}
		outer, outerRound := r.chooser, r.choseIn
		r.chooser, r.choseIn = "", 0
		r.nested++
		err := r.run(rule.chain, s, e, roll, ts, attempt)
		r.nested--
		if err != nil {
			return err
		}
		if r.o.scope.kind == dsl.UntilChanged {
			r.groups = append(r.groups, TieGroup{Members: members, Chooser: r.chooser, ChoiceRound: r.choseIn})
		}
		if outer != "" {
			r.chooser, r.choseIn = outer, outerRound
		}
		return nil
	}
	return nil
}

// keep implements "until changed": a tie among subjects whose watched
// values have not changed since it was resolved keeps its old order; only
// a new tie is resolved again. It reports whether it kept the block.
func (r *orderRun) keep(s, e int) bool {
	bl := r.perm[s:e]
	for _, i := range bl {
		if r.changed[i] {
			return false
		}
	}
	names := r.scratchNames(s, e)
	for _, g := range r.prev.Groups {
		if !isSubset(names, g.Members) {
			continue
		}
		slices.SortFunc(bl, func(a, c int) int {
			return slices.Index(r.prev.Order, r.names[a]) - slices.Index(r.prev.Order, r.names[c])
		})
		for k, i := range bl {
			r.cut[s+k] = true
			r.reason[i] = why{kept: &r.prev.Places[slices.Index(r.prev.Order, r.names[i])]}
		}
		r.groups = append(r.groups, TieGroup{Members: r.namesOf(s, e), Chooser: g.Chooser, ChoiceRound: g.ChoiceRound})
		if r.chooser == "" {
			r.chooser, r.choseIn = g.Chooser, g.ChoiceRound
		}
		r.b.emit(Event{Kind: EvKept, Standing: r.o.name, Subjects: r.namesOf(s, e),
			Detail: "their values have not changed since the tie was resolved"})
		return true
	}
	return false
}

func isSubset(xs, of []string) bool {
	for _, x := range xs {
		if !slices.Contains(of, x) {
			return false
		}
	}
	return true
}

func (r *orderRun) guard(c *compiled, s, e int) (bool, error) {
	tied := r.perm[s:e]
	if c.fast != nil && c.fast.b != nil {
		return c.fast.b(fenv{b: r.b, tied: tied}), nil
	}
	out, err := r.b.evalGroup(c, r.o.units, tied)
	if err != nil {
		err = r.b.evalError(c, quoteSrc(c.src), err)
		// An empty list indexed, or nothing where a value was wanted: what
		// an empty previous value does, not any failure of the guard.
		empty := exprEmpty.MatchString(err.Error())
		if re, ok := err.(*RuleError); ok && empty && r.b.now() <= 1 && strings.Contains(c.src, "previous.") {
			re.addHint(fmt.Sprintf("in round 1 every previous value is empty; make the guard false then, as in `round > 1 and %s`", c.src))
		}
		return false, err
	}
	v, ok := out.(bool)
	if !ok {
		return false, ruleErrorf(c.pos, "%s is %s, not true or false", quoteSrc(c.src), describeValue(out))
	}
	return v, nil
}

func (r *orderRun) reroll(l *rerollLink, s, e int, roll *rollLink, ties *tieSet, attempt int) error {
	r.depth++
	defer func() { r.depth-- }()
	// MaxRerolls bounds the rerolls a computation plays. A reroll of the
	// group the last reroll left tied repeats it: exact odds never play
	// it (the loop is conditioned away, see enumDice.Roll), and fair dice,
	// ours, break the tie sooner or later when the roll can break it at
	// all, to the same odds. So neither counts it: a low limit gives the
	// odds of the game as written, or fails on every battle alike, not on
	// a few unlucky ones. A host's dice are counted at every reroll:
	// nothing says they ever break a tie.
	counted := true
	if d, ok := r.b.dice.(*enumDice); ok && !(roll.rz != nil && roll.rz.drawn()) {
		// (A draw is never a loop of this kind: see drawLoop.)
		if err := d.loops(r.scratchNames(s, e), attempt+1, roll.pos); err != nil {
			return err
		}
	} else if r.b.seeded != nil && attempt > 0 && slices.Equal(r.rerolled, r.perm[s:e]) && roll.canBreak() && !(roll.rz != nil && roll.rz.drawn()) {
		counted = false
	}
	if counted {
		r.rerolls++
		r.peak = max(r.peak, r.rerolls)
	}
	if r.rerolls > r.b.prog.limits.MaxRerolls {
		if r.forking() != nil {
			// A forked part's count is the most of the paths merged into
			// it: replay finds out whether this path really went over.
			return errNoFork
		}
		rerolls := "rerolls"
		if r.b.prog.limits.MaxRerolls == 1 {
			rerolls = "reroll"
		}
		return ruleErrorf(l.pos, "order %s: still tied after %d %s (%s): %w",
			r.o.name, r.b.prog.limits.MaxRerolls, rerolls, strings.Join(r.namesOf(s, e), ", "), ErrLimit)
	}
	if r.b.transcript {
		ev := Event{Kind: EvReroll, Standing: r.o.name, Subjects: r.namesOf(s, e), Rule: roll.desc, Pos: l.at}
		if roll.rz != nil && roll.rz.drawn() {
			ev.Detail = "draw"
		}
		r.b.emit(ev)
	}
	if err := r.byRoll(roll, s, e, attempt+1); err != nil {
		return err
	}
	if ties == nil {
		return nil
	}
	handedOn := false
	root := r.depth == r.cpAt
	for p := s; p < e; {
		q := r.end(p)
		if q-p > 1 {
			if root {
				if err := r.checkpoint(-1, p, handedOn); err != nil {
					return err
				}
			}
			if err := r.tie(ties, p, q, roll, attempt+1); err != nil {
				return err
			}
			handedOn = true
		}
		p = q
	}
	r.handedOn = handedOn
	return nil
}

// previousHint says how to cover an award of a previous value that is
// empty: a house rule that gives ties to last round's holder has nobody
// to give them to in round 1, or when nobody chose. empty, if not "", is
// the expression that came out empty, for a guard on it.
func (b *Battle) previousHint(src, empty string) string {
	switch {
	case !strings.Contains(src, "previous."):
		return ""
	case b.now() <= 1:
		// Not b.round: between rounds 1 and 2 round 1 is remembered.
		return "in round 1 every previous value is empty; put a tie rule for round 1 above this one, as in `tie when round == 1: reroll`"
	case empty != "":
		return fmt.Sprintf("put a tie rule for that case above this one, as in `tie when %s == \"\": reroll`", empty)
	}
	return ""
}

// award puts the subject an expression names first (or, for `award not`,
// last) in its block; the others stay tied with each other.
func (r *orderRun) award(l *awardLink, s, e int) error {
	b := r.b
	bl := r.perm[s:e]
	name, err := b.groupString(l.e, r.o.units, bl)
	if err != nil {
		err = b.evalError(l.e, quoteSrc(l.describe()), err)
		if re, ok := err.(*RuleError); ok {
			if hint := b.previousHint(l.e.src, ""); hint != "" {
				re.addHint(hint)
			}
		}
		return err
	}
	k := slices.IndexFunc(bl, func(i int) bool { return r.names[i] == name })
	if k < 0 {
		if name == "" { // previous.holder in round 1, say
			return &RuleError{Pos: l.pos, Hint: b.previousHint(l.e.src, l.e.src),
				Err: fmt.Errorf("%s names nobody, so it cannot break the tie between %s", quoteSrc(l.describe()), strings.Join(r.namesOf(s, e), ", "))}
		}
		return ruleErrorf(l.pos, "%s names %q, who is not among the tied (%s)",
			quoteSrc(l.describe()), name, strings.Join(r.namesOf(s, e), ", "))
	}
	who := bl[k]
	if b.transcript {
		subject, detail := name, name+" goes first"
		if l.not {
			// The first of the others.
			first := bl[0]
			if k == 0 {
				first = bl[1]
			}
			// Name the ones placed before: `expect event award` matches
			// the first of them, not the one the rule named, and a line
			// that named only that one would read as if it had been
			// awarded.
			var others []string
			for _, i := range bl {
				if r.names[i] != name {
					others = append(others, r.names[i])
				}
			}
			subject, detail = r.names[first], r.names[first]+" goes before "+name
			if len(others) > 1 {
				detail = wording.AndList(others) + " go before " + name
			}
		}
		b.emit(Event{Kind: EvAward, Standing: r.o.name, Subject: subject, Subjects: r.namesOf(s, e), Rule: l.desc,
			Detail: detail, Pos: l.at})
	}
	if l.not {
		copy(bl[k:], bl[k+1:])
		bl[len(bl)-1] = who
		r.cut[e-2] = true
	} else {
		copy(bl[1:k+1], bl[:k])
		bl[0] = who
		r.cut[s] = true
	}
	r.placeAlone(s, e, &l.meta)
	return nil
}

// choice lets a participant arrange the whole range lo..hi-1, whatever
// blocks it holds.
func (r *orderRun) choice(l *choiceLink, lo, hi int) error {
	b := r.b
	n := hi - lo
	if n < 2 {
		return nil
	}
	by, self, at, err := r.who(l, lo, hi)
	if err != nil {
		return err
	}
	// The group as it stands: the answer rearranges r.perm[lo:hi].
	group := take(&b.scr.ints, n)
	copy(group, r.perm[lo:hi])
	me := at - lo // self's position in group
	if at < 0 {
		me = slices.IndexFunc(group, func(i int) bool { return r.names[i] == self })
	}
	if me < 0 {
		// The role speaks for someone outside this group (a side, when
		// units are arranged, or another order's first).
		if l.kind == dsl.ChoiceBeforeAfter {
			return ruleErrorf(l.pos, "%s: %s is not among %s, so it cannot go before or after them", quoteSrc(l.desc), orNobody(self), strings.Join(r.namesOf(lo, hi), ", "))
		}
		self = ""
	}
	// The ruleset's policy, as the answer and the order it makes
	// (positions in group).
	order := l.policyOrder(take(&b.scr.ints, n)[:0], n, me)
	var answer string
	switch l.kind {
	case dsl.ChoiceFirst:
		answer = r.names[group[order[0]]]
	case dsl.ChoiceBeforeAfter:
		answer = string(l.policy)
	}
	if !b.policyDecides() || b.transcript {
		ans, err := r.ask(l, by, self, group, answer, order)
		if err != nil {
			return err
		}
		if ans != nil {
			order = order[:0]
			switch l.kind {
			case dsl.ChoiceFirst:
				order = putFirst(order, n, slices.IndexFunc(group, func(i int) bool { return r.names[i] == ans[0] }), true)
			case dsl.ChoiceBeforeAfter:
				order = putFirst(order, n, me, ans[0] == "before")
			default:
				for _, name := range ans {
					order = append(order, slices.IndexFunc(group, func(i int) bool { return r.names[i] == name }))
				}
			}
		}
	}
	if r.chooser == "" {
		r.chooser, r.choseIn = by, b.now()
	}
	for k, at := range order {
		i := group[at]
		r.perm[lo+k], r.cut[lo+k] = i, true
		r.reason[i] = why{m: &l.meta, by: by}
	}
	return nil
}

// policyOrder appends to order the order the ruleset's policy makes of n
// subjects (positions 0..n-1), me being the chooser's position, or -1
// when the chooser is none of them.
func (l *choiceLink) policyOrder(order []int, n, me int) []int {
	switch l.kind {
	case dsl.ChoiceFirst:
		first := 0
		switch {
		case l.policy == dsl.PolicySelf && me >= 0:
			first = me
		case l.policy == dsl.PolicyOther && me == 0:
			first = 1 // the first of the others
		}
		return putFirst(order, n, first, true)
	case dsl.ChoiceBeforeAfter:
		return putFirst(order, n, me, l.policy == dsl.PolicyBefore)
	}
	for k := range n {
		order = append(order, k)
	}
	if l.policy == dsl.PolicyReverse {
		slices.Reverse(order[len(order)-n:])
	}
	return order
}

// putFirst appends positions 0..n-1 to order with k first (or, if !first,
// last), the others keeping their order.
func putFirst(order []int, n, k int, first bool) []int {
	if first {
		order = append(order, k)
	}
	for j := range n {
		if j != k {
			order = append(order, j)
		}
	}
	if !first {
		order = append(order, k)
	}
	return order
}

// ask puts a choice to the decider, whose default is the policy's answer
// (or, for an arrangement, order), notes it in the transcript, and returns
// the answer, or nil when it is the default.
func (r *orderRun) ask(l *choiceLink, by, self string, group []int, answer string, order []int) ([]string, error) {
	b := r.b
	names := make([]string, len(group))
	for k, i := range group {
		names[k] = r.names[i]
	}
	d := Decision{By: by, Self: self, Round: b.now(), Standing: r.o.name, Pos: l.pos, Options: names}
	switch l.kind {
	case dsl.ChoiceFirst:
		d.Kind, d.Default = ChooseFirst, []string{answer}
	case dsl.ChoiceBeforeAfter:
		d.Kind, d.Options, d.Default = ChooseBeforeAfter, []string{"before", "after"}, []string{answer}
		for _, n := range names {
			if n != self {
				d.Others = append(d.Others, n)
			}
		}
	default:
		d.Kind = ChooseOrder
		for _, k := range order {
			d.Default = append(d.Default, names[k])
		}
	}
	ans, err := b.decide(r.ctx, d)
	if err != nil {
		return nil, err
	}
	if b.transcript {
		// names is the battle's own: a decider is given a copy.
		ev := Event{Kind: EvDecision, Standing: r.o.name, By: by, Choice: b.owned(ans), Subjects: names,
			Rule: l.desc, Detail: string(d.Kind), Pos: l.at}
		if d.Kind == ChooseBeforeAfter {
			// Who goes before or after the others: where a side chooses
			// for its unit, the side's name alone says not whom.
			ev.Subject = self
		}
		b.emit(ev)
	}
	if slices.Equal(ans, d.Default) {
		return nil, nil
	}
	return ans, nil
}

func orNobody(s string) string {
	if s == "" {
		return "nobody"
	}
	return s
}

// who resolves a choice's role to the deciding participant (a side or a
// team) and the subject it speaks for, if any, with that subject's
// position when it is among lo..hi-1 by construction (-1 otherwise).
func (r *orderRun) who(l *choiceLink, lo, hi int) (by, self string, at int, err error) {
	b := r.b
	side := func(i int) *Side {
		if r.o.units {
			return b.units[i].Side
		}
		return b.sides[i]
	}
	switch l.role {
	case dsl.RoleWinner, dsl.RoleLoser:
		// The first block, or the last, which must be a block of one.
		s, e := lo, r.end(lo)
		if l.role == dsl.RoleLoser {
			s, e = hi-1, hi
			for s > lo && !r.cut[s-1] {
				s--
			}
		}
		if e-s > 1 {
			return "", "", -1, ruleErrorf(l.pos, "%s: the %s is not decided yet: %s are still tied (add a tie rule before the choice)",
				quoteSrc(l.describe()), l.role, strings.Join(r.namesOf(s, e), ", "))
		}
		return side(r.perm[s]).Name, r.names[r.perm[s]], s, nil
	case dsl.RoleTeam:
		team := ""
		for _, i := range r.perm[lo:hi] {
			t := side(i).Team
			if team != "" && t != team || t == "" {
				return "", "", -1, ruleErrorf(l.pos, "%s: the tied subjects are not all on one team", quoteSrc(l.describe()))
			}
			team = t
		}
		return team, "", -1, nil
	}
	// holder, chooser, the previous ones, ORDER.first, ORDER.last
	who, unmade := b.roleSubject(l.role)
	if unmade != "" {
		return "", "", -1, ruleErrorf(l.pos, "%s: order %s has not been made yet", quoteSrc(l.describe()), unmade)
	}
	if who == "" {
		return "", "", -1, ruleErrorf(l.pos, "%s: there is no %s yet", quoteSrc(l.describe()), l.role)
	}
	return b.sideOfName(who), who, -1, nil
}

// roleSubject is the subject a role names outside the group: the round's
// or last round's holder or chooser ("" when there is none yet), or the
// first or last of an order; unmade is the name of that order when it is
// not made yet.
func (b *Battle) roleSubject(role string) (who, unmade string) {
	switch role {
	case dsl.RoleHolder:
		return b.cur.Holder, ""
	case dsl.RoleChooser:
		return b.cur.Chooser, ""
	case dsl.RolePreviousHolder:
		return b.memory.Holder, ""
	case dsl.RolePreviousChooser:
		return b.memory.Chooser, ""
	}
	name, end, _ := strings.Cut(role, ".")
	st := b.standingOf(name)
	switch {
	case st == nil || len(st.Order) == 0:
		return "", name
	case end == dsl.RoleLast:
		return st.Order[len(st.Order)-1], ""
	}
	return st.Order[0], ""
}

// sideOfName maps a unit to its side; a side maps to itself.
func (b *Battle) sideOfName(n string) string {
	if u := b.unitByNm[n]; u != nil {
		return u.Side.Name
	}
	return n
}
