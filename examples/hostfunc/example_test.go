package main

import (
	"os"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// The order comes from the host's threat values; equal threats roll off.
// In round 2 the Orcs' threat has dropped, and they go first.
func Example() {
	if err := play(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// round 1: [Dwarves Elves Orcs]
	//   1. Dwarves by highest roll d6 = 5 (skirmish.rules:9:7)
	//   2. Elves   by highest roll d6 = 3 (skirmish.rules:9:7)
	//   3. Orcs    by lowest threat(name) = 300 (skirmish.rules:7:7)
	// round 2: [Orcs Elves Dwarves]
	//   1. Orcs    by lowest threat(name) = 200 (skirmish.rules:7:7)
	//   2. Elves   by highest roll d6 = 6 (skirmish.rules:9:7)
	//   3. Dwarves by highest roll d6 = 1 (skirmish.rules:9:7)
}

// With a signature, a call of a host function is type-checked when the
// ruleset is compiled, and a mistake is reported at its place in the rule.
func TestHostFunctionIsTypeChecked(t *testing.T) {
	src := strings.Replace(skirmish, "lowest threat(name)", "lowest threat(1)", 1)
	f, diags := dsl.Parse("skirmish.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	threat := func(...any) (any, error) { return 0, nil }
	_, err := runtime.Compile(f, runtime.WithFunction("threat", threat, new(func(string) int)))
	if err == nil || !strings.Contains(err.Error(), "skirmish.rules:7:21: error: cannot use int as argument (type string) to call threat") {
		t.Errorf("Compile: %v", err)
	}
}

// Without the function, the ruleset does not compile: threat is unknown.
func TestHostFunctionIsNeeded(t *testing.T) {
	f, _ := dsl.Parse("skirmish.rules", []byte(skirmish))
	_, err := runtime.Compile(f)
	if err == nil || !strings.Contains(err.Error(), "skirmish.rules:7:14") {
		t.Errorf("Compile without WithFunction: %v", err)
	}
}
