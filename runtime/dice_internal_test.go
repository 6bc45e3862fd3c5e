package runtime

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestSeededDiceDrawAsRandIntN wants SeededDice to draw the stream that
// math/rand/v2's Rand.IntN drew from the same PCG on 64-bit platforms,
// which every battle saved and every seeded transcript was made with.
func TestSeededDiceDrawAsRandIntN(t *testing.T) {
	if strconv.IntSize != 64 {
		t.Skip("Rand.IntN draws differently on 32-bit platforms; SeededDice does not")
	}
	// int64, converted below: as int constants, the large ones would not
	// compile on the 32-bit platforms the test is skipped on.
	for _, n64 := range []int64{1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 20, 100, 1000, 1<<40 + 3, 1 << 62, 3 << 61} {
		n := int(n64)
		d := NewSeededDice(uint64(n))
		pcg := *d.pcg
		r := rand.New(&pcg)
		for i := range 2000 {
			if got, want := d.intN(n), r.IntN(n); got != want {
				t.Fatalf("draw %d of IntN(%d): %d, want %d", i, n, got, want)
			}
		}
	}
}

func TestSeededDiceIntNPanicsAsRandIntN(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("intN(0) did not panic")
		}
	}()
	NewSeededDice(1).intN(0)
}
