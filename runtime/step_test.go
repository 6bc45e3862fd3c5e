package runtime_test

// A battle driven one activation at a time through
// the step API (Next, then Activate or Pass), snapshotted and restored
// after every activation, ends exactly like the same battle played
// straight through with PlayRound.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/internal/longtest"
	"github.com/turnorder/turnorder/runtime"
)

const stepRounds = 4

// stepSeeds is how many seeds the step tests play each game with: a
// sample by default, twelve with the long tests.
func stepSeeds() uint64 { return longtest.Seeds(4, 12) }

// stepGame is a battle setup and what the host changes between rounds.
type stepGame struct {
	ruleset string
	sides   []runtime.SideSpec
	// between is called before each round (from 1) of both runs.
	between func(ctx context.Context, b *runtime.Battle, round int) error
}

func stepGames() []stepGame {
	unit := func(names ...string) []runtime.UnitSpec {
		var out []runtime.UnitSpec
		for _, n := range names {
			out = append(out, runtime.UnitSpec{Name: n})
		}
		return out
	}
	return []stepGame{
		{
			// Unequal schools: forced passes at the end of every round; equal
			// ones: a random pick decides, once.
			ruleset: "morturi",
			sides: []runtime.SideSpec{
				school("Ludi Aeternum", "la", 3, 3, 3, 3, 3),
				school("Malleus Deus", "md", 5, 5, 5),
				school("Vi Et Armis", "va", 4, 4, 4),
				school("Legio Mortis", "lm", 4, 4, 4),
			},
		},
		{
			// Three gangs: multi-player rolls with rerolls among the tied,
			// and fighters going out of action and coming back.
			ruleset: "necromunda",
			sides: []runtime.SideSpec{
				{Name: "Goliaths", Units: unit("Krug", "Grath", "Volk")},
				{Name: "Eschers", Units: unit("Mira", "Sable")},
				{Name: "Orlocks", Units: unit("Brak", "Hask", "Tor", "Ulm")},
			},
			between: func(ctx context.Context, b *runtime.Battle, round int) error {
				switch round {
				case 2:
					return b.SetStatus(ctx, "Mira", "out_of_action", true)
				case 3:
					if err := b.SetStatus(ctx, "Tor", "seriously_injured", true); err != nil {
						return err
					}
					return b.SetStatus(ctx, "Mira", "out_of_action", false)
				}
				return nil
			},
		},
		{
			// Unit order with ties rolled for and chosen by policy; AGI
			// changes between rounds make new ties.
			ruleset: "agi",
			sides: []runtime.SideSpec{
				{Name: "A", Team: "Red", Units: []runtime.UnitSpec{
					{Name: "Aria", Attrs: map[string]any{"agi": 5}}, {Name: "Ash", Attrs: map[string]any{"agi": 3}}}},
				{Name: "B", Team: "Blue", Units: []runtime.UnitSpec{
					{Name: "Bran", Attrs: map[string]any{"agi": 5}}, {Name: "Bea", Attrs: map[string]any{"agi": 4}}}},
				{Name: "C", Team: "Red", Units: []runtime.UnitSpec{{Name: "Cole", Attrs: map[string]any{"agi": 3}}}},
			},
			between: func(ctx context.Context, b *runtime.Battle, round int) error {
				switch round {
				case 2:
					return b.SetAttr(ctx, "Bea", "agi", 5)
				case 3:
					return b.SetAttr(ctx, "Aria", "agi", 3)
				}
				return nil
			},
		},
	}
}

func (g stepGame) newBattle(p *runtime.Program, seed uint64) (*runtime.Battle, error) {
	return p.NewBattle(g.sides, runtime.WithDice(runtime.NewSeededDice(seed)))
}

func (g stepGame) before(ctx context.Context, b *runtime.Battle, round int) error {
	if g.between == nil {
		return nil
	}
	return g.between(ctx, b, round)
}

