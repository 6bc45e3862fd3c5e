package runtime

import (
	"context"

	"github.com/turnorder/turnorder/dsl"
)

// The most common priority procedure of all is two players rolling off:
// each rolls, the higher (or lower) wins, a tie is rerolled or awarded to
// one of them by what happened last round, and the winner may choose who
// goes first. Played through the general engine, such a round spends most
// of its time on what it does not use: phases and hook points with nothing
// at them, tied blocks of any size, checks for cancellation at every link.
// So Compile recognises a ruleset whose whole round is one such roll-off,
// and a battle that could watch nothing of the round (no transcript, no Go
// hooks, the battle's own seeded dice, the ruleset's policies) plays it
// straight through instead (see playRolloff).
//
// It is the same round, not an approximation of it: the same rolls from
// the same dice, and the same standing, placements and their reasons,
// and memory, made by the engine's own helpers (openRound, blankStanding,
// storeStanding, closeRound). Only the checkpoint that AbortRound would
// use is not kept: no round played straight through is ever under way
// when a host could call it. Anything the straight path does not know
// how to play (a reroll over the limit, or of dice that cannot break the
// tie, an award that names nobody, a tie no rule breaks) makes it undo
// the round and hand it to the general engine, which plays it from the
// same dice and reports whatever error the round has. rolloff_test.go
// and rolloff_equivalence_test.go play eligible rulesets both ways and
// compare the battles.

// rolloffPlan is a round that is a two-sided roll-off: the order of the
// program's only order, which every round computes afresh.
type rolloffPlan struct {
	o      *order
	roll   *rollLink
	ties   []rolloffTie
	choice *choiceLink // nil when the roll, or the tie rule, decides
	// The choice's policy, worked out once: the chooser is the side in
	// place me (0, the winner; 1, the loser), and the two swap places.
	me   int
	swap bool
}

// rolloffTie is a tie rule whose action is a reroll (award nil) or an
// award.
type rolloffTie struct {
	when  *compiled
	award *awardLink
}

// bothSides is the tied block of a two-sided roll-off, as tie rules see
// it: both sides, in setup order (a tie never reorders them).
var bothSides = []int{0, 1}

// planRolloff returns p's round as a roll-off plan, or nil if it is not
// one: a round of phases and steps that hold hook points (with nothing
// at them) and one order of the sides, every round, of a roll with no
// modifier, then tie rules that reroll or award, then a choice by the
// winner or the loser. Each expression must have a native form (see
// fastexpr.go): the straight path has no environment to run expr-lang in.
func planRolloff(p *Program) *rolloffPlan {
	if len(p.handlers) > 0 || len(p.remember) > 0 || p.act != nil || p.minSides > 2 {
		return nil
	}
	var orders []*order
	var walk func(ph *phase) bool
	walk = func(ph *phase) bool {
		if ph.once {
			return false
		}
		for _, it := range ph.items {
			switch x := it.(type) {
			case *phase:
				if !walk(x) {
					return false
				}
			case *order:
				orders = append(orders, x)
			case *hookPoint:
			default:
				return false
			}
		}
		return true
	}
	for _, ph := range p.phases {
		if !walk(ph) {
			return nil
		}
	}
	if len(orders) != 1 || orders[0] != p.main {
		return nil
	}
	o := p.main
	if o.units || o.scope.kind != dsl.EachRound || len(o.chain) == 0 {
		return nil
	}
	plan := &rolloffPlan{o: o}
	roll, ok := o.chain[0].(*rollLink)
	if !ok || roll.mod != nil {
		return nil
	}
	plan.roll = roll
	rest := o.chain[1:]
	if len(rest) > 0 {
		if ts, ok := rest[0].(*tieSet); ok {
			for _, rule := range ts.rules {
				if rule.when != nil && (rule.when.fast == nil || rule.when.fast.b == nil) || len(rule.chain) != 1 {
					return nil
				}
				t := rolloffTie{when: rule.when}
				switch l := rule.chain[0].(type) {
				case *rerollLink:
				case *awardLink:
					if l.e == nil || l.e.fast == nil || l.e.fast.s == nil {
						return nil
					}
					t.award = l
				default:
					return nil
				}
				plan.ties = append(plan.ties, t)
			}
			rest = rest[1:]
		}
	}
	if len(rest) > 0 {
		c, ok := rest[0].(*choiceLink)
		if !ok || c.role != dsl.RoleWinner && c.role != dsl.RoleLoser {
			return nil
		}
		plan.choice = c
		plan.me, plan.swap = c.policyOf2()
		rest = rest[1:]
	}
	if len(rest) > 0 {
		return nil
	}
	return plan
}

// policyOf2 works out where the chooser is (me: the winner, placed
// first, or the loser) and whether the ruleset's policy swaps the two,
// as orderRun.choice does.
func (c *choiceLink) policyOf2() (me int, swap bool) {
	if c.role == dsl.RoleLoser {
		me = 1
	}
	var order [2]int
	return me, c.policyOrder(order[:0], 2, me)[0] == 1
}

