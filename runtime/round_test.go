package runtime_test

// Tests of the activation loop: Ready markers, the alternate,
// sequential and unit-order modes, forced and voluntary passes, and rounds
// in which nobody can act.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// loopEvents renders the events of the activation loop: Ready markers,
// activations, passes, holder changes and attribute changes.
func loopEvents(evs []runtime.Event) []string {
	var out []string
	for _, e := range evs {
		switch e.Kind {
		case runtime.EvReady:
			out = append(out, "ready "+e.Subject)
		case runtime.EvNotReady:
			out = append(out, "no ready "+e.Subject)
		case runtime.EvActivate:
			out = append(out, fmt.Sprintf("activate %s/%s", e.By, e.Subject))
		case runtime.EvPass:
			out = append(out, fmt.Sprintf("pass %s (%s)", e.By, e.Detail))
		case runtime.EvHolder, runtime.EvSet:
			out = append(out, fmt.Sprintf("%s %s", e.Kind, e.Subject))
		}
	}
	return out
}

// decisionLog records every decision asked, and answers with next (or the
// declared default when next is nil).
type decisionLog struct {
	mu    sync.Mutex
	asked []runtime.Decision
	next  runtime.Decider
}

func (d *decisionLog) Decide(ctx context.Context, dec runtime.Decision) ([]string, error) {
	d.mu.Lock()
	d.asked = append(d.asked, dec)
	d.mu.Unlock()
	if d.next == nil {
		return dec.Default, nil
	}
	return d.next.Decide(ctx, dec)
}

// Must show 1: Morturi, 6 gladiators against 8. The school with fewer
// gladiators has priority and activates first; once its six have all
// activated it must pass each turn, and the other school activates its
// last two in a row, with forced passes between.
func TestMorturiSixAgainstEight(t *testing.T) {
	p := mustProgram(t, "morturi")
	sides := p.Example() // Malleus Deus: md1..md6, Ludi Aeternum: la1..la8
	log := &decisionLog{next: activationPolicy}
	b, err := p.NewBattle(sides, runtime.WithDice(runtime.NewScriptedDice()), runtime.WithDecider(log))
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	const md, la = "Malleus Deus", "Ludi Aeternum"
	if diff := cmp.Diff([]string{md, la}, res.Order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	want := []runtime.ActivationRecord{
		act(md, "md1"), act(la, "la1"),
		act(md, "md2"), act(la, "la2"),
		act(md, "md3"), act(la, "la3"),
		act(md, "md4"), act(la, "la4"),
		act(md, "md5"), act(la, "la5"),
		act(md, "md6"), act(la, "la6"),
		// Every Malleus Deus gladiator has activated: the school must pass,
		// and Ludi Aeternum activates its last two.
		pass(md), act(la, "la7"),
		pass(md), act(la, "la8"),
		// No gladiator is Ready: the battle round is over.
	}
	if diff := cmp.Diff(want, res.Activations); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}

	// The transcript: sixteen Ready markers, then the same sequence.
	var wantEvs []string
	for _, s := range sides {
		for _, u := range s.Units {
			wantEvs = append(wantEvs, "ready "+u.Name)
		}
	}
	for _, a := range want {
		if a.Pass {
			wantEvs = append(wantEvs, fmt.Sprintf("pass %s (no ready unit)", a.Side))
		} else {
			wantEvs = append(wantEvs, fmt.Sprintf("activate %s/%s", a.Side, a.Unit))
		}
	}
	if diff := cmp.Diff(wantEvs, loopEvents(res.Events)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}

	// Every turn with a choice asked its school which gladiator, among its
	// Ready ones; a forced pass asked nothing; la7 and la8 were each the
	// only option left.
	var asked []string
	for _, d := range log.asked {
		if d.Kind != runtime.ChooseActivation {
			t.Errorf("unexpected decision: %s", d)
			continue
		}
		asked = append(asked, fmt.Sprintf("%s: %s", d.By, strings.Join(d.Options, " ")))
	}
	wantAsked := []string{
		"Malleus Deus: md1 md2 md3 md4 md5 md6", "Ludi Aeternum: la1 la2 la3 la4 la5 la6 la7 la8",
		"Malleus Deus: md2 md3 md4 md5 md6", "Ludi Aeternum: la2 la3 la4 la5 la6 la7 la8",
		"Malleus Deus: md3 md4 md5 md6", "Ludi Aeternum: la3 la4 la5 la6 la7 la8",
		"Malleus Deus: md4 md5 md6", "Ludi Aeternum: la4 la5 la6 la7 la8",
		"Malleus Deus: md5 md6", "Ludi Aeternum: la5 la6 la7 la8",
		"Ludi Aeternum: la6 la7 la8",
		"Ludi Aeternum: la7 la8",
	}
	if diff := cmp.Diff(wantAsked, asked); diff != "" {
		t.Errorf("activation decisions (-want +got):\n%s", diff)
	}
	if got := b.ReadyUnits(); len(got) != 0 {
		t.Errorf("Ready after the round: %v", got)
	}

	// The next battle round plays the same way: the order is fixed and
	// every gladiator is Ready again.
	res2, err := b.PlayRound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, res2.Activations); diff != "" {
		t.Errorf("round 2 activations (-want +got):\n%s", diff)
	}
}

