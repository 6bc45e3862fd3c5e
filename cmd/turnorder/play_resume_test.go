package main

// Tests of play --resume given saves edited by hand: refused with one
// line that names what is wrong, never a panic.

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// necromundaSaves returns saves of the bundled Necromunda, as a host
// saves them (without "played_with"): of its example battle in the middle
// of round 2, two activations in, and after round 1; and of three gangs in
// the middle of round 1's roll-off, waiting for the reroll of two tied
// on 4.
func necromundaSaves(t *testing.T) (mid, between, rolloff map[string]any) {
	t.Helper()
	f, err := rulesets.Parse("necromunda")
	if err != nil {
		t.Fatal(err)
	}
	p, err := runtime.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	decode := func(b *runtime.Battle) map[string]any {
		data, err := b.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(7)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.AdvanceRound(ctx); err != nil {
		t.Fatal(err)
	}
	between = decode(b)
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := b.Step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	gangs := []runtime.SideSpec{
		{Name: "Goliaths", Units: []runtime.UnitSpec{{Name: "Krug"}, {Name: "Grath"}}},
		{Name: "Eschers", Units: []runtime.UnitSpec{{Name: "Mira"}, {Name: "Sable"}}},
		{Name: "Cawdor", Units: []runtime.UnitSpec{{Name: "Ash"}}},
	}
	r, err := p.NewBattle(gangs, runtime.WithDice(runtime.AskHost{}), runtime.WithDecider(runtime.AskHost{}))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.StartRound(ctx); !errors.Is(err, runtime.ErrPending) {
		t.Fatalf("StartRound: %v, want the roll-off pending", err)
	}
	if err := r.Answer(ctx, runtime.RollAnswer(4, 4, 2)); err != nil {
		t.Fatal(err)
	}
	return decode(b), between, decode(r)
}

func units(s map[string]any) []map[string]any {
	var out []map[string]any
	for _, sd := range s["sides"].([]any) {
		for _, u := range sd.(map[string]any)["units"].([]any) {
			out = append(out, u.(map[string]any))
		}
	}
	return out
}

func current(s map[string]any) map[string]any { return s["current"].(map[string]any) }

// entry is the i'th entry of the journal of the call a save was made in.
func entry(s map[string]any, i int) map[string]any {
	return s["journal"].([]any)[i].(map[string]any)
}

// play --resume refuses a tampered save with exit status 1 and one line
// on stderr naming the field at fault.
func TestPlayResumeRefusesTamperedSaves(t *testing.T) {
	const mid, between, rolloff = "mid", "between", "rolloff"
	tests := []struct {
		name string
		base string
		edit func(s map[string]any)
		want []string
	}{
		{"a holder that is no side", mid, func(s map[string]any) { current(s)["holder"] = "Orks" },
			[]string{"current.holder", `"Orks" is no side or unit`}},
		{"a previous holder that is no side", between, func(s map[string]any) { s["memory"].(map[string]any)["holder"] = "Orks" },
			[]string{"memory.holder", `"Orks" is no side or unit`}},
		{"the holder not first in its order", mid, func(s map[string]any) {
			order := s["standings"].(map[string]any)["priority"].(map[string]any)["order"].([]any)
			current(s)["holder"] = order[1]
		}, []string{"current.holder", "is first in order priority"}},
		{"a fighter that activated made ready again", mid, func(s map[string]any) {
			first := current(s)["activations"].([]any)[0].(map[string]any)["unit"]
			for _, u := range units(s) {
				if u["name"] == first {
					u["ready"] = true
				}
			}
		}, []string{".ready", "has already activated in round 2"}},
		{"a fighter out of action and ready", mid, func(s map[string]any) {
			for _, u := range units(s) {
				if u["ready"] == true {
					u["status"] = []any{"out_of_action"}
					break
				}
			}
		}, []string{".ready", "is out_of_action"}},
		{"turn 99", mid, func(s map[string]any) { current(s)["turn"] = 99 }, []string{"current.turn", "turn 99 does not fit round 2"}},
		{"the largest turn", mid, func(s map[string]any) { current(s)["turn"] = int64(math.MaxInt64) }, []string{"current.turn"}},
		{"the largest round", between, func(s map[string]any) { s["round"] = int64(math.MaxInt64) }, []string{"round", "is not a round a battle can reach"}},
		{"an undeclared status", mid, func(s map[string]any) { units(s)[0]["status"] = []any{"drunk"} },
			[]string{"sides[0].units[0].status[0]", "drunk is not a status"}},
		{"a fighter's name twice", mid, func(s map[string]any) { units(s)[1]["name"] = units(s)[0]["name"] },
			[]string{"sides[0].units[1].name", "is already"}},
		{"an activation by no side", mid, func(s map[string]any) {
			current(s)["activations"].([]any)[0].(map[string]any)["side"] = "Orks"
		}, []string{"current.activations[0].side"}},
		{"steps beyond the limit", mid, func(s map[string]any) { current(s)["steps"] = int64(1 << 40) }, []string{"current.steps"}},
		{"a newer format", mid, func(s map[string]any) { s["format"] = s["format"].(float64) + 1 }, []string{"format", "from a newer turnorder"}},
		{"another ruleset's fingerprint", mid, func(s map[string]any) { s["fingerprint"] = "sha256:0123" },
			[]string{"was saved with a different ruleset named necromunda", `delete "fingerprint"`}},
		{"a die the dice cannot show", rolloff, func(s map[string]any) { entry(s, 0)["rolls"] = []any{7, 4, 2} },
			[]string{"journal[0]", "which is impossible on d6"}},
		{"a roll for fewer gangs", rolloff, func(s map[string]any) { entry(s, 0)["rolls"] = []any{4, 4} },
			[]string{"journal[0]", "2 results for 3 subjects"}},
		{"a journal entry of no kind", rolloff, func(s map[string]any) { entry(s, 0)["kind"] = "dance" },
			[]string{"journal[0].kind", `"dance" is no kind of entry`}},
		{"a decision where a roll was made", rolloff, func(s map[string]any) {
			s["journal"] = []any{map[string]any{"kind": "decision", "choice": []any{"Goliaths"}, "host": true}}
		}, []string{"journal[0]", "the rules ask for a roll here, not a decision"}},
		{"a journal that leads elsewhere", rolloff, func(s map[string]any) { entry(s, 0)["rolls"] = []any{6, 4, 2} },
			[]string{"waiting", "but its journal ends the call (start_round) without it"}},
		{"a reroll waited for by others", rolloff, func(s map[string]any) {
			s["waiting"].(map[string]any)["roll"].(map[string]any)["subjects"] = []any{"Goliaths", "Cawdor"}
		}, []string{"waiting", "but its journal leads to"}},
		{"an entry the call never reaches", rolloff, func(s map[string]any) {
			s["journal"] = append(s["journal"].([]any), map[string]any{"kind": "roll", "rolls": []any{5, 3}, "host": true},
				map[string]any{"kind": "roll", "rolls": []any{2, 2}, "host": true})
		}, []string{"journal[2]", "the call (start_round) ended before this input was asked for"}},
		{"a call under way and nothing waited for", rolloff, func(s map[string]any) { delete(s, "waiting") },
			[]string{"waiting", "not the input it waits for"}},
		{"a journal and no call under way", rolloff, func(s map[string]any) { delete(s, "op") },
			[]string{"journal", "names the call (op) it was in"}},
		{"a call of no kind", rolloff, func(s map[string]any) { s["op"].(map[string]any)["kind"] = "dance" },
			[]string{"op.kind", `"dance" is no call`}},
		{"a call under way in a save of format 2", rolloff, func(s map[string]any) { s["format"] = 2 },
			[]string{"op", "format 2 holds no call under way"}},
		{"a host's answer rolled by seeded dice", rolloff, func(s map[string]any) { entry(s, 0)["dice"] = "cGNnOgAAAAAAAAAFnjd5uX9KfBA=" },
			[]string{"journal[0].dice", "was not rolled by the battle's dice"}},
	}
	if len(tests) < 25 {
		t.Fatalf("only %d tampered saves", len(tests))
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			saves := map[string]map[string]any{}
			saves[mid], saves[between], saves[rolloff] = necromundaSaves(t)
			s := saves[tt.base]
			tt.edit(s)
			data, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			path := writeFile(t, dir, filepath.Base(t.Name())+".json", string(data))
			r := runCmd(t, "1\n1\n1\n1\n1\n1\n", "play", "necromunda", "--resume", path, "--rounds", "1")
			expectation{code: 1, stderr: append([]string{"turnorder play: "}, tt.want...), oneLine: true,
				notStderr: []string{"panic", "goroutine"}}.check(t, r)
		})
	}
}

