package runtime_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/internal/longtest"
	"github.com/turnorder/turnorder/runtime"
)

// Odds carries the holder sequences forward by arithmetic on each
// state's outcomes; OddsByPairs follows every (state, sequence) pair as a
// state of its own, as Odds did before. They must agree exactly: the
// same odds, the same sequences, the same work (Replays), the same
// errors, and the sequences given up at the same point when they are
// too many (MaxStates) or the battle too long (SequenceRounds).
func TestOddsSequencesAgreeWithPairs(t *testing.T) {
	t.Parallel()
	// Either side of the state counts the cases reach (1, 24, 144, 576),
	// the long tests all of them.
	maxStatesBounds := []int{0, 1, 25, 577}
	if longtest.Enabled() {
		maxStatesBounds = []int{0, 1, 6, 24, 25, 100, 144, 576, 577}
	}
	const remembers = `ruleset m {
  sides 2
  phase p each round {
    order sides as o {
      highest roll d3
      tie when round == 1: reroll
      tie: award not previous.holder
    }
  }
}`
	for _, c := range []struct {
		name  string
		prog  func(testing.TB) *runtime.Program
		sides []string // the ruleset's example when nil
		opt   runtime.OddsOptions
	}{
		{"mesbg", prog("mesbg"), []string{"Jay", "Rob"}, runtime.OddsOptions{Rounds: 1}},
		{"mesbg", prog("mesbg"), []string{"Jay", "Rob"}, runtime.OddsOptions{Rounds: 6}},
		{"mesbg", prog("mesbg"), []string{"Jay", "Rob"}, runtime.OddsOptions{Rounds: 7}},
		{"mesbg, first=other", prog("mesbg"), []string{"Jay", "Rob"},
			runtime.OddsOptions{Rounds: 5, Decider: runtime.Override{runtime.ChooseFirst: "other"}}},
		{"agi", prog("agi"), nil, runtime.OddsOptions{Rounds: 4}},
		{"morturi", prog("morturi"), nil, runtime.OddsOptions{Rounds: 3}},
		{"necromunda", prog("necromunda"), []string{"A", "B", "C"}, runtime.OddsOptions{Rounds: 5}},
		{"necromunda", prog("necromunda"), []string{"A", "B", "C", "D"}, runtime.OddsOptions{Rounds: 3}},
		{"necromunda", prog("necromunda"), []string{"A", "B", "C", "D"}, runtime.OddsOptions{Rounds: 4, SequenceRounds: 3}},
		{"remembers", inline(remembers), []string{"A", "B"}, runtime.OddsOptions{Rounds: 6}},
	} {
		for _, maxStates := range maxStatesBounds {
			opt := c.opt
			opt.MaxStates = maxStates
			name := fmt.Sprintf("%s %v, %d rounds, MaxStates %d", c.name, c.sides, opt.Rounds, maxStates)
			t.Run(name, func(t *testing.T) {
				p := c.prog(t)
				ctx := context.Background()
				sides := runtime.Sides(c.sides...)
				if c.sides == nil {
					sides = p.Example()
				}
				want, werr := p.OddsByPairs(ctx, sides, opt)
				got, err := p.Odds(ctx, sides, opt)
				if diff := cmp.Diff(errString(werr), errString(err)); diff != "" {
					t.Fatalf("error (-pairs +odds):\n%s", diff)
				}
				if err != nil {
					t.Logf("refused: %v", err)
				} else {
					t.Logf("%d sequences, %d replays", len(got.Sequences), got.Replays)
				}
				if diff := cmp.Diff(want, got, cmp.Comparer(func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })); diff != "" {
					t.Errorf("report (-pairs +odds):\n%s", diff)
				}
			})
		}
	}
}

func prog(name string) func(testing.TB) *runtime.Program {
	return func(t testing.TB) *runtime.Program { return mustProgram(t, name) }
}

func inline(src string) func(testing.TB) *runtime.Program {
	return func(t testing.TB) *runtime.Program { return compileInline(t, src) }
}

// Five players rolling off in Necromunda: holder sequences are followed
// for battles of up to six rounds, and each round starts from the 120
// orders the last could end in, each reached by many sequences. Seven
// rounds follow no sequences.
func BenchmarkOddsNecromunda5(b *testing.B) {
	p := mustProgram(b, "necromunda")
	for _, rounds := range []int{1, 4, 5, 7} {
		b.Run(fmt.Sprintf("rounds=%d", rounds), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rep, err := p.Odds(context.Background(), runtime.Sides("A", "B", "C", "D", "E"), runtime.OddsOptions{Rounds: rounds})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(rep.Replays), "paths")
			}
		})
	}
}

// Six players' second round starts from the 720 orders the first can end
// in: the order's results are worked out once for them all (see
// forkOrder), and the rest of the round is replayed from each state.
func BenchmarkOddsNecromundaSixRound2(b *testing.B) {
	p := mustProgram(b, "necromunda")
	b.ReportAllocs()
	for b.Loop() {
		rep, err := p.Odds(context.Background(), runtime.Sides("A", "B", "C", "D", "E", "F"), runtime.OddsOptions{Rounds: 2})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(rep.Replays), "paths")
	}
}
