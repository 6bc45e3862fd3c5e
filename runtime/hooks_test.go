package runtime_test

// Tests of hooks: the points of a round fire in declared order,
// the ruleset's handlers and Go hooks run at each, and both can change the
// battle (set an attribute, ready a unit, override the holder).

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// hookRules has a handler at every kind of point, some points with two
// handlers, and a named hook point without a handler. Each handler is on
// a line of its own, so the line in an event's position says which one ran.
const hookRules = `ruleset hooks {
  sides 2
  side attribute bonus int
  phase priority {
    hook before_roll
    step "Roll" {
      order sides as priority {
        highest roll d6 + bonus
        tie: reroll
      }
      hook rolled
    }
    step "Ready" {
      ready units
    }
    hook unhandled
  }
  phase cleanup {
    hook tidy
  }
  activation alternate by priority

  on end of round {}
  on start of round {}
  on start of phase priority {}
  on hook before_roll {}
  on end of phase priority {}
  on start of step "Roll" {}
  on end of step "Roll" {}
  on start of step "Ready" {}
  on hook rolled {}
  on hook rolled {}
  on hook tidy when round == 2 {}
  on start of round {}
  on end of phase cleanup {}
}
`

// handlerLine returns the line of the nth handler (from 0) of hookRules
// that contains needle.
func handlerLine(t *testing.T, needle string, nth int) int {
	t.Helper()
	n := 0
	for i, line := range strings.Split(hookRules, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "on ") && strings.Contains(line, needle) {
			if n == nth {
				return i + 1
			}
			n++
		}
	}
	t.Fatalf("no handler #%d with %q", nth, needle)
	return 0
}

// timeline renders the events of a round that show when hooks ran
// relative to the rest: "hook on start of round @24" for a handler (with
// its line), "hook hook rolled" for a named point, and the rolls,
// placements, Ready markers and activations between them.
func timeline(evs []runtime.Event) []string {
	var out []string
	for _, e := range evs {
		switch e.Kind {
		case runtime.EvHook:
			s := "hook " + e.Detail
			if e.Pos != "" {
				var file string
				var line, col int
				if _, err := fmt.Sscanf(strings.ReplaceAll(e.Pos, ":", " "), "%s %d %d", &file, &line, &col); err == nil {
					s += fmt.Sprintf(" @%d", line)
				} else {
					s += " @" + e.Pos
				}
			}
			out = append(out, s)
		case runtime.EvRoll:
			out = append(out, fmt.Sprintf("roll %s=%d", e.Subject, *e.Total))
		case runtime.EvPlacement, runtime.EvReady, runtime.EvNotReady, runtime.EvHolder, runtime.EvSet, runtime.EvRoundStart, runtime.EvRoundEnd:
			out = append(out, fmt.Sprintf("%s %s", e.Kind, e.Subject))
		case runtime.EvActivate:
			out = append(out, "activate "+e.Subject)
		case runtime.EvPass:
			out = append(out, "pass "+e.By)
		}
	}
	return out
}

func hookSides() []runtime.SideSpec {
	return []runtime.SideSpec{
		{Name: "A", Units: []runtime.UnitSpec{{Name: "a1"}}},
		{Name: "B", Units: []runtime.UnitSpec{{Name: "b1"}}},
	}
}

