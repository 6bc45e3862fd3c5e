package main

// Tests of odds --decide, against odds derived by hand.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// heroicJay: after a D6 roll-off, Jay may declare a heroic move, and goes
// first if it does. Jay wins the roll-off half the time, so it holds
// priority with 1/2 never declaring, 1 always declaring, and 1/2·1 +
// 1/2·1/2 = 3/4 declaring at random.
const heroicJay = `ruleset heroic_jay {
  sides 2
  phase priority {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
    decide heroic bool by Jay default no
  }
  on end of phase priority when heroic {
    holder = "Jay"
  }
  example {
    side Jay
    side Rob
  }
}
`

func TestOddsDecide(t *testing.T) {
	path := filepath.Join(t.TempDir(), "heroic.rules")
	if err := os.WriteFile(path, []byte(heroicJay), 0o644); err != nil {
		t.Fatal(err)
	}
	holder := func(r result) map[string]string {
		t.Helper()
		var doc struct {
			Rounds []struct {
				Holder map[string]string `json:"holder"`
			} `json:"rounds"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Rounds) != 1 {
			t.Fatalf("%v: %s %s", err, r.stdout, r.stderr)
		}
		return doc.Rounds[0].Holder
	}
	for _, tc := range []struct {
		args []string
		jay  string
	}{
		{nil, "1/2"},
		{[]string{"--decide", "heroic=yes"}, "1"},
		{[]string{"--decide", "heroic=true"}, "1"},
		{[]string{"--decide", "heroic=no"}, "1/2"},
		{[]string{"--decide", "heroic=random"}, "3/4"},
	} {
		r := runCmd(t, "", append([]string{"odds", path, "--json"}, tc.args...)...)
		if got := holder(r)["Jay"]; got != tc.jay {
			t.Errorf("%v: P(Jay) = %s, want %s", tc.args, got, tc.jay)
		}
	}

	r := runCmd(t, "", "odds", path, "--json", "--decide", "heroic=each")
	var doc struct {
		Each []struct {
			Decision, Answer string
			Rounds           []struct {
				Holder map[string]string `json:"holder"`
			} `json:"rounds"`
		} `json:"each"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v: %s %s", err, r.stdout, r.stderr)
	}
	var got []string
	for _, e := range doc.Each {
		got = append(got, e.Decision+"="+e.Answer+": "+e.Rounds[0].Holder["Jay"])
	}
	if diff := cmp.Diff([]string{"heroic=yes: 1", "heroic=no: 1/2"}, got); diff != "" {
		t.Errorf("--decide heroic=each (-want +got):\n%s", diff)
	}

	r = runCmd(t, "", "odds", path, "--decide", "heroic=each")
	expectation{code: 0, stdout: []string{
		"heroic_jay, where heroic is yes: exact odds over 1 round",
		"heroic_jay, where heroic is no: exact odds over 1 round",
	}}.check(t, r)
	r = runCmd(t, "", "odds", path, "--decide", "heroic=maybe")
	expectation{code: 1, stderr: []string{"--decide heroic=maybe: maybe is no answer to heroic (answers: yes, no; or random, or each)"}}.check(t, r)
	r = runCmd(t, "", "odds", path, "--decide", "bid=1")
	expectation{code: 1, stderr: []string{"--decide bid: heroic_jay has no decision bid (its decisions: heroic)\n"}}.check(t, r)
	r = runCmd(t, "", "odds", path, "--decide", "heroc=each")
	expectation{code: 1, stderr: []string{"--decide heroc: heroic_jay has no decision heroc (its decisions: heroic; did you mean heroic?)"}}.check(t, r)
}
