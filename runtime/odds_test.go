package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	goruntime "runtime"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/internal/longtest"
	"github.com/turnorder/turnorder/runtime"
)

func ratStrings(m map[string]*big.Rat) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v.RatString()
	}
	return out
}

func seqStrings(ps []runtime.Prob) map[string]string {
	out := map[string]string{}
	for _, p := range ps {
		out[strings.Join(p.Outcome, ",")] = p.P.RatString()
	}
	return out
}

// TestOddsByHand checks exact results against values derived by hand.
func TestOddsByHand(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name       string
		prog       *runtime.Program
		sides      []runtime.SideSpec
		rounds     int
		holders    []map[string]string // per round
		sequences  map[string]string
		orderCount int // distinct orders in round 1, if checked
	}{
		{
			// MESBG, the winner takes priority.
			// Round 1: a tie is rerolled until someone wins, so by symmetry
			// each side wins with 1/2 (the 6/36 ties are conditioned away,
			// not lost).
			// Round 2, after Jay chose: Jay wins the roll with 15/36; a tie
			// (6/36) goes to Rob, who did not choose; Rob wins with 15/36.
			// So P(Jay again) = 15/36 = 5/12 and P(Jay, Jay) = 1/2 * 5/12 =
			// 5/24; P(Jay, Rob) = 1/2 * 21/36 = 7/24. By symmetry each round
			// is still 1/2 for either side.
			name: "mesbg", prog: mustProgram(t, "mesbg"), sides: runtime.Sides("Jay", "Rob"), rounds: 2,
			holders: []map[string]string{{"Jay": "1/2", "Rob": "1/2"}, {"Jay": "1/2", "Rob": "1/2"}},
			sequences: map[string]string{
				"Jay,Jay": "5/24", "Jay,Rob": "7/24", "Rob,Rob": "5/24", "Rob,Jay": "7/24",
			},
		},
		{
			// Necromunda, two players: the first-round tie is rerolled (1/2
			// each); later a tie passes priority away from the holder, so
			// the holder keeps it only by winning outright: 15/36 = 5/12.
			// P(A, A) = 1/2 * 5/12 = 5/24, P(A, B) = 1/2 * 7/12 = 7/24.
			name: "necromunda 2", prog: mustProgram(t, "necromunda"), sides: runtime.Sides("A", "B"), rounds: 2,
			holders: []map[string]string{{"A": "1/2", "B": "1/2"}, {"A": "1/2", "B": "1/2"}},
			sequences: map[string]string{
				"A,A": "5/24", "A,B": "7/24", "B,B": "5/24", "B,A": "7/24",
			},
		},
		{
			// Necromunda, four players: only the tied roll again, without
			// end, so every one of the 4! orders is equally likely (1/24)
			// and each player holds priority with 1/4.
			name: "necromunda 4", prog: mustProgram(t, "necromunda"), sides: runtime.Sides("A", "B", "C", "D"), rounds: 1,
			holders:    []map[string]string{{"A": "1/4", "B": "1/4", "C": "1/4", "D": "1/4"}},
			sequences:  map[string]string{"A": "1/4", "B": "1/4", "C": "1/4", "D": "1/4"},
			orderCount: 24,
		},
		{
			// A roll with a modifier, rerolled on ties: A rolls d6+1, B d6.
			// A wins outright when a+1 > b, i.e. a >= b: 21/36. A tie is
			// a+1 = b: 5/36. B wins: 10/36. Conditioned on no tie, P(A) =
			// 21/31 and P(B) = 10/31.
			name: "modifier", prog: compileInline(t, `
ruleset bonus {
  side attribute bonus int
  phase priority {
    order sides as priority {
      highest roll d6 + bonus
      tie: reroll
    }
  }
}`), sides: []runtime.SideSpec{{Name: "A", Attrs: map[string]any{"bonus": 1}}, {Name: "B"}}, rounds: 1,
			holders:   []map[string]string{{"A": "21/31", "B": "10/31"}},
			sequences: map[string]string{"A": "21/31", "B": "10/31"},
		},
		{
			// Lowest roll of 2d6 with the lowest winning; three players, and
			// every tie rerolled: by symmetry 1/3 each.
			name: "three players 2d6", prog: compileInline(t, `
ruleset low {
  sides 3
  phase priority {
    order sides as priority {
      lowest roll 2d6
      tie: reroll
    }
  }
}`), sides: runtime.Sides("A", "B", "C"), rounds: 1,
			holders:    []map[string]string{{"A": "1/3", "B": "1/3", "C": "1/3"}},
			sequences:  map[string]string{"A": "1/3", "B": "1/3", "C": "1/3"},
			orderCount: 6,
		},
		{
			// A tie is rolled again until broken, and then the loser of
			// the roll-off goes first (default self), once. A wins outright
			// (a+1 > b) with 21/36; a tie (5/36) leads to rerolls whose
			// final loser goes first: A loses one with 10/31. P(A) = 21/36
			// + 5/36 * 10/31 = 701/1116.
			name: "choice after a reroll", prog: compileInline(t, `
ruleset loser {
  side attribute bonus int
  phase p {
    order sides as priority {
      highest roll d6 + bonus
      tie {
        reroll
        choice first by loser default self
      }
    }
  }
}`), sides: []runtime.SideSpec{{Name: "A", Attrs: map[string]any{"bonus": 1}}, {Name: "B"}}, rounds: 1,
			holders:   []map[string]string{{"A": "701/1116", "B": "415/1116"}},
			sequences: map[string]string{"A": "701/1116", "B": "415/1116"},
		},
		{
			// Units roll off, and the side of the first unit holds
			// priority: A has two of the three units, so 2/3.
			name: "units", prog: compileInline(t, `
ruleset units {
  phase priority {
    order units as priority {
      highest roll d6
      tie: reroll
    }
  }
}`), sides: []runtime.SideSpec{{Name: "A", Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}}}, {Name: "B", Units: []runtime.UnitSpec{{Name: "b1"}}}},
			rounds:     2,
			holders:    []map[string]string{{"A": "2/3", "B": "1/3"}, {"A": "2/3", "B": "1/3"}},
			sequences:  map[string]string{"A,A": "4/9", "A,B": "2/9", "B,A": "2/9", "B,B": "1/9"},
			orderCount: 6,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := tt.prog.Odds(ctx, tt.sides, runtime.OddsOptions{Rounds: tt.rounds})
			if err != nil {
				t.Fatal(err)
			}
			var got []map[string]string
			for _, r := range rep.Rounds {
				got = append(got, ratStrings(r.Holder))
			}
			if diff := cmp.Diff(tt.holders, got); diff != "" {
				t.Errorf("holders (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.sequences, seqStrings(rep.Sequences)); diff != "" {
				t.Errorf("sequences (-want +got):\n%s", diff)
			}
			// Every round someone holds priority: the sides' expected
			// rounds add up to the rounds played.
			sum := new(big.Rat)
			for who, e := range rep.Expected {
				if !slices.Contains(rep.Sides, who) {
					t.Errorf("Expected has %s, which is not a side", who)
				}
				sum.Add(sum, e)
			}
			if sum.Cmp(big.NewRat(int64(tt.rounds), 1)) != 0 {
				t.Errorf("expected rounds add up to %s, want %d", sum.RatString(), tt.rounds)
			}
			if tt.orderCount > 0 {
				if n := len(rep.Rounds[0].Orders); n != tt.orderCount {
					t.Errorf("%d orders in round 1, want %d", n, tt.orderCount)
				}
				sum := new(big.Rat)
				for _, o := range rep.Rounds[0].Orders {
					sum.Add(sum, o.P)
				}
				if sum.Cmp(big.NewRat(1, 1)) != 0 {
					t.Errorf("order probabilities add up to %s", sum.RatString())
				}
			}
		})
	}
}