// Must show 5: hooks fire in declared order.
func TestHooksFireInOrder(t *testing.T) {
	p := compileInline(t, hookRules)
	var goSaw []string
	goHook := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
		goSaw = append(goSaw, fmt.Sprintf("%d %s", b.Round(), at))
		return nil
	}
	dice := runtime.NewScriptedDice()
	for _, r := range []roll{{"A", 5}, {"B", 2}, {"A", 1}, {"B", 4}} {
		dice.AddRoll(r.who, r.v)
	}
	b, err := p.NewBattle(hookSides(), runtime.WithDice(dice), runtime.WithHook(goHook))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	line := func(needle string, nth int) string { return fmt.Sprintf(" @%d", handlerLine(t, needle, nth)) }

	round := func(first, second string, rolls, acts []string, tidy bool) []string {
		tl := []string{
			"round_start ",
			// Two handlers for the start of the round: in declared order.
			"hook on start of round" + line("on start of round", 0),
			"hook on start of round" + line("on start of round", 1),
			"hook on start of phase priority" + line("on start of phase priority", 0),
			// A named hook point: the point itself, then its handler.
			"hook hook before_roll",
			"hook on hook before_roll" + line("on hook before_roll", 0),
			"hook on start of step Roll" + line(`on start of step "Roll"`, 0),
		}
		tl = append(tl, rolls...)
		tl = append(tl,
			"placement "+first, "placement "+second,
			"hook hook rolled",
			"hook on hook rolled"+line("on hook rolled", 0),
			"hook on hook rolled"+line("on hook rolled", 1),
			"hook on end of step Roll"+line(`on end of step "Roll"`, 0),
			"hook on start of step Ready"+line(`on start of step "Ready"`, 0),
			"ready a1", "ready b1",
			// No handler for the end of step Ready nor for hook unhandled:
			// only the named point shows.
			"hook hook unhandled",
			"hook on end of phase priority"+line("on end of phase priority", 0),
		)
		tl = append(tl, "hook hook tidy")
		if tidy {
			tl = append(tl, "hook on hook tidy"+line("on hook tidy", 0))
		}
		tl = append(tl,
			"hook on end of phase cleanup"+line("on end of phase cleanup", 0),
		)
		tl = append(tl, acts...)
		return append(tl,
			"hook on end of round"+line("on end of round", 0),
			"round_end ",
		)
	}
	res1, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want1 := round("A", "B", []string{"roll A=5", "roll B=2"}, []string{"activate a1", "activate b1"}, false)
	if diff := cmp.Diff(want1, timeline(res1.Events)); diff != "" {
		t.Errorf("round 1 (-want +got):\n%s", diff)
	}
	res2, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Round 2: the guarded handler of hook tidy runs too.
	want2 := round("B", "A", []string{"roll A=1", "roll B=4"}, []string{"activate b1", "activate a1"}, true)
	if diff := cmp.Diff(want2, timeline(res2.Events)); diff != "" {
		t.Errorf("round 2 (-want +got):\n%s", diff)
	}

	// The Go hook runs at every point, handled or not, in the same order.
	var wantGo []string
	for r := 1; r <= 2; r++ {
		for _, at := range []string{
			"start of round", "start of phase priority", "hook before_roll", "start of step Roll", "hook rolled",
			"end of step Roll", "start of step Ready", "end of step Ready", "hook unhandled", "end of phase priority",
			"start of phase cleanup", "hook tidy", "end of phase cleanup", "end of round",
		} {
			wantGo = append(wantGo, fmt.Sprintf("%d %s", r, at))
		}
	}
	if diff := cmp.Diff(wantGo, goSaw); diff != "" {
		t.Errorf("Go hook calls (-want +got):\n%s", diff)
	}
}

