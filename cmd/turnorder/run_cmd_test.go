package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRunTranscript(t *testing.T) {
	r := runCmd(t, "", "run", "mesbg", "--rounds", "3")
	expectation{code: 0, stdout: []string{
		"mesbg: Middle-earth SBG: Priority Phase\n",
		"sides: Jay, Rob\n",
		"seed: 1\n",
		"\nRound 1\n", "\nRound 2\n", "\nRound 3\n",
		" rolls ", " for priority\n",
		"  → order: ", "   holder: ", "   chooser: ",
	}, notStdout: []string{"Round 4", "round 1 begins"}}.check(t, r)
	if n := strings.Count(r.stdout, "→ order:"); n != 3 {
		t.Errorf("%d round summaries, want 3", n)
	}
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
	// Flags before the ruleset mean the same.
	if r2 := runCmd(t, "", "run", "--rounds=3", "mesbg"); r2.stdout != r.stdout {
		t.Errorf("flag order changes the transcript")
	}
}

// jsonDoc mirrors docs/json.md, strictly.
type jsonDoc struct {
	Ruleset string `json:"ruleset"`
	Seed    uint64 `json:"seed"`
	Rounds  []struct {
		Round       int      `json:"round"`
		Order       []string `json:"order"`
		Holder      string   `json:"holder"`
		Chooser     *string  `json:"chooser"`
		Activations []struct {
			Side string `json:"side"`
			Unit string `json:"unit"`
			Pass bool   `json:"pass"`
		} `json:"activations"`
		Events []map[string]any `json:"events"`
	} `json:"rounds"`
	FailedRound *struct {
		Round  int              `json:"round"`
		Events []map[string]any `json:"events"`
	} `json:"failed_round"`
	Errors      []string         `json:"errors"`
	Diagnostics []map[string]any `json:"diagnostics"`
}

func decodeDoc(t *testing.T, out string) jsonDoc {
	t.Helper()
	var doc jsonDoc
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatalf("more than one JSON document")
	}
	return doc
}

func TestRunJSON(t *testing.T) {
	args := []string{"run", "mesbg", "--seed", "7", "--rounds", "5", "--json"}
	first := runCmd(t, "", args...)
	expectation{code: 0}.check(t, first)
	doc := decodeDoc(t, first.stdout)
	if doc.Ruleset != "mesbg" || doc.Seed != 7 || len(doc.Rounds) != 5 {
		t.Fatalf("ruleset %q seed %d rounds %d; want mesbg 7 5", doc.Ruleset, doc.Seed, len(doc.Rounds))
	}
	for i, rd := range doc.Rounds {
		if rd.Round != i+1 || len(rd.Order) != 2 || rd.Holder != rd.Order[0] || rd.Chooser == nil || len(rd.Events) == 0 {
			t.Errorf("round %d: %+v", i+1, rd)
		}
		if rd.Activations == nil {
			t.Errorf("round %d: activations is null, want []", i+1)
		}
		for _, ev := range rd.Events {
			if ev["kind"] == nil || ev["round"] != float64(i+1) {
				t.Errorf("round %d: event %v", i+1, ev)
			}
		}
	}
	if doc.FailedRound != nil || strings.Contains(first.stdout, "failed_round") {
		t.Errorf("no round failed, but the document has a failed_round: %+v", doc.FailedRound)
	}
	if !strings.Contains(first.stdout, "\n  \"rounds\": [\n") {
		t.Errorf("not indented by two spaces:\n%.200s", first.stdout)
	}

	again := runCmd(t, "", args...)
	if again.stdout != first.stdout {
		t.Errorf("the same seed gives different output")
	}
	other := runCmd(t, "", "run", "mesbg", "--seed", "8", "--rounds", "5", "--json")
	if other.code != 0 || other.stdout == first.stdout {
		t.Errorf("seed 8 gives the same battle as seed 7 (status %d)", other.code)
	}
	if d := decodeDoc(t, other.stdout); d.Seed != 8 {
		t.Errorf("seed %d, want 8", d.Seed)
	}
}

func TestRunJSONPasses(t *testing.T) {
	r := runCmd(t, "", "run", "morturi", "--rounds", "1", "--json")
	expectation{code: 0, stdout: []string{`"chooser": null`, `"pass": true`}}.check(t, r)
	doc := decodeDoc(t, r.stdout)
	if len(doc.Rounds) != 1 {
		t.Fatalf("%d rounds, want 1", len(doc.Rounds))
	}
	units, passes := 0, 0
	for _, a := range doc.Rounds[0].Activations {
		switch {
		case a.Side == "":
			t.Errorf("activation without a side: %+v", a)
		case a.Pass && a.Unit == "":
			passes++
		case !a.Pass && a.Unit != "":
			units++
		default:
			t.Errorf("activation is neither a unit nor a pass: %+v", a)
		}
	}
	// The example has 6 and 8 gladiators: every one activates, and the
	// smaller school passes while the larger finishes.
	if units != 14 || passes == 0 {
		t.Errorf("%d activations and %d passes; want 14 and some", units, passes)
	}
}

