package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// A script that runs out is ErrUnscripted, which a host that replays a log
// of dice and answers (and then hands over to the players) can test for,
// apart from a rule that fails or a limit. The messages are unchanged.
func TestErrUnscripted(t *testing.T) {
	ctx := context.Background()
	random := compileInline(t, `ruleset r "Random" {
  sides 2
  phase p {
    order sides as p {
      random
    }
  }
}
`)
	tests := []struct {
		name    string
		prog    *runtime.Program
		sides   []runtime.SideSpec
		opts    []runtime.BattleOption
		wantMsg string
	}{
		{"roll", compileBundled("mesbg"), runtime.Sides("Jay", "Rob"),
			[]runtime.BattleOption{runtime.WithDice(runtime.NewScriptedDice())},
			"round 1, order priority: a d6 roll is needed for Jay, Rob, but none is scripted"},
		{"pick", random, runtime.Sides("A", "B"),
			[]runtime.BattleOption{runtime.WithDice(runtime.NewScriptedDice())},
			"round 1, order p: a random pick among A, B is needed, but none is scripted"},
		// The bag's draw is the activation's, not an order's pick.
		{"draw", compileInline(t, `ruleset d "Bag" {
  sides 2
  phase p {
    order sides as muster {
      highest count(units)
    }
  }
  activation draw by muster
}
`), []runtime.SideSpec{{Name: "Jay", Units: []runtime.UnitSpec{{Name: "j1"}, {Name: "j2"}}}, {Name: "Rob", Units: []runtime.UnitSpec{{Name: "r1"}}}},
			[]runtime.BattleOption{runtime.WithDice(runtime.NewScriptedDice())},
			"round 1: activation draw: a die must be drawn from the bag (Jay 2, Rob 1), but no draw is scripted (script it with `random SIDE`, naming the side whose die comes out)"},
		{"decision", compileBundled("mesbg"), runtime.Sides("Jay", "Rob"),
			[]runtime.BattleOption{runtime.WithDice(runtime.NewSeededDice(7)), runtime.WithDecider(runtime.NewScriptedDecider())},
			"round 1, order priority: unscripted decision: Jay chooses who goes first among Jay, Rob (script it with `Jay chooses ...`)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.prog.NewBattle(tt.sides, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = b.PlayRound(ctx)
			if !errors.Is(err, runtime.ErrUnscripted) {
				t.Errorf("PlayRound: %v; want an error wrapping ErrUnscripted", err)
			}
			if err == nil {
				return
			}
			if diff := cmp.Diff(tt.wantMsg, err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			// What an order needed names the order, in the field as in words.
			if re, ok := errors.AsType[*runtime.RoundError](err); !ok {
				t.Errorf("%#v is no RoundError", err)
			} else if want := orderOf(tt.wantMsg); re.Order != want {
				t.Errorf("RoundError.Order = %q, want %q", re.Order, want)
			}
			if errors.Is(err, runtime.ErrLimit) {
				t.Errorf("PlayRound: %v is ErrLimit too", err)
			}
		})
	}
	// A scripted result that is impossible is a ScriptError, not a missing one.
	d := runtime.NewScriptedDice()
	d.AddRoll("Jay", 9)
	d.AddRoll("Rob", 1)
	b, err := compileBundled("mesbg").NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(d))
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.PlayRound(ctx)
	if err == nil || errors.Is(err, runtime.ErrUnscripted) {
		t.Errorf("an impossible scripted roll: %v; want an error that is not ErrUnscripted", err)
	}
	// It names the order it was rolled for, as a roll nobody scripted does.
	if re, ok := errors.AsType[*runtime.RoundError](err); !ok || re.Order != "priority" {
		t.Errorf("an impossible scripted roll: %#v; want a RoundError of order priority", err)
	}
}

