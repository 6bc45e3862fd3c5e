package conformance_test

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// FuzzScenario lints and runs whatever parses as scenarios of the bundled
// rulesets: a scenario file is a user's file, so the runner must never
// panic or hang on one, and every failure it reports must point into it.
//
//	go test ./conformance -run '^$' -fuzz FuzzScenario -fuzztime 60s
func FuzzScenario(f *testing.F) {
	err := fs.WalkDir(conformance.Suite(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := fs.ReadFile(conformance.Suite(), p)
		if err != nil {
			return err
		}
		// One seed per scenario: small inputs mutate faster.
		file, diags := dsl.Parse(p, src)
		if diags.HasErrors() {
			return fmt.Errorf("%s", diags.Render(string(src)))
		}
		for _, d := range file.Decls {
			if sc, ok := d.(*dsl.Scenario); ok {
				f.Add(string(src[sc.Pos().Offset:sc.End().Offset]))
			}
		}
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
	// Scenarios take bundled rulesets only: a path would read whatever
	// file the fuzzer names.
	opts := conformance.Options{Load: func(name, _ string) (*runtime.Program, error) {
		if !slices.Contains(rulesets.Names(), name) {
			return nil, fmt.Errorf("unknown ruleset %q", name)
		}
		return conformance.Load(name, "")
	}}
	f.Fuzz(func(t *testing.T, src string) {
		file, diags := dsl.Parse("fuzz.rules", []byte(src))
		if diags.HasErrors() {
			return
		}
		for _, d := range conformance.Lint(file, opts) {
			checkPos(t, src, "lint: "+d.Message, d.Pos)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for _, res := range conformance.RunFile(ctx, file, opts) {
			for _, fl := range res.Failures {
				if strings.Contains(fl.Diff, context.DeadlineExceeded.Error()) {
					t.Fatalf("scenario %q took more than 10s: %s", res.Title, fl.Diff)
				}
				checkPos(t, src, fl.Diff, fl.Pos)
			}
		}
	})
}

// checkPos fails t unless pos is a place in fuzz.rules.
func checkPos(t *testing.T, src, msg string, pos dsl.Pos) {
	t.Helper()
	if pos.Filename != "fuzz.rules" || pos.Line < 1 || pos.Offset < 0 || pos.Offset > len(src) {
		t.Fatalf("%q is reported at %v, which is not a place in the file", msg, pos)
	}
}
