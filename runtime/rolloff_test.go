package runtime

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/longtest"
)

// rolloffCases are rulesets whose round is a two-sided roll-off, played
// both straight through and by the general engine. Between them they
// take every branch of playRolloff: rolls high and low, of one die and
// several; rerolls counted and not, up to the limit; awards of either
// side, and ones that name nobody or somebody untied; ties no rule
// breaks; every kind of choice, by the winner and the loser, with each
// policy; and no choice at all.
var rolloffCases = []struct {
	name, chain string
	limits      Limits
	handsOver   bool // every round after the first is handed over
}{
	{name: "mesbg"},
	{name: "reroll only", chain: "highest roll d6\n tie: reroll"},
	{name: "lowest 2d6, award holder, loser's other", chain: "lowest roll 2d6\n tie when round == 1: reroll\n tie: award previous.holder\n choice first by loser default other"},
	{name: "d3, award not holder, before or after", chain: "highest roll d3\n tie when round <= 2: reroll\n tie: award not previous.holder\n choice before_after by winner default after"},
	{name: "loser before", chain: "highest roll d4\n tie: reroll\n choice before_after by loser default before"},
	{name: "winner arranges in reverse", chain: "highest roll d6\n tie: reroll\n choice order by winner default reverse"},
	{name: "winner arranges as is", chain: "highest roll d6\n tie: reroll\n choice order by winner default keep"},
	{name: "winner's other", chain: "highest roll d6\n tie: reroll\n choice first by winner default other"},
	{name: "tie left in rounds 5 to 8", chain: "highest roll d6\n tie when round > 1 and round < 5 or round > 8: award not previous.holder"},
	{name: "tie left before a choice", chain: "highest roll d6\n tie when round > 2: award previous.chooser\n choice first by winner default self"},
	{name: "award of nobody in round 1", chain: "highest roll d3\n tie: award previous.holder"},
	{name: "no reroll allowed", chain: "highest roll d2\n tie: reroll", limits: Limits{MaxRerolls: -1}},
	{name: "d1 rerolls to the limit", chain: "highest roll d1\n tie when round > 1: reroll", limits: Limits{MaxRerolls: 3}, handsOver: true},
}

func rolloffProgram(t *testing.T, name, chain string, limits Limits) *Program {
	t.Helper()
	if chain == "" {
		return compileRolloff(t, name, "", limits)
	}
	return compileRolloff(t, "", "ruleset r {\n sides 2\n phase p each round {\n hook start\n step s {\n order sides as priority {\n "+chain+"\n }\n }\n hook end\n }\n}\n", limits)
}

// newPair starts a battle of each program with the same sides and seed,
// without a transcript.
func newPair(t *testing.T, fastProg, slowProg *Program, sides []SideSpec, seed uint64) (fast, slow *Battle) {
	t.Helper()
	fast, err := fastProg.NewBattle(sides, WithDice(NewSeededDice(seed)), WithTranscript(false))
	if err != nil {
		t.Fatal(err)
	}
	slow, err = slowProg.NewBattle(sides, WithDice(NewSeededDice(seed)), WithTranscript(false))
	if err != nil {
		t.Fatal(err)
	}
	return fast, slow
}

