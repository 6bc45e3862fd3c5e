package runtime_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// TestOrderReads reads an order's fields, as a remembered value does at the
// end of each round, for each way its first place can be decided.
func TestOrderReads(t *testing.T) {
	const read = `o.first + " " + o.last + " " + o.holder + " " + o.chooser + " " + join(o.order, ",") + " " + string(o.place["B"]) + " " + o.by`
	cases := []struct {
		name    string
		order   string // the order o, in phase p
		handler string // any handler
		agi     [3]int // A, B and C's
		want    []string
	}{
		{"value", `order sides as o { highest agi }`, "", [3]int{1, 3, 2},
			[]string{"B A B  B,C,A 1 value", "B A B  B,C,A 1 value"}},
		{"setup", `order sides as o { highest agi }`, "", [3]int{1, 1, 1},
			[]string{"A C A  A,B,C 2 setup", "A C A  A,B,C 2 setup"}},
		{"award", `order sides as o { highest agi
			tie: award "C" }`, "", [3]int{2, 2, 2},
			[]string{"C B C  C,A,B 3 award", "C B C  C,A,B 3 award"}},
		{"choice", `order sides as o { highest agi
			choice first by winner default other }`, "", [3]int{1, 3, 2},
			[]string{"C A C B C,B,A 2 choice", "C A C B C,B,A 2 choice"}},
		{"roll", `order sides as o { highest roll d6 + agi * 10 }`, "", [3]int{1, 3, 2},
			[]string{"B A B  B,C,A 1 roll", "B A B  B,C,A 1 roll"}},
		{"random", `order sides as o { random }`, "", [3]int{0, 0, 0}, nil},
		{"draw", `order sides as o { highest draw d }`, `deck d reshuffle each round { 1..3 }`, [3]int{0, 0, 0}, nil},
		// A tie kept from an earlier round, when C's change makes the
		// order again: first place is the kept one's.
		{"kept", `order sides as o until changed agi { highest agi
			tie: award "B" }`, `on start of round when round == 2 { set agi of "C" = 0 }`, [3]int{2, 2, 1},
			[]string{"B C B  B,A,C 1 award", "B C B  B,A,C 1 kept"}},
		// holder = ... moves someone to the front of the main order: its
		// holder, not its first.
		{"holder", `order sides as o { highest agi }`, `on end of phase p { holder = "C" }`, [3]int{1, 3, 2},
			[]string{"B A C  B,C,A 1 value", "B A C  B,C,A 1 value"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := fmt.Sprintf(`ruleset x {
  sides 3
  side attribute agi int
  remember seen = %s
  phase p { %s }
  %s
}`, read, c.order, c.handler)
			p := compileInline(t, src)
			var sides []runtime.SideSpec
			for i, n := range []string{"A", "B", "C"} {
				sides = append(sides, runtime.SideSpec{Name: n, Attrs: map[string]any{"agi": c.agi[i]}})
			}
			b, err := p.NewBattle(sides, runtime.WithDice(runtime.NewSeededDice(7)), runtime.WithDecider(runtime.Policy{}))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for range 2 {
				if err := b.AdvanceRound(context.Background()); err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprint(b.Memory().Values["seen"]))
			}
			if c.want == nil {
				// By a random pick or a card drawn: only how it was
				// decided is known, which the case is named after.
				c.want = []string{got[0][:len(got[0])-len(c.name)] + c.name, got[1][:len(got[1])-len(c.name)] + c.name}
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("o read (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOrderToHostFunction hands an order to a host's function as a map of
// its fields, as Memory hands out a side.
func TestOrderToHostFunction(t *testing.T) {
	var got []any
	fn := runtime.WithFunction("look", func(params ...any) (any, error) {
		got = append(got, params[0])
		return true, nil
	})
	p := compileInline(t, `ruleset x {
  sides 2
  side attribute agi int
  phase p {
    order sides as o { highest agi }
  }
  on end of round when look(o) { holder = o.first }
}`, fn)
	b, err := p.NewBattle([]runtime.SideSpec{{Name: "A", Attrs: map[string]any{"agi": 1}}, {Name: "B", Attrs: map[string]any{"agi": 2}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.AdvanceRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []any{map[string]any{"first": "B", "last": "A", "holder": "B", "chooser": "", "order": []any{"B", "A"},
		"place": map[string]any{"A": 2, "B": 1}, "by": "value"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("look(o) got (-want +got):\n%s", diff)
	}
}