// A save of another ruleset named necromunda, which names no ruleset
// file, is refused by its fingerprint; one of format 1 (from before saves
// had one) resumes.
func TestPlayResumeFingerprintAndFormat(t *testing.T) {
	dir := t.TempDir()
	src, err := rulesets.Read("necromunda")
	if err != nil {
		t.Fatal(err)
	}
	house := writeFile(t, dir, "house.rules", strings.Replace(string(src.Text), "highest roll d6", "lowest roll d6", 1))
	mid, _, _ := necromundaSaves(t)
	data, _ := json.Marshal(mid)
	saved := writeFile(t, dir, "battle.json", string(data))
	expectation{code: 1, oneLine: true, stderr: []string{
		"turnorder play: " + saved + " was saved with a different ruleset named necromunda (its rules differ from those of " + house + "): " +
			"resume it with the ruleset it was saved with (or, to play it on with " + house + " all the same, delete \"fingerprint\" from " + saved + ")\n",
	}}.check(t, runCmd(t, "", "play", house, "--resume", saved, "--rounds", "1"))

	delete(mid, "format")
	delete(mid, "fingerprint")
	delete(current(mid), "readied")
	data, _ = json.Marshal(mid)
	old := writeFile(t, dir, "old.json", string(data))
	r := runCmd(t, strings.Repeat("1\n", 20), "play", "necromunda", "--resume", old, "--rounds", "1")
	expectation{code: 0, stdout: []string{"resumed from " + old + " in round 2"}}.check(t, r)
}
