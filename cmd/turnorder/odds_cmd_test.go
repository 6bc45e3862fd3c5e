package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/internal/longtest"
)

func TestOddsNecromundaFourPlayersJSON(t *testing.T) {
	r := runCmd(t, "", "odds", "necromunda", "--sides", "A,B,C,D", "--rounds", "1", "--json")
	if r.code != 0 {
		t.Fatalf("status %d: %s", r.code, r.stderr)
	}
	var doc oddsDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.stdout)
	}
	want := map[string]string{"A": "1/4", "B": "1/4", "C": "1/4", "D": "1/4"}
	if len(doc.Rounds) != 1 {
		t.Fatalf("%d rounds, want 1", len(doc.Rounds))
	}
	if diff := cmp.Diff(want, doc.Rounds[0].Holder); diff != "" {
		t.Errorf("round 1 holder (-want +got):\n%s", diff)
	}
	if n := len(doc.Rounds[0].Order); n != 24 {
		t.Errorf("%d orders, want 24", n)
	}
}

func TestOddsCommand(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "chart.svg")
	// A house rule made from a copy of a bundled ruleset keeps its name.
	src, err := os.ReadFile("../../rulesets/mesbg.rules")
	if err != nil {
		t.Fatal(err)
	}
	house := writeFile(t, dir, "house.rules", strings.Replace(string(src), "award not previous.chooser", "award previous.holder", 1))
	tests := []struct {
		name string
		args []string
		want expectation
	}{
		// The table says what its numbers are, as the simulation's does.
		{"exact table", []string{"odds", "mesbg", "--rounds", "2"},
			expectation{code: 0, stdout: []string{"mesbg: exact odds over 2 rounds, P(holds priority):\n", "Jay → Jay  5/24"}}},
		// The winner always gives priority away: a tie in round 2 still
		// goes to the side that did not choose, so sequences change. The
		// odds are not the ruleset's own, and the output says so.
		{"policy override", []string{"odds", "mesbg", "--rounds", "2", "--policy", "first=other"},
			expectation{code: 0, stdout: []string{"1/2", "mesbg, with --policy first=other: exact odds over 2 rounds"}}},
		{"policy override, simulated", []string{"odds", "mesbg", "--sim", "100", "--policy", "first=other"},
			expectation{code: 0, stdout: []string{"mesbg, with --policy first=other: 100 simulated battles"}}},
		// An expected count of rounds reads as a number of rounds, not
		// only as a fraction.
		{"expected rounds", []string{"odds", "agi", "--rounds", "3"},
			expectation{code: 0, stdout: []string{"  A  3/2 (1.50) of 3 rounds", "  C  0 of 3 rounds"}}},
		{"compare", []string{"odds", "mesbg", "necromunda", "--sides", "A,B", "--rounds", "2"},
			expectation{code: 0, stdout: []string{"mesbg vs necromunda"}}},
		// Over three rounds, Jay → Rob → Jay is 49/288 under the text's tie
		// rule and 25/288 when the previous holder wins ties.
		{"compare a house rule of the same name", []string{"odds", "mesbg", house, "--rounds", "3"},
			expectation{code: 0, stdout: []string{"mesbg: exact", house + ": exact", "mesbg vs " + house + ",",
				"Jay → Rob → Jay  49/288", "Jay → Rob → Jay  25/288"}}},
		{"compare a house rule of the same name, JSON", []string{"odds", "mesbg", house, "--rounds", "1", "--json"},
			expectation{code: 0, stdout: []string{`"ruleset": "mesbg",` + "\n      \"label\": \"mesbg\",", `"label": "` + house + `"`}}},
		{"simulation", []string{"odds", "mesbg", "--sim", "2000", "--rounds", "2", "--seed", "3"},
			expectation{code: 0, stdout: []string{"2000 simulated battles (seed 3)", "±"}}},
		{"svg", []string{"odds", "mesbg", "--rounds", "4", "--svg", svg},
			expectation{code: 0}},
		// Two overrides both apply: with the winner giving priority away
		// (first=other) the side with fewer models holds it 5/12, not 7/12.
		{"two policies", []string{"odds", "../../examples/house-rules/fewer-models.rules", "--setup", "../../examples/setups/armies.rules",
			"--rounds", "1", "--policy", "first=other", "--policy", "order=keep"},
			expectation{code: 0, stdout: []string{"1      5/12  41.67%  7/12  58.33%"}}},
		{"contradictory policies", []string{"odds", "mesbg", "--policy", "first=other", "--policy", "first=self"},
			expectation{code: 1, stderr: []string{`--policy "first=self": first decisions already follow other`}, oneLine: true}},
		// Two rulesets compared face the same forces: the first's example.
		{"compare different examples", []string{"odds", "mesbg", "necromunda", "--rounds", "1"},
			expectation{code: 0, stdout: []string{"mesbg vs necromunda", "1      Jay   0.5000  0.5000      +0.0000\n"}, oneLine: true,
				stderr: []string{"turnorder odds: note: both rulesets play the example sides of mesbg (Jay, Rob); necromunda's own example differs: to compare over other forces, name them with --setup FILE\n"}}},
		{"bad policy", []string{"odds", "mesbg", "--policy", "first=sometimes"},
			expectation{code: 1, stderr: []string{"first decisions take self, other, keep"}, oneLine: true}},
		{"bad rounds", []string{"odds", "mesbg", "--rounds", "0"},
			expectation{code: 1, stderr: []string{"--rounds must be between 1"}, oneLine: true}},
		{"no simulated battles", []string{"odds", "mesbg", "--sim", "0"},
			expectation{code: 1, stderr: []string{"--sim must be a positive number of battles (got 0); leave it out for exact odds"}, oneLine: true}},
		{"unknown ruleset", []string{"odds", "chess"},
			expectation{code: 1, stderr: []string{`unknown ruleset "chess"`}, oneLine: true}},
		{"no ruleset", []string{"odds"}, expectation{code: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, runCmd(t, "", tt.args...))
		})
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(data); !strings.HasPrefix(s, "<svg") || strings.Count(s, "<polyline") != 2 {
		t.Errorf("the chart should be an SVG with one line per side:\n%s", s)
	}
}

