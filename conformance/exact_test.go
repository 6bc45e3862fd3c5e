package conformance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rollOff is a roll-off among three sides whose first roll ties all three
// (P2 wins the reroll), with %s for the statements of round 1 after the
// rolls.
const rollOff = `ruleset rolloff {
  sides 2..
  phase initiative each round {
    order sides as initiative {
      highest roll d6
      tie: reroll
    }
  }
}

scenario "s" {
  ruleset rolloff
  side P1
  side P2
  side P3
  round 1 {
    roll P1 4, P2 4, P3 4
    roll P1 2, P2 5, P3 1
    %s
  }
}
`

// allEvents is every event of rollOff's round 1, as lines of `expect
// events exactly`.
var allEvents = []string{
	"round_start",
	"roll P1 4", "roll P2 4", "roll P3 4",
	"tie P1 P2 P3",
	"reroll P1 P2 P3",
	"roll P1 2", "roll P2 5", "roll P3 1",
	"placement P2 1 = 5", "placement P1 2 = 2", "placement P3 3 = 1",
}

// exactly writes `expect events exactly` with lines, replaced[i] in place
// of allEvents[i] for each i it holds ("" leaves the line out).
func exactly(replaced map[int]string, extra ...string) string {
	var lines []string
	for i, l := range allEvents {
		if r, ok := replaced[i]; ok {
			l = r
		}
		if l != "" {
			lines = append(lines, "      "+l)
		}
	}
	for _, l := range extra {
		lines = append(lines, "      "+l)
	}
	return "expect events exactly {\n" + strings.Join(lines, "\n") + "\n    }"
}

// An exact list is met only by every event, in order, each line naming
// exactly whom its event is about: not by containment, as `expect event`
// is.
func TestExpectEventsExactly(t *testing.T) {
	for _, tt := range []struct {
		name   string
		expect string
		pass   bool
	}{
		{"every event", exactly(nil), true},
		{"the standing named too", exactly(map[int]string{5: "reroll initiative P1 P2 P3", 9: "placement initiative P2 1"}), true},
		{"without the values", exactly(map[int]string{9: "placement P2 1", 10: "placement P1 2", 11: "placement P3 3"}), true},
		{"by the total", exactly(map[int]string{1: "roll P1"}), true},
		{"a reroll of part of the group", exactly(map[int]string{5: "reroll P1 P3"}), false},
		{"a group out of order", exactly(map[int]string{4: "tie P2 P1 P3"}), false},
		{"one more subject", exactly(map[int]string{1: "roll P1 P2 4"}), false},
		{"a roll with another number", exactly(map[int]string{1: "roll P1 5"}), false},
		{"an event left out", exactly(map[int]string{0: ""}), false},
		{"an event too many", exactly(nil, "holder P2"), false},
		{"two events swapped", exactly(map[int]string{1: "roll P2 4", 2: "roll P1 4"}), false},
		{"another value", exactly(map[int]string{9: "placement P2 1 = 6"}), false},
		{"containment still", "expect event reroll P1 P3", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			expectPasses(t, fmt.Sprintf(rollOff, tt.expect), tt.pass)
		})
	}
}

// The failure of an exact list is a diff of the lines expected and the
// events had, each event that met its line shown as the line is written.
func TestExpectEventsExactlyFailure(t *testing.T) {
	src := fmt.Sprintf(rollOff, exactly(map[int]string{0: "", 5: "reroll P1 P3", 9: "placement initiative P2 1"}))
	f := oneFailure(t, src)
	want := `s.rules:19:5: round 1: events not as expected (- expected, + got):
  + round_start
    roll P1 4
    roll P2 4
    roll P3 4
    tie P1 P2 P3
  - reroll P1 P3
  + reroll P1 P2 P3
    roll P1 2
    roll P2 5
    roll P3 1
    ... 3 events as expected`
	if diff := cmp.Diff(want, f.String()); diff != "" {
		t.Errorf("failure (-want +got):\n%s", diff)
	}
	if f.Field != "events" {
		t.Errorf("field %q, want events", f.Field)
	}
}

