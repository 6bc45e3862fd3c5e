package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
)

// Exact odds.
//
// The analyser plays a round again and again through enumerating dice:
// every roll is a branch point whose outcomes are explored with their
// probabilities, as exact fractions. Order computations are forked inside
// the round (fork.go), so the round's replays branch on an order's
// distinct results rather than on every roll that made it. A reroll of a group that is tied
// again is the same situation as before the roll, so it is conditioning,
// not truncation: the looping outcomes are dropped and the others scaled up
// (an unbounded "reroll until someone wins" gets its exact limit). Equal
// battle states are merged after every round, so N rounds cost about N
// times one round rather than 6^N.

// OddsOptions configures Odds.
type OddsOptions struct {
	// Rounds is how many rounds to analyse, at least 1: from round 1
	// (Program.Odds), or the rounds after the battle's last (Battle.Odds).
	// There is no default: 0 is an error.
	Rounds int
	// Decider answers decisions; the default follows the ruleset's
	// policies. It must be deterministic.
	Decider Decider
	// SequenceRounds: holder sequences are reported for battles of at most
	// this many rounds (default 6).
	SequenceRounds int
	// MaxPaths bounds the paths explored in one round from one state
	// (default 1,000,000). A path is one run of the round, or of an order
	// computation or a reroll forked inside it (see fork.go): players
	// rolling off a D6, only the still-tied rolling again, take about
	// 5,400 for five, 55,000 for six and 611,000 for seven. A round the
	// forks take over the bound is played again path by path, up to it,
	// so that a rule that fails on a path before it is what is reported;
	// forks sure to go over it (the outcomes they have yet to explore
	// take a path each at least) are given up for that at once.
	MaxPaths int
	// MaxStates bounds the different states a battle can be in after a
	// round that another follows (default 20,000); past it, holder
	// sequences are given up first, and then the analysis. Every order a
	// round can end in is a state of its own, as previous.order.
	MaxStates int
	// Progress, if set, is called after each round with the rounds done
	// so far: a long analysis can show how far it has come.
	Progress func(done int)

	// replay turns forking off: every path is a replay of the round (the
	// engine before forking, kept as the oracle of its tests).
	replay bool
	// clones plays every replay on a clone of its own, rather than on one
	// battle the last replay's round was undone on (the oracle of that).
	clones bool
	// playOn plays forks that are sure to go over MaxPaths on until they
	// do, rather than giving them up at once (the oracle of that).
	playOn bool
}

// Prob is an exact probability of an outcome.
//
// As JSON, an OddsReport, its RoundOdds and Probs have lowercase keys, and
// each probability is an exact fraction in a string ("7/12"), as
// big.Rat's text is.
type Prob struct {
	Outcome []string `json:"outcome"`
	P       *big.Rat `json:"p"`
}

// RoundOdds is the distribution of one round's results.
type RoundOdds struct {
	Round int `json:"round"`
	// Holder is each side's chance to hold priority, 0 for a side that
	// never does (see Battle.HolderSide: when the main order ranks units,
	// the side of the first unit holds it). Orders tell the units apart.
	Holder map[string]*big.Rat `json:"holder"`
	Orders []Prob              `json:"orders"` // sorted by probability, most likely first
	// First is, for each order of the ruleset by name (`order ... as
	// NAME`), each subject's chance to be first in it after the round: a
	// side, or for an order of units a unit. The main order's is who
	// holds priority, by subject. An order not made by then is absent.
	First map[string]map[string]*big.Rat `json:"first,omitempty"`
}

// OddsReport is the exact analysis of a battle.
type OddsReport struct {
	Ruleset   string      `json:"ruleset"`
	Sides     []string    `json:"sides"`
	Rounds    []RoundOdds `json:"rounds"`
	Sequences []Prob      `json:"sequences"` // the side holding priority per round; nil for long battles
	// Expected is each side's expected number of rounds holding priority.
	Expected map[string]*big.Rat `json:"expected"`
	// Replays counts the rounds played, and the order computations and
	// rerolls run again inside them (see OddsOptions.MaxPaths), to explore
	// every path: the work the analysis did, the forks' paths included
	// when a round they could not follow, or took over MaxPaths, was
	// played again path by path.
	Replays int `json:"replays"`
}

// ErrNeverResolves is returned when a reroll can never break a tie.
var ErrNeverResolves = errors.New("a tie can never be resolved")

// neverEnds is ErrNeverResolves at the roll at pos, worded as every other
// error of a round is: "round N: file:line:col: ...".
func neverEnds(round int, pos dsl.Pos, msg string) error {
	return &RoundError{Round: round, Err: &RuleError{Pos: pos, Err: fmt.Errorf("%s: %w", msg, ErrNeverResolves)}}
}

// Odds computes exact odds for a battle between sides, from round 1.
// Battle.Odds computes them for a battle under way.
func (p *Program) Odds(ctx context.Context, sides []SideSpec, opt OddsOptions) (*OddsReport, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if !p.HasHolder() {
		return nil, noHolderError("Odds", p)
	}
	start, err := p.NewBattle(sides, WithTranscript(false), WithDecider(opt.Decider))
	if err != nil {
		return nil, err
	}
	return start.odds(ctx, opt)
}

// Odds computes exact odds for the next opt.Rounds rounds of the battle as
// it stands between rounds: its round number, sides, units removed,
// attributes and statuses, standings and memory (previous.holder,
// previous.chooser and remembered values) all count, as they do when the
// battle plays on, so a host can show the odds of the battle at its
// table, not of a fresh one between the same sides. RoundOdds.Round
// numbers the rounds as the battle does: the first is Round()+1. The
// battle itself is not changed, and its dice, decider and Go hooks take
// no part: decisions follow opt.Decider, and no Go hook runs, as in the
// battles of Program.Odds. With a round under way it returns ErrRoundUnderWay
// (odds are of whole rounds), and from a hook, a Decider or Dice
// ErrInCallback.
func (b *Battle) Odds(ctx context.Context, opt OddsOptions) (*OddsReport, error) {
	if err := b.ready("Odds"); err != nil {
		return nil, err
	}
	if b.InRound() {
		return nil, markErrorf(ErrRoundUnderWay, "Odds: round %d has not ended: odds are of whole rounds", b.round)
	}
	if !b.prog.HasHolder() {
		return nil, noHolderError("Odds", b.prog)
	}
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	return b.Clone(WithTranscript(false), WithDecider(opt.Decider), WithoutHooks()).odds(ctx, opt)
}