// The same round driven turn by turn: Next says who acts and whether they
// must pass, and a school may neither pass early nor act out of turn.
func TestMorturiTurns(t *testing.T) {
	p := mustProgram(t, "morturi")
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewScriptedDice()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	const md, la = "Malleus Deus", "Ludi Aeternum"
	for i := 1; i <= 6; i++ {
		for _, side := range []string{md, la} {
			turn := b.Next()
			if turn == nil || turn.Side != side || turn.MustPass || turn.CanPass {
				t.Fatalf("turn %d of %s: Next() = %+v", i, side, turn)
			}
			if err := b.Pass(ctx); err == nil {
				t.Fatalf("%s passed with Ready gladiators (%v)", side, turn.Options)
			}
			// Activate the last Ready one, to show the choice is free.
			if err := b.Activate(ctx, turn.Options[len(turn.Options)-1]); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, u := range []string{"la1", "la2"} {
		turn := b.Next()
		if turn == nil || turn.Side != md || !turn.MustPass || len(turn.Options) != 0 {
			t.Fatalf("Next() = %+v, want Malleus Deus to pass", turn)
		}
		if err := b.Activate(ctx, "md1"); err == nil {
			t.Error("an activated gladiator activated again")
		}
		if err := b.Pass(ctx); err != nil {
			t.Fatalf("forced pass: %v", err)
		}
		turn = b.Next()
		if turn == nil || turn.Side != la || turn.MustPass {
			t.Fatalf("Next() = %+v, want Ludi Aeternum", turn)
		}
		if err := b.Activate(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if turn := b.Next(); turn != nil {
		t.Fatalf("after every gladiator: Next() = %+v, want nil", turn)
	}
	if err := b.Pass(ctx); !errors.Is(err, runtime.ErrRoundOver) {
		t.Errorf("Pass after the round: %v, want ErrRoundOver", err)
	}
	if err := b.Activate(ctx, "la1"); !errors.Is(err, runtime.ErrRoundOver) {
		t.Errorf("Activate after the round: %v, want ErrRoundOver", err)
	}
	res, err := b.EndRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []runtime.ActivationRecord{
		act(md, "md6"), act(la, "la8"), act(md, "md5"), act(la, "la7"), act(md, "md4"), act(la, "la6"),
		act(md, "md3"), act(la, "la5"), act(md, "md2"), act(la, "la4"), act(md, "md1"), act(la, "la3"),
		pass(md), act(la, "la1"), pass(md), act(la, "la2"),
	}
	if diff := cmp.Diff(want, res.Activations); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}
}

// newGangBattle starts a Necromunda battle in which the Goliaths win every
// priority roll of the first rounds.
func newGangBattle(t *testing.T, rounds int) *runtime.Battle {
	t.Helper()
	p := mustProgram(t, "necromunda")
	dice := runtime.NewScriptedDice()
	for range rounds {
		dice.AddRoll("Goliaths", 6)
		dice.AddRoll("Eschers", 1)
	}
	b, err := p.NewBattle(gangs(), runtime.WithDice(dice), runtime.WithDecider(activationPolicy))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Must show 2: the Ready Gang step.
func TestNecromundaReadyGang(t *testing.T) {
	ctx := context.Background()

	t.Run("a preventing status gets no Ready marker", func(t *testing.T) {
		b := newGangBattle(t, 1)
		if err := b.StartRound(ctx); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"Krug", "Volk", "Mira", "Sable"}, b.ReadyUnits()); diff != "" {
			t.Errorf("Ready (-want +got):\n%s", diff)
		}
		if b.Unit("Grath").Ready {
			t.Error("Grath (seriously injured) has a Ready marker")
		}
		want := []string{"ready Krug", "no ready Grath", "ready Volk", "ready Mira", "ready Sable"}
		if diff := cmp.Diff(want, loopEvents(b.Events())); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		// The event says which rule kept the marker off.
		pos := rulePos(t, "necromunda", "ready units unless", 0)
		for _, e := range b.Events() {
			if e.Kind == runtime.EvNotReady && e.Subject == "Grath" {
				if e.Pos != pos || !strings.Contains(e.Detail, "seriously_injured") {
					t.Errorf("Grath's ready event: pos %q detail %q, want pos %s naming the condition", e.Pos, e.Detail, pos)
				}
			}
		}
		playLoop(t, ctx, b)
		want2 := []runtime.ActivationRecord{
			act("Goliaths", "Krug"), act("Eschers", "Mira"), act("Goliaths", "Volk"), act("Eschers", "Sable"),
		}
		if diff := cmp.Diff(want2, b.Activations()); diff != "" {
			t.Errorf("activations (-want +got):\n%s", diff)
		}
		if _, err := b.EndRound(ctx); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("statuses that come and go between rounds", func(t *testing.T) {
		b := newGangBattle(t, 3)
		if _, err := b.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
		// Mira goes out of action; Grath recovers.
		if err := b.SetStatus(ctx, "Mira", "out_of_action", true); err != nil {
			t.Fatal(err)
		}
		if err := b.SetStatus(ctx, "Grath", "seriously_injured", false); err != nil {
			t.Fatal(err)
		}
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []runtime.ActivationRecord{
			act("Goliaths", "Krug"), act("Eschers", "Sable"), act("Goliaths", "Grath"),
			pass("Eschers"), act("Goliaths", "Volk"),
		}
		if diff := cmp.Diff(want, res.Activations); diff != "" {
			t.Errorf("round 2 activations (-want +got):\n%s", diff)
		}
	})

	t.Run("activating removes the marker", func(t *testing.T) {
		b := newGangBattle(t, 1)
		if err := b.StartRound(ctx); err != nil {
			t.Fatal(err)
		}
		if !b.Unit("Volk").Ready {
			t.Fatal("Volk is not Ready")
		}
		if err := b.Activate(ctx, "Volk"); err != nil {
			t.Fatal(err)
		}
		if b.Unit("Volk").Ready {
			t.Error("Volk kept his Ready marker after activating")
		}
		if diff := cmp.Diff([]string{"Krug", "Mira", "Sable"}, b.ReadyUnits()); diff != "" {
			t.Errorf("Ready after Volk activated (-want +got):\n%s", diff)
		}
		// Eschers' turn: Volk cannot act again, nor can Krug out of turn.
		if err := b.Activate(ctx, "Volk"); err == nil {
			t.Error("Volk activated twice")
		}
		if err := b.Activate(ctx, "Krug"); err == nil {
			t.Error("Krug activated on the Eschers' turn")
		}
		if err := b.Activate(ctx, "Grath"); err == nil {
			t.Error("Grath activated without a Ready marker")
		}
	})

	t.Run("a skill lets a model act twice", func(t *testing.T) {
		b := newGangBattle(t, 1)
		if err := b.StartRound(ctx); err != nil {
			t.Fatal(err)
		}
		var skillUsed bool
		for i := 0; ; i++ {
			done, err := b.Step(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if done {
				break
			}
			// After Krug's first activation, a skill readies him again.
			if acts := b.Activations(); !skillUsed && len(acts) > 0 && acts[len(acts)-1].Unit == "Krug" {
				skillUsed = true
				if err := b.MakeReady("Krug"); err != nil {
					t.Fatal(err)
				}
				if !b.Unit("Krug").Ready {
					t.Fatal("MakeReady left Krug unready")
				}
			}
		}
		res, err := b.EndRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []runtime.ActivationRecord{
			act("Goliaths", "Krug"), act("Eschers", "Mira"),
			act("Goliaths", "Krug"), // again, thanks to the skill
			act("Eschers", "Sable"), act("Goliaths", "Volk"),
		}
		if diff := cmp.Diff(want, res.Activations); diff != "" {
			t.Errorf("activations (-want +got):\n%s", diff)
		}
		wantEvs := []string{
			"ready Krug", "no ready Grath", "ready Volk", "ready Mira", "ready Sable",
			"activate Goliaths/Krug", "ready Krug", "activate Eschers/Mira", "activate Goliaths/Krug",
			"activate Eschers/Sable", "activate Goliaths/Volk",
		}
		if diff := cmp.Diff(wantEvs, loopEvents(res.Events)); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		if err := b.MakeReady("Nobody"); err == nil {
			t.Error("MakeReady of an unknown unit succeeded")
		}
	})

	t.Run("a rule readies a model the Ready Gang step left out", func(t *testing.T) {
		// A house rule: the seriously injured crawl on in round 1.
		p := compileInline(t, necroHouseRule)
		dice := runtime.NewScriptedDice()
		dice.AddRoll("Goliaths", 6)
		dice.AddRoll("Eschers", 1)
		b, err := p.NewBattle(gangs(), runtime.WithDice(dice), runtime.WithDecider(activationPolicy))
		if err != nil {
			t.Fatal(err)
		}
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []runtime.ActivationRecord{
			act("Goliaths", "Krug"), act("Eschers", "Mira"), act("Goliaths", "Grath"),
			act("Eschers", "Sable"), act("Goliaths", "Volk"),
		}
		if diff := cmp.Diff(want, res.Activations); diff != "" {
			t.Errorf("activations (-want +got):\n%s", diff)
		}
	})
}

const necroHouseRule = `
ruleset necro_house {
  sides 2..
  unit status out_of_action, seriously_injured
  phase priority {
    step "Roll For Priority" {
      order sides as priority {
        highest roll d6
        tie: reroll
      }
    }
    step "Ready Gang" {
      ready units unless out_of_action or seriously_injured
    }
  }
  activation alternate by priority
  on end of step "Ready Gang" when round == 1 {
    ready map(filter(units, .seriously_injured), .name)
  }
}
`

// sequential: each side activates all of its units in turn.
const sequentialRules = `
ruleset seq {
  sides 2..
  side attribute rank int
  phase priority {
    order sides as priority {
      lowest rank
      random
    }
  }
  activation sequential by priority
}
`

func TestSequential(t *testing.T) {
	p := compileInline(t, sequentialRules)
	sides := []runtime.SideSpec{
		{Name: "A", Attrs: map[string]any{"rank": 2}, Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}, {Name: "a3"}}},
		{Name: "B", Attrs: map[string]any{"rank": 1}, Units: []runtime.UnitSpec{{Name: "b1"}, {Name: "b2"}}},
		{Name: "C", Attrs: map[string]any{"rank": 3}},
		{Name: "D", Attrs: map[string]any{"rank": 4}, Units: []runtime.UnitSpec{{Name: "d1"}}},
	}
	log := &decisionLog{}
	b, err := p.NewBattle(sides, runtime.WithDice(runtime.NewScriptedDice()), runtime.WithDecider(log))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for round := 1; round <= 2; round++ {
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"B", "A", "C", "D"}, res.Order); diff != "" {
			t.Errorf("round %d: order (-want +got):\n%s", round, diff)
		}
		// C has no units and is skipped; nobody passes.
		want := []runtime.ActivationRecord{
			act("B", "b1"), act("B", "b2"), act("A", "a1"), act("A", "a2"), act("A", "a3"), act("D", "d1"),
		}
		if diff := cmp.Diff(want, res.Activations); diff != "" {
			t.Errorf("round %d: activations (-want +got):\n%s", round, diff)
		}
	}
	for _, d := range log.asked {
		if d.Kind != runtime.ChooseActivation {
			t.Errorf("unexpected decision %s", d)
		}
	}

	// A side's own choice of unit does not end its turn early.
	b2, err := p.NewBattle(sides, runtime.WithDice(runtime.NewScriptedDice()))
	if err != nil {
		t.Fatal(err)
	}
	if err := b2.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"b2", "b1", "a3", "a1", "a2", "d1"} {
		turn := b2.Next()
		if turn == nil || turn.MustPass {
			t.Fatalf("before %s: Next() = %+v", u, turn)
		}
		if err := b2.Activate(ctx, u); err != nil {
			t.Fatalf("activate %s: %v", u, err)
		}
	}
	if turn := b2.Next(); turn != nil {
		t.Errorf("after every unit: Next() = %+v", turn)
	}
}

