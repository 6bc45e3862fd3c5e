package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// TestAccessorsReturnCopies: what a Battle's accessors return is the
// caller's. A host that edits a returned slice (to sort it for display,
// say) changes nothing in the battle, its next snapshot or its result.
func TestAccessorsReturnCopies(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "necromunda")
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
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
	tests := []struct {
		name   string
		get    func() any
		scrawl func()
	}{
		{"Order", func() any { return b.Order() }, func() {
			o := b.Order()
			for i := range o {
				o[i] = "X"
			}
		}},
		{"ReadyUnits", func() any { return b.ReadyUnits() }, func() {
			r := b.ReadyUnits()
			for i := range r {
				r[i] = "X"
			}
		}},
		{"Events", func() any { return b.Events() }, func() {
			e := b.Events()
			for i := range e {
				e[i].Subject = "X"
			}
		}},
		{"Memory", func() any { return b.Memory() }, func() {
			m := b.Memory()
			for i := range m.Order {
				m.Order[i] = "X"
			}
		}},
		// Activations' slices share an array of their own, which shows
		// what was written to it: the battle's record is in Result.
		{"Activations", func() any { return b.Result().Activations }, func() {
			a := b.Activations()
			for i := range a {
				a[i] = runtime.ActivationRecord{Side: "X", Pass: true}
			}
		}},
		{"Standing", func() any { return b.Standing("priority") }, func() {
			s := b.Standing("priority")
			s.Order[0], s.Places[0].Subject = "X", "X"
		}},
		{"Result", func() any { return b.Result() }, func() {
			r := b.Result()
			r.Order[0] = "X"
			for i := range r.Activations {
				r.Activations[i].Unit = "X"
			}
		}},
		{"Next", func() any { return b.Next() }, func() {
			n := b.Next()
			for i := range n.Options {
				n.Options[i] = "X"
			}
			// The battle's own turn must not be the one handed out.
			if err := b.Activate(ctx, "X"); err == nil {
				t.Error("Activate(X) after editing what Next returned: no error")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := tt.get()
			snap, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			tt.scrawl()
			if diff := cmp.Diff(before, tt.get()); diff != "" {
				t.Errorf("%s after editing what it returned (-before +after):\n%s", tt.name, diff)
			}
			again, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(snap), string(again)); diff != "" {
				t.Errorf("snapshot after editing what %s returned (-before +after):\n%s", tt.name, diff)
			}
		})
	}
}

