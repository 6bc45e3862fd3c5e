package runtime

import (
	"bytes"
	"context"
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
	Decks       []DeckState          `json:"decks,omitempty"`   // the decks and bags drawn from: a deck not listed is whole
	Dice        []byte               `json:"dice,omitempty"`
	// Op, Journal and Waiting are a call under way, stopped at an input
	// (format 3): the battle above is as the call found it, Journal the
	// inputs it was given since, and Waiting the input it waits for.
	Op      *opSnap     `json:"op,omitempty"`
	Journal []entrySnap `json:"journal,omitempty"`
	Waiting *Request    `json:"waiting,omitempty"`
}

// opSnap is an op in a save.
type opSnap struct {
	Kind  string `json:"kind"`
	Who   string `json:"who,omitempty"`
	Key   string `json:"key,omitempty"`
	Value any    `json:"value,omitempty"`
	On    bool   `json:"on,omitempty"`
}

// entrySnap is a journal entry in a save: kind "roll", "pick",
// "decision" or "hook".
type entrySnap struct {
	Kind    string   `json:"kind"`
	Rolls   []int    `json:"rolls,omitempty"`
	Pick    *int     `json:"pick,omitempty"`
	Choice  []string `json:"choice,omitempty"`
	Changes []opSnap `json:"changes,omitempty"` // what the Go hooks, or dice or a decider, changed
	Host    bool     `json:"host,omitempty"`    // given with Answer
	// Dice is the state of the battle's seeded dice before they rolled
	// or picked this, for Undo to take the roll back with the answer
	// before it.
	Dice []byte `json:"dice,omitempty"`
}

var entryNames = map[entryKind]string{entryRoll: "roll", entryPick: "pick", entryDecision: "decision", entryHook: "hook",
	entryChange: "changes"}

func (o op) snap() opSnap {
	return opSnap{Kind: o.kind.String(), Who: o.who, Key: o.key, Value: o.value, On: o.on}
}

// op reads an op back, refusing a kind of none.
func (o opSnap) op(at string) (op, error) {
	for k, name := range opNames {
		if name == o.Kind && k != int(opNone) {
			return op{kind: opKind(k), who: o.Who, key: o.Key, value: normalize(o.Value), on: o.On}, nil
		}
	}
	return op{}, fmt.Errorf("%s.kind: %q is no call a battle plays (want one of %s)", at, o.Kind, strings.Join(opNames[1:], ", "))
}

func (e entry) snap() entrySnap {
	out := entrySnap{Kind: entryNames[e.kind], Rolls: e.rolls, Choice: e.choice, Host: e.host}
	if e.seeded {
		out.Dice, _ = e.pcg.MarshalBinary() // never fails
	}
	if e.kind == entryPick {
		out.Pick = &e.pick
	}
	for _, c := range e.changes {
		out.Changes = append(out.Changes, c.snap())
	}
	return out
}

// entry reads a journal entry back: its kind, and the one answer it has.
func (e entrySnap) entry(at string) (entry, error) {
	out := entry{rolls: e.Rolls, choice: e.Choice, host: e.Host}
	if e.Dice != nil {
		if e.Host {
			return out, fmt.Errorf("%s.dice: an answer given with Answer was not rolled by the battle's dice", at)
		}
		if err := out.pcg.UnmarshalBinary(e.Dice); err != nil {
			return out, fmt.Errorf("%s.dice: %v", at, err)
		}
		out.seeded = true
	}
	for k, name := range entryNames {
		if name == e.Kind {
			out.kind = k
		}
	}
	ok := true
	switch out.kind {
	case entryRoll:
		ok = e.Rolls != nil && e.Pick == nil && e.Choice == nil && e.Changes == nil
	case entryPick:
		ok = e.Pick != nil && e.Rolls == nil && e.Choice == nil && e.Changes == nil
		if e.Pick != nil {
			out.pick = *e.Pick
		}
	case entryDecision:
		ok = e.Choice != nil && e.Rolls == nil && e.Pick == nil && e.Changes == nil
	case entryHook, entryChange:
		ok = e.Rolls == nil && e.Pick == nil && e.Choice == nil && !e.Host && (out.kind == entryHook || e.Changes != nil)
		for i, c := range e.Changes {
			o, err := c.op(fmt.Sprintf("%s.changes[%d]", at, i))
			if err != nil {
				return out, err
			}
			switch o.kind {
			case opSetAttr, opSetStatus, opRemove, opAdd, opReady, opHolder:
			default:
				return out, fmt.Errorf("%s.changes[%d].kind: %s is no change (want set_attr, set_status, remove_unit, add_unit, make_ready or set_holder)", at, i, o.kind)
			}
			out.changes = append(out.changes, o)
		}
	default:
		return out, fmt.Errorf("%s.kind: %q is no kind of entry (want roll, pick, decision, hook or changes)", at, e.Kind)
	}
	if !ok {
		return out, fmt.Errorf("%s: a %s entry holds %s alone", at, e.Kind, map[entryKind]string{entryRoll: "rolls", entryPick: "a pick",
			entryDecision: "a choice", entryHook: "the hook's changes", entryChange: "changes"}[out.kind])
	}
	return out, nil
}

