package conformance_test

// Tests of the scenario runner: what it reports when a scenario's
// expectation is not met, and the mistakes in a scenario it refuses.

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
)

// A scenario with a wrong expectation fails, and the failure names the
// round, the field and the difference.
func TestWrongExpectation(t *testing.T) {
	results, err := conformance.RunFS(context.Background(), os.DirFS("testdata"), conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wrong *conformance.Result
	for i := range results {
		if results[i].File == "wrong.rules" {
			wrong = &results[i]
		}
	}
	if wrong == nil {
		t.Fatal("testdata/wrong.rules has no scenario")
	}
	if wrong.Passed() {
		t.Fatal("the scenario with a wrong expectation passed")
	}
	fields := []string{}
	for _, f := range wrong.Failures {
		fields = append(fields, fmt.Sprintf("round %d %s", f.Round, f.Field))
	}
	want := []string{"round 2 holder", "round 2 order"}
	if !slices.Equal(fields, want) {
		t.Errorf("failures %q, want %q", fields, want)
	}
	got := wrong.Failures[0].String()
	if want := "wrong.rules:19:5: round 2: expected holder Jay, but Rob holds priority"; got != want {
		t.Errorf("the failure says\n%s\nwant\n%s", got, want)
	}
}

// An error that names its round itself (a runtime.RoundError) is not
// prefixed with it twice, and what fails only as the round is played out is
// blamed on the round's closing brace.
func TestFailureString(t *testing.T) {
	const src = `scenario "unscripted decision" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 2
  }
}

scenario "no roll" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
  }
}

scenario "impossible roll" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 7, Rob 2
  }
}

scenario "the loser's choice scripted" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 2
    Rob chooses Rob
  }
}

scenario "rolls for the sides, where their units roll" {
  ruleset agi
  side A team Red { unit Aria agi = 5 }
  side B team Blue { unit Bran agi = 5 }
  round 1 {
    roll A 4, B 2
  }
}

scenario "the choice written below the expect that plays the round" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 2
    expect holder Jay
    Jay chooses Jay
  }
}

scenario "the reroll written below the expect that plays the round" {
  ruleset necromunda
  side A { unit a }
  side B { unit b }
  round 1 {
    roll A 4, B 4
    expect event tie A B
    roll A 6, B 1
  }
}
`
	results, err := conformance.RunSource(context.Background(), "s.rules", []byte(src), conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range results {
		for _, f := range r.Failures {
			got = append(got, f.String())
		}
	}
	want := []string{
		"s.rules:7:3: round 1: order priority: unscripted decision: Jay chooses who goes first among Jay, Rob (script it with `Jay chooses ...`)",
		"s.rules:15:3: round 1: order priority: a d6 roll is needed for Jay, Rob, but none is scripted",
		"s.rules:23:10: round 1: scripted roll 7 for Jay is impossible on d6 (1-6)",
		"s.rules:34:3: round 1: order priority: unscripted decision: Jay chooses who goes first among Jay, Rob (script it with `Jay chooses ...`; the answers scripted and not yet used are for Rob, who does not decide here)",
		"s.rules:43:3: round 1: order turn_order: a d6 roll is needed for Aria, Bran, but none is scripted (the rolls scripted and not yet used are for A, B, who do not roll here)",
		"s.rules:52:5: round 1: order priority: unscripted decision: Jay chooses who goes first among Jay, Rob (script it with `Jay chooses ...`); `Jay chooses` is written below, at line 53: the round is played up to this line with the rolls and choices written above it",
		"s.rules:63:5: round 1: order priority: a d6 reroll is needed for A, B, but none is scripted; a roll for A is written below, at line 64: the round is played up to this line with the rolls and choices written above it",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}

	// A message that only looks as if it named its round is kept whole.
	pos := dsl.Pos{Filename: "s.rules", Line: 9, Column: 5}
	for _, tt := range []struct {
		f    conformance.Failure
		want string
	}{
		{conformance.Failure{Round: 1, Field: "error", Pos: pos, Diff: "s.rules:3:7: `agi / 0` for A is NaN"},
			"s.rules:9:5: round 1: s.rules:3:7: `agi / 0` for A is NaN"},
		{conformance.Failure{Round: 1, Field: "error", Pos: pos, Diff: "round 1: something"},
			"s.rules:9:5: round 1: round 1: something"},
		{conformance.Failure{Field: "error", Pos: pos, Diff: "no bundled ruleset \"x\""},
			"s.rules:9:5: no bundled ruleset \"x\""},
	} {
		if got := tt.f.String(); got != tt.want {
			t.Errorf("String() = %q\nwant       %q", got, tt.want)
		}
	}
}

// A long order or list of ready units is wrapped where turnorder test
// prints it (String), between names, the names of each line under those
// of the first, and two lists of as many names at the same names; the
// JSON's message (Message) keeps a line each.
func TestFailureStringWrapsLongLists(t *testing.T) {
	pos := dsl.Pos{Filename: "conformance/scenarios/long.rules", Line: 14, Column: 5}
	want := []string{"Bran of the Long Hills", "Aria the Bold", "Cole Stormborn", "Dara Nightshade", "Elric, of Melnibone", "Fen the Quiet", "Gus Ironhand", "Hilda Swiftblade", "Ivo the Unready"}
	got := slices.Clone(want)
	got[0], got[1] = got[1], got[0]
	order := conformance.Failure{Round: 1, Field: "order", Pos: pos, Want: want, Got: got}
	ready := conformance.Failure{Round: 1, Field: "ready", Pos: pos, Want: want[:3], Got: want}
	short := conformance.Failure{Round: 1, Field: "order", Pos: pos, Want: []string{"Aria", "Bran"}, Got: []string{"Bran", "Aria"}}
	for _, tt := range []struct {
		f            conformance.Failure
		str, message string
	}{
		{order, `conformance/scenarios/long.rules:14:5: round 1: expected order "Bran of the Long Hills",
                                                               "Aria the Bold",
                                                               "Cole Stormborn", "Dara Nightshade",
                                                               "Elric, of Melnibone", "Fen the Quiet",
                                                               "Gus Ironhand", "Hilda Swiftblade",
                                                               "Ivo the Unready"
                                                but got        "Aria the Bold",
                                                               "Bran of the Long Hills",
                                                               "Cole Stormborn", "Dara Nightshade",
                                                               "Elric, of Melnibone", "Fen the Quiet",
                                                               "Gus Ironhand", "Hilda Swiftblade",
                                                               "Ivo the Unready"`,
			`round 1: expected order "Bran of the Long Hills", "Aria the Bold", "Cole Stormborn", "Dara Nightshade", "Elric, of Melnibone", "Fen the Quiet", "Gus Ironhand", "Hilda Swiftblade", "Ivo the Unready"
         but got        "Aria the Bold", "Bran of the Long Hills", "Cole Stormborn", "Dara Nightshade", "Elric, of Melnibone", "Fen the Quiet", "Gus Ironhand", "Hilda Swiftblade", "Ivo the Unready"`},
		{ready, `conformance/scenarios/long.rules:14:5: round 1: expected ready "Bran of the Long Hills",
                                                               "Aria the Bold", "Cole Stormborn"
                                                but got        "Bran of the Long Hills",
                                                               "Aria the Bold", "Cole Stormborn",
                                                               "Dara Nightshade",
                                                               "Elric, of Melnibone", "Fen the Quiet",
                                                               "Gus Ironhand", "Hilda Swiftblade",
                                                               "Ivo the Unready"
                                                "Dara Nightshade", "Elric, of Melnibone",
                                                "Fen the Quiet", "Gus Ironhand",
                                                "Hilda Swiftblade" and "Ivo the Unready" are
                                                ready too`,
			`round 1: expected ready "Bran of the Long Hills", "Aria the Bold", "Cole Stormborn"
         but got        "Bran of the Long Hills", "Aria the Bold", "Cole Stormborn", "Dara Nightshade", "Elric, of Melnibone", "Fen the Quiet", "Gus Ironhand", "Hilda Swiftblade", "Ivo the Unready"
         "Dara Nightshade", "Elric, of Melnibone", "Fen the Quiet", "Gus Ironhand", "Hilda Swiftblade" and "Ivo the Unready" are ready too`},
		{short, `conformance/scenarios/long.rules:14:5: round 1: expected order Aria, Bran
                                                but got        Bran, Aria`,
			`round 1: expected order Aria, Bran
         but got        Bran, Aria`},
	} {
		if diff := cmp.Diff(tt.str, tt.f.String()); diff != "" {
			t.Errorf("String() (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(tt.message, tt.f.Message()); diff != "" {
			t.Errorf("Message() (-want +got):\n%s", diff)
		}
	}
}

// `expect event KIND NAME` passes when NAME is anywhere in the event;
// `by NAME` asks who decided or acted.
func TestExpectEventBy(t *testing.T) {
	for _, tt := range []struct {
		expect string
		pass   bool
	}{
		{"expect event decision Rob", true},  // the option Jay chose
		{"expect event decision Jay", false}, // Jay decided, and Rob was chosen
		{"expect event decision by Jay", true},
		{"expect event decision Rob by Jay", true},
		{"expect event decision by Rob", false},
		{"expect event decision Jay by Rob", false},
		{"expect no event decision by Rob", true},
		{"expect no event decision by Jay", false},
		{"expect event roll Jay by Jay", false}, // a roll has no decider
	} {
		t.Run(tt.expect, func(t *testing.T) {
			src := "scenario \"s\" {\n  ruleset mesbg\n  side Jay\n  side Rob\n  round 1 {\n    roll Jay 4, Rob 3\n    Jay chooses Rob\n    " + tt.expect + "\n  }\n}\n"
			expectPasses(t, src, tt.pass)
		})
	}
}

// The names of `expect event KIND NAME...` must be in what happened, not
// only among those who could have been concerned: a decision's options,
// the candidates of a random pick and the tied group an award settles are
// all in the event, but `expect event decision Rob by Jay` says Jay chose
// Rob, `expect event random X` that X was picked, and `expect event award
// X` that X was awarded. A tie's or a reroll's group is what happened.
func TestExpectEventNamesWhatHappened(t *testing.T) {
	const mesbg = "scenario \"s\" {\n  ruleset mesbg\n  side Jay\n  side Rob\n" +
		"  round 1 {\n    roll Jay 4, Rob 3\n    Jay chooses Jay\n  }\n" +
		"  round 2 {\n    roll Jay 3, Rob 3\n    Rob chooses Jay\n    %s\n  }\n}\n"
	const morturi = "scenario \"s\" {\n  ruleset morturi\n  decide by policy\n" +
		"  side LA {\n    unit la * 2\n  }\n  side VA {\n    unit va * 2\n  }\n" +
		"  round 1 {\n    random VA\n    %s\n  }\n}\n"
	for _, tt := range []struct {
		src, expect string
		pass        bool
	}{
		{mesbg, "expect event decision Jay by Rob", true},
		{mesbg, "expect event decision Rob by Rob", false}, // Rob decided, and chose Jay
		{mesbg, "expect event decision by Rob", true},
		{mesbg, "expect event placement Rob 1", false}, // Rob chose Jay's first place, and placed second
		{mesbg, "expect event decision Jay", true},
		{mesbg, "expect event award Rob", true}, // award not previous.chooser: Rob is awarded, before Jay
		{mesbg, "expect event tie Jay Rob", true},
		{mesbg, "expect event award Jay", false}, // Jay was only tied, and goes last
		{mesbg, "expect no event award Jay", true},
		{mesbg, "expect event decision Rob by Jay", false}, // Jay did not decide
		{mesbg, "expect no event decision Jay by Rob", false},
		{mesbg, "expect event placement Jay 1", true}, // priority #1: Jay
		{mesbg, "expect event placement Rob 2", true},
		{mesbg, "expect event placement Jay 2", false},
		{morturi, "expect event random VA", true},
		{morturi, "expect event random LA", false}, // LA could have been picked, and was not
		{morturi, "expect no event random LA", true},
	} {
		t.Run(tt.expect, func(t *testing.T) {
			src := fmt.Sprintf(tt.src, tt.expect)
			expectPasses(t, src, tt.pass)
		})
	}
	// A decision Jay made choosing Jay offered Rob too; it is no decision of Rob.
	src := fmt.Sprintf(mesbg, "expect holder Jay")
	src = strings.Replace(src, "round 1 {\n    roll Jay 4, Rob 3\n    Jay chooses Jay\n  }", "round 1 {\n    roll Jay 4, Rob 3\n    Jay chooses Jay\n    expect no event decision Rob\n  }", 1)
	results, err := conformance.RunSource(context.Background(), "s.rules", []byte(src), conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !results[0].Passed() {
		t.Errorf("expect no event decision Rob, after Jay chose Jay: failures: %v", results[0].Failures)
	}
}

// `= V` after an expect event's arguments checks the value a placement
// was placed by (the transcript's `priority #1: Ann, by highest speed / 2
// = 4.5`), written as the transcript writes it; a number among the
// arguments is still the place. A placement by a roll carries its total,
// and one by a choice carries no value.
func TestExpectEventPlacementValue(t *testing.T) {
	const speed = `ruleset v {
  sides 3
  side attribute speed int
  side attribute bonus int
  phase p each round {
    order sides as priority {
      highest speed / 2
      tie {
        highest roll d6 + bonus
        tie: reroll
      }
    }
  }
}
scenario "s" {
  ruleset v
  side Ann speed = 9
  side Bo speed = 4 bonus = 2
  side Cy speed = 4 bonus = -1
  round 1 {
    roll Bo 3, Cy 3
    %s
  }
}
`
	const mesbg = "scenario \"s\" {\n  ruleset mesbg\n  side Jay\n  side Rob\n  round 1 {\n    roll Jay 4, Rob 3\n    Jay chooses Rob\n    %s\n  }\n}\n"
	for _, tt := range []struct {
		src, expect string
		pass        bool
	}{
		{speed, "expect event placement Ann 1 = 4.5", true},
		{speed, "expect event placement Ann = 4.5", true},
		{speed, "expect event placement = 4.5", true},
		{speed, "expect event placement Ann 1 = 4", false},
		{speed, "expect event placement Ann 1 = 9", false}, // speed is 9; the value is speed / 2
		{speed, "expect no event placement Ann = 4", true},
		{speed, "expect no event placement Ann = 4.5", false},
		{speed, "expect event placement Bo 2 = 5", true},  // d6 3 + bonus 2
		{speed, "expect event placement Cy 3 = 2", true},  // d6 3 + bonus -1
		{speed, "expect event placement Cy 2", false},     // 2 is a place, not a value
		{speed, "expect event placement Cy = 3", false},   // the natural roll is not the value
		{speed, "expect no event placement Bo = 2", true}, // 2 is Bo's place, not the value
		{mesbg, "expect event placement Rob 1", true},
		{mesbg, "expect event placement Rob 1 = 4", false}, // Jay chose: no value
		{mesbg, "expect no event placement = 4", true},
		{mesbg, "expect no event placement = 3", true},
	} {
		t.Run(tt.expect, func(t *testing.T) {
			expectPasses(t, fmt.Sprintf(tt.src, tt.expect), tt.pass)
		})
	}
	// A negative value, and the failure's words: what was written, and the
	// round's placements with their values.
	src := strings.Replace(fmt.Sprintf(speed, "expect event placement Cy = -0.5"), "speed = 4 bonus = -1", "speed = -1 bonus = -1", 1)
	src = strings.Replace(src, "roll Bo 3, Cy 3", "", 1)
	if r := runOne(t, src); !r.Passed() {
		t.Errorf("expect event placement Cy = -0.5: failures: %v", r.Failures)
	}
	f := oneFailure(t, fmt.Sprintf(speed, "expect event placement Ann 1 = 4"))
	want := `round 1: expected event placement Ann 1 = 4, but the round's placement events are:
    priority #1: Ann, by highest speed / 2 = 4.5
    priority #2: Bo, by highest roll d6 + bonus = 5
    priority #3: Cy, by highest roll d6 + bonus = 2`
	if diff := cmp.Diff(want, f.Message()); diff != "" {
		t.Errorf("Message (-want +got):\n%s", diff)
	}
	if f.Want != "placement Ann 1 = 4" {
		t.Errorf("Want = %q, want %q", f.Want, "placement Ann 1 = 4")
	}
}

// Mistakes in a scenario itself are reported at the statement, saying what
// is wrong with it.
func TestScenarioMistakes(t *testing.T) {
	tests := []struct {
		name, body string
		line       int
		want       string
	}{
		{"a roll for nobody", "  round 1 {\n    roll Zed 4, Rob 3\n  }\n", 6, "roll Zed: no side or unit is called Zed"},
		{"an unknown event", "  round 1 {\n    roll Jay 4, Rob 3\n    Jay chooses Jay\n    expect event bogus\n  }\n", 8,
			"expect event bogus: there is no such kind of event (kinds: round_start,"},
		{"no event of an unknown kind", "  round 1 {\n    roll Jay 4, Rob 3\n    Jay chooses Jay\n    expect no event bogus\n  }\n", 8,
			"expect no event bogus: there is no such kind of event (kinds: round_start,"},
		{"no decision by nobody", "  round 1 {\n    roll Jay 4, Rob 3\n    Jay chooses Jay\n    expect no event decision by Jya\n  }\n", 8,
			"expect no event decision by Jya: no side, unit or team is called Jya"},
		{"a first round that is not 1", "  round 2 {\n  }\n", 5, "the first round is round 2"},
		{"a holder nobody is", "  round 1 {\n    roll Jay 4, Rob 3\n    Jay chooses Jay\n    expect holder Jya\n  }\n", 8,
			"expect holder Jya: no side or unit is called Jya; did you mean Jay? (sides Jay, Rob)"},
		{"a chooser nobody is", "  round 1 {\n    roll Jay 4, Rob 3\n    Jya chooses Jay\n  }\n", 7, "chooses Jya: no side or team is called Jya"},
		{"removing a side", "  round 1 {\n    remove Jay\n  }\n", 6, "remove Jay: Jay is a side, and only a unit can be named here (its units: none)"},
		{"a decider nobody is", "  round 1 {\n    roll Jay 4, Rob 3\n    Jay chooses Jay\n    expect event decision by Jya\n  }\n", 8,
			"expect event decision by Jya: no side, unit or team is called Jya; did you mean Jay? (sides Jay, Rob)"},
		{"a bad regexp", "  round 1 {\n    expect error \"(\"\n  }\n", 6, "expect error: bad regexp"},
		// A typo in `expect no event` would pass whatever the round did.
		{"an event of nobody", "  round 1 {\n    roll Jay 4, Rob 3\n    Jay chooses Jay\n    expect no event roll Jya 4\n  }\n", 8,
			"expect no event roll Jya 4: no side, unit, team, order or hook point is called Jya (sides Jay, Rob; orders priority; hook points priority, start, Roll For Priority, end; or a number, before, after or pass)"},
		{"an event of an unknown hook", "  round 1 {\n    roll Jay 4, Rob 3\n    Jay chooses Jay\n    expect event hook \"Roll for priority\"\n  }\n", 8,
			"expect event hook Roll for priority: no side, unit, team, order or hook point is called Roll for priority"},
		// Found when the round rolls, and reported at the roll.
		{"an impossible roll", "  round 1 {\n    roll Jay 3, Rob 3\n    roll Jay 4, Rob 9\n    expect holder Jay\n  }\n", 7,
			"scripted roll 9 for Rob is impossible on d6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "scenario \"s\" {\n  ruleset mesbg\n  side Jay\n" + strings.Replace(tt.body, "  round", "  side Rob\n  round", 1) + "}\n"
			f := oneFailure(t, src)
			if f.Pos.Line != tt.line || !strings.Contains(f.Diff, tt.want) {
				t.Errorf("failure at line %d: %s\nwant line %d: %s", f.Pos.Line, f.Diff, tt.line, tt.want)
			}
		})
	}
}

// An expected error that comes out as another error is one failure, not
// that and "the round went on without one" too.
func TestWrongErrorIsOneFailure(t *testing.T) {
	src := `scenario "s" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 3
    Rob chooses Rob
    expect error "may not pass"
  }
}
`
	if f := oneFailure(t, src); !strings.Contains(f.Diff, `expected an error matching "may not pass", but the round failed with another: round 1, order priority: unscripted decision`) {
		t.Errorf("failure: %s", f.Diff)
	}
}

// `expect activations none` passes where nothing activates and fails,
// with the activations in the diff, where something does.
func TestExpectNoActivations(t *testing.T) {
	for _, tt := range []struct {
		ruleset, round string
		fails          bool
	}{
		{"mesbg", "roll Jay 4, Rob 3\n    Jay chooses Jay", false},
		{"agi", "", true},
	} {
		src := "scenario \"s\" {\n  ruleset " + tt.ruleset + "\n  seed 1\n  decide by policy\n  round 1 {\n    " + tt.round + "\n    expect activations none\n  }\n}\n"
		results, err := conformance.RunSource(context.Background(), "s.rules", []byte(src), conformance.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(results) != 1 {
			t.Fatalf("%s: results %+v, want one", tt.ruleset, results)
		}
		fs := results[0].Failures
		if !tt.fails && len(fs) != 0 {
			t.Errorf("%s: failures %+v, want none", tt.ruleset, fs)
		}
		if tt.fails && (len(fs) != 1 || fs[0].Field != "activations" || !strings.Contains(fs[0].Diff, "+")) {
			t.Errorf("%s: failures %+v, want one activations diff", tt.ruleset, fs)
		}
	}
}

// A round that fails once its statements are done (an unscripted decision
// with no expect to run the phases earlier) is reported at the round's
// closing brace, not just past it: an editor taken there lands on the "}".
func TestRoundEndFailureAtBrace(t *testing.T) {
	tests := []struct {
		name, round string
		line, col   int
	}{
		{"brace on its own line", "  round 1 {\n    roll Jay 4, Rob 2\n  }\n", 7, 3},
		{"one-line round", "  round 1 { roll Jay 4, Rob 2 }\n", 5, 31},
		{"spaces after the brace", "  round 1 { roll Jay 4, Rob 2 }   \n", 5, 31},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "scenario \"s\" {\n  ruleset mesbg\n  side Jay\n  side Rob\n" + tt.round + "}\n"
			f := oneFailure(t, src)
			if !strings.Contains(f.Diff, "unscripted decision") {
				t.Fatalf("failure %s, want an unscripted decision", f.Diff)
			}
			if f.Pos.Line != tt.line || f.Pos.Column != tt.col {
				t.Errorf("failure at %d:%d, want %d:%d (the round's \"}\")", f.Pos.Line, f.Pos.Column, tt.line, tt.col)
			}
		})
	}
}

// A scenario sets a status as play does, `set STATUS of UNIT = true`, or
// in the words `UNIT is STATUS`; any other value of a status is a mistake.
func TestScenarioSetStatus(t *testing.T) {
	const head = `scenario "s" {
  ruleset necromunda
  decide by policy
  side Goliaths {
    unit Krug
    unit Grath
  }
  side Eschers {
    unit Mira
  }
  round 1 {
`
	for _, tt := range []struct{ set, want string }{
		{"set seriously_injured of Grath = true", ""},
		{"Grath is seriously_injured", ""},
		{"set seriously_injured of Grath = 1", "s.rules:12:5: round 1: set seriously_injured of Grath: seriously_injured is a status: set it to true or false, or write `Grath is seriously_injured`"},
		{"set seriously_injured of Goliaths = true", "s.rules:12:5: round 1: set Goliaths: Goliaths is a side, and only a unit can be named here (its units: Krug, Grath)"},
	} {
		t.Run(tt.set, func(t *testing.T) {
			src := head + "    " + tt.set + "\n    roll Goliaths 6, Eschers 1\n    expect ready Krug, Mira\n  }\n}\n"
			results, err := conformance.RunSource(context.Background(), "s.rules", []byte(src), conformance.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range results[0].Failures {
				got = append(got, f.String())
			}
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("failures (-want +got):\n%s", diff)
			}
		})
	}
}

// A roll, pick or choice scripted but never used fails the scenario where
// it is scripted (the first of them; a roll at its subject), not at the
// round.
func TestUnusedScriptAtItsLine(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		at        string
		msg       string
	}{
		{"a choice nobody asked for", "scenario \"s\" {\n  ruleset mesbg\n  side Jay\n  side Rob\n  round 1 {\n    roll Jay 3, Rob 2\n    Jay chooses Jay\n    Rob chooses Rob\n    expect holder Jay\n  }\n}\n",
			"8:5", "round 1: scripted but never used: Rob chooses Rob"},
		{"a reroll that never came", "scenario \"s\" {\n  ruleset mesbg\n  side Jay\n  side Rob\n  round 1 {\n    roll Jay 3, Rob 2\n    roll Jay 6, Rob 1\n    Jay chooses Jay\n  }\n}\n",
			"7:10", "round 1: scripted but never used: roll Jay 6; roll Rob 1"},
		{"the first of two unused, in round 2", "scenario \"s\" {\n  ruleset mesbg\n  side Jay\n  side Rob\n  round 1 {\n    roll Jay 3, Rob 2\n    Jay chooses Jay\n  }\n  round 2 {\n    roll Jay 3, Rob 2\n    Rob chooses Rob\n    Jay chooses Jay\n    roll Jay 6, Rob 1\n  }\n}\n",
			"11:5", "round 2: scripted but never used: roll Jay 6; roll Rob 1; Rob chooses Rob"},
		{"a random pick no tie needed", "scenario \"s\" {\n  ruleset morturi\n  decide by policy\n  side LA {\n    unit la\n  }\n  side VA {\n    unit va * 2\n  }\n  round 1 {\n    random VA\n  }\n}\n",
			"11:5", "round 1: scripted but never used: random VA"},
		// The last colour in the bag needs no draw, which is easy to miss.
		{"a draw from a bag of one colour", "ruleset bag {\n  sides 2\n  phase p { order sides as muster { highest count(units) } }\n  activation draw by muster\n}\n" +
			"scenario \"s\" {\n  ruleset bag\n  decide by policy\n  side Jay { unit j * 2 }\n  side Rob { unit r }\n  round 1 {\n    random Rob, Jay\n  }\n}\n",
			"12:5", "round 1: scripted but never used: random Jay (in activation draw, the dice of the last side left in the bag come out without a draw: script only the draws made among two colours or more)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			results, err := conformance.RunSource(context.Background(), "s.rules", []byte(tt.src), conformance.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range results[0].Failures {
				got = append(got, f.String())
			}
			want := []string{fmt.Sprintf("s.rules:%s: %s", tt.at, tt.msg)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("failures (-want +got):\n%s", diff)
			}
		})
	}
}