// The odds examples/procedures/README.md gives for its procedures.
func TestOddsProcedures(t *testing.T) {
	const dir = "../../examples/procedures/"
	for _, tt := range []struct {
		name string
		args []string
		want []string
	}{
		// A tie always moves the initiative: it stays 5 times in 12.
		{"initiative, a tie to the other", []string{dir + "initiative-tie-to-other.rules", "--rounds", "3"},
			[]string{"3      1/2  50.00%  1/2  50.00%", "Jay → Rob → Jay  49/288", "Jay → Jay → Jay  25/288"}},
		// Rolled for once: whoever goes first in round 1 does every round.
		{"first or second", []string{dir + "first-or-second.rules", "--rounds", "3"},
			[]string{"Jay → Jay → Jay  1/2", "Rob → Rob → Rob  1/2"}},
		// The draws are made in the activation loop, which odds plays
		// but does not report: Jay, the larger side, heads the muster.
		// It says so under the table, for the player who came for the bag.
		{"dice bag", []string{dir + "dice-bag.rules"},
			[]string{"1      1 100.00%  0   0.00%\n(dice_bag draws from a bag who activates each turn, which is not in these odds: they are of who holds priority; `turnorder run` shows each draw)\n"}},
		{"dice bag, simulated", []string{dir + "dice-bag.rules", "--sim", "10"},
			[]string{"(dice_bag draws from a bag who activates each turn"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", append([]string{"odds"}, tt.args...)...)
			expectation{code: 0, stdout: tt.want}.check(t, r)
			if !strings.Contains(tt.name, "dice bag") && strings.Contains(r.stdout, "draws from a bag") {
				t.Errorf("a ruleset without activation draw has the note of one:\n%s", r.stdout)
			}
		})
	}
}

// Odds too large to enumerate are refused, with a pointer to --sim.
func TestOddsTooLarge(t *testing.T) {
	src, err := os.ReadFile("../../rulesets/mesbg.rules")
	if err != nil {
		t.Fatal(err)
	}
	big := writeFile(t, t.TempDir(), "big.rules", strings.Replace(string(src), "highest roll d6", "highest roll 100d1000", 1))
	r := runCmd(t, "", "odds", big)
	expectation{code: 1, stderr: []string{
		big + ":22:9: error: round 1: 2 subjects rolling 100d1000 make too many combinations to enumerate exactly: limit reached\n",
		"turnorder odds: exact odds are out of reach here; --sim 100000 estimates them instead\n",
	}}.check(t, r)
}

