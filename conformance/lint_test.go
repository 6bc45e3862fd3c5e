package conformance_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

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
		"9:11 unknown ruleset \"nosuch\": the bundled ru",
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
		// A phase with no activation loop of its own, and a holder of
		// none where a side always holds priority, can never be met.
		{"PhaseLoopsAndHolderNone", `scenario "s" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 3
    Jay chooses Jay
    expect activations in priority: pass Jay
    expect holder none
  }
}
`, []string{
			"8:27 round 1: expect activations in priority: no phase or step of ruleset mesbg called priority has an activation loop (none)",
			"9:19 round 1: expect holder none: ruleset mesbg orders sides, and a side holds priority every round",
		}},
		// A draw or a reshuffle expected of a ruleset with no deck or bag:
		// `expect no event draw` would pass whatever the round did.
		{"DrawWithoutDeck", `scenario "s" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay 4, Rob 3
    Jay chooses Jay
    expect no event draw Jay
    expect event reshuffle
  }
}
`, []string{
			"8:21 round 1: expect no event draw Jay: ruleset mesbg has no deck or bag, so it never has a draw event",
			"9:18 round 1: expect event reshuffle: ruleset mesbg has no deck or bag, so it never has a reshuffle event",
		}},
		// A phase's name mistyped: the phases with a loop, and the one meant.
		{"PhaseLoopMistyped", `ruleset two {
  sides 2
  phase Activation {
    activation alternate
  }
}

scenario "s" {
  ruleset two
  side Jay { unit j }
  side Rob { unit r }
  round 1 {
    expect activations in Activaton: j, r
  }
}
`, []string{
			"13:27 round 1: expect activations in Activaton: no phase or step of ruleset two called Activaton has an activation loop (Activation); did you mean Activation?",
		}},
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
			"8:35 round 1: expect no event roll Jay 4 by Rob: a roll event names no one by `by` (only decision, placement, ready, not_ready, removed, added, activate, pass do); drop `by Rob`",
			"9:32 round 1: expect event holder Jay by Jay: a holder event names no one by `by` (only decision, placement, ready, not_ready, removed, added, activate, pass do); drop `by Jay`",
		}},
		// A card drawn where the ruleset has no deck, and a named face where
		// it has no die of named faces: nothing can ever use them.
		{"DrawWithoutADeck", `scenario "s" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    draw Jay 4
    roll Rob crown
    Jay chooses Jay
  }
}
`, []string{
			"6:10 round 1: draw Jay 4: ruleset mesbg has no deck or bag",
			"7:10 round 1: roll Rob crown: ruleset mesbg has no die of named faces",
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
			"7:30 round 1: expect no event set Bran 4: a set event holds no number (only roll, placement, draw and reshuffle events do)",
			"8:27 round 1: expect event decision 1: a decision event holds no number (only roll, placement, draw and reshuffle events do)",
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
			"8:18 round 1: expect event bogus: there is no such kind of event (kinds: round_start, round_end, hook, roll, tie, reroll, award, random, decision, placement, kept, holder, set, ready, not_ready, removed, added, activate, pass, first, draw, reshuffle)",
			"9:21 round 1: expect no event holders: there is no such kind of event (did you mean holder?) (kinds: round_start, round_end, hook, roll, tie, reroll, award, random, decision, placement, kept, holder, set, ready, not_ready, removed, added, activate, pass, first, draw, reshuffle)",
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

scenario "u" {
  ruleset mesbg
  side Jay
  side Rob
  round 1 {
    roll Jay -1, Rob 6
    Jay chooses Jay
  }
}
`, []string{
			"16:18 round 1: scripted roll 1 for Rob is impossible on 2d6 (2-12)",
			"25:10 round 1: scripted roll 11 for Jay is impossible on d6 (1-6)",
			"35:10 round 1: scripted roll -1 for Jay is impossible on d6 (1-6)",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, lint(t, tt.src, 0)); diff != "" {
				t.Errorf("Lint (-want +got):\n%s", diff)
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
