package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/longtest"
)

// The straight-through roll-off (rolloff.go) seen from the outside:
// battles played by a Program that plans the roll-off and by
// one that does not (rolloff nil) go through the same calls, with the
// host doing between rounds what hosts do (attributes, statuses, units
// removed, snapshots restored, clones, rounds played by hand, odds), and
// every observable is compared after every call.

// hostRuleset is a roll-off ruleset with everything a host can touch
// between rounds: side and unit attributes, statuses, units, and phases
// and steps that hold nothing but hook points.
func hostRuleset(chain string) string {
	return `ruleset r {
  sides 2
  side attribute morale int = 3
  side attribute bold bool
  side attribute banner string = "none"
  unit attribute agi int
  unit status pinned, fresh
  phase opening each round {
    hook start
    step brace {
      hook mid
    }
  }
  phase p each round {
    hook start
    step s {
      order sides as priority {
        ` + chain + `
      }
    }
    hook end
  }
}
`
}

// hostCases are roll-offs whose tie rules read what changes between
// rounds and what the round under way has (holder, chooser, the units,
// the sides), and awards that name a side in other ways than the memory.
var hostCases = []hostCase{
	{"mesbg", ""},
	{"necromunda's roll", "highest roll d6\n tie when len(sides) == 2 and round == 1: reroll\n tie when len(sides) == 2: award not previous.holder\n tie: reroll"},
	{"current holder and chooser", "highest roll d3\n tie when holder == \"\" and chooser == \"\" and len(tied) == 2 and round < 4: reroll\n tie: award (previous.holder == \"\" ? \"Rob\" : previous.holder)\n choice first by winner default other"},
	{"unit count", "highest roll d4\n tie when len(units) > 3: reroll\n tie when round > 1: award previous.holder"},
	{"literal award", "lowest roll 2d3\n tie when round == 2: award \"Jay\"\n tie when round == 3: award not \"Rob\"\n tie: reroll\n choice order by loser default reverse"},
	{"conditional award", "highest roll d2\n tie when chooser == \"\" and round > 1: award (round > 3 ? previous.chooser : \"Jay\")\n tie: reroll\n choice before_after by loser default after"},
	{"award of a name not in the battle", "highest roll d2\n tie when round > 2: award \"Nobody\"\n tie: reroll"},
	{"a choice the roll leaves open", "highest roll d3\n tie when round > 3: reroll\n choice first by loser default self"},
}

func hostPrograms(t *testing.T, chain string, limits Limits) (fast, slow *Program) {
	t.Helper()
	compile := func() *Program {
		if chain == "" {
			return compileRolloff(t, "mesbg", "", limits)
		}
		return compileRolloff(t, "", hostRuleset(chain), limits)
	}
	fast, slow = compile(), compile()
	if fast.rolloff == nil {
		t.Fatalf("%q is not planned as a roll-off", chain)
	}
	slow.rolloff = nil
	return fast, slow
}

// hostSides are two sides with units, attributes and statuses, in either
// order.
func hostSides(prog *Program, swap bool) []SideSpec {
	if prog.name == "mesbg" {
		if swap {
			return Sides("Rob", "Jay")
		}
		return Sides("Jay", "Rob")
	}
	jay := SideSpec{Name: "Jay", Attrs: map[string]any{"morale": 4, "bold": true}, Units: []UnitSpec{
		{Name: "j1", Attrs: map[string]any{"agi": 3}}, {Name: "j2", Statuses: []string{"pinned"}}}}
	rob := SideSpec{Name: "Rob", Attrs: map[string]any{"banner": "red"}, Units: []UnitSpec{
		{Name: "r1", Attrs: map[string]any{"agi": 5}, Statuses: []string{"fresh"}}, {Name: "r2"}}}
	if swap {
		return []SideSpec{rob, jay}
	}
	return []SideSpec{jay, rob}
}

// observed is everything a host can read of a battle without changing it.
type observed struct {
	Snapshot        string
	SnapshotErr     string
	Standing        *Standing
	Memory          Memory
	Order           []string
	Holder, Side    string
	Chooser         string
	Result          string
	Events, Pending []Event
	Activations     []ActivationRecord
	Ready           []string
	Round           int
	InRound         bool
	Next            *Turn
	StateKey        string
	Units           []string
}

