package runtime

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
)

// snapshot is the JSON form of a Battle. Everything that affects what
// happens next is in it, including the state of seeded dice.
type snapshot struct {
	// Format is the version of this layout (saveFormat); a save without
	// it is of format 1, from before saves had one.
	Format      *int                 `json:"format,omitempty"`
	Ruleset     string               `json:"ruleset"`
	Fingerprint string               `json:"fingerprint,omitempty"` // Program.Fingerprint of the rules it was played with
	Round       int                  `json:"round"`
	Sides       []sideSnap           `json:"sides"`
	Standings   map[string]*Standing `json:"standings,omitempty"`
	Memory      Memory               `json:"memory"`
	Done        []string             `json:"done,omitempty"`
	Current     *roundState          `json:"current,omitempty"`
	Pending     []Event              `json:"pending,omitempty"`
	Removed     map[string]string    `json:"removed,omitempty"` // unit: its side
	Dice        []byte               `json:"dice,omitempty"`
}

// saveFormat is the format Snapshot writes. Format 2 added the format,
// the ruleset's fingerprint and the units made ready again in a round
// (roundState.Readied); Restore reads format 1 too, checked as fully as
// what it holds allows.
const saveFormat = 2

type sideSnap struct {
	Name  string         `json:"name"`
	Team  string         `json:"team,omitempty"`
	Attrs map[string]any `json:"attrs,omitempty"`
	Units []unitSnap     `json:"units,omitempty"`
}

type unitSnap struct {
	Name   string         `json:"name"`
	Attrs  map[string]any `json:"attrs,omitempty"`
	Status []string       `json:"status,omitempty"`
	Ready  bool           `json:"ready,omitempty"`
}

// Snapshot saves the battle as JSON. Restore it with Program.Restore. It
// refuses, with ErrInCallback or ErrRoundFailed, a battle caught half way
// through a round's own work: in a hook, dice or a Decider that
// StartRound, EndRound or a change's recomputation calls, or in a round
// that failed.
//
// The Decider that Step asks which unit to activate may save the battle
// (from its own goroutine: a Battle is not safe for concurrent use), as a
// server waiting for a player's answer does: nothing of the turn is
// played yet, so the snapshot is the battle as Step found it (with what
// the Decider itself changed, and in activation draw the side Step drew
// before it asked, which the restored battle does not draw again), and
// the battle restored from it asks the same decision at its next Step. It restores in mid-round, so it cannot
// AbortRound that round.
func (b *Battle) Snapshot() ([]byte, error) {
	// Step's own question is between two turns; what the decider starts
	// (a change's recomputation, its dice and deciders) is not.
	if between := b.choosing && b.inCallback == 1 && !b.halfPlayed(); !between {
		if err := b.ready("Snapshot"); err != nil {
			return nil, err
		}
	}
	s := b.snapshot()
	if m, ok := b.dice.(encoding.BinaryMarshaler); ok {
		d, err := m.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("snapshot: dice: %w", err)
		}
		s.Dice = d
	}
	if len(s.Dice) == 0 {
		// Restored, or cloned, with dice that keep no state (FuncDice,
		// ScriptedDice without a seeded Fallback), the battle keeps the
		// seeded dice's state it was saved or copied with, which nothing
		// has rolled since.
		s.Dice = b.keptDice
		if b.keptSeed {
			d, err := b.keptPCG.MarshalBinary()
			if err != nil {
				return nil, fmt.Errorf("snapshot: dice: %w", err)
			}
			s.Dice = d
		}
	}
	return json.MarshalIndent(s, "", "  ")
}

func (b *Battle) snapshot() *snapshot {
	format := saveFormat
	s := &snapshot{Format: &format, Ruleset: b.prog.name, Fingerprint: b.prog.fingerprint, Round: b.round, Memory: b.memory, Current: b.cur, Pending: b.pending, Removed: b.removed}
	for i, st := range b.standings {
		if st != nil {
			if s.Standings == nil {
				s.Standings = map[string]*Standing{}
			}
			s.Standings[b.prog.orderList[i].name] = st
		}
	}
	for i, done := range b.done {
		if done {
			s.Done = append(s.Done, b.prog.phaseKeys[i])
		}
	}
	slices.Sort(s.Done)
	for _, sd := range b.sides {
		ss := sideSnap{Name: sd.Name, Team: sd.Team, Attrs: sd.Attrs}
		for _, u := range sd.Units {
			us := unitSnap{Name: u.Name, Attrs: u.Attrs, Ready: u.Ready}
			for st, on := range u.Status {
				if on {
					us.Status = append(us.Status, st)
				}
			}
			slices.Sort(us.Status)
			ss.Units = append(ss.Units, us)
		}
		s.Sides = append(s.Sides, ss)
	}
	return s
}