func TestRunSetup(t *testing.T) {
	dir := t.TempDir()
	bare := writeFile(t, dir, "bare.rules", "# two sides\nside Jay\nside Rob { unit Aragorn; unit Legolas }\n")
	scenario := writeFile(t, dir, "scenario.rules", `scenario "setup" {
  side "Malleus Deus" {
    unit md1 movement = 5
  }
  side Ludi {
    unit la1
    unit la2
  }
}
`)
	statuses := writeFile(t, dir, "statuses.rules", "side G { unit Krug status out_of_action; unit Volk }\nside E { unit Mira }\n")
	badAttr := writeFile(t, dir, "badattr.rules", "side A { unit a speed = 5 }\nside B { unit b }\n")
	badType := writeFile(t, dir, "badtype.rules", "scenario \"s\" {\n  side A { unit a movement = \"fast\" }\n  side B { unit b }\n}\n")
	broken := writeFile(t, dir, "broken.rules", "side A {\n")
	empty := writeFile(t, dir, "empty.rules", "scenario \"s\" {\n  seed 3\n}\n")

	tests := []struct {
		name string
		args []string
		want expectation
	}{
		{"bare sides", []string{"run", "mesbg", "--setup", bare, "--rounds", "1"}, expectation{code: 0,
			stdout: []string{"sides: Jay, Rob (2 units)\n", "Round 1"}}},
		{"scenario sides", []string{"run", "morturi", "--setup", scenario, "--rounds", "1"}, expectation{code: 0,
			stdout: []string{"sides: Malleus Deus (1 unit), Ludi (2 units)\n", "Ludi activates la2"}}},
		{"sides picked from setup", []string{"run", "morturi", "--setup", bare, "--sides", "Rob,Jay", "--rounds", "1"}, expectation{code: 0,
			stdout: []string{"sides: Rob (2 units), Jay\n", "Jay passes"}}},
		{"statuses in setup", []string{"run", "necromunda", "--setup", statuses, "--rounds", "1"}, expectation{code: 0,
			stdout: []string{"  Krug gets no Ready marker (out_of_action)\n  Ready: Volk, Mira\n", "G activates Volk"}, notStdout: []string{"Ready: Krug", "activates Krug"}}},
		{"unknown side in setup", []string{"run", "mesbg", "--setup", bare, "--sides", "Jay,Zed"}, expectation{code: 1,
			stderr: []string{`turnorder run: unknown side "Zed": --setup ` + bare + " has the sides Jay, Rob"}, oneLine: true}},
		{"unknown attribute in setup", []string{"run", "morturi", "--setup", badAttr}, expectation{code: 1,
			stderr: []string{badAttr + ":1:10: error: unit a: unknown attribute speed (declared: movement)", "\n    side A { unit a speed = 5 }\n             ^\n"}}},
		{"bad value in setup", []string{"run", "morturi", "--setup", badType}, expectation{code: 1,
			stderr: []string{badType + ":2:30: error: unit a: attribute movement: want a whole number"}}},
		{"syntax error in setup", []string{"run", "mesbg", "--setup", broken}, expectation{code: 1,
			stderr: []string{broken + ":2:1: error: "}}},
		{"no sides in setup", []string{"run", "mesbg", "--setup", empty}, expectation{code: 1,
			stderr: []string{"names no sides"}, oneLine: true}},
		{"missing setup", []string{"run", "mesbg", "--setup", dir + "/nope.rules"}, expectation{code: 1,
			stderr: []string{"--setup: " + dir + "/nope.rules: no such file or directory"}, oneLine: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.want.check(t, runCmd(t, "", tt.args...)) })
	}
}

func TestRunFiles(t *testing.T) {
	dir := t.TempDir()
	two := writeFile(t, dir, "two.rules", `ruleset first "First" {
  phase p {
    order sides as o {
      random
    }
  }
}

ruleset second {
  phase p {
    order sides as o {
      random
    }
  }
}
`)
	bad := writeFile(t, dir, "bad.rules", unknownAttr(t))
	onlyScenarios := writeFile(t, dir, "scen.rules", "scenario \"s\" {\n  ruleset mesbg\n}\n")

	tests := []struct {
		name string
		args []string
		want expectation
	}{
		{"first ruleset of a file", []string{"run", two, "--sides", "A,B", "--rounds", "1"}, expectation{code: 0,
			stdout: []string{"first: First\n", "random pick: ", "→ order: "}}},
		{"first ruleset, JSON", []string{"run", two, "--sides", "A,B", "--rounds", "1", "--json"}, expectation{code: 0,
			stdout: []string{`"ruleset": "first"`}}},
		{"compile errors", []string{"run", bad}, expectation{code: 1,
			stderr: []string{bad + ":" + unitzAt(t) + ": error: ", "^\n"}}},
		{"no example sides", []string{"run", two}, expectation{code: 1,
			stderr: []string{"ruleset first has no example sides; name some with --sides"}, oneLine: true}},
		{"only scenarios", []string{"run", onlyScenarios}, expectation{code: 1,
			stderr: []string{"has no ruleset"}, oneLine: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.want.check(t, runCmd(t, "", tt.args...)) })
	}
}

