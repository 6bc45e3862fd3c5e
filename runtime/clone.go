package runtime

import (
	"maps"
	"slices"
)

// Clone returns an independent copy of the battle's state with the given
// options (dice, decider, hooks, transcript) instead of the original's:
// hooks given with WithHook replace all of the original's, without any
// the copy runs the original's, and with WithoutHooks it runs none.
// The copy shares nothing mutable with b: seeded dice are copied too, so
// both battles roll on from the same state, each on its own. Other dice
// (scripted, FuncDice) are shared unless opts give the copy its own; a
// battle whose round is under way cannot AbortRound once the other has
// used a shared ScriptedDice (or the decider, a ScriptedDecider, which is
// shared too), whose record of the round would then hold both battles'
// rolls.
//
// Like Snapshot, Clone is for a battle between rounds or between turns of
// the activation loop. A copy made from inside a hook, a Decider or Dice,
// or of a round that failed and was not aborted, holds that round half
// played (orders not made, no Ready markers) and cannot abort it: it plays
// on from there as if the round were whole.
func (b *Battle) Clone(opts ...BattleOption) *Battle {
	c := &Battle{
		prog:       b.prog,
		round:      b.round,
		sideByNm:   make(map[string]*Side, len(b.sides)),
		unitByNm:   make(map[string]*Unit, len(b.units)),
		standings:  make([]*Standing, len(b.standings)),
		done:       slices.Clone(b.done),
		transcript: b.transcript,
		dice:       b.dice,
		decider:    b.decider,
		pending:    slices.Clone(b.pending),
		removed:    maps.Clone(b.removed),
		// Never changed, only replaced (see unitsChanged): shared.
		names: b.names,
	}
	if b.seeded != nil {
		c.dice = b.seeded.copy()
	}
	dice, decider := c.dice, c.decider
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.hooks == nil { // none given: the original's, which a later append must not share
		c.hooks = slices.Clip(b.hooks)
	}
	c.settle(dice, decider) // nil dice or decider given: the original's
	for _, s := range b.sides {
		ns := &Side{Name: s.Name, Team: s.Team, Attrs: maps.Clone(s.Attrs)}
		for _, u := range s.Units {
			nu := &Unit{Name: u.Name, Side: ns, Attrs: maps.Clone(u.Attrs), Status: maps.Clone(u.Status), Ready: u.Ready}
			ns.Units = append(ns.Units, nu)
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
	if b.cur != nil {
		cur := *b.cur
		cur.Activations = slices.Clone(cur.Activations)
		cur.Events = slices.Clone(cur.Events)
		c.cur = &cur
	}
	return c
}

func (s *Standing) clone() *Standing {
	c := *s
	c.Order = slices.Clone(s.Order)
	c.Places = slices.Clone(s.Places)
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
