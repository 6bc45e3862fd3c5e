package runtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/longtest"
)

// Counting in machine words gives the outcomes big integers give, in the
// same order, with the same probabilities.
func TestRollOutcomesSmallAgreesWithBig(t *testing.T) {
	for _, req := range []RollRequest{
		{Subjects: []string{"A", "B", "C"}, Count: 2, Faces: 6, Modifiers: []int{1, 0, -2}},
		{Subjects: []string{"A", "B", "C", "D", "E"}, Count: 1, Faces: 6},
		{Subjects: []string{"A", "B"}, Count: 3, Faces: 4},
		{Subjects: []string{"A", "B", "C", "D"}, Count: 1, Faces: 20, Modifiers: []int{0, 3}},
		{Subjects: []string{"A", "B"}, Count: 1, Faces: 1},
	} {
		ways := sumDist(req.Count, req.Faces)
		small, ok, err := rollOutcomesSmall(context.Background(), req, ways, 0, nil)
		if !ok || err != nil {
			t.Fatalf("%+v: not counted in machine words", req)
		}
		big, err := rollOutcomesBig(context.Background(), req, ways, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(small) != len(big) {
			t.Fatalf("%+v: %d outcomes, want %d", req, len(small), len(big))
		}
		for i := range small {
			if !slices.Equal(small[i].rolls, big[i].rolls) || small[i].p.Cmp(big[i].p) != 0 {
				t.Errorf("%+v: outcome %d is %v with %v, want %v with %v", req, i, small[i].rolls, small[i].p, big[i].rolls, big[i].p)
			}
		}
	}
	// Too many for a machine word: the big integers count.
	if _, ok, _ := rollOutcomesSmall(context.Background(), RollRequest{Subjects: []string{"A", "B"}, Count: 20, Faces: 20}, sumDist(20, 20), 0, nil); ok {
		t.Error("20d20 for two subjects counted in machine words")
	}
}

// A roll with more outcomes than the paths left is over the bound: each
// outcome takes a path at least. The forks say so at once, without
// working out a million outcomes (nine players on a D5 have 1,039,261),
// and the replay that looks for an earlier error works out only the
// first ones, which are all it meets. The error is the bound's, as before.
func TestOddsRollOverThePathsLeft(t *testing.T) {
	f, diags := dsl.Parse("r.rules", []byte("ruleset r {\n  phase p {\n    order sides as o {\n      highest roll d5\n      tie: random\n    }\n  }\n}\n"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, err := Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	sides := Sides("A", "B", "C", "D", "E", "F", "G", "H", "I")
	b, err := p.NewBattle(sides, WithTranscript(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rolls := newRollCache()
	_, runs, err := enumerateRoundWith(ctx, b, 1000, map[string]*forkMemo{}, rolls, roundMode{})
	want := "round 1 has more than 1000 paths to enumerate exactly: limit reached"
	if diff := cmp.Diff(want, fmt.Sprint(err)); diff != "" {
		t.Errorf("forks' error (-want +got):\n%s", diff)
	}
	if runs != 2 {
		t.Errorf("the forks ran %d paths, want 2 (the round and the order in it): the roll's outcomes alone are over the bound", runs)
	}
	_, _, err = enumerateRoundWith(ctx, b, 1000, nil, rolls, roundMode{errOnly: true})
	if diff := cmp.Diff(want, fmt.Sprint(err)); diff != "" {
		t.Errorf("replay's error (-want +got):\n%s", diff)
	}
	for k, outs := range rolls.outs {
		if len(outs) > 1001 {
			t.Errorf("%d outcomes of %q kept, for 1000 paths", len(outs), k)
		}
	}
	_, err = p.Odds(ctx, sides, OddsOptions{Rounds: 1, MaxPaths: 1000})
	if diff := cmp.Diff(want, fmt.Sprint(err)); diff != "" {
		t.Errorf("Odds' error (-want +got):\n%s", diff)
	}
}

// The draw of activation draw branches once per side, with the chance of
// its dice, where a random criterion branches once per option.
func TestEnumDiceDrawBranchesPerSide(t *testing.T) {
	type branch struct {
		Pick int
		P    string
	}
	for _, tt := range []struct {
		req  PickRequest
		want []branch
	}{
		{PickRequest{Options: []string{"A", "A", "A", "B", "B"}, Draw: true}, []branch{{0, "3/5"}, {3, "2/5"}}},
		{PickRequest{Options: []string{"B", "A", "B", "C"}, Draw: true}, []branch{{0, "1/2"}, {1, "1/4"}, {3, "1/4"}}},
		{PickRequest{Options: []string{"A", "B", "C"}}, []branch{{0, "1/3"}, {1, "1/3"}, {2, "1/3"}}},
	} {
		d := &enumDice{frames: []*frame{{}}}
		_, err := d.Pick(context.Background(), tt.req)
		br, ok := err.(errBranch)
		if !ok {
			t.Fatalf("Pick(%v): %v, want a branch point", tt.req.Options, err)
		}
		var got []branch
		for _, o := range br.outcomes {
			got = append(got, branch{o.pick, o.p.RatString()})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Pick(%v, draw %v) = %v, want %v", tt.req.Options, tt.req.Draw, got, tt.want)
		}
	}
}

// The roll cache's key, built without fmt, is what fmt.Sprint writes of
// the roll's shape: rolls of one shape share their outcomes, and rolls of
// two shapes never do.
func TestAppendRollKey(t *testing.T) {
	for _, req := range []RollRequest{
		{Subjects: []string{"A", "B"}, Count: 1, Faces: 6},
		{Subjects: []string{"A", "B", "C"}, Count: 2, Faces: 6, Modifiers: []int{1, 0, -2}},
		{Subjects: []string{"A"}, Count: 12, Faces: 100, Modifiers: []int{}},
		{Subjects: make([]string, 11), Count: 1, Faces: 1, Modifiers: []int{-10, 10}},
	} {
		want := fmt.Sprint(len(req.Subjects), req.Count, req.Faces, req.Modifiers)
		if diff := cmp.Diff(want, string(appendRollKey([]byte("stale"), req)[len("stale"):])); diff != "" {
			t.Errorf("key of %+v (-fmt +appendRollKey):\n%s", req, diff)
		}
	}
}

// A forked part's run that fills a scratch array leaves the larger one
// for the next run, at the length the part was saved with: what was taken
// before the save is untouched, and the next run takes without allocating.
func TestScratchRewound(t *testing.T) {
	var s scratch
	s.begin()
	before := take(&s.names, 3)
	copy(before, []string{"A", "B", "C"})
	saved := s
	for range 3 {
		got := take(&s.names, 40) // over the capacity: a new array
		copy(got, slices.Repeat([]string{"x"}, 40))
		s = saved.rewound(s)
		if len(s.names) != 3 || cap(s.names) <= cap(saved.names) {
			t.Fatalf("rewound to length %d of capacity %d, want 3 of more than %d", len(s.names), cap(s.names), cap(saved.names))
		}
	}
	grown := cap(s.names)
	if n := testing.AllocsPerRun(10, func() { take(&s.names, 40); s = saved.rewound(s) }); n != 0 || cap(s.names) != grown {
		t.Errorf("a run after the first allocates %v times (capacity %d, was %d)", n, cap(s.names), grown)
	}
	if diff := cmp.Diff([]string{"A", "B", "C"}, before); diff != "" {
		t.Errorf("taken before the save (-want +got):\n%s", diff)
	}
	// A run that stayed within the array gives it back as it was.
	small := saved
	small.names = small.names[:len(small.names):cap(small.names)]
	if got := saved.rewound(small); len(got.names) != 3 || &got.names[:1][0] != &before[0] {
		t.Error("a run within the array moved the scratch")
	}
}

// Seven players rolling off in Necromunda, with MaxPaths 60,000: the
// first roll has 42,253 outcomes, and when all seven tie their reroll has
// as many again, each a path at least. The forks are given up there, a few
// paths in, rather than 60,000 paths later, and leave the shared orders as
// they found them. (Eight players' first roll has 364,395 outcomes, the
// reroll of seven tied 42,253: their forks are given up after 237,863 of
// the million paths they took.)
func TestOddsForksDoomedAtOnce(t *testing.T) {
	t.Parallel()
	p, err := Compile(parseBundled(t, "necromunda"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.NewBattle(Sides("A", "B", "C", "D", "E", "F", "G"), WithTranscript(false), WithDecider(Policy{}))
	if err != nil {
		t.Fatal(err)
	}
	orders := map[string]*forkMemo{}
	_, runs, err := enumerateRoundWith(context.Background(), b, 60_000, orders, newRollCache(), roundMode{doom: true})
	if !errors.Is(err, errDoomed) {
		t.Fatalf("forks: %v, want them given up as doomed", err)
	}
	if runs > 10 {
		t.Errorf("the forks were given up after %d paths, want a few", runs)
	}
	if len(orders) != 0 {
		t.Errorf("the doomed forks left %d shared orders", len(orders))
	}
	// An order worked out before the forks were given up is taken out of
	// the shared orders again: forks played on after all (see
	// enumerateRound) work it out again, as they always did.
	two, diags := dsl.Parse("r.rules", []byte("ruleset r {\n  phase p {\n    order sides as o1 {\n      highest roll d2\n      tie: award tied[0].name\n    }\n    order sides as o2 {\n      highest roll d6\n      tie: reroll\n    }\n  }\n}\n"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p2, err := Compile(two)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := p2.NewBattle(Sides("A", "B", "C", "D", "E", "F", "G"), WithTranscript(false), WithDecider(Policy{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := enumerateRoundWith(context.Background(), b2, 60_000, orders, newRollCache(), roundMode{doom: true}); !errors.Is(err, errDoomed) {
		t.Fatalf("forks of o2: %v, want them given up as doomed", err)
	}
	if len(orders) != 0 {
		t.Errorf("the doomed forks left %d shared orders (o1's)", len(orders))
	}
	// Played on, they go over the bound, tens of thousands of paths later.
	if !longtest.Enabled() {
		return
	}
	_, runs, err = enumerateRoundWith(context.Background(), b, 60_000, orders, newRollCache(), roundMode{})
	if diff := cmp.Diff("round 1 has more than 60000 paths to enumerate exactly: limit reached", fmt.Sprint(err)); diff != "" {
		t.Errorf("forks played on (-want +got):\n%s", diff)
	}
	if runs < 59_000 {
		t.Errorf("the forks played on took %d paths, want nearly the bound's", runs)
	}
}

// A roll whose subjects have the same modifier has as many outcomes as
// there are ways to rank them in at most as many groups as the dice have
// totals: what counting them finds, without the count.
func TestRankingsAsCounted(t *testing.T) {
	t.Parallel()
	reqs := []RollRequest{
		{Subjects: make([]string, 5), Count: 2, Faces: 3},
		{Subjects: make([]string, 4), Count: 1, Faces: 20, Modifiers: []int{2, 2, 2, 2}},
		{Subjects: make([]string, 6), Count: 3, Faces: 2},
		{Subjects: make([]string, 7), Count: 1, Faces: 1},
		{Subjects: make([]string, 3), Count: 0, Faces: 6},
		{Subjects: make([]string, 1), Count: 1, Faces: 6},
		{Subjects: nil, Count: 1, Faces: 6},
	}
	if longtest.Enabled() {
		// Millions of outcomes each, seconds of counting.
		reqs = append(reqs,
			RollRequest{Subjects: make([]string, 8), Count: 1, Faces: 6},
			RollRequest{Subjects: make([]string, 9), Count: 1, Faces: 5})
	}
	for _, req := range reqs {
		var counted int
		if _, err := rollOutcomes(context.Background(), req, 0, &counted); err != nil {
			t.Fatal(err)
		}
		n, ok := rankings(req)
		if !ok || n != counted {
			t.Errorf("%d subjects, %dd%d %v: %d rankings (%v), counted %d", len(req.Subjects), req.Count, req.Faces, req.Modifiers, n, ok, counted)
		}
	}
	// Different modifiers make rankings of their own: they are counted.
	for _, mods := range [][]int{{1}, {0, 1}, {2, 2, 1}} {
		if _, ok := rankings(RollRequest{Subjects: make([]string, 3), Count: 1, Faces: 6, Modifiers: mods}); ok {
			t.Errorf("modifiers %v: worked out, want counted", mods)
		}
	}
}

// parseBundled parses a bundled ruleset from its file: the tests inside
// package runtime cannot import package rulesets, which imports runtime.
func parseBundled(t testing.TB, name string) *dsl.File {
	t.Helper()
	filename := filepath.Join("..", "rulesets", name+".rules")
	src, err := os.ReadFile(filename)
	if err != nil {
		t.Fatal(err)
	}
	f, diags := dsl.Parse(filename, src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return f
}
