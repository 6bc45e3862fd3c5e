package runtime_test

// A property test: a battle snapshotted at any point (between rounds, after
// a change between rounds, or in the middle of a round's activations),
// restored and continued ends exactly as the battle played straight
// through.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/internal/longtest"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

const snapshotRounds = 5

// snapshotSeeds is how many seeds TestSnapshotRestoreContinue plays each
// ruleset with: a sample by default, two hundred with the long tests.
func snapshotSeeds() uint64 { return longtest.Seeds(20, 200) }

// hostChange is something a host does between rounds: set an attribute or
// a status. Both runs of a seed make the same changes.
type hostChange struct {
	round  int // before this round starts
	unit   string
	attr   string // an attribute, or a status when status is set
	value  int
	status bool
	on     bool
}

func (c hostChange) apply(ctx context.Context, b *runtime.Battle) error {
	if c.status {
		return b.SetStatus(ctx, c.unit, c.attr, c.on)
	}
	return b.SetAttr(ctx, c.unit, c.attr, c.value)
}

// snapshotPlan says where a seed's second run stops: before round
// stopRound's changes (steps -2), after them (steps -1), or after steps
// activation steps of round stopRound.
type snapshotPlan struct {
	stopRound int
	steps     int
	changes   []hostChange
}

// changesFor invents host changes that the ruleset's declarations allow.
func changesFor(ruleset string, units []string, rng *rand.Rand) []hostChange {
	var out []hostChange
	for round := 1; round <= snapshotRounds; round++ {
		if len(units) == 0 || rng.IntN(2) == 0 {
			continue
		}
		u := units[rng.IntN(len(units))]
		switch ruleset {
		case "agi":
			// A narrow range, so that ties come and go.
			out = append(out, hostChange{round: round, unit: u, attr: "agi", value: 4 + rng.IntN(3)})
		case "morturi":
			out = append(out, hostChange{round: round, unit: u, attr: "movement", value: 1 + rng.IntN(6)})
		case "necromunda":
			st := []string{"out_of_action", "seriously_injured", "not_on_battlefield"}[rng.IntN(3)]
			out = append(out, hostChange{round: round, unit: u, attr: st, status: true, on: rng.IntN(3) > 0})
		}
	}
	return out
}

func makePlan(ruleset string, p *runtime.Program, seed uint64) snapshotPlan {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var units []string
	for _, s := range p.Example() {
		for _, u := range s.Units {
			units = append(units, u.Name)
		}
	}
	return snapshotPlan{
		stopRound: 1 + rng.IntN(snapshotRounds),
		steps:     rng.IntN(20) - 2,
		changes:   changesFor(ruleset, units, rng),
	}
}

func applyChanges(ctx context.Context, b *runtime.Battle, plan snapshotPlan, round int) error {
	for _, c := range plan.changes {
		if c.round == round {
			if err := c.apply(ctx, b); err != nil {
				return fmt.Errorf("before round %d: %+v: %w", round, c, err)
			}
		}
	}
	return nil
}

// playStraight plays snapshotRounds rounds without interruption.
func playStraight(p *runtime.Program, seed uint64, plan snapshotPlan) ([]*runtime.RoundResult, *runtime.Battle, error) {
	ctx := context.Background()
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(seed)))
	if err != nil {
		return nil, nil, err
	}
	var out []*runtime.RoundResult
	for round := 1; round <= snapshotRounds; round++ {
		if err := applyChanges(ctx, b, plan, round); err != nil {
			return nil, nil, err
		}
		res, err := b.PlayRound(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("round %d: %w", round, err)
		}
		out = append(out, res)
	}
	return out, b, nil
}

// snapRestore snapshots b and restores it with fresh default dice and
// decider, checking that the restored battle snapshots byte-identically.
func snapRestore(p *runtime.Program, b *runtime.Battle) (*runtime.Battle, error) {
	data, err := b.Snapshot()
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	r, err := p.Restore(data)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	again, err := r.Snapshot()
	if err != nil {
		return nil, fmt.Errorf("snapshot of the restored battle: %w", err)
	}
	if !bytes.Equal(data, again) {
		return nil, fmt.Errorf("snapshot -> restore -> snapshot differs (-first +second):\n%s", cmp.Diff(string(data), string(again)))
	}
	return r, nil
}