// noHolderError refuses odds of a ruleset that orders no sides: they are
// of who holds priority, and nobody does.
func noHolderError(what string, p *Program) error {
	return markErrorf(ErrNoOrder, "%s: ruleset %s has no order of sides: nobody holds priority, so there is no holder to tabulate", what, p.name)
}

// withDefaults checks opt and fills in its defaults.
func (opt OddsOptions) withDefaults() (OddsOptions, error) {
	// Named as the method, as its other errors are ("Odds: round 2 has
	// not ended"), and the option as the field a host sets.
	if opt.Rounds < 1 {
		return opt, fmt.Errorf("Odds: Rounds is %d: odds are of 1 round or more", opt.Rounds)
	}
	for _, o := range []struct {
		name string
		v    int
	}{{"SequenceRounds", opt.SequenceRounds}, {"MaxPaths", opt.MaxPaths}, {"MaxStates", opt.MaxStates}} {
		if o.v < 0 {
			return opt, fmt.Errorf("Odds: %s is %d: it is a bound, 0 for the default or more", o.name, o.v)
		}
	}
	if isNil(opt.Decider) {
		opt.Decider = Policy{}
	}
	if opt.SequenceRounds == 0 {
		opt.SequenceRounds = 6
	}
	if opt.MaxPaths == 0 {
		opt.MaxPaths = 1_000_000
	}
	if opt.MaxStates == 0 {
		opt.MaxStates = 20_000
	}
	return opt, nil
}

// odds analyses the rounds after start's, which it plays on: a battle
// between rounds with no transcript, hooks or dice of a host's.
func (start *Battle) odds(ctx context.Context, opt OddsOptions) (*OddsReport, error) {
	p := start.prog
	// Forked parts are run again and again and their results reused, which
	// only the ruleset's own policies, or overrides of them, are sure to
	// allow: a host's decider may keep count.
	fork := !opt.replay
	switch d := opt.Decider.(type) {
	case Policy, Override:
	case Answers:
		switch d.Else.(type) {
		case nil, Policy, Override:
		default:
			fork = false
		}
	default:
		fork = false
	}
	// Whole orders' results that hold from any state (see forkOrder).
	shared := map[string]*forkMemo{}
	// A roll's outcomes depend only on its shape: a large one takes
	// seconds, too long to take again for every state every round.
	rolls := newRollCache()
	rep := &OddsReport{Ruleset: p.name, Expected: map[string]*big.Rat{}}
	for _, s := range start.sides {
		rep.Sides = append(rep.Sides, s.Name)
		rep.Expected[s.Name] = new(big.Rat)
	}
	standings := p.Standings()
	seqs := opt.Rounds <= opt.SequenceRounds
	// A state is one the battle can be in after a round, with its
	// probability and, when sequences are wanted, the probability of each
	// holder sequence that led to it (they add up to p). A round's
	// outcomes from a state do not depend on how the battle got there:
	// each state's round is enumerated once, its outcomes' probabilities
	// are added up by the state they end in, and only the sequences are
	// carried on per sequence and outcome, by one product and one sum.
	// (Five players' fifth round starts from 120 states reached by 125
	// sequences each: 1.8 million of those, against 14,400.)
	type state struct {
		b    *Battle
		key  string
		p    *big.Rat
		seqs []seqProb
		// While the round that ends in it is summed: the holder and order
		// of the outcome that first reached it, and the part of p that
		// came with another holder or order (nil for none), counted on
		// its own. Outcomes that end in the same state have the same
		// holder and order as a rule, so the round's odds are counted
		// once per state rather than once per outcome of every state.
		holder string
		order  []string
		firsts []string
		odd    *big.Rat
	}
	var hist history
	states := []*state{{b: start, p: big.NewRat(1, 1), seqs: []seqProb{{id: hist.root(), p: big.NewRat(1, 1)}}}}
	final := map[int32]*big.Rat{} // each sequence's probability after the last round
	tmp := new(big.Rat)
	for round := 1; round <= opt.Rounds; round++ {
		ro := RoundOdds{Round: start.round + round, Holder: map[string]*big.Rat{}, First: map[string]map[string]*big.Rat{}}
		for _, s := range rep.Sides {
			ro.Holder[s] = new(big.Rat)
		}
		orders := map[string]*big.Rat{}
		// count adds p to the round's odds of holder and order, and of who
		// is first in each order.
		count := func(holder string, order, firsts []string, p *big.Rat) {
			if holder != "" { // nobody holds priority when there is nothing to order
				addTo(ro.Holder, holder, p)
				addTo(rep.Expected, holder, p)
			}
			addTo(orders, strings.Join(order, "\x00"), p)
			for i, name := range standings {
				if i < len(firsts) && firsts[i] != "" {
					if ro.First[name] == nil {
						ro.First[name] = map[string]*big.Rat{}
					}
					addTo(ro.First[name], firsts[i], p)
				}
			}
		}
		next := map[string]*state{}
		known := func(key string) bool { return next[key] != nil }
		var keys []string
		// The (state, sequence) pairs reached so far, while sequences are
		// followed: each one's place in its state's seqs (after the last
		// round they are only counted). Past MaxStates of them, the
		// sequences are given up, and the arithmetic with them stops
		// there.
		type pair struct {
			st  *state
			seq int32
		}
		pairs := map[pair]int{}
		// Each state's round is enumerated, and its outcomes kept, one at
		// a time (six players' second round starts from 720 states with
		// 720 outcomes each). They are taken in the order of their keys,
		// so that which state meets the shared orders' and rolls' caches
		// first, and so Replays, does not depend on the order the states
		// were reached in. The order changes no sum: the sums are exact.
		slices.SortFunc(states, func(x, y *state) int { return strings.Compare(x.key, y.key) })
		var to []*state // each outcome's next state
		last := round == opt.Rounds
		var holders []string    // in the last round, a state's outcomes' holders
		var byHolder []*big.Rat // and the probability of each
		var group []int         // each outcome's holder, by its index in holders
		for _, st := range states {
			outs, replays, err := enumerateRound(ctx, st.b, opt.MaxPaths, fork, shared, rolls, roundMode{doom: !opt.playOn, clones: opt.clones, known: known})
			if err != nil {
				return nil, err
			}
			rep.Replays += replays
			to = to[:0]
			for _, o := range outs {
				ns := next[o.key]
				switch {
				case ns == nil:
					ns = &state{b: o.b, key: o.key, p: new(big.Rat).Mul(st.p, o.p), holder: o.holder, order: o.order, firsts: o.firsts}
					next[o.key] = ns
					keys = append(keys, o.key)
				case o.holder == ns.holder && slices.Equal(o.order, ns.order) && slices.Equal(o.firsts, ns.firsts):
					ns.p.Add(ns.p, tmp.Mul(st.p, o.p))
				default:
					pr := new(big.Rat).Mul(st.p, o.p)
					ns.p.Add(ns.p, pr)
					if ns.odd == nil {
						ns.odd = new(big.Rat)
					}
					ns.odd.Add(ns.odd, pr)
					count(o.holder, o.order, o.firsts, pr)
				}
				to = append(to, ns)
			}
			if !seqs {
				continue
			}
			// After the last round the states are only summed: a
			// sequence's probability needs the state's outcomes only by
			// holder, one product per sequence and holder rather than per
			// sequence and outcome. The pairs are counted all the same, so
			// that the sequences are given up exactly where following them
			// as states would.
			holders, byHolder, group = holders[:0], byHolder[:0], group[:0]
			if last {
				for _, o := range outs {
					g := slices.Index(holders, o.holder)
					if g < 0 {
						g = len(holders)
						holders, byHolder = append(holders, o.holder), append(byHolder, new(big.Rat))
					}
					byHolder[g].Add(byHolder[g], o.p)
					group = append(group, g)
				}
			}
			ids := make([]int32, len(holders))
		carry:
			for _, sp := range st.seqs {
				for g, h := range holders {
					ids[g] = hist.child(sp.id, h)
				}
				for i, o := range outs {
					k := pair{st: to[i]}
					if last {
						k.seq = ids[group[i]]
					} else {
						k.seq = hist.child(sp.id, o.holder)
					}
					at, ok := pairs[k]
					if !ok {
						if len(pairs) == opt.MaxStates {
							// Too many holder sequences to follow: follow the battles.
							seqs = false
							for _, ns := range next {
								ns.seqs = nil
							}
							pairs, final = nil, nil
							break carry
						}
						at = len(k.st.seqs)
						pairs[k] = at
						if !last {
							k.st.seqs = append(k.st.seqs, seqProb{id: k.seq, p: new(big.Rat)})
						}
					}
					if !last {
						q := k.st.seqs[at].p
						q.Add(q, tmp.Mul(sp.p, o.p))
					}
				}
				for g, id := range ids {
					if final[id] == nil {
						final[id] = new(big.Rat)
					}
					final[id].Add(final[id], tmp.Mul(sp.p, byHolder[g]))
				}
			}
		}
		for _, k := range keys {
			ns := next[k]
			p := ns.p
			if ns.odd != nil {
				p = new(big.Rat).Sub(p, ns.odd)
			}
			count(ns.holder, ns.order, ns.firsts, p)
		}
		for k, v := range orders {
			var order []string // empty, not [""], when there was nothing to order
			if k != "" {
				order = strings.Split(k, "\x00")
			}
			ro.Orders = append(ro.Orders, Prob{Outcome: order, P: v})
		}
		sortProbs(ro.Orders)
		rep.Rounds = append(rep.Rounds, ro)
		states = states[:0]
		for _, k := range keys {
			states = append(states, next[k])
		}
		// The states after the last round are only summed, never played
		// on: a round with many outcomes (a random order of nine units)
		// has its odds even when they are too many to follow.
		if round < opt.Rounds && len(states) > opt.MaxStates {
			return nil, fmt.Errorf("after round %d the battle can be in more than %d different states (each order a round can end in is remembered as previous.order, and so is each value of a remembered value that keeps growing), too many to follow exactly: %w",
				round, opt.MaxStates, ErrLimit)
		}
		if opt.Progress != nil {
			opt.Progress(round)
		}
	}
	if seqs {
		for id, p := range final {
			rep.Sequences = append(rep.Sequences, Prob{Outcome: hist.holders(id), P: p})
		}
		sortProbs(rep.Sequences)
	}
	return rep, nil
}

