package dsltest

import (
	"testing"

	"github.com/turnorder/turnorder/dsl"
)

// A marker is matched against a diagnostic's message and hint together,
// as a line of output shows them, so that a pattern covering a hint checks
// the hint.
func TestMarkerMatchesHint(t *testing.T) {
	chunks, err := split("h.rules", "ruleset x {\n  random() # ### `random is a criterion, not a function: write .random.$`\n}\n")
	if err != nil || len(chunks) != 1 {
		t.Fatalf("split: %v, %d chunks", err, len(chunks))
	}
	pos := dsl.Pos{Filename: "h.rules", Line: 2, Column: 9}
	withHint := dsl.Errorf(pos, "unexpected %q", "(").WithHint("random is a criterion, not a function: write `random`")
	if m := Mismatches("h.rules", chunks[0], dsl.Diagnostics{withHint}); len(m) > 0 {
		t.Errorf("the hint is not matched:\n%v", m)
	}
	bare := dsl.Errorf(pos, "unexpected %q", "(")
	if m := Mismatches("h.rules", chunks[0], dsl.Diagnostics{bare}); len(m) == 0 {
		t.Error("a diagnostic without the hint matched a marker that covers it")
	}
}
