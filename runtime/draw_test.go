package runtime_test

// `activation draw`: each turn a side is drawn from a bag holding one die
// per ready unit, and the side drawn chooses which unit to activate.

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// pickLog records every pick asked of the dice it passes them to.
type pickLog struct {
	asked []runtime.PickRequest
	next  runtime.Dice
}

func (d *pickLog) Roll(ctx context.Context, req runtime.RollRequest) ([]int, error) {
	return d.next.Roll(ctx, req)
}

func (d *pickLog) Pick(ctx context.Context, req runtime.PickRequest) (int, error) {
	d.asked = append(d.asked, req)
	return d.next.Pick(ctx, req)
}

func newBag(t *testing.T, policy string, opts ...runtime.BattleOption) *runtime.Battle {
	t.Helper()
	p := compileInline(t, strings.Replace(drawRules, "%s", policy, 1))
	b, err := p.NewBattle(bagSides(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every draw is a pick among the dice in the bag, one per ready unit named
// for its side, listed in the standing's order; a scripted pick names the
// side. The side drawn is asked which unit to activate; a bag of one
// colour needs no draw.
func TestDrawPicksAmongTheDice(t *testing.T) {
	ctx := context.Background()
	script := runtime.NewScriptedDice()
	for _, side := range []string{"B", "A", "A", "B"} {
		script.AddPick(side)
	}
	dice := &pickLog{next: script}
	dec := runtime.NewScriptedDecider()
	dec.Add("B", "b2")
	dec.Add("A", "a3")
	dec.Add("A", "a1")
	log := &decisionLog{next: dec}
	b := newBag(t, "", runtime.WithDice(dice), runtime.WithDecider(log))
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&runtime.Turn{Undrawn: true}, b.Next()); diff != "" {
		t.Errorf("before the first draw (-want +got):\n%s", diff)
	}
	if side, err := b.Draw(ctx); side != "B" || err != nil {
		t.Fatalf("Draw() = %q, %v, want B", side, err)
	}
	if diff := cmp.Diff(&runtime.Turn{Side: "B", Options: []string{"b1", "b2"}}, b.Next()); diff != "" {
		t.Errorf("the first turn (-want +got):\n%s", diff)
	}
	if side, err := b.Draw(ctx); side != "B" || err != nil {
		t.Fatalf("Draw() again = %q, %v, want B still, with no pick", side, err)
	}
	playLoop(t, ctx, b)

	type pick struct {
		Standing string
		Options  []string
		Draw     bool
	}
	var picks []pick
	for _, r := range dice.asked {
		picks = append(picks, pick{r.Standing, r.Options, r.Draw})
	}
	wantPicks := []pick{
		{"roster", []string{"A", "A", "A", "B", "B"}, true},
		{"roster", []string{"A", "A", "A", "B"}, true},
		{"roster", []string{"A", "A", "B"}, true},
		{"roster", []string{"A", "B"}, true},
	}
	if diff := cmp.Diff(wantPicks, picks); diff != "" {
		t.Errorf("picks (-want +got):\n%s", diff)
	}
	type asked struct {
		By      string
		Options []string
		Default []string
	}
	var got []asked
	for _, d := range log.asked {
		got = append(got, asked{d.By, d.Options, d.Default})
	}
	wantAsked := []asked{
		{"B", []string{"b1", "b2"}, []string{"b1"}},
		{"A", []string{"a1", "a2", "a3"}, []string{"a1"}},
		{"A", []string{"a1", "a2"}, []string{"a1"}},
	}
	if diff := cmp.Diff(wantAsked, got); diff != "" {
		t.Errorf("decisions (-want +got):\n%s", diff)
	}
	want := []runtime.ActivationRecord{act("B", "b2"), act("A", "a3"), act("A", "a1"), act("B", "b1"), act("A", "a2")}
	if diff := cmp.Diff(want, b.Activations()); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}
	var draws []string
	for _, e := range b.Events() {
		if e.Kind == runtime.EvRandom {
			draws = append(draws, e.String())
		}
	}
	wantDraws := []string{
		"a die of B's is drawn from the bag (which held A 3, B 2)",
		"a die of A's is drawn from the bag (which held A 3, B 1)",
		"a die of A's is drawn from the bag (which held A 2, B 1)",
		"a die of B's is drawn from the bag (which held A 1, B 1)",
	}
	if diff := cmp.Diff(wantDraws, draws); diff != "" {
		t.Errorf("draw events (-want +got):\n%s", diff)
	}
}

// Seeded dice draw a side as often as it has dice: three of A's five.
func TestDrawWeightsBySidesDice(t *testing.T) {
	ctx := context.Background()
	b := newBag(t, "", runtime.WithDice(runtime.NewSeededDice(7)), runtime.WithTranscript(false))
	const rounds = 4000
	first := 0
	for range rounds {
		if err := b.StartRound(ctx); err != nil {
			t.Fatal(err)
		}
		side, err := b.Draw(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if side == "A" {
			first++
		}
		playLoop(t, ctx, b)
		if _, err := b.EndRound(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// 4000 draws at 3/5: the standard deviation is under 0.008.
	if got := float64(first) / rounds; math.Abs(got-0.6) > 0.04 {
		t.Errorf("A drawn first in %.3f of the rounds, want about 0.6", got)
	}
}

// A removed unit takes its die out of the bag: the draw is made at the
// start of the turn, after what happened between turns. A side drawn that
// has lost its last ready unit is not left with the turn: the next Step
// draws again.
func TestDrawRemovedUnit(t *testing.T) {
	ctx := context.Background()
	script := runtime.NewScriptedDice()
	script.AddPick("B")
	script.AddPick("B")
	dice := &pickLog{next: script}
	b := newBag(t, "default last", runtime.WithDice(dice))
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Step(ctx); err != nil { // B is drawn, and activates b2
		t.Fatal(err)
	}
	if err := b.RemoveUnit(ctx, "a2"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Draw(ctx); err != nil { // B again, among A, A, B
		t.Fatal(err)
	}
	if err := b.RemoveUnit(ctx, "b1"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&runtime.Turn{Undrawn: true}, b.Next()); diff != "" {
		t.Errorf("after B's last ready unit is removed (-want +got):\n%s", diff)
	}
	playLoop(t, ctx, b)
	var options [][]string
	for _, r := range dice.asked {
		options = append(options, r.Options)
	}
	want := [][]string{{"A", "A", "A", "B", "B"}, {"A", "A", "B"}}
	if diff := cmp.Diff(want, options); diff != "" {
		t.Errorf("picks (-want +got):\n%s", diff)
	}
	wantActs := []runtime.ActivationRecord{act("B", "b2"), act("A", "a3"), act("A", "a1")}
	if diff := cmp.Diff(wantActs, b.Activations()); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}
	if b.Next() != nil {
		t.Errorf("the bag is empty, but Next() = %+v", b.Next())
	}
}

// The side drawn is the battle's: a snapshot and a copy keep it, and a
// snapshot from before the mode (without it) draws again.
func TestDrawSurvivesSnapshotAndClone(t *testing.T) {
	ctx := context.Background()
	p, b, snap := drawnAndSaved(t, 1)
	turn := b.Next()
	twin := b.Clone()
	playLoop(t, ctx, b)
	want := b.Activations()

	restored, err := p.Restore(snap)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*runtime.Battle{"restored": restored, "clone": twin} {
		if diff := cmp.Diff(turn, c.Next()); diff != "" {
			t.Errorf("%s: the turn (-want +got):\n%s", name, diff)
		}
		playLoop(t, ctx, c)
		if diff := cmp.Diff(want, c.Activations()); diff != "" {
			t.Errorf("%s: activations (-want +got):\n%s", name, diff)
		}
	}

	var old map[string]any
	if err := json.Unmarshal(snap, &old); err != nil {
		t.Fatal(err)
	}
	cur := old["current"].(map[string]any)
	if _, ok := cur["drawn"]; !ok {
		t.Fatalf("the snapshot holds no side drawn: %v", cur)
	}
	delete(cur, "drawn")
	data, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	older, err := p.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	if turn := older.Next(); turn == nil || !turn.Undrawn {
		t.Errorf("restored without a side drawn: Next() = %+v, want a turn to draw", turn)
	}
	playLoop(t, ctx, older)
	if got := len(older.Activations()); got != 5 {
		t.Errorf("restored without a side drawn: %d activations, want 5: %v", got, older.Activations())
	}
}

// A snapshot naming a side drawn that is not a side is refused.
func TestDrawRestoreRefusesAnUnknownSide(t *testing.T) {
	p, _, snap := drawnAndSaved(t, 0)
	var s map[string]any
	if err := json.Unmarshal(snap, &s); err != nil {
		t.Fatal(err)
	}
	s["current"].(map[string]any)["drawn"] = "Zed"
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Restore(data); err == nil || !strings.Contains(err.Error(), `"Zed" is drawn to activate, and is not a side`) {
		t.Errorf("Restore: %v, want the side drawn refused", err)
	}
}

// A draw the dice cannot make is their error, as for any pick, and waits:
// Step (or Draw) again asks the dice again, and Cancel draws nothing. A cancelled context stops the draw.
// No side passes, drawn or not; a side drawn activates only its own units.
func TestDrawDiceErrors(t *testing.T) {
	ctx := context.Background()
	script := runtime.NewScriptedDice()
	b := newBag(t, "", runtime.WithDice(script))
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Step(ctx); !errors.Is(err, runtime.ErrUnscripted) {
		t.Fatalf("Step with no pick scripted: %v, want ErrUnscripted", err)
	}
	// The draw waits: Step asks the dice again, any other call is
	// refused, and Cancel gives the Step up.
	if _, err := b.Draw(ctx); !errors.Is(err, runtime.ErrPending) {
		t.Fatalf("Draw while Step's draw waits: %v, want ErrPending", err)
	}
	if _, err := b.Step(ctx); !errors.Is(err, runtime.ErrUnscripted) {
		t.Fatalf("Step again with no pick scripted: %v, want ErrUnscripted", err)
	}
	if err := b.Cancel(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Draw(ctx); !errors.Is(err, runtime.ErrUnscripted) {
		t.Fatalf("Draw with no pick scripted: %v, want ErrUnscripted", err)
	}
	if err := b.Cancel(); err != nil {
		t.Fatal(err)
	}
	if turn := b.Next(); turn == nil || !turn.Undrawn || len(b.Activations()) != 0 {
		t.Errorf("after a failed draw: Next() = %+v, activations %v, want a turn to draw and none", turn, b.Activations())
	}
	refused := "no side may pass in activation draw: the side drawn from the bag activates one of its ready units"
	if err := b.Pass(ctx); err == nil || err.Error() != refused || !errors.Is(err, runtime.ErrNotAllowed) {
		t.Errorf("Pass before the draw: %v, want ErrNotAllowed: %s", err, refused)
	}
	script.AddPick("A")
	if err := b.Activate(ctx, "b1"); err == nil || err.Error() != "A cannot activate b1 now (ready: a1, a2, a3): b1 is B's unit, and A activates one of its own ready units" {
		t.Errorf("Activate(b1) with A drawn: %v, want it refused", err)
	}
	if err := b.Pass(ctx); err == nil || err.Error() != "A may not pass while it has ready units (a1, a2, a3)" {
		t.Errorf("A passes: %v, want it refused", err)
	}
	if err := b.Activate(ctx, "a2"); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	script.AddPick("B")
	if _, err := b.Draw(cancelled); !errors.Is(err, context.Canceled) {
		t.Errorf("Draw with a cancelled context: %v", err)
	}
	script.AddPick("A")
	script.AddPick("B")
	playLoop(t, ctx, b)
	want := []runtime.ActivationRecord{act("A", "a2"), act("B", "b1"), act("A", "a1"), act("B", "b2"), act("A", "a3")}
	if diff := cmp.Diff(want, b.Activations()); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}
}

// With seeded dice and the transcript off, drawing from the bag allocates
// nothing once the battle is warm, as the other modes' rounds do not.
func TestDrawSteadyRoundsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ctx := context.Background()
	b := newBag(t, "", runtime.WithDice(runtime.NewSeededDice(1)), runtime.WithTranscript(false))
	allocs := testing.AllocsPerRun(1000, func() {
		if err := b.AdvanceRound(ctx); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per round, want 0", allocs)
	}
}

// A unit readied again puts its die back in the bag, even once the bag was
// empty: the round's activations go on with it.
func TestDrawReadiedUnit(t *testing.T) {
	ctx := context.Background()
	b := newBag(t, "", runtime.WithDice(runtime.NewSeededDice(5)))
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	playLoop(t, ctx, b)
	if err := b.MakeReady("b1"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&runtime.Turn{Undrawn: true}, b.Next()); diff != "" {
		t.Errorf("with b1 readied again (-want +got):\n%s", diff)
	}
	if side, err := b.Draw(ctx); side != "B" || err != nil {
		t.Fatalf("Draw() = %q, %v, want B, the only colour in the bag", side, err)
	}
	playLoop(t, ctx, b)
	acts := b.Activations()
	if got := acts[len(acts)-1]; got != act("B", "b1") || len(acts) != 6 {
		t.Errorf("activations %v, want b1's second one last", acts)
	}
}

// Odds follows every draw of the bag, but the battles the draws leave are
// one state for the rounds after: what a later round reads of the one
// before (previous, the standings, the units) does not hold the order of
// its activations. Told apart by it, the ten ways to empty a bag of three
// dice and two made ten states to play on, and each round after multiplied
// them again.
func TestDrawOddsMergeTheDraws(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, strings.Replace(drawRules, "%s", "", 1))
	one, err := p.Odds(ctx, bagSides(), runtime.OddsOptions{Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	three, err := p.Odds(ctx, bagSides(), runtime.OddsOptions{Rounds: 3, MaxStates: 1})
	if err != nil {
		t.Fatalf("three rounds, one state between them: %v", err)
	}
	if three.Replays != 3*one.Replays {
		t.Errorf("three rounds replayed %d rounds, one round %d: want 3 times as many", three.Replays, one.Replays)
	}
	for _, r := range three.Rounds {
		if r.Holder["A"].Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("round %d: P(A) = %s, want 1", r.Round, r.Holder["A"].RatString())
		}
	}
}

// A snapshot from the Decider holds the side drawn before asking: the
// battle restored from it waits for the same decision of the same side,
// and the PlayRound it was taken in goes on without drawing again, as the
// original does.
func TestDrawSnapshotFromDecider(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, strings.Replace(drawRules, "%s", "", 1))
	last := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		return d.Options[len(d.Options)-1:], nil
	})
	type saved struct {
		d    runtime.Decision
		data []byte
	}
	var (
		b     *runtime.Battle
		saves []saved
	)
	b, err := p.NewBattle(bagSides(), runtime.WithDice(runtime.NewSeededDice(5)), runtime.WithTranscript(true),
		runtime.WithDecider(runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
			data, err := b.Snapshot()
			if err != nil {
				return nil, err
			}
			saves = append(saves, saved{d, data})
			return last(ctx, d)
		})))
	if err != nil {
		t.Fatal(err)
	}
	want, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(saves) == 0 {
		t.Fatal("no activation was asked")
	}
	for i, s := range saves {
		dice := &pickLog{next: runtime.NewSeededDice(99)} // what the restored battle draws with
		var asked []runtime.Decision
		drawnFirst := -1 // draws before the restored battle's first decision
		r, err := p.Restore(s.data, runtime.WithDice(dice), runtime.WithTranscript(true),
			runtime.WithDecider(runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
				if drawnFirst < 0 {
					drawnFirst = len(dice.asked)
				}
				asked = append(asked, d)
				return last(ctx, d)
			})))
		if err != nil {
			t.Fatal(err)
		}
		if turn := r.Next(); turn == nil || turn.Undrawn || turn.Side != s.d.By {
			t.Fatalf("save %d: restored, Next() = %+v, want %s's turn, drawn", i, turn, s.d.By)
		}
		if req := r.Pending(); req == nil || req.Decision == nil || req.Decision.Kind != s.d.Kind || req.Decision.By != s.d.By {
			t.Fatalf("save %d: restored, Pending() = %v, want the decision saved in", i, req)
		}
		// The PlayRound the save was taken in goes on where it stopped.
		got, err := r.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if drawnFirst != 0 || len(asked) == 0 {
			t.Fatalf("save %d: the restored battle drew %d times before its first decision (asked %d), want 0 and some", i, drawnFirst, len(asked))
		}
		if diff := cmp.Diff(s.d, asked[0]); diff != "" {
			t.Errorf("save %d: the decision asked again (-saved in +asked):\n%s", i, diff)
		}
		if i == len(saves)-1 {
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the round restored at its last decision (-original +restored):\n%s", diff)
			}
		}
	}
}