// seqProb is the probability of a holder sequence, by its id in a history.
type seqProb struct {
	id int32
	p  *big.Rat
}

// history numbers the holder sequences of an analysis: each is its
// predecessor and one more holder, so extending one costs a lookup, not a
// copy of it.
type history struct {
	parent []int32
	holder []string
	at     map[seqStep]int32
}

type seqStep struct {
	parent int32
	holder string
}

// root returns the empty sequence.
func (h *history) root() int32 {
	if h.at == nil {
		h.at = map[seqStep]int32{}
		h.parent, h.holder = []int32{-1}, []string{""}
	}
	return 0
}

// child returns the sequence id followed by holder ("" when nobody holds).
func (h *history) child(id int32, holder string) int32 {
	k := seqStep{id, holder}
	if c, ok := h.at[k]; ok {
		return c
	}
	c := int32(len(h.parent))
	h.parent, h.holder = append(h.parent, id), append(h.holder, holder)
	h.at[k] = c
	return c
}

// holders returns the holders of sequence id, first round first.
func (h *history) holders(id int32) []string {
	var out []string
	for ; id > 0; id = h.parent[id] {
		out = append(out, h.holder[id])
	}
	slices.Reverse(out)
	return out
}

func addTo(m map[string]*big.Rat, k string, p *big.Rat) {
	if m[k] == nil {
		m[k] = new(big.Rat)
	}
	m[k].Add(m[k], p)
}

func sortProbs(ps []Prob) {
	sort.Slice(ps, func(i, j int) bool {
		if c := ps[i].P.Cmp(ps[j].P); c != 0 {
			return c > 0
		}
		return strings.Join(ps[i].Outcome, ",") < strings.Join(ps[j].Outcome, ",")
	})
}

// outcome is one distinct end state of a round.
type outcome struct {
	b      *Battle
	key    string
	holder string // its side
	order  []string
	firsts []string // who is first in each order, as Program.Standings lists them ("" for an order not made)
	p      *big.Rat
	// loop, for a path of draws that comes back to a state it left (see
	// errLoop.back), is where: the branch point that conditions it away.
	loop *errLoop
}