// The Go hooks run after the ruleset's handlers at the same point, and in
// the order they were added.
func TestGoHooksAfterHandlers(t *testing.T) {
	p := compileInline(t, hookRules)
	var seen []string
	mk := func(name string) runtime.HostHook {
		return func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
			if at == (runtime.HookPoint{Kind: "hook", Name: "rolled"}) {
				// The handlers' events are already in the transcript.
				n := 0
				for _, e := range b.Events() {
					if e.Kind == runtime.EvHook && e.Subject == "rolled" {
						n++
					}
				}
				seen = append(seen, fmt.Sprintf("%s after %d events", name, n))
			}
			return nil
		}
	}
	dice := runtime.NewScriptedDice()
	dice.AddRoll("A", 5)
	dice.AddRoll("B", 2)
	b, err := p.NewBattle(hookSides(), runtime.WithDice(dice), runtime.WithHook(mk("first")), runtime.WithHook(mk("second")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"first after 3 events", "second after 3 events"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A Go hook's error stops the round and names the point.
func TestGoHookError(t *testing.T) {
	p := compileInline(t, hookRules)
	boom := errors.New("the table fell over")
	hook := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
		if at.Kind == "step" && at.Edge == "end" && at.Name == "Roll" {
			return boom
		}
		return nil
	}
	dice := runtime.NewScriptedDice()
	dice.AddRoll("A", 5)
	dice.AddRoll("B", 2)
	b, err := p.NewBattle(hookSides(), runtime.WithDice(dice), runtime.WithHook(hook))
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.PlayRound(context.Background())
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "end of step Roll") {
		t.Errorf("PlayRound: %v, want the hook's error at the end of step Roll", err)
	}
}

// holderRules is a Necromunda-like ruleset with a special rule: from the
// second round, the side that lost the roll-off takes priority.
const holderRules = `ruleset underdog {
  sides 2
  phase priority {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
  activation alternate by priority
  on end of phase priority when round >= 2 and previous.holder != "" {
    holder = map(filter(sides, .name != holder), .name)[0]
  }
}
`

// Must show 5: a ruleset hook that overrides the holder.
func TestRulesetHookOverridesHolder(t *testing.T) {
	p := compileInline(t, holderRules)
	dice := runtime.NewScriptedDice()
	// A wins every roll-off.
	for range 3 {
		dice.AddRoll("A", 6)
		dice.AddRoll("B", 1)
	}
	b, err := p.NewBattle(hookSides(), runtime.WithDice(dice), runtime.WithDecider(activationPolicy))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	type got struct {
		Holder string
		Order  []string
		Acts   []runtime.ActivationRecord
		Prev   string // previous.holder during the round
		Events []string
	}
	wants := []got{
		// Round 1: the guard is false; A won and holds priority.
		{"A", []string{"A", "B"}, []runtime.ActivationRecord{act("A", "a1"), act("B", "b1")}, "",
			[]string{"placement A", "placement B"}},
		// Rounds 2 and 3: the handler gives priority to B, who acts first.
		{"B", []string{"B", "A"}, []runtime.ActivationRecord{act("B", "b1"), act("A", "a1")}, "A",
			[]string{"placement A", "placement B", "hook on end of phase priority", "holder B"}},
		{"B", []string{"B", "A"}, []runtime.ActivationRecord{act("B", "b1"), act("A", "a1")}, "B",
			[]string{"placement A", "placement B", "hook on end of phase priority", "holder B"}},
	}
	for i, w := range wants {
		prev := b.Memory().Holder
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatalf("round %d: %v", i+1, err)
		}
		var evs []string
		for _, e := range res.Events {
			switch e.Kind {
			case runtime.EvPlacement, runtime.EvHolder:
				evs = append(evs, fmt.Sprintf("%s %s", e.Kind, e.Subject))
			case runtime.EvHook:
				evs = append(evs, "hook "+e.Detail)
			}
		}
		g := got{res.Holder, res.Order, res.Activations, prev, evs}
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("round %d (-want +got):\n%s", i+1, diff)
		}
		// The override is this round's: the standing the dice made is
		// kept as it was, and the holder event says why B goes first.
		if st := b.Standing("priority"); i > 0 && (st == nil || st.Order[0] != "A") {
			t.Errorf("round %d: the special rule should not rewrite the standing: %+v", i+1, st)
		}
	}
	// The overridden holder is what the next round remembers.
	if b.Memory().Holder != "B" {
		t.Errorf("previous.holder after round 3 = %q, want B", b.Memory().Holder)
	}
}

