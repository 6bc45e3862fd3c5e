package runtime_test

import (
	"context"
	"math"
	"testing"

	"github.com/turnorder/turnorder/internal/longtest"
	"github.com/turnorder/turnorder/runtime"
)

// TestSimulationAgreesWithExactOdds plays a million seeded battles of every
// bundled ruleset and checks that each round's holder frequencies are within
// four standard errors of the exact odds.
func TestSimulationAgreesWithExactOdds(t *testing.T) {
	longtest.Skip(t) // a million battles per ruleset
	const runs = 1_000_000
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		sides  []runtime.SideSpec // nil: the ruleset's example
		rounds int
	}{
		{"mesbg", nil, 3},
		{"necromunda", runtime.Sides("A", "B", "C"), 2},
		{"agi", nil, 2},
		{"morturi", nil, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := mustProgram(t, c.name)
			sides := c.sides
			if sides == nil {
				sides = p.Example()
			}
			exact, err := p.Odds(ctx, sides, runtime.OddsOptions{Rounds: c.rounds})
			if err != nil {
				t.Fatal(err)
			}
			sim, err := p.Simulate(ctx, sides, runtime.SimOptions{Runs: runs, Rounds: c.rounds, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range exact.Rounds {
				for who, pr := range r.Holder {
					want, _ := pr.Float64()
					got := float64(sim.Holder[r.Round-1][who]) / runs
					se := math.Sqrt(want * (1 - want) / runs)
					if math.Abs(got-want) > 4*se+1e-12 {
						t.Errorf("round %d, %s: simulated %.5f, exact %s (%.5f), more than 4 standard errors (%.5f) apart",
							r.Round, who, got, pr.RatString(), want, se)
					}
				}
			}
		})
	}
}

// When simulated battles fail, the error is the lowest-numbered failing
// battle's, however the battles were spread over the workers.
func TestSimulateReportsTheFirstFailure(t *testing.T) {
	// A tie in round 1 (one battle in six) has no previous holder to award.
	p := compileInline(t, "ruleset x {\n  phase p each round {\n    order sides as o {\n      highest roll d6\n      tie: award previous.holder\n    }\n  }\n}\n")
	var first string
	for _, workers := range []int{1, 4, 4, 3} {
		_, err := p.Simulate(context.Background(), runtime.Sides("A", "B"),
			runtime.SimOptions{Runs: 3000, Rounds: 2, Seed: 9, Workers: workers})
		if err == nil {
			t.Fatal("no battle failed")
		}
		if first == "" {
			first = err.Error()
		} else if err.Error() != first {
			t.Errorf("with %d workers: %v\nwith 1: %s", workers, err, first)
		}
	}
}

// A side never seen to hold priority in a small simulation still gets an
// interval with a width (Wilson's), not 0 ± 0.
func TestSimInterval(t *testing.T) {
	s := &runtime.SimReport{Runs: 20, Holder: []map[string]int{{"B": 20}}}
	lo, hi := s.Interval(1, "A")
	if lo != 0 || hi < 0.15 || hi > 0.17 {
		t.Errorf("A: [%v, %v], want [0, about 0.161]", lo, hi)
	}
	if p, hw := s.Estimate(1, "B"); p != 1 || math.Abs(hw-hi) > 1e-12 {
		t.Errorf("B: %v ± %v, want 1 ± %v", p, hw, hi)
	}
	if lo, hi := s.Interval(2, "A"); lo != 0 || hi != 0 {
		t.Errorf("a round not simulated: [%v, %v]", lo, hi)
	}
}

// Simulate's Progress hears one count at a time (no lock needed: run with
// -race), each larger than the last, ending with every run.
func TestSimulateProgress(t *testing.T) {
	p := mustProgram(t, "mesbg")
	var counts []int
	rep, err := p.Simulate(context.Background(), p.Example(), runtime.SimOptions{Runs: 5000, Rounds: 2, Workers: 8,
		Progress: func(n int) { counts = append(counts, n) }})
	if err != nil {
		t.Fatal(err)
	}
	rising := true
	for i := 1; i < len(counts); i++ {
		rising = rising && counts[i] > counts[i-1]
	}
	if !rising || len(counts) == 0 || counts[len(counts)-1] != 5000 {
		t.Errorf("progress counts %v: want them rising to 5000", counts)
	}
	if p, hw := rep.Estimate(3, "Jay"); p != 0 || hw != 0 {
		t.Errorf("Estimate of a round not simulated = %v ± %v, want 0", p, hw)
	}
}
