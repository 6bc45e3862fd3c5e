package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math/big"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// docs/json.md lists the keys of the Go values a server sends its
// clients: every value, with every field set, has exactly those keys.
func TestJSONDocGoAPI(t *testing.T) {
	data, err := os.ReadFile("../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i := strings.Index(doc, "# The JSON of the Go API")
	if i < 0 {
		t.Fatal("docs/json.md has no section on the Go API")
	}
	pos := dsl.Pos{Filename: "f.rules", Line: 2, Column: 3}
	unit := &runtime.Unit{Name: "u", Attrs: map[string]any{"agi": 1}, Status: map[string]bool{"pinned": true}, Ready: true}
	side := &runtime.Side{Name: "s", Team: "t", Attrs: map[string]any{"m": 1}, Units: []*runtime.Unit{unit}}
	unit.Side = side
	values := map[string]any{
		"runtime.Side":     side,
		"runtime.SideSpec": runtime.SideSpec{Name: "s", Team: "t", Attrs: map[string]any{"m": 1}, Units: []runtime.UnitSpec{{Name: "u"}}},
		"runtime.Unit":     unit,
		"runtime.UnitSpec": runtime.UnitSpec{Name: "u", Attrs: map[string]any{"agi": 1}, Statuses: []string{"pinned"}},
		"runtime.Decision": runtime.Decision{Kind: runtime.ChooseActivation, By: "s", Options: []string{"u"}, Default: []string{"u"}, Self: "s", Others: []string{"t"}, Round: 1, Standing: "o", Pos: pos, PassWhen: "x", Drawn: true, Phase: "p", Step: "s",
			Name: "bid", Min: new(1), Max: new(6), Secret: true},
		"runtime.Decided":      runtime.Decided{Name: "bid", Side: "s", Answer: "3"},
		"runtime.DecisionDecl": runtime.DecisionDecl{Name: "bid", Kind: runtime.ChooseNumber, Each: true, Secret: true, By: "holder", Answers: []string{"1"}, Default: "1"},
		"runtime.Turn":         runtime.Turn{Side: "s", Options: []string{"u"}, CanPass: true, MustPass: true, Undrawn: true, Phase: "p", Step: "s"},
		"runtime.RollRequest": runtime.RollRequest{Round: 1, Standing: "o", Subjects: []string{"s"}, Count: 1, Faces: 6, Attempt: 1, Modifiers: []int{1}, Pos: pos,
			Randomizer: "cards", Kind: "deck", Side: "s", Labels: []string{"a"}, Values: []int{1}},
		"runtime.DeckState":   runtime.DeckState{Deck: "cards", Side: "s", Left: []string{"a"}},
		"runtime.PickRequest": runtime.PickRequest{Round: 1, Standing: "o", Options: []string{"s"}, Pos: pos, Draw: true, Decision: "bid", By: "s"},
		"runtime.UnscriptedError": runtime.UnscriptedError{Roll: &runtime.RollRequest{Subjects: []string{"s"}}, Missing: []string{"s"},
			Pick: &runtime.PickRequest{}, Decision: &runtime.Decision{}},
		"dsl.Diagnostic":     dsl.Warnf(pos, "m"),
		"runtime.OddsReport": runtime.OddsReport{Ruleset: "r", Sides: []string{"A"}, Rounds: []runtime.RoundOdds{}, Sequences: []runtime.Prob{}, Expected: map[string]*big.Rat{"A": big.NewRat(1, 2)}, Replays: 1},
		"runtime.RoundOdds":  runtime.RoundOdds{Round: 1, Holder: map[string]*big.Rat{"A": big.NewRat(1, 2)}, Orders: []runtime.Prob{}},
		"runtime.Prob":       runtime.Prob{Outcome: []string{"A"}, P: big.NewRat(1, 2)},
		"runtime.SimReport":  runtime.SimReport{Runs: 1, Holder: []map[string]int{{"A": 1}}},
		"runtime.Attr":       runtime.Attr{Name: "agi", Type: runtime.IntAttr, Default: 3, Min: new(1), Max: new(6), Pos: pos},
		"runtime.HookPoint":  runtime.HookPoint{Edge: "start", Kind: "phase", Name: "priority"},
		"runtime.RoundResult": runtime.RoundResult{Round: 1, Order: []string{"s"}, Holder: "s", Chooser: "s",
			Activations: []runtime.ActivationRecord{{Side: "s", Unit: "u"}}, Events: []runtime.Event{{Kind: runtime.EvHolder}}},
	}
	row := regexp.MustCompile("(?m)^\\| (`[^|]+`) \\| `(\\{[^`]*\\})`")
	seen := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(doc[i:], -1) {
		var want []string
		for _, k := range regexp.MustCompile(`"(\w+)"`).FindAllStringSubmatch(m[2], -1) {
			want = append(want, k[1])
		}
		slices.Sort(want)
		for _, name := range regexp.MustCompile("`([\\w.]+)`").FindAllStringSubmatch(m[1], -1) {
			v, ok := values[name[1]]
			if !ok {
				continue
			}
			seen[name[1]] = true
			data, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%s: %v", name[1], err)
			}
			var obj map[string]any
			if err := json.Unmarshal(data, &obj); err != nil {
				t.Fatal(err)
			}
			if got := slices.Sorted(maps.Keys(obj)); !slices.Equal(got, want) {
				t.Errorf("%s has keys %q, docs/json.md says %q", name[1], got, want)
			}
		}
	}
	for name := range values {
		if !seen[name] {
			t.Errorf("docs/json.md does not give the keys of %s", name)
		}
	}
}

