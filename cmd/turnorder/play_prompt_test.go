package main

// Tests of how play reads an answer: options by number, name or start,
// arrangements, and help at every prompt.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseArrangement(t *testing.T) {
	opts := []string{"Aria", "Cole", "Malleus Deus"}
	tests := []struct {
		in   string
		want []string
		bad  string
	}{
		{"3, 1, 2", []string{"Malleus Deus", "Aria", "Cole"}, ""},
		{"3 1 2", []string{"Malleus Deus", "Aria", "Cole"}, ""},
		{"Malleus Deus, cole", []string{"Malleus Deus", "Cole", "Aria"}, ""}, // the last may be left out
		{"2,1", []string{"Cole", "Aria", "Malleus Deus"}, ""},
		{"Cole", nil, "arrange all 3"},
		{"1, 1, 2", nil, "named twice"},
		{"1, 4, 2", nil, `"4" is not one of the options`},
	}
	for _, tt := range tests {
		got, why := parseArrangement(tt.in, opts)
		if !slices.Equal(got, tt.want) || !strings.Contains(why, tt.bad) || (tt.bad == "") != (why == "") {
			t.Errorf("parseArrangement(%q) = %q, %q; want %q, %q", tt.in, got, why, tt.want, tt.bad)
		}
	}
}

// "help" works at every prompt: it says what can be typed there and asks
// again.
func TestPlayHelp(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "s2.json")
	r := runCmd(t, "help\n4\n?\n2\nhelp\nJay\nhelp\nsave\nhelp\nsave "+saved+"\nn\n", "play", "mesbg")
	expectation{code: 0, stdout: []string{
		"Round 1, priority: Jay rolls d6: help\n  type the result the d6 shows, 1 to 6\n" +
			"  save [FILE]: save the battle as it stands, to resume it here with --resume (without FILE, play asks for one)\n" +
			"  quit: stop here, once the battle as it stands is saved (play says how to resume it)\n" +
			"  undo: take back the last answer (or change), and ask it again; undo again goes further back, to the start of the battle\n" +
			"Round 1, priority: Jay rolls d6: 4\n",
		"Round 1, priority: Rob rolls d6: ?\n  type the result the d6 shows, 1 to 6\n" +
			"  save [FILE]: save the battle as it stands, to resume it here with --resume (without FILE, play asks for one)\n" +
			"  quit: stop here, once the battle as it stands is saved (play says how to resume it)\n" +
			"  undo: take back the last answer (or change), and ask it again; undo again goes further back, to the start of the battle\n" +
			"Round 1, priority: Rob rolls d6: 2\n",
		"Jay chooses [Jay]: help\n  type the number or the name of one of these:\n  1. Jay\n  2. Rob\n  Enter takes Jay\n" +
			"  save [FILE]: save the battle as it stands, to resume it here with --resume (without FILE, play asks for one)\n" +
			"  quit: stop here, once the battle as it stands is saved (play says how to resume it)\n" +
			"  undo: take back the last answer (or change), and ask it again; undo again goes further back, to the start of the battle\n" +
			"Jay chooses [Jay]: Jay\n",
		"another round? [Y/n/save] help\n  y, or Enter ",
		"  save [FILE]               save the battle to FILE (without FILE, play asks for one)\n",
		"  UNIT is [not] STATUS      give a unit a status, or take it away (statuses: this ruleset declares none)\n",
		"save to which file? help\n  type the name of a file",
		// "save FILE" at "save to which file?" names FILE.
		"save to which file? save " + saved + "\n  saved to " + saved + "\n",
	}, notStdout: []string{"is not a number", "is not one of the options"}}.check(t, r)
	if _, err := os.Stat(saved); err != nil {
		t.Error(err)
	}

	// The help of "another round?" names the --save file a bare save
	// writes, and the ruleset's statuses.
	setup := writeFile(t, dir, "gangs.rules", "side A {\n  unit a1\n}\nside B {\n  unit b1\n}\n")
	r = runCmd(t, "4\n2\nhelp\nn\n", "play", "necromunda", "--setup", setup, "--save", filepath.Join(dir, "g.json"))
	expectation{code: 0, stdout: []string{
		"save the battle to FILE (without FILE, to " + filepath.Join(dir, "g.json") + ")\n",
		"(statuses: out_of_action, seriously_injured, not_on_battlefield)\n",
	}}.check(t, r)

	// An arrangement, and a random pick.
	team := writeFile(t, dir, "team.rules", "side A team Red {\n  unit Aria agi = 5\n}\nside B team Blue {\n  unit Bran agi = 3\n}\nside C team Red {\n  unit Cole agi = 5\n}\n")
	r = runCmd(t, "help\n2, 1\n", "play", "agi", "--setup", team, "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Red arranges [Aria, Cole]: help\n  type all 2, first to last, by number or name, separated by commas (such as 2, 1); the last one can be left out\n  1. Aria\n  2. Cole\n  Enter takes Aria, Cole\n" +
			"  save [FILE]: save the battle as it stands, to resume it here with --resume (without FILE, play asks for one)\n" +
			"  quit: stop here, once the battle as it stands is saved (play says how to resume it)\n" +
			"  undo: take back the last answer (or change), and ask it again; undo again goes further back, to the start of the battle\n",
		"  → order: Cole, Aria, Bran ",
	}}.check(t, r)
	r = runCmd(t, "help\n2\n", "play", "morturi", "--setup", setup, "--rounds", "1") // equal schools: a random pick
	expectation{code: 0, stdout: []string{
		"random pick: help\n  pick at random at the table (roll off, or draw lots), then type who was picked\n  type the number or the name of one of these:\n  1. A\n  2. B\n" +
			"  save [FILE]: save the battle as it stands, to resume it here with --resume (without FILE, play asks for one)\n" +
			"  quit: stop here, once the battle as it stands is saved (play says how to resume it)\n" +
			"  undo: take back the last answer (or change), and ask it again; undo again goes further back, to the start of the battle\n" +
			"random pick: 2\n",
		"  → order: B, A ",
	}}.check(t, r)
}