// An error a rule causes in play is shown like a compile error: where the
// battle was, then the rule's line and a caret at the failing expression.
func TestRuleErrorShowsTheRule(t *testing.T) {
	nan := writeFile(t, t.TempDir(), "nan.rules", `ruleset nan {
  sides 2
  side attribute agi int
  phase p each round {
    order sides as o {
      highest agi / 0
    }
  }
  example {
    side A agi = 0
    side B agi = 0
  }
}
`)
	const rule = "\n          highest agi / 0\n                  ^\n"
	msg := "`agi / 0` for A is NaN (such as 0 / 0), which cannot be compared" + rule
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"run", []string{"run", nan}, "round 1: " + msg},
		{"play", []string{"play", nan}, "round 1: " + msg},
		{"odds", []string{"odds", nan}, "round 1: " + msg},
		{"simulated odds", []string{"odds", "--sim", "10", nan}, "simulated battle 1, round 1: " + msg},
	}
	// Nothing breaks the tie: the warning check gives comes first.
	warning := nan + ":5:5: warning: order o can end with subjects still tied after `highest agi / 0`: add `tie: reroll`, `random` or a choice\n" +
		"        order sides as o {\n        ^\n"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", tt.args...)
			if diff := cmp.Diff(warning+nan+":6:15: error: "+tt.want, r.stderr); r.code != 1 || diff != "" {
				t.Errorf("exit status %d; stderr (-want +got):\n%s", r.code, diff)
			}
		})
	}

	// With --json, the rounds played before the one that failed are kept:
	// the ends of rounds 1 and 2 bring agi down to 0, and round 3 divides
	// it by itself.
	late := writeFile(t, t.TempDir(), "late.rules", `ruleset late {
  sides 2
  side attribute agi int
  phase p each round {
    order sides as o {
      highest agi / agi
    }
  }
  on end of round {
    set agi of "A" = 2 - round
    set agi of "B" = 2 - round
  }
  example {
    side A agi = 3
    side B agi = 3
  }
}
`)
	r := runCmd(t, "", "run", late, "--rounds", "5", "--json")
	if r.code != 1 || !strings.Contains(r.stderr, "round 3: `agi / agi` for A is NaN") {
		t.Errorf("exit status %d, stderr:\n%s", r.code, r.stderr)
	}
	if doc := decodeDoc(t, r.stdout); len(doc.Rounds) != 2 {
		t.Errorf("the document holds %d rounds, want the 2 played", len(doc.Rounds))
	}
}

func TestRunBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want expectation
	}{
		{"unknown ruleset", []string{"run", "nosuch"}, expectation{code: 1,
			stderr: []string{`turnorder run: unknown ruleset "nosuch"`, "agi, mesbg, morturi, necromunda"}, notStderr: []string{"did you mean"}, oneLine: true}},
		{"mistyped ruleset", []string{"run", "necromnuda"}, expectation{code: 1,
			stderr: []string{`turnorder run: unknown ruleset "necromnuda" (did you mean necromunda?): the bundled rulesets are`}, oneLine: true}},
		{"missing file", []string{"run", "nosuch.rules"}, expectation{code: 1,
			stderr: []string{"turnorder run: nosuch.rules: no such file or directory"}, oneLine: true}},
		{"missing file in a dir", []string{"run", "./x/nosuch"}, expectation{code: 1,
			stderr: []string{"no such file or directory"}, oneLine: true}},
		{"a directory", []string{"run", "../../rulesets"}, expectation{code: 1,
			stderr: []string{"is a directory"}, oneLine: true}},
		{"negative rounds", []string{"run", "mesbg", "--rounds", "-1"}, expectation{code: 1,
			stderr: []string{"turnorder run: --rounds must be between 1 and 10000 (got -1)"}, oneLine: true}},
		{"zero rounds", []string{"run", "mesbg", "--rounds=0"}, expectation{code: 1,
			stderr: []string{"--rounds must be"}, oneLine: true}},
		{"rounds not a number", []string{"run", "mesbg", "--rounds", "three"}, expectation{code: 1,
			stderr: []string{`invalid value "three" for --rounds: want a whole number`}, oneLine: true}},
		{"negative seed", []string{"run", "mesbg", "--seed", "-1"}, expectation{code: 1,
			stderr: []string{`invalid value "-1" for --seed`}, oneLine: true}},
		{"too many sides", []string{"run", "mesbg", "--sides", "A,B,C"}, expectation{code: 1,
			stderr: []string{"turnorder run: ruleset mesbg needs 2 sides, got 3"}, oneLine: true}},
		{"duplicate side", []string{"run", "mesbg", "--sides", "A,A"}, expectation{code: 1,
			stderr: []string{"turnorder run: ", "A"}, oneLine: true}},
		{"empty side name", []string{"run", "mesbg", "--sides", "A,"}, expectation{code: 1,
			stderr: []string{"empty name"}, oneLine: true}},
		// Not the example's sides: an empty --sides is a mistake, as A,,B is.
		{"empty --sides", []string{"run", "mesbg", "--sides", ""}, expectation{code: 1,
			stderr: []string{`turnorder run: invalid value "" for --sides: name the sides`, "leave --sides out for the ruleset's example"}, oneLine: true}},
		{"blank --sides", []string{"run", "mesbg", "--sides= "}, expectation{code: 1,
			stderr: []string{`invalid value " " for --sides`}, oneLine: true}},
		{"empty --setup", []string{"run", "mesbg", "--setup="}, expectation{code: 1,
			stderr: []string{`invalid value "" for --setup: name a .rules file`}, oneLine: true}},
		{"empty --sides for odds", []string{"odds", "mesbg", "--sides", ""}, expectation{code: 1,
			stderr: []string{`turnorder odds: invalid value "" for --sides`}, oneLine: true}},
		{"empty --save for play", []string{"play", "mesbg", "--save", ""}, expectation{code: 1,
			stderr: []string{`turnorder play: invalid value "" for --save: name a file`}, oneLine: true}},
		{"no ruleset", []string{"run"}, expectation{code: 2, stderr: []string{"name a ruleset"}, oneLine: true}},
		{"bad policy", []string{"run", "mesbg", "--policy", "first=x"}, expectation{code: 1,
			stderr: []string{`turnorder run: --policy "first=x": first decisions take self, other, keep`}, oneLine: true}},
		{"two rulesets", []string{"run", "mesbg", "morturi"}, expectation{code: 2, stderr: []string{"one ruleset at a time"}, oneLine: true}},
		{"flag needs a value", []string{"run", "mesbg", "--rounds"}, expectation{code: 2, stderr: []string{"turnorder run: --rounds needs a value\n"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCmd(t, "", tt.args...)
			tt.want.check(t, r)
			if r.stdout != "" {
				t.Errorf("stdout: %s", r.stdout)
			}
		})
	}
}

