package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/longtest"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// oddsText writes a report's every probability as an exact fraction, in a
// stable order, for comparing two engines.
func oddsText(rep *runtime.OddsReport) string {
	var b strings.Builder
	for _, r := range rep.Rounds {
		b.WriteString("round ")
		for _, s := range rep.Sides {
			p := r.Holder[s]
			ps := "nil"
			if p != nil {
				ps = p.RatString()
			}
			b.WriteString(s + "=" + ps + " ")
		}
		b.WriteString("\n")
		for _, o := range r.Orders {
			b.WriteString("  " + strings.Join(o.Outcome, ",") + " " + o.P.RatString() + "\n")
		}
	}
	for _, sq := range rep.Sequences {
		b.WriteString("seq " + strings.Join(sq.Outcome, ",") + " " + sq.P.RatString() + "\n")
	}
	for _, s := range rep.Sides {
		b.WriteString("expected " + s + " " + rep.Expected[s].RatString() + "\n")
	}
	return b.String()
}

// TestOddsForkingAgreesWithReplay: forking order computations (fork.go)
// gives exactly the fractions the replay of every path gives, for every
// bundled ruleset over several rounds, with and without policy overrides.
func TestOddsForkingAgreesWithReplay(t *testing.T) {
	ctx := context.Background()
	type tc struct {
		ruleset string
		sides   []runtime.SideSpec // nil: the example
		rounds  int
		policy  runtime.Decider
	}
	var cases []tc
	for _, name := range []string{"mesbg", "agi", "morturi"} {
		for _, rounds := range []int{1, 3} {
			cases = append(cases, tc{name, nil, rounds, nil})
		}
	}
	for n := 2; n <= 5; n++ {
		names := []string{"A", "B", "C", "D", "E"}[:n]
		// Five players replay about 21,000 paths a round, from each of
		// 120 states after the first: one round is enough for them.
		rounds := 3
		if n == 5 {
			rounds = 1
		}
		cases = append(cases, tc{"necromunda", runtime.Sides(names...), rounds, nil})
	}
	for _, pol := range []runtime.Override{
		{runtime.ChooseFirst: "other"},
		{runtime.ChooseFirst: "keep"},
		{runtime.ChooseBeforeAfter: "after"},
		{runtime.ChooseOrder: "reverse"},
	} {
		cases = append(cases, tc{"mesbg", nil, 3, pol}, tc{"agi", nil, 3, pol})
	}
	for _, c := range cases {
		p := mustProgram(t, c.ruleset)
		sides := c.sides
		if sides == nil {
			sides = p.Example()
		}
		opt := runtime.OddsOptions{Rounds: c.rounds, Decider: c.policy}
		t0 := time.Now()
		want, err := p.OddsByReplay(ctx, sides, opt)
		t1 := time.Now()
		if err != nil {
			t.Fatalf("%s %d sides %d rounds %v: replay: %v", c.ruleset, len(sides), c.rounds, c.policy, err)
		}
		got, err := p.Odds(ctx, sides, opt)
		if err != nil {
			t.Fatalf("%s %d sides %d rounds %v: %v", c.ruleset, len(sides), c.rounds, c.policy, err)
		}
		t.Logf("%s %d sides %d rounds %v: replay %v (%d), fork %v (%d)", c.ruleset, len(sides), c.rounds, c.policy, t1.Sub(t0), want.Replays, time.Since(t1), got.Replays)
		if diff := cmp.Diff(oddsText(want), oddsText(got)); diff != "" {
			t.Errorf("%s %d sides %d rounds %v (-replay +fork):\n%s", c.ruleset, len(sides), c.rounds, c.policy, diff)
		}
	}
}