// Must show 3: the seed-002 turn-order card drives activations in unit
// order, and a change of AGI in mid-round reorders the units that have
// not yet acted, following 002's rules.
func TestAGIUnitOrder(t *testing.T) {
	p := mustProgram(t, "agi")
	// Aria (Red) 5, Bran (Blue) 3, Dax (Red) 2, Cole (Red) 1: no ties.
	sides := []runtime.SideSpec{
		{Name: "A", Team: "Red", Units: []runtime.UnitSpec{{Name: "Aria", Attrs: map[string]any{"agi": 5}}}},
		{Name: "B", Team: "Blue", Units: []runtime.UnitSpec{{Name: "Bran", Attrs: map[string]any{"agi": 3}}}},
		{Name: "C", Team: "Red", Units: []runtime.UnitSpec{{Name: "Cole", Attrs: map[string]any{"agi": 1}}}},
		{Name: "D", Team: "Red", Units: []runtime.UnitSpec{{Name: "Dax", Attrs: map[string]any{"agi": 2}}}},
	}
	type change struct {
		after string // the change is made right after this unit activates
		unit  string
		agi   int
	}
	tests := []struct {
		name    string
		change  change
		rolls   []roll
		answers []answer
		// events of the change itself, and the card after it
		changeEvents []string
		card         []string
		acts         []string
	}{
		{
			name:   "no change",
			card:   []string{"Aria", "Bran", "Dax", "Cole"},
			acts:   []string{"Aria", "Bran", "Dax", "Cole"},
			change: change{},
		},
		{
			// Cole rises to Bran's AGI: a new tie between opposing teams,
			// rolled for at once; Cole wins and chooses to go before.
			name:    "a new tie between two teams is rolled for at once",
			change:  change{after: "Aria", unit: "Cole", agi: 3},
			rolls:   []roll{{"Bran", 2}, {"Cole", 5}},
			answers: []answer{{"C", []string{"before"}}},
			changeEvents: []string{
				"set Cole", "tie Bran/Cole", "roll Bran=2", "roll Cole=5", "decision C:before",
				"placement Aria", "placement Cole", "placement Bran", "placement Dax",
			},
			card: []string{"Aria", "Cole", "Bran", "Dax"},
			acts: []string{"Aria", "Cole", "Bran", "Dax"},
		},
		{
			// The same, but the winner chooses to go after.
			name:    "the winner may choose to go after",
			change:  change{after: "Aria", unit: "Cole", agi: 3},
			rolls:   []roll{{"Bran", 1}, {"Cole", 6}},
			answers: []answer{{"C", []string{"after"}}},
			changeEvents: []string{
				"set Cole", "tie Bran/Cole", "roll Bran=1", "roll Cole=6", "decision C:after",
				"placement Aria", "placement Bran", "placement Cole", "placement Dax",
			},
			card: []string{"Aria", "Bran", "Cole", "Dax"},
			acts: []string{"Aria", "Bran", "Cole", "Dax"},
		},
		{
			// Cole rises to Dax's AGI: teammates, who arrange themselves.
			name:    "a new tie within a team is chosen by the team",
			change:  change{after: "Bran", unit: "Cole", agi: 2},
			answers: []answer{{"Red", []string{"Cole", "Dax"}}},
			changeEvents: []string{
				"set Cole", "tie Cole/Dax", "decision Red:Cole/Dax",
				"placement Aria", "placement Bran", "placement Cole", "placement Dax",
			},
			card: []string{"Aria", "Bran", "Cole", "Dax"},
			acts: []string{"Aria", "Bran", "Cole", "Dax"},
		},
		{
			// Dax slows down below Cole: no tie, Cole now acts first.
			name:   "a slower unit moves down",
			change: change{after: "Aria", unit: "Dax", agi: 0},
			changeEvents: []string{
				"set Dax", "placement Aria", "placement Bran", "placement Cole", "placement Dax",
			},
			card: []string{"Aria", "Bran", "Cole", "Dax"},
			acts: []string{"Aria", "Bran", "Cole", "Dax"},
		},
		{
			// Aria, who has acted, drops to the bottom of the card: she
			// does not act again, and the rest keep their order.
			name:   "a unit that has acted does not act again",
			change: change{after: "Aria", unit: "Aria", agi: 0},
			changeEvents: []string{
				"set Aria", "placement Bran", "placement Dax", "placement Cole", "placement Aria",
			},
			card: []string{"Bran", "Dax", "Cole", "Aria"},
			acts: []string{"Aria", "Bran", "Dax", "Cole"},
		},
		{
			// Cole, yet to act, overtakes Bran, who is next: Cole acts
			// before him.
			name:   "a unit that has not acted overtakes",
			change: change{after: "Aria", unit: "Cole", agi: 4},
			changeEvents: []string{
				"set Cole", "placement Aria", "placement Cole", "placement Bran", "placement Dax",
			},
			card: []string{"Aria", "Cole", "Bran", "Dax"},
			acts: []string{"Aria", "Cole", "Bran", "Dax"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			dice := runtime.NewScriptedDice()
			dec := runtime.NewScriptedDecider()
			b, err := p.NewBattle(sides, runtime.WithDice(dice), runtime.WithDecider(dec))
			if err != nil {
				t.Fatal(err)
			}
			if err := b.StartRound(ctx); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"Aria", "Bran", "Dax", "Cole"}, b.Order()); diff != "" {
				t.Fatalf("the card at the start (-want +got):\n%s", diff)
			}
			if b.Holder() != "Aria" {
				t.Errorf("holder %q, want Aria", b.Holder())
			}
			for {
				turn := b.Next()
				if turn == nil {
					break
				}
				// unit_order: exactly one unit may act, the first Ready one
				// on the card, and its side may not pass.
				if len(turn.Options) != 1 || turn.CanPass || turn.MustPass {
					t.Fatalf("Next() = %+v, want one option", turn)
				}
				if err := b.Activate(ctx, turn.Options[0]); err != nil {
					t.Fatal(err)
				}
				if tt.change.after != turn.Options[0] {
					continue
				}
				for _, r := range tt.rolls {
					dice.AddRoll(r.who, r.v)
				}
				for _, a := range tt.answers {
					dec.Add(a.who, a.ans...)
				}
				before := len(b.Events())
				if err := b.SetAttr(ctx, tt.change.unit, "agi", tt.change.agi); err != nil {
					t.Fatal(err)
				}
				// The card is redrawn at once, before anyone else acts.
				if diff := cmp.Diff(tt.changeEvents, briefEvents(b.Events()[before:])); diff != "" {
					t.Errorf("events of the change (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.card, b.Order()); diff != "" {
					t.Errorf("the card after the change (-want +got):\n%s", diff)
				}
				if b.Holder() != tt.card[0] {
					t.Errorf("holder after the change %q, want %q", b.Holder(), tt.card[0])
				}
			}
			res, err := b.EndRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var acts []string
			for _, a := range res.Activations {
				if a.Pass {
					t.Errorf("%s passed", a.Side)
				}
				acts = append(acts, a.Unit)
			}
			if diff := cmp.Diff(tt.acts, acts); diff != "" {
				t.Errorf("activations (-want +got):\n%s", diff)
			}
			if tt.card != nil {
				if diff := cmp.Diff(tt.card, res.Order); diff != "" {
					t.Errorf("the card at the end of the round (-want +got):\n%s", diff)
				}
			}
			if u := dice.Unused(); len(u) > 0 {
				t.Errorf("scripted rolls not used: %v", u)
			}
			if u := dec.Unused(); len(u) > 0 {
				t.Errorf("scripted decisions not used: %v", u)
			}

			// The next round follows the new card with no new roll: the
			// script is empty, so any roll or decision would fail.
			res2, err := b.PlayRound(ctx)
			if err != nil {
				t.Fatalf("round 2: %v", err)
			}
			if diff := cmp.Diff(tt.card, activated(res2.Activations)); diff != "" {
				t.Errorf("round 2 activations (-want +got):\n%s", diff)
			}
		})
	}
}

