package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
)

// Forking order computations.
//
// Replaying a round from its start for every path of rolls costs a round
// per path, and paths multiply: six players rolling off a D6, with the
// still-tied rolling again, take over half a million. But a computation
// under way can be forked where it calls a part of itself: the caller's
// frame stays put while the part is run again and again, once per path of
// its own dice, with the order's working state (positions, cuts, reasons,
// counters) put back before each run. What the caller sees of the part is
// only the state it leaves, so the part's paths are merged into its
// distinct results, and the caller branches on those.
//
// Two parts are forked: a whole order computation (the round's replay
// branches on its distinct results, not on every roll in it), and a
// reroll of a tied block. A reroll's results depend only on the block (its
// subjects, in their order), the rules applied to it and a few counters,
// never on the rest of the order, so they are worked out once per such
// sub-problem and reused wherever it comes up again (the same two players
// tied for third, whoever went first). What no fork can follow exactly (a
// reroll count near its limit, a loop check that would need a roll a
// merged result forgot) stops the fork with errNoFork, and the round is
// enumerated by replay as before.

// errNoFork says the forking analysis cannot follow a round exactly; it
// is enumerated by replay instead.
var errNoFork = errors.New("the forking analysis cannot follow this round")

// lastRoll is the loop check's memory of the previous roll of a run: the
// subjects of a reroll, or, after a forked part's result, the subjects of
// its block, any of which its last roll may have been.
type lastRoll struct {
	subjects []string
	within   []string
}

// frame is one level of enumeration: the round's replay, or a forked part
// being run again and again.
type frame struct {
	path []branchOutcome
	at   int
	last lastRoll
	// A forked part's checkpoints: the ones the run under way passed
	// since its last branch point, and the results from each seen.
	cps  []passed
	memo map[string]*cpResult
	// The part's block, and the links of its own chain (0 for a reroll).
	lo, hi, links int
	// handedDead says the reroll's caller does not care whether it handed
	// a tie on: its link is its chain's last.
	handedDead bool
	// whole says the part is the whole order computation (see drawLoop).
	whole bool
}

// passed is a point in a forked part's own chain, with the state
// there, and the rerolls counted when it was passed.
type passed struct {
	key     string
	rerolls int
}

// cpResult is what follows a checkpoint: the part's results, from there,
// or the loop it runs into.
type cpResult struct {
	outs    []cpOut
	rerolls int
	loop    *errLoop
}

type cpOut struct {
	o *forkOut
	p *big.Rat
}

// errMemo stops a run at a checkpoint whose sequel is known.
type errMemo struct{ res *cpResult }

func (errMemo) Error() string { return "memo" }

// forkOut is one distinct result of a forked part: the state it leaves in
// its block of positions lo..hi-1 and in the computation's counters.
type forkOut struct {
	perm    []int
	cut     []bool
	why     []why // by position in the block
	within  []string
	delta   int // rerolls done (the most of any path merged into this result)
	peak    int // the most rerolls counted at any check, from the part's start
	chooser string
	choseIn int
	handed  bool
	drawn   bool
	groups  []TieGroup // appended
	key     string     // its state, but for the reroll counts
	// decks is what is left of the decks (the battle's map, never
	// changed in place).
	decks map[deckKey][]string
	// loopStart says the part drew back where the computation's first
	// draw was (see drawLoop): a result the whole order's fork conditions
	// away. pos is the draw's rule.
	loopStart bool
	pos       dsl.Pos
}

// one is the probability of a path's end, shared: never changed.
var one = big.NewRat(1, 1)

// forkMemo is a forked reroll's results.
type forkMemo struct {
	outs []branchOutcome
}

// analysis is shared by the replays of one round.
type analysis struct {
	rolls *rollCache
	fork  bool
	memo  map[string]*forkMemo // reroll sub-problems of the order being forked
	// orders are whole orders' results that hold from every state with
	// the same subjects (see forkOrder), shared by the rounds of an
	// analysis.
	orders   map[string]*forkMemo
	plains   map[any]bool
	impure   bool // see watch
	ids      map[any]int
	runs     int
	maxPaths int
	round    int
	key      []byte // scratch for keys
	rollKey  []byte // scratch for the roll cache's keys
	// doom gives the forks up as soon as they are sure to go over
	// maxPaths (see errDoomed): pending counts the outcomes of the branch
	// points under way that are yet to be explored, a path each at least.
	doom    bool
	pending int
	added   []string                   // the keys put in orders
	dead    map[*order]map[string]bool // see Program.deadDecks
}

