package runtime_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// CheckSides finds, without a ruleset, the names NewBattle refuses
// whatever the ruleset.
func TestCheckSides(t *testing.T) {
	at := func(line int) dsl.Pos { return dsl.Pos{Filename: "s.rules", Line: line, Column: 1} }
	unit := func(name string, line int) runtime.UnitSpec { return runtime.UnitSpec{Name: name, Pos: at(line)} }
	tests := []struct {
		name  string
		sides []runtime.SideSpec
		want  []string
	}{
		{"fine", []runtime.SideSpec{{Name: "A", Pos: at(1), Units: []runtime.UnitSpec{unit("a1", 2)}}, {Name: "B", Pos: at(3)}}, nil},
		{"no name", []runtime.SideSpec{{Pos: at(1), Units: []runtime.UnitSpec{unit("", 2)}}},
			[]string{"1: a side needs a name", "2: a unit needs a name"}},
		{"repeats", []runtime.SideSpec{{Name: "A", Pos: at(1), Units: []runtime.UnitSpec{unit("A", 2)}}, {Name: "A", Pos: at(3)}},
			[]string{`2: the name "A" is used twice (sides and units need names of their own)`, `3: the name "A" is used twice (sides and units need names of their own)`}},
		// `unit md * 3` is three units at one position: one error.
		{"one position, one error", []runtime.SideSpec{{Name: "A", Pos: at(1), Units: []runtime.UnitSpec{unit("md1", 2), unit("md1", 2), unit("md1", 2)}}},
			[]string{`2: the name "md1" is used twice (sides and units need names of their own)`}},
		{"reserved", []runtime.SideSpec{{Name: "none", Pos: at(1)}, {Name: "B", Team: "none", Pos: at(2), Units: []runtime.UnitSpec{unit("none", 3)}}},
			[]string{
				"1: none cannot name a side: it means nobody, as in `expect chooser none`",
				"2: side B: none cannot name a team: it means nobody, as in `expect chooser none`",
				"3: none cannot name a unit: it means nobody, as in `expect chooser none`",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range runtime.CheckSides(tt.sides) {
				got = append(got, fmt.Sprintf("%d: %s", d.Pos.Line, d.Message))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("CheckSides (-want +got):\n%s", diff)
			}
		})
	}
}