// firsts returns who is first in each of the battle's orders, as
// Program.Standings lists them: "" for one not made, or empty.
func (b *Battle) firsts() []string {
	out := make([]string, len(b.prog.orderList))
	for i, o := range b.prog.orderList {
		if st := b.standings[o.id]; st != nil && len(st.Order) > 0 {
			out[i] = st.Order[0]
		}
	}
	return out
}

// errBranch stops a replay at a branch point the path has not decided.
// more, if set, says outcomes are only the first ones, and works out the
// first k, and whether there are more still (see enumDice.Roll).
type errBranch struct {
	outcomes []branchOutcome
	more     func(k int) ([]branchOutcome, bool, error)
}

// firstOutcomes is how many outcomes of a roll with more than the paths
// left are worked out at first; listFirst how many of any roll are listed
// before they are counted (about 15 MB).
const (
	firstOutcomes = 1024
	listFirst     = 1 << 16
)

// rollCache holds the outcomes of the rolls an analysis met, by shape,
// and how many there are of those with more than the paths left when they
// were met.
type rollCache struct {
	outs    map[string][]branchOutcome
	counted map[string][2]int // the outcomes counted, up to a limit
}

func newRollCache() *rollCache {
	return &rollCache{outs: map[string][]branchOutcome{}, counted: map[string][2]int{}}
}

// over reports whether the roll has more outcomes than left, counting
// them only as far as needed.
func (c *rollCache) over(ctx context.Context, key string, req RollRequest, left int) (bool, error) {
	if n, ok := c.counted[key]; ok && (n[0] < n[1] || left < n[1]) {
		return n[0] > left, nil
	}
	if n, ok := rankings(req); ok {
		c.counted[key] = [2]int{n, n + 1}
		return n > left, nil
	}
	var n int
	if _, err := rollOutcomes(ctx, req, left+1, &n); err != nil && !errors.Is(err, errOutcomes) {
		return false, err
	}
	c.counted[key] = [2]int{n, left + 1}
	return n > left, nil
}

// rankings returns how many outcomes a roll has, without enumerating
// them, when every subject has the same modifier (or none): each way of
// ranking the subjects in at most as many groups as the dice have totals
// is an outcome (an ordered partition of the subjects: eight players on a
// D6 have 364,395, which took half a second to count). Other rolls are
// counted.
func rankings(req RollRequest) (int, bool) {
	n := len(req.Subjects)
	mod := func(k int) int {
		if k < len(req.Modifiers) {
			return req.Modifiers[k]
		}
		return 0
	}
	for k := 1; k < n; k++ {
		if mod(k) != mod(0) {
			return 0, false
		}
	}
	if n == 0 {
		return 1, true
	}
	groups := min(n, req.Count*(req.Faces-1)+1)
	if req.Values != nil {
		groups = min(n, len(distinctInts(req.Values)))
	}
	// stirling[k]: the ways to split the subjects so far into k groups.
	stirling := make([]int, groups+1)
	stirling[0] = 1
	for i := 1; i <= n; i++ {
		for k := min(i, groups); k >= 1; k-- {
			stirling[k] = k*stirling[k] + stirling[k-1]
		}
		stirling[0] = 0
	}
	count, orders := 0, 1 // orders: k!, the orders of k groups
	for k := 1; k <= groups; k++ {
		orders *= k
		count += orders * stirling[k]
	}
	return count, true
}

func (errBranch) Error() string { return "branch" }

// errLoop stops a replay that rerolls a group tied again: the state is
// the one before the previous roll. pos is the roll's rule.
//
// For draws, back is 1 + the number of branch points the path had passed
// when it left the state it is back in: a tie that draws again and again
// until the decks run out and are reshuffled is back where it started,
// many draws before. The branch point there conditions the loop away. For
// rolls, back is 0: the state is the one before this roll's own branch.
type errLoop struct {
	pos  dsl.Pos
	back int
}

func (errLoop) Error() string { return "loop" }

type branchOutcome struct {
	rolls []int
	pick  int
	fork  *forkOut // a forked part's result
	p     *big.Rat
}

// enumDice replays a path of outcomes and stops at the first undecided
// branch point. When the analysis forks, each forked part being
// enumerated has a frame of its own (see fork.go).
type enumDice struct {
	frames []*frame
	an     *analysis
}

func (d *enumDice) top() *frame { return d.frames[len(d.frames)-1] }

func (d *enumDice) Roll(ctx context.Context, req RollRequest) ([]int, error) {
	drawn := req.Drawn()
	if !drawn {
		// A draw is never a loop: it changes the deck.
		if err := d.loops(req.Subjects, req.Attempt, req.Pos); err != nil {
			return nil, err
		}
	}
	f := d.top()
	f.last = lastRoll{}
	if req.Attempt > 0 && !drawn {
		f.last.subjects = slices.Clone(req.Subjects)
	}
	if f.at < len(f.path) {
		f.at++
		bo := f.path[f.at-1]
		if bo.fork != nil || bo.rolls == nil {
			return nil, fmt.Errorf("internal error: a replay met a roll where it had made another choice")
		}
		return bo.rolls, nil
	}
	if drawn {
		return nil, errBranch{outcomes: drawOutcomes(req)}
	}
	// Every replay of a round reaches the same few rolls: work out each
	// one's outcomes once. They are only read.
	// The key is built in the analysis's scratch, and only a roll not
	// met before copies it: a replay looks up every roll it reaches.
	d.an.rollKey = appendRollKey(d.an.rollKey[:0], req)
	outs, ok := d.an.rolls.outs[string(d.an.rollKey)]
	if !ok {
		key := string(d.an.rollKey)
		// Each outcome takes a path at least: the forks, which explore
		// them all, are over the bound at once when there are more than
		// the paths left, and the replay, which explores them in the
		// order of the dice, meets it after the first of them. Nine
		// players on a D5 have a million outcomes, which took seconds
		// and hundreds of megabytes before anything was explored: past
		// the paths left, they are only counted, and the replay works
		// out its first ones a few at a time (see more).
		left := d.an.maxPaths - d.an.runs
		// Most rolls have few outcomes: listed at once, they need no count.
		var err error
		outs, err = rollOutcomes(ctx, req, min(left+1, listFirst), nil)
		listed := !errors.Is(err, errOutcomes)
		over := false
		if !listed {
			over, err = d.an.rolls.over(ctx, key, req, left)
		}
		switch {
		case err != nil:
			return nil, err
		case over && d.an.fork:
			return nil, finalError{errPaths{round: d.an.round, max: d.an.maxPaths}}
		case over:
			// Their probabilities are partial: the replay meets the
			// bound before it adds them up. more keeps a copy of req:
			// were it to keep req itself, every roll, replayed or not,
			// would copy its request to the heap.
			req := req
			more := func(k int) ([]branchOutcome, bool, error) {
				outs, err := rollOutcomes(ctx, req, k, nil)
				if errors.Is(err, errOutcomes) {
					return outs, true, nil
				}
				return outs, false, err
			}
			first, _, err := more(firstOutcomes)
			if err != nil {
				return nil, err
			}
			return nil, errBranch{outcomes: first, more: more}
		}
		if !listed {
			if outs, err = rollOutcomes(ctx, req, 0, nil); err != nil {
				return nil, err
			}
		}
		d.an.rolls.outs[key] = outs
	}
	return nil, errBranch{outcomes: outs}
}

