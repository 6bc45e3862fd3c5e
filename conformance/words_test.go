package conformance_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
)

// Every kind of unmet expectation is said in turnorder's words, with the
// names as a .rules file writes them: what was expected over what the
// round had, a sentence for one name, a diff marked "- " and "+ " for the
// activations, the round's events for an event.
func TestFailureInWords(t *testing.T) {
	const mesbg = "  ruleset mesbg\n  side Jay\n  side Rob\n"
	const schools = "  ruleset morturi\n  decide by policy\n  side \"Ludi Aeternum\" {\n    unit la * 3 movement = 3\n  }\n  side \"Malleus Deus\" {\n    unit md * 2 movement = 5\n  }\n"
	for _, tt := range []struct {
		name, head, round string
		want              string
	}{
		{"order", mesbg, "roll Jay 4, Rob 2\n    Jay chooses Rob\n    expect order Jay, Rob",
			"s.rules:8:5: round 1: expected order Jay, Rob\n" +
				"                      but got        Rob, Jay"},
		{"order with quoted names", schools, "expect order \"Ludi Aeternum\", \"Malleus Deus\"",
			"s.rules:11:5: round 1: expected order \"Ludi Aeternum\", \"Malleus Deus\"\n" +
				"                       but got        \"Malleus Deus\", \"Ludi Aeternum\""},
		{"standing", mesbg, "roll Jay 4, Rob 2\n    Jay chooses Rob\n    expect standing priority: Jay, Rob",
			"s.rules:8:5: round 1: expected standing priority: Jay, Rob\n" +
				"                      but got                     Rob, Jay"},
		{"holder", mesbg, "roll Jay 4, Rob 2\n    Jay chooses Rob\n    expect holder Jay",
			"s.rules:8:5: round 1: expected holder Jay, but Rob holds priority"},
		{"holder with a quoted name", schools, "expect holder \"Ludi Aeternum\"",
			"s.rules:11:5: round 1: expected holder \"Ludi Aeternum\", but \"Malleus Deus\" holds priority"},
		{"chooser", mesbg, "roll Jay 4, Rob 2\n    Jay chooses Rob\n    expect chooser Rob",
			"s.rules:8:5: round 1: expected chooser Rob, but Jay chose"},
		{"chooser, nobody chose", schools, "expect chooser \"Malleus Deus\"",
			"s.rules:11:5: round 1: expected chooser \"Malleus Deus\", but nobody chose"},
		{"chooser none", mesbg, "roll Jay 4, Rob 2\n    Jay chooses Rob\n    expect chooser none",
			"s.rules:8:5: round 1: expected chooser none, but Jay chose"},
		{"ready", schools, "activate\n    expect ready la1, la3, md1",
			"s.rules:12:5: round 1: expected ready la1, la3, md1\n" +
				"                       but got        la1, la2, la3, md2\n" +
				"                       la2 and md2 are ready too; md1 is not ready"},
		{"ready none", schools, "expect ready none",
			"s.rules:11:5: round 1: expected ready none\n" +
				"                       but got        la1, la2, la3, md1, md2"},
		{"activations", schools, "expect activations md1, la1, md2, la3, pass \"Malleus Deus\", la2",
			"s.rules:11:5: round 1: activations not as expected (- expected, + got):\n" +
				"    md1\n" +
				"    la1\n" +
				"    md2\n" +
				"  - la3\n" +
				"  + la2\n" +
				"    pass \"Malleus Deus\"\n" +
				"  - la2\n" +
				"  + la3"},
		{"activations none", schools, "expect activations none",
			"s.rules:11:5: round 1: activations not as expected (- expected, + got):\n" +
				"  + md1\n" +
				"  + la1\n" +
				"  + md2\n" +
				"  + la2\n" +
				"  + pass \"Malleus Deus\"\n" +
				"  + la3"},
		{"event", mesbg, "roll Jay 4, Rob 2\n    Jay chooses Rob\n    expect event roll Jay 5",
			"s.rules:8:12: round 1: expected event roll Jay 5, but the round's roll events are:\n" +
				"    Jay rolls 4 for priority\n" +
				"    Rob rolls 2 for priority"},
		{"event of a kind the round has none of", mesbg, "roll Jay 4, Rob 2\n    Jay chooses Rob\n    expect event tie",
			"s.rules:8:12: round 1: expected event tie, but the round has no tie event"},
		{"event with a quoted name", schools, "activate 5\n    expect event pass \"Malleus Deus\" by \"Ludi Aeternum\"",
			"s.rules:12:12: round 1: expected event pass \"Malleus Deus\" by \"Ludi Aeternum\", but the round's pass events are:\n" +
				"    Malleus Deus passes (no ready unit)"},
		{"no event", mesbg, "roll Jay 4, Rob 2\n    Jay chooses Rob\n    expect no event roll Jay",
			"s.rules:8:12: round 1: expected no event roll Jay, but the round has:\n" +
				"    Jay rolls 4 for priority"},
		{"another error", mesbg, "roll Jay 4, Rob 2\n    expect error \"may not pass\"",
			"s.rules:8:3: round 1: expected an error matching \"may not pass\", but the round failed with another: order priority: unscripted decision: Jay chooses who goes first among Jay, Rob (script it with `Jay chooses ...`)"},
		{"no error", mesbg, "roll Jay 4, Rob 2\n    Jay chooses Rob\n    expect error \"may not pass\"",
			"s.rules:8:5: round 1: expected an error matching \"may not pass\", but the round went on without one"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := "scenario \"s\" {\n" + tt.head + "  round 1 {\n    " + tt.round + "\n  }\n}\n"
			f := oneFailure(t, src)
			if diff := cmp.Diff(tt.want, f.String()); diff != "" {
				t.Errorf("String() (-want +got):\n%s", diff)
			}
			// Message is the same words without the position, the lines
			// that continue the first aligned under its words.
			loc := "s.rules:" + strings.SplitN(tt.want, ":", 4)[1] + ":" + strings.SplitN(tt.want, ":", 4)[2] + ": "
			var want []string
			for i, line := range strings.Split(tt.want, "\n") {
				if i == 0 {
					want = append(want, strings.TrimPrefix(line, loc))
				} else if strings.HasPrefix(line, strings.Repeat(" ", len(loc))) {
					want = append(want, line[len(loc):])
				} else {
					want = append(want, line)
				}
			}
			if diff := cmp.Diff(strings.Join(want, "\n"), f.Message()); diff != "" {
				t.Errorf("Message() (-want +got):\n%s", diff)
			}
		})
	}
}