// Must show 5: a Go hook overrides the holder, and another changes an
// attribute that the roll-off reads.
func TestGoHookChangesState(t *testing.T) {
	ctx := context.Background()

	t.Run("SetHolder", func(t *testing.T) {
		p := mustProgram(t, "necromunda")
		hook := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
			// "The player with the fewest fighters left takes priority
			// instead" (a scenario's special rule), at the end of the roll.
			if at == (runtime.HookPoint{Edge: "end", Kind: "step", Name: "Roll For Priority"}) {
				fewest := ""
				for _, s := range b.Sides() {
					if fewest == "" || len(s.Units) < len(b.Side(fewest).Units) {
						fewest = s.Name
					}
				}
				return b.SetHolder(fewest)
			}
			return nil
		}
		dice := runtime.NewScriptedDice()
		dice.AddRoll("Goliaths", 2)
		dice.AddRoll("Eschers", 6)
		b, err := p.NewBattle(gangs(), runtime.WithDice(dice), runtime.WithDecider(activationPolicy), runtime.WithHook(hook))
		if err != nil {
			t.Fatal(err)
		}
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// The Eschers (2 fighters) won the roll, but... they have the fewest
		// fighters too. Check the holder is the Eschers and nothing changed.
		if res.Holder != "Eschers" {
			t.Errorf("holder %q, want Eschers", res.Holder)
		}

		// Now with the Goliaths winning the roll: the hook hands priority to
		// the Eschers, and they activate first.
		dice.AddRoll("Goliaths", 6)
		dice.AddRoll("Eschers", 2)
		res, err = b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Holder != "Eschers" || res.Order[0] != "Eschers" {
			t.Errorf("round 2: holder %q order %v, want the Eschers first", res.Holder, res.Order)
		}
		want := []runtime.ActivationRecord{
			act("Eschers", "Mira"), act("Goliaths", "Krug"), act("Eschers", "Sable"), act("Goliaths", "Volk"),
		}
		if diff := cmp.Diff(want, res.Activations); diff != "" {
			t.Errorf("round 2 activations (-want +got):\n%s", diff)
		}
		if err := b.SetHolder("Nobody"); err == nil {
			t.Error("SetHolder of a side not in the order succeeded")
		}
	})

	t.Run("SetAttr before the roll", func(t *testing.T) {
		p := compileInline(t, hookRules)
		// At the start of each round the host gives B a +2 bonus.
		hook := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
			if at.Kind == "round" && at.Edge == "start" {
				return b.SetAttr(ctx, "B", "bonus", 2)
			}
			return nil
		}
		dice := runtime.NewScriptedDice()
		dice.AddRoll("A", 4)
		dice.AddRoll("B", 3)
		b, err := p.NewBattle(hookSides(), runtime.WithDice(dice), runtime.WithHook(hook))
		if err != nil {
			t.Fatal(err)
		}
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var rolls []string
		for _, e := range res.Events {
			if e.Kind == runtime.EvRoll {
				rolls = append(rolls, fmt.Sprintf("%s %d+%d=%d", e.Subject, *e.Value, *e.Total-*e.Value, *e.Total))
			}
		}
		if diff := cmp.Diff([]string{"A 4+0=4", "B 3+2=5"}, rolls); diff != "" {
			t.Errorf("rolls (-want +got):\n%s", diff)
		}
		if res.Holder != "B" {
			t.Errorf("holder %q, want B (3 + 2 beats 4)", res.Holder)
		}
	})

	t.Run("SetAttr recomputes an until-changed card", func(t *testing.T) {
		p := mustProgram(t, "agi")
		// In round 2, at the start of the turn-order phase, Bran is slowed.
		hook := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
			if b.Round() == 2 && at == (runtime.HookPoint{Edge: "start", Kind: "phase", Name: "turn_order"}) {
				return b.SetAttr(ctx, "Bran", "agi", 1)
			}
			return nil
		}
		sides := []runtime.SideSpec{
			{Name: "A", Team: "Red", Units: []runtime.UnitSpec{{Name: "Aria", Attrs: map[string]any{"agi": 3}}}},
			{Name: "B", Team: "Blue", Units: []runtime.UnitSpec{{Name: "Bran", Attrs: map[string]any{"agi": 5}}}},
		}
		b, err := p.NewBattle(sides, runtime.WithDice(runtime.NewScriptedDice()), runtime.WithHook(hook))
		if err != nil {
			t.Fatal(err)
		}
		for round, want := range [][]string{{"Bran", "Aria"}, {"Aria", "Bran"}} {
			res, err := b.PlayRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, activated(res.Activations)); diff != "" {
				t.Errorf("round %d: activations (-want +got):\n%s", round+1, diff)
			}
			if res.Holder != want[0] {
				t.Errorf("round %d: holder %q, want %q", round+1, res.Holder, want[0])
			}
		}
	})
}

