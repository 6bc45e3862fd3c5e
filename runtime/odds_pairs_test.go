package runtime

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
)

// oddsByPairs is Odds as it was before it carried the holder sequences
// by arithmetic: every (state, holder sequence) pair a state of its own,
// its outcomes multiplied out one by one. Kept as the oracle of the
// tests of the sequences' bookkeeping (see OddsByPairs).
func (p *Program) oddsByPairs(ctx context.Context, sides []SideSpec, opt OddsOptions) (*OddsReport, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	// Forked parts are run again and again and their results reused, which
	// only the ruleset's own policies, or overrides of them, are sure to
	// allow: a host's decider may keep count.
	fork := !opt.replay
	switch opt.Decider.(type) {
	case Policy, Override:
	default:
		fork = false
	}
	// Whole orders' results that hold from any state (see forkOrder).
	shared := map[string]*forkMemo{}
	// A roll's outcomes depend only on its shape: a large one takes
	// seconds, too long to take again for every state every round.
	rolls := newRollCache()
	start, err := p.NewBattle(sides, WithTranscript(false), WithDecider(opt.Decider))
	if err != nil {
		return nil, err
	}
	rep := &OddsReport{Ruleset: p.name, Expected: map[string]*big.Rat{}}
	for _, s := range start.sides {
		rep.Sides = append(rep.Sides, s.Name)
		rep.Expected[s.Name] = new(big.Rat)
	}
	seqs := opt.Rounds <= opt.SequenceRounds
	// A state carries, when sequences are wanted, the holders so far.
	type state struct {
		b       *Battle
		key     string // of the battle alone, without the holders
		holders []string
		p       *big.Rat
	}
	states := []*state{{b: start, p: big.NewRat(1, 1)}}
	for round := 1; round <= opt.Rounds; round++ {
		ro := RoundOdds{Round: round, Holder: map[string]*big.Rat{}, First: map[string]map[string]*big.Rat{}}
		for _, s := range rep.Sides {
			ro.Holder[s] = new(big.Rat)
		}
		orders := map[string]*big.Rat{}
		next := map[string]*state{}
		var keys []string
		// States that differ only in their holders so far play the round
		// alike: enumerate it once for them all. They are taken together,
		// so that only one state's outcomes are kept at a time (six
		// players' second round starts from 720 states with 720 outcomes
		// each). The order they are taken in changes no sum: the sums are
		// exact.
		slices.SortStableFunc(states, func(x, y *state) int { return strings.Compare(x.key, y.key) })
		var outs []outcome
		for i, st := range states {
			if i == 0 || st.key != states[i-1].key || st.key == "" {
				var replays int
				var err error
				if outs, replays, err = enumerateRound(ctx, st.b, opt.MaxPaths, fork, shared, rolls, roundMode{doom: true}); err != nil {
					return nil, err
				}
				rep.Replays += replays
			}
			for _, o := range outs {
				pr := new(big.Rat).Mul(st.p, o.p)
				if o.holder != "" { // nobody holds priority when there is nothing to order
					addTo(ro.Holder, o.holder, pr)
					addTo(rep.Expected, o.holder, pr)
				}
				addTo(orders, strings.Join(o.order, "\x00"), pr)
				for i, name := range p.Standings() {
					if o.firsts[i] != "" {
						if ro.First[name] == nil {
							ro.First[name] = map[string]*big.Rat{}
						}
						addTo(ro.First[name], o.firsts[i], pr)
					}
				}
				key := o.key
				var holders []string
				if seqs {
					holders = append(slices.Clone(st.holders), o.holder)
					key += "\x01" + strings.Join(holders, "\x00")
				}
				if ns, ok := next[key]; ok {
					ns.p.Add(ns.p, pr)
					continue
				}
				next[key] = &state{b: o.b, key: o.key, holders: holders, p: pr}
				keys = append(keys, key)
			}
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
		if seqs && len(states) > opt.MaxStates {
			// Too many holder sequences to follow: follow the battles.
			seqs = false
			byBattle := map[string]*state{}
			merged := states[:0]
			for _, st := range states {
				if m := byBattle[st.key]; m != nil {
					m.p.Add(m.p, st.p)
					continue
				}
				st.holders = nil
				byBattle[st.key] = st
				merged = append(merged, st)
			}
			states = merged
		}
		// The states after the last round are only summed, never played
		// on: a round with many outcomes (a random order of nine units)
		// has its odds even when they are too many to follow.
		if round < opt.Rounds && len(states) > opt.MaxStates {
			return nil, fmt.Errorf("after round %d the battle can be in more than %d different states (each order a round can end in is remembered as previous.order, and so is each value of a remembered value that keeps growing), too many to follow exactly: %w",
				round, opt.MaxStates, ErrLimit)
		}
	}
	if seqs {
		for _, st := range states {
			rep.Sequences = append(rep.Sequences, Prob{Outcome: st.holders, P: st.p})
		}
		rep.Sequences = mergeProbs(rep.Sequences)
	}
	return rep, nil
}

func mergeProbs(ps []Prob) []Prob {
	m := map[string]*big.Rat{}
	for _, p := range ps {
		addTo(m, strings.Join(p.Outcome, "\x00"), p.P)
	}
	var out []Prob
	for k, v := range m {
		out = append(out, Prob{Outcome: strings.Split(k, "\x00"), P: v})
	}
	sortProbs(out)
	return out
}