// --policy answers a kind of decision otherwise: with seed 7, Jay wins
// round 1's roll-off and gives priority away.
func TestRunPolicy(t *testing.T) {
	r := runCmd(t, "", "run", "mesbg", "--seed", "7", "--rounds", "1", "--policy", "first=other")
	expectation{code: 0, stdout: []string{"Jay chooses Rob to go first", "→ order: Rob, Jay   holder: Rob   chooser: Jay"}}.check(t, r)
}

// In agi a side chooses whether its unit goes before or after the unit it
// is tied with: the transcript names both, not only "A chooses to go
// before", which says neither who goes nor before whom.
func TestRunBeforeAfterNamesWhom(t *testing.T) {
	r := runCmd(t, "", "run", "agi", "--seed", "1", "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"  Aria rolls 4 for turn_order\n  Bran rolls 1 for turn_order\n  A chooses Aria to go before Bran\n  turn_order #1: Aria, by A's choice",
	}}.check(t, r)
	r = runCmd(t, "", "run", "agi", "--seed", "1", "--rounds", "1", "--policy", "before_after=after")
	expectation{code: 0, stdout: []string{"  A chooses Aria to go after Bran\n  turn_order #1: Bran, by A's choice"}}.check(t, r)
}

// A --policy for a kind of decision the ruleset never asks for changes
// nothing: run and odds say so on stderr, and go on.
func TestPolicyNeverAsked(t *testing.T) {
	tests := []struct {
		args []string
		warn string // the whole of stderr
	}{
		{[]string{"run", "mesbg", "--rounds", "1", "--policy", "before_after=after"},
			"turnorder run: warning: --policy before_after=after changes nothing: mesbg never asks for before_after decisions\n"},
		{[]string{"run", "mesbg", "--rounds", "1", "--policy", "first=other", "--policy", "order=reverse"},
			"turnorder run: warning: --policy order=reverse changes nothing: mesbg never asks for order decisions\n"},
		{[]string{"odds", "mesbg", "--policy", "activate=last"},
			"turnorder odds: warning: --policy activate=last changes nothing: mesbg never asks for activate decisions\n"},
		// Each ruleset compared is checked.
		{[]string{"odds", "mesbg", "morturi", "--sides", "A,B", "--policy", "activate=last"},
			"turnorder odds: warning: --policy activate=last changes nothing: mesbg never asks for activate decisions\n"},
		// unit_order activates units in the order's order: nobody chooses.
		{[]string{"run", "agi", "--rounds", "1", "--policy", "activate=first"},
			"turnorder run: warning: --policy activate=first changes nothing: agi never asks for activate decisions\n"},
		{[]string{"run", "agi", "--rounds", "1", "--policy", "order=reverse", "--policy", "before_after=after"}, ""},
		{[]string{"run", "morturi", "--rounds", "1", "--policy", "activate=last"}, ""},
		{[]string{"run", "mesbg", "--rounds", "1", "--policy", "first=other"}, ""},
		// Likewise --seed, which only --sim rolls dice with.
		{[]string{"odds", "mesbg", "--seed", "5"},
			"turnorder odds: warning: --seed 5 changes nothing: exact odds roll no dice (it seeds --sim N)\n"},
		{[]string{"odds", "mesbg", "--seed", "5", "--sim", "100"}, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := runCmd(t, "", tt.args...)
			expectation{code: 0}.check(t, r)
			if r.stderr != tt.warn {
				t.Errorf("stderr %q, want %q", r.stderr, tt.warn)
			}
		})
	}
}

