package runtime

import (
	"context"
	"errors"
	"testing"

	"github.com/turnorder/turnorder/dsl"
)

// Step's guard for a draw that left no side drawn while units are still
// ready (a bag that holds none of their dice) cannot be reached through
// the API: Restore refuses a standing that leaves a side out. Its error
// is the activation loop's, as a draw's other errors are: it names the
// order the loop draws by in its words, and no order in RoundError.Order,
// which is for the order a roll or decision was making.
func TestUndrawnTurnNamesTheOrderItDrawsBy(t *testing.T) {
	f, diags := dsl.Parse("bag.rules", []byte(`ruleset bag "Bag" {
  sides 2
  phase p {
    order sides as initiative {
      highest roll d6
      tie: reroll
    }
  }
  activation draw by initiative
  example {
    side Jay {
      unit j1
    }
    side Rob {
      unit r1
    }
  }
}`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, err := Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.NewBattle(p.Example(), WithDice(NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	// A standing whose sides hold none of the ready units' dice: the bag
	// is empty, and j1 and r1 are still ready.
	st := b.standings[p.act.by.id]
	st.Order = []string{"Nobody"}
	_, err = b.Step(ctx)
	re, ok := errors.AsType[*RoundError](err)
	const want = "round 1: activation draw by initiative: no side is drawn, and units are still ready (j1, r1)"
	if !ok || re.Order != "" || err.Error() != want {
		t.Errorf("Step: %v\nwant a RoundError of no order: %s", err, want)
	}
}