// doomed reports whether the forks are sure to go over the bound, at a
// branch point with n outcomes.
func (a *analysis) doomed(n int) bool {
	return a.doom && a.runs+a.pending+n > a.maxPaths
}

// pend counts a branch point's n outcomes as pending, and returns what
// puts pending back as it was when the branch point is done with. Its
// explorer takes each outcome off as it starts on it.
func (a *analysis) pend(n int) func() {
	a.pending += n
	at := a.pending - n
	return func() { a.pending = at }
}

func (a *analysis) id(x any) int {
	if i, ok := a.ids[x]; ok {
		return i
	}
	i := len(a.ids) + 1
	a.ids[x] = i
	return i
}

// forking returns the enumerating dice when the analysis forks.
func (r *orderRun) forking() *enumDice {
	if d, ok := r.b.dice.(*enumDice); ok && d.an.fork {
		return d
	}
	return nil
}

// forkOrder runs the order's chain as one forked part.
func (r *orderRun) forkOrder(n int) error {
	run := func() error { return r.run(r.o.chain, 0, n, nil, nil, 0) }
	d := r.forking()
	if d == nil {
		return run()
	}
	// Reroll results hold while the battle does not change: for this
	// computation only.
	memo := d.an.memo
	d.an.memo = map[string]*forkMemo{}
	defer func() { d.an.memo = memo }()
	r.canon = nil
	if dead := d.an.deadOf(r.b.prog, r.o); len(dead) > 0 {
		// Whole when the computation starts, as they are when it is
		// computed alone in its round (see canonDecks).
		r.canon = dead
		for k := range r.b.decks {
			if dead[k.deck] {
				r.canon = nil
			}
		}
	}
	// An order that reads nothing but its subjects and the round has the
	// same results from every state that has the same subjects: the
	// states a round can end in mostly differ in what was rolled.
	// Whether it does is watched while it runs: if every guard it
	// evaluated and every link it ran reads only those, the same subjects
	// and round make the same guards hold and the same links run.
	f := d.top()
	if f.at < len(f.path) || len(d.frames) > 1 || r.o.scope.kind == dsl.UntilChanged {
		return r.forked(d, 0, n, len(r.o.chain), "", "", run)
	}
	data, err := json.Marshal(r.b.snapshot().Sides)
	if err != nil {
		return err
	}
	key := fmt.Sprintf("%d|%d|%s", r.o.id, r.b.round, data)
	if len(r.b.decks) > 0 {
		decks, err := json.Marshal(r.b.deckStates())
		if err != nil {
			return err
		}
		key += "|" + string(decks)
	}
	if m := d.an.orders[key]; m != nil {
		return errBranch{outcomes: m.outs}
	}
	impure := d.an.impure
	d.an.impure = false
	m, err := r.enumerate(d, 0, n, len(r.o.chain), run)
	if err != nil {
		return err
	}
	if !d.an.impure {
		d.an.orders[key] = m
		d.an.added = append(d.an.added, key)
	}
	d.an.impure = impure
	return errBranch{outcomes: m.outs}
}

// plain reports whether what x (a link, or a tie rule's guard) reads of
// the battle is only the names, teams, attributes and statuses of the
// sides and units and the round: no expression in it mentions the memory
// (previous), the holder or chooser, an order or a decision, and no choice is made
// by a role that reads them. Words are matched as text, which may only
// say no more often than needed.
func (a *analysis) plain(p *Program, x any) bool {
	if ok, seen := a.plains[x]; seen {
		return ok
	}
	words := []string{"previous", "holder", "chooser"}
	for _, ol := range p.orderList {
		words = append(words, ol.name)
	}
	expr := func(c *compiled) bool {
		// A decision read is the round's, not the subjects'.
		return c == nil || c.decisions == nil && !slices.ContainsFunc(words, func(w string) bool { return strings.Contains(c.src, w) })
	}
	ok := len(p.hostFuncs) == 0
	switch x := x.(type) {
	case *compiled:
		ok = ok && expr(x)
	case *valueLink:
		ok = ok && expr(x.e)
	case *rollLink:
		ok = ok && expr(x.mod)
	case *awardLink:
		ok = ok && expr(x.e)
	case *choiceLink:
		ok = ok && (x.role == dsl.RoleWinner || x.role == dsl.RoleLoser || x.role == dsl.RoleTeam)
	case *tieSet, *randomLink, *rerollLink:
	default:
		ok = false
	}
	a.plains[x] = ok
	return ok
}

