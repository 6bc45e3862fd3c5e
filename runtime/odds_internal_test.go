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