// Must show 4: a round in which a side has no units, and a battle in which
// no unit is ever Ready, both end cleanly.
func TestNobodyToActivate(t *testing.T) {
	ctx := context.Background()

	t.Run("a school with no gladiators passes every turn", func(t *testing.T) {
		p := mustProgram(t, "morturi")
		sides := []runtime.SideSpec{
			school("Ludi Aeternum", "la", 3, 3),
			{Name: "Empty"}, // fewest gladiators: it has priority, and must pass
		}
		b, err := p.NewBattle(sides, runtime.WithDice(runtime.NewScriptedDice()), runtime.WithDecider(activationPolicy))
		if err != nil {
			t.Fatal(err)
		}
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Holder != "Empty" {
			t.Errorf("holder %q, want Empty", res.Holder)
		}
		want := []runtime.ActivationRecord{
			pass("Empty"), act("Ludi Aeternum", "la1"), pass("Empty"), act("Ludi Aeternum", "la2"),
		}
		if diff := cmp.Diff(want, res.Activations); diff != "" {
			t.Errorf("activations (-want +got):\n%s", diff)
		}
	})

	t.Run("a gang with no fighters", func(t *testing.T) {
		p := mustProgram(t, "necromunda")
		dice := runtime.NewScriptedDice()
		dice.AddRoll("Goliaths", 2)
		dice.AddRoll("Eschers", 5)
		sides := []runtime.SideSpec{{Name: "Goliaths", Units: []runtime.UnitSpec{{Name: "Krug"}}}, {Name: "Eschers"}}
		b, err := p.NewBattle(sides, runtime.WithDice(dice), runtime.WithDecider(activationPolicy))
		if err != nil {
			t.Fatal(err)
		}
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []runtime.ActivationRecord{pass("Eschers"), act("Goliaths", "Krug")}
		if diff := cmp.Diff(want, res.Activations); diff != "" {
			t.Errorf("activations (-want +got):\n%s", diff)
		}
	})

	t.Run("every fighter out of action", func(t *testing.T) {
		p := mustProgram(t, "necromunda")
		dice := runtime.NewScriptedDice()
		for range 3 {
			dice.AddRoll("Goliaths", 6)
			dice.AddRoll("Eschers", 1)
		}
		ooa := []string{"out_of_action"}
		sides := []runtime.SideSpec{
			{Name: "Goliaths", Units: []runtime.UnitSpec{{Name: "Krug", Statuses: ooa}, {Name: "Volk", Statuses: []string{"not_on_battlefield"}}}},
			{Name: "Eschers", Units: []runtime.UnitSpec{{Name: "Mira", Statuses: ooa}}},
		}
		b, err := p.NewBattle(sides, runtime.WithDice(dice), runtime.WithDecider(activationPolicy))
		if err != nil {
			t.Fatal(err)
		}
		for round := 1; round <= 3; round++ {
			if err := b.StartRound(ctx); err != nil {
				t.Fatal(err)
			}
			if got := b.ReadyUnits(); len(got) != 0 {
				t.Errorf("round %d: Ready %v", round, got)
			}
			if turn := b.Next(); turn != nil {
				t.Errorf("round %d: Next() = %+v, want nil", round, turn)
			}
			if err := b.Pass(ctx); !errors.Is(err, runtime.ErrRoundOver) {
				t.Errorf("round %d: Pass: %v, want ErrRoundOver", round, err)
			}
			if err := b.Activate(ctx, "Krug"); !errors.Is(err, runtime.ErrRoundOver) {
				t.Errorf("round %d: Activate: %v, want ErrRoundOver", round, err)
			}
			done, err := b.Step(ctx)
			if err != nil || !done {
				t.Errorf("round %d: Step = %v, %v; want done", round, done, err)
			}
			res, err := b.EndRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Activations) != 0 {
				t.Errorf("round %d: activations %v", round, res.Activations)
			}
			want := []string{"no ready Krug", "no ready Volk", "no ready Mira"}
			if diff := cmp.Diff(want, loopEvents(res.Events)); diff != "" {
				t.Errorf("round %d: events (-want +got):\n%s", round, diff)
			}
			if res.Holder != "Goliaths" {
				t.Errorf("round %d: holder %q, want Goliaths (priority is still rolled)", round, res.Holder)
			}
		}
	})

	t.Run("sides with no units at all", func(t *testing.T) {
		for _, name := range []string{"morturi", "agi", "necromunda"} {
			t.Run(name, func(t *testing.T) {
				p := mustProgram(t, name)
				sides := runtime.Sides("A", "B", "C")
				if name == "agi" {
					// agi orders units: it refuses sides with none, but a
					// battle may still lose its last unit.
					if _, err := p.NewBattle(sides); err == nil || !strings.Contains(err.Error(), "orders units") {
						t.Fatalf("NewBattle with no units: error %v, want one saying the ruleset orders units", err)
					}
					sides[0].Units = []runtime.UnitSpec{{Name: "a1"}}
				}
				b, err := p.NewBattle(sides, runtime.WithDice(runtime.NewSeededDice(3)),
					runtime.WithDecider(activationPolicy))
				if err != nil {
					t.Fatal(err)
				}
				if name == "agi" {
					if err := b.RemoveUnit(ctx, "a1"); err != nil {
						t.Fatal(err)
					}
					snap, err := b.Snapshot()
					if err != nil {
						t.Fatal(err)
					}
					if b, err = p.Restore(snap, runtime.WithDice(runtime.NewSeededDice(3)), runtime.WithDecider(activationPolicy)); err != nil {
						t.Fatalf("Restore of a battle that lost every unit: %v", err)
					}
				}
				for round := 1; round <= 2; round++ {
					res, err := b.PlayRound(ctx)
					if err != nil {
						t.Fatalf("round %d: %v", round, err)
					}
					if len(res.Activations) != 0 {
						t.Errorf("round %d: activations %v", round, res.Activations)
					}
				}
			})
		}
	})
}

// passRules allows a side to pass while it still has Ready units.
const passRules = `
ruleset passing {
  sides 2
  side attribute rank int
  phase priority {
    order sides as priority {
      lowest rank
      random
    }
  }
  activation alternate by priority %s
}
`

func passSides() []runtime.SideSpec {
	return []runtime.SideSpec{
		{Name: "A", Attrs: map[string]any{"rank": 1}, Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}}},
		{Name: "B", Attrs: map[string]any{"rank": 2}, Units: []runtime.UnitSpec{{Name: "b1"}}},
	}
}