func TestRunEveryBundledRuleset(t *testing.T) {
	for _, name := range []string{"agi", "mesbg", "morturi", "necromunda"} {
		t.Run(name, func(t *testing.T) {
			r := runCmd(t, "", "run", name, "--rounds", "2")
			expectation{code: 0, stdout: []string{"Round 2", "→ order: "}}.check(t, r)
			j := runCmd(t, "", "run", name, "--rounds", "2", "--json")
			expectation{code: 0}.check(t, j)
			if doc := decodeDoc(t, j.stdout); doc.Ruleset != name || len(doc.Rounds) != 2 {
				t.Errorf("ruleset %q, %d rounds", doc.Ruleset, len(doc.Rounds))
			}
		})
	}
}

// docs/json.md shows the whole output of one command; keep it true.
func TestJSONDocExample(t *testing.T) {
	checkJSONDocExample(t, "TestJSONDocExample", "run", "mesbg", "--seed", "7", "--rounds", "1", "--json")
}

// checkJSONDocExample runs args and compares their output with the example
// in docs/json.md that follows the marker naming test.
func checkJSONDocExample(t *testing.T, test string, args ...string) {
	t.Helper()
	doc, err := os.ReadFile("../../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	marker := "<!-- the test " + test + " runs this command and compares -->\n```json\n"
	_, rest, ok := strings.Cut(string(doc), marker)
	if !ok {
		t.Fatalf("docs/json.md lacks the marker of %s", test)
	}
	example, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("docs/json.md: the example is not closed")
	}
	r := runCmd(t, "", args...)
	if r.code != 0 {
		t.Fatalf("status %d: %s", r.code, r.stderr)
	}
	if r.stdout != example {
		t.Errorf("docs/json.md's example is out of date; the command now prints:\n%s", r.stdout)
	}
}

// docs/cli.md shows `run mesbg --seed 7 --rounds 3` with round 2 elided;
// every line it shows must be what the command prints, in order.
func TestCLIDocRunTranscript(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	const cmdLine = "$ turnorder run mesbg --seed 7 --rounds 3\n"
	_, rest, ok := strings.Cut(string(doc), "```\n"+cmdLine)
	if !ok {
		t.Fatal("docs/cli.md lacks the run transcript")
	}
	shown, _, _ := strings.Cut(rest, "```")
	r := runCmd(t, "", "run", "mesbg", "--seed", "7", "--rounds", "3")
	got := r.stdout
	for _, line := range strings.SplitAfter(shown, "\n") {
		if line == "" || strings.TrimSpace(line) == "..." {
			continue
		}
		i := strings.Index(got, line)
		if i < 0 {
			t.Fatalf("docs/cli.md shows %q, which the command does not print (next):\n%s", line, got)
		}
		got = got[i+len(line):]
	}
}

// run, odds and play show a ruleset's warnings as check does, once, on
// standard error: the transcript and the JSON are unchanged.
func TestPlayingShowsWarnings(t *testing.T) {
	file := writeFile(t, t.TempDir(), "tied.rules", `ruleset w "W" {
  sides 2
  example { side A; side B }
  phase p {
    order sides as o {
      highest roll d6
    }
  }
}
`)
	warning := file + ":5:5: warning: order o can end with subjects still tied after `highest roll d6`"
	check := runCmd(t, "", "check", file)
	expectation{code: 0, stderr: []string{warning}}.check(t, check)
	for _, args := range [][]string{
		{"run", file, "--rounds", "1"},
		{"run", file, "--rounds", "1", "--json"},
		{"odds", file},
		{"odds", file, "--json"},
		{"play", file, "--rounds", "1"},
	} {
		t.Run(strings.Join(args[:1], " "), func(t *testing.T) {
			r := runCmd(t, "3\n5\n", args...)
			expectation{code: 0}.check(t, r)
			if r.stderr != check.stderr {
				t.Errorf("stderr:\n%s\nwant what check prints:\n%s", r.stderr, check.stderr)
			}
			if strings.Contains(r.stdout, "warning") {
				t.Errorf("stdout has the warning:\n%s", r.stdout)
			}
			if args[len(args)-1] == "--json" && !json.Valid([]byte(r.stdout)) {
				t.Errorf("stdout is not JSON:\n%s", r.stdout)
			}
		})
	}
}

// A ruleset that orders units, played with plain sides, says why it
// cannot be, and how to give the sides units, rather than playing rounds
// that nobody holds.
func TestRunNoUnits(t *testing.T) {
	r := runCmd(t, "", "run", "agi", "--sides", "X,Y")
	expectation{code: 1, stderr: []string{
		"turnorder run: ruleset agi orders units, and --sides names sides without any: give them units with --setup FILE (sides written as `side A { unit a1 }`), or leave out --sides to play its example\n",
	}, oneLine: true}.check(t, r)
}

// Which unit a side activates is said once, by the activation itself: a
// "chooses" line before each would say it twice.
func TestRunActivationsSaidOnce(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want expectation
	}{
		{[]string{"run", "necromunda", "--rounds", "1"}, expectation{code: 0,
			stdout:    []string{"  Ready: Krug, Grath, Volk, Mira, Sable, Vex\n  Goliaths activates Krug\n  Eschers activates Mira\n  Goliaths activates Grath\n"},
			notStdout: []string{"chooses"}}},
		{[]string{"run", "morturi", "--rounds", "1", "--policy", "activate=last"}, expectation{code: 0,
			stdout:    []string{"  Malleus Deus activates md6\n  Ludi Aeternum activates la8\n"},
			notStdout: []string{"chooses"}}},
		// A choice of who goes first is still said.
		{[]string{"run", "mesbg", "--rounds", "1"}, expectation{code: 0, stdout: []string{"Jay chooses to go first"}}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			tt.want.check(t, runCmd(t, "", tt.args...))
		})
	}
}