// appendRollKey appends the key of a roll's shape in the roll cache:
// what fmt.Sprint(len(req.Subjects), req.Count, req.Faces, req.Modifiers)
// writes, without boxing them.
func appendRollKey(k []byte, req RollRequest) []byte {
	k = strconv.AppendInt(k, int64(len(req.Subjects)), 10)
	k = append(k, ' ')
	k = strconv.AppendInt(k, int64(req.Count), 10)
	k = append(k, ' ')
	k = strconv.AppendInt(k, int64(req.Faces), 10)
	k = append(k, ' ', '[')
	for i, m := range req.Modifiers {
		if i > 0 {
			k = append(k, ' ')
		}
		k = strconv.AppendInt(k, int64(m), 10)
	}
	k = append(k, ']')
	if req.Values != nil {
		// A declared die: its faces' values rank the subjects.
		k = append(k, " ="...)
		for _, v := range req.Values {
			k = append(k, ' ')
			k = strconv.AppendInt(k, int64(v), 10)
		}
	}
	return k
}

// loops returns errLoop when a roll of subjects at attempt would repeat
// the last, which a reroll asks before it counts itself (see
// orderRun.reroll): a reroll of the group the last reroll left tied
// starts over from where that reroll did. Not so the first reroll: what
// the tie rules do after a reroll (a choice, say) did not follow the
// first roll.
func (d *enumDice) loops(subjects []string, attempt int, pos dsl.Pos) error {
	f := d.top()
	if attempt <= 1 {
		return nil
	}
	if f.last.within != nil {
		// The last roll was in a forked part whose result is all that is
		// known of it: if it may have been this group's, the fork cannot
		// tell.
		if overlaps(subjects, f.last.within) {
			return errNoFork
		}
	} else if slices.Equal(subjects, f.last.subjects) {
		return errLoop{pos: pos}
	}
	return nil
}

func (d *enumDice) Pick(ctx context.Context, req PickRequest) (int, error) {
	f := d.top()
	f.last = lastRoll{}
	if f.at < len(f.path) {
		f.at++
		bo := f.path[f.at-1]
		if bo.fork != nil || bo.rolls != nil {
			return 0, fmt.Errorf("internal error: a replay met a pick where it had made another choice")
		}
		return bo.pick, nil
	}
	n := len(req.Options)
	if req.Draw {
		// Dice of one colour lead to the same turn: one branch per side,
		// weighted by its dice, rather than one per die.
		sides, dice := req.Bag()
		outs := make([]branchOutcome, len(sides))
		for i, side := range sides {
			outs[i] = branchOutcome{pick: slices.Index(req.Options, side), p: big.NewRat(int64(dice[i]), int64(n))}
		}
		return 0, errBranch{outcomes: outs}
	}
	outs := make([]branchOutcome, n)
	for i := range outs {
		outs[i] = branchOutcome{pick: i, p: big.NewRat(1, int64(n))}
	}
	return 0, errBranch{outcomes: outs}
}

// drawOutcomes lists the outcomes of one draw from a deck: one for each
// different card left, as likely as the copies of it left, each drawing
// the first of its copies. Copies of a card leave the same deck behind;
// different cards do not, even of one value.
func drawOutcomes(req RollRequest) []branchOutcome {
	n := int64(len(req.Labels))
	var outs []branchOutcome
	for i, c := range req.Labels {
		if slices.Index(req.Labels, c) < i {
			continue
		}
		outs = append(outs, branchOutcome{rolls: []int{i + 1}, p: big.NewRat(int64(count(req.Labels, c)), n)})
	}
	return outs
}

// sumDist is the distribution of the total of count dice with faces sides:
// ways[t-count] of faces^count.
func sumDist(count, faces int) []*big.Int {
	ways := []*big.Int{big.NewInt(1)}
	for range count {
		next := make([]*big.Int, len(ways)+faces-1)
		for i := range next {
			next[i] = new(big.Int)
		}
		for i, w := range ways {
			for f := 0; f < faces; f++ {
				next[i+f].Add(next[i+f], w)
			}
		}
		ways = next
	}
	return ways
}

// maxTuples bounds the dice combinations one exact roll may enumerate.
const maxTuples = 4_000_000

// rollOutcomes lists the distinct results of a group roll. Only which
// subjects beat or tie which matters to an order, so combinations of totals
// that rank the subjects alike are one outcome, with their probabilities
// added: two players on a d6 have 3 outcomes, not 36. It stops when ctx is
// done: the largest rolls take seconds.
//
// Past limit outcomes (when it is above 0), it stops, with the first limit
// ones and errOutcomes.
//
// With count, it only counts them, into *count.
func rollOutcomes(ctx context.Context, req RollRequest, limit int, count *int) ([]branchOutcome, error) {
	n, dice, faces := len(req.Subjects), req.Count, req.Faces
	// Count the combinations of totals before working out their odds,
	// which for many large dice is itself slow.
	sums := dice*(faces-1) + 1
	tuples := 1
	for range n {
		if sums > maxTuples || tuples*sums > maxTuples { // tuples ≤ maxTuples: no overflow
			tuples = maxTuples + 1
		} else {
			tuples *= sums
		}
		if tuples > maxTuples {
			return nil, ruleErrorf(req.Pos, "%d subjects rolling %s make too many combinations to enumerate exactly: %w",
				n, diceName(dice, faces), ErrLimit)
		}
	}
	// Working out the sums of many large dice takes a while itself (a
	// quarter of a second for 5d400 in WebAssembly): not once more for a
	// context already done.
	if err := ctxErr(ctx); err != nil {
		return nil, err
	}
	ways := sumDist(dice, faces)
	if outs, ok, err := rollOutcomesSmall(ctx, req, ways, limit, count); ok || err != nil {
		return outs, err
	}
	return rollOutcomesBig(ctx, req, ways, limit, count)
}

