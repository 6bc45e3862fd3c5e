package runtime_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

func TestBundledRulesetsPlay(t *testing.T) {
	for _, name := range rulesets.Names() {
		t.Run(name, func(t *testing.T) {
			p := mustProgram(t, name)
			// A bundled ruleset is the model house rules are copied from.
			for _, w := range p.Warnings() {
				t.Errorf("warning: %s", w)
			}
			b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(7)))
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				res, err := b.PlayRound(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("round %d order %v holder %s chooser %s acts %v", res.Round, res.Order, res.Holder, res.Chooser, res.Activations)
				for _, e := range res.Events {
					t.Logf("  %s", e)
				}
			}
		})
	}
}

// Decisions lists the kinds of decision a ruleset can ask for.
func TestDecisions(t *testing.T) {
	want := map[string][]runtime.DecisionKind{
		"mesbg":      {runtime.ChooseFirst},
		"agi":        {runtime.ChooseBeforeAfter, runtime.ChooseOrder},
		"necromunda": {runtime.ChooseActivation},
	}
	for name, w := range want {
		if diff := cmp.Diff(w, mustProgram(t, name).Decisions()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// A hook named as start or end is, or a name that a rule uses, or one
// further from them, is the author's own: no warning.
func TestHookNameWarnings(t *testing.T) {
	for _, tt := range []struct {
		hooks, rules string
		warn         bool
	}{
		{"hook start\n    hook end", "on hook start {}\n  on hook end {}", false},
		{"hook start\n    hook end", "", false},
		{"hook stat", "on hook stat {}", false},
		{"hook stop\n    hook finish", "", false},
		{"hook restart", "", false},
		{"hook Start", "", true},
		{"hook ed", "", true},
	} {
		p := compileInline(t, `ruleset m {
  sides 2
  phase p {
    `+tt.hooks+`
    order sides as priority {
      random
    }
  }
  `+tt.rules+`
}`)
		if got := len(p.Warnings()) > 0; got != tt.warn {
			t.Errorf("%q with %q: warnings %v, want some: %v", tt.hooks, tt.rules, p.Warnings(), tt.warn)
		}
	}
}

// The warning about a `once` phase's `ready units` is not given of an
// `until changed` one, rightly: such a phase runs every round (its orders
// are kept until a watched value changes), and so its `ready units` gives
// Ready markers every round, and round 2 activates every unit again.
func TestReadyInUntilChangedPhaseEveryRound(t *testing.T) {
	for _, scope := range []string{"until changed agi", "once"} {
		p := compileInline(t, `ruleset m {
  sides 2
  side attribute agi int
  phase p `+scope+` {
    order sides as o {
      highest agi
      tie: random
    }
    ready units
  }
  activation alternate by o
  example {
    side Jay agi = 3 {
      unit a
    }
    side Rob agi = 2 {
      unit b
    }
  }
}`)
		once := scope == "once"
		if warned := len(p.Warnings()) > 0; warned != once {
			t.Errorf("phase p %s: warnings %v, want some: %v", scope, p.Warnings(), once)
		}
		b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(1)))
		if err != nil {
			t.Fatal(err)
		}
		for round := 1; round <= 2; round++ {
			res, err := b.PlayRound(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			want := 2
			if once && round == 2 {
				want = 0 // what the warning is about
			}
			if len(res.Activations) != want {
				t.Errorf("phase p %s, round %d: activations %v, want %d", scope, round, res.Activations, want)
			}
		}
	}
}

// The mend the award warning gives (mesbg for three sides) compiles
// without it: a guarded award is kept to ties of two on purpose.
func TestGuardedAwardBeforeWinnerIsNoWarning(t *testing.T) {
	for _, tt := range []struct {
		ties string
		warn bool
	}{
		{"tie: award not previous.chooser", true},
		{"tie when len(sides) == 2: award not previous.chooser\n      tie: reroll", false},
	} {
		p := compileInline(t, `ruleset m {
  sides 3
  phase p {
    order sides as priority {
      highest roll d6
      tie when round == 1: reroll
      `+tt.ties+`
      choice first by winner default self
    }
  }
}`)
		if got := len(p.Warnings()) > 0; got != tt.warn {
			t.Errorf("%s: warnings %v, want some: %v", tt.ties, p.Warnings(), tt.warn)
		}
	}
}