// A ruleset handler that sets an attribute: the until-changed card reacts
// at once, and a guard limits the handler to one round.
const slowRules = `ruleset slow {
  sides 2..
  unit attribute agi int
  phase turn_order {
    order units as card until changed agi {
      highest agi
      tie: choice order by team default keep
    }
  }
  activation unit_order by card
  on start of round when round == 2 {
    set agi of "Bran" = agi_of("Aria") - 1
  }
}
`

func TestRulesetHookSetsAttribute(t *testing.T) {
	agiOf := runtime.WithFunction("agi_of", func(params ...any) (any, error) {
		// Only called with "Aria", who always has 3.
		if params[0] != "Aria" {
			return nil, fmt.Errorf("agi_of(%v)", params[0])
		}
		return 3, nil
	}, new(func(string) int))
	p := compileInline(t, slowRules, agiOf)
	sides := []runtime.SideSpec{
		{Name: "A", Team: "Red", Units: []runtime.UnitSpec{{Name: "Aria", Attrs: map[string]any{"agi": 3}}}},
		{Name: "B", Team: "Blue", Units: []runtime.UnitSpec{{Name: "Bran", Attrs: map[string]any{"agi": 5}}}},
	}
	b, err := p.NewBattle(sides, runtime.WithDice(runtime.NewScriptedDice()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for round, want := range [][]string{{"Bran", "Aria"}, {"Aria", "Bran"}, {"Aria", "Bran"}} {
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, activated(res.Activations)); diff != "" {
			t.Errorf("round %d: activations (-want +got):\n%s", round+1, diff)
		}
		if round == 1 {
			var sets []string
			for _, e := range res.Events {
				if e.Kind == runtime.EvSet {
					sets = append(sets, e.Detail)
				}
			}
			if diff := cmp.Diff([]string{"agi of Bran is now 2"}, sets); diff != "" {
				t.Errorf("round 2: set events (-want +got):\n%s", diff)
			}
		}
	}
	if got := b.Unit("Bran").Attrs["agi"]; got != 2 {
		t.Errorf("Bran's agi = %v, want 2", got)
	}
}

// A holder set by a special rule lasts one round, even when the order is
// kept for the whole battle.
func TestSetHolderLastsOneRound(t *testing.T) {
	p := mustProgram(t, "morturi")
	override := runtime.WithHook(func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
		if b.Round() == 1 && at == (runtime.HookPoint{Edge: "end", Kind: "phase", Name: "priority"}) {
			return b.SetHolder("Ludi Aeternum")
		}
		return nil
	})
	b, err := p.NewBattle(p.Example(), override)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 3 {
		res, err := b.PlayRound(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Holder+" first: "+res.Activations[0].Side)
	}
	want := []string{
		"Ludi Aeternum first: Ludi Aeternum",
		"Malleus Deus first: Malleus Deus",
		"Malleus Deus first: Malleus Deus",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("holders by round (-want +got):\n%s", diff)
	}
}

