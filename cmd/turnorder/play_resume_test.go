package main

// Tests of play --resume given saves edited by hand: refused with one
// line that names what is wrong, never a panic.

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// necromundaSaves returns a save of the bundled Necromunda's example
// battle in the middle of round 2, two activations in, and one after
// round 1, as a host saves them (without "played_with").
func necromundaSaves(t *testing.T) (mid, between map[string]any) {
	t.Helper()
	f, err := rulesets.Parse("necromunda")
	if err != nil {
		t.Fatal(err)
	}
	p, err := runtime.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(7)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	decode := func() map[string]any {
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
	if err := b.AdvanceRound(ctx); err != nil {
		t.Fatal(err)
	}
	between = decode()
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := b.Step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return decode(), between
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

// play --resume refuses a tampered save with exit status 1 and one line
// on stderr naming the field at fault.
func TestPlayResumeRefusesTamperedSaves(t *testing.T) {
	tests := []struct {
		name    string
		between bool
		edit    func(s map[string]any)
		want    []string
	}{
		{"a holder that is no side", false, func(s map[string]any) { current(s)["holder"] = "Orks" },
			[]string{"current.holder", `"Orks" is no side or unit`}},
		{"a previous holder that is no side", true, func(s map[string]any) { s["memory"].(map[string]any)["holder"] = "Orks" },
			[]string{"memory.holder", `"Orks" is no side or unit`}},
		{"the holder not first in its order", false, func(s map[string]any) {
			order := s["standings"].(map[string]any)["priority"].(map[string]any)["order"].([]any)
			current(s)["holder"] = order[1]
		}, []string{"current.holder", "is first in order priority"}},
		{"a fighter that activated made ready again", false, func(s map[string]any) {
			first := current(s)["activations"].([]any)[0].(map[string]any)["unit"]
			for _, u := range units(s) {
				if u["name"] == first {
					u["ready"] = true
				}
			}
		}, []string{".ready", "has already activated in round 2"}},
		{"a fighter out of action and ready", false, func(s map[string]any) {
			for _, u := range units(s) {
				if u["ready"] == true {
					u["status"] = []any{"out_of_action"}
					break
				}
			}
		}, []string{".ready", "is out_of_action"}},
		{"turn 99", false, func(s map[string]any) { current(s)["turn"] = 99 }, []string{"current.turn", "turn 99 does not fit round 2"}},
		{"the largest turn", false, func(s map[string]any) { current(s)["turn"] = int64(math.MaxInt64) }, []string{"current.turn"}},
		{"the largest round", true, func(s map[string]any) { s["round"] = int64(math.MaxInt64) }, []string{"round", "is not a round a battle can reach"}},
		{"an undeclared status", false, func(s map[string]any) { units(s)[0]["status"] = []any{"drunk"} },
			[]string{"sides[0].units[0].status[0]", "drunk is not a status"}},
		{"a fighter's name twice", false, func(s map[string]any) { units(s)[1]["name"] = units(s)[0]["name"] },
			[]string{"sides[0].units[1].name", "is already"}},
		{"an activation by no side", false, func(s map[string]any) {
			current(s)["activations"].([]any)[0].(map[string]any)["side"] = "Orks"
		}, []string{"current.activations[0].side"}},
		{"steps beyond the limit", false, func(s map[string]any) { current(s)["steps"] = int64(1 << 40) }, []string{"current.steps"}},
		{"a newer format", false, func(s map[string]any) { s["format"] = s["format"].(float64) + 1 }, []string{"format", "from a newer turnorder"}},
		{"another ruleset's fingerprint", false, func(s map[string]any) { s["fingerprint"] = "sha256:0123" },
			[]string{"was saved with a different ruleset named necromunda", `delete "fingerprint"`}},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mid, between := necromundaSaves(t)
			s := mid
			if tt.between {
				s = between
			}
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
	mid, _ := necromundaSaves(t)
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
