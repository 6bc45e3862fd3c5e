package conformance_test

import (
	"context"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// Helpers shared by the package's tests.

// mutant compiles a bundled ruleset with old replaced by new (old must
// occur exactly once).
func mutant(t *testing.T, name, old, new string) *runtime.Program {
	t.Helper()
	source, err := rulesets.Read(name)
	if err != nil {
		t.Fatal(err)
	}
	filename, src := source.Filename, source.Text
	if n := strings.Count(string(src), old); n != 1 {
		t.Fatalf("%s: %q occurs %d times; the mutation needs it exactly once", filename, old, n)
	}
	text := strings.Replace(string(src), old, new, 1)
	f, diags := dsl.Parse(filename, []byte(text))
	if diags.HasErrors() {
		t.Fatalf("the mutant does not parse:\n%s", diags.Render(text))
	}
	p, err := runtime.Compile(f)
	if err != nil {
		t.Fatalf("the mutant does not compile: %v", err)
	}
	return p
}

// oneFailure runs the one scenario of src and returns its one failure.
func oneFailure(t *testing.T, src string) conformance.Failure {
	t.Helper()
	results, err := conformance.RunSource(context.Background(), "s.rules", []byte(src), conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || len(results[0].Failures) != 1 {
		t.Fatalf("results %+v, want one failure", results)
	}
	return results[0].Failures[0]
}