// errOutcomes says a roll has more distinct outcomes than asked for.
var errOutcomes = errors.New("too many outcomes")

// checkEvery is how many combinations a roll's enumeration counts between
// looks at its context.
const checkEvery = 1 << 14 >> (4 * cooperativeBit)

// rollOutcomesBig is rollOutcomes counting in big integers; ways is
// sumDist(req.Count, req.Faces).
func rollOutcomesBig(ctx context.Context, req RollRequest, ways []*big.Int, limit int, count *int) ([]branchOutcome, error) {
	n, dice, faces := len(req.Subjects), req.Count, req.Faces
	denom := new(big.Int).Exp(big.NewInt(int64(faces)), big.NewInt(int64(dice)), nil)
	byRank := map[string]*branchOutcome{}
	var keys []string
	cur := make([]int, n)
	weight := make([]*big.Int, n+1)
	weight[0] = big.NewInt(1)
	totals := make([]int, n)
	var err error
	leaves := 0
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			if leaves++; leaves%checkEvery == 0 {
				err = ctxErr(ctx)
			}
			for k := range totals {
				totals[k] = req.valueOf(cur[k])
				if k < len(req.Modifiers) {
					totals[k] += req.Modifiers[k]
				}
			}
			key := rankKey(totals)
			o := byRank[key]
			if o == nil {
				if limit > 0 && len(keys) == limit {
					err = errOutcomes
					return
				}
				keys = append(keys, key)
				if count != nil {
					byRank[key] = &branchOutcome{}
					return
				}
				o = &branchOutcome{rolls: slices.Clone(cur), p: new(big.Rat)}
				byRank[key] = o
			}
			if count != nil {
				return
			}
			o.p.Add(o.p, new(big.Rat).SetInt(weight[n]))
			return
		}
		for k, w := range ways {
			if err != nil {
				return
			}
			if w.Sign() == 0 {
				continue
			}
			cur[i] = dice + k
			weight[i+1] = new(big.Int).Mul(weight[i], w)
			rec(i + 1)
		}
	}
	rec(0)
	if err != nil && err != errOutcomes {
		return nil, err
	}
	if count != nil {
		*count = len(keys)
		return nil, err
	}
	all := new(big.Rat).SetInt(new(big.Int).Exp(denom, big.NewInt(int64(n)), nil))
	out := make([]branchOutcome, len(keys))
	for i, k := range keys {
		o := byRank[k]
		o.p.Quo(o.p, all)
		out[i] = *o
	}
	return out, err
}

// rollOutcomesSmall is rollOutcomes counting in machine words, when every
// count fits in one (faces^(count·subjects) below 2^62): the same outcomes
// in the same order, many times faster (seven players on a D6 make
// 279,936 combinations).
func rollOutcomesSmall(ctx context.Context, req RollRequest, ways []*big.Int, limit int, count *int) ([]branchOutcome, bool, error) {
	n, dice, faces := len(req.Subjects), req.Count, req.Faces
	all := uint64(1)
	for range n * dice {
		if all > (1<<62)/uint64(faces) {
			return nil, false, nil
		}
		all *= uint64(faces)
	}
	w := make([]uint64, len(ways))
	for i, x := range ways {
		w[i] = x.Uint64()
	}
	// Up to 16 subjects, a ranking packs into a word (4 bits a place):
	// a million of them as strings took a hundred megabytes.
	at := map[string]int{}
	packed := map[uint64]int{}
	distinct := 0
	var outs []branchOutcome
	var sums []uint64
	cur := make([]int, n)
	weight := make([]uint64, n+1)
	weight[0] = 1
	totals := make([]int, n)
	key := make([]byte, n)
	var err error
	leaves := 0
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			if leaves++; leaves%checkEvery == 0 {
				err = ctxErr(ctx)
			}
			for k := range totals {
				totals[k] = req.valueOf(cur[k])
				if k < len(req.Modifiers) {
					totals[k] += req.Modifiers[k]
				}
			}
			// Each subject's place among the distinct totals, as rankKey.
			var pk uint64
			for k, t := range totals {
				r := 0
				for j, u := range totals {
					if u < t && !slices.Contains(totals[:j], u) {
						r++
					}
				}
				key[k] = byte(r)
				pk |= uint64(r) << (4 * k)
			}
			var o int
			var ok bool
			if n <= 16 {
				o, ok = packed[pk]
			} else {
				o, ok = at[string(key)]
			}
			if !ok {
				if limit > 0 && distinct == limit {
					err = errOutcomes
					return
				}
				o = distinct
				distinct++
				if n <= 16 {
					packed[pk] = o
				} else {
					at[string(key)] = o
				}
				if count != nil {
					return
				}
				outs = append(outs, branchOutcome{rolls: slices.Clone(cur)})
				sums = append(sums, 0)
			}
			if count == nil {
				sums[o] += weight[n]
			}
			return
		}
		for k, x := range w {
			if err != nil {
				return
			}
			if x == 0 {
				continue
			}
			cur[i] = dice + k
			weight[i+1] = weight[i] * x
			rec(i + 1)
		}
	}
	rec(0)
	if err != nil && err != errOutcomes {
		return nil, true, err
	}
	if count != nil {
		*count = distinct
	}
	for i := range outs {
		outs[i].p = new(big.Rat).SetFrac(new(big.Int).SetUint64(sums[i]), new(big.Int).SetUint64(all))
	}
	return outs, true, err
}

// rankKey names the ranking of totals: each subject's place among the
// distinct values.
func rankKey(totals []int) string {
	distinct := slices.Clone(totals)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	b := make([]byte, len(totals))
	for i, t := range totals {
		r, _ := slices.BinarySearch(distinct, t)
		b[i] = byte(r)
	}
	return string(b)
}