// A move the turn does not allow is ErrNotAllowed, so that a host taking
// moves from players (a bot's command, a click) can tell a player's
// mistake, to be asked again, from a failure. The battle is unchanged.
func TestErrNotAllowed(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("morturi")
	b, err := p.NewBattle([]runtime.SideSpec{school("Ludi Aeternum", "la", 4), school("Malleus Deus", "md", 4, 4)},
		runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	// Ludi Aeternum has fewer gladiators: it goes first.
	tests := []struct {
		name    string
		move    func() error
		wantMsg string
	}{
		{"another side's unit", func() error { return b.Activate(ctx, "md1") },
			"Ludi Aeternum cannot activate md1 now (ready: la1): md1 is Malleus Deus' unit, and Ludi Aeternum activates one of its own ready units"},
		{"no such unit", func() error { return b.Activate(ctx, "nobody") },
			"Ludi Aeternum cannot activate nobody now (ready: la1): no unit is called nobody"},
		{"pass with a ready unit", func() error { return b.Pass(ctx) },
			"Ludi Aeternum may not pass while it has ready units (la1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, b)
			refused(t, tt.move(), runtime.ErrNotAllowed, tt.wantMsg)
			unchanged(t, b, before)
		})
	}
	// Ludi Aeternum activates its only gladiator; Malleus Deus activates
	// one; now Ludi Aeternum has none and must pass.
	for _, u := range []string{"la1", "md1"} {
		if err := b.Activate(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	err = b.Activate(ctx, "la1")
	if !errors.Is(err, runtime.ErrNotAllowed) {
		t.Errorf("Activate when the side must pass: %v; want ErrNotAllowed", err)
	}
	if err := b.Pass(ctx); err != nil {
		t.Fatalf("Pass when the side must: %v", err)
	}
}

// Starting a round while one is under way is ErrRoundUnderWay, the
// counterpart of ErrNoRound, for a host that receives "next round" from a
// player before the round's turns are played. The round is untouched.
func TestErrRoundUnderWay(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("necromunda")
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, b)
	tests := []struct {
		name string
		call func() error
	}{
		{"StartRound", func() error { return b.StartRound(ctx) }},
		{"PlayRound", func() error { _, err := b.PlayRound(ctx); return err }},
		{"AdvanceRound", func() error { return b.AdvanceRound(ctx) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refused(t, tt.call(), runtime.ErrRoundUnderWay, "round 1 has not ended: end it with EndRound")
			unchanged(t, b, before)
		})
	}
}

// SetHolder before the main order was ever made (a special rule at the
// start of round 1) is ErrNoOrder, apart from a holder who is not in the
// order (ErrInvalidChange) and no round at all (ErrNoRound). At the start
// of round 2 last round's order is there to put the holder first in.
func TestErrNoOrder(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("mesbg")
	var got []error
	hook := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
		if at == (runtime.HookPoint{Edge: "start", Kind: "round"}) {
			got = append(got, b.SetHolder("Rob"))
		}
		return nil
	}
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(7)), runtime.WithHook(hook))
	if err != nil {
		t.Fatal(err)
	}
	errNoRound := b.SetHolder("Rob")
	for range 2 {
		if _, err := b.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 2 {
		t.Fatalf("the hook ran %d times, want 2", len(got))
	}
	tests := []struct {
		name    string
		err     error
		want    error // nil: no error
		wantMsg string
	}{
		{"before round 1", errNoRound, runtime.ErrNoRound, "holder Rob: no round is under way"},
		{"start of round 1", got[0], runtime.ErrNoOrder,
			"holder Rob: order priority is not made yet (set the holder once it is, such as at the end of its step)"},
		{"start of round 2", got[1], nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == nil {
				if tt.err != nil {
					t.Fatalf("SetHolder: %v", tt.err)
				}
				return
			}
			refused(t, tt.err, tt.want, tt.wantMsg)
			for _, other := range []error{runtime.ErrNoRound, runtime.ErrNoOrder, runtime.ErrInvalidChange} {
				if other != tt.want && errors.Is(tt.err, other) {
					t.Errorf("SetHolder: %v is %v too", tt.err, other)
				}
			}
		})
	}
	if errors.Is(b.SetHolder("Nobody"), runtime.ErrNoOrder) {
		t.Error("SetHolder of nobody after the round: ErrNoOrder")
	}
}

// refused checks that err wraps want, with the message wantMsg.
func refused(t *testing.T, err, want error, wantMsg string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%v; want an error wrapping %v", err, want)
	}
	if err != nil {
		if diff := cmp.Diff(wantMsg, err.Error()); diff != "" {
			t.Errorf("message (-want +got):\n%s", diff)
		}
	}
}

// unchanged checks that b's snapshot is still before.
func unchanged(t *testing.T, b *runtime.Battle, before string) {
	t.Helper()
	if diff := cmp.Diff(before, snapshot(t, b)); diff != "" {
		t.Errorf("the battle changed (-before +after):\n%s", diff)
	}
}

// misanswer answers one decision, the first that wrong picks out, with
// wrong's answer, and every other with the default, noting what it was
// asked: a player over the network who sends one answer the decision does
// not offer.
type misanswer struct {
	wrong func(d runtime.Decision) []string // nil: not this one
	asked []runtime.Decision
	bad   int // the index in asked of the decision answered wrongly, or -1
}