func TestPassAllowed(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, fmt.Sprintf(passRules, "pass allowed"))
	dec := runtime.NewScriptedDecider()
	dec.Add("A", "pass")
	dec.Add("B", "b1")
	dec.Add("A", "a2")
	// a1 is then A's only Ready unit: still a decision, as A may pass.
	dec.Add("A", "a1")
	log := &decisionLog{next: dec}
	b, err := p.NewBattle(passSides(), runtime.WithDice(runtime.NewScriptedDice()), runtime.WithDecider(log))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	turn := b.Next()
	if turn == nil || turn.Side != "A" || !turn.CanPass || turn.MustPass {
		t.Fatalf("first turn %+v, want A, who may pass", turn)
	}
	playLoop(t, ctx, b)
	res, err := b.EndRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []runtime.ActivationRecord{
		pass("A"), act("B", "b1"), act("A", "a2"), pass("B"), act("A", "a1"),
	}
	if diff := cmp.Diff(want, res.Activations); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}
	wantEvs := []string{
		"ready a1", "ready a2", "ready b1",
		"pass A (chose to pass)", "activate B/b1", "activate A/a2", "pass B (no ready unit)", "activate A/a1",
	}
	if diff := cmp.Diff(wantEvs, loopEvents(res.Events)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	var options [][]string
	for _, d := range log.asked {
		options = append(options, d.Options)
	}
	wantOpts := [][]string{{"a1", "a2", "pass"}, {"b1", "pass"}, {"a1", "a2", "pass"}, {"a1", "pass"}}
	if diff := cmp.Diff(wantOpts, options); diff != "" {
		t.Errorf("decision options (-want +got):\n%s", diff)
	}
	if u := dec.Unused(); len(u) > 0 {
		t.Errorf("unused answers: %v", u)
	}

	// A side that always passes cannot stall the round for ever.
	always := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) { return []string{"pass"}, nil })
	pl := compileInline(t, fmt.Sprintf(passRules, "pass allowed"), runtime.WithLimits(runtime.Limits{MaxSteps: 50}))
	b2, err := pl.NewBattle(passSides(), runtime.WithDice(runtime.NewScriptedDice()), runtime.WithDecider(always))
	if err != nil {
		t.Fatal(err)
	}
	err = finishWithin(t, func(ctx context.Context) error { _, err := b2.PlayRound(ctx); return err })
	if !errors.Is(err, runtime.ErrLimit) {
		t.Errorf("endless passing: %v, want ErrLimit", err)
	}
	// The limit is the activation loop's, so it points at the loop's rule.
	var re *runtime.RuleError
	if !errors.As(err, &re) || re.Pos.Line != 11 || re.Pos.Column != 3 {
		t.Errorf("endless passing: %v, want a RuleError at the activation (inline.rules:11:3)", err)
	} else if want := "inline.rules:11:3: more than 50 activations and passes in one round: limit reached"; err.Error() != want {
		t.Errorf("endless passing:\n got %s\nwant %s", err, want)
	}
}

func TestPassNotAllowed(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, fmt.Sprintf(passRules, ""))
	b, err := p.NewBattle(passSides(), runtime.WithDice(runtime.NewScriptedDice()))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	turn := b.Next()
	if turn == nil || turn.CanPass || turn.MustPass {
		t.Fatalf("Next() = %+v, want a turn without passing", turn)
	}
	if err := b.Pass(ctx); err == nil {
		t.Error("A passed with Ready units")
	}
	if len(b.Activations()) != 0 {
		t.Errorf("a refused pass was recorded: %v", b.Activations())
	}

	// A decider that answers "pass" gets an error, not a pass.
	passer := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		for _, o := range d.Options {
			if o == "pass" {
				return nil, fmt.Errorf("pass offered: %v", d.Options)
			}
		}
		return []string{"pass"}, nil
	})
	b2, err := p.NewBattle(passSides(), runtime.WithDice(runtime.NewScriptedDice()), runtime.WithDecider(passer))
	if err != nil {
		t.Fatal(err)
	}
	_, err = b2.PlayRound(ctx)
	if err == nil || !strings.Contains(err.Error(), "not valid") {
		t.Errorf("PlayRound with a decider answering pass: %v, want an invalid-answer error", err)
	}
	if acts := b2.Activations(); len(acts) != 0 {
		t.Errorf("activations recorded: %v", acts)
	}
}

// A unit kept from its Ready marker by `ready units where COND` is told
// why in the words of the condition that failed, not as "not COND", which
// reads as a double negative when COND is `not pinned`.
func TestReadyWhereReason(t *testing.T) {
	for _, tc := range []struct{ cond, want string }{
		{"unless pinned", "pinned"},
		// The terms that held, not the whole condition.
		{"unless pinned or agi > 3", "pinned and agi > 3"},
		{"unless agi > 9 or pinned or fresh", "pinned"},
		{"where not pinned", "pinned"},
		{"where !pinned", "pinned"},
		{"where fresh", "not fresh"},
		{"where agi < 3", "not (agi < 3)"},
		{"where not pinned and agi < 3", "pinned and not (agi < 3)"},
		{"where agi > 3 and not pinned", "pinned"},
	} {
		t.Run(tc.cond, func(t *testing.T) {
			p := compileInline(t, `ruleset r {
  sides 2
  unit attribute agi int
  unit status pinned, fresh
  phase p {
    order sides as o { random }
    ready units `+tc.cond+`
  }
  activation alternate by o
}`)
			b, err := p.NewBattle([]runtime.SideSpec{
				{Name: "A", Units: []runtime.UnitSpec{{Name: "a", Attrs: map[string]any{"agi": 5}, Statuses: []string{"pinned"}}}},
				{Name: "B", Units: []runtime.UnitSpec{{Name: "b"}}},
			}, runtime.WithDice(runtime.NewSeededDice(1)))
			if err != nil {
				t.Fatal(err)
			}
			if err := b.StartRound(context.Background()); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range b.Events() {
				if e.Kind == runtime.EvNotReady && e.Subject == "a" {
					got = append(got, e.String())
				}
			}
			want := []string{"a gets no Ready marker (" + tc.want + ")"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("a's ready events (-want +got):\n%s", diff)
			}
		})
	}
}

