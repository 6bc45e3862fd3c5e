package runtime_test

// A placement by a value or a roll carries the number it was placed by
// (Place.Value, and the placement event's Key), so that "6 against 8"
// can be checked from the transcript.

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// placeValues lists a standing's places as "subject criterion = value",
// or without "= value" when the place carries none.
func placeValues(st *runtime.Standing) []string {
	var out []string
	if st == nil {
		return nil
	}
	for _, p := range st.Places {
		s := p.Subject + " by " + p.Criterion
		if p.Value != nil {
			s += " = " + strings.TrimRight(strings.TrimRight(jsonOf(*p.Value), "0"), ".")
		}
		out = append(out, s)
	}
	return out
}

func jsonOf(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// placements returns the transcript lines of a round's placements.
func placements(evs []runtime.Event) []string {
	var out []string
	for _, e := range evs {
		if e.Kind == runtime.EvPlacement {
			out = append(out, e.String())
		}
	}
	return out
}

func TestPlacementByValueCarriesIt(t *testing.T) {
	p := mustProgram(t, "morturi")
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"priority #1: Malleus Deus, by lowest count(units) = 6",
		"priority #2: Ludi Aeternum, by lowest count(units) = 8",
	}
	if diff := cmp.Diff(want, placements(res.Events)); diff != "" {
		t.Errorf("transcript (-want +got):\n%s", diff)
	}
	wantPlaces := []string{"Malleus Deus by lowest count(units) = 6", "Ludi Aeternum by lowest count(units) = 8"}
	if diff := cmp.Diff(wantPlaces, placeValues(b.Standing("priority"))); diff != "" {
		t.Errorf("places (-want +got):\n%s", diff)
	}
	for _, e := range res.Events {
		if e.Kind == runtime.EvPlacement {
			if got := jsonOf(e); !strings.Contains(got, `"key":`) {
				t.Errorf("placement event %s has no key", got)
			}
		}
	}
}

// valueRules orders three sides by speed, then by a roll with a
// modifier, then by an award, a choice or random.
func valueRules(last string) string {
	return `ruleset v {
  sides 3..
  side attribute speed int
  side attribute bonus int
  phase p {
    order sides as priority {
      highest speed / 2
      tie {
        highest roll d6 + bonus
        tie: ` + last + `
      }
    }
  }
}`
}