// TestSidesAndUnitsAreCopies: the sides and units a Battle hands out are
// copies down to their maps, so that a host writing to one (a wound noted
// in Attrs, a status set, a unit appended) cannot get past SetAttr's
// checks, the recomputation of the orders that watch the value, or
// AbortRound: the battle, its snapshot and its next round are as before.
func TestSidesAndUnitsAreCopies(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset copies {
  sides 2
  side attribute threat int
  unit attribute agi int
  unit status pinned
  phase p {
    order sides as priority until changed threat {
      lowest threat
      highest roll d6
      tie: reroll
    }
    ready units unless pinned
  }
  activation alternate by priority
}`)
	sides := []runtime.SideSpec{
		{Name: "A", Attrs: map[string]any{"threat": 1}, Units: []runtime.UnitSpec{{Name: "a1", Attrs: map[string]any{"agi": 3}}, {Name: "a2"}}},
		{Name: "B", Attrs: map[string]any{"threat": 2}, Units: []runtime.UnitSpec{{Name: "b1"}, {Name: "b2", Statuses: []string{"pinned"}}}},
	}
	newBattle := func() *runtime.Battle {
		b, err := p.NewBattle(sides, runtime.WithDice(runtime.NewSeededDice(4)))
		if err != nil {
			t.Fatal(err)
		}
		if err := b.StartRound(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Step(ctx); err != nil {
			t.Fatal(err)
		}
		return b
	}
	scrawlUnit := func(u *runtime.Unit) {
		u.Name, u.Ready = "X", !u.Ready
		u.Attrs["agi"], u.Attrs["bogus"] = 99, 1
		u.Status["pinned"] = !u.Status["pinned"]
		u.Side.Attrs["threat"] = 9
		u.Side.Units = append(u.Side.Units, &runtime.Unit{Name: "intruder", Ready: true})
	}
	scrawlSide := func(s *runtime.Side) {
		s.Name, s.Team = "X", "X"
		s.Attrs["threat"], s.Attrs["bogus"] = 9, 1
		for _, u := range s.Units {
			scrawlUnit(u)
		}
		s.Units = s.Units[:1]
	}
	tests := []struct {
		name   string
		scrawl func(b *runtime.Battle)
	}{
		{"Side", func(b *runtime.Battle) { scrawlSide(b.Side("A")) }},
		{"Unit", func(b *runtime.Battle) { scrawlUnit(b.Unit("b2")) }},
		{"Sides", func(b *runtime.Battle) {
			for _, s := range b.Sides() {
				scrawlSide(s)
			}
		}},
		{"Units", func(b *runtime.Battle) {
			for _, u := range b.Units() {
				scrawlUnit(u)
			}
		}},
	}
	// A copy hangs together as the battle's sides and units do: a unit is
	// among its side's units.
	shape := newBattle()
	for _, u := range append(shape.Units(), shape.Unit("b2")) {
		if !slices.Contains(u.Side.Units, u) {
			t.Errorf("unit %s is not among the units of its side %s", u.Name, u.Side.Name)
		}
	}
	for _, s := range append(shape.Sides(), shape.Side("A")) {
		for _, u := range s.Units {
			if u.Side != s {
				t.Errorf("unit %s of side %s has side %p, not %p", u.Name, s.Name, u.Side, s)
			}
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, twin := newBattle(), newBattle()
			before := []any{b.Sides(), b.Units(), b.Side("A"), b.Unit("b2")}
			tt.scrawl(b)
			after := []any{b.Sides(), b.Units(), b.Side("A"), b.Unit("b2")}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("the battle's sides and units after editing what %s returned (-before +after):\n%s", tt.name, diff)
			}
			// The battle plays on, and undoes its round, as one nobody
			// wrote to: what a snapshot holds is everything that matters.
			for _, step := range []struct {
				name string
				do   func(b *runtime.Battle) error
			}{
				{"now", func(*runtime.Battle) error { return nil }},
				{"after EndRound", func(b *runtime.Battle) error { _, err := b.EndRound(ctx); return err }},
				{"after a round played again", func(b *runtime.Battle) error { _, err := b.PlayRound(ctx); return err }},
				{"after SetAttr", func(b *runtime.Battle) error { return b.SetAttr(ctx, "A", "threat", 2) }},
				{"after another round", func(b *runtime.Battle) error { _, err := b.PlayRound(ctx); return err }},
			} {
				if err := step.do(b); err != nil {
					t.Fatalf("%s: %v", step.name, err)
				}
				if err := step.do(twin); err != nil {
					t.Fatalf("%s, twin: %v", step.name, err)
				}
				got, err := b.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				want, err := twin.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(want), string(got)); diff != "" {
					t.Fatalf("%s, the battle after editing what %s returned (-untouched twin +battle):\n%s", step.name, tt.name, diff)
				}
			}
		})
	}
}

// Memory's copy goes all the way down: a remembered list (or a list in
// it) that the host edits is its own, not the battle's.
func TestMemoryValuesAreCopies(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset keep "Remembers lists" {
  sides 2
  remember names = map(sides, .name)
  remember pairs = map(sides, [.name, holder])
  phase priority {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
}
`)
	b, err := p.NewBattle(runtime.Sides("A", "B"), runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	before := b.Memory()
	snap, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	m := b.Memory()
	names, ok := m.Values["names"].([]any)
	if !ok || len(names) != 2 {
		t.Fatalf("remembered names = %#v; want a list of two", m.Values["names"])
	}
	names[0] = "X"
	pairs, ok := m.Values["pairs"].([]any)
	if !ok || len(pairs) != 2 {
		t.Fatalf("remembered pairs = %#v; want a list of two", m.Values["pairs"])
	}
	pair, ok := pairs[1].([]any)
	if !ok || len(pair) != 2 {
		t.Fatalf("remembered pair = %#v; want a list of two", pairs[1])
	}
	pair[0] = "X"
	if diff := cmp.Diff(before, b.Memory()); diff != "" {
		t.Errorf("Memory after editing a copy (-before +after):\n%s", diff)
	}
	again, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(snap), string(again)); diff != "" {
		t.Errorf("snapshot after editing Memory's copy (-before +after):\n%s", diff)
	}
}