// TestOddsForkingAgreesOnGeneratedRulesets: over the generated rulesets
// of TestGeneratedRulesets (ties, rerolls, choices, awards, until-changed
// orders, hooks that change values, low reroll limits), forking gives the
// replay's fractions, or the same error.
func TestOddsForkingAgreesOnGeneratedRulesets(t *testing.T) {
	n := 8
	if longtest.Enabled() {
		n = 40
	}
	ctx := context.Background()
	compared, errs := 0, 0
	for i := range n {
		c := ddGenerate(i)
		file, diags := dsl.Parse(c.name+".rules", []byte(c.src))
		if diags.HasErrors() {
			continue
		}
		var copts []runtime.Option
		if c.limits != nil {
			copts = append(copts, runtime.WithLimits(*c.limits))
		}
		p, err := runtime.Compile(file, copts...)
		if err != nil {
			continue
		}
		for _, sides := range c.setups {
			// The oracle replays every path: keep it to what it does quickly.
			opt := runtime.OddsOptions{Rounds: 2, MaxPaths: 2_000, MaxStates: 500}
			short, cancel := context.WithTimeout(ctx, 2*time.Second)
			want, werr := p.OddsByReplay(short, sides, opt)
			cancel()
			if werr != nil && (errors.Is(werr, context.DeadlineExceeded) || strings.Contains(werr.Error(), "paths to enumerate exactly")) {
				continue // out of the oracle's reach
			}
			opt.MaxPaths = 1_000_000
			got, gerr := p.Odds(ctx, sides, opt)
			switch {
			case werr != nil:
				errs++
				if gerr == nil || gerr.Error() != werr.Error() {
					t.Errorf("%s: replay fails with %v, fork with %v\n%s", c.name, werr, gerr, c.src)
				}
			case gerr != nil:
				t.Errorf("%s: fork fails with %v, replay does not\n%s", c.name, gerr, c.src)
			default:
				compared++
				if diff := cmp.Diff(oddsText(want), oddsText(got)); diff != "" {
					t.Errorf("%s (-replay +fork):\n%s\n%s", c.name, diff, c.src)
				}
			}
		}
	}
	t.Logf("%d analyses compared, %d errors compared", compared, errs)
}

// TestOddsForkingFailsAsReplayDoes: a round that fails on some path fails
// with the error the replay meets first, not with another one the forking
// analysis met first because it works out an order's every path before the
// orders after it (here o1 fails only when B and C tie, o2 on its first
// path).
func TestOddsForkingFailsAsReplayDoes(t *testing.T) {
	p := compileInline(t, `ruleset e1 "e1" {
  sides 2..
  phase p each round {
    order sides as o1 {
      highest roll d2
      tie: award "A"
    }
    order sides as o2 {
      highest roll d2
      tie: award "Z"
    }
  }
}`)
	ctx := context.Background()
	sides := runtime.Sides("A", "B", "C")
	opt := runtime.OddsOptions{Rounds: 1}
	_, werr := p.OddsByReplay(ctx, sides, opt)
	_, gerr := p.Odds(ctx, sides, opt)
	if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
		t.Errorf("replay fails with %v, fork with %v", werr, gerr)
	}
}

// TestOddsForkingFailsAsReplayDoesOverPathBound: the forks may go over
// MaxPaths working out one order's every path where the replay, which
// plays the round path by path in the order of the dice, meets a rule's
// error at once. The error is the replay's: a rule to fix, not advice to
// simulate a battle that fails anyway. Here o1 alone is over the bound and
// o2 fails on the first path.
func TestOddsForkingFailsAsReplayDoesOverPathBound(t *testing.T) {
	const o1 = `ruleset e "e" {
  sides 2..
  phase p each round {
    order sides as o1 {
      highest roll d6
      tie: random
    }
    order sides as o2 {
      %s
    }
  }
}`
	for _, c := range []struct {
		name string
		o2   string
		lim  runtime.Limits
		want string
	}{
		{"award names nobody", "highest roll d2\n      tie: award \"Z\"", runtime.Limits{},
			"round 1: inline.rules:10:12: `award \"Z\"` names \"Z\", who is not among the tied (A, B, C, D)"},
		{"reroll never ends", "highest roll d1\n      tie: reroll", runtime.Limits{},
			"round 1: inline.rules:9:7: every roll ties again, so the reroll never ends: a tie can never be resolved"},
		{"over MaxRerolls", "highest roll d2\n      tie: reroll", runtime.Limits{MaxRerolls: -1},
			"round 1: inline.rules:10:12: order o2: still tied after 0 rerolls (A, B, C, D): limit reached"},
	} {
		p := compileInline(t, fmt.Sprintf(o1, c.o2), runtime.WithLimits(c.lim))
		ctx := context.Background()
		sides := runtime.Sides("A", "B", "C", "D")
		opt := runtime.OddsOptions{Rounds: 1, MaxPaths: 100}
		_, werr := p.OddsByReplay(ctx, sides, opt)
		_, gerr := p.Odds(ctx, sides, opt)
		if diff := cmp.Diff(c.want, fmt.Sprint(werr)); diff != "" {
			t.Errorf("%s: replay's error (-want +got):\n%s", c.name, diff)
		}
		if diff := cmp.Diff(fmt.Sprint(werr), fmt.Sprint(gerr)); diff != "" {
			t.Errorf("%s: (-replay +fork):\n%s", c.name, diff)
		}
	}
}