// A named hook point is where special rules may plug in: the transcript
// says nothing of it unless a rule ran there, and then the rule's own line
// says so.
func TestRunHookPointsSaidOnlyWhenARuleRuns(t *testing.T) {
	rules := writeFile(t, t.TempDir(), "h.rules", `ruleset h {
  sides 2
  side attribute x int = 0
  phase priority each round {
    hook start
    order sides as priority { highest roll d6; tie: reroll }
    hook end
  }
  on hook start when round == 2 { set x of "Jay" = 1 }
  example { side Jay; side Rob }
}
`)
	for _, tt := range []struct {
		args []string
		want expectation
	}{
		{[]string{"run", "mesbg", "--rounds", "2"}, expectation{code: 0,
			stdout:    []string{"Round 1\n  Jay rolls 4 for priority\n", "  → order: Jay, Rob   holder: Jay   chooser: Jay\n\nRound 2\n"},
			notStdout: []string{"hook"}}},
		{[]string{"run", rules, "--rounds", "2"}, expectation{code: 0,
			stdout:    []string{"Round 1\n  Jay rolls 4 for priority\n", "Round 2\n  on hook start\n  x of Jay is now 1\n  Jay rolls"},
			notStdout: []string{"  hook start\n", "hook end"}}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			tt.want.check(t, runCmd(t, "", tt.args...))
		})
	}
}

// An order a round does not make again (a once order, an until-changed
// one whose values have not changed) is said to be kept, where it would
// have been made: the round has no placement to say why the order stands.
func TestRunSaysKeptOrders(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want expectation
	}{
		{[]string{"run", "agi", "--rounds", "2"}, expectation{code: 0,
			stdout:    []string{"Round 2\n  turn_order: kept from round 1 (nothing it watches has changed)\n  Ready: Aria, Bran, Cole\n"},
			notStdout: []string{"Round 1\n  turn_order: kept"}}},
		{[]string{"run", "morturi", "--rounds", "3"}, expectation{code: 0,
			stdout: []string{"Round 2\n  priority: kept from round 1\n  Ready:", "Round 3\n  priority: kept from round 1\n  Ready:"}}},
		{[]string{"run", "mesbg", "--rounds", "3"}, expectation{code: 0, notStdout: []string{"kept"}}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			tt.want.check(t, runCmd(t, "", tt.args...))
		})
	}
}

// When a round fails, the transcript shows what the round did up to the
// failure (here, the tied roll that the award could not break), so that
// the players see what led to the error.
func TestRunShowsTheFailingRound(t *testing.T) {
	rules := writeFile(t, t.TempDir(), "tie.rules", `ruleset tie {
  sides 2
  phase p {
    order sides as priority {
      highest roll d1
      tie: award not previous.holder
    }
  }
  example {
    side Jay
    side Rob
  }
}
`)
	r := runCmd(t, "", "run", rules)
	want := "tie\nsides: Jay, Rob\nseed: 1\n\nRound 1\n" +
		"  Jay rolls 1 for priority\n" +
		"  Rob rolls 1 for priority\n" +
		"  tie between Jay and Rob on highest roll d1\n" +
		"  → the round stopped with an error (see below)\n"
	if diff := cmp.Diff(want, r.stdout); r.code != 1 || diff != "" {
		t.Errorf("exit status %d; stdout (-want +got):\n%s", r.code, diff)
	}
	if !strings.Contains(r.stderr, ":6:12: error: round 1: `award not previous.holder` names nobody") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	// With --json the document holds the same: no round played, the
	// failing round's events up to the error, and the error.
	doc := decodeDoc(t, runCmd(t, "", "run", rules, "--json").stdout)
	if len(doc.Rounds) != 0 || len(doc.Errors) != 1 || doc.FailedRound == nil {
		t.Fatalf("the document holds %d rounds, %d errors and failed_round %v; want 0, 1 and round 1", len(doc.Rounds), len(doc.Errors), doc.FailedRound)
	}
	var got []string
	for _, ev := range doc.FailedRound.Events {
		got = append(got, fmt.Sprintf("%v %v %v", ev["kind"], ev["subject"], ev["subjects"]))
	}
	want2 := []string{"round_start <nil> <nil>", "roll Jay <nil>", "roll Rob <nil>", "tie <nil> [Jay Rob]"}
	if diff := cmp.Diff(want2, got); doc.FailedRound.Round != 1 || diff != "" {
		t.Errorf("failed_round is round %d; events (-want +got):\n%s", doc.FailedRound.Round, diff)
	}
}