// watch notes, while a whole order is forked, a link run or a guard
// evaluated that reads more of the battle than its subjects and the round.
func (r *orderRun) watch(x any) {
	if d := r.forking(); d != nil && !d.an.impure && !d.an.plain(r.b.prog, x) {
		d.an.impure = true
	}
}

// forkReroll is reroll as a forked part, its results shared by every
// block that poses the same sub-problem.
func (r *orderRun) forkReroll(l *rerollLink, s, e int, roll *rollLink, ties *tieSet, attempt int) error {
	d := r.forking()
	if d == nil {
		return r.reroll(l, s, e, roll, ties, attempt)
	}
	a := d.an
	k := a.key[:0]
	k = strconv.AppendInt(k, int64(a.id(l)), 10)
	k = append(k, ',')
	k = strconv.AppendInt(k, int64(a.id(roll)), 10)
	k = append(k, ',')
	if ties != nil {
		k = strconv.AppendInt(k, int64(a.id(ties)), 10)
	}
	// The attempt matters only to the loop check of the reroll's own roll
	// (see enumDice.Roll): whether the roll before was this block's. The
	// ties it hands on are at attempt 1 or later either way, so a first
	// reroll poses the sub-problem a later one does when it is no loop.
	class := byte('1')
	if attempt > 0 {
		last := d.top().last
		switch {
		case last.within != nil:
			for _, i := range r.perm[s:e] {
				if slices.Contains(last.within, r.names[i]) {
					class = '3'
				}
			}
		case len(last.subjects) == e-s:
			class = '2'
			for k, i := range r.perm[s:e] {
				if last.subjects[k] != r.names[i] {
					class = '1'
					break
				}
			}
		}
	}
	k = append(k, '|', class, '|')
	k = append(k, r.chooser...)
	k = append(k, '|')
	k = strconv.AppendInt(k, int64(r.choseIn), 10)
	k = append(k, '|')
	// Only whether a tie rule is under way matters (to run and tie).
	k = append(k, bit(r.nested > 0), '|', bit(r.drawn), bit(r.handedOn), bit(r.lastLink), '|')
	for _, i := range r.perm[s:e] {
		k = strconv.AppendInt(k, int64(i), 10)
		k = append(k, ',')
	}
	n := len(k)
	k = appendDecks(k, r.b.decks)
	key := string(k)
	canon := ""
	if r.canon != nil {
		if c, ok := r.canonDecks(k[:n:n]); ok {
			canon = string(c)
		}
	}
	a.key = k
	r.handedDead = r.lastLink
	return r.forked(d, s, e, 0, key, canon, func() error { return r.reroll(l, s, e, roll, ties, attempt) })
}

func bit(b bool) byte {
	if b {
		return '1'
	}
	return '0'
}

