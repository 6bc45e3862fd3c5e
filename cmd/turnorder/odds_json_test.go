package main

// Tests of the JSON document of odds --json.

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