// A round stopped by a limit shows its start and its end, not the
// thousands of rerolls between them, above its error.
func TestRunFailedRoundShortened(t *testing.T) {
	rules := writeFile(t, t.TempDir(), "loop.rules", "ruleset t {\n sides 2\n phase p each round {\n  order sides as o {\n   highest roll d1\n   tie: reroll\n  }\n }\n}\n")
	r := runCmd(t, "", "run", rules, "--sides", "A,B", "--rounds", "1")
	expectation{code: 1,
		stdout: []string{"Round 1\n  A rolls 1 for o\n", "  … 3972 events left out …\n", "  tie between A and B on highest roll d1\n  → the round stopped with an error (see below)\n"},
		stderr: []string{"still tied after 1000 rerolls (A, B): limit reached"}}.check(t, r)
	if n := strings.Count(r.stdout, "\n"); n > 50 {
		t.Errorf("the failed round takes %d lines:\n%s", n, r.stdout)
	}
	// A program gets every event, not the transcript's shortened view.
	doc := decodeDoc(t, runCmd(t, "", "run", rules, "--sides", "A,B", "--rounds", "1", "--json").stdout)
	if doc.FailedRound == nil {
		t.Fatal("no failed_round in the document")
	}
	rerolls := 0
	for _, ev := range doc.FailedRound.Events {
		if ev["kind"] == "reroll" {
			rerolls++
		}
	}
	if rerolls != 1000 {
		t.Errorf("failed_round has %d reroll events, want all 1000", rerolls)
	}
}