// TestOddsForkingWithinTheReplaysBound: the forks count the runs of the
// parts they fork as paths too, so a round can take them more paths than
// the replay: where the replay stays within MaxPaths, odds does not fail.
func TestOddsForkingWithinTheReplaysBound(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"mesbg", "agi", "morturi", "necromunda"} {
		p := mustProgram(t, name)
		sides := p.Example()
		if name == "necromunda" {
			sides = runtime.Sides("A", "B", "C")
		}
		want, err := p.OddsByReplay(ctx, sides, runtime.OddsOptions{Rounds: 1})
		if err != nil {
			t.Fatalf("%s: replay: %v", name, err)
		}
		forked, err := p.Odds(ctx, sides, runtime.OddsOptions{Rounds: 1})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := p.Odds(ctx, sides, runtime.OddsOptions{Rounds: 1, MaxPaths: want.Replays})
		if err != nil {
			t.Errorf("%s, MaxPaths %d (the replay's paths): %v", name, want.Replays, err)
			continue
		}
		if diff := cmp.Diff(oddsText(want), oddsText(got)); diff != "" {
			t.Errorf("%s (-replay +fork):\n%s", name, diff)
		}
		// Replays counts the work done: where the forks went over the
		// bound, their paths, and the replay's to look for an error and
		// then to enumerate the round.
		if forked.Replays > want.Replays && got.Replays <= 2*want.Replays {
			t.Errorf("%s: %d replays reported, the forks having gone over %d and the replay taken %d twice",
				name, got.Replays, want.Replays, want.Replays)
		}
		if forked.Replays <= want.Replays && got.Replays != forked.Replays {
			t.Errorf("%s: %d replays reported, want the forks' %d", name, got.Replays, forked.Replays)
		}
	}
}

// FuzzOddsForking compiles whatever parses and works out its odds both
// ways: forking must give the replay's fractions, or its error, and must
// not panic or hang. The seed corpus is small, so that go test stays fast.
//
//	go test ./runtime -run '^$' -fuzz FuzzOddsForking -fuzztime 120s
func FuzzOddsForking(f *testing.F) {
	for _, body := range []string{
		"highest roll d3\n tie when len(tied) == 2: award not tied[0].name\n tie: reroll\n choice first by winner default other",
		"lowest roll 2d3 + agi\n tie: random\n choice before_after by loser default after",
		"highest roll d3\n tie when len(tied) == 2 { highest roll d2\n tie: reroll\n choice before_after by winner }\n tie when round > 1: award previous.holder\n tie: reroll",
		"highest roll d2\n tie: award \"A\"",
	} {
		f.Add(fmt.Sprintf("ruleset f {\n sides 2..\n side attribute agi int = 1\n phase p each round {\n  order sides as o {\n %s\n  }\n }\n on end of round when round %% 2 == 1 { set agi of holder = round }\n}\n", body), uint8(3), uint8(2), uint8(0), uint8(0))
	}
	// Decks: drawn again until they run out and are reshuffled, put back
	// by a rule (dead once the order is made), shared by two orders, with
	// a low reroll limit.
	for _, deck := range []string{
		"deck cards per side reshuffle when empty { 1..3 }\n phase p {\n  order sides as o {\n highest draw cards\n tie: reroll\n  }\n }\n on end of round { reshuffle cards }",
		"deck cards reshuffle when empty { 1..2 * 2 }\n phase p {\n  order sides as o {\n highest draw cards\n tie: reroll\n  }\n }",
		"deck cards reshuffle each round { 1..3 * 2 }\n phase p {\n  order sides as o {\n highest draw cards\n tie { highest draw cards\n tie: award tied[0].name }\n  }\n  order sides as q {\n lowest draw cards\n tie: random\n  }\n }",
	} {
		src := fmt.Sprintf("ruleset f {\n sides 2..\n %s\n}\n", deck)
		f.Add(src, uint8(0), uint8(2), uint8(0), uint8(0))
		f.Add(src, uint8(1), uint8(1), uint8(2), uint8(0))
	}
	policies := []runtime.Decider{nil, runtime.Override{runtime.ChooseFirst: "other"}, runtime.Override{runtime.ChooseBeforeAfter: "after"},
		runtime.Override{runtime.ChooseOrder: "reverse"}}
	f.Fuzz(func(t *testing.T, src string, nSides, rounds, maxRerolls, policy uint8) {
		file, diags := dsl.Parse("fuzz.rules", []byte(src))
		if diags.HasErrors() {
			return
		}
		lim := runtime.DefaultLimits()
		if maxRerolls > 0 {
			lim.MaxRerolls = int(maxRerolls % 8)
		}
		p, err := runtime.Compile(file, runtime.WithLimits(lim))
		if err != nil {
			return
		}
		sides := runtime.Sides("A", "B", "C", "D")[:2+nSides%3]
		ctx := context.Background()
		opt := runtime.OddsOptions{Rounds: 1 + int(rounds%3), MaxPaths: 2_000, MaxStates: 200, Decider: policies[int(policy)%len(policies)]}
		short, cancel := context.WithTimeout(ctx, 2*time.Second)
		want, werr := p.OddsByReplay(short, sides, opt)
		cancel()
		if werr != nil && (errors.Is(werr, context.DeadlineExceeded) || strings.Contains(werr.Error(), "paths to enumerate exactly")) {
			return // out of the oracle's reach
		}
		opt.MaxPaths = 1_000_000
		long, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		got, gerr := p.Odds(long, sides, opt)
		switch {
		case errors.Is(gerr, context.DeadlineExceeded):
			t.Fatalf("forking takes over 30 s where the replay took under 2")
		case werr != nil:
			if gerr == nil || gerr.Error() != werr.Error() {
				t.Fatalf("replay fails with %v, fork with %v", werr, gerr)
			}
		case gerr != nil:
			t.Fatalf("fork fails with %v, replay does not", gerr)
		default:
			if diff := cmp.Diff(oddsText(want), oddsText(got)); diff != "" {
				t.Fatalf("(-replay +fork):\n%s", diff)
			}
		}
	})
}

