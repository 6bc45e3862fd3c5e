package runtime

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
)

const fastSrc = `ruleset fast "native expressions" {
  sides 2..
  side attribute morale int = 3
  side attribute elite bool
  side attribute faction string = "orcs"
  unit attribute agi int = 4
  unit attribute hero bool
  unit attribute weapon string
  unit status pinned, broken
  phase p each round {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
}
`

// TestFastExprAgreesWithVM evaluates expressions both natively and on
// expr-lang's VM, over many battle states, and wants the same answers.
func TestFastExprAgreesWithVM(t *testing.T) {
	f, diags := dsl.Parse("fast.rules", []byte(fastSrc))
	if diags != nil {
		t.Fatal(diags)
	}
	p, err := Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		kind  envKind
		srcs  []string
		fast  bool // the native compiler handles it
		units bool
	}{
		{groupEnv, []string{
			"round == 1", "round != 1 and len(sides) == 2", "len(sides) > 2 || round >= 3", "not (round < 2)",
			"previous.chooser", "previous.holder", "holder", "chooser", "previous.holder == holder",
			"len(tied) == 2", "count(tied) <= 2", "len(units) - len(tied) * 2 + -round", "round == 1 == (len(sides) == 2)",
			`previous.chooser != "" && previous.chooser < "M"`, "true", "!false", "+round", `"lit"`, "(round > 1 ? 1 : 2) == 1", `round > 2 ? holder : "x"`,
		}, true, false},
		{groupEnv, []string{"len(tied) == 1 and len(units) > 0"}, true, true},
		{sideSubject, []string{
			"morale", "morale * 2 - len(units)", "elite", "not elite or morale > 2", "faction", "name", "team",
			`faction == "orcs" && name != team`, "round + morale", "holder == name", `chooser != "" ? chooser : name`,
		}, true, false},
		{unitSubject, []string{
			"agi", "-agi", "hero", "pinned or broken", "ready", "weapon", "name", "side", "team", "agi >= 4 and not pinned",
			"len(sides)", "holder == side", "chooser",
		}, true, true},
		// Outside the subset: still correct, on the VM.
		{groupEnv, []string{"sum(sides, .morale)", "len(previous.order)", "round / 2", "1.5 > round", "upper(holder)"}, false, false},
		{unitSubject, []string{"agi % 2", "sides[0].name", "my_side.name", "my_side.morale + agi", "priority.place[side] ?? 0"}, false, true},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	names := []string{"", "A", "B", "C", "Z"}
	for _, c := range cases {
		env := map[envKind]map[bool]reflect.Type{
			groupEnv: {false: p.types.groupSides, true: p.types.groupUnits}, sideSubject: {false: p.types.sideEnv},
			unitSubject: {true: p.types.unitEnv},
		}[c.kind][c.units]
		for _, src := range c.srcs {
			e, d := p.compileExpr(&dsl.Expr{Source: src}, env, anyValue)
			if d != nil {
				t.Fatalf("%s: %v", src, d)
			}
			if got := e.fast != nil; got != c.fast {
				t.Errorf("%s: native form %v, want %v", src, got, c.fast)
			}
			slow := *e
			slow.fast = nil
			for range 50 {
				b := randomBattle(t, p, rng, names)
				for i := range max(len(b.sides), len(b.units)) {
					if c.kind == sideSubject && i >= len(b.sides) || c.kind == unitSubject && i >= len(b.units) {
						continue
					}
					tied := []int{0, 1, 2}[:1+rng.IntN(2)]
					got, want := evalBoth(b, e, &slow, c.kind, c.units, i, tied)
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("%s (round %d, memory %+v, subject %d): native differs from the VM (-vm +native):\n%s",
							src, b.round, b.memory, i, diff)
					}
				}
			}
		}
	}
}

func evalBoth(b *Battle, fast, slow *compiled, kind envKind, units bool, i int, tied []int) (got, want any) {
	run := func(c *compiled) any {
		var out any
		var err error
		if kind == groupEnv {
			out, err = b.evalGroup(c, units, tied)
		} else {
			out, err = b.evalSubject(c, units, i)
		}
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%T %v", out, out)
	}
	return run(fast), run(slow)
}

// randomBattle is a battle of three sides, each with two units, in a
// random state: round, memory, holder, attributes, statuses, markers.
func randomBattle(t *testing.T, p *Program, rng *rand.Rand, names []string) *Battle {
	pick := func() string { return names[rng.IntN(len(names))] }
	var specs []SideSpec
	for _, s := range []string{"A", "B", "C"} {
		spec := SideSpec{Name: s, Team: pick(), Attrs: map[string]any{
			"morale": rng.IntN(7) - 2, "elite": rng.IntN(2) == 0, "faction": pick()}}
		for k := range 2 {
			spec.Units = append(spec.Units, UnitSpec{Name: fmt.Sprintf("%s%d", s, k), Attrs: map[string]any{
				"agi": rng.IntN(6), "hero": rng.IntN(2) == 0, "weapon": pick()}})
		}
		specs = append(specs, spec)
	}
	b, err := p.NewBattle(specs)
	if err != nil {
		t.Fatal(err)
	}
	b.round = rng.IntN(4)
	b.memory = Memory{Holder: pick(), Chooser: pick(), Order: []string{"A", "B"}}
	if rng.IntN(3) > 0 {
		b.cur = &roundState{Round: b.round, Stage: "activation", Holder: pick(), Chooser: pick()}
	}
	for _, u := range b.units {
		u.Ready = rng.IntN(2) == 0
		u.Status["pinned"] = rng.IntN(2) == 0
		u.Status["broken"] = rng.IntN(3) == 0
	}
	return b
}
