package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// tamperBases are real saves of bundled rulesets to edit: Necromunda in
// the middle of round 2, two activations in, after round 1, and in the
// middle of round 1's roll-off of three gangs, waiting for the reroll of
// two tied at 4; Morturi (a unit attribute) after round 1.
type tamperBases struct {
	mid, between, rolloff, morturi []byte
	necromunda, morturiP           *runtime.Program
}

func makeTamperBases(t testing.TB) tamperBases {
	t.Helper()
	ctx := context.Background()
	var tb tamperBases
	tb.necromunda = mustProgram(t, "necromunda")
	b, err := tb.necromunda.NewBattle(tb.necromunda.Example(), runtime.WithDice(runtime.NewSeededDice(7)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.AdvanceRound(ctx); err != nil {
		t.Fatal(err)
	}
	if tb.between, err = b.Snapshot(); err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := b.Step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if tb.mid, err = b.Snapshot(); err != nil {
		t.Fatal(err)
	}
	r, err := tb.necromunda.NewBattle(runtime.Sides("Goliaths", "Eschers", "Cawdor"), runtime.WithDice(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.StartRound(ctx); !errors.Is(err, runtime.ErrPending) {
		t.Fatalf("StartRound on dice left to the host: %v, want ErrPending", err)
	}
	if err := r.Answer(ctx, runtime.RollAnswer(4, 4, 2)); err != nil || r.Pending() == nil {
		t.Fatalf("a roll of 4, 4, 2: %v, pending %v, want the reroll pending", err, r.Pending())
	}
	if tb.rolloff, err = r.Snapshot(); err != nil {
		t.Fatal(err)
	}
	tb.morturiP = mustProgram(t, "morturi")
	m, err := tb.morturiP.NewBattle(tb.morturiP.Example(), runtime.WithDice(runtime.NewSeededDice(7)))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.AdvanceRound(ctx); err != nil {
		t.Fatal(err)
	}
	if tb.morturi, err = m.Snapshot(); err != nil {
		t.Fatal(err)
	}
	return tb
}

// save is a save decoded for editing.
type save map[string]any

func (s save) cur() map[string]any { return s["current"].(map[string]any) }

func (s save) sides() []any { return s["sides"].([]any) }

func (s save) side(i int) map[string]any { return s.sides()[i].(map[string]any) }

func (s save) unit(i, j int) map[string]any {
	return s.side(i)["units"].([]any)[j].(map[string]any)
}

func (s save) memory() map[string]any { return s["memory"].(map[string]any) }

func (s save) standing(name string) map[string]any {
	return s["standings"].(map[string]any)[name].(map[string]any)
}

// find returns where the named unit is in the sides.
func (s save) find(name string) (i, j int) {
	for i := range s.sides() {
		for j, u := range s.side(i)["units"].([]any) {
			if u.(map[string]any)["name"] == name {
				return i, j
			}
		}
	}
	panic("no unit " + name)
}

// firstActivated is the unit the round's first activation activated.
func (s save) firstActivated() string {
	return s.cur()["activations"].([]any)[0].(map[string]any)["unit"].(string)
}

// aReady returns a unit with a Ready marker.
func (s save) aReady() (i, j int) {
	for i := range s.sides() {
		for j, u := range s.side(i)["units"].([]any) {
			if u.(map[string]any)["ready"] == true {
				return i, j
			}
		}
	}
	panic("no unit is ready")
}

type tamper struct {
	name  string
	base  string // mid, between, rolloff or morturi
	edit  func(s save)
	field string // the path the error names
	what  string // and a phrase of what it says is wrong
}

// tampers are hand edits of a save, each into a state play cannot reach
// (or a save Restore cannot read), with what Restore's error says.
var tampers = []tamper{
	{"a newer format", "mid", func(s save) { s["format"] = 4 }, "format", "from a newer turnorder"},
	{"format 0", "mid", func(s save) { s["format"] = 0 }, "format", "0 is no format"},
	{"format a string", "mid", func(s save) { s["format"] = "2" }, "format", "want a whole number, got string"},
	{"another ruleset's fingerprint", "mid", func(s save) { s["fingerprint"] = "sha256:0123" }, "fingerprint", "a different ruleset named necromunda"},
	{"a holder that is no side", "mid", func(s save) { s.cur()["holder"] = "Orks" }, "current.holder", `"Orks" is no side or unit`},
	{"the holder not first in its order", "mid", func(s save) {
		s.cur()["holder"] = s.standing("priority")["order"].([]any)[1]
	}, "current.holder", "is first in order priority"},
	{"a chooser that is no side", "mid", func(s save) { s.cur()["chooser"] = "Orks" }, "current.chooser", `"Orks" is no side`},
	{"a previous holder that is no side", "between", func(s save) { s.memory()["holder"] = "Orks" }, "memory.holder", `"Orks" is no side`},
	{"the previous holder not first", "between", func(s save) {
		o := s.memory()["order"].([]any)
		s.memory()["order"] = []any{o[1], o[0]}
	}, "memory.holder", "was first in the order"},
	{"the round's holder not the one remembered", "between", func(s save) {
		o := s.memory()["order"].([]any)
		s.cur()["holder"] = o[1]
	}, "current.holder", "but memory.holder says"},
	{"a previous order with a stranger", "between", func(s save) {
		s.memory()["order"] = append(s.memory()["order"].([]any), "Orks")
	}, "memory.order[2]", `"Orks" is no side`},
	{"a previous order with a side twice", "between", func(s save) {
		o := s.memory()["order"].([]any)
		s.memory()["order"] = []any{o[0], o[0]}
	}, "memory.order[1]", "comes twice"},
	{"a unit that activated made ready again", "mid", func(s save) {
		i, j := s.find(s.firstActivated())
		s.unit(i, j)["ready"] = true
	}, ".ready", "has already activated in round 2"},
	{"a unit out of action and ready", "mid", func(s save) {
		i, j := s.aReady()
		s.unit(i, j)["status"] = []any{"out_of_action"}
	}, ".ready", "is out_of_action, which keeps a unit from one"},
	{"an undeclared status", "mid", func(s save) { s.unit(0, 0)["status"] = []any{"drunk"} }, "sides[0].units[0].status[0]", "drunk is not a status"},
	{"a status twice", "mid", func(s save) {
		s.unit(0, 0)["status"] = []any{"seriously_injured", "seriously_injured"}
	}, "sides[0].units[0].status[1]", "listed twice"},
	{"an undeclared attribute", "morturi", func(s save) { s.unit(0, 0)["attrs"] = map[string]any{"speed": 3} }, "sides[0].units[0].attrs.speed", "not an attribute"},
	{"an attribute of the wrong type", "morturi", func(s save) { s.unit(0, 0)["attrs"] = map[string]any{"movement": "fast"} }, "sides[0].units[0].attrs.movement", "want a whole number"},
	{"a unit's name twice", "mid", func(s save) { s.unit(1, 0)["name"] = s.unit(0, 0)["name"] }, "sides[1].units[0].name", "is already"},
	{"a side named as a unit", "mid", func(s save) { s.side(1)["name"] = s.unit(0, 0)["name"] }, "sides[1].name", "is already that of sides[0].units[0].name"},
	{"a side without a name", "mid", func(s save) { s.side(0)["name"] = "" }, "sides[0].name", "needs a name"},
	{"turn 99", "mid", func(s save) { s.cur()["turn"] = 99 }, "current.turn", "turn 99 does not fit round 2"},
	{"the largest turn", "mid", func(s save) { s.cur()["turn"] = int64(math.MaxInt64) }, "current.turn", "does not fit round 2"},
	{"the largest round", "between", func(s save) { s["round"] = int64(math.MaxInt64) }, "round", "is not a round a battle can reach"},
	{"a round beyond an int", "between", func(s save) { s["round"] = 1e30 }, "round", "want a whole number, got number 1e+30"},
	{"negative steps", "mid", func(s save) { s.cur()["steps"] = -1 }, "current.steps", "where there can be 0 to"},
	{"steps beyond the limit", "mid", func(s save) { s.cur()["steps"] = 1_000_000_000 }, "current.steps", "where there can be 0 to"},
	{"fewer steps than activations", "mid", func(s save) { s.cur()["steps"] = 1 }, "current.activations", "current.steps counts 1"},
	{"an activation by no side", "mid", func(s save) {
		s.cur()["activations"].([]any)[0].(map[string]any)["side"] = "Orks"
	}, "current.activations[0].side", `an activation by "Orks"`},
	{"an activation of another side's unit", "mid", func(s save) {
		a := s.cur()["activations"].([]any)[0].(map[string]any)
		for _, sd := range s.sides() {
			if n := sd.(map[string]any)["name"]; n != a["side"] {
				a["side"] = n
				break
			}
		}
	}, "current.activations[0].unit", "which is not a unit of"},
	{"an activation that passes too", "mid", func(s save) {
		s.cur()["activations"].([]any)[0].(map[string]any)["pass"] = true
	}, "current.activations[0]", "both passes and activates"},
	{"a standing with a stranger", "mid", func(s save) {
		s.standing("priority")["order"].([]any)[0] = "Orks"
	}, "standings.priority.order[0]", `"Orks" is not a side`},
	{"a standing whose places are in another order", "mid", func(s save) {
		p := s.standing("priority")["places"].([]any)
		p[0], p[1] = p[1], p[0]
	}, "standings.priority.places[0]", "where its order has"},
	{"a tie kept by an order made each round", "mid", func(s save) {
		s.standing("priority")["places"].([]any)[0].(map[string]any)["kept"] = true
	}, "standings.priority.places[0].kept", "keeps no tie"},
	{"a standing made in a round to come", "mid", func(s save) { s.standing("priority")["round"] = 99 }, "standings.priority.round", "made in round 99"},
	{"a standing of no order", "mid", func(s save) {
		s["standings"].(map[string]any)["initiative"] = s.standing("priority")
	}, "standings.initiative", "has no order initiative"},
	{"events pending in a round", "mid", func(s save) {
		s["pending"] = []any{map[string]any{"kind": "set", "round": 2}}
	}, "pending", "a round is under way"},
	{"a pending event of no kind", "between", func(s save) {
		s["pending"] = []any{map[string]any{"kind": "explosion", "round": 2}}
	}, "pending[0].kind", `"explosion" is not a kind of event`},
	{"an event of another round", "mid", func(s save) {
		s.cur()["events"].([]any)[0].(map[string]any)["round"] = 7
	}, "current.events[0].round", "an event of round 7 among those of round 2"},
	{"a removed unit still there", "mid", func(s save) {
		s["removed"] = map[string]any{s.unit(0, 0)["name"].(string): s.side(0)["name"]}
	}, "removed.", "is still in the battle"},
	{"a removed unit of no side", "mid", func(s save) { s["removed"] = map[string]any{"Zed": "Orks"} }, "removed.Zed", "Orks is no side"},
	{"a remembered value no rule remembers", "between", func(s save) {
		s.memory()["values"] = map[string]any{"grudge": 1}
	}, "memory.values.grudge", "remembers no grudge"},
	{"dice that are no seeded dice's", "mid", func(s save) { s["dice"] = "AAAA" }, "dice", "dice"},
	{"a side drawn from no bag", "mid", func(s save) { s.cur()["drawn"] = s.side(0)["name"] }, "current.drawn", "does not draw sides from a bag"},
	{"a stage of no round", "mid", func(s save) { s.cur()["stage"] = "lunch" }, "current", `stage "lunch"`},
	{"a round recorded before round 1", "between", func(s save) { s["round"] = 0 }, "current", "round is 0"},
	{"a unit made ready that is none", "mid", func(s save) { s.cur()["readied"] = []any{"Nobody"} }, "current.readied[0]", `"Nobody" is no unit`},
	{"a standing chosen by no side", "mid", func(s save) { s.standing("priority")["chooser"] = "Orks" }, "standings.priority.chooser", `"Orks" is no side`},
	{"a die the dice cannot show", "rolloff", func(s save) { s.entry(0)["rolls"] = []any{7, 4, 2} }, "journal[0]", "which is impossible on d6"},
	{"a roll for fewer subjects", "rolloff", func(s save) { s.entry(0)["rolls"] = []any{4, 4} }, "journal[0]", "2 results for 3 subjects"},
	{"a journal entry of no kind", "rolloff", func(s save) { s.entry(0)["kind"] = "dance" }, "journal[0].kind", `"dance"`},
	{"a decision where a roll was made", "rolloff", func(s save) {
		s["journal"] = []any{map[string]any{"kind": "decision", "choice": []any{"Goliaths"}, "host": true}}
	}, "journal[0]", "roll"},
	{"a journal that leads elsewhere", "rolloff", func(s save) { s.entry(0)["rolls"] = []any{6, 4, 2} }, "waiting", "but its journal ends the call (start_round) without it"},
	{"a roll waited for by others", "rolloff", func(s save) {
		s["waiting"].(map[string]any)["roll"].(map[string]any)["subjects"] = []any{"Goliaths", "Cawdor"}
	}, "waiting", "but its journal leads to"},
	{"an entry the call never reaches", "rolloff", func(s save) {
		s["journal"] = append(s["journal"].([]any), map[string]any{"kind": "roll", "rolls": []any{5, 3}, "host": true},
			map[string]any{"kind": "roll", "rolls": []any{2, 2}, "host": true})
	}, "journal[2]", "the call (start_round) ended before this input was asked for"},
	{"a call under way and nothing waited for", "rolloff", func(s save) { delete(s, "waiting") }, "waiting", "not the input it waits for"},
	{"a journal and no call under way", "rolloff", func(s save) { delete(s, "op") }, "journal", "names the call (op) it was in"},
	{"a call of no kind", "rolloff", func(s save) { s["op"].(map[string]any)["kind"] = "dance" }, "op.kind", `"dance"`},
	{"a call under way in a save of format 2", "rolloff", func(s save) { s["format"] = 2 }, "op", "format 2 holds no call under way"},
	{"a roll of a number not whole", "rolloff", func(s save) { s.entry(0)["rolls"] = []any{4.5, 4, 2} }, "journal.rolls", "want a whole number, got number 4.5"},
}

// entry is the i'th entry of the journal of the call under way.
func (s save) entry(i int) map[string]any {
	return s["journal"].([]any)[i].(map[string]any)
}

// edited returns the base save with one tamper applied.
func (tb tamperBases) edited(t testing.TB, tt tamper) (*runtime.Program, []byte) {
	t.Helper()
	p, data := tb.necromunda, tb.mid
	switch tt.base {
	case "between":
		data = tb.between
	case "rolloff":
		data = tb.rolloff
	case "morturi":
		p, data = tb.morturiP, tb.morturi
	}
	var s save
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	tt.edit(s)
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return p, out
}

// Restore refuses every hand-tampered save with one line that names the
// field at fault and says what is wrong with it.
func TestRestoreRefusesTamperedSaves(t *testing.T) {
	tb := makeTamperBases(t)
	for _, base := range []struct {
		p    *runtime.Program
		data []byte
	}{{tb.necromunda, tb.mid}, {tb.necromunda, tb.between}, {tb.necromunda, tb.rolloff}, {tb.morturiP, tb.morturi}} {
		if _, err := base.p.Restore(base.data); err != nil {
			t.Fatalf("the untouched save is refused: %v", err)
		}
	}
	if len(tampers) < 25 {
		t.Fatalf("only %d tampered saves", len(tampers))
	}
	for _, tt := range tampers {
		t.Run(tt.name, func(t *testing.T) {
			p, data := tb.edited(t, tt)
			for _, dice := range []runtime.Dice{nil, runtime.FuncDice{}} {
				_, err := p.Restore(data, runtime.WithDice(dice))
				switch {
				case err == nil:
					t.Fatalf("Restore accepted it")
				case !strings.Contains(err.Error(), tt.field) || !strings.Contains(err.Error(), tt.what):
					t.Errorf("Restore: %v\nwant an error naming %s and saying %q", err, tt.field, tt.what)
				case strings.Contains(err.Error(), "\n"):
					t.Errorf("Restore's error is not one line: %q", err)
				}
			}
		})
	}
}

// The fingerprint is the rules': the same for the same ruleset compiled
// again, whatever its comments and layout, and another for a changed
// rule. A save of other rules of the same name is refused, and restores
// with AcceptChangedRules.
func TestRestoreOtherRulesOfTheSameName(t *testing.T) {
	const rules = `ruleset duel {
  sides 2
  phase p {
    order sides as o { highest roll d6
      tie: reroll }
  }
}`
	p := compileInline(t, rules)
	same := compileInline(t, "# a comment\n"+strings.Replace(rules, "highest roll d6\n", "quote \"Roll.\"\n      highest roll d6   # who rolls highest\n\n", 1))
	other := compileInline(t, strings.Replace(rules, "highest", "lowest", 1))
	if p.Fingerprint() != same.Fingerprint() {
		t.Errorf("the same rules, commented and laid out otherwise, have fingerprints %s and %s", p.Fingerprint(), same.Fingerprint())
	}
	if p.Fingerprint() == other.Fingerprint() || !strings.HasPrefix(p.Fingerprint(), "sha256:") {
		t.Errorf("fingerprints %s and %s, of a changed rule", p.Fingerprint(), other.Fingerprint())
	}
	if a, b := mustProgram(t, "mesbg").Fingerprint(), mustProgram(t, "mesbg").Fingerprint(); a != b {
		t.Errorf("mesbg compiled twice: fingerprints %s and %s", a, b)
	}
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	data := []byte(snapshot(t, b))
	if _, err := same.Restore(data); err != nil {
		t.Errorf("the same rules: %v", err)
	}
	_, err = other.Restore(data)
	want := "restore: fingerprint: this save was made with a different ruleset named duel (its rules differ from this one's)"
	if err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, runtime.ErrChangedRules) {
		t.Errorf("other rules: %v, want %s... (ErrChangedRules)", err, want)
	}
	r, err := other.Restore(data, runtime.AcceptChangedRules())
	if err != nil {
		t.Fatalf("other rules, accepted: %v", err)
	}
	again := snapshot(t, r)
	if !strings.Contains(again, `"fingerprint": "`+other.Fingerprint()+`"`) {
		t.Errorf("a battle played on under other rules saves their fingerprint:\n%s", again)
	}
}

// A save says its format. One of format 1 (from before saves had one) is
// read, checked as fully as it allows, and saved again as format 3; one
// of format 2 (from before saves could be made in a call under way) too;
// one of a newer turnorder is refused, saying so.
func TestRestoreSaveFormats(t *testing.T) {
	tb := makeTamperBases(t)
	var s save
	if err := json.Unmarshal(tb.mid, &s); err != nil {
		t.Fatal(err)
	}
	if s["format"] != 3.0 || s["fingerprint"] != tb.necromunda.Fingerprint() {
		t.Fatalf("the save says format %v, fingerprint %v", s["format"], s["fingerprint"])
	}
	delete(s, "format")
	delete(s, "fingerprint")
	delete(s.cur(), "readied")
	delete(s.cur(), "kept")
	old, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tb.necromunda.Restore(old)
	if err != nil {
		t.Fatalf("a save of format 1: %v", err)
	}
	if _, err := snapRestore(tb.necromunda, b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(snapshot(t, b), `"format": 3,`) {
		t.Errorf("a battle restored from format 1 does not save as format 3")
	}
	var two save
	if err := json.Unmarshal(tb.mid, &two); err != nil {
		t.Fatal(err)
	}
	two["format"] = 2
	data, _ := json.Marshal(two)
	if b, err = tb.necromunda.Restore(data); err != nil {
		t.Fatalf("a save of format 2: %v", err)
	}
	if got := snapshot(t, b); got != string(tb.mid) {
		t.Errorf("a save of format 2 restored saves as (-want +got):\n%s", cmp.Diff(string(tb.mid), got))
	}
	// Format 1 is checked as any save is.
	s.cur()["holder"] = "Orks"
	old, _ = json.Marshal(s)
	if _, err := tb.necromunda.Restore(old); err == nil || !strings.Contains(err.Error(), "current.holder") {
		t.Errorf("a tampered save of format 1: %v", err)
	}
	s["format"] = 9
	newer, _ := json.Marshal(s)
	_, err = tb.necromunda.Restore(newer)
	want := "restore: format: this save is of format 9, from a newer turnorder; this one reads formats 1 to 3"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a newer format: %v, want %s...", err, want)
	}
}

// A unit given its Ready marker back (a skill that lets it activate
// again), or given a status that keeps a unit from its marker once it
// has one, is saved so, and restores: only the markers nothing gave are
// refused.
func TestRestoreReadyMarkersGivenInRound(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "necromunda")
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(7)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Step(ctx); err != nil {
		t.Fatal(err)
	}
	first := b.Activations()[0].Unit
	if err := b.MakeReady(first); err != nil {
		t.Fatal(err)
	}
	var ready string
	for _, u := range b.Units() {
		if u.Ready && u.Name != first {
			ready = u.Name
			break
		}
	}
	if err := b.SetStatus(ctx, ready, "out_of_action", true); err != nil {
		t.Fatal(err)
	}
	r, err := snapRestore(p, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := playOn(ctx, r, 2); err != nil {
		t.Fatal(err)
	}
}

// hostile are saves no play writes: counters at their limits, huge
// numbers, deep nesting, strings where numbers go, lists emptied.
func hostile(tb tamperBases) []struct {
	name string
	base string
	edit func(s save)
} {
	deep := any("x")
	for range 5000 {
		deep = []any{deep}
	}
	type h = struct {
		name string
		base string
		edit func(s save)
	}
	return []h{
		{"largest round, between rounds", "between", func(s save) { s["round"] = int64(math.MaxInt64); delete(s, "current") }},
		{"last round", "between", func(s save) {
			s["round"], s.cur()["round"], s.cur()["events"] = math.MaxInt32, math.MaxInt32, []any{}
		}},
		{"last round but one", "between", func(s save) {
			s["round"], s.cur()["round"], s.cur()["events"] = math.MaxInt32-1, math.MaxInt32-1, []any{}
		}},
		{"largest turn", "mid", func(s save) { s.cur()["turn"] = int64(math.MaxInt64) }},
		{"largest steps", "mid", func(s save) { s.cur()["steps"] = int64(math.MaxInt64) }},
		{"steps at the limit", "mid", func(s save) { s.cur()["steps"] = runtime.DefaultLimits().MaxSteps }},
		{"smallest turn", "mid", func(s save) { s.cur()["turn"] = int64(math.MinInt64) }},
		{"huge standing round", "mid", func(s save) { s.standing("priority")["round"] = 1e300 }},
		{"choice round at the largest", "mid", func(s save) { s.standing("priority")["choice_round"] = int64(math.MaxInt64) }},
		{"NaN as a string", "mid", func(s save) { s.cur()["turn"] = "NaN" }},
		{"Infinity as a string", "between", func(s save) { s["round"] = "Infinity" }},
		{"a deeply nested value", "between", func(s save) { s.memory()["values"] = map[string]any{"x": deep} }},
		{"deep nesting in place of the sides", "mid", func(s save) { s["sides"] = deep }},
		{"no sides", "mid", func(s save) { s["sides"] = []any{} }},
		{"no units", "mid", func(s save) {
			for i := range s.sides() {
				s.side(i)["units"] = []any{}
			}
		}},
		{"an empty order", "mid", func(s save) {
			s.standing("priority")["order"] = []any{}
			s.standing("priority")["places"] = []any{}
		}},
		{"no activations", "mid", func(s save) { s.cur()["activations"] = []any{} }},
		{"a null round", "mid", func(s save) { s["current"] = nil }},
		{"every marker off", "mid", func(s save) {
			for i := range s.sides() {
				for j := range s.side(i)["units"].([]any) {
					s.unit(i, j)["ready"] = false
				}
			}
		}},
		{"a huge event number", "mid", func(s save) {
			s.cur()["events"].([]any)[0].(map[string]any)["value"] = 1e308
		}},
		{"a long name", "mid", func(s save) { s.unit(0, 0)["name"] = strings.Repeat("x", 1<<16) }},
		{"empty dice", "mid", func(s save) { s["dice"] = "" }},
		{"the largest pending round", "between", func(s save) {
			s["pending"] = []any{map[string]any{"kind": "set", "round": int64(math.MaxInt64)}}
		}},
	}
}

// Hostile saves either are refused or play on, with seeded dice, for a
// few rounds: never a panic, never a hang.
func TestRestoreHostileSavesPlayOn(t *testing.T) {
	tb := makeTamperBases(t)
	cases := hostile(tb)
	if len(cases) < 20 {
		t.Fatalf("only %d hostile saves", len(cases))
	}
	for _, h := range cases {
		t.Run(h.name, func(t *testing.T) {
			p, data := tb.edited(t, tamper{base: h.base, edit: h.edit})
			if err := restorePlayOn(p, data); err != nil {
				t.Error(err)
			}
		})
	}
}

// restorePlayOn restores data with seeded dice and, if Restore accepts
// it, plays on for three rounds, stepping through each: a panic or a hang
// is an error, and so is a restored battle whose save restores no more.
func restorePlayOn(p *runtime.Program, data []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	b, rerr := p.Restore(data, runtime.WithDice(runtime.NewSeededDice(11)))
	if rerr != nil {
		if strings.Contains(rerr.Error(), "\n") {
			return fmt.Errorf("Restore's error is not one line: %q", rerr)
		}
		return nil
	}
	if _, err := snapRestore(p, b); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := playOn(ctx, b, 3); errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("the rounds took more than 10s: %v", err)
	}
	return nil
}

// playOn plays the rest of the round under way, if any, and rounds more
// with Step (and PlayRound), until one fails.
func playOn(ctx context.Context, b *runtime.Battle, rounds int) error {
	for n := range rounds {
		if !b.InRound() {
			if n%2 == 1 {
				if _, err := b.PlayRound(ctx); err != nil {
					return err
				}
				continue
			}
			if err := b.StartRound(ctx); err != nil {
				return err
			}
		}
		for done := false; !done; {
			var err error
			if done, err = b.Step(ctx); err != nil {
				return err
			}
		}
		if _, err := b.EndRound(ctx); err != nil {
			return err
		}
	}
	return nil
}

// At the last round a battle can reach, the next is refused, not
// counted past it.
func TestNoRoundAfterTheLast(t *testing.T) {
	tb := makeTamperBases(t)
	p, data := tb.edited(t, tamper{base: "between", edit: func(s save) {
		s["round"] = math.MaxInt32
		s.cur()["round"] = math.MaxInt32
		s.cur()["events"] = []any{}
	}})
	b, err := p.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, play := range []func() error{
		func() error { return b.StartRound(context.Background()) },
		func() error { return b.AdvanceRound(context.Background()) },
	} {
		if err := play(); !errors.Is(err, runtime.ErrLimit) || !strings.Contains(err.Error(), "is the last a battle can play") {
			t.Errorf("err = %v, want ErrLimit: the last round", err)
		}
		if b.Round() != math.MaxInt32 {
			t.Errorf("round %d", b.Round())
		}
	}
}

// An event of a round other than the one it is recorded in is refused,
// naming it, in a save of any format: Restore accepted one of round 0 in
// a save without a format, which then saved as format 3 and was refused.
// Only the events between rounds of format 1, of the round before them,
// are read, as the next round's.
func TestRestoreRefusesEventsOfAnotherRound(t *testing.T) {
	tb := makeTamperBases(t)
	for _, tc := range []struct {
		name   string
		format bool
		edit   func(s save)
		want   string // the start of the error, "" if Restore accepts it
	}{
		{"current of round 0", true, func(s save) { s.cur()["events"].([]any)[0].(map[string]any)["round"] = 0 }, "restore: current.events[0].round: an event of round 0 among those of round 1"},
		{"current of round 0, format 1", false, func(s save) { s.cur()["events"].([]any)[0].(map[string]any)["round"] = 0 }, "restore: current.events[0].round: an event of round 0 among those of round 1"},
		{"current of round 2, format 1", false, func(s save) { s.cur()["events"].([]any)[1].(map[string]any)["round"] = 2 }, "restore: current.events[1].round: an event of round 2 among those of round 1"},
		{"pending of round 0", true, func(s save) { s["pending"] = []any{pendingEvent(s, 0)} }, "restore: pending[0].round: an event of round 0 among those of round 2"},
		{"pending of round 0, format 1", false, func(s save) { s["pending"] = []any{pendingEvent(s, 0)} }, "restore: pending[0].round: an event of round 0 among those of round 2"},
		{"pending of round 1", true, func(s save) { s["pending"] = []any{pendingEvent(s, 1)} }, "restore: pending[0].round: an event of round 1 among those of round 2"},
		{"pending of round 1, format 1", false, func(s save) { s["pending"] = []any{pendingEvent(s, 1)} }, ""},
		{"pending of round 2", true, func(s save) { s["pending"] = []any{pendingEvent(s, 2)} }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s save
			if err := json.Unmarshal(tb.morturi, &s); err != nil {
				t.Fatal(err)
			}
			if !tc.format {
				delete(s, "format")
				delete(s, "fingerprint")
			}
			tc.edit(s)
			data, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			b, err := tb.morturiP.Restore(data)
			got := ""
			if err != nil {
				got, _, _ = strings.Cut(err.Error(), "\n")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("Restore (-want +got):\n%s", diff)
			}
			if err == nil {
				if _, err := snapRestore(tb.morturiP, b); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// pendingEvent is a copy of the save's first event, of the round given.
func pendingEvent(s save, round int) map[string]any {
	e := maps.Clone(s.cur()["events"].([]any)[0].(map[string]any))
	e["round"] = round
	return e
}