// A Go hook may change the battle, but not play or undo the round that is
// running it: each round method refuses with ErrInCallback, and the round goes
// on.
func TestGoHookCannotPlayRounds(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	calls := map[string]func(b *runtime.Battle) error{
		"EndRound":   func(b *runtime.Battle) error { _, err := b.EndRound(ctx); return err },
		"Undo":       func(b *runtime.Battle) error { return b.Undo() },
		"Answer":     func(b *runtime.Battle) error { return b.Answer(ctx, runtime.ChoiceAnswer("Jay")) },
		"Continue":   func(b *runtime.Battle) error { return b.Continue(ctx) },
		"StartRound": func(b *runtime.Battle) error { return b.StartRound(ctx) },
		"PlayRound":  func(b *runtime.Battle) error { _, err := b.PlayRound(ctx); return err },
		"Step":       func(b *runtime.Battle) error { _, err := b.Step(ctx); return err },
		"Snapshot":   func(b *runtime.Battle) error { _, err := b.Snapshot(); return err },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			var got []error
			hook := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
				if at.Kind == "round" {
					got = append(got, call(b))
				}
				return nil
			}
			b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(1)), runtime.WithHook(hook))
			if err != nil {
				t.Fatal(err)
			}
			for round := 1; round <= 2; round++ {
				if _, err := b.PlayRound(ctx); err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
			}
			if b.Round() != 2 || len(got) != 4 {
				t.Fatalf("round %d, %d hook calls; want round 2, 4 calls", b.Round(), len(got))
			}
			for _, err := range got {
				if !errors.Is(err, runtime.ErrInCallback) {
					t.Errorf("%s from a hook: err = %v, want ErrInCallback", name, err)
				}
			}
		})
	}
}

