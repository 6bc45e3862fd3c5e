package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// secretBids is a decision made by each side in secret, which an order
// reads, and which the next round remembers.
const secretBids = `ruleset bids {
  sides 2..
  side attribute pips int 1..6
  phase command {
    decide bid int 1..6 by each side secretly default random
    order sides as initiative {
      lowest bid
      tie: random
    }
    decide kick one of kick, receive by initiative.first
  }
  remember last_bid = sum(sides, .bid)
}`

func TestSecretDecisionRevealsAnswersTogether(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, secretBids)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob", "Kim"), runtime.WithDecider(runtime.AskHost{}), runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); !errors.Is(err, runtime.ErrPending) {
		t.Fatalf("StartRound: %v, want ErrPending", err)
	}
	for i, ans := range []string{"4", "2"} {
		req := b.Pending()
		if req == nil || req.Decision == nil || req.Decision.Kind != runtime.ChooseNumber || req.Decision.Name != "bid" || !req.Decision.Secret {
			t.Fatalf("answer %d: pending %+v, want the secret bid", i, req)
		}
		// What a side is asked holds nothing of the answers before it.
		if strings.Contains(req.String(), "4") && i > 0 || req.Decision.Default[0] != runtime.RandomAnswer {
			t.Errorf("answer %d: asked %q (default %v)", i, req, req.Decision.Default)
		}
		if err := b.Answer(ctx, runtime.ChoiceAnswer(ans)); !errors.Is(err, runtime.ErrPending) && err != nil {
			t.Fatal(err)
		}
		for _, ev := range b.Events() {
			if ev.Kind == runtime.EvDecision {
				t.Fatalf("answer %d: a secret answer was revealed before the last: %v", i, ev)
			}
		}
	}
	// Saved before the last answer, the battle plays on the same.
	save, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	// An answer given before the save that the decision refuses is
	// refused on restore, naming the journal's entry.
	bad := strings.Replace(string(save), `"4"`, `"9"`, 1)
	if _, err := p.Restore([]byte(bad)); err == nil || !strings.Contains(err.Error(), "journal[0]") || !strings.Contains(err.Error(), "the answer is a whole number from 1 to 6") {
		t.Errorf("a save with a bid of 9 given: %v", err)
	}
	r, err := p.Restore(save, runtime.WithDecider(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Answer(ctx, runtime.ChoiceAnswer("9")); !errors.Is(err, runtime.ErrInvalidAnswer) ||
		!strings.Contains(err.Error(), "the answer is a whole number from 1 to 6") {
		t.Fatalf("out-of-range answer: %v, want ErrInvalidAnswer", err)
	}
	if err := r.Answer(ctx, runtime.ChoiceAnswer("5")); err != nil || r.Pending() == nil {
		t.Fatalf("the last bid: %v, want the kick asked", err)
	}
	var got []string
	for _, ev := range r.Events() {
		if ev.Kind == runtime.EvDecision {
			got = append(got, ev.String())
		}
	}
	want := []string{"Jay decides bid: 4", "Rob decides bid: 2", "Kim decides bid: 5"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decision events (-want +got):\n%s", diff)
	}
	if req := r.Pending(); req == nil || req.Decision == nil || req.Decision.By != "Rob" || req.Decision.Name != "kick" {
		t.Fatalf("pending %+v, want Rob's kick (first in initiative)", req)
	}
	wantDecided := []runtime.Decided{{Name: "bid", Side: "Jay", Answer: "4"}, {Name: "bid", Side: "Rob", Answer: "2"}, {Name: "bid", Side: "Kim", Answer: "5"}}
	if diff := cmp.Diff(wantDecided, r.Decided()); diff != "" {
		t.Errorf("Decided (-want +got):\n%s", diff)
	}
	if err := r.Answer(ctx, runtime.ChoiceAnswer("receive")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.EndRound(ctx); err != nil {
		t.Fatal(err)
	}
	m := r.Memory()
	if m.Values["last_bid"] != 11 || m.Values["kick"] != "receive" {
		t.Errorf("memory %v, want last_bid 11 and kick receive", m.Values)
	}
	if bids, _ := m.Values["bid"].(map[string]any); bids["Kim"] != 5 {
		t.Errorf("previous.bid is %v, want Kim's 5 among them", m.Values["bid"])
	}
}

func TestDecisionSavesRefuseTampering(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, secretBids)
	d := runtime.NewScriptedDecider()
	d.Add("Jay", "3")
	d.Add("Rob", "1")
	d.Add("Rob", "kick")
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDecider(d))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	save, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Restore(save); err != nil {
		t.Fatalf("the untouched save: %v", err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{`"answer": "3"`, `"answer": "9"`, `current.decided[0].answer: "9" is no answer to bid`},
		{`"name": "kick"`, `"name": "punt"`, `current.decided[2].name: ruleset bids decides no punt`},
		{`"side": "Jay"`, `"side": "Kim"`, `current.decided[0].side: "Kim" is no side`},
		{`"name": "kick"`, `"name": "bid"`, `current.decided[2]: bid is decided twice`},
	} {
		bad := strings.Replace(string(save), tc.from, tc.to, 1)
		if bad == string(save) {
			t.Fatalf("%s is not in the save: %s", tc.from, save)
		}
		if _, err := p.Restore([]byte(bad)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s -> %s: %v, want %q", tc.from, tc.to, err, tc.want)
		}
	}
}

func TestAttributeRanges(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, secretBids+"\n")
	if a := p.SideAttrs()[0]; a.Default != 1 || *a.Min != 1 || *a.Max != 6 {
		t.Errorf("pips: %+v, want default 1 (0 is out of 1..6)", a)
	}
	if _, err := p.NewBattle([]runtime.SideSpec{{Name: "Jay", Attrs: map[string]any{"pips": 7}}, {Name: "Rob"}}); err == nil ||
		!strings.Contains(err.Error(), "7 is out of the range of pips, 1..6") {
		t.Errorf("a setup of 7 pips: %v", err)
	}
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SetAttr(ctx, "Jay", "pips", 0); !errors.Is(err, runtime.ErrInvalidChange) {
		t.Errorf("SetAttr 0 pips: %v, want ErrInvalidChange", err)
	}
	if err := b.SetAttr(ctx, "Jay", "pips", 6); err != nil {
		t.Errorf("SetAttr 6 pips: %v", err)
	}
	save, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(save), `"pips": 6`, `"pips": 60`, 1)
	if _, err := p.Restore([]byte(bad)); err == nil || !strings.Contains(err.Error(), "sides[0].attrs.pips: 60 is out of the range of pips, 1..6") {
		t.Errorf("a save of 60 pips: %v", err)
	}
}

func TestDecisionCompileErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"decide x int by holder", "needs the range of its answers"},
		{"decide x string by holder", "write `one of NAME, NAME`"},
		{"decide x bool by holder secretly", "only a decision made by each side can be made secretly"},
		{"decide x bool by winner", "names one of a tie"},
		{"decide x int 1..6 by holder default 7", "default 7 is not an answer"},
		{"decide x one of a, a by holder", "option a is listed twice"},
		{"decide x bool by nope.first", "there is no order named nope"},
	} {
		src := "ruleset r {\n phase p {\n order sides as o { highest roll d6\n tie: random }\n " + tc.src + "\n }\n}"
		f, diags := parseInline(src)
		if diags != nil {
			t.Fatalf("%s: %v", tc.src, diags)
		}
		_, err := runtime.Compile(f)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
}

func parseInline(src string) (*dsl.File, error) {
	f, diags := dsl.Parse("inline.rules", []byte(src))
	if diags.HasErrors() {
		return nil, diags
	}
	return f, nil
}

// heroicJay: Jay may declare a heroic move after a D6 roll-off, and goes
// first if it does. Rob and Jay each win the roll-off half the time.
const heroicJay = `ruleset heroic_jay {
  sides 2
  phase priority {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
    decide heroic bool by Jay default no
  }
  on end of phase priority when heroic {
    holder = "Jay"
  }
}`