// A reroll that can never break a tie is an error, not a hang.
func TestOddsNeverResolves(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "stuck.rules", `ruleset stuck {
  phase priority {
    order sides as priority {
      highest roll d1
      tie: reroll
    }
  }
}
`)
	r := runCmd(t, "", "odds", path, "--sides", "A,B")
	expectation{code: 1, stderr: []string{
		path + ":4:7: error: round 1: every roll ties again, so the reroll never ends",
		"\n          highest roll d1\n          ^\n",
	}}.check(t, r)
}

// A battle with nothing to order (a ruleset of units, and no units) is
// refused, rather than analysed as one that nobody ever holds.
func TestOddsNobody(t *testing.T) {
	r := runCmd(t, "", "odds", "agi", "--sides", "A,B", "--rounds", "2")
	expectation{code: 1, stderr: []string{
		"turnorder odds: ruleset agi orders units, and --sides names sides without any: give them units with --setup FILE",
	}, oneLine: true}.check(t, r)
	if r.stdout != "" {
		t.Errorf("stdout: %q, want nothing", r.stdout)
	}
}

// The path limit is where docs/cli.md and the help text say: five and six
// players rolling off a D6 until one wins are enumerated, eight are
// refused.
func TestOddsPathLimitRollOff(t *testing.T) {
	rolloff := writeFile(t, t.TempDir(), "rolloff.rules", `ruleset r "Roll-off" {
  sides 2..8
  phase p {
    order sides as o {
      highest roll d6
      tie: reroll
    }
  }
}
`)
	expectation{code: 0, stdout: []string{"1/5"}}.check(t, runCmd(t, "", "odds", rolloff, "--sides", "A,B,C,D,E"))
	expectation{code: 0, stdout: []string{"1/6"}}.check(t, runCmd(t, "", "odds", rolloff, "--sides", "A,B,C,D,E,F"))
	if !longtest.Enabled() {
		t.Skip("eight players take seconds to refuse: a long test")
	}
	expectation{code: 1, stderr: []string{"more than 1000000 paths", "--sim"}}.check(t, runCmd(t, "", "odds", rolloff, "--sides", "A,B,C,D,E,F,G,H"))
}

// The fields of odds --json are the ones docs/json.md's tables list; with
// --sim, the ones its paragraph on --sim names (written out here).
func TestOddsJSONMatchesDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "# The JSON of `turnorder odds --json`")
	section, _, _ = strings.Cut(section, "\n# ")
	// The first cell of each row of the first two tables: the document's
	// fields, then a round's.
	var tables [][]string
	for _, block := range strings.Split(section, "\n\n") {
		if !strings.HasPrefix(block, "| field |") {
			continue
		}
		var fields []string
		for _, row := range strings.Split(block, "\n")[2:] {
			cell := strings.Trim(strings.Split(row, "|")[1], " `")
			fields = append(fields, cell)
		}
		tables = append(tables, fields)
	}
	if len(tables) != 2 {
		t.Fatalf("found %d field tables in the odds section of docs/json.md, want 2", len(tables))
	}
	keys := func(m map[string]any) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return ks
	}
	sorted := func(xs ...string) []string { return slices.Sorted(slices.Values(xs)) }

	var exact map[string]any
	r := runCmd(t, "", "odds", "mesbg", "--rounds", "2", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &exact); err != nil {
		t.Fatalf("%v:\n%s", err, r.stdout)
	}
	if diff := cmp.Diff(sorted(tables[0]...), keys(exact)); diff != "" {
		t.Errorf("document fields (-docs +output):\n%s", diff)
	}
	round := exact["rounds"].([]any)[0].(map[string]any)
	if diff := cmp.Diff(sorted(tables[1]...), keys(round)); diff != "" {
		t.Errorf("round fields (-docs +output):\n%s", diff)
	}

	var sim map[string]any
	r = runCmd(t, "", "odds", "mesbg", "--sim", "100", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &sim); err != nil {
		t.Fatalf("%v:\n%s", err, r.stdout)
	}
	if diff := cmp.Diff(sorted("ruleset", "label", "sides", "runs", "seed", "rounds", "errors", "diagnostics"), keys(sim)); diff != "" {
		t.Errorf("--sim document fields (-documented +output):\n%s", diff)
	}
	round = sim["rounds"].([]any)[0].(map[string]any)
	if diff := cmp.Diff(sorted("round", "holder_float", "ci95"), keys(round)); diff != "" {
		t.Errorf("--sim round fields (-documented +output):\n%s", diff)
	}
}

