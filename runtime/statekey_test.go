package runtime_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/longtest"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// The state key odds merges battles by is written without encoding/json
// where it can be: byte for byte what encoding/json writes of the
// battle's snapshot, for battles of the bundled and generated rulesets
// after every round (seeded, with the host changing attributes, statuses
// and units between rounds, names that JSON escapes among them), and not
// at all in the middle of a round.
func TestStateKeyAsJSONWritesIt(t *testing.T) {
	t.Parallel()
	var srcs []string
	for _, name := range rulesets.Names() {
		source, err := rulesets.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		src := source.Text
		srcs = append(srcs, string(src))
	}
	n := 12
	if longtest.Enabled() {
		n = 60
	}
	for i := range n {
		srcs = append(srcs, ddGenerate(i).src)
	}
	// Decks drawn from: what is left of each, a side's own among them, with
	// cards whose names JSON escapes.
	srcs = append(srcs, `ruleset decks {
  sides 2..
  deck cards { 1..3, "<joker>" = 9, "Ace & \"Queen\"" = 4 }
  bag own per side reshuffle when empty { a, "b\u2028" = 1 }
  phase p {
    order sides as o {
      highest draw own
      tie: highest draw cards
      tie: random
    }
  }
  example {
    side Jay
    side Rob
  }
}`)
	ctx := context.Background()
	written, fellBack := 0, 0
	check := func(what string, b *runtime.Battle) {
		t.Helper()
		fast, ok, slow, err := b.StateKeys()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !ok {
			fellBack++
			return
		}
		written++
		if diff := cmp.Diff(slow, fast); diff != "" {
			t.Errorf("%s: key (-encoding/json +written):\n%s", what, diff)
		}
	}
	for si, src := range srcs {
		file, diags := dsl.Parse("k.rules", []byte(src))
		if diags.HasErrors() {
			continue
		}
		p, err := runtime.Compile(file)
		if err != nil {
			continue
		}
		sides := []runtime.SideSpec{
			{Name: `Tom & "Jerry"`, Units: []runtime.UnitSpec{{Name: "t<1>"}, {Name: "t2"}}},
			{Name: "Rób 🐗", Team: "b", Units: []runtime.UnitSpec{{Name: "r1"}, {Name: "r\u20282"}}},
			{Name: "C"},
		}
		for _, ss := range [][]runtime.SideSpec{p.Example(), sides} {
			for seed := range uint64(3) {
				b, err := p.NewBattle(ss, runtime.WithDice(runtime.NewSeededDice(seed)), runtime.WithTranscript(seed%2 == 0))
				if err != nil {
					continue
				}
				check("new battle", b)
			rounds:
				for round := 1; round <= 4; round++ {
					if err := b.StartRound(ctx); err != nil {
						break
					}
					if _, ok, _, _ := b.StateKeys(); ok {
						t.Errorf("ruleset %d: a key written in the middle of round %d", si, round)
					}
					for {
						done, err := b.Step(ctx)
						if err != nil {
							break rounds
						}
						if done {
							break
						}
					}
					if _, err := b.EndRound(ctx); err != nil {
						break
					}
					check("after a round", b)
					// The host changes the battle between rounds.
					units := b.Units()
					if len(units) > 0 {
						u := units[round%len(units)]
						for _, a := range p.UnitAttrs() {
							_ = b.SetAttr(ctx, u.Name, a.Name, round)
						}
						for _, st := range p.Statuses() {
							_ = b.SetStatus(ctx, u.Name, st, round%2 == 1)
						}
						if round == 2 && len(units) > 2 {
							_ = b.RemoveUnit(ctx, units[0].Name)
						}
						check("after the host's changes", b)
					}
				}
			}
		}
	}
	t.Logf("%d keys written, %d by encoding/json", written, fellBack)
	if written == 0 {
		t.Error("no key written without encoding/json")
	}
}

// The keys odds merges the states it reaches by are what encoding/json
// writes of them, for the bundled and generated rulesets and activation
// draw; the bundled rulesets' are all written without it.
func TestOddsStateKeysAsJSONWritesThem(t *testing.T) {
	type tc struct {
		src   string
		sides []runtime.SideSpec // nil: the example
	}
	var cases []tc
	for _, name := range rulesets.Names() {
		source, err := rulesets.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		src := source.Text
		cases = append(cases, tc{src: string(src)})
	}
	cases = append(cases, tc{src: strings.Replace(drawRules, "%s", "", 1), sides: bagSides()})
	n := 8
	if longtest.Enabled() {
		n = 40
	}
	for i := range n {
		c := ddGenerate(i)
		cases = append(cases, tc{src: c.src, sides: c.setups[0]})
	}
	keys, written := 0, 0
	for i, c := range cases {
		file, diags := dsl.Parse("k.rules", []byte(c.src))
		if diags.HasErrors() {
			continue
		}
		p, err := runtime.Compile(file)
		if err != nil {
			continue
		}
		sides := c.sides
		if sides == nil {
			sides = p.Example()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		got, want, w, _ := p.OddsStateKeys(ctx, sides, 2)
		cancel()
		keys, written = keys+len(got), written+w
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("case %d: keys (-encoding/json +odds):\n%s", i, diff)
		}
		if i < len(rulesets.Names()) && w < len(got) {
			t.Errorf("bundled ruleset %s: %d of %d keys written by encoding/json", rulesets.Names()[i], len(got)-w, len(got))
		}
	}
	t.Logf("%d keys, %d written without encoding/json", keys, written)
}