// TestOddsForkingCountsRerollsThatLoop: a reroll that ties again is
// dropped as a loop, and not counted against MaxRerolls (it is never
// played), but the rerolls before it are, as the replay counts them. Here
// four sides tie, then three, then two twice: three rerolls are played, so
// a limit of 2 is gone over, which the forks must see even when the loop
// is one they have met before (from fewer rerolls) and remember.
func TestOddsForkingCountsRerollsThatLoop(t *testing.T) {
	p0 := `ruleset g "g" {
  sides 2..
  side attribute morale int = 1
  phase p1 {
    order sides as o1 {
      highest roll d3 + morale
      tie: reroll
    }
  }
}`
	ctx := context.Background()
	sides := runtime.Sides("Ann", "Bob", "Cid", "Dee")
	sides[2].Attrs = map[string]any{"morale": 2}
	for mr := 1; mr <= 5; mr++ {
		p := compileInline(t, p0, runtime.WithLimits(runtime.Limits{MaxRerolls: mr, MaxSteps: 100}))
		opt := runtime.OddsOptions{Rounds: 1}
		want, werr := p.OddsByReplay(ctx, sides, opt)
		got, gerr := p.Odds(ctx, sides, opt)
		switch {
		case werr != nil || gerr != nil:
			if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
				t.Errorf("MaxRerolls %d: replay fails with %v, fork with %v", mr, werr, gerr)
			}
		default:
			if diff := cmp.Diff(oddsText(want), oddsText(got)); diff != "" {
				t.Errorf("MaxRerolls %d (-replay +fork):\n%s", mr, diff)
			}
		}
	}
}