// The events Events and Result return are the caller's down to their
// values and lists: a host that edits one (sorts Subjects for display,
// say) changes neither the battle's transcript nor a result it returned
// before.
func TestEventsAreCopies(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(7)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	kept := fmt.Sprint(res.Events)
	want := fmt.Sprint(b.Events())
	scrawl := func(evs []runtime.Event) {
		for _, e := range evs {
			if e.Value != nil {
				*e.Value = 42
			}
			if e.Total != nil {
				*e.Total = 42
			}
			for i := range e.Subjects {
				e.Subjects[i] = "X"
			}
			for i := range e.Choice {
				e.Choice[i] = "X"
			}
		}
	}
	tests := []struct {
		name string
		evs  func() []runtime.Event
	}{
		{"Events", b.Events},
		{"Result", func() []runtime.Event { return b.Result().Events }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scrawl(tt.evs())
			if diff := cmp.Diff(want, fmt.Sprint(b.Events())); diff != "" {
				t.Errorf("the battle's events after editing what %s returned (-before +after):\n%s", tt.name, diff)
			}
			if diff := cmp.Diff(kept, fmt.Sprint(res.Events)); diff != "" {
				t.Errorf("PlayRound's result after editing what %s returned (-before +after):\n%s", tt.name, diff)
			}
		})
	}
}

// A round reuses the transcript array of the round before the previous
// one: what a host was given of every earlier round stays as it was.
func TestEarlierRoundsEventsSurvive(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(3)))
	if err != nil {
		t.Fatal(err)
	}
	var results, events [][]runtime.Event
	var want []string
	for range 6 {
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		results, events = append(results, res.Events), append(events, b.Events())
		want = append(want, fmt.Sprint(res.Events))
	}
	for i := range want {
		if diff := cmp.Diff(want[i], fmt.Sprint(results[i])); diff != "" {
			t.Errorf("round %d's result after round 6 (-then +now):\n%s", i+1, diff)
		}
		if diff := cmp.Diff(want[i], fmt.Sprint(events[i])); diff != "" {
			t.Errorf("round %d's Events after round 6 (-then +now):\n%s", i+1, diff)
		}
	}
}

