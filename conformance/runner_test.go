package conformance_test

// The suite has teeth: change one rule of a bundled ruleset and at least one
// scenario must fail. Each mutant below is what a careless edit (or a
// runtime bug) could do to a rule; the scenarios that catch it are logged.

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
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// mutant compiles a bundled ruleset with old replaced by new (old must
// occur exactly once).
func mutant(t *testing.T, name, old, new string) *runtime.Program {
	t.Helper()
	filename, src, err := rulesets.Source(name)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(src), old); n != 1 {
		t.Fatalf("%s: %q occurs %d times; the mutation needs it exactly once", filename, old, n)
	}
	text := strings.Replace(string(src), old, new, 1)
	f, diags := dsl.Parse(filename, []byte(text))
	if diags.HasErrors() {
		t.Fatalf("the mutant does not parse:\n%s", diags.Render(text))
	}
	p, err := runtime.Compile(f)
	if err != nil {
		t.Fatalf("the mutant does not compile: %v", err)
	}
	return p
}

// runWith runs the bundled suite with one ruleset replaced.
func runWith(t *testing.T, name string, p *runtime.Program) []conformance.Result {
	t.Helper()
	load := func(n, from string) (*runtime.Program, error) {
		if n == name {
			return p, nil
		}
		return conformance.Load(n, from)
	}
	results, err := conformance.RunFS(context.Background(), conformance.Suite(), conformance.Options{Load: load})
	if err != nil {
		t.Fatal(err)
	}
	return results
}

func TestTeeth(t *testing.T) {
	mutations := []struct {
		ruleset, old, new string
		why               string
	}{
		{"mesbg", "tie: award not previous.chooser", "tie: reroll", "later ties are rerolled instead of going to the player who did not choose"},
		{"mesbg", "award not previous.chooser", "award previous.chooser", "later ties go to last turn's chooser"},
		{"mesbg", "tie when round == 1: reroll", "tie when round == 0: reroll", "a first-turn tie is not rerolled"},
		{"mesbg", "highest roll d6", "lowest roll d6", "the lower roll wins the roll-off"},
		{"mesbg", "choice first by winner", "choice first by loser", "the loser of the roll-off chooses"},

		{"necromunda", "award not previous.holder", "award previous.holder", "on a tie the holder keeps Priority"},
		{"necromunda", "len(sides) == 2 and round == 1: reroll", "len(sides) == 2 and round == 0: reroll", "a tied first roll is not rolled again"},
		{"necromunda", "tie: reroll", "tie: random", "multi-player ties are randomised instead of re-rolled"},
		{"necromunda", "highest roll d6", "lowest roll d6", "the lowest roll takes Priority"},
		{"necromunda", "unless out_of_action or seriously_injured or not_on_battlefield", "unless out_of_action or seriously_injured", "models off the battlefield get Ready markers"},
		{"necromunda", "activation alternate by priority", "activation sequential by priority", "a gang activates all its models in one go"},

		{"agi", "highest agi", "lowest agi", "the lowest AGI goes first"},
		{"agi", "turn_order until changed agi {", "turn_order each round {", "the card is rolled for again every round"},
		{"agi", "tie when same_team(tied)", "tie when !same_team(tied)", "teammates roll instead of choosing"},
		{"agi", "tie when len(tied) == 2 {", "tie when len(tied) >= 2 {", "three tied players get a before/after choice"},
		{"agi", "choice before_after by winner", "choice before_after by loser", "the loser of the AGI roll chooses"},

		{"morturi", "lowest count(units)", "highest count(units)", "the school with more gladiators goes first"},
		{"morturi", "lowest sum(units, .movement)", "highest sum(units, .movement)", "the faster school goes first"},
		{"morturi", "phase priority once", "phase priority each round", "the priority order is worked out again every battle round"},
		{"morturi", "activation alternate by priority", "activation sequential by priority", "a school activates all its gladiators in one go"},
		{"morturi", "activation alternate by priority", "activation alternate by priority pass allowed", "a school may pass while it still has gladiators to activate"},
	}
	covered := map[string]bool{}
	for _, m := range mutations {
		covered[m.ruleset] = true
		t.Run(fmt.Sprintf("%s: %s -> %s", m.ruleset, m.old, m.new), func(t *testing.T) {
			results := runWith(t, m.ruleset, mutant(t, m.ruleset, m.old, m.new))
			var failed []string
			for _, r := range results {
				if !r.Passed() {
					failed = append(failed, r.Title)
				}
			}
			if len(failed) == 0 {
				t.Fatalf("no scenario fails when %s (%q -> %q): the suite has no teeth there", m.why, m.old, m.new)
			}
			t.Logf("%d scenario(s) fail when %s: %s", len(failed), m.why, strings.Join(failed, "; "))
		})
	}
	for _, name := range rulesets.Names() {
		if !covered[name] {
			t.Errorf("no mutation of the bundled ruleset %s", name)
		}
	}
}

