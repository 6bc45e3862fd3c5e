package runtime_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// TestAccessorsReturnCopies: what a Battle's accessors return is the
// caller's (all but Activations, which documents that it shares). A host that edits a returned slice (to sort it for display,
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