// Restore rebuilds a battle from a snapshot. Dice and decider come from
// opts as for NewBattle; seeded dice continue exactly where they were,
// also when they are the Fallback of the ScriptedDice given (and without
// WithDice, the battle's own seeded dice do). Restored with dice that
// keep no state (FuncDice, or ScriptedDice without a seeded Fallback: for
// a request that needs no seeded roll, say), the battle keeps the saved
// state all the same and saves it again in its snapshots, so that a
// battle restored from them with seeded dice rolls on where they were.
// A snapshot holds no Go code and no setting: give the Go hooks
// (WithHook) again, and WithTranscript(false) if the transcript was off.
//
// A save is a file anyone can edit, so Restore trusts none of it: it
// refuses a save of a format it does not read, one made with other rules
// of the same name (their fingerprints differ: ErrChangedRules, unless
// AcceptChangedRules is given), and any state the battle could not have
// reached, with an error naming the field at fault
// ("sides[1].units[0].ready: ..."). A save without a fingerprint (of
// format 1, or with its fingerprint deleted) is checked against these
// rules as any other is.
func (p *Program) Restore(data []byte, opts ...BattleOption) (*Battle, error) {
	if err := p.compiled(); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	var s snapshot
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("restore: the snapshot is empty (want the JSON that Battle.Snapshot writes)")
		}
		if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && te.Field != "" {
			// Named as the save names it, not as Go does.
			return nil, fmt.Errorf("restore: %s: want %s, got %s", te.Field, jsonKind(te.Type), te.Value)
		}
		return nil, fmt.Errorf("restore: %w", err)
	}
	switch {
	case s.Ruleset == p.name:
	case s.Ruleset == "":
		return nil, fmt.Errorf("restore: the snapshot names no ruleset (want %s): is it a battle snapshot?", p.name)
	default:
		return nil, fmt.Errorf("restore: the snapshot is of ruleset %s, not %s", s.Ruleset, p.name)
	}
	format, err := s.format()
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	sameRules := s.Fingerprint == "" || s.Fingerprint == p.fingerprint
	if sameRules {
		// Sides the same rules refuse were edited: say where.
		if err := p.checkSavedSides(&s); err != nil {
			return nil, fmt.Errorf("restore: %w", err)
		}
	}
	// Attributes keep their numbers as written (json.Number), which
	// the attribute's type reads: as a float64, 1e-400 would be 0.
	specs := make([]SideSpec, len(s.Sides))
	for i, sd := range s.Sides {
		specs[i] = SideSpec{Name: sd.Name, Team: sd.Team, Attrs: sd.Attrs}
		for _, u := range sd.Units {
			specs[i].Units = append(specs[i].Units, UnitSpec{Name: u.Name, Attrs: u.Attrs, Statuses: u.Status})
		}
	}
	b, err := p.newBattle(specs, false, opts...)
	if ds, ok := err.(dsl.Diagnostics); ok {
		// Positions would be of nothing in the ruleset's file.
		msgs := make([]string, len(ds))
		for i, d := range ds {
			msgs[i] = d.Text()
		}
		if sameRules {
			return nil, fmt.Errorf("restore: sides: %s", strings.Join(msgs, "; "))
		}
		// The sides were valid when saved: the ruleset changed since.
		return nil, fmt.Errorf("restore: the saved sides do not fit ruleset %s as it is now: %s", p.name, strings.Join(msgs, "; "))
	}
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	if !sameRules && !b.changedRules {
		return nil, fmt.Errorf("restore: fingerprint: this save was made with a different ruleset named %s (its rules differ from this one's): %w", p.name, ErrChangedRules)
	}
	for _, sd := range s.Sides {
		for _, u := range sd.Units {
			b.unitByNm[u.Name].Ready = u.Ready
		}
	}
	b.round = s.Round
	for name, st := range s.Standings {
		o, ok := p.orders[name]
		if !ok {
			return nil, fmt.Errorf("restore: standings.%s: the ruleset has no order %s", name, name)
		}
		if st == nil {
			continue // null: not computed yet, as if it were left out
		}
		for k, vs := range st.Watched {
			st.Watched[k] = normalizeSlice(vs)
		}
		b.standings[o.id] = st
	}
	b.memory = s.Memory
	b.memory.Values = normalizeMap(s.Memory.Values)
	for _, d := range s.Done {
		i := slices.Index(p.phaseKeys, d)
		if i < 0 {
			kind, name, _ := strings.Cut(d, " ")
			return nil, fmt.Errorf("restore: the snapshot says %s %q has run, but the ruleset has no such %s", kind, name, kind)
		}
		b.done[i] = true
	}
	b.cur = s.Current
	b.pending = s.Pending
	if b.cur != nil {
		upgradeEvents(b.cur.Events)
	}
	upgradeEvents(b.pending)
	b.removed = s.Removed
	if err := b.checkRestored(&s, format); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	if len(s.Dice) > 0 {
		if u, ok := b.dice.(encoding.BinaryUnmarshaler); ok {
			if err := u.UnmarshalBinary(s.Dice); err != nil {
				return nil, fmt.Errorf("restore: dice: %w", err)
			}
		} else if err := checkSeededState(s.Dice); err != nil {
			// Kept, it would be saved again, and fail only in the battle
			// restored from that save with seeded dice.
			return nil, fmt.Errorf("restore: dice: %w", err)
		}
		// Only dice that keep no state leave it to the battle: dice that
		// took it roll on from it, and a clone given other dice later
		// must not save it as if nothing had rolled since.
		if m, ok := b.dice.(encoding.BinaryMarshaler); !ok || keepsNoState(m) {
			b.keptDice = s.Dice
		}
	}
	b.changed()
	return b, nil
}