// saveFormat is the format Snapshot writes. Format 2 added the format,
// the ruleset's fingerprint and the units made ready again in a round
// (roundState.Readied); Restore reads format 1 too, checked as fully as
// what it holds allows.
//
// Format 3 added a call stopped at an input (op, journal, waiting).
//
// What is left of each deck (decks) needs no format of its own: only a
// battle of rules that declare decks saves it, and a turnorder that could
// not read it cannot read those rules either.
const saveFormat = 3

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

// Snapshot saves the battle as JSON. Restore it with Program.Restore. A
// battle waiting for an input (see Pending) is saved as the call that
// stopped found it, with the inputs given since, and the battle restored
// from it waits for the same input; so is one saved from Dice or a
// Decider while they are asked (from their own goroutine: a Battle is not
// safe for concurrent use), which the restored battle asks again. It
// refuses with ErrInCallback from a Go hook.
func (b *Battle) Snapshot() ([]byte, error) {
	if b.prog == nil {
		return nil, errors.New("Snapshot: the Battle has no ruleset: make one with Program.NewBattle or Program.Restore")
	}
	if b.inHook || b.inCallback > 1 || b.running && b.base == nil {
		// A Go hook's changes are not in the journal yet, nor those of
		// the dice or decider whose change asks for the input now.
		return nil, fmt.Errorf("Snapshot: %w", ErrInCallback)
	}
	s := b.snapshot()
	seeded := b.seeded
	if b.running || b.pend != nil {
		s = b.base.snapshot()
		op := b.op.snap()
		s.Op = &op
		journal := b.journal
		if b.hookLog != nil && len(*b.hookLog) > 0 {
			// The changes the dice or decider asked have made so far,
			// where callback will write them.
			journal = slices.Insert(slices.Clone(journal), b.askedAt, entry{kind: entryChange, changes: *b.hookLog})
		}
		for _, e := range journal {
			s.Journal = append(s.Journal, e.snap())
		}
		s.Waiting = b.pend
		if b.running {
			s.Waiting = b.asking
		}
	}
	if seeded != nil {
		d, err := seeded.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("snapshot: dice: %w", err)
		}
		s.Dice = d
	} else if m, ok := b.dice.(encoding.BinaryMarshaler); ok {
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
	s := &snapshot{Format: &format, Ruleset: b.prog.name, Fingerprint: b.prog.fingerprint, Round: b.round, Memory: b.memory, Current: b.cur, Pending: b.pending, Removed: b.removed,
		Decks: b.deckStates()}
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
	if err := b.restoreDecks(s.Decks); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
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
	if err := b.resume(&s, format); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	return b, nil
}

// resume plays again the call a save of format 3 stopped in, to the input
// it waits for: the journal answers every input before it, and takes the
// place of the Go hooks that ran, which run no more.
func (b *Battle) resume(s *snapshot, format int) error {
	if s.Op == nil {
		if s.Journal != nil || s.Waiting != nil {
			return errors.New("journal: a save with a journal or an input waited for names the call (op) it was in")
		}
		return nil
	}
	if format < 3 {
		return fmt.Errorf("op: a save of format %d holds no call under way (format 3 does)", format)
	}
	o, err := s.Op.op("op")
	if err != nil {
		return err
	}
	journal := make([]entry, 0, len(s.Journal))
	hooks := 0
	for i, es := range s.Journal {
		e, err := es.entry(fmt.Sprintf("journal[%d]", i))
		if err != nil {
			return err
		}
		if e.kind == entryHook {
			hooks++
		}
		journal = append(journal, e)
	}
	if s.Waiting == nil {
		return errors.New("waiting: the save names a call under way (op) but not the input it waits for")
	}
	b.begin(o)
	b.journal, b.hookEntries = journal, hooks
	b.noAsk = true
	err = b.play(context.Background())
	b.noAsk = false
	switch {
	case b.pend == nil && err == nil:
		return fmt.Errorf("waiting: the save waits for %s, but its journal ends the call (%s) without it", s.Waiting, o.kind)
	case b.pend == nil:
		return err
	}
	want, _ := json.Marshal(s.Waiting)
	got, _ := json.Marshal(b.pend)
	if !bytes.Equal(want, got) {
		return fmt.Errorf("waiting: the save waits for %s, but its journal leads to %s", s.Waiting, b.pend)
	}
	return nil
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
	case *s.Format >= 1 && *s.Format <= saveFormat:
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
