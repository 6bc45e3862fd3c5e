package runtime_test

// Play-time error tests: every chunk of testdata/playerrors/*.rules is a
// ruleset that compiles cleanly and then fails while its example battle is
// played (seeded dice, the ruleset's policies, up to maxPlayRounds rounds).
// The error must be a *runtime.RuleError at the rule that caused it: the
// chunk's "###" marker sits on that line and matches its message, as for
// compile errors.
//
// SHOWDIAGS=1 go test -run TestPlayErrors -v ./runtime/ shows every error
// as `turnorder run` renders it.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/dsltest"
	"github.com/turnorder/turnorder/runtime"
)

const maxPlayRounds = 5

func TestPlayErrors(t *testing.T) {
	dsltest.RunFiles(t, "testdata/playerrors/*.rules", 10, func(t *testing.T, file string, c dsltest.Chunk) {
		if len(c.Want) != 1 {
			t.Fatalf("%s:%d: a chunk expects exactly one play-time error; it has %d markers", file, c.Line, len(c.Want))
		}
		f, diags := dsl.Parse(file, []byte(c.Source))
		if diags.HasErrors() {
			t.Fatalf("the chunk does not parse:\n%s", diags.Render(c.Source))
		}
		p, err := runtime.Compile(f)
		if err != nil {
			t.Fatalf("the chunk does not compile:\n%s", err)
		}
		b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(1)))
		if err != nil {
			t.Fatal(err)
		}
		for range maxPlayRounds {
			if err = b.AdvanceRound(context.Background()); err != nil {
				break
			}
		}
		if err == nil {
			t.Fatalf("%d rounds played without an error", maxPlayRounds)
		}
		var re *runtime.RuleError
		if !errors.As(err, &re) {
			t.Fatalf("the error is %T, not a *runtime.RuleError: %v", err, err)
		}
		if re.Pos.Filename != file {
			t.Errorf("the error names file %q, want %q", re.Pos.Filename, file)
		}
		if !strings.HasPrefix(err.Error(), re.Error()) {
			t.Errorf("the RuleError is wrapped in other words: %v", err)
		}
		dsltest.Check(t, file, c, dsl.Diagnostics{re.Diagnostic()})
		if t.Failed() || os.Getenv("SHOWDIAGS") != "" {
			t.Logf("the error:\n%s", dsl.Diagnostics{re.Diagnostic()}.Render(c.Source))
		}
	})
}

// A host function's error reaches the host through the RuleError, which
// points at the call that failed.
func TestHostFunctionErrorIsWrapped(t *testing.T) {
	errNoIntel := errors.New("no intelligence on this side")
	threat := runtime.WithFunction("threat", func(params ...any) (any, error) {
		if params[0] == "Rob" {
			return nil, errNoIntel
		}
		return 1, nil
	}, new(func(string) int))
	src := "ruleset x {\n  sides 2\n  phase p each round {\n    order sides as o {\n      lowest 2 * threat(name)\n    }\n  }\n}\n"
	p := compileInline(t, src, threat)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"))
	if err != nil {
		t.Fatal(err)
	}
	err = b.AdvanceRound(context.Background())
	if !errors.Is(err, errNoIntel) {
		t.Fatalf("AdvanceRound: %v; want an error that wraps the host's", err)
	}
	var re *runtime.RuleError
	if !errors.As(err, &re) {
		t.Fatalf("the error is %T, not a *runtime.RuleError: %v", err, err)
	}
	// Line 5, at the call: `lowest 2 * threat(name)` has `threat` at column 18.
	got := fmt.Sprintf("%d:%d %s", re.Pos.Line, re.Pos.Column, re.Diagnostic().Message)
	want := "5:18 `2 * threat(name)` for Rob: no intelligence on this side"
	if got != want {
		t.Errorf("error at %s\nwant %s", got, want)
	}
}

// A RuleError a host builds itself, without a position or a cause, still
// prints.
func TestZeroRuleError(t *testing.T) {
	var zero runtime.RuleError
	if got := zero.Error(); got != "a rule failed" {
		t.Errorf("Error() = %q", got)
	}
	if got := zero.Diagnostic().String(); got != "error: a rule failed" {
		t.Errorf("Diagnostic() = %q", got)
	}
}

// After round 1 has ended, what the previous round left is remembered: a
// recomputation between rounds 1 and 2 that fails on a previous value must
// not say that every previous value is empty, as it is only in round 1.
func TestPreviousHintBetweenRounds(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, rule, want string
	}{
		{"award", `tie: award not previous.chooser`,
			"inline.rules:9:12: `award not previous.chooser` names nobody, so it cannot break the tie between a1, a2, b1: " +
				"put a tie rule for that case above this one, as in `tie when previous.chooser == \"\": reroll`"},
		{"guard", `tie when previous.order[5] == "a1": random`,
			"inline.rules:9:30: `previous.order[5] == \"a1\"`: index out of range: 5 (array length is 3)"},
		{"remembered", `tie when previous.holder != "" and previous.x + 1 > 0: random`,
			"inline.rules:9:53: `previous.holder != \"\" and previous.x + 1 > 0`: invalid operation: <nil> + int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := compileInline(t, `ruleset x {
  sides 2
  side attribute agi int
  remember x = previous.x
  phase p each round {
    order units as o until changed agi {
      lowest 0
      tie when previous.holder == "": award tied[0].name
      `+tt.rule+`
      tie: random
    }
  }
}
`)
			sides := []runtime.SideSpec{{Name: "A", Attrs: map[string]any{"agi": 1}, Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}}},
				{Name: "B", Attrs: map[string]any{"agi": 1}, Units: []runtime.UnitSpec{{Name: "b1"}}}}
			b, err := p.NewBattle(sides)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := b.PlayRound(ctx); err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := b.SetAttr(ctx, "A", "agi", 2); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SetAttr between rounds 1 and 2 (-want +got):\n%s", diff)
			}
		})
	}
}