// A change the host asks for that the battle cannot make (a name it does
// not have, a value the attribute cannot hold) is ErrInvalidChange, so that
// a bot taking "!set agi Arai 7" from a player can tell a typo, to be told
// to the player, from a recomputation that failed. Nothing is changed, and
// the messages are as they were.
func TestErrInvalidChange(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "necromunda")
	agi := mustProgram(t, "agi")
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	a, err := agi.NewBattle(agi.Example())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	before, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		err  error
		msg  string
	}{
		{"SetAttr who", a.SetAttr(ctx, "Arai", "agi", 7), "set agi of Arai: no side or unit is called Arai"},
		{"SetAttr attr", a.SetAttr(ctx, "Aria", "agl", 7), "set agl of Aria: Aria has no attribute agl (declared: agi)"},
		{"SetAttr of a side, a unit's attr", a.SetAttr(ctx, "A", "agi", 7), "set agi of A: A is a side, and agi is a unit attribute: set it of one of its units (Aria)"},
		{"SetAttr value", a.SetAttr(ctx, "Aria", "agi", "x"), "set agi of Aria: want a whole number, got x"},
		{"SetStatus unit", b.SetStatus(ctx, "Krugg", "out_of_action", true), "status out_of_action: no unit is called Krugg"},
		{"SetStatus status", b.SetStatus(ctx, "Krug", "asleep", true),
			"status asleep: unknown status (declared: out_of_action, seriously_injured, not_on_battlefield)"},
		{"RemoveUnit", b.RemoveUnit(ctx, "Krugg"), "remove Krugg: no unit is called Krugg"},
		{"MakeReady", b.MakeReady("Krugg"), "ready Krugg: no unit is called Krugg"},
		{"SetHolder", b.SetHolder("Krug"), "holder Krug: Krug is not in order priority (Goliaths, Eschers)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !errors.Is(tt.err, runtime.ErrInvalidChange) {
				t.Errorf("%v; want an error wrapping ErrInvalidChange", tt.err)
			}
			if tt.err == nil {
				return
			}
			if diff := cmp.Diff(tt.msg, tt.err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
	after, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(before), string(after)); diff != "" {
		t.Errorf("the refused changes changed the battle (-before +after):\n%s", diff)
	}
	// A rule's own set of a name that is not there is the rule's error,
	// not the host's.
	r := compileInline(t, `ruleset r "r" {
  sides 2
  side attribute x int
  phase p {
    order sides as p {
      highest roll d6
      tie: reroll
    }
  }
  on start of round { set x of "Nobody" = 1 }
}
`)
	rb, err := r.NewBattle(runtime.Sides("A", "B"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = rb.PlayRound(ctx)
	if _, ok := errors.AsType[*runtime.RuleError](err); !ok || errors.Is(err, runtime.ErrInvalidChange) {
		t.Errorf("a rule's set of nobody: %v; want a RuleError that is not ErrInvalidChange", err)
	}
}

// A host that decodes its JSON with UseNumber (as Restore does) hands
// attributes over as json.Number: a whole number is a whole number.
func TestSetAttrJSONNumber(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "agi")
	specs := p.Example()
	specs[0].Units[0].Attrs["agi"] = json.Number("7")
	b, err := p.NewBattle(specs)
	if err != nil {
		t.Fatalf("NewBattle with agi = json.Number(7): %v", err)
	}
	if err := b.SetAttr(ctx, "Bran", "agi", json.Number("6")); err != nil {
		t.Fatalf("SetAttr json.Number(6): %v", err)
	}
	if err := b.SetAttr(ctx, "Cole", "agi", json.Number("2.0")); err != nil {
		t.Fatalf("SetAttr json.Number(2.0): %v", err)
	}
	got := map[string]any{}
	for _, u := range b.Units() {
		got[u.Name] = u.Attrs["agi"]
	}
	if diff := cmp.Diff(map[string]any{"Aria": 7, "Bran": 6, "Cole": 2}, got); diff != "" {
		t.Errorf("agi (-want +got):\n%s", diff)
	}
	// 0 written as a float64 too small still is 0.
	for _, zero := range []json.Number{"0e-400", "-0.000e-999", "0.0"} {
		if err := b.SetAttr(ctx, "Bran", "agi", zero); err != nil || b.Unit("Bran").Attrs["agi"] != 0 {
			t.Errorf("SetAttr json.Number(%s): %v, agi %v; want 0", zero, err, b.Unit("Bran").Attrs["agi"])
		}
	}
	for _, tt := range []struct {
		value any
		want  string
	}{
		{json.Number("2.5"), "set agi of Cole: want a whole number, got 2.5"},
		// Whole numbers, only too large: out of range, as given.
		{json.Number("1e300"), "set agi of Cole: 1e300 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly"},
		{json.Number("-1e400"), "set agi of Cole: -1e400 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly"},
		{json.Number("99999999999999999999"), "set agi of Cole: 99999999999999999999 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly"},
		{1e300, "set agi of Cole: 1e+300 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly"},
		{int64(1<<53 + 1), "set agi of Cole: 9007199254740993 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly"},
		{math.NaN(), "set agi of Cole: want a whole number, got NaN"},
		// A fraction a float64 reads as 0 is not 0: it used to set agi 0.
		{json.Number("1e-400"), "set agi of Cole: want a whole number, got 1e-400, a fraction too close to 0 for a float64 to hold, not 0"},
		{json.Number("-0.5E-330"), "set agi of Cole: want a whole number, got -0.5E-330, a fraction too close to 0 for a float64 to hold, not 0"},
	} {
		if err := b.SetAttr(ctx, "Cole", "agi", tt.value); err == nil || err.Error() != tt.want {
			t.Errorf("SetAttr %#v: %v\nwant: %s", tt.value, err, tt.want)
		}
	}
}

// CheckSetAttr says what SetAttr would refuse, in its words, and changes
// nothing, not even a change it finds fine.
func TestCheckSetAttr(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "agi")
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	before := b.Units()
	for _, tt := range []struct {
		who, attr string
		value     any
	}{
		{"Aria", "agi", 1e300},
		{"Aria", "agi", "x"},
		{"A", "agi", 3},
		{"Aria", "pluck", 3},
		{"Zed", "agi", 3},
	} {
		check := b.CheckSetAttr(tt.who, tt.attr, tt.value)
		set := b.SetAttr(ctx, tt.who, tt.attr, tt.value)
		if check == nil || set == nil || check.Error() != set.Error() || !errors.Is(check, runtime.ErrInvalidChange) {
			t.Errorf("set %s of %s = %v: CheckSetAttr %v, SetAttr %v", tt.attr, tt.who, tt.value, check, set)
		}
	}
	if err := b.CheckSetAttr("Aria", "agi", 1); err != nil {
		t.Errorf("CheckSetAttr agi of Aria = 1: %v", err)
	}
	if diff := cmp.Diff(before, b.Units()); diff != "" {
		t.Errorf("CheckSetAttr changed the units (-before +after):\n%s", diff)
	}
}