// TestOddsNeverResolves: d1 against d1 always ties, so "reroll until
// someone wins" has no answer; the analysis says so instead of hanging.
func TestOddsNeverResolves(t *testing.T) {
	p := compileInline(t, `
ruleset stuck {
  phase priority {
    order sides as priority {
      highest roll d1
      tie: reroll
    }
  }
}`)
	_, err := p.Odds(context.Background(), runtime.Sides("A", "B"), runtime.OddsOptions{Rounds: 1})
	if !errors.Is(err, runtime.ErrNeverResolves) {
		t.Fatalf("err = %v, want ErrNeverResolves", err)
	}
	// The roll that can never separate them is the rule to blame.
	var re *runtime.RuleError
	if !errors.As(err, &re) || re.Pos.Line != 5 || re.Pos.Column != 7 {
		t.Errorf("err = %v, want a RuleError at the roll (inline.rules:5:7)", err)
	}
	// It reads like any other error of a round: the round, then where the
	// rule is, as `award` naming nobody does.
	want := "round 1: inline.rules:5:7: every roll ties again, so the reroll never ends: a tie can never be resolved"
	if diff := cmp.Diff(want, fmt.Sprint(err)); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	if re, ok := errors.AsType[*runtime.RoundError](err); !ok || re.Round != 1 {
		t.Errorf("err = %#v, want a RoundError of round 1", err)
	}
}