// enumerateRound explores every path of one round from b and returns the
// distinct end states with their probabilities. With fork, order
// computations are forked (see fork.go), and the replays of the round
// branch only on their results; a round the forks cannot follow is
// enumerated by replay alone.
//
// The forks, with mode.doom, are given up as soon as they are sure to go
// over the bound; mode.clones is for every replay.
func enumerateRound(ctx context.Context, b *Battle, maxPaths int, fork bool, orders map[string]*forkMemo, rolls *rollCache, mode roundMode) ([]outcome, int, error) {
	clones := mode.clones
	// Every path run counts, the forks' too when the replay takes over:
	// Replays is the work done.
	done := 0
	if fork {
		outs, paths, err := enumerateRoundWith(ctx, b, maxPaths, orders, rolls, roundMode{doom: mode.doom, clones: clones, known: mode.known})
		// A round that fails fails with the error the replay meets first,
		// in the order of the dice: the forks work out an order's every
		// path before the orders after it, so they may meet another error
		// first, or go over the path bound where the replay meets a rule's
		// error on its first path. Going over the bound is no exception:
		// a rule to fix is worth the wait, and the simulation a path limit
		// points to would only fail on it.
		replayed := -1 // the paths of the replay that looks for that error, once played
		if errors.Is(err, errDoomed) {
			// The forks are sure to fail, so how does not matter: the
			// replay is asked at once, not once they have gone over the
			// bound (eight players' forks are given up after 238,000
			// paths, of the million they took to go over).
			var rerr error
			if _, replayed, rerr = enumerateRoundWith(ctx, b, maxPaths, nil, rolls, roundMode{errOnly: true, clones: clones}); rerr != nil {
				return nil, replayed, rerr
			}
			// The replay stays within the bound where the forks cannot:
			// its outcomes are the round's, and Replays counts the work it
			// always did, the forks played on until they fail included.
			outs, paths, err = enumerateRoundWith(ctx, b, maxPaths, orders, rolls, roundMode{clones: clones, known: mode.known})
		}
		if err == nil || ctx.Err() != nil {
			return outs, paths, err
		}
		done += paths
		if !errors.Is(err, errNoFork) {
			// Only the replay's error is wanted: keeping the end states of
			// up to MaxPaths paths (nine players' every order, say) would
			// take gigabytes.
			paths := replayed
			if paths < 0 {
				var err error
				if _, paths, err = enumerateRoundWith(ctx, b, maxPaths, nil, rolls, roundMode{errOnly: true, clones: clones}); err != nil {
					return nil, done + paths, err
				}
			}
			done += paths
			// The replay took no more paths than the bound where the forks
			// took more: its outcomes are the round's.
		}
	}
	outs, paths, err := enumerateRoundWith(ctx, b, maxPaths, nil, rolls, roundMode{clones: clones, known: mode.known})
	return outs, done + paths, err
}

// errDoomed stops forks that are sure to go over the path bound: the
// paths they took, and the outcomes of the branch points they are yet to
// explore, which take a path each at least, are more than it allows.
var errDoomed = errors.New("the forks are sure to go over the path bound")

// roundMode says how enumerateRoundWith plays a round.
type roundMode struct {
	// errOnly looks for the first error alone, and returns no outcomes.
	errOnly bool
	// doom gives the forks up with errDoomed as soon as they are sure to
	// go over the bound. Only whether forks fail matters to a round they
	// fail (the replay's error is the round's): not how, nor after how
	// many paths.
	doom bool
	// clones plays every replay on a clone of its own (see
	// OddsOptions.clones).
	clones bool
	// known, if set, says which states the caller has a battle of
	// already: their outcomes come without one.
	known func(key string) bool
}

// errPaths is going over OddsOptions.MaxPaths in a round.
type errPaths struct{ round, max int }

func (e errPaths) Error() string {
	return fmt.Sprintf("round %d has more than %d paths to enumerate exactly: %v", e.round, e.max, ErrLimit)
}

func (errPaths) Unwrap() error { return ErrLimit }