// ErrChangedRules is the error of Restore given a save made with other
// rules of the same name: a house rule edited since, or a bundled ruleset
// of another turnorder. AcceptChangedRules restores it all the same.
var ErrChangedRules = errors.New("restore it with the ruleset it was saved with")

// AcceptChangedRules lets Restore bring back a battle saved with other
// rules of the same name (see ErrChangedRules), for a host that means to
// play it on under this Program's rules: the save is checked against
// them as any other is. NewBattle and Clone pass over it.
func AcceptChangedRules() BattleOption { return func(b *Battle) { b.changedRules = true } }

// jsonKind says what JSON a value of type t is read from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "a whole number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a string" // []byte, in base64
		}
		return "a list"
	}
	return "an object"
}

// format returns the save's format, refusing one Restore does not read.
func (s *snapshot) format() (int, error) {
	switch {
	case s.Format == nil:
		return 1, nil // from before saves had a format
	case *s.Format == saveFormat || *s.Format == 1:
		return *s.Format, nil
	case *s.Format > saveFormat:
		return 0, fmt.Errorf("format: this save is of format %d, from a newer turnorder; this one reads formats 1 to %d: restore it with a turnorder as new as the one that saved it", *s.Format, saveFormat)
	}
	return 0, fmt.Errorf("format: %d is no format of a save (formats are 1 to %d)", *s.Format, saveFormat)
}

// keepsState reports whether d saves a state of its own in a snapshot.
func keepsState(d Dice) bool {
	m, ok := d.(encoding.BinaryMarshaler)
	return ok && !keepsNoState(m)
}

// seededOf returns the seeded dice whose state d saves: d itself, or the
// Fallback of scripted dice. It returns nil for none.
func seededOf(d Dice) *SeededDice {
	if s, ok := d.(*ScriptedDice); ok && s != nil {
		d = s.Fallback
	}
	if sd, ok := d.(*SeededDice); ok && sd != nil {
		sd.init()
		return sd
	}
	return nil
}

// keepsNoState reports whether dice save no state of their own (a
// ScriptedDice without seeded Fallback).
func keepsNoState(m encoding.BinaryMarshaler) bool {
	d, err := m.MarshalBinary()
	return err == nil && len(d) == 0
}

// upgradeEvents reads events saved before EvNotReady was a kind of its
// own: a unit kept from its Ready marker was a ready event whose detail
// said so.
func upgradeEvents(evs []Event) {
	for i, e := range evs {
		if why, old := strings.CutPrefix(e.Detail, "no Ready marker: "); old && e.Kind == EvReady {
			evs[i].Kind, evs[i].Detail = EvNotReady, why
		}
	}
}

// remade reports whether the next round makes o's standing again: o is
// made each round or until changed, in phases that run every round.
func (p *Program) remade(o *order) bool {
	var walk func(ph *phase, once bool) (found, remade bool)
	walk = func(ph *phase, once bool) (bool, bool) {
		once = once || ph.once
		for _, it := range ph.items {
			switch x := it.(type) {
			case *order:
				if x == o {
					return true, !once && o.scope.kind != dsl.Once
				}
			case *phase:
				if found, remade := walk(x, once); found {
					return true, remade
				}
			}
		}
		return false, false
	}
	for _, ph := range p.phases {
		if found, remade := walk(ph, false); found {
			return remade
		}
	}
	return false
}

// normalize turns JSON numbers back into ints where they are whole.
func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.Atoi(x.String()); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		return normalizeSlice(x)
	case map[string]any:
		return normalizeMap(x)
	}
	return v
}

func normalizeSlice(xs []any) []any {
	for i, x := range xs {
		xs[i] = normalize(x)
	}
	return xs
}

func normalizeMap(m map[string]any) map[string]any {
	for k, v := range m {
		m[k] = normalize(v)
	}
	return m
}
