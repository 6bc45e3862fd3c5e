package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// TestRandomizerOddsByHand checks the exact odds of dice with named faces
// and of decks against values derived by hand.
func TestRandomizerOddsByHand(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		src       string
		sides     []runtime.SideSpec
		rounds    int
		holders   []map[string]string
		sequences map[string]string
	}{
		{
			// Each player flips a card from a 13-card deck of their own,
			// and the higher card goes first; a tie goes to Jay. Rob's
			// card ties Jay's with 1/13 and each wins outright with 6/13:
			// P(Jay first) = 6/13 + 1/13 = 7/13.
			name: "a deck per side, one flip, ties to Jay",
			src: `ruleset flip {
  sides 2
  deck cards per side { 1..13 }
  phase p {
    order sides as o {
      highest draw cards
      tie: award tied[0].name
    }
  }
}`,
			sides: runtime.Sides("Jay", "Rob"), rounds: 1,
			holders: []map[string]string{{"Jay": "7/13", "Rob": "6/13"}},
		},
		{
			// The same with ties flipped again, without replacement, from
			// four cards each. After a tie both decks have lost the same
			// value and hold the same cards, so every flip is symmetric:
			// P(Jay first) = 1/2. The fourth flip of a fourth tie (1/4 *
			// 1/3 * 1/2) is of the last card of each deck, the same value:
			// it always ties, the decks are empty, and the next flip
			// reshuffles them, back to where the round began. That loop is
			// conditioned away, as a roll that ties again is. (With
			// thirteen cards each this is exactly the same, 1/2: see
			// TestDeckOddsByHand, where the cards go back at the end of
			// the round, which the analysis needs to merge the ties.)
			name: "decks per side, ties flip again without replacement",
			src: `ruleset flip {
  sides 2
  deck cards per side reshuffle when empty { 1..4 }
  phase p {
    order sides as o {
      highest draw cards
      tie: reroll
    }
  }
}`,
			sides: runtime.Sides("Jay", "Rob"), rounds: 1,
			holders: []map[string]string{{"Jay": "1/2", "Rob": "1/2"}},
		},
		{
			// A shared deck of 1, 1 and 2, reshuffled when empty; Jay
			// draws first, and a tie draws again from what is left.
			//   Jay 2 (1/3): Rob draws a 1: Jay.
			//   Jay 1 (2/3): Rob draws the 2 (1/2): Rob; the other 1
			//   (1/2): a tie, and the 2 is left. Jay draws it; the deck
			//   is empty and reshuffled for Rob: a 1 (2/3): Jay; the 2
			//   (1/3): a tie, with 1 and 1 left, which tie again, and the
			//   next draw reshuffles: back where the round began.
			// Jay directly: 1/3 + 2/3 * 1/2 * 2/3 = 5/9; Rob directly:
			// 2/3 * 1/2 = 1/3; back to the start: 2/3 * 1/2 * 1/3 = 1/9.
			// Conditioned on not looping: Jay 5/9 / 8/9 = 5/8, Rob 3/8.
			name: "a loop of ties through a reshuffle",
			src: `ruleset loop {
  sides 2
  deck cards reshuffle when empty { 1 * 2, 2 }
  phase p {
    order sides as o {
      highest draw cards
      tie: reroll
    }
  }
}`,
			sides: runtime.Sides("Jay", "Rob"), rounds: 1,
			holders: []map[string]string{{"Jay": "5/8", "Rob": "3/8"}},
		},
		{
			// The priority die: blank (0) on 3 faces, hit (1) on 2, crit
			// (2) on 1; Jay adds 1. X is Jay's face, Y Rob's.
			//   X = 0 (1/2): Jay 1 beats Y = 0 (1/2), ties Y = 1 (1/3),
			//                loses to Y = 2 (1/6).
			//   X = 1 (1/3): Jay 2 beats Y = 0, 1 (5/6), ties Y = 2 (1/6).
			//   X = 2 (1/6): Jay 3 beats every Y.
			// P(Jay wins) = 1/4 + 5/18 + 1/6 = 25/36; P(tie) = 1/6 + 1/18
			// = 8/36; P(Rob wins) = 1/12 = 3/36. A tie rolls again, so
			// P(Jay first) = 25/28 and P(Rob first) = 3/28.
			name: "a die of named faces and a modifier",
			src: `ruleset prio {
  sides 2
  side attribute bonus int = 0
  die priority { blank * 3, hit = 1 * 2, crit = 2 }
  phase p {
    order sides as o {
      highest roll priority + bonus
      tie: reroll
    }
  }
}`,
			sides:   []runtime.SideSpec{{Name: "Jay", Attrs: map[string]any{"bonus": 1}}, {Name: "Rob"}},
			rounds:  1,
			holders: []map[string]string{{"Jay": "25/28", "Rob": "3/28"}},
		},
		{
			// One shared deck of eight cards, 1 to 4 twice, never
			// reshuffled; Jay is dealt first, and a tie goes to Jay.
			// Round 1: Rob ties Jay only by drawing the twin of Jay's card,
			// 1 of the 7 left: P(tie) = 1/7, and Jay and Rob each win
			// outright with 3/7. So P(Jay) = 4/7.
			// Round 2, from the six cards left:
			//   after a tie, three pairs are left: Rob draws the twin with
			//   1/5, so Jay holds with 1/2 + 1/10 = 3/5;
			//   after no tie, two pairs and two single cards: a tie needs
			//   Jay to draw a pair's card (4/6) and Rob its twin (1/5):
			//   2/15, so Jay holds with 1/2 + 1/15 = 17/30.
			// P(Jay, Jay) = 1/7 * 3/5 + 3/7 * 17/30 = 6/70 + 17/70 = 23/70;
			// P(Jay, Rob) = 1/7 * 2/5 + 3/7 * 13/30 = 4/70 + 13/70 = 17/70;
			// P(Rob, Jay) = 3/7 * 17/30 = 17/70; P(Rob, Rob) = 3/7 * 13/30
			// = 13/70. Round 2 alone: Jay 40/70 = 4/7, as exchangeable
			// cards say it must be. The two deck states after round 1 must
			// not be merged: merged, round 2 would not depend on round 1.
			name: "a shared deck with duplicate values",
			src: `ruleset shared {
  sides 2
  deck cards { 1..4, 1..4 }
  phase p {
    order sides as o {
      highest draw cards
      tie: award tied[0].name
    }
  }
}`,
			sides: runtime.Sides("Jay", "Rob"), rounds: 2,
			holders: []map[string]string{{"Jay": "4/7", "Rob": "3/7"}, {"Jay": "4/7", "Rob": "3/7"}},
			sequences: map[string]string{
				"Jay,Jay": "23/70", "Jay,Rob": "17/70", "Rob,Jay": "17/70", "Rob,Rob": "13/70",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := compileInline(t, tc.src)
			rep, err := p.Odds(ctx, tc.sides, runtime.OddsOptions{Rounds: tc.rounds})
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

const dealSrc = `ruleset deal {
  sides 2
  deck cards { 1..4, ace = 5 }
  deck own per side { 1..3 }
  die prio { blank * 2, crown = 1 }
  phase p {
    order sides as o {
      highest draw cards
      tie: reroll
    }
    order sides as mine {
      highest draw own
      tie: highest roll prio
      tie: reroll
    }
  }
}`

// TestDecksSaveAndRestore checks that what is left of each deck is in a
// snapshot, comes back from it, and plays on the same: a restored battle
// and a clone deal the cards the original deals.
func TestDecksSaveAndRestore(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, dealSrc)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(7)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	snap, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(snap), `"decks"`) {
		t.Fatalf("the snapshot has no decks:\n%s", snap)
	}
	for _, d := range b.Decks() {
		whole := map[string]int{"cards": 5, "own": 3}[d.Deck]
		if d.Deck == "cards" && len(d.Left) != whole-2 || d.Deck == "own" && (d.Side == "" || len(d.Left) > whole-1) {
			t.Errorf("after round 1, %+v is not what two draws (and rerolls) leave", d)
		}
	}
	r, err := p.Restore(snap)
	if err != nil {
		t.Fatal(err)
	}
	again, err := r.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(snap), string(again)); diff != "" {
		t.Fatalf("the snapshot does not round-trip (-saved +restored):\n%s", diff)
	}
	c := b.Clone()
	want, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for name, other := range map[string]*runtime.Battle{"restored": r, "clone": c} {
		got, err := other.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.Events, got.Events); diff != "" {
			t.Errorf("%s: round 2 differs (-original +%s):\n%s", name, name, diff)
		}
	}
}