// A house rule's file holds its example and its scenarios. --setup reads
// the first block of sides, and says which, and how to play the others:
// --sides picks the block that has all the sides it names.
func TestRunSetupPicksAScenario(t *testing.T) {
	house := writeFile(t, t.TempDir(), "house.rules", `ruleset house {
  sides 2..
  phase p each round {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
  example {
    side Jay
    side Rob
  }
}

scenario "three gangs" {
  ruleset house
  side "Iron Claws" { unit a1 }
  side B { unit b1 }
  side C { unit c1 }
  round 1 {
    roll "Iron Claws" 6, B 4, C 2
  }
}
`)
	note := "turnorder run: note: --setup " + house + ": the sides are those of the example of ruleset house (" + house +
		":9), the first in the file; to play the sides of scenario \"three gangs\" instead, name them: --sides 'Iron Claws,B,C'\n"
	for _, tt := range []struct {
		name string
		args []string
		want expectation
	}{
		{"the first block, with a note", []string{"--setup", house}, expectation{code: 0,
			stdout: []string{"sides: Jay, Rob\n"}, stderr: []string{note}}},
		{"a scenario's sides", []string{"--setup", house, "--sides", "C,Iron Claws"}, expectation{code: 0,
			stdout: []string{"sides: C (1 unit), Iron Claws (1 unit)\n"}, notStderr: []string{"note"}}},
		{"one of the example's sides", []string{"--setup", house, "--sides", "Rob"}, expectation{code: 1,
			stderr: []string{"needs 2 or more sides, got 1"}}},
		{"sides of two blocks", []string{"--setup", house, "--sides", "Jay,C"}, expectation{code: 1, oneLine: true,
			stderr: []string{"turnorder run: no block of sides in --setup " + house + " has all of Jay, C: each of the example of ruleset house and scenario \"three gangs\" is a battle of its own\n"}}},
		{"unknown side", []string{"--setup", house, "--sides", "Zed"}, expectation{code: 1, oneLine: true,
			stderr: []string{`turnorder run: unknown side "Zed": --setup ` + house + ` has the sides Jay, Rob (the example of ruleset house); Iron Claws, B, C (scenario "three gangs")` + "\n"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.check(t, runCmd(t, "", append([]string{"run", house, "--rounds", "1"}, tt.args...)...))
		})
	}
}

// The note's --sides is quoted for a shell, where a name's $ or quote
// would otherwise be read as the shell's, and the error for sides of two
// blocks names the blocks the file has, here two scenarios and no example.
func TestRunSetupNoteQuotesForTheShell(t *testing.T) {
	setup := writeFile(t, t.TempDir(), "s.rules", `scenario "one" {
  ruleset mesbg
  side Jay
  side Rob
}
scenario "two" {
  ruleset mesbg
  side "Bo's $gang"
  side Ann
}
`)
	expectation{code: 0, stderr: []string{`name them: --sides 'Bo'\''s $gang,Ann'` + "\n"}}.check(t,
		runCmd(t, "", "run", "mesbg", "--setup", setup, "--rounds", "1"))
	expectation{code: 1, oneLine: true, stderr: []string{`has all of Jay, Ann: each of scenario "one" and scenario "two" is a battle of its own` + "\n"}}.check(t,
		runCmd(t, "", "run", "mesbg", "--setup", setup, "--sides", "Jay,Ann", "--rounds", "1"))
}

// A file's bare `side` statements are its sides, and --sides can still
// pick those of its scenarios, as docs/cli.md says.
func TestRunSetupBareSidesAndScenarios(t *testing.T) {
	setup := writeFile(t, t.TempDir(), "s.rules", `side Jay
side Rob
scenario "three" {
  ruleset mesbg
  side A { unit a1 }
  side B
  side C
}
`)
	expectation{code: 0, stdout: []string{"sides: Jay, Rob\n"}, stderr: []string{"turnorder run: note: --setup " + setup +
		": the sides are those of the `side` statements outside any block (" + setup + ":1); to play the sides of scenario \"three\" instead, name them: --sides A,B,C\n"}}.check(t,
		runCmd(t, "", "run", "mesbg", "--setup", setup, "--rounds", "1"))
	expectation{code: 0, stdout: []string{"sides: C, A (1 unit)\n"}, notStderr: []string{"note"}}.check(t,
		runCmd(t, "", "run", "mesbg", "--setup", setup, "--sides", "C,A", "--rounds", "1"))
	expectation{code: 0, stdout: []string{"sides: Rob, Jay\n"}}.check(t,
		runCmd(t, "", "run", "mesbg", "--setup", setup, "--sides", "Rob,Jay", "--rounds", "1"))
}

// A setup's value out of an attribute's range is said against that range,
// whether it fits an int (the runtime finds it) or not (the parser does):
// not as the language's own limit on numbers.
func TestRunSetupValueOutOfRange(t *testing.T) {
	dir := t.TempDir()
	var got []string
	for _, n := range []string{"9007199254740993", "99999999999999999999", "-99999999999999999999"} {
		setup := writeFile(t, dir, "s.rules", "side A { unit Aria agi = "+n+" }\nside B { unit Bran agi = 3 }\n")
		r := runCmd(t, "", "run", "agi", "--setup", setup)
		_, msg, _ := strings.Cut(r.stderr, "error: ")
		msg, _, _ = strings.Cut(msg, "\n")
		_, after, ok := strings.Cut(msg, n+" ")
		if r.code != 1 || !ok {
			t.Fatalf("agi = %s: exit status %d, stderr:\n%s", n, r.code, r.stderr)
		}
		got = append(got, " "+after)
	}
	want := " is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly"
	if diff := cmp.Diff([]string{want, want, want}, got); diff != "" {
		t.Errorf("the words after the number (-want +got):\n%s", diff)
	}
}

// Sides of the same names in a scenario (the house rule's Jay and Rob, with
// models) cannot be picked by --sides: the note says how to play them. A
// file whose blocks are all the same sides needs no note.
func TestRunSetupSameNames(t *testing.T) {
	dir := t.TempDir()
	const rules = "ruleset house {\n  sides 2\n  phase p each round {\n    order sides as priority {\n      highest roll d6\n      tie: reroll\n    }\n  }\n  example {\n    side Jay\n    side Rob\n  }\n}\n"
	withUnits := writeFile(t, dir, "units.rules", rules+"scenario \"models\" {\n  ruleset house\n  side Jay { unit a }\n  side Rob\n  round 1 {\n    roll Jay 2, Rob 1\n  }\n}\n")
	same := writeFile(t, dir, "same.rules", rules+"scenario \"plain\" {\n  ruleset house\n  side Jay\n  side Rob\n  round 1 {\n    roll Jay 2, Rob 1\n  }\n}\n")
	expectation{code: 0, stdout: []string{"sides: Jay, Rob\n"}, stderr: []string{"turnorder run: note: --setup " + withUnits +
		": the sides are those of the example of ruleset house (" + withUnits + ":9), the first in the file; scenario \"models\" has other sides of the same names, which --sides cannot pick: to play them, copy its `side` statements into a file of their own\n"}}.
		check(t, runCmd(t, "", "run", withUnits, "--setup", withUnits, "--rounds", "1"))
	expectation{code: 0, notStderr: []string{"note"}}.check(t, runCmd(t, "", "run", same, "--setup", same, "--rounds", "1"))
}

// A ruleset with no order of sides runs with nobody holding priority, and
// the activations of a phase's loop say the phase.
func TestRunNoOrderOfSides(t *testing.T) {
	r := runCmd(t, "", "run", "../../examples/procedures/no-priority.rules", "--rounds", "1", "--seed", "1")
	expectation{code: 0, stdout: []string{" in Orders", "→ order: none   holder: none   chooser: none\n"}}.check(t, r)
}