// TestOddsReplaysOnOneBattleAsOnClones: a replay that stops at a branch
// point, or ends the round in a state whose battle is not kept, is undone
// (AbortRound), and the next path is played on the same battle rather
// than on a clone of its own. Nothing of the one may
// show in the other: the odds, the work (Replays) and the errors are the
// clones', forked or not, for the bundled rulesets, activation draw
// (whose branch points are in the middle of the activations), rules that
// fail, and generated rulesets whose handlers change attributes at the
// start and end of phases, steps and rounds.
func TestOddsReplaysOnOneBattleAsOnClones(t *testing.T) {
	type tc = oddsCase
	cases := bundledOddsCases(t)
	cases = append(cases,
		tc{name: "necromunda, four", src: cases[3].src, sides: runtime.Sides("A", "B", "C", "D")},
		// The second round ends in the states the first does, from each.
		tc{name: "necromunda, five", src: cases[3].src, sides: runtime.Sides("A", "B", "C", "D", "E")},
		tc{name: "draw", src: strings.Replace(drawRules, "%s", "", 1), sides: bagSides()},
		// The handler's change, made before the branch points, is undone
		// with the round: left, it would grow at every replay.
		tc{name: "start of round", src: "ruleset h {\n  sides 2..\n  side attribute agi int = 0\n  phase p each round {\n    order sides as o {\n      highest roll d3 + agi\n      tie: reroll\n    }\n  }\n  on start of round { set agi of sides[0].name = sides[0].agi + 1 }\n}\n", sides: runtime.Sides("A", "B", "C")},
		// The end of a round changes an attribute and remembers a value:
		// both are undone with the round, for the next path.
		tc{name: "end of round", src: "ruleset m {\n  sides 2..\n  side attribute agi int = 0\n  phase p each round {\n    order sides as o {\n      highest roll d3 + agi\n      tie when (previous.streak ?? 0) >= 2 and len(tied) == len(sides): award not previous.holder\n      tie: reroll\n    }\n  }\n  remember streak = (holder == previous.holder ? (previous.streak ?? 1) + 1 : 1)\n  on end of round { set agi of sides[0].name = sides[0].agi + 1 }\n}\n", sides: runtime.Sides("A", "B", "C")},
		tc{name: "award names nobody", src: "ruleset e {\n  sides 2..\n  phase p each round {\n    order sides as o {\n      highest roll d2\n      tie: award \"Z\"\n    }\n  }\n}\n", sides: runtime.Sides("A", "B", "C")},
		tc{name: "over MaxRerolls", src: "ruleset e {\n  sides 2..\n  phase p each round {\n    order sides as o {\n      highest roll d2\n      tie: reroll\n    }\n  }\n}\n", sides: runtime.Sides("A", "B", "C"), lim: &runtime.Limits{MaxRerolls: 1}},
	)
	cases = withGeneratedOddsCases(cases)
	compared := 0
	for _, c := range cases {
		p, sides, ok := c.compile()
		if !ok {
			continue
		}
		for _, replay := range []bool{false, true} {
			opt := runtime.OddsOptions{Rounds: 2, MaxPaths: 2_000, MaxStates: 200}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			want, werr := p.OddsByClones(ctx, sides, opt, replay)
			var got *runtime.OddsReport
			var gerr error
			if replay {
				got, gerr = p.OddsByReplay(ctx, sides, opt)
			} else {
				got, gerr = p.Odds(ctx, sides, opt)
			}
			cancel()
			if errors.Is(werr, context.DeadlineExceeded) || errors.Is(gerr, context.DeadlineExceeded) {
				continue // out of the test's reach
			}
			compared++
			name := fmt.Sprintf("%s (replay %v)", c.name, replay)
			if diff := cmp.Diff(errString(werr), errString(gerr)); diff != "" {
				t.Errorf("%s: error (-clones +one battle):\n%s", name, diff)
				continue
			}
			if werr != nil {
				continue
			}
			if diff := cmp.Diff(oddsText(want), oddsText(got)); diff != "" {
				t.Errorf("%s (-clones +one battle):\n%s", name, diff)
			}
			if want.Replays != got.Replays {
				t.Errorf("%s: %d replays, want the clones' %d", name, got.Replays, want.Replays)
			}
		}
	}
	t.Logf("%d of %d cases compared", compared, 2*len(cases))
}