// A stateless server sends its players the UnscriptedError of the round
// it replayed, as JSON: what is asked, in the keys docs/json.md gives, and
// it decodes back to what was asked.
func TestUnscriptedErrorJSON(t *testing.T) {
	p := mustProgram(t, "mesbg")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.PlayRound(context.Background())
	ue, ok := errors.AsType[*runtime.UnscriptedError](err)
	if !ok {
		t.Fatalf("PlayRound: %v; want an UnscriptedError", err)
	}
	data, err := json.Marshal(ue)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"roll":{"round":1,"standing":"priority","subjects":["Jay","Rob"],"count":1,"faces":6,"attempt":0,"pos":"rulesets/mesbg.rules:22:9"},"missing":["Rob"]}`
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
	var back runtime.UnscriptedError
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ue, &back, cmpopts.IgnoreUnexported(runtime.UnscriptedError{}), cmpopts.IgnoreFields(runtime.RollRequest{}, "Pos.Offset")); diff != "" {
		t.Errorf("decoded (-sent +got):\n%s", diff)
	}
}

// A RoundResult encodes as a round of `run --json` does (docs/json.md):
// chooser null when nobody chose, not "", and lists [] when empty, not
// null; decoded, it is the same RoundResult.
func TestRoundResultJSON(t *testing.T) {
	for _, tt := range []struct {
		name string
		res  runtime.RoundResult
		want string
	}{
		{"nobody chose, no transcript", runtime.RoundResult{Round: 2, Order: []string{"Jay", "Rob"}, Holder: "Jay"},
			`{"round":2,"order":["Jay","Rob"],"holder":"Jay","chooser":null,"activations":[],"events":[]}`},
		{"a choice", runtime.RoundResult{Round: 1, Order: []string{"Rob", "Jay"}, Holder: "Rob", Chooser: "Jay",
			Activations: []runtime.ActivationRecord{{Side: "Rob", Pass: true}}},
			`{"round":1,"order":["Rob","Jay"],"holder":"Rob","chooser":"Jay","activations":[{"side":"Rob","pass":true}],"events":[]}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range []any{tt.res, &tt.res} {
				data, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, string(data)); diff != "" {
					t.Errorf("%T (-want +got):\n%s", v, diff)
				}
			}
			var back runtime.RoundResult
			if err := json.Unmarshal([]byte(tt.want), &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.res, back, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("decoded (-encoded +decoded):\n%s", diff)
			}
		})
	}
}