// drawnAndSaved starts round 1 of the bag on seeded dice, plays steps
// turns, draws the next side and snapshots the battle.
func drawnAndSaved(t *testing.T, steps int) (*runtime.Program, *runtime.Battle, []byte) {
	t.Helper()
	ctx := context.Background()
	p := compileInline(t, strings.Replace(drawRules, "%s", "", 1))
	b, err := p.NewBattle(bagSides(), runtime.WithDice(runtime.NewSeededDice(3)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	for range steps {
		if _, err := b.Step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Draw(ctx); err != nil {
		t.Fatal(err)
	}
	snap, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return p, b, snap
}

// A turn whose side comes out of a bag of one colour, with no draw, says
// so on its activation: the transcript has no draw to explain it.
func TestDrawOfOneColourIsSaid(t *testing.T) {
	ctx := context.Background()
	script := runtime.NewScriptedDice()
	for _, side := range []string{"A", "A", "A"} {
		script.AddPick(side)
	}
	b := newBag(t, "", runtime.WithDice(script))
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	playLoop(t, ctx, b)
	var got []string
	for _, e := range b.Events() {
		if e.Kind == runtime.EvRandom || e.Kind == runtime.EvActivate {
			got = append(got, e.String())
		}
	}
	want := []string{
		"a die of A's is drawn from the bag (which held A 3, B 2)",
		"A activates a1",
		"a die of A's is drawn from the bag (which held A 2, B 2)",
		"A activates a2",
		"a die of A's is drawn from the bag (which held A 1, B 2)",
		"A activates a3",
		"B activates b1 (no draw: only B's dice are left in the bag)",
		"B activates b2 (no draw: only B's dice are left in the bag)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("draws and activations (-want +got):\n%s", diff)
	}
}

// A side whose name ends in s owns its dice with an apostrophe alone.
func TestDrawEventPossessive(t *testing.T) {
	ev := runtime.Event{Kind: runtime.EvRandom, Rule: "activation draw", Subject: "Eschers", Subjects: []string{"Goliaths", "Eschers"}}
	if got, want := ev.String(), "a die of Eschers' is drawn from the bag (which held Goliaths 1, Eschers 1)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A draw from the bag is the activation loop's, not an order's: a host's
// dice that draw a die out of range name no order in the RoundError, as
// an unscripted draw does not.
func TestDrawOutOfRangeNamesNoOrder(t *testing.T) {
	ctx := context.Background()
	dice := runtime.FuncDice{PickOne: func(ctx context.Context, req runtime.PickRequest) (int, error) {
		if req.Draw {
			return 9, nil
		}
		return 0, nil
	}}
	b := newBag(t, "", runtime.WithDice(dice))
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := b.Draw(ctx)
	re, ok := errors.AsType[*runtime.RoundError](err)
	want := "round 1: activation draw: random pick 9 is out of range (5 dice in the bag)"
	if !ok || re.Order != "" || err.Error() != want || !errors.Is(err, runtime.ErrInvalidAnswer) {
		t.Errorf("Draw: %v, want a RoundError of no order: %s", err, want)
	}
}

// A host's own Dice that draw out of range are told in the same words.
type outOfRangeDice struct{ runtime.FuncDice }

func (outOfRangeDice) Pick(ctx context.Context, req runtime.PickRequest) (int, error) {
	return -1, nil
}

func TestDrawOutOfRangeFromOwnDice(t *testing.T) {
	ctx := context.Background()
	b := newBag(t, "", runtime.WithDice(outOfRangeDice{}))
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := b.Draw(ctx)
	re, ok := errors.AsType[*runtime.RoundError](err)
	want := "round 1: activation draw: random pick -1 is out of range (5 dice in the bag)"
	if !ok || re.Order != "" || err.Error() != want || !errors.Is(err, runtime.ErrInvalidAnswer) {
		t.Errorf("Draw: %v, want a RoundError of no order: %s", err, want)
	}
}