// playInterrupted plays the same rounds, snapshotting and restoring once
// where the plan says.
func playInterrupted(p *runtime.Program, seed uint64, plan snapshotPlan) ([]*runtime.RoundResult, *runtime.Battle, error) {
	ctx := context.Background()
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(seed)))
	if err != nil {
		return nil, nil, err
	}
	var out []*runtime.RoundResult
	for round := 1; round <= snapshotRounds; round++ {
		stop := round == plan.stopRound
		if stop && plan.steps == -2 {
			if b, err = snapRestore(p, b); err != nil {
				return nil, nil, err
			}
		}
		if err := applyChanges(ctx, b, plan, round); err != nil {
			return nil, nil, err
		}
		if !stop || plan.steps == -2 {
			res, err := b.PlayRound(ctx)
			if err != nil {
				return nil, nil, fmt.Errorf("round %d: %w", round, err)
			}
			out = append(out, res)
			continue
		}
		if plan.steps == -1 {
			if b, err = snapRestore(p, b); err != nil {
				return nil, nil, err
			}
		}
		if err := b.StartRound(ctx); err != nil {
			return nil, nil, fmt.Errorf("round %d: %w", round, err)
		}
		done := false
		for i := 0; i < plan.steps && !done; i++ {
			if done, err = b.Step(ctx); err != nil {
				return nil, nil, fmt.Errorf("round %d, step %d: %w", round, i, err)
			}
		}
		if plan.steps >= 0 {
			if b, err = snapRestore(p, b); err != nil {
				return nil, nil, fmt.Errorf("round %d after %d steps: %w", round, plan.steps, err)
			}
		}
		for !done {
			if done, err = b.Step(ctx); err != nil {
				return nil, nil, fmt.Errorf("round %d, after the restore: %w", round, err)
			}
		}
		res, err := b.EndRound(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("round %d: %w", round, err)
		}
		out = append(out, res)
	}
	return out, b, nil
}

func TestSnapshotRestoreContinue(t *testing.T) {
	for _, name := range rulesets.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := mustProgram(t, name)
			for seed := uint64(1); seed <= snapshotSeeds(); seed++ {
				plan := makePlan(name, p, seed)
				want, wb, err := playStraight(p, seed, plan)
				if err != nil {
					t.Fatalf("seed %d, straight run: %v", seed, err)
				}
				got, gb, err := playInterrupted(p, seed, plan)
				if err != nil {
					t.Fatalf("seed %d, plan %+v: %v", seed, plan, err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("seed %d, plan %+v: round results (-straight +interrupted):\n%s", seed, plan, diff)
				}
				ws, err := wb.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				gs, err := gb.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(ws), string(gs)); diff != "" {
					t.Fatalf("seed %d, plan %+v: final snapshots (-straight +interrupted):\n%s", seed, plan, diff)
				}
			}
		})
	}
}

// Every bundled ruleset's snapshot survives restore byte for byte at every
// point of a battle: before it starts, between rounds and after every
// activation.
func TestSnapshotRoundTripEverywhere(t *testing.T) {
	for _, name := range rulesets.Names() {
		t.Run(name, func(t *testing.T) {
			p := mustProgram(t, name)
			ctx := context.Background()
			b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(42)))
			if err != nil {
				t.Fatal(err)
			}
			check := func(where string) {
				t.Helper()
				if _, err := snapRestore(p, b); err != nil {
					t.Fatalf("%s: %v", where, err)
				}
			}
			check("before round 1")
			for round := 1; round <= 3; round++ {
				if err := b.StartRound(ctx); err != nil {
					t.Fatal(err)
				}
				check(fmt.Sprintf("round %d started", round))
				for i := 0; ; i++ {
					done, err := b.Step(ctx)
					if err != nil {
						t.Fatal(err)
					}
					if done {
						break
					}
					check(fmt.Sprintf("round %d, step %d", round, i))
				}
				if _, err := b.EndRound(ctx); err != nil {
					t.Fatal(err)
				}
				check(fmt.Sprintf("round %d ended", round))
			}
		})
	}
}

