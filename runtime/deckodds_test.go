package runtime_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// flipSrc is two players flipping from decks of thirteen cards of their
// own, ties flipping again from what is left, the cards put back at the
// end of every round (examples/procedures/flip-decks.rules without its
// scenarios), with tie standing for its tie rule.
func flipSrc(deck, tie string) string {
	return `ruleset flip {
  sides 2..
  deck cards ` + deck + `
  phase initiative {
    order sides as initiative {
      highest draw cards
      ` + tie + `
    }
  }
  on end of round {
    reshuffle cards
  }
}`
}

// TestDeckOddsByHand checks exact odds of decks that the forking analysis
// works out by merging the states a tie leaves (fork.go), against values
// derived by hand. Every case takes milliseconds.
func TestDeckOddsByHand(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		src       string
		rounds    int
		holders   []map[string]string
		sequences map[string]string
		err       string
	}{
		{
			// Both decks hold the same cards at every flip, and the flips
			// are exchangeable: P(Jay first) = 1/2 in every round, and
			// the rounds are independent (the cards go back at the end of
			// each). The run of thirteen ties (1/13!) empties both decks,
			// which are reshuffled: back where the round began, and
			// conditioned away.
			name:    "thirteen cards each, ties flip again",
			src:     flipSrc("per side reshuffle when empty { 1..13 }", "tie: reroll"),
			rounds:  3,
			holders: []map[string]string{{"Jay": "1/2", "Rob": "1/2"}, {"Jay": "1/2", "Rob": "1/2"}, {"Jay": "1/2", "Rob": "1/2"}},
			sequences: map[string]string{
				"Jay,Jay,Jay": "1/8", "Jay,Jay,Rob": "1/8", "Jay,Rob,Jay": "1/8", "Jay,Rob,Rob": "1/8",
				"Rob,Jay,Jay": "1/8", "Rob,Jay,Rob": "1/8", "Rob,Rob,Jay": "1/8", "Rob,Rob,Rob": "1/8",
			},
		},
		{
			// One flip again at most, and a second tie goes to Jay. The
			// first flip ties with 1/13 (Rob's card is Jay's), and each
			// wins it outright with 6/13. After a tie both have the same
			// twelve cards: the second flip ties with 1/12, and each wins
			// it with 11/24. P(Jay) = 6/13 + 1/13 * (11/24 + 1/12)
			// = 6/13 + 1/24 = 157/312; P(Rob) = 6/13 + 1/13 * 11/24
			// = 155/312.
			name:    "thirteen cards each, a second tie to Jay",
			src:     flipSrc("per side reshuffle each round { 1..13 }", `tie { highest draw cards; tie: award "Jay" }`),
			rounds:  2,
			holders: []map[string]string{{"Jay": "157/312", "Rob": "155/312"}, {"Jay": "157/312", "Rob": "155/312"}},
		},
		{
			// Reshuffled each round: a run of thirteen ties (1/13!)
			// empties both decks, which are whole again for the next
			// flip, as in a new round: back where the round began, a
			// loop the odds condition away. Even, by symmetry.
			name:    "thirteen cards each, reshuffled each round",
			src:     flipSrc("per side reshuffle each round { 1..13 }", "tie: reroll"),
			rounds:  2,
			holders: []map[string]string{{"Jay": "1/2", "Rob": "1/2"}, {"Jay": "1/2", "Rob": "1/2"}},
		},
		{
			// Never reshuffled: the run of thirteen ties leaves Jay to
			// flip from an empty deck, an error in play, which the odds
			// report as the replay of every path does, at once.
			name:   "thirteen cards each, never reshuffled",
			src:    flipSrc("per side { 1..13 }", "tie: reroll"),
			rounds: 1,
			err:    "Jay draws from Jay's cards, which is empty",
		},
		{
			// A 52-card deck by rank, shared; one flip each, a tie to
			// Jay. Whatever Jay flips, Rob flips one of the 51 cards left:
			// 3 of them tie (the same rank), and of the other 48 half are
			// higher and half lower. P(Jay) = (24 + 3)/51 = 9/17; P(Rob)
			// = 24/51 = 8/17: a tie 3 times in 51.
			name:    "a 52-card deck by rank, one flip, ties to Jay",
			src:     flipSrc("reshuffle each round { 1..13 * 4 }", `tie: award "Jay"`),
			rounds:  2,
			holders: []map[string]string{{"Jay": "9/17", "Rob": "8/17"}, {"Jay": "9/17", "Rob": "8/17"}},
		},
		{
			// The same deck, a tie flipped again once, then to Jay. After
			// a tie of rank r, 50 cards are left, two of rank r: Jay's
			// second card x (48/50 of another rank, 2/50 of rank r), and
			// Rob ties it with 3/49 or 1/49. P(tie again) = 48/50 * 3/49
			// + 2/50 * 1/49 = 146/2450 = 73/1225, and the rest is even.
			// P(Jay) = 24/51 + 3/51 * ((1 - 73/1225)/2 + 73/1225)
			// = 24/51 + 3/51 * 649/1225 = (24 * 1225 + 1947)/(51 * 1225)
			// = 31347/62475 = 10449/20825.
			name:    "a 52-card deck by rank, one flip again, then ties to Jay",
			src:     flipSrc("reshuffle each round { 1..13 * 4 }", `tie { highest draw cards; tie: award "Jay" }`),
			rounds:  1,
			holders: []map[string]string{{"Jay": "10449/20825", "Rob": "10376/20825"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := compileInline(t, tc.src)
			start := time.Now()
			rep, err := p.Odds(ctx, runtime.Sides("Jay", "Rob"), runtime.OddsOptions{Rounds: tc.rounds})
			t.Logf("%v", time.Since(start))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []map[string]string
			for _, r := range rep.Rounds {
				got = append(got, ratStrings(r.Holder))
			}
			if diff := cmp.Diff(tc.holders, got); diff != "" {
				t.Errorf("holders (-want +got):\n%s", diff)
			}
			if tc.sequences != nil {
				if diff := cmp.Diff(tc.sequences, seqStrings(rep.Sequences)); diff != "" {
					t.Errorf("sequences (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestDeckOddsForkingAgreesWithReplay: forking order computations that
// draw from decks, merging the states their ties leave (fork.go), gives
// exactly the fractions the replay of every path gives, or the same
// error: decks per side and shared, reshuffled each round, when empty or
// by a rule, ties drawn again until the decks run out, three players
// whose ties leave other ties to draw for, and decks drawn by two orders.
func TestDeckOddsForkingAgreesWithReplay(t *testing.T) {
	ctx := context.Background()
	three := runtime.Sides("A", "B", "C")
	two := runtime.Sides("Jay", "Rob")
	cases := []struct {
		name   string
		src    string
		sides  []runtime.SideSpec
		rounds int
	}{
		{"per side, put back by a rule", flipSrc("per side reshuffle when empty { 1..4 }", "tie: reroll"), two, 3},
		{"per side, when empty", strings.Replace(flipSrc("per side reshuffle when empty { 1..4 }", "tie: reroll"), "reshuffle cards", "", 1), two, 3},
		{"per side, each round, runs out", flipSrc("per side reshuffle each round { 1..4 }", "tie: reroll"), two, 1},
		{"per side, a second tie to Jay", flipSrc("per side reshuffle each round { 1..4 }", `tie { highest draw cards; tie: award "Jay" }`), two, 2},
		{"shared, copies, put back", flipSrc("reshuffle when empty { 1..3 * 2 }", "tie: reroll"), two, 2},
		{"shared, copies, when empty", strings.Replace(flipSrc("reshuffle when empty { 1, 1, 2 }", "tie: reroll"), "reshuffle cards", "", 1), two, 3},
		{"three players, shared, put back", flipSrc("reshuffle when empty { 1..3 * 2 }", "tie: reroll"), three, 2},
		{"three players, per side, each round", flipSrc("per side reshuffle each round { 1..3 }", "tie: award tied[0].name"), three, 2},
		{"three players, per side, put back", flipSrc("per side reshuffle when empty { 1..3 }", "tie: reroll"), three, 1},
		{"two orders", dealSrc, two, 2},
		{"two orders, one deck", `ruleset two {
  sides 2
  deck cards reshuffle when empty { 1..3 * 2 }
  phase p {
    order sides as o {
      highest draw cards
      tie: reroll
    }
    order sides as q {
      lowest draw cards
      tie: award tied[0].name
    }
  }
}`, two, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := compileInline(t, c.src)
			opt := runtime.OddsOptions{Rounds: c.rounds}
			t0 := time.Now()
			want, werr := p.OddsByReplay(ctx, c.sides, opt)
			t1 := time.Now()
			got, gerr := p.Odds(ctx, c.sides, opt)
			t.Logf("replay %v, fork %v, error %v", t1.Sub(t0), time.Since(t1), werr)
			switch {
			case werr != nil || gerr != nil:
				if fmt.Sprint(werr) != fmt.Sprint(gerr) {
					t.Fatalf("replay fails with %v, fork with %v", werr, gerr)
				}
			default:
				if diff := cmp.Diff(oddsText(want), oddsText(got)); diff != "" {
					t.Errorf("(-replay +fork):\n%s", diff)
				}
				if got.Replays >= want.Replays && c.rounds > 1 {
					t.Logf("the forks took %d paths, the replay %d", got.Replays, want.Replays)
				}
			}
		})
	}
}

// BenchmarkOddsFlipDecks is the exact odds of
// examples/procedures/flip-decks.rules: two players flipping from decks
// of thirteen cards each, ties flipping again. Path by path, the ties
// took billions of paths; merged, the ties from twelve cards left are
// one sub-problem whatever the twelve are.
func BenchmarkOddsFlipDecks(b *testing.B) {
	src, err := os.ReadFile("../examples/procedures/flip-decks.rules")
	if err != nil {
		b.Fatal(err)
	}
	f, diags := dsl.Parse("flip-decks.rules", src)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	p, err := runtime.Compile(f)
	if err != nil {
		b.Fatal(err)
	}
	for _, rounds := range []int{1, 3} {
		b.Run(fmt.Sprintf("rounds=%d", rounds), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rep, err := p.Odds(context.Background(), p.Example(), runtime.OddsOptions{Rounds: rounds})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(rep.Replays), "paths")
			}
		})
	}
}