// Sides sent as JSON with an int attribute of 1e300 are told it is out of
// range, not that it is not a whole number. A SideSpec decodes the number
// as written (1e300), which NewBattle quotes; a float64 a host decoded
// itself is shown as Go writes it (1e+300).
func TestNewBattleJSONOutOfRange(t *testing.T) {
	p := mustProgram(t, "agi")
	var specs []runtime.SideSpec
	if err := json.Unmarshal([]byte(`[{"name": "A", "team": "Red", "units": [{"name": "Aria", "attrs": {"agi": 1e300}}]},
  {"name": "B", "team": "Blue", "units": [{"name": "Bran", "attrs": {"agi": -9007199254740994}}, {"name": "Cole", "attrs": {"agi": 2.5}}]}]`), &specs); err != nil {
		t.Fatal(err)
	}
	_, err := p.NewBattle(specs)
	var got []string
	if ds, ok := err.(dsl.Diagnostics); ok {
		for _, d := range ds {
			got = append(got, d.Message)
		}
	}
	want := "unit Aria: attribute agi: 1e300 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly\n" +
		"unit Bran: attribute agi: -9007199254740994 is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly\n" +
		"unit Cole: attribute agi: want a whole number, got 2.5"
	if strings.Join(got, "\n") != want {
		t.Errorf("NewBattle: %v\nwant:\n%s", err, want)
	}

	var attrs map[string]any // a host's own decoding, into float64s
	if err := json.Unmarshal([]byte(`{"agi": 1e300}`), &attrs); err != nil {
		t.Fatal(err)
	}
	specs[0].Units[0].Attrs = attrs
	_, err = p.NewBattle(specs)
	if want := "unit Aria: attribute agi: 1e+300 is out of range"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("NewBattle with a float64 1e300: %v, want %q", err, want)
	}
}

// A client's form sends numbers and booleans as strings: the error says
// that what it got is a string, not "want a whole number, got 3".
func TestAttrStringThatReadsAsAValue(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset r "Attributes" {
  sides 2
  side attribute bold bool
  unit attribute agi int
  phase p {
    order sides as priority {
      random
    }
  }
}`)
	b, err := p.NewBattle([]runtime.SideSpec{{Name: "A", Units: []runtime.UnitSpec{{Name: "a1"}}}, {Name: "B"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		err  error
		want string
	}{
		{b.SetAttr(ctx, "a1", "agi", "3"), `set agi of a1: want a whole number, got the string "3"`},
		{b.SetAttr(ctx, "A", "bold", "true"), `set bold of A: want true or false, got the string "true"`},
		{b.SetAttr(ctx, "a1", "agi", "x"), `set agi of a1: want a whole number, got x`},
	} {
		if tt.err == nil || tt.err.Error() != tt.want || !errors.Is(tt.err, runtime.ErrInvalidChange) {
			t.Errorf("%v\nwant %s (ErrInvalidChange)", tt.err, tt.want)
		}
	}
	_, err = p.NewBattle([]runtime.SideSpec{{Name: "A", Units: []runtime.UnitSpec{{Name: "a1", Attrs: map[string]any{"agi": "4"}}}}, {Name: "B"}})
	if want := `unit a1: attribute agi: want a whole number, got the string "4"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("NewBattle: %v\nwant %s", err, want)
	}
}

// Sides decoded with UseNumber, as SideSpec's doc says to, have their
// numbers checked as written: 1e-400 is no whole number, where a float64
// would have made it 0.
func TestNewBattleSpecsUseNumber(t *testing.T) {
	p := mustProgram(t, "agi")
	dec := json.NewDecoder(strings.NewReader(`[{"name": "A", "team": "Red", "units": [{"name": "Aria", "attrs": {"agi": 1e-400}}]},
  {"name": "B", "team": "Blue", "units": [{"name": "Bran", "attrs": {"agi": 4}}]}]`))
	dec.UseNumber()
	var specs []runtime.SideSpec
	if err := dec.Decode(&specs); err != nil {
		t.Fatal(err)
	}
	_, err := p.NewBattle(specs)
	if want := "unit Aria: attribute agi: want a whole number, got 1e-400, a fraction too close to 0 for a float64 to hold, not 0"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("NewBattle: %v\nwant an error saying: %s", err, want)
	}
}