func (m *misanswer) Decide(ctx context.Context, d runtime.Decision) ([]string, error) {
	m.asked = append(m.asked, d)
	if m.bad < 0 {
		if ans := m.wrong(d); ans != nil {
			m.bad = len(m.asked) - 1
			return ans, nil
		}
	}
	return d.Default, nil
}

// An answer a Decider gives that the decision does not offer is
// ErrInvalidAnswer, wherever the answer is checked, so that a host taking
// answers from players over the network can tell a player's mistake from
// a decider that failed, a script that ran out or a cancelled context.
// The messages are unchanged. The decision waits, and Step or StartRound
// called again asks it again.
func TestErrInvalidAnswer(t *testing.T) {
	ctx := context.Background()
	agi, mesbg, necromunda := compileBundled("agi"), compileBundled("mesbg"), compileBundled("necromunda")
	agiSides := func(teams ...string) []runtime.SideSpec {
		var out []runtime.SideSpec
		for i, team := range teams {
			name := string(rune('A' + i))
			out = append(out, runtime.SideSpec{Name: name, Team: team,
				Units: []runtime.UnitSpec{{Name: name + "1", Attrs: map[string]any{"agi": 5}}}})
		}
		return out
	}
	of := func(kind runtime.DecisionKind, ans ...string) func(d runtime.Decision) []string {
		return func(d runtime.Decision) []string {
			if d.Kind == kind {
				return ans
			}
			return nil
		}
	}
	// activated answers a side's second activation with the unit of its
	// first, which has no Ready marker now.
	activated := func() func(d runtime.Decision) []string {
		first := map[string]string{}
		return func(d runtime.Decision) []string {
			if d.Kind != runtime.ChooseActivation {
				return nil
			}
			if u, ok := first[d.By]; ok {
				return []string{u}
			}
			first[d.By] = d.Default[0]
			return nil
		}
	}
	tests := []struct {
		name    string
		prog    *runtime.Program
		sides   []runtime.SideSpec
		wrong   func(d runtime.Decision) []string
		inStep  bool // asked by Step, not StartRound
		wantMsg string
	}{
		{"first: nobody", mesbg, runtime.Sides("Jay", "Rob"), of(runtime.ChooseFirst, "Nobody"), false,
			`round 1, order priority: Jay chooses who goes first among Jay, Rob: answer "Nobody" is not valid (options: Jay, Rob)`},
		{"first: two", mesbg, runtime.Sides("Jay", "Rob"), of(runtime.ChooseFirst, "Jay", "Rob"), false,
			`round 1, order priority: Jay chooses who goes first among Jay, Rob: answer "Jay, Rob" is not valid (options: Jay, Rob)`},
		{"before_after: neither", agi, agiSides("Red", "Blue"), of(runtime.ChooseBeforeAfter, "beside"), false,
			`round 1, order turn_order: A chooses whether A1 goes before or after B1: answer "beside" is not valid (options: before, after)`},
		{"team order: not every option", agi, agiSides("Red", "Red"), of(runtime.ChooseOrder, "A1"), false,
			`round 1, order turn_order: Red arranges A1, B1: answer "A1" is not valid (options: A1, B1)`},
		{"team order: one twice", agi, agiSides("Red", "Red"), of(runtime.ChooseOrder, "A1", "A1"), false,
			`round 1, order turn_order: Red arranges A1, B1: answer "A1, A1" is not valid (options: A1, B1)`},
		{"activation: nobody", necromunda, necromunda.Example(), of(runtime.ChooseActivation, "Nobody"), true,
			`round 1: Goliaths chooses a unit to activate among Krug, Grath, Volk: answer "Nobody" is not valid (options: Krug, Grath, Volk)`},
		{"activation: the other side's unit", necromunda, necromunda.Example(), of(runtime.ChooseActivation, "Mira"), true,
			`round 1: Goliaths chooses a unit to activate among Krug, Grath, Volk: answer "Mira" is not valid (options: Krug, Grath, Volk): Mira is Eschers' unit, and Goliaths activates one of its own ready units`},
		{"activation: a unit not ready", necromunda, necromunda.Example(), activated(), true,
			`round 1: Goliaths chooses a unit to activate among Grath, Volk: answer "Krug" is not valid (options: Grath, Volk): Krug has activated this round`},
		{"pass not allowed", necromunda, necromunda.Example(), of(runtime.ChooseActivation, "pass"), true,
			`round 1: Goliaths chooses a unit to activate among Krug, Grath, Volk: answer "pass" is not valid (options: Krug, Grath, Volk)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dec := &misanswer{wrong: tt.wrong, bad: -1}
			b, err := tt.prog.NewBattle(tt.sides, runtime.WithDice(runtime.NewSeededDice(7)), runtime.WithDecider(dec))
			if err != nil {
				t.Fatal(err)
			}
			err = b.StartRound(ctx)
			if tt.inStep {
				if err != nil {
					t.Fatal(err)
				}
				for err == nil && dec.bad < 0 {
					_, err = b.Step(ctx)
				}
			}
			if !errors.Is(err, runtime.ErrInvalidAnswer) {
				t.Fatalf("%v; want an error wrapping ErrInvalidAnswer", err)
			}
			refused(t, err, runtime.ErrInvalidAnswer, tt.wantMsg)
			if re, ok := errors.AsType[*runtime.RoundError](err); !ok {
				t.Errorf("%#v is no RoundError", err)
			} else if want := orderOf(tt.wantMsg); re.Order != want {
				// An order's choice names the order, as its other errors do.
				t.Errorf("RoundError.Order = %q, want %q", re.Order, want)
			}
			for _, other := range []error{runtime.ErrUnscripted, runtime.ErrNotAllowed, runtime.ErrPending, context.Canceled} {
				if errors.Is(err, other) {
					t.Errorf("%v is %v too", err, other)
				}
			}
			// Nothing of the turn or the round's start is played past the
			// decision, which waits: Step or StartRound, called again,
			// asks it again, and the battle may be saved meanwhile.
			if q := b.Pending(); q == nil || q.Decision == nil {
				t.Errorf("pending %v, want the decision", q)
			}
			if _, err := b.Snapshot(); err != nil {
				t.Errorf("Snapshot while the decision waits: %v", err)
			}
			if tt.inStep {
				if _, err := b.Step(ctx); err != nil {
					t.Fatalf("Step again: %v", err)
				}
			} else if err := b.StartRound(ctx); err != nil {
				t.Fatalf("StartRound again: %v", err)
			}
			if len(dec.asked) <= dec.bad+1 {
				t.Fatalf("asked %d decisions; the one answered wrongly was not asked again", len(dec.asked))
			}
			if diff := cmp.Diff(dec.asked[dec.bad], dec.asked[dec.bad+1]); diff != "" {
				t.Errorf("the decision asked again (-refused +again):\n%s", diff)
			}
			playLoop(t, ctx, b)
			if _, err := b.EndRound(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}

	// A ScriptedDecider's refusal of its own answer is still the
	// ScriptError that points at the script's line, and is
	// ErrInvalidAnswer too.
	script := runtime.NewScriptedDecider()
	script.Add("Jay", "Nobody")
	b, err := mesbg.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(7)), runtime.WithDecider(script))
	if err != nil {
		t.Fatal(err)
	}
	err = b.StartRound(ctx)
	if !errors.Is(err, runtime.ErrInvalidAnswer) {
		t.Errorf("a scripted answer not offered: %v; want ErrInvalidAnswer", err)
	}
	if se, ok := errors.AsType[*runtime.ScriptError](err); !ok || !se.Answer || se.Who != "Jay" || se.Index != 0 {
		t.Errorf("a scripted answer not offered: %#v; want the ScriptError of Jay's answer 0", err)
	}

	// What is not an answer refused is not ErrInvalidAnswer.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	errOwn := errors.New("the player hung up")
	for _, tt := range []struct {
		name string
		ctx  context.Context
		dec  runtime.Decider
	}{
		{"the decider's own error", ctx, runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
			return nil, errOwn
		})},
		{"a script run out", ctx, runtime.NewScriptedDecider()},
		{"a cancelled context", cancelled, runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
			return nil, ctx.Err()
		})},
	} {
		b, err := mesbg.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(7)), runtime.WithDecider(tt.dec))
		if err != nil {
			t.Fatal(err)
		}
		if err := b.StartRound(tt.ctx); err == nil || errors.Is(err, runtime.ErrInvalidAnswer) {
			t.Errorf("%s: %v; want an error that is not ErrInvalidAnswer", tt.name, err)
		}
	}
}

// A scripted draw that names no side with a die in the bag (a unit, say)
// says what the bag holds and what to name, not the dice one by one.
func TestScriptedDrawNotInBag(t *testing.T) {
	prog := compileInline(t, `ruleset d "Bag" {
  sides 2
  phase p {
    order sides as muster {
      highest count(units)
    }
  }
  activation draw by muster
}
`)
	d := runtime.NewScriptedDice()
	d.AddPick("j1")
	b, err := prog.NewBattle([]runtime.SideSpec{{Name: "Jay", Units: []runtime.UnitSpec{{Name: "j1"}, {Name: "j2"}}}, {Name: "Rob", Units: []runtime.UnitSpec{{Name: "r1"}}}},
		runtime.WithDice(d))
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.PlayRound(context.Background())
	want := "round 1: activation draw: scripted random j1 is not a side with a die in the bag (Jay 2, Rob 1): name the side whose die comes out"
	if err == nil || err.Error() != want {
		t.Errorf("PlayRound: %v\nwant: %s", err, want)
	}
}

// orderOf is the order a RoundError's message names ("round 1, order
// priority: ..."), or "".
func orderOf(msg string) string {
	_, rest, ok := strings.Cut(msg, ", order ")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, ":")
	return name
}

// A host whose player clicks a unit that has activated hears why, in the
// words a Decider's refused answer gets, not only the units it may.
func TestActivateSaysWhyNotReady(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("necromunda")
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(5)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	first := map[string]string{} // the unit each side activated first
	for range 2 {
		turn := b.Next()
		first[turn.Side] = turn.Options[0]
		if err := b.Activate(ctx, turn.Options[0]); err != nil {
			t.Fatal(err)
		}
	}
	turn := b.Next()
	unit := first[turn.Side]
	err = b.Activate(ctx, unit)
	want := fmt.Sprintf("%s cannot activate %s now (ready: %s): %s has activated this round",
		turn.Side, unit, strings.Join(turn.Options, ", "), unit)
	if !errors.Is(err, runtime.ErrNotAllowed) || err.Error() != want {
		t.Errorf("Activate(%s) again: %v\nwant ErrNotAllowed: %s", unit, err, want)
	}
}

// Why a side cannot activate a unit names the unit and the reason, the
// one that holds (not "it has activated, or was not readied"): the words
// of Activate's refusal, which turnorder play's activation prompt says too.
func TestWhyNotActivate(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("necromunda")
	for _, tt := range []struct {
		transcript bool
		want       map[string]string
	}{
		{true, map[string]string{
			"Krug":   "Krug got no Ready marker this round (out_of_action)",
			"Grath":  "Grath has activated this round",
			"Mira":   "Mira is Eschers' unit",
			"Sable":  "Sable was removed from the battle this round",
			"Vex":    "Vex (of Eschers) was removed from the battle",
			"Volk":   "",
			"Nobody": "",
		}},
		// Without the transcript the battle does not know which rule
		// kept a marker, nor when a unit was removed: it says no more
		// than it knows.
		{false, map[string]string{
			"Krug":  "Krug has no Ready marker this round",
			"Grath": "Grath has activated this round",
			"Sable": "Sable (of Eschers) was removed from the battle",
		}},
	} {
		t.Run(fmt.Sprintf("transcript %v", tt.transcript), func(t *testing.T) {
			dice := runtime.NewScriptedDice()
			dice.AddRoll("Goliaths", 4)
			dice.AddRoll("Eschers", 2)
			b, err := p.NewBattle(p.Example(), runtime.WithDice(dice), runtime.WithTranscript(tt.transcript))
			if err != nil {
				t.Fatal(err)
			}
			// Vex falls before the round, Krug is out of action when
			// Ready markers are placed, and Sable falls in the round.
			must := func(err error) {
				t.Helper()
				if err != nil {
					t.Fatal(err)
				}
			}
			must(b.RemoveUnit(ctx, "Vex"))
			must(b.SetStatus(ctx, "Krug", "out_of_action", true))
			must(b.StartRound(ctx))
			must(b.Activate(ctx, "Grath"))
			must(b.RemoveUnit(ctx, "Sable"))
			must(b.Activate(ctx, "Mira"))
			if turn := b.Next(); turn == nil || turn.Side != "Goliaths" {
				t.Fatalf("the turn is %+v, want Goliaths'", turn)
			}
			for unit, want := range tt.want {
				if got := b.WhyNotActivate("Goliaths", unit); got != want {
					t.Errorf("WhyNotActivate(Goliaths, %s) = %q, want %q", unit, got, want)
				}
			}
			// Activate's refusal says it in the same words.
			err = b.Activate(ctx, "Krug")
			if want := "Goliaths cannot activate Krug now (ready: Volk): " + tt.want["Krug"]; !errors.Is(err, runtime.ErrNotAllowed) || err.Error() != want {
				t.Errorf("Activate(Krug): %v\nwant ErrNotAllowed: %s", err, want)
			}
		})
	}
}

// WhyNotActivate is public API: a host may ask it of any names, at any
// time, before a round, between rounds, with names of no unit or side, and
// it neither panics nor gives a reason for a name the battle never had.
func TestWhyNotActivateAnyNames(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("necromunda")
	var zero runtime.Battle
	if got := zero.WhyNotActivate("Goliaths", "Krug"); got != "" {
		t.Errorf("a zero Battle: WhyNotActivate(Goliaths, Krug) = %q, want \"\"", got)
	}
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	ask := func(when string) {
		t.Helper()
		for _, side := range []string{"Goliaths", "Nobody", ""} {
			for _, unit := range []string{"Nobody", "", "krug"} {
				if got := b.WhyNotActivate(side, unit); got != "" {
					t.Errorf("%s: WhyNotActivate(%q, %q) = %q, want \"\" for a name the battle never had", when, side, unit, got)
				}
			}
			if got := b.WhyNotActivate(side, "Mira"); side != "Goliaths" && side != "" && got != "Mira is Eschers' unit" {
				t.Errorf("%s: WhyNotActivate(%q, Mira) = %q", when, side, got)
			}
		}
	}
	ask("before round 1")
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	ask("after round 1")
	if err := b.RemoveUnit(ctx, "Vex"); err != nil {
		t.Fatal(err)
	}
	if got, want := b.WhyNotActivate("Nobody", "Vex"), "Vex (of Eschers) was removed from the battle"; got != want {
		t.Errorf("WhyNotActivate(Nobody, Vex) = %q, want %q", got, want)
	}
}

// PlayRound and AdvanceRound refuse in their own names, not in the name
// of StartRound, which the host did not call.
func TestPlayRoundRefusesInItsName(t *testing.T) {
	ctx := context.Background()
	p := compileBundled("mesbg")
	var got []string
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(1)),
		runtime.WithHook(func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
			if at == (runtime.HookPoint{Edge: "start", Kind: "round"}) && len(got) == 0 {
				_, err := b.PlayRound(ctx)
				got = append(got, fmt.Sprint(err), fmt.Sprint(b.AdvanceRound(ctx)))
			}
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"PlayRound: cannot be called from a hook, a decider or dice, in the middle of a round",
		"AdvanceRound: cannot be called from a hook, a decider or dice, in the middle of a round",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("from a hook (-want +got):\n%s", diff)
	}
}

// A pick out of range from FuncDice is refused as any Dice's is: a
// RoundError naming the round, the order (none for the draw of activation
// draw, as for a scripted draw the bag refuses) and how many there were to
// pick from, and ErrInvalidAnswer, for a host to ask the player again.
func TestFuncDicePickOutOfRange(t *testing.T) {
	ctx := context.Background()
	random := compileInline(t, `ruleset r "Random" {
  sides 2
  phase p {
    order sides as priority {
      random
    }
  }
}`)
	wrong := runtime.FuncDice{PickOne: func(ctx context.Context, req runtime.PickRequest) (int, error) { return 99, nil }}
	type got struct {
		Msg   string
		Order string
		Is    bool
	}
	play := func(b *runtime.Battle) got {
		err := b.StartRound(ctx)
		if err == nil {
			_, err = b.Step(ctx)
		}
		re, _ := errors.AsType[*runtime.RoundError](err)
		if re == nil {
			return got{Msg: fmt.Sprint(err)}
		}
		return got{err.Error(), re.Order, errors.Is(err, runtime.ErrInvalidAnswer)}
	}
	b, err := random.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(wrong))
	if err != nil {
		t.Fatal(err)
	}
	draw := newBag(t, "", runtime.WithDice(wrong))
	for _, tt := range []struct {
		b    *runtime.Battle
		want got
	}{
		{b, got{"round 1, order priority: random pick 99 is out of range (2 options)", "priority", true}},
		{draw, got{"round 1: activation draw: random pick 99 is out of range (5 dice in the bag)", "", true}},
	} {
		if diff := cmp.Diff(tt.want, play(tt.b)); diff != "" {
			t.Errorf("the refusal (-want +got):\n%s", diff)
		}
	}
}
