package runtime_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// A server sends the battle's sides and units to its clients as JSON: a
// unit points to its side, which holds the unit, and encoding/json must
// not meet that cycle. The JSON is a SideSpec's shape, so the sides as
// they stand can start another battle.
func TestSidesAndUnitsAsJSON(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset vtt "Sides as JSON" {
  sides 2
  side attribute morale int
  unit attribute agi int = 3
  unit status pinned, fled
  phase p {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
    ready units unless pinned
  }
  activation alternate by priority
}`)
	b, err := p.NewBattle([]runtime.SideSpec{
		{Name: "Jay Smith", Team: "Free Peoples", Attrs: map[string]any{"morale": 12},
			Units: []runtime.UnitSpec{{Name: "Aragorn", Attrs: map[string]any{"agi": 5}}, {Name: "Boromir", Statuses: []string{"pinned", "fled"}}}},
		{Name: "Rób 🐗", Units: []runtime.UnitSpec{{Name: "Uglúk"}, {Name: "Lurtz"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.RemoveUnit(ctx, "Lurtz"); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(b.Units())
	if err != nil {
		t.Fatalf("units: %v", err)
	}
	want := `[{"name":"Aragorn","side":"Jay Smith","attrs":{"agi":5},"ready":true},` +
		`{"name":"Boromir","side":"Jay Smith","attrs":{"agi":3},"statuses":["fled","pinned"]},` +
		`{"name":"Uglúk","side":"Rób 🐗","attrs":{"agi":3},"ready":true}]`
	if string(data) != want {
		t.Errorf("units as JSON:\n%s\nwant\n%s", data, want)
	}
	var units []*runtime.Unit
	if err := json.Unmarshal(data, &units); err != nil {
		t.Fatal(err)
	}
	if u := units[2]; u.Name != "Uglúk" || u.Side == nil || u.Side.Name != "Rób 🐗" || !u.Ready {
		t.Errorf("a unit decoded alone: %+v, of %+v", u, u.Side)
	}
	data, err = json.Marshal(b.Sides())
	if err != nil {
		t.Fatalf("sides: %v", err)
	}
	var sides []*runtime.Side
	if err := json.Unmarshal(data, &sides); err != nil {
		t.Fatal(err)
	}
	// Numbers decode as float64 into a map of any: the JSON is the same.
	again, err := json.Marshal(sides)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(data) {
		t.Errorf("sides decoded and encoded again:\n%s\nwant\n%s", again, data)
	}
	if u := sides[0].Units[1]; u.Side != sides[0] || !u.Status["pinned"] {
		t.Errorf("Boromir decoded: %+v of %p, want of %p", u, u.Side, sides[0])
	}
	var specs []runtime.SideSpec
	if err := json.Unmarshal(data, &specs); err != nil {
		t.Fatal(err)
	}
	b2, err := p.NewBattle(specs)
	if err != nil {
		t.Fatalf("a battle of the sides as they stand: %v", err)
	}
	if diff := cmp.Diff(b.Units()[1].Status, b2.Unit("Boromir").Status); diff != "" {
		t.Errorf("Boromir's statuses (-first battle +second):\n%s", diff)
	}
	if b2.Unit("Lurtz") != nil {
		t.Error("Lurtz, removed, is in the second battle")
	}
	if u := b2.Unit("Aragorn"); u.Attrs["agi"] != 5 || u.Side.Team != "Free Peoples" || u.Side.Attrs["morale"] != 12 {
		t.Errorf("Aragorn in the second battle: %+v of %+v", u, u.Side)
	}
}

// The sides a client sends for a new battle have the keys of the sides
// it is sent back: lowercase, as in every other JSON of the battle.
func TestSideSpecJSONKeys(t *testing.T) {
	p := mustProgram(t, "necromunda")
	data, err := json.Marshal(p.Example()[:1])
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"Goliaths","units":[{"name":"Krug"},{"name":"Grath"},{"name":"Volk"}]}]`
	if string(data) != want {
		t.Errorf("example as JSON:\n%s\nwant\n%s", data, want)
	}
	var specs []runtime.SideSpec
	old := `[{"Name":"A","Team":"Red","Attrs":{"morale":3},"Units":[{"Name":"u","Attrs":{"agi":2},"Statuses":["pinned"]}]}]`
	if err := json.Unmarshal([]byte(old), &specs); err != nil {
		t.Fatal(err)
	}
	wantSpecs := []runtime.SideSpec{{Name: "A", Team: "Red", Attrs: map[string]any{"morale": 3.0},
		Units: []runtime.UnitSpec{{Name: "u", Attrs: map[string]any{"agi": 2.0}, Statuses: []string{"pinned"}}}}}
	if diff := cmp.Diff(wantSpecs, specs); diff != "" {
		t.Errorf("specs saved with the field names (-want +got):\n%s", diff)
	}
}