// TestRestoreRefusesDecksPlayCannotReach checks that a snapshot's decks are
// refused, naming the field, when they hold what the deck never held.
func TestRestoreRefusesDecksPlayCannotReach(t *testing.T) {
	p := compileInline(t, dealSrc)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"))
	if err != nil {
		t.Fatal(err)
	}
	snap, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		decks, want string
	}{
		{`[{"deck":"cards","left":["1","joker"]}]`, `decks\[0\]\.left\[1\]: "joker" is not a card of cards \(1, 2, 3, 4, ace\)`},
		{`[{"deck":"cards","left":["2","2"]}]`, `decks\[0\]\.left\[0\]: 2 is left 2 times, but cards holds 1`},
		{`[{"deck":"dealt","left":[]}]`, `decks\[0\]\.deck: ruleset deal has no deck or bag "dealt"`},
		{`[{"deck":"prio","left":[]}]`, `decks\[0\]\.deck: prio is a die`},
		{`[{"deck":"own","side":"Ann","left":[]}]`, `decks\[0\]\.side: own is a deck per side, and "Ann" is no side of the battle`},
		{`[{"deck":"cards","side":"Jay","left":[]}]`, `decks\[0\]\.side: cards is one deck shared by every side, not Jay's`},
		{`[{"deck":"cards"}]`, `decks\[0\]\.left: missing`},
		{`[{"deck":"cards","left":[]},{"deck":"cards","left":["1"]}]`, `decks\[1\]: the deck cards is listed twice`},
	}
	if _, err := b.PlayRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	zero := snap
	if snap, err = b.Snapshot(); err != nil {
		t.Fatal(err)
	}
	t.Run("before round 1", func(t *testing.T) {
		bad := strings.Replace(string(zero), `"round": 0,`, `"round": 0, "decks": [{"deck":"cards","left":[]}],`, 1)
		if _, err := p.Restore([]byte(bad)); err == nil || !strings.Contains(err.Error(), "decks: a deck has been drawn from, but round is 0") {
			t.Errorf("restored decks drawn from before round 1: %v", err)
		}
	})
	for _, tc := range tests {
		t.Run(tc.decks, func(t *testing.T) {
			var doc map[string]json.RawMessage
			if err := json.Unmarshal(snap, &doc); err != nil {
				t.Fatal(err)
			}
			doc["decks"] = json.RawMessage(tc.decks)
			bad, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Restore(bad)
			if err == nil {
				t.Fatalf("restored decks %s", tc.decks)
			}
			if !regexp.MustCompile(tc.want).MatchString(err.Error()) {
				t.Errorf("error %q does not match %q", err, tc.want)
			}
		})
	}
}