func overlaps(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// forked runs part, which changes only positions lo..hi-1 and the
// computation's counters, as a branch point of the enclosing enumeration:
// its results are worked out (or taken from the memo under key) and the
// enclosing run branches on them.
//
// canon, if not "", is the sub-problem's key with its dead decks (see
// canonDecks) written by the ranks of their values: its results are taken
// from there, and put there when none of them carries a dead deck.
func (r *orderRun) forked(d *enumDice, lo, hi, links int, key, canon string, part func() error) error {
	f := d.top()
	if f.at < len(f.path) {
		bo := f.path[f.at]
		f.at++
		if bo.fork == nil {
			return fmt.Errorf("internal error: a replay met a forked part where it had a roll")
		}
		return r.applyFork(bo.fork, lo, hi, f)
	}
	var m *forkMemo
	if canon != "" {
		m = d.an.memo[canon]
	}
	if m == nil && key != "" {
		m = d.an.memo[key]
	}
	if m == nil {
		var err error
		if m, err = r.enumerate(d, lo, hi, links, part); err != nil {
			return err
		}
		if key != "" {
			d.an.memo[key] = m
		}
		if canon != "" && !slices.ContainsFunc(m.outs, func(bo branchOutcome) bool { return r.holdsDead(bo.fork.decks) }) {
			d.an.memo[canon] = m
		}
	}
	return errBranch{outcomes: m.outs}
}

func (r *orderRun) applyFork(o *forkOut, lo, hi int, f *frame) error {
	if o.loopStart {
		return errLoopStart{pos: o.pos}
	}
	c := r.rerolls
	if c+o.peak > r.b.prog.limits.MaxRerolls {
		return errNoFork
	}
	copy(r.perm[lo:hi], o.perm)
	copy(r.cut[lo:hi], o.cut)
	for k, i := range o.perm {
		r.reason[i] = o.why[k]
	}
	r.rerolls = c + o.delta
	r.peak = max(r.peak, c+o.peak)
	r.chooser, r.choseIn, r.handedOn, r.drawn = o.chooser, o.choseIn, o.handed, o.drawn
	r.groups = append(r.groups, o.groups...)
	r.b.decks = o.decks
	f.last = lastRoll{within: o.within}
	return nil
}

// checkpoint is passed by a forked part's own chain before it works on
// a tied block (link li, or -1 for a reroll's hand-over, of the block at
// position s; handed is the chain's note that a reroll handed a tie on).
// What follows depends only on the point and the computation's state
// there, so two paths that reach it alike go on alike: the sequel is
// explored for the first, and the second takes its results.
func (r *orderRun) checkpoint(li, s int, handed bool) error {
	d := r.forking()
	if d == nil {
		return nil
	}
	f := d.top()
	if f.at < len(f.path) {
		return nil // an earlier branch point's stretch, replayed
	}
	a := d.an
	k := a.key[:0]
	k = strconv.AppendInt(k, int64(li), 10)
	k = append(k, ',')
	k = strconv.AppendInt(k, int64(s), 10)
	// r.handedOn is not in it: it is set before it is read again.
	k = append(k, bit(handed && !f.handedDead), bit(r.drawn), '|')
	k = append(k, r.chooser...)
	k = append(k, '|')
	k = strconv.AppendInt(k, int64(r.choseIn), 10)
	k = append(k, '|')
	k = append(k, bit(r.nested > 0), '|')
	for i, p := range r.perm {
		k = a.appendPlace(k, p, r.cut[i], r.reason[p])
	}
	k = append(k, '|')
	k = appendGroups(k, r.groups)
	k = append(k, '|')
	k = appendDecks(k, r.b.decks)
	// The last roll matters only to a later roll of the same subjects,
	// which can only be among the blocks still to come: at s and after in
	// a reroll's hand-over, anywhere in the part for a chain's further
	// links.
	from := f.lo
	if li < 0 || li == f.links-1 {
		from = s
	}
	ahead := r.perm[from:f.hi]
	switch {
	case f.last.within != nil:
		if slices.ContainsFunc(ahead, func(i int) bool { return slices.Contains(f.last.within, r.names[i]) }) {
			k = append(k, 'w')
			for _, n := range f.last.within {
				k = strconv.AppendQuote(k, n)
			}
		}
	case f.last.subjects != nil:
		if !slices.ContainsFunc(f.last.subjects, func(n string) bool {
			return !slices.ContainsFunc(ahead, func(i int) bool { return r.names[i] == n })
		}) {
			for _, n := range f.last.subjects {
				k = strconv.AppendQuote(k, n)
			}
		}
	}
	a.key = k
	if res, ok := f.memo[string(k)]; ok {
		return errMemo{res: res}
	}
	f.cps = append(f.cps, passed{key: string(k), rerolls: r.rerolls})
	return nil
}

// runState is what a forked part may change, saved to run it again.
type runState struct {
	perm    []int
	cut     []bool
	reason  []why
	rerolls int
	chooser string
	choseIn int
	handed  bool
	drawn   bool
	nested  int
	groups  []TieGroup
	scr     scratch
	names   []string // of the block's subjects
	decks   map[deckKey][]string
	seen    int // the draws of the path (see drawLoop)
	journal int // its length: the inputs of a run are no later run's
}

func (r *orderRun) save(lo, hi int) *runState {
	return &runState{names: r.namesOf(lo, hi), perm: slices.Clone(r.perm), cut: slices.Clone(r.cut), reason: slices.Clone(r.reason),
		rerolls: r.rerolls, chooser: r.chooser, choseIn: r.choseIn, handed: r.handedOn, drawn: r.drawn,
		nested: r.nested, groups: r.groups, scr: r.b.scr, decks: r.b.decks, seen: len(r.drawSeen), journal: len(r.b.journal)}
}

func (r *orderRun) restore(s *runState) {
	copy(r.perm, s.perm)
	copy(r.cut, s.cut)
	copy(r.reason, s.reason)
	r.rerolls, r.chooser, r.choseIn, r.handedOn, r.drawn, r.nested = s.rerolls, s.chooser, s.choseIn, s.handed, s.drawn, s.nested
	r.groups = s.groups[:len(s.groups):len(s.groups)]
	r.b.scr = s.scr.rewound(r.b.scr)
	r.b.decks = s.decks
	r.drawSeen = r.drawSeen[:s.seen:s.seen]
	// Each run of a part appends its inputs to the journal, which is
	// not replayed (the battle is not an op's replay while it is
	// analysed): without this, it would hold every path's.
	if b := r.b; b.replayed == len(b.journal) && s.journal <= len(b.journal) {
		b.journal = b.journal[:s.journal]
		b.replayed = s.journal
	}
}

// enumerate runs part once per path of its dice and returns its distinct
// results with their probabilities.
func (r *orderRun) enumerate(d *enumDice, lo, hi, links int, part func() error) (*forkMemo, error) {
	a := d.an
	parent := d.top()
	st := r.save(lo, hi)
	defer r.restore(st)
	peak, cpAt := r.peak, r.cpAt
	r.peak = st.rerolls
	r.cpAt = r.depth + 1
	f := &frame{memo: map[string]*cpResult{}, lo: lo, hi: hi, links: links, handedDead: links == 0 && r.handedDead, whole: r.depth == 0}
	d.frames = append(d.frames, f)
	// The outer count's peak takes this part's, whatever it ends in: the
	// rerolls played on a path that went on to loop were counted, as the
	// replay counts them, and no result of the part carries them when
	// the part's every path loops.
	defer func() { d.frames = d.frames[:len(d.frames)-1]; r.peak, r.cpAt = max(peak, r.peak), cpAt }()
	// shifted returns a checkpoint's sequel for a path that passed it with
	// rerolls counted: the counts are the most of either.
	shifted := func(res *cpResult, rerolls int) ([]cpOut, error) {
		if res.loop != nil {
			return nil, *res.loop
		}
		shift := rerolls - res.rerolls
		if shift <= 0 {
			for _, o := range res.outs {
				r.peak = max(r.peak, st.rerolls+o.o.peak)
			}
			return res.outs, nil
		}
		outs := make([]cpOut, len(res.outs))
		for i, o := range res.outs {
			c := *o.o
			c.delta += shift
			c.peak += shift
			if st.rerolls+c.peak > r.b.prog.limits.MaxRerolls {
				return nil, errNoFork
			}
			r.peak = max(r.peak, st.rerolls+c.peak)
			outs[i] = cpOut{o: &c, p: o.p}
		}
		return outs, nil
	}
	var explore func(path []branchOutcome) ([]cpOut, error)
	node := func(path []branchOutcome) ([]cpOut, error) {
		if err := ctxErr(r.ctx); err != nil {
			return nil, err
		}
		a.runs++
		if a.runs > a.maxPaths {
			return nil, finalError{errPaths{round: a.round, max: a.maxPaths}}
		}
		r.restore(st)
		f.path, f.at, f.last, f.cps = path, 0, parent.last, f.cps[:0]
		err := part()
		cps := slices.Clone(f.cps)
		outs, err := explore2(r, a, path, err, explore, st, lo, hi)
		var hit errMemo
		if errors.As(err, &hit) {
			// All the checkpoints this run passed lead where the hit does.
			outs, err = shifted(hit.res, r.rerolls)
			if err != nil && !errors.As(err, new(errLoop)) {
				return nil, err
			}
		}
		var looped errLoop
		switch {
		case err == nil:
			for _, cp := range cps {
				f.memo[cp.key] = &cpResult{outs: outs, rerolls: cp.rerolls}
			}
		case errors.As(err, &looped):
			for _, cp := range cps {
				f.memo[cp.key] = &cpResult{loop: &looped}
			}
		}
		return outs, err
	}
	explore = node
	outs, err := explore(nil)
	if err != nil {
		return nil, err
	}
	if f.whole {
		if outs, err = r.loopedStart(a, outs); err != nil {
			return nil, err
		}
	}
	// A result's peak is the part's: the most rerolls any of its paths counted.
	pk := r.peak - st.rerolls
	m := &forkMemo{}
	for _, o := range outs {
		c := *o.o
		c.peak = max(c.peak, pk)
		m.outs = append(m.outs, branchOutcome{fork: &c, p: o.p})
	}
	return m, nil
}

// explore2 goes on from a run of a forked part that ended with err: a
// result, or a branch point whose outcomes it explores, merging their
// results.
func explore2(r *orderRun, a *analysis, path []branchOutcome, err error, explore func([]branchOutcome) ([]cpOut, error), st *runState, lo, hi int) ([]cpOut, error) {
	var br errBranch
	var ls errLoopStart
	switch {
	case err == nil:
		o := r.capture(st, lo, hi)
		o.key = r.outKey(a, o)
		return []cpOut{{o: o, p: one}}, nil
	case errors.As(err, &ls):
		return []cpOut{{o: &forkOut{loopStart: true, pos: ls.pos, key: "\x00loop"}, p: one}}, nil
	case errors.As(err, &br):
	default:
		return nil, err
	}
	if a.runs+len(br.outcomes) > a.maxPaths {
		// Each takes a path at least.
		return nil, finalError{errPaths{round: a.round, max: a.maxPaths}}
	}
	if a.doomed(len(br.outcomes)) {
		return nil, finalError{errDoomed}
	}
	defer a.pend(len(br.outcomes))()
	// The results that leave the same state are merged as they come, in
	// the order they first came; the reroll count kept is the most of any
	// (it only ever meets a limit). A merged probability is changed in
	// place only once it is this node's own: until then it may be a
	// child's, or an outcome's.
	var merged []cpOut
	var owned []bool
	at := map[string]int{}
	tmp := new(big.Rat)
	loop := new(big.Rat)
	var looped errLoop
	for _, bo := range br.outcomes {
		a.pending--
		sub, err := explore(append(slices.Clip(path), bo))
		if errors.As(err, &looped) {
			loop.Add(loop, bo.p)
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, o := range sub {
			i, ok := at[o.o.key]
			if !ok {
				at[o.o.key] = len(merged)
				if o.p == one {
					merged, owned = append(merged, cpOut{o: o.o, p: bo.p}), append(owned, false)
				} else {
					merged, owned = append(merged, cpOut{o: o.o, p: new(big.Rat).Mul(o.p, bo.p)}), append(owned, true)
				}
				continue
			}
			m := &merged[i]
			if o.o.delta > m.o.delta || o.o.peak > m.o.peak {
				c := *m.o
				c.delta, c.peak = max(c.delta, o.o.delta), max(c.peak, o.o.peak)
				m.o = &c
			}
			if !owned[i] {
				m.p, owned[i] = new(big.Rat).Set(m.p), true
			}
			if o.p == one {
				m.p.Add(m.p, bo.p)
			} else {
				m.p.Add(m.p, tmp.Mul(o.p, bo.p))
			}
		}
	}
	if loop.Sign() > 0 {
		rest := new(big.Rat).Sub(big.NewRat(1, 1), loop)
		if rest.Sign() == 0 {
			return nil, finalError{neverEnds(a.round, looped.pos, "every roll ties again, so the reroll never ends")}
		}
		for i := range merged {
			if owned[i] {
				merged[i].p.Quo(merged[i].p, rest)
			} else {
				merged[i].p = new(big.Rat).Quo(merged[i].p, rest)
			}
		}
	}
	return merged, nil
}

// capture notes the state a run of a forked part left.
func (r *orderRun) capture(st *runState, lo, hi int) *forkOut {
	o := &forkOut{perm: slices.Clone(r.perm[lo:hi]), cut: slices.Clone(r.cut[lo:hi]), delta: r.rerolls - st.rerolls,
		peak: r.peak - st.rerolls, chooser: r.chooser, choseIn: r.choseIn, handed: r.handedOn, drawn: r.drawn,
		within: st.names}
	o.why = make([]why, len(o.perm))
	for k, i := range o.perm {
		o.why[k] = r.reason[i]
	}
	if len(r.groups) > len(st.groups) {
		o.groups = slices.Clone(r.groups[len(st.groups):])
	}
	if r.nested != st.nested {
		panic("forked part left nested changed")
	}
	if f := r.forking().top(); f.handedDead {
		o.handed = false
	}
	if r.depth == 0 {
		// The whole order's: what is left of the computation is only its
		// order, reasons, chooser and groups.
		o.handed, o.drawn, o.delta, o.peak = false, false, 0, 0
	}
	o.decks = r.b.decks
	// Decks whose contents no longer matter once the order is made (see
	// Program.deadDecks) are left whole, so that results that dealt them
	// otherwise are one: once the order is made, or once every subject
	// is placed, when nothing more of the computation can draw.
	if len(o.decks) > 0 && (r.depth == 0 || !slices.Contains(r.cut, false)) {
		if dead := r.forking().an.deadOf(r.b.prog, r.o); len(dead) > 0 {
			var m map[deckKey][]string
			for k := range o.decks {
				if dead[k.deck] {
					if m == nil {
						m = maps.Clone(o.decks)
					}
					delete(m, k)
				}
			}
			if m != nil {
				if len(m) == 0 {
					m = nil
				}
				o.decks = m
			}
		}
	}
	return o
}

// deadOf is Program.deadDecks, worked out once per order.
func (a *analysis) deadOf(p *Program, o *order) map[string]bool {
	dead, ok := a.dead[o]
	if !ok {
		dead = p.deadDecks(o)
		a.dead[o] = dead
	}
	return dead
}

// holdsDead reports whether decks holds a deck that is dead (see canon).
func (r *orderRun) holdsDead(decks map[deckKey][]string) bool {
	for k := range decks {
		if r.canon[k.deck] {
			return true
		}
	}
	return false
}

// canonDecks appends the decks to a sub-problem's key with the dead ones
// (r.canon: drawn from by this computation alone, whole when it started,
// and of no further interest once it is made) written as the ranks of
// the values of their cards among those of every deck of theirs left,
// not as their cards: a tie flipped from 1, 5 and 9 left and one flipped
// from 2, 3 and 4 left go on alike. Only the values' order matters to a
// draw's ranking, and a result that carries none of them is the same
// from both (see forked). It reports false when a dead deck is whole
// (its values would be every value: no shorter key).
func (r *orderRun) canonDecks(k []byte) ([]byte, bool) {
	b := r.b
	keys := slices.SortedFunc(maps.Keys(b.decks), compareDeckKeys)
	for name := range r.canon {
		rz := b.prog.randomizers[name]
		n := 0
		for _, dk := range keys {
			if dk.deck == name {
				n++
			}
		}
		if rz == nil || !rz.perSide && n != 1 || rz.perSide && n != len(b.sides) {
			return k, false
		}
	}
	ranks := map[string][]int{}
	for _, dk := range keys {
		if !r.canon[dk.deck] || ranks[dk.deck] != nil {
			continue
		}
		rz := b.prog.randomizers[dk.deck]
		var vals []int
		for _, other := range keys {
			if other.deck == dk.deck {
				for _, c := range b.decks[other] {
					v, _ := rz.valueOf(c)
					vals = append(vals, v)
				}
			}
		}
		ranks[dk.deck] = distinctInts(vals)
	}
	for _, dk := range keys {
		k = strconv.AppendQuote(k, dk.deck)
		k = strconv.AppendQuote(k, dk.side)
		k = append(k, ':')
		if !r.canon[dk.deck] {
			for _, c := range b.decks[dk] {
				k = strconv.AppendQuote(k, c)
			}
			k = append(k, ';')
			continue
		}
		rz := b.prog.randomizers[dk.deck]
		rs := make([]int, 0, len(b.decks[dk]))
		for _, c := range b.decks[dk] {
			v, _ := rz.valueOf(c)
			at, _ := slices.BinarySearch(ranks[dk.deck], v)
			rs = append(rs, at)
		}
		slices.Sort(rs)
		k = append(k, '#')
		for _, x := range rs {
			k = strconv.AppendInt(k, int64(x), 10)
			k = append(k, ',')
		}
		k = append(k, ';')
	}
	return k, true
}

// loopedStart conditions away, from the results of a whole order's fork,
// its draws back where its first draw was (see drawLoop), as the replay
// does at that draw's branch point.
func (r *orderRun) loopedStart(a *analysis, outs []cpOut) ([]cpOut, error) {
	loop := new(big.Rat)
	var pos dsl.Pos
	kept := outs[:0:0]
	for _, o := range outs {
		if o.o.loopStart {
			loop.Add(loop, o.p)
			pos = o.o.pos
			continue
		}
		kept = append(kept, o)
	}
	if loop.Sign() == 0 {
		return outs, nil
	}
	rest := new(big.Rat).Sub(big.NewRat(1, 1), loop)
	if rest.Sign() == 0 {
		return nil, finalError{neverEnds(a.round, pos, "every roll ties again, so the reroll never ends")}
	}
	for i := range kept {
		kept[i].p = new(big.Rat).Quo(kept[i].p, rest)
	}
	return kept, nil
}

// outKey names a result's state, but for its reroll counts.
func (r *orderRun) outKey(a *analysis, o *forkOut) string {
	k := a.key[:0]
	for i, p := range o.perm {
		k = a.appendPlace(k, p, o.cut[i], o.why[i])
	}
	k = append(k, '|')
	k = append(k, o.chooser...)
	k = append(k, '|')
	k = strconv.AppendInt(k, int64(o.choseIn), 10)
	k = append(k, '|', bit(o.handed), bit(o.drawn), '|')
	k = appendGroups(k, o.groups)
	k = append(k, '|')
	k = appendDecks(k, o.decks)
	a.key = k
	return string(k)
}

// appendDecks appends what is left of the decks to a state key.
func appendDecks(k []byte, decks map[deckKey][]string) []byte {
	if len(decks) == 0 {
		return k
	}
	for _, dk := range slices.SortedFunc(maps.Keys(decks), compareDeckKeys) {
		k = strconv.AppendQuote(k, dk.deck)
		k = strconv.AppendQuote(k, dk.side)
		k = append(k, ':')
		for _, c := range decks[dk] {
			k = strconv.AppendQuote(k, c)
		}
		k = append(k, ';')
	}
	return k
}

// appendPlace appends one position of a state key: its subject, whether a
// cut follows it, and why the subject is placed there.
func (a *analysis) appendPlace(k []byte, subject int, cut bool, w why) []byte {
	k = strconv.AppendInt(k, int64(subject), 10)
	k = append(k, bit(cut))
	k = strconv.AppendInt(k, int64(a.id(w.m)), 10)
	k = append(k, '/')
	k = append(k, w.by...)
	k = append(k, '/')
	if w.kept != nil {
		k = strconv.AppendInt(k, int64(a.id(w.kept)), 10)
	}
	return append(k, ',')
}

// appendGroups appends the tie groups of a state key.
func appendGroups(k []byte, groups []TieGroup) []byte {
	for _, g := range groups {
		k = strconv.AppendQuote(k, strings.Join(g.Members, "\x00"))
		k = append(k, '/')
		k = append(k, g.Chooser...)
		k = append(k, '/')
		k = strconv.AppendInt(k, int64(g.ChoiceRound), 10)
		k = append(k, ';')
	}
	return k
}

// finalError is an analysis error that names its round already.
type finalError struct{ error }

func (e finalError) Unwrap() error { return e.error }
