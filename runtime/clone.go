package runtime

import (
	"errors"
	"maps"
	"slices"
)

// Clone returns an independent copy of the battle's state with the given
// options (dice, decider, hooks, transcript) instead of the original's:
// hooks given with WithHook replace all of the original's, without any
// the copy runs the original's, and with WithoutHooks it runs none.
// The copy shares none of the battle's own state with b, and seeded dice
// are copied too, so both battles roll on from the same state, each on
// its own. Other dice (scripted, FuncDice) and the decider are the host's,
// and shared unless opts give the copy its own; a battle whose round is
// under way cannot AbortRound once the other has used a shared
// ScriptedDice or ScriptedDecider, whose record of the round would then
// hold both battles' rolls and answers. A copy that plays dice that keep
// no state (FuncDice, ScriptedDice without a seeded Fallback: the players'
// dice at the table), its own or shared, keeps the seeded state b had when
// copied and saves it in its snapshots, as a battle restored with them
// does, so that one restored from them with seeded dice rolls on where b
// would have.
//
// A copy of a battle in the middle of a round takes b's record of the
// round's start, so that it can AbortRound as b can: its seeded dice are
// rewound too, dice and deciders opts give it are not, and scripted dice
// or a ScriptedDecider it shares with b, whose record of the round is b's,
// keep it from aborting (ErrCannotAbort). A copy made half way through
// StartRound or EndRound (from a hook, a Decider or Dice they call), or of
// a round that failed and was not aborted, holds the round half played:
// like a failed round, its round's methods and Snapshot refuse with
// ErrRoundFailed until AbortRound undoes the round, and if it cannot, it
// plays on from there. A copy made from a Decider asked which unit to
// activate (in Step) is whole: the round is between two turns.
func (b *Battle) Clone(opts ...BattleOption) *Battle {
	c := &Battle{
		prog:       b.prog,
		round:      b.round,
		sideByNm:   make(map[string]*Side, len(b.sides)),
		unitByNm:   make(map[string]*Unit, len(b.units)),
		standings:  make([]*Standing, len(b.standings)),
		done:       slices.Clone(b.done),
		transcript: b.transcript,
		keptDice:   b.keptDice, // never changed, only replaced: shared
		keptPCG:    b.keptPCG,
		keptSeed:   b.keptSeed,
		pending:    slices.Clone(b.pending),
		removed:    maps.Clone(b.removed),
		failed:     b.failed,
		// Never changed, only replaced (see unitsChanged): shared.
		names: b.names,
	}
	dice, decider := b.dice, b.decider
	if b.seeded != nil {
		dice = b.seeded.copy()
	}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	ownDice, ownDecider := !isNil(c.dice), !isNil(c.decider)
	if c.hooks == nil { // none given: the original's, which a later append must not share
		c.hooks = slices.Clip(b.hooks)
	}
	c.settle(dice, decider) // nil dice or decider given: the original's
	if sd := seededOf(b.dice); sd != nil && !keepsState(c.dice) {
		c.keptPCG, c.keptSeed = *sd.pcg, true // a value: no allocation (odds clones per path)
	}
	for _, s := range b.sides {
		ns := s.copy()
		for _, nu := range ns.Units {
			c.units = append(c.units, nu)
			c.unitByNm[nu.Name] = nu
		}
		c.sides = append(c.sides, ns)
		c.sideByNm[ns.Name] = ns
	}
	for i, st := range b.standings {
		if st != nil {
			c.standings[i] = st.clone()
		}
	}
	c.memory = Memory{Holder: b.memory.Holder, Chooser: b.memory.Chooser, Order: slices.Clone(b.memory.Order),
		Values: maps.Clone(b.memory.Values)}
	c.cur = b.cur.clone()
	if b.check.valid(b) {
		c.prevRound = b.prevRound.clone() // what AbortRound goes back to
		c.check = b.check.cloneFor(c, ownDice, ownDecider)
	}
	if b.working {
		c.failed = errors.New("the battle was cloned half way through the round's start or end, from a hook, a decider or dice")
	}
	return c
}

// clone copies the state of a round, or returns nil for none.
func (r *roundState) clone() *roundState {
	if r == nil {
		return nil
	}
	c := *r
	c.Activations = slices.Clone(r.Activations)
	c.Events = slices.Clone(r.Events)
	c.Readied, c.Kept = slices.Clone(r.Readied), slices.Clone(r.Kept)
	if r.Stage == "activation" {
		// Still to be appended to: the copy's appends must not land in
		// the original's array. An ended round's list never grows.
		c.Done = slices.Clone(r.Done)
	}
	return &c
}

// cloneFor copies the checkpoint for c, a clone made in its round: the
// standings and removed units it holds become c's own, and the dice and
// decider are in it only where c has the original's (seeded dice copied,
// or scripts shared). ownDice and ownDecider say that opts gave c others.
func (ck *checkpoint) cloneFor(c *Battle, ownDice, ownDecider bool) checkpoint {
	out := checkpoint{
		round:     ck.round,
		standings: make([]*Standing, len(ck.standings)),
		saved:     make([]int, len(ck.saved)),
		ready:     slices.Clone(ck.ready),
		pending:   slices.Clone(ck.pending),
		pcg:       ck.pcg,
		undo:      slices.Clone(ck.undo),
	}
	for id, r := range ck.saved {
		if r != ck.round {
			continue // a round's before: not this round's to restore
		}
		out.saved[id] = r
		if st := ck.standings[id]; st != nil {
			out.standings[id] = st.clone()
		}
	}
	for i := range out.undo {
		if u := out.undo[i].removed; u != nil {
			out.undo[i].removed = u.copyTo(c.sideByNm[u.Side.Name])
		}
	}
	if !ownDice {
		out.rewind = ck.rewind
		out.script, out.fallback = ck.script, ck.fallback
	}
	if !ownDecider {
		out.decisions = ck.decisions
	}
	return out
}

func (s *Standing) clone() *Standing {
	c := *s
	c.Order = slices.Clone(s.Order)
	c.Places = slices.Clone(s.Places)
	var vals []float64
	for i := range c.Places {
		if p := &c.Places[i]; p.Value != nil {
			if vals == nil {
				vals = make([]float64, len(c.Places))
			}
			vals[i] = *p.Value
			p.Value = &vals[i]
		}
	}
	if s.Watched != nil {
		c.Watched = make(map[string][]any, len(s.Watched))
		for k, v := range s.Watched {
			c.Watched[k] = slices.Clone(v)
		}
	}
	c.Groups = slices.Clone(s.Groups)
	for i := range c.Groups {
		c.Groups[i].Members = slices.Clone(c.Groups[i].Members)
	}
	return &c
}