// The unmutated suite passes, with the same Load hook the mutants use: a
// failing mutant is the mutation's doing.
func TestTeethBaseline(t *testing.T) {
	for _, name := range rulesets.Names() {
		p, err := conformance.Load(name, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runWith(t, name, p) {
			if !r.Passed() {
				t.Errorf("%s: %s fails unmutated: %v", name, r.Title, r.Failures)
			}
		}
	}
}

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

// Lint finds every mistake of every scenario in a file, without playing.
func TestLint(t *testing.T) {
	src := `scenario "one" {
  ruleset mesbg
  round 1 {
    roll Jay 4, Zed 3
    expect event rolls Jay
  }
}
scenario "two" {
  ruleset nosuch
}
scenario "three" {
  ruleset mesbg
  round 1 {
    roll Jay 6, Rob 1
    Jay chooses Jay
    expect holder Jay
  }
}
scenario "a refusal expected" {
  ruleset morturi
  round 1 {
    expect error "no unit is called Zed"
    remove Zed
  }
}
scenario "dead rounds" {
  ruleset morturi
  round 1 {
    activate 0
    expect activations none
  }
  round 2 {
    expect error "no unit is called Zed"
    remove Zed
  }
  round 3 {
    activate
  }
}
scenario "three sides" {
  ruleset mesbg
  side A
  side B
  side C
}
ruleset broken "B" {
  sides 2
  phase p { order sides as o { highest agl } }
}
scenario "uses it" {
  ruleset broken
}
`
	got := lint(t, src, 40)
	want := []string{
		"4:17 round 1: roll Zed: no side or unit is ca",
		"5:18 round 1: expect event rolls: there is no",
		"9:11 no bundled ruleset \"nosuch\" (bundled: ag",
		"29:5 round 1: activate 0 plays nothing: the c",
		"36:3 round 3 is never played: round 2 ends th",
		"42:3 ruleset mesbg needs 2 sides, got 3",
		"51:11 ruleset broken does not compile: s.rules",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lint (-want +got):\n%s", diff)
	}
}

// Mistakes in a scenario that check finds without playing it, each with
// where it is reported.
func TestLintMistakes(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      []string
	}{
		// `by NAME` on a kind of event that names no one by it (a roll, a tie, the
		// holder) can never match: `expect no event roll Jay 4 by Rob` would pass
		// whatever the round rolled, so it is a mistake in the scenario.
		{"ByOnKindWithoutBy", `scenario "s" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 3
    Jay chooses Jay
    expect no event roll Jay 4 by Rob
    expect event holder Jay by Jay
    expect event decision Jay by Jay
    expect event placement Jay 1 by Jay
  }
}
`, []string{
			"8:35 round 1: expect no event roll Jay 4 by Rob: a roll event names no one by `by` (only decision, placement, ready, not_ready, removed, activate, pass do); drop `by Rob`",
			"9:32 round 1: expect event holder Jay by Jay: a holder event names no one by `by` (only decision, placement, ready, not_ready, removed, activate, pass do); drop `by Jay`",
		}},
		// Only rolls (a value, a total) and placements (a place) hold numbers: a
		// number on any other kind of event can never match, so `expect no event
		// set Bran 5` would pass whatever was set.
		{"NumberOnKindWithoutNumbers", `scenario "s" {
  ruleset agi
  side A team Red { unit Aria agi = 5 }
  side B team Blue { unit Bran agi = 3 }
  round 1 {
    set agi of Bran = 4
    expect no event set Bran 4
    expect event decision 1
    expect event roll 6
    expect no event placement Aria 2
  }
}
`, []string{
			"7:30 round 1: expect no event set Bran 4: a set event holds no number (only roll and placement events do)",
			"8:27 round 1: expect event decision 1: a decision event holds no number (only roll and placement events do)",
		}},
		// before, after and pass are a decision's answers: no other kind of event
		// holds them (a pass event names the side that passed).
		{"AnswerOnKindWithoutAnswers", `scenario "s" {
  ruleset morturi
  decide by policy
  side A { unit a }
  side B { unit b * 2 }
  round 1 {
    activate 4
    expect no event placement before
    expect event pass pass
    expect no event decision pass
    expect event pass A
  }
}
`, []string{
			"8:31 round 1: expect no event placement before: only a decision event holds before, after or pass",
			"9:23 round 1: expect event pass pass: only a decision event holds before, after or pass",
		}},
		// A name no event can mention is reported at the name, not at the
		// statement: an expectation may have several.
		{"UnknownEventArgAtTheArg", `scenario "s" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 3
    Jay chooses Jay
    expect event placement priority Jya 1
    expect no event roll "Rob " Jay
  }
}
`, []string{
			"8:37 round 1: expect event placement priority Jya 1: no side, unit, team, order or hook point is called Jya (sides Jay, Rob; orders priority; hook points priority, start, Roll For Priority, end; or a number, before, after or pass)",
			"9:26 round 1: expect no event roll Rob  Jay: no side, unit, team, order or hook point is called Rob  (sides Jay, Rob; orders priority; hook points priority, start, Roll For Priority, end; or a number, before, after or pass)",
		}},
		// Only a placement has a value (`= V`), and not one someone chose:
		// `expect no event roll Jay = 4` or `... by Jay` would pass whatever
		// the round did.
		{"ValueOnKindWithoutValue", `scenario "s" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 3
    Jay chooses Jay
    expect no event roll Jay = 4
    expect no event placement Jay = 1 by Jay
    expect no event placement Jay 1 = 4
  }
}
`, []string{
			"8:30 round 1: expect no event roll Jay = 4: only a placement event has a value after `=`, the number its criterion placed the subject by",
			"9:35 round 1: expect no event placement Jay = 1 by Jay: a placement someone chose was placed by no value: drop `= 1`, or `by Jay`",
		}},
		// An unknown kind is reported at the kind, as a wrong argument is
		// at the argument, not at the word event.
		{"UnknownKindAtTheKind", `scenario "s" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 3
    Jay chooses Jay
    expect event bogus Jay
    expect no event holders Rob
  }
}
`, []string{
			"8:18 round 1: expect event bogus: there is no such kind of event (kinds: round_start, round_end, hook, roll, tie, reroll, award, random, decision, placement, kept, holder, set, ready, not_ready, removed, activate, pass)",
			"9:21 round 1: expect no event holders: there is no such kind of event (did you mean holder?) (kinds: round_start, round_end, hook, roll, tie, reroll, award, random, decision, placement, kept, holder, set, ready, not_ready, removed, activate, pass)",
		}},
		// A random pick names a side or a unit, as a roll does: a typo is found by
		// check, not only when the round is played.
		{"RandomPickNames", `scenario "s" {
  ruleset morturi
  decide by policy
  side A { unit a }
  side B { unit b }
  round 1 {
    random Bb
  }
}
`, []string{
			"7:5 round 1: random Bb: no side is called Bb (sides A, B; units a, b)",
		}},
		// A pick of the wrong kind, a side where only units are drawn or a
		// unit where only sides are, would fail only in play.
		{"RandomPickKinds", `ruleset bag {
  sides 2
  phase p each round {
    order units as bag {
      random
    }
  }
}

scenario "bag" {
  ruleset bag
  side A { unit a }
  side B { unit b }
  round 1 {
    random A, b
  }
}

scenario "morturi" {
  ruleset morturi
  decide by policy
  side A { unit a }
  side B { unit b }
  round 1 {
    random a
  }
}
`, []string{
			"15:5 round 1: random A: A is a side, but the ruleset draws only units at random",
			"25:5 round 1: random a: a is a unit, but the ruleset draws only sides at random",
		}},
		// `activation draw` draws sides from its bag as a random criterion
		// does: with a random order of units as well, a pick may name either.
		{"RandomPickKindsDraw", `ruleset bag {
  sides 2
  phase p each round {
    order sides as muster {
      highest count(units)
      tie: award tied[0].name
    }
    order units as card {
      random
    }
  }
  activation draw by muster
}

scenario "bag" {
  ruleset bag
  side A { unit a }
  side B { unit b }
  round 1 {
    random a, B, Bb
  }
}
`, []string{
			"20:5 round 1: random Bb: no side or unit is called Bb (sides A, B; units a, b)",
		}},
		// A side's attribute set of a unit, or a unit's of a side, says where
		// to set it; a side's name where only a unit can be named says so.
		{"OtherKinds", `ruleset r {
  sides 2
  side attribute morale int
  unit attribute agi int
  unit status pinned
  phase p { order sides as o { highest morale; random } }
}
scenario "s" {
  ruleset r
  side A { unit a1; unit a2 }
  side B { unit b1 }
  round 1 {
    set morale of a1 = 3
    set agi of B = 3
    A is pinned
    remove B
  }
}
`, []string{
			"13:5 round 1: set morale of a1: a1 is a unit, and morale is a side attribute: set it of its side (A)",
			"14:5 round 1: set agi of B: B is a side, and agi is a unit attribute: set it of one of its units (b1)",
			"15:5 round 1: status A: A is a side, and only a unit can be named here (its units: a1, a2)",
			"16:5 round 1: remove B: B is a side, and only a unit can be named here (its units: b1)",
		}},
		// A side's name among the activations is most often a pass without
		// its `pass`.
		{"ActivationsSide", `scenario "s" {
  ruleset morturi
  decide by policy
  side Big { unit b * 2 }
  side Small { unit s }
  round 1 {
    expect activations s, b1, Small, b2
  }
}
`, []string{
			"7:31 round 1: expect activations Small: Small is a side: to say that it passes, write `pass Small`; to say it activates, name the unit (s)",
		}},
		// The main standing orders units or sides, never both: a side's name
		// where the AGI card orders units, or a unit's where Necromunda orders
		// gangs, would only fail in play, with a diff.
		{"MainStandingKind", `scenario "agi" {
  ruleset agi
  side A team Red { unit Aria agi = 5; unit Ash agi = 1 }
  side B team Blue { unit Bran agi = 5 }
  round 1 {
    roll Aria 4, Bran 2
    A chooses before
    expect order A, Bran, Ash
    expect holder Aria
  }
}

scenario "necromunda" {
  ruleset necromunda
  decide by policy
  side G { unit Krug }
  side E { unit Mira }
  round 1 {
    roll G 4, E 2
    expect holder Krug
    expect order G, E
  }
}
`, []string{
			"8:18 round 1: expect order A: A is a side, but the ruleset puts units in order: name its units (Aria, Ash)",
			"20:19 round 1: expect holder Krug: Krug is a unit, but the ruleset puts sides in order: name its side (G)",
		}},
		// A round ends after the last statement of its block, so no expectation
		// in the block sees its round_end event: `expect event round_end` would
		// always fail and `expect no event round_end` always pass.
		{"RoundEndIsNeverSeen", `scenario "s" {
  ruleset mesbg
  decide by policy
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 2
    expect event round_start
    expect event round_end
  }
  round 2 {
    roll Jay 4, Rob 2
    expect no event round_end
  }
}
`, []string{
			"9:12 round 1: expect event round_end: the round ends after the last statement of its block, so no expectation in it sees its round_end event",
			"13:12 round 2: expect no event round_end: the round ends after the last statement of its block, so no expectation in it sees its round_end event",
		}},
		// Activations are played at `activate` or `expect activations`: an
		// expectation of an activate or pass event above both sees none, so
		// `expect no event pass Small` there passed whatever the round did.
		{"ActivationEventsBeforeActivations", `scenario "s" {
  ruleset morturi
  decide by policy
  side Big { unit b * 2 }
  side Small { unit s }
  round 1 {
    expect no event pass Small
    expect event activate s
    activate
    expect event activate s
    expect no event pass Small
  }
  round 2 {
    expect no event activate b1 by Big
    expect activations s, b1, pass Small, b2
    expect event pass Small
  }
}
`, []string{
			"7:12 round 1: expect no event pass Small: the round's activations are played at `activate` or `expect activations` (or at the end of its block), and none is above this line, so it sees no pass event yet",
			"8:12 round 1: expect event activate s: the round's activations are played at `activate` or `expect activations` (or at the end of its block), and none is above this line, so it sees no activate event yet",
			"14:12 round 2: expect no event activate b1: the round's activations are played at `activate` or `expect activations` (or at the end of its block), and none is above this line, so it sees no activate event yet",
		}},
		// A scenario names one ruleset and one seed: a second one, which used to
		// win silently, is a mistake (two rulesets pasted together, a seed
		// changed in one place only), and so is a scenario with no round, which
		// plays nothing and so passes whatever the ruleset does.
		{"ScenarioSetupOnce", `scenario "two rulesets" {
  ruleset necromunda
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 2
    Jay chooses Jay
  }
}
scenario "two seeds" {
  ruleset mesbg
  seed 1
  seed 2
  decide by policy
  round 1 { }
}
scenario "no rounds" {
  ruleset mesbg
}
`, []string{
			"3:3 scenario \"two rulesets\" names a second ruleset (the first at line 2): keep one `ruleset` statement",
			"14:3 scenario \"two seeds\" has a second seed (the first at line 13): keep one `seed` statement",
			"18:1 scenario \"no rounds\" has no round, so it checks nothing: add `round 1 { ... }`",
		}},
		// A `set` whose value is not of the attribute's type is found by check,
		// as a setup's `unit Aria agi = fast` is, not only when the round
		// plays, and said as it is: at the value, in SetAttr's words.
		{"SetValueType", `ruleset flags "F" {
  sides 2
  unit attribute agi int
  unit attribute hidden bool = false
  unit attribute title string = "none"
  phase p { order units as o { highest agi } }
}
scenario "s" {
  ruleset flags
  side A { unit Aria agi = 5 }
  side B { unit Bran agi = 3 }
  round 1 {
    set agi of Aria = fast
    set agi of Aria = -2
    set hidden of Bran = 1
    set hidden of Bran = true
    set title of Bran = 7
    expect order Aria, Bran
  }
}
`, []string{
			// In SetAttr's words, at the value, as a setup's wrong value
			// is reported (and as test reports it).
			"13:23 round 1: set agi of Aria: want a whole number, got fast",
			"15:26 round 1: set hidden of Bran: want true or false, got 1",
			"17:25 round 1: set title of Bran: want a string (in quotes, or a word), got 7: a number for a string attribute must be quoted, \"7\"",
		}},
		// `check` finds a scenario's `set` of an attribute, and its `NAME is
		// STATUS` of a status, that the ruleset does not declare, as `test`
		// does when it plays the round: a scenario `check` calls ok must not then
		// fail `test` over a name.
		{"UndeclaredAttrAndStatus", `scenario "s" {
  ruleset necromunda
  round 1 {
    Krug is pinnned
    set agi of Krug = 3
    set agi of Goliaths = 3
    Krug is out_of_action
    Krug is not out_of_action
    roll Goliaths 3, Eschers 2
  }
}
scenario "agi" {
  ruleset agi
  round 1 {
    set agi of Aria = 6
    set agi of A = 6
    expect order Aria, Bran, Cole
  }
}
`, []string{
			"4:5 round 1: status pinnned: unknown status (declared: out_of_action, seriously_injured, not_on_battlefield)",
			"5:5 round 1: set agi of Krug: Krug has no attribute agi (declared: none)",
			"6:5 round 1: set agi of Goliaths: Goliaths has no attribute agi (declared: none)",
			"16:5 round 1: set agi of A: A is a side, and agi is a unit attribute: set it of one of its units (Aria)",
		}},
		// `check` finds a scripted answer that can never be an option: not a
		// side or a unit, nor before, after or pass. `test` would fail the round
		// with "answer ... is not valid", far below the typo.
		{"ChoiceOptions", `scenario "s" {
  ruleset mesbg
  round 1 {
    roll Jay 4, Rob 2
    Jay chooses Jya
    expect holder Jay
  }
}
scenario "fine" {
  ruleset agi
  round 1 {
    roll Aria 2, Bran 5
    B chooses after
    expect order Aria, Bran, Cole
  }
}
scenario "pass" {
  ruleset morturi
  round 1 {
    "Malleus Deus" chooses pass
    expect error "may not pass"
  }
}
`, []string{
			"5:5 round 1: Jay chooses Jya: no side or unit is called Jya, and it is not before, after or pass; did you mean Jay? (sides Jay, Rob)",
		}},
		// Sides and teams decide, also for their units: a script given to a
		// unit would never be asked for.
		{"UnitChooses", `scenario "s" {
  ruleset agi
  side A team Red {
    unit Aria agi = 5
  }
  side B team Blue {
    unit Bran agi = 5
  }
  round 1 {
    roll Aria 5, Bran 2
    Aria chooses after
  }
}
`, []string{
			"11:5 round 1: Aria chooses: Aria is a unit, and its side decides for it: write `A chooses ...`",
		}},
		// `expect standing` names an order of the ruleset, and sides or units.
		{"StandingNames", `scenario "s" {
  ruleset mesbg
  round 1 {
    roll Jay 4, Rob 2
    Jay chooses Jay
    expect standing priorty: Jay, Rob
    expect standing priority: Jay, Bob
  }
}
`, []string{
			"6:12 round 1: expect standing priorty: the ruleset has no order called priorty; did you mean priority? (orders: priority)",
			"7:36 round 1: expect standing priority Bob: no side or unit is called Bob; did you mean Rob? (sides Jay, Rob)",
		}},
		// A name no side or unit has is reported where it is written, quoted
		// or not: in a list, the caret goes under the wrong one.
		{"ExpectedNamesAtTheName", `scenario "s" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 2
    Jay chooses Jay
    expect order Jay, Bob
    expect order "Jya", Rob
    expect holder Jya
    expect chooser  Rbo
    expect ready Zed
    expect event decision Jay by Jya
  }
}
`, []string{
			"8:23 round 1: expect order Bob: no side or unit is called Bob; did you mean Rob? (sides Jay, Rob)",
			"9:18 round 1: expect order Jya: no side or unit is called Jya; did you mean Jay? (sides Jay, Rob)",
			"10:19 round 1: expect holder Jya: no side or unit is called Jya; did you mean Jay? (sides Jay, Rob)",
			"11:21 round 1: expect chooser Rbo: no side, unit or team is called Rbo; did you mean Rob? (sides Jay, Rob)",
			"12:18 round 1: expect ready Zed: no unit is called Zed (sides Jay, Rob)",
			"13:34 round 1: expect event decision by Jya: no side, unit or team is called Jya; did you mean Jay? (sides Jay, Rob)",
		}},
		// A name written in other capitals than the side's (play takes
		// `jay` for Jay) says which name it is.
		{"NamesInOtherCapitals", `scenario "s" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 2
    jay chooses Jay
    Jay chooses rob
    expect holder JAY
  }
}
`, []string{
			"7:5 round 1: chooses jay: no side or team is called jay; did you mean Jay? (sides Jay, Rob)",
			"8:5 round 1: Jay chooses rob: no side or unit is called rob, and it is not before, after or pass; did you mean Rob? (sides Jay, Rob)",
			"9:19 round 1: expect holder JAY: no side or unit is called JAY; did you mean Jay? (sides Jay, Rob)",
		}},
		// A roll no die of the ruleset can show is found without playing:
		// 2D6 totals scripted for a ruleset that rolls a d6 (a house
		// rule's scenario run against the original), or below 2 on 2d6.
		{"ImpossibleRolls", `ruleset two {
  sides 2
  phase p {
    order sides as o {
      highest roll 2D6
      tie: reroll
    }
  }
}

scenario "s" {
  ruleset two
  side Jay
  side Rob
  round 1 {
    roll Jay 12, Rob 1
  }
}

scenario "t" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 11, Rob 6
    Jay chooses Jay
  }
}
`, []string{
			"16:18 round 1: scripted roll 1 for Rob is impossible on 2d6 (2-12)",
			"25:10 round 1: scripted roll 11 for Jay is impossible on d6 (1-6)",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, lint(t, tt.src, 0)); diff != "" {
				t.Errorf("Lint (-want +got):\n%s", diff)
			}
		})
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

// lint returns what Lint finds in the scenarios of src, each as
// "line:col message", the message cut to width characters unless width is 0.
func lint(t *testing.T, src string, width int) []string {
	t.Helper()
	f, diags := dsl.Parse("s.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var got []string
	for _, d := range conformance.Lint(f, conformance.Options{}) {
		msg := d.Message
		if width > 0 && len(msg) > width {
			msg = msg[:width]
		}
		got = append(got, fmt.Sprintf("%d:%d %s", d.Pos.Line, d.Pos.Column, msg))
	}
	return got
}

// check reports a `set` that play would refuse in the words play refuses
// it with (Battle.SetAttr's, by Battle.CheckSetAttr), not words of its
// own: an attribute of the other kind, one nobody has, a number out of
// range.
func TestLintSetInPlaysWords(t *testing.T) {
	const src = `ruleset two {
  sides 2
  side attribute morale int
  unit attribute agi int
  phase p each round {
    order sides as o {
      highest morale
      random
    }
  }
}
scenario "s" {
  ruleset two
  side A { unit a1 }
  side B { unit b1 }
  round 1 {
    set agi of A = 3
    set morale of a1 = 3
    set pluck of b1 = 3
    set morale of B = 9007199254740993
    set agi of a1 = 9007199254740992
    random A
  }
}
`
	f, diags := dsl.Parse("s.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, err := runtime.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.NewBattle([]runtime.SideSpec{{Name: "A", Units: []runtime.UnitSpec{{Name: "a1"}}}, {Name: "B", Units: []runtime.UnitSpec{{Name: "b1"}}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var want []string
	for i, err := range []error{
		b.SetAttr(ctx, "A", "agi", 3),
		b.SetAttr(ctx, "a1", "morale", 3),
		b.SetAttr(ctx, "b1", "pluck", 3),
		b.SetAttr(ctx, "B", "morale", int64(9007199254740993)),
	} {
		if err == nil {
			t.Fatalf("SetAttr %d: no error", i)
		}
		// A value out of range is wrong at the value, as in a setup.
		col := 5
		if i == 3 {
			col = 23
		}
		want = append(want, fmt.Sprintf("%d:%d round 1: %v", 17+i, col, err))
	}
	if diff := cmp.Diff(want, lint(t, src, 0)); diff != "" {
		t.Errorf("Lint (-want +got):\n%s", diff)
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

// oneFailure runs the one scenario of src and returns its one failure.
func oneFailure(t *testing.T, src string) conformance.Failure {
	t.Helper()
	results, err := conformance.RunSource(context.Background(), "s.rules", []byte(src), conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || len(results[0].Failures) != 1 {
		t.Fatalf("results %+v, want one failure", results)
	}
	return results[0].Failures[0]
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
