package conformance_test

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/rulesets"
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

// A ruleset file that is not there is said as turnorder says a missing
// file, "X: no such file or directory", not in Go's words ("open X: ..."),
// by every loader; the *fs.PathError is still there for a host to find.
func TestMissingRulesetFileWording(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nothere.rules")
	scenario := filepath.Join(dir, "s.rules")
	const src = "scenario \"s\" {\n  ruleset \"nothere.rules\"\n  side A\n  side B\n  round 1 { expect holder A }\n}\n"
	fsys := fstest.MapFS{"s.rules": {Data: []byte(src)}}

	failure := func(rs []conformance.Result) error {
		if len(rs) != 1 || len(rs[0].Failures) != 1 {
			t.Fatalf("results %+v, want one failure", rs)
		}
		return errors.New(rs[0].Failures[0].Diff)
	}
	_, loadFileErr := rulesets.Load(missing)
	_, loadErr := conformance.Load("nothere.rules", scenario)
	rs, err := conformance.RunSource(context.Background(), scenario, []byte(src), conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runErr := failure(rs)
	rs, err = conformance.RunFS(context.Background(), fsys, conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runFSErr := failure(rs)
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"rulesets.Load", loadFileErr, missing + ": no such file or directory"},
		{"Load", loadErr, "ruleset nothere.rules: " + missing + ": no such file or directory"},
		{"RunSource", runErr, "ruleset nothere.rules: " + missing + ": no such file or directory"},
		{"RunFS", runFSErr, "ruleset nothere.rules: nothere.rules: no such file or directory"},
	} {
		if tt.err == nil || !strings.HasSuffix(tt.err.Error(), tt.want) || strings.Contains(tt.err.Error(), "open ") {
			t.Errorf("%s: %v\nwant ...%s", tt.name, tt.err, tt.want)
		}
	}
	for _, err := range []error{loadFileErr, loadErr} {
		if _, ok := errors.AsType[*fs.PathError](err); !ok || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%v: want an *fs.PathError, fs.ErrNotExist", err)
		}
	}
}