// compileRolloff compiles the bundled ruleset name, or else src.
func compileRolloff(t *testing.T, name, src string, limits Limits) *Program {
	t.Helper()
	var f *dsl.File
	if src == "" {
		f = parseBundled(t, name)
	} else {
		var diags dsl.Diagnostics
		if f, diags = dsl.Parse("r.rules", []byte(src)); diags.HasErrors() {
			t.Fatal(diags)
		}
	}
	p, err := Compile(f, WithLimits(limits))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRolloffPlaysAsTheEngine plays every case for many seeds, one battle
// straight through and one by the general engine, and wants the same
// battle after every round: snapshot, standing with its placements,
// memory, the checkpoint AbortRound would use, and errors.
func TestRolloffPlaysAsTheEngine(t *testing.T) {
	t.Parallel()
	seeds, rounds := 30, 12
	if longtest.Enabled() {
		seeds = 300
	}
	ctx := context.Background()
	for _, tc := range rolloffCases {
		t.Run(tc.name, func(t *testing.T) {
			fastProg := rolloffProgram(t, tc.name, tc.chain, tc.limits)
			if fastProg.rolloff == nil {
				t.Fatal("the round is not planned as a roll-off")
			}
			slowProg := rolloffProgram(t, tc.name, tc.chain, tc.limits)
			slowProg.rolloff = nil
			straight, failed := 0, 0
			for seed := range uint64(seeds) {
				sides := Sides("Jay", "Rob")
				if seed%3 == 1 {
					sides = Sides("Rob", "Jay")
				}
				fast, slow := newPair(t, fastProg, slowProg, sides, seed)
				handed := false
				for round := 1; round <= rounds; round++ {
					ready := fast.rolloffReady(ctx)
					if ready != (round > 1) {
						t.Fatalf("seed %d round %d: rolloffReady = %v", seed, round, ready)
					}
					var fastErr error
					switch {
					case ready && fast.playRolloff():
						straight++
					case ready:
						// Handed over: the round was opened and undone
						// first, which counts as changes.
						handed = true
						fallthrough
					default:
						fastErr = fast.AdvanceRound(ctx)
					}
					slowErr := slow.AdvanceRound(ctx)
					if fmt.Sprint(fastErr) != fmt.Sprint(slowErr) {
						t.Fatalf("seed %d round %d: straight through: %v; engine: %v", seed, round, fastErr, slowErr)
					}
					if slowErr == nil {
						sameBattle(t, fmt.Sprintf("seed %d round %d", seed, round), fast, slow, handed)
					} else {
						failed++
						if err := fast.AbortRound(); err != nil {
							t.Fatal(err)
						}
						if err := slow.AbortRound(); err != nil {
							t.Fatal(err)
						}
						sameBattle(t, fmt.Sprintf("seed %d round %d, aborted", seed, round), fast, slow, handed)
						break
					}
				}
			}
			// Most rounds of most cases are played straight through; the
			// rest are handed over, and must have been compared above.
			t.Logf("%d rounds played straight through, %d battles failed", straight, failed)
			if straight == 0 != tc.handsOver {
				t.Errorf("%d rounds played straight through", straight)
			}
		})
	}
}

// sameBattle compares the battles, and their counts of changes unless a
// round was handed over.
func sameBattle(t *testing.T, what string, fast, slow *Battle, handed bool) {
	t.Helper()
	fs, err := fast.Snapshot()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	ss, err := slow.Snapshot()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if diff := cmp.Diff(string(ss), string(fs)); diff != "" {
		t.Fatalf("%s: snapshot (-engine +straight):\n%s", what, diff)
	}
	opts := cmp.AllowUnexported(Memory{})
	if diff := cmp.Diff(slow.standings, fast.standings); diff != "" {
		t.Fatalf("%s: standings (-engine +straight):\n%s", what, diff)
	}
	if diff := cmp.Diff(slow.memory, fast.memory, opts); diff != "" {
		t.Fatalf("%s: memory (-engine +straight):\n%s", what, diff)
	}
	// A round played straight through keeps no checkpoint: no host can
	// abort it. What the checkpoint is for is compared instead.
	if fast.InRound() || slow.InRound() || fast.AbortRound() == nil || slow.AbortRound() == nil {
		t.Fatalf("%s: a round is left under way", what)
	}
	if diff := cmp.Diff(slow.cur, fast.cur, cmp.AllowUnexported(roundState{})); diff != "" {
		t.Fatalf("%s: round (-engine +straight):\n%s", what, diff)
	}
	if slow.round != fast.round || slow.version != fast.version && !handed {
		t.Fatalf("%s: round %d, version %d straight through; round %d, version %d by the engine", what, fast.round, fast.version, slow.round, slow.version)
	}
}

// TestRolloffPlans says which rounds are planned as roll-offs: a ruleset
// that leaves the shape plays by the general engine.
func TestRolloffPlans(t *testing.T) {
	for _, tc := range []struct {
		chain string
		want  bool
	}{
		{"highest roll d6\n tie: reroll", true},
		{"highest roll d6 + 1\n tie: reroll", false},
		{"highest 1\n highest roll d6", false},
		{"highest roll d6\n tie: random", false},
		{"highest roll d6\n tie { highest roll d6\n tie: reroll }", false},
		{"highest roll d6\n tie: reroll\n choice order by team default keep", false},
		{"highest roll d6\n tie when len(tied) > f(): reroll", false},
	} {
		src := "ruleset r {\n sides 2\n phase p each round {\n order sides as priority {\n " + tc.chain + "\n }\n }\n}\n"
		f, diags := dsl.Parse("r.rules", []byte(src))
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		p, err := Compile(f, WithFunction("f", func(...any) (any, error) { return 1, nil }, new(func() int)))
		if err != nil {
			t.Fatalf("%q: %v", tc.chain, err)
		}
		if got := p.rolloff != nil; got != tc.want {
			t.Errorf("%q: planned as a roll-off: %v, want %v", tc.chain, got, tc.want)
		}
	}
	for _, src := range []string{
		"ruleset r {\n sides 2\n phase p once {\n order sides as o { highest roll d6\n tie: reroll }\n }\n}\n",
		"ruleset r {\n sides 2\n phase p each round {\n order sides as o { highest roll d6\n tie: reroll }\n }\n on end of round { holder = \"Jay\" }\n}\n",
		"ruleset r {\n sides 2\n remember x = 1\n phase p each round {\n order sides as o { highest roll d6\n tie: reroll }\n }\n}\n",
	} {
		f, diags := dsl.Parse("r.rules", []byte(src))
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		p, err := Compile(f)
		if err != nil {
			continue // the shape is not even a ruleset
		}
		if p.rolloff != nil {
			t.Errorf("%q is planned as a roll-off", src)
		}
	}
}

func TestPairKeyIsPermKey(t *testing.T) {
	for w := range 2 {
		if want, _ := permKey([]int{w, 1 - w}); pairKey(w) != want {
			t.Errorf("pairKey(%d) = %#x, want %#x", w, pairKey(w), want)
		}
	}
}