// playStraightRounds plays stepRounds rounds with PlayRound.
func playStraightRounds(p *runtime.Program, g stepGame, seed uint64) ([]*runtime.RoundResult, *runtime.Battle, error) {
	ctx := context.Background()
	b, err := g.newBattle(p, seed)
	if err != nil {
		return nil, nil, err
	}
	var out []*runtime.RoundResult
	for round := 1; round <= stepRounds; round++ {
		if err := g.before(ctx, b, round); err != nil {
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

// playTurnByTurn plays the same rounds, one activation at a time. With
// useStep, each turn is b.Step (which asks the Decider, as PlayRound does);
// otherwise the host reads b.Next and calls Activate on the first option,
// which is what the ruleset's default policy picks, or Pass. After every
// activation or pass, and at every round boundary, the battle is
// snapshotted and play continues with the restored copy.
func playTurnByTurn(p *runtime.Program, g stepGame, seed uint64, useStep bool) ([]*runtime.RoundResult, *runtime.Battle, int, error) {
	ctx := context.Background()
	b, err := g.newBattle(p, seed)
	if err != nil {
		return nil, nil, 0, err
	}
	restores := 0
	snap := func(where string) error {
		r, err := snapRestore(p, b)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		b = r
		restores++
		return nil
	}
	var out []*runtime.RoundResult
	for round := 1; round <= stepRounds; round++ {
		if err := snap(fmt.Sprintf("before round %d", round)); err != nil {
			return nil, nil, 0, err
		}
		if err := g.before(ctx, b, round); err != nil {
			return nil, nil, 0, err
		}
		if err := b.StartRound(ctx); err != nil {
			return nil, nil, 0, fmt.Errorf("round %d: %w", round, err)
		}
		if err := snap(fmt.Sprintf("round %d started", round)); err != nil {
			return nil, nil, 0, err
		}
		for i := 0; ; i++ {
			if i > 1000 {
				return nil, nil, 0, fmt.Errorf("round %d does not end", round)
			}
			if useStep {
				done, err := b.Step(ctx)
				if err != nil {
					return nil, nil, 0, fmt.Errorf("round %d, turn %d: %w", round, i, err)
				}
				if done {
					break
				}
			} else {
				turn := b.Next()
				if turn == nil {
					break
				}
				if turn.MustPass {
					err = b.Pass(ctx)
				} else {
					err = b.Activate(ctx, turn.Options[0])
				}
				if err != nil {
					return nil, nil, 0, fmt.Errorf("round %d, turn %d (%+v): %w", round, i, turn, err)
				}
			}
			if err := snap(fmt.Sprintf("round %d, after turn %d", round, i)); err != nil {
				return nil, nil, 0, err
			}
		}
		res, err := b.EndRound(ctx)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("round %d: %w", round, err)
		}
		out = append(out, res)
	}
	return out, b, restores, nil
}

// withoutActivationDecisions drops the events of activation decisions,
// which only Step (and so PlayRound) records: a host calling Activate
// directly made the choice itself.
func withoutActivationDecisions(rs []*runtime.RoundResult) []*runtime.RoundResult {
	out := make([]*runtime.RoundResult, len(rs))
	for i, r := range rs {
		c := *r
		c.Events = slices.DeleteFunc(slices.Clone(r.Events), func(e runtime.Event) bool {
			return e.Kind == runtime.EvDecision && e.Detail == string(runtime.ChooseActivation)
		})
		out[i] = &c
	}
	return out
}

// withoutCurrentEvents returns a snapshot without the transcript of its
// current round.
func withoutCurrentEvents(t *testing.T, data []byte) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	cur, ok := m["current"].(map[string]any)
	if !ok {
		t.Fatalf("the snapshot has no current round: %s", data)
	}
	delete(cur, "events")
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestStepSnapshotEveryActivation(t *testing.T) {
	for _, g := range stepGames() {
		t.Run(g.ruleset, func(t *testing.T) {
			t.Parallel()
			p := mustProgram(t, g.ruleset)
			acts, passes := 0, 0
			for seed := uint64(1); seed <= stepSeeds(); seed++ {
				want, wb, err := playStraightRounds(p, g, seed)
				if err != nil {
					t.Fatalf("seed %d, straight: %v", seed, err)
				}
				wantSnap, err := wb.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				for _, useStep := range []bool{false, true} {
					how := "Next/Activate/Pass"
					if useStep {
						how = "Step"
					}
					got, gb, restores, err := playTurnByTurn(p, g, seed, useStep)
					if err != nil {
						t.Fatalf("seed %d, %s: %v", seed, how, err)
					}
					w, gt := want, got
					if !useStep {
						w, gt = withoutActivationDecisions(want), withoutActivationDecisions(got)
					}
					if diff := cmp.Diff(w, gt); diff != "" {
						t.Fatalf("seed %d, %s with %d restores: round results (-straight +stepped):\n%s", seed, how, restores, diff)
					}
					gotSnap, err := gb.Snapshot()
					if err != nil {
						t.Fatal(err)
					}
					ws, gs := string(wantSnap), string(gotSnap)
					if !useStep {
						// The last round's transcript differs as above.
						ws, gs = withoutCurrentEvents(t, wantSnap), withoutCurrentEvents(t, gotSnap)
					}
					if diff := cmp.Diff(ws, gs); diff != "" {
						t.Fatalf("seed %d, %s: final snapshots (-straight +stepped):\n%s", seed, how, diff)
					}
				}
				for _, r := range want {
					for _, a := range r.Activations {
						if a.Pass {
							passes++
						} else {
							acts++
						}
					}
				}
			}
			// The games are not trivial: units act, and (in alternate mode
			// with unequal sides) sides pass.
			t.Logf("%d activations and %d passes compared", acts, passes)
			if acts == 0 || (g.ruleset != "agi" && passes == 0) {
				t.Errorf("%d activations and %d passes: the battles exercise too little", acts, passes)
			}
		})
	}
}

// A host that also readies a unit in mid-round (a skill) between
// activations: the same battle, with and without a snapshot after every
// activation, ends the same.
func TestStepSnapshotWithSkill(t *testing.T) {
	p := mustProgram(t, "necromunda")
	g := stepGames()[1]
	ctx := context.Background()
	play := func(seed uint64, restoreEveryTurn bool) ([]*runtime.RoundResult, error) {
		b, err := g.newBattle(p, seed)
		if err != nil {
			return nil, err
		}
		var out []*runtime.RoundResult
		for round := 1; round <= stepRounds; round++ {
			if err := g.before(ctx, b, round); err != nil {
				return nil, err
			}
			if err := b.StartRound(ctx); err != nil {
				return nil, err
			}
			skill := false
			for i := 0; ; i++ {
				turn := b.Next()
				if turn == nil {
					break
				}
				if turn.MustPass {
					err = b.Pass(ctx)
				} else {
					// Pick the last option, unlike the default policy.
					err = b.Activate(ctx, turn.Options[len(turn.Options)-1])
				}
				if err != nil {
					return nil, fmt.Errorf("round %d turn %d: %w", round, i, err)
				}
				// The third activation's model may act again, once a round.
				if acts := b.Activations(); !skill && len(acts) == 3 && !acts[2].Pass {
					skill = true
					if err := b.MakeReady(acts[2].Unit); err != nil {
						return nil, err
					}
				}
				if restoreEveryTurn {
					if b, err = snapRestore(p, b); err != nil {
						return nil, err
					}
				}
			}
			res, err := b.EndRound(ctx)
			if err != nil {
				return nil, err
			}
			out = append(out, res)
		}
		return out, nil
	}
	twice := 0
	for seed := uint64(1); seed <= stepSeeds(); seed++ {
		want, err := play(seed, false)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		got, err := play(seed, true)
		if err != nil {
			t.Fatalf("seed %d, restored every turn: %v", seed, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("seed %d: (-straight +restored):\n%s", seed, diff)
		}
		for _, r := range want {
			seen := map[string]int{}
			for _, a := range r.Activations {
				if !a.Pass {
					seen[a.Unit]++
					if seen[a.Unit] == 2 {
						twice++
					}
				}
			}
		}
	}
	if twice == 0 {
		t.Error("no model ever acted twice in a round")
	}
}