// An answer at the table is an option's number or name, in any case, or
// the start of one name only: "ludi" for "Ludi Aeternum".
func TestResolveOption(t *testing.T) {
	options := []string{"Ludi Aeternum", "Legio Mortis", "Vi Et Armis", "pass"}
	for _, tt := range []struct {
		ans, want string
		ok        bool
	}{
		{"2", "Legio Mortis", true},
		{"Vi Et Armis", "Vi Et Armis", true},
		{"vi et armis", "Vi Et Armis", true},
		{"ludi", "Ludi Aeternum", true},
		{"Vi", "Vi Et Armis", true},
		{"p", "pass", true},
		{"L", "", false}, // Ludi or Legio
		{"5", "", false},
		{"Zed", "", false},
		{"", "", false},
	} {
		got, ok := resolveOption(tt.ans, options)
		if got != tt.want && ok || ok != tt.ok {
			t.Errorf("resolveOption(%q) = %q, %v; want %q, %v", tt.ans, got, ok, tt.want, tt.ok)
		}
	}
	// An exact name wins over a longer one it starts.
	if got, ok := resolveOption("Ann", []string{"Anna", "Ann"}); got != "Ann" || !ok {
		t.Errorf(`resolveOption("Ann") = %q, %v; want "Ann", true`, got, ok)
	}
}

// The start of two names is asked again, saying which it may be.
func TestPlayAmbiguousName(t *testing.T) {
	r := runCmd(t, "4\n2\nJ\nJa\n", "play", "mesbg", "--sides", "Jay,Jo", "--rounds", "1")
	expectation{code: 0, stdout: []string{
		"Jay chooses [Jay]: J\n  \"J\" may be Jay or Jo: type more of the name, or its number\nJay chooses [Jay]: Ja\n",
		"  → order: Jay, Jo   holder: Jay   chooser: Jay\n",
	}}.check(t, r)
}