// TestHostAnswersADraw checks that a draw the host answers is of a card
// left in the deck: a card drawn already, or never in it, is refused.
func TestHostAnswersADraw(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, dealSrc)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); !errors.Is(err, runtime.ErrPending) {
		t.Fatalf("StartRound: %v, want pending", err)
	}
	req := b.Pending()
	if req.Roll == nil || req.Roll.Kind != "deck" || req.Roll.Randomizer != "cards" || !slices.Equal(req.Roll.Subjects, []string{"Jay"}) {
		t.Fatalf("pending %+v, want Jay's draw from cards", req)
	}
	if got, want := req.String(), "draw from deck cards for Jay (left: 1, 2, 3, 4, ace) (order o)"; got != want {
		t.Errorf("request says %q, want %q", got, want)
	}
	if err := b.Answer(ctx, runtime.LabelAnswer("joker")); !errors.Is(err, runtime.ErrInvalidAnswer) {
		t.Fatalf("a card never in the deck: %v, want ErrInvalidAnswer", err)
	}
	if err := b.Answer(ctx, runtime.LabelAnswer("ace")); !errors.Is(err, runtime.ErrPending) && err != nil {
		t.Fatal(err)
	}
	req = b.Pending()
	if req == nil || req.Roll == nil || !slices.Equal(req.Roll.Labels, []string{"1", "2", "3", "4"}) {
		t.Fatalf("Rob's draw: %+v, want the four cards left", req)
	}
	// Saved here, in the middle of the deal, the battle comes back waiting
	// for the same draw.
	snap, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Restore(snap, runtime.WithDice(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(req, r.Pending()); diff != "" {
		t.Errorf("restored, the battle waits for another draw (-saved +restored):\n%s", diff)
	}
	err = b.Answer(ctx, runtime.LabelAnswer("ace"))
	if !errors.Is(err, runtime.ErrInvalidAnswer) || !strings.Contains(err.Error(), "ace is not left in deck cards (left: 1, 2, 3, 4)") {
		t.Fatalf("a card drawn already: %v, want ErrInvalidAnswer saying what is left", err)
	}
	if err := b.Answer(ctx, runtime.RollAnswer(5)); !errors.Is(err, runtime.ErrInvalidAnswer) {
		t.Fatalf("a result past the cards left: %v, want ErrInvalidAnswer", err)
	}
	if err := b.Answer(ctx, runtime.RollAnswer(2)); !errors.Is(err, runtime.ErrPending) && err != nil {
		t.Fatal(err)
	}
	if ev := b.Events(); !slices.ContainsFunc(ev, func(e runtime.Event) bool {
		return e.Kind == runtime.EvDraw && e.Subject == "Rob" && e.Face == "2"
	}) {
		t.Errorf("no event of Rob drawing the 2: %v", ev)
	}
}

// TestRandomizerOddsMatchSimulation plays the rulesets of
// TestRandomizerOddsByHand with seeded dice, which draw one card after
// another as a table does, and checks that how often each side holds
// priority is within a few standard errors of the exact odds.
func TestRandomizerOddsMatchSimulation(t *testing.T) {
	ctx := context.Background()
	const runs = 20_000
	for _, tc := range []struct {
		name, src string
		sides     []runtime.SideSpec
		rounds    int
	}{
		{"a loop of ties through a reshuffle", `ruleset loop {
  sides 2
  deck cards reshuffle when empty { 1 * 2, 2 }
  phase p {
    order sides as o {
      highest draw cards
      tie: reroll
    }
  }
}`, runtime.Sides("Jay", "Rob"), 1},
		{"a shared deck with duplicate values", `ruleset shared {
  sides 2
  deck cards { 1..4, 1..4 }
  phase p {
    order sides as o {
      highest draw cards
      tie: award tied[0].name
    }
  }
}`, runtime.Sides("Jay", "Rob"), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := compileInline(t, tc.src)
			exact, err := p.Odds(ctx, tc.sides, runtime.OddsOptions{Rounds: tc.rounds})
			if err != nil {
				t.Fatal(err)
			}
			sim, err := p.Simulate(ctx, tc.sides, runtime.SimOptions{Runs: runs, Rounds: tc.rounds, Seed: 5})
			if err != nil {
				t.Fatal(err)
			}
			for r, ro := range exact.Rounds {
				for side, want := range ro.Holder {
					w, _ := want.Float64()
					got := float64(sim.Holder[r][side]) / runs
					// Four standard errors of a proportion.
					if tol := 4 * math.Sqrt(w*(1-w)/runs); math.Abs(got-w) > tol {
						t.Errorf("round %d, %s: simulated %.4f, exact %s (%.4f)", r+1, side, got, want.RatString(), w)
					}
				}
			}
		})
	}
}