// The odds of a decision under each policy, against values derived by
// hand. Jay holds priority when it declares, or else when it wins the
// roll-off (1/2): never declaring, 1/2; always, 1; at random, 1/2·1 +
// 1/2·1/2 = 3/4. Two rounds at random: 3/4 each round, independently,
// so Jay holds both with 9/16.
func TestDecisionOdds(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, heroicJay)
	for _, tc := range []struct {
		decider runtime.Decider
		jay     string
	}{
		{nil, "1/2"}, // the declared default, no
		{runtime.Answers{ByName: map[string]string{"heroic": "no"}}, "1/2"},
		{runtime.Answers{ByName: map[string]string{"heroic": "yes"}}, "1"},
		{runtime.Answers{ByName: map[string]string{"heroic": runtime.RandomAnswer}}, "3/4"},
	} {
		rep, err := p.Odds(ctx, runtime.Sides("Jay", "Rob"), runtime.OddsOptions{Rounds: 2, Decider: tc.decider})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Rounds {
			if got := r.Holder["Jay"].RatString(); got != tc.jay {
				t.Errorf("%v: round %d: P(Jay holds priority) = %s, want %s", tc.decider, r.Round, got, tc.jay)
			}
		}
		if tc.jay == "3/4" {
			got := ""
			for _, s := range rep.Sequences {
				if strings.Join(s.Outcome, ",") == "Jay,Jay" {
					got = s.P.RatString()
				}
			}
			if got != "9/16" {
				t.Errorf("at random: P(Jay, Jay) = %q, want 9/16", got)
			}
		}
	}
}

// An order that reads a decision is not the same from every state with
// the same sides: its odds must not be reused across answers. Each side
// bids 1 or 2 at random, the lower bid first and a tie to Jay: Rob goes
// first only when it bids 1 and Jay 2, 1/4.
func TestDecisionOddsOfAnOrderThatReadsIt(t *testing.T) {
	p := compileInline(t, `ruleset b2 {
  sides 2
  phase p {
    decide bid int 1..2 by each side default random
    order sides as priority {
      lowest bid
      tie: award "Jay"
    }
  }
}`)
	rep, err := p.Odds(context.Background(), runtime.Sides("Jay", "Rob"), runtime.OddsOptions{Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rounds {
		if got := r.Holder["Rob"].RatString(); got != "1/4" {
			t.Errorf("round %d: P(Rob holds priority) = %s, want 1/4", r.Round, got)
		}
	}
}

// Forking order computations gives the replay's fractions for decisions
// too: a secret bid at random that an order reads, a yes/no read by a
// rule, each under every answer policy.
func TestDecisionOddsForkingAgreesWithReplay(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		src     string
		decider runtime.Decider
	}{
		{secretBids, nil},
		{secretBids, runtime.Answers{ByName: map[string]string{"bid": "3", "kick": "kick"}}},
		{secretBids, runtime.Answers{ByName: map[string]string{"kick": runtime.RandomAnswer}}},
		{heroicJay, runtime.Answers{ByName: map[string]string{"heroic": runtime.RandomAnswer}}},
	} {
		p := compileInline(t, c.src)
		opt := runtime.OddsOptions{Rounds: 2, Decider: c.decider}
		want, err := p.OddsByReplay(ctx, runtime.Sides("Jay", "Rob"), opt)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Odds(ctx, runtime.Sides("Jay", "Rob"), opt)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(oddsText(want), oddsText(got)); diff != "" {
			t.Errorf("%s %v (-replay +fork):\n%s", p.Name(), c.decider, diff)
		}
	}
}

// A host asks each player for a secret bid over the network: what each
// is asked holds none of the others' bids, and the bids are revealed
// together once the last is in.
func ExampleBattle_Answer_secretDecision() {
	f, _ := dsl.Parse("bids.rules", []byte(`ruleset bids {
  phase command {
    decide bid int 1..6 by each side secretly default random
    order sides as initiative {
      lowest bid
      tie: random
    }
  }
}`))
	p, err := runtime.Compile(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDecider(runtime.AskHost{}))
	ctx := context.Background()
	_ = b.StartRound(ctx) // ErrPending: Jay's bid is asked
	for _, bid := range []string{"5", "2"} {
		fmt.Println("asked:", b.Pending())
		if err := b.Answer(ctx, runtime.ChoiceAnswer(bid)); err != nil {
			fmt.Println(err)
			return
		}
	}
	for _, d := range b.Decided() {
		fmt.Printf("%s bids %s\n", d.Side, d.Answer)
	}
	fmt.Println("order:", strings.Join(b.Order(), ", "))
	// Output:
	// asked: Jay decides bid secretly (a whole number from 1 to 6)
	// asked: Rob decides bid secretly (a whole number from 1 to 6)
	// Jay bids 5
	// Rob bids 2
	// order: Rob, Jay
}