// A snapshot names its ruleset; restoring it into another fails.
func TestRestoreWrongRuleset(t *testing.T) {
	mesbg := mustProgram(t, "mesbg")
	necro := mustProgram(t, "necromunda")
	b, err := mesbg.NewBattle(mesbg.Example())
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		p    *runtime.Program
		data string
		want string
	}{
		{necro, string(data), "the snapshot is of ruleset mesbg, not necromunda"},
		{mesbg, "{not json", "restore: invalid character"},
		{mesbg, "{}", "the snapshot names no ruleset (want mesbg)"},
		{mesbg, "", "restore: the snapshot is empty"},
		{mesbg, " \n", "restore: the snapshot is empty"},
	} {
		if _, err := tt.p.Restore([]byte(tt.data)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Restore(%.20q) = %v, want an error saying %q", tt.data, err, tt.want)
		}
	}
}

// A snapshot from a version of the ruleset whose step was renamed names
// the step it cannot place.
func TestRestoreUnknownStep(t *testing.T) {
	p := mustProgram(t, "mesbg")
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	data := snapshot(t, b)
	renamed := strings.Replace(data, `"step Roll For Priority"`, `"step Roll Off"`, 1)
	if renamed == data {
		t.Fatal("the snapshot does not record the step")
	}
	_, err = p.Restore([]byte(renamed))
	want := `restore: the snapshot says step "Roll Off" has run, but the ruleset has no such step`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

// Restore refuses a snapshot edited into something the battle cannot be,
// instead of failing later, or panicking.
func TestRestoreRefusesEditedSnapshots(t *testing.T) {
	p, _, data := midRound(t, "necromunda", 1)
	tests := []struct {
		name string
		edit func(s map[string]any)
		want string
	}{
		{"negative turn", func(s map[string]any) { s["current"].(map[string]any)["turn"] = -1 }, "does not fit round 1"},
		{"unknown stage", func(s map[string]any) { s["current"].(map[string]any)["stage"] = "lunch" }, `stage "lunch"`},
		{"another round", func(s map[string]any) { s["current"].(map[string]any)["round"] = 7 }, "does not fit round 1"},
		{"negative round", func(s map[string]any) { s["round"] = -2; delete(s, "current") }, "round -2 is not a round"},
		{"unknown side in an order", func(s map[string]any) {
			standing(s, "priority")["order"] = []any{"Ghosts", "Eschers"}
		}, `"Ghosts" is not a side`},
		{"a side twice", func(s map[string]any) {
			st := standing(s, "priority")
			o := st["order"].([]any)
			st["order"] = []any{o[0], o[0]}
		}, "comes twice"},
		{"places missing", func(s map[string]any) { standing(s, "priority")["places"] = []any{} }, "0 places for 2"},
		{"a stranger in a tie group", func(s map[string]any) {
			standing(s, "priority")["groups"] = []any{map[string]any{"members": []any{"Nobody"}}}
		}, `tie group member "Nobody"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s map[string]any
			if err := json.Unmarshal(data, &s); err != nil {
				t.Fatal(err)
			}
			tt.edit(s)
			edited, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Restore(edited); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Restore: err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func standing(s map[string]any, name string) map[string]any {
	return s["standings"].(map[string]any)[name].(map[string]any)
}

// A battle saved with a ruleset whose declarations were edited since (a
// house rule that dropped a status) says which side or unit no longer
// fits, in one sentence, not as a compiler's "error:" line inside it.
func TestRestoreSidesThatNoLongerFit(t *testing.T) {
	p := mustProgram(t, "necromunda")
	b, err := p.NewBattle([]runtime.SideSpec{
		{Name: "Goliaths", Units: []runtime.UnitSpec{{Name: "Krug", Statuses: []string{"out_of_action"}}}},
		{Name: "Eschers", Units: []runtime.UnitSpec{{Name: "Mira"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	data := snapshot(t, b)
	edited := compileInline(t, `ruleset necromunda {
  unit status seriously_injured
  phase priority { order sides as priority { random } }
  activation alternate by priority
}`)
	_, err = edited.Restore([]byte(data))
	want := "restore: the saved sides do not fit ruleset necromunda as it is now: unit Krug: unknown status out_of_action (declared: seriously_injured)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

// Scripted dice over seeded ones (a test that scripts the rolls it cares
// about) save the seeded dice's state: the restored battle, given a fresh
// script over the same seed, rolls on as the original does.
func TestSnapshotScriptedOverSeededDice(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "necromunda")
	dice := func() *runtime.ScriptedDice {
		d := runtime.NewScriptedDice()
		d.Fallback = runtime.NewSeededDice(9)
		return d
	}
	orig, err := p.NewBattle(runtime.Sides("A", "B", "C"), runtime.WithDice(dice()))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := orig.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := orig.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := p.Restore(snap, runtime.WithDice(dice()))
	if err != nil {
		t.Fatal(err)
	}
	for round := 4; round <= 8; round++ {
		want, err := orig.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := restored.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.Events, got.Events); diff != "" {
			t.Fatalf("round %d (-original +restored):\n%s", round, diff)
		}
	}
}

// A battle saved before not_ready was a kind of event of its own said a
// unit kept from its Ready marker with a ready event and a detail; it is
// read as the not_ready event it is.
func TestRestoreOldNotReadyEvents(t *testing.T) {
	p := mustProgram(t, "necromunda")
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.SetStatus(context.Background(), "Krug", "out_of_action", true); err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	snap, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(snap), `"kind": "not_ready"`, `"kind": "ready"`, 1)
	old = strings.Replace(old, `"detail": "out_of_action"`, `"detail": "no Ready marker: out_of_action"`, 1)
	if old == string(snap) {
		t.Fatal("the snapshot has no not_ready event to make old")
	}
	r, err := p.Restore([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(b.Events(), r.Events()); diff != "" {
		t.Errorf("events of the old snapshot (-today's +old):\n%s", diff)
	}
}

// A server waiting for a player's answer saves the battle from the Decider
// that Step asks which unit to activate: the snapshot is the Step waiting
// for that decision. Restored, it waits for the same decision, asks it
// again when the host calls Step again, and plays on as the original does,
// with the same seeded dice, to the end of the battle.
func TestSnapshotFromActivationDecider(t *testing.T) {
	ctx := context.Background()
	const rounds = 3
	for _, ruleset := range []string{"necromunda", "morturi"} {
		t.Run(ruleset, func(t *testing.T) {
			p := mustProgram(t, ruleset)
			type saved struct {
				d    runtime.Decision
				data []byte
				err  error
			}
			var (
				b     *runtime.Battle
				saves []saved
			)
			// The last option, not the default, as a player might pick.
			last := func(ctx context.Context, d runtime.Decision) ([]string, error) {
				return d.Options[len(d.Options)-1:], nil
			}
			dec := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
				if d.Kind == runtime.ChooseActivation {
					data, err := b.Snapshot()
					saves = append(saves, saved{d, data, err})
				}
				return last(ctx, d)
			})
			b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(5)), runtime.WithDecider(dec))
			if err != nil {
				t.Fatal(err)
			}
			var want []*runtime.RoundResult
			for range rounds {
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
				res, err := b.EndRound(ctx)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, res)
			}
			if len(saves) == 0 {
				t.Fatal("no activation was asked")
			}
			for i, s := range saves {
				if s.err != nil {
					t.Fatalf("Snapshot from the decider of round %d: %v", s.d.Round, s.err)
				}
				var asked []runtime.Decision
				r, err := p.Restore(s.data, runtime.WithDecider(runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
					asked = append(asked, d)
					return last(ctx, d)
				})))
				if err != nil {
					t.Fatal(err)
				}
				if req := r.Pending(); req == nil || req.Decision == nil || !cmp.Equal(*req.Decision, s.d) {
					t.Fatalf("save %d: restored, Pending() = %v, want the decision it was saved in: %v", i, req, s.d)
				}
				var got []*runtime.RoundResult
				for {
					done, err := r.Step(ctx)
					if err != nil {
						t.Fatal(err)
					}
					if done {
						break
					}
				}
				res, err := r.EndRound(ctx)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, res)
				for r.Round() < rounds {
					res, err := r.PlayRound(ctx)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, res)
				}
				if len(asked) == 0 {
					t.Fatalf("save %d: the restored battle asked nothing", i)
				}
				if diff := cmp.Diff(s.d, asked[0]); diff != "" {
					t.Errorf("save %d: the restored battle's first decision (-saved in +asked):\n%s", i, diff)
				}
				if diff := cmp.Diff(want[s.d.Round-1:], got); diff != "" {
					t.Errorf("save %d, in round %d: the restored battle's rounds (-original +restored):\n%s", i, s.d.Round, diff)
				}
				if diff := cmp.Diff(snapshot(t, b), snapshot(t, r)); diff != "" {
					t.Errorf("save %d: the battles at the end (-original +restored):\n%s", i, diff)
				}
			}
		})
	}
}

// Dice and deciders may save the battle while they are asked: the save is
// the call under way waiting for their input, and restores so (the input
// pending). A Go hook may not (ErrInCallback): its changes are half made.
func TestSnapshotInCallbacks(t *testing.T) {
	ctx := context.Background()
	mesbg, necromunda, agi := mustProgram(t, "mesbg"), mustProgram(t, "necromunda"), mustProgram(t, "agi")
	// A tie of A1 and B1 on opposite teams, after C1's agi is set to 5
	// too: a roll, and a before_after choice by the winner.
	agiSides := []runtime.SideSpec{
		{Name: "A", Team: "Red", Units: []runtime.UnitSpec{{Name: "A1", Attrs: map[string]any{"agi": 5}}}},
		{Name: "B", Team: "Blue", Units: []runtime.UnitSpec{{Name: "B1", Attrs: map[string]any{"agi": 4}}}},
	}
	var tests = []struct {
		name  string
		prog  *runtime.Program
		sides []runtime.SideSpec
		opts  func(save func()) []runtime.BattleOption
		play  func(b *runtime.Battle) error
		want  runtime.RequestKind // what a restored save waits for; none: refused
	}{
		{"a Go hook at the start of the round", necromunda, necromunda.Example(), func(save func()) []runtime.BattleOption {
			return []runtime.BattleOption{runtime.WithHook(func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
				if at == (runtime.HookPoint{Edge: "start", Kind: "round"}) {
					save()
				}
				return nil
			})}
		}, playOne, ""},
		{"a Go hook at the end of the round", necromunda, necromunda.Example(), func(save func()) []runtime.BattleOption {
			return []runtime.BattleOption{runtime.WithHook(func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
				if at == (runtime.HookPoint{Edge: "end", Kind: "round"}) {
					save()
				}
				return nil
			})}
		}, playOne, ""},
		{"dice in StartRound", necromunda, necromunda.Example(), func(save func()) []runtime.BattleOption {
			return []runtime.BattleOption{runtime.WithDice(seededCalling(5, save))}
		}, playOne, runtime.RollInput},
		{"an order's decider in StartRound", mesbg, runtime.Sides("Jay", "Rob"), func(save func()) []runtime.BattleOption {
			return []runtime.BattleOption{runtime.WithDice(runtime.NewSeededDice(7)),
				runtime.WithDecider(policyCalling(runtime.ChooseFirst, save))}
		}, playOne, runtime.DecisionInput},
		{"dice of a recomputation between rounds", agi, agiSides, func(save func()) []runtime.BattleOption {
			return []runtime.BattleOption{runtime.WithDice(seededCalling(5, save))}
		}, tieB1, runtime.RollInput},
		{"a decider of a recomputation between rounds", agi, agiSides, func(save func()) []runtime.BattleOption {
			return []runtime.BattleOption{runtime.WithDice(runtime.NewSeededDice(5)),
				runtime.WithDecider(policyCalling(runtime.ChooseBeforeAfter, save))}
		}, tieB1, runtime.DecisionInput},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b *runtime.Battle
			var got []error
			var saves [][]byte
			save := func() {
				data, err := b.Snapshot()
				got = append(got, err)
				saves = append(saves, data)
			}
			b, err := tt.prog.NewBattle(tt.sides, tt.opts(save)...)
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.play(b); err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 {
				t.Fatal("Snapshot was never called")
			}
			for i, err := range got {
				switch {
				case tt.want == "":
					if !errors.Is(err, runtime.ErrInCallback) {
						t.Errorf("Snapshot: %v; want ErrInCallback", err)
					}
				case err != nil:
					t.Errorf("Snapshot: %v", err)
				default:
					r, err := tt.prog.Restore(saves[i])
					if err != nil {
						t.Fatalf("save %d: %v", i, err)
					}
					if req := r.Pending(); req == nil || req.Kind != tt.want {
						t.Errorf("save %d, restored: Pending() = %v, want a %s", i, req, tt.want)
					}
				}
			}
		})
	}

	// A Decider may change the battle; the recomputation that starts
	// is the battle's own work, whose dice and decider cannot save it,
	// although the Decider can once it is over: the save holds the change
	// and what its recomputation rolled, then waits for the decision.
	var b *runtime.Battle
	var inner, outer []error
	var outerSave []byte
	units := []runtime.SideSpec{
		{Name: "A", Units: []runtime.UnitSpec{{Name: "a1", Attrs: map[string]any{"agi": 5}}, {Name: "a2", Attrs: map[string]any{"agi": 3}}}},
		{Name: "B", Units: []runtime.UnitSpec{{Name: "b1", Attrs: map[string]any{"agi": 4}}}},
	}
	p := compileInline(t, `ruleset nested {
  sides 2
  unit attribute agi int
  phase p each round {
    order units as watch until changed agi {
      highest agi
      tie {
        highest roll d6
        tie: reroll
      }
    }
    order sides as priority {
      lowest count(units)
    }
  }
  activation alternate by priority
}
`)
	dice := seededCalling(5, func() {
		_, err := b.Snapshot()
		inner = append(inner, err)
	})
	dec := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		if d.Kind == runtime.ChooseActivation && len(outer) == 0 {
			if err := b.SetAttr(ctx, "a2", "agi", 4); err != nil {
				return nil, err
			}
			data, err := b.Snapshot()
			outer, outerSave = append(outer, err), data
		}
		return d.Default, nil
	})
	b, err := p.NewBattle(units, runtime.WithDice(dice), runtime.WithDecider(dec))
	if err != nil {
		t.Fatal(err)
	}
	want, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(inner) == 0 || len(outer) != 1 {
		t.Fatalf("%d snapshots from dice, %d from the Step's decider; want some and 1", len(inner), len(outer))
	}
	for _, err := range inner {
		if !errors.Is(err, runtime.ErrInCallback) {
			t.Errorf("Snapshot from the dice of a recomputation in Step's decider: %v; want ErrInCallback", err)
		}
	}
	if outer[0] != nil {
		t.Fatalf("Snapshot from Step's decider after the change: %v", outer[0])
	}
	r, err := p.Restore(outerSave, runtime.WithDecider(runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		return d.Default, nil
	})))
	if err != nil {
		t.Fatal(err)
	}
	if req := r.Pending(); req == nil || req.Decision == nil || req.Decision.Kind != runtime.ChooseActivation {
		t.Fatalf("restored, Pending() = %v, want the activation", req)
	}
	got, err := r.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the round restored from the decider's save (-original +restored):\n%s", diff)
	}
}

func playOne(b *runtime.Battle) error {
	_, err := b.PlayRound(context.Background())
	return err
}

// tieB1 plays a round and then ties B1 with A1, between rounds.
func tieB1(b *runtime.Battle) error {
	ctx := context.Background()
	if _, err := b.PlayRound(ctx); err != nil {
		return err
	}
	return b.SetAttr(ctx, "B1", "agi", 5)
}

// seededCalling is seeded dice that call f before each die they roll.
func seededCalling(seed uint64, f func()) runtime.Dice {
	seeded := runtime.NewSeededDice(seed)
	return runtime.FuncDice{Die: func(ctx context.Context, req runtime.RollRequest, subject string) (int, error) {
		f()
		out, err := seeded.Roll(ctx, runtime.RollRequest{Subjects: []string{subject}, Count: req.Count, Faces: req.Faces})
		if err != nil {
			return 0, err
		}
		return out[0], nil
	}}
}

// policyCalling answers every decision by default, calling f before each
// of the given kind.
func policyCalling(kind runtime.DecisionKind, f func()) runtime.Decider {
	return runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		if d.Kind == kind {
			f()
		}
		return d.Default, nil
	})
}

// A snapshot holds the battle, not its settings (as Restore's
// documentation says): restored without options, a battle rolls on its
// own seeded dice where they were, runs no Go hook, and keeps a
// transcript, even if the battle saved had hooks and kept none.
func TestRestoreWithoutOptions(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	hooks := 0
	b, data := playedOneRound(t, p, runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(9)), runtime.WithTranscript(false),
		runtime.WithHook(func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
			hooks++
			return nil
		}))
	r, err := p.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	hooks = 0
	for range 4 {
		want, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.Order, got.Order); diff != "" {
			t.Errorf("round %d, restored without WithDice (-saved battle +restored):\n%s", want.Round, diff)
		}
		if len(want.Events) != 0 || len(got.Events) == 0 {
			t.Errorf("round %d: %d events in the battle saved without a transcript, %d restored; want none and some", want.Round, len(want.Events), len(got.Events))
		}
	}
	if want := 4 * len(p.HookPoints()); hooks != want {
		t.Errorf("hooks ran %d times, want %d: the saved battle's only", hooks, want)
	}
}

// A battle restored with dice that keep no state (a request that needs no
// seeded roll: the players' own rolls, scripted) saves the seeded dice's
// state again, as Restore says: the battle restored from that snapshot
// with seeded dice rolls on as if the request had never been.
func TestRestoreKeepsSeededStateThroughOtherDice(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	_, saved := playedOneRound(t, p, runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(7)))
	orders := func(data []byte) []string {
		t.Helper()
		r, err := p.Restore(data)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for range 8 {
			res, err := r.PlayRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, strings.Join(res.Order, " "))
		}
		return out
	}
	want := orders(saved)
	for _, dice := range []runtime.Dice{runtime.NewScriptedDice(), runtime.FuncDice{}} {
		r, err := p.Restore(saved, runtime.WithDice(dice))
		if err != nil {
			t.Fatal(err)
		}
		again, err := r.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, orders(again)); diff != "" {
			t.Errorf("restored with %T and saved again, then with seeded dice (-as saved +got):\n%s", dice, diff)
		}
	}
}

// A battle restored with seeded dice is the battle saved: a clone of it
// given dice that keep no state saves what a clone of the battle saved
// does, not the seeded state it was restored with, which its own dice
// have rolled on from since.
func TestRestoredSeededCloneSavesNoStaleDice(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	b, saved := playedOneRound(t, p, runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(7)))
	r, err := p.Restore(saved)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := b.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := r.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, dice := range []runtime.Dice{runtime.NewScriptedDice(), runtime.FuncDice{}} {
		want, err := b.Clone(runtime.WithDice(dice)).Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Clone(runtime.WithDice(dice)).Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("clone given %T (-of the battle saved +of the battle restored):\n%s", dice, diff)
		}
	}
}

// A remembered value is what the next round reads as previous.NAME, so a
// battle saved and restored must read the same: a side or a unit, a list
// of them, a whole number worked out as a float. Memory, the restored
// battle's Memory and the rounds that follow all agree.
func TestRememberedValuesSurviveSnapshot(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset r "r" {
  sides 2
  unit attribute speed int
  remember first = (previous.first == nil ? sides[0] : previous.first)
  remember fast = filter(units, .speed > 3)
  remember names = previous.order
  remember half = len(sides) / 2
  phase p {
    order sides as p {
      highest roll d6
      tie when previous.first.name == "A" and len(previous.fast) == 1 and previous.half == 1: award "B"
      tie: award "A"
    }
  }
}
`)
	sides := []runtime.SideSpec{
		{Name: "A", Units: []runtime.UnitSpec{{Name: "a1", Attrs: map[string]any{"speed": 5}}}},
		{Name: "B", Units: []runtime.UnitSpec{{Name: "b1", Attrs: map[string]any{"speed": 2}}}},
	}
	b, data := playedOneRound(t, p, sides, runtime.WithDice(runtime.NewSeededDice(3)))
	restored, err := p.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(b.Memory(), restored.Memory()); diff != "" {
		t.Errorf("Memory after Restore (-saved +restored):\n%s", diff)
	}
	for range 30 {
		want, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := restored.PlayRound(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round %d (-saved +restored):\n%s", want.Round, diff)
		}
	}
}

// A saved standing that leaves out a side (or a unit) the battle has is
// refused by Restore when it would be played as it is: in the round under
// way, or made once for the battle. The side would never get a turn, and
// every round would end in the activation loop's limit, blamed on the
// ruleset. Between rounds, a standing made again each round (or when its
// values change) may leave out a side or a unit the host has added to the
// saved battle: the next round places it.
func TestRestoreStandingMissingASubject(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		ruleset string
		inRound bool
		added   bool // add a side or unit, instead of dropping one from the standings
		refused bool
	}{
		{"morturi", true, false, true},
		{"morturi", false, false, true},
		{"necromunda", true, false, true},
		{"necromunda", false, false, false},
		{"necromunda", false, true, false},
		{"agi", true, false, true},
		{"agi", false, true, false},
	} {
		name := fmt.Sprintf("%s/in round %v/added %v", tt.ruleset, tt.inRound, tt.added)
		t.Run(name, func(t *testing.T) {
			p := mustProgram(t, tt.ruleset)
			b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(3)))
			if err != nil {
				t.Fatal(err)
			}
			if err := b.AdvanceRound(ctx); err != nil {
				t.Fatal(err)
			}
			if tt.inRound {
				if err := b.StartRound(ctx); err != nil {
					t.Fatal(err)
				}
			}
			data, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if tt.added {
				sides := doc["sides"].([]any)
				if p.OrdersUnits() {
					side := sides[0].(map[string]any)
					side["units"] = append(side["units"].([]any), map[string]any{"name": "Newcomer", "attrs": map[string]any{"agi": 9}})
				} else {
					sides = append(sides, map[string]any{"name": "Newcomer", "units": []any{map[string]any{"name": "n1"}}})
					doc["sides"] = sides
				}
			} else {
				for _, st := range doc["standings"].(map[string]any) {
					st := st.(map[string]any)
					st["order"] = st["order"].([]any)[1:]
					st["places"] = st["places"].([]any)[1:]
				}
			}
			if data, err = json.Marshal(doc); err != nil {
				t.Fatal(err)
			}
			r, err := p.Restore(data)
			if tt.refused {
				if err == nil {
					t.Errorf("Restore: no error")
				}
				return
			}
			if err != nil {
				t.Fatalf("Restore: %v", err)
			}
			res, err := r.PlayRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want := len(r.Sides())
			if p.OrdersUnits() {
				want = len(r.Units())
			}
			if len(res.Order) != want {
				t.Errorf("the next round's order %v does not hold all %d subjects", res.Order, want)
			}
			if tt.added && !slices.Contains(res.Order, "Newcomer") && r.Holder() != "Newcomer" {
				t.Errorf("the next round's order %v leaves out the newcomer", res.Order)
			}
		})
	}
}

// A snapshot edited by hand, or written by another program, with a
// whole-number attribute of 1e-400 is refused in words, as SetAttr
// refuses it: it used to be restored as 0.
func TestRestoreAttrUnderflow(t *testing.T) {
	p := mustProgram(t, "agi")
	b, err := p.NewBattle(p.Example())
	if err != nil {
		t.Fatal(err)
	}
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	edited := regexp.MustCompile(`"agi": \d+`).ReplaceAll(data, []byte(`"agi": 1e-400`))
	if bytes.Equal(edited, data) {
		t.Fatal("the snapshot holds no agi to edit")
	}
	_, err = p.Restore(edited)
	if want := "want a whole number, got 1e-400, a fraction too close to 0 for a float64 to hold, not 0"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Restore with agi 1e-400: %v\nwant an error saying: %s", err, want)
	}
}
