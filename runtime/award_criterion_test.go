package runtime_test

import (
	"testing"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// An award of `lowest(...)` is explained as a criterion only when it does
// not compile: a host's function called lowest can still name a subject.
func TestAwardOfHostFunctionCalledLowest(t *testing.T) {
	src := `ruleset x {
  sides 2
  phase p {
    order sides as o {
      highest roll d6
      tie: award lowest(tied)
    }
  }
}
`
	f, diags := dsl.Parse("x.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags)
	}
	first := func(params ...any) (any, error) { return "A", nil }
	if _, err := runtime.Compile(f, runtime.WithFunction("lowest", first, new(func(any) string))); err != nil {
		t.Fatalf("a host function called lowest cannot be awarded: %v", err)
	}
	if _, err := runtime.Compile(f); err == nil {
		t.Fatal("without the host function, the award compiled")
	}
}