// TestOddsGivesUpDoomedForksAsPlayingOn: forks sure to go over MaxPaths
// are given up at once, and the replay says how the round fails, or, when
// it stays within the bound, is the round's. Nothing of that may show:
// the odds, the work (Replays) and the errors are those of forks played
// on until they go over, for bounds the forks go over and the replay does
// not (the replay's own paths), rules that fail on the replay's first
// path, and generated rulesets.
func TestOddsGivesUpDoomedForksAsPlayingOn(t *testing.T) {
	type tc = oddsCase
	cases := bundledOddsCases(t)
	const o1 = "ruleset e {\n  sides 2..\n  phase p each round {\n    order sides as o1 {\n      highest roll d6\n      tie: random\n    }\n    order sides as o2 {\n      %s\n    }\n  }\n}\n"
	cases = append(cases,
		tc{name: "necromunda, five", src: cases[3].src, sides: runtime.Sides("A", "B", "C", "D", "E")},
		tc{name: "draw", src: strings.Replace(drawRules, "%s", "", 1), sides: bagSides()},
		tc{name: "award names nobody", src: fmt.Sprintf(o1, "highest roll d2\n      tie: award \"Z\""), sides: runtime.Sides("A", "B", "C", "D")},
		tc{name: "reroll never ends", src: fmt.Sprintf(o1, "highest roll d1\n      tie: reroll"), sides: runtime.Sides("A", "B", "C", "D")},
		tc{name: "over MaxRerolls", src: fmt.Sprintf(o1, "highest roll d2\n      tie: reroll"), sides: runtime.Sides("A", "B", "C", "D"), lim: &runtime.Limits{MaxRerolls: -1}},
		// o1's results are shared by the time o2's forks are given up.
		tc{name: "o2 rerolls, three", src: fmt.Sprintf(o1, "highest roll d3\n      tie: reroll"), sides: runtime.Sides("A", "B", "C")},
		tc{name: "o2 rerolls, four", src: fmt.Sprintf(o1, "highest roll d3\n      tie: reroll"), sides: runtime.Sides("A", "B", "C", "D")},
	)
	cases = withGeneratedOddsCases(cases)
	compared, doomed := 0, 0
	for _, c := range cases {
		p, sides, ok := c.compile()
		if !ok {
			continue
		}
		bounds := []int{30, 300}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		if rep, err := p.OddsByReplay(ctx, sides, runtime.OddsOptions{Rounds: 1}); err == nil {
			bounds = append(bounds, rep.Replays) // the replay's round is the round's
		}
		cancel()
		for _, max := range bounds {
			opt := runtime.OddsOptions{Rounds: 2, MaxPaths: max, MaxStates: 200}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			want, werr := p.OddsPlayingOn(ctx, sides, opt)
			got, gerr := p.Odds(ctx, sides, opt)
			cancel()
			if errors.Is(werr, context.DeadlineExceeded) || errors.Is(gerr, context.DeadlineExceeded) {
				continue // out of the test's reach
			}
			compared++
			if werr != nil && strings.Contains(werr.Error(), "paths to enumerate exactly") {
				doomed++
			}
			name := fmt.Sprintf("%s, MaxPaths %d", c.name, max)
			if diff := cmp.Diff(errString(werr), errString(gerr)); diff != "" {
				t.Errorf("%s: error (-played on +given up):\n%s", name, diff)
				continue
			}
			if werr != nil {
				continue
			}
			if diff := cmp.Diff(oddsText(want), oddsText(got)); diff != "" {
				t.Errorf("%s (-played on +given up):\n%s", name, diff)
			}
			if want.Replays != got.Replays {
				t.Errorf("%s: %d replays, want the forks played on's %d", name, got.Replays, want.Replays)
			}
		}
	}
	t.Logf("%d analyses compared, %d over the bound", compared, doomed)
}

// oddsCase is a ruleset whose odds two ways of working them out must agree
// on: its source, its sides (nil: the example) and its limits (nil: the
// defaults).
type oddsCase struct {
	name  string
	src   string
	sides []runtime.SideSpec
	lim   *runtime.Limits
}

// bundledOddsCases returns the bundled rulesets, with their examples.
func bundledOddsCases(t *testing.T) []oddsCase {
	t.Helper()
	var cases []oddsCase
	for _, name := range []string{"mesbg", "agi", "morturi", "necromunda"} {
		source, err := rulesets.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		src := source.Text
		cases = append(cases, oddsCase{name: name, src: string(src)})
	}
	return cases
}

// withGeneratedOddsCases adds generated rulesets (ddGenerate's) to cases:
// forty with the long tests, none by default, where the cases written by
// hand stand for them (the generated ones take seconds each to compare).
func withGeneratedOddsCases(cases []oddsCase) []oddsCase {
	n := 0
	if longtest.Enabled() {
		n = 40
	}
	for i := range n {
		c := ddGenerate(i)
		cases = append(cases, oddsCase{name: c.name, src: c.src, sides: c.setups[0], lim: c.limits})
	}
	return cases
}

// compile compiles the case's ruleset; ok is false for one that does not
// compile (a generated ruleset may not), which is skipped.
func (c oddsCase) compile() (p *runtime.Program, sides []runtime.SideSpec, ok bool) {
	file, diags := dsl.Parse(c.name+".rules", []byte(c.src))
	if diags.HasErrors() {
		return nil, nil, false
	}
	var opts []runtime.Option
	if c.lim != nil {
		opts = append(opts, runtime.WithLimits(*c.lim))
	}
	p, err := runtime.Compile(file, opts...)
	if err != nil {
		return nil, nil, false
	}
	sides = c.sides
	if sides == nil {
		sides = p.Example()
	}
	return p, sides, true
}