func valueBattle(t *testing.T, src string, sides []runtime.SideSpec, rolls map[string]int, opts ...runtime.BattleOption) *runtime.Battle {
	t.Helper()
	p := compileInline(t, src)
	b, err := p.NewBattle(sides, append([]runtime.BattleOption{runtime.WithDice(valueDice(rolls))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// valueDice rolls what rolls says for each subject, and picks the last
// option.
func valueDice(rolls map[string]int) runtime.FuncDice {
	return runtime.FuncDice{
		Die: func(ctx context.Context, req runtime.RollRequest, who string) (int, error) {
			return rolls[who], nil
		},
		PickOne: func(ctx context.Context, req runtime.PickRequest) (int, error) { return len(req.Options) - 1, nil },
	}
}

func speedSides(speeds, bonuses []int) []runtime.SideSpec {
	var out []runtime.SideSpec
	for i, name := range []string{"Ann", "Bo", "Cy", "Di"}[:len(speeds)] {
		out = append(out, runtime.SideSpec{Name: name, Attrs: map[string]any{"speed": speeds[i], "bonus": bonuses[i]}})
	}
	return out
}

// A subject tied on one criterion and separated by a later one carries
// the later one's value (a roll's total, with its modifier); a value that
// is not whole is shown as it is; award and random carry none.
func TestPlacementValueIsTheDecidingOnes(t *testing.T) {
	for _, tt := range []struct {
		name          string
		last          string
		speeds, bonus []int
		rolls         map[string]int
		want          []string
	}{
		{"roll", "reroll", []int{9, 6, 6}, []int{0, 2, 0}, map[string]int{"Bo": 3, "Cy": 4},
			[]string{
				"priority #1: Ann, by highest speed / 2 = 4.5",
				"priority #2: Bo, by highest roll d6 + bonus = 5",
				"priority #3: Cy, by highest roll d6 + bonus = 4",
			}},
		{"award", "award \"Bo\"", []int{6, 6, 5}, []int{1, 0, 0}, map[string]int{"Ann": 3, "Bo": 4},
			[]string{
				"priority #1: Bo, by award \"Bo\"",
				"priority #2: Ann, by award \"Bo\"",
				"priority #3: Cy, by highest speed / 2 = 2.5",
			}},
		{"random", "random", []int{6, 6, 0}, []int{1, 0, 0}, map[string]int{"Ann": 3, "Bo": 4},
			[]string{
				"priority #1: Bo, by random",
				"priority #2: Ann, by random",
				"priority #3: Cy, by highest speed / 2 = 0",
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := valueBattle(t, valueRules(tt.last), speedSides(tt.speeds, tt.bonus), tt.rolls)
			res, err := b.PlayRound(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, placements(res.Events)); diff != "" {
				t.Errorf("transcript (-want +got):\n%s", diff)
			}
		})
	}
}

// A choice places by no value, and nor does a tie kept from an earlier
// round: its values were compared then.
func TestPlacementByChoiceOrKeptTieHasNoValue(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "agi")
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"turn_order #1: Aria, by A's choice (choice before_after by winner)",
		"turn_order #2: Bran, by A's choice (choice before_after by winner)",
		"turn_order #3: Cole, by highest agi = 3",
	}
	if diff := cmp.Diff(want, placements(res.Events)); diff != "" {
		t.Errorf("round 1 (-want +got):\n%s", diff)
	}
	if err := b.SetAttr(ctx, "Cole", "agi", 7); err != nil {
		t.Fatal(err)
	}
	if res, err = b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	want = []string{
		"turn_order #1: Cole, by highest agi = 7",
		"turn_order #2: Aria, by A's choice (choice before_after by winner)",
		"turn_order #3: Bran, by A's choice (choice before_after by winner)",
	}
	if diff := cmp.Diff(want, placements(res.Events)); diff != "" {
		t.Errorf("round 2 (-want +got):\n%s", diff)
	}
	wantPlaces := []string{"Cole by highest agi = 7", "Aria by choice before_after by winner", "Bran by choice before_after by winner"}
	if diff := cmp.Diff(wantPlaces, placeValues(b.Standing("turn_order"))); diff != "" {
		t.Errorf("places (-want +got):\n%s", diff)
	}
}

// A snapshot keeps each placement's value exactly, and one saved before
// placements had values restores with none.
func TestSnapshotKeepsPlacementValues(t *testing.T) {
	ctx := context.Background()
	src, rolls := valueRules("reroll"), map[string]int{"Bo": 3, "Cy": 4}
	b := valueBattle(t, src, speedSides([]int{9, 6, 6}, []int{0, 2, 0}), rolls)
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{"Ann by highest speed / 2 = 4.5", "Bo by highest roll d6 + bonus = 5", "Cy by highest roll d6 + bonus = 4"}
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"value": 4.5`) {
		t.Errorf("snapshot has no value 4.5: %s", data)
	}
	p := compileInline(t, src)
	r, err := p.Restore(data, runtime.WithDice(valueDice(rolls)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, placeValues(r.Standing("priority"))); diff != "" {
		t.Errorf("restored (-want +got):\n%s", diff)
	}
	again, err := r.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(data) {
		t.Errorf("snapshot of the restored battle differs (-before +after):\n%s", cmp.Diff(string(data), string(again)))
	}

	// Before placements had values.
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	n := stripValues(doc)
	if n != 3 {
		t.Fatalf("stripped %d values, want 3", n)
	}
	old, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	r, err = p.Restore(old, runtime.WithDice(valueDice(rolls)))
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"Ann by highest speed / 2", "Bo by highest roll d6 + bonus", "Cy by highest roll d6 + bonus"}
	if diff := cmp.Diff(want, placeValues(r.Standing("priority"))); diff != "" {
		t.Errorf("restored from an old snapshot (-want +got):\n%s", diff)
	}
	if _, err := r.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
}

// stripValues deletes "value" from every object of a decoded snapshot
// that has "criterion" (a place), and counts them.
func stripValues(v any) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["criterion"]; ok {
			if _, ok := x["value"]; ok {
				delete(x, "value")
				n++
			}
		}
		for _, y := range x {
			n += stripValues(y)
		}
	case []any:
		for _, y := range x {
			n += stripValues(y)
		}
	}
	return n
}

// A standing handed out is the caller's: the values of its places do not
// change as the battle plays on, and changing them changes nothing.
func TestStandingValuesAreACopy(t *testing.T) {
	ctx := context.Background()
	b := valueBattle(t, valueRules("reroll"), speedSides([]int{9, 6, 6}, []int{0, 2, 0}), map[string]int{"Bo": 3, "Cy": 4})
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	st := b.Standing("priority")
	want := placeValues(st)
	*b.Standing("priority").Places[0].Value = 100
	for _, speed := range []int{1, 2, 3} {
		if err := b.SetAttr(ctx, "Ann", "speed", speed); err != nil {
			t.Fatal(err)
		}
		if _, err := b.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(want, placeValues(st)); diff != "" {
		t.Errorf("a standing handed out changed (-want +got):\n%s", diff)
	}
	if got := *b.Standing("priority").Places[2].Value; got != 1.5 {
		t.Errorf("Ann's value is %v, want 1.5", got)
	}
}

// A value of -0 (0 divided by a negative number) is shown as 0.
func TestPlacementValueNegativeZero(t *testing.T) {
	src := strings.Replace(valueRules("reroll"), "highest speed / 2", "highest speed / -2", 1)
	b := valueBattle(t, src, speedSides([]int{0, 2, 4}, []int{0, 0, 0}), nil)
	res, err := b.PlayRound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"priority #1: Ann, by highest speed / -2 = 0", "priority #2: Bo, by highest speed / -2 = -1", "priority #3: Cy, by highest speed / -2 = -2"}
	if diff := cmp.Diff(want, placements(res.Events)); diff != "" {
		t.Errorf("transcript (-want +got):\n%s", diff)
	}
	if got := jsonOf(b.Standing("priority").Places[0]); !strings.Contains(got, `"value":0}`) {
		t.Errorf("place %s, want value 0", got)
	}
}

// The key of a placement event that Events or Result returns is the
// caller's: writing to it changes neither the transcript nor the
// standing.
func TestPlacementKeyIsACopy(t *testing.T) {
	p := mustProgram(t, "morturi")
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := placements(b.Events())
	wantPlaces := placeValues(b.Standing("priority"))
	for _, e := range b.Events() {
		if e.Key != nil {
			*e.Key = 42
		}
	}
	for _, e := range b.Result().Events {
		if e.Key != nil {
			*e.Key = 42
		}
	}
	if diff := cmp.Diff(want, placements(b.Events())); diff != "" {
		t.Errorf("transcript after writing to a key (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantPlaces, placeValues(b.Standing("priority"))); diff != "" {
		t.Errorf("places after writing to a key (-want +got):\n%s", diff)
	}
}

// A round taken back with Undo puts back the standing before it with its
// values, and the rounds after it fill the standings they reuse with their
// own.
func TestUndoneRoundKeepsPlacementValues(t *testing.T) {
	ctx := context.Background()
	b := valueBattle(t, valueRules("reroll"), speedSides([]int{9, 6, 6}, []int{0, 2, 0}), map[string]int{"Bo": 3, "Cy": 4}, runtime.WithUndo())
	for round, speed := range []int{9, 8, 7, 1} {
		if err := b.SetAttr(ctx, "Ann", "speed", speed); err != nil {
			t.Fatal(err)
		}
		want := placeValues(b.Standing("priority"))
		if err := b.StartRound(ctx); err != nil {
			t.Fatal(err)
		}
		if err := b.Undo(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, placeValues(b.Standing("priority"))); diff != "" {
			t.Errorf("round %d undone (-want +got):\n%s", round+1, diff)
		}
		if _, err := b.PlayRound(ctx); err != nil {
			t.Fatal(err)
		}
		got := placeValues(b.Standing("priority"))
		wantAnn := "Ann by highest speed / 2 = " + strings.TrimSuffix(jsonOf(float64(speed)/2), ".0")
		if !slices.Contains(got, wantAnn) {
			t.Errorf("round %d: places %v, want %q", round+1, got, wantAnn)
		}
	}
}
