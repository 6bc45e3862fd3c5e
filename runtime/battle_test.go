package runtime_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
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
				{"after AbortRound", func(b *runtime.Battle) error { return b.AbortRound() }},
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