// A special rule at the end of a round that changes what an until-changed
// order watches remakes the order at once, for the next round: the round
// that ends keeps the holder and order it was played in, as its result and
// as what the next round remembers. A holder set at the end of the round
// still counts.
func TestEndOfRoundChangeIsTheNextRounds(t *testing.T) {
	const rules = `ruleset uc {
  sides 3
  side attribute agi int = 1
  phase p each round {
    order sides as priority until changed agi {
      highest agi
      tie: random
    }
  }
  on end of round when round == 1 { set agi of holder = 0 }
  on end of round when round == 2 { holder = "C" }
}`
	p := compileInline(t, rules)
	dice := runtime.NewScriptedDice()
	dice.AddPick("B")
	dice.AddPick("A")
	b, err := p.NewBattle(runtime.Sides("A", "B", "C"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	type round struct {
		Holder string
		Order  []string
		Memory []any // previous.holder, previous.order
	}
	var got []round
	for range 3 {
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		m := b.Memory()
		got = append(got, round{res.Holder, res.Order, []any{m.Holder, m.Order}})
	}
	want := []round{
		// B went first in round 1; its agi drops at the end, so A, C, B
		// is round 2's order.
		{"B", []string{"B", "A", "C"}, []any{"B", []string{"B", "A", "C"}}},
		// Round 2's end hands the holder to C.
		{"C", []string{"C", "A", "B"}, []any{"C", []string{"C", "A", "B"}}},
		{"A", []string{"A", "C", "B"}, []any{"A", []string{"A", "C", "B"}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rounds (-want +got):\n%s", diff)
	}
}

// tableError is a host's own error type, for errors.As through the
// round's error.
type tableError struct{ what string }

func (e *tableError) Error() string { return e.what }

// A Go hook's error names its round, as every other error of a round
// does, and the host still finds its own error inside.
func TestGoHookErrorNamesTheRound(t *testing.T) {
	p := compileInline(t, hookRules)
	tests := []struct {
		at      runtime.HookPoint
		wantMsg string
	}{
		{runtime.HookPoint{Edge: "start", Kind: "round"}, "round 2: Go hook at start of round: the table fell over"},
		{runtime.HookPoint{Edge: "end", Kind: "step", Name: "Roll"}, "round 2: Go hook at end of step Roll: the table fell over"},
		{runtime.HookPoint{Edge: "end", Kind: "round"}, "round 2: Go hook at end of round: the table fell over"},
	}
	for _, tt := range tests {
		t.Run(tt.at.String(), func(t *testing.T) {
			boom := &tableError{"the table fell over"}
			hook := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
				if b.Round() == 2 && at == tt.at {
					return boom
				}
				return nil
			}
			b, err := p.NewBattle(hookSides(), runtime.WithHook(hook))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if _, err := b.PlayRound(ctx); err != nil {
				t.Fatal(err)
			}
			_, err = b.PlayRound(ctx)
			if err == nil {
				t.Fatal("PlayRound: no error, want the hook's")
			}
			if err.Error() != tt.wantMsg {
				t.Errorf("PlayRound: %q, want %q", err, tt.wantMsg)
			}
			if re, ok := errors.AsType[*runtime.RoundError](err); !ok || re.Round != 2 {
				t.Errorf("PlayRound: %v, want a RoundError of round 2", err)
			}
			if te, ok := errors.AsType[*tableError](err); !ok || te != boom {
				t.Errorf("PlayRound: %v, want the host's own error inside", err)
			}
		})
	}
}

// A Go hook's change that needs an input the host gives (a tie that the
// change makes, under dice left to the host) cannot wait for it: a hook
// cannot be resumed from the middle of its code. The change fails at
// once with a HookWaitError, and so does the call that reached the hook
// point, whether the hook passes the error on or not, leaving the battle
// as it was. It used to stop pending, and Answer then failed with
// "journal[1]: the call (advance_round) ended before this input was asked
// for".
func TestGoHookChangeCannotWaitForTheHost(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset hookwait {
  sides 2
  side attribute threat int
  phase p {
    order sides as priority until changed threat {
      lowest threat
      highest roll d6
      tie: reroll
    }
    hook h
  }
  activation alternate by priority
}`)
	sides := []runtime.SideSpec{
		{Name: "A", Attrs: map[string]any{"threat": 1}},
		{Name: "B", Attrs: map[string]any{"threat": 2}},
	}
	for _, passOn := range []bool{true, false} {
		t.Run(fmt.Sprintf("the hook returns the error: %v", passOn), func(t *testing.T) {
			var hookErr error
			hook := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
				if at.Name != "h" {
					return nil
				}
				// A tie at threat 1: the order is made again, with a roll.
				hookErr = b.SetAttr(ctx, "B", "threat", 1)
				if passOn {
					return hookErr
				}
				return nil
			}
			b, err := p.NewBattle(sides, runtime.WithDice(runtime.AskHost{}), runtime.WithHook(hook))
			if err != nil {
				t.Fatal(err)
			}
			before, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			err = b.AdvanceRound(ctx)
			if !errors.Is(err, runtime.ErrHookCannotWait) || errors.Is(err, runtime.ErrPending) {
				t.Fatalf("AdvanceRound: %v, want ErrHookCannotWait", err)
			}
			var werr *runtime.HookWaitError
			if !errors.As(hookErr, &werr) {
				t.Fatalf("the hook's SetAttr: %v, want a HookWaitError", hookErr)
			}
			if diff := cmp.Diff(runtime.RollInput, werr.Input.Kind); diff != "" {
				t.Errorf("the input the change needed (-want +got):\n%s", diff)
			}
			want := "round 1: Go hook at hook h: a Go hook's change cannot wait for the host: the change needs "
			if got := err.Error(); !strings.HasPrefix(got, want) {
				t.Errorf("AdvanceRound: %s\nwant it to start: %s", got, want)
			}
			if q := b.Pending(); q != nil {
				t.Errorf("the battle waits for %s", q)
			}
			after, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(before), string(after)); diff != "" {
				t.Errorf("the battle after the failed call (-before +after):\n%s", diff)
			}
		})
	}
}