func observe(t *testing.T, b *Battle) observed {
	t.Helper()
	o := observed{Memory: b.Memory(), Order: b.Order(), Holder: b.Holder(), Side: b.HolderSide(), Chooser: b.Chooser(),
		Events: b.Events(), Pending: b.PendingEvents(), Activations: b.Activations(), Ready: b.ReadyUnits(),
		Round: b.Round(), InRound: b.InRound(), Next: b.Next(), Standing: b.Standing(b.prog.main.name)}
	if snap, err := b.Snapshot(); err != nil {
		o.SnapshotErr = err.Error()
	} else {
		o.Snapshot = string(snap)
	}
	if r := b.Result(); r != nil {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		o.Result = string(data)
	}
	if !b.InRound() && b.failed == nil {
		key, _, _, err := b.StateKeys()
		if err != nil {
			t.Fatal(err)
		}
		o.StateKey = key
	}
	for _, u := range b.Units() {
		o.Units = append(o.Units, fmt.Sprintf("%s of %s %v %v ready=%v", u.Name, u.Side.Name, u.Attrs, u.Status, u.Ready))
	}
	for _, s := range b.Sides() {
		o.Units = append(o.Units, fmt.Sprintf("side %s %v", s.Name, s.Attrs))
	}
	return o
}

func sameObserved(t *testing.T, what string, fast, slow *Battle) {
	t.Helper()
	f, s := observe(t, fast), observe(t, slow)
	if diff := cmp.Diff(s, f); diff != "" {
		t.Fatalf("%s (-engine +straight):\n%s", what, diff)
	}
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestRolloffHostBetweenRounds plays each case both ways with a host
// that, between rounds, does something at random (the same to both
// battles): changes attributes and statuses, removes units, readies
// them, saves and restores the battle, clones it (with its dice or new
// ones), plays a round by hand or with PlayRound, or asks the odds.
func TestRolloffHostBetweenRounds(t *testing.T) {
	t.Parallel()
	seeds, rounds := 10, 14
	if longtest.Enabled() {
		seeds = 60
	}
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, tc := range hostCases {
		t.Run(tc.name, func(t *testing.T) {
			fastProg, slowProg := hostPrograms(t, tc.chain, Limits{})
			attempted := 0
			for seed := range uint64(seeds) {
				rng := rand.New(rand.NewPCG(seed, 99))
				sides := hostSides(fastProg, seed%2 == 1)
				fast, slow := newPair(t, fastProg, slowProg, sides, seed)
				var log []string
				for round := 1; round <= rounds; round++ {
					op := rng.IntN(17)
					log = append(log, fmt.Sprint(op))
					what := fmt.Sprintf("seed %d round %d, ops %v", seed, round, log)
					var fastErr, slowErr error
					switch op {
					case 0:
						who, v := []string{"Jay", "Rob"}[rng.IntN(2)], rng.IntN(7)
						fastErr, slowErr = fast.SetAttr(ctx, who, "morale", v), slow.SetAttr(ctx, who, "morale", v)
					case 1:
						who, v := []string{"Jay", "Rob"}[rng.IntN(2)], rng.IntN(2) == 0
						fastErr, slowErr = fast.SetAttr(ctx, who, "bold", v), slow.SetAttr(ctx, who, "bold", v)
					case 2:
						who, v := []string{"j1", "j2", "r1", "r2"}[rng.IntN(4)], rng.IntN(7)
						fastErr, slowErr = fast.SetAttr(ctx, who, "agi", v), slow.SetAttr(ctx, who, "agi", v)
					case 3:
						who, on := []string{"j1", "j2", "r1", "r2"}[rng.IntN(4)], rng.IntN(2) == 0
						fastErr, slowErr = fast.SetStatus(ctx, who, "pinned", on), slow.SetStatus(ctx, who, "pinned", on)
					case 4:
						who := []string{"j1", "j2", "r1", "r2"}[rng.IntN(4)]
						fastErr, slowErr = fast.RemoveUnit(ctx, who), slow.RemoveUnit(ctx, who)
					case 5:
						who := []string{"j1", "j2", "r1", "r2"}[rng.IntN(4)]
						fastErr, slowErr = fast.MakeReady(who), slow.MakeReady(who)
					case 6:
						fast, slow = restoreBoth(t, fastProg, slowProg, fast, slow)
					case 7:
						fast, slow = fast.Clone(), slow.Clone()
					case 8:
						s := rng.Uint64()
						fast, slow = fast.Clone(WithDice(NewSeededDice(s))), slow.Clone(WithDice(NewSeededDice(s)))
					case 9:
						fast, slow = fast.Clone(WithDice(&SeededDice{})), slow.Clone(WithDice(&SeededDice{}))
					case 10:
						// A round by hand, which is the engine's either way.
						fastErr, slowErr = playByHand(ctx, fast), playByHand(ctx, slow)
					case 11:
						if fastProg.name == "mesbg" || round > 8 {
							fr, ferr := fast.Odds(ctx, OddsOptions{Rounds: 1})
							sr, serr := slow.Odds(ctx, OddsOptions{Rounds: 1})
							fastErr, slowErr = ferr, serr
							if diff := cmp.Diff(asJSON(t, sr), asJSON(t, fr)); diff != "" {
								t.Fatalf("%s: odds (-engine +straight):\n%s", what, diff)
							}
						}
					case 12:
						// Nothing to abort between rounds.
						fastErr, slowErr = fast.AbortRound(), slow.AbortRound()
					case 14:
						// A round that fails (its context is cancelled) and is
						// undone: the engine's, after rounds straight through.
						fastErr, slowErr = fast.AdvanceRound(cancelled), slow.AdvanceRound(cancelled)
						if errString(fastErr) != errString(slowErr) || fastErr == nil {
							t.Fatalf("%s: cancelled: straight through: %v; engine: %v", what, fastErr, slowErr)
						}
						sameObserved(t, what+", cancelled", fast, slow)
						fastErr, slowErr = fast.AbortRound(), slow.AbortRound()
					case 16:
						// A round by hand whose holder a special rule of the
						// host's sets: the memory the next rounds read.
						fastErr, slowErr = playGivingPriorityAway(ctx, fast), playGivingPriorityAway(ctx, slow)
					case 15:
						// A clone plays on by itself, and leaves the battle it
						// was cloned from as it was.
						fc, sc := fast.Clone(), slow.Clone()
						for range 3 {
							fe, se := fc.AdvanceRound(ctx), sc.AdvanceRound(ctx)
							if errString(fe) != errString(se) {
								t.Fatalf("%s: clone: straight through: %v; engine: %v", what, fe, se)
							}
							sameObserved(t, what+", clone", fc, sc)
							if fe != nil {
								break
							}
						}
					}
					if errString(fastErr) != errString(slowErr) {
						t.Fatalf("%s: straight through: %v; engine: %v", what, fastErr, slowErr)
					}
					sameObserved(t, what+", before the round", fast, slow)
					if fast.rolloffReady(ctx) {
						attempted++
					}
					if op == 13 {
						fr, ferr := fast.PlayRound(ctx)
						sr, serr := slow.PlayRound(ctx)
						fastErr, slowErr = ferr, serr
						if diff := cmp.Diff(sr, fr); diff != "" {
							t.Fatalf("%s: PlayRound (-engine +straight):\n%s", what, diff)
						}
					} else {
						fastErr, slowErr = fast.AdvanceRound(ctx), slow.AdvanceRound(ctx)
					}
					if errString(fastErr) != errString(slowErr) {
						t.Fatalf("%s: round: straight through: %v; engine: %v", what, fastErr, slowErr)
					}
					sameObserved(t, what+", after the round", fast, slow)
					if slowErr != nil {
						if ferr, serr := fast.AbortRound(), slow.AbortRound(); errString(ferr) != errString(serr) {
							t.Fatalf("%s: AbortRound: straight through: %v; engine: %v", what, ferr, serr)
						}
						sameObserved(t, what+", aborted", fast, slow)
						break
					}
				}
			}
			if attempted == 0 {
				t.Error("no round was played straight through")
			}
		})
	}
}

// restoreBoth saves both battles and restores each into its program, as a
// host that keeps battles as snapshots does.
func restoreBoth(t *testing.T, fastProg, slowProg *Program, fast, slow *Battle) (*Battle, *Battle) {
	t.Helper()
	fs, err := fast.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	ss, err := slow.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if string(fs) != string(ss) {
		t.Fatalf("snapshots differ:\n%s\n%s", fs, ss)
	}
	return restorePair(t, fastProg, slowProg, fs, ss)
}

// restorePair restores fs with fastProg and ss with slowProg, without a
// transcript.
func restorePair(t *testing.T, fastProg, slowProg *Program, fs, ss []byte) (fast, slow *Battle) {
	t.Helper()
	fast, err := fastProg.Restore(fs, WithTranscript(false))
	if err != nil {
		t.Fatal(err)
	}
	slow, err = slowProg.Restore(ss, WithTranscript(false))
	if err != nil {
		t.Fatal(err)
	}
	return fast, slow
}

// playGivingPriorityAway plays a round by hand in which the host gives
// priority to the side the order put last (SetHolder).
func playGivingPriorityAway(ctx context.Context, b *Battle) error {
	if err := b.StartRound(ctx); err != nil {
		return err
	}
	if order := b.Order(); len(order) > 1 {
		if err := b.SetHolder(order[len(order)-1]); err != nil {
			return err
		}
	}
	_, err := b.EndRound(ctx)
	return err
}

// playByHand plays a round with StartRound, Step and EndRound.
func playByHand(ctx context.Context, b *Battle) error {
	if err := b.StartRound(ctx); err != nil {
		return err
	}
	for {
		done, err := b.Step(ctx)
		if err != nil {
			return err
		}
		if done {
			break
		}
	}
	_, err := b.EndRound(ctx)
	return err
}

// TestRolloffSameAsWatchedBattles plays each case straight through
// and, from the same seed, on battles the straight path must leave to the
// engine because something could watch the round: a transcript, a Go
// hook, a decider that is not the Policy (though it answers as the
// policies do). Apart from what the watchers saw (the transcript), the
// battles are the same.
func TestRolloffSameAsWatchedBattles(t *testing.T) {
	t.Parallel()
	seeds, rounds := 6, 12
	if longtest.Enabled() {
		seeds = 40
	}
	ctx := context.Background()
	byDefault := DeciderFunc(func(_ context.Context, d Decision) ([]string, error) { return d.Default, nil })
	hooked := 0
	hook := func(context.Context, *Battle, HookPoint) error { hooked++; return nil }
	for _, tc := range append(hostCases, hostCase{"reroll only", "highest roll d6\n tie: reroll"}) {
		t.Run(tc.name, func(t *testing.T) {
			prog, _ := hostPrograms(t, tc.chain, Limits{})
			for seed := range uint64(seeds) {
				sides := hostSides(prog, seed%2 == 0)
				fast, err := prog.NewBattle(sides, WithDice(NewSeededDice(seed)), WithTranscript(false))
				if err != nil {
					t.Fatal(err)
				}
				watched := map[string]*Battle{}
				for name, opts := range map[string][]BattleOption{
					"transcript": {WithTranscript(true)},
					"hook":       {WithTranscript(false), WithHook(hook)},
					"decider":    {WithTranscript(false), WithDecider(byDefault)},
				} {
					if watched[name], err = prog.NewBattle(sides, append(opts, WithDice(NewSeededDice(seed)))...); err != nil {
						t.Fatal(err)
					}
				}
				for round := 1; round <= rounds; round++ {
					if watched["hook"].rolloffReady(ctx) || watched["transcript"].rolloffReady(ctx) || watched["decider"].rolloffReady(ctx) {
						t.Fatal("a watched battle's round would be played straight through")
					}
					fastErr := fast.AdvanceRound(ctx)
					for name, w := range watched {
						what := fmt.Sprintf("seed %d round %d, %s", seed, round, name)
						if err := w.AdvanceRound(ctx); errString(err) != errString(fastErr) {
							t.Fatalf("%s: straight through: %v; watched: %v", what, fastErr, err)
						}
						f, s := observe(t, fast), observe(t, w)
						// What only the watchers see.
						f.Snapshot, s.Snapshot = dropEvents(t, f.Snapshot), dropEvents(t, s.Snapshot)
						f.Events, s.Events, f.Result, s.Result = nil, nil, "", ""
						if diff := cmp.Diff(s, f); diff != "" {
							t.Fatalf("%s (-watched +straight):\n%s", what, diff)
						}
						if fr, wr := fast.Result(), w.Result(); fr != nil {
							fr.Events, wr.Events = nil, nil
							if diff := cmp.Diff(wr, fr); diff != "" {
								t.Fatalf("%s: Result (-watched +straight):\n%s", what, diff)
							}
						}
					}
					if fastErr != nil {
						break
					}
				}
			}
		})
	}
	if hooked == 0 {
		t.Error("the Go hook never ran")
	}
}

type hostCase = struct{ name, chain string }

// dropEvents removes the transcript from a snapshot.
func dropEvents(t *testing.T, snap string) string {
	t.Helper()
	if snap == "" {
		return ""
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(snap), &s); err != nil {
		t.Fatal(err)
	}
	if cur, ok := s["current"].(map[string]any); ok {
		delete(cur, "events")
	}
	delete(s, "pending")
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestRolloffSimulate runs Simulate of MESBG both ways: the same
// report, from battles played straight through and by the engine.
func TestRolloffSimulate(t *testing.T) {
	fast, slow := hostPrograms(t, "", Limits{})
	ctx := context.Background()
	opt := SimOptions{Runs: 600, Rounds: 10, Seed: 7, Workers: 2}
	if longtest.Enabled() {
		opt.Runs = 3000
	}
	fr, err := fast.Simulate(ctx, Sides("Jay", "Rob"), opt)
	if err != nil {
		t.Fatal(err)
	}
	sr, err := slow.Simulate(ctx, Sides("Jay", "Rob"), opt)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sr, fr); diff != "" {
		t.Fatalf("Simulate (-engine +straight):\n%s", diff)
	}
	// A failing ruleset reports the same battle and round.
	fast, slow = hostPrograms(t, "highest roll d2\n tie when round < 3: reroll\n tie: award previous.chooser", Limits{})
	_, ferr := fast.Simulate(ctx, Sides("Jay", "Rob"), opt)
	_, serr := slow.Simulate(ctx, Sides("Jay", "Rob"), opt)
	if ferr == nil || errString(ferr) != errString(serr) {
		t.Fatalf("Simulate: straight through: %v; engine: %v", ferr, serr)
	}
}

// TestRolloffConcurrent plays battles of one Program from several
// goroutines (run it with -race): each ends as the engine's does.
func TestRolloffConcurrent(t *testing.T) {
	fast, slow := hostPrograms(t, hostCases[2].chain, Limits{})
	ctx := context.Background()
	const battles, rounds = 16, 30
	play := func(p *Program, seed uint64) (string, error) {
		b, err := p.NewBattle(hostSides(p, seed%2 == 0), WithDice(NewSeededDice(seed)), WithTranscript(false))
		if err != nil {
			return "", err
		}
		for range rounds {
			if err := b.AdvanceRound(ctx); err != nil {
				return "", err
			}
		}
		snap, err := b.Snapshot()
		return string(snap), err
	}
	want := make([]string, battles)
	for i := range want {
		var err error
		if want[i], err = play(slow, uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	got := make([]string, battles)
	errs := make([]error, battles)
	done := make(chan struct{})
	for i := range battles {
		go func() {
			defer func() { done <- struct{}{} }()
			got[i], errs[i] = play(fast, uint64(i))
		}()
	}
	for range battles {
		<-done
	}
	for i := range battles {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if got[i] != want[i] {
			t.Errorf("battle %d: snapshot straight through:\n%s\nby the engine:\n%s", i, got[i], want[i])
		}
	}
}

// TestRolloffRestoredAnywhere restores snapshots saved in mid-round
// (by the engine) and between rounds into both programs, crosswise too:
// a snapshot of a battle played straight through, restored into the
// engine's program, plays on as the engine's own battle does.
func TestRolloffRestoredAnywhere(t *testing.T) {
	ctx := context.Background()
	for _, tc := range hostCases {
		t.Run(tc.name, func(t *testing.T) {
			fastProg, slowProg := hostPrograms(t, tc.chain, Limits{})
			for seed := range uint64(12) {
				sides := hostSides(fastProg, seed%2 == 0)
				b, err := slowProg.NewBattle(sides, WithDice(NewSeededDice(seed)), WithTranscript(false))
				if err != nil {
					t.Fatal(err)
				}
				// Saved in mid-round, after the order is made.
				for r := 0; r < int(seed%4); r++ {
					if err := b.AdvanceRound(ctx); err != nil {
						break
					}
				}
				if err := b.StartRound(ctx); err != nil {
					continue
				}
				mid, err := b.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				fast, slow := restorePair(t, fastProg, slowProg, mid, mid)
				for _, x := range []*Battle{fast, slow} {
					if _, err := x.EndRound(ctx); err != nil {
						t.Fatal(err)
					}
				}
				for round := 0; round < 10; round++ {
					what := fmt.Sprintf("seed %d, restored in mid-round, round %d after", seed, round)
					if round == 5 {
						// Crosswise: each program plays on the other's battle.
						fs, err := fast.Snapshot()
						if err != nil {
							t.Fatal(err)
						}
						ss, err := slow.Snapshot()
						if err != nil {
							t.Fatal(err)
						}
						fast, slow = restorePair(t, fastProg, slowProg, ss, fs)
					}
					fe, se := fast.AdvanceRound(ctx), slow.AdvanceRound(ctx)
					if errString(fe) != errString(se) {
						t.Fatalf("%s: straight through: %v; engine: %v", what, fe, se)
					}
					sameObserved(t, what, fast, slow)
					if fe != nil {
						break
					}
				}
			}
		})
	}
}

// TestRolloffRefused lists what keeps a battle's round from being
// played straight through, and plays each such battle both ways all the
// same.
func TestRolloffRefused(t *testing.T) {
	ctx := context.Background()
	fastProg, _ := hostPrograms(t, "", Limits{})
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	scripted := NewScriptedDice()
	scripted.Fallback = NewSeededDice(3)
	for _, tc := range []struct {
		name string
		opts []BattleOption
		ctx  context.Context
	}{
		{"a transcript", []BattleOption{WithTranscript(true)}, ctx},
		{"a Go hook", []BattleOption{WithHook(func(context.Context, *Battle, HookPoint) error { return nil })}, ctx},
		{"scripted dice falling back on seeded ones", []BattleOption{WithDice(scripted)}, ctx},
		{"a decider of the host's", []BattleOption{WithDecider(DeciderFunc(func(_ context.Context, d Decision) ([]string, error) { return d.Default, nil }))}, ctx},
		{"a cancelled context", nil, cancelled},
	} {
		b, err := fastProg.NewBattle(Sides("Jay", "Rob"), append([]BattleOption{WithTranscript(false)}, tc.opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.AdvanceRound(ctx); err != nil {
			t.Fatal(err)
		}
		if b.rolloffReady(tc.ctx) {
			t.Errorf("%s: the round would be played straight through", tc.name)
		}
	}
	// A cancelled context fails the round as the engine does, and the
	// round can be played again.
	for _, p := range []*Program{fastProg} {
		b, err := p.NewBattle(Sides("Jay", "Rob"), WithTranscript(false))
		if err != nil {
			t.Fatal(err)
		}
		if err := b.AdvanceRound(ctx); err != nil {
			t.Fatal(err)
		}
		err = b.AdvanceRound(cancelled)
		if err == nil || !strings.Contains(err.Error(), "canceled") {
			t.Fatalf("a round with a cancelled context: %v", err)
		}
		if err := b.AbortRound(); err != nil {
			t.Fatal(err)
		}
		if !b.rolloffReady(ctx) {
			t.Fatal("the aborted round is not played straight through")
		}
		if err := b.AdvanceRound(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// More sides than two: the engine's.
	src := strings.Replace(hostRuleset("highest roll d6\n tie: reroll"), "sides 2", "sides 2..", 1)
	f, diags := dsl.Parse("r.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, err := Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	if p.rolloff == nil {
		t.Fatal("sides 2.. is not planned as a roll-off")
	}
	b, err := p.NewBattle(Sides("A", "B", "C"), WithTranscript(false))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.AdvanceRound(ctx); err != nil {
		t.Fatal(err)
	}
	if b.rolloffReady(ctx) {
		t.Error("a round of three sides would be played straight through")
	}
}

// randomChain writes a roll-off chain at random: a roll, tie rules whose
// guards and awards read what fast expressions can (the round, the
// memory, the holder and chooser of the round under way, the counts of
// sides, units and tied), and a choice, or none.
func randomChain(rng *rand.Rand) string {
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	var guard func(depth int) string
	guard = func(depth int) string {
		if depth > 1 || rng.IntN(3) > 0 {
			return pick(
				"round == "+fmt.Sprint(1+rng.IntN(4)),
				"round > "+fmt.Sprint(rng.IntN(5)),
				"round <= "+fmt.Sprint(1+rng.IntN(5)),
				`previous.holder == "Jay"`,
				`previous.chooser != ""`,
				`previous.holder == previous.chooser`,
				`holder == ""`,
				`chooser != ""`,
				"len(tied) == 2",
				"len(sides) > 2",
				"len(units) >= "+fmt.Sprint(rng.IntN(5)),
				"true",
			)
		}
		switch rng.IntN(3) {
		case 0:
			return "(" + guard(depth+1) + " and " + guard(depth+1) + ")"
		case 1:
			return "(" + guard(depth+1) + " or " + guard(depth+1) + ")"
		}
		return "not (" + guard(depth+1) + ")"
	}
	name := func() string {
		n := pick("previous.holder", "previous.chooser", "holder", "chooser", `"Jay"`, `"Rob"`, `"Nobody"`, `""`)
		if rng.IntN(4) == 0 {
			n = "(" + guard(1) + " ? " + n + " : " + pick("previous.holder", `"Rob"`, "previous.chooser") + ")"
		}
		return n
	}
	dir := pick("highest", "lowest")
	dice := pick("d1", "d2", "d3", "d6", "2d2", "2d6", "3d4", "d1000")
	lines := []string{dir + " roll " + dice}
	for range rng.IntN(4) {
		rule := "tie"
		if rng.IntN(3) > 0 {
			rule += " when " + guard(0)
		}
		switch rng.IntN(3) {
		case 0:
			rule += ": reroll"
		case 1:
			rule += ": award " + name()
		default:
			rule += ": award not " + name()
		}
		lines = append(lines, rule)
	}
	if rng.IntN(3) > 0 {
		switch rng.IntN(3) {
		case 0:
			lines = append(lines, "choice first by "+pick("winner", "loser")+" default "+pick("self", "other", "keep"))
		case 1:
			lines = append(lines, "choice before_after by "+pick("winner", "loser")+" default "+pick("before", "after"))
		default:
			lines = append(lines, "choice order by "+pick("winner", "loser")+" default "+pick("keep", "reverse"))
		}
	}
	return strings.Join(lines, "\n ")
}

// TestRolloffRandomChains plays roll-offs written at random both
// ways, with a host that changes the battle between rounds.
func TestRolloffRandomChains(t *testing.T) {
	t.Parallel()
	chains, seeds, rounds := 60, 6, 10
	if longtest.Enabled() {
		chains = 400
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(2026, 12))
	planned, attempted := 0, 0
	for c := range chains {
		chain := randomChain(rng)
		limits := []Limits{{}, {MaxRerolls: -1}, {MaxRerolls: 1}, {MaxRerolls: 3}}[rng.IntN(4)]
		f, diags := dsl.Parse("r.rules", []byte(hostRuleset(chain)))
		if diags.HasErrors() {
			t.Fatalf("chain %d %q: %v", c, chain, diags)
		}
		fastProg, err := Compile(f, WithLimits(limits))
		if err != nil {
			continue // a chain the compiler refuses (a choice no rule can reach, say)
		}
		if fastProg.rolloff == nil {
			continue
		}
		planned++
		slowProg, err := Compile(f, WithLimits(limits))
		if err != nil {
			t.Fatal(err)
		}
		slowProg.rolloff = nil
		for seed := range uint64(seeds) {
			sides := hostSides(fastProg, seed%2 == 1)
			fast, slow := newPair(t, fastProg, slowProg, sides, seed)
			for round := 1; round <= rounds; round++ {
				what := fmt.Sprintf("chain %q, limits %+v, seed %d, round %d", chain, limits, seed, round)
				switch rng.IntN(6) {
				case 0:
					who := []string{"j1", "j2", "r1", "r2"}[rng.IntN(4)]
					fe, se := fast.RemoveUnit(ctx, who), slow.RemoveUnit(ctx, who)
					if errString(fe) != errString(se) {
						t.Fatalf("%s: RemoveUnit: %v; %v", what, fe, se)
					}
				case 1:
					fast, slow = restoreBoth(t, fastProg, slowProg, fast, slow)
				case 2:
					fast, slow = fast.Clone(), slow.Clone()
				}
				if fast.rolloffReady(ctx) {
					attempted++
				}
				fe, se := fast.AdvanceRound(ctx), slow.AdvanceRound(ctx)
				if errString(fe) != errString(se) {
					t.Fatalf("%s: straight through: %v; engine: %v", what, fe, se)
				}
				sameObserved(t, what, fast, slow)
				if se != nil {
					fe, se = fast.AbortRound(), slow.AbortRound()
					if errString(fe) != errString(se) {
						t.Fatalf("%s: AbortRound: %v; %v", what, fe, se)
					}
					sameObserved(t, what+", aborted", fast, slow)
					break
				}
			}
		}
	}
	t.Logf("%d chains planned as roll-offs, %d rounds tried straight through", planned, attempted)
	if planned < chains/4 {
		t.Errorf("only %d of %d chains planned as roll-offs", planned, chains)
	}
}

// TestRolloffPendingEvents restores, with the transcript off, a
// battle saved with events waiting for the next round (a change made
// between rounds with the transcript on): the round played straight
// through opens with them, as the engine's does, and hands them over
// untouched when it cannot play the round.
func TestRolloffPendingEvents(t *testing.T) {
	ctx := context.Background()
	for _, chain := range []string{"highest roll d6\n tie: reroll", "highest roll d2\n tie when round > 2: award \"Nobody\"\n tie: reroll"} {
		fastProg, slowProg := hostPrograms(t, chain, Limits{})
		for seed := range uint64(20) {
			b, err := slowProg.NewBattle(hostSides(slowProg, false), WithDice(NewSeededDice(seed)))
			if err != nil {
				t.Fatal(err)
			}
			if err := b.AdvanceRound(ctx); err != nil {
				t.Fatal(err)
			}
			if err := b.SetAttr(ctx, "Jay", "morale", 6); err != nil {
				t.Fatal(err)
			}
			if err := b.SetStatus(ctx, "r2", "fresh", true); err != nil {
				t.Fatal(err)
			}
			if len(b.PendingEvents()) == 0 {
				t.Fatal("no events wait for the next round")
			}
			snap, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			fast, slow := restorePair(t, fastProg, slowProg, snap, snap)
			for round := 2; round <= 6; round++ {
				what := fmt.Sprintf("%q seed %d round %d", chain, seed, round)
				if !fast.rolloffReady(ctx) {
					t.Fatalf("%s: not played straight through", what)
				}
				fe, se := fast.AdvanceRound(ctx), slow.AdvanceRound(ctx)
				if errString(fe) != errString(se) {
					t.Fatalf("%s: straight through: %v; engine: %v", what, fe, se)
				}
				sameObserved(t, what, fast, slow)
				if round == 2 && len(fast.Events()) == 0 && fe == nil {
					t.Fatalf("%s: the round does not open with the events that waited for it", what)
				}
				if fe != nil {
					break
				}
			}
		}
	}
}

// TestRolloffPlansOnlyNative wants the plan refused when a tie rule
// reads what no native expression reads (the previous order, a side's
// attribute, a remembered value), or an award names someone by such an
// expression: the straight path has no expr-lang environment to read
// them in.
func TestRolloffPlansOnlyNative(t *testing.T) {
	for _, chain := range []string{
		"highest roll d6\n tie when len(previous.order) > 0 and previous.order[0] == \"Jay\": reroll\n tie: award \"Rob\"",
		"highest roll d6\n tie when sides[0].morale > 2: reroll\n tie: award \"Rob\"",
		"highest roll d6\n tie when \"Jay\" in previous.order: award \"Jay\"\n tie: reroll",
		"highest roll d6\n tie when round > 1: award previous.order[0]\n tie: reroll",
		"highest roll d6\n tie when round > 1: award sides[1].name\n tie: reroll",
		"highest roll d6\n tie when round > 1: award first(tied).name\n tie: reroll",
		"highest roll d6\n tie when round % 2 == 0: reroll\n tie: award \"Jay\"",
	} {
		f, diags := dsl.Parse("r.rules", []byte(hostRuleset(chain)))
		if diags.HasErrors() {
			t.Fatalf("%q: %v", chain, diags)
		}
		p, err := Compile(f)
		if err != nil {
			t.Fatalf("%q: %v", chain, err)
		}
		if p.rolloff != nil {
			t.Errorf("%q is planned as a roll-off", chain)
		}
	}
}

// TestRolloffAllocatesAsTheEngine wants a battle whose rounds are
// played straight through, some of them handed to the engine (a tie no
// rule breaks, ties before the round a rule covers), to allocate nothing
// once warm, as the engine's rounds do. The record of the round before
// last, left for the next round to reuse, and the standing the spare
// holds were dropped at every round handed over, and allocated again.
func TestRolloffAllocatesAsTheEngine(t *testing.T) {
	ctx := context.Background()
	for _, chain := range []string{
		"", // MESBG
		"highest roll d6",
		"lowest roll d2\n tie when round < 1000: reroll",
		"highest roll d3\n tie when round > 1 and round < 1500: award not previous.holder\n tie when round > 1800: reroll",
	} {
		fastProg, slowProg := hostPrograms(t, chain, Limits{})
		allocs := func(p *Program) float64 {
			b, err := p.NewBattle(hostSides(p, false), WithDice(NewSeededDice(11)), WithTranscript(false))
			if err != nil {
				t.Fatal(err)
			}
			play := func(rounds int) {
				for range rounds {
					if err := b.AdvanceRound(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}
			play(20) // warm, with ties handed over
			// Counted in hundreds of rounds: AllocsPerRun rounds its
			// average down.
			return testing.AllocsPerRun(20, func() { play(100) }) / 100
		}
		engine := allocs(slowProg)
		if engine != 0 {
			t.Skipf("%q: the engine's rounds allocate %v times here (the race detector?)", chain, engine)
		}
		if got := allocs(fastProg); got != 0 {
			t.Errorf("%q: %v allocations a round straight through, none by the engine", chain, got)
		}
	}
}

// TestRolloffTiesThatNeverBreak plays a roll that can never break
// a tie (a D1) with a reroll rule and the highest limit of rerolls a host
// may set, under a deadline that passes first or not (the machine
// decides). The straight path hands such a tie to the engine at once,
// rather than spin through the limit itself, ignoring the context: either
// way, the round ends in the limit's error or the deadline's, well before
// the test gives up on it.
func TestRolloffTiesThatNeverBreak(t *testing.T) {
	for _, chain := range []string{"highest roll d1\n tie when round > 1: reroll", "lowest roll 3d1\n tie when round == 1: award \"Rob\"\n tie: reroll\n choice first by winner default other"} {
		fastProg, slowProg := hostPrograms(t, chain, Limits{MaxRerolls: MaxRerollsAllowed})
		for name, p := range map[string]*Program{"straight through": fastProg, "engine": slowProg} {
			b, err := p.NewBattle(Sides("Jay", "Rob"), WithTranscript(false))
			if err != nil {
				t.Fatal(err)
			}
			if err := b.AdvanceRound(context.Background()); err != nil {
				t.Fatal(err)
			}
			if !b.rolloffReady(context.Background()) && p == fastProg {
				t.Fatalf("%q: round 2 would not be played straight through", chain)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			done := make(chan error, 1)
			go func() { done <- b.AdvanceRound(ctx) }()
			select {
			case err := <-done:
				if !errors.Is(err, ErrLimit) && !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("%q %s: %v, want the limit's error or the deadline's", chain, name, err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%q %s: the round goes on 10 s after its 20 ms deadline", chain, name)
			}
			cancel()
		}
	}
}
