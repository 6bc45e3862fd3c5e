package runtime

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
)

// A unit that joins the battle after it began: reinforcements, a summoned
// model. It is the mirror of RemoveUnit, and checked as a unit of the
// setup is.

// AddUnit brings a new unit into the battle, on side, as NewBattle would
// have made it from spec: its name must be new (no side, unit or removed
// unit has it), its attributes declared and of their types, its
// statuses declared. It counts in its side's units at once; standings of
// units that watch values (`until changed`) are made again with it,
// standings made once stay as they were, and it gets a Ready marker from
// the next `ready units` on. Its event is `added`.
func (b *Battle) AddUnit(ctx context.Context, side string, spec UnitSpec) error {
	if b.prog == nil {
		return errors.New("AddUnit: the Battle has no ruleset: make one with Program.NewBattle or Program.Restore")
	}
	if o, ok := b.addAgain(side, spec); ok {
		// The call waiting for an input, made again: the unit is in the
		// battle already, half-way through it.
		return b.run(ctx, o)
	}
	u, err := b.checkAddUnit(side, spec)
	if err != nil {
		return err
	}
	o := op{kind: opAdd, who: spec.Name, key: side, value: addValue(u)}
	if err := b.changing("AddUnit", o); err != nil {
		return err
	}
	return b.run(ctx, o)
}

// addAgain returns, when the battle waits for an input of an AddUnit of
// this very unit, that op, to ask again for the input.
func (b *Battle) addAgain(side string, spec UnitSpec) (op, bool) {
	s := b.sideByNm[side]
	if b.running || b.pend == nil || b.op.kind != opAdd || b.op.who != spec.Name || b.op.key != side || s == nil {
		return op{}, false
	}
	bad := false
	u := b.unitOf(s, spec, "", func(dsl.Pos, string, ...any) { bad = true })
	o := op{kind: opAdd, who: spec.Name, key: side, value: addValue(u)}
	return o, !bad && b.op.same(o)
}

// UnitFromDSL converts an `add unit` statement (of a scenario, or typed
// in play) into the unit it describes. Attribute values keep the
// literal's own type; AddUnit checks them against the ruleset.
func UnitFromDSL(s *dsl.AddScript) UnitSpec {
	return unitSpec(string(s.Name), s.Pos(), s.Attrs, s.Status)
}

// unitSpec is the unit a setup's `unit` or a scenario's `add unit`
// describes, its attribute values of the literals' own types.
func unitSpec(name string, pos dsl.Pos, attrs []*dsl.Assign, status []dsl.Ident) UnitSpec {
	u := UnitSpec{Name: name, Pos: pos}
	for _, a := range attrs {
		if u.Attrs == nil {
			u.Attrs = map[string]any{}
		}
		u.Attrs[string(a.Name)] = a.Value
	}
	for _, st := range status {
		u.Statuses = append(u.Statuses, string(st.Name))
		u.StatusPos = append(u.StatusPos, st.Pos())
	}
	return u
}

// CheckAddUnit returns the error AddUnit would return, or nil, without
// adding the unit: for a scenario's `add unit` checked before it is
// played.
func (b *Battle) CheckAddUnit(side string, spec UnitSpec) error {
	_, err := b.checkAddUnit(side, spec)
	return err
}

// checkAddUnit makes the unit spec describes, of side, or says what is
// wrong with it, in the words of NewBattle.
func (b *Battle) checkAddUnit(side string, spec UnitSpec) (*Unit, error) {
	what := fmt.Sprintf("add %s to %s", spec.Name, side)
	s := b.sideByNm[side]
	if s == nil {
		if b.unitByNm[side] != nil {
			return nil, markErrorf(ErrInvalidChange, "%s: %s is a unit; a unit joins a side (sides: %s)", what, side, strings.Join(b.sideNames(), ", "))
		}
		return nil, markErrorf(ErrInvalidChange, "%s: no side is called %s (sides: %s)", what, side, strings.Join(b.sideNames(), ", "))
	}
	taken := func(n string) bool {
		_, gone := b.removed[n]
		return b.taken(n) || gone
	}
	if _, msg := nameProblem("unit", "the unit", spec.Name, taken); msg != "" {
		if side, gone := b.removed[spec.Name]; gone {
			msg = fmt.Sprintf("%s (of %s) was removed from the battle, and a unit that joins needs a name of its own", spec.Name, side)
		}
		return nil, markErrorf(ErrInvalidChange, "%s: %s", what, msg)
	}
	var errs []string
	u := b.unitOf(s, spec, "unit "+spec.Name, func(_ dsl.Pos, format string, args ...any) {
		errs = append(errs, fmt.Sprintf(format, args...))
	})
	if len(errs) > 0 {
		return nil, markErrorf(ErrInvalidChange, "add %s to %s: %s", spec.Name, side, strings.Join(errs, "; "))
	}
	return u, nil
}

func (b *Battle) sideNames() []string {
	out := make([]string, len(b.sides))
	for i, s := range b.sides {
		out[i] = s.Name
	}
	return out
}

// addValue is the op's value for a unit that joins: its attributes, each
// of its type, and its statuses, sorted, in the shapes a save reads back
// (see normalize), so that the op restored is the same op.
func addValue(u *Unit) map[string]any {
	statuses := []any{}
	for _, st := range slices.Sorted(maps.Keys(u.Status)) {
		statuses = append(statuses, st)
	}
	return map[string]any{"attrs": maps.Clone(u.Attrs), "statuses": statuses}
}

// addSpec reads an add_unit op's value back, as a save may hold anything.
func addSpec(o op) (UnitSpec, error) {
	spec := UnitSpec{Name: o.who}
	v, ok := o.value.(map[string]any)
	if !ok {
		return spec, fmt.Errorf("add %s: the call's value is not the unit's attrs and statuses", o.who)
	}
	if a, ok := v["attrs"].(map[string]any); ok {
		spec.Attrs = a
	} else if v["attrs"] != nil {
		return spec, fmt.Errorf("add %s: attrs is not a map of the unit's attributes", o.who)
	}
	if sts, ok := v["statuses"].([]any); ok {
		for _, st := range sts {
			name, ok := st.(string)
			if !ok {
				return spec, fmt.Errorf("add %s: a status is not a name: %v", o.who, st)
			}
			spec.Statuses = append(spec.Statuses, name)
		}
	} else if v["statuses"] != nil {
		return spec, fmt.Errorf("add %s: statuses is not a list of names", o.who)
	}
	return spec, nil
}

func (b *Battle) addUnit(ctx context.Context, o op) error {
	spec, err := addSpec(o)
	if err != nil {
		return markErrorf(ErrInvalidChange, "%v", err)
	}
	u, err := b.checkAddUnit(o.key, spec)
	if err != nil {
		return err
	}
	s := u.Side
	s.Units = append(s.Units, u)
	// The battle's units stay in setup order, side by side, as a save
	// lists them.
	b.units = b.units[:0]
	for _, side := range b.sides {
		b.units = append(b.units, side.Units...)
	}
	b.unitByNm[u.Name] = u
	b.unitsChanged()
	b.emit(Event{Kind: EvAdded, Subject: u.Name, By: s.Name})
	return b.unitsRewatched(ctx)
}
