package conformance_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/runtime"
)

// RunFS reads a scenario's `ruleset "FILE"` from the file system it was
// given, relative to the scenario's file, as Load does from the disk: a
// suite embedded in a program, or held in memory, runs without a copy on
// the disk.
func TestRunFSReadsRulesetsFromItsFS(t *testing.T) {
	const duel = `ruleset duel "A duel" {
  sides 2
  side attribute speed int
  phase p {
    order sides as p {
      highest speed
      highest roll d6
      tie: reroll
    }
  }
}
`
	const scenarios = `scenario "the faster goes first" {
  ruleset "../rules/duel.rules"
  side A speed = 1
  side B speed = 2
  round 1 { expect order B, A }
}
scenario "a tie on speed rolls off" {
  ruleset "../rules/duel.rules"
  side A speed = 2
  side B speed = 2
  round 1 { roll A 3, B 5; expect holder B }
}
`
	fsys := fstest.MapFS{
		"rules/duel.rules":    {Data: []byte(duel)},
		"suite/duels.rules":   {Data: []byte(scenarios)},
		"suite/bundled.rules": {Data: []byte("scenario \"bundled\" {\n  ruleset mesbg\n  side Jay\n  side Rob\n  round 1 { roll Jay 4, Rob 2; Jay chooses Jay; expect holder Jay }\n}\n")},
	}
	tests := []struct {
		name string
		opts conformance.Options
	}{
		{"default", conformance.Options{}},
		{"with compile options", conformance.Options{Compile: []runtime.Option{runtime.WithLimits(runtime.Limits{MaxRerolls: 5})}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results, err := conformance.RunFS(context.Background(), fsys, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			type outcome struct {
				File, Title string
				Failures    []string
			}
			var got []outcome
			for _, r := range results {
				o := outcome{File: r.File, Title: r.Title}
				for _, f := range r.Failures {
					o.Failures = append(o.Failures, f.String())
				}
				got = append(got, o)
			}
			want := []outcome{ // rules/duel.rules has no scenario
				{File: "suite/bundled.rules", Title: "bundled"},
				{File: "suite/duels.rules", Title: "the faster goes first"},
				{File: "suite/duels.rules", Title: "a tie on speed rolls off"},
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
		})
	}
}