// enumerateRoundWith is enumerateRound, forking when orders (the whole
// orders' results shared by the analysis) is not nil. rolls holds the
// outcomes of the rolls met so far, by shape. Forks given up as doomed
// leave orders as they found it, so that playing them through (see
// enumerateRound) does the work it always did.
func enumerateRoundWith(ctx context.Context, b *Battle, maxPaths int, orders map[string]*forkMemo, rolls *rollCache, mode roundMode) ([]outcome, int, error) {
	errOnly, clones := mode.errOnly, mode.clones
	an := &analysis{rolls: rolls, fork: orders != nil, memo: map[string]*forkMemo{}, orders: orders, plains: map[any]bool{},
		ids: map[any]int{}, dead: map[*order]map[string]bool{}, maxPaths: maxPaths, round: b.round + 1, doom: mode.doom && orders != nil}
	var scr scratch
	var keyBuf bytes.Buffer
	// A replay stopped at a branch point is undone (revert), which puts
	// a battle back exactly as the round found it, and plays the next
	// path: most replays stop at one, and a clone of eight sides took a
	// third of the memory the replays of their round allocated. So is one
	// that ends in a state whose battle is not wanted: the first of each
	// state is kept (see mergeOutcomes), and those the caller knows are
	// not (six players' second round ends in the same 720 states from
	// each of the 720 the first ends in).
	var spare *Battle
	seen := map[string]bool{}
	// explore returns the outcomes reachable after path, each with its
	// probability given path.
	var explore func(path []branchOutcome) ([]outcome, error)
	explore = func(path []branchOutcome) ([]outcome, error) {
		if err := ctxErr(ctx); err != nil {
			return nil, err
		}
		an.runs++
		if an.runs > maxPaths {
			return nil, errPaths{round: b.round + 1, max: maxPaths}
		}
		dice := &enumDice{frames: []*frame{{path: path}}, an: an}
		c := spare
		spare = nil
		if c == nil {
			c = b.Clone(WithDice(dice))
		} else {
			c.dice = dice
		}
		// The replays run one at a time, and nothing a computation takes
		// from its scratch outlives it: each replay's is the last's.
		c.scr = scr
		res, err := c.PlayRound(ctx)
		scr = c.scr
		round := b.round + 1 // the round enumerated
		if err != nil && !clones {
			c.revert()
			spare = c
		}
		var br errBranch
		var final finalError
		switch {
		case err == nil && errOnly:
			if !clones {
				c.revert()
				spare = c
			}
			return nil, nil
		case err == nil:
			snap, err := c.stateKey(&keyBuf)
			if err != nil {
				return nil, err
			}
			// A path's end is certain given the path: one, shared (see
			// below), rather than a 1/1 allocated and multiplied for each.
			o := outcome{b: c, key: snap, holder: c.HolderSide(), order: res.Order, firsts: c.firsts(), p: one}
			if seen[snap] || mode.known != nil && mode.known(snap) {
				o.b = nil
				if !clones {
					c.revert()
					spare = c
				}
			} else {
				seen[snap] = true
			}
			return []outcome{o}, nil
		case errors.As(err, &br):
			if an.fork && an.runs+len(br.outcomes) > maxPaths {
				// Each takes a path at least, and the forks explore them
				// all (see enumDice.Roll).
				return nil, errPaths{round: b.round + 1, max: maxPaths}
			}
			if an.doomed(len(br.outcomes)) {
				return nil, errDoomed
			}
		case errors.Is(err, errNoFork), errors.As(err, &final):
			return nil, err
		case errors.As(err, new(errLoop)) && loopBack(err) > 0:
			// Back where it was many draws ago: an outcome that the
			// branch point there takes away.
			lp := new(errLoop)
			errors.As(err, lp)
			return []outcome{{key: "\x00loop " + strconv.Itoa(lp.back), loop: lp, p: one}}, nil
		default:
			return nil, InRound(round, err)
		}
		var out []outcome
		loop := new(big.Rat)
		var looped errLoop
		defer an.pend(len(br.outcomes))()
		for i := 0; i < len(br.outcomes); i++ {
			an.pending--
			bo := br.outcomes[i]
			if i == len(br.outcomes)-1 && br.more != nil {
				// The replay is about to explore the last of the first
				// outcomes: work out twice as many, up to the bound.
				more, partial, err := br.more(2 * len(br.outcomes))
				if err != nil {
					return nil, err
				}
				if !partial {
					br.more = nil
				}
				br.outcomes = more
			}
			// Each outcome's path is this one and the outcome, in the
			// same array as its siblings': one path is explored at a
			// time, and its replay is all that reads it.
			sub, err := explore(append(path, bo))
			if errors.As(err, &looped) {
				loop.Add(loop, bo.p)
				continue
			}
			if err != nil {
				return nil, err
			}
			for _, o := range sub {
				if o.loop != nil && o.loop.back == len(path)+1 {
					looped = *o.loop
					loop.Add(loop, new(big.Rat).Mul(o.p, bo.p))
					continue
				}
				// Probabilities are never changed in place, here or by
				// the caller, so an outcome may share its branch's.
				if o.p == one {
					o.p = bo.p
				} else {
					o.p = new(big.Rat).Mul(o.p, bo.p)
				}
				out = append(out, o)
			}
		}
		if loop.Sign() > 0 {
			rest := new(big.Rat).Sub(big.NewRat(1, 1), loop)
			if rest.Sign() == 0 {
				return nil, neverEnds(b.round+1, looped.pos, "every roll ties again, so the reroll never ends")
			}
			for i := range out {
				out[i].p = new(big.Rat).Quo(out[i].p, rest)
			}
		}
		// Merged here, a subtree holds one battle per state it ends in,
		// not one per path.
		return mergeOutcomes(out), nil
	}
	all, err := explore(make([]branchOutcome, 0, 32))
	for _, o := range all {
		if o.loop != nil {
			return nil, an.runs, fmt.Errorf("internal error: a loop of draws left no branch point to condition it away")
		}
	}
	if errors.Is(err, errDoomed) {
		for _, k := range an.added {
			delete(orders, k)
		}
	}
	if err != nil {
		if looped := (errLoop{}); errors.As(err, &looped) {
			return nil, an.runs, neverEnds(b.round+1, looped.pos, "a reroll ties again at once")
		}
		var final finalError
		if errors.As(err, &final) {
			err = final.error
		}
		return nil, an.runs, err
	}
	return all, an.runs, nil
}

// mergeOutcomes adds up the outcomes that end in the same state, keeping
// the first's battle, in the order they came.
func mergeOutcomes(outs []outcome) []outcome {
	at := make(map[string]int, len(outs))
	merged := outs[:0]
	for _, o := range outs {
		if i, ok := at[o.key]; ok {
			merged[i].p = new(big.Rat).Add(merged[i].p, o.p)
			continue
		}
		at[o.key] = len(merged)
		merged = append(merged, o)
	}
	return merged
}

// stateKey is the battle's state after a round as canonical text, for
// merging states that play on alike. The transcript is off during
// analysis, so events do not split states, and neither does the record of
// the round just played: what a later round reads of it (previous, the
// standings, the units) is kept elsewhere, and its activations would
// split battles that play on alike, one per sequence of draws in
// activation draw.
//
// It is encoded into buf, which the caller keeps from one key to the
// next: json.Marshal would copy each key (half a kilobyte to a kilobyte
// for the bundled rulesets' examples, one per path of every round) into
// a slice of its own before the string copies it again. An Encoder
// writes what Marshal returns, and a newline. Most states' keys are
// written without either (see appendStateKey), the same bytes.
func (b *Battle) stateKey(buf *bytes.Buffer) (string, error) {
	buf.Reset()
	if k, ok := b.appendStateKey(buf.AvailableBuffer()); ok {
		buf.Grow(cap(k)) // for the next key to be written in place
		return string(k), nil
	}
	return b.stateKeyJSON(buf)
}

// stateKeyJSON is stateKey by encoding/json, for any state.
func (b *Battle) stateKeyJSON(buf *bytes.Buffer) (string, error) {
	s := b.snapshot()
	// Every state of one battle has the same format and rules: a key
	// needs neither (and appendStateKey writes neither).
	s.Format, s.Fingerprint = nil, ""
	if b.cur != nil && b.cur.Stage == "ended" {
		s.Current = nil
	}
	buf.Reset()
	if err := json.NewEncoder(buf).Encode(s); err != nil {
		return "", err
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// loopBack returns the back of the errLoop in err.
func loopBack(err error) int {
	var lp errLoop
	if errors.As(err, &lp) {
		return lp.back
	}
	return 0
}

func distinctInts(xs []int) []int {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}