// A removed unit leaves its side, the activation loop and the snapshot;
// an order made once for the battle stays.
func TestRemoveUnit(t *testing.T) {
	p := mustProgram(t, "morturi")
	ctx := context.Background()
	b, err := p.NewBattle(p.Example()) // 6 against 8
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"la1", "la2", "la3", "la4", "la5", "la6"} {
		if err := b.RemoveUnit(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.RemoveUnit(ctx, "la1"); err == nil {
		t.Error("removing a unit twice should fail")
	}
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := p.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, battle := range []*runtime.Battle{b, restored} {
		res, err := battle.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"Malleus Deus", "Ludi Aeternum"}
		if diff := cmp.Diff(want, res.Order); diff != "" {
			t.Errorf("order after the losses (-want +got):\n%s", diff)
		}
		acts := activated(res.Activations)
		wantActs := []string{"md1", "la7", "md2", "la8", "md3", "pass Ludi Aeternum", "md4", "pass Ludi Aeternum", "md5", "pass Ludi Aeternum", "md6"}
		if diff := cmp.Diff(wantActs, acts); diff != "" {
			t.Errorf("activations (-want +got):\n%s", diff)
		}
	}
}

// Removing a unit from an until-changed order of units makes the order
// again without it.
func TestRemoveUnitFromTurnOrder(t *testing.T) {
	p := mustProgram(t, "agi")
	ctx := context.Background()
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Aria", 5)
	dice.AddRoll("Bran", 2)
	b, err := p.NewBattle(p.Example(), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.RemoveUnit(ctx, "Aria"); err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Bran", "Cole"}, res.Order); diff != "" {
		t.Errorf("turn order without Aria (-want +got):\n%s", diff)
	}
}

// Units returns the caller's slice: a loop over it can remove every unit.
func TestRemoveEveryUnitWhileIterating(t *testing.T) {
	p := mustProgram(t, "morturi")
	ctx := context.Background()
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	for _, u := range b.Units() {
		if err := b.RemoveUnit(ctx, u.Name); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(b.Units()); n != 0 {
		t.Errorf("%d units left, want none", n)
	}
	b.Events()[0].Kind = "changed by the caller"
	if b.Events()[0].Kind == "changed by the caller" {
		t.Error("Events returns the battle's own transcript")
	}
}

// A removed unit is remembered with its side: HolderSide still names the
// side of a holder removed since it took priority, and a host that uses a
// casualty's name is told it was removed. Snapshots and clones keep that;
// Undo forgets a removal it takes back.
func TestRemovedUnitIsRemembered(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset r {
  sides 2
  unit attribute speed int
  phase p once {
    order units as o { highest speed }
  }
  example {
    side A {
      unit a1 speed = 5
      unit a2 speed = 1
    }
    side B {
      unit b1 speed = 2
    }
  }
}`)
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.RemoveUnit(ctx, "a1"); err != nil {
		t.Fatal(err)
	}
	snap, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := p.Restore(snap)
	if err != nil {
		t.Fatal(err)
	}
	for name, bb := range map[string]*runtime.Battle{"battle": b, "restored": restored, "clone": b.Clone()} {
		t.Run(name, func(t *testing.T) {
			if got := bb.HolderSide(); got != "A" {
				t.Errorf("HolderSide = %q, want A (a1, removed, was A's)", got)
			}
			for _, tt := range []struct {
				name string
				err  error
				want string
			}{
				{"MakeReady", bb.MakeReady("a1"), "ready a1: a1 (of A) was removed from the battle"},
				{"RemoveUnit", bb.RemoveUnit(ctx, "a1"), "remove a1: a1 (of A) was removed from the battle"},
				{"SetAttr", bb.SetAttr(ctx, "a1", "speed", 3), "set speed of a1: a1 (of A) was removed from the battle"},
				{"SetStatus", bb.SetStatus(ctx, "a1", "x", true), "status x: a1 (of A) was removed from the battle"},
				{"never there", bb.MakeReady("zz"), "ready zz: no unit is called zz"},
			} {
				if tt.err == nil || tt.err.Error() != tt.want || !errors.Is(tt.err, runtime.ErrInvalidChange) {
					t.Errorf("%s: %v, want %s (ErrInvalidChange)", tt.name, tt.err, tt.want)
				}
			}
		})
	}
	// A removal taken back with Undo is forgotten.
	u, err := p.NewBattle(p.Example(), runtime.WithUndo())
	if err != nil {
		t.Fatal(err)
	}
	if err := u.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := u.RemoveUnit(ctx, "a2"); err != nil {
		t.Fatal(err)
	}
	if err := u.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := u.MakeReady("a2"); err != nil {
		t.Errorf("MakeReady(a2) after its removal was undone: %v", err)
	}
}