// Step asks the Decider only about a turn with a choice: a side with one
// ready unit and no pass activates it, and a side with none passes,
// without being asked (as Step's documentation says), so that a script of
// answers names only the turns with a choice.
func TestStepAsksOnlyAboutChoices(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset a "a" {
  sides 2
  phase p {
    order sides as p {
      highest count(units)
      random
    }
    ready units
  }
  activation alternate by p
}
`)
	var asked []string
	b, err := p.NewBattle([]runtime.SideSpec{
		{Name: "Jay", Units: []runtime.UnitSpec{{Name: "j1"}, {Name: "j2"}, {Name: "j3"}}},
		{Name: "Rob", Units: []runtime.UnitSpec{{Name: "r1"}}},
	}, runtime.WithDecider(runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		asked = append(asked, d.String())
		return d.Default, nil
	})))
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]runtime.ActivationRecord{act("Jay", "j1"), act("Rob", "r1"), act("Jay", "j2"), pass("Rob"), act("Jay", "j3")}, res.Activations); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}
	want := []string{
		"Jay chooses a unit to activate among j1, j2, j3",
		"Jay chooses a unit to activate among j2, j3",
	}
	if diff := cmp.Diff(want, asked); diff != "" {
		t.Errorf("decisions asked (-want +got):\n%s", diff)
	}
}

// Next is nil with no round under way, as its documentation says, also
// after a round cut short whose units are still Ready: a server asking
// whose turn it is between rounds is told nobody's, not the cut round's.
func TestNextWithNoRoundUnderWay(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "necromunda")
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	if turn := b.Next(); turn != nil {
		t.Errorf("before round 1, Next = %+v; want nil", turn)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Step(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.EndRound(ctx); err != nil {
		t.Fatal(err)
	}
	if len(b.ReadyUnits()) == 0 {
		t.Fatal("no unit is Ready after the round cut short")
	}
	if turn := b.Next(); turn != nil || b.InRound() {
		t.Errorf("after EndRound, Next = %+v, InRound %v; want nil, false", turn, b.InRound())
	}
}

// agiFailedSetAttr is an agi battle after round 1 (Aria and Bran tied on
// 5 and rolled 6 to 2; Cole has 3), with scripted dice, then a SetAttr of
// Cole to 5 that makes a new tie with no dice scripted for it.
func agiFailedSetAttr(t *testing.T) (*runtime.Battle, *runtime.ScriptedDice) {
	t.Helper()
	p := mustProgram(t, "agi")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Aria", 6)
	dice.AddRoll("Bran", 2)
	b, err := p.NewBattle(p.Example(), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := b.SetAttr(context.Background(), "Cole", "agi", 5); !errors.Is(err, runtime.ErrUnscripted) {
		t.Fatalf("SetAttr with no dice scripted for the new tie: %v; want ErrUnscripted", err)
	}
	return b, dice
}

// A SetAttr whose recomputation fails (the dice the new tie needs are not
// scripted yet, an interactive decider whose context was cancelled) waits
// for the input it lacks: the value and the standing that watches it are
// never out of step. Setting the value again asks the dice again; an
// answer gives the roll; any other call waits for it; Cancel takes the
// SetAttr back, and the next round plays as if it was never made.
func TestFailedRecomputationWaitsForItsInput(t *testing.T) {
	ctx := context.Background()
	wantWatched := map[string][]any{"Aria": {5}, "Bran": {5}, "Cole": {5}}

	t.Run("retry", func(t *testing.T) {
		b, dice := agiFailedSetAttr(t)
		dice.AddRoll("Aria", 1)
		dice.AddRoll("Bran", 2)
		dice.AddRoll("Cole", 3)
		if err := b.SetAttr(ctx, "Cole", "agi", 5); err != nil {
			t.Fatalf("SetAttr again, with the dice scripted: %v", err)
		}
		if diff := cmp.Diff([]string{"Cole", "Bran", "Aria"}, b.Order()); diff != "" {
			t.Errorf("order after the retried SetAttr (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantWatched, b.Standing("turn_order").Watched); diff != "" {
			t.Errorf("watched values (-want +got):\n%s", diff)
		}
	})
	t.Run("answer", func(t *testing.T) {
		b, _ := agiFailedSetAttr(t)
		req := b.Pending()
		if req == nil || req.Roll == nil {
			t.Fatalf("Pending() = %v, want the roll of the new tie", req)
		}
		if diff := cmp.Diff([]string{"Aria", "Bran", "Cole"}, req.Roll.Subjects); diff != "" {
			t.Errorf("who rolls (-want +got):\n%s", diff)
		}
		if err := b.Answer(ctx, runtime.RollAnswer(4, 6, 5)); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"Bran", "Cole", "Aria"}, b.Order()); diff != "" {
			t.Errorf("order after the answer (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantWatched, b.Standing("turn_order").Watched); diff != "" {
			t.Errorf("watched values (-want +got):\n%s", diff)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		b, _ := agiFailedSetAttr(t)
		before := b.Standing("turn_order")
		if _, err := b.PlayRound(ctx); !errors.Is(err, runtime.ErrPending) {
			t.Errorf("PlayRound while the SetAttr waits: %v, want ErrPending", err)
		}
		if err := b.RemoveUnit(ctx, "Aria"); !errors.Is(err, runtime.ErrPending) {
			t.Errorf("RemoveUnit while the SetAttr waits: %v, want ErrPending", err)
		}
		if err := b.Cancel(); err != nil {
			t.Fatal(err)
		}
		if got := b.Unit("Cole").Attrs["agi"]; got != 3 {
			t.Errorf("Cole's agi after Cancel = %v, want 3", got)
		}
		if diff := cmp.Diff(before, b.Standing("turn_order")); diff != "" {
			t.Errorf("the standing after Cancel (-before +after):\n%s", diff)
		}
		if err := b.Cancel(); !errors.Is(err, runtime.ErrNothingPending) {
			t.Errorf("Cancel again: %v, want ErrNothingPending", err)
		}
		// Nothing changed: the order of round 1 stands, with no roll.
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"Aria", "Bran", "Cole"}, res.Order); diff != "" {
			t.Errorf("round 2's order (-want +got):\n%s", diff)
		}
	})
}

// A recomputation whose decider fails after its dice are rolled (the
// roll-off's winner hung up, or gave an answer a ScriptedDecider refuses)
// waits for the decision: setting the value again keeps the dice rolled
// and asks the same decision, as the round's own orders do, and the
// transcript holds the rolls once. Otherwise a winner who answers badly
// would have the roll-off played anew.
func TestFailedRecomputationIsRetriedWithTheSameDice(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "agi")
	// After round 1 Bran drops from 5 to 3, tying Cole: a roll-off, then
	// the winner chooses before or after.
	errHungUp := errors.New("hung up")
	battle := func(t *testing.T, dice runtime.Dice, fails int) *runtime.Battle {
		t.Helper()
		b, err := p.NewBattle(p.Example(), runtime.WithDice(dice),
			runtime.WithDecider(runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
				if d.Round == 2 && fails > 0 {
					fails--
					return nil, errHungUp
				}
				return d.Default, nil
			})))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
		return b
	}
	t.Run("seeded", func(t *testing.T) {
		want := battle(t, runtime.NewSeededDice(3), 0)
		if err := want.SetAttr(ctx, "Bran", "agi", 3); err != nil {
			t.Fatal(err)
		}
		b := battle(t, runtime.NewSeededDice(3), 1)
		if err := b.SetAttr(ctx, "Bran", "agi", 3); !errors.Is(err, errHungUp) {
			t.Fatalf("SetAttr with the winner hung up: %v; want errHungUp", err)
		}
		if err := b.SetAttr(ctx, "Bran", "agi", 3); err != nil {
			t.Fatalf("SetAttr again: %v", err)
		}
		if diff := cmp.Diff(want.PendingEvents(), b.PendingEvents()); diff != "" {
			t.Errorf("events of the retried change (-as if nobody hung up +got):\n%s", diff)
		}
		if diff := cmp.Diff(want.Order(), b.Order()); diff != "" {
			t.Errorf("order (-want +got):\n%s", diff)
		}
	})
	t.Run("scripted", func(t *testing.T) {
		dice := runtime.NewScriptedDice()
		dice.AddRoll("Aria", 6)
		dice.AddRoll("Bran", 2)
		b := battle(t, dice, 1)
		dice.AddRoll("Bran", 2)
		dice.AddRoll("Cole", 6)
		if err := b.SetAttr(ctx, "Bran", "agi", 3); !errors.Is(err, errHungUp) {
			t.Fatalf("SetAttr with the winner hung up: %v; want errHungUp", err)
		}
		if got := dice.Unused(); len(got) != 0 {
			t.Errorf("unused rolls %v: the recomputation's are the battle's, and not asked for again", got)
		}
		if err := b.SetAttr(ctx, "Bran", "agi", 3); err != nil {
			t.Fatalf("SetAttr again, with the same script: %v", err)
		}
		var got []string
		for _, e := range b.PendingEvents() {
			got = append(got, e.String())
		}
		want := []string{
			"agi of Bran is now 3",
			"tie between Bran and Cole on highest agi",
			"Bran rolls 2 for turn_order",
			"Cole rolls 6 for turn_order",
			"C chooses Cole to go before Bran",
			"turn_order #1: Aria, by highest agi = 5",
			"turn_order #2: Cole, by C's choice (choice before_after by winner)",
			"turn_order #3: Bran, by C's choice (choice before_after by winner)",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("transcript (-want +got):\n%s", diff)
		}
	})
}

// A remembered value that JSON cannot hold (NaN, an infinity) would make
// every later Snapshot fail: it is the remember rule's error, at its line,
// as a NaN criterion is.
func TestRememberedNaNIsARuleError(t *testing.T) {
	ctx := context.Background()
	for _, expr := range []string{"0.0 / 0.0", "1 / 0", "[1, -1 / 0]"} {
		t.Run(expr, func(t *testing.T) {
			p := compileInline(t, `ruleset r "r" {
  sides 2
  remember x = `+expr+`
  phase p {
    order sides as p {
      highest roll d6
      tie: reroll
    }
  }
}
`)
			b, err := p.NewBattle(runtime.Sides("A", "B"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = b.PlayRound(ctx)
			re, ok := errors.AsType[*runtime.RuleError](err)
			if !ok {
				t.Fatalf("PlayRound: %v; want a RuleError", err)
			}
			if re.Pos.Line != 3 {
				t.Errorf("the error is at %v, want line 3 (the remember rule)", re.Pos)
			}
			if _, err := b.Snapshot(); err != nil {
				t.Errorf("Snapshot after the failed round: %v", err)
			}
			if b.Round() != 0 {
				t.Errorf("round %d after the failed round, want 0: the battle as before it", b.Round())
			}
		})
	}
}

// Dice and a Decider are asked in the middle of making an order, and may
// change the battle there (a casualty at the table): the order made keeps
// the units and values it started with, and the next round makes it from
// what they are now. An until-changed order whose unit was removed there
// panicked, and one whose value was set kept the old order as if made from
// the new value, for the rest of the battle.
func TestChangesFromDiceOrDecider(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "agi")
	changes := []struct {
		name   string
		change func(b *runtime.Battle) error
		next   []string // the next round's order
	}{
		{"SetAttr", func(b *runtime.Battle) error { return b.SetAttr(ctx, "Cole", "agi", 9) }, []string{"Cole", "Aria", "Bran"}},
		{"RemoveUnit", func(b *runtime.Battle) error { return b.RemoveUnit(ctx, "Bran") }, []string{"Aria", "Cole"}},
		{"MakeReady", func(b *runtime.Battle) error { return b.MakeReady("Cole") }, []string{"Aria", "Bran", "Cole"}},
	}
	for _, c := range changes {
		for _, from := range []string{"dice", "decider"} {
			t.Run(c.name+" from "+from, func(t *testing.T) {
				var b *runtime.Battle
				asked := false
				change := func() {
					if !asked {
						asked = true
						if err := c.change(b); err != nil {
							t.Errorf("%s from the %s: %v", c.name, from, err)
						}
					}
				}
				dice := runtime.FuncDice{Die: func(ctx context.Context, req runtime.RollRequest, subject string) (int, error) {
					if from == "dice" {
						change()
					}
					return map[string]int{"Aria": 6, "Bran": 2, "Cole": 1}[subject], nil
				}}
				dec := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
					if from == "decider" {
						change()
					}
					return d.Default, nil
				})
				var err error
				b, err = p.NewBattle(p.Example(), runtime.WithDice(dice), runtime.WithDecider(dec))
				if err != nil {
					t.Fatal(err)
				}
				res, err := b.PlayRound(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if !asked {
					t.Fatalf("the %s was never asked", from)
				}
				if diff := cmp.Diff([]string{"Aria", "Bran", "Cole"}, res.Order); diff != "" {
					t.Errorf("the order made during the change (-want +got):\n%s", diff)
				}
				if res, err = b.PlayRound(ctx); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(c.next, res.Order); diff != "" {
					t.Errorf("the next round's order (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// A remembered value is kept as a snapshot saves it; one that holds itself
// cannot be, and the round fails with a rule error, as for NaN, instead of
// recursing until the process dies.
func TestRememberCyclicValue(t *testing.T) {
	loop := &cyclic{}
	loop.Next = loop
	p := compileInline(t, `ruleset x {
  sides 2
  remember x = loop()
  phase p each round {
    order sides as o {
      highest roll d6
      tie: reroll
    }
  }
}
`, runtime.WithFunction("loop", func(...any) (any, error) { return loop, nil }))
	b, err := p.NewBattle(runtime.Sides("A", "B"))
	if err != nil {
		t.Fatal(err)
	}
	got := ""
	if _, err := b.PlayRound(context.Background()); err != nil {
		got = err.Error()
	}
	want := "inline.rules:3:16: remember x: a value nested more than 100 deep cannot be saved (does it hold itself?)"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PlayRound (-want +got):\n%s", diff)
	}
}

// An AGI that drops and comes back between rounds makes the order again
// each time, the second time with a new tie and a new roll: the
// recomputations' events open the next round's transcript.
func TestRecomputationsBetweenRoundsOpenTheNextTranscript(t *testing.T) {
	p := mustProgram(t, "agi")
	dice := runtime.NewScriptedDice()
	decider := runtime.NewScriptedDecider()
	b, err := p.NewBattle([]runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Blue", 5)},
		runtime.WithDice(dice), runtime.WithDecider(decider))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dice.AddRoll("A-unit", 4)
	dice.AddRoll("B-unit", 2)
	decider.Add("A", "before")
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.SetAttr(ctx, "A-unit", "agi", 4); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"B-unit", "A-unit"}, b.Order()); diff != "" {
		t.Errorf("order after the drop (-want +got):\n%s", diff)
	}
	dice.AddRoll("A-unit", 3)
	dice.AddRoll("B-unit", 5)
	decider.Add("B", "before")
	if err := b.SetAttr(ctx, "A-unit", "agi", 5); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"B-unit", "A-unit"}, b.Order()); diff != "" {
		t.Errorf("order after the re-match (-want +got):\n%s", diff)
	}
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"set A-unit", "placement B-unit", "placement A-unit",
		"set A-unit", "tie A-unit/B-unit", "roll A-unit=3", "roll B-unit=5", "decision B:before", "placement B-unit", "placement A-unit",
	}
	if diff := cmp.Diff(want, briefEvents(res.Events)); diff != "" {
		t.Errorf("round 2 events (-want +got):\n%s", diff)
	}
	if res.Holder != "B-unit" {
		t.Errorf("round 2 holder %q, want B-unit", res.Holder)
	}
}

// When a watched value changes in the middle of a round and the new tie is
// resolved by a choice, the round's chooser is whoever made that choice;
// when the tie is kept, the standing still records who chose it.
func TestChooserFollowsRecomputation(t *testing.T) {
	p := mustProgram(t, "agi")
	tests := []struct {
		name string
		// during runs inside round 2, after round 1 (A-unit 4, B-unit 2, A
		// chooses before).
		during       func(ctx context.Context, b *runtime.Battle, d *runtime.ScriptedDice, dec *runtime.ScriptedDecider) error
		wantHolder   string
		wantChooser  string // b.Chooser() in round 2
		wantStanding string // b.Standing("turn_order").Chooser
	}{
		{
			name: "a new tie in mid-round is chosen by B",
			during: func(ctx context.Context, b *runtime.Battle, d *runtime.ScriptedDice, dec *runtime.ScriptedDecider) error {
				if err := b.SetAttr(ctx, "A-unit", "agi", 4); err != nil {
					return err
				}
				d.AddRoll("A-unit", 1)
				d.AddRoll("B-unit", 6)
				dec.Add("B", "after")
				return b.SetAttr(ctx, "A-unit", "agi", 5)
			},
			wantHolder: "A-unit", wantChooser: "B", wantStanding: "B",
		},
		{
			name: "a kept tie keeps its chooser",
			during: func(ctx context.Context, b *runtime.Battle, d *runtime.ScriptedDice, dec *runtime.ScriptedDecider) error {
				return b.SetAttr(ctx, "C-unit", "agi", 4)
			},
			wantHolder: "A-unit", wantChooser: "", wantStanding: "A",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			d := runtime.NewScriptedDice()
			dec := runtime.NewScriptedDecider()
			b, err := p.NewBattle([]runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Blue", 5), agiSide("C", "Green", 3)},
				runtime.WithDice(d), runtime.WithDecider(dec))
			if err != nil {
				t.Fatal(err)
			}
			d.AddRoll("A-unit", 4)
			d.AddRoll("B-unit", 2)
			dec.Add("A", "before")
			res, err := b.PlayRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if res.Chooser != "A" {
				t.Fatalf("round 1 chooser %q, want A", res.Chooser)
			}
			if err := b.StartRound(ctx); err != nil {
				t.Fatal(err)
			}
			if err := tt.during(ctx, b, d, dec); err != nil {
				t.Fatal(err)
			}
			type roles struct{ Holder, Chooser, StandingChooser string }
			want := roles{tt.wantHolder, tt.wantChooser, tt.wantStanding}
			got := roles{b.Holder(), b.Chooser(), b.Standing("turn_order").Chooser}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("roles after the recomputation (-want +got):\n%s", diff)
			}
		})
	}
}

// reorderRules orders sides by agi until it changes, for an activation
// whose mode is %s.
const reorderRules = `ruleset re {
  sides 2..
  side attribute agi int
  phase p each round {
    order sides as priority until changed agi {
      highest agi
    }
  }
  activation %s by priority
}`

// A change that reorders the activation's standing mid-round leaves the
// turn with the side whose turn it is, and the turns go on from its place
// in the new order: the counter's place in the new order would give one
// side two turns in a row and skip another. Before anyone has had a turn,
// the new first, who holds priority now, goes first.
func TestReorderMidRoundKeepsTheTurn(t *testing.T) {
	sides := func() []runtime.SideSpec {
		return []runtime.SideSpec{
			{Name: "A", Attrs: map[string]any{"agi": 3}, Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}}},
			{Name: "B", Attrs: map[string]any{"agi": 2}, Units: []runtime.UnitSpec{{Name: "b1"}, {Name: "b2"}}},
			{Name: "C", Attrs: map[string]any{"agi": 1}, Units: []runtime.UnitSpec{{Name: "c1"}, {Name: "c2"}}},
		}
	}
	tests := []struct {
		name, mode string
		before     []string // the units activated before the change
		change     func(ctx context.Context, b *runtime.Battle) error
		want       []runtime.ActivationRecord
	}{{
		// A has acted, B is next; C overtakes everyone: C, A, B. B keeps
		// its turn; A does not go again.
		name: "alternate", mode: "alternate", before: []string{"a1"},
		change: func(ctx context.Context, b *runtime.Battle) error { return b.SetAttr(ctx, "C", "agi", 9) },
		want: []runtime.ActivationRecord{
			act("A", "a1"), act("B", "b1"), act("C", "c1"), act("A", "a2"), act("B", "b2"), act("C", "c2"),
		},
	}, {
		// B, which is next, drops to last: A, C, B. B keeps its turn,
		// and A follows it.
		name: "alternate next side drops", mode: "alternate", before: []string{"a1"},
		change: func(ctx context.Context, b *runtime.Battle) error { return b.SetAttr(ctx, "B", "agi", 0) },
		want: []runtime.ActivationRecord{
			act("A", "a1"), act("B", "b1"), act("A", "a2"), act("C", "c1"), act("B", "b2"), pass("A"), act("C", "c2"),
		},
	}, {
		// B, which has just acted, moves to the front: B, A, C. C, whose
		// turn it is, keeps it, and A waits for the turns to come round.
		name: "alternate side that acted moves up", mode: "alternate", before: []string{"a1", "b1"},
		change: func(ctx context.Context, b *runtime.Battle) error { return b.SetAttr(ctx, "B", "agi", 9) },
		want: []runtime.ActivationRecord{
			act("A", "a1"), act("B", "b1"), act("C", "c1"), act("B", "b2"), act("A", "a2"), act("C", "c2"),
		},
	}, {
		// Before anyone has acted, the new first, who holds priority now,
		// goes first.
		name: "alternate before any turn", mode: "alternate",
		change: func(ctx context.Context, b *runtime.Battle) error { return b.SetAttr(ctx, "C", "agi", 9) },
		want: []runtime.ActivationRecord{
			act("C", "c1"), act("A", "a1"), act("B", "b1"), act("C", "c2"), act("A", "a2"), act("B", "b2"),
		},
	}, {
		// A special rule's holder moves C to the front: B keeps its turn.
		name: "alternate holder set", mode: "alternate", before: []string{"a1"},
		change: func(ctx context.Context, b *runtime.Battle) error { return b.SetHolder("C") },
		want: []runtime.ActivationRecord{
			act("A", "a1"), act("B", "b1"), act("C", "c1"), act("A", "a2"), act("B", "b2"), act("C", "c2"),
		},
	}, {
		// A is half way through its units when it drops to last: it
		// finishes them, then B and C go.
		name: "sequential", mode: "sequential", before: []string{"a1"},
		change: func(ctx context.Context, b *runtime.Battle) error { return b.SetAttr(ctx, "A", "agi", 0) },
		want: []runtime.ActivationRecord{
			act("A", "a1"), act("A", "a2"), act("B", "b1"), act("B", "b2"), act("C", "c1"), act("C", "c2"),
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := compileInline(t, fmt.Sprintf(reorderRules, tt.mode))
			ctx := context.Background()
			b, err := p.NewBattle(sides(), runtime.WithDice(runtime.NewScriptedDice()))
			if err != nil {
				t.Fatal(err)
			}
			if err := b.StartRound(ctx); err != nil {
				t.Fatal(err)
			}
			for _, u := range tt.before {
				if err := b.Activate(ctx, u); err != nil {
					t.Fatal(err)
				}
			}
			if err := tt.change(ctx, b); err != nil {
				t.Fatal(err)
			}
			// The restored battle plays on exactly as the battle itself.
			snap, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			r, err := p.Restore(snap, runtime.WithDice(runtime.NewScriptedDice()))
			if err != nil {
				t.Fatal(err)
			}
			for name, b := range map[string]*runtime.Battle{"battle": b, "restored": r} {
				for n := b.Next(); n != nil; n = b.Next() {
					var err error
					if n.MustPass {
						err = b.Pass(ctx)
					} else {
						err = b.Activate(ctx, n.Options[0])
					}
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
				if diff := cmp.Diff(tt.want, b.Activations()); diff != "" {
					t.Errorf("%s: activations (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

// In sequential activation the counter can rest on a side with no ready
// unit, which the turn passes over: the side whose turn it is is the next
// with one, and it keeps the turn when the order changes. Here B has lost
// its units, so after A it is C's turn; C drops below D: C still goes
// next, not D, which took the place after B.
func TestReorderMidRoundSequentialSkipsSideWithoutUnits(t *testing.T) {
	p := compileInline(t, fmt.Sprintf(reorderRules, "sequential"))
	ctx := context.Background()
	var specs []runtime.SideSpec
	for i, s := range []string{"A", "B", "C", "D"} {
		specs = append(specs, runtime.SideSpec{Name: s, Attrs: map[string]any{"agi": 4 - i},
			Units: []runtime.UnitSpec{{Name: strings.ToLower(s) + "1"}, {Name: strings.ToLower(s) + "2"}}})
	}
	b, err := p.NewBattle(specs, runtime.WithDice(runtime.NewScriptedDice()))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"a1", "a2"} {
		if err := b.Activate(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range []string{"b1", "b2"} {
		if err := b.RemoveUnit(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if n := b.Next(); n == nil || n.Side != "C" {
		t.Fatalf("before the change, Next = %+v, want C's turn", n)
	}
	if err := b.SetAttr(ctx, "C", "agi", 0); err != nil {
		t.Fatal(err)
	}
	if n := b.Next(); n == nil || n.Side != "C" {
		t.Fatalf("after the change, Next = %+v, want C's turn still", n)
	}
	for n := b.Next(); n != nil; n = b.Next() {
		if err := b.Activate(ctx, n.Options[0]); err != nil {
			t.Fatal(err)
		}
	}
	want := []runtime.ActivationRecord{act("A", "a1"), act("A", "a2"), act("C", "c1"), act("C", "c2"), act("D", "d1"), act("D", "d2")}
	if diff := cmp.Diff(want, b.Activations()); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}
}

// With no round under way, before StartRound or after EndRound, the
// methods that need one return ErrNoRound, which a host can test for:
// Step does too, rather than report a round it never played as done. A
// round under way whose turns are over is ErrRoundOver for Activate and
// Pass, and done for Step.
func TestErrNoRound(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("morturi")
	b, err := p.NewBattle([]runtime.SideSpec{school("Ludi Aeternum", "la", 3), school("Malleus Deus", "md", 5)},
		runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	noRound := func(when string) {
		t.Helper()
		if done, err := b.Step(ctx); done || !errors.Is(err, runtime.ErrNoRound) {
			t.Errorf("%s: Step = %v, %v; want ErrNoRound", when, done, err)
		}
		if err := b.Activate(ctx, "la1"); !errors.Is(err, runtime.ErrNoRound) {
			t.Errorf("%s: Activate: %v; want ErrNoRound", when, err)
		}
		if err := b.Pass(ctx); !errors.Is(err, runtime.ErrNoRound) {
			t.Errorf("%s: Pass: %v; want ErrNoRound", when, err)
		}
		if _, err := b.EndRound(ctx); !errors.Is(err, runtime.ErrNoRound) {
			t.Errorf("%s: EndRound: %v; want ErrNoRound", when, err)
		}
		if err := b.SetHolder("Ludi Aeternum"); !errors.Is(err, runtime.ErrNoRound) {
			t.Errorf("%s: SetHolder: %v; want ErrNoRound", when, err)
		}
		if err := b.Answer(ctx, runtime.ChoiceAnswer("la1")); !errors.Is(err, runtime.ErrNothingPending) {
			t.Errorf("%s: Answer: %v; want ErrNothingPending", when, err)
		}
	}
	noRound("before StartRound")
	if b.Round() != 0 {
		t.Fatalf("round %d was played by calls that should have refused", b.Round())
	}

	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	for {
		done, err := b.Step(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			break
		}
	}
	// The round is under way, its turns over.
	if done, err := b.Step(ctx); !done || err != nil {
		t.Errorf("Step after the last turn = %v, %v; want done", done, err)
	}
	if err := b.Pass(ctx); !errors.Is(err, runtime.ErrRoundOver) {
		t.Errorf("Pass after the last turn: %v; want ErrRoundOver", err)
	}
	if err := b.Activate(ctx, "la1"); !errors.Is(err, runtime.ErrRoundOver) {
		t.Errorf("Activate after the last turn: %v; want ErrRoundOver", err)
	}
	if _, err := b.EndRound(ctx); err != nil {
		t.Fatal(err)
	}
	noRound("after EndRound")

	// The message still says what was called.
	if _, err := b.Step(ctx); err == nil || err.Error() != "Step: no round is under way" {
		t.Errorf("Step: %v", err)
	}
}