// A long list of activations shows the turns around each difference, and
// says how many turns as expected it leaves out. Of the diffs as short,
// the one that keeps the most turns in their places is shown: two turns
// swapped (la2 and la3 in TestFailureInWords) read as two turns replaced,
// not as one moved.
func TestActivationsDiffCutShort(t *testing.T) {
	src := `scenario "s" {
  ruleset morturi
  decide by policy
  side "Ludi Aeternum" {
    unit la * 10 movement = 3
  }
  side "Malleus Deus" {
    unit md * 10 movement = 5
  }
  round 1 {
    expect activations la1, md1, la2, md2, la3, md3, la4, md4, la5, md5, md6, la6, la7, md7, la8, md8, la9, md9, la10, md10
  }
}
`
	f := oneFailure(t, src)
	want := "s.rules:11:5: round 1: activations not as expected (- expected, + got):\n" +
		"    ... 7 turns as expected\n" +
		"    md4\n" +
		"    la5\n" +
		"    md5\n" +
		"  - md6\n" +
		"    la6\n" +
		"  + md6\n" +
		"    la7\n" +
		"    md7\n" +
		"    la8\n" +
		"    ... 5 turns as expected"
	if diff := cmp.Diff(want, f.String()); diff != "" {
		t.Errorf("String() (-want +got):\n%s", diff)
	}
}

// A Failure made by hand, by a host that runs its own checks, is worded
// from its Want and Got as Run words its own.
func TestFailureInWordsFromWantGot(t *testing.T) {
	pos := dsl.Pos{Filename: "s.rules", Line: 3, Column: 5}
	for _, tt := range []struct {
		f    conformance.Failure
		want string
	}{
		{conformance.Failure{Round: 2, Field: "order", Pos: pos, Want: []string{"Jay", "Legio Mortis"}, Got: []string{"Legio Mortis", "Jay"}},
			"s.rules:3:5: round 2: expected order Jay, \"Legio Mortis\"\n" +
				"                      but got        \"Legio Mortis\", Jay"},
		{conformance.Failure{Round: 2, Field: "standing bidding", Pos: pos, Want: []string{"Jay"}, Got: []string{}},
			"s.rules:3:5: round 2: expected standing bidding: Jay\n" +
				"                      but got                    none"},
		{conformance.Failure{Round: 1, Field: "chooser", Pos: pos, Want: nil, Got: "Jay"},
			"s.rules:3:5: round 1: expected chooser none, but Jay chose"},
		{conformance.Failure{Round: 1, Field: "holder", Pos: pos, Want: "Jay", Got: "Rob"},
			"s.rules:3:5: round 1: expected holder Jay, but Rob holds priority"},
		{conformance.Failure{Round: 1, Field: "ready", Pos: pos, Want: []string{"a1"}, Got: []string{"a1", "b1"}},
			"s.rules:3:5: round 1: expected ready a1\n" +
				"                      but got        a1, b1\n" +
				"                      b1 is ready too"},
		{conformance.Failure{Round: 1, Field: "activations", Pos: pos, Want: []string{"a1", "pass Red Team"}, Got: []string{"a1", "b1"}},
			"s.rules:3:5: round 1: activations not as expected (- expected, + got):\n" +
				"    a1\n" +
				"  - pass \"Red Team\"\n" +
				"  + b1"},
		{conformance.Failure{Round: 1, Field: "event", Pos: pos, Want: "no roll Jay", Got: []string{"Jay rolls 4 for priority"}},
			"s.rules:3:5: round 1: expected no event roll Jay, but the round has:\n" +
				"    Jay rolls 4 for priority"},
		{conformance.Failure{Round: 1, Field: "event", Pos: pos, Want: "tie", Got: []string{}},
			"s.rules:3:5: round 1: expected event tie, but the round has no tie event"},
	} {
		if diff := cmp.Diff(tt.want, tt.f.String()); diff != "" {
			t.Errorf("String() (-want +got):\n%s", diff)
		}
	}
}

// The activations of one phase's loop that do not match are said as the
// round's are, naming the phase.
func TestPhaseActivationsInWords(t *testing.T) {
	src := `ruleset two_phases {
  phase Move {
    activation alternate
  }
  phase Fight {
    activation alternate
  }
}
scenario "s" {
  ruleset two_phases
  side Jay {
    unit j1
  }
  side Rob {
    unit r1
  }
  round 1 {
    expect activations in Move: j1, r1
    expect activations in Fight: r1, j1
  }
}
`
	want := "s.rules:19:5: round 1: activations in Fight not as expected (- expected, + got):\n" +
		"  - r1\n" +
		"    j1\n" +
		"  + r1"
	if diff := cmp.Diff(want, oneFailure(t, src).String()); diff != "" {
		t.Errorf("String() (-want +got):\n%s", diff)
	}
}
