package runtime_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// The odds of who is first in each order, worked out by hand for two
// sides rolling a d6: with ties rolled again, each is first half the
// time; with ties kept in setup order, A is first when it rolls higher
// (15/36) or the same (6/36), 7/12 of the time. An order of units gives
// its first unit.
func TestOddsFirstOfEachOrder(t *testing.T) {
	p := compileInline(t, `ruleset two_orders {
  sides 2
  unit attribute speed int
  phase priority each round {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
  phase bidding each round {
    order sides as bidding {
      highest roll d6
    }
  }
  phase moves each round {
    order units as moves {
      highest speed
    }
  }
}
`)
	sides := []runtime.SideSpec{
		{Name: "A", Units: []runtime.UnitSpec{{Name: "a1", Attrs: map[string]any{"speed": 3}}}},
		{Name: "B", Units: []runtime.UnitSpec{{Name: "b1", Attrs: map[string]any{"speed": 5}}}},
	}
	rep, err := p.Odds(context.Background(), sides, runtime.OddsOptions{Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"priority": {"A": "1/2", "B": "1/2"},
		"bidding":  {"A": "7/12", "B": "5/12"},
		"moves":    {"b1": "1"},
	}
	for _, r := range rep.Rounds {
		got := map[string]map[string]string{}
		for name, firsts := range r.First {
			got[name] = map[string]string{}
			for s, p := range firsts {
				got[name][s] = p.RatString()
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("round %d: first in each order (-want +got):\n%s", r.Round, diff)
		}
		if r.First["priority"]["A"].Cmp(r.Holder["A"]) != 0 {
			t.Errorf("round %d: A first in the main order %v, but holds priority %v", r.Round, r.First["priority"]["A"], r.Holder["A"])
		}
	}
}