// Comparing two rulesets, an error that stops one of them says which: a
// setup that gives an attribute a value of the wrong type is refused by
// the house rule that declares it, and not by the bundled ruleset, which
// plays without it; the setup file's positions do not show which.
func TestOddsCompareSaysWhichRulesetFailed(t *testing.T) {
	dir := t.TempDir()
	house := writeFile(t, dir, "might.rules", `ruleset mesbg "House" {
  sides 2
  side attribute might int
  phase p {
    order sides as priority {
      highest might
      highest roll d6
      tie: reroll
    }
  }
}
`)
	setup := writeFile(t, dir, "sides.rules", "side Jay might = strong\nside Rob might = 1\n")
	expectation{code: 1, stderr: []string{
		setup + ":1:18: error: side Jay: attribute might: want a whole number, got strong",
		"turnorder odds: this is for " + house + ", the first of the two rulesets compared; mesbg was not analysed\n",
	}}.check(t, runCmd(t, "", "odds", house, "mesbg", "--setup", setup))
	// The second ruleset's failure names it too.
	expectation{code: 1, stderr: []string{
		"turnorder odds: this is for " + house + ", the second of the two rulesets compared\n",
	}}.check(t, runCmd(t, "", "odds", "mesbg", house, "--setup", setup))
	// One ruleset alone needs no such note.
	expectation{code: 1, notStderr: []string{"rulesets compared"}}.check(t, runCmd(t, "", "odds", "mesbg", "--setup", setup))
}

// Comparing a house rule that reads a new value with the ruleset it was
// copied from, over sides that give that value: the one that does not
// declare it plays without it, and says so, rather than refusing the
// sides the house rule needs. A name neither declares is still refused.
func TestOddsCompareLeavesOutWhatOnlyTheOtherDeclares(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../rulesets/mesbg.rules")
	if err != nil {
		t.Fatal(err)
	}
	hero := strings.Replace(strings.Replace(string(src), "ruleset mesbg ", "ruleset hero ", 1),
		"highest roll d6\n", "highest roll d6 + (any(units, .hero) ? 1 : 0)\n", 1)
	hero = strings.Replace(hero, "  sides 2\n", "  sides 2\n  unit attribute hero bool\n  unit status wounded\n", 1)
	house := writeFile(t, dir, "hero.rules", hero)
	setup := writeFile(t, dir, "sides.rules", "side Jay {\n  unit Aragorn hero = true status wounded\n  unit w * 5\n}\nside Rob {\n  unit o * 8\n}\n")
	r := runCmd(t, "", "odds", "mesbg", house, "--setup", setup)
	expectation{code: 0, stdout: []string{
		"1      Jay   0.5000  0.6774  +0.1774\n",
	}, stderr: []string{
		"turnorder odds: note: mesbg does not declare hero and wounded, which only the other ruleset reads: mesbg plays without it\n",
	}, notStderr: []string{"note: hero"}}.check(t, r)

	typo := writeFile(t, dir, "typo.rules", "side Jay {\n  unit Aragorn heroo = true\n}\nside Rob\n")
	expectation{code: 1, stderr: []string{"unit Aragorn: unknown attribute heroo"}}.check(t, runCmd(t, "", "odds", "mesbg", house, "--setup", typo))
}

// A house rule that leaves each round's odds as they were can still
// change the battle: with every tie rerolled, priority is no longer passed
// back and forth. The comparison says which, not a table of zeros alone.
func TestOddsCompareSameOdds(t *testing.T) {
	house := writeFile(t, t.TempDir(), "house.rules", `ruleset house {
  sides 2
  phase priority {
    order sides as priority {
      highest roll d6
      tie: reroll
      choice first by winner default self
    }
  }
  example {
    side Jay
    side Rob
  }
}
`)
	const same = "\nEach side holds priority exactly as often, round by round"
	r := runCmd(t, "", "odds", "mesbg", house, "--rounds", "2")
	expectation{code: 0, stdout: []string{"2      Rob   0.5000  0.5000  +0.0000\n" + same +
		", but who holds it from one round to the next changes: see \"Who holds priority, round by round\" above.\n"}}.check(t, r)
	r = runCmd(t, "", "odds", "mesbg", house, "--rounds", "1")
	expectation{code: 0, stdout: []string{"1      Rob   0.5000  0.5000  +0.0000\n" + same + ".\n"}}.check(t, r)
	// Odds that change say nothing more.
	r = runCmd(t, "", "odds", "mesbg", "../../examples/house-rules/fewer-models.rules", "--setup", "../../examples/setups/armies.rules")
	expectation{code: 0, notStdout: []string{same}}.check(t, r)
}