// A failed expectation carries what was wanted and what was got, as values
// a program can read, and its diff is plain text: go-cmp's non-breaking
// spaces, which it writes at random, are written as spaces.
func TestFailureWantGot(t *testing.T) {
	src, err := os.ReadFile("testdata/wrong.rules")
	if err != nil {
		t.Fatal(err)
	}
	src = append(src, []byte("scenario \"more\" {\n  ruleset mesbg\n  side Jay\n  side Rob\n  round 1 {\n    roll Jay 4, Rob 2\n    Jay chooses Jay\n    expect chooser none\n    expect event roll Jay 2\n    expect ready none\n  }\n}\n")...)
	results, err := conformance.RunSource(context.Background(), "wrong.rules", src, conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	type wantGot struct {
		Field     string
		Want, Got any
	}
	var got []wantGot
	for _, r := range results {
		for _, f := range r.Failures {
			got = append(got, wantGot{f.Field, f.Want, f.Got})
			if strings.Contains(f.Diff, "\u00a0") {
				t.Errorf("the %s diff has a non-breaking space: %q", f.Field, f.Diff)
			}
		}
	}
	want := []wantGot{
		{"holder", "Jay", "Rob"},
		{"order", []string{"Jay", "Rob"}, []string{"Rob", "Jay"}},
		{"chooser", nil, "Jay"},
		{"event", "roll Jay 2", []string{"Jay rolls 4 for priority", "Rob rolls 2 for priority"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
}

// A unit kept from its Ready marker is no `ready` event for `expect event`,
// though the transcript says why it got none.
func TestExpectEventReadyDenied(t *testing.T) {
	for _, tt := range []struct {
		expect string
		pass   bool
	}{
		{"expect event ready Krug", true},
		{"expect event ready Grath", false},
		{"expect no event ready Grath", true},
	} {
		t.Run(tt.expect, func(t *testing.T) {
			src := "scenario \"s\" {\n  ruleset necromunda\n  decide by policy\n  side Goliaths {\n    unit Krug\n    unit Grath status seriously_injured\n  }\n" +
				"  side Eschers {\n    unit Mira\n  }\n  round 1 {\n    roll Goliaths 6, Eschers 1\n    " + tt.expect + "\n  }\n}\n"
			expectPasses(t, src, tt.pass)
		})
	}
}

// expectPasses runs the one scenario of src and checks whether it passed.
func expectPasses(t *testing.T, src string, pass bool) {
	t.Helper()
	if r := runOne(t, src); r.Passed() != pass {
		t.Errorf("passed = %v, want %v; failures: %v", r.Passed(), pass, r.Failures)
	}
}

// runOne runs the one scenario of src, a file named s.rules.
func runOne(t *testing.T, src string) conformance.Result {
	t.Helper()
	results, err := conformance.RunSource(context.Background(), "s.rules", []byte(src), conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 {
		t.Fatalf("%d results, want 1", len(results))
	}
	return results[0]
}

// Two scenarios of one title in one file would read, passed or failed, as
// one: the second is a mistake, reported at it.
func TestScenarioTitleTwice(t *testing.T) {
	sc := "scenario \"same\" {\n  ruleset mesbg\n  round 1 {\n    roll Jay 4, Rob 2\n    Jay chooses Jay\n  }\n}\n"
	src := sc + "\n" + sc
	results, err := conformance.RunSource(context.Background(), "s.rules", []byte(src), conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 || !results[0].Passed() || len(results[1].Failures) != 1 {
		t.Fatalf("results %+v, want the first to pass and the second to fail once", results)
	}
	f := results[1].Failures[0]
	if want := `scenario "same" is declared twice in this file (first at line 1)`; f.Pos.Line != 9 || !strings.Contains(f.Diff, want) {
		t.Errorf("failure at line %d: %s\nwant line 9: %s", f.Pos.Line, f.Diff, want)
	}
	f2, diags := dsl.Parse("s.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if ds := conformance.Lint(f2, conformance.Options{}); len(ds) != 1 || ds[0].Pos.Line != 9 {
		t.Errorf("Lint = %v, want one error at line 9", ds)
	}
}

// No names is shown as an empty list, not as nil.
func TestDiffOfNoNames(t *testing.T) {
	src := `scenario "s" {
  ruleset necromunda
  decide by policy
  side A {
    unit a1 status out_of_action
  }
  side B {
    unit b1 status out_of_action
  }
  round 1 {
    roll A 4, B 2
    expect ready a1
  }
}
`
	f := oneFailure(t, src)
	want := "  []string{\n- \t\"a1\",\n  }\n"
	if diff := cmp.Diff(want, f.Diff); diff != "" {
		t.Errorf("the failure's diff (-want +got):\n%s", diff)
	}
}

// An answer the decision does not offer is reported at the line that
// scripted it, not where the round happened to be played.
func TestRefusedAnswerAtItsLine(t *testing.T) {
	src := `scenario "s" {
  ruleset mesbg
  round 1 {
    roll Jay 4, Rob 2
    Rob chooses Rob
    Jay chooses before
    expect holder Jay
  }
}
`
	f := oneFailure(t, src)
	if want := `answer "before" is not valid (options: Jay, Rob)`; f.Pos.Line != 6 || !strings.Contains(f.Diff, want) {
		t.Errorf("failure at line %d: %s\nwant line 6: %s", f.Pos.Line, f.Diff, want)
	}
}

// A scripted activation of a unit the side cannot activate says why, as
// turnorder play does, naming the reason: the unit is another side's, or
// has activated this round.
func TestRefusedUnitSaysWhy(t *testing.T) {
	for _, tt := range []struct {
		name, script, want string
	}{
		{"another side's unit", "Goliaths chooses Mira",
			`answer "Mira" is not valid (options: Krug, Grath, Volk): Mira is Eschers' unit, and Goliaths activates one of its own ready units`},
		{"a unit that has activated", "Goliaths chooses Krug\n    Eschers chooses Mira\n    Goliaths chooses Krug",
			`answer "Krug" is not valid (options: Grath, Volk): Krug has activated this round`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(`scenario "s" {
  ruleset necromunda
  side Goliaths {
    unit Krug
    unit Grath
    unit Volk
  }
  side Eschers {
    unit Mira
    unit Sable
  }
  round 1 {
    roll Goliaths 5, Eschers 2
    SCRIPT
    expect holder Goliaths
  }
}
`, "SCRIPT", tt.script, 1)
			f := oneFailure(t, src)
			if !strings.Contains(f.Diff, tt.want) {
				t.Errorf("failure: %s\nwant: %s", f.Diff, tt.want)
			}
		})
	}
}

// An event that did not happen is said in words, with the round's events
// of its kind, not labelled as a diff.
func TestEventFailureInWords(t *testing.T) {
	src := `scenario "s" {
  ruleset mesbg
  round 1 {
    roll Jay 4, Rob 2
    Jay chooses Jay
    expect event roll Jay 5
  }
}
`
	f := oneFailure(t, src)
	want := "s.rules:6:12: round 1: expected event roll Jay 5, but the round's roll events are:\n    Jay rolls 4 for priority\n    Rob rolls 2 for priority"
	if diff := cmp.Diff(want, f.String()); diff != "" {
		t.Errorf("failure (-want +got):\n%s", diff)
	}
}

// An `award not` names the one it puts last; the event is the award of the
// other, and its line says so. A line that named only the one put last
// ("the others go before Jay") read as the award that `expect event award
// Jay` wanted.
func TestAwardNotFailureNamesTheAwarded(t *testing.T) {
	src := `scenario "s" {
  ruleset mesbg
  round 1 {
    roll Jay 4, Rob 2
    Jay chooses Jay
  }
  round 2 {
    roll Jay 3, Rob 3
    Rob chooses Rob
    expect event award Jay
  }
}
`
	f := oneFailure(t, src)
	want := "s.rules:10:12: round 2: expected event award Jay, but the round's award events are:\n    Rob goes before Jay (award not previous.chooser)"
	if diff := cmp.Diff(want, f.String()); diff != "" {
		t.Errorf("failure (-want +got):\n%s", diff)
	}
}

// awardNotOfThree is a scenario in which A, B and C tie in round 2 and
// `award not previous.holder` names A, round 1's holder; %s is the round's
// expectation.
const awardNotOfThree = `ruleset r {
  phase p {
    order sides as priority {
      highest roll d6
      tie when round == 1: reroll
      tie: award not previous.holder
    }
  }
}

scenario "s" {
  ruleset r
  side A
  side B
  side C
  round 1 {
    roll A 6, B 3, C 2
  }
  round 2 {
    roll A 5, B 5, C 5
    %s
  }
}
`

// Of three or more tied, an `award not` places the others before the one
// it names, and its line names them all: "the others go before A" read as
// the award of A, as above.
func TestAwardNotOfThreeNamesTheOthers(t *testing.T) {
	f := oneFailure(t, fmt.Sprintf(awardNotOfThree, "expect event award A"))
	want := "s.rules:21:12: round 2: expected event award A, but the round's award events are:\n    B and C go before A (award not previous.holder)"
	if diff := cmp.Diff(want, f.String()); diff != "" {
		t.Errorf("failure (-want +got):\n%s", diff)
	}
}

// Of three or more tied, `award not` puts all the others before the one it
// names, and its line names them all ("B and C go before A"):
// `expect event award` matches each of them, as the line reads, and not
// the one put last.
func TestExpectAwardNotOfThree(t *testing.T) {
	for _, tt := range []struct {
		expect string
		pass   bool
	}{
		{"expect event award B", true},
		{"expect event award C", true}, // "B and C go before A"
		{"expect event award B C", true},
		{"expect event award A", false}, // A goes last
		{"expect no event award C", false},
		{"expect no event award A", true},
	} {
		t.Run(tt.expect, func(t *testing.T) {
			expectPasses(t, fmt.Sprintf(awardNotOfThree, tt.expect), tt.pass)
		})
	}
}

// `expect standing NAME: ...` checks an order other than the main one.
func TestExpectStanding(t *testing.T) {
	const src = `ruleset two {
  sides 2
  side attribute bid int
  phase p each round {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
    order sides as bidding {
      lowest bid
    }
  }
  example {
    side A bid = 3
    side B bid = 1
  }
}

scenario "s" {
  ruleset two
  round 1 {
    roll A 4, B 2
    expect order A, B
    expect standing bidding: %s
  }
}
`
	results, err := conformance.RunSource(context.Background(), "s.rules", []byte(fmt.Sprintf(src, "B, A")), conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || !results[0].Passed() {
		t.Fatalf("expect standing bidding: B, A: %+v, want a pass", results)
	}
	f := oneFailure(t, fmt.Sprintf(src, "A, B"))
	if f.Field != "standing bidding" || f.Pos.Line != 24 {
		t.Errorf("expect standing bidding: A, B: failure %s at line %d, want standing bidding at line 24", f.Field, f.Pos.Line)
	}
}
