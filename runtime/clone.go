package runtime

import (
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
// and shared unless opts give the copy its own. A copy that plays dice
// that keep no state (FuncDice, ScriptedDice without a seeded Fallback:
// the players' dice at the table), its own or shared, keeps the seeded
// state b had when copied and saves it in its snapshots, as a battle
// restored with them does, so that one restored from them with seeded
// dice rolls on where b would have.
//
// A copy of a battle waiting for an input waits for the same input, and
// goes on from there as b would. A copy made from a Go hook, Dice or a
// Decider, in the middle of an op, is the battle as the op found it.
func (b *Battle) Clone(opts ...BattleOption) *Battle {
	src := b
	if b.running && b.base != nil {
		src = b.base
	}
	c := &Battle{
		prog:       b.prog,
		round:      src.round,
		sideByNm:   make(map[string]*Side, len(src.sides)),
		unitByNm:   make(map[string]*Unit, len(src.units)),
		standings:  make([]*Standing, len(src.standings)),
		done:       slices.Clone(src.done),
		transcript: b.transcript,
		keptDice:   b.keptDice, // never changed, only replaced: shared
		keptPCG:    b.keptPCG,
		keptSeed:   b.keptSeed,
		pending:    slices.Clone(src.pending),
		removed:    maps.Clone(src.removed),
		eventsHint: src.eventsHint,
		actsHint:   src.actsHint,
	}
	if src == b {
		// Never changed, only replaced (see unitsChanged): shared.
		c.names = b.names
	}
	dice, decider := b.dice, b.decider
	if src.seeded != nil {
		dice = src.seeded.copy()
	}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.hooks == nil { // none given: the original's, which a later append must not share
		c.hooks = slices.Clip(b.hooks)
	}
	c.settle(dice, decider) // nil dice or decider given: the original's
	if sd := seededOf(b.dice); sd != nil && !keepsState(c.dice) {
		c.keptPCG, c.keptSeed = *sd.pcg, true // a value: no allocation (odds clones per path)
	}
	for _, s := range src.sides {
		ns := s.copy()
		for _, nu := range ns.Units {
			c.units = append(c.units, nu)
			c.unitByNm[nu.Name] = nu
		}
		c.sides = append(c.sides, ns)
		c.sideByNm[ns.Name] = ns
	}
	for i, st := range src.standings {
		if st != nil {
			c.standings[i] = st.clone()
		}
	}
	c.memory = Memory{Holder: src.memory.Holder, Chooser: src.memory.Chooser, Order: slices.Clone(src.memory.Order),
		Values: maps.Clone(src.memory.Values)}
	c.cur = src.cur.clone()
	c.decks = src.decks // replaced, never changed in place (see setDeck)
	if b.pend != nil && !b.running {
		c.op, c.journal, c.hookEntries = b.op, cloneJournal(b.journal), b.hookEntries
		c.pend = b.Pending()
		c.base = b.base.Clone(WithoutHooks())
		c.base.seeded = seededOf(c.base.dice)
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
	c.Decided = slices.Clone(r.Decided)
	if r.Stage == "activation" {
		// Still to be appended to: the copy's appends must not land in
		// the original's array. An ended round's list never grows.
		c.Done = slices.Clone(r.Done)
	}
	return &c
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