// Without --sides or --setup, a house rule compared with its original
// plays the first one's example sides, not its own: a comparison over two
// different forces would measure the forces as much as the rule. A note
// says which forces, and how to compare over the other's.
func TestOddsCompareSharesTheFirstExample(t *testing.T) {
	dir := t.TempDir()
	house := writeFile(t, dir, "house.rules", `ruleset house {
  sides 2
  phase priority each round {
    order sides as priority {
      highest roll d6 + (count(units) < 3 ? 1 : 0)
      tie: reroll
    }
  }
  example {
    side Jay { unit j * 2 }
    side Rob { unit r * 4 }
  }
}
`)
	copied := writeFile(t, dir, "copy.rules", mustRead(t, house))
	bare := writeFile(t, dir, "bare.rules", strings.Replace(mustRead(t, house), "  example {\n    side Jay { unit j * 2 }\n    side Rob { unit r * 4 }\n  }\n", "", 1))
	for _, tt := range []struct {
		name string
		args []string
		want expectation
	}{
		// Jay's two models would give him a +1 over mesbg's plain Jay and
		// Rob, who have none: both have fewer than three, so no change.
		{"the first's example", []string{"mesbg", house}, expectation{code: 0,
			stdout: []string{"  +0.0000\n"}, notStdout: []string{"21/31"},
			stderr: []string{"turnorder odds: note: both rulesets play the example sides of mesbg (Jay, Rob); " + house + "'s own example differs: to compare over it, add --setup " + house + "\n"}}},
		{"the house rule's example, named first", []string{house, "mesbg"}, expectation{code: 0,
			stdout: []string{"1      21/31  67.74%  10/31  32.26%\n", "  -0.1774\n"},
			stderr: []string{"turnorder odds: note: both rulesets play the example sides of " + house + " (Jay (2 units), Rob (4 units)); mesbg's own example differs: to compare over it, add --sides Jay,Rob\n"}}},
		{"the --setup named", []string{"mesbg", house, "--setup", house}, expectation{code: 0,
			stdout: []string{"  +0.1774\n"}, notStderr: []string{"note"}}},
		{"the second's, when the first has none", []string{bare, house}, expectation{code: 0,
			stdout: []string{"1      21/31  67.74%  10/31  32.26%\n", "  +0.0000\n"}, notStdout: []string{"1/2  50.00%"}, notStderr: []string{"note"}}},
		// A copy's example is the original's, though written elsewhere.
		{"the same example", []string{house, copied}, expectation{code: 0,
			stdout: []string{"  +0.0000\n"}, notStderr: []string{"note"}}},
		{"neither has one", []string{bare, bare}, expectation{code: 1, oneLine: true,
			stderr: []string{"turnorder odds: neither " + bare + " nor " + bare + " has example sides; name the sides both play with --sides A,B or --setup FILE\n"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, runCmd(t, "", append(append([]string{"odds"}, tt.args...), "--rounds", "1")...))
		})
	}
}

// The note's --setup is the other's path quoted for the shell, so that
// one with a space (a house rule saved as "my house.rules") pastes whole.
func TestOddsCompareNoteQuotesThePath(t *testing.T) {
	house := writeFile(t, t.TempDir(), "my house.rules", "ruleset house {\n  sides 2\n  phase p each round {\n    order sides as priority {\n      highest roll d6\n      tie: reroll\n    }\n  }\n  example {\n    side Ann\n    side Bo\n  }\n}\n")
	expectation{code: 0, stderr: []string{"'s own example differs: to compare over it, add --setup '" + house + "'\n"}}.check(t,
		runCmd(t, "", "odds", "mesbg", house, "--rounds", "1"))
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