// Sides decoded as Battle.Sides gives them, a []*Side, have units that
// point to their own side.
func TestSidesDecodedPointToThemselves(t *testing.T) {
	var sides []*runtime.Side
	if err := json.Unmarshal([]byte(`[{"name":"A","units":[{"name":"a"}]},{"name":"B","units":[{"name":"b"},{"name":"c"}]},{"name":"C"}]`), &sides); err != nil {
		t.Fatal(err)
	}
	for _, s := range sides {
		for _, u := range s.Units {
			if u.Side != s {
				t.Errorf("unit %s of %s points to another side, %p, not %p", u.Name, s.Name, u.Side, s)
			}
		}
	}
}

// A SideSpec decoded with plain json.Unmarshal keeps a number that a
// float64 would change as written, so that NewBattle reports it instead of
// playing with another number; the others are float64s as before.
func TestSideSpecJSONNumbersAsWritten(t *testing.T) {
	const data = `[{"name": "A", "team": "Red", "attrs": {"rank": 9007199254740993},
  "units": [{"name": "Aria", "attrs": {"agi": 9007199254740992}}, {"name": "Ash", "attrs": {"agi": 1e-400}}]},
 {"name": "B", "team": "Blue", "units": [{"name": "Bran", "attrs": {"agi": 1e400}}, {"name": "Cole", "attrs": {"agi": 2}}]}]`
	var specs []runtime.SideSpec
	if err := json.Unmarshal([]byte(data), &specs); err != nil {
		t.Fatal(err)
	}
	got := map[string]any{"A.rank": specs[0].Attrs["rank"]}
	for _, s := range specs {
		for _, u := range s.Units {
			got[u.Name+".agi"] = u.Attrs["agi"]
		}
	}
	want := map[string]any{
		"A.rank":   json.Number("9007199254740993"),
		"Aria.agi": 9007199254740992.0,
		"Ash.agi":  json.Number("1e-400"),
		"Bran.agi": json.Number("1e400"),
		"Cole.agi": 2.0,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("attrs (-want +got):\n%s", diff)
	}

	p := compileInline(t, `ruleset n {
  sides 2
  side attribute rank int = 0
  unit attribute agi int
  phase p { order sides as priority { highest rank } }
}`)
	_, err := p.NewBattle(specs)
	wantErr := []string{
		"side A: attribute rank: 9007199254740993 is out of range",
		"unit Ash: attribute agi: want a whole number, got 1e-400, a fraction too close to 0",
		"unit Bran: attribute agi: 1e400 is out of range",
	}
	for _, w := range wantErr {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("NewBattle: %v\nwant it to say %q", err, w)
		}
	}

	// A spec decoded into is overwritten key by key, as encoding/json does.
	spec := runtime.SideSpec{Name: "A", Team: "Red"}
	if err := json.Unmarshal([]byte(`{"Team": "Blue", "ATTRS": {"rank": 1}}`), &spec); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(runtime.SideSpec{Name: "A", Team: "Blue", Attrs: map[string]any{"rank": 1.0}}, spec); diff != "" {
		t.Errorf("decoded into a spec (-want +got):\n%s", diff)
	}
}

// A SideSpec that does not decode says so in the exported type's name, as
// encoding/json did before SideSpec decoded itself.
func TestSideSpecJSONErrorNamesTheType(t *testing.T) {
	tests := []struct{ data, want string }{
		{`[{"name": 3}]`, "json: cannot unmarshal number into Go struct field SideSpec.name of type string"},
		{`[{"name": "A", "units": [{"name": "u", "statuses": 4}]}]`, "json: cannot unmarshal number into Go struct field SideSpec.units.statuses of type []string"},
	}
	for _, tt := range tests {
		var specs []runtime.SideSpec
		if err := json.Unmarshal([]byte(tt.data), &specs); err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v, want %s", tt.data, err, tt.want)
		}
	}
	var u runtime.UnitSpec
	want := "json: cannot unmarshal number into Go struct field UnitSpec.name of type string"
	if err := json.Unmarshal([]byte(`{"name": 3}`), &u); err == nil || err.Error() != want {
		t.Errorf("unit: %v, want %s", err, want)
	}
}