// A unit that joins is checked before the scenario is played, as a
// setup's unit is, and the lines of an exact list as `expect event`s are.
func TestAddUnitAndExactLinesLinted(t *testing.T) {
	const agi = "scenario \"s\" {\n  ruleset agi\n  side A team Red {\n    unit Aria agi = 5\n  }\n  side B team Blue {\n    unit Bran agi = 3\n  }\n" +
		"  round 1 {\n    %s\n  }\n}\n"
	for _, tt := range []struct{ stmt, want string }{
		{"add unit Zed to C", "s.rules:10:21: round 1: add unit Zed to C: no side is called C (sides A, B; units Aria, Bran)"},
		{"add unit Zed to Aria", "s.rules:10:21: round 1: add unit Zed to Aria: Aria is a unit, and only a side can be named here (its side: A)"},
		{"add unit Aria to A", `s.rules:10:5: round 1: add Aria to A: the name "Aria" is used twice (sides and units need names of their own)`},
		{"add unit Zed to A agility = 3", "s.rules:10:5: round 1: add Zed to A: unit Zed: unknown attribute agility (declared: agi)"},
		{"add unit Zed to A agi = \"x\"", "s.rules:10:5: round 1: add Zed to A: unit Zed: attribute agi: want a whole number, got \"x\""},
		{"expect events exactly {\n      round_start\n      placment Aria 1\n    }", "s.rules:12:7: round 1: expect events exactly: placment: there is no such kind of event (did you mean placement?)"},
		{"expect events exactly {\n      placement Zed 1\n    }", "s.rules:11:17: round 1: expect events exactly: placement Zed 1: no side, unit, team, order or hook point is called Zed"},
		{"add unit Zed to B agi = 4\n    expect events exactly {\n      added Zed by B\n      round_start\n      placement Aria 1 = 5\n      placement Zed 2 = 4\n" +
			"      placement Bran 3 = 3\n      ready Aria by A\n      ready Bran by B\n      ready Zed by B\n    }\n    remove Zed\n    expect order Aria, Bran", ""},
	} {
		t.Run(tt.stmt, func(t *testing.T) {
			r := runOne(t, fmt.Sprintf(agi, tt.stmt))
			got := ""
			if len(r.Failures) > 0 {
				got = r.Failures[0].String()
			}
			if !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
				t.Errorf("first failure:\n%s\nwant it to begin\n%s", got, tt.want)
			}
		})
	}
}

// Whom each kind of event is about, in an exact list: every event counts,
// hook points reached too; a decision names its answer, after the unit a
// side chose for; an award names whom it puts first.
func TestExpectEventsExactlyEveryKind(t *testing.T) {
	const mesbg = `scenario "s" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 3
    Jay chooses Jay
  }
  round 2 {
    roll Jay 3, Rob 3
    Rob chooses Jay
    expect events exactly {
      round_start
      hook start
      roll Jay 3
      roll Rob 3
      tie Jay Rob
      award Rob
      decision Jay by Rob
      placement Jay 1 by Rob
      placement Rob 2 by Rob
      hook end
    }
  }
}
`
	const agi = `scenario "s" {
  ruleset agi
  side A team Red {
    unit Aria agi = 5
  }
  side B team Blue {
    unit Bran agi = 5
  }
  round 1 {
    roll Aria 2, Bran 5
    B chooses after
    expect events exactly {
      round_start
      tie Aria Bran
      roll Aria 2
      roll Bran 5
      decision Bran after by B
      placement Aria 1 by B
      placement Bran 2 by B
      ready Aria by A
      ready Bran by B
    }
  }
}
`
	for _, tt := range []struct {
		name, src string
		pass      bool
	}{
		{"mesbg", mesbg, true},
		{"a hook point left out", strings.Replace(mesbg, "      hook start\n", "", 1), false},
		{"a decision by its options", strings.Replace(mesbg, "decision Jay by Rob", "decision Jay Rob by Rob", 1), false},
		{"an award of the tied group", strings.Replace(mesbg, "award Rob", "award Jay Rob", 1), false},
		{"agi", agi, true},
		{"a decision for a unit without the unit", strings.Replace(agi, "decision Bran after by B", "decision after by B", 1), false},
	} {
		t.Run(tt.name, func(t *testing.T) { expectPasses(t, tt.src, tt.pass) })
	}
}