// TestOddsCostIsLinearInRounds: equal states are merged after every round,
// so 20 rounds replay about 20 times what one round does, not 6^20.
func TestOddsCostIsLinearInRounds(t *testing.T) {
	p := mustProgram(t, "mesbg")
	ctx := context.Background()
	one, err := p.Odds(ctx, runtime.Sides("Jay", "Rob"), runtime.OddsOptions{Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	twenty, err := p.Odds(ctx, runtime.Sides("Jay", "Rob"), runtime.OddsOptions{Rounds: 20})
	if err != nil {
		t.Fatal(err)
	}
	if twenty.Replays >= 100*one.Replays {
		t.Errorf("20 rounds replayed %d rounds, one round %d: not under 100 times", twenty.Replays, one.Replays)
	}
	for _, r := range twenty.Rounds {
		if r.Holder["Jay"].Cmp(big.NewRat(1, 2)) != 0 {
			t.Errorf("round %d: P(Jay) = %s, want 1/2", r.Round, r.Holder["Jay"].RatString())
		}
	}
}

func BenchmarkOddsMESBG(b *testing.B) {
	p := mustProgram(b, "mesbg")
	for _, rounds := range []int{1, 20} {
		b.Run(map[int]string{1: "rounds=1", 20: "rounds=20"}[rounds], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Odds(context.Background(), runtime.Sides("Jay", "Rob"), runtime.OddsOptions{Rounds: rounds}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A roll with too many combinations is refused before its odds are worked
// out (for 100d1000 that alone took minutes), at the roll.
func TestOddsRefusesHugeRolls(t *testing.T) {
	p := compileInline(t, "ruleset big {\n  phase p {\n    order sides as o {\n      highest roll 100d1000\n      tie: reroll\n    }\n  }\n}\n")
	_, err := p.Odds(context.Background(), runtime.Sides("A", "B"), runtime.OddsOptions{Rounds: 1})
	var re *runtime.RuleError
	if !errors.Is(err, runtime.ErrLimit) || !errors.As(err, &re) || re.Pos.Line != 4 {
		t.Fatalf("err = %v, want ErrLimit in a RuleError at line 4", err)
	}
}

// Holder has every side, as Expected does: a side that never holds
// priority has 0, not a nil that panics when it is read.
func TestOddsHolderHasEverySide(t *testing.T) {
	p := mustProgram(t, "agi")
	rep, err := p.Odds(context.Background(), p.Example(), runtime.OddsOptions{Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"A": "1/2", "B": "1/2", "C": "0"}
	for _, r := range rep.Rounds {
		if diff := cmp.Diff(want, ratStrings(r.Holder)); diff != "" {
			t.Errorf("round %d: holders (-want +got):\n%s", r.Round, diff)
		}
	}
}

// A roll's outcomes do not change from round to round: a battle of six
// rounds works out a large roll (5d100 each, counted in big integers) about
// as fast as one round does, not once for each state each round starts
// from.
func TestOddsWorksOutEachRollOnce(t *testing.T) {
	p := compileInline(t, "ruleset big {\n  sides 2\n  phase p {\n    order sides as o {\n      highest roll 5d100\n      tie: reroll\n    }\n  }\n}\n")
	ctx := context.Background()
	sides := runtime.Sides("A", "B")
	t0 := time.Now()
	if _, err := p.Odds(ctx, sides, runtime.OddsOptions{Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	one := time.Since(t0)
	t0 = time.Now()
	six, err := p.Odds(ctx, sides, runtime.OddsOptions{Rounds: 6})
	if err != nil {
		t.Fatal(err)
	}
	// Rounds 2 to 6 start from two states each: eleven times the roll.
	if d := time.Since(t0); d > 4*one {
		t.Errorf("six rounds took %v, one round %v: over four times as long", d, one)
	}
	if got := six.Rounds[5].Holder["A"].RatString(); got != "1/2" {
		t.Errorf("round 6: P(A) = %s, want 1/2", got)
	}
}

// Working out a large roll's outcomes stops when the context is done:
// eight players on a D6 make 1,679,616 combinations, and 5d400 between
// two sides 3,984,016 counted in big integers, seconds of work.
func TestOddsCancelledDuringALargeRoll(t *testing.T) {
	for _, c := range []struct {
		roll  string
		sides []runtime.SideSpec
	}{
		{"d6", runtime.Sides("A", "B", "C", "D", "E", "F", "G", "H")},
		{"5d400", runtime.Sides("A", "B")},
	} {
		p := compileInline(t, "ruleset big {\n  phase p {\n    order sides as o {\n      highest roll "+c.roll+"\n      tie: reroll\n    }\n  }\n}\n")
		// The race detector makes the work between two looks at the
		// context several times slower.
		within := 500 * time.Millisecond
		if raceEnabled {
			within *= 4
		}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		t0 := time.Now()
		_, err := p.Odds(ctx, c.sides, runtime.OddsOptions{Rounds: 1})
		d := time.Since(t0)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: err = %v, want the context's", c.roll, err)
		}
		if d > within {
			t.Errorf("%s: cancelled after 50ms, returned after %v", c.roll, d)
		}
	}
}

// A round with more paths than MaxPaths is refused, not explored until
// memory runs out.
func TestOddsMaxPaths(t *testing.T) {
	p := mustProgram(t, "necromunda")
	_, err := p.Odds(context.Background(), runtime.Sides("A", "B", "C", "D"), runtime.OddsOptions{Rounds: 1, MaxPaths: 100})
	if !errors.Is(err, runtime.ErrLimit) || !strings.Contains(err.Error(), "round 1 has more than 100 paths") {
		t.Fatalf("err = %v, want the path limit", err)
	}
}

// Eight players rolling off in Necromunda are refused with the path
// bound, as they were when the forks were played on until they went over
// it: the first roll and, all eight tied, the reroll have 728,790
// outcomes between them, a path each at least, so the forks are given up
// at once and the replay says how the round fails. (With the default
// bound, a million, this is the refusal the odds command shows, after a
// third of the time it took.)
func TestOddsRefusesEightPlayers(t *testing.T) {
	t.Parallel()
	p := mustProgram(t, "necromunda")
	sides := runtime.Sides("A", "B", "C", "D", "E", "F", "G", "H")
	opt := runtime.OddsOptions{Rounds: 1, MaxPaths: 100_000}
	ctx := context.Background()
	_, err := p.Odds(ctx, sides, opt)
	want := "round 1 has more than 100000 paths to enumerate exactly: limit reached"
	if diff := cmp.Diff(want, errString(err)); diff != "" {
		t.Errorf("refusal (-want +got):\n%s", diff)
	}
	if !errors.Is(err, runtime.ErrLimit) {
		t.Errorf("refusal %v is not ErrLimit", err)
	}
	if !longtest.Enabled() {
		return // playing the forks on to the bound takes seconds
	}
	_, played := p.OddsPlayingOn(ctx, sides, opt)
	if diff := cmp.Diff(errString(played), errString(err)); diff != "" {
		t.Errorf("refusal (-forks played on +given up):\n%s", diff)
	}
}

// An error that names its round is not given the round again.
func TestOddsErrorNamesRoundOnce(t *testing.T) {
	p := mustProgram(t, "mesbg")
	_, err := p.Odds(context.Background(), p.Example(), runtime.OddsOptions{Rounds: 1, Decider: runtime.NewScriptedDecider()})
	if err == nil || !strings.HasPrefix(err.Error(), "round 1, order priority: unscripted decision") || strings.Count(err.Error(), "round 1") != 1 {
		t.Errorf("err = %v, want one that says round 1 once", err)
	}
}

// The tie event left at the end of an order says so in words.
func TestEndOfOrderTieEvent(t *testing.T) {
	p := compileInline(t, "ruleset x {\n sides 2\n phase p { order sides as o { highest 1 } }\n}\n")
	b, err := p.NewBattle(runtime.Sides("A", "B"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ties []string
	for _, e := range res.Events {
		if e.Kind == runtime.EvTie {
			ties = append(ties, e.String())
		}
	}
	want := []string{"tie between A and B on highest 1", "A and B are still tied at the end of the order: they keep their setup order"}
	if diff := cmp.Diff(want, ties); diff != "" {
		t.Errorf("tie events (-want +got):\n%s", diff)
	}
}

// histRuleset remembers every holder so far: its states double each round.
const histRuleset = `ruleset hist {
  sides 2
  remember hist = (previous.hist ?? "") + holder
  phase p {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
}`

// States that keep growing stop the analysis at MaxStates, with ErrLimit;
// before that, holder sequences are given up rather than the analysis.
func TestOddsMaxStates(t *testing.T) {
	p := compileInline(t, histRuleset)
	ctx := context.Background()
	_, err := p.Odds(ctx, runtime.Sides("A", "B"), runtime.OddsOptions{Rounds: 6, MaxStates: 10})
	if !errors.Is(err, runtime.ErrLimit) || !strings.Contains(err.Error(), "after round 4") {
		t.Errorf("err = %v, want ErrLimit after round 4 (16 states)", err)
	}
	// Necromunda's four players: 4^3 holder sequences, but few battles.
	rep, err := mustProgram(t, "necromunda").Odds(ctx, runtime.Sides("A", "B", "C", "D"), runtime.OddsOptions{Rounds: 3, MaxStates: 50})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Sequences != nil {
		t.Errorf("%d sequences reported past MaxStates", len(rep.Sequences))
	}
	if got := ratStrings(rep.Rounds[2].Holder); got["A"] != "1/4" {
		t.Errorf("round 3: %v, want 1/4 each", got)
	}
}

// MaxStates bounds the states played on into another round: the states
// after the last round are only summed, however many there are.
func TestOddsMaxStatesAfterTheLastRound(t *testing.T) {
	p := compileInline(t, histRuleset)
	for _, tt := range []struct {
		rounds  int
		wantErr string // "" for odds
	}{
		{rounds: 3},
		{rounds: 4}, // 16 states after round 4, the last
		{rounds: 5, wantErr: "after round 4"},
	} {
		t.Run(fmt.Sprint(tt.rounds, " rounds"), func(t *testing.T) {
			rep, err := p.Odds(context.Background(), runtime.Sides("A", "B"), runtime.OddsOptions{Rounds: tt.rounds, MaxStates: 10})
			if tt.wantErr != "" {
				if !errors.Is(err, runtime.ErrLimit) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err = %v, want ErrLimit %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ratStrings(rep.Rounds[tt.rounds-1].Holder); got["A"] != "1/2" || got["B"] != "1/2" {
				t.Errorf("round %d: %v, want 1/2 each", tt.rounds, got)
			}
		})
	}
}

// Six players rolling off a D6, only the still-tied rolling again: the
// order computation is forked, not replayed per path (see fork.go).
func BenchmarkOddsNecromundaSix(b *testing.B) {
	p := mustProgram(b, "necromunda")
	b.ReportAllocs()
	for b.Loop() {
		rep, err := p.Odds(context.Background(), runtime.Sides("A", "B", "C", "D", "E", "F"), runtime.OddsOptions{Rounds: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(rep.Replays), "paths")
	}
}

// A negative bound is refused up front, naming the option; it used to be
// reported as "round 1 has more than -1 paths".
func TestOddsNegativeBounds(t *testing.T) {
	p := mustProgram(t, "mesbg")
	for _, tt := range []struct {
		name string
		opt  runtime.OddsOptions
	}{
		{"MaxPaths", runtime.OddsOptions{Rounds: 1, MaxPaths: -1}},
		{"MaxStates", runtime.OddsOptions{Rounds: 1, MaxStates: -1}},
		{"SequenceRounds", runtime.OddsOptions{Rounds: 1, SequenceRounds: -1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Odds(context.Background(), runtime.Sides("Jay", "Rob"), tt.opt)
			if want := "Odds: " + tt.name + " is -1: it is a bound, 0 for the default or more"; err == nil || err.Error() != want {
				t.Errorf("err = %v, want %s", err, want)
			}
		})
	}
}

// A reroll loop's exact odds are its conditional distribution: the repeat
// that shows a group tied again is never played, so it is not counted
// against MaxRerolls; the rerolls a path does play are. Odds, forked or
// replayed, and Simulate, whose fair dice break such a loop sooner or
// later, agree: the d3 roll-off needs one reroll, whatever the limit past
// it, and none is too few.
func TestOddsRerollLimitCountsNoLoop(t *testing.T) {
	const src = `ruleset rr {
  sides 2..
  phase p each round {
    order sides as o {
      highest roll d3
      tie: reroll
    }
  }
}`
	ctx := context.Background()
	for _, tt := range []struct {
		maxRerolls int
		sides      []string
		wantErr    string
	}{
		{-1, []string{"A", "B"}, "round 1: inline.rules:6:12: order o: still tied after 0 rerolls (A, B): limit reached"},
		{1, []string{"A", "B"}, ""},
		{2, []string{"A", "B"}, ""},
		{3, []string{"A", "B"}, ""},
		// Three tied, then two of them: two rerolls played.
		{1, []string{"A", "B", "C"}, "round 1: inline.rules:6:12: order o: still tied after 1 reroll (A, B): limit reached"},
		{2, []string{"A", "B", "C"}, ""},
	} {
		name := fmt.Sprintf("%d sides, MaxRerolls %d", len(tt.sides), tt.maxRerolls)
		p := compileInline(t, src, runtime.WithLimits(runtime.Limits{MaxRerolls: tt.maxRerolls}))
		sides := runtime.Sides(tt.sides...)
		want := map[string]string{}
		for _, s := range tt.sides {
			want[s] = fmt.Sprintf("1/%d", len(tt.sides))
		}
		for _, engine := range []struct {
			name string
			odds func(context.Context, []runtime.SideSpec, runtime.OddsOptions) (*runtime.OddsReport, error)
		}{{"fork", p.Odds}, {"replay", p.OddsByReplay}} {
			rep, err := engine.odds(ctx, sides, runtime.OddsOptions{Rounds: 2})
			if diff := cmp.Diff(tt.wantErr, errString(err)); diff != "" {
				t.Errorf("%s, %s: error (-want +got):\n%s", name, engine.name, diff)
				continue
			}
			if err != nil {
				continue
			}
			for _, r := range rep.Rounds {
				if diff := cmp.Diff(want, ratStrings(r.Holder)); diff != "" {
					t.Errorf("%s, %s: round %d holder (-want +got):\n%s", name, engine.name, r.Round, diff)
				}
			}
		}
		_, err := p.Simulate(ctx, sides, runtime.SimOptions{Runs: 2000, Rounds: 2, Seed: 1})
		if (err == nil) != (tt.wantErr == "") {
			t.Errorf("%s: Simulate fails with %v, Odds with %q", name, err, tt.wantErr)
		}
	}
}

// Refusing a round over MaxPaths: eight players rolling off a D6, and
// nine drawing lots among the tied after a D5. Run with -benchtime 1x and
// -benchmem: both are refused, with the path bound.
func BenchmarkOddsRefuses(b *testing.B) {
	for _, c := range []struct {
		name string
		prog *runtime.Program
		n    int
	}{
		{"necromunda8", mustProgram(b, "necromunda"), 8},
		{"d5random9", compileInline(b, "ruleset r {\n  phase p {\n    order sides as o {\n      highest roll d5\n      tie: random\n    }\n  }\n}\n"), 9},
	} {
		sides := runtime.Sides("A", "B", "C", "D", "E", "F", "G", "H", "I")[:c.n]
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			stop, peak := peakHeap()
			for b.Loop() {
				_, err := c.prog.Odds(context.Background(), sides, runtime.OddsOptions{Rounds: 1})
				if !errors.Is(err, runtime.ErrLimit) || !strings.Contains(err.Error(), "paths to enumerate exactly") {
					b.Fatalf("err = %v, want the path bound", err)
				}
			}
			stop()
			b.ReportMetric(float64(*peak>>20), "peak-heap-MB")
		})
	}
}

// peakHeap samples the heap in use until stop is called: the most it saw.
func peakHeap() (stop func(), peak *uint64) {
	peak = new(uint64)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var ms goruntime.MemStats
		for {
			goruntime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }, peak
}

// Rounds (and Simulate's Runs) have no default, as OddsOptions and
// SimOptions say: a zero is an error that says so, not an empty report.
func TestOddsAndSimulateNeedRounds(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		run  func() error
		want string
	}{
		{"Program.Odds", func() error { _, err := p.Odds(ctx, runtime.Sides("Jay", "Rob"), runtime.OddsOptions{}); return err }, "Odds: Rounds is 0: odds are of 1 round or more"},
		{"Battle.Odds", func() error { _, err := b.Odds(ctx, runtime.OddsOptions{}); return err }, "Odds: Rounds is 0: odds are of 1 round or more"},
		{"Simulate runs", func() error {
			_, err := p.Simulate(ctx, runtime.Sides("Jay", "Rob"), runtime.SimOptions{Rounds: 1})
			return err
		}, "Simulate: Runs is 0: simulate 1 battle or more"},
		{"Simulate rounds", func() error {
			_, err := p.Simulate(ctx, runtime.Sides("Jay", "Rob"), runtime.SimOptions{Runs: 1})
			return err
		}, "Simulate: Rounds is 0: simulate 1 round or more"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := fmt.Sprint(tt.run())
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// Every refusal of Odds, whether of the battle or of the options, names
// the method the same way: "Odds: ...", not "Odds:" here and "odds:"
// there.
func TestOddsErrorsNameTheMethod(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, opt := range []runtime.OddsOptions{{}, {Rounds: 1, MaxPaths: -1}} {
		_, err := b.Odds(ctx, opt)
		got = append(got, fmt.Sprint(err))
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = b.Odds(ctx, runtime.OddsOptions{Rounds: 1})
	got = append(got, fmt.Sprint(err))
	want := []string{
		"Odds: Rounds is 0: odds are of 1 round or more",
		"Odds: MaxPaths is -1: it is a bound, 0 for the default or more",
		"Odds: round 1 has not ended: odds are of whole rounds",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// A host showing the odds of the battle at its table needs them from the
// battle as it stands: in mesbg a tie after round 1 goes to the player who
// did not choose, so once Jay has chosen, Rob holds priority in round 2
// on his wins and on every tie, 7/12, not the 1/2 of a fresh battle.
func TestBattleOddsFollowTheBattle(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := b.Odds(ctx, runtime.OddsOptions{Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.Odds(ctx, runtime.Sides("Jay", "Rob"), runtime.OddsOptions{Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range want.Rounds {
		got := fresh.Rounds[i]
		if got.Round != r.Round || got.Holder["Jay"].Cmp(r.Holder["Jay"]) != 0 || got.Holder["Rob"].Cmp(r.Holder["Rob"]) != 0 {
			t.Errorf("a battle before round 1: round %d: got %v, want Program.Odds's %v", r.Round, got, r)
		}
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if b.Chooser() != "Jay" {
		t.Fatalf("chooser %q, want Jay", b.Chooser())
	}
	before, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := b.Odds(ctx, runtime.OddsOptions{Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rounds) != 1 || rep.Rounds[0].Round != 2 {
		t.Fatalf("rounds %+v, want one, round 2", rep.Rounds)
	}
	if got, want := rep.Rounds[0].Holder["Rob"], big.NewRat(7, 12); got.Cmp(want) != 0 {
		t.Errorf("P(Rob holds priority in round 2) = %v, want %v", got, want)
	}
	if got, want := rep.Expected["Jay"], big.NewRat(5, 12); got.Cmp(want) != 0 {
		t.Errorf("Jay's expected rounds = %v, want %v", got, want)
	}
	after, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("Odds changed the battle:\n%s\nthen\n%s", before, after)
	}
}

// Odds are of whole rounds: in the middle of one the battle says so.
func TestBattleOddsRefusesARoundUnderWay(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "necromunda")
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Odds(ctx, runtime.OddsOptions{Rounds: 1}); !errors.Is(err, runtime.ErrRoundUnderWay) {
		t.Errorf("Odds in a round under way: %v, want ErrRoundUnderWay", err)
	}
	if _, err := b.EndRound(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Odds(ctx, runtime.OddsOptions{}); err == nil {
		t.Error("Odds of no rounds: no error")
	}
}

// A unit removed is gone from the odds too, and an attribute changed
// counts with its new value.
func TestBattleOddsSeeChanges(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset most "Most models, then morale" {
  sides 2
  side attribute morale int
  phase p {
    order sides as priority {
      highest count(units)
      highest morale
      highest roll d6
      tie: reroll
    }
  }
}`)
	b, err := p.NewBattle([]runtime.SideSpec{
		{Name: "A", Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}}},
		{Name: "B", Units: []runtime.UnitSpec{{Name: "b1"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	pA := func(want *big.Rat) {
		t.Helper()
		rep, err := b.Odds(ctx, runtime.OddsOptions{Rounds: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.Rounds[0].Holder["A"]; got.Cmp(want) != 0 {
			t.Errorf("P(A holds priority) = %v, want %v", got, want)
		}
	}
	pA(big.NewRat(1, 1))
	if err := b.RemoveUnit(ctx, "a1"); err != nil {
		t.Fatal(err)
	}
	pA(big.NewRat(1, 2))
	if err := b.SetAttr(ctx, "B", "morale", 3); err != nil {
		t.Fatal(err)
	}
	pA(new(big.Rat))
}

// A server serving the odds of its battle to a browser encodes the report
// as it is: exact fractions in strings, lowercase keys.
func TestOddsReportAsJSON(t *testing.T) {
	p := mustProgram(t, "mesbg")
	rep, err := p.Odds(context.Background(), runtime.Sides("Jay", "Rob"), runtime.OddsOptions{Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	rep.Replays = 0 // the work done, which may change
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"ruleset":"mesbg","sides":["Jay","Rob"],"rounds":[{"round":1,"holder":{"Jay":"1/2","Rob":"1/2"},` +
		`"orders":[{"outcome":["Jay","Rob"],"p":"1/2"},{"outcome":["Rob","Jay"],"p":"1/2"}],"first":{"priority":{"Jay":"1/2","Rob":"1/2"}}}],` +
		`"sequences":[{"outcome":["Jay"],"p":"1/2"},{"outcome":["Rob"],"p":"1/2"}],"expected":{"Jay":"1/2","Rob":"1/2"},"replays":0}`
	if string(data) != want {
		t.Errorf("odds as JSON:\n%s\nwant\n%s", data, want)
	}
}
