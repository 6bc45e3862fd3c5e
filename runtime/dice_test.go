package runtime_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// The zero values of the dice and the scripted decider are usable, as the
// exported Fallback fields invite struct literals.
func TestZeroDiceAndDecider(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	script := &runtime.ScriptedDice{}
	script.AddRoll("Jay", 5)
	script.AddRoll("Rob", 2)
	decider := &runtime.ScriptedDecider{Fallback: runtime.Policy{}}
	decider.Add("Jay", "Rob")
	for _, dice := range []runtime.Dice{script, &runtime.SeededDice{}} {
		b, err := p.NewBattle(p.Example(), runtime.WithDice(dice), runtime.WithDecider(decider))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.PlayRound(ctx); err != nil {
			t.Fatalf("%T: %v", dice, err)
		}
	}
	// The zero SeededDice is seeded with 0.
	zero, seeded := &runtime.SeededDice{}, runtime.NewSeededDice(0)
	a, b := make([]int, 20), make([]int, 20)
	zero.RollInto(a, 1, 6)
	seeded.RollInto(b, 1, 6)
	if diff := cmp.Diff(b, a); diff != "" {
		t.Errorf("zero SeededDice against seed 0 (-want +got):\n%s", diff)
	}
}

// A roll that the script answers for some subjects only asks Fallback for
// the others.
func TestScriptedDiceFallbackFillsIn(t *testing.T) {
	dice := runtime.NewScriptedDice()
	var asked []string
	dice.Fallback = runtime.FuncDice{Die: func(ctx context.Context, req runtime.RollRequest, subject string) (int, error) {
		asked = append(asked, subject)
		return 3, nil
	}}
	dice.AddRoll("B", 6)
	got, err := dice.Roll(context.Background(), runtime.RollRequest{Subjects: []string{"A", "B", "C"}, Count: 1, Faces: 6})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{3, 6, 3}, got); diff != "" {
		t.Errorf("rolls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"A", "C"}, asked); diff != "" {
		t.Errorf("asked the fallback for (-want +got):\n%s", diff)
	}
}

// SeededDice asked for a roll no dice can make, or a pick among nothing,
// says so instead of panicking (in math/rand) or answering zero, for a
// host that calls it directly or wraps it.
func TestSeededDiceRefusesImpossibleRequests(t *testing.T) {
	ctx := context.Background()
	subjects := []string{"Jay"}
	tests := []struct {
		name string
		req  runtime.RollRequest
	}{
		{"no faces", runtime.RollRequest{Subjects: subjects, Count: 1}},
		{"no dice", runtime.RollRequest{Subjects: subjects, Faces: 6}},
		{"negative faces", runtime.RollRequest{Subjects: subjects, Count: 1, Faces: -6}},
		{"negative count", runtime.RollRequest{Subjects: subjects, Count: -1, Faces: 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := runtime.NewSeededDice(1)
			got, err := func() (got []int, err error) {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("Roll panicked: %v", r)
					}
				}()
				return d.Roll(ctx, tt.req)
			}()
			if err == nil {
				t.Errorf("Roll(%+v) = %v, nil; want an error", tt.req, got)
			}
		})
	}
	t.Run("pick among nothing", func(t *testing.T) {
		d := runtime.NewSeededDice(1)
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Pick panicked: %v", r)
			}
		}()
		if i, err := d.Pick(ctx, runtime.PickRequest{}); err == nil {
			t.Errorf("Pick among no options = %d, nil; want an error", i)
		}
	})
	// A possible request still rolls, and the same as RollInto.
	d, e := runtime.NewSeededDice(3), runtime.NewSeededDice(3)
	got, err := d.Roll(ctx, runtime.RollRequest{Subjects: []string{"A", "B"}, Count: 2, Faces: 6})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int, 2)
	e.RollInto(want, 2, 6)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Roll (-RollInto +Roll):\n%s", diff)
	}
}

// A draw's bag counts each side's dice, in the order of its first die.
func TestPickRequestBag(t *testing.T) {
	for _, tt := range []struct {
		options []string
		sides   []string
		dice    []int
	}{
		{[]string{"Jay", "Jay", "Jay", "Rob", "Rob"}, []string{"Jay", "Rob"}, []int{3, 2}},
		{[]string{"B", "A", "B", "C"}, []string{"B", "A", "C"}, []int{2, 1, 1}},
		{nil, nil, nil},
	} {
		sides, dice := runtime.PickRequest{Options: tt.options, Draw: true}.Bag()
		if diff := cmp.Diff([]any{tt.sides, tt.dice}, []any{sides, dice}); diff != "" {
			t.Errorf("Bag(%v) (-want +got):\n%s", tt.options, diff)
		}
	}
}