// rolloffReady says whether b's next round may be played straight
// through: nothing could see how it is played, only what it made.
func (b *Battle) rolloffReady(ctx context.Context) bool {
	if b.prog.rolloff == nil || b.transcript || len(b.hooks) > 0 || b.seeded == nil || len(b.sides) != 2 ||
		!b.policyDecides() || b.InRound() || ctx.Err() != nil {
		return false
	}
	// The round's first run of a phase is recorded in the round (see
	// runPhase): that round is the general engine's.
	for _, d := range b.done {
		if !d {
			return false
		}
	}
	return true
}

// playRolloff plays the round straight through, as the general engine
// would have played it, and reports whether it did. When it did not, the
// battle is as it found it. It is one function, calling no more than it
// must: at some fifty nanoseconds a round, calls are a fair part of it.
func (b *Battle) playRolloff() bool {
	pl := b.prog.rolloff
	// The round is never seen under way, so nothing can abort it: it
	// keeps no checkpoint (see checkpoint.save), only what handing it over
	// untouched needs. The checkpoint of the last round the engine played
	// is no longer of any round to undo: were it kept, blankStanding
	// would not reuse the standing it holds, and the first round after
	// every round the engine played would allocate.
	b.check.round = 0
	sd := b.seeded
	sd.init()
	pcg, pending := *sd.pcg, b.pending
	b.openRound()

	// The roll-off, as orderRun plays it for a block of two: the sides in
	// order (perm), placed by link m, by whom, and their last totals.
	roll := pl.roll
	var nat [2]int
	var perm [2]int
	var m *meta
	by := ""
	for attempt := 0; m == nil; attempt++ {
		if roll.count == 1 {
			nat[0], nat[1] = sd.intN(roll.faces)+1, sd.intN(roll.faces)+1
		} else {
			sd.RollInto(nat[:], roll.count, roll.faces)
		}
		if nat[0] != nat[1] {
			// Which one won is as likely as not: no branch to mispredict.
			w := 0
			if nat[1] > nat[0] == (roll.dir > 0) {
				w = 1
			}
			perm, m = [2]int{w, 1 - w}, &roll.meta
			break
		}
		rule := pl.tieRule(b)
		switch {
		case rule == nil:
			// A tie that no rule breaks, or an award of somebody who is
			// not tied: the general engine says what becomes of it.
		case rule.award != nil:
			if k := rule.awarded(b); k >= 0 {
				perm, m = [2]int{k, 1 - k}, &rule.award.meta
				continue
			}
		case roll.faces <= 1:
			// Dice that show 1 alone never break the tie: the reroll
			// repeats until MaxRerolls, which a host may have set to
			// billions. The engine plays that loop minding the context
			// (this one would not, holding the host's deadline up for as
			// long), and reports the limit.
		default:
			// Only the first reroll counts against MaxRerolls: a reroll of
			// the pair the last reroll left tied repeats it, and is not
			// counted (see orderRun.reroll), as the roll can break the tie
			// (it has 1 die or more, of 2 faces or more).
			if attempt > 0 || b.prog.limits.MaxRerolls >= 1 {
				continue
			}
		}
		*sd.pcg, b.pending = pcg, pending
		b.round--
		// The round opened (the record of the round before last, cleared)
		// is left for the engine's openRound to reuse: dropped, the
		// engine would allocate one at every round handed over.
		b.cur, b.prevRound = b.prevRound, b.cur
		b.actsView = nil
		return false
	}
	chooser, choseIn := "", 0
	names := b.subjectNames(false)
	if c := pl.choice; c != nil {
		by = names[perm[pl.me]]
		if pl.swap {
			perm[0], perm[1] = perm[1], perm[0]
		}
		chooser, choseIn, m = by, b.round, &c.meta
	}

	// Both places have the same reason: what broke the tie between the
	// two (see why.fill).
	o := pl.o
	st := b.blankStanding(o, 2, b.round, chooser, choseIn)
	var vals []float64
	if m.keyed {
		vals = b.valsFor(o.id, st, 2)
	}
	for k, i := range perm {
		p := &st.Places[k]
		p.Subject, p.Criterion, p.By, p.Pos, p.Value = names[i], m.desc, by, m.at, nil
		if vals != nil {
			vals[k] = float64(nat[i])
			p.Value = &vals[k]
		}
	}
	st.Order = b.orders[0].intern(pairKey(perm[0]), true, names, perm[:]) // internOrder, for the battle's own names
	b.storeStanding(o, st)
	// As setRoundHolder and closeRound find them: no special rule
	// overrides the holder of a round that runs none.
	b.cur.Holder, b.cur.Chooser = st.Order[0], chooser
	b.closeRound(st.Order, nil)
	return true
}

// tieRule returns the first tie rule whose guard holds for the tied pair.
func (pl *rolloffPlan) tieRule(b *Battle) *rolloffTie {
	env := fenv{b: b, tied: bothSides}
	for i := range pl.ties {
		if t := &pl.ties[i]; t.when == nil || t.when.fast.b(env) {
			return t
		}
	}
	return nil
}

// awarded returns the side the award puts first, or -1 when it names
// neither side.
func (t *rolloffTie) awarded(b *Battle) int {
	name := t.award.e.fast.s(fenv{b: b, tied: bothSides})
	k := 0
	if name != b.sides[0].Name {
		if name != b.sides[1].Name {
			return -1
		}
		k = 1
	}
	if t.award.not {
		k = 1 - k
	}
	return k
}
