package runtime_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// A server asks its players over the network: what the battle asks (a
// roll, a decision, whose turn it is) goes to them as JSON with the keys
// and the "file:line:col" pos of the events they already read, and
// reads back as it was.
func TestAsksAsJSON(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	var rolls []runtime.RollRequest
	var decisions []runtime.Decision
	dice := runtime.FuncDice{Die: func(ctx context.Context, req runtime.RollRequest, who string) (int, error) {
		if who == "Jay" {
			rolls = append(rolls, req)
			return 4, nil
		}
		return 2, nil
	}}
	dec := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		decisions = append(decisions, d)
		return d.Default, nil
	})
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(dec))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if len(rolls) != 1 || len(decisions) != 1 {
		t.Fatalf("asked %d rolls and %d decisions, want 1 and 1", len(rolls), len(decisions))
	}
	for _, tt := range []struct {
		v    any
		back any
		want string
	}{
		{rolls[0], new(runtime.RollRequest),
			`{"round":1,"standing":"priority","subjects":["Jay","Rob"],"count":1,"faces":6,"attempt":0,"pos":"rulesets/mesbg.rules:22:9"}`},
		{decisions[0], new(runtime.Decision),
			`{"kind":"first","by":"Jay","options":["Jay","Rob"],"default":["Jay"],"self":"Jay","round":1,"standing":"priority","pos":"rulesets/mesbg.rules:29:9"}`},
		{runtime.PickRequest{Round: 2, Standing: "act", Options: []string{"Jay", "Jay", "Rob"}, Draw: true}, new(runtime.PickRequest),
			`{"round":2,"standing":"act","options":["Jay","Jay","Rob"],"draw":true}`},
		{runtime.Turn{Side: "Jay", Options: []string{"j1"}, CanPass: true}, new(runtime.Turn),
			`{"side":"Jay","options":["j1"],"can_pass":true}`},
	} {
		data, err := json.Marshal(tt.v)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != tt.want {
			t.Errorf("%T as JSON:\n%s\nwant\n%s", tt.v, data, tt.want)
		}
		if err := json.Unmarshal(data, tt.back); err != nil {
			t.Fatalf("%T: %v", tt.v, err)
		}
		again, err := json.Marshal(tt.back)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, string(again)); diff != "" {
			t.Errorf("%T read back and encoded again (-want +got):\n%s", tt.v, diff)
		}
	}
	var d runtime.Decision
	if err := json.Unmarshal([]byte(`{"kind":"first","pos":"db:house:12:7"}`), &d); err != nil || d.Pos.Filename != "db:house" || d.Pos.Line != 12 || d.Pos.Column != 7 {
		t.Errorf("a pos whose file has a colon: %v, %+v", err, d.Pos)
	}
	if err := json.Unmarshal([]byte(`{"pos":"nowhere"}`), &d); err == nil {
		t.Error("pos nowhere: no error")
	}
}

// A client building a form of a unit's attributes reads them as JSON.
func TestAttrsAsJSON(t *testing.T) {
	p := compileInline(t, `ruleset r "Attributes" {
  sides 2
  unit attribute agi int = 3
  unit attribute hero bool
  phase p {
    order units as o {
      highest agi
      random
    }
  }
}`)
	data, err := json.Marshal(p.UnitAttrs())
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"agi","type":"int","default":3,"pos":"inline.rules:3:3"},{"name":"hero","type":"bool","default":false,"pos":"inline.rules:4:3"}]`
	if string(data) != want {
		t.Errorf("unit attributes as JSON:\n%s\nwant\n%s", data, want)
	}
	var back []runtime.Attr
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back[1].Name != "hero" || back[1].Type != runtime.BoolAttr || back[1].Default != false || back[1].Pos.Line != 4 {
		t.Errorf("read back: %+v", back)
	}
	// An int attribute's default reads back as the int it was, as
	// Program.UnitAttrs gives it, not as JSON's float64.
	if back[0].Default != 3 {
		t.Errorf("agi's default read back as %#v, want 3", back[0].Default)
	}
}

// JSON's null leaves a value as it was, as encoding/json does for a
// struct without a method of its own: a client's message with
// "decision": null, say, keeps the decision a server decoded before.
func TestJSONNullLeavesValues(t *testing.T) {
	pos := dsl.Pos{Filename: "f.rules", Line: 2, Column: 3}
	unit := runtime.Unit{Name: "u", Ready: true}
	side := runtime.Side{Name: "s", Units: []*runtime.Unit{{Name: "u"}}}
	roll := runtime.RollRequest{Round: 1, Subjects: []string{"s"}, Count: 1, Faces: 6, Pos: pos}
	pick := runtime.PickRequest{Round: 1, Options: []string{"s"}, Pos: pos}
	dec := runtime.Decision{Kind: runtime.ChooseFirst, By: "s", Options: []string{"s"}, Round: 1, Pos: pos}
	attr := runtime.Attr{Name: "agi", Type: runtime.IntAttr, Default: 3, Pos: pos}
	diag := dsl.Warnf(pos, "m")
	for _, v := range []any{&unit, &side, &roll, &pick, &dec, &attr, &diag} {
		before, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte("null"), v); err != nil {
			t.Errorf("%T: null: %v", v, err)
			continue
		}
		after, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(before) != string(after) {
			t.Errorf("%T: null changed it from\n%s\nto\n%s", v, before, after)
		}
	}
}

// A message without "pos" leaves the position as it was, as encoding/json
// leaves any field the JSON does not name.
func TestJSONWithoutPosKeepsPos(t *testing.T) {
	pos := dsl.Pos{Filename: "f.rules", Line: 2, Column: 3}
	dec := runtime.Decision{Kind: runtime.ChooseFirst, By: "s", Round: 1, Pos: pos}
	if err := json.Unmarshal([]byte(`{"round":2}`), &dec); err != nil {
		t.Fatal(err)
	}
	if dec.Round != 2 || dec.Pos != pos {
		t.Errorf("decoded %+v, want round 2 at %v", dec, pos)
	}
}

// What MarshalJSON writes of any position, UnmarshalJSON reads: a position
// without a column (made by hand) included, and one without a line, which
// names no place and is left out as no position is.
func TestJSONOddPositionsReadBack(t *testing.T) {
	for _, pos := range []dsl.Pos{{Filename: "f.rules", Line: 2}, {Filename: "f.rules"}, {Line: 2, Column: 3}} {
		d := runtime.Decision{Kind: runtime.ChooseFirst, By: "s", Round: 1, Pos: pos}
		data, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var back runtime.Decision
		if err := json.Unmarshal(data, &back); err != nil {
			t.Errorf("%+v: %s does not read back: %v", pos, data, err)
			continue
		}
		want := pos
		if pos.Line == 0 {
			want = dsl.Pos{}
		}
		if back.Pos != want {
			t.Errorf("%+v: %s reads back at %+v, want %+v", pos, data, back.Pos, want)
		}
	}
}
