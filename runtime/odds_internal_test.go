package runtime

import (
	"context"
	"slices"
	"testing"
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
		small, ok, err := rollOutcomesSmall(context.Background(), req, ways)
		if !ok || err != nil {
			t.Fatalf("%+v: not counted in machine words", req)
		}
		big, err := rollOutcomesBig(context.Background(), req, ways)
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
	if _, ok, _ := rollOutcomesSmall(context.Background(), RollRequest{Subjects: []string{"A", "B"}, Count: 20, Faces: 20}, sumDist(20, 20)); ok {
		t.Error("20d20 for two subjects counted in machine words")
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