// TestUnitsDrawFromTheirSidesDecks checks that, with a deck per side, a
// unit draws from its own side's deck: two units of a side cannot draw
// the same card, units of two sides can.
func TestUnitsDrawFromTheirSidesDecks(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset units {
  sides 2
  deck own per side reshuffle each round { 1..2 }
  phase p {
    order units as o {
      highest draw own
      tie: random
    }
  }
}`)
	sides := []runtime.SideSpec{
		{Name: "Jay", Units: []runtime.UnitSpec{{Name: "j1"}, {Name: "j2"}}},
		{Name: "Rob", Units: []runtime.UnitSpec{{Name: "r1"}, {Name: "r2"}}},
	}
	dice := runtime.NewScriptedDice()
	for _, d := range [][2]string{{"j1", "1"}, {"j2", "2"}, {"r1", "2"}, {"r2", "1"}} {
		dice.AddFace(d[0], d[1], true)
	}
	dice.AddPick("j2")
	dice.AddPick("r2")
	b, err := p.NewBattle(sides, runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"j2", "r1", "r2", "j1"}, res.Order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	dice.AddFace("j1", "1", true)
	dice.AddFace("j2", "1", true)
	_, err = b.PlayRound(ctx)
	if err == nil || !strings.Contains(err.Error(), "scripted draw 1 for j2 is not left in Jay's deck own (left: 2)") {
		t.Errorf("j2 drew the 1 j1 drew: %v", err)
	}
}
