package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// A unit that joins an until-changed order of units is placed in it at
// once, survives a save, and Undo takes it back out.
func TestAddUnit(t *testing.T) {
	p := mustProgram(t, "agi")
	ctx := context.Background()
	sides := []runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Blue", 3)}
	b, err := p.NewBattle(sides, runtime.WithUndo())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.AddUnit(ctx, "B", runtime.UnitSpec{Name: "Zed", Attrs: map[string]any{"agi": 9}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"Zed", "A-unit", "B-unit"}
	if diff := cmp.Diff(want, b.Order()); diff != "" {
		t.Errorf("order with Zed (-want +got):\n%s", diff)
	}
	if u := b.Unit("Zed"); u == nil || u.Side.Name != "B" {
		t.Errorf("Zed is %+v, want a unit of B", u)
	}
	restored, err := p.Restore([]byte(snapshot(t, b)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(snapshot(t, b), snapshot(t, restored)); diff != "" {
		t.Errorf("save of the restored battle (-orig +restored):\n%s", diff)
	}
	evs := b.PendingEvents()
	if len(evs) == 0 || evs[0].Kind != runtime.EvAdded || evs[0].Subject != "Zed" || evs[0].By != "B" {
		t.Errorf("events between rounds: %v, want Zed's added event first", evs)
	}
	if err := b.Undo(); err != nil {
		t.Fatal(err)
	}
	if b.Unit("Zed") != nil {
		t.Error("Zed is still in the battle after Undo")
	}
	if diff := cmp.Diff([]string{"A-unit", "B-unit"}, b.Order()); diff != "" {
		t.Errorf("order after Undo (-want +got):\n%s", diff)
	}
}

// AddUnit checks a unit as a setup's: a new name, declared attributes of
// their types, declared statuses, a side that exists.
func TestAddUnitRefuses(t *testing.T) {
	p := mustProgram(t, "agi")
	ctx := context.Background()
	b, err := p.NewBattle([]runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Blue", 3)})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.RemoveUnit(ctx, "B-unit"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		side string
		spec runtime.UnitSpec
		want string
	}{
		{"C", runtime.UnitSpec{Name: "Zed"}, "add Zed to C: no side is called C (sides: A, B)"},
		{"A-unit", runtime.UnitSpec{Name: "Zed"}, "add Zed to A-unit: A-unit is a unit; a unit joins a side (sides: A, B)"},
		{"A", runtime.UnitSpec{Name: "A-unit"}, `add A-unit to A: the name "A-unit" is used twice (sides and units need names of their own)`},
		{"A", runtime.UnitSpec{Name: "B-unit"}, "add B-unit to A: B-unit (of B) was removed from the battle, and a unit that joins needs a name of its own"},
		{"A", runtime.UnitSpec{Name: "none"}, "add none to A: none cannot name a unit: it means nobody, as in `expect chooser none`"},
		{"A", runtime.UnitSpec{Name: "Zed", Attrs: map[string]any{"agility": 3}}, "add Zed to A: unit Zed: unknown attribute agility (declared: agi)"},
		{"A", runtime.UnitSpec{Name: "Zed", Attrs: map[string]any{"agi": "fast"}}, "add Zed to A: unit Zed: attribute agi: want a whole number, got fast"},
		{"A", runtime.UnitSpec{Name: "Zed", Statuses: []string{"pinned"}}, "add Zed to A: unit Zed: unknown status pinned (declared: none)"},
	}
	for _, tt := range tests {
		err := b.AddUnit(ctx, tt.side, tt.spec)
		if diff := cmp.Diff(tt.want, errString(err)); diff != "" {
			t.Errorf("AddUnit(%s, %s) (-want +got):\n%s", tt.side, tt.spec.Name, diff)
		}
		if !errors.Is(err, runtime.ErrInvalidChange) {
			t.Errorf("AddUnit(%s, %s): %v is not ErrInvalidChange", tt.side, tt.spec.Name, err)
		}
		if check := b.CheckAddUnit(tt.side, tt.spec); errString(check) != errString(err) {
			t.Errorf("CheckAddUnit(%s, %s) = %v, AddUnit said %v", tt.side, tt.spec.Name, check, err)
		}
	}
}

// A unit that joins a tie of an until-changed order stops AddUnit at the
// roll the tie needs: the battle saved there is restored waiting for the
// same roll, and answered alike, both end in the same order.
func TestAddUnitWaitsForItsTie(t *testing.T) {
	p := mustProgram(t, "agi")
	ctx := context.Background()
	b, err := p.NewBattle([]runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Blue", 3)}, runtime.WithDice(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	zed := runtime.UnitSpec{Name: "Zed", Attrs: map[string]any{"agi": 5}}
	if err := b.AddUnit(ctx, "B", zed); !errors.Is(err, runtime.ErrPending) {
		t.Fatalf("AddUnit: %v, want it to wait for the tie's roll", err)
	}
	restored, err := p.Restore([]byte(snapshot(t, b)), runtime.WithDice(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(b.Pending(), restored.Pending()); diff != "" {
		t.Errorf("restored, it waits for (-saved +restored):\n%s", diff)
	}
	for _, battle := range []*runtime.Battle{b, restored} {
		if err := battle.Answer(ctx, runtime.RollAnswer(6, 2)); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"A-unit", "Zed", "B-unit"}, battle.Order()); diff != "" {
			t.Errorf("order once the tie is rolled (-want +got):\n%s", diff)
		}
	}
	// The same call again, while it waits, is the call it waits for;
	// another unit is another call, refused while it waits.
	c, err := p.NewBattle([]runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Blue", 3)}, runtime.WithDice(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	_ = c.AddUnit(ctx, "B", zed)
	if err := c.AddUnit(ctx, "B", runtime.UnitSpec{Name: "Yan", Attrs: map[string]any{"agi": 1}}); !errors.Is(err, runtime.ErrPending) {
		t.Errorf("another AddUnit while one waits: %v, want ErrPending", err)
	}
	if err := c.AddUnit(ctx, "B", zed); !errors.Is(err, runtime.ErrPending) {
		t.Errorf("the same AddUnit again: %v, want it to wait again", err)
	}
}

// A save stopped in an AddUnit holds the unit in its op, which Restore
// checks as AddUnit does: a save edited by hand is refused, not played.
func TestRestoreChecksAddUnit(t *testing.T) {
	p := mustProgram(t, "agi")
	ctx := context.Background()
	b, err := p.NewBattle([]runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Blue", 3)}, runtime.WithDice(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.AddUnit(ctx, "B", runtime.UnitSpec{Name: "Zed", Attrs: map[string]any{"agi": 5}}); !errors.Is(err, runtime.ErrPending) {
		t.Fatalf("AddUnit: %v, want it to wait", err)
	}
	saved := snapshot(t, b)
	for _, tt := range []struct {
		name string
		edit func(o map[string]any)
		want string
	}{
		{"a value of another type", func(o map[string]any) { o["value"].(map[string]any)["attrs"] = map[string]any{"agi": "fast"} },
			"add Zed to B: unit Zed: attribute agi: want a whole number"},
		{"an attribute undeclared", func(o map[string]any) { o["value"].(map[string]any)["attrs"] = map[string]any{"speed": 5} },
			"unknown attribute speed"},
		{"a status that is no name", func(o map[string]any) { o["value"].(map[string]any)["statuses"] = []any{5} },
			"a status is not a name"},
		{"no unit", func(o map[string]any) { o["value"] = 7 }, "not the unit's attrs and statuses"},
		{"a side that is none", func(o map[string]any) { o["key"] = "C" }, "no side is called C"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var s map[string]any
			if err := json.Unmarshal([]byte(saved), &s); err != nil {
				t.Fatal(err)
			}
			tt.edit(s["op"].(map[string]any))
			data, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Restore(data)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Restore: %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// A Go hook may add a unit: the change is part of the op, made once, and
// the tie it makes is rolled for then and there.
func TestHookAddsUnit(t *testing.T) {
	p := mustProgram(t, "agi")
	ctx := context.Background()
	hook := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
		if b.Round() == 2 && at == (runtime.HookPoint{Edge: "start", Kind: "phase", Name: "turn_order"}) {
			return b.AddUnit(ctx, "B", runtime.UnitSpec{Name: "Zed", Attrs: map[string]any{"agi": 5}})
		}
		return nil
	}
	dice := runtime.NewScriptedDice()
	dice.AddRoll("A-unit", 2)
	dice.AddRoll("Zed", 6)
	b, err := p.NewBattle([]runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Blue", 3)},
		runtime.WithDice(dice), runtime.WithHook(hook), runtime.WithUndo())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Zed", "A-unit", "B-unit"}, res.Order); diff != "" {
		t.Errorf("round 2's order (-want +got):\n%s", diff)
	}
	var added []string
	for _, ev := range res.Events {
		if ev.Kind == runtime.EvAdded {
			added = append(added, ev.Subject+" by "+ev.By)
		}
	}
	if diff := cmp.Diff([]string{"Zed by B"}, added); diff != "" {
		t.Errorf("round 2's added events (-want +got):\n%s", diff)
	}
	restored, err := p.Restore([]byte(snapshot(t, b)), runtime.WithDice(runtime.NewScriptedDice()))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(snapshot(t, b), snapshot(t, restored)); diff != "" {
		t.Errorf("save of the restored battle (-orig +restored):\n%s", diff)
	}
	// Undo takes back the round, and the unit its hook added with it.
	if err := b.Undo(); err != nil {
		t.Fatal(err)
	}
	if b.Unit("Zed") != nil {
		t.Error("Zed is still in the battle after round 2 is undone")
	}
}
